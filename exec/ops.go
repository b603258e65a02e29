package exec

import (
	"math"
	"math/bits"

	"github.com/coopshader/coop/internal/lazy"
	"github.com/coopshader/coop/spirv"
)

// opDebugPrintf marks a NonSemantic.DebugPrintf OpExtInst.
const opDebugPrintf spirv.Op = 0xffff

// arity is the number of value operands of each pure instruction; -1 for
// a variable count.
func arity() map[spirv.Op]int { return arityLazy.Get() }

var arityLazy = lazy.Value[map[spirv.Op]int]{F: func() map[spirv.Op]int {
	return map[spirv.Op]int{
		spirv.OpSNegate: 1, spirv.OpFNegate: 1, spirv.OpNot: 1, spirv.OpLogicalNot: 1,
		spirv.OpIAdd: 2, spirv.OpFAdd: 2, spirv.OpISub: 2, spirv.OpFSub: 2, spirv.OpIMul: 2, spirv.OpFMul: 2,
		spirv.OpUDiv: 2, spirv.OpSDiv: 2, spirv.OpFDiv: 2, spirv.OpUMod: 2, spirv.OpSRem: 2, spirv.OpSMod: 2,
		spirv.OpFRem: 2, spirv.OpFMod: 2, spirv.OpIAddCarry: 2, spirv.OpISubBorrow: 2,
		spirv.OpUMulExtended: 2, spirv.OpSMulExtended: 2,
		spirv.OpShiftRightLogical: 2, spirv.OpShiftRightArithmetic: 2, spirv.OpShiftLeftLogical: 2,
		spirv.OpBitwiseOr: 2, spirv.OpBitwiseXor: 2, spirv.OpBitwiseAnd: 2,
		spirv.OpBitFieldInsert: 4, spirv.OpBitFieldSExtract: 3, spirv.OpBitFieldUExtract: 3,
		spirv.OpBitReverse: 1, spirv.OpBitCount: 1,
		spirv.OpAny: 1, spirv.OpAll: 1, spirv.OpIsNan: 1, spirv.OpIsInf: 1, spirv.OpIsFinite: 1,
		spirv.OpIsNormal: 1, spirv.OpSignBitSet: 1,
		spirv.OpLogicalEqual: 2, spirv.OpLogicalNotEqual: 2, spirv.OpLogicalOr: 2, spirv.OpLogicalAnd: 2,
		spirv.OpSelect: 3,
		spirv.OpIEqual: 2, spirv.OpINotEqual: 2, spirv.OpUGreaterThan: 2, spirv.OpSGreaterThan: 2,
		spirv.OpUGreaterThanEqual: 2, spirv.OpSGreaterThanEqual: 2, spirv.OpULessThan: 2, spirv.OpSLessThan: 2,
		spirv.OpULessThanEqual: 2, spirv.OpSLessThanEqual: 2,
		spirv.OpFOrdEqual: 2, spirv.OpFUnordEqual: 2, spirv.OpFOrdNotEqual: 2, spirv.OpFUnordNotEqual: 2,
		spirv.OpFOrdLessThan: 2, spirv.OpFUnordLessThan: 2, spirv.OpFOrdGreaterThan: 2, spirv.OpFUnordGreaterThan: 2,
		spirv.OpFOrdLessThanEqual: 2, spirv.OpFUnordLessThanEqual: 2, spirv.OpFOrdGreaterThanEqual: 2,
		spirv.OpFUnordGreaterThanEqual: 2,
		spirv.OpConvertFToU:            1, spirv.OpConvertFToS: 1, spirv.OpConvertSToF: 1, spirv.OpConvertUToF: 1,
		spirv.OpUConvert: 1, spirv.OpSConvert: 1, spirv.OpFConvert: 1, spirv.OpQuantizeToF16: 1,
		spirv.OpConvertPtrToU: 1, spirv.OpSatConvertSToU: 1, spirv.OpSatConvertUToS: 1, spirv.OpConvertUToPtr: 1,
		spirv.OpBitcast: 1, spirv.OpPtrEqual: 2, spirv.OpPtrNotEqual: 2, spirv.OpPtrDiff: 2,
		spirv.OpCompositeConstruct: -1, spirv.OpCompositeConstructReplicateEXT: 1,
		spirv.OpCopyObject: 1, spirv.OpCopyLogical: 1, spirv.OpVectorExtractDynamic: 2,
		spirv.OpVectorInsertDynamic: 3, spirv.OpTranspose: 1,
		spirv.OpVectorTimesScalar: 2, spirv.OpMatrixTimesScalar: 2, spirv.OpVectorTimesMatrix: 2,
		spirv.OpMatrixTimesVector: 2, spirv.OpMatrixTimesMatrix: 2, spirv.OpOuterProduct: 2, spirv.OpDot: 2,
		spirv.OpExpectKHR: 2, spirv.OpBitcastExtractEXT: 2,
		spirv.OpBitCastArrayQCOM: 1, spirv.OpExtractSubArrayQCOM: 2,
		spirv.OpFDot2MixAcc32VALVE: 3, spirv.OpFDot2MixAcc16VALVE: 3, spirv.OpFDot4MixAcc32VALVE: 3,
	}
}}

