package check

import "testing"

// TestDescriptorHeapLayouts covers layout(descriptor_heap), descriptor_stride
// and descriptor_size (GL_EXT_descriptor_heap).
func TestDescriptorHeapLayouts(t *testing.T) {
	runRules(t, []struct{ name, src, want string }{
		{"heap array", heapHdr + "layout(descriptor_heap, descriptor_stride = 64) buffer O { uint x; } o[];\nvoid main() { o[3].x = 1u; }", ""},
		{"heap not array", heapHdr + "layout(descriptor_heap) buffer O { uint x; } o;\nvoid main() {}", "'o' : layout(descriptor_heap) decorated variable could only be declared as an array."},
		{"heap combined sampler", heapHdr + "layout(descriptor_heap) uniform sampler2D s[];\nvoid main() {}", "cannot be used with combined image samplers"},
		{"stride without heap", heapHdr + "layout(descriptor_stride = 16) uniform U { uint x; } u[];\nvoid main() {}", "must specify 'descriptor_heap' to use 'descriptor_stride'"},
		{"stride power of two", heapHdr + "layout(descriptor_heap, descriptor_stride = 24) uniform U { uint x; } u[];\nvoid main() {}", "'descriptor_stride' : must be a power of 2"},
		{"heap offset without heap", heapHdr + "layout(heap_offset = 16) uniform U { uint x; } u[];\nvoid main() {}", "must specify 'descriptor_heap' to use 'heap_offset'"},
		{"descriptor size in heap", heapHdr + "layout(heap_offset = 0) resourceheap H { layout(descriptor_size = 32) Data d[2]; } h;\nvoid main() { h.d[1].a = 1u; }", ""},
		{"descriptor size elsewhere", heapHdr + "layout(binding = 0) buffer B { layout(descriptor_size = 32) uint x; } b;\nvoid main() {}", "'descriptor_size' : can only be used on resourceheap or samplerheap block members"},
		{"heap needs its extension", "#version 460\n#extension GL_EXT_structured_descriptor_heap : require\nlayout(local_size_x = 1) in;\nlayout(descriptor_heap) buffer O { uint x; } o[];\nvoid main() {}", "'descriptor_heap' : required extension not requested: GL_EXT_descriptor_heap"},
		{"buffer type needs structured heaps", "#version 460\n#extension GL_EXT_descriptor_heap : require\nlayout(local_size_x = 1) in;\nlayout(buffer_type) buffer D { uint x; };\nvoid main() {}", "'buffer_type' : required extension not requested: GL_EXT_structured_descriptor_heap"},
		{"heap offset needs structured heaps", "#version 460\n#extension GL_EXT_descriptor_heap : require\nlayout(local_size_x = 1) in;\nlayout(descriptor_heap, heap_offset = 16) buffer O { uint x; } o[];\nvoid main() {}", "'heap_offset' : required extension not requested: GL_EXT_structured_descriptor_heap"},
		{"descriptor size needs structured heaps", "#version 460\n#extension GL_EXT_descriptor_heap : require\nlayout(local_size_x = 1) in;\nlayout(binding = 0) buffer B { layout(descriptor_size = 32) uint x; } b;\nvoid main() {}", "required extension not requested: GL_EXT_structured_descriptor_heap"},
	})
}

// TestDescriptorHeapVar checks what lowering sees of layout(descriptor_heap):
// only declarations without set or binding are laid over the heap.
func TestDescriptorHeapVar(t *testing.T) {
	prog, out := checkSrc(t, heapHdr+"layout(descriptor_heap, descriptor_stride = 32) buffer O { uint x; } o[];\nlayout(descriptor_heap, binding = 1) buffer P { uint y; } p[];\nvoid main() { o[0].x = p[0].y; }")
	if out != "" {
		t.Fatal(out)
	}
	for _, v := range prog.Globals {
		switch v.Name {
		case "o":
			if !v.Layout.DescriptorHeap || v.Layout.DescriptorStride != 32 {
				t.Errorf("o: layout %+v", v.Layout)
			}
		case "p":
			if v.Layout.DescriptorHeap {
				t.Errorf("p has a binding but is laid over the heap")
			}
		}
	}
}

// TestHeapImageQualifiers covers the format and memory qualifiers of
// images in heaps: a member's own (with the block's memory qualifiers), and
// a layout(descriptor_heap) array's, which stays a runtime array.
func TestHeapImageQualifiers(t *testing.T) {
	runRules(t, []struct{ name, src, want string }{
		{"member needs format", heapHdr + "resourceheap H { image2D im; } h;\nvoid main() {}", "'image variables not declared 'writeonly' and without a format layout qualifier' : not supported for this version or the enabled extensions"},
		{"writeonly member without format", heapHdr + "resourceheap H { writeonly image2D im; } h;\nvoid main() { imageStore(h.im, ivec2(0), vec4(1)); }", ""},
		{"member format type", heapHdr + "resourceheap H { layout(rgba8) uimage2D im; } h;\nvoid main() {}", "'rgba8' : does not apply to unsigned integer images"},
		{"member format on texture", heapHdr + "resourceheap H { layout(r32f) texture2D tx; } h;\nvoid main() {}", "'r32f' : only apply to images"},
		{"member format on data", heapHdr + "resourceheap H { layout(r32f) float x; } h;\nvoid main() {}", "'r32f' : only apply to images"},
		{"member atomic format", heapHdr + "resourceheap H { layout(rgba32i) iimage2D im; } h;\nvoid main() { imageAtomicAdd(h.im, ivec2(0), 1); }", "'imageAtomicAdd' : only supported on image with format r32i or r32ui"},
		{"member atomic", heapHdr + "resourceheap H { uint n; layout(r32i) iimage2D im[2]; } h;\nvoid main() { imageAtomicAdd(h.im[1], ivec2(0), 1); }", ""},
		{"writeonly member atomic", heapHdr + "resourceheap H { writeonly layout(r32ui) uimage2D im; } h;\nvoid main() { imageAtomicAdd(h.im, ivec2(0), 1u); }", "'writeonly' : argument cannot drop memory qualifier"},
		{"readonly block", heapHdr + "readonly resourceheap H { layout(r32ui) uimage2D im; } h;\nvoid main() { imageStore(h.im, ivec2(0), uvec4(1)); }", "'readonly' : argument cannot drop memory qualifier"},
		{"heap array atomic", heapHdr + "layout(descriptor_heap, r32i) uniform iimage1D img[];\nvoid main() { imageAtomicAdd(img[1], 1, 1); }", ""},
		{"heap array format", heapHdr + "layout(descriptor_heap, rgba8) uniform iimage1D img[];\nvoid main() {}", "'rgba8' : does not apply to signed integer images"},
	})
	prog, out := checkSrc(t, "#version 460\n#extension GL_EXT_descriptor_heap : require\nlayout(descriptor_heap, r32i) uniform iimage1D img[];\nvoid main() { imageAtomicAdd(img[1], 1, 1); }")
	if out != "" {
		t.Fatal(out)
	}
	for _, v := range prog.Globals {
		if v.Name == "img" && !v.Type.IsUnsizedArray() {
			t.Errorf("img has type %s: a layout(descriptor_heap) array is sized from its indices", v.Type)
		}
	}
}
