package cli

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestReadFile: readFile reads what os.ReadFile reads (empty files, files
// of a few buffers, files in /proc that report no size) and fails as it
// does.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	var names []string
	for _, n := range []int{0, 1, 511, 512, 513, 100000} {
		p := filepath.Join(dir, strconv.Itoa(n))
		data := bytes.Repeat([]byte{0xa5, 1, 2}, n)[:n]
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, p)
	}
	if _, err := os.Stat("/proc/self/maps"); err == nil {
		names = append(names, "/proc/self/maps")
	}
	for _, p := range names {
		got, err := readFile(p)
		want, werr := os.ReadFile(p)
		if err != nil || werr != nil {
			t.Fatalf("%s: %v, os: %v", p, err, werr)
		}
		// /proc/self/maps differs between the two reads only in the
		// mappings; compare its first line.
		if p == "/proc/self/maps" {
			got, want = got[:bytes.IndexByte(got, '\n')], want[:bytes.IndexByte(want, '\n')]
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: read %d bytes, os.ReadFile %d", p, len(got), len(want))
		}
	}
	for _, p := range []string{filepath.Join(dir, "missing"), dir} {
		_, err := readFile(p)
		_, werr := os.ReadFile(p)
		var pe *fs.PathError
		if !errors.As(err, &pe) || err.Error() != werr.Error() {
			t.Errorf("%s: error %v, os.ReadFile's %v", p, err, werr)
		}
	}
}
