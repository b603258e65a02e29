package validate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/coopshader/coop/internal/lazy"
	"github.com/coopshader/coop/spirv"
)

// Built-in variables in the Vulkan environment (Vulkan 15.9 "Built-In
// Variables"): the type and storage class each built-in a compute shader
// reaches must have, FragCoord's, and the built-ins Vulkan does not have.
// Of the built-ins decorating structure members (gl_PerVertex), the
// execution models are checked.

// builtinShape is the type a built-in variable must have: a scalar
// (n == 1) or vector of n components of 32-bit integers or floats.
type builtinShape struct {
	n     uint64
	float bool
	input bool // the variable must be in the Input storage class
	vuid  string
}

func builtinShapes() map[spirv.BuiltIn]builtinShape { return builtinShapesLazy.Get() }

var builtinShapesLazy = lazy.Value[map[spirv.BuiltIn]builtinShape]{F: func() map[spirv.BuiltIn]builtinShape {
	return map[spirv.BuiltIn]builtinShape{
		spirv.BuiltInLocalInvocationId:         {3, false, true, "VUID-LocalInvocationId-LocalInvocationId-04283"},
		spirv.BuiltInGlobalInvocationId:        {3, false, true, "VUID-GlobalInvocationId-GlobalInvocationId-04238"},
		spirv.BuiltInWorkgroupId:               {3, false, true, "VUID-WorkgroupId-WorkgroupId-04424"},
		spirv.BuiltInNumWorkgroups:             {3, false, true, "VUID-NumWorkgroups-NumWorkgroups-04298"},
		spirv.BuiltInWorkgroupSize:             {3, false, false, "VUID-WorkgroupSize-WorkgroupSize-04427"},
		spirv.BuiltInLocalInvocationIndex:      {1, false, true, "VUID-LocalInvocationIndex-LocalInvocationIndex-04286"},
		spirv.BuiltInSubgroupSize:              {1, false, true, "VUID-SubgroupSize-SubgroupSize-04383"},
		spirv.BuiltInSubgroupLocalInvocationId: {1, false, true, "VUID-SubgroupLocalInvocationId-SubgroupLocalInvocationId-04381"},
		spirv.BuiltInNumSubgroups:              {1, false, true, "VUID-NumSubgroups-NumSubgroups-04295"},
		spirv.BuiltInSubgroupId:                {1, false, true, "VUID-SubgroupId-SubgroupId-04367"},
		spirv.BuiltInSubgroupEqMask:            {4, false, true, "VUID-SubgroupEqMask-SubgroupEqMask-04371"},
		spirv.BuiltInSubgroupGeMask:            {4, false, true, "VUID-SubgroupGeMask-SubgroupGeMask-04373"},
		spirv.BuiltInSubgroupGtMask:            {4, false, true, "VUID-SubgroupGtMask-SubgroupGtMask-04375"},
		spirv.BuiltInSubgroupLeMask:            {4, false, true, "VUID-SubgroupLeMask-SubgroupLeMask-04377"},
		spirv.BuiltInSubgroupLtMask:            {4, false, true, "VUID-SubgroupLtMask-SubgroupLtMask-04379"},
		spirv.BuiltInFragCoord:                 {4, true, true, "VUID-FragCoord-FragCoord-04212"},
		spirv.BuiltInVertexIndex:               {1, false, true, "VUID-VertexIndex-VertexIndex-04400"},
		spirv.BuiltInInstanceIndex:             {1, false, true, "VUID-InstanceIndex-InstanceIndex-04265"},
		// "The variable decorated with FrontFacing must be declared as a
		// boolean" (VUID-FrontFacing-FrontFacing-04231), HelperInvocation
		// likewise (-04241); both are inputs (boolBuiltin).
		spirv.BuiltInFrontFacing:      {1, false, true, "VUID-FrontFacing-FrontFacing-04231"},
		spirv.BuiltInHelperInvocation: {1, false, true, "VUID-HelperInvocation-HelperInvocation-04241"},
		// SPV_QCOM_tile_shading: the tile's offset, dimension and apron
		// are unsigned integer vectors (paraphrased, no local copy).
		spirv.BuiltInTileOffsetQCOM:    {2, false, true, "VUID-TileOffsetQCOM-TileOffsetQCOM-10628"},
		spirv.BuiltInTileDimensionQCOM: {3, false, true, "VUID-TileDimensionQCOM-TileDimensionQCOM-10631"},
		spirv.BuiltInTileApronSizeQCOM: {2, false, true, "VUID-TileApronSizeQCOM-TileApronSizeQCOM-10634"},
	}
}}

// boolBuiltin reports whether b is a Boolean scalar (its shape's n and
// float are unused).
func boolBuiltin(b spirv.BuiltIn) bool {
	return b == spirv.BuiltInFrontFacing || b == spirv.BuiltInHelperInvocation
}

