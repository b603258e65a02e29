package validate

import "github.com/coopshader/coop/spirv"

// SPV_KHR_ray_tracing: the operands of OpTraceRayKHR,
// OpReportIntersectionKHR, OpExecuteCallableKHR (and SPV_KHR_ray_query's
// OpConvertUToAccelerationStructureKHR), the execution models
// the ray tracing instructions run in, and (with SPV_KHR_ray_query's
// OpRayQueryInitializeKHR) the ray flag that needs opacity micromaps. The
// extensions' texts are not among the local specifications; the rules are
// paraphrased from them.

// rayTracingChecks are the family's rules (instructions.go lists the
// families).
var rayTracingChecks = []opCheck{
	{spirv.OpTraceRayKHR, (*state).checkTraceRay},
	{spirv.OpReportIntersectionKHR, (*state).checkReportIntersection},
	{spirv.OpExecuteCallableKHR, (*state).checkExecuteCallable},
	{spirv.OpConvertUToAccelerationStructureKHR, (*state).checkConvertToAccelerationStructure},
}

// rayTracingLimits are the family's execution-model limits (execmodel.go
// lists them).
func rayTracingLimits() opLimits {
	limit := func(l modelLimit) func(*state, int, []modelLimit) []modelLimit {
		return func(_ *state, _ int, out []modelLimit) []modelLimit { return append(out, l) }
	}
	rgen, chit, miss := spirv.ExecutionModelRayGenerationKHR, spirv.ExecutionModelClosestHitKHR, spirv.ExecutionModelMissKHR
	return opLimits{
		// "OpTraceRayKHR ... This instruction is allowed only in
		// RayGenerationKHR, ClosestHitKHR and MissKHR execution models."
		spirv.OpTraceRayKHR: limit(models("OpTraceRayKHR requires RayGenerationKHR, ClosestHitKHR and MissKHR execution models", rgen, chit, miss)),
		// "... allowed only in RayGenerationKHR, ClosestHitKHR, MissKHR
		// and CallableKHR execution models."
		spirv.OpExecuteCallableKHR: limit(models("OpExecuteCallableKHR requires RayGenerationKHR, ClosestHitKHR, MissKHR and CallableKHR execution models",
			rgen, chit, miss, spirv.ExecutionModelCallableKHR)),
		// "This instruction is allowed only in IntersectionKHR
		// execution model."
		spirv.OpReportIntersectionKHR: limit(models("OpReportIntersectionKHR requires IntersectionKHR execution model", spirv.ExecutionModelIntersectionKHR)),
		// OpIgnoreIntersectionKHR, OpTerminateRayKHR: "This
		// instruction is allowed only in AnyHitKHR execution model."
		spirv.OpIgnoreIntersectionKHR: limit(models("OpIgnoreIntersectionKHR requires AnyHitKHR execution model", spirv.ExecutionModelAnyHitKHR)),
		spirv.OpTerminateRayKHR:       limit(models("OpTerminateRayKHR requires AnyHitKHR execution model", spirv.ExecutionModelAnyHitKHR)),
	}
}

// checkTraceRay: "Accel is the descriptor for the acceleration structure
// ... must be OpTypeAccelerationStructureKHR"; Ray Flags, Cull Mask, SBT
// Offset, SBT Stride and Miss Index 32-bit integer scalars; Ray Origin
// and Ray Direction 3-component and Ray Tmin and Ray Tmax scalar 32-bit
// floats; "Payload is a pointer to the ray payload ... must be the result
// of an OpVariable with a storage class of RayPayloadKHR or
// IncomingRayPayloadKHR".
func (s *state) checkTraceRay(i int) {
	w := s.m.Insts[i].Words
	if len(w) < 11 {
		return
	}
	switch {
	case !s.valueType(w[0]).is(spirv.OpTypeAccelerationStructureKHR):
		s.fail(i, "raytracing.operand", "Expected Acceleration Structure to be of type OpTypeAccelerationStructureKHR")
	case !s.isIntScalar32(w[1]):
		s.fail(i, "raytracing.operand", "Ray Flags must be a 32-bit int scalar")
	case !s.isIntScalar32(w[2]):
		s.fail(i, "raytracing.operand", "Cull Mask must be a 32-bit int scalar")
	case !s.opacityMicromapFlagOK(w[1]):
		s.fail(i, "raytracing.flags", "The ForceOpacityMicromap2StateKHR flag requires the RayTracingOpacityMicromapKHR and RayQueryKHR or RayTracingKHR capabilities")
	case !s.isIntScalar32(w[3]):
		s.fail(i, "raytracing.operand", "SBT Offset must be a 32-bit int scalar")
	case !s.isIntScalar32(w[4]):
		s.fail(i, "raytracing.operand", "SBT Stride must be a 32-bit int scalar")
	case !s.isIntScalar32(w[5]):
		s.fail(i, "raytracing.operand", "Miss Index must be a 32-bit int scalar")
	case !s.isFloatVec(s.valueType(w[6]), 3):
		s.fail(i, "raytracing.operand", "Ray Origin must be a 32-bit float 3-component vector")
	case !s.isFloatScalar32(w[7]):
		s.fail(i, "raytracing.operand", "Ray TMin must be a 32-bit float scalar")
	case !s.isFloatVec(s.valueType(w[8]), 3):
		s.fail(i, "raytracing.operand", "Ray Direction must be a 32-bit float 3-component vector")
	case !s.isFloatScalar32(w[9]):
		s.fail(i, "raytracing.operand", "Ray TMax must be a 32-bit float scalar")
	default:
		s.checkShaderCallVariable(i, w[10], "Payload", spirv.StorageClassRayPayloadKHR, spirv.StorageClassIncomingRayPayloadKHR)
	}
}

