package validate

import (
	"github.com/coopshader/coop/spirv"
)

// SPV_KHR_cooperative_matrix, SPV_NV_cooperative_matrix and the matrix
// instructions of SPV_NV_cooperative_matrix2 (reduce, per-element,
// conversions, transpose); the tensor loads and stores are in tensor.go.

// coopMatChecks are the family's rules (instructions.go lists the families).
var coopMatChecks = []opCheck{
	{spirv.OpTypeCooperativeMatrixKHR, (*state).checkCoopMatType},
	{spirv.OpTypeCooperativeMatrixNV, (*state).checkCoopMatType},
	{spirv.OpCooperativeMatrixLengthKHR, (*state).checkCoopMatLength},
	{spirv.OpCooperativeMatrixLengthNV, (*state).checkCoopMatLength},
	{spirv.OpCooperativeMatrixLoadKHR, (*state).checkCoopMatLoadStore},
	{spirv.OpCooperativeMatrixStoreKHR, (*state).checkCoopMatLoadStore},
	{spirv.OpCooperativeMatrixLoadNV, (*state).checkCoopMatLoadStoreNV},
	{spirv.OpCooperativeMatrixStoreNV, (*state).checkCoopMatLoadStoreNV},
	{spirv.OpCooperativeMatrixMulAddKHR, (*state).checkCoopMatMulAdd},
	{spirv.OpCooperativeMatrixMulAddNV, (*state).checkCoopMatMulAdd},
	{spirv.OpCooperativeMatrixConvertUseEXT, (*state).checkCoopMatConvertUse},
	{spirv.OpCooperativeMatrixTransposeNV, (*state).checkCoopMatTranspose},
	{spirv.OpCooperativeMatrixReduceEXT, (*state).checkCoopMatReduce},
	{spirv.OpCooperativeMatrixPerElementOpEXT, (*state).checkCoopMatPerElement},
	{spirv.OpConvertFToU, (*state).checkCoopMatConversion},
	{spirv.OpConvertFToS, (*state).checkCoopMatConversion},
	{spirv.OpConvertSToF, (*state).checkCoopMatConversion},
	{spirv.OpConvertUToF, (*state).checkCoopMatConversion},
	{spirv.OpUConvert, (*state).checkCoopMatConversion},
	{spirv.OpSConvert, (*state).checkCoopMatConversion},
	{spirv.OpFConvert, (*state).checkCoopMatConversion},
	{spirv.OpBitcast, (*state).checkCoopMatConversion},
	{spirv.OpMatrixTimesScalar, (*state).checkCoopMatTimesScalar},
}

// matDim returns the value of a cooperative matrix's constant operand.
func (s *state) matDim(id uint32) (uint64, bool) { return s.constValue(id) }

// sameDim reports whether two constant operands may be equal: equal ids,
// or equal known values; a specialization constant matches anything.
func (s *state) sameDim(a, b uint32) bool {
	if a == b {
		return true
	}
	va, ka := s.constValue(a)
	vb, kb := s.constValue(b)
	return !ka || !kb || va == vb
}

