package cli

import (
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/profile"
	"github.com/coopshader/coop/spirv"
	"github.com/coopshader/coop/validate"
)

func runVal(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("coop val", flag.ContinueOnError)
	var opts validate.Options
	fs.StringVar(&opts.TargetEnv, "target-env", "vulkan1.3", "")
	device := fs.String("device", "", "")
	// The lists in these texts cost about 20 µs to build, on every run
	// otherwise: a small module's validation takes about as long.
	fs.Usage = func() {
		fs.Lookup("target-env").Usage = "target environment: " + strings.Join(validate.TargetEnvs, ", ")
		fs.Lookup("device").Usage = "also check the Vulkan rules that depend on this device: a built-in profile (" + strings.Join(profile.Names(), ", ") + ") or a profile file"
	}
	fs.BoolVar(&opts.ScalarBlockLayout, "scalar-block-layout", false, "check explicit layouts with the scalar block layout rules")
	fs.BoolVar(&opts.RelaxBlockLayout, "relax-block-layout", false, "relax vector alignment as VK_KHR_relaxed_block_layout does (the default from Vulkan 1.1)")
	fs.BoolVar(&opts.UniformBufferStandardLayout, "uniform-buffer-standard-layout", false, "lay out uniform blocks as storage blocks (std430)")
	fs.BoolVar(&opts.BeforeHLSLLegalization, "before-hlsl-legalization", false, "accepted for spirv-val compatibility")
	fs.Var((*specFlag)(&opts.Spec), "spec", "validate as specialized: `ID=VALUE` gives SpecId ID an integer, a Boolean (true, false) or a float's bits (0x3f800000); repeatable, and the constants not given keep their defaults")
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
		// Validate checks the operands against the grammar itself.
		m, err := spirv.DecodeRaw(data)
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

// specFlag collects --spec ID=VALUE into validate.Options.Spec: VALUE's
// 64 bits little-endian, which the validator cuts to the constant's width
// (a negative integer is its two's complement).
type specFlag map[uint32][]byte

func (f *specFlag) String() string { return "" }

func (f *specFlag) Set(s string) error {
	id, val, ok := strings.Cut(s, "=")
	n, err := strconv.ParseUint(id, 0, 32)
	if !ok || err != nil {
		return fmt.Errorf("want ID=VALUE with a SpecId for ID, got %q", s)
	}
	var v uint64
	switch val {
	case "true":
		v = 1
	case "false":
	default:
		if v, err = strconv.ParseUint(val, 0, 64); err != nil {
			i, err := strconv.ParseInt(val, 0, 64)
			if err != nil {
				return fmt.Errorf("want an integer or Boolean VALUE in %q", s)
			}
			v = uint64(i)
		}
	}
	if *f == nil {
		*f = specFlag{}
	}
	(*f)[uint32(n)] = binary.LittleEndian.AppendUint64(nil, v)
	return nil
}

// validateWords is the check `coop run` makes on each module before its
// first dispatch.
// Each device that can reuse the result (exec's and vk's Trust) is given
// it, so the module is validated once.
func validateWords(devs []backend.Device) func(words []uint32, env string) error {
	return func(words []uint32, env string) error {
		m, err := spirv.DecodeWords(words, nil)
		if err != nil {
			return err
		}
		res, err := validate.Validate(m, validate.Options{TargetEnv: env})
		if err != nil {
			return err
		}
		for _, d := range devs {
			if t, ok := d.(interface {
				Trust([]uint32, *spirv.Module, *validate.Result)
			}); ok {
				t.Trust(words, m, res)
			}
		}
		return nil
	}
}
