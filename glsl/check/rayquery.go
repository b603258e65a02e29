package check

// Ray queries (GL_EXT_ray_query) in compute shaders, with the ray flags of
// GL_EXT_ray_flags_primitive_culling and GL_EXT_opacity_micromap and the
// vertex positions of GL_EXT_ray_tracing_position_fetch.

var extRayQuery = []string{"GL_EXT_ray_query"}

const (
	extPrimitiveCulling = "GL_EXT_ray_flags_primitive_culling"
	extPositionFetch    = "GL_EXT_ray_tracing_position_fetch"
	opacity2StateName   = "gl_RayFlagsForceOpacityMicromap2StateEXT"
)

func defineRayQuery() {
	const q = "inout:rayQueryEXT"
	def("rayQueryInitializeEXT", "void "+q+" accelerationStructureEXT uint uint vec3 float vec3 float", 0, sz1, extRayQuery...)
	def("rayQueryProceedEXT", "bool "+q, 0, sz1, extRayQuery...)
	def("rayQueryTerminateEXT rayQueryConfirmIntersectionEXT", "void "+q, 0, sz1, extRayQuery...)
	def("rayQueryGenerateIntersectionEXT", "void "+q+" float", 0, sz1, extRayQuery...)
	def("rayQueryGetRayTMinEXT", "float "+q, 0, sz1, extRayQuery...)
	def("rayQueryGetRayFlagsEXT", "uint "+q, 0, sz1, extRayQuery...)
	def("rayQueryGetWorldRayOriginEXT rayQueryGetWorldRayDirectionEXT", "vec3 "+q, 0, sz1, extRayQuery...)
	def("rayQueryGetIntersectionCandidateAABBOpaqueEXT", "bool "+q, 0, sz1, extRayQuery...)
	def("rayQueryGetIntersectionTypeEXT rayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetEXT", "uint "+q+" bool", 0, sz1, extRayQuery...)
	def("rayQueryGetIntersectionTEXT", "float "+q+" bool", 0, sz1, extRayQuery...)
	def("rayQueryGetIntersectionInstanceCustomIndexEXT rayQueryGetIntersectionInstanceIdEXT rayQueryGetIntersectionGeometryIndexEXT rayQueryGetIntersectionPrimitiveIndexEXT", "int "+q+" bool", 0, sz1, extRayQuery...)
	def("rayQueryGetIntersectionBarycentricsEXT", "vec2 "+q+" bool", 0, sz1, extRayQuery...)
	def("rayQueryGetIntersectionFrontFaceEXT", "bool "+q+" bool", 0, sz1, extRayQuery...)
	def("rayQueryGetIntersectionObjectRayDirectionEXT rayQueryGetIntersectionObjectRayOriginEXT", "vec3 "+q+" bool", 0, sz1, extRayQuery...)
	def("rayQueryGetIntersectionObjectToWorldEXT rayQueryGetIntersectionWorldToObjectEXT", "mat4x3 "+q+" bool", 0, sz1, extRayQuery...)
	def("rayQueryGetIntersectionTriangleVertexPositionsEXT", "void "+q+" bool out:vec3[3]", 0, sz1, extPositionFetch)

	// glslang declares these constants for every stage of desktop GLSL
	// 460, with no extension except where noted.
	for name, v := range map[string]int64{
		"gl_RayFlagsNoneEXT": 0, "gl_RayFlagsOpaqueEXT": 1, "gl_RayFlagsNoOpaqueEXT": 2, "gl_RayFlagsTerminateOnFirstHitEXT": 4,
		"gl_RayFlagsSkipClosestHitShaderEXT": 8, "gl_RayFlagsCullBackFacingTrianglesEXT": 16, "gl_RayFlagsCullFrontFacingTrianglesEXT": 32,
		"gl_RayFlagsCullOpaqueEXT": 64, "gl_RayFlagsCullNoOpaqueEXT": 128,
		"gl_RayFlagsNoneNV": 0, "gl_RayFlagsOpaqueNV": 1, "gl_RayFlagsNoOpaqueNV": 2, "gl_RayFlagsTerminateOnFirstHitNV": 4,
		"gl_RayFlagsSkipClosestHitShaderNV": 8, "gl_RayFlagsCullBackFacingTrianglesNV": 16, "gl_RayFlagsCullFrontFacingTrianglesNV": 32,
		"gl_RayFlagsCullOpaqueNV": 64, "gl_RayFlagsCullNoOpaqueNV": 128, "gl_RayFlagsSkipBuiltinPrimitivesNV": 256,
		"gl_HitKindFrontFacingTriangleEXT": 254, "gl_HitKindBackFacingTriangleEXT": 255,
		"gl_RayQueryCandidateIntersectionEXT": 0, "gl_RayQueryCommittedIntersectionEXT": 1,
		"gl_RayQueryCommittedIntersectionNoneEXT": 0, "gl_RayQueryCommittedIntersectionTriangleEXT": 1, "gl_RayQueryCommittedIntersectionGeneratedEXT": 2,
		"gl_RayQueryCandidateIntersectionTriangleEXT": 0, "gl_RayQueryCandidateIntersectionAABBEXT": 1,
	} {
		builtinConsts[name] = builtinConst{val: v, unsigned: true, min: 460}
	}
	builtinConsts["gl_RayFlagsSkipTrianglesEXT"] = builtinConst{val: 256, ext: []string{extPrimitiveCulling}, unsigned: true, min: 460}
	builtinConsts["gl_RayFlagsSkipAABBEXT"] = builtinConst{val: 512, ext: []string{extPrimitiveCulling}, unsigned: true, min: 460}
	builtinConsts[opacity2StateName] = builtinConst{val: 1024, ext: []string{"GL_EXT_opacity_micromap"}, unsigned: true, min: 460}
}

