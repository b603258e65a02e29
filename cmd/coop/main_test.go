package main

import (
	"debug/buildinfo"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// buildDir holds the binary coopBinary builds; TestMain removes it.
var buildDir string

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// coopBinary builds this command once for the tests that run it as a
// process.
var coopBinary = sync.OnceValues(func() (string, error) {
	var err error
	if buildDir, err = os.MkdirTemp("", "coop-test"); err != nil {
		return "", err
	}
	bin := filepath.Join(buildDir, "coop")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		return "", &buildError{err, string(out)}
	}
	return bin, nil
})

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return "go build: " + e.err.Error() + "\n" + e.out }

// binaryIn copies coop into dir (which coop-vulkan may share) and returns
// its path.
func binaryIn(t *testing.T, dir string) string {
	t.Helper()
	bin, err := coopBinary()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "coop")
	if err := os.WriteFile(p, b, 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestStatic: coop links no purego, so no cgo runtime, and on Linux it is
// a static binary (no program interpreter): it starts as fast as a Go
// program can, which `coop val` once per module needs.
func TestStatic(t *testing.T) {
	bin, err := coopBinary()
	if err != nil {
		t.Fatal(err)
	}
	bi, err := buildinfo.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range bi.Deps {
		if strings.Contains(d.Path, "purego") {
			t.Errorf("coop links %s", d.Path)
		}
	}
	if runtime.GOOS != "linux" {
		return
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("coop is dynamically linked")
		}
	}
}
