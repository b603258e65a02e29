package llamadiff

import (
	"encoding/binary"
	"math"
	"math/rand/v2"

	"github.com/coopshader/coop/num"
)

// filler writes random values of each scalar's own type: floats uniform in
// [-1, 1], integers random bits. ints16AreBF16 makes 16-bit integers hold
// bfloat16 values instead (ggml stores bf16 tensors as uint16_t).
type filler struct {
	rng           *rand.Rand
	ints16AreBF16 bool
	// masks keep only some bits of the integer members with these names
	// (a format's reserved bits, such as NVFP4's scale sign).
	masks map[string]uint64
}

// fill writes elements of t every stride bytes over buf.
func (f *filler) fill(buf []byte, t *typ, stride int) {
	if stride <= 0 {
		stride = max(t.size, 1)
	}
	for off := 0; off+t.size <= len(buf); off += stride {
		f.value(buf[off:], t)
	}
}

func (f *filler) value(b []byte, t *typ) { f.member(b, t, ^uint64(0)) }

func (f *filler) member(b []byte, t *typ, mask uint64) {
	switch t.kind {
	case kFloat:
		x := f.rng.Float64()*2 - 1
		switch {
		case t.width == 32:
			binary.LittleEndian.PutUint32(b, math.Float32bits(float32(x)))
		case t.width == 64:
			binary.LittleEndian.PutUint64(b, math.Float64bits(x))
		case t.width == 16 && t.bf16:
			binary.LittleEndian.PutUint16(b, uint16(num.BFloat16.Encode(x, num.NearestEven, false)))
		case t.width == 16:
			binary.LittleEndian.PutUint16(b, uint16(num.Float16.Encode(x, num.NearestEven, false)))
		case t.width == 8:
			b[0] = byte(num.E4M3.Encode(x, num.NearestEven, true))
		}
	case kInt:
		if t.width == 16 && f.ints16AreBF16 {
			binary.LittleEndian.PutUint16(b, uint16(num.BFloat16.Encode(f.rng.Float64()*2-1, num.NearestEven, false)))
			return
		}
		v := f.rng.Uint64() & mask
		for i := 0; i < t.size; i++ {
			b[i] = byte(v >> (8 * i))
		}
	case kBool:
		binary.LittleEndian.PutUint32(b, uint32(f.rng.IntN(2)))
	case kVector:
		for i := 0; i < t.count; i++ {
			f.member(b[i*t.stride:], t.elem, mask)
		}
	case kStruct:
		for _, fl := range t.fields {
			m, ok := f.masks[fl.name]
			if !ok {
				m = ^uint64(0)
			}
			f.member(b[fl.offset:], fl.t, m)
		}
	}
}

// f32 and f16 decode little-endian floats for the Go references.
func f32(b []byte, i int) float64 {
	return float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
}

func f16(b []byte, i int) float64 {
	return num.Float16.Decode(uint64(binary.LittleEndian.Uint16(b[2*i:])))
}

func bf16(b []byte, i int) float64 {
	return num.BFloat16.Decode(uint64(binary.LittleEndian.Uint16(b[2*i:])))
}
