// Command genvk writes the small subset of the Vulkan API that package vk
// calls (structures with their 64-bit C layout, enums, constants and command
// wrappers) from the registry vk.xml. It is run by go generate in
// vk/internal/vkc; the lists of wanted names below are the only input typed
// by hand.
package main

import (
	"bytes"
	"encoding/xml"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"sort"
	"strconv"
	"strings"
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

// --- registry model -------------------------------------------------------

type registry struct {
	Types      []xType      `xml:"types>type"`
	Enums      []xEnums     `xml:"enums"`
	Commands   []xCommand   `xml:"commands>command"`
	Features   []xFeature   `xml:"feature"`
	Extensions []xExtension `xml:"extensions>extension"`
	Tags       []struct {
		Name string `xml:"name,attr"`
	} `xml:"tags>tag"`
	SPIRVExtensions   []xSPIRV `xml:"spirvextensions>spirvextension"`
	SPIRVCapabilities []xSPIRV `xml:"spirvcapabilities>spirvcapability"`
}

// xSPIRV is one row of the SPIR-V environment's tables: a SPIR-V
// extension or capability and the conditions under which Vulkan allows it.
type xSPIRV struct {
	Name    string `xml:"name,attr"`
	Enables []struct {
		Version   string `xml:"version,attr"`
		Extension string `xml:"extension,attr"`
		Struct    string `xml:"struct,attr"`
		Feature   string `xml:"feature,attr"`
		Property  string `xml:"property,attr"`
		Member    string `xml:"member,attr"`
		Value     string `xml:"value,attr"`
		Requires  string `xml:"requires,attr"`
	} `xml:"enable"`
}

type xType struct {
	Category string    `xml:"category,attr"`
	NameAttr string    `xml:"name,attr"`
	API      string    `xml:"api,attr"`
	Alias    string    `xml:"alias,attr"`
	Requires string    `xml:"requires,attr"`
	BitVals  string    `xml:"bitvalues,attr"`
	Name     string    `xml:"name"`
	Type     string    `xml:"type"`
	Inner    string    `xml:",innerxml"`
	Members  []xMember `xml:"member"`
}

func (t *xType) name() string {
	if t.NameAttr != "" {
		return t.NameAttr
	}
	return t.Name
}

type xMember struct {
	API    string `xml:"api,attr"`
	Values string `xml:"values,attr"`
	Inner  string `xml:",innerxml"`
}

type xEnum struct {
	Name      string `xml:"name,attr"`
	Value     string `xml:"value,attr"`
	Bitpos    string `xml:"bitpos,attr"`
	Alias     string `xml:"alias,attr"`
	Extends   string `xml:"extends,attr"`
	Offset    string `xml:"offset,attr"`
	Extnumber string `xml:"extnumber,attr"`
	Dir       string `xml:"dir,attr"`
	API       string `xml:"api,attr"`
}

type xEnums struct {
	Name  string  `xml:"name,attr"`
	Type  string  `xml:"type,attr"`
	Enums []xEnum `xml:"enum"`
}

type xCommand struct {
	API   string `xml:"api,attr"`
	Name  string `xml:"name,attr"`
	Alias string `xml:"alias,attr"`
	Proto struct {
		Inner string `xml:",innerxml"`
	} `xml:"proto"`
	Params []struct {
		API   string `xml:"api,attr"`
		Inner string `xml:",innerxml"`
	} `xml:"param"`
}

type xRequire struct {
	API   string  `xml:"api,attr"`
	Enums []xEnum `xml:"enum"`
}

type xFeature struct {
	API      string     `xml:"api,attr"`
	Requires []xRequire `xml:"require"`
}

type xExtension struct {
	Number    string     `xml:"number,attr"`
	Supported string     `xml:"supported,attr"`
	Requires  []xRequire `xml:"require"`
}

// forVulkan reports whether an api attribute (empty means every API)
// includes plain Vulkan rather than only Vulkan SC.
func forVulkan(api string) bool {
	if api == "" {
		return true
	}
	for _, a := range strings.Split(api, ",") {
		if a == "vulkan" {
			return true
		}
	}
	return false
}

// decl is a C declaration pulled out of a member or param: base type name,
// pointer depth, array dimension and the declared name.
type decl struct {
	typ   string
	ptr   int
	array string // "" or a literal / API constant name
	name  string
}

// parseDecl reads "const <type>T</type>* <name>n</name>[<enum>E</enum>]".
func parseDecl(inner string) (decl, error) {
	var d decl
	dec := xml.NewDecoder(strings.NewReader("<x>" + inner + "</x>"))
	var cur string
	afterName := false
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			cur = t.Name.Local
		case xml.EndElement:
			if t.Name.Local == "name" {
				afterName = true
			}
			cur = ""
		case xml.CharData:
			s := string(t)
			switch cur {
			case "type":
				d.typ = s
			case "name":
				d.name = s
			case "enum":
				d.array = s
			case "comment":
			default:
				if strings.Contains(s, ":") {
					return d, fmt.Errorf("bit-field in %q is not supported", inner)
				}
				if !afterName {
					d.ptr += strings.Count(s, "*")
				} else if a := strings.Trim(strings.TrimSpace(s), "[]"); a != "" {
					if strings.Count(s, "[") > 1 {
						return d, fmt.Errorf("multi-dimensional array in %q is not supported", inner)
					}
					d.array = a
				}
			}
		}
	}
	if d.typ == "" || d.name == "" {
		return d, fmt.Errorf("cannot parse declaration %q", inner)
	}
	return d, nil
}

