package validate

import "github.com/coopshader/coop/spirv"

// Specialization (Options.Spec): a pipeline fixes every specialization
// constant, to the value it gives by SpecId or else to the default the
// module declares (Vulkan 10.9 "Specialization Constants"). Validating
// with Options.Spec checks the specialized module: the rules that read a
// constant (array lengths, workgroup sizes, cooperative matrix and vector
// dimensions, scopes, uses, layouts) see those values, OpSpecConstantOp
// results included where the operation is integer or Boolean arithmetic.

// specValue returns the value of specialization constant instruction in
// (OpSpecConstant, OpSpecConstantTrue, OpSpecConstantFalse) under
// Options.Spec, of a scalar type t (nil for Booleans).
func (s *state) specValue(in *spirv.Inst, t *Type) (uint64, bool) {
	w := in.Words
	v := uint64(0)
	switch in.Op {
	case spirv.OpSpecConstantTrue:
		v = 1
	case spirv.OpSpecConstant:
		if len(w) < 3 {
			return 0, false
		}
		v = uint64(w[2])
		if len(w) >= 4 {
			v |= uint64(w[3]) << 32
		}
	}
	if id, ok := s.specIDs[w[1]]; ok {
		if b, ok := s.opts.Spec[id]; ok {
			v = 0
			for k := len(b) - 1; k >= 0; k-- {
				v = v<<8 | uint64(b[k])
			}
			if in.Op != spirv.OpSpecConstant {
				v = min(v, 1) // a Boolean: "nonzero is true"
			}
		}
	}
	if t.is(spirv.OpTypeInt) {
		v = extend(v, t)
	}
	return v, true
}

// extend truncates v to t's width, sign-extending a signed integer.
func extend(v uint64, t *Type) uint64 {
	if t.Width == 0 || t.Width >= 64 {
		return v
	}
	v &= 1<<t.Width - 1
	if t.Signed && v>>(t.Width-1)&1 != 0 {
		v |= ^uint64(0) << t.Width
	}
	return v
}

// collectSpecIDs records the SpecId decorations; they precede the
// constants they decorate, so constants can take their values as the
// types pass records them.
func (s *state) collectSpecIDs() {
	if s.opts.Spec == nil {
		return
	}
	s.specIDs = map[uint32]uint32{}
	for i := range s.m.Insts {
		in := &s.m.Insts[i]
		if in.Op == spirv.OpFunction {
			return
		}
		if in.Op == spirv.OpDecorate && len(in.Words) >= 3 && spirv.Decoration(in.Words[1]) == spirv.DecorationSpecId {
			s.specIDs[in.Words[0]] = in.Words[2]
		}
	}
}

// specOp evaluates an OpSpecConstantOp of scalar integer or Boolean type
// whose operands are known; ok is false for any other.
func (s *state) specOp(in *spirv.Inst, t *Type) (uint64, bool) {
	w := in.Words
	if len(w) < 4 || t == nil || !t.is(spirv.OpTypeInt) && !t.is(spirv.OpTypeBool) {
		return 0, false
	}
	args := make([]uint64, 0, 3)
	for _, id := range w[3:] {
		v, ok := s.constValue(id)
		if !ok {
			return 0, false
		}
		args = append(args, v)
	}
	arg := func(k int) uint64 {
		if k < len(args) {
			return args[k]
		}
		return 0
	}
	// Operands are compared and divided at their own width: unsigned
	// operations see the low bits, signed ones the sign-extended value.
	ot := s.valueType(w[3])
	width := uint32(64)
	if ot.is(spirv.OpTypeInt) && ot.Width > 0 && ot.Width < 64 {
		width = ot.Width
	}
	a, b := arg(0), arg(1)
	sa, sb := int64(extend(a, &Type{Width: width, Signed: true})), int64(extend(b, &Type{Width: width, Signed: true}))
	if width < 64 {
		a, b = a&(1<<width-1), b&(1<<width-1)
	}
	bit := func(c bool) uint64 {
		if c {
			return 1
		}
		return 0
	}
	var v uint64
	switch spirv.Op(w[2]) {
	case spirv.OpIAdd:
		v = a + b
	case spirv.OpISub:
		v = a - b
	case spirv.OpIMul:
		v = a * b
	case spirv.OpUDiv, spirv.OpUMod, spirv.OpSDiv, spirv.OpSRem, spirv.OpSMod:
		if b == 0 || sb == -1 {
			return 0, false // undefined (or overflowing) results stay unknown
		}
		switch spirv.Op(w[2]) {
		case spirv.OpUDiv:
			v = a / b
		case spirv.OpUMod:
			v = a % b
		case spirv.OpSDiv:
			v = uint64(sa / sb)
		case spirv.OpSRem:
			v = uint64(sa % sb)
		default:
			r := sa % sb
			if r != 0 && (r < 0) != (sb < 0) {
				r += sb
			}
			v = uint64(r)
		}
	case spirv.OpShiftLeftLogical, spirv.OpShiftRightLogical, spirv.OpShiftRightArithmetic:
		if b >= uint64(t.Width) {
			return 0, false
		}
		switch spirv.Op(w[2]) {
		case spirv.OpShiftLeftLogical:
			v = a << b
		case spirv.OpShiftRightLogical:
			v = a >> b
		default:
			v = uint64(sa >> b)
		}
	case spirv.OpBitwiseAnd:
		v = a & b
	case spirv.OpBitwiseOr:
		v = a | b
	case spirv.OpBitwiseXor:
		v = a ^ b
	case spirv.OpNot:
		v = ^a
	case spirv.OpSNegate:
		v = uint64(-sa)
	case spirv.OpSConvert:
		v = uint64(sa)
	case spirv.OpUConvert:
		v = a
	case spirv.OpSelect:
		v = arg(2)
		if a != 0 {
			v = b
		}
	case spirv.OpLogicalAnd:
		v = bit(a != 0 && b != 0)
	case spirv.OpLogicalOr:
		v = bit(a != 0 || b != 0)
	case spirv.OpLogicalNot:
		v = bit(a == 0)
	case spirv.OpLogicalEqual:
		v = bit((a != 0) == (b != 0))
	case spirv.OpLogicalNotEqual:
		v = bit((a != 0) != (b != 0))
	case spirv.OpIEqual:
		v = bit(a == b)
	case spirv.OpINotEqual:
		v = bit(a != b)
	case spirv.OpULessThan:
		v = bit(a < b)
	case spirv.OpUGreaterThan:
		v = bit(a > b)
	case spirv.OpULessThanEqual:
		v = bit(a <= b)
	case spirv.OpUGreaterThanEqual:
		v = bit(a >= b)
	case spirv.OpSLessThan:
		v = bit(sa < sb)
	case spirv.OpSGreaterThan:
		v = bit(sa > sb)
	case spirv.OpSLessThanEqual:
		v = bit(sa <= sb)
	case spirv.OpSGreaterThanEqual:
		v = bit(sa >= sb)
	default:
		return 0, false
	}
	if t.is(spirv.OpTypeInt) {
		v = extend(v, t)
	}
	return v, true
}
