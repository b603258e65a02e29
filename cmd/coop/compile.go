package main

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/coopshader/coop/glsl/compile"
	"github.com/coopshader/coop/glsl/pp"
)

func init() {
	commands["compile"] = command{"compile GLSL compute shaders to SPIR-V (glslangValidator flags)", runCompile}
}

const compileUsage = `usage: coop compile [flags] FILE...

Compiles GLSL compute shaders to SPIR-V. Accepts the glslangValidator flags
build scripts use:
  -V                   produce SPIR-V for Vulkan (the default; accepted for compatibility)
  -o FILE              output file (default: comp.spv for one input, FILE.spv for several)
  -D<name>[=value]     define a macro (empty when no value is given, as glslangValidator)
  -U<name>             undefine a macro
  -I<dir>              add an include directory
  -S comp              shader stage (inferred from the file extension otherwise)
  --target-env ENV     vulkan1.0 (default) .. vulkan1.4, spirv1.0 .. spirv1.6
  --amb, --auto-map-bindings
                       give resources without a binding the next free one
  -g, -g0              emit (or omit) debug information
  -e NAME              entry point name
  --quiet, -q          print nothing but errors
  -                    read the shader from standard input (needs -S comp)
Several inputs are compiled in parallel; output is byte-identical for the same input.`

type compileArgs struct {
	opts    compile.Options
	out     string
	stage   string
	quiet   bool
	inputs  []string
	defines []pp.Define
}

func parseCompileArgs(args []string) (*compileArgs, error) {
	a := &compileArgs{}
	value := func(i *int, flag string) (string, error) { return flagValue(args, i, flag) }
	for i := 0; i < len(args); i++ {
		arg := args[i]
		var err error
		switch {
		case arg == "-V" || arg == "-V100":
		case arg == "-o":
			a.out, err = value(&i, arg)
		case arg == "-S":
			a.stage, err = value(&i, arg)
		case arg == "-e" || arg == "--entry-point":
			a.opts.EntryPoint, err = value(&i, arg)
		case arg == "--target-env":
			a.opts.TargetEnv, err = value(&i, arg)
		case strings.HasPrefix(arg, "--target-env="):
			a.opts.TargetEnv = strings.TrimPrefix(arg, "--target-env=")
		case arg == "--amb" || arg == "--auto-map-bindings":
			a.opts.AutoMapBindings = true
		case arg == "-g":
			a.opts.Debug = true
		case arg == "-g0":
			a.opts.Debug = false
		case arg == "--quiet" || arg == "-q":
			a.quiet = true
		case strings.HasPrefix(arg, "-D") && len(arg) > 2:
			name, val, _ := strings.Cut(arg[2:], "=")
			a.defines = append(a.defines, pp.Define{Name: name, Value: val})
		case strings.HasPrefix(arg, "-U") && len(arg) > 2:
			a.opts.Undefs = append(a.opts.Undefs, arg[2:])
		case strings.HasPrefix(arg, "-I") && len(arg) > 2:
			a.opts.IncludeDirs = append(a.opts.IncludeDirs, arg[2:])
		case arg == "-" || !strings.HasPrefix(arg, "-"):
			a.inputs = append(a.inputs, arg)
		default:
			return nil, fmt.Errorf("unknown flag %s", arg)
		}
		if err != nil {
			return nil, err
		}
	}
	a.opts.Defines = a.defines
	if len(a.inputs) == 0 {
		return nil, fmt.Errorf("no input file")
	}
	if a.out != "" && len(a.inputs) > 1 {
		return nil, fmt.Errorf("-o names one output but %d inputs were given", len(a.inputs))
	}
	if a.stage != "" && a.stage != "comp" {
		return nil, fmt.Errorf("-S %s: coop compiles compute shaders only (-S comp)", a.stage)
	}
	return a, nil
}

// compiled is one input's outcome, kept in input order so output does not
// depend on scheduling.
type compiled struct {
	spv   []byte
	diags string
	err   error
}

func runCompile(args []string, stdout, stderr io.Writer) int {
	for _, a := range args {
		if a == "-h" || a == "--help" {
			fmt.Fprintln(stdout, compileUsage)
			return 0
		}
	}
	a, err := parseCompileArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "coop compile: %v\n\n%s\n", err, compileUsage)
		return 2
	}
	results := make([]compiled, len(a.inputs))
	var wg sync.WaitGroup
	for i, in := range a.inputs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = compileOne(a, in)
		}()
	}
	wg.Wait()
	status := 0
	for i, r := range results {
		if r.diags != "" && (r.err != nil || !a.quiet) {
			fmt.Fprintln(stderr, r.diags)
		}
		if r.err != nil {
			if r.diags == "" {
				fmt.Fprintf(stderr, "coop compile: %v\n", r.err)
			}
			status = 1
			continue
		}
		out := a.out
		if out == "" {
			out = "comp.spv"
			if len(a.inputs) > 1 {
				out = a.inputs[i] + ".spv"
			}
		}
		if err := writeOutput(out, r.spv, stdout); err != nil {
			fmt.Fprintf(stderr, "coop compile: %v\n", err)
			status = 1
		}
	}
	return status
}

func compileOne(a *compileArgs, in string) compiled {
	if a.stage == "" {
		if in == "-" {
			return compiled{err: fmt.Errorf("standard input needs -S comp")}
		}
		if _, err := compile.StageOf(in); err != nil {
			return compiled{err: err}
		}
	}
	src, err := readInput(in)
	if err != nil {
		return compiled{err: err}
	}
	name := in
	if in == "-" {
		name = "stdin"
	}
	m, d := compile.Compile(name, src, a.opts)
	r := compiled{diags: d.Error()}
	if m == nil {
		r.err = d
		return r
	}
	r.spv, r.err = m.Encode()
	return r
}
