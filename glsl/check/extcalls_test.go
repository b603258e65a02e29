package check

import (
	"math"
	"strings"
	"testing"
)

// runRules checks each source as TestRules does: want is a substring of
// the diagnostics, or "" for a clean check.
func runRules(t *testing.T, tests []struct{ name, src, want string }) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, out := checkSrc(t, tc.src)
			if tc.want == "" {
				if out != "" {
					t.Errorf("unexpected diagnostics:\n%s", out)
				}
				return
			}
			if !strings.Contains(out, tc.want) {
				t.Errorf("want %q in:\n%s", tc.want, out)
			}
		})
	}
}

const printfHdr = "#version 450\n#extension GL_EXT_debug_printf : enable\nlayout(local_size_x = 1) in;\n"
const abortHdr = "#version 450\n#extension GL_EXT_abort : enable\nlayout(local_size_x = 1) in;\n"

func TestPrintfAbort(t *testing.T) {
	runRules(t, []struct{ name, src, want string }{
		{"printf", printfHdr + "void main() { debugPrintfEXT(\"x=%d v=%v3f\", 1, vec3(1.0)); }", ""},
		{"printf only format", printfHdr + "void main() { debugPrintfEXT(\"hello\"); }", ""},
		{"printf many types", printfHdr + "void main() { debugPrintfEXT(\"%u %f %d\", 1u, 2.0, true); }", ""},
		{"printf without extension", hdr + "void main() { debugPrintfEXT(\"x\"); }", "t.comp:3: 'debugPrintfEXT' : required extension not requested: GL_EXT_debug_printf"},
		{"printf empty format", printfHdr + "void main() { debugPrintfEXT(\"\"); }", ""},
		{"abort string later", abortHdr + "void main() { abortEXT(\"a\", \"b\"); }", "string literals are only allowed as the format of debugPrintfEXT and abortEXT"},
		{"printf no args", printfHdr + "void main() { debugPrintfEXT(); }", "t.comp:4: 'debugPrintfEXT' :  no matching overloaded function found"},
		{"printf format not string", printfHdr + "void main() { debugPrintfEXT(1); }", "first argument must be a string literal"},
		{"printf second string", printfHdr + "void main() { debugPrintfEXT(\"a\", \"b\"); }", "string literals are only allowed as the format of debugPrintfEXT and abortEXT"},
		{"printf matrix arg", printfHdr + "void main() { debugPrintfEXT(\"%f\", mat2(1.0)); }", "argument 2 must be a scalar or vector"},
		{"printf struct arg", printfHdr + "struct S { int a; };\nvoid main() { S s; debugPrintfEXT(\"%d\", s); }", "argument 2 must be a scalar or vector"},
		{"string elsewhere", printfHdr + "void main() { int x = \"a\"; }", "string literals are only allowed as the format of debugPrintfEXT and abortEXT"},
		{"abort empty", abortHdr + "void main() { abortEXT(); }", ""},
		{"abort message", abortHdr + "void main() { abortEXT(\"stop %u\", gl_GlobalInvocationID.x); }", ""},
		{"abort without extension", hdr + "void main() { abortEXT(); }", "t.comp:3: 'abortEXT' : required extension not requested: GL_EXT_abort"},
		{"abort value without message", abortHdr + "void main() { abortEXT(1); }", "first argument must be a string literal"},
		{"user function shadows", hdr + "void abortEXT(int x) {}\nvoid main() { abortEXT(1); }", ""},
		{"user function no string", hdr + "void abortEXT(int x) {}\nvoid main() { abortEXT(\"a\"); }", "string literals are only allowed"},
	})
}

// TestPrintfTree checks the typed tree of a debugPrintfEXT call.
func TestPrintfTree(t *testing.T) {
	prog, out := checkSrc(t, printfHdr+"void main() { debugPrintfEXT(\"a\\tb %d\", 7); }")
	if out != "" {
		t.Fatal(out)
	}
	call := prog.Main.Body.Stmts[0].(*ExprStmt).X.(*BuiltinCall)
	if call.Fn != BDebugPrintfEXT || call.Fn.String() != "debugPrintfEXT" || !call.Type().IsVoid() {
		t.Fatalf("call %v of type %v", call.Fn, call.Type())
	}
	s, ok := call.Args[0].(*StringConst)
	if !ok || s.Text != "a\tb %d" || s.Type().Kind != KString || s.Type().String() != "string" {
		t.Fatalf("format %#v", call.Args[0])
	}
	if len(call.Params) != 2 || !Identical(call.Params[1], TInt) {
		t.Errorf("params %v", call.Params)
	}
}