// checkCoopMatType (OpTypeCooperativeMatrixKHR/NV): "'Component Type'
// must be a scalar numerical type. 'Scope', 'Rows', 'Columns' [and 'Use']
// must be a constant instruction with scalar 32-bit integer type", Use
// names a Cooperative Matrix Use; bfloat16, 8-bit float and 4-bit integer
// components need their cooperative matrix capabilities; a Workgroup scope
// needs the workgroup size specified before the type (SPV_NV_cooperative_matrix2).
func (s *state) checkCoopMatType(i int) {
	in := &s.m.Insts[i]
	t := s.types[in.Words[0]]
	ct := s.types[t.Elem]
	if ct == nil || (ct.Op != spirv.OpTypeInt && ct.Op != spirv.OpTypeFloat) {
		s.fail(i, "coopmat.type.component", "%s Component Type <id> '%d' is not a scalar numerical type.", in.Op, t.Elem)
		return
	}
	names := []string{"Scope", "Rows", "Columns", "Use"}
	for k, id := range in.Words[2:] {
		d := s.defInst(id)
		if d == nil || !isConstInst(d.Op) || !s.isInt32Scalar(d.TypeID()) {
			s.fail(i, "coopmat.type.operand", "%s %s <id> '%d' must be a constant instruction with scalar 32-bit integer type.", in.Op, names[k], id)
			return
		}
	}
	if in.Op == spirv.OpTypeCooperativeMatrixKHR {
		if u, ok := s.constValue(t.Use); ok && u > uint64(spirv.CooperativeMatrixUseMatrixAccumulatorKHR) {
			s.fail(i, "coopmat.type.use", "OpTypeCooperativeMatrixKHR Use <id> '%d' value %d is not a Cooperative Matrix Use.", t.Use, u)
			return
		}
		switch {
		case isBF16(s, ct) && !s.hasCap(spirv.CapabilityBFloat16CooperativeMatrixKHR):
			// SPV_KHR_bfloat16: "If Component Type has a BFloat16KHR
			// encoding then BFloat16CooperativeMatrixKHR must be declared."
			s.fail(i, "bfloat16.coopmat", "OpTypeCooperativeMatrixKHR with a BFloat16KHR Component Type requires the BFloat16CooperativeMatrixKHR capability (SPV_KHR_bfloat16)")
		case isFP8(s, ct) && !s.hasCap(spirv.CapabilityFloat8CooperativeMatrixEXT):
			// SPV_EXT_float8: "If 'Component Type' has a Float8E4M3EXT or
			// Float8E5M2EXT encoding then Float8CooperativeMatrixEXT must
			// be declared."
			s.fail(i, "float8.coopmat", "OpTypeCooperativeMatrixKHR with an 8-bit float Component Type requires the Float8CooperativeMatrixEXT capability (SPV_EXT_float8)")
		case isInt4(s, ct) && !s.hasCap(spirv.CapabilityInt4CooperativeMatrixINTEL):
			// SPV_INTEL_int4: "If Int4CooperativeMatrixINTEL is declared
			// then the 'Component Type' operand of
			// OpTypeCooperativeMatrixKHR may be an OpTypeInt with a
			// 'Width' of 4."
			s.fail(i, "int4.coopmat", "OpTypeCooperativeMatrixKHR with a 4-bit integer Component Type requires the Int4CooperativeMatrixINTEL capability (SPV_INTEL_int4)")
		}
		if s.err != nil {
			return
		}
	}
	if v, ok := s.constValue(t.Scope); ok && spirv.Scope(v) == spirv.ScopeWorkgroup {
		s.checkWorkgroupSizeBefore(i)
	}
}

// checkWorkgroupSizeBefore: "If an OpTypeCooperativeMatrixKHR instruction
// uses a 'Scope' of 'Workgroup', then the workgroup size must have already
// been specified in the module, including any constant instructions used
// by LocalSizeId." (SPV_NV_cooperative_matrix2 Validation Rules)
func (s *state) checkWorkgroupSizeBefore(i int) {
	for k := 0; k < i; k++ {
		in := &s.m.Insts[k]
		switch {
		case in.Op == spirv.OpExecutionMode && spirv.ExecutionMode(in.Words[1]) == spirv.ExecutionModeLocalSize:
			return
		case in.Op == spirv.OpExecutionModeId && spirv.ExecutionMode(in.Words[1]) == spirv.ExecutionModeLocalSizeId:
			ok := true
			for _, id := range in.Words[2:] {
				if s.defIndex(id) > i {
					ok = false
				}
			}
			if ok {
				return
			}
		case in.Op == spirv.OpDecorate && spirv.Decoration(in.Words[1]) == spirv.DecorationBuiltIn &&
			len(in.Words) > 2 && spirv.BuiltIn(in.Words[2]) == spirv.BuiltInWorkgroupSize && s.defIndex(in.Words[0]) < i:
			return
		}
	}
	s.fail(i, "coopmat.workgroup-scope", "%s with Workgroup Scope requires the workgroup size to be specified earlier in the module, including any constants used by LocalSizeId (SPV_NV_cooperative_matrix2)", s.m.Insts[i].Op)
}

// checkCoopMatLength: "'Result Type' must be an OpTypeInt with 32-bit
// 'Width' and 0 'Signedness'. 'Type' is a cooperative matrix type."
func (s *state) checkCoopMatLength(i int) {
	w := s.m.Insts[i].Words
	rt := s.types[w[0]]
	if !rt.is(spirv.OpTypeInt) || rt.Width != 32 || rt.Signed {
		s.fail(i, "coopmat.length", "%s Result Type <id> '%d' must be an OpTypeInt with 32-bit Width and 0 Signedness.", s.m.Insts[i].Op, w[0])
		return
	}
	if !isCoopMat(s.types[w[2]]) {
		s.fail(i, "coopmat.length", "%s Type <id> '%d' is not a cooperative matrix type.", s.m.Insts[i].Op, w[2])
	}
}

