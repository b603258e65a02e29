package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/coopshader/coop/profile"
	"github.com/coopshader/coop/spirv"
	"github.com/coopshader/coop/validate"
)

func init() {
	commands["val"] = command{"validate SPIR-V modules (spirv-val's flags; --device checks a device profile's rules too)", runVal}
}

func runVal(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("coop val", flag.ContinueOnError)
	var opts validate.Options
	fs.StringVar(&opts.TargetEnv, "target-env", "vulkan1.3", "target environment: "+strings.Join(validate.TargetEnvs, ", "))
	device := fs.String("device", "", "also check the Vulkan rules that depend on this device: a built-in profile ("+strings.Join(profile.Names(), ", ")+") or a profile file")
	fs.BoolVar(&opts.ScalarBlockLayout, "scalar-block-layout", false, "check explicit layouts with the scalar block layout rules")
	fs.BoolVar(&opts.RelaxBlockLayout, "relax-block-layout", false, "relax vector alignment as VK_KHR_relaxed_block_layout does (the default from Vulkan 1.1)")
	fs.BoolVar(&opts.UniformBufferStandardLayout, "uniform-buffer-standard-layout", false, "lay out uniform blocks as storage blocks (std430)")
	fs.BoolVar(&opts.BeforeHLSLLegalization, "before-hlsl-legalization", false, "accepted for spirv-val compatibility")
	const help = "usage: coop val [flags] FILE.spv...\n\nValidates SPIR-V modules as spirv-val does, with the rules of the cooperative\nmatrix, vector and tensor extensions. Exit status 0 when every module is\nvalid, 1 when one is not, 2 for a usage error.\n\nflags:"
	// Flags may follow the files, as spirv-val allows.
	files, status, ok := parseFlags(fs, args, help, stdout, stderr)
	if !ok {
		return status
	}
	if len(files) == 0 {
		return usageError(stderr, fs.Name(), help, "no module given")
	}
	if *device != "" {
		p, err := profile.Open(*device)
		if err != nil {
			fmt.Fprintf(stderr, "coop val: --device: %v\n", err)
			return 2
		}
		opts.Profile = p
	}
	for _, f := range files {
		// Like spirv-val, one file prints bare messages; several name theirs.
		prefix := ""
		if len(files) > 1 {
			prefix = f + ": "
		}
		data, err := readInput(f)
		if err != nil {
			fmt.Fprintf(stderr, "coop val: %v\n", err)
			status = 1
			continue
		}
		m, err := spirv.Decode(data)
		if err == nil {
			_, err = validate.Validate(m, opts)
		}
		if err != nil {
			var ve *validate.Error
			if !errors.As(err, &ve) && !strings.HasPrefix(err.Error(), "error:") {
				if _, ok := err.(*spirv.Error); !ok {
					fmt.Fprintf(stderr, "coop val: %v\n", err)
					return 2 // a bad --target-env
				}
			}
			fmt.Fprintf(stderr, "%s%v\n", prefix, err)
			status = 1
		}
	}
	return status
}

// validateWords is the check `coop run` makes on each module before its
// first dispatch.
func validateWords(words []uint32, env string) error {
	m, err := spirv.DecodeWords(words, nil)
	if err != nil {
		return err
	}
	_, err = validate.Validate(m, validate.Options{TargetEnv: env})
	return err
}
