package validate

import (
	"github.com/coopshader/coop/spirv"
)

// SPV_NV_cooperative_vector. The type's count is checked with the types
// (checkVectorIDType) and where the type may live in checkVariable.

// coopVecChecks are the family's rules (instructions.go lists the families).
var coopVecChecks = []opCheck{
	{spirv.OpCooperativeVectorLoadNV, (*state).checkCoopVecLoadStore},
	{spirv.OpCooperativeVectorStoreNV, (*state).checkCoopVecLoadStore},
	{spirv.OpCooperativeVectorMatrixMulNV, (*state).checkCoopVecMatMul},
	{spirv.OpCooperativeVectorMatrixMulAddNV, (*state).checkCoopVecMatMul},
	{spirv.OpCooperativeVectorOuterProductAccumulateNV, (*state).checkCoopVecOuterProduct},
	{spirv.OpCooperativeVectorReduceSumAccumulateNV, (*state).checkCoopVecReduceSum},
}

// checkCoopVecPointer: "Its type must be an OpTypePointer whose 'Type'
// operand is an array type with a scalar or vector 'Element Type' (scalar
// only for the matrix and bias of the multiplies). The storage class ...
// must be" one of those listed.
func (s *state) checkCoopVecPointer(i int, role string, ptr uint32, scalarOnly bool, classes ...spirv.StorageClass) bool {
	op := s.m.Insts[i].Op
	elem, pt, ok := s.pointee(ptr)
	if !ok {
		s.fail(i, "coopvec.pointer", "%s %s <id> '%d' is not a pointer.", op, role, ptr)
		return false
	}
	if elem != nil {
		if (elem.Op != spirv.OpTypeArray && elem.Op != spirv.OpTypeRuntimeArray) ||
			(scalarOnly && s.scalar(elem.Elem) == nil) || s.component(elem.Elem) == nil {
			what := "a scalar or vector"
			if scalarOnly {
				what = "a scalar"
			}
			s.fail(i, "coopvec.pointer", "%s %s's type must be an OpTypePointer whose Type operand is an array type with %s Element Type.", op, role, what)
			return false
		}
	}
	for _, c := range classes {
		if pt.Storage == c {
			return true
		}
	}
	names := ""
	for k, c := range classes {
		if k > 0 {
			names += ", "
		}
		names += scName(c)
	}
	s.fail(i, "coopvec.pointer.storage", "%s %s's storage class must be %s, not %s.", op, role, names, scName(pt.Storage))
	return false
}

// checkInt32 reports whether id is a 32-bit integer scalar value, failing
// otherwise with "'<role>' must be a 32 bit integer". Shader64BitIndexingEXT
// (SPV_EXT_shader_64bit_indexing) lets offsets and strides be 64-bit.
func (s *state) checkInt32(i int, role string, id uint32) bool {
	t := s.valueType(id)
	if s.hasCap(spirv.CapabilityShader64BitIndexingEXT) && t.is(spirv.OpTypeInt) && t.Width == 64 {
		return true
	}
	if !s.isInt32Scalar(s.typeOf(id)) {
		s.fail(i, "coopvec.int32", "%s %s <id> '%d' must be a 32-bit integer.", s.m.Insts[i].Op, role, id)
		return false
	}
	return true
}

// checkCoopVecLoadStore: the loaded type or stored object is a cooperative
// vector; the pointer as checkCoopVecPointer (CrossWorkgroup, Workgroup,
// StorageBuffer or PhysicalStorageBuffer); "'Offset' must be a 32-bit
// integer"; MakePointerAvailable is not valid with the load nor
// MakePointerVisible with the store.
func (s *state) checkCoopVecLoadStore(i int) {
	in := &s.m.Insts[i]
	w := in.Words
	load := in.Op == spirv.OpCooperativeVectorLoadNV
	var ptr, off uint32
	if load {
		if !s.isCoopVec(s.types[w[0]]) {
			s.fail(i, "coopvec.load.type", "OpCooperativeVectorLoadNV Result Type <id> '%d' must be a cooperative vector type.", w[0])
			return
		}
		ptr, off = w[2], w[3]
	} else {
		if !s.isCoopVec(s.valueType(w[2])) {
			s.fail(i, "coopvec.store.type", "OpCooperativeVectorStoreNV Object <id> '%d' must be an OpTypeCooperativeVectorNV.", w[2])
			return
		}
		ptr, off = w[0], w[1]
	}
	if !s.checkCoopVecPointer(i, "Pointer", ptr, false, spirv.StorageClassCrossWorkgroup, spirv.StorageClassWorkgroup,
		spirv.StorageClassStorageBuffer, spirv.StorageClassPhysicalStorageBuffer) || !s.checkInt32(i, "Offset", off) {
		return
	}
	for _, o := range s.operands(i) {
		if o.Kind == spirv.KindMemoryAccess {
			s.checkMemoryOperand(i, spirv.MemoryAccess(w[o.Offset]), load)
		}
	}
}

