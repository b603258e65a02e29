package compile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"github.com/coopshader/coop/backend"
	cpu "github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/num"
	"github.com/coopshader/coop/spirv/text"
)

// GL_ARM_tensors and the ARM cooperative matrix layouts, end to end: each
// shader compiles, passes spirv-val (when present), runs on the CPU
// executor against results computed here, and, where glslangValidator is
// present, glslang's module gives the same memory.

// resource is one descriptor of a test run: a buffer, or a tensor laid
// out in its buffer.
type resource struct {
	binding, elem uint32
	data          []byte
	tensor        *backend.TensorDescription
}

// runResources runs one workgroup of words over the resources (and the
// push constants) and returns every resource's memory afterwards.
func runResources(t *testing.T, words []uint32, res []resource, push []byte) [][]byte {
	t.Helper()
	dev := cpu.New(cpu.Options{})
	var bs []backend.Binding
	var bufs []backend.Buffer
	for _, r := range res {
		b, err := dev.NewBuffer(len(r.data), backend.UsageStorage)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(0, r.data)
		bind := backend.Binding{Binding: r.binding, ArrayElement: r.elem, Buffer: b}
		if r.tensor != nil {
			bind.Kind, bind.Tensor = backend.StorageTensor, r.tensor
		}
		bs = append(bs, bind)
		bufs = append(bufs, b)
	}
	if _, err := dev.Dispatch(&backend.Dispatch{Code: words, Entry: "main", Groups: [3]uint32{1, 1, 1},
		Bindings: bs, PushConstants: push}); err != nil {
		t.Fatal(err)
	}
	out := make([][]byte, len(bufs))
	for i, b := range bufs {
		out[i] = make([]byte, b.Size())
		b.Read(0, out[i])
	}
	return out
}

// runBoth compiles src with coop and runs it; with glslangValidator
// present, glslang's module must leave the same memory.
func runBoth(t *testing.T, src string, res []resource, push []byte) [][]byte {
	t.Helper()
	words := vulkanWords(t, "t.comp", src)
	got := runResources(t, words, res, push)
	ref := glslangModule(t, src)
	if ref == nil {
		return got
	}
	refWords, err := ref.Words()
	if err != nil {
		t.Fatal(err)
	}
	want := runResources(t, refWords, res, push)
	for i := range got {
		if !bytes.Equal(got[i], want[i]) {
			t.Fatalf("resource %d: coop's module left %v, glslang's %v", i, got[i], want[i])
		}
	}
	return got
}

const tensorSrc = `#version 460 core
#extension GL_ARM_tensors : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) uniform readonly tensorARM<int, 2> src;
layout(set = 0, binding = 1) uniform writeonly tensorARM<int, 2> dst;
layout(set = 0, binding = 2) uniform tensorARM<uint8_t, 1> bytes[2];
layout(set = 0, binding = 3, std430) buffer Out { int o[]; };
layout(push_constant) uniform P { uint k; } pc;

int readOne(readonly tensorARM<int, 2> t, uint r, uint c) {
	int v;
	tensorReadARM(t, uint[](r, c), v);
	return v;
}

uint length0(tensorARM<uint8_t, 1> t) { return tensorSizeARM(t, 0); }

void main() {
	uint x = gl_LocalInvocationID.x;
	int three[3];
	tensorReadARM(src, uint[](x / 2u, 2u * x), three, gl_TensorOperandsOutOfBoundsValueARM, -7);
	for (int i = 0; i < 3; i++)
		o[3 * x + i] = three[i];
	o[24 + x] = readOne(src, x, 5u);
	int pair[2] = int[](int(x) * 10, int(x) * 10 + 1);
	tensorWriteARM(dst, uint[](x / 2u, (x % 2u) * 4u + 1u), pair, gl_TensorOperandsNonTemporalARM);
	uint8_t b;
	tensorReadARM(bytes[pc.k], uint[](x), b);
	o[32 + x] = int(b);
	tensorWriteARM(bytes[1u - pc.k], uint[](x), uint8_t(x * 3u));
	o[40] = int(tensorSizeARM(src, 0));
	o[41] = int(tensorSizeARM(dst, 1));
	o[42] = int(length0(bytes[pc.k]));
	o[43] = int(length0(bytes[1u - pc.k]));
}
`

