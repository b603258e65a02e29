package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"

	"github.com/coopshader/coop/internal/lazy"
)

// parseFlags parses fs's flags wherever they stand among args, as the
// tools coop's commands imitate (glslangValidator, glslc, spirv-dis,
// spirv-as, amber) accept them; "--" ends the flags. It returns the
// positional arguments, or ok false with the exit status: -h and --help
// print the help to stdout (status 0), --version the version (0), a bad
// flag an error and the help to stderr (2). fs.Parse calls fs.Usage
// before each of those, with the output discarded: a command may set it to
// fill in usage texts that cost time to build (see runVal).
func parseFlags(fs *flag.FlagSet, args []string, help string, stdout, stderr io.Writer) (pos []string, status int, ok bool) {
	fs.SetOutput(io.Discard) // errors are reported below, once
	var rest []string
	if i := slices.Index(args, "--"); i >= 0 {
		args, rest = args[:i], args[i+1:]
	}
	if slices.Contains(args, "--version") || slices.Contains(args, "-version") {
		printVersion(stdout, fs.Name())
		return nil, 0, false
	}
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			printHelp(stdout, fs, help)
			return nil, 0, false
		}
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n\n", fs.Name(), err)
			printHelp(stderr, fs, help)
			return nil, 2, false
		}
		args = fs.Args()
		if len(args) == 0 {
			return append(pos, rest...), 0, true
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

func printHelp(w io.Writer, fs *flag.FlagSet, help string) {
	fmt.Fprintln(w, help)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// usageError reports a bad command line the way parseFlags does.
func usageError(stderr io.Writer, name, help string, format string, args ...any) int {
	fmt.Fprintf(stderr, "%s: %s\n\n%s\n", name, fmt.Sprintf(format, args...), help)
	return 2
}

// version is coop's version: the module version when installed with go
// install from a release, else the commit it was built from.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision" && (v == "" || v == "(devel)"):
			v = s.Value[:min(12, len(s.Value))]
		case s.Key == "vcs.modified" && s.Value == "true":
			v += "+dirty"
		}
	}
	if v == "" {
		v = "(devel)"
	}
	return v
}

// printVersion writes the --version line of a command.
func printVersion(w io.Writer, command string) {
	if what, ok := imitates.Get()[command]; ok {
		fmt.Fprintf(w, "%s %s (%s)\n", command, version(), what)
		return
	}
	fmt.Fprintf(w, "%s %s\n", command, version())
}

// imitates names the tool each command stands in for (docs/TOOLS.md).
var imitates = lazy.Value[map[string]string]{F: func() map[string]string {
	return map[string]string{
		"coop compile":  "glslangValidator's flags",
		"coop glslc":    "shaderc glslc's flags",
		"coop dis":      "spirv-dis's flags and text",
		"coop as":       "spirv-as's flags",
		"coop val":      "spirv-val's flags",
		"coop run":      "Amber's scripts",
		"coop bench":    "timing of Amber-style scripts",
		"coop devices":  "Vulkan devices",
		"coop gpucheck": "the glslang corpus on the executor and a GPU",
	}
}}

// isTerminal reports whether w is a terminal (a character device), where
// progress lines belong; a pipe or a file gets none.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
