package icd_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/coopshader/coop/backend"
	cexec "github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/glsl/compile"
	"github.com/coopshader/coop/icd"
	"github.com/coopshader/coop/script"
	"github.com/coopshader/coop/spirv/text"
	"github.com/coopshader/coop/vk"
)

// driver builds the driver once per test binary into a temporary directory
// with its manifest, and returns the manifest's path.
var driver = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "coop-icd-test")
	if err != nil {
		return "", err
	}
	driverDir = dir
	build := exec.Command("go", "build", "-buildmode=c-shared", "-o", filepath.Join(dir, "libcoop_icd.so"), "../cmd/coop-icd")
	build.Env = append(os.Environ(), "CGO_ENABLED=1")
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the driver: %v\n%s", err, out)
	}
	manifest, err := os.ReadFile("../cmd/coop-icd/coop_icd.json")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "coop_icd.json")
	return path, os.WriteFile(path, manifest, 0o644)
})

var driverDir string

func TestMain(m *testing.M) {
	code := m.Run()
	if driverDir != "" {
		os.RemoveAll(driverDir)
	}
	os.Exit(code)
}

// needDriver skips without a C compiler and points the loader at the
// driver.
func needDriver(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the driver (slow)")
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no C compiler")
	}
	manifest, err := driver()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("VK_DRIVER_FILES", manifest)
	t.Setenv("VK_ICD_FILENAMES", "")
}

// openDriver opens the driver's device through the loader with coop's own
// Vulkan backend, skipping without a loader.
func openDriver(t *testing.T) *vk.Device {
	t.Helper()
	needDriver(t)
	dev, err := vk.Open(0)
	if errors.Is(err, backend.ErrUnavailable) {
		t.Skipf("no Vulkan loader: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return dev
}

// TestThroughLoader builds the driver, points the Vulkan loader at it and
// runs a dispatch through coop's own Vulkan backend, checking its result.
func TestThroughLoader(t *testing.T) {
	dev := openDriver(t)
	defer dev.Close()
	if dev.Name() != "coop (CPU reference)" {
		t.Fatalf("device %q, want the driver's", dev.Name())
	}
	// What applications read through the loader is the driver's own
	// profile, which pipeline creation checks modules against.
	got, want := dev.Profile(), icd.Profile()
	if !reflect.DeepEqual(got.CoopMatKHR, want.CoopMatKHR) || !reflect.DeepEqual(got.CoopMatNV, want.CoopMatNV) ||
		!reflect.DeepEqual(got.CoopMatFlex, want.CoopMatFlex) || !reflect.DeepEqual(got.CoopVec, want.CoopVec) ||
		!reflect.DeepEqual(got.CoopMat2, want.CoopMat2) || !reflect.DeepEqual(got.CoopVecLimits, want.CoopVecLimits) ||
		!reflect.DeepEqual(got.Limits, want.Limits) {
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

}

// TestScripts runs every script of examples/ and script/testdata/ on the
// driver through coop's own Vulkan backend and on the built-in executor
// (coop run --backend both), and requires them to agree: buffers,
// images, samplers and texel buffers alike. A script no Vulkan device can
// run (4-bit integers have no Vulkan feature) runs on the executor alone,
// as coop run does it.
func TestScripts(t *testing.T) {
	dev := openDriver(t)
	defer dev.Close()
	var paths []string
	for _, g := range []string{"../examples/*.amber", "../script/testdata/*.amber"} {
		m, err := filepath.Glob(g)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, m...)
	}
	if len(paths) == 0 {
		t.Fatal("no scripts")
	}
	opts := script.RunOptions{Compilers: script.Compilers{
		GLSL: func(name string, src []byte, o script.CompileOptions) ([]uint32, error) {
			return compile.Words(name, src, compile.Options{TargetEnv: o.TargetEnv, IncludeDirs: o.IncludeDirs})
		},
		SPIRVAsm: func(name string, src []byte) ([]uint32, error) {
			m, err := text.Assemble(src, name)
			if err != nil {
				return nil, err
			}
			return m.Words()
		},
	}}
	both := 0
	for _, p := range paths {
		s, err := script.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := script.Compare(context.Background(), s, dev, cexec.New(cexec.Options{}), opts)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if rep.Failed() > 0 || len(rep.Results) == 0 {
			t.Errorf("%s: driver and executor disagree: %+v", p, rep.Results)
			continue
		}
		if len(rep.Notes) > 0 {
			note := strings.Join(rep.Notes, "; ")
			if !strings.Contains(note, "4-bit integers") {
				t.Errorf("%s ran on one device only: %s", p, note)
			}
			continue
		}
		both++
	}
	t.Logf("%d of %d scripts ran on both and agree", both, len(paths))
}

// TestCApplication compiles a C Vulkan application (testdata/app.c)
// against the system's headers and loader and runs it on the driver: the
// C calling convention of every command it uses, debug messages, a feature
// refused, a pipeline refused for its specialization (the device rule
// named), a destroyed buffer left in a binding the
// pipeline does not use, dispatch base, a timeline wait signaled from
// the host after submission, timestamps; images (testdata/images.comp):
// format queries, a linear image written through mapped memory, a clear,
// an immutable sampler, a texel buffer, synchronization2 layout
// transitions, a copy to a buffer.
func TestCApplication(t *testing.T) {
	needDriver(t)
	if _, err := os.Stat("/usr/include/vulkan/vulkan.h"); err != nil {
		t.Skip("no Vulkan headers")
	}
	dir := t.TempDir()
	app := filepath.Join(dir, "app")
	if out, err := exec.Command("gcc", "-o", app, "testdata/app.c", "-lvulkan").CombinedOutput(); err != nil {
		t.Skipf("cannot build the application (no Vulkan loader to link?): %v\n%s", err, out)
	}
	good := `#version 450
layout(local_size_x = 64) in;
layout(constant_id = 7) const uint mul = 1;
layout(binding = 0) buffer B { uint v[]; };
layout(push_constant) uniform P { uint add; };
void main() { v[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * mul + add; }`
	// Specialized to 8 (by the application), a shape the device does not
	// list.
	bad, err := os.ReadFile("testdata/shape.comp")
	if err != nil {
		t.Fatal(err)
	}
	images, err := os.ReadFile("testdata/images.comp")
	if err != nil {
		t.Fatal(err)
	}
	var spv []string
	for i, src := range [][]byte{[]byte(good), bad, images} {
		words, err := compile.Words(fmt.Sprintf("s%d.comp", i), src, compile.Options{TargetEnv: "vulkan1.3"})
		if err != nil {
			t.Fatal(err)
		}
		b := make([]byte, 4*len(words))
		for j, w := range words {
			binary.LittleEndian.PutUint32(b[4*j:], w)
		}
		p := filepath.Join(dir, fmt.Sprintf("s%d.spv", i))
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		spv = append(spv, p)
	}
	out, err := exec.Command(app, spv...).CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("the application failed: %v", err)
	}
	if !strings.Contains(string(out), "VUID-RuntimeSpirv-cooperativeMatrix") {
		t.Errorf("the refused pipeline's message names no device rule")
	}
}