const mxHdr = "#version 450\n#extension GL_EXT_float_e2m1 : enable\n#extension GL_EXT_float_e2m3 : enable\n#extension GL_EXT_float_e3m2 : enable\n#extension GL_EXT_float_mxint8 : enable\n#extension GL_EXT_long_vector : enable\n#extension GL_EXT_shader_explicit_arithmetic_types : enable\nlayout(local_size_x = 1) in;\n"

func TestMicroscalingFloats(t *testing.T) {
	runRules(t, []struct{ name, src, want string }{
		{"types", mxHdr + "void main() { floate2m1_t a; fe2m3vec2 b; fe3m2vec4 c; floatmxint8_t d; vector<floate2m1_t, 8> e; }", ""},
		{"no extension", hdr + "void main() { floate2m1_t a; }", "t.comp:3: 'floate2m1_t' : required extension not requested: GL_EXT_float_e2m1"},
		{"mxint8 vectors and literals", mxHdr + "void main() { fmxint8vec2 a = fmxint8vec2(1.5fmxint8); fmxint8vec4 b = fmxint8vec4(a, a); }", ""},
		{"mxint8 literal needs extension", "#version 450\nlayout(local_size_x = 1) in;\nvoid main() { float f = float(1.5fmxint8); }", "GL_EXT_float_mxint8"},
		{"literal suffix", mxHdr + "void main() { floate2m1_t a = 1.5fe2m1; floate3m2_t b = 2.0fe3m2; }", ""},
		{"literal suffix without extension", hdr + "void main() { float a = 1.0fe2m1; }", "required extension not requested: GL_EXT_float_e2m1"},
		{"widens implicitly", mxHdr + "void main() { floate2m1_t a = floate2m1_t(1.0); float16_t h = a; float f = a; double d = a; f = floatmxint8_t(0.5); }", ""},
		{"no implicit narrowing", mxHdr + "void main() { floate2m1_t a = 1.0; }", "cannot convert"},
		{"no arithmetic", mxHdr + "void main() { floate2m3_t a = floate2m3_t(1); a = a + a; }", "wrong operand types"},
		{"pack e2m1", mxHdr + "void main() { uint8_t a = packFloat2xfe2m1EXT(fe2m1vec2(0)); uint16_t b = packFloat4xfe2m1EXT(fe2m1vec4(0)); uint c = packFloat8xfe2m1EXT(vector<floate2m1_t, 8>(0)); u32vec2 d = packFloat16xfe2m1EXT(vector<floate2m1_t, 16>(0)); }", ""},
		{"unpack e2m1", mxHdr + "void main() { fe2m1vec2 a = unpackFloat2xfe2m1EXT(uint8_t(0)); vector<floate2m1_t, 16> b = unpackFloat16xfe2m1EXT(u32vec2(0)); }", ""},
		{"pack e2m3", mxHdr + "void main() { u8vec3 a = packFloat4xfe2m3EXT(fe2m3vec4(0)); u32vec3 b = packFloat16xfe3m2EXT(vector<floate3m2_t, 16>(0)); }", ""},
		{"no pack2 for 6-bit", mxHdr + "void main() { packFloat2xfe2m3EXT(fe2m3vec2(0)); }", "no matching overloaded function found"},
		{"pack wrong length", mxHdr + "void main() { packFloat8xfe2m1EXT(vector<floate2m1_t, 7>(0)); }", "no matching overloaded function found"},
		{"bitcastExtract", mxHdr + "void main() { floate2m1_t a = bitcastExtractfe2m1EXT(uint8_t(1), 2); fe3m2vec4 b = bitcastExtractfe3m2EXT(u8vec4(1), 0); vector<floate2m3_t, 7> c = bitcastExtractfe2m3EXT(vector<uint8_t, 7>(1), 3); }", ""},
		{"no sub-byte block member", mxHdr + "layout(binding = 0) buffer B { floate2m1_t x; };\nvoid main() {}", "member of block cannot be or contain a sub-byte type"},
		{"no sub-byte shared", mxHdr + "shared fe3m2vec2 s[4];\nvoid main() {}", "sub-byte sized types not allowed in storage class"},
		{"mxint8 in a block", mxHdr + "layout(binding = 0) buffer B { floatmxint8_t x; };\nvoid main() { x = intBitsToFloatmxint8EXT(int8_t(3)); int8_t i = floatmxint8BitsToIntEXT(x); }", ""},
		{"bitcastExtract needs uint8", mxHdr + "void main() { bitcastExtractfe2m1EXT(1u, 2); }", "no matching overloaded function found"},
		{"pack without extension", "#version 450\n#extension GL_EXT_float_e2m3 : enable\nlayout(local_size_x = 1) in;\nvoid main() { packFloat2xfe2m1EXT(fe2m3vec2(0)); }", "required extension not requested: GL_EXT_float_e2m1"},
	})
}