// unsignedBuiltins are the built-ins whose integers are unsigned.
func unsignedBuiltin(b spirv.BuiltIn) bool {
	return b == spirv.BuiltInTileOffsetQCOM || b == spirv.BuiltInTileDimensionQCOM || b == spirv.BuiltInTileApronSizeQCOM
}

// builtinModels are the execution models a Vulkan built-in may be used in,
// for those only some take (Vulkan 15.9 "Built-In Variables", each
// built-in's "... decoration must be used only within ..." VUIDs,
// paraphrased: no local copy): the ray tracing built-ins in the ray
// tracing stages that have a ray, hit or instance, the tile built-ins in
// fragment and compute shaders, a vertex's position and point size in the
// stages that make vertices.
func builtinModels() map[spirv.BuiltIn][]spirv.ExecutionModel { return builtinModelsLazy.Get() }

var builtinModelsLazy = lazy.Value[map[spirv.BuiltIn][]spirv.ExecutionModel]{F: func() map[spirv.BuiltIn][]spirv.ExecutionModel {
	rgen, isect, ahit, chit, miss, call := spirv.ExecutionModelRayGenerationKHR, spirv.ExecutionModelIntersectionKHR,
		spirv.ExecutionModelAnyHitKHR, spirv.ExecutionModelClosestHitKHR, spirv.ExecutionModelMissKHR, spirv.ExecutionModelCallableKHR
	hit := []spirv.ExecutionModel{ahit, chit}
	instance := []spirv.ExecutionModel{isect, ahit, chit}
	ray := []spirv.ExecutionModel{isect, ahit, chit, miss}
	launch := []spirv.ExecutionModel{rgen, isect, ahit, chit, miss, call}
	tile := []spirv.ExecutionModel{spirv.ExecutionModelFragment, spirv.ExecutionModelGLCompute}
	// "The Position decoration must be used only within the
	// MeshEXT, MeshNV, Vertex, TessellationControl,
	// TessellationEvaluation, or Geometry Execution Models", the same for
	// PointSize (VUID-Position-Position-04318, VUID-PointSize-PointSize-04314).
	vertex := []spirv.ExecutionModel{spirv.ExecutionModelVertex, spirv.ExecutionModelTessellationControl,
		spirv.ExecutionModelTessellationEvaluation, spirv.ExecutionModelGeometry, spirv.ExecutionModelMeshNV, spirv.ExecutionModelMeshEXT}
	return map[spirv.BuiltIn][]spirv.ExecutionModel{
		spirv.BuiltInHitKindKHR: hit, spirv.BuiltInHitTNV: hit, spirv.BuiltInHitTriangleVertexPositionsKHR: hit,
		spirv.BuiltInInstanceCustomIndexKHR: instance, spirv.BuiltInInstanceId: instance, spirv.BuiltInRayGeometryIndexKHR: instance,
		spirv.BuiltInObjectRayDirectionKHR: instance, spirv.BuiltInObjectRayOriginKHR: instance,
		spirv.BuiltInObjectToWorldKHR: instance, spirv.BuiltInWorldToObjectKHR: instance,
		spirv.BuiltInIncomingRayFlagsKHR: ray, spirv.BuiltInRayTminKHR: ray, spirv.BuiltInRayTmaxKHR: ray,
		spirv.BuiltInWorldRayDirectionKHR: ray, spirv.BuiltInWorldRayOriginKHR: ray, spirv.BuiltInCullMaskKHR: ray,
		spirv.BuiltInLaunchIdKHR: launch, spirv.BuiltInLaunchSizeKHR: launch,
		spirv.BuiltInTileOffsetQCOM: tile, spirv.BuiltInTileDimensionQCOM: tile, spirv.BuiltInTileApronSizeQCOM: tile,
		spirv.BuiltInPosition: vertex, spirv.BuiltInPointSize: vertex,
	}
}}

// builtinChecks are the family's rules (instructions.go lists the families).
var builtinChecks = []opCheck{
	{spirv.OpEntryPoint, (*state).checkBuiltInModels},
}

