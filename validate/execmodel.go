package validate

import (
	"slices"

	"github.com/coopshader/coop/internal/lazy"
	"github.com/coopshader/coop/spirv"
)

// Execution models and modes: the instructions and scopes only some
// execution models may use, wherever in an entry point's call graph they
// are (SPIR-V 2.16.1: "instructions ... valid only in some execution
// models" are checked in every function the entry point calls), and the
// operands of the workgroup-size and Id execution modes.

// execModelChecks are the family's rules (instructions.go lists the families).
var execModelChecks = []opCheck{
	{spirv.OpEntryPoint, (*state).checkCallGraphModels},
	{spirv.OpExecutionMode, func(s *state, i int) { s.checkModeModels(i); s.checkLocalSize(i) }},
	{spirv.OpExecutionModeId, func(s *state, i int) { s.checkModeModels(i); s.checkExecutionModeID(i) }},
}

// modelLimit is one instruction's restriction to some execution models;
// ok is given the entry point reaching it.
type modelLimit struct {
	ok  func(e entryPoint) bool
	msg string
}

// entryPoint is an entry point's function, execution model and modes.
type entryPoint struct {
	id    uint32
	model spirv.ExecutionModel
	modes []spirv.ExecutionMode
}

// models returns a limit to the listed execution models.
func models(msg string, ms ...spirv.ExecutionModel) modelLimit {
	return modelLimit{func(e entryPoint) bool { return slices.Contains(ms, e.model) }, msg}
}

var (
	fragmentOnly     = []spirv.ExecutionModel{spirv.ExecutionModelFragment}
	rayTracingModels = []spirv.ExecutionModel{spirv.ExecutionModelRayGenerationKHR, spirv.ExecutionModelIntersectionKHR, spirv.ExecutionModelAnyHitKHR,
		spirv.ExecutionModelClosestHitKHR, spirv.ExecutionModelMissKHR, spirv.ExecutionModelCallableKHR}
	workgroupModels = []spirv.ExecutionModel{spirv.ExecutionModelTaskNV, spirv.ExecutionModelMeshNV, spirv.ExecutionModelTaskEXT, spirv.ExecutionModelMeshEXT,
		spirv.ExecutionModelTessellationControl, spirv.ExecutionModelGLCompute}
)

// derivativeLimits are the limits of an instruction taking derivatives
// (what names it: "Derivative instructions require", suffix follows each
// message): "Derivatives ... are only valid in the Fragment Execution
// Model" in core SPIR-V, widened to GLCompute, MeshEXT and TaskEXT, where
// SPV_KHR_compute_shader_derivatives (and its NV form) has an entry point
// declare how invocations group into quads, DerivativeGroupQuadsKHR or
// DerivativeGroupLinearKHR (paraphrased, no local copy). grouped says the
// rule applies: always for implicit-LOD sampling, and for the derivative
// instructions only in a module declaring the extension (GLSL's compute
// shaders without a derivative group get zero derivatives, as glslang
// writes them).
func derivativeLimits(out []modelLimit, what, suffix string, grouped bool) []modelLimit {
	compute := []spirv.ExecutionModel{spirv.ExecutionModelGLCompute, spirv.ExecutionModelMeshEXT, spirv.ExecutionModelTaskEXT}
	out = append(out, models(what+" Fragment, GLCompute, MeshEXT or TaskEXT execution model"+suffix, append(compute, spirv.ExecutionModelFragment)...))
	if !grouped {
		return out
	}
	return append(out, modelLimit{func(e entryPoint) bool {
		return !slices.Contains(compute, e.model) || slices.Contains(e.modes, spirv.ExecutionModeDerivativeGroupQuadsKHR) ||
			slices.Contains(e.modes, spirv.ExecutionModeDerivativeGroupLinearKHR)
	}, what + " DerivativeGroupQuadsKHR or DerivativeGroupLinearKHR execution mode for GLCompute, MeshEXT or TaskEXT execution model" + suffix})
}

// subgroupBarrierModels are the execution models whose OpControlBarrier
// synchronizes at most a subgroup (VUID-04682).
var subgroupBarrierModels = []spirv.ExecutionModel{spirv.ExecutionModelFragment, spirv.ExecutionModelVertex, spirv.ExecutionModelGeometry,
	spirv.ExecutionModelTessellationEvaluation, spirv.ExecutionModelRayGenerationKHR, spirv.ExecutionModelIntersectionKHR,
	spirv.ExecutionModelAnyHitKHR, spirv.ExecutionModelClosestHitKHR, spirv.ExecutionModelMissKHR}

