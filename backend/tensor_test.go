package backend

import (
	"slices"
	"strings"
	"testing"
)

func TestTensorDescription(t *testing.T) {
	d := &TensorDescription{Format: TensorFloat16, Dimensions: []int64{2, 3, 5}}
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	if s := d.ByteStrides(); !slices.Equal(s, []int64{30, 10, 2}) {
		t.Errorf("packed strides %v", s)
	}
	if e := d.Extent(); e != 60 {
		t.Errorf("packed extent %d", e)
	}
	d.Strides = []int64{64, 12, 2}
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	if e := d.Extent(); e != 64+24+8+2 {
		t.Errorf("extent %d", e)
	}
	for _, c := range []struct {
		d    TensorDescription
		want string
	}{
		{TensorDescription{Format: 99, Dimensions: []int64{1}}, "unknown element format"},
		{TensorDescription{Format: TensorInt8}, "no dimensions"},
		{TensorDescription{Format: TensorInt8, Dimensions: []int64{4, 0}}, "dimension 1 is 0"},
		{TensorDescription{Format: TensorInt32, Dimensions: []int64{4, 4}, Strides: []int64{16}}, "1 strides for 2 dimensions"},
		{TensorDescription{Format: TensorInt32, Dimensions: []int64{4, 4}, Strides: []int64{16, 8}}, "innermost stride 8"},
		{TensorDescription{Format: TensorInt32, Dimensions: []int64{4, 4}, Strides: []int64{12, 4}}, "covering the 16 bytes"},
		{TensorDescription{Format: TensorInt32, Dimensions: []int64{4, 4}, Strides: []int64{18, 4}}, "not a multiple of 4"},
		{TensorDescription{Format: TensorInt64, Dimensions: []int64{1 << 20, 1 << 20, 1 << 20}}, "more than 2^40 bytes"},
		{TensorDescription{Format: TensorInt64, Dimensions: []int64{2, 2}, Strides: []int64{1 << 50, 8}}, "more than 2^40 bytes"},
	} {
		if err := c.d.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v, want %q", c.d, err, c.want)
		}
	}
	if TensorUint16.Size() != 2 || TensorFloatE4M3.Size() != 1 || TensorUint64.String() != "uint64" {
		t.Error("format sizes or names")
	}
}
