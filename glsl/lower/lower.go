// Package lower translates a checked GLSL compute shader (glsl/check) into
// a SPIR-V module (spirv.Builder). It follows glslang's choices where the
// SPIR-V is otherwise free (buffers in the Uniform class with BufferBlock
// before SPIR-V 1.3, function parameters passed by pointer, booleans stored
// as uint in blocks), so modules can be compared with glslang's.
package lower

import (
	"fmt"
	"sort"
	"strings"

	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/spirv"
)

// Options control code generation.
type Options struct {
	// TargetEnv is "vulkan1.0".."vulkan1.4" or "spirv1.0".."spirv1.6"
	// (default vulkan1.0).
	TargetEnv string
	// EntryPoint names the entry point (default "main").
	EntryPoint string
	// Debug emits OpSource with the source text and OpName for every
	// variable and function (glslangValidator -g).
	Debug bool
	// DebugInfo emits NonSemantic.Shader.DebugInfo.100 instead of OpSource
	// and OpLine (glslangValidator -gV); DebugInfoSource adds the source
	// texts to it (-gVS).
	DebugInfo, DebugInfoSource bool
	SourceFile                 string
	Source                     string
	// Includes are the files #include read, with their text, for -g.
	Includes []SourceFile
	// AutoMapBindings: descriptors without a binding get one later
	// (compile.AutoMapBindings); otherwise tensors and acceleration
	// structures without one get binding 0, as glslang gives them.
	AutoMapBindings bool
}

// SourceFile is a file's name and text.
type SourceFile struct {
	Name, Text string
}

// Generator is coop's SPIR-V generator word: tool id 0 (unregistered) in
// the high half, version 1 in the low half.
const Generator = 0x00000001

// Error is a lowering failure at a source position.
type Error struct {
	Pos check.Pos
	Msg string
}

func (e *Error) Error() string {
	return fmt.Sprintf("ERROR: %s:%d: '' : %s", e.Pos.File, e.Pos.Line, e.Msg)
}

// bailout carries an *Error out of deep recursion.
type bailout struct{ err *Error }

// Lower generates the module for p.
func Lower(p *check.Program, opts Options) (m *spirv.Module, err error) {
	ver, ok := spirv.TargetVersion(opts.TargetEnv)
	if !ok {
		return nil, fmt.Errorf("unknown target environment %q", opts.TargetEnv)
	}
	if opts.EntryPoint == "" {
		opts.EntryPoint = "main"
	}
	if p.Main == nil {
		return nil, fmt.Errorf("missing entry point: the shader has no main()")
	}
	g := newGen(reachable(p), opts, ver)
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bailout)
			if !ok {
				// A bug here must not take the caller down with it.
				m, err = nil, fmt.Errorf("internal error in the code generator: %v", r)
				return
			}
			m, err = nil, b.err
		}
	}()
	g.run()
	m = g.diPointers(g.b.Module())
	narrowCaps(m)
	return m, nil
}

// gen is the state of one Lower call.
type gen struct {
	p    *check.Program
	opts Options
	ver  spirv.Version
	b    *spirv.Builder
	glsl uint32 // GLSL.std.450 import, 0 until used
	// vmm: code follows the Vulkan memory model; storageBuffer: buffers
	// are StorageBuffer-class Block variables (see scanProgram).
	vmm, storageBuffer bool

	types map[string]uint32 // type key (with packing) to id
	// specLens are the ids of specialization-constant array lengths.
	specLens map[check.Expr]uint32
	vars     map[*check.Var]*varInfo
	funcs    map[*check.Func]uint32
	// callbacks are the functions named as decode, combine or element
	// callbacks; they take their parameters by value.
	callbacks map[*check.Func]bool
	fnTypes   map[*check.Func]uint32
	iface     []uint32 // entry point interface
	ifaceOK   map[uint32]bool

	privateInits []*check.Var // Private globals initialised at the start of main
	heaps        *heapState   // descriptor heaps, once one is used
	// depthTextures are the textures combined with a samplerShadow.
	depthTextures map[*check.Var]bool

	// pos is the source position of what is being lowered; firstUse the
	// position where each capability and extension was first declared.
	pos check.Pos
	// lines is the -g line information state; di the -gV state (nil
	// without -gV).
	lines    lineState
	di       *diState
	firstUse map[string]check.Pos

	// Function state.
	fn         *check.Func
	terminated bool // the current block has its terminator
	breaks     []uint32
	continues  []uint32
}