// pointee returns the type a pointer value points to: nil for an untyped
// pointer, and ok false for a non-pointer.
func (s *state) pointee(id uint32) (t *Type, ptr *Type, ok bool) {
	pt := s.valueType(id)
	switch {
	case pt.is(spirv.OpTypePointer):
		return s.types[pt.Elem], pt, true
	case pt.is(spirv.OpTypeUntypedPointerKHR):
		return nil, pt, true
	}
	return nil, nil, false
}

// checkCoopMatLoadStore (OpCooperativeMatrixLoadKHR/StoreKHR): the loaded
// type or stored object is a cooperative matrix; "'Pointer' ... must be an
// OpTypePointer whose 'Type' operand is a scalar or vector type";
// "'MemoryLayout' ... must come from a 32-bit integer constant instruction
// whose value corresponds to a Cooperative Matrix Layout"; "'Stride' ...
// must be a scalar integer type"; MakePointerAvailable is not valid with
// the load nor MakePointerVisible with the store (3.26 Memory Operands).
func (s *state) checkCoopMatLoadStore(i int) {
	in := &s.m.Insts[i]
	w := in.Words
	load := in.Op == spirv.OpCooperativeMatrixLoadKHR
	var ptr, layout uint32
	rest := 0
	if load {
		if !s.types[w[0]].is(spirv.OpTypeCooperativeMatrixKHR) {
			s.fail(i, "coopmat.load.type", "OpCooperativeMatrixLoadKHR Result Type <id> '%d' is not a cooperative matrix type.", w[0])
			return
		}
		ptr, layout, rest = w[2], w[3], 4
	} else {
		if !s.valueType(w[1]).is(spirv.OpTypeCooperativeMatrixKHR) {
			s.fail(i, "coopmat.store.type", "OpCooperativeMatrixStoreKHR Object type <id> '%d' is not a cooperative matrix type.", s.typeOf(w[1]))
			return
		}
		ptr, layout, rest = w[0], w[2], 3
	}
	elem, pt, ok := s.pointee(ptr)
	if !ok {
		s.fail(i, "coopmat.pointer", "%s Pointer <id> '%d' is not a pointer.", in.Op, ptr)
		return
	}
	if elem != nil && s.component(elem.ID) == nil {
		s.fail(i, "coopmat.pointer", "%s Pointer <id> '%d's Type must be a scalar or vector type.", in.Op, ptr)
		return
	}
	// "The {StorageClass} of the code:Pointer operand to
	// code:OpCooperativeMatrixLoadKHR or code:OpCooperativeMatrixStoreKHR
	// must: be limited to code:Workgroup, code:StorageBuffer, or
	// code:PhysicalStorageBuffer" (VUID-StandaloneSpirv-Pointer-08973).
	if sc := pt.Storage; s.env.vulkan && sc != spirv.StorageClassWorkgroup && sc != spirv.StorageClassStorageBuffer && sc != spirv.StorageClassPhysicalStorageBuffer {
		s.fail(i, "vulkan.coopmat.pointer", "[VUID-StandaloneSpirv-Pointer-08973] %s storage class for pointer type <id> '%d' is not Workgroup, StorageBuffer, or PhysicalStorageBuffer.", in.Op, pt.ID)
		return
	}
	d := s.defInst(layout)
	if d == nil || !isConstInst(d.Op) || !s.isInt32Scalar(d.TypeID()) {
		s.fail(i, "coopmat.layout", "%s MemoryLayout <id> '%d' must be a 32-bit integer constant instruction.", in.Op, layout)
		return
	}
	if v, ok := s.constValue(layout); ok && spirv.KindCooperativeMatrixLayout.Enumerant(uint32(v)) == nil {
		s.fail(i, "coopmat.layout", "%s MemoryLayout <id> '%d' value %d is not a Cooperative Matrix Layout.", in.Op, layout, v)
		return
	}
	ops := s.operands(i)
	for _, o := range ops {
		if o.Kind == spirv.KindIdRef && o.Offset == rest {
			if st := s.valueType(w[rest]); !st.is(spirv.OpTypeInt) {
				s.fail(i, "coopmat.stride", "%s Stride <id> '%d' must be a scalar integer type.", in.Op, w[rest])
				return
			}
		}
		if o.Kind == spirv.KindMemoryAccess {
			s.checkMemoryOperand(i, spirv.MemoryAccess(w[o.Offset]), load)
		}
	}
}

