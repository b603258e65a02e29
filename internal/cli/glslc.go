package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/coopshader/coop/glsl/compile"
	"github.com/coopshader/coop/glsl/pp"
	"github.com/coopshader/coop/spirv"
	"github.com/coopshader/coop/spirv/text"
)

const glslcUsage = `usage: coop glslc [flags] FILE

Compiles one GLSL compute shader to SPIR-V taking the glslc (shaderc) flags
build systems use, before or after the file, so that coop can stand in for
glslc (llama.cpp's vulkan-shaders-gen --glslc, for one). As in glslc,
#include works without an #extension line. docs/TOOLS.md lists every flag.
  -o FILE                  output file (default FILE.spv with -c, FILE.spvasm
                           with -S, standard output with -E, else a.spv)
  -c                       compile only (output FILE.spv by default)
  -S                       write SPIR-V assembly (spirv-dis's text)
  -E                       write the preprocessed source
  -M, -MM                  write the make dependencies instead of compiling
  -MD, -MF FILE, -MT NAME  also write a make dependency file (default OUT.d)
  -mfmt=bin|num|c          binary output: bytes, hexadecimal words (four to a
                           line), or a C initializer list of them
  -fshader-stage=compute   shader stage (inferred from the extension otherwise)
  --target-env=ENV         vulkan1.0 (default) .. vulkan1.4, or vulkan (1.0)
  --target-spv=spvX.Y      SPIR-V version of the output
  -std=VER[core]           the GLSL version of a shader without #version
  -DNAME[=VALUE]           define a macro
  -I DIR, -IDIR            add an include directory
  -fentry-point=NAME       entry point name
  -fauto-bind-uniforms     give resources without a binding the next free one
  -g                       emit debug information
  -O, -Os, -O0             accepted; coop writes unoptimized SPIR-V
  -x glsl                  source language (GLSL only)
  -w                       print no warnings
  -Werror                  treat warnings as errors
  --version                print the version
Exit status 1 when the shader does not compile or a file cannot be read or
written, 2 for bad flags.`

type glslcArgs struct {
	opts               compile.Options
	in, out            string
	quiet, werror      bool
	deps               bool // -MD
	depsOnly           bool // -M, -MM
	compileOnly        bool // -c
	asm, preprocess    bool // -S, -E
	mfmt               string
	std                string
	depFile, depTarget string
}

func parseGlslcArgs(args []string) (*glslcArgs, error) {
	a := &glslcArgs{mfmt: "bin"}
	value := func(i *int, flag string) (string, error) { return flagValue(args, i, flag) }
	for i := 0; i < len(args); i++ {
		arg := args[i]
		var err error
		switch {
		case arg == "--version":
			return nil, errVersion
		case arg == "-O" || arg == "-Os" || arg == "-O0":
		case arg == "-c":
			a.compileOnly = true
		case arg == "-S":
			a.asm = true
		case arg == "-E":
			a.preprocess = true
		case arg == "-M" || arg == "-MM":
			a.depsOnly = true
		case arg == "-Werror":
			a.werror = true
		case strings.HasPrefix(arg, "-mfmt="):
			a.mfmt = strings.TrimPrefix(arg, "-mfmt=")
			if a.mfmt != "bin" && a.mfmt != "num" && a.mfmt != "c" {
				return nil, fmt.Errorf("%s: want -mfmt=bin, num or c", arg)
			}
		case strings.HasPrefix(arg, "-std="):
			a.std = strings.TrimPrefix(arg, "-std=")
			v := strings.TrimSuffix(a.std, "core")
			if n, e := strconv.Atoi(v); e != nil || n < 100 {
				return nil, fmt.Errorf("%s: want a desktop GLSL version such as 450 or 460core (coop compiles Vulkan compute shaders)", arg)
			}
		case arg == "-x":
			var lang string
			if lang, err = value(&i, arg); err == nil && lang != "glsl" {
				err = fmt.Errorf("-x %s: coop compiles GLSL only", lang)
			}
		case arg == "-o":
			a.out, err = value(&i, arg)
		case strings.HasPrefix(arg, "-fshader-stage="):
			if st := strings.TrimPrefix(arg, "-fshader-stage="); st != "compute" && st != "comp" {
				return nil, fmt.Errorf("%s: coop compiles compute shaders only", arg)
			}
		case strings.HasPrefix(arg, "--target-env="):
			a.opts.TargetEnv = strings.TrimPrefix(arg, "--target-env=")
			if a.opts.TargetEnv == "vulkan" {
				a.opts.TargetEnv = "vulkan1.0"
			}
		case strings.HasPrefix(arg, "--target-spv=spv"):
			a.opts.TargetEnv = "spirv" + strings.TrimPrefix(arg, "--target-spv=spv")
		case strings.HasPrefix(arg, "-D") && len(arg) > 2:
			name, val, _ := strings.Cut(arg[2:], "=")
			a.opts.Defines = append(a.opts.Defines, pp.Define{Name: name, Value: val})
		case arg == "-I":
			var dir string
			dir, err = value(&i, arg)
			a.opts.IncludeDirs = append(a.opts.IncludeDirs, dir)
		case strings.HasPrefix(arg, "-I"):
			a.opts.IncludeDirs = append(a.opts.IncludeDirs, arg[2:])
		case strings.HasPrefix(arg, "-fentry-point="):
			a.opts.EntryPoint = strings.TrimPrefix(arg, "-fentry-point=")
		case arg == "-fauto-bind-uniforms":
			a.opts.AutoMapBindings = true
		case arg == "-g":
			a.opts.Debug = true
		case arg == "-w":
			a.quiet = true
		case arg == "-MD":
			a.deps = true
		case arg == "-MF":
			a.depFile, err = value(&i, arg)
		case arg == "-MT":
			a.depTarget, err = value(&i, arg)
		case arg == "-" || !strings.HasPrefix(arg, "-"):
			if a.in != "" {
				return nil, fmt.Errorf("more than one input (%s, %s): coop glslc compiles one file", a.in, arg)
			}
			a.in = arg
		default:
			return nil, fmt.Errorf("unknown flag %s", arg)
		}
		if err != nil {
			return nil, err
		}
	}
	if a.in == "" {
		return nil, fmt.Errorf("no input file")
	}
	// glslc names outputs after the input's base name, less its
	// extension unless that names the stage (k.comp gives k.comp.spv,
	// k.glsl k.spv).
	base := filepath.Base(a.in)
	if ext := filepath.Ext(base); ext != ".comp" {
		base = strings.TrimSuffix(base, ext)
	}
	if a.depsOnly {
		// -M writes the rule for what -c would write, to -MF's file or
		// standard output.
		if a.depTarget == "" {
			a.depTarget = a.out
		}
		if a.depTarget == "" {
			a.depTarget = base + ".spv"
		}
		a.out = a.depFile
		if a.out == "" {
			a.out = "-"
		}
	}
	if a.out == "" {
		// glslc's defaults, named after the input's base name.
		switch {
		case a.preprocess:
			a.out = "-"
		case a.asm:
			a.out = base + ".spvasm"
		case a.compileOnly:
			a.out = base + ".spv"
		default:
			a.out = "a.spv"
		}
	}
	if a.depFile == "" {
		a.depFile = a.out + ".d"
	}
	if a.depTarget == "" {
		a.depTarget = a.out
	}
	a.opts.IncludeDirective = true
	return a, nil
}