func TestTensorARMRuns(t *testing.T) {
	// src: 4 x 6 ints, rows 8 elements apart, (i, j) holding 100*i + j.
	srcData := make([]byte, 4*8*4)
	for i := range 4 {
		for j := range 8 {
			binary.LittleEndian.PutUint32(srcData[4*(8*i+j):], uint32(100*i+j))
		}
	}
	dstData := bytes.Repeat([]byte{0xff}, 4*6*4) // -1 everywhere
	b0 := []byte{11, 12, 13, 14, 15}             // bytes[0]: 5 elements
	b1 := []byte{21, 22, 23, 24, 25, 26, 27}     // bytes[1]: 7 elements
	res := []resource{
		{binding: 0, data: srcData, tensor: &backend.TensorDescription{Format: backend.TensorInt32, Dimensions: []int64{4, 6}, Strides: []int64{32, 4}}},
		{binding: 1, data: dstData, tensor: &backend.TensorDescription{Format: backend.TensorInt32, Dimensions: []int64{4, 6}}},
		{binding: 2, elem: 0, data: b0, tensor: &backend.TensorDescription{Format: backend.TensorUint8, Dimensions: []int64{5}}},
		{binding: 2, elem: 1, data: b1, tensor: &backend.TensorDescription{Format: backend.TensorUint8, Dimensions: []int64{7}}},
		{binding: 3, data: make([]byte, 4*44)},
	}
	push := make([]byte, 4)
	binary.LittleEndian.PutUint32(push, 1) // k = 1: read bytes[1], write bytes[0]
	out := runBoth(t, tensorSrc, res, push)

	src := func(i, j int, oob int32) int32 {
		if i < 0 || i >= 4 || j < 0 || j >= 6 {
			return oob
		}
		return int32(100*i + j)
	}
	o := make([]int32, 44)
	for i := range o {
		o[i] = int32(binary.LittleEndian.Uint32(out[4][4*i:]))
	}
	want := make([]int32, 44)
	dst := make([]int32, 24)
	for i := range dst {
		dst[i] = -1
	}
	nb0 := append([]byte(nil), b0...)
	for x := range 8 {
		for k := range 3 {
			want[3*x+k] = src(x/2, 2*x+k, -7)
		}
		want[24+x] = src(x, 5, 0)
		for k := range 2 {
			if r, c := x/2, x%2*4+1+k; c < 6 {
				dst[6*r+c] = int32(10*x + k)
			}
		}
		if x < len(b1) {
			want[32+x] = int32(b1[x])
		}
		if x < len(nb0) {
			nb0[x] = byte(3 * x)
		}
	}
	want[40], want[41], want[42], want[43] = 4, 6, 7, 5
	for i := range want {
		if o[i] != want[i] {
			t.Errorf("o[%d] = %d, want %d", i, o[i], want[i])
		}
	}
	for i, w := range dst {
		if got := int32(binary.LittleEndian.Uint32(out[1][4*i:])); got != w {
			t.Errorf("dst element (%d, %d) = %d, want %d", i/6, i%6, got, w)
		}
	}
	if !bytes.Equal(out[2], nb0) || !bytes.Equal(out[3], b1) {
		t.Errorf("bytes tensors %v %v, want %v %v", out[2], out[3], nb0, b1)
	}
	if !bytes.Equal(out[0], srcData) {
		t.Error("the readonly tensor changed")
	}
}

// blockedBytes lays out an R x C matrix of es-byte elements (row-major
// bytes in m) as SPV_ARM_cooperative_matrix_layouts describes, walking
// memory forward: groups of S blocks of 4 rows and 16/es columns, in row-
// or column-major block order, interleaved 4 bytes at a time.
func blockedBytes(m []byte, col bool, S, R, C, es int) []byte {
	bc := 16 / es
	down, across := R/4, C/bc
	var out []byte
	for g := 0; g < down*across/S; g++ {
		for unit := 0; unit < 16; unit++ {
			for i := 0; i < S; i++ {
				b := g*S + i
				r0, c0 := b/across*4, b%across*bc
				if col {
					r0, c0 = b%down*4, b/down*bc
				}
				for k := 0; k < 4; k++ {
					w := unit*4 + k
					e := w / es
					r, c := r0+e/bc, c0+e%bc
					out = append(out, m[(r*C+c)*es+w%es])
				}
			}
		}
	}
	return out
}