func TestMicroscalingRounding(t *testing.T) {
	cases := []struct {
		s    Scalar
		in   float64
		want float64
	}{
		{E2M1, 10, 6}, {E2M1, -7, -6}, {E2M1, 0.3, 0.5}, {E2M1, 2.5, 2}, {E2M1, 3.5, 4}, {E2M1, 0.2, 0},
		{E2M3, 10, 7.5}, {E2M3, 1.0625, 1}, {E2M3, 0.125, 0.125},
		{E3M2, 100, 28}, {E3M2, 0.0625, 0.0625}, {E3M2, 1.1, 1},
		{MXInt8, 0.015625, 0.015625}, {MXInt8, 1.0 / 128, 0}, {MXInt8, 3, 127.0 / 64}, {MXInt8, -100, -127.0 / 64}, // symmetric, as glslang's constants
		{MXInt8, math.Inf(1), 127.0 / 64}, {MXInt8, math.NaN(), 0},
	}
	for _, tc := range cases {
		if got := roundFloat(tc.s, tc.in); got != tc.want {
			t.Errorf("%v(%v) = %v, want %v", tc.s, tc.in, got, tc.want)
		}
	}
	for _, tc := range []struct {
		s    Scalar
		bits int
		name string
	}{{E2M1, 4, "floate2m1_t"}, {E2M3, 6, "floate2m3_t"}, {E3M2, 6, "floate3m2_t"}, {MXInt8, 8, "floatmxint8_t"}} {
		if tc.s.Bits() != tc.bits || tc.s.String() != tc.name || !tc.s.IsNarrowFloat() || tc.s.IsIEEEFloat() {
			t.Errorf("%v: bits %d", tc.s, tc.s.Bits())
		}
		if sz, al := SizeAlign(ScalarType(tc.s), PackStd430, false); sz != 1 || al != 1 {
			t.Errorf("%v: size %d align %d", tc.s, sz, al)
		}
	}
	if got := VectorType(E2M1, 3).String(); got != "fe2m1vec3" {
		t.Errorf("vector spelled %s", got)
	}
}

const heapHdr = "#version 460\n#extension GL_EXT_descriptor_heap : require\n#extension GL_EXT_structured_descriptor_heap : require\n#extension GL_EXT_buffer_reference : require\nlayout(local_size_x = 1) in;\n" +
	"layout(buffer_type, std430) buffer Data { uint a; uint b; };\n"

