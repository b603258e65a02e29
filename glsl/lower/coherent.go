package lower

import (
	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/spirv"
)

// memoryOf gathers the memory qualifiers along an l-value's path, as
// glslang accumulates them down an access chain: the variable's and each
// member's. Shared variables are implicitly workgroup-coherent.
func (g *gen) memoryOf(e check.Expr) check.MemoryQual {
	switch e := e.(type) {
	case *check.VarRef:
		m := e.Var.Memory
		if e.Var.Storage == check.StorageShared {
			m |= check.WorkgroupCoherent
		}
		return m
	case *check.Field:
		var m check.MemoryQual
		xt := e.X.Type()
		if xt.Kind != check.KReference {
			m = g.memoryOf(e.X)
		}
		if xt.Struct != nil && e.Index < len(xt.Struct.Fields) {
			m |= xt.Struct.Fields[e.Index].Memory
		}
		return m
	case *check.Index:
		return g.memoryOf(e.X)
	case *check.Swizzle:
		return g.memoryOf(e.X)
	}
	return 0
}

// accessOperands are the memory operands of a load (store false) or store
// through l: the alignment of PhysicalStorageBuffer accesses, and under the
// Vulkan memory model glslang's operands for coherent, volatile and
// nonprivate memory — coherent and volatile memory is made visible before
// a load and available after a store at its coherence scope, and all of
// it is non-private.
func (g *gen) accessOperands(l *lval, store bool) []uint32 {
	words := g.memAccess(l)
	m := l.mem
	if !g.vmm || m&(anyCoherent|check.Volatile|check.NonPrivate) == 0 || l.sc == spirv.StorageClassFunction || l.sc == spirv.StorageClassPrivate {
		return words
	}
	var mask spirv.MemoryAccess
	if len(words) > 0 {
		mask = spirv.MemoryAccess(words[0])
		words = words[1:]
	}
	volatile := m&check.Volatile != 0
	var scope uint32
	if volatile || m&anyCoherent != 0 {
		mask |= pick(store, spirv.MemoryAccessMakePointerAvailable, spirv.MemoryAccessMakePointerVisible)
		scope = g.u32(uint32(g.coherentScope(m)))
	}
	mask |= spirv.MemoryAccessNonPrivatePointer
	if volatile {
		mask |= spirv.MemoryAccessVolatile
	}
	g.b.Capability(spirv.CapabilityVulkanMemoryModel)
	out := append([]uint32{uint32(mask)}, words...)
	if scope != 0 {
		out = append(out, scope)
	}
	return out
}
