package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/coopshader/coop/glsl/compile"
	"github.com/coopshader/coop/glsl/pp"
	"github.com/coopshader/coop/spirv/text"
	"github.com/coopshader/coop/validate"
)

const compileUsage = `usage: coop compile [flags] FILE...

Compiles GLSL compute shaders to SPIR-V. Accepts the glslangValidator flags
build scripts use, before or after the files (docs/TOOLS.md lists them all):
  -V                   produce SPIR-V for Vulkan (the default; accepted)
  -o FILE              output file (default: comp.spv for one input, FILE.spv for several)
  -x                   write the SPIR-V as text: 32-bit hexadecimal words
  --vn NAME, --variable-name NAME
                       write a C header with a uint32_t array NAME of the words
  -E                   print the preprocessed source to standard output
  -H                   also print the SPIR-V as text (spirv-dis's form, not glslang's)
  -D<name>[=value]     define a macro (empty when no value is given, as glslangValidator);
                       also --D, --define-macro NAME[=value]
  -U<name>             undefine a macro (also --U, --undef-macro NAME)
  -I<dir>              add an include directory
  -S comp              shader stage (inferred from the file extension otherwise)
  --target-env ENV     vulkan1.0 (default) .. vulkan1.4, spirv1.0 .. spirv1.6
  --amb, --auto-map-bindings
                       give resources without a binding the next free one
  -g, -g0              emit (or omit) debug information: OpSource with the text, OpLine
  -gV, -gVS            emit NonSemantic.Shader.DebugInfo.100 debug information instead
                       (-gVS: with the source text)
  -e NAME              entry point name
  --depfile FILE       write a make dependency file
  --stdin              read the shader from standard input (needs -S comp); so does -
  --quiet, -w          print nothing but errors
  -O, -Os, -Od, -l, -t accepted: coop writes unoptimized SPIR-V, one module per file, in parallel
  --version, -v        print the version
  --spirv-val          validate the module with coop's validator (as spirv-val); an
                       invalid module is an error
Several inputs are compiled in parallel; output is byte-identical for the same input.
Exit status 2 when a shader does not compile (as glslangValidator), 1 when a
file cannot be read or written, 2 for bad flags.`

type compileArgs struct {
	opts       compile.Options
	out        string
	stage      string
	quiet      bool
	hex        bool   // -x
	varName    string // --vn
	preprocess bool   // -E
	human      bool   // -H
	validate   bool   // --spirv-val
	envGiven   bool
	depFile    string
	inputs     []string
	defines    []pp.Define
}

// errVersion asks for the version line.
var errVersion = errors.New("version")

func parseCompileArgs(args []string) (*compileArgs, error) {
	a := &compileArgs{}
	value := func(i *int, flag string) (string, error) { return flagValue(args, i, flag) }
	define := func(d string) {
		name, val, _ := strings.Cut(d, "=")
		a.defines = append(a.defines, pp.Define{Name: name, Value: val})
	}
	for i := 0; i < len(args); i++ {
		arg := args[i]
		var err error
		var v string
		switch {
		case arg == "-V" || arg == "-V100":
		case arg == "-O" || arg == "-Os" || arg == "-Od" || arg == "-l" || arg == "--no-link" || arg == "-t":
		case arg == "--version" || arg == "-v" || arg == "-dumpversion" || arg == "-dumpfullversion":
			return nil, errVersion
		case arg == "-o":
			a.out, err = value(&i, arg)
		case arg == "-x":
			a.hex = true
		case arg == "--vn" || arg == "--variable-name":
			a.varName, err = value(&i, arg)
		case arg == "-E":
			a.preprocess = true
		case arg == "-H":
			a.human = true
		case arg == "-S":
			a.stage, err = value(&i, arg)
		case arg == "-e" || arg == "--entry-point":
			a.opts.EntryPoint, err = value(&i, arg)
		case arg == "--target-env":
			a.opts.TargetEnv, err = value(&i, arg)
			a.envGiven = true
		case strings.HasPrefix(arg, "--target-env="):
			a.opts.TargetEnv = strings.TrimPrefix(arg, "--target-env=")
			a.envGiven = true
		case arg == "--amb" || arg == "--auto-map-bindings" || arg == "--auto-map-binding":
			a.opts.AutoMapBindings = true
		case compile.DebugFlag(arg, &a.opts):
		case arg == "--quiet" || arg == "-w" || arg == "--suppress-warnings":
			a.quiet = true
		case arg == "-q":
			return nil, fmt.Errorf("-q (glslangValidator's reflection dump) is not supported; --quiet prints nothing but errors")
		case arg == "--spirv-val":
			a.validate = true
		case arg == "--depfile":
			a.depFile, err = value(&i, arg)
		case arg == "--stdin":
			a.inputs = append(a.inputs, "-")
		case arg == "--D" || arg == "--define-macro":
			if v, err = value(&i, arg); err == nil {
				define(v)
			}
		case arg == "--U" || arg == "--undef-macro":
			if v, err = value(&i, arg); err == nil {
				a.opts.Undefs = append(a.opts.Undefs, v)
			}
		case strings.HasPrefix(arg, "-D") && len(arg) > 2:
			define(arg[2:])
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
	if a.out != "" && len(a.inputs) > 1 && !a.preprocess {
		return nil, fmt.Errorf("-o names one output but %d inputs were given", len(a.inputs))
	}
	if a.depFile != "" && len(a.inputs) > 1 {
		return nil, fmt.Errorf("--depfile names one dependency file but %d inputs were given", len(a.inputs))
	}
	if a.stage != "" && a.stage != "comp" {
		return nil, fmt.Errorf("-S %s: coop compiles compute shaders only (-S comp)", a.stage)
	}
	return a, nil
}

// compiled is one input's outcome, kept in input order so output does not
// depend on scheduling.
type compiled struct {
	out      []byte // what is written: the module, its text form, or preprocessed source
	human    []byte // -H's disassembly
	diags    string
	hint     string
	included []string
	err      error
	status   int // exit status when err is set
}

func runCompile(args []string, stdout, stderr io.Writer) int {
	for _, a := range args {
		if a == "-h" || a == "--help" {
			fmt.Fprintln(stdout, compileUsage)
			return 0
		}
	}
	a, err := parseCompileArgs(args)
	if err == errVersion {
		printVersion(stdout, "coop compile")
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "coop compile: %v\n\n%s\n", err, compileUsage)
		return 2
	}
	prog := newProgress(stderr)
	if len(a.inputs) > 1 {
		prog.begin(fmt.Sprintf("compiling %d files", len(a.inputs)), "files", uint64(len(a.inputs)))
	}
	results := make([]compiled, len(a.inputs))
	var wg sync.WaitGroup
	var done sync.Mutex
	finished := uint64(0)
	for i, in := range a.inputs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = compileOne(a, in)
			done.Lock()
			finished++
			prog.set(finished)
			done.Unlock()
		}()
	}
	wg.Wait()
	prog.close()
	status := 0
	for i, r := range results {
		if r.diags != "" && (r.err != nil || !a.quiet) {
			fmt.Fprintln(stderr, r.diags)
		}
		if r.hint != "" {
			fmt.Fprintf(stderr, "coop compile: %s\n", r.hint)
		}
		if r.err != nil {
			if r.diags == "" {
				fmt.Fprintf(stderr, "coop compile: %v\n", r.err)
			}
			status = max(status, r.status)
			continue
		}
		if a.human {
			stdout.Write(r.human)
		}
		out := a.out
		switch {
		case a.preprocess && out == "":
			out = "-"
		case out == "" && len(a.inputs) > 1:
			out = a.inputs[i] + ".spv"
		case out == "":
			out = "comp.spv"
		}
		err := writeOutput(out, r.out, stdout)
		if err == nil && a.depFile != "" {
			err = os.WriteFile(a.depFile, []byte(makeDeps(out, append([]string{a.inputs[i]}, r.included...))), 0o644)
		}
		if err != nil {
			fmt.Fprintf(stderr, "coop compile: %v\n", err)
			status = max(status, 1)
		}
	}
	return status
}

