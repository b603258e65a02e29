package lower

import (
	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/spirv"
)

// Lowering of GL_NV_cooperative_matrix2 (tensor layouts and views, tensor
// loads and stores with decode callbacks, reductions, per-element
// operations, transposes and use conversions),
// GL_NV_cooperative_matrix_decode_vector and GL_NV_cooperative_vector.

// coop2Type declares a cooperative vector, tensor layout or tensor view type.
func (g *gen) coop2Type(t *check.Type) uint32 {
	u := g.scalarType(check.Uint32)
	switch t.Kind {
	case check.KCoopVec:
		g.coopVecCaps()
		return g.b.Type(spirv.OpTypeCooperativeVectorNV, g.scalarType(t.Scalar), g.dim(t.Params[0]))
	case check.KTensorLayout:
		g.tensorCaps()
		return g.b.Type(spirv.OpTypeTensorLayoutNV, g.dim(t.Params[0]), g.dim(t.Params[1]))
	}
	g.tensorCaps()
	words := []uint32{g.dim(t.Params[0]), g.b.ConstBool(g.b.TypeBool(), t.Params[1].Val != 0)}
	for _, p := range t.Params[2:] {
		if p.Spec != nil {
			words = append(words, g.specValue(p.Spec))
		} else {
			words = append(words, g.b.ConstUint32(u, uint32(p.Val)))
		}
	}
	return g.b.Type(spirv.OpTypeTensorViewNV, words...)
}

func (g *gen) tensorCaps() {
	g.b.Capability(spirv.CapabilityTensorAddressingNV)
	g.b.Extension("SPV_NV_tensor_addressing")
}

func (g *gen) coopVecCaps() {
	g.b.Capability(spirv.CapabilityCooperativeVectorNV)
	g.b.Extension("SPV_NV_cooperative_vector")
}

func (g *gen) coopMat2Cap(c spirv.Capability) {
	g.b.Capability(c)
	g.b.Extension("SPV_NV_cooperative_matrix2")
}

func (g *gen) replicateCaps() {
	g.b.Capability(spirv.CapabilityReplicatedCompositesEXT)
	g.b.Extension("SPV_EXT_replicated_composites")
}

// findCallbacks lists the functions passed by name to cooperative matrix
// built-ins. SPIR-V calls them with values, so they take no pointers.
func findCallbacks(p *check.Program) map[*check.Func]bool {
	out := map[*check.Func]bool{}
	walkProgram(p, func(e check.Expr) {
		if r, ok := e.(*check.FuncRef); ok {
			out[r.Func] = true
		}
	})
	return out
}

// funcArg is the id of a callback argument.
func (g *gen) funcArg(e check.Expr) uint32 {
	f, ok := e.(*check.FuncRef)
	if !ok {
		g.fail(e.Position(), "expected a function name")
	}
	id, ok := g.funcs[f.Func]
	if !ok || f.Func.Body == nil {
		g.fail(e.Position(), "function %s is declared but never defined", f.Func.Name)
	}
	return id
}

// coopConst is the value of an argument the checker folded to a constant.
func (g *gen) coopConst(e check.Expr, what string) uint64 {
	c, ok := e.(*check.Const)
	if !ok {
		g.fail(e.Position(), "%s must be a constant expression", what)
	}
	return c.Val.Bits
}

