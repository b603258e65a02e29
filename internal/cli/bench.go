package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/coopshader/coop/backend"
	cpu "github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/script"
)

// benchTime is one RUN's times over the runs of a script.
type benchTime struct {
	t     script.Timing
	times []time.Duration
}

func (b *benchTime) best() time.Duration { return b.times[0] }

// median is the median run: one fast outlier should not speak for the kernel.
func (b *benchTime) median() time.Duration { return b.times[len(b.times)/2] }

const benchHelp = `usage: coop bench [flags] SCRIPT|DIR...

Runs each script several times with device timing (timestamp queries on a GPU,
wall time on the CPU executor) and prints, per RUN, the fastest and median
time, and the rate at the median for RUNs an EQ_MATMUL describes. Expectations are checked
on every run. With --compare A,B each script runs on both backends and each RUN's
line gives both medians and the speed of A relative to B (B's time / A's time).
On a terminal, long RUNs show a progress line on stderr.

flags:`

func runBench(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("coop bench", flag.ContinueOnError)
	backendName := fs.String("backend", "cpu", "where to run: cpu or vulkan")
	compare := fs.String("compare", "", "two backends to run each script on, side by side, e.g. cpu,vulkan: prints both times and the first's speed relative to the second's")
	device := fs.Int("device", 0, "Vulkan device index (see coop devices)")
	runs := fs.Int("runs", 5, "how many times to run each script")
	workers := fs.Int("workers", 0, "CPU executor worker count (0: all cores)")
	env := fs.String("target-env", "vulkan1.3", "target environment for GLSL shaders")
	timeout := fs.Duration("timeout", 0, "stop after this long (e.g. 30s, 5m; 0: no limit)")
	work := fs.Int64("work-budget", 0, fmt.Sprintf("CPU executor: instructions one dispatch may execute in all, a workgroup's start counting 256 (0: %d, about a minute or two; -1: no limit); a larger dispatch fails naming it", cpu.DefaultWorkBudget))
	paths, status, ok := parseFlags(fs, args, benchHelp, stdout, stderr)
	if !ok {
		return status
	}
	if len(paths) == 0 {
		return usageError(stderr, fs.Name(), benchHelp, "no script given")
	}
	if *runs < 1 {
		return usageError(stderr, fs.Name(), benchHelp, "--runs %d: want at least 1", *runs)
	}
	paths, err := scriptPaths(paths)
	if err != nil {
		fmt.Fprintf(stderr, "coop bench: %v\n", err)
		return 1
	}
	names := []string{*backendName}
	if *compare != "" {
		names = strings.Split(*compare, ",")
		if len(names) != 2 || names[0] == names[1] {
			return usageError(stderr, fs.Name(), benchHelp, "--compare wants two different backends, e.g. cpu,vulkan; got %q", *compare)
		}
	}
	for _, name := range names {
		if name != "cpu" && name != "vulkan" {
			return usageError(stderr, fs.Name(), benchHelp, "unknown backend %q (want cpu or vulkan)", name)
		}
	}
	if slices.Contains(names, "vulkan") && vulkan == nil {
		return handOff("bench", args, stderr)
	}
	var devs []backend.Device
	for _, name := range names {
		switch name {
		case "cpu":
			devs = append(devs, cpu.New(cpu.Options{Parallel: true, Workers: *workers, WorkBudget: *work}))
		case "vulkan":
			d, err := vulkan.Open(*device, OpenOptions{})
			if err != nil {
				fmt.Fprintf(stderr, "coop bench: %v\n", err)
				return 1
			}
			defer d.Close()
			devs = append(devs, d)
		}
	}
	ctx, cancel := runContext(*timeout)
	defer cancel()
	prog := newProgress(stderr)
	defer prog.close()
	opts := script.RunOptions{Compilers: compilers, TargetEnv: *env, Timed: true}
	for _, path := range paths {
		if ctx.Err() != nil {
			break
		}
		s, err := script.ParseFile(path)
		if err != nil {
			fmt.Fprintln(stderr, err)
			status = 1
			continue
		}
		opts.Progress = prog.runProgress(path)
		res := make([][]benchTime, len(devs))
		for i, dev := range devs {
			res[i], err = benchScript(ctx, s, dev, opts, *runs, stderr)
			prog.clear()
			if err != nil {
				fmt.Fprintf(stderr, "%s on %s: %v\n", path, dev.Name(), err)
				status = 1
			}
		}
		if len(devs) == 1 {
			for _, b := range res[0] {
				fmt.Fprintf(stdout, "%s:%d RUN %s on %s: best %.3f ms, median %.3f ms (%d runs)", path, b.t.Line, b.t.Pipeline, devs[0].Name(),
					ms(b.best()), ms(b.median()), len(b.times))
				if b.t.Flops > 0 && b.median() > 0 {
					fmt.Fprintf(stdout, ", %s at the median", rate(b.t.Flops/b.median().Seconds()))
				}
				fmt.Fprintln(stdout)
			}
			continue
		}
		printCompare(stdout, path, names, res)
	}
	if msg, st, ok := stopped(ctx, *timeout); ok {
		fmt.Fprintf(stderr, "coop bench: %s\n", msg)
		return st
	}
	return status
}

