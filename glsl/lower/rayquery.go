package lower

import (
	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/internal/lazy"
	"github.com/coopshader/coop/spirv"
)

// Ray queries (SPV_KHR_ray_query) and the ray-tracing extensions compute
// shaders reach through them, lowered as glslang does: acceleration
// structures are UniformConstant variables, ray queries Private variables
// (locals included), both passed to functions by pointer; the committed
// argument of the intersection queries is an int constant.

// rayQueryOps maps the ray-query built-ins to their instructions.
var rayQueryOps = lazy.Value[map[check.Builtin]spirv.Op]{F: func() map[check.Builtin]spirv.Op {
	return map[check.Builtin]spirv.Op{
		check.BRayQueryInitializeEXT:                                            spirv.OpRayQueryInitializeKHR,
		check.BRayQueryProceedEXT:                                               spirv.OpRayQueryProceedKHR,
		check.BRayQueryTerminateEXT:                                             spirv.OpRayQueryTerminateKHR,
		check.BRayQueryGenerateIntersectionEXT:                                  spirv.OpRayQueryGenerateIntersectionKHR,
		check.BRayQueryConfirmIntersectionEXT:                                   spirv.OpRayQueryConfirmIntersectionKHR,
		check.BRayQueryGetIntersectionTypeEXT:                                   spirv.OpRayQueryGetIntersectionTypeKHR,
		check.BRayQueryGetRayTMinEXT:                                            spirv.OpRayQueryGetRayTMinKHR,
		check.BRayQueryGetRayFlagsEXT:                                           spirv.OpRayQueryGetRayFlagsKHR,
		check.BRayQueryGetWorldRayOriginEXT:                                     spirv.OpRayQueryGetWorldRayOriginKHR,
		check.BRayQueryGetWorldRayDirectionEXT:                                  spirv.OpRayQueryGetWorldRayDirectionKHR,
		check.BRayQueryGetIntersectionTEXT:                                      spirv.OpRayQueryGetIntersectionTKHR,
		check.BRayQueryGetIntersectionInstanceCustomIndexEXT:                    spirv.OpRayQueryGetIntersectionInstanceCustomIndexKHR,
		check.BRayQueryGetIntersectionInstanceIdEXT:                             spirv.OpRayQueryGetIntersectionInstanceIdKHR,
		check.BRayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetEXT: spirv.OpRayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR,
		check.BRayQueryGetIntersectionGeometryIndexEXT:                          spirv.OpRayQueryGetIntersectionGeometryIndexKHR,
		check.BRayQueryGetIntersectionPrimitiveIndexEXT:                         spirv.OpRayQueryGetIntersectionPrimitiveIndexKHR,
		check.BRayQueryGetIntersectionBarycentricsEXT:                           spirv.OpRayQueryGetIntersectionBarycentricsKHR,
		check.BRayQueryGetIntersectionFrontFaceEXT:                              spirv.OpRayQueryGetIntersectionFrontFaceKHR,
		check.BRayQueryGetIntersectionCandidateAABBOpaqueEXT:                    spirv.OpRayQueryGetIntersectionCandidateAABBOpaqueKHR,
		check.BRayQueryGetIntersectionObjectRayDirectionEXT:                     spirv.OpRayQueryGetIntersectionObjectRayDirectionKHR,
		check.BRayQueryGetIntersectionObjectRayOriginEXT:                        spirv.OpRayQueryGetIntersectionObjectRayOriginKHR,
		check.BRayQueryGetIntersectionObjectToWorldEXT:                          spirv.OpRayQueryGetIntersectionObjectToWorldKHR,
		check.BRayQueryGetIntersectionWorldToObjectEXT:                          spirv.OpRayQueryGetIntersectionWorldToObjectKHR,
		check.BRayQueryGetIntersectionTriangleVertexPositionsEXT:                spirv.OpRayQueryGetIntersectionTriangleVertexPositionsKHR,
		check.BFetchMicroTriangleVertexPositionNV:                               spirv.OpFetchMicroTriangleVertexPositionNV,
		check.BFetchMicroTriangleVertexBarycentricNV:                            spirv.OpFetchMicroTriangleVertexBarycentricNV,
	}
}}