// coop2Builtin lowers the built-ins of GL_NV_cooperative_matrix2 and
// GL_NV_cooperative_vector; ok is false for any other built-in.
func (g *gen) coop2Builtin(e *check.BuiltinCall, tid uint32) (uint32, bool) {
	vals := func(from int) []uint32 {
		out := make([]uint32, 0, len(e.Args)-from)
		for _, a := range e.Args[from:] {
			out = append(out, g.rvalue(a))
		}
		return out
	}
	tensorOp := func(op spirv.Op) uint32 {
		return g.b.EmitResult(op, tid, vals(0)...)
	}
	switch e.Fn {
	case check.BCreateTensorLayoutNV:
		return g.b.EmitResult(spirv.OpCreateTensorLayoutNV, tid), true
	case check.BCreateTensorViewNV:
		return g.b.EmitResult(spirv.OpCreateTensorViewNV, tid), true
	case check.BSetTensorLayoutBlockSizeNV:
		return tensorOp(spirv.OpTensorLayoutSetBlockSizeNV), true
	case check.BSetTensorLayoutDimensionNV:
		return tensorOp(spirv.OpTensorLayoutSetDimensionNV), true
	case check.BSetTensorLayoutStrideNV:
		return tensorOp(spirv.OpTensorLayoutSetStrideNV), true
	case check.BSliceTensorLayoutNV:
		return tensorOp(spirv.OpTensorLayoutSliceNV), true
	case check.BSetTensorLayoutClampValueNV:
		return tensorOp(spirv.OpTensorLayoutSetClampValueNV), true
	case check.BSetTensorViewDimensionsNV:
		return tensorOp(spirv.OpTensorViewSetDimensionNV), true
	case check.BSetTensorViewStrideNV:
		return tensorOp(spirv.OpTensorViewSetStrideNV), true
	case check.BSetTensorViewClipNV:
		return tensorOp(spirv.OpTensorViewSetClipNV), true
	case check.BCoopMatLoadTensorNV, check.BCoopMatStoreTensorNV:
		g.tensorLoadStore(e)
		return 0, true
	case check.BCoopMatReduceNV:
		g.coopMat2Cap(spirv.CapabilityCooperativeMatrixReductionsNV)
		m := g.rvalue(e.Args[1])
		mask := g.coopConst(e.Args[2], "coopMatReduceNV's reduction mode")
		rt := e.Args[0].Type()
		r := g.b.EmitResult(spirv.OpCooperativeMatrixReduceNV, g.typeID(rt, check.PackNone), m, uint32(mask), g.funcArg(e.Args[3]))
		g.store(nil, g.lvalue(e.Args[0]), r, rt)
		return 0, true
	case check.BCoopMatPerElementNV:
		g.coopMat2Cap(spirv.CapabilityCooperativeMatrixPerElementOperationsNV)
		words := []uint32{g.rvalue(e.Args[1]), g.funcArg(e.Args[2])}
		words = append(words, vals(3)...)
		rt := e.Args[0].Type()
		r := g.b.EmitResult(spirv.OpCooperativeMatrixPerElementOpNV, g.typeID(rt, check.PackNone), words...)
		g.store(nil, g.lvalue(e.Args[0]), r, rt)
		return 0, true
	case check.BCoopMatTransposeNV:
		g.coopMat2Cap(spirv.CapabilityCooperativeMatrixConversionsNV)
		rt := e.Args[0].Type()
		r := g.b.EmitResult(spirv.OpCooperativeMatrixTransposeNV, g.typeID(rt, check.PackNone), g.rvalue(e.Args[1]))
		g.store(nil, g.lvalue(e.Args[0]), r, rt)
		return 0, true
	case check.BCoopVecLoadNV:
		vt := e.Args[0].Type()
		ptr, mem := g.coopVecMemory(e.Args[1], false)
		r := g.b.EmitResult(spirv.OpCooperativeVectorLoadNV, g.typeID(vt, check.PackNone), append([]uint32{ptr, g.rvalue(e.Args[2])}, mem...)...)
		g.store(nil, g.lvalue(e.Args[0]), r, vt)
		return 0, true
	case check.BCoopVecStoreNV:
		v := g.rvalue(e.Args[0])
		ptr, mem := g.coopVecMemory(e.Args[1], true)
		g.b.Emit(spirv.OpCooperativeVectorStoreNV, append([]uint32{ptr, g.rvalue(e.Args[2]), v}, mem...)...)
		return 0, true
	case check.BCoopVecMatMulNV, check.BCoopVecMatMulAddNV:
		g.coopVecMatMul(e)
		return 0, true
	case check.BCoopVecOuterProductAccumulateNV:
		g.b.Capability(spirv.CapabilityCooperativeVectorTrainingNV)
		a, b := g.rvalue(e.Args[0]), g.rvalue(e.Args[1])
		ptr, _ := g.coopVecMemory(e.Args[2], true)
		words := []uint32{ptr, g.rvalue(e.Args[3]), a, b}
		// The GLSL order is (offset, stride, layout, interpretation);
		// SPIR-V wants layout, interpretation, then the stride.
		rest := vals(4)
		words = append(words, rest[1], rest[2], rest[0])
		g.b.Emit(spirv.OpCooperativeVectorOuterProductAccumulateNV, words...)
		return 0, true
	case check.BCoopVecReduceSumAccumulateNV:
		g.b.Capability(spirv.CapabilityCooperativeVectorTrainingNV)
		v := g.rvalue(e.Args[0])
		ptr, _ := g.coopVecMemory(e.Args[1], true)
		g.b.Emit(spirv.OpCooperativeVectorReduceSumAccumulateNV, ptr, g.rvalue(e.Args[2]), v)
		return 0, true
	}
	return 0, false
}