// varInfo is how a variable is reached: a pointer id in a storage class,
// with the packing its type was laid out with.
type varInfo struct {
	id     uint32
	sc     spirv.StorageClass
	pk     check.Packing
	t      *check.Type
	bool32 bool // bools stored as uint (explicitly laid out memory)
	// value: id is the value itself, not a pointer (parameters of
	// functions passed as callbacks, which take their arguments by value).
	value bool
	// heap: the variable is laid over a descriptor heap (heap.go).
	heap *heapRoot
	// format and depth complete the type of a sampler, texture or image
	// variable: its format qualifier, and whether a texture is a depth
	// image (see findDepthTextures).
	format string
	depth  bool
}

func newGen(p *check.Program, opts Options, ver spirv.Version) *gen {
	return &gen{p: p, opts: opts, ver: ver, b: spirv.NewBuilder(ver, Generator),
		types: map[string]uint32{}, specLens: map[check.Expr]uint32{}, vars: map[*check.Var]*varInfo{}, funcs: map[*check.Func]uint32{},
		fnTypes: map[*check.Func]uint32{}, ifaceOK: map[uint32]bool{}}
}

func (g *gen) fail(pos check.Pos, format string, args ...any) {
	panic(bailout{&Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}})
}

func (g *gen) glslSet() uint32 {
	if g.glsl == 0 {
		g.glsl = g.b.ExtInstImport("GLSL.std.450")
	}
	return g.glsl
}

func (g *gen) run() {
	g.firstUse = map[string]check.Pos{}
	g.b.Added = func(c spirv.Capability, ext string) {
		key := ext
		if ext == "" {
			key = capKey(c)
		}
		if _, ok := g.firstUse[key]; !ok {
			g.firstUse[key] = g.pos
		}
	}
	g.b.Capability(spirv.CapabilityShader)
	g.b.Replicate = g.p.ReplicatedComposites
	g.scanProgram()
	g.depthTextures = findDepthTextures(g.p)
	if g.opts.DebugInfo {
		g.diInit()
	} else if g.opts.Debug {
		g.lines.files = map[string]uint32{}
		g.b.BeforeEmit = g.beforeEmit
		g.debugSource()
	}
	// The workgroup size's constants come first: Workgroup-scope
	// cooperative matrix types must follow the LocalSizeId operands they
	// depend on.
	if g.p.LocalSizeSpec != [3]int{-1, -1, -1} {
		for i, sid := range g.p.LocalSizeSpec {
			g.uintConstOrSpec(g.p.LocalSize[i], sid)
		}
	}
	for _, v := range g.p.Globals {
		g.global(v)
	}
	described := map[*check.Var]bool{}
	g.diGlobals(described)
	g.aliasSharedBlocks()
	for _, v := range g.p.Globals {
		if vi := g.vars[v]; vi != nil && len(v.SpirvDecorations) > 0 {
			g.spirvDecorate(vi.id, v.SpirvDecorations)
		}
	}
	g.callbacks = findCallbacks(g.p)
	// Declare every function first so calls may precede definitions.
	for _, f := range g.p.Funcs {
		g.funcs[f] = g.b.ID()
	}
	for _, f := range g.p.Funcs {
		g.function(f)
	}
	g.diGlobals(described) // built-ins first used in functions
	mainID := g.funcs[g.p.Main]
	sort.Slice(g.iface, func(i, j int) bool { return g.iface[i] < g.iface[j] })
	g.b.EntryPoint(spirv.ExecutionModelGLCompute, mainID, g.opts.EntryPoint, g.iface...)
	g.localSize(mainID)
	g.derivatives(mainID)
	g.pragmaModes(mainID)
	g.spirvExecutionModes(mainID)
	g.rayModes(mainID)
	g.memoryModel()
	g.checkVersionNeeds()
}