// --- generator ------------------------------------------------------------

type gen struct {
	r        *registry
	types    map[string]*xType
	enumSets map[string]*xEnums
	extra    map[string][]xEnum // enum values added by features and extensions
	consts   map[string]xEnum
	commands map[string]*xCommand
	tags     []string

	structs   []string // emitted structures in dependency order
	seen      map[string]bool
	flagsOf   map[string]string // FlagBits enumeration -> its Flags type
	named     map[string]string // Vk type -> Go underlying type, for emitted named scalars
	namedList []string
	sTypes    []string
	arrConsts map[string]bool
}

func newGen(r *registry) *gen {
	g := &gen{
		r: r, types: map[string]*xType{}, enumSets: map[string]*xEnums{}, extra: map[string][]xEnum{},
		consts: map[string]xEnum{}, commands: map[string]*xCommand{}, seen: map[string]bool{},
		named: map[string]string{}, arrConsts: map[string]bool{},
	}
	for i := range r.Types {
		t := &r.Types[i]
		if !forVulkan(t.API) || t.name() == "" {
			continue
		}
		g.types[t.name()] = t
	}
	for i := range r.Enums {
		e := &r.Enums[i]
		if e.Name == "API Constants" {
			for _, c := range e.Enums {
				g.consts[c.Name] = c
			}
			continue
		}
		g.enumSets[e.Name] = e
	}
	add := func(reqs []xRequire, extnum string) {
		for _, rq := range reqs {
			if !forVulkan(rq.API) {
				continue
			}
			for _, e := range rq.Enums {
				if e.Extends == "" || !forVulkan(e.API) {
					continue
				}
				if e.Offset != "" && e.Extnumber == "" {
					e.Extnumber = extnum
				}
				g.extra[e.Extends] = append(g.extra[e.Extends], e)
			}
		}
	}
	for _, f := range r.Features {
		if forVulkan(f.API) {
			add(f.Requires, "")
		}
	}
	for _, x := range r.Extensions {
		if x.Supported == "disabled" {
			continue
		}
		add(x.Requires, x.Number)
	}
	for i := range r.Commands {
		c := &r.Commands[i]
		if !forVulkan(c.API) {
			continue
		}
		name := c.Name
		if name == "" {
			d, err := parseDecl(c.Proto.Inner)
			if err != nil {
				continue
			}
			name = d.name
		}
		g.commands[name] = c
	}
	g.flagsOf = map[string]string{}
	for name, t := range g.types {
		if t.Category == "bitmask" {
			if t.Requires != "" {
				g.flagsOf[t.Requires] = name
			}
			if t.BitVals != "" {
				g.flagsOf[t.BitVals] = name
			}
		}
	}
	for _, t := range r.Tags {
		g.tags = append(g.tags, t.Name)
	}
	return g
}

// goName turns a Vk type name into its Go name.
func goName(vk string) string { return strings.TrimPrefix(vk, "Vk") }