// tensorLoadStore lowers coopMatLoadTensorNV(m, buf, element, layout
// [, view][, decodeFunc[, decodeVectorFunc]]) and coopMatStoreTensorNV(m,
// buf, element, layout[, view]).
func (g *gen) tensorLoadStore(e *check.BuiltinCall) {
	g.coopMat2Cap(spirv.CapabilityCooperativeMatrixTensorAddressingNV)
	mt := e.Args[0].Type()
	ptr, l := g.coopPointer(e.Args[1], e.Args[2])
	layout := g.rvalue(e.Args[3])
	mask := uint32(spirv.TensorAddressingOperandsNone)
	var operands []uint32
	rest := e.Args[4:]
	if len(rest) > 0 && rest[0].Type().Kind == check.KTensorView {
		mask |= uint32(spirv.TensorAddressingOperandsTensorView)
		operands = append(operands, g.rvalue(rest[0]))
		rest = rest[1:]
	}
	for i, r := range rest {
		if i == 0 {
			g.coopMat2Cap(spirv.CapabilityCooperativeMatrixBlockLoadsNV)
			mask |= uint32(spirv.TensorAddressingOperandsDecodeFunc)
		} else {
			g.b.Capability(spirv.CapabilityCooperativeMatrixDecodeVectorNV)
			g.b.Extension("SPV_NV_cooperative_matrix_decode_vector")
			mask |= uint32(spirv.TensorAddressingOperandsDecodeVectorFunc)
		}
		operands = append(operands, g.funcArg(r))
	}
	mem := g.memAccess(l)
	if mem == nil {
		mem = []uint32{uint32(spirv.MemoryAccessNone)}
	}
	tail := append(append(mem, mask), operands...)
	if e.Fn == check.BCoopMatStoreTensorNV {
		m := g.rvalue(e.Args[0])
		g.b.Emit(spirv.OpCooperativeMatrixStoreTensorNV, append([]uint32{ptr, m, layout}, tail...)...)
		return
	}
	dst := g.lvalue(e.Args[0])
	obj := g.load(dst)
	r := g.b.EmitResult(spirv.OpCooperativeMatrixLoadTensorNV, g.typeID(mt, check.PackNone), append([]uint32{ptr, obj, layout}, tail...)...)
	g.store(nil, dst, r, mt)
}

// coopVecMemory is the array pointer a cooperative vector instruction
// addresses (offsets are in bytes from its start) and the memory operands
// of a load or store there.
func (g *gen) coopVecMemory(buf check.Expr, store bool) (uint32, []uint32) {
	l := g.lvalue(buf)
	bt := buf.Type()
	if bt.Kind != check.KArray || len(l.comps) > 0 {
		g.fail(buf.Position(), "cooperative vector memory must be an array")
	}
	g.storageCaps(bt.Elem, l.sc)
	if mem := g.memAccess(l); mem != nil {
		return l.ptr, mem
	}
	if l.sc == spirv.StorageClassWorkgroup && g.usesVulkanMemoryModel() {
		// Shared memory is coherent: make the access visible (available)
		// at workgroup scope, as glslang does.
		m := spirv.MemoryAccessMakePointerVisible
		if store {
			m = spirv.MemoryAccessMakePointerAvailable
		}
		return l.ptr, []uint32{uint32(m | spirv.MemoryAccessNonPrivatePointer), g.u32(uint32(spirv.ScopeWorkgroup))}
	}
	return l.ptr, []uint32{uint32(spirv.MemoryAccessNone)}
}