// packedBits returns the bits per element of a Packed interpretation, or 0.
func packedBits(ct spirv.ComponentType) uint64 {
	switch ct {
	case spirv.ComponentTypeSignedInt8PackedNV, spirv.ComponentTypeUnsignedInt8PackedNV:
		return 8
	}
	return 0
}

// checkCoopVecMatMul (OpCooperativeVectorMatrixMul[Add]NV): see the quoted
// rules in each message.
func (s *state) checkCoopVecMatMul(i int) {
	in := &s.m.Insts[i]
	w := in.Words
	op := in.Op
	add := op == spirv.OpCooperativeVectorMatrixMulAddNV
	input, inInterp, matrix, mOff, mInterp := w[2], w[3], w[4], w[5], w[6]
	k := 7
	var bias, bOff, bInterp uint32
	if add {
		bias, bOff, bInterp = w[7], w[8], w[9]
		k = 10
	}
	mID, kID, layout, transpose := w[k], w[k+1], w[k+2], w[k+3]
	rt := s.types[w[0]]
	if !s.isCoopVec(rt) {
		s.fail(i, "coopvec.matmul.result", "%s Result Type must be a cooperative vector type.", op)
		return
	}
	// "'Result Type' ... must be a cooperative vector type whose component
	// type is a 32-bit scalar integer or a 16- or 32-bit float."
	if ct := s.types[rt.Elem]; !(ct.is(spirv.OpTypeInt) && ct.Width == 32 || ct.is(spirv.OpTypeFloat) && ct.Encoding < 0 && (ct.Width == 16 || ct.Width == 32)) {
		s.fail(i, "coopvec.matmul.result", "%s Result Type's component type must be a 32-bit integer or a 16- or 32-bit float.", op)
		return
	}
	it := s.valueType(input)
	if !s.isCoopVec(it) {
		s.fail(i, "coopvec.matmul.input", "%s Input must be a cooperative vector.", op)
		return
	}
	// "'InputInterpretation', 'MatrixInterpretation', 'BiasInterpretation',
	// 'M', 'K', 'MemoryLayout', and 'Transpose' parameters must be
	// constant instructions"; the interpretations, M and K "must be 32-bit
	// integers".
	consts := []struct {
		role string
		id   uint32
	}{{"InputInterpretation", inInterp}, {"MatrixInterpretation", mInterp}, {"M", mID}, {"K", kID}, {"MemoryLayout", layout}}
	if add {
		consts = append(consts, struct {
			role string
			id   uint32
		}{"BiasInterpretation", bInterp})
	}
	for _, c := range consts {
		if !s.checkConstInt32(c.id) {
			s.fail(i, "coopvec.matmul.constant", "%s %s <id> '%d' must be a constant instruction with 32-bit integer type.", op, c.role, c.id)
			return
		}
	}
	for _, c := range []struct {
		role string
		id   uint32
	}{{"InputInterpretation", inInterp}, {"MatrixInterpretation", mInterp}, {"BiasInterpretation", bInterp}} {
		if v, ok := s.constValue(c.id); ok && c.id != 0 && spirv.KindComponentType.Enumerant(uint32(v)) == nil {
			s.fail(i, "coopvec.interpretation", "%s %s value %d is not a Component Type.", op, c.role, v)
			return
		}
	}
	// "'MemoryLayout' ... must come from a 32-bit integer constant
	// instruction whose value corresponds to a Cooperative Vector Matrix
	// Layout."
	lv, lk := s.constValue(layout)
	if lk && spirv.KindCooperativeVectorMatrixLayout.Enumerant(uint32(lv)) == nil {
		s.fail(i, "coopvec.layout", "%s MemoryLayout value %d is not a Cooperative Vector Matrix Layout.", op, lv)
		return
	}
	// "'Transpose' must have a scalar boolean type" and be a constant.
	if d := s.defInst(transpose); d == nil || !isConstInst(d.Op) || !s.types[d.TypeID()].is(spirv.OpTypeBool) {
		s.fail(i, "coopvec.transpose", "%s Transpose <id> '%d' must be a constant instruction of scalar boolean type.", op, transpose)
		return
	}
	// "Transposing is not supported for the RowMajorNV/ColumnMajorNV
	// layouts."
	if tv, ok := s.constValue(transpose); ok && tv != 0 && lk &&
		(spirv.CooperativeVectorMatrixLayout(lv) == spirv.CooperativeVectorMatrixLayoutRowMajorNV ||
			spirv.CooperativeVectorMatrixLayout(lv) == spirv.CooperativeVectorMatrixLayoutColumnMajorNV) {
		s.fail(i, "coopvec.transpose", "%s: transposing is not supported for the RowMajorNV and ColumnMajorNV layouts.", op)
		return
	}
	// "The number of components of 'Result Type' must equal 'M'."
	if m, ok := s.constValue(mID); ok && rt.CountKnown && rt.Count != m {
		s.fail(i, "coopvec.matmul.m", "%s: the number of components of Result Type (%d) must equal M (%d).", op, rt.Count, m)
		return
	}
	// Non-packed: "'Input' must have 'K' components"; packed: "The
	// component type of 'Input' must be uint32_t. The input vector must
	// have enough components to hold 'K' values of the packed type."
	kv, kk := s.constValue(kID)
	iv, ik := s.constValue(inInterp)
	if kk && ik && it.CountKnown {
		if bits := packedBits(spirv.ComponentType(iv)); bits != 0 {
			if ct := s.types[it.Elem]; !ct.is(spirv.OpTypeInt) || ct.Width != 32 || ct.Signed {
				s.fail(i, "coopvec.matmul.packed", "%s: with a Packed InputInterpretation, the component type of Input must be a 32-bit unsigned integer.", op)
				return
			}
			if it.Count*32 < kv*bits {
				s.fail(i, "coopvec.matmul.k", "%s: Input has %d components, too few to hold K (%d) packed values.", op, it.Count, kv)
				return
			}
		} else if it.Count != kv {
			s.fail(i, "coopvec.matmul.k", "%s: Input must have K (%d) components, not %d.", op, kv, it.Count)
			return
		}
	}
	// "'Matrix' ... 'Bias' ... must be an OpTypePointer whose 'Type'
	// operand is an array type with a scalar 'Element Type'. The storage
	// class ... must be CrossWorkgroup, StorageBuffer or
	// PhysicalStorageBuffer." "'MatrixOffset' ... 'BiasOffset' must be a 32
	// bit integer."
	classes := []spirv.StorageClass{spirv.StorageClassCrossWorkgroup, spirv.StorageClassStorageBuffer, spirv.StorageClassPhysicalStorageBuffer}
	if !s.checkCoopVecPointer(i, "Matrix", matrix, true, classes...) || !s.checkInt32(i, "MatrixOffset", mOff) {
		return
	}
	if add && (!s.checkCoopVecPointer(i, "Bias", bias, true, classes...) || !s.checkInt32(i, "BiasOffset", bOff)) {
		return
	}
	if len(w) > k+4 {
		for _, o := range s.operands(i) {
			// The multiplies' MatrixStride is a scalar integer (the
			// extension states no width for it, unlike the training
			// instructions').
			if o.Kind == spirv.KindIdRef && o.Offset == k+4 && !s.valueType(w[o.Offset]).is(spirv.OpTypeInt) {
				s.fail(i, "coopvec.matmul.stride", "%s MatrixStride <id> '%d' must be a scalar integer.", op, w[o.Offset])
			}
		}
	}
}

