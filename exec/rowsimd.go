package exec

import "github.com/coopshader/coop/spirv"

// Vector row kernels. Where the processor has them (rowsimd_amd64.s:
// AVX2), the commonest arithmetic, comparisons, selects and conversions
// on rows run four lanes per instruction. Each kernel has a scalar twin
// (the row loops of rows.go, or the vector handlers' element functions
// applied along the row): the twin runs the lanes past the last multiple
// of four, runs everything where there is no kernel, and is the
// reference the kernels are tested against bit for bit
// (rowsimd_test.go). The kernels compute each lane as the twin does:
// float32 operations in float32 with the processor's default rounding
// (Go never changes MXCSR; instructions under another float environment
// have no row handler at all, see pickVecs), NaN results canonical.

// vkBin is a binary kernel: d = a op b over n lanes (a multiple of 4),
// or, where b is nil, d = a op c; p, q and r are its parameters.
type vkBin func(d, a, b *uint64, c, p, q, r uint64, n int)

// vkUn is a unary kernel: d = op a over n lanes, with parameters p, q.
type vkUn func(d, a *uint64, p, q uint64, n int)

// The binary kernels.
const (
	vF32Add = iota
	vF32Sub
	vF32Mul
	vF32Div
	vF32Min // GLSL.std.450 FMin, NMin
	vF32Max // GLSL.std.450 FMax, NMax
	vF16Add // p: the half NaN
	vF16Sub // p: the half NaN
	vF16Mul // p: the half NaN
	vF16Div // p: the half NaN
	vLAnd
	vLOr
	vIAdd  // p: the result's mask
	vISub  // p: mask
	vIMul  // p: mask, 32 bits at most
	vAnd   // p: mask
	vOr    // p: mask
	vXor   // p: mask
	vShl   // p: mask, q: the count's mask
	vShr   // p: mask, q: the count's mask
	vSar32 // q: 31
	vICmp  // operands shifted left by p, xor q, compared as int64; r: outcomes
	vFCmp  // float32; r: outcomes
	nVBin
)

// The unary kernels.
const (
	vXorAnd = iota // (a ^ p) & q
	vNegAnd        // -a & q
	vSToF32        // int32 to float32
	vSExt          // sign extension from 32-p bits, masked by q
	vF2S32         // float32 to int32; p: 2^31 as a float32, q: the largest int32
	vF2U32         // float32 to uint32; p, q: 2^31 and 2^32 as float32s
	vH2F           // float16 to float32
	vF2H           // float32 to float16; p: the float16 NaN
	nVUn
)

// The outcomes of a comparison, as the bits of vICmp's and vFCmp's r.
const (
	cmpLT = 1 << iota
	cmpEQ
	cmpGT
	cmpUN // an operand is NaN
)

// binKerns, unKerns and selKern are the kernels this processor runs
// (rowsimd_amd64.go); nil where it has none.
var (
	binKerns [nVBin]vkBin
	unKerns  [nVUn]vkUn
	selKern  func(d, c, a, b *uint64, n int)
	// uToF32Kern converts uint32s to float32s over lanes [0, n) (n a
	// multiple of 4) up to the first four with bits above their low 32
	// (which intToF, the twin, would convert as wider integers), and
	// reports how many it converted.
	uToF32Kern func(d, a *uint64, n int) int
)

