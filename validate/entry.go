package validate

import (
	"slices"

	"github.com/coopshader/coop/spirv"
)

// checkEntryPoints: an entry point is a function returning void with no
// parameters; names are unique per execution model; execution modes name
// entry points; a Vulkan compute entry point has a workgroup size; from
// SPIR-V 1.4 the interface lists every global variable the entry point's
// call tree references (SPIR-V 3.56.4 OpEntryPoint, Vulkan 15.1).
func (s *state) checkEntryPoints() {
	type key struct {
		model uint32
		name  string
	}
	seen := map[key]bool{}
	modes := map[uint32][]spirv.ExecutionMode{}
	for i := range s.m.Insts {
		in := &s.m.Insts[i]
		if in.Op == spirv.OpExecutionMode || in.Op == spirv.OpExecutionModeId {
			if !s.isEntryPoint(in.Words[0]) {
				s.fail(i, "entry.mode", "%s Entry Point <id> '%d' is not the Entry Point operand of an OpEntryPoint.", in.Op, in.Words[0])
				return
			}
			modes[in.Words[0]] = append(modes[in.Words[0]], spirv.ExecutionMode(in.Words[1]))
		}
	}
	wgSizeBuiltin := false
	for id, ds := range s.decor {
		for _, d := range ds {
			if d.dec == spirv.DecorationBuiltIn && len(d.args) > 0 && spirv.BuiltIn(d.args[0]) == spirv.BuiltInWorkgroupSize && s.isConst(id) {
				wgSizeBuiltin = true
			}
		}
	}
	for i := range s.m.Insts {
		in := &s.m.Insts[i]
		if in.Op != spirv.OpEntryPoint {
			continue
		}
		fid := in.Words[1]
		f := s.funcOf[fid]
		if f == nil {
			s.fail(i, "entry.function", "OpEntryPoint Entry Point <id> '%d' is not a function.", fid)
			return
		}
		ft := s.types[f.Type]
		if !s.types[ft.Elem].is(spirv.OpTypeVoid) {
			s.fail(i, "entry.function", "OpEntryPoint Entry Point <id> '%d's function return type is not void.", fid)
			return
		}
		if len(ft.Members) != 0 {
			s.fail(i, "entry.function", "OpEntryPoint Entry Point <id> '%d's function parameter count is not zero.", fid)
			return
		}
		name, n, _ := in.String(2)
		k := key{in.Words[0], name}
		if seen[k] {
			s.fail(i, "entry.name", "2 Entry points cannot share the same name and ExecutionMode.")
			return
		}
		seen[k] = true
		s.entry = append(s.entry, fid)
		model := spirv.ExecutionModel(in.Words[0])
		if s.env.vulkan && model == spirv.ExecutionModelGLCompute && !wgSizeBuiltin &&
			!slices.Contains(modes[fid], spirv.ExecutionModeLocalSize) && !slices.Contains(modes[fid], spirv.ExecutionModeLocalSizeId) &&
			!slices.Contains(modes[fid], spirv.ExecutionModeTileShadingRateQCOM) {
			s.fail(i, "vulkan.local-size", "In the Vulkan environment, GLCompute execution model entry points require either the LocalSize or LocalSizeId execution mode or an object decorated with WorkgroupSize must be specified.")
			return
		}
		iface := in.Words[2+n:]
		for _, v := range iface {
			vi := s.defInst(v)
			if vi == nil || vi.Op != spirv.OpVariable && vi.Op != spirv.OpUntypedVariableKHR {
				s.fail(i, "entry.interface", "Interfaces passed to OpEntryPoint must be variables. Found Op%s.", vi.Op.String()[2:])
				return
			}
			if spirv.StorageClass(vi.Words[2]) == spirv.StorageClassFunction {
				s.fail(i, "entry.interface", "OpEntryPoint interfaces must be OpVariables with Storage Class of Input(1) or Output(3). Found Storage Class 7 for Entry Point id %d.", fid)
				return
			}
		}
		if s.m.Version >= spirv.MakeVersion(1, 4) {
			for _, v := range s.globalsUsed(fid) {
				if !slices.Contains(iface, v) {
					s.fail(i, "entry.interface", "Interface variable id <%d> is used by entry point '%s' id <%d>, but is not listed as an interface", v, name, fid)
					return
				}
			}
		}
	}
}

func (s *state) isEntryPoint(id uint32) bool {
	for i := range s.layout.EntryPoints {
		if s.layout.EntryPoints[i].Words[1] == id {
			return true
		}
	}
	return false
}

// callees returns the functions f names (calls and the function operands
// of the cooperative matrix 2 instructions), in order. Callers must not
// modify the list: it is kept for the next call.
func (s *state) callees(f *Func) []*Func {
	if f.calleesKnown {
		return f.callees
	}
	var out []*Func
	seen := map[*Func]bool{}
	for i := f.Index + 1; i < f.End; i++ {
		in := &s.m.Insts[i]
		for _, o := range s.operands(i) {
			if o.Kind != spirv.KindIdRef {
				continue
			}
			for k := 0; k < o.Count; k++ {
				if g := s.funcOf[in.Words[o.Offset+k]]; g != nil && !seen[g] {
					seen[g] = true
					out = append(out, g)
				}
			}
		}
	}
	f.callees, f.calleesKnown = out, true
	return out
}

// reachableFuncs returns the functions reachable from fid, fid first.
func (s *state) reachableFuncs(fid uint32) []*Func {
	f := s.funcOf[fid]
	if f == nil {
		return nil
	}
	out := []*Func{f}
	seen := map[*Func]bool{f: true}
	for k := 0; k < len(out); k++ {
		for _, g := range s.callees(out[k]) {
			if !seen[g] {
				seen[g] = true
				out = append(out, g)
			}
		}
	}
	return out
}