// constName turns VK_SOME_NAME_KHR into SomeNameKHR.
func (g *gen) constName(c string) string {
	var b strings.Builder
	for _, w := range strings.Split(strings.TrimPrefix(c, "VK_"), "_") {
		isTag := false
		for _, t := range g.tags {
			if w == t {
				isTag = true
			}
		}
		if isTag || w == "" {
			b.WriteString(w)
			continue
		}
		b.WriteString(w[:1] + strings.ToLower(w[1:]))
	}
	return b.String()
}

func fieldName(c string) string { return strings.ToUpper(c[:1]) + c[1:] }

// scalar reports the Go type, size and alignment of a C scalar.
var scalars = map[string]struct {
	goT         string
	size, align int
}{
	"char": {"byte", 1, 1}, "uint8_t": {"uint8", 1, 1}, "int8_t": {"int8", 1, 1},
	"uint16_t": {"uint16", 2, 2}, "int16_t": {"int16", 2, 2},
	"uint32_t": {"uint32", 4, 4}, "int32_t": {"int32", 4, 4}, "int": {"int32", 4, 4}, "float": {"float32", 4, 4},
	"uint64_t": {"uint64", 8, 8}, "int64_t": {"int64", 8, 8}, "double": {"float64", 8, 8}, "size_t": {"uintptr", 8, 8},
}

// layout is a Go type with the size and alignment of its C counterpart.
type layout struct {
	goT         string
	size, align int
}

// typeOf resolves a C base type (not a pointer), queuing the types it
// needs for emission.
func (g *gen) typeOf(c string) (layout, error) {
	if s, ok := scalars[c]; ok {
		return layout{s.goT, s.size, s.align}, nil
	}
	t, ok := g.types[c]
	if !ok {
		return layout{}, fmt.Errorf("unknown type %s", c)
	}
	if t.Alias != "" {
		return g.typeOf(t.Alias)
	}
	switch t.Category {
	case "basetype":
		d := strings.TrimSpace(t.Type)
		s, ok := scalars[d]
		if !ok {
			return layout{}, fmt.Errorf("basetype %s of %s unsupported", d, c)
		}
		g.addNamed(c, s.goT)
		return layout{goName(c), s.size, s.align}, nil
	case "bitmask":
		l, err := g.typeOf(t.Type)
		if err != nil {
			return l, err
		}
		g.addNamed(c, l.goT)
		return layout{goName(c), l.size, l.align}, nil
	case "enum":
		// A FlagBits enumeration is the same C-sized integer as its Flags
		// type; an alias lets a single bit go where the mask type is taken.
		if f, ok := g.flagsOf[c]; ok {
			l, err := g.typeOf(f)
			if err != nil {
				return l, err
			}
			g.addNamed(c, "= "+goName(f))
			return layout{goName(c), l.size, l.align}, nil
		}
		g.addNamed(c, "int32")
		return layout{goName(c), 4, 4}, nil
	case "handle":
		if t.Type == "VK_DEFINE_HANDLE" {
			g.addNamed(c, "uintptr")
		} else {
			g.addNamed(c, "uint64")
		}
		return layout{goName(c), 8, 8}, nil
	case "funcpointer":
		return layout{"uintptr", 8, 8}, nil
	case "union":
		// Only the address unions are needed: a device address or a host
		// pointer, 8 bytes either way.
		if c == "VkDeviceOrHostAddressKHR" || c == "VkDeviceOrHostAddressConstKHR" {
			g.addNamed(c, "uint64")
			return layout{goName(c), 8, 8}, nil
		}
	case "struct":
		if err := g.addStruct(c); err != nil {
			return layout{}, err
		}
		sz, al, err := g.structLayout(c)
		return layout{goName(c), sz, al}, err
	}
	return layout{}, fmt.Errorf("type %s of category %q unsupported", c, t.Category)
}

func (g *gen) addNamed(vk, under string) {
	if _, ok := g.named[vk]; !ok {
		g.named[vk] = under
		g.namedList = append(g.namedList, vk)
	}
}

type field struct {
	name   string
	goT    string
	offset int
	size   int
}