// rayQueryCommitted reports (as an error) a ray-query built-in whose
// committed argument is not a compile-time constant: it selects the
// candidate or committed intersection statically.
func (c *checker) rayQueryCommitted(fn Builtin, args []Expr, pos Pos) bool {
	if fn < BRayQueryGetIntersectionTypeEXT || fn > BRayQueryGetIntersectionTriangleVertexPositionsEXT || len(args) < 2 {
		return true
	}
	switch fn {
	case BRayQueryGetRayTMinEXT, BRayQueryGetRayFlagsEXT, BRayQueryGetWorldRayOriginEXT, BRayQueryGetWorldRayDirectionEXT,
		BRayQueryGetIntersectionCandidateAABBOpaqueEXT:
		return true
	}
	if constOf(args[1]) == nil {
		c.errorf(pos, "committed", "argument must be compile-time constant")
		return false
	}
	return true
}

// rayQueryDecl applies glslang's rules to a declared variable of a ray
// query or acceleration structure type: acceleration structures are
// uniforms or parameters, ray queries are never initialized.
func (c *checker) rayQueryDecl(v *Var, init Expr, pos Pos) {
	t := v.Type
	for t.Kind == KArray {
		t = t.Elem
	}
	if t.Kind != KOpaque {
		return
	}
	switch t.Name {
	case "accelerationStructureEXT":
		if v.Storage != StorageUniform {
			c.errorf(pos, "accelerationStructureNV", "accelerationStructureNV can only be used in uniform variables or function parameters: %s", v.Name)
		}
	case "rayQueryEXT":
		if init != nil {
			c.errorf(pos, "=", "ray queries can only be initialized by using the rayQueryInitializeEXT intrinsic: %s", v.Name)
		}
	}
}

// primitiveCulling handles the standalone "layout(primitive_culling);" of
// GL_EXT_ray_flags_primitive_culling.
func (c *checker) primitiveCulling(q quals) {
	li := c.parseLayout(q.layout)
	if !li.primitiveCulling {
		return
	}
	if q.storage != "" {
		c.errorf(q.pos, "primitive_culling", "layout qualifier cannot have storage qualifiers")
		return
	}
	c.prog.PrimitiveCulling = true
}