// benchScript runs s runs times on dev and gathers each RUN's times,
// sorted. A run that fails or misses an expectation ends it with an error.
func benchScript(ctx context.Context, s *script.Script, dev backend.Device, opts script.RunOptions, runs int, stderr io.Writer) ([]benchTime, error) {
	var out []benchTime
	for r := 0; r < runs; r++ {
		rep, err := script.Run(ctx, s, dev, opts)
		if err != nil {
			return nil, err
		}
		if rep.Failed() > 0 {
			rep.Format(stderr)
			return nil, fmt.Errorf("%d expectations failed", rep.Failed())
		}
		for i, t := range rep.Timings {
			if r == 0 {
				out = append(out, benchTime{t: t})
			}
			if i < len(out) {
				out[i].times = append(out[i].times, t.Elapsed)
			}
		}
	}
	for _, b := range out {
		sort.Slice(b.times, func(i, j int) bool { return b.times[i] < b.times[j] })
	}
	return out, nil
}

// printCompare prints one line per RUN with both backends' medians and
// the first's speed relative to the second's; a backend that could not run
// the script is named as such.
func printCompare(w io.Writer, path string, names []string, res [][]benchTime) {
	n := max(len(res[0]), len(res[1]))
	for i := 0; i < n; i++ {
		var b [2]*benchTime
		for k := range b {
			if i < len(res[k]) {
				b[k] = &res[k][i]
			}
		}
		ref := b[0]
		if ref == nil {
			ref = b[1]
		}
		fmt.Fprintf(w, "%s:%d RUN %s:", path, ref.t.Line, ref.t.Pipeline)
		for k, x := range b {
			if x == nil {
				fmt.Fprintf(w, " %s failed;", names[k])
				continue
			}
			fmt.Fprintf(w, " %s %.3f ms", names[k], ms(x.median()))
			if x.t.Flops > 0 && x.median() > 0 {
				fmt.Fprintf(w, " (%s)", rate(x.t.Flops/x.median().Seconds()))
			}
			fmt.Fprint(w, ";")
		}
		if b[0] != nil && b[1] != nil && b[0].median() > 0 {
			fmt.Fprintf(w, " %s/%s speed %.3gx", names[0], names[1], b[1].median().Seconds()/b[0].median().Seconds())
		}
		fmt.Fprintf(w, " (median of %d runs)\n", len(ref.times))
	}
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// rate formats a FLOP rate with a unit that fits it.
func rate(flops float64) string {
	switch {
	case flops >= 1e12:
		return fmt.Sprintf("%.2f TFLOPS", flops/1e12)
	case flops >= 1e9:
		return fmt.Sprintf("%.2f GFLOPS", flops/1e9)
	}
	return fmt.Sprintf("%.2f MFLOPS", flops/1e6)
}