// binKernel finds the kernel of a binary operation giving components of
// type ct from components of type act, and its parameters; k < 0: none.
func binKernel(op spirv.Op, ct, act *typ) (k int, p, q, r uint64) {
	switch {
	case ct.kind == kFloat && ct.ff == f32 && act.kind == kFloat && act.ff == f32:
		switch op {
		case spirv.OpFAdd:
			return vF32Add, 0, 0, 0
		case spirv.OpFSub:
			return vF32Sub, 0, 0, 0
		case spirv.OpFMul:
			return vF32Mul, 0, 0, 0
		case spirv.OpFDiv:
			return vF32Div, 0, 0, 0
		}
	case ct.kind == kFloat && ct.ff == f16 && act.kind == kFloat && act.ff == f16:
		nan := fmtDescs[f16].nan
		switch op {
		case spirv.OpFAdd:
			return vF16Add, nan, 0, 0
		case spirv.OpFSub:
			return vF16Sub, nan, 0, 0
		case spirv.OpFMul:
			return vF16Mul, nan, 0, 0
		case spirv.OpFDiv:
			return vF16Div, nan, 0, 0
		}
	case ct.kind == kBool && act.kind == kBool:
		switch op {
		case spirv.OpLogicalAnd:
			return vLAnd, 0, 0, 0
		case spirv.OpLogicalOr:
			return vLOr, 0, 0, 0
		case spirv.OpLogicalEqual:
			return vICmp, 0, 0, cmpEQ
		case spirv.OpLogicalNotEqual:
			return vICmp, 0, 0, cmpLT | cmpGT
		}
	case ct.kind == kInt && act.kind == kInt && plainWidth(ct.width):
		w := ct.width
		m := mask(w)
		switch op {
		case spirv.OpIAdd:
			return vIAdd, m, 0, 0
		case spirv.OpISub:
			return vISub, m, 0, 0
		case spirv.OpIMul:
			if w <= 32 {
				return vIMul, m, 0, 0
			}
		case spirv.OpBitwiseAnd:
			return vAnd, m, 0, 0
		case spirv.OpBitwiseOr:
			return vOr, m, 0, 0
		case spirv.OpBitwiseXor:
			return vXor, m, 0, 0
		case spirv.OpShiftLeftLogical:
			return vShl, m, uint64(w - 1), 0
		case spirv.OpShiftRightLogical:
			return vShr, m, uint64(w - 1), 0
		case spirv.OpShiftRightArithmetic:
			if w == 32 {
				return vSar32, 0, 31, 0
			}
		}
	case ct.kind == kBool && act.kind == kInt && plainWidth(act.width):
		const top = 1 << 63
		signed := uint64(64 - act.width)
		switch op {
		case spirv.OpIEqual:
			return vICmp, 0, 0, cmpEQ
		case spirv.OpINotEqual:
			return vICmp, 0, 0, cmpLT | cmpGT
		case spirv.OpULessThan:
			return vICmp, 0, top, cmpLT
		case spirv.OpULessThanEqual:
			return vICmp, 0, top, cmpLT | cmpEQ
		case spirv.OpUGreaterThan:
			return vICmp, 0, top, cmpGT
		case spirv.OpUGreaterThanEqual:
			return vICmp, 0, top, cmpGT | cmpEQ
		case spirv.OpSLessThan:
			return vICmp, signed, 0, cmpLT
		case spirv.OpSLessThanEqual:
			return vICmp, signed, 0, cmpLT | cmpEQ
		case spirv.OpSGreaterThan:
			return vICmp, signed, 0, cmpGT
		case spirv.OpSGreaterThanEqual:
			return vICmp, signed, 0, cmpGT | cmpEQ
		}
	case ct.kind == kBool && act.kind == kFloat && act.ff == f32:
		for _, c := range fcmpOutcomes {
			if c.op == op {
				return vFCmp, 0, 0, c.outcomes
			}
		}
	}
	return -1, 0, 0, 0
}

// fcmpOutcomes are the outcomes each float comparison answers true to (a
// static array: package init builds nothing for it).
var fcmpOutcomes = [...]struct {
	op       spirv.Op
	outcomes uint64
}{
	{spirv.OpFOrdEqual, cmpEQ},
	{spirv.OpFUnordEqual, cmpEQ | cmpUN},
	{spirv.OpFOrdNotEqual, cmpLT | cmpGT},
	{spirv.OpFUnordNotEqual, cmpLT | cmpGT | cmpUN},
	{spirv.OpFOrdLessThan, cmpLT},
	{spirv.OpFUnordLessThan, cmpLT | cmpUN},
	{spirv.OpFOrdGreaterThan, cmpGT},
	{spirv.OpFUnordGreaterThan, cmpGT | cmpUN},
	{spirv.OpFOrdLessThanEqual, cmpLT | cmpEQ},
	{spirv.OpFUnordLessThanEqual, cmpLT | cmpEQ | cmpUN},
	{spirv.OpFOrdGreaterThanEqual, cmpGT | cmpEQ},
	{spirv.OpFUnordGreaterThanEqual, cmpGT | cmpEQ | cmpUN},
}

// unKernel finds the kernel of a unary operation and its parameters;
// k < 0: none.
func unKernel(in *instr, ct, act *typ) (k int, p, q uint64) {
	intOK := func(t *typ) bool { return t.kind == kInt && plainWidth(t.width) }
	switch in.op {
	case spirv.OpUConvert:
		if intOK(ct) && intOK(act) {
			return vXorAnd, 0, mask(ct.width)
		}
	case spirv.OpNot:
		if intOK(ct) {
			return vXorAnd, ^uint64(0), mask(ct.width)
		}
	case spirv.OpSConvert:
		if intOK(ct) && intOK(act) && act.width <= 32 {
			return vSExt, uint64(32 - act.width), mask(ct.width)
		}
	case spirv.OpConvertFToS:
		if ct.kind == kInt && ct.width == 32 && act.kind == kFloat && act.ff == f32 {
			return vF2S32, 0x4f000000, 0x7fffffff
		}
	case spirv.OpConvertFToU:
		if ct.kind == kInt && ct.width == 32 && act.kind == kFloat && act.ff == f32 {
			return vF2U32, 0x4f000000, 0x4f800000
		}
	case spirv.OpSNegate:
		if intOK(ct) {
			return vNegAnd, 0, mask(ct.width)
		}
	case spirv.OpFNegate:
		if ct.kind == kFloat && plainWidth(ct.width) {
			return vXorAnd, 1 << (ct.width - 1), ^uint64(0)
		}
	case spirv.OpLogicalNot:
		if ct.kind == kBool {
			return vXorAnd, 1, ^uint64(0)
		}
	case spirv.OpFConvert:
		if in.sub&3 != uint32(rne) || in.sub&256 != 0 || ct.kind != kFloat || act.kind != kFloat {
			break
		}
		switch {
		case ct.ff == f32 && act.ff == f16:
			return vH2F, 0, 0
		case ct.ff == f16 && act.ff == f32:
			return vF2H, fmtDescs[f16].nan, 0
		}
	case spirv.OpConvertSToF:
		if ct.kind == kFloat && ct.ff == f32 && act.kind == kInt && act.width == 32 && in.sub&3 == uint32(rne) {
			return vSToF32, 0, 0
		}
	}
	return -1, 0, 0
}

