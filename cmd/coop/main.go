// Command coop is the command-line face of the coop toolchain (package
// internal/cli): compile GLSL to SPIR-V, disassemble, assemble and
// validate SPIR-V, and run test scripts on the CPU reference executor.
// It links no Vulkan, so it is a static binary that starts fast (`coop
// val` runs once per module in a build); commands that need a Vulkan GPU
// hand the command line to coop-vulkan, found next to coop or on PATH.
package main

import (
	"os"

	"github.com/coopshader/coop/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
