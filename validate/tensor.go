package validate

import (
	"github.com/coopshader/coop/spirv"
)

// SPV_NV_tensor_addressing (layout and view types and instructions) and
// the tensor loads and stores of SPV_NV_cooperative_matrix2.

// tensorChecks are the family's rules (instructions.go lists the families).
var tensorChecks = []opCheck{
	{spirv.OpTypeTensorLayoutNV, (*state).checkTensorLayoutType},
	{spirv.OpTypeTensorViewNV, (*state).checkTensorViewType},
	{spirv.OpCreateTensorLayoutNV, (*state).checkTensorCreate},
	{spirv.OpCreateTensorViewNV, (*state).checkTensorCreate},
	{spirv.OpTensorLayoutSetDimensionNV, (*state).checkTensorSet},
	{spirv.OpTensorLayoutSetStrideNV, (*state).checkTensorSet},
	{spirv.OpTensorLayoutSetBlockSizeNV, (*state).checkTensorSet},
	{spirv.OpTensorLayoutSliceNV, (*state).checkTensorSet},
	{spirv.OpTensorLayoutSetClampValueNV, (*state).checkTensorSet},
	{spirv.OpTensorViewSetDimensionNV, (*state).checkTensorSet},
	{spirv.OpTensorViewSetStrideNV, (*state).checkTensorSet},
	{spirv.OpTensorViewSetClipNV, (*state).checkTensorSet},
	{spirv.OpCooperativeMatrixLoadTensorNV, (*state).checkTensorLoadStore},
	{spirv.OpCooperativeMatrixStoreTensorNV, (*state).checkTensorLoadStore},
}

// tensorDim returns the Dim of a tensor layout or view type, 0 when
// unknown.
func (s *state) tensorDim(t *Type) uint64 {
	if t == nil || len(t.Members) == 0 {
		return 0
	}
	v, _ := s.constValue(t.Members[0])
	return v
}

// checkConstInt32 reports whether id is a constant instruction of scalar
// 32-bit integer type.
func (s *state) checkConstInt32(id uint32) bool {
	d := s.defInst(id)
	return d != nil && isConstInst(d.Op) && s.isInt32Scalar(d.TypeID())
}

// checkTensorDim: "'Dim' ... must be a constant instruction with scalar
// 32-bit integer type. The value must be greater than zero and less than
// or equal to 5."
func (s *state) checkTensorDim(i int, id uint32) bool {
	op := s.m.Insts[i].Op
	if !s.checkConstInt32(id) {
		s.fail(i, "tensor.dim", "%s Dim <id> '%d' must be a constant instruction with scalar 32-bit integer type.", op, id)
		return false
	}
	if v, ok := s.constValue(id); ok && (v == 0 || v > 5) {
		s.fail(i, "tensor.dim", "%s Dim must be greater than zero and less than or equal to 5, not %d.", op, int64(v))
		return false
	}
	return true
}

// checkTensorLayoutType (OpTypeTensorLayoutNV): Dim as above; "'ClampMode'
// is a Tensor Clamp Mode ... and must be a constant instruction with
// scalar 32-bit integer type."
func (s *state) checkTensorLayoutType(i int) {
	w := s.m.Insts[i].Words
	if !s.checkTensorDim(i, w[1]) {
		return
	}
	if !s.checkConstInt32(w[2]) {
		s.fail(i, "tensor.clamp-mode", "OpTypeTensorLayoutNV ClampMode <id> '%d' must be a constant instruction with scalar 32-bit integer type.", w[2])
		return
	}
	if v, ok := s.constValue(w[2]); ok && spirv.KindTensorClampMode.Enumerant(uint32(v)) == nil {
		s.fail(i, "tensor.clamp-mode", "OpTypeTensorLayoutNV ClampMode value %d is not a Tensor Clamp Mode.", v)
	}
}

// checkTensorViewType (OpTypeTensorViewNV): Dim as above; "'HasDimensions'
// ... must be a constant instruction with scalar boolean type. 'p0' ...
// 'p<Dim-1>' ... must be a constant instruction with scalar 32-bit integer
// type, and they must form a valid permutation of the range [0,Dim)."
func (s *state) checkTensorViewType(i int) {
	w := s.m.Insts[i].Words
	if !s.checkTensorDim(i, w[1]) {
		return
	}
	if d := s.defInst(w[2]); d == nil || !isConstInst(d.Op) || !s.types[d.TypeID()].is(spirv.OpTypeBool) {
		s.fail(i, "tensor.view.has-dimensions", "OpTypeTensorViewNV HasDimensions <id> '%d' must be a constant instruction with scalar boolean type.", w[2])
		return
	}
	p := w[3:]
	dim, known := s.constValue(w[1])
	if known && uint64(len(p)) != dim {
		s.fail(i, "tensor.view.permutation", "OpTypeTensorViewNV has %d permutation operands for Dim %d.", len(p), dim)
		return
	}
	seen := make([]bool, len(p))
	for _, id := range p {
		if !s.checkConstInt32(id) {
			s.fail(i, "tensor.view.permutation", "OpTypeTensorViewNV permutation operand <id> '%d' must be a constant instruction with scalar 32-bit integer type.", id)
			return
		}
		v, ok := s.constValue(id)
		if !ok {
			continue
		}
		if v >= uint64(len(p)) || seen[v] {
			s.fail(i, "tensor.view.permutation", "OpTypeTensorViewNV p0 ... p<Dim-1> must form a valid permutation of the range [0,Dim).")
			return
		}
		seen[v] = true
	}
}

