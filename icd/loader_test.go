package icd_test

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/coopshader/coop/backend"
	cexec "github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/glsl/compile"
	"github.com/coopshader/coop/icd"
	"github.com/coopshader/coop/script"
	"github.com/coopshader/coop/vk"
)

// TestThroughLoader builds the driver, points the Vulkan loader at it and
// runs work through coop's own Vulkan backend: a dispatch whose result is
// checked, and an example script compared against the executor.
func TestThroughLoader(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the driver (slow)")
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		if _, err := exec.LookPath("cc"); err != nil {
			t.Skip("no C compiler")
		}
	}
	dir := t.TempDir()
	lib := filepath.Join(dir, "libcoop_icd.so")
	build := exec.Command("go", "build", "-buildmode=c-shared", "-o", lib, "../cmd/coop-icd")
	build.Env = append(os.Environ(), "CGO_ENABLED=1")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the driver: %v\n%s", err, out)
	}
	manifest, err := os.ReadFile("../cmd/coop-icd/coop_icd.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "coop_icd.json"), manifest, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("VK_DRIVER_FILES", filepath.Join(dir, "coop_icd.json"))
	t.Setenv("VK_ICD_FILENAMES", "")
	dev, err := vk.Open(0)
	if errors.Is(err, backend.ErrUnavailable) {
		t.Skipf("no Vulkan loader: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	if dev.Name() != "coop (CPU reference)" {
		t.Fatalf("device %q, want the driver's", dev.Name())
	}
	// What applications read through the loader is the driver's own
	// profile, which pipeline creation checks modules against.
	got, want := dev.Profile(), icd.Profile()
	if !reflect.DeepEqual(got.CoopMatKHR, want.CoopMatKHR) || !reflect.DeepEqual(got.CoopMatNV, want.CoopMatNV) ||
		!reflect.DeepEqual(got.CoopMatFlex, want.CoopMatFlex) || !reflect.DeepEqual(got.CoopVec, want.CoopVec) ||
		!reflect.DeepEqual(got.CoopMat2, want.CoopMat2) || !reflect.DeepEqual(got.CoopVecLimits, want.CoopVecLimits) {
		t.Errorf("properties through the loader differ from the driver's profile:\n%+v\n%+v", got, want)
	}
	for _, f := range got.Features {
		if !want.Feature(f) {
			t.Errorf("feature %s reported through the loader is not in the driver's profile", f)
		}
	}

	src := `#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer B { uint v[]; };
layout(push_constant) uniform P { uint add; };
void main() { v[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * 3u + add; }`
	code, err := compile.Words("add.comp", []byte(src), compile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	buf, err := dev.NewBuffer(4*256, backend.UsageStorage)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{4, 1, 1},
		Bindings: []backend.Binding{{Buffer: buf}}, PushConstants: []byte{7, 0, 0, 0}}); err != nil {
		t.Fatal(err)
	}
	out := make([]byte, 4*256)
	if err := buf.Read(0, out); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 256; i++ {
		if got := binary.LittleEndian.Uint32(out[4*i:]); got != uint32(i*3+7) {
			t.Fatalf("v[%d] = %d, want %d", i, got, i*3+7)
		}
	}

	s, err := script.ParseFile("../examples/matmul_khr_f16.amber")
	if err != nil {
		t.Fatal(err)
	}
	opts := script.RunOptions{Compilers: script.Compilers{GLSL: func(name string, src []byte, o script.CompileOptions) ([]uint32, error) {
		return compile.Words(name, src, compile.Options{TargetEnv: o.TargetEnv, IncludeDirs: o.IncludeDirs})
	}}}
	rep, err := script.Compare(context.Background(), s, dev, cexec.New(cexec.Options{}), opts)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Failed() > 0 || len(rep.Results) == 0 {
		t.Fatalf("driver and executor disagree: %+v", rep.Results)
	}
}
