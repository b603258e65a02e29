package compile

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
	cpu "github.com/coopshader/coop/exec"
)

// Shaders for GL_NV_cooperative_matrix2 and GL_NV_cooperative_vector: each
// compiles, passes spirv-val (when present), runs on the CPU executor with
// its numbers checked, and, where glslangValidator is present, gives the
// same buffer as glslang's module.

const coop2Header = `#version 450 core
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_EXT_buffer_reference : enable
`

// runWords runs a module on the executor with one storage buffer (binding
// 0, device-addressable) holding in, and returns the buffer's words.
func runWords(t *testing.T, words []uint32, in []uint32) []uint32 {
	t.Helper()
	dev := cpu.New(cpu.Options{})
	buf, _ := dev.NewBuffer(len(in)*4, backend.UsageStorage|backend.UsageAddress)
	b := make([]byte, len(in)*4)
	for i, w := range in {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	buf.Write(0, b)
	if _, err := dev.Dispatch(&backend.Dispatch{Code: words, Entry: "main", Groups: [3]uint32{1, 1, 1},
		Bindings: []backend.Binding{{Binding: 0, Buffer: buf}}}); err != nil {
		t.Fatal(err)
	}
	buf.Read(0, b)
	out := make([]uint32, len(in))
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

// runCoop2 compiles src with coop, validates and runs it; with
// glslangValidator present it also runs glslang's module and requires the
// same buffer.
func runCoop2(t *testing.T, src string, in []uint32) []uint32 {
	t.Helper()
	words := vulkanWords(t, "t.comp", src)
	got := runWords(t, words, in)
	if ref := glslangModule(t, src); ref != nil {
		refWords, err := ref.Words()
		if err != nil {
			t.Fatal(err)
		}
		want := runWords(t, refWords, in)
		if !equalWords(got, want) {
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("word %d: coop %#x, glslang %#x", i, got[i], want[i])
				}
			}
		}
	}
	return got
}

func equalWords(a, b []uint32) bool {
	var x, y bytes.Buffer
	binary.Write(&x, binary.LittleEndian, a)
	binary.Write(&y, binary.LittleEndian, b)
	return bytes.Equal(x.Bytes(), y.Bytes())
}

func floats(n int, f func(i int) float32) []uint32 {
	out := make([]uint32, n)
	for i := range out {
		out[i] = math.Float32bits(f(i))
	}
	return out
}

func checkFloat(t *testing.T, out []uint32, i int, want float32) {
	t.Helper()
	if got := math.Float32frombits(out[i]); got != want {
		t.Fatalf("word %d = %v, want %v", i, got, want)
	}
}

func TestTensorLoadStoreRuns(t *testing.T) {
	src := coop2Header + `
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer B { float data[]; };

void main() {
	tensorLayoutNV<2> src = createTensorLayoutNV(2);
	src = setTensorLayoutDimensionNV(src, 32, 32);
	src = sliceTensorLayoutNV(src, 8, 16, 4, 16);
	coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> m;
	coopMatLoadTensorNV(m, data, 0, src);
	m = m * 2.0;
	tensorLayoutNV<2> dst = createTensorLayoutNV(2);
	dst = setTensorLayoutDimensionNV(dst, 16, 16);
	coopMatStoreTensorNV(m, data, 1024, dst);
	tensorViewNV<2, false, 1, 0> tv = createTensorViewNV(2, false, 1, 0);
	coopMatStoreTensorNV(m, data, 1280, dst, tv);
}
`
	out := runCoop2(t, src, floats(1536, func(i int) float32 { return float32(i) }))
	for r := 0; r < 16; r++ {
		for c := 0; c < 16; c++ {
			checkFloat(t, out, 1024+r*16+c, 2*float32((8+r)*32+4+c))
		}
	}
}

func TestTensorDecodeRuns(t *testing.T) {
	src := coop2Header + `
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer B { float data[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer fBuf { float f; };

float decode(const in fBuf b, const in uint32_t blockCoords[2], const in uint32_t coordInBlock[2]) {
	return b.f * 3.0 + 1.0;
}

void main() {
	tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV> t = createTensorLayoutNV(2, gl_CooperativeMatrixClampModeConstantNV);
	t = setTensorLayoutDimensionNV(t, 16, 16);
	coopmat<float, gl_ScopeWorkgroup, 16, 16, gl_MatrixUseAccumulator> m;
	coopMatLoadTensorNV(m, data, 0, t, decode);
	coopMatStoreTensorNV(m, data, 256, t);
}
`
	out := runCoop2(t, src, floats(512, func(i int) float32 { return float32(i % 100) }))
	for i := 0; i < 256; i++ {
		checkFloat(t, out, 256+i, float32(i%100)*3+1)
	}
}