func runGlslc(args []string, stdout, stderr io.Writer) int {
	for _, a := range args {
		if a == "-h" || a == "--help" {
			fmt.Fprintln(stdout, glslcUsage)
			return 0
		}
	}
	a, err := parseGlslcArgs(args)
	if err == errVersion {
		printVersion(stdout, "coop glslc")
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "coop glslc: %v\n\n%s\n", err, glslcUsage)
		return 2
	}
	src, err := readInput(a.in)
	if err != nil {
		fmt.Fprintf(stderr, "coop glslc: %v\n", err)
		return 1
	}
	if a.std != "" && !bytes.Contains(src, []byte("#version")) {
		// The version of a shader that names none; #line keeps its lines.
		v := strings.TrimSuffix(a.std, "core")
		src = append([]byte("#version "+v+"\n#line 1\n"), src...)
	}
	// The files #include read, for the dependency file.
	var included []string
	a.opts.ReadFile = func(path string) ([]byte, error) {
		b, err := os.ReadFile(path)
		if err == nil {
			included = append(included, path)
		}
		return b, err
	}
	deps := func() []byte { return []byte(makeDeps(a.depTarget, append([]string{a.in}, included...))) }
	if a.preprocess || a.depsOnly {
		text, d := compile.Preprocess(a.in, src, a.opts)
		if msg := d.Error(); msg != "" && (text == nil || !a.quiet && !a.depsOnly) {
			fmt.Fprintln(stderr, msg)
		}
		if text == nil {
			return 1
		}
		if a.depsOnly {
			text = deps()
		}
		if err := writeOutput(a.out, text, stdout); err != nil {
			fmt.Fprintf(stderr, "coop glslc: %v\n", err)
			return 1
		}
		return 0
	}
	m, d := compile.Compile(a.in, src, a.opts)
	if msg := d.Error(); msg != "" && (m == nil || !a.quiet || a.werror) {
		fmt.Fprintln(stderr, msg)
	}
	if m == nil {
		return 1
	}
	if a.werror && len(d.Diags) > 0 {
		fmt.Fprintf(stderr, "coop glslc: %d warnings treated as errors (-Werror)\n", len(d.Diags))
		return 1
	}
	out, err := glslcOutput(a, m)
	if err == nil {
		err = writeOutput(a.out, out, stdout)
	}
	if err == nil && a.deps {
		err = os.WriteFile(a.depFile, deps(), 0o644)
	}
	if err != nil {
		fmt.Fprintf(stderr, "coop glslc: %v\n", err)
		return 1
	}
	return 0
}

// glslcOutput is the module as -S, -mfmt and the default ask.
func glslcOutput(a *glslcArgs, m *spirv.Module) ([]byte, error) {
	if a.asm {
		return text.Disassemble(m, text.Options{})
	}
	if a.mfmt == "bin" {
		return m.Encode()
	}
	words, err := m.Words()
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	if a.mfmt == "c" {
		b.WriteString("{")
	}
	for i, w := range words {
		if i > 0 {
			b.WriteString(",")
			if i%4 == 0 { // four words a line, as glslc
				b.WriteString("\n")
			}
		}
		fmt.Fprintf(&b, "0x%08x", w)
	}
	if a.mfmt == "c" {
		b.WriteString("}")
	}
	b.WriteString("\n")
	return []byte(b.String()), nil
}

// makeDeps is a make rule: target depends on files (each once, in order,
// spaces escaped).
func makeDeps(target string, files []string) string {
	var b strings.Builder
	b.WriteString(strings.ReplaceAll(target, " ", `\ `) + ":")
	seen := map[string]bool{}
	for _, f := range files {
		f = filepath.Clean(f)
		if !seen[f] {
			seen[f] = true
			b.WriteString(" " + strings.ReplaceAll(f, " ", `\ `))
		}
	}
	b.WriteString("\n")
	return b.String()
}