// checkMemoryOperand: "MakePointerAvailable: Not valid with OpLoad or
// OpCooperativeMatrixLoadKHR"; "MakePointerVisible: Not valid with
// OpStore or OpCooperativeMatrixStoreKHR" (as the cooperative matrix,
// vector and matrix2 extensions amend 3.26 Memory Operands).
func (s *state) checkMemoryOperand(i int, ma spirv.MemoryAccess, load bool) {
	op := s.m.Insts[i].Op
	if load && ma&spirv.MemoryAccessMakePointerAvailable != 0 {
		s.fail(i, "memory-operand.available", "MakePointerAvailable cannot be used with %s.", op)
	}
	if !load && ma&spirv.MemoryAccessMakePointerVisible != 0 {
		s.fail(i, "memory-operand.visible", "MakePointerVisible cannot be used with %s.", op)
	}
}

// checkCoopMatLoadStoreNV (SPV_NV_cooperative_matrix): the type is an NV
// cooperative matrix, 'Stride' is an integer and 'Column Major' a Boolean
// constant.
func (s *state) checkCoopMatLoadStoreNV(i int) {
	in := &s.m.Insts[i]
	w := in.Words
	load := in.Op == spirv.OpCooperativeMatrixLoadNV
	var ptr, stride, colMajor uint32
	var mt *Type
	if load {
		mt, ptr, stride, colMajor = s.types[w[0]], w[2], w[3], w[4]
	} else {
		mt, ptr, stride, colMajor = s.valueType(w[1]), w[0], w[2], w[3]
	}
	switch {
	case !mt.is(spirv.OpTypeCooperativeMatrixNV):
		s.fail(i, "coopmat-nv.type", "%s: the matrix type is not OpTypeCooperativeMatrixNV.", in.Op)
	case !s.valueType(ptr).is(spirv.OpTypePointer) && !s.valueType(ptr).is(spirv.OpTypeUntypedPointerKHR):
		s.fail(i, "coopmat-nv.pointer", "%s Pointer <id> '%d' is not a pointer.", in.Op, ptr)
	case !s.valueType(stride).is(spirv.OpTypeInt):
		s.fail(i, "coopmat-nv.stride", "%s Stride <id> '%d' must be an integer.", in.Op, stride)
	case !s.valueType(colMajor).is(spirv.OpTypeBool) || !s.isConst(colMajor):
		s.fail(i, "coopmat-nv.column-major", "%s Column Major <id> '%d' must be a boolean constant instruction.", in.Op, colMajor)
	}
}

// checkCoopMatMulAdd: the result and C are MxN accumulators, A is MxK with
// use A, B is KxN with use B; all share a scope; the Matrix{A,B,C,Result}
// SignedComponentsKHR operands "can only be used when the type of the
// corresponding matrix is an integer type" (SPV_KHR_cooperative_matrix;
// SPV_NV_cooperative_matrix has no uses).
func (s *state) checkCoopMatMulAdd(i int) {
	in := &s.m.Insts[i]
	w := in.Words
	r, a, b, c := s.types[w[0]], s.valueType(w[2]), s.valueType(w[3]), s.valueType(w[4])
	want := spirv.OpTypeCooperativeMatrixKHR
	if in.Op == spirv.OpCooperativeMatrixMulAddNV {
		want = spirv.OpTypeCooperativeMatrixNV
	}
	for k, t := range []*Type{r, a, b, c} {
		if !t.is(want) {
			s.fail(i, "coopmat.muladd.type", "%s %s is not a %s.", in.Op, []string{"Result Type", "A", "B", "C"}[k], want)
			return
		}
	}
	if want == spirv.OpTypeCooperativeMatrixKHR {
		uses := []spirv.CooperativeMatrixUse{spirv.CooperativeMatrixUseMatrixAccumulatorKHR, spirv.CooperativeMatrixUseMatrixAKHR,
			spirv.CooperativeMatrixUseMatrixBKHR, spirv.CooperativeMatrixUseMatrixAccumulatorKHR}
		for k, t := range []*Type{r, a, b, c} {
			if u, ok := s.constValue(t.Use); ok && spirv.CooperativeMatrixUse(u) != uses[k] {
				s.fail(i, "coopmat.muladd.use", "%s %s's Use must be %s.", in.Op, []string{"Result Type", "A", "B", "C"}[k], enumName(spirv.KindCooperativeMatrixUse, uint32(uses[k])))
				return
			}
		}
	}
	switch {
	case !s.sameDim(r.Rows, a.Rows) || !s.sameDim(r.Rows, c.Rows):
		s.fail(i, "coopmat.muladd.shape", "%s: Result Type, A and C must have the same number of rows (M).", in.Op)
	case !s.sameDim(r.Cols, b.Cols) || !s.sameDim(r.Cols, c.Cols):
		s.fail(i, "coopmat.muladd.shape", "%s: Result Type, B and C must have the same number of columns (N).", in.Op)
	case !s.sameDim(a.Cols, b.Rows):
		s.fail(i, "coopmat.muladd.shape", "%s: the columns of A must equal the rows of B (K).", in.Op)
	case !s.sameDim(r.Scope, a.Scope) || !s.sameDim(r.Scope, b.Scope) || !s.sameDim(r.Scope, c.Scope):
		s.fail(i, "coopmat.muladd.scope", "%s: A, B, C and Result Type must have the same scope.", in.Op)
	}
	if s.err != nil || len(w) < 6 {
		return
	}
	ops := spirv.CooperativeMatrixOperands(w[5])
	signed := []struct {
		bit  spirv.CooperativeMatrixOperands
		t    *Type
		name string
	}{
		{spirv.CooperativeMatrixOperandsMatrixASignedComponentsKHR, a, "MatrixASignedComponentsKHR"},
		{spirv.CooperativeMatrixOperandsMatrixBSignedComponentsKHR, b, "MatrixBSignedComponentsKHR"},
		{spirv.CooperativeMatrixOperandsMatrixCSignedComponentsKHR, c, "MatrixCSignedComponentsKHR"},
		{spirv.CooperativeMatrixOperandsMatrixResultSignedComponentsKHR, r, "MatrixResultSignedComponentsKHR"},
	}
	for _, x := range signed {
		if ops&x.bit != 0 && !s.types[x.t.Elem].is(spirv.OpTypeInt) {
			s.fail(i, "coopmat.muladd.signed", "%s: %s can only be used when the type of the corresponding matrix is an integer type.", in.Op, x.name)
			return
		}
	}
	if ops&spirv.CooperativeMatrixOperandsSaturatingAccumulationKHR != 0 && !s.types[r.Elem].is(spirv.OpTypeInt) {
		s.fail(i, "coopmat.muladd.saturating", "%s: SaturatingAccumulationKHR applies to integer accumulation only.", in.Op)
	}
}

