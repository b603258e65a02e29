// Package compile drives the GLSL compiler: preprocess, parse, check and
// lower one compute shader to a SPIR-V module, with the options of
// glslangValidator that build scripts use.
package compile

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/glsl/diag"
	"github.com/coopshader/coop/glsl/lower"
	"github.com/coopshader/coop/glsl/pp"
	"github.com/coopshader/coop/glsl/syntax"
	"github.com/coopshader/coop/glsl/token"
	"github.com/coopshader/coop/spirv"
)

// Options are the compiler settings of one shader.
type Options struct {
	// TargetEnv is "vulkan1.0" (default, as glslangValidator -V) to
	// "vulkan1.4", or "spirv1.0" to "spirv1.6".
	TargetEnv   string
	Defines     []pp.Define // -D
	Undefs      []string    // -U
	IncludeDirs []string    // -I
	EntryPoint  string      // -e: the entry point's name in the module (default "main")
	Debug       bool        // -g: OpSource with the text (and each included file's), OpLine
	StripDebug  bool        // -g0: no OpName, OpMemberName, OpSource, OpLine (debug instructions)
	// DebugInfo (-gV) writes NonSemantic.Shader.DebugInfo.100 instead of
	// OpSource and OpLine; DebugInfoSource (-gVS) adds the source texts.
	DebugInfo, DebugInfoSource bool
	// ReadFile reads #include files (nil: os.ReadFile).
	ReadFile func(path string) ([]byte, error)
	// IncludeDirective enables #include without an #extension line, as
	// glslc does.
	IncludeDirective bool
	// AutoMapBindings gives descriptors without layout(binding=) one
	// (glslangValidator's --auto-map-bindings, see AutoMapBindings);
	// without it they are errors, as in glslang.
	AutoMapBindings bool
}

// TargetEnvs lists the accepted --target-env values.
var TargetEnvs = []string{"vulkan1.0", "vulkan1.1", "vulkan1.2", "vulkan1.3", "vulkan1.4",
	"spirv1.0", "spirv1.1", "spirv1.2", "spirv1.3", "spirv1.4", "spirv1.5", "spirv1.6"}

// Compile compiles the compute shader src (named name in diagnostics).
// The returned list holds every diagnostic, warnings included; the module
// is nil when there was an error.
func Compile(name string, src []byte, opts Options) (*spirv.Module, *diag.List) {
	d := &diag.List{MaxErrors: 1000}
	if opts.TargetEnv == "" {
		opts.TargetEnv = "vulkan1.0"
	}
	if !validTargetEnv(opts.TargetEnv) {
		d.Errorf(diagPos(name), opts.TargetEnv, "unknown target environment; expected one of %s", strings.Join(TargetEnvs, ", "))
		return nil, d
	}
	pre := pp.Preprocess(name, src, pp.Options{
		Defines:     opts.Defines,
		Undefs:      opts.Undefs,
		IncludeDirs: opts.IncludeDirs,
		ReadFile:    opts.ReadFile,
		Vulkan:      true,

		IncludeDirective: opts.IncludeDirective,
	}, d)
	if d.HasErrors() {
		return nil, d
	}
	f := syntax.Parse(pre.Tokens, d)
	if d.HasErrors() {
		return nil, d
	}
	prog := check.Check(pre, f, check.Options{Vulkan: true, TargetEnv: opts.TargetEnv, AutoMapBindings: opts.AutoMapBindings}, d)
	if d.HasErrors() {
		return nil, d
	}
	m, err := lower.Lower(prog, lower.Options{
		TargetEnv:       opts.TargetEnv,
		EntryPoint:      opts.EntryPoint,
		Debug:           opts.Debug,
		DebugInfo:       opts.DebugInfo || opts.DebugInfoSource,
		DebugInfoSource: opts.DebugInfoSource,
		SourceFile:      name,
		AutoMapBindings: opts.AutoMapBindings,
		Source:          string(src),
		Includes:        includeSources(pre),
	})
	if err != nil {
		// A code-generator error carries its source position; reporting it
		// as such keeps one glslang-style line per error.
		if le, ok := err.(*lower.Error); ok {
			d.Errorf(le.Pos, "", "%s", le.Msg)
		} else {
			d.Errorf(diagPos(name), "", "%v", err)
		}
		return nil, d
	}
	if opts.AutoMapBindings {
		AutoMapBindings(m)
	}
	if opts.StripDebug {
		stripDebug(m)
	}
	return m, d
}

