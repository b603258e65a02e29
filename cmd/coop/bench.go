package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/coopshader/coop/backend"
	cpu "github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/script"
	"github.com/coopshader/coop/vk"
)

func init() {
	commands["bench"] = command{"time the RUN commands of scripts (median of several runs, GFLOPS for matmuls)", runBench}
}

func runBench(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("coop bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	backendName := fs.String("backend", "cpu", "where to run: cpu or vulkan")
	device := fs.Int("device", 0, "Vulkan device index (see coop devices)")
	runs := fs.Int("runs", 5, "how many times to run each script")
	workers := fs.Int("workers", 0, "CPU executor worker count (0: all cores)")
	env := fs.String("target-env", "vulkan1.3", "target environment for GLSL shaders")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: coop bench [flags] SCRIPT...\n\nRuns each script several times with device timing (timestamp queries on a GPU,\nwall time on the CPU executor) and prints, per RUN, the fastest and median\ntime, and the rate at the median for RUNs an EQ_MATMUL describes. Expectations are checked\non every run.\n\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 || *runs < 1 {
		fs.Usage()
		return 2
	}
	var dev backend.Device
	switch *backendName {
	case "cpu":
		dev = cpu.New(cpu.Options{Workers: *workers})
	case "vulkan":
		d, err := vk.Open(*device)
		if err != nil {
			fmt.Fprintf(stderr, "coop bench: %v\n", err)
			return 1
		}
		defer d.Close()
		dev = d
	default:
		fmt.Fprintf(stderr, "coop bench: unknown backend %q (want cpu or vulkan)\n", *backendName)
		return 2
	}
	status := 0
	for _, path := range scriptPaths(fs.Args(), stderr) {
		s, err := script.ParseFile(path)
		if err != nil {
			fmt.Fprintln(stderr, err)
			status = 1
			continue
		}
		times := map[int][]time.Duration{}
		var order []script.Timing
		for r := 0; r < *runs; r++ {
			rep, err := script.Run(context.Background(), s, dev, script.RunOptions{Compilers: compilers, TargetEnv: *env, Timed: true})
			if err != nil {
				fmt.Fprintln(stderr, err)
				status = 1
				break
			}
			if rep.Failed() > 0 {
				rep.Format(stderr)
				status = 1
				break
			}
			for _, t := range rep.Timings {
				if r == 0 {
					order = append(order, t)
				}
				times[t.Line] = append(times[t.Line], t.Elapsed)
			}
		}
		for _, t := range order {
			ds := times[t.Line]
			sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
			best, med := ds[0], ds[len(ds)/2]
			fmt.Fprintf(stdout, "%s:%d RUN %s on %s: best %.3f ms, median %.3f ms (%d runs)", path, t.Line, t.Pipeline, dev.Name(),
				ms(best), ms(med), len(ds))
			// The rate uses the median: one fast outlier should not speak
			// for the kernel.
			if t.Flops > 0 && med > 0 {
				fmt.Fprintf(stdout, ", %s at the median", rate(t.Flops/med.Seconds()))
			}
			fmt.Fprintln(stdout)
		}
	}
	return status
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