func TestDescriptorHeap(t *testing.T) {
	runRules(t, []struct{ name, src, want string }{
		{"buffer type and heap", heapHdr + "layout(heap_offset = 64) resourceheap H { uint n; Data d; Data ds[]; } h;\nvoid main() { h.d.a = h.ds[2].b + h.n; }", ""},
		{"buffer type is a type", heapHdr + "struct M { vec4 v; Data d; };\nlayout(heap_offset = 0) resourceheap H { M ms[4]; } h;\nvoid main() { h.ms[1].d.b = 1u; }", ""},
		{"buffer type members not globals", heapHdr + "layout(buffer_type) buffer Data2 { uint a; };\nvoid main() { a = 1u; }", "t.comp:8: 'a' : undeclared identifier"},
		{"buffer type instance", heapHdr + "layout(buffer_type) buffer D2 { uint x; } d2;\nvoid main() {}", "buffer_type block declares a type"},
		{"buffer type needs extension", "#version 460\nlayout(local_size_x = 1) in;\nlayout(buffer_type) buffer D { uint x; };\nvoid main() {}", "'buffer_type' : required extension not requested"},
		{"heap needs extension", "#version 460\n#extension GL_EXT_descriptor_heap : require\nlayout(local_size_x = 1) in;\nlayout(heap_offset = 0) resourceheap H { uint n; } h;\nvoid main() {}", "'resourceheap' : required extension not requested: GL_EXT_structured_descriptor_heap"},
		{"heap data read-only", heapHdr + "layout(heap_offset = 0) resourceheap H { uint n; } h;\nvoid main() { h.n = 1u; }", "can't modify a descriptor heap"},
		{"readonly buffer type", heapHdr + "layout(buffer_type) readonly buffer R { uint x; };\nlayout(heap_offset = 0) resourceheap H { R r; } h;\nvoid main() { h.r.x = 1u; }", "can't modify a readonly buffer"},
		{"opaque members", heapHdr + "layout(heap_offset = 0) resourceheap H { layout(rgba32f) image2D im[2]; texture2D tx; } h;\nlayout(heap_offset = 32) samplerheap S { sampler s[2]; } sh;\nvoid main() { vec4 v = imageLoad(h.im[1], ivec2(0)); v += textureLod(sampler2D(h.tx, sh.s[0]), vec2(0.5), 0.0); imageStore(h.im[0], ivec2(0), v); }", ""},
		{"samplerheap samplers only", heapHdr + "layout(heap_offset = 0) samplerheap S { uint n; } s;\nvoid main() {}", "samplerheap members must be samplers"},
		{"heap instance required", heapHdr + "layout(heap_offset = 0) resourceheap H { uint n; };\nvoid main() {}", "need an instance name"},
		{"heap offset expression", heapHdr + "layout(push_constant) uniform P { uint off; } p;\nlayout(constant_id = 0) const uint k = 8;\nlayout(heap_offset = p.off) resourceheap H { uint n; } h;\nlayout(heap_offset = k) resourceheap H2 { uint n; } h2;\nvoid main() {}", ""},
		{"heap offset float", heapHdr + "layout(heap_offset = 1.5) resourceheap H { uint n; } h;\nvoid main() {}", "must be a scalar int or uint expression"},
		{"inline reference blocks", heapHdr + "layout(heap_offset = 0) resourceheap H { layout(buffer_reference, std430) buffer { uint v; } r; layout(buffer_reference) buffer Named { float f; } n; } h;\nvoid main() { h.r.v = uint(h.n.f); Named m = h.n; }", ""},
		{"inline block in struct", heapHdr + "struct S { layout(buffer_reference) buffer { uint v; } r; };\nvoid main() {}", "inline block types are only allowed in descriptor heaps"},
		{"heap offset missing value", heapHdr + "layout(heap_offset) resourceheap H { uint n; } h;\nvoid main() {}", "needs an integer expression"},
		{"inline block elsewhere", heapHdr + "layout(binding = 0) buffer B { layout(buffer_reference) buffer { uint v; } r; } b;\nvoid main() {}", "inline block types are only allowed in descriptor heaps"},
		{"inline block needs kind", heapHdr + "layout(heap_offset = 0) resourceheap H { layout(std430) buffer { uint v; } r; } h;\nvoid main() {}", "must be a buffer_reference or buffer_type block"},
		{"unsized not last", heapHdr + "layout(heap_offset = 0) resourceheap H { Data ds[]; uint n; } h;\nvoid main() {}", "array size required"},
	})
}

// TestDescriptorHeapTree checks what lowering sees of a heap.
func TestDescriptorHeapTree(t *testing.T) {
	prog, out := checkSrc(t, heapHdr+"layout(constant_id = 0) const uint k = 8;\nlayout(heap_offset = k) resourceheap H { Data d; } h;\nvoid main() { h.d.a = 1u; }")
	if out != "" {
		t.Fatal(out)
	}
	var h *Var
	for _, g := range prog.Globals {
		if g.Name == "h" {
			h = g
		}
	}
	if h == nil || h.Storage != StorageResourceHeap || h.Storage.String() != "resourceheap" {
		t.Fatalf("heap var %+v", h)
	}
	if r, ok := h.Layout.HeapOffset.(*VarRef); !ok || r.Var.Name != "k" {
		t.Errorf("heap offset %#v", h.Layout.HeapOffset)
	}
	d := h.Type.Struct.Fields[0].Type
	if d.Kind != KStruct || d.Struct.BufferType != StorageBuffer || !d.Struct.Block || d.Struct.Name != "Data" {
		t.Errorf("buffer type %+v", d.Struct)
	}
}

const tileHdr = "#version 460\n#extension GL_QCOM_tile_shading : enable\nlayout(local_size_x = 16) in;\n"

