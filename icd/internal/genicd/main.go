// Command genicd writes the generated parts of coop's Vulkan driver from
// the registry vk.xml:
//
//   - icd/vkt/vkt_gen.go: the structures the driver reads and writes, laid
//     out as C lays them out on 64-bit Linux, their sType values, the
//     enumerations it uses, the extensions it advertises with their
//     specification versions, and the query chains: every structure that
//     may extend VkPhysicalDeviceFeatures2 or VkPhysicalDeviceProperties2
//     in Vulkan 1.1 to 1.3 or an advertised extension, and which
//     VkPhysicalDeviceVulkan1x member mirrors which member of a promoted
//     structure (vk.xml's member aliases; chain.go);
//   - cmd/coop-icd/exports_gen.go: one C-callable function per command the
//     driver exposes (core Vulkan 1.0 to 1.3 and the advertised extensions).
//     A command package icd implements (a function named as the command
//     without "vk") calls it; any other returns the error its registry entry
//     allows that fits best (a format or feature not supported), or does
//     nothing, reporting zero items where it counts them;
//   - cmd/coop-icd/procs_gen.c: the name-to-function table the loader's
//     vk_icdGetInstanceProcAddr queries reach.
//
// Run by go generate in package icd; the lists below are the only input
// typed by hand.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"log"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/coopshader/coop/internal/vkxml"
)

// Structures the driver reads or fills, besides those of the features and
// properties chains (chain.go finds those in the registry).
var wantStructs = []string{
	"VkBaseInStructure", "VkBaseOutStructure",
	"VkApplicationInfo", "VkInstanceCreateInfo", "VkDeviceQueueCreateInfo", "VkDeviceCreateInfo", "VkExtensionProperties",
	"VkPhysicalDeviceProperties", "VkQueueFamilyProperties", "VkQueueFamilyProperties2", "VkPhysicalDeviceMemoryProperties", "VkPhysicalDeviceMemoryProperties2",
	"VkFormatProperties", "VkFormatProperties2",
	"VkCooperativeMatrixPropertiesKHR", "VkCooperativeMatrixPropertiesNV", "VkCooperativeMatrixFlexibleDimensionsPropertiesNV",
	"VkCooperativeVectorPropertiesNV", "VkConvertCooperativeVectorMatrixInfoNV",
	"VkBufferCreateInfo", "VkMemoryRequirements", "VkMemoryRequirements2", "VkMemoryDedicatedRequirements", "VkMemoryAllocateInfo",
	"VkMemoryAllocateFlagsInfo", "VkBufferDeviceAddressInfo", "VkBufferMemoryRequirementsInfo2", "VkDeviceBufferMemoryRequirements",
	"VkBindBufferMemoryInfo", "VkMappedMemoryRange", "VkMemoryMapInfo",
	"VkDescriptorSetLayoutBinding", "VkDescriptorSetLayoutCreateInfo", "VkDescriptorSetLayoutSupport", "VkPushConstantRange", "VkPipelineLayoutCreateInfo",
	"VkShaderModuleCreateInfo", "VkSpecializationMapEntry", "VkSpecializationInfo", "VkPipelineShaderStageCreateInfo",
	"VkPipelineShaderStageRequiredSubgroupSizeCreateInfo", "VkComputePipelineCreateInfo", "VkPipelineCacheCreateInfo",
	"VkDescriptorPoolSize", "VkDescriptorPoolCreateInfo", "VkDescriptorSetAllocateInfo", "VkDescriptorBufferInfo", "VkWriteDescriptorSet",
	"VkCopyDescriptorSet", "VkDescriptorUpdateTemplateCreateInfo", "VkDescriptorUpdateTemplateEntry", "VkPushDescriptorSetInfo", "VkPushConstantsInfo", "VkBindDescriptorSetsInfo",
	"VkCommandPoolCreateInfo", "VkCommandBufferAllocateInfo", "VkCommandBufferBeginInfo", "VkSubmitInfo", "VkSubmitInfo2",
	"VkCommandBufferSubmitInfo", "VkSemaphoreSubmitInfo", "VkTimelineSemaphoreSubmitInfo",
	"VkFenceCreateInfo", "VkSemaphoreCreateInfo", "VkSemaphoreTypeCreateInfo", "VkSemaphoreWaitInfo", "VkSemaphoreSignalInfo", "VkEventCreateInfo",
	"VkQueryPoolCreateInfo", "VkBufferCopy", "VkCopyBufferInfo2", "VkBufferCopy2", "VkMemoryBarrier", "VkDependencyInfo",
	"VkDispatchIndirectCommand", "VkDebugUtilsMessengerCreateInfoEXT", "VkDebugUtilsMessengerCallbackDataEXT",
	"VkPhysicalDeviceToolProperties",
	"VkImageCreateInfo", "VkImageViewCreateInfo", "VkSamplerCreateInfo", "VkBufferViewCreateInfo", "VkDescriptorImageInfo",
	"VkImageSubresource", "VkSubresourceLayout", "VkImageMemoryRequirementsInfo2", "VkDeviceImageMemoryRequirements",
	"VkBindImageMemoryInfo", "VkBufferImageCopy", "VkBufferImageCopy2", "VkCopyBufferToImageInfo2", "VkCopyImageToBufferInfo2",
	"VkImageCopy", "VkImageCopy2", "VkCopyImageInfo2", "VkImageSubresourceRange", "VkImageFormatProperties",
	"VkImageFormatProperties2", "VkPhysicalDeviceImageFormatInfo2", "VkFormatProperties3",
}