func compileOne(a *compileArgs, in string) compiled {
	if a.stage == "" {
		if in == "-" {
			return compiled{err: fmt.Errorf("standard input needs -S comp"), status: 1}
		}
		if _, err := compile.StageOf(in); err != nil {
			return compiled{err: err, status: 1}
		}
	}
	src, err := readInput(in)
	if err != nil {
		return compiled{err: err, status: 1}
	}
	name := in
	if in == "-" {
		name = "stdin"
	}
	var r compiled
	opts := a.opts
	opts.ReadFile = func(path string) ([]byte, error) {
		b, err := os.ReadFile(path)
		if err == nil {
			r.included = append(r.included, path)
		}
		return b, err
	}
	if a.preprocess {
		text, d := compile.Preprocess(name, src, opts)
		r.diags = d.Error()
		if text == nil {
			r.err, r.status = d, 2
		}
		r.out = text
		return r
	}
	m, d := compile.Compile(name, src, opts)
	r.diags = d.Error()
	if m == nil {
		r.err, r.status = d, 2
		if !a.envGiven {
			r.hint = targetEnvHint(name, src, a.opts)
		}
		return r
	}
	if a.validate {
		env := opts.TargetEnv
		if env == "" {
			env = "vulkan1.0"
		}
		if _, err := validate.Validate(m, validate.Options{TargetEnv: env}); err != nil {
			r.err, r.status = fmt.Errorf("%s: the module fails validation (--spirv-val):\n%v", name, err), 2
			return r
		}
	}
	if a.human {
		if r.human, err = text.Disassemble(m, text.Options{}); err != nil {
			r.err, r.status = err, 2
			return r
		}
	}
	if a.varName == "" && !a.hex {
		if r.out, err = m.Encode(); err != nil {
			r.err, r.status = err, 2
		}
		return r
	}
	words, err := m.Words()
	if err != nil {
		r.err, r.status = err, 2
		return r
	}
	r.out = cWords(words, a.varName)
	return r
}

// targetEnvHint names the oldest target environment that compiles a
// shader the default (vulkan1.0, as glslangValidator's) does not, so the
// error says which --target-env the shader's features need.
func targetEnvHint(name string, src []byte, opts compile.Options) string {
	for _, env := range []string{"vulkan1.1", "vulkan1.2", "vulkan1.3", "vulkan1.4"} {
		opts.TargetEnv = env
		if m, _ := compile.Compile(name, src, opts); m != nil {
			return fmt.Sprintf("%s compiles with --target-env %s (the default is vulkan1.0, as in glslangValidator)", name, env)
		}
	}
	return ""
}

// cWords writes SPIR-V words as glslangValidator -x does (hexadecimal
// words, eight to a line), or as the C header of --vn NAME.
func cWords(words []uint32, name string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "\t// coop %s\n", version())
	if name != "" {
		fmt.Fprintf(&b, "\t #pragma once\nconst uint32_t %s[] = {\n", name)
	}
	for i, w := range words {
		if i%8 == 0 {
			b.WriteString("\t")
		}
		fmt.Fprintf(&b, "0x%08x", w)
		switch {
		case i == len(words)-1:
			b.WriteString("\n")
		case i%8 == 7:
			b.WriteString(",\n")
		default:
			b.WriteString(",")
		}
	}
	if name != "" {
		b.WriteString("};\n")
	}
	return []byte(b.String())
}
