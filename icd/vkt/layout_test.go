package vkt

import "testing"

type fieldOffset struct {
	name     string
	c        int
	goOffset uintptr
}

type cLayout struct {
	name   string
	c      int
	goSize uintptr
	fields []fieldOffset
}

// TestLayout checks that every generated Go structure has exactly the size
// and member offsets the generator computed by C rules, so the driver can
// read the application's structures in place.
func TestLayout(t *testing.T) {
	for _, l := range cLayouts {
		if uintptr(l.c) != l.goSize {
			t.Errorf("%s: C size %d, Go size %d", l.name, l.c, l.goSize)
		}
		for _, f := range l.fields {
			if uintptr(f.c) != f.goOffset {
				t.Errorf("%s.%s: C offset %d, Go offset %d", l.name, f.name, f.c, f.goOffset)
			}
		}
	}
}

// TestKnownLayouts pins a few sizes from the Vulkan headers themselves.
func TestKnownLayouts(t *testing.T) {
	want := map[string]int{
		"VkPhysicalDeviceProperties":       824,
		"VkCooperativeMatrixPropertiesKHR": 56,
		"VkWriteDescriptorSet":             64,
		"VkPhysicalDeviceVulkan12Features": 208,
		"VkPhysicalDeviceMemoryProperties": 520,
	}
	for _, l := range cLayouts {
		if w, ok := want[l.name]; ok {
			if l.c != w {
				t.Errorf("%s: size %d, want %d", l.name, l.c, w)
			}
			delete(want, l.name)
		}
	}
	for n := range want {
		t.Errorf("%s not generated", n)
	}
}
