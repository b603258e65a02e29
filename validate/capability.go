package validate

import (
	"fmt"
	"strings"

	"github.com/coopshader/coop/internal/lazy"
	"github.com/coopshader/coop/spirv"
)

// checkCapabilities checks, for every instruction and every enumerant
// operand, the capabilities, SPIR-V version and extensions the grammar
// says it needs (SPIR-V 2.16.1: "the capability ... must be declared").
// A capability operand's own capabilities are the ones it implicitly
// declares, not requirements, so only its version and extensions count.
// A Vulkan module declares only the capabilities Vulkan lists, among them
// Shader, and uses the GLSL450 or Vulkan memory model (Vulkan 1.x,
// "Validation Rules within a Module").
func (s *state) checkCapabilities() {
	// An opcode's own requirements depend only on the module's
	// capabilities, extensions and version: checked at its first use.
	var opChecked [spirv.NumOps]bool
	for i := range s.m.Insts {
		in := &s.m.Insts[i]
		d := in.Op.Desc()
		if k := in.Op.Index(); !opChecked[k] {
			if !s.anyCap(d.Capabilities) {
				s.fail(i, "capability.opcode", "Opcode %s requires one of these capabilities: %s", d.Name[2:], capNames(d.Capabilities))
				return
			}
			if !s.versionOK(d.Version, d.Extensions) {
				s.fail(i, "extension.opcode", "%s requires %s", d.Name, s.needs(d.Version, d.Extensions))
				return
			}
			if d.LastVersion != 0 && s.m.Version > d.LastVersion {
				s.fail(i, "version.opcode", "%s requires SPIR-V version %s or earlier", d.Name, d.LastVersion)
				return
			}
			opChecked[k] = true
		}
		for _, o := range s.operands(i) {
			kd := o.Kind.Desc()
			if kd == nil || (kd.Category != spirv.CategoryValueEnum && kd.Category != spirv.CategoryBitEnum) {
				continue
			}
			v := in.Words[o.Offset]
			check := func(e *spirv.Enumerant) bool {
				// SPV_AMD_shader_ballot adds the reduce and scan group
				// operations (Reduce, InclusiveScan, ExclusiveScan; not the
				// partitioned ones) to the Groups instructions.
				amdGroups := o.Kind == spirv.KindGroupOperation && s.exts["SPV_AMD_shader_ballot"] &&
					v <= uint32(spirv.GroupOperationExclusiveScan)
				if o.Kind != spirv.KindCapability && !amdGroups && !s.anyCap(e.Capabilities) {
					s.fail(i, "capability.operand", "Operand %d of %s requires one of these capabilities: %s", o.Offset+1, in.Op, capNames(e.Capabilities))
					return false
				}
				if !s.versionOK(e.Version, e.Extensions) {
					s.fail(i, "extension.operand", "%s %s requires %s", kd.Name, e.Name, s.needs(e.Version, e.Extensions))
					return false
				}
				// The grammar's lastVersion: BufferBlock was replaced by
				// the StorageBuffer storage class in SPIR-V 1.4.
				if e.LastVersion != 0 && s.m.Version > e.LastVersion {
					s.fail(i, "version.operand", "Operand %d of %s: %s %s requires SPIR-V version %s or earlier", o.Offset+1, in.Op, kd.Name, e.Name, e.LastVersion)
					return false
				}
				return true
			}
			if kd.Category == spirv.CategoryValueEnum {
				if e := o.Kind.Enumerant(v); e != nil && !check(e) {
					return
				}
				continue
			}
			for bit := uint32(1); bit != 0; bit <<= 1 {
				if v&bit != 0 {
					if e := o.Kind.Enumerant(bit); e != nil && !check(e) {
						return
					}
				}
			}
		}
	}
	// "If the CooperativeMatrixKHR capability is declared then the
	// VulkanMemoryModel capability must be declared as well."
	// (SPV_KHR_cooperative_matrix; SPV_NV_cooperative_vector says the same
	// of CooperativeVectorNV.)
	for _, c := range []spirv.Capability{spirv.CapabilityCooperativeMatrixKHR, spirv.CapabilityCooperativeVectorNV} {
		if s.hasCap(c) && !s.hasCap(spirv.CapabilityVulkanMemoryModel) {
			s.fail(s.capIndex(c), "capability.vulkan-memory-model", "If the %s capability is declared then the VulkanMemoryModel capability must be declared as well.", capNames([]spirv.Capability{c}))
			return
		}
	}
	// "VulkanMemoryModel ... must only be specified if the Vulkan memory
	// model is used" (SPIR-V 3.31 Capability, paraphrased, no local copy):
	// the capability is the memory model's.
	if s.hasCap(spirv.CapabilityVulkanMemoryModel) && s.memModel != spirv.MemoryModelVulkan {
		s.fail(s.indexOf(spirv.OpMemoryModel), "capability.vulkan-memory-model", "VulkanMemoryModelKHR capability must only be specified if the VulkanKHR memory model is used.")
		return
	}
	if !s.env.vulkan {
		return
	}
	for i := range s.m.Insts {
		// Vulkan's table lists no Groups: only SPV_AMD_shader_ballot's
		// group operations use it, so a module declaring it declares
		// that extension (as spirv-val takes it).
		in := &s.m.Insts[i]
		groups := in.Op == spirv.OpCapability && spirv.Capability(in.Words[0]) == spirv.CapabilityGroups && !s.exts["SPV_AMD_shader_ballot"]
		if in.Op == spirv.OpCapability && (vulkanForbidden()[spirv.Capability(in.Words[0])] || groups) {
			s.fail(i, "vulkan.capability", "Capability %s is not allowed by Vulkan 1.%d specification (or requires extension)",
				capNames([]spirv.Capability{spirv.Capability(in.Words[0])}), s.env.vkMinor)
			return
		}
	}
	if !s.hasCap(spirv.CapabilityShader) {
		s.fail(-1, "vulkan.shader", "Vulkan requires the Shader capability")
		return
	}
	// The Physical addressing models need Addresses, which Vulkan does
	// not take, so Logical and PhysicalStorageBuffer64 remain.
	mm := s.indexOf(spirv.OpMemoryModel)
	switch s.memModel {
	case spirv.MemoryModelGLSL450, spirv.MemoryModelVulkan, spirv.MemoryModelSimple: // spirv-val takes Simple too
	default:
		s.fail(mm, "vulkan.memory-model", "Memory model must be VulkanKHR, GLSL450 or Simple in the Vulkan environment.")
	}
}

