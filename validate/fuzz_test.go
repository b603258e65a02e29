package validate_test

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/internal/fuzzwatch"
	"github.com/coopshader/coop/spirv"
	"github.com/coopshader/coop/validate"
)

// FuzzValidate: no input panics or hangs the validator, and a module that
// validates loads in the executor without an internal error. The seeds are
// the modules of testdata/*.spvasm (valid and invalid) and the files in
// testdata/fuzz/FuzzValidate.
func FuzzValidate(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.spvasm"))
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		m, err := validate.SeedModule(path, src)
		if err != nil {
			continue
		}
		b, err := m.Encode()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		defer fuzzwatch.Start()()
		// The module as the binary reader gives it, and the same words
		// split into instructions without the grammar's checks, so the
		// validator's own operand pass sees malformed instructions too.
		if m, err := spirv.Decode(b); err == nil {
			fuzzOne(t, m)
		}
		if m := rawModule(b); m != nil {
			fuzzOne(t, m)
		}
	})
}

func fuzzOne(t *testing.T, m *spirv.Module) {
	_, err := validate.Validate(m, validate.Options{TargetEnv: "vulkan1.3"})
	if err != nil {
		var e *validate.Error
		if !errors.As(err, &e) {
			t.Fatalf("not an *Error: %v", err)
		}
		_ = e.Error()
		return
	}
	if _, err := exec.Load(m, "", nil, 32); err != nil && strings.Contains(err.Error(), "internal error") {
		t.Fatalf("a valid module fails to load: %v", err)
	}
}

// rawModule splits little-endian words into a header and instructions by
// their word counts alone.
func rawModule(b []byte) *spirv.Module {
	if len(b) < 20 || len(b)%4 != 0 {
		return nil
	}
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	m := &spirv.Module{Version: spirv.Version(w[1]), Generator: w[2], Bound: w[3], Schema: w[4]}
	for pos := 5; pos < len(w); {
		n := int(w[pos] >> 16)
		if n == 0 || pos+n > len(w) {
			return nil
		}
		m.Insts = append(m.Insts, spirv.Inst{Op: spirv.Op(w[pos] & 0xffff), Words: w[pos+1 : pos+n]})
		pos += n
	}
	return m
}