// checkTensorCreate: "'Result Type' must be OpTypeTensorLayoutNV" (or
// OpTypeTensorViewNV for OpCreateTensorViewNV).
func (s *state) checkTensorCreate(i int) {
	in := &s.m.Insts[i]
	want := spirv.OpTypeTensorLayoutNV
	if in.Op == spirv.OpCreateTensorViewNV {
		want = spirv.OpTypeTensorViewNV
	}
	if !s.types[in.Words[0]].is(want) {
		s.fail(i, "tensor.create", "%s Result Type must be %s.", in.Op, want)
	}
}

// checkTensorSet checks the OpTensorLayout*/OpTensorView* instructions:
// "The type of 'TensorLayout' must be 'Result Type'", "The number of ...
// operands must match the dimension of 'Result Type'" (twice the dimension
// for OpTensorLayoutSliceNV, four clip operands, one clamp value), "must
// each be a scalar 32-bit integer type".
func (s *state) checkTensorSet(i int) {
	in := &s.m.Insts[i]
	w := in.Words
	rt := s.types[w[0]]
	want := spirv.OpTypeTensorLayoutNV
	switch in.Op {
	case spirv.OpTensorViewSetDimensionNV, spirv.OpTensorViewSetStrideNV, spirv.OpTensorViewSetClipNV:
		want = spirv.OpTypeTensorViewNV
	}
	if !rt.is(want) {
		s.fail(i, "tensor.set.type", "%s Result Type must be %s.", in.Op, want)
		return
	}
	if s.typeOf(w[2]) != w[0] {
		s.fail(i, "tensor.set.type", "%s: the type of the tensor operand <id> '%d' must be Result Type.", in.Op, w[2])
		return
	}
	args := w[3:]
	if dim := s.tensorDim(rt); dim != 0 {
		n := dim
		switch in.Op {
		case spirv.OpTensorLayoutSliceNV:
			n = 2 * dim
		case spirv.OpTensorLayoutSetClampValueNV:
			n = 1
		case spirv.OpTensorViewSetClipNV:
			n = 4
		}
		if uint64(len(args)) != n {
			s.fail(i, "tensor.set.count", "%s has %d operands after the tensor; the dimension of Result Type needs %d.", in.Op, len(args), n)
			return
		}
	}
	for _, a := range args {
		if !s.isInt32Scalar(s.typeOf(a)) {
			s.fail(i, "tensor.set.operand", "%s operand <id> '%d' must be a scalar 32-bit integer type.", in.Op, a)
			return
		}
	}
}

// tensorAddressing returns the ids that follow the Tensor Addressing
// Operands mask of a tensor load or store.
func (s *state) tensorAddressing(i int) (mask spirv.TensorAddressingOperands, view, decode, decodeVec uint32) {
	w := s.m.Insts[i].Words
	for _, o := range s.operands(i) {
		if o.Kind != spirv.KindTensorAddressingOperands {
			continue
		}
		mask = spirv.TensorAddressingOperands(w[o.Offset])
		k := o.Offset + 1
		take := func(bit spirv.TensorAddressingOperands) uint32 {
			if mask&bit == 0 || k >= len(w) {
				return 0
			}
			k++
			return w[k-1]
		}
		view = take(spirv.TensorAddressingOperandsTensorView)
		decode = take(spirv.TensorAddressingOperandsDecodeFunc)
		decodeVec = take(spirv.TensorAddressingOperandsDecodeVectorFunc)
	}
	return
}

