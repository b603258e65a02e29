package compile

import (
	"encoding/binary"
	"testing"

	"github.com/coopshader/coop/backend"
	cpu "github.com/coopshader/coop/exec"
)

// TestBufferReferenceMathRuns runs GL_EXT_buffer_reference2 pointer
// arithmetic on the executor: ref + n, n + ref, ref - n, += and -= with
// signed and unsigned n, ref - ref, and the stride rounded up to the
// default buffer_reference_align of 16.
func TestBufferReferenceMathRuns(t *testing.T) {
	src := `#version 450
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 1) in;
layout(buffer_reference, buffer_reference_align = 4) buffer W { int v; };
layout(buffer_reference) buffer P { int v; int w; };
layout(std430, binding = 0) buffer B { W base; P pbase; int n; int64_t d1; int64_t d2; int o[8]; } b;
void main() {
	W a = b.base + 2;
	W c = 1 + a;
	W e = c - 1;
	e += b.n;
	e -= 2u;
	b.d1 = e - b.base;
	b.d2 = b.base - (b.base + 5);
	a.v = 20;
	c.v = 30;
	e.v += 5;
	P p = b.pbase + 1;
	p.w = 77;
}
`
	words := vulkanWords(t, "t.comp", src)
	dev := cpu.New(cpu.Options{})
	buf, _ := dev.NewBuffer(72, backend.UsageStorage|backend.UsageAddress)
	le := binary.LittleEndian
	const o = 40 // offset of b.o
	b := make([]byte, 72)
	le.PutUint64(b[0:], buf.Address()+o)
	le.PutUint64(b[8:], buf.Address()+o)
	le.PutUint32(b[16:], 3)
	buf.Write(0, b)
	if _, err := dev.Dispatch(&backend.Dispatch{Code: words, Entry: "main", Groups: [3]uint32{1, 1, 1},
		Bindings: []backend.Binding{{Binding: 0, Buffer: buf}}}); err != nil {
		t.Fatal(err)
	}
	buf.Read(0, b)
	if d1, d2 := int64(le.Uint64(b[24:])), int64(le.Uint64(b[32:])); d1 != 3 || d2 != -5 {
		t.Errorf("e - base = %d, base - (base + 5) = %d; want 3, -5", d1, d2)
	}
	want := [8]uint32{0, 0, 20, 35, 0, 77, 0, 0}
	for i, w := range want {
		if got := le.Uint32(b[o+4*i:]); got != w {
			t.Errorf("o[%d] = %d, want %d", i, got, w)
		}
	}
}

// TestNullInitializerRuns reads null-initialized (GL_EXT_null_initializer)
// shared, private and local variables on the executor.
func TestNullInitializerRuns(t *testing.T) {
	src := `#version 460
#extension GL_EXT_null_initializer : enable
layout(local_size_x = 4) in;
struct S { vec2 v; int a; };
shared int s = {};
shared S ss = {};
S g = {};
layout(std430, binding = 0) buffer B { int o[4]; };
void main() {
	S l = {};
	o[gl_LocalInvocationIndex] = s + ss.a + int(ss.v.y) + g.a + l.a + 7;
}
`
	out := runShader(t, src, 1, []uint32{1, 2, 3, 4}, nil)
	for i, v := range out {
		if v != 7 {
			t.Errorf("o[%d] = %d, want 7", i, v)
		}
	}
}