// Words compiles and encodes the module as SPIR-V words.
func Words(name string, src []byte, opts Options) ([]uint32, error) {
	m, d := Compile(name, src, opts)
	if m == nil {
		return nil, d
	}
	return m.Words()
}

func validTargetEnv(s string) bool {
	for _, t := range TargetEnvs {
		if s == t {
			return true
		}
	}
	return false
}

func diagPos(name string) token.Pos { return token.Pos{File: name, Line: 0} }

// StageOf infers the shader stage from a file name as glslangValidator
// does: the last extension (".comp"), or the one before a trailing
// ".glsl" or ".hlsl". Only "comp" is supported by coop.
func StageOf(name string) (string, error) {
	base := filepath.Base(name)
	ext := strings.TrimPrefix(filepath.Ext(base), ".")
	if ext == "glsl" || ext == "hlsl" {
		base = strings.TrimSuffix(base, "."+ext)
		ext = strings.TrimPrefix(filepath.Ext(base), ".")
	}
	switch ext {
	case "comp":
		return "comp", nil
	case "vert", "tesc", "tese", "geom", "frag", "mesh", "task", "rgen", "rint", "rahit", "rchit", "rmiss", "rcall":
		return ext, fmt.Errorf("%s: stage %q is not supported: coop compiles compute shaders only", name, ext)
	}
	return "", fmt.Errorf("%s: cannot infer the shader stage from the file name; use -S comp", name)
}

// includeSources lists each file #include read once, with its text, for
// -g's OpSource.
func includeSources(pre *pp.Result) []lower.SourceFile {
	var out []lower.SourceFile
	for i, name := range pre.Includes {
		if !slices.ContainsFunc(out, func(f lower.SourceFile) bool { return f.Name == name }) {
			out = append(out, lower.SourceFile{Name: name, Text: pre.IncludeTexts[i]})
		}
	}
	return out
}

// DebugFlag applies a debug-information flag of glslangValidator's to
// opts: -g (OpSource with the text, OpLine), -gV (NonSemantic.Shader.DebugInfo.100),
// -gVS (the same with the source texts) or -g0 (no debug instructions,
// names included); it reports false for any other argument.
func DebugFlag(arg string, opts *Options) bool {
	switch arg {
	case "-g":
		opts.Debug, opts.StripDebug = true, false
	case "-g0":
		opts.Debug, opts.StripDebug, opts.DebugInfo, opts.DebugInfoSource = false, true, false, false
	case "-gV":
		opts.DebugInfo, opts.StripDebug = true, false
	case "-gVS":
		opts.DebugInfo, opts.DebugInfoSource, opts.StripDebug = true, true, false
	default:
		return false
	}
	return true
}

// stripDebug removes the debug instructions (names, sources, lines,
// module-processed notes) and the strings only they used; strings that
// other instructions name (DebugPrintf formats) stay.
func stripDebug(m *spirv.Module) {
	debug := func(op spirv.Op) bool {
		switch op {
		case spirv.OpName, spirv.OpMemberName, spirv.OpSource, spirv.OpSourceContinued, spirv.OpSourceExtension,
			spirv.OpModuleProcessed, spirv.OpLine, spirv.OpNoLine:
			return true
		}
		return false
	}
	used := map[uint32]bool{}
	for _, in := range m.Insts {
		if !debug(in.Op) && in.Op != spirv.OpString {
			for _, w := range in.Words {
				used[w] = true
			}
		}
	}
	m.Insts = slices.DeleteFunc(m.Insts, func(in spirv.Inst) bool {
		return debug(in.Op) || in.Op == spirv.OpString && len(in.Words) > 0 && !used[in.Words[0]]
	})
}
