package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	cpu "github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/gpucheck"
)

func runGPUCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("coop gpucheck", flag.ContinueOnError)
	corpus := fs.String("corpus", "../shared/corpus/glslang", "the glslang corpus folder (with MANIFEST.tsv)")
	device := fs.Int("device", 0, "Vulkan device index (see coop devices)")
	detail := fs.Bool("detail", false, "list the differing words of each module that differs")
	const help = "usage: coop gpucheck [--corpus DIR] [--device N] [--detail]\n\nRuns every positive compute shader of the glslang corpus whose only\ndescriptors are buffers (coop's module and glslang's) as one workgroup with\nfilled inputs on the executor (with the GPU's numerics) and on the GPU, and\ncompares every buffer byte. A module that differs is run once more on the\nexecutor with --check: undefined behaviour it finds (data races, reads of\nworkgroup memory never written) makes it UNDEFINED, not a failure. One line\nper module, then a summary.\n\nflags:"
	rest, status, ok := parseFlags(fs, args, help, stdout, stderr)
	if !ok {
		return status
	}
	if len(rest) > 0 {
		return usageError(stderr, fs.Name(), help, "unexpected argument %q", rest[0])
	}
	if vulkan == nil {
		return handOff("gpucheck", args, stderr)
	}
	// Corpus shaders index buffers with their filled inputs: robust
	// buffer access keeps most stray accesses from losing the device, and
	// when one does the device is opened again and the check goes on. A
	// corpus shader looping on filled inputs must not stall the check.
	open := OpenOptions{Robust: true, DispatchTimeout: 10 * time.Second}
	var n [4]int
	total, lostN := 0, 0
	report := func(r gpucheck.Result) {
		n[r.Outcome]++
		total++
		word := [...]string{"SAME", "DIFFER", "SKIP", "UNDEFINED"}[r.Outcome]
		if r.Why != "" {
			fmt.Fprintf(stdout, "%s %s: %s\n", word, r.Name, r.Why)
		} else {
			fmt.Fprintf(stdout, "%s %s\n", word, r.Name)
		}
		if *detail {
			for _, l := range r.Detail {
				fmt.Fprintf(stdout, "  %s\n", l)
			}
		}
	}
	for from := 0; ; {
		gpu, err := vulkan.Open(*device, open)
		if err != nil {
			fmt.Fprintf(stderr, "coop gpucheck: %v\n", err)
			return 1
		}
		opts := cpu.Options{SubgroupSize: gpu.SubgroupSize(), StepBudget: 1 << 22, Numerics: &shippedProfile(gpu.Profile()).Numerics}
		c := cpu.New(opts)
		opts.Check = true
		from, err = gpucheck.Corpus(*corpus, from, c, gpu, cpu.New(opts), report)
		gpu.Close()
		if errors.Is(err, gpucheck.ErrLost) && lostN < 5 {
			lostN++
			fmt.Fprintf(stdout, "LOST %v; opening the device again\n", err)
			continue
		}
		if err != nil {
			fmt.Fprintf(stderr, "coop gpucheck: %v\n", err)
			return 1
		}
		break
	}
	fmt.Fprintf(stdout, "corpus: %d same, %d differ, %d differ with undefined behaviour, %d skipped of %d modules (the device was lost %d times)\n",
		n[gpucheck.Same], n[gpucheck.Differ], n[gpucheck.Undefined], n[gpucheck.Skipped], total, lostN)
	if n[gpucheck.Differ] > 0 {
		return 1
	}
	return 0
}
