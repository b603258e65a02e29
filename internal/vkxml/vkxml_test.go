package vkxml

import (
	"os"
	"testing"
)

func TestParseDecl(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Decl
	}{
		{"<type>uint32_t</type> <name>count</name>", Decl{Type: "uint32_t", Name: "count"}},
		{"const <type>void</type>* <name>pNext</name>", Decl{Type: "void", Ptr: 1, Name: "pNext"}},
		{"<type>char</type> <name>deviceName</name>[<enum>VK_MAX_PHYSICAL_DEVICE_NAME_SIZE</enum>]",
			Decl{Type: "char", Array: "VK_MAX_PHYSICAL_DEVICE_NAME_SIZE", Name: "deviceName"}},
		{"<type>float</type> <name>v</name>[4]", Decl{Type: "float", Array: "4", Name: "v"}},
	} {
		got, err := ParseDecl(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseDecl(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"<type>uint32_t</type> <name>x</name>:8", "<type>float</type> <name>m</name>[3][4]", "junk"} {
		if _, err := ParseDecl(bad); err == nil {
			t.Errorf("ParseDecl(%q) accepted", bad)
		}
	}
}

// TestRegistryLayouts checks a few layouts and values against what C
// gives on 64-bit Linux.
func TestRegistryLayouts(t *testing.T) {
	const path = "../../../shared/specs/vulkan/xml/vk.xml"
	if _, err := os.Stat(path); err != nil {
		t.Skip("vk.xml not present:", err)
	}
	r, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	x := NewIndex(r)
	e := NewEmitter(x)
	for _, c := range []struct {
		name        string
		size, align int
	}{
		{"VkPhysicalDeviceProperties", 824, 8},
		{"VkPhysicalDeviceLimits", 504, 8},
		{"VkCooperativeMatrixPropertiesKHR", 56, 8},
		{"VkDeviceOrHostAddressKHR", 8, 8},
		{"VkClearColorValue", 16, 4},
	} {
		l, err := e.TypeOf(c.name)
		if err != nil || l.Size != c.size || l.Align != c.align {
			t.Errorf("%s: %+v, %v; want size %d align %d", c.name, l, err, c.size, c.align)
		}
	}
	_, byName := x.Enumerants("VkStructureType")
	v, err := EnumValue(byName["VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR"], byName)
	if err != nil || v != 1000506000 {
		t.Errorf("cooperative matrix features sType = %d, %v", v, err)
	}
	if got := x.ConstName("VK_COMPONENT_TYPE_FLOAT16_KHR"); got != "ComponentTypeFloat16KHR" {
		t.Errorf("ConstName = %s", got)
	}
}
