// Command genvk writes the small subset of the Vulkan API that package vk
// calls (structures with their 64-bit C layout, enums, constants and command
// wrappers) from the registry vk.xml. It is run by go generate in
// vk/internal/vkc; the lists of wanted names below are the only input typed
// by hand.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"slices"
	"strings"

	"github.com/coopshader/coop/internal/vkxml"
)

// Structures package vk builds or reads; types they contain are added
// automatically.
var wantStructs = []string{
	"VkApplicationInfo", "VkInstanceCreateInfo", "VkDeviceQueueCreateInfo", "VkDeviceCreateInfo",
	"VkPhysicalDeviceProperties", "VkPhysicalDeviceProperties2", "VkPhysicalDeviceFeatures2",
	"VkPhysicalDeviceVulkan11Features", "VkPhysicalDeviceVulkan12Features", "VkPhysicalDeviceVulkan13Features",
	"VkPhysicalDeviceVulkan11Properties", "VkPhysicalDeviceVulkan12Properties", "VkPhysicalDeviceVulkan13Properties",
	"VkQueueFamilyProperties", "VkPhysicalDeviceMemoryProperties", "VkExtensionProperties",
	"VkPhysicalDeviceCooperativeMatrixFeaturesKHR", "VkPhysicalDeviceCooperativeMatrixPropertiesKHR", "VkCooperativeMatrixPropertiesKHR",
	"VkPhysicalDeviceCooperativeMatrixFeaturesNV", "VkPhysicalDeviceCooperativeMatrixPropertiesNV", "VkCooperativeMatrixPropertiesNV",
	"VkPhysicalDeviceCooperativeMatrix2FeaturesNV", "VkPhysicalDeviceCooperativeMatrix2PropertiesNV", "VkCooperativeMatrixFlexibleDimensionsPropertiesNV",
	"VkPhysicalDeviceCooperativeVectorFeaturesNV", "VkPhysicalDeviceCooperativeVectorPropertiesNV", "VkCooperativeVectorPropertiesNV",
	"VkPhysicalDeviceShaderBfloat16FeaturesKHR", "VkPhysicalDeviceShaderFloat8FeaturesEXT",
	"VkPhysicalDevice8BitStorageFeatures", "VkPhysicalDevice16BitStorageFeatures", "VkPhysicalDeviceShaderFloat16Int8Features",
	"VkPhysicalDeviceBufferDeviceAddressFeatures", "VkPhysicalDeviceVulkanMemoryModelFeatures",
	"VkPhysicalDeviceSubgroupSizeControlFeatures", "VkPhysicalDeviceSubgroupSizeControlProperties",
	"VkBufferCreateInfo", "VkMemoryRequirements", "VkMemoryAllocateInfo", "VkMemoryAllocateFlagsInfo", "VkBufferDeviceAddressInfo",
	"VkDescriptorSetLayoutBinding", "VkDescriptorSetLayoutCreateInfo", "VkPushConstantRange", "VkPipelineLayoutCreateInfo",
	"VkShaderModuleCreateInfo", "VkSpecializationMapEntry", "VkSpecializationInfo", "VkPipelineShaderStageCreateInfo",
	"VkPipelineShaderStageRequiredSubgroupSizeCreateInfo", "VkComputePipelineCreateInfo",
	"VkDescriptorPoolSize", "VkDescriptorPoolCreateInfo", "VkDescriptorSetAllocateInfo", "VkDescriptorBufferInfo", "VkWriteDescriptorSet",
	"VkCommandPoolCreateInfo", "VkCommandBufferAllocateInfo", "VkCommandBufferBeginInfo", "VkSubmitInfo", "VkFenceCreateInfo",
	"VkQueryPoolCreateInfo", "VkBufferCopy", "VkMemoryBarrier",
	"VkImageCreateInfo", "VkImageViewCreateInfo", "VkSamplerCreateInfo", "VkBufferViewCreateInfo", "VkBufferImageCopy",
	"VkImageMemoryBarrier", "VkDescriptorImageInfo", "VkFormatProperties",
	"VkConvertCooperativeVectorMatrixInfoNV",
	"VkPhysicalDeviceComputeShaderDerivativesFeaturesKHR", "VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR",
	"VkPhysicalDeviceShaderReplicatedCompositesFeaturesEXT", "VkPhysicalDeviceShaderExpectAssumeFeatures",
}

