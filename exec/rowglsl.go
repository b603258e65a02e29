package exec

import "github.com/coopshader/coop/spirv"

// GLSL.std.450 instructions on rows. Those that apply a function to each
// component (FAbs, glslF1, glslF2, glslF3: min, max, clamp, mix, fma,
// step, rounding, exponentials, trigonometry; glslInt: integer abs, sign,
// min, max, clamp) get vector and row handlers
// like the arithmetic's, computing what glsl computes (in float64,
// rounded once to the result's format), so that a subgroup in lockstep
// runs them on its rows instead of scattering its operands to every
// invocation and running the general path one invocation at a time.

// glslElem gives the function of one component of such an instruction,
// and its operand count; nil for the others (and glslInt's for an
// instruction of another operand count, which validation rejects, so
// that the general path reports it).
func glslElem(in *instr) (func(x, y, z uint64) uint64, int) {
	if in.op != spirv.OpExtInst || in.t == nil {
		return nil, 0
	}
	tys, ok := in.aux.([]*typ)
	ct := in.t.comp()
	if !ok || len(tys) != len(in.a) || in.t.kind != ct.kind && in.t.kind != kVector {
		return nil, 0
	}
	if ct.kind == kInt && plainWidth(ct.width) {
		for _, t := range tys {
			if t == nil || t.slots != in.t.slots || t.comp().kind != kInt || t.comp().width != ct.width {
				return nil, 0
			}
		}
		if g, args := glslInt(in.sub, ct.width); args == len(in.a) {
			return g, args
		}
		return nil, 0
	}
	if ct.kind != kFloat {
		return nil, 0
	}
	ff := ct.ff
	if ff != f16 && ff != f32 && ff != f64 && ff != bf16 {
		return nil, 0
	}
	for _, t := range tys {
		if t == nil || t.slots != in.t.slots || t.comp().kind != kFloat || t.comp().ff != ff {
			return nil, 0
		}
	}
	switch len(in.a) {
	case 1:
		if in.sub == spirv.GLSLstd450FAbs {
			sign := uint64(1) << (ct.width - 1)
			return func(x, _, _ uint64) uint64 { return x &^ sign }, 1
		}
		if g := glslF1(in.sub); g != nil {
			return func(x, _, _ uint64) uint64 { return fround(g(toF64(x, ff)), ff) }, 1
		}
	case 2:
		if g := glslF2(in.sub); g != nil {
			return func(x, y, _ uint64) uint64 { return fround(g(toF64(x, ff), toF64(y, ff)), ff) }, 2
		}
	case 3:
		if g := glslF3(in.sub); g != nil {
			return func(x, y, z uint64) uint64 { return fround(g(toF64(x, ff), toF64(y, ff), toF64(z, ff)), ff) }, 3
		}
	}
	return nil, 0
}

// glslVec makes the vector handler applying f to n components of args
// operands.
func glslVec(n int32, args int, f func(x, y, z uint64) uint64) vecOp {
	return func(sg []*lane, in *instr) bool {
		d, a := in.res, in.a
		for _, l := range sg {
			r := l.regs
			for k := int32(0); k < n; k++ {
				var y, z uint64
				if args > 1 {
					y = r[a[1]+k]
				}
				if args > 2 {
					z = r[a[2]+k]
				}
				r[d+k] = f(r[a[0]+k], y, z)
			}
		}
		return true
	}
}

// pickRowGLSL gives the row handler of a GLSL.std.450 instruction whose
// component function is f: float32 min, max and clamp through the row
// kernels where this processor has them (a clamp as a max, then a min: the
// max's result is one of its operands, exactly, or NaN, which the min
// passes over whatever its bits), otherwise f along the rows.
func pickRowGLSL(in *instr, n int32, args int, f func(x, y, z uint64) uint64) rowOp {
	minK, maxK := binKerns[vF32Min], binKerns[vF32Max]
	if in.t.comp().ff != f32 || minK == nil || maxK == nil {
		return rGLSL(n, args, f)
	}
	switch in.sub {
	case spirv.GLSLstd450FMin, spirv.GLSLstd450NMin:
		return rBin(n, true, withTail(minK, 0, 0, 0, elemBin(func(x, y uint64) uint64 { return f(x, y, 0) })))
	case spirv.GLSLstd450FMax, spirv.GLSLstd450NMax:
		return rBin(n, true, withTail(maxK, 0, 0, 0, elemBin(func(x, y uint64) uint64 { return f(x, y, 0) })))
	case spirv.GLSLstd450FClamp, spirv.GLSLstd450NClamp:
		return rClamp(n, withTail(maxK, 0, 0, 0, elemBin(glslF32(spirv.GLSLstd450FMax))),
			withTail(minK, 0, 0, 0, elemBin(glslF32(spirv.GLSLstd450FMin))))
	}
	return rGLSL(n, args, f)
}

// glslF32 is the component function of a float32 GLSL.std.450
// instruction of two operands.
func glslF32(sub uint32) func(x, y uint64) uint64 {
	g := glslF2(sub)
	return func(x, y uint64) uint64 { return fround(g(toF64(x, f32), toF64(y, f32)), f32) }
}

// rClamp makes the row handler of a clamp as the row loops max, then min.
func rClamp(n int32, max, min rowBin) rowOp {
	return func(m *sgMeta, in *instr) bool {
		st, lr := m.st, m.sg[0].regs
		for k := int32(0); k < n; k++ {
			a := m.arg(in.a[0]+k, 0)
			if a == nil {
				return false
			}
			d := m.row(in.res + k)
			for j, f := range [2]rowBin{max, min} {
				s := in.a[1+j] + k
				if isUni(st[s]) {
					f(d, a, nil, lr[s])
				} else if b := m.arg(s, 1+j); b != nil {
					f(d, a, b, 0)
				} else {
					return false
				}
				a = d
			}
		}
		return true
	}
}

// rGLSL makes the row handler applying f to n components of args
// operands.
func rGLSL(n int32, args int, f func(x, y, z uint64) uint64) rowOp {
	return func(m *sgMeta, in *instr) bool {
		for k := int32(0); k < n; k++ {
			a := m.arg(in.a[0]+k, 0)
			b, c := a, a
			if args > 1 {
				b = m.arg(in.a[1]+k, 1)
			}
			if args > 2 {
				c = m.arg(in.a[2]+k, 2)
			}
			if a == nil || b == nil || c == nil {
				return false
			}
			d := m.row(in.res + k)
			a, b, c = a[:len(d)], b[:len(d)], c[:len(d)]
			for i := range d {
				d[i] = f(a[i], b[i], c[i])
			}
		}
		return true
	}
}