// opLimits are the families' execution-model limits by opcode: each
// returns instruction i's limits appended to out (merged on first use as
// the checks are).
type opLimits = map[spirv.Op]func(s *state, i int, out []modelLimit) []modelLimit

// limitFamilies are the families with limits, in the order of their
// files: static data, as the families of checks are.
var limitFamilies = [...]func() opLimits{arithLimits, imageLimits, meshLimits, rayTracingLimits}

// familyLimits is the merged table, indexed by the opcode's place in the
// grammar (spirv.Op.Index), as instChecks is: modelLimits asks for every
// instruction an entry point reaches.
func familyLimits() *[spirv.NumOps]func(s *state, i int, out []modelLimit) []modelLimit {
	return familyLimitsLazy.Get()
}

var familyLimitsLazy = lazy.Value[*[spirv.NumOps]func(s *state, i int, out []modelLimit) []modelLimit]{F: func() *[spirv.NumOps]func(s *state, i int, out []modelLimit) []modelLimit {
	all := new([spirv.NumOps]func(s *state, i int, out []modelLimit) []modelLimit)
	for _, fam := range limitFamilies {
		for op, f := range fam() {
			k := op.Index()
			if k < 0 {
				panic("validate: a family limits " + op.String() + ", which the grammar does not know")
			}
			if g := all[k]; g != nil {
				h := f
				f = func(s *state, i int, out []modelLimit) []modelLimit { return h(s, i, g(s, i, out)) }
			}
			all[k] = f
		}
	}
	return all
}}

// modelLimits lists the restrictions of instruction i:
//   - OpKill, OpTerminateInvocation, OpDemoteToHelperInvocation and
//     OpIsHelperInvocationEXT: "This instruction is only valid in the
//     Fragment Execution Model" (SPIR-V 3.56.17, 3.56.27, paraphrased, no
//     local copy);
//   - in Vulkan, "If code:OpControlBarrier is used in ray generation,
//     intersection, any-hit, closest hit, miss, fragment, vertex,
//     tessellation evaluation, or geometry shaders, the execution Scope
//     must: be code:Subgroup" (VUID-StandaloneSpirv-OpControlBarrier-04682);
//   - in Vulkan, "If the code:Scope for execution is code:Workgroup, then it
//     must: only be used in the task, mesh, tessellation control, or
//     compute {ExecutionModel}" (VUID-StandaloneSpirv-None-04637), the same
//     for memory (-07321), and "If the code:Scope for memory is
//     code:ShaderCallKHR, then it must: only be used in ray generation,
//     intersection, closest hit, any-hit, miss, and callable
//     {ExecutionModel}" (-04640).
func (s *state) modelLimits(i int, out []modelLimit) []modelLimit {
	op := s.m.Insts[i].Op
	switch op {
	case spirv.OpKill, spirv.OpTerminateInvocation, spirv.OpDemoteToHelperInvocation, spirv.OpIsHelperInvocationEXT:
		out = append(out, models(op.String()+" requires Fragment execution model", fragmentOnly...))
	}
	k := op.Index()
	if k < 0 {
		return out
	}
	if f := familyLimits()[k]; f != nil {
		out = f(s, i, out)
	}
	if !s.env.vulkan || !scopeOpIndex()[k] {
		return out
	}
	r := s.rolesOf(i)
	if v, ok := s.known32(r.exec); ok && op == spirv.OpControlBarrier && spirv.Scope(v) != spirv.ScopeSubgroup {
		out = append(out, modelLimit{func(e entryPoint) bool { return !slices.Contains(subgroupBarrierModels, e.model) },
			"[VUID-StandaloneSpirv-OpControlBarrier-04682] in Vulkan environment, OpControlBarrier execution scope must be Subgroup for Fragment, Vertex, Geometry, TessellationEvaluation, RayGeneration, Intersection, AnyHit, ClosestHit, and Miss execution models"})
	}
	if v, ok := s.known32(r.exec); ok && spirv.Scope(v) == spirv.ScopeWorkgroup {
		out = append(out, models("[VUID-StandaloneSpirv-None-04637] in Vulkan environment, Workgroup execution scope is only for TaskNV, MeshNV, TaskEXT, MeshEXT, TessellationControl, and GLCompute execution models", workgroupModels...))
	}
	for _, m := range r.memScopes() {
		v, ok := s.known32(m)
		if !ok {
			continue
		}
		switch spirv.Scope(v) {
		case spirv.ScopeWorkgroup:
			out = append(out, models("[VUID-StandaloneSpirv-None-07321] Workgroup Memory Scope is limited to MeshNV, TaskNV, MeshEXT, TaskEXT, TessellationControl, and GLCompute execution model", workgroupModels...))
		case spirv.ScopeShaderCallKHR:
			out = append(out, models("[VUID-StandaloneSpirv-None-04640] ShaderCallKHR Memory Scope requires a ray tracing execution model", rayTracingModels...))
		}
	}
	return out
}

