// Package cli is the coop command line: compile GLSL to SPIR-V,
// disassemble, assemble and validate SPIR-V, and run test scripts on the
// CPU reference executor or a Vulkan GPU. Each command only turns flags
// into calls of the library packages. Two binaries run it: cmd/coop
// without the Vulkan backend, which hands the commands that need Vulkan to
// cmd/coop-vulkan, which registers the backend with SetVulkan (vulkan.go).
package cli

import (
	"fmt"
	"io"
	"os"
)

type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

// commands are coop's commands, sorted by name: a static table (package
// init registered each in a map, which every start of coop paid for).
var commands = [...]struct {
	name string
	command
}{
	{"as", command{"assemble SPIR-V text (spirv-as syntax) to a binary", runAs}},
	{"bench", command{"time the RUN commands of scripts (median of several runs, GFLOPS for matmuls; --compare cpu,vulkan side by side)", runBench}},
	{"compile", command{"compile GLSL compute shaders to SPIR-V (glslangValidator flags)", runCompile}},
	{"devices", command{"list Vulkan devices with their cooperative-matrix and cooperative-vector support", runDevices}},
	{"dis", command{"disassemble SPIR-V to spirv-dis text", runDis}},
	{"glslc", command{"compile a GLSL compute shader taking glslc's flags (for build systems that call glslc)", runGlslc}},
	{"gpucheck", command{"run the glslang corpus's compute shaders on the CPU executor and a Vulkan GPU and compare (scripts/gpucheck.sh runs the rest)", runGPUCheck}},
	{"run", command{"run test scripts on the CPU executor or a Vulkan GPU", runRun}},
	{"val", command{"validate SPIR-V modules (spirv-val's flags; --device checks a device profile's rules too)", runVal}},
}

// lookupCommand finds a command by name.
func lookupCommand(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c.command, true
		}
	}
	return command{}, false
}

// Main runs the command line args (without the program's name) and
// returns the exit status.
func Main(args []string, stdout, stderr io.Writer) int {
	growStack()
	switch {
	case len(args) == 0:
		usage(stderr)
		return 2
	case args[0] == "-h" || args[0] == "--help" || args[0] == "help":
		usage(stdout)
		return 0
	case args[0] == "--version" || args[0] == "version":
		fmt.Fprintf(stdout, "coop %s\n", version())
		return 0
	}
	c, ok := lookupCommand(args[0])
	if !ok {
		fmt.Fprintf(stderr, "coop: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	return c.run(args[1:], stdout, stderr)
}

// growStack grows the goroutine's stack to 32 KiB while it is shallow.
// A goroutine starts with 2 KiB and doubles it when a call needs more,
// copying the stack and walking each of its frames through the function
// tables, which in a binary of coop's size are cold pages: `coop val` of
// a small module grew it twice, deep in the validator, for about 0.1 ms
// of CPU; growing it here walks two frames, and no corpus module's
// validation grows it again.
//
//go:noinline
func growStack() {
	var frame [16 << 10]byte
	frame[stackSink] = 1 // the frame must not be optimized away
	stackSink = frame[len(frame)-1-int(stackSink)]
}

var stackSink byte

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: coop <command> [arguments]\n\ncommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'coop <command> -h' for a command's flags.")
}

// readInput reads a file, or standard input for "-".
func readInput(name string) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(os.Stdin)
	}
	return readFile(name)
}

// writeOutput writes to a file, or to stdout for "-" or "".
func writeOutput(name string, data []byte, stdout io.Writer) error {
	if name == "" || name == "-" {
		_, err := stdout.Write(data)
		return err
	}
	return os.WriteFile(name, data, 0o644)
}

// flagValue is the argument after flag args[*i], which it steps over.
func flagValue(args []string, i *int, flag string) (string, error) {
	if *i+1 >= len(args) {
		return "", fmt.Errorf("flag %s needs a value", flag)
	}
	*i++
	return args[*i], nil
}