func TestQCOMTileShading(t *testing.T) {
	runRules(t, []struct{ name, src, want string }{
		{"built-ins", tileHdr + "void main() { uvec2 o = gl_TileOffsetQCOM; uvec3 d = gl_TileDimensionQCOM; uvec2 a = gl_TileApronSizeQCOM; }", ""},
		{"built-ins need extension", hdr + "void main() { uvec2 o = gl_TileOffsetQCOM; }", "required extension not requested: GL_QCOM_tile_shading"},
		{"tile attachment", tileHdr + "layout(binding = 0, tile_attachmentQCOM, rgba32f) uniform highp image2D img;\nvoid main() { imageStore(img, ivec2(0), imageLoad(img, ivec2(1))); }", ""},
		{"tile attachment needs extension", hdr + "layout(binding = 0, tile_attachmentQCOM, rgba32f) uniform image2D img;\nvoid main() {}", "required extension not requested: GL_QCOM_tile_shading"},
		{"shading rate", tileHdr + "layout(shading_rate_xQCOM = 2, shading_rate_yQCOM = 2, shading_rate_zQCOM = 1) in;\nvoid main() {}", ""},
		{"shading rate positive", tileHdr + "layout(shading_rate_xQCOM = 0) in;\nvoid main() {}", "must be at least 1"},
	})
	prog, out := checkSrc(t, tileHdr+"layout(shading_rate_xQCOM = 2, shading_rate_yQCOM = 4) in;\nlayout(binding = 0, tile_attachmentQCOM, rgba32f) uniform image2D img;\nvoid main() {}")
	if out != "" {
		t.Fatal(out)
	}
	if prog.TileShadingRate != [3]int{2, 4, 0} {
		t.Errorf("shading rate %v", prog.TileShadingRate)
	}
	if img := prog.Globals[0]; img.Name != "img" || !img.Layout.TileAttachment {
		t.Errorf("image %s layout %+v", img.Name, img.Layout)
	}
}

const qcomHdr = "#version 450\n#extension GL_KHR_memory_scope_semantics : enable\n#extension GL_KHR_cooperative_matrix : enable\n#extension GL_QCOM_cooperative_matrix_conversion : enable\nlayout(local_size_x = 64) in;\nlayout(constant_id = 0) const uint K = 4;\n"

func TestQCOMConversion(t *testing.T) {
	runRules(t, []struct{ name, src, want string }{
		{"bitcast", qcomHdr + "void main() { uint a[8]; float b[K]; bitcastQCOM(a, b); }", ""},
		{"bitcast needs arrays", qcomHdr + "void main() { uint a; float b[4]; bitcastQCOM(a, b); }", "'bitcastQCOM' :  no matching overloaded function found"},
		{"bitcast 32-bit only", qcomHdr + "void main() { double a[2]; float b[4]; bitcastQCOM(a, b); }", "no matching overloaded function found"},
		{"bitcast out l-value", qcomHdr + "const float b[2] = float[2](1.0, 2.0);\nvoid main() { uint a[2]; bitcastQCOM(a, b); }", "l-value required"},
		{"extract", qcomHdr + "void main() { uint a[64]; uint b[K]; extractSubArrayQCOM(a, 4, b); }", ""},
		{"extract float", qcomHdr + "void main() { float a[64]; uint b[8]; extractSubArrayQCOM(a, 0, b); }", "no matching overloaded function found"},
		{"coopmat component needs its extension", qcomHdr + "void main() { uint a[K]; coopmat<float16_t, gl_ScopeSubgroup, 16, K, gl_MatrixUseA> m; vectorToCoopmatQCOM(a, m); coopmatToVectorQCOM(m, a); }", "float16_t"},
		{"vector to coopmat f32", qcomHdr + "void main() { uint a[K]; coopmat<float, gl_ScopeSubgroup, 16, K, gl_MatrixUseB> m; vectorToCoopmatQCOM(a, m); coopmatToVectorQCOM(m, a); }", ""},
		{"coopmat needed", qcomHdr + "void main() { uint a[8]; uint b[8]; vectorToCoopmatQCOM(a, b); }", "no matching overloaded function found"},
		{"needs extension", "#version 450\nlayout(local_size_x = 1) in;\nvoid main() { uint a[2]; float b[2]; bitcastQCOM(a, b); }", "required extension not requested: GL_QCOM_cooperative_matrix_conversion"},
		{"bitcast halves", qcomHdr + "#extension GL_EXT_shader_explicit_arithmetic_types_float16 : enable\nvoid main() { float16_t h[16]; uint u[8]; bitcastQCOM(h, u); bitcastQCOM(u, h); }", ""},
		{"bitcast sizes", qcomHdr + "#extension GL_EXT_shader_explicit_arithmetic_types_float16 : enable\nvoid main() { float16_t h[8]; uint u[8]; bitcastQCOM(u, h); }", "source and target arrays have different bit sizes"},
		{"extract same elements", qcomHdr + "#extension GL_EXT_shader_explicit_arithmetic_types_float16 : enable\nvoid main() { float16_t a[32]; float16_t b[8]; extractSubArrayQCOM(a, 8, b); }", ""},
		{"vector to coopmat elements", qcomHdr + "#extension GL_EXT_shader_explicit_arithmetic_types_float16 : enable\nvoid main() { float a[16]; coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> m; vectorToCoopmatQCOM(a, m); }", "source and destination element types are not compatible"},
		{"int8 rows", qcomHdr + "#extension GL_EXT_shader_explicit_arithmetic_types_int8 : enable\nvoid main() { int8_t a[32]; coopmat<int8_t, gl_ScopeSubgroup, 16, 32, gl_MatrixUseA> m; vectorToCoopmatQCOM(a, m); coopmatToVectorQCOM(m, a); }", ""},
	})
}