// Enumerations and flag-bit sets emitted in full (with a String method for
// enumerations). VkStructureType is emitted only for the sType values of
// the structures above.
var wantEnums = []string{
	"VkResult", "VkPhysicalDeviceType", "VkComponentTypeKHR", "VkScopeKHR", "VkDescriptorType",
	"VkQueueFlagBits", "VkMemoryPropertyFlagBits", "VkBufferUsageFlagBits", "VkMemoryAllocateFlagBits",
	"VkShaderStageFlagBits", "VkPipelineBindPoint", "VkCommandBufferLevel", "VkCommandBufferUsageFlagBits",
	"VkCommandPoolCreateFlagBits", "VkQueryType", "VkQueryResultFlagBits", "VkPipelineStageFlagBits",
	"VkAccessFlagBits", "VkSharingMode", "VkPipelineShaderStageCreateFlagBits",
	"VkFormat", "VkImageType", "VkImageTiling", "VkImageUsageFlagBits", "VkImageLayout", "VkImageViewType",
	"VkFilter", "VkSamplerMipmapMode", "VkSamplerAddressMode", "VkBorderColor", "VkCompareOp", "VkImageAspectFlagBits",
	"VkComponentSwizzle", "VkSampleCountFlagBits", "VkFormatFeatureFlagBits", "VkCooperativeVectorMatrixLayoutNV",
	"VkSubgroupFeatureFlagBits",
}

var wantConstants = []string{"VK_WHOLE_SIZE", "VK_QUEUE_FAMILY_IGNORED", "VK_API_VERSION_1_3"}

var wantCommands = []string{
	"vkEnumerateInstanceVersion", "vkCreateInstance", "vkDestroyInstance", "vkEnumeratePhysicalDevices",
	"vkGetPhysicalDeviceProperties", "vkGetPhysicalDeviceProperties2", "vkGetPhysicalDeviceFeatures2",
	"vkGetPhysicalDeviceQueueFamilyProperties", "vkGetPhysicalDeviceMemoryProperties", "vkEnumerateDeviceExtensionProperties",
	"vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR", "vkGetPhysicalDeviceCooperativeMatrixPropertiesNV",
	"vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV", "vkGetPhysicalDeviceCooperativeVectorPropertiesNV",
	"vkCreateDevice", "vkDestroyDevice", "vkGetDeviceQueue", "vkDeviceWaitIdle",
	"vkCreateBuffer", "vkDestroyBuffer", "vkGetBufferMemoryRequirements", "vkAllocateMemory", "vkFreeMemory",
	"vkBindBufferMemory", "vkMapMemory", "vkUnmapMemory", "vkGetBufferDeviceAddress",
	"vkCreateDescriptorSetLayout", "vkDestroyDescriptorSetLayout", "vkCreatePipelineLayout", "vkDestroyPipelineLayout",
	"vkCreateShaderModule", "vkDestroyShaderModule", "vkCreateComputePipelines", "vkDestroyPipeline",
	"vkCreateDescriptorPool", "vkDestroyDescriptorPool", "vkAllocateDescriptorSets", "vkUpdateDescriptorSets",
	"vkCreateCommandPool", "vkDestroyCommandPool", "vkAllocateCommandBuffers", "vkBeginCommandBuffer", "vkEndCommandBuffer",
	"vkCmdBindPipeline", "vkCmdBindDescriptorSets", "vkCmdPushConstants", "vkCmdDispatch", "vkCmdCopyBuffer",
	"vkCmdPipelineBarrier", "vkCmdResetQueryPool", "vkCmdWriteTimestamp",
	"vkCreateQueryPool", "vkDestroyQueryPool", "vkGetQueryPoolResults",
	"vkCreateFence", "vkDestroyFence", "vkWaitForFences", "vkQueueSubmit",
	"vkCmdFillBuffer", "vkCreateImage", "vkDestroyImage", "vkGetImageMemoryRequirements", "vkBindImageMemory",
	"vkCreateImageView", "vkDestroyImageView", "vkCreateSampler", "vkDestroySampler", "vkCreateBufferView", "vkDestroyBufferView",
	"vkCmdCopyBufferToImage", "vkCmdCopyImageToBuffer", "vkGetPhysicalDeviceFormatProperties",
	"vkConvertCooperativeVectorMatrixNV", "vkCmdConvertCooperativeVectorMatrixNV",
}

type gen struct {
	*vkxml.Emitter
	r *vkxml.Registry
}

