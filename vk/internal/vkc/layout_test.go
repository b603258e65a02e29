package vkc

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
// and member offsets the generator computed by C rules, so structures can
// be handed to the driver as they are.
func TestLayout(t *testing.T) {
	if len(cLayouts) < 50 {
		t.Fatalf("only %d structures generated", len(cLayouts))
	}
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
		"VkCooperativeVectorPropertiesNV":  40,
		"VkPhysicalDeviceLimits":           504,
		"VkWriteDescriptorSet":             64,
		"VkPhysicalDeviceVulkan12Features": 208,
		"VkSpecializationMapEntry":         16,
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

func TestStrings(t *testing.T) {
	if s := ComponentTypeBfloat16KHR.String(); s != "VK_COMPONENT_TYPE_BFLOAT16_KHR" {
		t.Errorf("bfloat16: %s", s)
	}
	if s := ErrorOutOfDeviceMemory.String(); s != "VK_ERROR_OUT_OF_DEVICE_MEMORY" {
		t.Errorf("result: %s", s)
	}
	if s := Result(12345).String(); s != "VkResult(12345)" {
		t.Errorf("unknown: %s", s)
	}
	if VersionString(MakeVersion(1, 4, 312)) != "1.4.312" {
		t.Error("version")
	}
}