func TestARMBlockedLayoutsRun(t *testing.T) {
	const (
		row = "gl_CooperativeMatrixLayoutRowBlockedInterleavedARM"
		col = "gl_CooperativeMatrixLayoutColumnBlockedInterleavedARM"
	)
	for _, c := range []struct {
		glsl, buf string
		es, R, C  int
		in        string
		inS       int
		out       string
		outS      int
	}{
		{"float16_t", "float16_t", 2, 8, 16, row, 2, col, 1},
		{"float", "float", 4, 16, 8, col, 4, row, 2},
		{"uint8_t", "uint8_t", 1, 8, 32, row, 1, col, 2},
		{"int16_t", "int16_t", 2, 8, 16, col, 2, row, 2},
	} {
		t.Run(fmt.Sprintf("%s_%dx%d", c.glsl, c.R, c.C), func(t *testing.T) {
			src := fmt.Sprintf(`#version 450 core
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer A { %[2]s a[]; };
layout(set = 0, binding = 1) buffer B { %[2]s b[]; };
layout(set = 0, binding = 2) buffer C { %[2]s c[]; };
void main() {
	coopmat<%[1]s, gl_ScopeSubgroup, %[3]d, %[4]d, gl_MatrixUseAccumulator> m;
	coopMatLoad(m, a, 0, %[6]d, %[5]s);
	coopMatStore(m, b, 0, %[4]d, gl_CooperativeMatrixLayoutRowMajor);
	coopMatStore(m, c, 0, %[8]d, %[7]s);
}
`, c.glsl, c.buf, c.R, c.C, c.in, c.inS, c.out, c.outS)
			n := c.R * c.C * c.es
			// Distinct elements: element e holds e+1 in the element type.
			m := make([]byte, n)
			for e := 0; e < c.R*c.C; e++ {
				var v uint64
				switch c.glsl {
				case "float16_t":
					v = num.Encode(float64(e+1), 5, 10, true)
				case "float":
					v = uint64(math.Float32bits(float32(e + 1)))
				default:
					v = uint64(e + 1)
				}
				var w [8]byte
				binary.LittleEndian.PutUint64(w[:], v)
				copy(m[e*c.es:], w[:c.es])
			}
			in := blockedBytes(m, c.in == col, c.inS, c.R, c.C, c.es)
			out := runBoth(t, src, []resource{{binding: 0, data: in}, {binding: 1, data: make([]byte, n)}, {binding: 2, data: make([]byte, n)}}, nil)
			if !bytes.Equal(out[1], m) {
				t.Errorf("row-major store of the blocked load:\n got %v\nwant %v", out[1], m)
			}
			if want := blockedBytes(m, c.out == col, c.outS, c.R, c.C, c.es); !bytes.Equal(out[2], want) {
				t.Errorf("blocked store:\n got %v\nwant %v", out[2], want)
			}
		})
	}
}

// TestTensorARMModule checks the module's declarations: the capabilities
// (dynamic indexing of a tensor array only where an index is not
// constant), parameters passed as UniformConstant pointers with their
// memory qualifiers, and the operand masks glslang writes.
func TestTensorARMModule(t *testing.T) {
	const hdr = "#version 460\n#extension GL_ARM_tensors : enable\nlayout(local_size_x = 1) in;\n" +
		"layout(binding = 0) uniform tensorARM<float, 2> ts[3];\nlayout(binding = 1) buffer B { uint u; float f; };\n"
	for _, c := range []struct {
		name, body string
		want, not  []string
	}{
		{"constant index", "void main() { float v; tensorReadARM(ts[2], uint[](0, u), v); f = v; }",
			[]string{"OpCapability TensorsARM", `OpExtension "SPV_ARM_tensors"`, "OpTensorReadARM %float"},
			[]string{"StorageTensorArrayDynamicIndexingARM", "OutOfBoundsValueARM"}},
		{"dynamic index", "void main() { float v[2]; tensorReadARM(ts[u], uint[](1, 2), v, gl_TensorOperandsOutOfBoundsValueARM | gl_TensorOperandsNonTemporalARM, 0.5); f = v[1]; }",
			[]string{"OpCapability StorageTensorArrayDynamicIndexingARM", "NontemporalARM|OutOfBoundsValueARM %float_0_5"}, nil},
		{"parameters", "uint n(readonly tensorARM<float, 2> t) { return tensorSizeARM(t, 1); }\n" +
			"void w(writeonly tensorARM<float, 2> t) { tensorWriteARM(t, uint[](0, 0), 1.0, gl_TensorOperandsNonTemporalARM); }\n" +
			"void main() { u = n(ts[0]); w(ts[1]); }",
			[]string{"OpDecorate %t NonWritable", "OpDecorate %t_0 NonReadable", "OpTypeFunction %uint %_ptr_UniformConstant_",
				"OpTensorQuerySizeARM %uint", "NontemporalARM"},
			[]string{"StorageTensorArrayDynamicIndexingARM", "%_ptr_Function_tensor"}},
	} {
		m, d := Compile("t.comp", []byte(hdr+c.body), Options{TargetEnv: "vulkan1.3"})
		if m == nil {
			t.Fatalf("%s: %v", c.name, d)
		}
		validate(t, m, "vulkan1.3")
		b, err := text.Disassemble(m, text.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range c.want {
			if !bytes.Contains(b, []byte(w)) {
				t.Errorf("%s: no %q in\n%s", c.name, w, b)
			}
		}
		for _, n := range c.not {
			if bytes.Contains(b, []byte(n)) {
				t.Errorf("%s: %q in\n%s", c.name, n, b)
			}
		}
	}
}