// checkCallGraphModels checks every instruction the entry point's call
// graph reaches against the entry point's execution model.
func (s *state) checkCallGraphModels(i int) {
	w := s.m.Insts[i].Words
	model := spirv.ExecutionModel(w[0])
	ep := entryPoint{w[1], model, s.modesOf(w[1])}
	var limits []modelLimit
	for _, f := range s.reachableFuncs(w[1]) {
		for k := f.Index + 1; k < f.End; k++ {
			limits = s.modelLimits(k, limits[:0])
			for _, l := range limits {
				if !l.ok(ep) {
					s.fail(k, "execution-model.limit", "%s, and entry point <id> '%d' (%s) reaches it through its call graph", l.msg, w[1], modelName(model))
					return
				}
			}
		}
	}
}

// modesOf returns the execution modes the module declares for the entry
// point fid.
func (s *state) modesOf(fid uint32) []spirv.ExecutionMode {
	var out []spirv.ExecutionMode
	for _, in := range s.layout.ExecutionModes {
		if len(in.Words) > 1 && in.Words[0] == fid {
			out = append(out, spirv.ExecutionMode(in.Words[1]))
		}
	}
	return out
}

// modeArg returns the first operand of the entry point fid's execution
// mode m, if the module declares it with OpExecutionMode.
func (s *state) modeArg(fid uint32, m spirv.ExecutionMode) (uint32, bool) {
	for _, in := range s.layout.ExecutionModes {
		if in.Op == spirv.OpExecutionMode && len(in.Words) > 2 && in.Words[0] == fid && spirv.ExecutionMode(in.Words[1]) == m {
			return in.Words[2], true
		}
	}
	return 0, false
}

func modelName(m spirv.ExecutionModel) string {
	if e := spirv.KindExecutionModel.Enumerant(uint32(m)); e != nil {
		return e.Name
	}
	return "unknown"
}

// modeModels lists, for the execution modes only some execution models
// take, those models and the words naming them ("Fragment"): each mode's
// description in SPIR-V 3.6 Execution Mode ("Fragment shader only",
// "Kernel only", the workgroup size of compute-like models; paraphrased,
// no local copy).
func modeModels() map[spirv.ExecutionMode]modeModel { return modeModelsLazy.Get() }

// modeModel is the models an execution mode takes and the words naming
// them.
type modeModel struct {
	models []spirv.ExecutionModel
	names  string
}

