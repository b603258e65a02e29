package compile

import (
	"strings"
	"testing"
)

// TestLayoutBeyond32Bits: offsets and strides of 2^32 bytes or more do
// not fit SPIR-V's 32-bit Offset and ArrayStride literals; they are a
// positioned error, never truncated (tail at Offset 0 would alias a).
func TestLayoutBeyond32Bits(t *testing.T) {
	for _, c := range []struct{ block, want string }{
		{"uint a[65536][65536]; uint tail;", "b.comp:3: '' : offset of member 'tail' is 17179869184 bytes, beyond the 4294967295"},
		{"vec4 a[65536][65536][65536][65536][65536]; uint tail;", "b.comp:3: '' : array stride is 68719476736 bytes"},
		{"layout(row_major) dmat4 m[65536][65536][65536][65536][65536][65536][65536];", "b.comp:3: '' : array stride is"},
	} {
		src := "#version 450\nlayout(local_size_x = 1) in;\nlayout(binding = 0) buffer B { " + c.block + " };\nvoid main() {}\n"
		m, d := Compile("b.comp", []byte(src), Options{})
		if m != nil || !strings.Contains(d.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.block, d, c.want)
		}
	}
	// The largest offset that fits is kept exactly.
	src := "#version 450\nlayout(local_size_x = 1) in;\nlayout(binding = 0) buffer B { uint a[65536][16383]; uint tail; };\nvoid main() { tail = 1u; }\n"
	m, d := Compile("b.comp", []byte(src), Options{})
	if m == nil {
		t.Fatal(d)
	}
	found := false
	for _, in := range m.Insts {
		if in.Op.String() == "OpMemberDecorate" && len(in.Words) == 4 && in.Words[1] == 1 && in.Words[3] == 65536*16383*4 {
			found = true
		}
	}
	if !found {
		t.Error("tail's Offset 4294705152 not found")
	}
}