func TestTensorDecodeVectorRuns(t *testing.T) {
	src := coop2Header + `#extension GL_NV_cooperative_matrix_decode_vector : enable
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer B { float data[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer fBuf { float f; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer f2Buf { float f[2]; };

float decode(const in fBuf b, const in uint32_t blockCoords[2], const in uint32_t coordInBlock[2]) {
	return b.f + 0.5;
}

vec2 decode2(const in f2Buf b, const in uint32_t blockCoords[2], const in uint32_t coordInBlock[2]) {
	return vec2(b.f[0], b.f[1]) + vec2(0.5);
}

void main() {
	tensorLayoutNV<2> t = createTensorLayoutNV(2);
	t = setTensorLayoutDimensionNV(t, 16, 16);
	coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> m;
	coopMatLoadTensorNV(m, data, 0, t, decode, decode2);
	coopMatStoreTensorNV(m, data, 256, t);
}
`
	out := runCoop2(t, src, floats(512, func(i int) float32 { return float32(i) }))
	for i := 0; i < 256; i++ {
		checkFloat(t, out, 256+i, float32(i)+0.5)
	}
}

func TestCoopMat2OpsRun(t *testing.T) {
	src := coop2Header + `
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer B { float data[]; };

float add(const in float a, const in float b) { return a + b; }
float mx(const in float a, const in float b) { return max(a, b); }
float elem(const in uint r, const in uint c, const in float e, const in float s, const in float o) {
	return e * s + o + float(r * 100u + c);
}

void main() {
	coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> a, sums;
	coopMatLoad(a, data, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
	coopMatReduceNV(sums, a, gl_CooperativeMatrixReduceRowNV, add);
	coopMatStore(sums, data, 256, 16, gl_CooperativeMatrixLayoutRowMajor);
	coopmat<float, gl_ScopeSubgroup, 16, 1, gl_MatrixUseAccumulator> maxes;
	coopMatReduceNV(maxes, a, gl_CooperativeMatrixReduceRowNV, mx);
	coopMatStore(maxes, data, 512, 1, gl_CooperativeMatrixLayoutRowMajor);
	coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> p;
	coopMatPerElementNV(p, a, elem, 2.0, a);
	coopMatStore(p, data, 768, 16, gl_CooperativeMatrixLayoutRowMajor);
	coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> tb;
	coopMatTransposeNV(tb, a);
	coopMatStore(tb, data, 1024, 16, gl_CooperativeMatrixLayoutRowMajor);
	coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> ua = coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA>(a);
	coopMatStore(ua, data, 1280, 16, gl_CooperativeMatrixLayoutRowMajor);
	coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> ha = coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA>(a);
	coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> back = coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA>(ha);
	coopMatStore(back, data, 1536, 16, gl_CooperativeMatrixLayoutRowMajor);
}
`
	in := floats(1792, func(i int) float32 {
		if i < 256 {
			return float32(i%16 + i/16)
		}
		return 0
	})
	out := runCoop2(t, src, in)
	a := func(r, c int) float32 { return float32(c + r) }
	for r := 0; r < 16; r++ {
		var sum float32
		for c := 0; c < 16; c++ {
			sum += a(r, c)
		}
		checkFloat(t, out, 512+r, a(r, 15))
		for c := 0; c < 16; c++ {
			checkFloat(t, out, 256+r*16+c, sum)
			checkFloat(t, out, 768+r*16+c, a(r, c)*3+float32(r*100+c))
			checkFloat(t, out, 1024+r*16+c, a(c, r))
			checkFloat(t, out, 1280+r*16+c, a(r, c))
			checkFloat(t, out, 1536+r*16+c, a(r, c))
		}
	}
}

func TestCoopVecRuns(t *testing.T) {
	src := `#version 450 core
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_NV_cooperative_vector : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
#extension GL_EXT_long_vector : enable
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { float data[]; };

void main() {
	coopvecNV<float, 4> x;
	coopVecLoadNV(x, data, 0);
	coopvecNV<float, 4> y = coopvecNV<float, 4>(1.0, 2.0, 3.0, 4.0);
	coopvecNV<float, 4> z = x * 2.0 + y;
	z[3] = z[0] + float(z.length());
	coopVecStoreNV(z, data, 128);
	coopvecNV<float, 4> r;
	// matrix rows at data[16..31]: r = M x (4x4, row-major, stride 16 bytes).
	coopVecMatMulNV(r, x, gl_ComponentTypeFloat32NV, data, 64, gl_ComponentTypeFloat32NV, 4, 4,
		gl_CooperativeVectorMatrixLayoutRowMajorNV, false, 16);
	coopVecStoreNV(r, data, 160);
	coopVecMatMulAddNV(r, x, gl_ComponentTypeFloat32NV, data, 64, gl_ComponentTypeFloat32NV, data, 0,
		gl_ComponentTypeFloat32NV, 4, 4, gl_CooperativeVectorMatrixLayoutRowMajorNV, false, 16);
	coopVecStoreNV(r, data, 176);
	vector<float, 4> lv = vector<float, 4>(max(r, coopvecNV<float, 4>(100.0)));
	coopvecNV<int, 4> iv = coopvecNV<int, 4>(coopvecNV<float, 4>(lv));
	iv = iv * 2 + coopvecNV<int, 4>(1);
	coopVecStoreNV(coopvecNV<float, 4>(iv), data, 192);
}
`
	in := floats(64, func(i int) float32 {
		switch {
		case i < 4:
			return float32(i + 1)
		case i >= 16 && i < 32:
			return float32(i - 16)
		}
		return 0
	})
	out := runCoop2(t, src, in)
	x := []float32{1, 2, 3, 4}
	for i := 0; i < 3; i++ {
		checkFloat(t, out, 32+i, x[i]*2+float32(i+1))
	}
	checkFloat(t, out, 35, x[0]*2+1+4)
	for row := 0; row < 4; row++ {
		var s float32
		for k := 0; k < 4; k++ {
			s += float32(row*4+k) * x[k]
		}
		checkFloat(t, out, 40+row, s)
		checkFloat(t, out, 44+row, s+x[row])
		checkFloat(t, out, 48+row, float32(int(max(s+x[row], 100))*2+1))
	}
}

