package compile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
	cpu "github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/internal/fuzzwatch"
)

// FuzzCompileRun: GLSL through to execution. Whatever compiles runs on
// the executor, with a small buffer bound to every buffer descriptor and
// small step and work budgets: faults are fine, an internal error (of
// the compiler or the executor) or a panic is not.
func FuzzCompileRun(f *testing.F) {
	f.Add([]byte(debugSrc))
	for _, dir := range []string{filepath.Join("..", "..", "examples", "shaders"), filepath.Join("..", "..", "..", "shared", "corpus", "glslang")} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.comp"))
		for _, p := range files {
			if src, err := os.ReadFile(p); err == nil {
				f.Add(src)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		defer fuzzwatch.Start()()
		m, d := Compile("fuzz.comp", src, Options{TargetEnv: "vulkan1.3", Debug: true})
		if d != nil && strings.Contains(d.Error(), "internal error") {
			t.Fatalf("%s", d.Error())
		}
		if m == nil {
			return
		}
		pr, err := cpu.Load(m, "", nil, 32)
		if err != nil {
			if strings.Contains(err.Error(), "internal error") {
				t.Fatal(err)
			}
			return
		}
		if l := pr.LocalSize(); uint64(l[0])*uint64(l[1])*uint64(l[2]) > 256 {
			return
		}
		dev := cpu.New(cpu.Options{StepBudget: 1 << 12, WorkBudget: 1 << 18})
		var bs []backend.Binding
		for _, desc := range pr.Descriptors() {
			switch desc.Kind {
			case backend.StorageBuffer, backend.UniformBuffer:
				buf, err := dev.NewBuffer(4096, backend.UsageStorage|backend.UsageUniform|backend.UsageAddress)
				if err != nil {
					t.Fatal(err)
				}
				bs = append(bs, backend.Binding{Set: desc.Set, Binding: desc.Binding, Kind: desc.Kind, Buffer: buf})
			}
		}
		err = dev.Run(pr, [3]uint32{2, 1, 1}, bs, make([]byte, 256))
		var e *cpu.Error
		if errors.As(err, &e) && e.Internal {
			t.Fatal(err)
		}
	})
}