const tensorHdr = "#version 460\n#extension GL_ARM_tensors : enable\n#extension GL_EXT_shader_explicit_arithmetic_types : enable\nlayout(local_size_x = 1) in;\n" +
	"layout(binding = 0) uniform tensorARM<int32_t, 2> t;\n"

func TestTensorARM(t *testing.T) {
	runRules(t, []struct{ name, src, want string }{
		{"read write", tensorHdr + "void main() { int x; int v[4]; tensorReadARM(t, uint[](0, 1), x); tensorReadARM(t, uint[](0, 1), v); tensorWriteARM(t, uint[](1, 1), x + 1); tensorWriteARM(t, uint[](1, 1), v); }", ""},
		{"operands", tensorHdr + "void main() { int x; tensorReadARM(t, uint[](0, 1), x, gl_TensorOperandsOutOfBoundsValueARM, 7); tensorReadARM(t, uint[](0, 1), x, gl_TensorOperandsNonTemporalARM); tensorWriteARM(t, uint[](0, 0), x, gl_TensorOperandsNonTemporalARM); }", ""},
		{"size", tensorHdr + "void main() { uint n = tensorSizeARM(t, 0) + tensorSizeARM(t, 1u); }", ""},
		{"size out of range", tensorHdr + "void main() { uint n = tensorSizeARM(t, 2); }", "dimension 2 out of range for a tensor of rank 2"},
		{"bool tensor", tensorHdr + "layout(binding = 1) uniform tensorARM<bool, 1> b;\nvoid main() { bool x; tensorReadARM(b, uint[](0), x); }", ""},
		{"parameters", tensorHdr + "uint f(readonly tensorARM<int32_t, 2> p) { return tensorSizeARM(p, 0); }\nvoid main() { f(t); }", ""},
		{"parameter type mismatch", tensorHdr + "uint f(tensorARM<int32_t, 3> p) { return 0u; }\nvoid main() { f(t); }", "no matching overloaded function found"},
		{"needs extension", "#version 460\nlayout(local_size_x = 1) in;\nlayout(binding = 0) uniform tensorARM<int, 1> t;\nvoid main() {}", "'tensorARM' : required extension not requested: GL_ARM_tensors"},
		{"bfloat16 needs extension", tensorHdr + "#extension GL_EXT_bfloat16 : enable\nlayout(binding = 1) uniform tensorARM<bfloat16_t, 1> b;\nvoid main() {}", "required extension not requested: GL_ARM_tensors_bfloat16"},
		{"bad rank", tensorHdr + "layout(binding = 1) uniform tensorARM<int, 0> b;\nvoid main() {}", "rank must be a constant integer of at least 1"},
		{"bad element", tensorHdr + "layout(binding = 1) uniform tensorARM<vec2, 1> b;\nvoid main() {}", "element type must be"},
		{"coordinate count", tensorHdr + "void main() { int x; tensorReadARM(t, uint[](0), x); }", "1 coordinates given for a tensor of rank 2"},
		{"coordinate type", tensorHdr + "void main() { int x; tensorReadARM(t, int[](0, 0), x); }", "coordinates must be a sized array of uint"},
		{"data type", tensorHdr + "void main() { float x; tensorReadARM(t, uint[](0, 0), x); }", "data must be int or an array of int"},
		{"read needs l-value", tensorHdr + "void main() { tensorReadARM(t, uint[](0, 0), 1); }", "l-value required"},
		{"out of bounds on write", tensorHdr + "void main() { tensorWriteARM(t, uint[](0, 0), 1, gl_TensorOperandsOutOfBoundsValueARM, 0); }", "unsupported tensor operands 0x2"},
		{"out of bounds value missing", tensorHdr + "void main() { int x; tensorReadARM(t, uint[](0, 0), x, gl_TensorOperandsOutOfBoundsValueARM); }", "need 5 arguments"},
		{"operands constant", tensorHdr + "void main() { int x; int m = 1; tensorReadARM(t, uint[](0, 0), x, m); }", "tensor operands must be a constant integer"},
		{"not assignable", tensorHdr + "layout(binding = 1) uniform tensorARM<int32_t, 2> u;\nvoid main() { u = t; }", "l-value required"},
		{"not in blocks", tensorHdr + "layout(binding = 1) buffer B { tensorARM<int, 1> m; } b;\nvoid main() {}", "member of block cannot be or contain a sampler"},
		{"too few args", tensorHdr + "void main() { tensorReadARM(t); tensorSizeARM(1, 0); }", "no matching overloaded function found"},
		{"not comparable", tensorHdr + "void main() { bool e = t == t; }", "wrong operand types"},
		{"local tensor", tensorHdr + "void main() { tensorARM<int32_t, 2> l = t; }", "'tensorARM' : tensorARM types can only be used in uniform variables or function parameters: l"},
		{"private tensor array", tensorHdr + "tensorARM<int32_t, 2> g[2];\nvoid main() {}", "uniform variables or function parameters: g"},
		{"size dimension constant", tensorHdr + "void main() { uint d = 1u; uint n = tensorSizeARM(t, d); }", "dimension argument must be constant"},
		{"out of bounds value constant", tensorHdr + "void main() { int x; int y = 2; tensorReadARM(t, uint[](0, 0), x, gl_TensorOperandsOutOfBoundsValueARM, y); }", "argument following gl_TensorOperandsOutOfBoundsValueARM must be constant"},
		{"out of bounds value type", tensorHdr + "void main() { int x; tensorReadARM(t, uint[](0, 0), x, gl_TensorOperandsOutOfBoundsValueARM, 3u); }", "out-of-bounds value must be int"},
		{"read writeonly", tensorHdr + "layout(binding = 1) uniform writeonly tensorARM<int32_t, 2> w;\nvoid main() { int x; tensorReadARM(w, uint[](0, 0), x); uint n = tensorSizeARM(w, 0); }", "'writeonly' : argument cannot drop memory qualifier"},
		{"write readonly", tensorHdr + "layout(binding = 1) uniform readonly tensorARM<int32_t, 2> r[2];\nvoid main() { tensorWriteARM(r[1], uint[](0, 0), 1); }", "'readonly' : argument cannot drop memory qualifier"},
		{"qualified tensors", tensorHdr + "layout(binding = 1) uniform readonly tensorARM<int32_t, 2> r;\nlayout(binding = 2) uniform writeonly tensorARM<int32_t, 2> w;\n" +
			"uint f(readonly tensorARM<int32_t, 2> p) { return tensorSizeARM(p, 1); }\nvoid main() { int x; tensorReadARM(r, uint[](0, 0), x); tensorWriteARM(w, uint[](0, 0), x + int(f(r) + tensorSizeARM(w, 0))); }", ""},
		{"coherent to builtin", tensorHdr + "layout(binding = 1) uniform coherent tensorARM<int32_t, 2> h;\nvoid main() { int x; tensorReadARM(h, uint[](0, 0), x); }", "'coherent' : argument cannot drop memory qualifier"},
		{"parameter drops readonly", tensorHdr + "layout(binding = 1) uniform readonly tensorARM<int32_t, 2> r;\nuint f(tensorARM<int32_t, 2> p) { return tensorSizeARM(p, 0); }\nvoid main() { f(r); }", "'readonly' : argument cannot drop memory qualifier"},
	})
	prog, out := checkSrc(t, tensorHdr+"void main() {}")
	if out != "" {
		t.Fatal(out)
	}
	tt := prog.Globals[0].Type
	if tt.Kind != KTensorARM || tt.Scalar != Int32 || tt.Params[0].Val != 2 || tt.String() != "tensorARM<int, 2>" || !tt.IsOpaque() {
		t.Errorf("tensor type %v", tt)
	}
}