// aliasSharedBlocks decorates shared blocks (GL_EXT_shared_memory_block)
// Aliased when there are several: they overlay the same workgroup memory
// (WorkgroupMemoryExplicitLayoutKHR), as glslang marks them.
func (g *gen) aliasSharedBlocks() {
	var ids []uint32
	for _, v := range g.p.Globals {
		if vi := g.vars[v]; vi != nil && v.Storage == check.StorageShared && baseOfArrays(v.Type).Kind == check.KStruct && baseOfArrays(v.Type).Struct.Block {
			ids = append(ids, vi.id)
		}
	}
	if len(ids) > 1 {
		for _, id := range ids {
			g.b.Decorate(id, spirv.DecorationAliased)
		}
	}
}

// pragmaModes declares what glslang's pragmas use_variable_pointers and
// shader_64bit_indexing ask for.
func (g *gen) pragmaModes(mainID uint32) {
	if g.p.VariablePointers {
		g.b.Capability(spirv.CapabilityVariablePointers)
	}
	if g.p.Shader64BitIndexing {
		g.b.Capability(spirv.CapabilityShader64BitIndexingEXT)
		g.b.Extension("SPV_EXT_shader_64bit_indexing")
		g.b.ExecutionMode(mainID, spirv.ExecutionModeShader64BitIndexingEXT)
	}
}

// derivatives declares the compute-derivative execution mode
// (GL_KHR/NV_compute_shader_derivatives).
func (g *gen) derivatives(mainID uint32) {
	switch g.p.DerivativeGroup {
	case "derivative_group_quadskhr", "derivative_group_quadsnv":
		g.b.Capability(spirv.CapabilityComputeDerivativeGroupQuadsKHR)
		g.b.ExecutionMode(mainID, spirv.ExecutionModeDerivativeGroupQuadsKHR)
	case "derivative_group_linearkhr", "derivative_group_linearnv":
		g.b.Capability(spirv.CapabilityComputeDerivativeGroupLinearKHR)
		g.b.ExecutionMode(mainID, spirv.ExecutionModeDerivativeGroupLinearKHR)
	default:
		return
	}
	if strings.HasSuffix(g.p.DerivativeGroup, "nv") {
		g.b.Extension("SPV_NV_compute_shader_derivatives")
	} else {
		g.b.Extension("SPV_KHR_compute_shader_derivatives")
	}
}

func (g *gen) debugSource() {
	words := []uint32{uint32(spirv.SourceLanguageGLSL), uint32(g.p.Version)}
	if g.opts.SourceFile == "" {
		g.b.Add(spirv.SecDebugString, spirv.OpSource, words...)
		return
	}
	// glslang records how the module was made in comments before the text.
	text := "// OpModuleProcessed client vulkan100\n// OpModuleProcessed target-env " + g.opts.TargetEnv +
		"\n// OpModuleProcessed entry-point " + g.opts.EntryPoint + "\n#line 1\n" + g.opts.Source
	g.sourceText(words, g.opts.SourceFile, text)
	for _, inc := range g.opts.Includes {
		g.sourceText(words, inc.Name, inc.Text)
	}
}

// sourceText writes an OpSource for one file with its text, continued in
// OpSourceContinued instructions past an instruction's 65535 words.
func (g *gen) sourceText(words []uint32, name, text string) {
	const chunk = 65535*4 - 64
	words = append(words[:len(words):len(words)], g.lineFile(name))
	first := text[:min(len(text), chunk)]
	g.b.Add(spirv.SecDebugString, spirv.OpSource, spirv.AppendString(words, first)...)
	for rest := text[len(first):]; rest != ""; {
		part := rest[:min(len(rest), chunk)]
		g.b.Add(spirv.SecDebugString, spirv.OpSourceContinued, spirv.AppendString(nil, part)...)
		rest = rest[len(part):]
	}
}