// Enumerations emitted in full.
var wantEnums = []string{
	"VkResult", "VkDescriptorType", "VkComponentTypeKHR", "VkScopeKHR", "VkQueryType", "VkSemaphoreType",
	"VkCooperativeVectorMatrixLayoutNV", "VkPipelineBindPoint", "VkCommandBufferLevel", "VkQueryResultFlagBits",
	"VkBufferUsageFlagBits", "VkMemoryPropertyFlagBits", "VkQueueFlagBits", "VkShaderStageFlagBits",
	"VkDescriptorSetLayoutCreateFlagBits", "VkDescriptorPoolCreateFlagBits", "VkFenceCreateFlagBits",
	"VkPipelineCreateFlagBits", "VkSemaphoreWaitFlagBits", "VkCommandPoolCreateFlagBits", "VkMemoryAllocateFlagBits",
	"VkDebugUtilsMessageSeverityFlagBitsEXT", "VkDebugUtilsMessageTypeFlagBitsEXT", "VkPhysicalDeviceType",
	"VkCommandBufferResetFlagBits", "VkPipelineRobustnessBufferBehavior", "VkPipelineRobustnessImageBehavior",
	"VkFormat", "VkImageType", "VkImageTiling", "VkImageViewType", "VkImageUsageFlagBits", "VkImageCreateFlagBits",
	"VkImageAspectFlagBits", "VkSampleCountFlagBits", "VkFormatFeatureFlagBits", "VkFormatFeatureFlagBits2",
	"VkFilter", "VkSamplerMipmapMode", "VkSamplerAddressMode", "VkBorderColor", "VkCompareOp",
}

var wantConstants = []string{"VK_WHOLE_SIZE", "VK_QUEUE_FAMILY_IGNORED", "VK_REMAINING_MIP_LEVELS", "VK_REMAINING_ARRAY_LAYERS"}

// Extensions the driver advertises. Their commands are exposed; the specs
// versions are the registry's.
var instanceExtensions = []string{
	"VK_EXT_debug_utils", "VK_KHR_get_physical_device_properties2",
}

