package validate

import "github.com/coopshader/coop/spirv"

// SPV_KHR_ray_query (with SPV_KHR_ray_tracing_position_fetch's and
// SPV_NV_linear_swept_spheres' queries): the operand and result types of
// the ray query instructions. The extensions' texts are not among the
// local specifications; the rules are paraphrased from them.

// rayQueryResult is what a query instruction returns.
type rayQueryResult int

const (
	rqNone rayQueryResult = iota
	rqBool
	rqFloat
	rqInt
	rqVec3
	rqVec2
	rqMat4x3
)

// rayQueryOps lists, per instruction, its result and whether it takes an
// Intersection operand after the Ray Query.
type rayQueryOp struct {
	result       rayQueryResult
	intersection bool
}

// rayQueryOps are the query instructions.
var rayQueryOps = [...]opValue[rayQueryOp]{
	{spirv.OpRayQueryProceedKHR, rayQueryOp{rqBool, false}},
	{spirv.OpRayQueryGetIntersectionCandidateAABBOpaqueKHR, rayQueryOp{rqBool, false}},
	{spirv.OpRayQueryGetIntersectionFrontFaceKHR, rayQueryOp{rqBool, true}},
	{spirv.OpRayQueryGetRayTMinKHR, rayQueryOp{rqFloat, false}},
	{spirv.OpRayQueryGetIntersectionTKHR, rayQueryOp{rqFloat, true}},
	{spirv.OpRayQueryGetRayFlagsKHR, rayQueryOp{rqInt, false}},
	{spirv.OpRayQueryGetIntersectionTypeKHR, rayQueryOp{rqInt, true}},
	{spirv.OpRayQueryGetIntersectionInstanceCustomIndexKHR, rayQueryOp{rqInt, true}},
	{spirv.OpRayQueryGetIntersectionInstanceIdKHR, rayQueryOp{rqInt, true}},
	{spirv.OpRayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR, rayQueryOp{rqInt, true}},
	{spirv.OpRayQueryGetIntersectionGeometryIndexKHR, rayQueryOp{rqInt, true}},
	{spirv.OpRayQueryGetIntersectionPrimitiveIndexKHR, rayQueryOp{rqInt, true}},
	{spirv.OpRayQueryGetWorldRayDirectionKHR, rayQueryOp{rqVec3, false}},
	{spirv.OpRayQueryGetWorldRayOriginKHR, rayQueryOp{rqVec3, false}},
	{spirv.OpRayQueryGetIntersectionObjectRayDirectionKHR, rayQueryOp{rqVec3, true}},
	{spirv.OpRayQueryGetIntersectionObjectRayOriginKHR, rayQueryOp{rqVec3, true}},
	{spirv.OpRayQueryGetIntersectionBarycentricsKHR, rayQueryOp{rqVec2, true}},
	{spirv.OpRayQueryGetIntersectionObjectToWorldKHR, rayQueryOp{rqMat4x3, true}},
	{spirv.OpRayQueryGetIntersectionWorldToObjectKHR, rayQueryOp{rqMat4x3, true}},
	{spirv.OpRayQueryGetIntersectionTriangleVertexPositionsKHR, rayQueryOp{rqNone, true}},
}

// rayQueryEach adds the family's rules (instructions.go lists the families).
func rayQueryEach(add func(spirv.Op, func(*state, int))) {
	add(spirv.OpRayQueryInitializeKHR, (*state).checkRayQueryInitialize)
	add(spirv.OpRayQueryTerminateKHR, func(s *state, i int) { s.checkRayQueryPointer(i, 0) })
	add(spirv.OpRayQueryConfirmIntersectionKHR, func(s *state, i int) { s.checkRayQueryPointer(i, 0) })
	add(spirv.OpRayQueryGenerateIntersectionKHR, (*state).checkRayQueryGenerate)
	for _, q := range rayQueryOps {
		add(q.op, (*state).checkRayQueryGet)
	}
}

// checkRayQueryPointer: "Ray Query must be a pointer to an
// OpTypeRayQueryKHR" declared by a variable or parameter (or an access
// chain into an array of them); w is the operand's word.
func (s *state) checkRayQueryPointer(i, w int) {
	id := s.m.Insts[i].Words[w]
	d := s.defInst(id)
	switch {
	case d == nil || d.Op != spirv.OpVariable && d.Op != spirv.OpFunctionParameter && d.Op != spirv.OpAccessChain && d.Op != spirv.OpInBoundsAccessChain:
		s.fail(i, "rayquery.pointer", "%s: Ray Query must be a memory object declaration", s.m.Insts[i].Op)
	case !s.valueType(id).is(spirv.OpTypePointer):
		s.fail(i, "rayquery.pointer", "%s: Ray Query must be a pointer", s.m.Insts[i].Op)
	case !s.types[s.valueType(id).Elem].is(spirv.OpTypeRayQueryKHR):
		s.fail(i, "rayquery.pointer", "%s: Ray Query must be a pointer to OpTypeRayQueryKHR", s.m.Insts[i].Op)
	}
}