// coopVecMatMul lowers coopVecMatMulNV and coopVecMatMulAddNV; signed
// input and result components are flagged in the trailing operands.
func (g *gen) coopVecMatMul(e *check.BuiltinCall) {
	rt := e.Args[0].Type()
	words := []uint32{g.rvalue(e.Args[1]), g.rvalue(e.Args[2])}
	mat, _ := g.coopVecMemory(e.Args[3], false)
	words = append(words, mat, g.rvalue(e.Args[4]), g.rvalue(e.Args[5]))
	next := 6
	op := spirv.OpCooperativeVectorMatrixMulNV
	if e.Fn == check.BCoopVecMatMulAddNV {
		op = spirv.OpCooperativeVectorMatrixMulAddNV
		bias, _ := g.coopVecMemory(e.Args[6], false)
		words = append(words, bias, g.rvalue(e.Args[7]), g.rvalue(e.Args[8]))
		next = 9
	}
	for _, a := range e.Args[next:] {
		words = append(words, g.rvalue(a))
	}
	mask := uint32(0)
	if e.Args[1].Type().Scalar.IsSigned() {
		mask |= uint32(spirv.CooperativeMatrixOperandsMatrixBSignedComponentsKHR)
	}
	if rt.Scalar.IsSigned() {
		mask |= uint32(spirv.CooperativeMatrixOperandsMatrixResultSignedComponentsKHR)
	}
	if mask != 0 {
		words = append(words, mask)
	}
	r := g.b.EmitResult(op, g.typeID(rt, check.PackNone), words...)
	g.store(nil, g.lvalue(e.Args[0]), r, rt)
}

// coopConvert converts between cooperative matrices of different uses
// (Accumulator to A or B), between long vectors and cooperative vectors, and
// between buffer reference types; ok is false for conversions the generic
// code handles.
func (g *gen) coopConvert(v uint32, from, to *check.Type, pos check.Pos) (uint32, bool) {
	switch {
	case from.IsCoop() && to.IsCoop() && (from.Elem != nil || to.Elem != nil):
		return g.spirvIntConvert(v, from, to, pos), true
	case from.Kind == check.KCoopMat && to.Kind == check.KCoopMat && !sameDim(from.Params[3], to.Params[3]):
		g.coopMat2Cap(spirv.CapabilityCooperativeMatrixConversionsNV)
		if from.Scalar == to.Scalar {
			return g.b.EmitResult(spirv.OpCooperativeMatrixConvertNV, g.typeID(to, check.PackNone), v), true
		}
		// Element conversions may change the use at the same time.
		return 0, false
	case from.Kind == check.KReference && to.Kind == check.KReference && from.Struct != to.Struct:
		// A decode callback may view its buffer reference as another block.
		return g.b.EmitResult(spirv.OpBitcast, g.typeID(to, check.PackNone), v), true
	case from.Kind == check.KVector && to.Kind == check.KCoopVec:
		if from.Scalar != to.Scalar {
			mid := *from
			mid.Scalar = to.Scalar
			v = g.convert(v, from, &mid, pos)
		}
		return g.b.EmitResult(spirv.OpBitcast, g.typeID(to, check.PackNone), v), true
	case from.Kind == check.KCoopVec && to.Kind == check.KVector:
		mid := *from
		mid.Scalar = to.Scalar
		if from.Scalar != to.Scalar {
			v = g.convert(v, from, &mid, pos)
		}
		return g.b.EmitResult(spirv.OpBitcast, g.typeID(to, check.PackNone), v), true
	}
	return 0, false
}

// sameDim compares type parameters; specialization constants match when
// they are the same expression.
func sameDim(a, b check.Dim) bool {
	if a.Spec != nil || b.Spec != nil {
		return a.Spec == b.Spec
	}
	return a.Val == b.Val
}

// coopVecConstruct builds a cooperative vector from one scalar (replicated)
// or from its components, given as scalars and vectors.
func (g *gen) coopVecConstruct(e *check.Construct, vals []uint32) uint32 {
	t := e.T
	tid := g.typeID(t, check.PackNone)
	if len(vals) == 1 && e.Args[0].Type().Kind == check.KScalar {
		return g.splat(vals[0], t)
	}
	var args []uint32
	for i, a := range e.Args {
		at := a.Type()
		if at.Kind == check.KScalar {
			args = append(args, vals[i])
			continue
		}
		for c := 0; c < at.N; c++ {
			args = append(args, g.b.EmitResult(spirv.OpCompositeExtract, g.scalarType(at.Scalar), vals[i], uint32(c)))
		}
	}
	// Components past the vector's length are dropped, as for vector
	// constructors (glslang does the same).
	if n := t.Params[0]; n.Spec == nil && int64(len(args)) > n.Val {
		args = args[:n.Val]
	}
	all := true
	for _, a := range args {
		all = all && g.isConst(a)
	}
	if all {
		return g.b.Const(spirv.OpConstantComposite, tid, args...)
	}
	return g.b.EmitResult(spirv.OpCompositeConstruct, tid, args...)
}
