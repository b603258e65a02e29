package vk

import (
	"fmt"
	"strings"
	"sync"

	"github.com/coopshader/coop/backend"
)

// moduleInfo is what device setup needs to know about a SPIR-V module: its
// capabilities and extensions, read straight from the words so that the
// backend depends on nothing but the binary format.
type moduleInfo struct {
	caps    []uint32
	exts    []string
	entries []string // GLCompute entry point names
}

const (
	opExtension    = 10
	opCapability   = 17
	opEntryPoint   = 15
	opFunction     = 54
	spirvMagic     = 0x07230203
	execGLCompute  = 5
	headerWords    = 5
	maxStringWords = 1 << 16
)

// scanModule reads the module's preamble (up to the first function).
func scanModule(code []uint32) (*moduleInfo, error) {
	if len(code) < headerWords {
		return nil, fmt.Errorf("vk: SPIR-V module has %d words, fewer than the 5-word header", len(code))
	}
	if code[0] != spirvMagic {
		return nil, fmt.Errorf("vk: SPIR-V magic number is %#08x, want %#08x", code[0], spirvMagic)
	}
	m := &moduleInfo{}
	for i := headerWords; i < len(code); {
		n := int(code[i] >> 16)
		op := code[i] & 0xFFFF
		if n == 0 || i+n > len(code) {
			return nil, fmt.Errorf("vk: SPIR-V word %d: instruction word count %d runs past the module end", i, n)
		}
		ops := code[i+1 : i+n]
		switch op {
		case opCapability:
			if len(ops) != 1 {
				return nil, fmt.Errorf("vk: SPIR-V word %d: OpCapability needs exactly one operand", i)
			}
			m.caps = append(m.caps, ops[0])
		case opExtension:
			s, _, ok := literalString(ops)
			if !ok {
				return nil, fmt.Errorf("vk: SPIR-V word %d: OpExtension name is not a terminated string", i)
			}
			m.exts = append(m.exts, s)
		case opEntryPoint:
			if len(ops) < 3 {
				return nil, fmt.Errorf("vk: SPIR-V word %d: OpEntryPoint too short", i)
			}
			s, _, ok := literalString(ops[2:])
			if !ok {
				return nil, fmt.Errorf("vk: SPIR-V word %d: OpEntryPoint name is not a terminated string", i)
			}
			if ops[0] == execGLCompute {
				m.entries = append(m.entries, s)
			}
		case opFunction:
			return m, nil
		}
		i += n
	}
	return m, nil
}

// literalString decodes a SPIR-V literal string (UTF-8, NUL-terminated,
// packed little-endian into words) and returns the words it used.
func literalString(ws []uint32) (string, int, bool) {
	var b strings.Builder
	for i, w := range ws {
		for k := 0; k < 4; k++ {
			c := byte(w >> (8 * k))
			if c == 0 {
				return b.String(), i + 1, true
			}
			b.WriteByte(c)
		}
		if i >= maxStringWords {
			break
		}
	}
	return "", 0, false
}

// capability maps a SPIR-V capability to the device features that must be
// enabled for it. Capabilities not listed need nothing beyond Vulkan 1.3
// core (or are left for the driver to reject).
type capability struct {
	name     string
	features []string // keys of featureBits
}

