package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/coopshader/coop/internal/cli"
)

func TestMain(m *testing.M) {
	cli.SetVulkan(vulkan{})
	os.Exit(m.Run())
}

func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	rc := cli.Main(args, &out, &errb)
	return rc, out.String(), errb.String()
}

// unavailable skips a test on a machine without a Vulkan device.
func unavailable(t *testing.T, errs string) {
	if strings.Contains(errs, "backend unavailable") {
		t.Skip("no Vulkan device")
	}
}

// TestBenchCompare runs a script on two backends side by side; a Vulkan
// device that cannot run it is named as failed.
func TestBenchCompare(t *testing.T) {
	rc, out, errs := runCLI("bench", "--runs", "1", "--compare", "cpu,vulkan", "../../examples/matmul_khr_i8.amber")
	unavailable(t, errs)
	if !strings.Contains(out, "RUN mm: cpu ") {
		t.Fatalf("rc %d\n%s\n%s", rc, out, errs)
	}
	if rc == 0 && !strings.Contains(out, "cpu/vulkan speed") {
		t.Fatalf("no ratio:\n%s", out)
	}
}

// storeScript stores 42 from a shader any Vulkan 1.3 device runs.
const storeScript = `SHADER compute s GLSL
#version 450
layout(local_size_x = 4) in;
layout(binding = 0) buffer B { uint v[]; };
void main() { v[gl_GlobalInvocationID.x] = 42u + gl_GlobalInvocationID.x; }
END
BUFFER out DATA_TYPE uint32 SIZE 4 FILL 0
PIPELINE compute p
  ATTACH s
  BIND BUFFER out AS storage DESCRIPTOR_SET 0 BINDING 0
END
RUN p 1 1 1
EXPECT out IDX 0 EQ 42 43 44 45
`

// TestRunBoth runs a script on the executor and the GPU and compares
// every buffer, and lists the devices: the commands coop hands here.
func TestRunBoth(t *testing.T) {
	path := filepath.Join(t.TempDir(), "store.amber")
	os.WriteFile(path, []byte(storeScript), 0o644)
	rc, out, errs := runCLI("run", "--backend", "both", path)
	unavailable(t, errs)
	if rc != 0 || !strings.Contains(out, "3 passed, 0 failed") || !strings.Contains(out, "same on both devices") {
		t.Fatalf("rc %d\n%s\n%s", rc, out, errs)
	}
	rc, out, errs = runCLI("devices")
	if rc != 0 || !strings.Contains(out, "device 0: ") {
		t.Fatalf("devices: rc %d\n%s\n%s", rc, out, errs)
	}
	rc, out, errs = runCLI("devices", "--json", "--name", "test")
	if rc != 0 || !strings.Contains(out, `"name": "test"`) {
		t.Fatalf("devices --json: rc %d\n%s\n%s", rc, out, errs)
	}
}

// TestNeverHandsOff: coop-vulkan runs what needs Vulkan itself, even with
// another coop-vulkan on PATH.
func TestNeverHandsOff(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in is a shell script")
	}
	dir, path := t.TempDir(), t.TempDir()
	bin := filepath.Join(dir, "coop-vulkan")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	os.WriteFile(filepath.Join(path, "coop-vulkan"), []byte("#!/bin/sh\necho handed off\n"), 0o755)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "run", "--backend", "vulkan", "--timeout", "1m", "../../examples/matmul_khr_i8.amber")
	cmd.Env = append(os.Environ(), "PATH="+path)
	out, _ := cmd.CombinedOutput()
	if strings.Contains(string(out), "handed off") || !strings.Contains(string(out), "passed") && !strings.Contains(string(out), "Vulkan GPU") {
		t.Fatalf("%s", out)
	}
}
