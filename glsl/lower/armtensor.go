package lower

import (
	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/spirv"
)

// Lowering of GL_ARM_tensors. A tensorARM<T, rank> is an OpTypeTensorARM
// variable in the UniformConstant class; functions take tensors as
// pointers to it, as glslang passes opaque types, and the built-ins load
// the tensor where they use it.

// tensorARMType declares OpTypeTensorARM with the capabilities glslang
// declares with it: the element type's arithmetic capability, whatever the
// shader does with the elements.
func (g *gen) tensorARMType(t *check.Type) uint32 {
	g.b.Capability(spirv.CapabilityTensorsARM)
	g.b.Extension("SPV_ARM_tensors")
	g.arithCaps(t.Scalar)
	return g.b.Type(spirv.OpTypeTensorARM, g.scalarType(t.Scalar), g.dim(t.Params[0]))
}

// isTensorARM reports tensors and arrays of them.
func isTensorARM(t *check.Type) bool { return baseOfArrays(t).Kind == check.KTensorARM }

// tensorParam declares a tensor parameter's memory qualifiers, which
// glslang keeps on the parameter.
func (g *gen) tensorParam(id uint32, m check.MemoryQual) {
	if m&check.ReadOnly != 0 {
		g.b.Decorate(id, spirv.DecorationNonWritable)
	}
	if m&check.WriteOnly != 0 {
		g.b.Decorate(id, spirv.DecorationNonReadable)
	}
}

// tensorIndex notes an index into an array of tensors: one that is not a
// constant needs StorageTensorArrayDynamicIndexingARM (GLSL allows only
// dynamically uniform ones).
func (g *gen) tensorIndex(array *check.Type, idx uint32) {
	if array.Kind == check.KArray && array.Elem.Kind == check.KTensorARM && !g.isConst(idx) {
		g.b.Capability(spirv.CapabilityStorageTensorArrayDynamicIndexingARM)
	}
}

// tensorBuiltin lowers tensorReadARM, tensorWriteARM and tensorSizeARM.
func (g *gen) tensorBuiltin(e *check.BuiltinCall, tid uint32) (uint32, bool) {
	switch e.Fn {
	case check.BTensorSizeARM:
		t := g.rvalue(e.Args[0])
		return g.b.EmitResult(spirv.OpTensorQuerySizeARM, tid, t, g.rvalue(e.Args[1])), true
	case check.BTensorReadARM, check.BTensorWriteARM:
	default:
		return 0, false
	}
	t := g.rvalue(e.Args[0])
	coords := g.rvalue(e.Args[1])
	data := e.Args[2]
	// glslang passes on only the operand bits GLSL defines; the mask is
	// left out when it is zero.
	var operands []uint32
	if len(e.Args) > 3 {
		mask := g.tensorOperands(e.Args[3])
		mask &= uint64(spirv.TensorOperandsNontemporalARM | spirv.TensorOperandsOutOfBoundsValueARM)
		if mask != 0 {
			operands = append(operands, uint32(mask))
		}
		if mask&uint64(spirv.TensorOperandsOutOfBoundsValueARM) != 0 {
			operands = append(operands, g.rvalue(e.Args[4]))
		}
	}
	if e.Fn == check.BTensorWriteARM {
		g.b.Emit(spirv.OpTensorWriteARM, append([]uint32{t, coords, g.rvalue(data)}, operands...)...)
		return 0, true
	}
	v := g.b.EmitResult(spirv.OpTensorReadARM, g.typeID(data.Type(), check.PackNone), append([]uint32{t, coords}, operands...)...)
	g.store(nil, g.lvalue(data), v, data.Type())
	return 0, true
}

// tensorOperands is the value of the constant operand mask: a literal or a
// const variable.
func (g *gen) tensorOperands(e check.Expr) uint64 {
	if r, ok := e.(*check.VarRef); ok && r.Var.Storage == check.StorageConst && r.Var.Value != nil {
		return r.Var.Value.Bits
	}
	return g.coopConst(e, "the tensor operands")
}
