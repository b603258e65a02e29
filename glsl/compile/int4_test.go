package compile

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/coopshader/coop/spirv"
	validator "github.com/coopshader/coop/validate"
)

// int4Prelude spells SPV_INTEL_int4's types through GL_EXT_spirv_intrinsics,
// as kernels do for types GLSL has no keyword for.
const int4Prelude = `#version 450
#extension GL_EXT_spirv_intrinsics : require
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
#define int4_t spirv_type(extensions = ["SPV_INTEL_int4"], capabilities = [5112], id = 21, 4, 1)
#define i4vec2 spirv_type(extensions = ["SPV_INTEL_int4"], capabilities = [5112], id = 23, int4_t, 2)
spirv_instruction(id = 114) int toInt(int4_t x);
spirv_instruction(id = 114) int4_t toI4(int x);
spirv_instruction(id = 81) int4_t extract(i4vec2 v, spirv_literal int i);
spirv_instruction(id = 80) i4vec2 pair(int4_t x, int4_t y);
`

// int4Scalar uses int4 scalars and vectors of two: loads from a buffer,
// extraction, conversions both ways, construction, local variables.
const int4Scalar = int4Prelude + `layout(local_size_x = 8) in;
layout(binding = 0) buffer A { i4vec2 a[]; };
layout(binding = 1) buffer B { int c[]; };
int4_t pick(i4vec2 v, bool hi) { return hi ? extract(v, 1) : extract(v, 0); }
void main() {
	uint i = gl_GlobalInvocationID.x;
	i4vec2 v = a[i];
	int4_t e = pick(v, true);
	int4_t f = pick(v, false);
	c[i] = toInt(e) * 100 + toInt(f);
	a[i] = pair(toI4(c[i] + 3), e);
}
`

// int4Coop multiplies 4-bit A (16x32, row-major) and B (32x16,
// column-major) cooperative matrices into int32.
// int4Coop declares Int4CooperativeMatrixINTEL (5114) with the type:
// SPV_INTEL_int4 allows a 4-bit Component Type only with it.
const int4Coop = int4Prelude + `#undef int4_t
#define int4_t spirv_type(extensions = ["SPV_INTEL_int4"], capabilities = [5112, 5114], id = 21, 4, 1)
layout(local_size_x = 32) in;
layout(binding = 0) buffer A { uint8_t a[]; };
layout(binding = 1) buffer B { int c[]; };
void main() {
	coopmat<int4_t, gl_ScopeSubgroup, 16, 32, gl_MatrixUseA> ma;
	coopmat<int4_t, gl_ScopeSubgroup, 32, 16, gl_MatrixUseB> mb;
	coopmat<int, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> mc =
		coopmat<int, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(7);
	coopMatLoad(ma, a, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
	coopMatLoad(mb, a, 256, 16, gl_CooperativeMatrixLayoutColumnMajor);
	mc = coopMatMulAdd(ma, mb, mc);
	coopMatStore(mc, c, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
	coopMatStore(ma, a, 512, 16, gl_CooperativeMatrixLayoutRowMajor);
}
`

// compileInt4 compiles src, validates it with coop's validator (for
// Vulkan) and spirv-val (the universal environment: spirv-val's Vulkan
// layout rules give 4-bit types an alignment of 0), and checks its
// capabilities and extensions are glslang's and extra (glslang leaves out
// Int4CooperativeMatrixINTEL, which SPV_INTEL_int4 requires of int4
// cooperative matrices).
func compileInt4(t *testing.T, src string, extra ...string) (ours, ref []uint32) {
	t.Helper()
	m, d := Compile("int4.comp", []byte(src), Options{TargetEnv: "vulkan1.3"})
	if m == nil {
		t.Fatalf("compile:\n%v", d)
	}
	if _, err := validator.Validate(m, validator.Options{TargetEnv: "vulkan1.3"}); err != nil {
		t.Errorf("coop's validator: %v", err)
	}
	validate(t, m, "spirv1.6")
	ours, err := m.Words()
	if err != nil {
		t.Fatal(err)
	}
	g := glslangModule(t, src)
	if g == nil {
		return ours, nil
	}
	// extra names what coop declares on purpose beyond glslang; glslang
	// may declare it too, so each name counts once.
	want := append(declared(g), extra...)
	slices.Sort(want)
	want = slices.Compact(want)
	if a, b := declared(m), want; !slices.Equal(a, b) {
		t.Errorf("capabilities and extensions %v, glslang's %v", a, b)
	}
	ref, err = g.Words()
	if err != nil {
		t.Fatal(err)
	}
	return ours, ref
}

