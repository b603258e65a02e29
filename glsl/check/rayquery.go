package check

// Ray queries (GL_EXT_ray_query) in compute shaders.

var extRayQuery = []string{"GL_EXT_ray_query"}

func init() {
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

	for name, v := range map[string]int64{
		"gl_RayFlagsNoneEXT": 0, "gl_RayFlagsOpaqueEXT": 1, "gl_RayFlagsNoOpaqueEXT": 2, "gl_RayFlagsTerminateOnFirstHitEXT": 4,
		"gl_RayFlagsSkipClosestHitShaderEXT": 8, "gl_RayFlagsCullBackFacingTrianglesEXT": 16, "gl_RayFlagsCullFrontFacingTrianglesEXT": 32,
		"gl_RayFlagsCullOpaqueEXT": 64, "gl_RayFlagsCullNoOpaqueEXT": 128, "gl_RayFlagsSkipTrianglesEXT": 256, "gl_RayFlagsSkipAABBEXT": 512,
		"gl_RayQueryCommittedIntersectionNoneEXT": 0, "gl_RayQueryCommittedIntersectionTriangleEXT": 1, "gl_RayQueryCommittedIntersectionGeneratedEXT": 2,
		"gl_RayQueryCandidateIntersectionTriangleEXT": 0, "gl_RayQueryCandidateIntersectionAABBEXT": 1,
	} {
		builtinConsts[name] = builtinConst{val: v, ext: extRayQuery, unsigned: true}
	}
	builtinConsts["gl_RayFlagsForceOpacityMicromap2StateEXT"] = builtinConst{val: 1024, ext: []string{"GL_EXT_opacity_micromap"}, unsigned: true}
}
