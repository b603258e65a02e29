package exec

import "math"

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
	// uf11 and uf10 are the unsigned 11- and 10-bit floats of packed
	// image formats (no sign bit; only image texels use them).
	uf11
	uf10
)

// fmtDesc describes a binary floating-point format: exponent and mantissa
// widths, and whether the all-ones exponent encodes infinities (IEEE) or,
// as in E4M3, only the all-ones pattern is NaN.
type fmtDesc struct {
	exp, man uint
	ieee     bool
	nan      uint64 // the NaN we produce: positive, quiet
}

var fmtDescs = [...]fmtDesc{
	f16:  {5, 10, true, 0x7e00},
	f32:  {8, 23, true, 0x7fc00000},
	f64:  {11, 52, true, 0x7ff8000000000000},
	bf16: {8, 7, true, 0x7fc0},
	e4m3: {4, 3, false, 0x7f},
	e5m2: {5, 2, true, 0x7e},
	uf11: {5, 6, true, 0x7e0},
	uf10: {5, 5, true, 0x3f0},
}

// rounding is an FPRoundingMode.
type rounding uint8

const (
	rne rounding = iota
	rtz
	rtp
	rtn
)

// f16Table holds every half as a float32, for the hot conversions.
var f16Table = func() []float32 {
	t := make([]float32, 1<<16)
	for i := range t {
		t[i] = float32(toF64slow(uint64(i), f16))
	}
	return t
}()

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
	d := fmtDescs[f]
	man := b & (1<<d.man - 1)
	e := int(b>>d.man) & (1<<d.exp - 1)
	neg := b>>(d.exp+d.man)&1 != 0
	bias := 1<<(d.exp-1) - 1
	var v float64
	switch {
	case e == 1<<d.exp-1 && d.ieee:
		if man != 0 {
			return math.NaN()
		}
		v = math.Inf(1)
	case e == 1<<d.exp-1 && man == 1<<d.man-1:
		return math.NaN()
	case e == 0:
		v = math.Ldexp(float64(man), 1-bias-int(d.man))
	default:
		v = math.Ldexp(float64(man|1<<d.man), e-bias-int(d.man))
	}
	if neg {
		v = -v
	}
	return v
}

// fromF64 rounds x to format f with rounding mode rm. sat clamps overflow
// (and infinities) to the largest finite value, as the fp8 saturating
// conversions do. NaN becomes the format's positive quiet NaN.
func fromF64(x float64, f ffmt, rm rounding, sat bool) uint64 {
	if f == f64 {
		if x != x {
			return fmtDescs[f64].nan
		}
		return math.Float64bits(x)
	}
	if f == f32 && rm == rne && !sat {
		if x != x {
			return fmtDescs[f32].nan
		}
		return uint64(math.Float32bits(float32(x)))
	}
	d := fmtDescs[f]
	if x != x {
		return d.nan
	}
	signBit := uint64(0)
	if math.Signbit(x) {
		signBit = 1 << (d.exp + d.man)
	}
	a := math.Abs(x)
	bias := 1<<(d.exp-1) - 1
	emin := 1 - bias
	var maxBits uint64 // largest finite magnitude
	if d.ieee {
		maxBits = (1<<d.exp-2)<<d.man | (1<<d.man - 1)
	} else {
		maxBits = (1<<d.exp-1)<<d.man | (1<<d.man - 2)
	}
	overflow := func() uint64 {
		up := rm == rne || (rm == rtp && signBit == 0) || (rm == rtn && signBit != 0)
		switch {
		case sat || !up:
			return signBit | maxBits
		case d.ieee:
			return signBit | (1<<d.exp-1)<<d.man
		}
		return signBit | d.nan
	}
	if math.IsInf(a, 0) {
		if sat || d.ieee {
			if sat {
				return signBit | maxBits
			}
			return signBit | (1<<d.exp-1)<<d.man
		}
		return signBit | d.nan
	}
	if a == 0 {
		return signBit
	}
	_, e := math.Frexp(a)
	E := e - 1
	if E < emin {
		E = emin
	}
	q := math.Ldexp(1, E-int(d.man))
	n := a / q
	switch {
	case rm == rne:
		n = math.RoundToEven(n)
	case rm == rtz, rm == rtp && signBit != 0, rm == rtn && signBit == 0:
		n = math.Trunc(n)
	default:
		n = math.Ceil(n)
	}
	v := n * q
	if v == 0 {
		return signBit
	}
	_, e = math.Frexp(v)
	E = e - 1
	if E < emin {
		return signBit | uint64(n) // subnormal: n < 2^man
	}
	ebits := uint64(E + bias)
	mant := uint64(math.Ldexp(v, int(d.man)-E)) - 1<<d.man
	bits := ebits<<d.man | mant
	if bits > maxBits {
		return overflow()
	}
	return signBit | bits
}
