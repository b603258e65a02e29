package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/coopshader/coop/spirv"
	"github.com/coopshader/coop/spirv/text"
)

func init() {
	commands["dis"] = command{"disassemble SPIR-V to spirv-dis text", runDis}
	commands["as"] = command{"assemble SPIR-V text (spirv-as syntax) to a binary", runAs}
	compilers.SPIRVAsm = func(name string, src []byte) ([]uint32, error) {
		m, err := text.Assemble(src, name)
		if err != nil {
			return nil, err
		}
		return m.Words()
	}
}

func runDis(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("coop dis", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "output file (default standard output)")
	raw := fs.Bool("raw-id", false, "print ids as %N instead of friendly names")
	noHeader := fs.Bool("no-header", false, "omit the header comments")
	noIndent := fs.Bool("no-indent", false, "do not align result ids into a column")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: coop dis [-o OUT] [--raw-id] [--no-header] [--no-indent] FILE.spv|-\n\nPrints the text spirv-dis prints.\n\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(reorder(args)); err != nil || fs.NArg() != 1 {
		if err == nil {
			fs.Usage()
		}
		return 2
	}
	data, err := readInput(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "coop dis: %v\n", err)
		return 1
	}
	m, err := spirv.DecodeWarn(data, func(w *spirv.Warning) { fmt.Fprintf(stderr, "%s: %v\n", fs.Arg(0), w) })
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", fs.Arg(0), err)
		return 1
	}
	txt, err := text.Disassemble(m, text.Options{RawID: *raw, NoHeader: *noHeader, NoIndent: *noIndent})
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", fs.Arg(0), err)
		return 1
	}
	if err := writeOutput(*out, txt, stdout); err != nil {
		fmt.Fprintf(stderr, "coop dis: %v\n", err)
		return 1
	}
	return 0
}

func runAs(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("coop as", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "output file (default out.spv, - for standard output)")
	preserve := fs.Bool("preserve-numeric-ids", false, "keep %N ids as id N")
	env := fs.String("target-env", "spv1.6", "SPIR-V version of the module: spv1.0 .. spv1.6")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: coop as [-o OUT.spv] [--preserve-numeric-ids] [--target-env spv1.X] FILE.spvasm|-\n\nAssembles spirv-as syntax (and spirv-dis output).\n\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(reorder(args)); err != nil || fs.NArg() != 1 {
		if err == nil {
			fs.Usage()
		}
		return 2
	}
	ver, ok := spirvVersions[*env]
	if !ok {
		fmt.Fprintf(stderr, "coop as: unknown --target-env %q (want spv1.0 .. spv1.6)\n", *env)
		return 2
	}
	src, err := readInput(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "coop as: %v\n", err)
		return 1
	}
	name := fs.Arg(0)
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
	if *out == "" {
		*out = "out.spv"
	}
	if err := writeOutput(*out, b, stdout); err != nil {
		fmt.Fprintf(stderr, "coop as: %v\n", err)
		return 1
	}
	return 0
}

var spirvVersions = map[string]spirv.Version{"spv1.0": 0x10000, "spv1.1": 0x10100, "spv1.2": 0x10200,
	"spv1.3": 0x10300, "spv1.4": 0x10400, "spv1.5": 0x10500, "spv1.6": 0x10600}

// reorder moves flags before positional arguments so "coop dis x.spv -o y"
// works like spirv-dis, which accepts flags anywhere.
func reorder(args []string) []string {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-" || len(a) == 0 || a[0] != '-':
			pos = append(pos, a)
		case a == "-o" && i+1 < len(args), a == "--target-env" && i+1 < len(args):
			flags = append(flags, a, args[i+1])
			i++
		default:
			flags = append(flags, a)
		}
	}
	return append(flags, pos...)
}
