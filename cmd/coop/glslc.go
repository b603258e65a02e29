package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/coopshader/coop/glsl/compile"
	"github.com/coopshader/coop/glsl/pp"
)

func init() {
	commands["glslc"] = command{"compile a GLSL compute shader taking glslc's flags (for build systems that call glslc)", runGlslc}
}

const glslcUsage = `usage: coop glslc [flags] FILE

Compiles one GLSL compute shader to SPIR-V taking the glslc (shaderc) flags
build systems use, so that coop can stand in for glslc (llama.cpp's
vulkan-shaders-gen --glslc, for one). As in glslc, #include works without
an #extension line.
  -o FILE                  output file (default a.spv)
  -c                       compile only (the default; accepted)
  -fshader-stage=compute   shader stage (inferred from the extension otherwise)
  --target-env=ENV         vulkan1.0 (default) .. vulkan1.4, or vulkan (1.0)
  --target-spv=spvX.Y      SPIR-V version of the output
  -DNAME[=VALUE]           define a macro
  -I DIR, -IDIR            add an include directory
  -fentry-point=NAME       entry point name
  -fauto-bind-uniforms     give resources without a binding the next free one
  -g                       emit debug information
  -O, -Os, -O0             accepted; coop writes unoptimized SPIR-V
  -MD, -MF FILE, -MT NAME  also write a make dependency file (default FILE.d)
  -x glsl                  source language (GLSL only)
  -w                       print no warnings`

type glslcArgs struct {
	opts               compile.Options
	in, out            string
	quiet, deps        bool
	depFile, depTarget string
}

func parseGlslcArgs(args []string) (*glslcArgs, error) {
	a := &glslcArgs{out: "a.spv"}
	value := func(i *int, flag string) (string, error) { return flagValue(args, i, flag) }
	for i := 0; i < len(args); i++ {
		arg := args[i]
		var err error
		switch {
		case arg == "-c" || arg == "-O" || arg == "-Os" || arg == "-O0":
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
	if err != nil {
		fmt.Fprintf(stderr, "coop glslc: %v\n\n%s\n", err, glslcUsage)
		return 2
	}
	src, err := readInput(a.in)
	if err != nil {
		fmt.Fprintf(stderr, "coop glslc: %v\n", err)
		return 1
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
	m, d := compile.Compile(a.in, src, a.opts)
	if msg := d.Error(); msg != "" && (m == nil || !a.quiet) {
		fmt.Fprintln(stderr, msg)
	}
	if m == nil {
		return 1
	}
	spv, err := m.Encode()
	if err == nil {
		err = writeOutput(a.out, spv, stdout)
	}
	if err == nil && a.deps {
		err = os.WriteFile(a.depFile, []byte(makeDeps(a.depTarget, append([]string{a.in}, included...))), 0o644)
	}
	if err != nil {
		fmt.Fprintf(stderr, "coop glslc: %v\n", err)
		return 1
	}
	return 0
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