// goParam maps a command parameter to its Go type and the expression that
// turns it into a uintptr argument.
func (g *gen) goParam(d vkxml.Decl) (string, string, error) {
	name := d.Name
	if name == "type" {
		name = "typ"
	}
	if d.Ptr > 0 {
		// Allocation callbacks are never passed, so their function-pointer
		// types need no Go form.
		if d.Type == "void" || d.Type == "VkAllocationCallbacks" {
			if d.Ptr == 1 {
				return "unsafe.Pointer", "uintptr(" + name + ")", nil
			}
			return "*unsafe.Pointer", "uintptr(unsafe.Pointer(" + name + "))", nil
		}
		if d.Ptr > 1 {
			return "", "", fmt.Errorf("pointer depth %d for %s", d.Ptr, d.Name)
		}
		l, err := g.TypeOf(d.Type)
		if err != nil {
			return "", "", err
		}
		return "*" + l.GoT, "uintptr(unsafe.Pointer(" + name + "))", nil
	}
	l, err := g.TypeOf(d.Type)
	if err != nil {
		return "", "", err
	}
	if strings.HasPrefix(l.GoT, "float") {
		return "", "", fmt.Errorf("float parameter %s not supported by SyscallN", d.Name)
	}
	return l.GoT, "uintptr(" + name + ")", nil
}

func (g *gen) run(xmlPath string) ([]byte, []byte, error) {
	for _, s := range wantStructs {
		if g.Types[s] != nil && g.Types[s].Alias != "" {
			return nil, nil, fmt.Errorf("%s is an alias of %s: list the latter", s, g.Types[s].Alias)
		}
		if err := g.AddStruct(s); err != nil {
			return nil, nil, err
		}
	}
	var cmds bytes.Buffer
	fmt.Fprintf(&cmds, "// Procs holds the entry points of the commands package vk calls; an entry\n// the implementation lacks stays 0.\ntype Procs struct {\n")
	for _, c := range wantCommands {
		fmt.Fprintf(&cmds, "\tPFN%s uintptr\n", strings.TrimPrefix(c, "vk"))
	}
	fmt.Fprintf(&cmds, "}\n\n// Load fills every entry from get, which returns 0 for a missing command.\nfunc (p *Procs) Load(get func(name string) uintptr) {\n")
	for _, c := range wantCommands {
		fmt.Fprintf(&cmds, "\tp.PFN%s = get(%q)\n", strings.TrimPrefix(c, "vk"), c)
	}
	fmt.Fprintf(&cmds, "}\n\n")
	for _, c := range wantCommands {
		xc, ok := g.Commands[c]
		if !ok {
			return nil, nil, fmt.Errorf("command %s not found", c)
		}
		if xc.Alias != "" {
			return nil, nil, fmt.Errorf("command %s is an alias of %s: list the latter", c, xc.Alias)
		}
		ret, err := vkxml.ParseDecl(xc.Proto.Inner)
		if err != nil {
			return nil, nil, err
		}
		var params, args []string
		for _, p := range xc.Params {
			if !vkxml.ForVulkan(p.API) {
				continue
			}
			d, err := vkxml.ParseDecl(p.Inner)
			if err != nil {
				return nil, nil, err
			}
			gt, arg, err := g.goParam(d)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %v", c, err)
			}
			n := d.Name
			if n == "type" {
				n = "typ"
			}
			params = append(params, n+" "+gt)
			args = append(args, arg)
		}
		short := strings.TrimPrefix(c, "vk")
		call := fmt.Sprintf("purego.SyscallN(p.PFN%s, %s)", short, strings.Join(args, ", "))
		fmt.Fprintf(&cmds, "// %s calls %s.\n", short, c)
		switch {
		case ret.Type == "void" && ret.Ptr == 0:
			fmt.Fprintf(&cmds, "func (p *Procs) %s(%s) {\n\t%s\n}\n\n", short, strings.Join(params, ", "), call)
		default:
			l, err := g.TypeOf(ret.Type)
			if err != nil || ret.Ptr != 0 {
				return nil, nil, fmt.Errorf("%s: return type %s unsupported", c, ret.Type)
			}
			fmt.Fprintf(&cmds, "func (p *Procs) %s(%s) %s {\n\tr, _, _ := %s\n\treturn %s(r)\n}\n\n", short, strings.Join(params, ", "), l.GoT, call, l.GoT)
		}
	}

	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by genvk from %s; DO NOT EDIT.\n", xmlPath)
	fmt.Fprintf(&b, "// Regenerate with: go generate ./vk/internal/vkc (the lists of wanted names are in vk/internal/genvk).\n\n")
	fmt.Fprintf(&b, "package vkc\n\nimport (\n\t\"unsafe\"\n\n\t\"github.com/ebitengine/purego\"\n)\n\n")

	if err := g.WriteConsts(&b, wantConstants, map[string]string{"VK_API_VERSION_1_3": "APIVersion13 = 1<<22 | 3<<12"}); err != nil {
		return nil, nil, err
	}
	for _, set := range append([]string{"VkStructureType"}, wantEnums...) {
		vals, isFlags, err := g.WriteEnum(&b, set)
		if err != nil {
			return nil, nil, err
		}
		if isFlags || set == "VkStructureType" {
			continue
		}
		ty := vkxml.GoName(set)
		fmt.Fprintf(&b, "// String returns the registry name of the value.\nfunc (v %s) String() string {\n\tswitch v {\n", ty)
		done := map[int64]bool{}
		for _, v := range vals {
			if done[v.Value] {
				continue
			}
			done[v.Value] = true
			fmt.Fprintf(&b, "\tcase %s:\n\t\treturn %q\n", g.ConstName(v.Name), v.Name)
		}
		fmt.Fprintf(&b, "\t}\n\treturn \"%s(\" + itoa(int64(v)) + \")\"\n}\n\n", set)
	}

	// Structures, with their C layout recorded for the layout test.
	var test bytes.Buffer
	fmt.Fprintf(&test, "// Code generated by genvk from %s; DO NOT EDIT.\n\npackage vkc\n\nimport \"unsafe\"\n\n", xmlPath)
	if err := g.WriteStructs(&b, &test); err != nil {
		return nil, nil, err
	}
	g.WriteNamed(&b)
	b.Write(cmds.Bytes())
	g.spirvTables(&b)

	src, err := format.Source(b.Bytes())
	if err != nil {
		return b.Bytes(), nil, fmt.Errorf("gofmt: %v", err)
	}
	tsrc, err := format.Source(test.Bytes())
	if err != nil {
		return nil, test.Bytes(), fmt.Errorf("gofmt test: %v", err)
	}
	return src, tsrc, nil
}

