package exec

import (
	"math"

	"github.com/coopshader/coop/spirv"
)

// isMixDot reports the SPV_VALVE_mixed_float_dot_product instructions.
func isMixDot(op spirv.Op) bool {
	return op == spirv.OpFDot2MixAcc32VALVE || op == spirv.OpFDot2MixAcc16VALVE || op == spirv.OpFDot4MixAcc32VALVE
}

// checkMixDot checks the operand types SPIR-V's validator requires: two
// vectors of 2 (16-bit floats) or 4 (8-bit floats) components of one
// encoding, and an accumulator of the result type (float32, or for
// OpFDot2MixAcc16VALVE the vectors' 16-bit type).
func (p *prog) checkMixDot(i int, in *instr) error {
	vt, wt, acc := in.at, in.aux.([]*typ)[1], in.aux.([]*typ)[2]
	n, width := 2, 16
	if in.op == spirv.OpFDot4MixAcc32VALVE {
		n, width = 4, 8
	}
	rt := in.t
	ok := vt.kind == kVector && vt.count == n && vt.elem.kind == kFloat && vt.elem.width == width &&
		wt.kind == kVector && wt.count == n && wt.elem.kind == kFloat && wt.elem.ff == vt.elem.ff &&
		rt.kind == kFloat && acc.kind == kFloat && acc.ff == rt.ff
	if in.op == spirv.OpFDot2MixAcc16VALVE {
		ok = ok && rt.ff == vt.elem.ff
	} else {
		ok = ok && rt.ff == f32
	}
	if !ok {
		return p.errAt(i, "%s needs two %d-component vectors of %d-bit floats of one encoding and an accumulator of the result type", in.op, n, width)
	}
	return nil
}

// mixDot computes acc + a.x*b.x + a.y*b.y (+ a.z*b.z + a.w*b.w): every
// product exact, added to the accumulator in increasing component order,
// rounding to the result type after each addition.
func (l *lane) mixDot(in *instr) uint64 {
	r := l.regs
	vf, rf := in.at.elem.ff, in.t.ff
	acc := r[in.a[2]]
	for k := int32(0); k < int32(in.at.count); k++ {
		// The products of 16- and 8-bit floats are exact in float64.
		prod := toF64(r[in.a[0]+k], vf) * toF64(r[in.a[1]+k], vf)
		acc = fround(sumToOdd(toF64(acc, rf), prod), rf)
	}
	return acc
}

// sumToOdd is a+b rounded to float64 with round-to-odd: an inexact sum
// whose last bit is even moves one step toward the exact value. Rounding
// that once more to a format of at most 51 bits of precision gives the
// correctly rounded sum (a single rounding of a + b).
func sumToOdd(a, b float64) float64 {
	s := a + b
	if math.IsInf(s, 0) || math.IsNaN(s) {
		return s
	}
	// TwoSum: the exact error of s.
	bb := s - a
	e := (a - (s - bb)) + (b - bb)
	if e == 0 || math.Float64bits(s)&1 == 1 {
		return s
	}
	return math.Nextafter(s, math.Copysign(math.Inf(1), e))
}