func pureOps() map[spirv.Op]bool { return pureOpsLazy.Get() }

var pureOpsLazy = lazy.Value[map[spirv.Op]bool]{F: func() map[spirv.Op]bool {
	m := map[spirv.Op]bool{}
	for op := range arity() {
		m[op] = true
	}
	return m
}}

func (p *prog) checkPure(i int, in *instr) error {
	n := arity()[in.op]
	if n >= 0 && len(in.a) != n {
		return p.errAt(i, "%s needs %d operands, has %d", in.op, n, len(in.a))
	}
	if len(in.a) == 0 && in.op != spirv.OpCompositeConstruct {
		return p.errAt(i, "%s needs operands", in.op)
	}
	if in.op == spirv.OpBitcastExtractEXT {
		bt, ot := in.at, in.aux.([]*typ)[1]
		if bt.slots != in.t.slots || bt.comp().kind == kBool || in.t.comp().kind == kBool || bt.comp().width <= in.t.comp().width || ot.kind != kInt {
			return p.errAt(i, "OpBitcastExtractEXT needs a base of wider components, as many as the result has, and an integer offset")
		}
	}
	if isMixDot(in.op) {
		return p.checkMixDot(i, in)
	}
	return nil
}

func isAtomic(op spirv.Op) bool {
	switch op {
	case spirv.OpAtomicLoad, spirv.OpAtomicStore, spirv.OpAtomicExchange, spirv.OpAtomicCompareExchange,
		spirv.OpAtomicIIncrement, spirv.OpAtomicIDecrement, spirv.OpAtomicIAdd, spirv.OpAtomicISub,
		spirv.OpAtomicSMin, spirv.OpAtomicUMin, spirv.OpAtomicSMax, spirv.OpAtomicUMax,
		spirv.OpAtomicAnd, spirv.OpAtomicOr, spirv.OpAtomicXor, spirv.OpAtomicFAddEXT,
		spirv.OpAtomicFMinEXT, spirv.OpAtomicFMaxEXT:
		return true
	}
	return false
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// fround rounds a float64 result to format f (round to nearest even).
func fround(x float64, f ffmt) uint64 { return fromF64(x, f, rne, false) }

// fpMin and fpMax follow GLSL.std.450 FMin/FMax: a NaN operand yields the
// other operand; -0 orders below +0.
func fpMin(x, y float64) float64 {
	switch {
	case x != x:
		return y
	case y != y:
		return x
	case x == y && x == 0:
		if math.Signbit(x) {
			return x
		}
		return y
	case y < x:
		return y
	}
	return x
}

func fpMax(x, y float64) float64 {
	switch {
	case x != x:
		return y
	case y != y:
		return x
	case x == y && x == 0:
		if math.Signbit(x) {
			return y
		}
		return x
	case y > x:
		return y
	}
	return x
}

// evalFast runs the commonest scalar integer instructions without the
// general machinery; it reports whether it handled in.
func (l *lane) evalFast(in *instr) bool {
	r := l.regs
	t := in.t
	if t == nil {
		return false
	}
	if t.kind == kBool && len(in.a) == 2 && t.slots == 1 && in.at != nil && in.at.kind == kInt {
		x, y := r[in.a[0]], r[in.a[1]]
		w := in.at.width
		var v bool
		switch in.op {
		case spirv.OpULessThan:
			v = x < y
		case spirv.OpULessThanEqual:
			v = x <= y
		case spirv.OpUGreaterThan:
			v = x > y
		case spirv.OpUGreaterThanEqual:
			v = x >= y
		case spirv.OpIEqual:
			v = x == y
		case spirv.OpINotEqual:
			v = x != y
		case spirv.OpSLessThan:
			v = sext(x, w) < sext(y, w)
		case spirv.OpSGreaterThan:
			v = sext(x, w) > sext(y, w)
		case spirv.OpSLessThanEqual:
			v = sext(x, w) <= sext(y, w)
		case spirv.OpSGreaterThanEqual:
			v = sext(x, w) >= sext(y, w)
		default:
			return false
		}
		r[in.res] = b2u(v)
		return true
	}
	if t.kind != kInt || len(in.a) != 2 || t.slots != 1 {
		if in.op == spirv.OpCompositeExtract && in.t.slots == 1 {
			r[in.res] = r[in.a[0]+int32(in.sub)]
			return true
		}
		return false
	}
	x, y := r[in.a[0]], r[in.a[1]]
	m := mask(t.width)
	switch in.op {
	case spirv.OpIAdd:
		r[in.res] = (x + y) & m
	case spirv.OpISub:
		r[in.res] = (x - y) & m
	case spirv.OpIMul:
		r[in.res] = x * y & m
	case spirv.OpBitwiseAnd:
		r[in.res] = x & y
	case spirv.OpBitwiseOr:
		r[in.res] = x | y
	case spirv.OpShiftLeftLogical:
		r[in.res] = x << (y & uint64(t.width-1)) & m
	case spirv.OpShiftRightLogical:
		r[in.res] = x >> (y & uint64(t.width-1))
	default:
		return false
	}
	return true
}

func (l *lane) eval(in *instr) error {
	if l.p != nil && l.p.fe != nil && l.p.fe.ins[in] != 0 {
		return l.evalFenv(in) // fenv.go: float controls and device numerics
	}
	return l.evalPlain(in)
}

func (l *lane) evalPlain(in *instr) error {
	r := l.regs
	d := r[in.res : in.res+int32(in.t.slots)]
	n := len(d)
	ct := in.t.comp()
	w := ct.width
	m := mask(w)
	var x, y []uint64
	if len(in.a) > 0 {
		x = r[in.a[0]:]
	}
	if len(in.a) > 1 {
		y = r[in.a[1]:]
	}
	ib := func(f func(a, b uint64) uint64) {
		for k := range d {
			d[k] = f(x[k], y[k]) & m
		}
	}
	sb := func(f func(a, b int64) int64) {
		for k := range d {
			d[k] = uint64(f(sext(x[k], w), sext(y[k], w))) & m
		}
	}
	fb := func(f func(a, b float64) float64) {
		for k := range d {
			d[k] = fround(f(toF64(x[k], ct.ff), toF64(y[k], ct.ff)), ct.ff)
		}
	}
	at := in.at
	var act *typ
	if at != nil {
		act = at.comp()
	}
	cmpU := func(f func(a, b uint64) bool) {
		for k := range d {
			d[k] = b2u(f(x[k], y[k]))
		}
	}
	cmpS := func(f func(a, b int64) bool) {
		aw := act.width
		for k := range d {
			d[k] = b2u(f(sext(x[k], aw), sext(y[k], aw)))
		}
	}
	cmpF := func(unord bool, f func(a, b float64) bool) {
		for k := range d {
			a, b := toF64(x[k], act.ff), toF64(y[k], act.ff)
			if a != a || b != b {
				d[k] = b2u(unord)
			} else {
				d[k] = b2u(f(a, b))
			}
		}
	}
	switch in.op {
	case spirv.OpIAdd:
		ib(func(a, b uint64) uint64 { return a + b })
	case spirv.OpISub:
		ib(func(a, b uint64) uint64 { return a - b })
	case spirv.OpIMul:
		ib(func(a, b uint64) uint64 { return a * b })
	case spirv.OpUDiv:
		ib(func(a, b uint64) uint64 {
			if b == 0 {
				return m
			}
			return a / b
		})
	case spirv.OpUMod:
		ib(func(a, b uint64) uint64 {
			if b == 0 {
				return 0
			}
			return a % b
		})
	case spirv.OpSDiv:
		sb(func(a, b int64) int64 {
			if b == 0 {
				return -1
			}
			if b == -1 {
				return -a
			}
			return a / b
		})
	case spirv.OpSRem:
		sb(func(a, b int64) int64 {
			if b == 0 || b == -1 {
				return 0
			}
			return a % b
		})
	case spirv.OpSMod:
		sb(func(a, b int64) int64 {
			if b == 0 || b == -1 {
				return 0
			}
			r := a % b
			if r != 0 && (r < 0) != (b < 0) {
				r += b
			}
			return r
		})
	case spirv.OpSNegate:
		for k := range d {
			d[k] = -x[k] & m
		}
	case spirv.OpNot:
		for k := range d {
			d[k] = ^x[k] & m
		}
	case spirv.OpFNegate:
		sign := uint64(1) << (w - 1)
		for k := range d {
			d[k] = x[k] ^ sign
		}
	case spirv.OpFAdd:
		fb(func(a, b float64) float64 { return a + b })
	case spirv.OpFSub:
		fb(func(a, b float64) float64 { return a - b })
	case spirv.OpFMul:
		fb(func(a, b float64) float64 { return a * b })
	case spirv.OpFDiv:
		fb(func(a, b float64) float64 { return a / b })
	case spirv.OpFRem:
		fb(math.Mod)
	case spirv.OpFMod:
		fb(func(a, b float64) float64 {
			r := math.Mod(a, b)
			if r != 0 && (r < 0) != (b < 0) {
				r += b
			}
			return r
		})
	case spirv.OpIAddCarry, spirv.OpISubBorrow, spirv.OpUMulExtended, spirv.OpSMulExtended:
		// The result is a struct of two members of the operand type.
		mt := in.t.mem[0]
		vw := mt.comp().width
		vm := mask(vw)
		cnt := mt.slots
		for k := 0; k < cnt; k++ {
			a, b := x[k], y[k]
			var lo, hi uint64
			switch in.op {
			case spirv.OpIAddCarry:
				s := a + b
				lo, hi = s&vm, b2u(s&vm < a)
				if vw == 64 {
					_, c := bits.Add64(a, b, 0)
					hi = c
				}
			case spirv.OpISubBorrow:
				lo, hi = (a-b)&vm, b2u(a < b)
			case spirv.OpUMulExtended:
				h, l2 := bits.Mul64(a, b)
				lo = l2 & vm
				hi = (h<<(64-uint(vw)) | l2>>uint(vw)) & vm
				if vw == 64 {
					hi = h
				}
			default:
				sa, sbv := sext(a, vw), sext(b, vw)
				if vw < 64 {
					p := sa * sbv
					lo, hi = uint64(p)&vm, uint64(p>>uint(vw))&vm
				} else {
					h, l2 := bits.Mul64(uint64(sa), uint64(sbv))
					if sa < 0 {
						h -= uint64(sbv)
					}
					if sbv < 0 {
						h -= uint64(sa)
					}
					lo, hi = l2, h
				}
			}
			d[k], d[cnt+k] = lo, hi
		}
	case spirv.OpShiftLeftLogical:
		for k := range d {
			d[k] = x[k] << (y[k] & uint64(w-1)) & m
		}
	case spirv.OpShiftRightLogical:
		for k := range d {
			d[k] = x[k] >> (y[k] & uint64(w-1)) & m
		}
	case spirv.OpShiftRightArithmetic:
		for k := range d {
			d[k] = uint64(sext(x[k], w)>>(y[k]&uint64(w-1))) & m
		}
	case spirv.OpBitwiseOr:
		ib(func(a, b uint64) uint64 { return a | b })
	case spirv.OpBitwiseXor:
		ib(func(a, b uint64) uint64 { return a ^ b })
	case spirv.OpBitwiseAnd:
		ib(func(a, b uint64) uint64 { return a & b })
	case spirv.OpBitFieldInsert:
		off, cnt := r[in.a[2]], r[in.a[3]]
		fm := uint64(0)
		if off < uint64(w) && cnt > 0 {
			fm = mask(int(min(cnt, uint64(w)-off))) << off
		}
		for k := range d {
			d[k] = (x[k]&^fm | y[k]<<off&fm) & m
		}
	case spirv.OpBitFieldSExtract, spirv.OpBitFieldUExtract:
		off, cnt := r[in.a[1]], r[in.a[2]]
		for k := range d {
			if cnt == 0 || off >= uint64(w) {
				d[k] = 0
				continue
			}
			c := int(min(cnt, uint64(w)-off))
			v := x[k] >> off & mask(c)
			if in.op == spirv.OpBitFieldSExtract {
				v = uint64(sext(v, c)) & m
			}
			d[k] = v
		}
	case spirv.OpBitReverse:
		for k := range d {
			d[k] = bits.Reverse64(x[k]) >> (64 - uint(w))
		}
	case spirv.OpBitCount:
		for k := range d {
			d[k] = uint64(bits.OnesCount64(x[k] & mask(act.width)))
		}
	case spirv.OpAny, spirv.OpAll:
		v := in.op == spirv.OpAll
		for k := 0; k < at.slots; k++ {
			if in.op == spirv.OpAny {
				v = v || x[k] != 0
			} else {
				v = v && x[k] != 0
			}
		}
		d[0] = b2u(v)
	case spirv.OpIsNan, spirv.OpIsInf, spirv.OpIsFinite, spirv.OpIsNormal, spirv.OpSignBitSet:
		for k := range d {
			v := toF64(x[k], act.ff)
			var b bool
			switch in.op {
			case spirv.OpIsNan:
				b = v != v
			case spirv.OpIsInf:
				b = math.IsInf(v, 0)
			case spirv.OpIsFinite:
				b = !math.IsInf(v, 0) && v == v
			case spirv.OpIsNormal:
				nf := fmtDescs[act.ff].nf
				e := x[k] >> nf.Man & (1<<nf.Exp - 1)
				b = e != 0 && !math.IsInf(v, 0) && v == v
			default:
				b = x[k]>>(act.width-1)&1 != 0
			}
			d[k] = b2u(b)
		}
	case spirv.OpLogicalEqual, spirv.OpIEqual:
		cmpU(func(a, b uint64) bool { return a == b })
	case spirv.OpLogicalNotEqual, spirv.OpINotEqual:
		cmpU(func(a, b uint64) bool { return a != b })
	case spirv.OpLogicalOr:
		cmpU(func(a, b uint64) bool { return a|b != 0 })
	case spirv.OpLogicalAnd:
		cmpU(func(a, b uint64) bool { return a&b != 0 })
	case spirv.OpLogicalNot:
		for k := range d {
			d[k] = x[k] ^ 1
		}
	case spirv.OpUGreaterThan:
		cmpU(func(a, b uint64) bool { return a > b })
	case spirv.OpUGreaterThanEqual:
		cmpU(func(a, b uint64) bool { return a >= b })
	case spirv.OpULessThan:
		cmpU(func(a, b uint64) bool { return a < b })
	case spirv.OpULessThanEqual:
		cmpU(func(a, b uint64) bool { return a <= b })
	case spirv.OpSGreaterThan:
		cmpS(func(a, b int64) bool { return a > b })
	case spirv.OpSGreaterThanEqual:
		cmpS(func(a, b int64) bool { return a >= b })
	case spirv.OpSLessThan:
		cmpS(func(a, b int64) bool { return a < b })
	case spirv.OpSLessThanEqual:
		cmpS(func(a, b int64) bool { return a <= b })
	case spirv.OpFOrdEqual, spirv.OpFUnordEqual:
		cmpF(in.op == spirv.OpFUnordEqual, func(a, b float64) bool { return a == b })
	case spirv.OpFOrdNotEqual, spirv.OpFUnordNotEqual:
		cmpF(in.op == spirv.OpFUnordNotEqual, func(a, b float64) bool { return a != b })
	case spirv.OpFOrdLessThan, spirv.OpFUnordLessThan:
		cmpF(in.op == spirv.OpFUnordLessThan, func(a, b float64) bool { return a < b })
	case spirv.OpFOrdGreaterThan, spirv.OpFUnordGreaterThan:
		cmpF(in.op == spirv.OpFUnordGreaterThan, func(a, b float64) bool { return a > b })
	case spirv.OpFOrdLessThanEqual, spirv.OpFUnordLessThanEqual:
		cmpF(in.op == spirv.OpFUnordLessThanEqual, func(a, b float64) bool { return a <= b })
	case spirv.OpFOrdGreaterThanEqual, spirv.OpFUnordGreaterThanEqual:
		cmpF(in.op == spirv.OpFUnordGreaterThanEqual, func(a, b float64) bool { return a >= b })
	case spirv.OpSelect:
		c := x
		a, b := r[in.a[1]:], r[in.a[2]:]
		scalarCond := in.at.slots == 1 && n > 1
		for k := range d {
			ck := k
			if scalarCond {
				ck = 0
			}
			if c[ck] != 0 {
				d[k] = a[k]
			} else {
				d[k] = b[k]
			}
		}
	case opConstU:
		d[0] = uint64(in.lit[0])
		clear(d[1:])
	case spirv.OpCopyObject, spirv.OpCopyLogical, spirv.OpExpectKHR:
		copy(d, x[:n])
	case spirv.OpCompositeConstruct:
		if in.t.kind == kCoopMat && len(in.a) == 1 {
			for k := range d {
				d[k] = x[0]
			}
			break
		}
		k := int32(0)
		for j, s := range in.a {
			c := int32(in.lit[j])
			copy(d[k:k+c], r[s:s+c])
			k += c
		}
	case spirv.OpCompositeConstructReplicateEXT:
		cs := in.at.slots
		for k := 0; k+cs <= n; k += cs {
			copy(d[k:k+cs], x[:cs])
		}
	case spirv.OpCompositeExtract:
		copy(d, x[in.sub:int(in.sub)+n])
	case spirv.OpCompositeInsert:
		copy(d, y[:n])
		copy(d[in.sub:], x[:in.lit[0]])
	case spirv.OpVectorShuffle:
		n1 := uint32(in.at.slots)
		for k, c := range in.lit {
			switch {
			case c == 0xffffffff:
				d[k] = 0
			case c < n1:
				d[k] = x[c]
			default:
				d[k] = y[c-n1]
			}
		}
	case spirv.OpVectorExtractDynamic:
		i := y[0]
		if i >= uint64(in.at.count) {
			d[0] = 0 // undefined by the spec; we give zero
		} else {
			d[0] = x[i]
		}
	case spirv.OpVectorInsertDynamic:
		copy(d, x[:n])
		if i := r[in.a[2]]; i < uint64(n) {
			d[i] = y[0]
		}
	default:
		return l.evalConv(in, d, x, y)
	}
	return nil
}
