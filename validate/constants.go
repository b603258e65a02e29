package validate

import "github.com/coopshader/coop/spirv"

// recordConst notes the value of a scalar integer or Boolean constant.
func (s *state) recordConst(in *spirv.Inst) {
	w := in.Words
	if len(w) < 2 {
		return
	}
	c := constant{}
	switch in.Op {
	case spirv.OpConstantTrue:
		c = constant{value: 1, known: true}
	case spirv.OpConstantFalse, spirv.OpConstantNull:
		c = constant{value: 0, known: true}
	case spirv.OpSpecConstantTrue:
		c = constant{value: 1, spec: true}
	case spirv.OpSpecConstantFalse, spirv.OpSpecConstantOp, spirv.OpSpecConstantComposite:
		c = constant{spec: true}
	case spirv.OpConstant, spirv.OpSpecConstant:
		t := s.types[w[0]]
		if t.is(spirv.OpTypeInt) && len(w) >= 3 {
			v := uint64(w[2])
			if len(w) >= 4 {
				v |= uint64(w[3]) << 32
			} else if t.Signed && t.Width < 64 && t.Width > 0 && v>>(t.Width-1)&1 != 0 {
				v |= ^uint64(0) << t.Width // sign-extend
			}
			c = constant{value: v, known: in.Op == spirv.OpConstant, spec: in.Op == spirv.OpSpecConstant}
		} else {
			c = constant{spec: in.Op == spirv.OpSpecConstant}
		}
	default:
		return
	}
	if c.spec && s.opts.Spec != nil {
		// A specialized module: the constant has its pipeline's value.
		t := s.types[w[0]]
		switch {
		case in.Op == spirv.OpSpecConstantOp:
			c.value, c.known = s.specOp(in, t)
		case in.Op != spirv.OpSpecConstantComposite && (t.is(spirv.OpTypeInt) || t.is(spirv.OpTypeBool)):
			c.value, c.known = s.specValue(in, t)
		}
	}
	s.consts[w[1]] = c
}

// checkConstants checks the result types and constituents of the constant
// instructions (SPIR-V 3.56.7 Constant-Creation Instructions, with the
// cooperative matrix exception of SPV_KHR_cooperative_matrix: "there must
// be only one 'Constituent', with scalar type matching the cooperative
// matrix 'Component Type'").
func (s *state) checkConstants() {
	for i := range s.m.Insts {
		in := &s.m.Insts[i]
		if in.Op == spirv.OpFunction {
			return
		}
		if !isConstInst(in.Op) {
			continue
		}
		rt := s.types[in.TypeID()]
		if rt == nil {
			s.fail(i, "constant.type", "%s Result Type <id> '%d' is not a type.", in.Op, in.TypeID())
			return
		}
		switch in.Op {
		case spirv.OpConstantTrue, spirv.OpConstantFalse, spirv.OpSpecConstantTrue, spirv.OpSpecConstantFalse:
			if !rt.is(spirv.OpTypeBool) {
				s.fail(i, "constant.bool", "%s Result Type <id> '%d' is not a boolean type.", in.Op, rt.ID)
			}
		case spirv.OpConstant, spirv.OpSpecConstant:
			if !rt.is(spirv.OpTypeInt) && !rt.is(spirv.OpTypeFloat) {
				s.fail(i, "constant.scalar", "%s Result Type <id> '%d' is not a scalar integer or floating-point type.", in.Op, rt.ID)
			} else {
				s.checkNarrowLiteral(i, rt)
			}
		case spirv.OpConstantComposite, spirv.OpSpecConstantComposite:
			s.checkComposite(i, in.Op, rt, in.Words[2:], true)
		case spirv.OpConstantDataKHR, spirv.OpSpecConstantDataKHR:
			s.checkConstantData(i, rt)
		}
		if s.err != nil {
			return
		}
	}
}

// checkConstantData: OpConstantDataKHR and OpSpecConstantDataKHR
// (SPV_KHR_constant_data) are an array of integer scalars given as
// packed words, "the number of words ... must be the size of the array
// in bytes rounded up to a whole word" (paraphrased, no local copy); an
// array whose length is a specialization constant is not counted.
func (s *state) checkConstantData(i int, rt *Type) {
	e := s.types[rt.Elem]
	switch {
	case !rt.is(spirv.OpTypeArray):
		s.fail(i, "constant.data", "Result type must be an array.")
	case !e.is(spirv.OpTypeInt):
		s.fail(i, "constant.data", "Result type must be an array of integer scalar type.")
	case rt.CountKnown:
		words := uint64(len(s.m.Insts[i].Words) - 2)
		if need := (uint64(e.Width)/8*rt.Count + 3) / 4; words != need {
			s.fail(i, "constant.data", "contains %d words of data, but needs to have %d words to match the array of %d of %d-bit ints.", words, need, rt.Count, e.Width)
		}
	}
}

