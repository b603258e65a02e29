package check

import (
	"github.com/coopshader/coop/glsl/diag"
	"github.com/coopshader/coop/glsl/pp"
	"github.com/coopshader/coop/glsl/syntax"
	"github.com/coopshader/coop/glsl/token"
	"github.com/coopshader/coop/spirv"
)

// Options selects the target of a Check.
type Options struct {
	// Vulkan checks with Vulkan semantics (glslang's -V): uniforms outside
	// blocks must be opaque, push_constant blocks are allowed.
	Vulkan bool
	// TargetEnv names the target environment, e.g. "vulkan1.3": some
	// extensions need a minimum SPIR-V version.
	TargetEnv string
	// AutoMapBindings accepts descriptors without layout(binding=)
	// (glslangValidator's --auto-map-bindings); otherwise, for Vulkan,
	// they are errors, as in glslang.
	AutoMapBindings bool
}

// Check type-checks a preprocessed and parsed compute shader, adding its
// diagnostics to d, and returns the typed program. The Program is complete
// (see the package comment) only when d gained no error; with errors it
// holds whatever could be checked and must not be lowered.
func Check(src *pp.Result, f *syntax.File, opts Options, d *diag.List) *Program {
	version, es := 100, false
	if src != nil {
		version, es = src.Version, src.Profile == "es"
	}
	c := newChecker(version, es, d)
	c.opts = opts
	if src != nil {
		for _, e := range src.Extensions {
			c.extensionDirective(e)
			c.khrDerivatives = c.khrDerivatives || e.Name == "GL_KHR_compute_shader_derivatives"
			if e.Name == "GL_ARB_compute_shader" && e.Behavior != pp.Disable && c.arbCompute == nil {
				c.arbCompute = &e.Pos
			}
		}
		if n := len(src.Tokens); n > 0 {
			c.end = src.Tokens[n-1].Pos
		}
	}
	c.prog.Extensions = c.extensionList()
	if src != nil {
		c.computeVersion(src)
	}
	if src != nil {
		for _, pr := range src.Pragmas {
			c.pragma(pr)
		}
	}
	if f != nil {
		c.file(f)
	}
	c.finish()
	return c.prog
}

// checker holds the state of one Check call.
type checker struct {
	prog   *Program
	d      *diag.List
	opts   Options
	exts   map[string]bool
	allExt bool // "#extension all : warn"
	scope  *scope

	builtinUsed map[BuiltinVar]*Var
	refTypes    map[string]*Type
	// blockDefaults are the layout qualifiers of default declarations such
	// as "layout(std430) buffer;", by storage.
	blockDefaults map[string][]layoutItem

	fn *Func // function being checked
	// returnsValue: the function being checked has a "return expr;".
	returnsValue bool
	loops        int // enclosing loops
	breaks       int // enclosing loops and switches

	// calls is the static call graph (callbacks passed to built-ins count
	// as calls); callPos is where each function was first called.
	calls   map[*Func][]*Func
	callPos map[*Func]Pos
	// derivativePos is where the compute-derivative layout was declared.
	derivativePos Pos
	// khrDerivatives: the shader names GL_KHR_compute_shader_derivatives in
	// an #extension, which then needs a KHR derivative layout
	// (khrDerivativeLayout) somewhere; end is where the source ends.
	khrDerivatives, khrDerivativeLayout bool
	end                                 Pos
	// arbCompute is where #extension GL_ARB_compute_shader first turns
	// the extension on (a 420 shader needs it before its local size).
	arbCompute *Pos
	// localSizeSet: a local_size_* layout has been declared so far.
	localSizeSet bool
	// implicitArrays are unsized arrays that take their size from the
	// largest constant index used (-1: none yet), fixed by finish.
	implicitArrays map[*Type]int64
}

func newChecker(version int, es bool, d *diag.List) *checker {
	loadTables()
	if d == nil {
		d = &diag.List{}
	}
	c := &checker{
		prog:          &Program{Version: version, ES: es, LocalSize: [3]int{1, 1, 1}, LocalSizeSpec: [3]int{-1, -1, -1}, PragmaPos: map[string]Pos{}},
		d:             d,
		exts:          map[string]bool{},
		builtinUsed:   map[BuiltinVar]*Var{},
		refTypes:      map[string]*Type{},
		blockDefaults: map[string][]layoutItem{},
		calls:         map[*Func][]*Func{},
		callPos:       map[*Func]Pos{},

		implicitArrays: map[*Type]int64{},
	}
	c.push()
	return c
}

// computeVersion reports the versions that have no compute shaders, in
// glslang's words: a shader without #version is ES 100.
func (c *checker) computeVersion(src *pp.Result) {
	pos := src.VersionPos
	if !src.HasVersion && len(src.Tokens) > 0 {
		pos = token.Pos{File: src.Tokens[0].Pos.File, Line: 1, Col: 1}
	}
	es := src.Profile == "es" || !src.HasVersion
	switch {
	case es && src.Version < 310, !es && src.Version < 420:
		c.errorf(pos, "#version", "compute shaders require es profile with version 310 or above, or non-es profile with version 420 or above")
	case !es && src.Version < 430:
		c.requireExt(pos, "compute shaders", "GL_ARB_compute_shader")
	}
}

// pragma applies the SPIR-V pragmas glslang knows; others are ignored, as
// in glslang.
func (c *checker) pragma(pr pp.Pragma) {
	if len(pr.Tokens) == 0 {
		return
	}
	var set *bool
	switch pr.Tokens[0].Text {
	case "use_vulkan_memory_model":
		set = &c.prog.VulkanMemoryModel
	case "use_storage_buffer":
		set = &c.prog.StorageBuffer
	case "use_variable_pointers":
		set = &c.prog.VariablePointers
		c.requireSPIRV(pr.Pos, "#pragma use_variable_pointers", spirv.MakeVersion(1, 3))
	case "use_replicated_composites":
		set = &c.prog.ReplicatedComposites
	case "promote_uint32_indices":
		set = &c.prog.PromoteUint32Indices
	case "shader_64bit_indexing":
		set = &c.prog.Shader64BitIndexing
	default:
		return
	}
	if len(pr.Tokens) != 1 {
		c.errorf(pr.Pos, "#pragma", "extra tokens")
		return
	}
	*set = true
	c.prog.PragmaPos[pr.Tokens[0].Text] = pr.Pos
}

// requireSPIRV reports a feature the target's SPIR-V version is too old
// for, in glslang's words.
func (c *checker) requireSPIRV(pos Pos, feature string, min spirv.Version) bool {
	if v, ok := spirv.TargetVersion(c.opts.TargetEnv); ok && v < min {
		c.errorf(pos, feature, "requires SPIR-V %s", min)
		return false
	}
	return true
}