// checkCoopVecOuterProduct: "'A' and 'B' must have cooperative vector
// types with the same 'Component Type'"; the pointer (Workgroup,
// CrossWorkgroup, StorageBuffer or PhysicalStorageBuffer), 'Offset',
// 'MatrixInterpretation' and 'MatrixStride' 32-bit integers, 'MemoryLayout'
// a constant Cooperative Vector Matrix Layout.
func (s *state) checkCoopVecOuterProduct(i int) {
	w := s.m.Insts[i].Words
	op := s.m.Insts[i].Op
	a, b := s.valueType(w[2]), s.valueType(w[3])
	if !s.isCoopVec(a) || !s.isCoopVec(b) || a.Elem != b.Elem {
		s.fail(i, "coopvec.outer-product.type", "%s: A and B must have cooperative vector types with the same Component Type.", op)
		return
	}
	if !s.checkCoopVecPointer(i, "Pointer", w[0], false, spirv.StorageClassWorkgroup, spirv.StorageClassCrossWorkgroup,
		spirv.StorageClassStorageBuffer, spirv.StorageClassPhysicalStorageBuffer) || !s.checkInt32(i, "Offset", w[1]) {
		return
	}
	if !s.checkConstInt32(w[4]) {
		s.fail(i, "coopvec.layout", "%s MemoryLayout <id> '%d' must be a 32-bit integer constant instruction.", op, w[4])
		return
	}
	if v, ok := s.constValue(w[4]); ok && spirv.KindCooperativeVectorMatrixLayout.Enumerant(uint32(v)) == nil {
		s.fail(i, "coopvec.layout", "%s MemoryLayout value %d is not a Cooperative Vector Matrix Layout.", op, v)
		return
	}
	if !s.checkInt32(i, "MatrixInterpretation", w[5]) {
		return
	}
	if len(w) > 6 {
		s.checkInt32(i, "MatrixStride", w[6])
	}
}

