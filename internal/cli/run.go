package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/coopshader/coop/backend"
	cpu "github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/glsl/compile"
	"github.com/coopshader/coop/glsl/pp"
	"github.com/coopshader/coop/profile"
	"github.com/coopshader/coop/script"
)

// compilers wires the GLSL compiler (and, where available, the SPIR-V
// assembler) into scripts.
var compilers = script.Compilers{GLSL: compileGLSL}

// compileGLSL compiles a script's shader. Inline shaders start on a script
// line, so a #line directive after #version makes diagnostics name
// script lines.
func compileGLSL(name string, src []byte, o script.CompileOptions) ([]uint32, error) {
	if o.FirstLine > 0 {
		text := string(src)
		if first, rest, ok := strings.Cut(text, "\n"); ok && strings.HasPrefix(strings.TrimSpace(first), "#version") {
			src = []byte(first + "\n#line " + strconv.Itoa(o.FirstLine+1) + "\n" + rest)
		}
	}
	// -g: faults then name the shader's file and line.
	opts := compile.Options{TargetEnv: scriptTargetEnv(o.TargetEnv), IncludeDirs: o.IncludeDirs, Debug: true}
	for _, d := range o.Defines {
		n, v, ok := strings.Cut(d, "=")
		if !ok {
			v = "1"
		}
		opts.Defines = append(opts.Defines, pp.Define{Name: n, Value: v})
	}
	return compile.Words(name, src, opts)
}

// scriptTargetEnv maps Amber's TARGET_ENV names (spv1.5, vulkan1.1spv1.4)
// to coop's.
func scriptTargetEnv(env string) string {
	switch {
	case strings.HasPrefix(env, "spv1."):
		return "spirv1." + strings.TrimPrefix(env, "spv1.")
	case env == "vulkan1.1spv1.4":
		return "spirv1.4"
	}
	return env
}

// scriptPaths expands directory arguments to the *.amber scripts directly
// inside them, so "coop run examples" runs every example. A directory
// without scripts is an error, as any argument that is not a script is
// for amber.
func scriptPaths(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		if st, err := os.Stat(a); err != nil || !st.IsDir() {
			out = append(out, a)
			continue
		}
		found, _ := filepath.Glob(filepath.Join(a, "*.amber"))
		if len(found) == 0 {
			return nil, fmt.Errorf("%s: a directory without *.amber scripts", a)
		}
		out = append(out, found...)
	}
	return out, nil
}

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

const runHelp = `usage: coop run [flags] SCRIPT|DIR...

Runs Amber-style test scripts (docs/SCRIPT.md); a directory stands for the
*.amber scripts in it. Prints PASS or FAIL per EXPECT, then a summary.
Exit status 1 when an expectation fails or a script cannot run (a timeout
included), 2 for bad flags, 130 when interrupted (Ctrl-C stops the running
dispatch). On a terminal, long RUNs show a progress line on stderr.

flags:`

// runContext is the context of a run: cancelled by Ctrl-C (SIGINT), and
// after timeout when it is positive.
func runContext(timeout time.Duration) (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	if timeout <= 0 {
		return ctx, stop
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	return ctx, func() { cancel(); stop() }
}

// stopped reports why ctx ended a run, with its exit status, or ok false
// when it did not.
func stopped(ctx context.Context, timeout time.Duration) (msg string, status int, ok bool) {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Sprintf("stopped: --timeout %v reached", timeout), 1, true
	case ctx.Err() != nil:
		return "interrupted", 130, true
	}
	return "", 0, false
}