// vecBin gives the row loop of a binary operation: its kernel with the
// twin f for the tail, f itself where there is no kernel.
func vecBin(in *instr, ct, act *typ, f rowBin) rowBin {
	k, p, q, r := binKernel(in.op, ct, act)
	if k < 0 || binKerns[k] == nil {
		return f
	}
	return withTail(binKerns[k], p, q, r, f)
}

func withTail(kern vkBin, p, q, r uint64, f rowBin) rowBin {
	return func(d, a, b []uint64, c uint64) {
		n := len(d) &^ 3
		if n > 0 {
			a = a[:len(d)]
			if b == nil {
				kern(&d[0], &a[0], nil, c, p, q, r, n)
			} else {
				b = b[:len(d)]
				kern(&d[0], &a[0], &b[0], c, p, q, r, n)
			}
		}
		if n < len(d) {
			if b != nil {
				b = b[n:]
			}
			f(d[n:], a[n:], b, c)
		}
	}
}

// vecUn is vecBin for a unary operation.
func vecUn(in *instr, ct, act *typ, f func(d, a []uint64)) func(d, a []uint64) {
	if g := unVec(in, ct, act, f); g != nil {
		return g
	}
	return f
}

// unVec gives the row loop of a unary operation that has a kernel, f
// running the tail; nil where there is none.
func unVec(in *instr, ct, act *typ, f func(d, a []uint64)) func(d, a []uint64) {
	if in.op == spirv.OpConvertUToF && uToF32Kern != nil && ct.kind == kFloat && ct.ff == f32 &&
		act.kind == kInt && act.width == 32 && in.sub&3 == uint32(rne) {
		return func(d, a []uint64) {
			n := 0
			if len(d) >= 4 {
				a = a[:len(d)]
				n = uToF32Kern(&d[0], &a[0], len(d)&^3)
			}
			if n < len(d) {
				f(d[n:], a[n:])
			}
		}
	}
	k, p, q := unKernel(in, ct, act)
	if k < 0 || unKerns[k] == nil {
		return nil
	}
	kern := unKerns[k]
	return func(d, a []uint64) {
		n := len(d) &^ 3
		if n > 0 {
			a = a[:len(d)]
			kern(&d[0], &a[0], p, q, n)
		}
		if n < len(d) {
			f(d[n:], a[n:])
		}
	}
}

// vecElem gives the row handler of an operation with no row loop of its
// own but a kernel, with the element function f along the row as the
// twin; nil where there is no kernel.
func vecElem(in *instr, n int32, ct, act *typ, f func(x, y uint64) uint64) rowOp {
	switch len(in.a) {
	case 2:
		if k, _, _, _ := binKernel(in.op, ct, act); k < 0 || binKerns[k] == nil {
			return nil
		}
		return rBin(n, false, vecBin(in, ct, act, elemBin(f)))
	case 1:
		if g := unVec(in, ct, act, elemUn(f)); g != nil {
			return rUn(n, g)
		}
	}
	return nil
}

// elemBin applies the element function f along rows.
func elemBin(f func(x, y uint64) uint64) rowBin {
	return func(d, a, b []uint64, c uint64) {
		a = a[:len(d)]
		if b == nil {
			for i := range d {
				d[i] = f(a[i], c)
			}
			return
		}
		b = b[:len(d)]
		for i := range d {
			d[i] = f(a[i], b[i])
		}
	}
}

// elemUn applies the element function f (second operand unused) along
// a row.
func elemUn(f func(x, y uint64) uint64) func(d, a []uint64) {
	return func(d, a []uint64) {
		a = a[:len(d)]
		for i := range d {
			d[i] = f(a[i], 0)
		}
	}
}

// vecSelect is rSelect's loop (the rows all as long as d): the kernel,
// then selectRows for the tail.
func vecSelect(d, c, a, b []uint64) {
	n := 0
	if selKern != nil {
		if n = len(d) &^ 3; n > 0 {
			c, a, b = c[:len(d)], a[:len(d)], b[:len(d)]
			selKern(&d[0], &c[0], &a[0], &b[0], n)
		}
	}
	selectRows(d[n:], c[n:], a[n:], b[n:])
}