// declared lists a module's capabilities and extensions, sorted.
func declared(m *spirv.Module) []string {
	var out []string
	for _, in := range m.Insts {
		switch in.Op {
		case spirv.OpCapability:
			out = append(out, fmt.Sprint("capability ", in.Words[0]))
		case spirv.OpExtension:
			s, _, _ := spirv.DecodeString(in.Words)
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

func TestInt4SpirvTypeRuns(t *testing.T) {
	ours, ref := compileInt4(t, int4Scalar)
	// glslang lays out a spirv_type as 4 bytes: a pair of 4-bit integers
	// in the first byte of each 4.
	in := make([]byte, 32)
	for i := range 8 {
		in[4*i] = byte(0x9e + 0x13*i)
	}
	res := []resource{{binding: 0, data: in}, {binding: 1, data: make([]byte, 32)}}
	got := runResources(t, ours, res, nil)
	s4 := func(v byte) int { return int(int8(v<<4) >> 4) }
	for i := range 8 {
		b := in[4*i]
		c := s4(b>>4)*100 + s4(b)
		if w := int32(uint32(got[1][4*i]) | uint32(got[1][4*i+1])<<8 | uint32(got[1][4*i+2])<<16 | uint32(got[1][4*i+3])<<24); int(w) != c {
			t.Errorf("c[%d] = %d, want %d", i, w, c)
		}
		if want := byte((c+3)&0xf) | b&0xf0; got[0][4*i] != want {
			t.Errorf("a[%d] = %#02x, want %#02x", i, got[0][4*i], want)
		}
	}
	if ref != nil {
		if want := runResources(t, ref, res, nil); !bytes.Equal(got[0], want[0]) || !bytes.Equal(got[1], want[1]) {
			t.Errorf("coop's module left %v, glslang's %v", got, want)
		}
	}
}

func TestInt4CoopmatRuns(t *testing.T) {
	ours, ref := compileInt4(t, int4Coop, fmt.Sprint("capability ", uint32(spirv.CapabilityInt4CooperativeMatrixINTEL)))
	in := make([]byte, 768)
	for i := range 512 {
		in[i] = byte(i*37 + i/7)
	}
	res := []resource{{binding: 0, data: in}, {binding: 1, data: make([]byte, 4*256)}}
	got := runResources(t, ours, res, nil)
	nib := func(b []byte, k int) int { return int(b[k/2]>>(4*(k%2))) & 0xf }
	// glslang marks neither A nor B signed: a spirv_type has no signedness
	// GLSL knows of, so the products are of unsigned 4-bit values.
	for i := range 16 {
		for j := range 16 {
			sum := 7
			for k := range 32 {
				sum += nib(in[16*i:], k) * nib(in[256+16*j:], k)
			}
			o := got[1][4*(16*i+j):]
			if w := int(uint32(o[0]) | uint32(o[1])<<8 | uint32(o[2])<<16 | uint32(o[3])<<24); w != sum {
				t.Fatalf("C[%d][%d] = %d, want %d", i, j, w, sum)
			}
		}
	}
	if !bytes.Equal(got[0][512:], in[:256]) {
		t.Error("A stored back differs from A")
	}
	if ref != nil {
		if want := runResources(t, ref, res, nil); !bytes.Equal(got[0], want[0]) || !bytes.Equal(got[1], want[1]) {
			t.Error("coop's module and glslang's leave different memory")
		}
	}
}

// TestInt4SpirvTypeErrors: what GLSL cannot say of a spirv_type is an
// error, never a module spirv-val or SPV_INTEL_int4 rejects.
func TestInt4SpirvTypeErrors(t *testing.T) {
	body := func(s string) string {
		return int4Prelude + "layout(local_size_x = 32) in;\nlayout(binding = 0) buffer A { i4vec2 a[]; };\nvoid main() {\n" + s + "\n}\n"
	}
	for _, c := range []struct{ src, want string }{
		{"#version 450\nlayout(local_size_x = 1) in;\nspirv_type(id = 21, 4, 1) x;\nvoid main() {}\n", "GL_EXT_spirv_intrinsics"},
		{body("int4_t e = extract(a[0], 0); bool b = e == e;"), "'==' :  wrong operand types"},
		{body("int4_t e = extract(a[0], 0); int4_t f = e + e;"), "'+' :  wrong operand types"},
		{body("int4_t x = int4_t(3);"), "cannot construct this type"},
		{body("coopmat<int4_t, gl_ScopeSubgroup, 16, 32, gl_MatrixUseA> m = coopmat<int4_t, gl_ScopeSubgroup, 16, 32, gl_MatrixUseA>(0);"), "cannot construct this type"},
		{body("i4vec2 v = a[0]; int4_t q = v.x;"), "field selection"},
		{body("spirv_type(id = 21, 4, 1, set = 2) y;"), "takes no instruction set"},
	} {
		m, d := Compile("e.comp", []byte(c.src), Options{TargetEnv: "vulkan1.3"})
		if m != nil || !strings.Contains(d.Error(), c.want) {
			t.Errorf("%s\ngave %v, want an error with %q", c.src, d, c.want)
		}
	}
}