var modeModelsLazy = lazy.Value[map[spirv.ExecutionMode]modeModel]{F: func() map[spirv.ExecutionMode]modeModel {
	type entry = modeModel
	frag := entry{fragmentOnly, "Fragment"}
	kernel := entry{[]spirv.ExecutionModel{spirv.ExecutionModelKernel}, "Kernel"}
	m := map[spirv.ExecutionMode]entry{
		spirv.ExecutionModeQuadDerivativesKHR: {[]spirv.ExecutionModel{spirv.ExecutionModelFragment, spirv.ExecutionModelGLCompute}, "Fragment or GLCompute"},
		spirv.ExecutionModeLocalSize: {[]spirv.ExecutionModel{spirv.ExecutionModelKernel, spirv.ExecutionModelGLCompute, spirv.ExecutionModelTaskNV,
			spirv.ExecutionModelMeshNV, spirv.ExecutionModelTaskEXT, spirv.ExecutionModelMeshEXT}, "GLCompute, Kernel, MeshNV, TaskNV, MeshEXT or TaskEXT"},
	}
	m[spirv.ExecutionModeLocalSizeId] = m[spirv.ExecutionModeLocalSize]
	for _, md := range []spirv.ExecutionMode{spirv.ExecutionModePixelCenterInteger, spirv.ExecutionModeOriginUpperLeft,
		spirv.ExecutionModeOriginLowerLeft, spirv.ExecutionModeEarlyFragmentTests, spirv.ExecutionModeDepthReplacing,
		spirv.ExecutionModeDepthGreater, spirv.ExecutionModeDepthLess, spirv.ExecutionModeDepthUnchanged,
		spirv.ExecutionModeStencilRefReplacingEXT, spirv.ExecutionModePixelInterlockOrderedEXT,
		spirv.ExecutionModePixelInterlockUnorderedEXT, spirv.ExecutionModeSampleInterlockOrderedEXT,
		spirv.ExecutionModeSampleInterlockUnorderedEXT, spirv.ExecutionModeShadingRateInterlockOrderedEXT,
		spirv.ExecutionModeShadingRateInterlockUnorderedEXT, spirv.ExecutionModePostDepthCoverage,
		spirv.ExecutionModeRequireFullQuadsKHR} {
		m[md] = frag
	}
	for _, md := range []spirv.ExecutionMode{spirv.ExecutionModeLocalSizeHint, spirv.ExecutionModeVecTypeHint,
		spirv.ExecutionModeContractionOff, spirv.ExecutionModeLocalSizeHintId} {
		m[md] = kernel
	}
	return m
}}

// checkModeModels: an execution mode only some execution models take
// names entry points of those models only.
func (s *state) checkModeModels(i int) {
	w := s.m.Insts[i].Words
	mm, ok := modeModels()[spirv.ExecutionMode(w[1])]
	if !ok {
		return
	}
	for _, ep := range s.layout.EntryPoints {
		if ep.Words[1] == w[0] && !slices.Contains(mm.models, spirv.ExecutionModel(ep.Words[0])) {
			s.fail(i, "entry.mode-model", "Execution mode can only be used with the %s execution model.", mm.names)
			return
		}
	}
}

// checkLocalSize: a workgroup has at least one invocation, so no LocalSize
// dimension is zero (SPIR-V 3.6 Execution Mode LocalSize, paraphrased, no
// local copy). A constant decorated WorkgroupSize overrides LocalSize.
func (s *state) checkLocalSize(i int) {
	w := s.m.Insts[i].Words
	if spirv.ExecutionMode(w[1]) != spirv.ExecutionModeLocalSize || len(w) < 5 || slices.Min(w[2:5]) != 0 {
		return
	}
	for id, ds := range s.decor {
		for _, d := range ds {
			if d.dec == spirv.DecorationBuiltIn && len(d.args) > 0 && spirv.BuiltIn(d.args[0]) == spirv.BuiltInWorkgroupSize && s.isConst(id) {
				return
			}
		}
	}
	s.fail(i, "entry.local-size.zero", "Local Size execution mode must not have a product of zero (X = %d, Y = %d, Z = %d).", w[2], w[3], w[4])
}

// checkExecutionModeID: OpExecutionModeId's operands are <id>s of
// constant instructions (SPIR-V 3.56.6 OpExecutionModeId, paraphrased, no
// local copy: "Operands that are <id>s must be ... constant instructions").
func (s *state) checkExecutionModeID(i int) {
	in := &s.m.Insts[i]
	for _, o := range s.operands(i)[1:] {
		if !isIDKind(o.Kind) {
			continue
		}
		for k := 0; k < o.Count; k++ {
			if !s.isConst(in.Words[o.Offset+k]) {
				s.fail(i, "entry.mode-id.constant", "For OpExecutionModeId all Extra Operand ids must be constant instructions.")
				return
			}
		}
	}
	// OpacityMicromapIdKHR (SPV_KHR_opacity_micromap, paraphrased, no
	// local copy) says whether the ray tracing stage uses opacity
	// micromaps: a Boolean constant.
	if len(in.Words) > 2 && spirv.ExecutionMode(in.Words[1]) == spirv.ExecutionModeOpacityMicromapIdKHR && !s.valueType(in.Words[2]).is(spirv.OpTypeBool) {
		s.fail(i, "entry.mode-id.opacity-micromap", "OpacityMicromapIdKHR's operand must be an <id> of a constant instruction of OpTypeBool.")
	}
}