// globalsUsed lists the global variables the call tree of fid references,
// in order of first use. Callers must not modify the list: it is kept
// for the next call (the interface and storage passes both ask).
func (s *state) globalsUsed(fid uint32) []uint32 {
	if out, ok := s.globals[fid]; ok || len(s.funcs) == 0 {
		return out
	}
	var out []uint32
	// seen is by defining instruction: globals precede the functions.
	seen := make([]bool, s.funcs[0].Index)
	for _, f := range s.reachableFuncs(fid) {
		for i := f.Index + 1; i < f.End; i++ {
			in := &s.m.Insts[i]
			for _, o := range s.operands(i) {
				if !isIDKind(o.Kind) {
					continue
				}
				for k := 0; k < o.Count; k++ {
					id := in.Words[o.Offset+k]
					if j := s.defIndex(id); j >= 0 && j < s.funcs[0].Index && !seen[j] {
						if d := &s.m.Insts[j]; d.Op == spirv.OpVariable || d.Op == spirv.OpUntypedVariableKHR {
							seen[j] = true
							out = append(out, id)
						}
					}
				}
			}
		}
	}
	if s.globals == nil {
		s.globals = map[uint32][]uint32{}
	}
	s.globals[fid] = out
	return out
}

// checkExecutionModes: the workgroup-size modes belong to the models that
// have workgroups (SPIR-V 3.6 Execution Mode: LocalSize, LocalSizeId
// "Kernel, GLCompute, MeshEXT, TaskEXT" and their NV forms), and in Vulkan
// the compute derivative groups fit the workgroup: "the first two
// dimensions of the local workgroup size must be a multiple of two"
// (VUID-StandaloneSpirv-DerivativeGroupQuadsKHR-10151), "the product of
// the dimensions of the local workgroup size must be a multiple of four"
// (VUID-StandaloneSpirv-DerivativeGroupLinearKHR-10152).
func (s *state) checkExecutionModes() {
	models := map[uint32][]spirv.ExecutionModel{}
	for _, in := range s.layout.EntryPoints {
		models[in.Words[1]] = append(models[in.Words[1]], spirv.ExecutionModel(in.Words[0]))
	}
	local := map[uint32][]uint32{}
	for i := range s.m.Insts {
		in := &s.m.Insts[i]
		if in.Op != spirv.OpExecutionMode && in.Op != spirv.OpExecutionModeId {
			continue
		}
		fn, mode := in.Words[0], spirv.ExecutionMode(in.Words[1])
		switch mode {
		case spirv.ExecutionModeLocalSize, spirv.ExecutionModeLocalSizeId,
			spirv.ExecutionModeDerivativeGroupQuadsKHR, spirv.ExecutionModeDerivativeGroupLinearKHR:
			for _, m := range models[fn] {
				switch m {
				case spirv.ExecutionModelKernel, spirv.ExecutionModelGLCompute, spirv.ExecutionModelTaskNV,
					spirv.ExecutionModelMeshNV, spirv.ExecutionModelTaskEXT, spirv.ExecutionModelMeshEXT:
				default:
					s.fail(i, "entry.mode.model", "Execution mode can only be used with a Kernel, GLCompute, MeshNV, MeshEXT, TaskNV or TaskEXT execution model.")
					return
				}
			}
		}
		if mode == spirv.ExecutionModeLocalSize && len(in.Words) >= 5 {
			local[fn] = in.Words[2:5]
		}
	}
	if !s.env.vulkan {
		return
	}
	// A constant decorated WorkgroupSize overrides LocalSize (GLSL's
	// specialization-constant sizes before LocalSizeId): spirv-val then
	// leaves the derivative groups unchecked, and so does this.
	for id, ds := range s.decor {
		for _, d := range ds {
			if d.dec == spirv.DecorationBuiltIn && len(d.args) > 0 && spirv.BuiltIn(d.args[0]) == spirv.BuiltInWorkgroupSize && s.isConst(id) {
				return
			}
		}
	}
	for i := range s.m.Insts {
		in := &s.m.Insts[i]
		if in.Op != spirv.OpExecutionMode {
			continue
		}
		l := local[in.Words[0]]
		if l == nil {
			continue
		}
		switch spirv.ExecutionMode(in.Words[1]) {
		case spirv.ExecutionModeDerivativeGroupQuadsKHR:
			if l[0]%2 != 0 || l[1]%2 != 0 {
				s.fail(i, "vulkan.derivative-group", "[VUID-StandaloneSpirv-DerivativeGroupQuadsKHR-10151] Local Size execution mode dimensions is (X = %d, Y = %d) but Entry Point id %d also has an DerivativeGroupQuadsKHR execution mode, so both dimensions must be a multiple of 2", l[0], l[1], in.Words[0])
				return
			}
		case spirv.ExecutionModeDerivativeGroupLinearKHR:
			if p := uint64(l[0]) * uint64(l[1]) * uint64(l[2]); p%4 != 0 {
				s.fail(i, "vulkan.derivative-group", "[VUID-StandaloneSpirv-DerivativeGroupLinearKHR-10152] Local Size execution mode dimensions is (X = %d, Y = %d, Z = %d) but Entry Point id %d also has an DerivativeGroupLinearKHR execution mode, so the product (%d) must be a multiple of 4", l[0], l[1], l[2], in.Words[0], p)
				return
			}
		}
	}
}