// capIndex returns the index of the OpCapability declaring c (or the
// first one when c is only implied).
func (s *state) capIndex(c spirv.Capability) int {
	first := -1
	for i := range s.m.Insts {
		if in := &s.m.Insts[i]; in.Op == spirv.OpCapability {
			if spirv.Capability(in.Words[0]) == c {
				return i
			}
			if first < 0 {
				first = i
			}
		}
	}
	return first
}

// indexOf returns the index of the first instruction with opcode op.
func (s *state) indexOf(op spirv.Op) int {
	for i := range s.m.Insts {
		if s.m.Insts[i].Op == op {
			return i
		}
	}
	return -1
}

func (s *state) anyCap(cs []spirv.Capability) bool {
	if len(cs) == 0 {
		return true
	}
	for _, c := range cs {
		if s.caps[c] {
			return true
		}
	}
	return false
}

// versionOK: the module's version is at least the one that made the item
// core, or it declares one of the extensions that add it. Items the
// grammar gives neither a version nor an extension are gated by their
// capabilities alone.
func (s *state) versionOK(v spirv.Version, exts []string) bool {
	if v != 0 && s.m.Version >= v {
		return true
	}
	if v == 0 && len(exts) == 0 {
		return true
	}
	for _, e := range exts {
		if s.exts[e] {
			return true
		}
	}
	return false
}

func (s *state) needs(v spirv.Version, exts []string) string {
	var parts []string
	if v != 0 {
		parts = append(parts, fmt.Sprintf("SPIR-V version %s or later", v))
	}
	if len(exts) > 0 {
		parts = append(parts, "one of these extensions: "+strings.Join(exts, " "))
	}
	return strings.Join(parts, ", or ")
}

func capNames(cs []spirv.Capability) string {
	var b []string
	for _, c := range cs {
		if e := spirv.KindCapability.Enumerant(uint32(c)); e != nil {
			b = append(b, e.Name)
		}
	}
	return strings.Join(b, " ")
}

// vulkanForbidden are the capabilities Vulkan's table of SPIR-V
// capabilities (the "Capabilities" appendix; vk.xml <spirvcapabilities>)
// does not list and no SPIR-V extension enables: "The application must
// not pass a SPIR-V module containing any of the following to
// vkCreateShaderModule: any OpCapability not listed above".
func vulkanForbidden() map[spirv.Capability]bool { return vulkanForbiddenLazy.Get() }

var vulkanForbiddenLazy = lazy.Value[map[spirv.Capability]bool]{F: func() map[spirv.Capability]bool {
	return map[spirv.Capability]bool{
		spirv.CapabilityAddresses: true, spirv.CapabilityLinkage: true, spirv.CapabilityKernel: true,
		spirv.CapabilityVector16: true, spirv.CapabilityFloat16Buffer: true, spirv.CapabilityImageBasic: true,
		spirv.CapabilityImageReadWrite: true, spirv.CapabilityImageMipmap: true, spirv.CapabilityPipes: true,
		spirv.CapabilityDeviceEnqueue: true, spirv.CapabilityLiteralSampler: true, spirv.CapabilityAtomicStorage: true,
		spirv.CapabilityImageRect: true, spirv.CapabilitySampledRect: true, spirv.CapabilityGenericPointer: true,
		spirv.CapabilitySubgroupDispatch: true, spirv.CapabilityNamedBarrier: true, spirv.CapabilityPipeStorage: true,
		spirv.CapabilityUniformDecoration: true,
	}
}}