func enumName(k spirv.OperandKind, v uint32) string {
	if e := k.Enumerant(v); e != nil {
		return e.Name
	}
	return "?"
}

// checkCoopMatConversion (SPV_KHR_cooperative_matrix 3.42.11): a
// conversion with a cooperative matrix result or operand converts between
// matrices of the same Scope, Rows, Columns and Use; OpBitcast needs
// integer components of the same width. With CooperativeMatrixConversionsNV
// an accumulator may become a matrix A or B (not for OpBitcast)
// (SPV_NV_cooperative_matrix2 3.49.11).
func (s *state) checkCoopMatConversion(i int) {
	in := &s.m.Insts[i]
	w := in.Words
	r, v := s.types[w[0]], s.valueType(w[2])
	if s.isCoopVec(r) || s.isCoopVec(v) {
		s.checkCoopVecConversion(i, r, v)
		return
	}
	if !isCoopMat(r) && !isCoopMat(v) {
		return
	}
	if !isCoopMat(r) || !isCoopMat(v) || r.Op != v.Op {
		s.fail(i, "coopmat.convert", "%s: Result Type and operand must both be cooperative matrices of the same kind.", in.Op)
		return
	}
	if !s.sameDim(r.Scope, v.Scope) || !s.sameDim(r.Rows, v.Rows) || !s.sameDim(r.Cols, v.Cols) {
		s.fail(i, "coopmat.convert", "%s: Result Type and operand must have the same Scope, Rows and Columns.", in.Op)
		return
	}
	if r.Op == spirv.OpTypeCooperativeMatrixKHR && !s.sameDim(r.Use, v.Use) {
		ru, _ := s.constValue(r.Use)
		vu, _ := s.constValue(v.Use)
		relaxed := in.Op != spirv.OpBitcast && s.hasCap(spirv.CapabilityCooperativeMatrixConversionsNV) &&
			spirv.CooperativeMatrixUse(vu) == spirv.CooperativeMatrixUseMatrixAccumulatorKHR &&
			(spirv.CooperativeMatrixUse(ru) == spirv.CooperativeMatrixUseMatrixAKHR || spirv.CooperativeMatrixUse(ru) == spirv.CooperativeMatrixUseMatrixBKHR)
		if !relaxed {
			s.fail(i, "coopmat.convert.use", "%s: Result Type and operand must have the same Use.", in.Op)
			return
		}
	}
	if in.Op == spirv.OpBitcast {
		rc, vc := s.types[r.Elem], s.types[v.Elem]
		if !rc.is(spirv.OpTypeInt) || !vc.is(spirv.OpTypeInt) || rc.Width != vc.Width {
			s.fail(i, "coopmat.bitcast", "OpBitcast of cooperative matrices needs integer Component Types of the same Width.")
		}
	}
}

