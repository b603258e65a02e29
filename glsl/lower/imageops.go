package lower

import (
	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/internal/lazy"
	"github.com/coopshader/coop/spirv"
)

const anyCoherent = check.Coherent | check.DeviceCoherent | check.QueueFamilyCoherent | check.WorkgroupCoherent | check.SubgroupCoherent

// imageAtomicOps maps the image atomics to the atomics on memory they
// share their lowering with.
var imageAtomicOps = lazy.Value[map[check.Builtin]check.Builtin]{F: func() map[check.Builtin]check.Builtin {
	return map[check.Builtin]check.Builtin{
		check.BImageAtomicAdd: check.BAtomicAdd, check.BImageAtomicMin: check.BAtomicMin, check.BImageAtomicMax: check.BAtomicMax,
		check.BImageAtomicAnd: check.BAtomicAnd, check.BImageAtomicOr: check.BAtomicOr, check.BImageAtomicXor: check.BAtomicXor,
		check.BImageAtomicExchange: check.BAtomicExchange, check.BImageAtomicCompSwap: check.BAtomicCompSwap,
		check.BImageAtomicLoad: check.BAtomicLoad, check.BImageAtomicStore: check.BAtomicStore,
	}
}}

// imageBuiltin lowers the image built-ins; ok is false for other
// built-ins.
func (g *gen) imageBuiltin(e *check.BuiltinCall, tid uint32) (uint32, bool) {
	switch e.Fn {
	case check.BImageSize, check.BImageSamples:
		img, _ := g.resourceValue(e.Args[0])
		g.b.Capability(spirv.CapabilityImageQuery)
		return g.b.EmitResult(pick(e.Fn == check.BImageSize, spirv.OpImageQuerySize, spirv.OpImageQuerySamples), tid, img), true
	case check.BImageLoad, check.BImageStore, check.BSparseImageLoadARB:
		return g.imageReadWrite(e, tid), true
	}
	op, ok := imageAtomicOps.Get()[e.Fn]
	if !ok {
		return 0, false
	}
	it := e.Args[0].Type()
	r := g.resourceRef(e.Args[0])
	coord := g.rvalue(e.Args[1])
	rest := e.Args[2:]
	sample := g.u32(0)
	if it.Image.MS {
		sample = g.rvalue(rest[0])
		rest = rest[1:]
	}
	var ptr uint32
	if r.heap != nil {
		ptr = g.heapTexelPointer(r, coord, sample)
	} else {
		ptr = g.b.EmitResult(spirv.OpImageTexelPointer, g.b.TypePointer(spirv.StorageClassImage, g.scalarType(it.Scalar)), r.ptr, coord, sample)
	}
	if r.nonUniform {
		g.decorateNonUniform(ptr)
	}
	return g.atomicAt(op, tid, ptr, it.Scalar, rest, r.mem&check.Volatile != 0), true
}

// imageReadWrite lowers imageLoad and imageStore to OpImageRead and
// OpImageWrite with the image operands glslang gives them: the sample of
// a multisampled image, the Vulkan memory model's texel operands, and the
// sign or zero extension of 32-bit integer texels (SPIR-V 1.4 on).
func (g *gen) imageReadWrite(e *check.BuiltinCall, tid uint32) uint32 {
	it := e.Args[0].Type()
	img, r := g.resourceValue(e.Args[0])
	coord := g.rvalue(e.Args[1])
	rest := e.Args[2:]
	var sample uint32
	mask := uint32(0)
	if it.Image.MS {
		sample = g.rvalue(rest[0])
		rest = rest[1:]
		mask |= uint32(spirv.ImageOperandsSample)
	}
	load := e.Fn != check.BImageStore
	texel, scope := g.texelOperands(r.mem, load)
	mask |= texel | g.extendMask(it.Scalar)
	words := []uint32{img, coord}
	if e.Fn == check.BImageStore {
		words = append(words, g.rvalue(rest[0]))
	}
	if mask != 0 {
		words = append(words, mask)
	}
	if sample != 0 {
		words = append(words, sample)
	}
	if scope != 0 {
		words = append(words, scope)
	}
	unknown := r.root.format == ""
	if load {
		if unknown {
			g.b.Capability(spirv.CapabilityStorageImageReadWithoutFormat)
		}
		if e.Fn == check.BSparseImageLoadARB {
			out := rest[0]
			return g.sparseResult(spirv.OpImageSparseRead, tid, g.typeID(out.Type(), check.PackNone), words, out)
		}
		return g.b.EmitResult(spirv.OpImageRead, tid, words...)
	}
	if unknown {
		g.b.Capability(spirv.CapabilityStorageImageWriteWithoutFormat)
	}
	g.b.Emit(spirv.OpImageWrite, words...)
	return 0
}

// extendMask is the SignExtend or ZeroExtend operand glslang adds to
// accesses of 32-bit integer texels from SPIR-V 1.4 on.
func (g *gen) extendMask(s check.Scalar) uint32 {
	if g.ver < 0x10400 {
		return 0
	}
	switch s {
	case check.Int32:
		return uint32(spirv.ImageOperandsSignExtend)
	case check.Uint32:
		return uint32(spirv.ImageOperandsZeroExtend)
	}
	return 0
}

// texelOperands are the Vulkan memory model's image operands for an image
// with memory qualifiers m, and the id of the scope MakeTexelVisible (for
// a load) or MakeTexelAvailable (for a store) takes, or 0: coherent and
// volatile images make their texels visible and available, and every
// coherent, volatile or nonprivate one is non-private.
func (g *gen) texelOperands(m check.MemoryQual, load bool) (mask, scope uint32) {
	if !g.vmm {
		return 0, 0
	}
	volatile := m&check.Volatile != 0
	if volatile || m&anyCoherent != 0 {
		if load {
			mask |= uint32(spirv.ImageOperandsMakeTexelVisible)
		} else {
			mask |= uint32(spirv.ImageOperandsMakeTexelAvailable)
		}
		scope = g.u32(uint32(g.coherentScope(m)))
	}
	if volatile || m&(anyCoherent|check.NonPrivate) != 0 {
		mask |= uint32(spirv.ImageOperandsNonPrivateTexel)
	}
	if volatile {
		mask |= uint32(spirv.ImageOperandsVolatileTexel)
	}
	if mask != 0 {
		g.b.Capability(spirv.CapabilityVulkanMemoryModel)
	}
	return mask, scope
}

// coherentScope is the scope at which memory with qualifiers m is
// coherent under the Vulkan memory model (coherent and volatile mean
// QueueFamily, as in glslang).
func (g *gen) coherentScope(m check.MemoryQual) spirv.Scope {
	s := spirv.ScopeQueueFamily
	switch {
	case m&(check.Volatile|check.Coherent) != 0:
	case m&check.DeviceCoherent != 0:
		s = spirv.ScopeDevice
	case m&check.QueueFamilyCoherent != 0:
	case m&check.WorkgroupCoherent != 0:
		s = spirv.ScopeWorkgroup
	case m&check.SubgroupCoherent != 0:
		s = spirv.ScopeSubgroup
	}
	if s == spirv.ScopeDevice {
		g.b.Capability(spirv.CapabilityVulkanMemoryModelDeviceScope)
	}
	return s
}