// checkComposite checks constituents against a composite result type, for
// the constant instructions and OpCompositeConstruct (which also accepts
// vectors as constituents of a vector).
func (s *state) checkComposite(i int, op spirv.Op, rt *Type, parts []uint32, constant bool) {
	if constant {
		for _, p := range parts {
			pi := s.defInst(p)
			if pi == nil || !isConstInst(pi.Op) && pi.Op != spirv.OpUndef {
				s.fail(i, "constant.constituent", "%s Constituent <id> '%d' is not a constant or undef.", op, p)
				return
			}
			// A fixed constant cannot hold a value fixed only at pipeline
			// creation: OpConstantComposite's "Constituents must be ...
			// non-specialization constants" (SPIR-V 3.56.7, paraphrased;
			// OpSpecConstantComposite is the one that takes them).
			if op != spirv.OpSpecConstantComposite && isSpecConstInst(pi.Op) {
				s.fail(i, "constant.constituent.spec", "%s must not have spec constant operands: <id> '%d'", op, p)
				return
			}
		}
	}
	typeOf := func(p uint32) uint32 { return s.typeOf(p) }
	switch {
	case rt.is(spirv.OpTypeVector) || rt.is(spirv.OpTypeVectorIdEXT):
		n := uint64(0)
		for _, p := range parts {
			pt := s.types[typeOf(p)]
			switch {
			case pt != nil && pt.ID == rt.Elem:
				n++
			case !constant && pt.is(spirv.OpTypeVector) && pt.Elem == rt.Elem:
				n += pt.Count
			default:
				s.fail(i, "composite.vector", "%s Constituent <id> '%d' type does not match the Result Type <id> '%d's vector component type.", op, p, rt.ID)
				return
			}
		}
		if rt.CountKnown && n != rt.Count && !(s.isCoopVec(rt) && !constant) {
			s.fail(i, "composite.vector", "%s Constituent <id> count does not match Result Type <id> '%d's vector component count.", op, rt.ID)
		}
	case rt.is(spirv.OpTypeMatrix):
		if uint64(len(parts)) != rt.Count {
			s.fail(i, "composite.matrix", "%s Constituent <id> count does not match Result Type <id> '%d's matrix column count.", op, rt.ID)
			return
		}
		for _, p := range parts {
			if typeOf(p) != rt.Elem {
				s.fail(i, "composite.matrix", "%s Constituent <id> '%d' type does not match the Result Type <id> '%d's column type.", op, p, rt.ID)
				return
			}
		}
	case rt.is(spirv.OpTypeArray):
		if rt.CountKnown && uint64(len(parts)) != rt.Count {
			s.fail(i, "composite.array", "%s Constituent count does not match Result Type <id> '%d's array length.", op, rt.ID)
			return
		}
		for _, p := range parts {
			if typeOf(p) != rt.Elem {
				s.fail(i, "composite.array", "%s Constituent <id> '%d' type does not match the Result Type <id> '%d's array element type.", op, p, rt.ID)
				return
			}
		}
	case rt.is(spirv.OpTypeStruct):
		if len(parts) != len(rt.Members) {
			s.fail(i, "composite.struct", "%s Constituent <id> count does not match Result Type <id> '%d's struct member count.", op, rt.ID)
			return
		}
		for k, p := range parts {
			if typeOf(p) != rt.Members[k] {
				s.fail(i, "composite.struct", "%s Constituent <id> '%d' type does not match the Result Type <id> '%d's member type.", op, p, rt.ID)
				return
			}
		}
	case isCoopMat(rt):
		if len(parts) != 1 || typeOf(parts[0]) != rt.Elem {
			s.fail(i, "coopmat.construct", "%s of cooperative matrix type <id> '%d' must have exactly one Constituent, of the matrix's Component Type.", op, rt.ID)
		}
	default:
		s.fail(i, "composite.type", "%s Result Type <id> '%d' is not a composite type.", op, rt.ID)
	}
}

// isSpecConstInst reports whether op makes a specialization constant.
func isSpecConstInst(op spirv.Op) bool {
	switch op {
	case spirv.OpSpecConstantTrue, spirv.OpSpecConstantFalse, spirv.OpSpecConstant, spirv.OpSpecConstantComposite,
		spirv.OpSpecConstantOp, spirv.OpSpecConstantCompositeReplicateEXT, spirv.OpSpecConstantDataKHR:
		return true
	}
	return false
}

// checkNarrowLiteral: a literal narrower than its word "must be 0 for a
// floating-point type, or 0 for an integer type with Signedness of 0, or
// sign extended when Signedness is 1" in the high-order bits (SPIR-V
// 2.2.1, Literal).
func (s *state) checkNarrowLiteral(i int, t *Type) {
	w := s.m.Insts[i].Words
	if t.Width >= 32 || t.Width == 0 || len(w) != 3 {
		return
	}
	v, high := w[2], w[2]>>t.Width
	ok := high == 0
	if t.is(spirv.OpTypeInt) && t.Signed && v>>(t.Width-1)&1 != 0 {
		ok = high == 1<<(32-t.Width)-1
	}
	if !ok {
		s.fail(i, "constant.literal", "The high-order bits of a literal number in instruction <id> %d must be 0 for a floating-point type, or 0 for an integer type with Signedness of 0, or sign extended when Signedness is 1", w[1])
	}
}
