package exec

import (
	"bytes"
	"math"
	"testing"

	"github.com/coopshader/coop/backend"
)

// Images made by NewImageOver share the caller's memory, which must be
// the image's size; released numbers are reused by later images.
func TestNewImageOverAndReuse(t *testing.T) {
	d := New(Options{})
	desc := backend.ImageDesc{Format: backend.FormatR8ui, Dim: backend.Image2D, Width: 4, Height: 2}
	mem := make([]byte, 16)
	if _, err := d.NewImageOver(desc, mem[:7]); err == nil {
		t.Fatal("memory of the wrong size accepted")
	}
	im, err := d.NewImageOver(desc, mem[8:16])
	if err != nil {
		t.Fatal(err)
	}
	if err := im.Write(5, []byte{9}); err != nil || mem[13] != 9 {
		t.Fatalf("write through the image: %v, memory %v", err, mem)
	}
	num := im.(*image).num
	im.Release()
	im.Release()
	next, err := d.NewImage(desc)
	if err != nil {
		t.Fatal(err)
	}
	if next.(*image).num != num {
		t.Fatalf("released number %d not reused (got %d)", num, next.(*image).num)
	}
}

// EncodeColor converts clear colors as image writes do.
func TestEncodeColor(t *testing.T) {
	f := math.Float32bits
	for _, c := range []struct {
		f     backend.Format
		color [4]uint32
		want  []byte
	}{
		{backend.FormatRgba8, [4]uint32{f(0), f(0.5), f(1), f(2)}, []byte{0, 128, 255, 255}},
		{backend.FormatR16f, [4]uint32{f(1)}, []byte{0x00, 0x3c}},
		{backend.FormatRg8i, [4]uint32{0xffffffff, 5}, []byte{0xff, 5}},
		{backend.FormatR32ui, [4]uint32{0xdeadbeef}, []byte{0xef, 0xbe, 0xad, 0xde}},
		{backend.FormatD16, [4]uint32{f(1)}, []byte{0xff, 0xff}},
	} {
		b := make([]byte, len(c.want))
		EncodeColor(c.f, b, c.color)
		if !bytes.Equal(b, c.want) {
			t.Errorf("%v: % x, want % x", c.f, b, c.want)
		}
	}
}