// checkShaderCallVariable: a payload or callable data operand is a
// variable of one of two storage classes.
func (s *state) checkShaderCallVariable(i int, id uint32, what string, a, b spirv.StorageClass) {
	d := s.defInst(id)
	switch {
	case d == nil || d.Op != spirv.OpVariable:
		s.fail(i, "raytracing.operand", "%s must be the result of a OpVariable", what)
	case spirv.StorageClass(d.Words[2]) != a && spirv.StorageClass(d.Words[2]) != b:
		s.fail(i, "raytracing.operand", "%s must have storage class %s or %s", what, scName(a), scName(b))
	}
}

// opacityMicromapFlagOK: "If the RayTracingOpacityMicromapKHR capability
// is not enabled, any Rayflags operand provided to an instruction must not
// contain ForceOpacityMicromap2StateKHR"
// (VUID-RuntimeSpirv-RayTracingOpacityMicromapKHR-11542), checked where
// the flags are a constant.
func (s *state) opacityMicromapFlagOK(flags uint32) bool {
	v, ok := s.constValue(flags)
	return !ok || v&uint64(spirv.RayFlagsForceOpacityMicromap2StateKHR) == 0 || s.hasCap(spirv.CapabilityRayTracingOpacityMicromapKHR)
}

// checkReportIntersection: "Result Type must be a Boolean type scalar";
// "Hit is the floating point parametric value along ray for the
// intersection" (a 32-bit float) and "HitKind ... must be a 32-bit
// unsigned integer".
func (s *state) checkReportIntersection(i int) {
	w := s.m.Insts[i].Words
	hk := s.valueType(w[3])
	switch {
	case !s.types[w[0]].is(spirv.OpTypeBool):
		s.fail(i, "raytracing.result", "expected Result Type to be bool scalar type")
	case !s.isFloatScalar32(w[2]):
		s.fail(i, "raytracing.operand", "Hit must be a 32-bit int scalar")
	case !hk.is(spirv.OpTypeInt) || hk.Signed || hk.Width != 32:
		s.fail(i, "raytracing.operand", "Hit Kind must be a 32-bit unsigned int scalar")
	}
}

// checkExecuteCallable: "SBT Index ... must be a 32-bit unsigned integer
// scalar" and "Callable Data ... must be the result of an OpVariable with
// storage class of CallableDataKHR or IncomingCallableDataKHR".
func (s *state) checkExecuteCallable(i int) {
	w := s.m.Insts[i].Words
	if t := s.valueType(w[0]); !t.is(spirv.OpTypeInt) || t.Signed || t.Width != 32 {
		s.fail(i, "raytracing.operand", "SBT Index must be a 32-bit unsigned int scalar")
		return
	}
	s.checkShaderCallVariable(i, w[1], "Callable Data", spirv.StorageClassCallableDataKHR, spirv.StorageClassIncomingCallableDataKHR)
}

// checkConvertToAccelerationStructure: OpConvertUToAccelerationStructureKHR
// (SPV_KHR_ray_query) makes an OpTypeAccelerationStructureKHR from "a
// 64-bit unsigned integer scalar or a vector of two 32-bit unsigned
// integers", the structure's device address.
func (s *state) checkConvertToAccelerationStructure(i int) {
	w := s.m.Insts[i].Words
	if !s.types[w[0]].is(spirv.OpTypeAccelerationStructureKHR) {
		s.fail(i, "raytracing.convert", "Expected Result Type to be a Acceleration Structure: ConvertUToAccelerationStructureKHR")
		return
	}
	v, ok, _ := s.numOf(s.typeOf(w[2]))
	if !ok || !v.is(spirv.OpTypeInt) || v.t.Signed || !(v.t.Width == 64 && !v.vec || v.t.Width == 32 && v.vec && v.known && v.n == 2) {
		s.fail(i, "raytracing.convert", "Expected 64-bit uint scalar or 2-component 32-bit uint vector as input: ConvertUToAccelerationStructureKHR")
	}
}