func (g *gen) localSize(mainID uint32) {
	ls, spec := g.p.LocalSize, g.p.LocalSizeSpec
	if rate := g.p.TileShadingRate; spec[0] < 0 && spec[1] < 0 && spec[2] < 0 && rate != [3]int{} {
		// GL_QCOM_tile_shading: glslang declares the tile shading rate in
		// place of the workgroup size.
		for i := range rate {
			rate[i] = max(rate[i], 1)
		}
		g.b.Capability(spirv.CapabilityTileShadingQCOM)
		g.b.Extension("SPV_QCOM_tile_shading")
		g.b.ExecutionMode(mainID, spirv.ExecutionModeTileShadingRateQCOM, uint32(rate[0]), uint32(rate[1]), uint32(rate[2]))
		return
	}
	if spec[0] < 0 && spec[1] < 0 && spec[2] < 0 {
		g.b.ExecutionMode(mainID, spirv.ExecutionModeLocalSize, uint32(ls[0]), uint32(ls[1]), uint32(ls[2]))
		return
	}
	// LocalSizeId exists from SPIR-V 1.2, but Vulkan accepts it below 1.6
	// only with maintenance4; glslang keeps it for 1.6 and so do we.
	if g.ver >= 0x10600 {
		ids := make([]uint32, 3)
		for i := range ids {
			ids[i] = g.uintConstOrSpec(ls[i], spec[i])
		}
		g.b.ExecutionModeId(mainID, spirv.ExecutionModeLocalSizeId, ids...)
		return
	}
	// Before SPIR-V 1.6: a WorkgroupSize built-in spec-constant composite.
	g.b.ExecutionMode(mainID, spirv.ExecutionModeLocalSize, uint32(ls[0]), uint32(ls[1]), uint32(ls[2]))
	g.workgroupSizeConst()
}

// workgroupSizeConst returns the WorkgroupSize constant (a spec-constant
// composite when local_size_*_id is used), decorated BuiltIn WorkgroupSize.
func (g *gen) workgroupSizeConst() uint32 {
	key := "wgsize"
	if id, ok := g.types[key]; ok {
		return id
	}
	ls, spec := g.p.LocalSize, g.p.LocalSizeSpec
	u := g.scalarType(check.Uint32)
	comps := make([]uint32, 3)
	anySpec := false
	for i := range comps {
		comps[i] = g.uintConstOrSpec(ls[i], spec[i])
		anySpec = anySpec || spec[i] >= 0
	}
	v3 := g.b.TypeVector(u, 3)
	var id uint32
	if anySpec {
		id = g.b.ID()
		g.b.Add(spirv.SecGlobal, spirv.OpSpecConstantComposite, v3, id, comps[0], comps[1], comps[2])
	} else {
		id = g.b.Const(spirv.OpConstantComposite, v3, comps...)
	}
	g.b.Decorate(id, spirv.DecorationBuiltIn, uint32(spirv.BuiltInWorkgroupSize))
	g.types[key] = id
	return id
}

// workgroupSize is gl_WorkGroupSize, or one of its spec-constant
// components.
func (g *gen) workgroupSize(v *check.Var) uint32 {
	if v.Type.Kind == check.KScalar {
		return g.uintConstOrSpec(int(v.Value.Int()), v.SpecID)
	}
	return g.workgroupSizeConst()
}

// uintConstOrSpec is a uint constant, or a workgroup-size spec constant
// with SpecId sid. As in glslang, it is not shared with a constant_id
// constant of the same id, whose default may differ: both take the value
// the pipeline specializes, but unspecialized the size is local_size_*.
func (g *gen) uintConstOrSpec(v, sid int) uint32 {
	u := g.scalarType(check.Uint32)
	if sid < 0 {
		return g.b.ConstUint32(u, uint32(v))
	}
	key := fmt.Sprintf("wgspec%d", sid)
	if id, ok := g.types[key]; ok {
		return id
	}
	id := g.b.ID()
	g.b.Add(spirv.SecGlobal, spirv.OpSpecConstant, u, id, uint32(v))
	g.b.Decorate(id, spirv.DecorationSpecId, uint32(sid))
	g.types[key] = id
	return id
}
