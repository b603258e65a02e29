package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/profile"
)

// TestMain keeps the tests' command lines in this process: a command that
// needs Vulkan records its hand-off in handedOff instead of starting
// coop-vulkan, which would replace the test binary.
func TestMain(m *testing.M) {
	startVulkan = func(args []string) (int, error) {
		handedOffArgs = append(handedOffArgs, args)
		return handOffStatus, handOffErr
	}
	os.Exit(m.Run())
}

var (
	handedOffArgs [][]string
	handOffStatus = 7
	handOffErr    error
)

// TestHandOff: without a registered backend, the command lines that need
// Vulkan go to coop-vulkan whole, in order, and its status is the
// command's; the others run here.
func TestHandOff(t *testing.T) {
	for _, args := range [][]string{
		{"run", "--backend", "vulkan", "a b.amber", "--dump", "x"},
		{"run", "s.amber", "--backend=both", "--device", "1"},
		{"bench", "--compare", "cpu,vulkan", "--runs", "2", "../../examples/matmul_khr_i8.amber"},
		{"bench", "--backend", "vulkan", "../../examples/matmul_khr_i8.amber"},
		{"devices"},
		{"devices", "--json", "--name", "x"},
		{"gpucheck", "--detail"},
	} {
		handedOffArgs = nil
		rc, out, errs := runCLI(args...)
		if rc != handOffStatus || out != "" || errs != "" || len(handedOffArgs) != 1 || !slices.Equal(handedOffArgs[0], args) {
			t.Errorf("%q: rc %d, stdout %q, stderr %q, handed off %q", args, rc, out, errs, handedOffArgs)
		}
	}
	for _, args := range [][]string{
		{"run", "../../examples/matmul_khr_i8.amber"},
		{"run", "--backend", "cpu", "../../examples/matmul_khr_i8.amber"},
		{"bench", "--runs", "1", "../../examples/matmul_khr_i8.amber"},
		{"run", "--backend", "tpu", "x.amber"},
		{"bench", "--compare", "tpu,vulkan", "x.amber"},
		{"run", "--backend", "vulkan"}, // no script: a usage error here
		{"devices", "--bogus"},
		{"gpucheck", "-h"},
	} {
		handedOffArgs = nil
		if rc, _, errs := runCLI(args...); len(handedOffArgs) != 0 || rc == handOffStatus {
			t.Errorf("%q handed off: rc %d, %q", args, rc, errs)
		}
	}
}

// TestHandOffMissing: without coop-vulkan, a command that needs Vulkan
// says how to install it and fails; `coop devices` still lists the CPU.
func TestHandOffMissing(t *testing.T) {
	t.Cleanup(func() { handOffErr = nil })
	_, handOffErr = findVulkanIn(t, t.TempDir())
	if handOffErr == nil {
		t.Fatal("found coop-vulkan in an empty PATH")
	}
	rc, out, errs := runCLI("run", "--backend", "both", "x.amber")
	if rc != 1 || out != "" || !strings.Contains(errs, "coop run: this needs Vulkan: coop-vulkan") || !strings.Contains(errs, "go install github.com/coopshader/coop/cmd/coop-vulkan@latest") {
		t.Errorf("run: rc %d, stdout %q, stderr %q", rc, out, errs)
	}
	rc, out, errs = runCLI("devices")
	if rc != 0 || !strings.HasPrefix(out, "cpu: ") || !strings.Contains(out, "\nvulkan: coop-vulkan") || errs != "" {
		t.Errorf("devices: rc %d, stdout %q, stderr %q", rc, out, errs)
	}
	if rc, _, errs := runCLI("devices", "--json"); rc != 1 || !strings.Contains(errs, "go install") {
		t.Errorf("devices --json: rc %d, stderr %q", rc, errs)
	}
}

// findVulkanIn is findVulkan with PATH set to dir.
func findVulkanIn(t *testing.T, dir string) (string, error) {
	t.Setenv("PATH", dir)
	return findVulkan()
}

// TestFindVulkan finds coop-vulkan on PATH (next to coop is
// cmd/coop's test, which builds the binary).
func TestFindVulkan(t *testing.T) {
	dir := t.TempDir()
	name := VulkanBinary
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	want := filepath.Join(dir, name)
	if err := os.WriteFile(want, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := findVulkanIn(t, dir); err != nil || got != want {
		t.Fatalf("found %q, %v; want %q", got, err, want)
	}
}

// fakeVulkan is a registered backend without devices.
type fakeVulkan struct{}

var errNoLoader = fmt.Errorf("no Vulkan loader: %w", backend.ErrUnavailable)

func (fakeVulkan) Open(int, OpenOptions) (GPU, error)          { return nil, errNoLoader }
func (fakeVulkan) Devices(io.Writer) error                     { return errNoLoader }
func (fakeVulkan) Profiles(string) ([]*profile.Profile, error) { return nil, errNoLoader }

// TestRegisteredVulkan: with a backend registered, as in coop-vulkan,
// nothing is handed off, and a machine without Vulkan is reported as
// before.
func TestRegisteredVulkan(t *testing.T) {
	SetVulkan(fakeVulkan{})
	t.Cleanup(func() { SetVulkan(nil) })
	handedOffArgs = nil
	rc, _, errs := runCLI("run", "--backend", "vulkan", "../../examples/matmul_khr_i8.amber")
	if rc != 1 || !strings.Contains(errs, "--backend vulkan needs a Vulkan GPU: no Vulkan loader") {
		t.Errorf("run: rc %d, %q", rc, errs)
	}
	rc, out, _ := runCLI("devices")
	if rc != 0 || !strings.Contains(out, "vulkan: no Vulkan loader") {
		t.Errorf("devices: rc %d, %q", rc, out)
	}
	if rc, _, errs := runCLI("gpucheck"); rc != 1 || !strings.Contains(errs, "no Vulkan loader") {
		t.Errorf("gpucheck: rc %d, %q", rc, errs)
	}
	if len(handedOffArgs) != 0 {
		t.Errorf("handed off %q", handedOffArgs)
	}
}