var deviceExtensions = []string{
	"VK_KHR_16bit_storage", "VK_KHR_8bit_storage", "VK_KHR_bind_memory2", "VK_KHR_buffer_device_address",
	"VK_KHR_cooperative_matrix", "VK_KHR_dedicated_allocation", "VK_KHR_driver_properties", "VK_KHR_get_memory_requirements2",
	"VK_KHR_maintenance1", "VK_KHR_maintenance2", "VK_KHR_maintenance3", "VK_KHR_maintenance4", "VK_KHR_push_descriptor",
	"VK_KHR_shader_bfloat16", "VK_KHR_shader_float16_int8", "VK_KHR_shader_integer_dot_product",
	"VK_KHR_shader_non_semantic_info", "VK_KHR_shader_subgroup_extended_types", "VK_KHR_spirv_1_4",
	"VK_KHR_storage_buffer_storage_class", "VK_KHR_synchronization2", "VK_KHR_timeline_semaphore",
	"VK_KHR_vulkan_memory_model", "VK_KHR_shader_atomic_int64", "VK_EXT_scalar_block_layout", "VK_EXT_host_query_reset",
	"VK_EXT_pipeline_robustness", "VK_EXT_shader_float8", "VK_EXT_subgroup_size_control",
	"VK_NV_cooperative_matrix", "VK_NV_cooperative_matrix2", "VK_NV_cooperative_matrix_decode_vector", "VK_NV_cooperative_vector",
}

// gen writes the driver's files from the registry.
type gen struct {
	*vkxml.Emitter
}

// Go keywords a parameter may be named.
var keywords = map[string]bool{"type": true, "range": true, "func": true, "select": true, "map": true}

type command struct {
	name, target string // target: the command an alias stands for
	params       []param
	ret          string // Go type, "" for void
	retVK        string
	physdev      bool // first parameter is a VkPhysicalDevice
	errors       []string
}

type param struct {
	name, goT string
	countOut  bool // a uint32_t* or size_t* count of returned items
}

// cType maps a command parameter or result to the Go type that has its C
// calling convention.
func (g *gen) cType(d vkxml.Decl) (string, error) {
	if d.Ptr > 0 {
		return "unsafe.Pointer", nil
	}
	return g.scalarGo(d.Type)
}

func (g *gen) scalarGo(c string) (string, error) {
	if s, ok := vkxml.Scalars[c]; ok {
		return s.GoT, nil
	}
	if strings.HasPrefix(c, "PFN_") {
		return "unsafe.Pointer", nil
	}
	t, ok := g.Types[c]
	if !ok {
		return "", fmt.Errorf("unknown type %s", c)
	}
	if t.Alias != "" {
		return g.scalarGo(t.Alias)
	}
	switch t.Category {
	case "basetype":
		return g.scalarGo(strings.TrimSpace(t.Type))
	case "bitmask":
		return g.scalarGo(t.Type)
	case "enum":
		if f, ok := g.FlagsOf[c]; ok {
			return g.scalarGo(f)
		}
		return "int32", nil
	case "handle":
		if t.Type == "VK_DEFINE_HANDLE" {
			return "uintptr", nil
		}
		return "uint64", nil
	case "funcpointer":
		return "unsafe.Pointer", nil
	}
	return "", fmt.Errorf("type %s (%s) cannot be passed by value", c, t.Category)
}