// fields computes every member's Go type and C offset.
func (g *gen) fields(s string) ([]field, int, int, error) {
	t := g.types[s]
	var out []field
	off, maxAlign := 0, 1
	for _, m := range t.Members {
		if !forVulkan(m.API) {
			continue
		}
		d, err := parseDecl(m.Inner)
		if err != nil {
			return nil, 0, 0, fmt.Errorf("%s: %v", s, err)
		}
		var l layout
		if d.ptr > 0 {
			l = layout{"unsafe.Pointer", 8, 8}
		} else if l, err = g.typeOf(d.typ); err != nil {
			return nil, 0, 0, fmt.Errorf("%s.%s: %v", s, d.name, err)
		}
		if d.array != "" {
			n, err := strconv.Atoi(d.array)
			dim := d.array
			if err != nil {
				c, ok := g.consts[d.array]
				if !ok {
					return nil, 0, 0, fmt.Errorf("%s.%s: unknown array size %s", s, d.name, d.array)
				}
				if n, err = strconv.Atoi(c.Value); err != nil {
					return nil, 0, 0, fmt.Errorf("%s.%s: array size %s=%q", s, d.name, d.array, c.Value)
				}
				g.arrConsts[d.array] = true
				dim = g.constName(d.array)
			}
			l = layout{"[" + dim + "]" + l.goT, l.size * n, l.align}
		}
		off = (off + l.align - 1) / l.align * l.align
		out = append(out, field{fieldName(d.name), l.goT, off, l.size})
		off += l.size
		maxAlign = max(maxAlign, l.align)
		if m.Values != "" && d.name == "sType" {
			g.sTypes = append(g.sTypes, m.Values)
		}
	}
	size := (off + maxAlign - 1) / maxAlign * maxAlign
	return out, size, maxAlign, nil
}

func (g *gen) structLayout(s string) (int, int, error) {
	_, sz, al, err := g.fields(s)
	return sz, al, err
}

func (g *gen) addStruct(s string) error {
	if g.seen[s] {
		return nil
	}
	g.seen[s] = true
	t, ok := g.types[s]
	if !ok || t.Category != "struct" {
		return fmt.Errorf("%s is not a structure", s)
	}
	if t.Alias != "" {
		return fmt.Errorf("%s is an alias of %s: list the latter", s, t.Alias)
	}
	if _, _, _, err := g.fields(s); err != nil {
		return err
	}
	g.structs = append(g.structs, s)
	return nil
}

// enumValue computes an enumerant's value, following aliases within set.
func enumValue(e xEnum, byName map[string]xEnum) (int64, error) {
	switch {
	case e.Alias != "":
		a, ok := byName[e.Alias]
		if !ok {
			return 0, fmt.Errorf("alias %s of %s not found", e.Alias, e.Name)
		}
		return enumValue(a, byName)
	case e.Bitpos != "":
		b, err := strconv.Atoi(e.Bitpos)
		return int64(1) << b, err
	case e.Offset != "":
		x, err1 := strconv.ParseInt(e.Extnumber, 10, 64)
		o, err2 := strconv.ParseInt(e.Offset, 10, 64)
		if err1 != nil || err2 != nil {
			return 0, fmt.Errorf("bad offset enum %s", e.Name)
		}
		v := 1000000000 + (x-1)*1000 + o
		if e.Dir == "-" {
			v = -v
		}
		return v, nil
	}
	return strconv.ParseInt(e.Value, 0, 64)
}

// enumerants returns a set's values, core first, deduplicated by name.
func (g *gen) enumerants(set string) ([]xEnum, map[string]xEnum) {
	var all []xEnum
	if s, ok := g.enumSets[set]; ok {
		for _, e := range s.Enums {
			if forVulkan(e.API) {
				all = append(all, e)
			}
		}
	}
	all = append(all, g.extra[set]...)
	byName := map[string]xEnum{}
	var out []xEnum
	for _, e := range all {
		if _, dup := byName[e.Name]; dup {
			continue
		}
		byName[e.Name] = e
		out = append(out, e)
	}
	return out, byName
}

// goParam maps a command parameter to its Go type and the expression that
// turns it into a uintptr argument.
func (g *gen) goParam(d decl) (string, string, error) {
	name := d.name
	if name == "type" {
		name = "typ"
	}
	if d.ptr > 0 {
		// Allocation callbacks are never passed, so their function-pointer
		// types need no Go form.
		if d.typ == "void" || d.typ == "VkAllocationCallbacks" {
			if d.ptr == 1 {
				return "unsafe.Pointer", "uintptr(" + name + ")", nil
			}
			return "*unsafe.Pointer", "uintptr(unsafe.Pointer(" + name + "))", nil
		}
		if d.ptr > 1 {
			return "", "", fmt.Errorf("pointer depth %d for %s", d.ptr, d.name)
		}
		l, err := g.typeOf(d.typ)
		if err != nil {
			return "", "", err
		}
		return "*" + l.goT, "uintptr(unsafe.Pointer(" + name + "))", nil
	}
	l, err := g.typeOf(d.typ)
	if err != nil {
		return "", "", err
	}
	if strings.HasPrefix(l.goT, "float") {
		return "", "", fmt.Errorf("float parameter %s not supported by SyscallN", d.name)
	}
	return l.goT, "uintptr(" + name + ")", nil
}

