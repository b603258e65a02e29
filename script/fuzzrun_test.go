package script

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	cpu "github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/glsl/compile"
	"github.com/coopshader/coop/internal/fuzzwatch"
	"github.com/coopshader/coop/spirv/text"
)

// realCompilers are the GLSL compiler and assembler coop run uses.
var realCompilers = Compilers{
	GLSL: func(name string, src []byte, o CompileOptions) ([]uint32, error) {
		return compile.Words(name, src, compile.Options{TargetEnv: "vulkan1.3", IncludeDirs: o.IncludeDirs, Debug: true})
	},
	SPIRVAsm: func(name string, src []byte) ([]uint32, error) {
		m, err := text.Assemble(src, name)
		if err != nil {
			return nil, err
		}
		return m.Words()
	},
}

// FuzzRunCPU: the script runner on the real executor and compilers. No
// script may panic or reach an internal error; sizes stay small (long
// numbers are skipped) and the executor's step and work budgets bound
// every dispatch.
func FuzzRunCPU(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "examples", "*.amber"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
	f.Add("SHADER compute s GLSL\n#version 450\nlayout(local_size_x = 4) in;\nlayout(binding = 0) buffer B { uint d[]; };\n" +
		"void main() { atomicAdd(d[0], 1u); d[gl_GlobalInvocationID.x + 1u] = 7u; }\nEND\n" +
		"BUFFER b DATA_TYPE uint32 SIZE 9 FILL 0\nPIPELINE compute p\n  ATTACH s\n  BIND BUFFER b AS storage DESCRIPTOR_SET 0 BINDING 0\nEND\n" +
		"RUN p 2 1 1\nEXPECT b IDX 0 EQ 8\n")
	f.Fuzz(func(t *testing.T, src string) {
		defer fuzzwatch.Start()()
		if longNumber.MatchString(src) {
			t.Skip("large sizes only cost memory")
		}
		s, err := Parse(filepath.Join("..", "examples", "f.amber"), []byte(src))
		if err != nil {
			return
		}
		dev := cpu.New(cpu.Options{StepBudget: 1 << 12, WorkBudget: 1 << 18})
		_, err = Run(context.Background(), s, dev, RunOptions{Compilers: realCompilers})
		var e *cpu.Error
		if errors.As(err, &e) && e.Internal || err != nil && strings.Contains(err.Error(), "internal error") {
			t.Fatal(err)
		}
	})
}