// checkCoopMatTimesScalar: OpMatrixTimesScalar on a cooperative matrix
// returns the matrix's type and scales by its component type.
func (s *state) checkCoopMatTimesScalar(i int) {
	w := s.m.Insts[i].Words
	r := s.types[w[0]]
	if !isCoopMat(r) {
		return
	}
	if s.typeOf(w[2]) != r.ID {
		s.fail(i, "coopmat.scale", "OpMatrixTimesScalar: Matrix must have the Result Type.")
		return
	}
	if s.typeOf(w[3]) != r.Elem {
		s.fail(i, "coopmat.scale", "OpMatrixTimesScalar: Scalar must have the matrix's Component Type.")
	}
}

// checkCoopMatConvertUse (OpCooperativeMatrixConvertNV): "The type of
// 'Matrix' must be an OpTypeCooperativeMatrixKHR with the same 'Component
// Type', 'Scope', 'Rows', and 'Columns' as 'Result Type'. The 'Use' of
// 'Result Type' must be MatrixAKHR or MatrixBKHR and the 'Use' of 'Matrix'
// must be MatrixAccumulatorKHR."
func (s *state) checkCoopMatConvertUse(i int) {
	w := s.m.Insts[i].Words
	r, v := s.types[w[0]], s.valueType(w[2])
	if !r.is(spirv.OpTypeCooperativeMatrixKHR) || !v.is(spirv.OpTypeCooperativeMatrixKHR) {
		s.fail(i, "coopmat2.convert", "OpCooperativeMatrixConvertNV: Result Type and Matrix must be OpTypeCooperativeMatrixKHR.")
		return
	}
	if r.Elem != v.Elem || !s.sameDim(r.Scope, v.Scope) || !s.sameDim(r.Rows, v.Rows) || !s.sameDim(r.Cols, v.Cols) {
		s.fail(i, "coopmat2.convert", "OpCooperativeMatrixConvertNV: Matrix must have the same Component Type, Scope, Rows and Columns as Result Type.")
		return
	}
	ru, rk := s.constValue(r.Use)
	vu, vk := s.constValue(v.Use)
	if rk && spirv.CooperativeMatrixUse(ru) == spirv.CooperativeMatrixUseMatrixAccumulatorKHR ||
		vk && spirv.CooperativeMatrixUse(vu) != spirv.CooperativeMatrixUseMatrixAccumulatorKHR {
		s.fail(i, "coopmat2.convert.use", "OpCooperativeMatrixConvertNV: the Use of Result Type must be MatrixAKHR or MatrixBKHR and the Use of Matrix MatrixAccumulatorKHR.")
	}
}

// checkCoopMatTranspose (OpCooperativeMatrixTransposeNV): "The type of
// 'Matrix' must be an OpTypeCooperativeMatrixKHR with the same 'Scope' as
// 'Result Type', and with 'Rows', and 'Columns' swapped relative to
// 'Result Type'. The 'Use' of 'Result Type' must be MatrixBKHR and the
// 'Use' of 'Matrix' must be MatrixAccumulatorKHR."
func (s *state) checkCoopMatTranspose(i int) {
	w := s.m.Insts[i].Words
	r, v := s.types[w[0]], s.valueType(w[2])
	if !r.is(spirv.OpTypeCooperativeMatrixKHR) || !v.is(spirv.OpTypeCooperativeMatrixKHR) {
		s.fail(i, "coopmat2.transpose", "OpCooperativeMatrixTransposeNV: Result Type and Matrix must be OpTypeCooperativeMatrixKHR.")
		return
	}
	if !s.sameDim(r.Scope, v.Scope) || !s.sameDim(r.Rows, v.Cols) || !s.sameDim(r.Cols, v.Rows) {
		s.fail(i, "coopmat2.transpose", "OpCooperativeMatrixTransposeNV: Matrix must have the Scope of Result Type and its Rows and Columns swapped.")
		return
	}
	ru, rk := s.constValue(r.Use)
	vu, vk := s.constValue(v.Use)
	if rk && spirv.CooperativeMatrixUse(ru) != spirv.CooperativeMatrixUseMatrixBKHR ||
		vk && spirv.CooperativeMatrixUse(vu) != spirv.CooperativeMatrixUseMatrixAccumulatorKHR {
		s.fail(i, "coopmat2.transpose.use", "OpCooperativeMatrixTransposeNV: the Use of Result Type must be MatrixBKHR and the Use of Matrix MatrixAccumulatorKHR.")
	}
}

