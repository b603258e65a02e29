package exec

import (
	"math"
	"sync"

	"github.com/coopshader/coop/num"
)

// ffmt is a float format of a SPIR-V float type.
type ffmt uint8

const (
	fNone ffmt = iota
	f16
	f32
	f64
	bf16
	e4m3
	e5m2
	e3m2   // OCP FP6 E3M2 (Float6E3M2EXT)
	e2m3   // OCP FP6 E2M3 (Float6E2M3EXT)
	e2m1   // OCP FP4 E2M1 (Float4E2M1EXT)
	mxint8 // OCP MXINT8: a two's complement integer times 2^-6 (MXInt8EXT)
	ue8m0  // OCP E8M0 scale: 2^(e-127), 0xff NaN (Float8UnsignedE8M0EXT)
	// uf11 and uf10 are the unsigned 11- and 10-bit floats of packed
	// image formats (no sign bit; only image texels use them, never with
	// negative values).
	uf11
	uf10
)

// fmtDesc describes a float format: its layout (package num encodes and
// decodes it exactly) and the NaN arithmetic produces, positive and quiet
// (+0 for the formats without NaN).
type fmtDesc struct {
	nf  num.Format
	nan uint64
}

var fmtDescs = [...]fmtDesc{
	f16:    {num.Float16, 0x7e00},
	f32:    {num.Format{Exp: 8, Man: 23}, 0x7fc00000},
	f64:    {num.Format{Exp: 11, Man: 52}, 0x7ff8000000000000},
	bf16:   {num.BFloat16, 0x7fc0},
	e4m3:   {num.E4M3, 0x7f},
	e5m2:   {num.E5M2, 0x7e},
	e3m2:   {num.E3M2, 0},
	e2m3:   {num.E2M3, 0},
	e2m1:   {num.E2M1, 0},
	mxint8: {},
	ue8m0:  {nan: 0xff},
	uf11:   {num.Format{Exp: 5, Man: 6}, 0x7e0},
	uf10:   {num.Format{Exp: 5, Man: 5}, 0x3f0},
}

// rounding is an FPRoundingMode.
type rounding uint8

const (
	rne rounding = iota
	rtz
	rtp
	rtn
)

// f16Table holds every half as a float32, for the hot conversions. It is
// filled by moving bits (every half is exact in float32) when the first
// Device or Program is made, not at start-up: commands that never execute
// (coop val, coop dis) should not pay for 256 KiB of table.
var f16Table []float32

var f16TableOnce sync.Once

// loadF16Table builds f16Table once (a sync.Once, which unlike
// sync.OnceFunc allocates nothing at package init).
func loadF16Table() {
	f16TableOnce.Do(func() {
		t := make([]float32, 1<<16)
		for i := range t {
			t[i] = halfToF32(uint16(i))
		}
		f16Table = t
	})
}

// halfToF32 widens a half exactly; NaNs take the general decoder so their
// payloads come out as before.
func halfToF32(h uint16) float32 {
	sign := uint32(h>>15) << 31
	e, m := uint32(h>>10)&0x1f, uint32(h)&0x3ff
	switch {
	case e == 0x1f && m != 0:
		return float32(toF64slow(uint64(h), f16))
	case e == 0x1f:
		return math.Float32frombits(sign | 0xff<<23)
	case e == 0:
		// Zero or subnormal: m * 2^-24, exact in float32.
		return math.Float32frombits(sign | math.Float32bits(float32(m)*(1.0/(1<<24))))
	}
	return math.Float32frombits(sign | (e+127-15)<<23 | m<<13)
}

// toF32 widens formats that float32 holds exactly (not f64).
func toF32(b uint64, f ffmt) float32 {
	switch f {
	case f16:
		return f16Table[uint16(b)]
	case f32:
		return math.Float32frombits(uint32(b))
	case bf16:
		return math.Float32frombits(uint32(b) << 16)
	}
	return float32(toF64(b, f))
}

// toF64 widens a float of format f, exactly.
func toF64(b uint64, f ffmt) float64 {
	switch f {
	case f32:
		return float64(math.Float32frombits(uint32(b)))
	case f64:
		return math.Float64frombits(b)
	case f16:
		return float64(f16Table[uint16(b)])
	case bf16:
		return float64(math.Float32frombits(uint32(b) << 16))
	}
	return toF64slow(b, f)
}

func toF64slow(b uint64, f ffmt) float64 {
	switch f {
	case mxint8:
		return num.DecodeMXInt8(b)
	case ue8m0:
		return num.DecodeE8M0(b)
	}
	return fmtDescs[f].nf.Decode(b)
}

// fromF64 rounds x to format f with rounding mode rm. sat clamps overflow
// (and infinities) to the largest finite value, as the fp8 saturating
// conversions do; the microscaling formats always saturate. NaN becomes
// the format's NaN of fmtDescs.
func fromF64(x float64, f ffmt, rm rounding, sat bool) uint64 {
	if f == f64 {
		if x != x {
			return fmtDescs[f64].nan
		}
		return math.Float64bits(x)
	}
	if x != x {
		return fmtDescs[f].nan
	}
	if rm == rne && !sat {
		switch f {
		case f32:
			return uint64(math.Float32bits(float32(x)))
		case f16:
			// The hot case of half arithmetic (coopkernel.go's rounding,
			// checked against the general encoder by TestRoundBinary).
			return halfBits(roundF16(x))
		}
	}
	switch f {
	case mxint8:
		return num.EncodeMXInt8(x, num.Rounding(rm))
	case ue8m0:
		// Rounded as glslang folds constants (toward zero, to a power of
		// two), whatever the rounding mode: the Vulkan environment
		// leaves it to the implementation.
		return num.EncodeE8M0(x)
	}
	return fmtDescs[f].nf.Encode(x, num.Rounding(rm), sat)
}