// exposed lists the commands of core Vulkan 1.0 to 1.3 and of the
// advertised extensions, sorted by name.
func (g *gen) exposed(r *vkxml.Registry) ([]string, error) {
	set := map[string]bool{}
	for _, f := range r.Features {
		if !vkxml.ForVulkan(f.API) {
			continue
		}
		v, err := strconv.ParseFloat(f.Number, 64)
		if err != nil || v > 1.3 {
			continue
		}
		for _, rq := range f.Requires {
			for _, c := range rq.Commands {
				set[c.Name] = true
			}
		}
	}
	for _, x := range r.Extensions {
		if !slices.Contains(instanceExtensions, x.Name) && !slices.Contains(deviceExtensions, x.Name) {
			continue
		}
		for _, rq := range x.Requires {
			if !vkxml.ForVulkan(rq.API) {
				continue
			}
			for _, c := range rq.Commands {
				set[c.Name] = true
			}
		}
	}
	var names []string
	for n := range set {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, nil
}

func (g *gen) command(name string) (*command, error) {
	xc, ok := g.Commands[name]
	if !ok {
		return nil, fmt.Errorf("command %s not found", name)
	}
	c := &command{name: name, target: name}
	if xc.Alias != "" {
		c.target = xc.Alias
		if xc, ok = g.Commands[xc.Alias]; !ok {
			return nil, fmt.Errorf("alias target %s not found", c.target)
		}
	}
	ret, err := vkxml.ParseDecl(xc.Proto.Inner)
	if err != nil {
		return nil, err
	}
	if ret.Type != "void" || ret.Ptr != 0 {
		if c.ret, err = g.cType(ret); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		c.retVK = ret.Type
	}
	for i, p := range xc.Params {
		if !vkxml.ForVulkan(p.API) {
			continue
		}
		d, err := vkxml.ParseDecl(p.Inner)
		if err != nil {
			return nil, err
		}
		gt, err := g.cType(d)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		n := d.Name
		if keywords[n] {
			n += "_"
		}
		if i == 0 && d.Type == "VkPhysicalDevice" && d.Ptr == 0 {
			c.physdev = true
		}
		out := d.Ptr == 1 && (d.Type == "uint32_t" || d.Type == "size_t") && strings.HasSuffix(d.Name, "Count") && !strings.Contains(p.Inner, "const")
		c.params = append(c.params, param{n, gt, out})
	}
	if xc.Errors != "" {
		c.errors = strings.Split(xc.Errors, ",")
	}
	return c, nil
}

// defaultError is the error an unimplemented command returns: the first of
// these its registry entry lists, else its first error code.
var preferredErrors = []string{
	"VK_ERROR_FORMAT_NOT_SUPPORTED", "VK_ERROR_FEATURE_NOT_PRESENT", "VK_ERROR_INITIALIZATION_FAILED",
	"VK_ERROR_OUT_OF_DEVICE_MEMORY", "VK_ERROR_OUT_OF_HOST_MEMORY",
}

func (g *gen) defaultError(c *command) (int64, error) {
	_, byName := g.Enumerants("VkResult")
	pick := ""
	for _, e := range preferredErrors {
		if slices.Contains(c.errors, e) {
			pick = e
			break
		}
	}
	if pick == "" && len(c.errors) > 0 {
		pick = c.errors[0]
	}
	if pick == "" {
		return 0, nil
	}
	e, ok := byName[pick]
	if !ok {
		return 0, fmt.Errorf("%s: unknown result %s", c.name, pick)
	}
	return vkxml.EnumValue(e, byName)
}

// implemented lists the exported functions of package icd's hand-written
// files.
func implemented(dir string) (map[string]bool, error) {
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || strings.HasSuffix(f, "_gen.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range af.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.IsExported() {
				out[fd.Name.Name] = true
			}
		}
	}
	return out, nil
}

// cProcs are the commands the entry package writes in C (they return
// function pointers from the table).
var cProcs = map[string]bool{"vkGetInstanceProcAddr": true, "vkGetDeviceProcAddr": true}