const (
	accelName    = "accelerationStructureEXT"
	rayQueryName = "rayQueryEXT"
)

func isOpaqueNamed(t *check.Type, name string) bool {
	return t.Kind == check.KOpaque && t.Name == name
}

// rayType declares the acceleration-structure and ray-query types; ok is
// false for other types.
func (g *gen) rayType(t *check.Type) (uint32, bool) {
	var op spirv.Op
	switch {
	case isOpaqueNamed(t, accelName):
		op = spirv.OpTypeAccelerationStructureKHR
	case isOpaqueNamed(t, rayQueryName):
		op = spirv.OpTypeRayQueryKHR
	default:
		return 0, false
	}
	g.rayQueryCaps()
	return g.b.Type(op), true
}

func (g *gen) rayQueryCaps() {
	g.b.Capability(spirv.CapabilityRayQueryKHR)
	g.b.Extension("SPV_KHR_ray_query")
}

// rayClass is the storage class a variable or parameter of type t lives
// in when it is (an array of) acceleration structures or ray queries.
func rayClass(t *check.Type) (spirv.StorageClass, bool) {
	switch b := baseOfArrays(t); {
	case isOpaqueNamed(b, accelName):
		return spirv.StorageClassUniformConstant, true
	case isOpaqueNamed(b, rayQueryName):
		return spirv.StorageClassPrivate, true
	}
	return 0, false
}

// rayVar declares a global or local variable of (an array of) ray queries
// or acceleration structures, reporting whether v is one. Acceleration
// structures are descriptors; ray queries are Private even when local.
func (g *gen) rayVar(v *check.Var) bool {
	sc, ok := rayClass(v.Type)
	if !ok {
		return false
	}
	if sc == spirv.StorageClassUniformConstant && v.Storage != check.StorageUniform {
		g.fail(v.Pos, "acceleration structure %s must be a uniform", v.Name)
	}
	if v.Type.Kind == check.KArray && v.Type.IsUnsizedArray() {
		g.b.Capability(spirv.CapabilityRuntimeDescriptorArray)
		if g.ver < 0x10500 {
			g.b.Extension("SPV_EXT_descriptor_indexing")
		}
	}
	id := g.b.Variable(g.ptrType(sc, v.Type, check.PackNone), sc)
	g.b.Name(id, v.Name)
	if sc == spirv.StorageClassUniformConstant {
		set, binding := v.Layout.Set, v.Layout.Binding
		if set < 0 {
			set = 0
		}
		g.b.Decorate(id, spirv.DecorationDescriptorSet, uint32(set))
		// Without a binding glslang gives binding 0 (unless bindings
		// are mapped automatically).
		if binding < 0 && !g.opts.AutoMapBindings && !g.p.HasExtension("GL_EXT_descriptor_heap") {
			binding = 0
		}
		if binding >= 0 {
			g.b.Decorate(id, spirv.DecorationBinding, uint32(binding))
		}
	}
	g.vars[v] = &varInfo{id: id, sc: sc, t: v.Type}
	g.addInterface(id, sc)
	return true
}

// rayArg passes argument a to parameter p when p is a ray query or
// acceleration structure: the argument variable's own pointer, never a
// copy.
func (g *gen) rayArg(p *check.Var, a check.Expr) (uint32, bool) {
	if _, ok := rayClass(p.Type); !ok {
		return 0, false
	}
	// Without variable pointers a pointer argument must be a whole
	// variable.
	r, ok := a.(*check.VarRef)
	if !ok || g.vars[r.Var] == nil {
		g.fail(a.Position(), "the argument of %s parameter %s must be a whole variable", p.Type, p.Name)
	}
	return g.vars[r.Var].id, true
}

