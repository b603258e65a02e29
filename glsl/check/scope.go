package check

import (
	"sort"

	"github.com/coopshader/coop/internal/lazy"

	"github.com/coopshader/coop/glsl/pp"
	"github.com/coopshader/coop/spirv"
)

// symbol is what a name denotes in a scope.
type symbol struct {
	v     *Var
	funcs []*Func
	typ   *Type // struct or block type name
}

type scope struct {
	parent *scope
	syms   map[string]*symbol
}

func (c *checker) push() { c.scope = &scope{parent: c.scope, syms: map[string]*symbol{}} }
func (c *checker) pop()  { c.scope = c.scope.parent }

func (c *checker) lookup(name string) *symbol {
	for s := c.scope; s != nil; s = s.parent {
		if sym, ok := s.syms[name]; ok {
			return sym
		}
	}
	return nil
}

// declare binds name in the innermost scope; redefinition in the same scope
// is an error (function overloads are added by declareFunc).
func (c *checker) declare(name string, pos Pos, sym *symbol) {
	if name == "" {
		return
	}
	if _, dup := c.scope.syms[name]; dup {
		c.errorf(pos, name, "redefinition")
		return
	}
	c.scope.syms[name] = sym
}

func (c *checker) errorf(pos Pos, tok, format string, args ...any) {
	c.d.Errorf(pos, tok, format, args...)
}

func (c *checker) warnf(pos Pos, tok, format string, args ...any) {
	c.d.Warnf(pos, tok, format, args...)
}

// extOn reports whether ext was enabled by #extension (enable, require or
// warn) or implied by an enabled extension.
func (c *checker) extOn(ext string) bool { return c.allExt || c.exts[ext] }

// extAnyOn reports whether any of exts is on (true for an empty list).
func (c *checker) extAnyOn(exts []string) bool {
	if len(exts) == 0 {
		return true
	}
	for _, e := range exts {
		if c.extOn(e) {
			return true
		}
	}
	return false
}

// requireExt reports use of a feature without its extension, in glslang's
// words, and returns whether it was enabled.
func (c *checker) requireExt(pos Pos, feature string, exts ...string) bool {
	if c.extAnyOn(exts) {
		return true
	}
	if len(exts) == 1 {
		c.errorf(pos, feature, "required extension not requested: %s", exts[0])
	} else {
		msg := "required extension not requested:"
		for _, e := range exts {
			msg += " " + e
		}
		c.errorf(pos, feature, "%s", msg)
	}
	return false
}

// impliedExts lists extensions that enabling a key extension turns on.
var impliedExts = lazy.Value[map[string][]string]{F: func() map[string][]string {
	return map[string][]string{
		"GL_KHR_shader_subgroup_vote":             {"GL_KHR_shader_subgroup_basic"},
		"GL_KHR_shader_subgroup_arithmetic":       {"GL_KHR_shader_subgroup_basic"},
		"GL_KHR_shader_subgroup_ballot":           {"GL_KHR_shader_subgroup_basic"},
		"GL_KHR_shader_subgroup_shuffle":          {"GL_KHR_shader_subgroup_basic"},
		"GL_KHR_shader_subgroup_shuffle_relative": {"GL_KHR_shader_subgroup_basic"},
		"GL_KHR_shader_subgroup_clustered":        {"GL_KHR_shader_subgroup_basic"},
		"GL_KHR_shader_subgroup_quad":             {"GL_KHR_shader_subgroup_basic"},
		"GL_KHR_shader_subgroup_rotate":           {"GL_KHR_shader_subgroup_basic"},
		"GL_NV_shader_subgroup_partitioned":       {"GL_KHR_shader_subgroup_basic"},
		"GL_EXT_buffer_reference2":                {"GL_EXT_buffer_reference"},
		"GL_EXT_buffer_reference_uvec2":           {"GL_EXT_buffer_reference"},
		"GL_EXT_shader_explicit_arithmetic_types": {
			"GL_EXT_shader_explicit_arithmetic_types_int8", "GL_EXT_shader_explicit_arithmetic_types_int16",
			"GL_EXT_shader_explicit_arithmetic_types_int32", "GL_EXT_shader_explicit_arithmetic_types_int64",
			"GL_EXT_shader_explicit_arithmetic_types_float16", "GL_EXT_shader_explicit_arithmetic_types_float32",
			"GL_EXT_shader_explicit_arithmetic_types_float64"},
		"GL_NV_cooperative_matrix2":              {"GL_KHR_cooperative_matrix"},
		"GL_NV_cooperative_matrix_decode_vector": {"GL_NV_cooperative_matrix2"},
	}
}}

// extensionDirective applies one #extension directive. Behaviours warn,
// enable and require turn the extension (and what it implies) on; disable
// turns it off again.
func (c *checker) extensionDirective(e pp.Extension) {
	if e.Name == "all" {
		c.allExt = e.Behavior == pp.Warn
		if e.Behavior == pp.Disable {
			clear(c.exts)
		}
		return
	}
	if e.Behavior == pp.Disable {
		delete(c.exts, e.Name)
		return
	}
	if min, ok := minSPIRV.Get()[e.Name]; ok && (e.Behavior == pp.Enable || e.Behavior == pp.Require) {
		if v, known := spirv.TargetVersion(c.opts.TargetEnv); known && v < min {
			c.errorf(e.Pos, e.Name, "not supported for current targeted SPIR-V version")
		}
	}
	c.enableExt(e.Name)
}

// minSPIRV are the extensions that need a newer SPIR-V than 1.0, as
// glslang requires them (cooperative matrix 2 needs SPIR-V 1.6).
var minSPIRV = lazy.Value[map[string]spirv.Version]{F: func() map[string]spirv.Version {
	return map[string]spirv.Version{
		"GL_NV_cooperative_matrix2":              spirv.MakeVersion(1, 6),
		"GL_NV_cooperative_matrix_decode_vector": spirv.MakeVersion(1, 6),
		"GL_EXT_ray_tracing":                     spirv.MakeVersion(1, 4),
		"GL_NV_ray_tracing_motion_blur":          spirv.MakeVersion(1, 4),
		"GL_EXT_mesh_shader":                     spirv.MakeVersion(1, 4),
	}
}}

// enableExt turns ext on with everything it implies.
func (c *checker) enableExt(ext string) {
	if c.exts[ext] {
		return
	}
	c.exts[ext] = true
	for _, e := range impliedExts.Get()[ext] {
		c.enableExt(e)
	}
}

func (c *checker) extensionList() []string {
	out := make([]string, 0, len(c.exts))
	for e := range c.exts {
		out = append(out, e)
	}
	sort.Strings(out)
	return out
}
