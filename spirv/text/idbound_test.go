package text

import (
	"strings"
	"testing"
)

// TestIDBoundOverflow: id 4294967295 would need a bound of 2^32, which
// the header's 32-bit word cannot hold; the assembler refuses it rather
// than writing a wrapped bound of 0.
func TestIDBoundOverflow(t *testing.T) {
	src := "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%4294967295 = OpTypeVoid\n"
	_, err := AssembleOptions([]byte(src), "e", AsmOptions{PreserveIDs: true})
	want := "e:3:1: error: id \"%4294967295\" is too large: the module's id bound would be 4294967296, past 32 bits"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want %q", err, want)
	}
	// A kept header that states the bound (a disassembled invalid
	// module) reads back to that bound, as the binary had it.
	m, err := AssembleOptions([]byte("; Bound: 12\n"+src), "e", AsmOptions{PreserveIDs: true, KeepHeader: true})
	if err != nil || m.Bound != 12 {
		t.Fatalf("kept header: %v, %v", m, err)
	}
	// The largest id that fits gives the largest bound.
	m, err = AssembleOptions([]byte(strings.Replace(src, "4294967295", "4294967294", 1)), "e", AsmOptions{PreserveIDs: true})
	if err != nil || m.Bound != 0xffffffff {
		t.Fatalf("id 4294967294: bound %v, %v", m, err)
	}
}