func (g *gen) run(xmlPath string) ([]byte, []byte, error) {
	for _, s := range wantStructs {
		if err := g.addStruct(s); err != nil {
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
		xc, ok := g.commands[c]
		if !ok {
			return nil, nil, fmt.Errorf("command %s not found", c)
		}
		if xc.Alias != "" {
			return nil, nil, fmt.Errorf("command %s is an alias of %s: list the latter", c, xc.Alias)
		}
		ret, err := parseDecl(xc.Proto.Inner)
		if err != nil {
			return nil, nil, err
		}
		var params, args []string
		for _, p := range xc.Params {
			if !forVulkan(p.API) {
				continue
			}
			d, err := parseDecl(p.Inner)
			if err != nil {
				return nil, nil, err
			}
			gt, arg, err := g.goParam(d)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %v", c, err)
			}
			n := d.name
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
		case ret.typ == "void" && ret.ptr == 0:
			fmt.Fprintf(&cmds, "func (p *Procs) %s(%s) {\n\t%s\n}\n\n", short, strings.Join(params, ", "), call)
		default:
			l, err := g.typeOf(ret.typ)
			if err != nil || ret.ptr != 0 {
				return nil, nil, fmt.Errorf("%s: return type %s unsupported", c, ret.typ)
			}
			fmt.Fprintf(&cmds, "func (p *Procs) %s(%s) %s {\n\tr, _, _ := %s\n\treturn %s(r)\n}\n\n", short, strings.Join(params, ", "), l.goT, call, l.goT)
		}
	}

	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by genvk from %s; DO NOT EDIT.\n", xmlPath)
	fmt.Fprintf(&b, "// Regenerate with: go generate ./vk/internal/vkc (the lists of wanted names are in vk/internal/genvk).\n\n")
	fmt.Fprintf(&b, "package vkc\n\nimport (\n\t\"unsafe\"\n\n\t\"github.com/ebitengine/purego\"\n)\n\n")

	// Constants: API constants used in arrays and the explicitly wanted ones.
	var cnames []string
	for c := range g.arrConsts {
		cnames = append(cnames, c)
	}
	cnames = append(cnames, wantConstants...)
	sort.Strings(cnames)
	fmt.Fprintf(&b, "const (\n")
	for _, c := range cnames {
		switch {
		case c == "VK_API_VERSION_1_3":
			fmt.Fprintf(&b, "\tAPIVersion13 = 1<<22 | 3<<12\n")
		default:
			e, ok := g.consts[c]
			if !ok {
				return nil, nil, fmt.Errorf("constant %s not found", c)
			}
			v := e.Value
			switch v {
			case "(~0U)":
				v = "0xFFFFFFFF"
			case "(~0ULL)":
				v = "0xFFFFFFFFFFFFFFFF"
			}
			fmt.Fprintf(&b, "\t%s = %s\n", g.constName(c), v)
		}
	}
	fmt.Fprintf(&b, ")\n\n")

	// Enum-valued sets: for FlagBits the constants take the Flags type.
	flagsOf := g.flagsOf
	for _, set := range append([]string{"VkStructureType"}, wantEnums...) {
		ty := set
		isFlags := false
		if f, ok := flagsOf[set]; ok {
			if _, err := g.typeOf(f); err != nil {
				return nil, nil, err
			}
			ty, isFlags = f, true
		} else {
			g.addNamed(set, "int32")
		}
		vals, byName := g.enumerants(set)
		if len(vals) == 0 {
			return nil, nil, fmt.Errorf("enum %s not found", set)
		}
		keep := map[string]bool{}
		if set == "VkStructureType" {
			for _, s := range g.sTypes {
				keep[s] = true
			}
		}
		fmt.Fprintf(&b, "// Values of %s.\nconst (\n", set)
		var names []string
		var values []int64
		for _, e := range vals {
			if set == "VkStructureType" && !keep[e.Name] {
				continue
			}
			v, err := enumValue(e, byName)
			if err != nil {
				return nil, nil, err
			}
			fmt.Fprintf(&b, "\t%s %s = %d\n", g.constName(e.Name), goName(ty), v)
			if e.Alias == "" {
				names = append(names, e.Name)
				values = append(values, v)
			}
		}
		fmt.Fprintf(&b, ")\n\n")
		if !isFlags && set != "VkStructureType" {
			fmt.Fprintf(&b, "// String returns the registry name of the value.\nfunc (v %s) String() string {\n\tswitch v {\n", goName(ty))
			done := map[int64]bool{}
			for i, n := range names {
				if done[values[i]] || strings.HasSuffix(n, "_MAX_ENUM") {
					continue
				}
				done[values[i]] = true
				fmt.Fprintf(&b, "\tcase %s:\n\t\treturn %q\n", g.constName(n), n)
			}
			fmt.Fprintf(&b, "\t}\n\treturn \"%s(\" + itoa(int64(v)) + \")\"\n}\n\n", set)
		}
	}

	// Structures, with their C layout recorded for the layout test.
	var test bytes.Buffer
	fmt.Fprintf(&test, "// Code generated by genvk from %s; DO NOT EDIT.\n\npackage vkc\n\nimport \"unsafe\"\n\n", xmlPath)
	fmt.Fprintf(&test, "// cLayouts holds each structure's size and member offsets as computed\n// from the registry by C rules for 64-bit Linux.\nvar cLayouts = []cLayout{\n")
	for _, s := range g.structs {
		fs, size, align, _ := g.fields(s)
		fmt.Fprintf(&b, "// %s mirrors %s (C size %d, alignment %d).\ntype %s struct {\n", goName(s), s, size, align, goName(s))
		var offs []string
		for _, f := range fs {
			fmt.Fprintf(&b, "\t%s %s // offset %d\n", f.name, f.goT, f.offset)
			offs = append(offs, fmt.Sprintf("{%q, %d, unsafe.Offsetof(%s{}.%s)}", f.name, f.offset, goName(s), f.name))
		}
		fmt.Fprintf(&b, "}\n\n")
		fmt.Fprintf(&test, "\t{%q, %d, unsafe.Sizeof(%s{}), []fieldOffset{%s}},\n", s, size, goName(s), strings.Join(offs, ", "))
	}
	fmt.Fprintf(&test, "}\n")

	// Named scalar types.
	sort.Strings(g.namedList)
	fmt.Fprintf(&b, "type (\n")
	for _, n := range g.namedList {
		fmt.Fprintf(&b, "\t%s %s\n", goName(n), g.named[n])
	}
	fmt.Fprintf(&b, ")\n\n")
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
		rows      []xSPIRV
	}{
		{"SPIRVExtensions", "the SPIR-V extensions a module may declare", g.r.SPIRVExtensions},
		{"SPIRVCapabilities", "the SPIR-V capabilities a module may declare", g.r.SPIRVCapabilities},
	} {
		rows := append([]xSPIRV(nil), t.rows...)
		sort.Slice(rows, func(i, j int) bool { return rows[i].Name < rows[j].Name })
		fmt.Fprintf(b, "// %s lists %s (vk.xml's tables of the SPIR-V environment\n// appendix) with the conditions that allow each; one listed nowhere is never allowed.\nvar %s = map[string][]SPIRVEnable{\n", t.name, t.doc, t.name)
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
			fmt.Fprintf(b, "\t%q: {%s},\n", r.Name, strings.Join(es, ", "))
		}
		fmt.Fprintf(b, "}\n\n")
	}
}

func main() {
	in := flag.String("xml", "", "path of vk.xml")
	out := flag.String("o", "vkc_gen.go", "output Go file")
	testOut := flag.String("test", "layout_gen_test.go", "output layout test file")
	name := flag.String("name", "vk.xml", "registry name recorded in the header")
	flag.Parse()
	data, err := os.ReadFile(*in)
	if err != nil {
		log.Fatal(err)
	}
	var r registry
	if err := xml.Unmarshal(data, &r); err != nil {
		log.Fatal(err)
	}
	src, tsrc, err := newGen(&r).run(*name)
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