// rayConvert lowers accelerationStructureEXT(uint64_t or uvec2 address).
func (g *gen) rayConvert(v uint32, to *check.Type) (uint32, bool) {
	if !isOpaqueNamed(to, accelName) {
		return 0, false
	}
	return g.b.EmitResult(spirv.OpConvertUToAccelerationStructureKHR, g.typeID(to, check.PackNone), v), true
}

// rayBuiltin lowers the ray-query and micromap built-ins.
func (g *gen) rayBuiltin(e *check.BuiltinCall, tid uint32) (uint32, bool) {
	op, ok := rayQueryOps.Get()[e.Fn]
	if !ok {
		return 0, false
	}
	if e.Fn == check.BFetchMicroTriangleVertexPositionNV || e.Fn == check.BFetchMicroTriangleVertexBarycentricNV {
		g.b.Capability(spirv.CapabilityDisplacementMicromapNV)
		g.b.Extension("SPV_NV_displacement_micromap")
		args := make([]uint32, len(e.Args))
		for i, a := range e.Args {
			args[i] = g.rvalue(a)
		}
		return g.b.EmitResult(op, tid, args...), true
	}
	g.rayQueryCaps()
	words := []uint32{g.lvalue(e.Args[0]).ptr}
	rest := e.Args[1:]
	switch e.Fn {
	case check.BRayQueryInitializeEXT, check.BRayQueryGenerateIntersectionEXT, check.BRayQueryTerminateEXT,
		check.BRayQueryConfirmIntersectionEXT:
		for _, a := range rest {
			words = append(words, g.rvalue(a))
		}
		g.b.Emit(op, words...)
		return 0, true
	case check.BRayQueryGetIntersectionTriangleVertexPositionsEXT:
		g.b.Capability(spirv.CapabilityRayQueryPositionFetchKHR)
		g.b.Extension("SPV_KHR_ray_tracing_position_fetch")
		at := e.Args[2].Type()
		v := g.b.EmitResult(op, g.typeID(at, check.PackNone), words[0], g.committed(e))
		g.store(nil, g.lvalue(e.Args[2]), v, at)
		return 0, true
	}
	if len(rest) > 0 {
		words = append(words, g.committed(e))
	}
	return g.b.EmitResult(op, tid, words...), true
}

// committed is the Intersection operand: the int constant 1 for the
// committed intersection, 0 for the candidate.
func (g *gen) committed(e *check.BuiltinCall) uint32 {
	c, ok := e.Args[1].(*check.Const)
	if !ok {
		g.fail(e.Pos, "the committed argument must be a constant")
	}
	if c.Val.Bits != 0 {
		return g.i32(1)
	}
	return g.i32(0)
}

// rayModes declares what the ray-flag and opacity-micromap extensions need
// once the code is emitted, as glslang does.
func (g *gen) rayModes(mainID uint32) {
	if g.p.PrimitiveCulling {
		g.b.Capability(spirv.CapabilityRayTraversalPrimitiveCullingKHR)
	}
	if g.p.OpacityMicromap2State {
		// gl_RayFlagsForceOpacityMicromap2StateEXT keeps the EXT extension.
		g.b.Capability(spirv.CapabilityRayTracingOpacityMicromapEXT)
		g.b.Extension("SPV_EXT_opacity_micromap")
	}
	v := g.p.OpacityMicromap
	if v == nil {
		return
	}
	var id uint32
	if v.Storage == check.StorageSpecConst {
		id = g.vars[v].id
	} else {
		id = g.constValue(v.Value)
	}
	g.b.Capability(spirv.CapabilityRayTracingOpacityMicromapExecutionModeKHR)
	g.b.Extension("SPV_KHR_opacity_micromap")
	g.b.ExecutionModeId(mainID, spirv.ExecutionModeOpacityMicromapIdKHR, id)
}
