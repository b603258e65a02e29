package exec

import (
	"encoding/binary"
	"math"

	"github.com/coopshader/coop/backend"
)

// texel is one texel as a shader sees it: float, UNORM and SNORM formats
// fill f, integer formats u (sign-extended for SInt formats). Components
// a format lacks read as 0, 0, 0 and 1.
type texel struct {
	f [4]float32
	u [4]uint64
}

// rawComps splits a stored texel into its components' bits.
func rawComps(fi *backend.FormatInfo, b []byte) (c [4]uint64) {
	if fi.Packed {
		w := uint64(binary.LittleEndian.Uint32(b))
		for k, n := range fi.Bits {
			c[k] = w & mask(int(n))
			w >>= n
		}
		return c
	}
	off := 0
	for k, n := range fi.Bits {
		switch n {
		case 8:
			c[k] = uint64(b[off])
		case 16:
			c[k] = uint64(binary.LittleEndian.Uint16(b[off:]))
		case 32:
			c[k] = uint64(binary.LittleEndian.Uint32(b[off:]))
		case 64:
			c[k] = binary.LittleEndian.Uint64(b[off:])
		}
		off += int(n) / 8
	}
	return c
}

// putComps stores components' bits (each already within its width).
func putComps(fi *backend.FormatInfo, b []byte, c [4]uint64) {
	if fi.Packed {
		var w uint64
		sh := 0
		for k, n := range fi.Bits {
			w |= (c[k] & mask(int(n))) << sh
			sh += int(n)
		}
		binary.LittleEndian.PutUint32(b, uint32(w))
		return
	}
	off := 0
	for k, n := range fi.Bits {
		switch n {
		case 8:
			b[off] = byte(c[k])
		case 16:
			binary.LittleEndian.PutUint16(b[off:], uint16(c[k]))
		case 32:
			binary.LittleEndian.PutUint32(b[off:], uint32(c[k]))
		case 64:
			binary.LittleEndian.PutUint64(b[off:], c[k])
		}
		off += int(n) / 8
	}
}

// decodeTexel converts a stored texel to what a shader reads, with
// Vulkan's conversions: UNORM c/(2^b-1), SNORM max(c/(2^(b-1)-1), -1),
// each correctly rounded to float32; floats widened exactly.
func decodeTexel(fi *backend.FormatInfo, b []byte) texel {
	t := texel{f: [4]float32{0, 0, 0, 1}, u: [4]uint64{0, 0, 0, 1}}
	c := rawComps(fi, b)
	for k, n := range fi.Bits {
		if n == 0 {
			continue
		}
		v := c[k]
		switch fi.Kind {
		case backend.SFloat:
			if n == 16 {
				t.f[k] = f16Table[v]
			} else {
				t.f[k] = math.Float32frombits(uint32(v))
			}
		case backend.UFloat:
			ff := uf11
			if n == 10 {
				ff = uf10
			}
			t.f[k] = float32(toF64(v, ff))
		case backend.UNorm:
			t.f[k] = float32(float64(v) / float64(mask(int(n))))
		case backend.SNorm:
			t.f[k] = float32(max(float64(sext(v, int(n)))/float64(mask(int(n)-1)), -1))
		case backend.UInt:
			t.u[k] = v
		case backend.SInt:
			t.u[k] = uint64(sext(v, int(n)))
		}
	}
	return t
}

// encodeTexel stores a texel written by a shader, with Vulkan's
// conversions: UNORM and SNORM values are clamped to [0, 1] or [-1, 1]
// (NaN to 0) and scaled, then rounded to the nearest integer, ties to
// even; 16-bit floats round to nearest even; unsigned 11/10-bit floats
// take negative values and -inf to 0, round finite values to the nearest
// representable one (the largest finite value above it) and keep +inf
// and NaN; integer components keep their low bits.
func encodeTexel(fi *backend.FormatInfo, b []byte, t texel) {
	var c [4]uint64
	for k, n := range fi.Bits {
		if n == 0 {
			continue
		}
		w := int(n)
		x := float64(t.f[k])
		switch fi.Kind {
		case backend.SFloat:
			if n == 16 {
				c[k] = fromF64(x, f16, rne, false)
			} else {
				c[k] = uint64(math.Float32bits(t.f[k]))
			}
		case backend.UFloat:
			ff := uf11
			if n == 10 {
				ff = uf10
			}
			switch {
			case x != x:
				c[k] = fmtDescs[ff].nan
			case math.IsInf(x, 1):
				c[k] = 0x1f << fmtDescs[ff].nf.Man
			case x <= 0:
				c[k] = 0
			default:
				c[k] = fromF64(x, ff, rne, true)
			}
		case backend.UNorm:
			if x != x {
				x = 0
			}
			c[k] = uint64(math.RoundToEven(min(max(x, 0), 1) * float64(mask(w))))
		case backend.SNorm:
			if x != x {
				x = 0
			}
			c[k] = uint64(int64(math.RoundToEven(min(max(x, -1), 1)*float64(mask(w-1))))) & mask(w)
		default:
			c[k] = t.u[k] & mask(w)
		}
	}
	putComps(fi, b, c)
}

// EncodeColor stores a clear color (VkClearColorValue: the bits of float32
// components for formats a shader reads as floats, of int32 or uint32
// components for integer formats) as one texel of format f in b, with the
// conversions of a shader's image write.
func EncodeColor(f backend.Format, b []byte, color [4]uint32) {
	fi := f.Info()
	if fi == nil || len(b) < fi.Size {
		return
	}
	var t texel
	for k, c := range color {
		t.f[k] = math.Float32frombits(c)
		t.u[k] = uint64(c)
		if fi.Kind == backend.SInt {
			t.u[k] = uint64(int64(int32(c)))
		}
	}
	encodeTexel(fi, b, t)
}