// checkBuiltInModels: in Vulkan, each built-in variable of an entry
// point's interface is one its execution model has.
func (s *state) checkBuiltInModels(i int) {
	if !s.env.vulkan {
		return
	}
	in := &s.m.Insts[i]
	model := spirv.ExecutionModel(in.Words[0])
	_, n, _ := in.String(2)
	for _, v := range in.Words[2+n:] {
		for _, d := range s.decor[v] {
			if d.dec != spirv.DecorationBuiltIn || len(d.args) == 0 {
				continue
			}
			b := spirv.BuiltIn(d.args[0])
			if ms, ok := builtinModels()[b]; ok && !slices.Contains(ms, model) {
				s.fail(i, "vulkan.builtin.model", "Vulkan spec does not allow BuiltIn %s to be used with the execution model %s (interface <id> '%d' of entry point <id> '%d')",
					builtinName(b), modelName(model), v, in.Words[1])
				return
			}
		}
		// A block of built-ins (gl_PerVertex, arrayed per vertex in
		// the stages between vertices and primitives) names them on its
		// members; a stage may declare a block it does not use, so only
		// a block the entry point's call tree uses is checked.
		if !slices.Contains(s.globalsUsed(in.Words[1]), v) {
			continue
		}
		st := s.valueType(v)
		if st.is(spirv.OpTypePointer) {
			st = s.types[st.Elem]
		}
		for st.is(spirv.OpTypeArray) || st.is(spirv.OpTypeRuntimeArray) {
			st = s.types[st.Elem]
		}
		if !st.is(spirv.OpTypeStruct) {
			continue
		}
		for _, d := range s.memberDec[st.ID] {
			if d.dec != spirv.DecorationBuiltIn || len(d.args) == 0 {
				continue
			}
			b := spirv.BuiltIn(d.args[0])
			if ms, ok := builtinModels()[b]; ok && !slices.Contains(ms, model) {
				s.fail(i, "vulkan.builtin.model", "Vulkan spec does not allow BuiltIn %s to be used with the execution model %s (member %d of the structure <id> '%d' of interface <id> '%d' of entry point <id> '%d')",
					builtinName(b), modelName(model), d.member, st.ID, v, in.Words[1])
				return
			}
		}
	}
}

func builtinName(b spirv.BuiltIn) string {
	if e := spirv.KindBuiltIn.Enumerant(uint32(b)); e != nil {
		return e.Name
	}
	return "BuiltIn"
}

// checkBuiltIns checks every BuiltIn decoration of a variable or constant
// in the Vulkan environment.
func (s *state) checkBuiltIns() {
	if !s.env.vulkan {
		return
	}
	for i := range s.m.Insts {
		in := &s.m.Insts[i]
		if in.Op != spirv.OpDecorate || spirv.Decoration(in.Words[1]) != spirv.DecorationBuiltIn || len(in.Words) < 3 {
			continue
		}
		if s.checkBuiltIn(i, in.Words[0], spirv.BuiltIn(in.Words[2])); s.err != nil {
			return
		}
	}
}

func (s *state) checkBuiltIn(i int, id uint32, b spirv.BuiltIn) {
	name := "BuiltIn"
	if e := spirv.KindBuiltIn.Enumerant(uint32(b)); e != nil {
		name = e.Name
	}
	// Vulkan 15.9: VertexId is OpenGL's; Vulkan has VertexIndex (and
	// InstanceIndex, its InstanceId being the ray tracing instance's,
	// builtinModels).
	if b == spirv.BuiltInVertexId {
		s.fail(i, "vulkan.builtin", "Vulkan spec doesn't allow BuiltIn %s to be used.", name)
		return
	}
	want, ok := builtinShapes()[b]
	d := s.defInst(id)
	if !ok || d == nil {
		return
	}
	t := s.types[d.TypeID()]
	if d.Op == spirv.OpVariable {
		if want.input && spirv.StorageClass(d.Words[2]) != spirv.StorageClassInput {
			s.fail(i, "vulkan.builtin.storage", "Vulkan spec allows BuiltIn %s to be only used for variables with Input storage class.", name)
			return
		}
		if !t.is(spirv.OpTypePointer) {
			return
		}
		t = s.types[t.Elem]
	} else if !isConstInst(d.Op) {
		return
	}
	if boolBuiltin(b) {
		if !t.is(spirv.OpTypeBool) {
			s.fail(i, "vulkan.builtin.type", "[%s] According to the Vulkan spec BuiltIn %s variable needs to be a bool scalar. ID <%d> (Op%s) is not a bool scalar.",
				want.vuid, name, id, d.Op.String()[2:])
		}
		return
	}
	v, ok, _ := s.numOf(t.idOrZero())
	kind, what := spirv.OpTypeInt, "int"
	if want.float {
		kind, what = spirv.OpTypeFloat, "float"
	}
	if !ok || !v.is(kind) || v.t.Width != 32 || v.vec != (want.n > 1) || v.known && v.n != want.n || unsignedBuiltin(b) && v.t.Signed {
		desc := "32-bit " + what + " scalar"
		if want.n > 1 {
			desc = fmt.Sprintf("%d-component 32-bit %s vector", want.n, what)
		}
		if unsignedBuiltin(b) {
			desc = strings.Replace(desc, "int", "unsigned int", 1)
		}
		s.fail(i, "vulkan.builtin.type", "[%s] According to the Vulkan spec BuiltIn %s variable needs to be a %s. ID <%d> (Op%s) is not one.",
			want.vuid, name, desc, id, d.Op.String()[2:])
	}
}

func (t *Type) idOrZero() uint32 {
	if t == nil {
		return 0
	}
	return t.ID
}