// checkCoopMatReduce (OpCooperativeMatrixReduceNV): see the rules quoted
// in the messages (SPV_NV_cooperative_matrix2 3.49.13).
func (s *state) checkCoopMatReduce(i int) {
	w := s.m.Insts[i].Words
	r, v := s.types[w[0]], s.valueType(w[2])
	mode := spirv.CooperativeMatrixReduce(w[3])
	if !r.is(spirv.OpTypeCooperativeMatrixKHR) || !v.is(spirv.OpTypeCooperativeMatrixKHR) {
		s.fail(i, "coopmat2.reduce.type", "OpCooperativeMatrixReduceNV: Result Type and the type of Matrix must be OpTypeCooperativeMatrixKHR.")
		return
	}
	if r.Elem != v.Elem {
		s.fail(i, "coopmat2.reduce.type", "OpCooperativeMatrixReduceNV: the type of Matrix must have the same Component Type as Result Type.")
		return
	}
	for _, u := range []uint32{r.Use, v.Use} {
		if x, ok := s.constValue(u); ok && spirv.CooperativeMatrixUse(x) != spirv.CooperativeMatrixUseMatrixAccumulatorKHR {
			s.fail(i, "coopmat2.reduce.use", "OpCooperativeMatrixReduceNV: the type of Matrix and Result Type must each have Use of MatrixAccumulatorKHR.")
			return
		}
	}
	if !s.sameDim(r.Scope, v.Scope) {
		s.fail(i, "coopmat2.reduce.scope", "OpCooperativeMatrixReduceNV: the type of Matrix and Result Type must have matching Scope.")
		return
	}
	rowCol := spirv.CooperativeMatrixReduceRow | spirv.CooperativeMatrixReduceColumn
	twoByTwo := spirv.CooperativeMatrixReduce2x2
	half := func(res, src uint32) bool {
		a, ka := s.constValue(res)
		b, kb := s.constValue(src)
		return !ka || !kb || 2*a == b
	}
	switch {
	case mode&twoByTwo != 0 && mode&rowCol != 0:
		s.fail(i, "coopmat2.reduce.mode", "OpCooperativeMatrixReduceNV: it is invalid to combine 2x2 with Row or Column.")
	case mode == 0:
		s.fail(i, "coopmat2.reduce.mode", "OpCooperativeMatrixReduceNV: Reduce must include Row, Column or 2x2.")
	case mode&twoByTwo != 0 && (!half(r.Rows, v.Rows) || !half(r.Cols, v.Cols)):
		s.fail(i, "coopmat2.reduce.shape", "OpCooperativeMatrixReduceNV: if Reduce includes 2x2, the dimensions of Result Type must be half of the dimensions of Matrix.")
	case mode == spirv.CooperativeMatrixReduceRow && !s.sameDim(r.Rows, v.Rows):
		s.fail(i, "coopmat2.reduce.shape", "OpCooperativeMatrixReduceNV: if Reduce equals Row, Result Type must have the same number of rows as Matrix.")
	case mode == spirv.CooperativeMatrixReduceColumn && !s.sameDim(r.Cols, v.Cols):
		s.fail(i, "coopmat2.reduce.shape", "OpCooperativeMatrixReduceNV: if Reduce equals Column, Result Type must have the same number of columns as Matrix.")
	}
	if s.err != nil {
		return
	}
	// "'CombineFunc' must be an OpFunction with two parameters whose types
	// and result type all match the component type of 'Matrix'."
	f := s.funcOf[w[4]]
	if f == nil {
		s.fail(i, "coopmat2.reduce.func", "OpCooperativeMatrixReduceNV: CombineFunc <id> '%d' is not an OpFunction.", w[4])
		return
	}
	ft := s.types[f.Type]
	if ft.Elem != v.Elem || len(ft.Members) != 2 || ft.Members[0] != v.Elem || ft.Members[1] != v.Elem {
		s.fail(i, "coopmat2.reduce.func", "OpCooperativeMatrixReduceNV: CombineFunc must have two parameters whose types and result type all match the component type of Matrix.")
		return
	}
	s.checkUntangled(i, f, "CombineFunc")
}