const omHdr = "#version 460\n#extension GL_EXT_ray_query : enable\n#extension GL_EXT_opacity_micromap_ray_query_mode : enable\nlayout(local_size_x = 1) in;\n"

func TestOpacityMicromapMode(t *testing.T) {
	runRules(t, []struct{ name, src, want string }{
		{"default", omHdr + "void main() { bool b = gl_EnableOpacityMicromapEXT; }", ""},
		{"const redeclaration", omHdr + "const bool gl_EnableOpacityMicromapEXT = true;\nvoid main() {}", ""},
		{"spec redeclaration", omHdr + "layout(constant_id = 2) gl_EnableOpacityMicromapEXT;\nvoid main() { uint u = gl_EnableOpacityMicromapEXT ? 1u : 0u; }", ""},
		{"needs extension", "#version 460\nlayout(local_size_x = 1) in;\nvoid main() { bool b = gl_EnableOpacityMicromapEXT; }", "required extension not requested: GL_EXT_opacity_micromap_ray_query_mode"},
		{"bare needs constant_id", omHdr + "layout(binding = 2) gl_EnableOpacityMicromapEXT;\nvoid main() {}", "can only be redeclared with layout(constant_id = N) alone"},
		{"wrong type", omHdr + "const int gl_EnableOpacityMicromapEXT = 1;\nvoid main() {}", "must be redeclared as a constant bool"},
		{"spec constant with a value", omHdr + "layout(constant_id = 2) const bool gl_EnableOpacityMicromapEXT = false;\nvoid main() {}", "'redeclaration' : cannot restate the type or specify a value with constant_id"},
		{"redeclared after use", omHdr + "const bool x = gl_EnableOpacityMicromapEXT;\nlayout(constant_id = 2) gl_EnableOpacityMicromapEXT;\nvoid main() {}", "redeclaration after use"},
		{"not assignable", omHdr + "void main() { gl_EnableOpacityMicromapEXT = true; }", "l-value required"},
	})
	for _, tc := range []struct {
		decl    string
		storage Storage
		val     bool
		spec    int
	}{
		{"", StorageConst, false, -1},
		{"const bool gl_EnableOpacityMicromapEXT = true;\n", StorageConst, true, -1},
		{"layout(constant_id = 3) gl_EnableOpacityMicromapEXT;\n", StorageSpecConst, false, 3},
	} {
		prog, out := checkSrc(t, omHdr+tc.decl+"void main() {}")
		if out != "" {
			t.Fatal(out)
		}
		v := prog.OpacityMicromap
		if v == nil || v.Builtin != BuiltinEnableOpacityMicromapEXT || v.Storage != tc.storage || v.SpecID != tc.spec || (v.Value.Bits != 0) != tc.val {
			t.Errorf("%q: %+v", tc.decl, v)
		}
	}
	prog, _ := checkSrc(t, hdr+"void main() {}")
	if prog.OpacityMicromap != nil {
		t.Error("OpacityMicromap set without the extension")
	}
}