func (g *gen) exports(r *vkxml.Registry, impl map[string]bool, xmlName string) ([]byte, []byte, error) {
	names, err := g.exposed(r)
	if err != nil {
		return nil, nil, err
	}
	var gob, cb bytes.Buffer
	fmt.Fprintf(&gob, "// Code generated by genicd from %s; DO NOT EDIT.\n// Regenerate with: go generate ./icd\n\n", xmlName)
	fmt.Fprintf(&gob, "package main\n\nimport \"C\"\n\nimport (\n\t\"unsafe\"\n\n\t\"github.com/coopshader/coop/icd\"\n)\n\n")
	fmt.Fprintf(&cb, "// Code generated by genicd from %s; DO NOT EDIT.\n// Regenerate with: go generate ./icd\n\n", xmlName)
	fmt.Fprintf(&cb, "#include <string.h>\n#include <stdlib.h>\n#include \"_cgo_export.h\"\n#include \"procs.h\"\n\n")
	type entry struct {
		name, fn string
		physdev  bool
	}
	var table []entry
	done := map[string]bool{}
	nImpl := 0
	for _, n := range names {
		c, err := g.command(n)
		if err != nil {
			return nil, nil, err
		}
		fn := "coop_" + c.target
		table = append(table, entry{n, fn, c.physdev})
		if done[c.target] || cProcs[c.target] {
			continue
		}
		done[c.target] = true
		var ps, args []string
		for _, p := range c.params {
			ps = append(ps, p.name+" "+p.goT)
			args = append(args, p.name)
		}
		short := strings.TrimPrefix(c.target, "vk")
		fmt.Fprintf(&gob, "//export %s\nfunc %s(%s) ", fn, fn, strings.Join(ps, ", "))
		if c.ret != "" {
			fmt.Fprintf(&gob, "(r %s) ", c.ret)
		}
		fmt.Fprintf(&gob, "{\n")
		if impl[short] {
			nImpl++
			if c.retVK == "VkResult" {
				fmt.Fprintf(&gob, "\tdefer icd.Guard(%q, &r)()\n", c.target)
			} else {
				fmt.Fprintf(&gob, "\tdefer icd.Guard(%q, nil)()\n", c.target)
			}
			if c.ret != "" {
				fmt.Fprintf(&gob, "\treturn icd.%s(%s)\n}\n\n", short, strings.Join(args, ", "))
			} else {
				fmt.Fprintf(&gob, "\ticd.%s(%s)\n}\n\n", short, strings.Join(args, ", "))
			}
			continue
		}
		for _, p := range c.params {
			if p.countOut {
				fmt.Fprintf(&gob, "\ticd.ZeroCount(%s, %t)\n", p.name, isSizeT(g, c, p))
			}
		}
		switch {
		case c.retVK == "VkResult":
			v, err := g.defaultError(c)
			if err != nil {
				return nil, nil, err
			}
			if v != 0 {
				fmt.Fprintf(&gob, "\ticd.Unsupported(%q)\n", c.target)
			}
			fmt.Fprintf(&gob, "\treturn %d\n", v)
		case c.ret != "":
			fmt.Fprintf(&gob, "\treturn 0\n")
		}
		fmt.Fprintf(&gob, "}\n\n")
	}
	fmt.Fprintf(&cb, "// %d commands exposed, %d implemented by package icd.\nconst struct coop_proc coop_procs[] = {\n", len(table), nImpl)
	for _, e := range table {
		ph := 0
		if e.physdev {
			ph = 1
		}
		fmt.Fprintf(&cb, "\t{%q, (PFN_coop)%s, %d},\n", e.name, e.fn, ph)
	}
	fmt.Fprintf(&cb, "};\n\nconst int coop_nprocs = %d;\n", len(table))
	src, err := format.Source(gob.Bytes())
	if err != nil {
		return gob.Bytes(), nil, fmt.Errorf("gofmt exports: %v", err)
	}
	return src, cb.Bytes(), nil
}

// isSizeT reports whether count parameter p of c is a size_t.
func isSizeT(g *gen, c *command, p param) bool {
	xc := g.Commands[c.target]
	for _, xp := range xc.Params {
		d, err := vkxml.ParseDecl(xp.Inner)
		if err == nil && (d.Name == p.name || d.Name+"_" == p.name) {
			return d.Type == "size_t"
		}
	}
	return false
}

