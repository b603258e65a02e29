//go:build unix

package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeVulkan writes a coop-vulkan into dir that prints its arguments one
// a line, and whether coop marked the hand-off, and exits 7.
func fakeVulkan(t *testing.T, dir string) {
	t.Helper()
	script := "#!/bin/sh\nfor a in \"$@\"; do echo \"arg:$a\"; done\necho \"marked:$COOP_HANDED_OFF\"\necho to-stderr >&2\nexit 7\n"
	if err := os.WriteFile(filepath.Join(dir, "coop-vulkan"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

// runCoop runs bin with args and PATH set to path, from the repository
// root; it returns the exit status and both outputs.
func runCoop(t *testing.T, bin, path string, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = filepath.Join("..", "..")
	cmd.Env = []string{"PATH=" + path}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PATH=") && !strings.HasPrefix(kv, "COOP_HANDED_OFF=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errb.String()
}

// TestHandOffNextToBinary: a command line that needs Vulkan becomes
// coop-vulkan's, from next to coop before PATH: arguments intact (spaces
// and all), its output and exit status the command's.
func TestHandOffNextToBinary(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	bin := binaryIn(t, dir)
	fakeVulkan(t, dir)
	os.WriteFile(filepath.Join(other, "coop-vulkan"), []byte("#!/bin/sh\necho from-path\n"), 0o755)
	args := []string{"run", "--backend", "both", "a script.amber", "--dump", "", "--device=1"}
	rc, out, errs := runCoop(t, bin, other, args...)
	want := "arg:" + strings.Join(args, "\narg:") + "\nmarked:1\n"
	if rc != 7 || out != want || errs != "to-stderr\n" {
		t.Fatalf("rc %d, stdout %q (want %q), stderr %q", rc, out, want, errs)
	}
}

// TestHandOffOnPath: without coop-vulkan next to coop, PATH's is used.
func TestHandOffOnPath(t *testing.T) {
	dir, path := t.TempDir(), t.TempDir()
	bin := binaryIn(t, dir)
	fakeVulkan(t, path)
	rc, out, _ := runCoop(t, bin, path, "devices", "--json")
	if rc != 7 || out != "arg:devices\narg:--json\nmarked:1\n" {
		t.Fatalf("rc %d, stdout %q", rc, out)
	}
	rc, out, _ = runCoop(t, bin, path, "bench", "--compare", "cpu,vulkan", "examples/matmul_khr_i8.amber")
	if rc != 7 || !strings.HasPrefix(out, "arg:bench\narg:--compare\narg:cpu,vulkan\n") {
		t.Fatalf("bench: rc %d, stdout %q", rc, out)
	}
}

// TestNoHandOff: commands that need no Vulkan run in coop itself.
func TestNoHandOff(t *testing.T) {
	dir := t.TempDir()
	bin := binaryIn(t, dir)
	fakeVulkan(t, dir)
	rc, out, errs := runCoop(t, bin, dir, "run", "examples/matmul_khr_i8.amber")
	if rc != 0 || !strings.Contains(out, "1 passed, 0 failed") || strings.Contains(out, "arg:") {
		t.Fatalf("rc %d\n%s\n%s", rc, out, errs)
	}
	if rc, out, _ := runCoop(t, bin, dir, "version"); rc != 0 || !strings.HasPrefix(out, "coop ") {
		t.Fatalf("version: rc %d, %q", rc, out)
	}
}

// TestHandOffMissing: without coop-vulkan anywhere, the error says how
// to install it.
func TestHandOffMissing(t *testing.T) {
	bin := binaryIn(t, t.TempDir())
	rc, out, errs := runCoop(t, bin, t.TempDir(), "run", "--backend", "vulkan", "examples/matmul_khr_i8.amber")
	if rc != 1 || out != "" || !strings.Contains(errs, "coop run: this needs Vulkan: coop-vulkan") || !strings.Contains(errs, "go install ./cmd/coop-vulkan") {
		t.Fatalf("rc %d, stdout %q, stderr %q", rc, out, errs)
	}
}

// TestHandOffNoLoop: a coop-vulkan that hands the command back (a copy of
// coop) is an error, not a loop.
func TestHandOffNoLoop(t *testing.T) {
	dir := t.TempDir()
	bin := binaryIn(t, dir)
	b, _ := os.ReadFile(bin)
	if err := os.WriteFile(filepath.Join(dir, "coop-vulkan"), b, 0o755); err != nil {
		t.Fatal(err)
	}
	rc, _, errs := runCoop(t, bin, dir, "gpucheck")
	if rc != 1 || !strings.Contains(errs, "coop-vulkan handed the command back") {
		t.Fatalf("rc %d, stderr %q", rc, errs)
	}
}