func TestDisplacementMicromap(t *testing.T) {
	const dmm = "#version 460\n#extension GL_NV_displacement_micromap : enable\n#extension GL_EXT_ray_query : enable\nlayout(local_size_x = 1) in;\nlayout(binding = 0) uniform accelerationStructureEXT as;\n"
	runRules(t, []struct{ name, src, want string }{
		{"fetch", dmm + "void main() { vec3 p = fetchMicroTriangleVertexPositionNV(as, 1, 2, 3, ivec2(0, 1)); vec2 b = fetchMicroTriangleVertexBarycentricNV(as, 1, 2, 3, ivec2(1, 0)); }", ""},
		{"wrong args", dmm + "void main() { fetchMicroTriangleVertexPositionNV(as, 1, 2, ivec2(0)); }", "no matching overloaded function found"},
		{"needs extension", "#version 460\n#extension GL_EXT_ray_query : enable\nlayout(local_size_x = 1) in;\nlayout(binding = 0) uniform accelerationStructureEXT as;\nvoid main() { fetchMicroTriangleVertexPositionNV(as, 1, 2, 3, ivec2(0)); }", "required extension not requested: GL_NV_displacement_micromap"},
	})
}

const amdHdr = "#version 450\n#extension GL_AMD_shader_ballot : enable\n#extension GL_ARB_gpu_shader_int64 : enable\nlayout(local_size_x = 64) in;\n"

func TestAMDShaderBallot(t *testing.T) {
	runRules(t, []struct{ name, src, want string }{
		{"all", amdHdr + "void main() { uint i = swizzleInvocationsAMD(1u, uvec4(1, 0, 3, 2)); vec3 f = swizzleInvocationsMaskedAMD(vec3(1), uvec3(31, 0, 1)); ivec2 w = writeInvocationAMD(ivec2(1), ivec2(2), 3u); uint c = mbcntAMD(uint64_t(7)); dvec2 d = minInvocationsInclusiveScanNonUniformAMD(dvec2(1)); }", ""},
		{"swizzle offset constant", amdHdr + "void main() { uint o = 1u; swizzleInvocationsAMD(1u, uvec4(o)); }", "'offset' : argument must be compile-time constant"},
		{"swizzle offset range", amdHdr + "void main() { swizzleInvocationsAMD(1.0, uvec4(0, 1, 2, 4)); }", "'offset' : components must be in the range [0, 3]"},
		{"swizzle mask range", amdHdr + "void main() { swizzleInvocationsMaskedAMD(1, uvec3(0, 32, 0)); }", "'mask' : components must be in the range [0, 31]"},
		{"no double swizzle", amdHdr + "void main() { swizzleInvocationsAMD(1.0lf, uvec4(0)); }", "no matching overloaded function found"},
		{"needs extension", "#version 450\n#extension GL_ARB_gpu_shader_int64 : enable\nlayout(local_size_x = 1) in;\nvoid main() { mbcntAMD(uint64_t(1)); }", "required extension not requested: GL_AMD_shader_ballot"},
	})
}