func (s *state) isIntScalar32(id uint32) bool {
	t := s.valueType(id)
	return t.is(spirv.OpTypeInt) && t.Width == 32
}

func (s *state) isFloatScalar32(id uint32) bool {
	t := s.valueType(id)
	return t.is(spirv.OpTypeFloat) && t.Width == 32 && t.Encoding < 0
}

// isFloatVec reports whether type t is a vector of n 32-bit floats.
func (s *state) isFloatVec(t *Type, n uint64) bool {
	if !t.is(spirv.OpTypeVector) || !t.CountKnown || t.Count != n {
		return false
	}
	c := s.types[t.Elem]
	return c.is(spirv.OpTypeFloat) && c.Width == 32 && c.Encoding < 0
}

// checkRayQueryInitialize: "Acceleration Structure must be an
// OpTypeAccelerationStructureKHR; RayFlags and CullMask 32-bit integer
// scalars; RayOrigin and RayDirection 3-component vectors and RayTMin and
// RayTMax scalars of 32-bit floats."
func (s *state) checkRayQueryInitialize(i int) {
	if s.checkRayQueryPointer(i, 0); s.err != nil {
		return
	}
	w := s.m.Insts[i].Words
	switch {
	case !s.valueType(w[1]).is(spirv.OpTypeAccelerationStructureKHR):
		s.fail(i, "rayquery.operand", "Expected Acceleration Structure to be of type OpTypeAccelerationStructureKHR")
	case !s.isIntScalar32(w[2]):
		s.fail(i, "rayquery.operand", "Ray Flags must be a 32-bit int scalar")
	case !s.opacityMicromapFlagOK(w[2]):
		s.fail(i, "rayquery.flags", "The ForceOpacityMicromap2StateKHR flag requires the RayTracingOpacityMicromapKHR and RayQueryKHR or RayTracingKHR capabilities")
	case !s.isIntScalar32(w[3]):
		s.fail(i, "rayquery.operand", "Cull Mask must be a 32-bit int scalar")
	case !s.isFloatVec(s.valueType(w[4]), 3):
		s.fail(i, "rayquery.operand", "Ray Origin must be a 32-bit float 3-component vector")
	case !s.isFloatScalar32(w[5]):
		s.fail(i, "rayquery.operand", "Ray TMin must be a 32-bit float scalar")
	case !s.isFloatVec(s.valueType(w[6]), 3):
		s.fail(i, "rayquery.operand", "Ray Direction must be a 32-bit float 3-component vector")
	case !s.isFloatScalar32(w[7]):
		s.fail(i, "rayquery.operand", "Ray TMax must be a 32-bit float scalar")
	}
}

// checkRayQueryGenerate: "Hit T must be a 32-bit float scalar."
func (s *state) checkRayQueryGenerate(i int) {
	if s.checkRayQueryPointer(i, 0); s.err == nil && !s.isFloatScalar32(s.m.Insts[i].Words[1]) {
		s.fail(i, "rayquery.operand", "Hit T must be a 32-bit float scalar")
	}
}

// checkRayQueryGet: the queries' result types, and "Intersection must be
// a constant 32-bit integer scalar" (0 for the candidate, 1 for the
// committed intersection).
func (s *state) checkRayQueryGet(i int) {
	in := &s.m.Insts[i]
	q, _ := lookup(rayQueryOps[:], in.Op)
	if s.checkRayQueryPointer(i, 2); s.err != nil {
		return
	}
	if q.intersection && (!s.isIntScalar32(in.Words[3]) || !s.isConst(in.Words[3])) {
		s.fail(i, "rayquery.intersection", "%s: expected Intersection ID to be a constant 32-bit int scalar", in.Op)
		return
	}
	rt := s.types[in.Words[0]]
	switch q.result {
	case rqBool:
		if !rt.is(spirv.OpTypeBool) {
			s.fail(i, "rayquery.result", "%s: expected Result Type to be bool scalar type", in.Op)
		}
	case rqFloat:
		if !rt.is(spirv.OpTypeFloat) || rt.Width != 32 || rt.Encoding >= 0 {
			s.fail(i, "rayquery.result", "%s: expected Result Type to be 32-bit float scalar type", in.Op)
		}
	case rqInt:
		if !rt.is(spirv.OpTypeInt) || rt.Width != 32 {
			s.fail(i, "rayquery.result", "%s: expected Result Type to be 32-bit int scalar type", in.Op)
		}
	case rqVec3:
		if !s.isFloatVec(rt, 3) {
			s.fail(i, "rayquery.result", "%s: expected Result Type to be 32-bit float 3-component vector type", in.Op)
		}
	case rqVec2:
		if !s.isFloatVec(rt, 2) {
			s.fail(i, "rayquery.result", "%s: expected Result Type to be 32-bit float 2-component vector type", in.Op)
		}
	case rqMat4x3:
		if !rt.is(spirv.OpTypeMatrix) || !rt.CountKnown || rt.Count != 4 || !s.isFloatVec(s.types[rt.Elem], 3) {
			s.fail(i, "rayquery.result", "%s: expected Result Type to be a matrix of 4 columns of 3-component 32-bit float vectors", in.Op)
		}
	}
}
