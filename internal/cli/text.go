package cli

import (
	"flag"
	"fmt"
	"io"

	"github.com/coopshader/coop/internal/lazy"

	"github.com/coopshader/coop/spirv"
	"github.com/coopshader/coop/spirv/text"
)

func init() {
	compilers.SPIRVAsm = func(name string, src []byte) ([]uint32, error) {
		m, err := text.Assemble(src, name)
		if err != nil {
			return nil, err
		}
		return m.Words()
	}
}

const disHelp = `usage: coop dis [flags] [FILE.spv|-]

Prints the text spirv-dis prints for a SPIR-V binary (standard input when no
file or "-" is given). Colour is never used (--no-color is accepted).

flags:`

func runDis(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("coop dis", flag.ContinueOnError)
	out := fs.String("o", "", "output file (default standard output)")
	raw := fs.Bool("raw-id", false, "print ids as %N instead of friendly names")
	noHeader := fs.Bool("no-header", false, "omit the header comments")
	noIndent := fs.Bool("no-indent", false, "do not align result ids into a column")
	offsets := fs.Bool("offsets", false, "end each instruction with a comment giving its byte offset")
	fs.Bool("no-color", true, "print without colour (coop never colours)")
	color := fs.Bool("color", false, "refused: coop prints no colour")
	comment := fs.Bool("comment", false, "refused: coop does not write spirv-dis's explanatory comments")
	nested := fs.Bool("nested-indent", false, "refused: not implemented")
	reorder := fs.Bool("reorder-blocks", false, "refused: not implemented")
	fs.Bool("handle-unknown-opcodes", false, "accepted: unknown opcodes are always printed, as !<word> values coop as reads back")
	files, status, ok := parseFlags(fs, args, disHelp, stdout, stderr)
	if !ok {
		return status
	}
	for _, r := range []struct {
		flag string
		set  bool
	}{{"--color", *color}, {"--comment", *comment}, {"--nested-indent", *nested}, {"--reorder-blocks", *reorder}} {
		if r.set {
			return usageError(stderr, fs.Name(), disHelp, "%s is not supported (docs/TOOLS.md)", r.flag)
		}
	}
	if len(files) > 1 {
		return usageError(stderr, fs.Name(), disHelp, "one input file, got %d", len(files))
	}
	in := "-"
	if len(files) == 1 {
		in = files[0]
	}
	data, err := readInput(in)
	if err != nil {
		fmt.Fprintf(stderr, "coop dis: %v\n", err)
		return 1
	}
	m, err := spirv.DecodeWarn(data, func(w *spirv.Warning) { fmt.Fprintf(stderr, "%s: %v\n", in, w) })
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", in, err)
		return 1
	}
	txt, err := text.Disassemble(m, text.Options{RawID: *raw, NoHeader: *noHeader, NoIndent: *noIndent, Offsets: *offsets})
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", in, err)
		return 1
	}
	if err := writeOutput(*out, txt, stdout); err != nil {
		fmt.Fprintf(stderr, "coop dis: %v\n", err)
		return 1
	}
	return 0
}

const asHelp = `usage: coop as [flags] [FILE.spvasm|-]

Assembles spirv-as syntax (and spirv-dis output) to a SPIR-V binary, read
from standard input when no file or "-" is given.

flags:`

func runAs(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("coop as", flag.ContinueOnError)
	out := fs.String("o", "out.spv", "output file (- for standard output)")
	preserve := fs.Bool("preserve-numeric-ids", false, "keep %N ids as id N")
	env := fs.String("target-env", "spv1.6", "SPIR-V version of the module: spv1.0 .. spv1.6, or the version a Vulkan environment takes (vulkan1.0 .. vulkan1.4, vulkan1.1spv1.4)")
	files, status, ok := parseFlags(fs, args, asHelp, stdout, stderr)
	if !ok {
		return status
	}
	ver, ok := spirvVersions.Get()[*env]
	if !ok {
		return usageError(stderr, fs.Name(), asHelp, "unknown --target-env %q (want spv1.0 .. spv1.6, vulkan1.0 .. vulkan1.4 or vulkan1.1spv1.4)", *env)
	}
	if len(files) > 1 {
		return usageError(stderr, fs.Name(), asHelp, "one input file, got %d", len(files))
	}
	in := "-"
	if len(files) == 1 {
		in = files[0]
	}
	src, err := readInput(in)
	if err != nil {
		fmt.Fprintf(stderr, "coop as: %v\n", err)
		return 1
	}
	name := in
	if name == "-" {
		name = "stdin"
	}
	m, err := text.AssembleOptions(src, name, text.AsmOptions{Version: ver, PreserveIDs: *preserve})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	b, err := m.Encode()
	if err != nil {
		fmt.Fprintf(stderr, "coop as: %v\n", err)
		return 1
	}
	if err := writeOutput(*out, b, stdout); err != nil {
		fmt.Fprintf(stderr, "coop as: %v\n", err)
		return 1
	}
	return 0
}

// spirvVersions are the SPIR-V versions of spirv-as's target
// environments: a Vulkan version takes the newest SPIR-V it accepts, as
// spirv-as does.
var spirvVersions = lazy.Value[map[string]spirv.Version]{F: func() map[string]spirv.Version {
	return map[string]spirv.Version{"spv1.0": 0x10000, "spv1.1": 0x10100, "spv1.2": 0x10200,
		"spv1.3": 0x10300, "spv1.4": 0x10400, "spv1.5": 0x10500, "spv1.6": 0x10600,
		"vulkan1.0": 0x10000, "vulkan1.1": 0x10300, "vulkan1.1spv1.4": 0x10400, "vulkan1.2": 0x10500,
		"vulkan1.3": 0x10600, "vulkan1.4": 0x10600}
}}