// checkTensorLoadStore (OpCooperativeMatrixLoadTensorNV/StoreTensorNV,
// SPV_NV_cooperative_matrix2 3.49.8): the matrix is an
// OpTypeCooperativeMatrixKHR; the load's "'Object' ... must have the same
// type as 'Result Type'"; TensorLayout and TensorView have their types;
// "If the operands include DecodeFunc, then 'Pointer' must point to
// PhysicalStorageBuffer or StorageBuffer storage class"; "DecodeFunc is
// not allowed with OpCooperativeMatrixStoreTensorNV"; the memory operand
// rules of checkMemoryOperand.
func (s *state) checkTensorLoadStore(i int) {
	in := &s.m.Insts[i]
	w := in.Words
	load := in.Op == spirv.OpCooperativeMatrixLoadTensorNV
	var mt *Type
	var ptr, layout uint32
	if load {
		mt, ptr, layout = s.types[w[0]], w[2], w[4]
		if s.typeOf(w[3]) != w[0] {
			s.fail(i, "tensor.load.object", "OpCooperativeMatrixLoadTensorNV Object <id> '%d' must have the same type as Result Type.", w[3])
			return
		}
	} else {
		mt, ptr, layout = s.valueType(w[1]), w[0], w[2]
	}
	if !mt.is(spirv.OpTypeCooperativeMatrixKHR) {
		s.fail(i, "tensor.matrix", "%s: the matrix type must be OpTypeCooperativeMatrixKHR.", in.Op)
		return
	}
	_, pt, ok := s.pointee(ptr)
	if !ok {
		s.fail(i, "tensor.pointer", "%s Pointer <id> '%d' is not a pointer.", in.Op, ptr)
		return
	}
	lt := s.valueType(layout)
	if !lt.is(spirv.OpTypeTensorLayoutNV) {
		s.fail(i, "tensor.layout", "%s TensorLayout <id> '%d' is not a tensor layout.", in.Op, layout)
		return
	}
	for _, o := range s.operands(i) {
		if o.Kind == spirv.KindMemoryAccess {
			if s.checkMemoryOperand(i, spirv.MemoryAccess(w[o.Offset]), load); s.err != nil {
				return
			}
		}
	}
	mask, view, decode, decodeVec := s.tensorAddressing(i)
	if mask&spirv.TensorAddressingOperandsTensorView != 0 && !s.valueType(view).is(spirv.OpTypeTensorViewNV) {
		s.fail(i, "tensor.view", "%s TensorView <id> '%d' is not a tensor view.", in.Op, view)
		return
	}
	if mask&(spirv.TensorAddressingOperandsDecodeFunc|spirv.TensorAddressingOperandsDecodeVectorFunc) == 0 {
		return
	}
	if !load {
		s.fail(i, "tensor.store.decode", "DecodeFunc is not allowed with OpCooperativeMatrixStoreTensorNV (SPV_NV_cooperative_matrix2).")
		return
	}
	if pt.Storage != spirv.StorageClassPhysicalStorageBuffer && pt.Storage != spirv.StorageClassStorageBuffer {
		s.fail(i, "tensor.decode.pointer", "OpCooperativeMatrixLoadTensorNV with DecodeFunc: Pointer must point to PhysicalStorageBuffer or StorageBuffer storage class.")
		return
	}
	if decode != 0 {
		if s.checkDecodeFunc(i, decode, "DecodeFunc", lt, func(rt *Type) bool { return rt.ID == mt.Elem },
			"must match the component type of the result matrix type"); s.err != nil {
			return
		}
	}
	if mask&spirv.TensorAddressingOperandsDecodeVectorFunc != 0 {
		s.checkDecodeVector(i, decode, decodeVec, mt, lt, layout)
	}
}

// checkDecodeFunc: "The function's return type must match the component
// type of the result matrix type. The first parameter must be a pointer
// type with storage class PhysicalStorageBuffer ... The second and third
// parameters must each be an array of 32-bit integers whose dimension
// matches the tensor dimension." The function is also untangled.
func (s *state) checkDecodeFunc(i int, fid uint32, role string, lt *Type, ret func(*Type) bool, retRule string) {
	f := s.funcOf[fid]
	if f == nil {
		s.fail(i, "tensor.decode.func", "OpCooperativeMatrixLoadTensorNV %s <id> '%d' is not an OpFunction.", role, fid)
		return
	}
	ft := s.types[f.Type]
	if !ret(s.types[ft.Elem]) {
		s.fail(i, "tensor.decode.return", "OpCooperativeMatrixLoadTensorNV %s's return type %s.", role, retRule)
		return
	}
	p := ft.Members
	if len(p) != 3 {
		s.fail(i, "tensor.decode.params", "OpCooperativeMatrixLoadTensorNV %s must have three parameters, not %d.", role, len(p))
		return
	}
	if pt := s.types[p[0]]; !pt.is(spirv.OpTypePointer) || pt.Storage != spirv.StorageClassPhysicalStorageBuffer {
		s.fail(i, "tensor.decode.params", "OpCooperativeMatrixLoadTensorNV %s's first parameter must be a pointer type with storage class PhysicalStorageBuffer.", role)
		return
	}
	dim := s.tensorDim(lt)
	for _, q := range p[1:] {
		at := s.types[q]
		if !at.is(spirv.OpTypeArray) || !s.isInt32Scalar(at.Elem) || dim != 0 && at.CountKnown && at.Count != dim {
			s.fail(i, "tensor.decode.params", "OpCooperativeMatrixLoadTensorNV %s's second and third parameters must each be an array of 32-bit integers whose dimension matches the tensor dimension (%d).", role, dim)
			return
		}
	}
	s.checkUntangled(i, f, role)
}
