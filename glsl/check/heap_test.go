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