func runRun(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("coop run", flag.ContinueOnError)
	backendName := fs.String("backend", "cpu", "where to run: cpu, vulkan, or both (run on both and compare every buffer)")
	device := fs.Int("device", 0, "Vulkan device index (see coop devices)")
	timed := fs.Bool("time", false, "time each RUN on the device and report it (TFLOPS for matmul scripts)")
	env := fs.String("target-env", "vulkan1.3", "target environment for GLSL shaders")
	subgroup := fs.Int("subgroup-size", 32, "CPU executor subgroup size")
	check := fs.Bool("check", false, "CPU executor: report undefined behaviour (reads of workgroup memory never written, data races on workgroup and storage memory, decode functions with side effects, cooperative loads and stores outside their buffer or misaligned, tensor coordinates outside a layout with clamp mode Undefined) as failures; slow")
	timeout := fs.Duration("timeout", 0, "stop after this long (e.g. 30s, 5m; 0: no limit)")
	work := fs.Int64("work-budget", 0, fmt.Sprintf("CPU executor: instructions one dispatch may execute in all, a workgroup's start counting 256 (0: %d, about a minute or two; -1: no limit); a larger dispatch fails naming it", cpu.DefaultWorkBudget))
	profName := fs.String("profile", "", "make the CPU executor behave as this device: a built-in profile ("+strings.Join(profile.Names(), ", ")+") or a profile file, refusing what the device refuses and making its numeric choices; with --backend both the executor takes the GPU's numerics (from the built-in profile of the same device, if one ships)")
	noValidate := fs.Bool("no-validate", false, "do not validate each module before its first dispatch")
	var dump stringList
	fs.Var(&dump, "dump", "print a buffer's contents after the run (repeatable)")
	paths, status, ok := parseFlags(fs, args, runHelp, stdout, stderr)
	if !ok {
		return status
	}
	if len(paths) == 0 {
		return usageError(stderr, fs.Name(), runHelp, "no script given")
	}
	switch *backendName {
	case "cpu", "vulkan", "both":
	default:
		return usageError(stderr, fs.Name(), runHelp, "unknown backend %q (want cpu, vulkan or both)", *backendName)
	}
	if *backendName != "cpu" && vulkan == nil {
		return handOff("run", args, stderr)
	}
	paths, err := scriptPaths(paths)
	if err != nil {
		fmt.Fprintf(stderr, "coop run: %v\n", err)
		return 1
	}
	var prof *profile.Profile
	if *profName != "" {
		p, err := profile.Open(*profName)
		if err != nil {
			fmt.Fprintf(stderr, "coop run: --profile: %v\n", err)
			return 2
		}
		prof = p
	}
	var gpu GPU
	if *backendName != "cpu" {
		d, err := vulkan.Open(*device, OpenOptions{})
		if err != nil {
			if errors.Is(err, backend.ErrUnavailable) {
				fmt.Fprintf(stderr, "coop run: --backend %s needs a Vulkan GPU: %v\n", *backendName, err)
			} else {
				fmt.Fprintf(stderr, "coop run: %v\n", err)
			}
			return 1
		}
		defer d.Close()
		gpu = d
	}
	var devs []backend.Device
	var num *profile.Numerics
	if *backendName == "both" && prof == nil {
		// The GPU checks its own rules; the executor takes its numerics.
		num = &shippedProfile(gpu.Profile()).Numerics
	}
	if *backendName != "vulkan" {
		devs = append(devs, cpu.New(cpu.Options{SubgroupSize: *subgroup, Printf: stdout, Profile: prof, Numerics: num, WorkBudget: *work, Check: *check}))
	}
	if gpu != nil {
		devs = append(devs, gpu)
	}
	ctx, cancel := runContext(*timeout)
	defer cancel()
	prog := newProgress(stderr)
	defer prog.close()
	opts := script.RunOptions{Compilers: compilers, TargetEnv: *env, Dump: dump, DumpTo: stdout, Timed: *timed}
	if !*noValidate {
		opts.Validate = validateWords(devs)
	}
	passed, failed, broken := 0, 0, 0
	for _, path := range paths {
		s, err := script.ParseFile(path)
		if err != nil {
			fmt.Fprintf(stderr, "%v\n", err)
			broken++
			continue
		}
		opts.Progress = prog.runProgress(path)
		var rep *script.Report
		if len(devs) == 2 {
			rep, err = script.Compare(ctx, s, devs[0], devs[1], opts)
		} else {
			rep, err = script.Run(ctx, s, devs[0], opts)
		}
		prog.clear()
		if rep != nil {
			rep.Format(stdout)
			failed += rep.Failed()
			passed += len(rep.Results) - rep.Failed()
		}
		if err != nil {
			fmt.Fprintf(stderr, "%v\n", err)
			broken++
		}
		if ctx.Err() != nil {
			break
		}
	}
	fmt.Fprintf(stdout, "%d passed, %d failed", passed, failed)
	if broken > 0 {
		fmt.Fprintf(stdout, ", %d scripts could not run", broken)
	}
	fmt.Fprintln(stdout)
	if msg, status, ok := stopped(ctx, *timeout); ok {
		fmt.Fprintf(stderr, "coop run: %s\n", msg)
		return status
	}
	if failed > 0 || broken > 0 {
		return 1
	}
	return 0
}

// shippedProfile returns the device's live profile with the numerics of
// the built-in profile of the same device (vendor and device id), which
// were measured (the driver reports none); the live profile alone when no
// built-in one matches.
func shippedProfile(live *profile.Profile) *profile.Profile {
	p := *live
	for _, n := range profile.Names() {
		b, err := profile.Builtin(n)
		if err == nil && b.VendorID == live.VendorID && b.DeviceID == live.DeviceID && b.VendorID != 0 {
			p.Numerics = b.Numerics
			break
		}
	}
	return &p
}