// checkCoopMatPerElement (OpCooperativeMatrixPerElementOpNV): "'Result
// Type' must match the type of 'Matrix'. 'Func' must be an OpFunction
// whose return type matches the component type of 'Matrix', whose first
// two parameters must be 32-bit integer types, whose third parameter type
// must match the component type of 'Matrix', and which may have additional
// parameters. ... Any additional cooperative matrix operands ... The
// matrix type must match the type of 'Matrix' and the component type of
// the matrix must match the type of the corresponding parameter of 'Func'."
func (s *state) checkCoopMatPerElement(i int) {
	w := s.m.Insts[i].Words
	v := s.valueType(w[2])
	if !v.is(spirv.OpTypeCooperativeMatrixKHR) {
		s.fail(i, "coopmat2.per-element.type", "OpCooperativeMatrixPerElementOpNV: the type of Matrix must be OpTypeCooperativeMatrixKHR.")
		return
	}
	if w[0] != v.ID {
		s.fail(i, "coopmat2.per-element.type", "OpCooperativeMatrixPerElementOpNV: Result Type must match the type of Matrix.")
		return
	}
	f := s.funcOf[w[3]]
	if f == nil {
		s.fail(i, "coopmat2.per-element.func", "OpCooperativeMatrixPerElementOpNV: Func <id> '%d' is not an OpFunction.", w[3])
		return
	}
	ft := s.types[f.Type]
	extra := w[4:]
	p := ft.Members
	if ft.Elem != v.Elem || len(p) < 3 || !s.isInt32Scalar(p[0]) || !s.isInt32Scalar(p[1]) || p[2] != v.Elem {
		s.fail(i, "coopmat2.per-element.func", "OpCooperativeMatrixPerElementOpNV: Func must return the component type of Matrix and take two 32-bit integers and that component type first.")
		return
	}
	if len(p) != 3+len(extra) {
		s.fail(i, "coopmat2.per-element.func", "OpCooperativeMatrixPerElementOpNV: Func has %d parameters for %d operands (3 plus one per additional operand).", len(p), len(extra))
		return
	}
	for k, x := range extra {
		xt := s.valueType(x)
		if isCoopMat(xt) {
			if xt.ID != v.ID || p[3+k] != xt.Elem {
				s.fail(i, "coopmat2.per-element.operand", "OpCooperativeMatrixPerElementOpNV: additional matrix operand <id> '%d' must have the type of Matrix and its component type must match Func's parameter.", x)
				return
			}
		} else if xt == nil || xt.ID != p[3+k] {
			s.fail(i, "coopmat2.per-element.operand", "OpCooperativeMatrixPerElementOpNV: operand <id> '%d' does not match the type of Func's parameter %d.", x, 3+k)
			return
		}
	}
	s.checkUntangled(i, f, "Func")
}

// tangled reports whether an instruction is one of the tangled
// instructions of the cooperative extensions (their "Add to the list of
// Tangled Instructions" sections) or a barrier or group operation.
func (s *state) tangled(in *spirv.Inst) bool {
	switch in.Op {
	case spirv.OpCooperativeMatrixLoadKHR, spirv.OpCooperativeMatrixStoreKHR, spirv.OpCooperativeMatrixMulAddKHR,
		spirv.OpCooperativeMatrixLoadNV, spirv.OpCooperativeMatrixStoreNV, spirv.OpCooperativeMatrixMulAddNV,
		spirv.OpCooperativeMatrixLoadTensorNV, spirv.OpCooperativeMatrixStoreTensorNV, spirv.OpCooperativeMatrixReduceEXT,
		spirv.OpCooperativeMatrixConvertUseEXT, spirv.OpCooperativeMatrixTransposeNV, spirv.OpCooperativeMatrixPerElementOpEXT,
		spirv.OpControlBarrier:
		return true
	}
	if d := in.Op.Desc(); d.Class == "Non-Uniform" || d.Class == "Group" {
		return true
	}
	if t := s.types[in.TypeID()]; isCoopMat(t) {
		switch in.Op.Desc().Class {
		case "Conversion", "Arithmetic":
			return true
		}
		return in.Op == spirv.OpCompositeConstruct || in.Op == spirv.OpCompositeConstructReplicateEXT
	}
	return false
}

// checkUntangled: "In any function used as a DecodeFunc parameter to
// OpCooperativeMatrixLoadTensorNV or as a Func parameter to
// OpCooperativeMatrixPerElementOpNV or as a CombineFunc parameter to
// OpCooperativeMatrixReduceNV, and any function called directly or
// indirectly by those functions, tangled instructions are not allowed."
// (SPV_NV_cooperative_matrix2 Validation Rules)
func (s *state) checkUntangled(i int, f *Func, role string) {
	for _, g := range s.reachableFuncs(f.ID) {
		for k := g.Index + 1; k < g.End; k++ {
			if s.tangled(&s.m.Insts[k]) {
				s.fail(i, "coopmat2.tangled", "%s: %s <id> '%d' (or a function it calls) contains the tangled instruction %s at line %d; tangled instructions are not allowed there (SPV_NV_cooperative_matrix2 Validation Rules)",
					s.m.Insts[i].Op, role, f.ID, s.m.Insts[k].Op, k+1)
				return
			}
		}
	}
}