func (g *gen) types_(r *vkxml.Registry, xmlName string) ([]byte, []byte, error) {
	for _, s := range wantStructs {
		if err := g.AddStruct(s); err != nil {
			return nil, nil, err
		}
	}
	ch, err := g.chains(r)
	if err != nil {
		return nil, nil, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by genicd from %s; DO NOT EDIT.\n// Regenerate with: go generate ./icd\n\n", xmlName)
	fmt.Fprintf(&b, "package vkt\n\nimport (\n\t\"reflect\"\n\t\"unsafe\"\n)\n\n")

	if err := g.WriteConsts(&b, wantConstants, nil); err != nil {
		return nil, nil, err
	}
	for _, set := range append([]string{"VkStructureType"}, wantEnums...) {
		vals, _, err := g.WriteEnum(&b, set)
		if err != nil {
			return nil, nil, err
		}
		if set == "VkFormat" {
			// The driver finds the executor's formats by name.
			fmt.Fprintf(&b, "// FormatNames names the values of VkFormat.\nvar FormatNames = map[Format]string{\n")
			for _, v := range vals {
				fmt.Fprintf(&b, "\t%s: %q,\n", g.ConstName(v.Name), v.Name)
			}
			fmt.Fprintf(&b, "}\n\n")
		}
	}

	if err := g.tables(ch, &b); err != nil {
		return nil, nil, err
	}
	var test bytes.Buffer
	fmt.Fprintf(&test, "// Code generated by genicd from %s; DO NOT EDIT.\n\npackage vkt\n\nimport \"unsafe\"\n\n", xmlName)
	if err := g.WriteStructs(&b, &test); err != nil {
		return nil, nil, err
	}
	g.WriteNamed(&b)

	// Advertised extensions with the registry's specification versions.
	ext := func(varName string, list []string) error {
		fmt.Fprintf(&b, "var %s = []Extension{\n", varName)
		sorted := slices.Clone(list)
		sort.Strings(sorted)
		for _, n := range sorted {
			v := ""
			for _, x := range r.Extensions {
				if x.Name != n {
					continue
				}
				for _, rq := range x.Requires {
					for _, e := range rq.Enums {
						if strings.HasSuffix(e.Name, "_SPEC_VERSION") && e.Value != "" {
							v = e.Value
						}
					}
				}
			}
			if v == "" {
				return fmt.Errorf("extension %s has no spec version", n)
			}
			fmt.Fprintf(&b, "\t{%q, %s},\n", n, v)
		}
		fmt.Fprintf(&b, "}\n\n")
		return nil
	}
	if err := ext("InstanceExtensions", instanceExtensions); err != nil {
		return nil, nil, err
	}
	if err := ext("DeviceExtensions", deviceExtensions); err != nil {
		return nil, nil, err
	}
	src, err := format.Source(b.Bytes())
	if err != nil {
		return b.Bytes(), nil, fmt.Errorf("gofmt vkt: %v", err)
	}
	tsrc, err := format.Source(test.Bytes())
	if err != nil {
		return nil, nil, fmt.Errorf("gofmt vkt test: %v", err)
	}
	return src, tsrc, nil
}

func main() {
	in := flag.String("xml", "", "path of vk.xml")
	name := flag.String("name", "vk.xml", "registry name recorded in the headers")
	icdDir := flag.String("icd", ".", "directory of package icd")
	vktDir := flag.String("vkt", "vkt", "directory of package vkt")
	entryDir := flag.String("entry", "../cmd/coop-icd", "directory of the entry package")
	flag.Parse()
	r, err := vkxml.Load(*in)
	if err != nil {
		log.Fatal(err)
	}
	g := &gen{vkxml.NewEmitter(vkxml.NewIndex(r))}
	vsrc, vtest, err := g.types_(r, *name)
	if err != nil {
		log.Fatal(err)
	}
	impl, err := implemented(*icdDir)
	if err != nil {
		log.Fatal(err)
	}
	gsrc, csrc, err := g.exports(r, impl, *name)
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range []struct {
		path string
		data []byte
	}{
		{filepath.Join(*vktDir, "vkt_gen.go"), vsrc},
		{filepath.Join(*vktDir, "layout_gen_test.go"), vtest},
		{filepath.Join(*entryDir, "exports_gen.go"), gsrc},
		{filepath.Join(*entryDir, "procs_gen.c"), csrc},
	} {
		if err := os.WriteFile(f.path, f.data, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