// checkCoopVecReduceSum: "'V' must have a cooperative vector type"; the
// pointer's element is a scalar or vector in Workgroup, CrossWorkgroup,
// StorageBuffer or PhysicalStorageBuffer memory; "'Offset' must be a 32
// bit integer".
func (s *state) checkCoopVecReduceSum(i int) {
	w := s.m.Insts[i].Words
	if !s.isCoopVec(s.valueType(w[2])) {
		s.fail(i, "coopvec.reduce-sum.type", "OpCooperativeVectorReduceSumAccumulateNV: V must have a cooperative vector type.")
		return
	}
	if s.checkCoopVecPointer(i, "Pointer", w[0], false, spirv.StorageClassWorkgroup, spirv.StorageClassCrossWorkgroup,
		spirv.StorageClassStorageBuffer, spirv.StorageClassPhysicalStorageBuffer) {
		s.checkInt32(i, "Offset", w[1])
	}
}

// checkCoopVecConversion (SPV_NV_cooperative_vector 3.42.11): "The result
// type and value type must have the same 'Component Count'"; for OpBitcast
// "the same number of components and same number of bits per component".
func (s *state) checkCoopVecConversion(i int, r, v *Type) {
	op := s.m.Insts[i].Op
	// With SPV_EXT_long_vector too, OpTypeVectorIdEXT may be a long vector,
	// which converts and bitcasts as vectors do.
	if s.hasCap(spirv.CapabilityLongVectorEXT) {
		return
	}
	if !s.isCoopVec(r) || !s.isCoopVec(v) {
		// "Result Type must be a cooperative vector type ... Value must
		// be a cooperative vector" when either is.
		s.fail(i, "coopvec.convert", "%s: Result Type and operand must both be cooperative vectors.", op)
		return
	}
	if r.CountKnown && v.CountKnown && r.Count != v.Count {
		s.fail(i, "coopvec.convert", "%s: Result Type and value type must have the same Component Count (%d, %d).", op, r.Count, v.Count)
		return
	}
	if op == spirv.OpBitcast {
		if rc, vc := s.types[r.Elem], s.types[v.Elem]; rc == nil || vc == nil || rc.Width != vc.Width {
			s.fail(i, "coopvec.bitcast", "OpBitcast of cooperative vectors needs the same number of bits per component.")
		}
	}
}