// spirvTables writes the SPIR-V environment's tables (the appendix's
// lists of the SPIR-V extensions and capabilities Vulkan allows, and when),
// sorted by name.
func (g *gen) spirvTables(b *bytes.Buffer) {
	fmt.Fprintf(b, "// SPIRVEnable is one condition under which Vulkan allows a SPIR-V\n")
	fmt.Fprintf(b, "// extension or capability: a core version, a device extension, a\n")
	fmt.Fprintf(b, "// feature (Struct, Feature) or a property value (Property, Member,\n")
	fmt.Fprintf(b, "// Value), the latter two needing Requires (a version or extension).\n")
	fmt.Fprintf(b, "type SPIRVEnable struct{ Version, Extension, Struct, Feature, Property, Member, Value, Requires string }\n\n")
	for _, t := range []struct {
		name, doc string
		rows      []vkxml.SPIRV
	}{
		{"SPIRVExtension", "the conditions under which a module may declare SPIR-V extension name", g.r.SPIRVExtensions},
		{"SPIRVCapability", "the conditions under which a module may declare SPIR-V capability name", g.r.SPIRVCapabilities},
	} {
		rows := append([]vkxml.SPIRV(nil), t.rows...)
		slices.SortFunc(rows, func(a, b vkxml.SPIRV) int { return strings.Compare(a.Name, b.Name) })
		// A switch rather than a map: a map literal this size costs every
		// program importing vkc (coop val among them) its building at start-up.
		fmt.Fprintf(b, "// %s returns %s (vk.xml's tables of the SPIR-V\n// environment appendix); false: it is listed nowhere, so never allowed.\nfunc %s(name string) ([]SPIRVEnable, bool) {\n\tswitch name {\n", t.name, t.doc, t.name)
		for _, r := range rows {
			var es []string
			for _, e := range r.Enables {
				var fs []string
				for _, kv := range [][2]string{{"Version", e.Version}, {"Extension", e.Extension}, {"Struct", e.Struct}, {"Feature", e.Feature},
					{"Property", e.Property}, {"Member", e.Member}, {"Value", e.Value}, {"Requires", e.Requires}} {
					if kv[1] != "" {
						fs = append(fs, fmt.Sprintf("%s: %q", kv[0], kv[1]))
					}
				}
				es = append(es, "{"+strings.Join(fs, ", ")+"}")
			}
			fmt.Fprintf(b, "\tcase %q:\n\t\treturn []SPIRVEnable{%s}, true\n", r.Name, strings.Join(es, ", "))
		}
		fmt.Fprintf(b, "\t}\n\treturn nil, false\n}\n\n")
	}
}

func main() {
	in := flag.String("xml", "", "path of vk.xml")
	out := flag.String("o", "vkc_gen.go", "output Go file")
	testOut := flag.String("test", "layout_gen_test.go", "output layout test file")
	name := flag.String("name", "vk.xml", "registry name recorded in the header")
	flag.Parse()
	r, err := vkxml.Load(*in)
	if err != nil {
		log.Fatal(err)
	}
	e := vkxml.NewEmitter(vkxml.NewIndex(r))
	// Package vk passes device-or-host addresses as one integer.
	e.NamedUnions = true
	src, tsrc, err := (&gen{Emitter: e, r: r}).run(*name)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*testOut, tsrc, 0o644); err != nil {
		log.Fatal(err)
	}
}