// TestWorkgroupScopeLocalSizeID declares a Workgroup-scope matrix in a
// shader sized by local_size_x_id whose id a constant_id shares, as
// llama.cpp's coopmat2 shaders do: the LocalSizeId constants must precede
// the matrix type.
func TestWorkgroupScopeLocalSizeID(t *testing.T) {
	src := coop2Header + `
layout(constant_id = 0) const uint BLOCK_SIZE = 32;
layout(local_size_x_id = 0) in;
layout(std430, binding = 0) buffer B { float data[]; };
void main() {
	coopmat<float, gl_ScopeWorkgroup, 16, 16, gl_MatrixUseAccumulator> m = coopmat<float, gl_ScopeWorkgroup, 16, 16, gl_MatrixUseAccumulator>(float(BLOCK_SIZE));
	coopMatStore(m, data, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
}
`
	m, d := Compile("t.comp", []byte(src), Options{TargetEnv: "vulkan1.3"})
	if m == nil {
		t.Fatalf("compile:\n%v", d)
	}
	validate(t, m, "vulkan1.3")
}

// decodeVectorSrc loads a 16x16 matrix in blocks of 1x16 floats through a
// scalar and a 4-wide vector decode function; vecBody is the vector one's
// return expression.
func decodeVectorSrc(vecBody string) string {
	return coop2Header + `#extension GL_NV_cooperative_matrix_decode_vector : enable
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer B { float data[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Row { float f[16]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Row4 { vec4 f[4]; };

float decode(const in Row b, const in uint32_t blockCoords[2], const in uint32_t coordInBlock[2]) {
	return b.f[coordInBlock[1]] * 2.0 + float(blockCoords[0]);
}

vec4 decode4(const in Row4 b, const in uint32_t blockCoords[2], const in uint32_t coordInBlock[2]) {
	return ` + vecBody + `;
}

void main() {
	tensorLayoutNV<2> t = createTensorLayoutNV(2);
	t = setTensorLayoutBlockSizeNV(t, 1, 16);
	t = setTensorLayoutDimensionNV(t, 16, 16);
	coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> m;
	coopMatLoadTensorNV(m, data, 0, t, decode, decode4);
	tensorLayoutNV<2> plain = createTensorLayoutNV(2);
	plain = setTensorLayoutDimensionNV(plain, 16, 16);
	coopMatStoreTensorNV(m, data, 256, plain);
}
`
}

// TestDecodeVectorChecked runs a load whose vector decode function agrees
// with the scalar one, then one where it does not: the executor calls
// both and reports the disagreement instead of picking one silently.
func TestDecodeVectorChecked(t *testing.T) {
	out := runCoop2(t, decodeVectorSrc("b.f[coordInBlock[1] / 4] * 2.0 + vec4(float(blockCoords[0]))"),
		floats(512, func(i int) float32 { return float32(i) }))
	for i := 0; i < 256; i++ {
		checkFloat(t, out, 256+i, float32(i)*2+float32(i/16))
	}
	m, d := Compile("t.comp", []byte(decodeVectorSrc("b.f[coordInBlock[1] / 4].wzyx * 2.0 + vec4(float(blockCoords[0]))")), Options{TargetEnv: "vulkan1.3"})
	if m == nil {
		t.Fatalf("compile:\n%v", d)
	}
	words, _ := m.Words()
	dev := cpu.New(cpu.Options{})
	buf, _ := dev.NewBuffer(2048, backend.UsageStorage|backend.UsageAddress)
	b := make([]byte, 2048)
	for i := 0; i < 512; i++ {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(i)))
	}
	buf.Write(0, b)
	_, err := dev.Dispatch(&backend.Dispatch{Code: words, Entry: "main", Groups: [3]uint32{1, 1, 1},
		Bindings: []backend.Binding{{Binding: 0, Buffer: buf}}})
	if err == nil || !strings.Contains(err.Error(), "the decode functions disagree at matrix element (0, 0)") {
		t.Errorf("got %v, want the decode functions' disagreement", err)
	}
}