// The tables of this package are built on first use (sync.OnceValue), not
// at start-up: every coop command links vk, and most never reach it.
var capabilities = sync.OnceValue(func() map[uint32]capability {
	return map[uint32]capability{
		9:    {"Float16", []string{"shaderFloat16"}},
		10:   {"Float64", []string{"shaderFloat64"}},
		11:   {"Int64", []string{"shaderInt64"}},
		22:   {"Int16", []string{"shaderInt16"}},
		25:   {"ImageGatherExtended", []string{"shaderImageGatherExtended"}},
		45:   {"SampledCubeArray", []string{"imageCubeArray"}},
		49:   {"StorageImageExtendedFormats", []string{"shaderStorageImageExtendedFormats"}},
		55:   {"StorageImageReadWithoutFormat", []string{"shaderStorageImageReadWithoutFormat"}},
		56:   {"StorageImageWriteWithoutFormat", []string{"shaderStorageImageWriteWithoutFormat"}},
		39:   {"Int8", []string{"shaderInt8"}},
		4212: {"Float8EXT", []string{"shaderFloat8"}},
		4213: {"Float8CooperativeMatrixEXT", []string{"shaderFloat8CooperativeMatrix"}},
		4433: {"StorageBuffer16BitAccess", []string{"storageBuffer16BitAccess"}},
		4434: {"UniformAndStorageBuffer16BitAccess", []string{"uniformAndStorageBuffer16BitAccess"}},
		4435: {"StoragePushConstant16", []string{"storagePushConstant16"}},
		4448: {"StorageBuffer8BitAccess", []string{"storageBuffer8BitAccess"}},
		4449: {"UniformAndStorageBuffer8BitAccess", []string{"uniformAndStorageBuffer8BitAccess"}},
		4450: {"StoragePushConstant8", []string{"storagePushConstant8"}},
		5116: {"BFloat16TypeKHR", []string{"shaderBFloat16Type"}},
		5117: {"BFloat16DotProductKHR", []string{"shaderBFloat16DotProduct"}},
		5118: {"BFloat16CooperativeMatrixKHR", []string{"shaderBFloat16CooperativeMatrix"}},
		5345: {"VulkanMemoryModel", []string{"vulkanMemoryModel"}},
		5346: {"VulkanMemoryModelDeviceScope", []string{"vulkanMemoryModelDeviceScope"}},
		5347: {"PhysicalStorageBufferAddresses", []string{"bufferDeviceAddress"}},
		5357: {"CooperativeMatrixNV", []string{"cooperativeMatrixNV"}},
		5394: {"CooperativeVectorNV", []string{"cooperativeVector"}},
		5430: {"CooperativeMatrixReductionsNV", []string{"cooperativeMatrixReductions"}},
		5431: {"CooperativeMatrixConversionsNV", []string{"cooperativeMatrixConversions"}},
		5432: {"CooperativeMatrixPerElementOperationsNV", []string{"cooperativeMatrixPerElementOperations"}},
		5433: {"CooperativeMatrixTensorAddressingNV", []string{"cooperativeMatrixTensorAddressing"}},
		5434: {"CooperativeMatrixBlockLoadsNV", []string{"cooperativeMatrixBlockLoads"}},
		5435: {"CooperativeVectorTrainingNV", []string{"cooperativeVectorTraining"}},
		5439: {"TensorAddressingNV", []string{"cooperativeMatrixTensorAddressing"}},
		6022: {"CooperativeMatrixKHR", []string{"cooperativeMatrix"}},
	}
})

// spirvExtensions maps SPIR-V extensions to the device extension that
// provides them; those not listed are core in Vulkan 1.3 or left for the
// driver to reject.
var spirvExtensions = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"SPV_KHR_cooperative_matrix": "VK_KHR_cooperative_matrix",
		"SPV_NV_cooperative_matrix":  "VK_NV_cooperative_matrix",
		"SPV_NV_cooperative_matrix2": "VK_NV_cooperative_matrix2",
		"SPV_NV_tensor_addressing":   "VK_NV_cooperative_matrix2",
		"SPV_NV_cooperative_vector":  "VK_NV_cooperative_vector",
		"SPV_KHR_bfloat16":           "VK_KHR_shader_bfloat16",
		"SPV_EXT_float8":             "VK_EXT_shader_float8",
	}
})

// unexposed lists the capabilities no Vulkan feature enables yet, so no
// device can run a module that declares them.
var unexposed = sync.OnceValue(func() map[uint32]string {
	return map[uint32]string{
		5112: "Int4TypeINTEL",
		5114: "Int4CooperativeMatrixINTEL",
	}
})

// noVulkanFeature refuses a module declaring a capability of unexposed.
func noVulkanFeature(m *moduleInfo) error {
	for _, c := range m.caps {
		if name, ok := unexposed()[c]; ok {
			return fmt.Errorf("vk: module needs capability %s (SPV_INTEL_int4): %w, as no Vulkan feature exposes 4-bit integers yet; run it on the CPU executor", name, backend.ErrNoDeviceSupport)
		}
	}
	return nil
}

// CheckModule reports whether the device can run the module: the checks
// of its capabilities and extensions that Dispatch makes.
func (d *Device) CheckModule(code []uint32) error {
	m, err := scanModule(code)
	if err != nil {
		return err
	}
	return d.check(m)
}
