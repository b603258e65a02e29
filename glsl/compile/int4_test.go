package compile

import (
	"bytes"
	"fmt"
	"math"
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

// declared lists a module's capabilities and extensions, sorted, each
// once (glslangValidator may declare one twice).
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
	return slices.Compact(out)
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

// int4Convert converts cooperative matrices of signed and unsigned 4-bit
// integers to and from 32-bit, 8-bit and float ones. glslangValidator
// accepts these constructors but emits no conversion instruction (a load
// of the source type stored to the result's variable, which spirv-val
// rejects), so the expected values come from SPIR-V's conversion rules.
const int4Convert = int4Prelude + `#undef int4_t
#define int4_t spirv_type(extensions = ["SPV_INTEL_int4"], capabilities = [5112, 5114], id = 21, 4, 1)
#define uint4_t spirv_type(extensions = ["SPV_INTEL_int4"], capabilities = [5112, 5114], id = 21, 4, 0)
#define ACC(T) coopmat<T, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>
layout(local_size_x = 32) in;
layout(binding = 0) buffer A { uint8_t a[]; };
layout(binding = 1) buffer B { int c[]; };
layout(binding = 2) buffer U { uint u[]; };
layout(binding = 3) buffer F { float f[]; };
layout(binding = 4) buffer O { uint8_t o[]; };
void main() {
	ACC(int4_t) s4;
	ACC(uint4_t) u4;
	coopMatLoad(s4, a, 0, 8, gl_CooperativeMatrixLayoutRowMajor);
	coopMatLoad(u4, a, 0, 8, gl_CooperativeMatrixLayoutRowMajor);
	ACC(int) si = ACC(int)(s4);
	ACC(uint) ui = ACC(uint)(u4);
	ACC(int) ui2 = ACC(int)(u4);
	ACC(float16_t) h = ACC(float16_t)(s4);
	ACC(float) fl = ACC(float)(h) + ACC(float)(u4);
	coopMatStore(si, c, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
	coopMatStore(ui, u, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
	coopMatStore(ui2, c, 256, 16, gl_CooperativeMatrixLayoutRowMajor);
	coopMatStore(fl, f, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
	ACC(int4_t) b1 = ACC(int4_t)(si * ACC(int)(3));
	ACC(uint4_t) b2 = ACC(uint4_t)(fl * ACC(float)(0.5));
	ACC(uint8_t) m8 = ACC(uint8_t)(ui);
	ACC(int4_t) b4 = ACC(int4_t)(ACC(uint4_t)(m8));
	coopMatStore(b1, o, 0, 8, gl_CooperativeMatrixLayoutRowMajor);
	coopMatStore(b2, o, 128, 8, gl_CooperativeMatrixLayoutRowMajor);
	coopMatStore(b4, o, 256, 8, gl_CooperativeMatrixLayoutRowMajor);
}
`

func TestInt4CoopmatConvertRuns(t *testing.T) {
	m, d := Compile("int4.comp", []byte(int4Convert), Options{TargetEnv: "vulkan1.3"})
	if m == nil {
		t.Fatalf("compile:\n%v", d)
	}
	if _, err := validator.Validate(m, validator.Options{TargetEnv: "vulkan1.3"}); err != nil {
		t.Errorf("coop's validator: %v", err)
	}
	validate(t, m, "spirv1.6")
	words, err := m.Words()
	if err != nil {
		t.Fatal(err)
	}
	in := make([]byte, 128)
	for i := range in {
		in[i] = byte(i*29 + 7)
	}
	res := []resource{{binding: 0, data: in}, {binding: 1, data: make([]byte, 4*512)}, {binding: 2, data: make([]byte, 4*256)},
		{binding: 3, data: make([]byte, 4*256)}, {binding: 4, data: make([]byte, 384)}}
	got := runResources(t, words, res, nil)
	word := func(b []byte, k int) uint32 {
		return uint32(b[4*k]) | uint32(b[4*k+1])<<8 | uint32(b[4*k+2])<<16 | uint32(b[4*k+3])<<24
	}
	nib := func(b []byte, k int) int { return int(b[k/2]>>(4*(k%2))) & 0xf }
	for k := range 256 {
		u := nib(in, k)
		s := int(int8(u<<4) >> 4)
		for _, c := range []struct {
			what      string
			got, want int64
		}{
			{"int(int4)", int64(int32(word(got[1], k))), int64(s)},
			{"uint(uint4)", int64(word(got[2], k)), int64(u)},
			{"int(uint4)", int64(int32(word(got[1], 256+k))), int64(u)},
			{"float(float16(int4)) + float(uint4)", int64(math.Float32frombits(word(got[3], k))), int64(s + u)},
			{"int4(int * 3)", int64(nib(got[4], k)), int64(s*3) & 0xf},
			{"uint4(float * 0.5)", int64(nib(got[4][128:], k)), int64(float64(s+u)*0.5) & 0xf},
			{"int4(uint4(uint8(uint)))", int64(nib(got[4][256:], k)), int64(u)},
		} {
			if c.got != c.want {
				t.Fatalf("element %d (int4 %d, uint4 %d): %s = %d, want %d", k, s, u, c.what, c.got, c.want)
			}
		}
	}
}

// int4Local keeps 4-bit integers as scalars in Private and Function
// memory (the only storage classes SPV_INTEL_int4 allows them in): a
// Private variable, a Function array of them and a struct member.
const int4Local = int4Prelude + `layout(local_size_x = 8) in;
layout(binding = 0) buffer A { i4vec2 a[]; };
layout(binding = 1) buffer B { int c[]; };
struct S { int x; int4_t q; };
int4_t priv;
i4vec2 pv;
void main() {
	uint i = gl_GlobalInvocationID.x;
	i4vec2 v = a[i];
	int4_t e = extract(v, 1);
	priv = extract(v, 0);
	pv = v;
	int4_t arr[3];
	arr[i % 3] = toI4(int(i) - 4);
	arr[(i + 1) % 3] = arr[i % 3];
	S s = S(2, priv);
	s.q = toI4(toInt(s.q) * s.x);
	c[i] = toInt(e) * 1000 + toInt(priv) * 100 + toInt(arr[(i + 1) % 3]) * 10 + toInt(extract(pv, 1)) + toInt(s.q) * 10000;
}
`

func TestInt4LocalRuns(t *testing.T) {
	ours, ref := compileInt4(t, int4Local)
	in := make([]byte, 32)
	for i := range 8 {
		in[4*i] = byte(0x9e + 0x13*i)
	}
	res := []resource{{binding: 0, data: in}, {binding: 1, data: make([]byte, 32)}}
	got := runResources(t, ours, res, nil)
	s4 := func(v int) int { return int(int8(v<<4) >> 4) }
	for i := range 8 {
		hi, lo := s4(int(in[4*i]>>4)), s4(int(in[4*i]&0xf))
		want := hi*1000 + lo*100 + (i-4)*10 + hi + s4(lo*2)*10000
		if w := int32(uint32(got[1][4*i]) | uint32(got[1][4*i+1])<<8 | uint32(got[1][4*i+2])<<16 | uint32(got[1][4*i+3])<<24); int(w) != want {
			t.Errorf("c[%d] = %d, want %d", i, w, want)
		}
	}
	if ref != nil {
		if want := runResources(t, ref, res, nil); !bytes.Equal(got[1], want[1]) {
			t.Errorf("coop's module left %v, glslang's %v", got[1], want[1])
		}
	}
}
