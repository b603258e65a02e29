package lower

import (
	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/spirv"
)

// scanProgram makes glslang's front-end decisions that depend on the whole
// shader before any code is emitted. Declaring a variable of a cooperative
// matrix or vector or long-vector type, or a buffer reference variable with
// coherence qualifiers, puts the shader under the Vulkan memory model
// (coherent accesses and default atomic and barrier scopes change); those
// types and buffer references also make buffers StorageBuffer-class blocks
// before SPIR-V 1.3.
func (g *gen) scanProgram() {
	var vmmAt check.Pos // what first put the shader under the model
	note := func(v *check.Var) {
		if g.vmm && vmmAt.Line == 0 {
			vmmAt = v.Pos
		}
		t := baseOfArrays(v.Type)
		switch {
		case t.IsCoopMat() || t.Kind == check.KCoopVec:
			g.vmm, g.storageBuffer = true, true
		case t.Kind == check.KVector && (t.Long || t.SpecLen != nil):
			g.storageBuffer = true
		case t.Kind == check.KReference:
			g.storageBuffer = true
			if v.Memory&(check.Coherent|check.DeviceCoherent|check.QueueFamilyCoherent|check.WorkgroupCoherent|check.SubgroupCoherent|check.NonPrivate) != 0 {
				g.vmm = true
			}
		}
		if t.Kind == check.KStruct && t.Struct.Block {
			for _, f := range t.Struct.Fields {
				if baseOfArrays(f.Type).Kind == check.KReference {
					g.storageBuffer = true
				}
			}
		}
	}
	for _, v := range g.p.Globals {
		note(v)
	}
	var stmt func(s check.Stmt)
	stmt = func(s check.Stmt) {
		switch s := s.(type) {
		case *check.Block:
			for _, x := range s.Stmts {
				stmt(x)
			}
		case *check.DeclStmt:
			note(s.Var)
		case *check.If:
			stmt(s.Then)
			if s.Else != nil {
				stmt(s.Else)
			}
		case *check.For:
			if s.Init != nil {
				stmt(s.Init)
			}
			stmt(s.Body)
		case *check.While:
			stmt(s.Body)
		case *check.DoWhile:
			stmt(s.Body)
		case *check.Switch:
			for _, c := range s.Cases {
				for _, x := range c.Body {
					stmt(x)
				}
			}
		}
	}
	for _, f := range g.p.Funcs {
		for _, p := range f.Params {
			if p.Type.Kind == check.KReference {
				g.storageBuffer = true
			}
		}
		if f.Body != nil {
			stmt(f.Body)
		}
	}
	if g.ver >= 0x10300 || g.p.StorageBuffer {
		g.storageBuffer = true
	}
	if g.p.VulkanMemoryModel {
		g.vmm = true
		vmmAt = g.p.PragmaPos["use_vulkan_memory_model"]
	}
	if g.vmm {
		g.at(vmmAt)
		g.b.Capability(spirv.CapabilityVulkanMemoryModel)
	}
}

// usesVulkanMemoryModel reports whether code is generated for the Vulkan
// memory model (see scanProgram).
func (g *gen) usesVulkanMemoryModel() bool { return g.vmm }

// memoryModel declares the addressing and memory model once the code is
// emitted: the Vulkan model whenever something needed its capability
// (queue-family scope, availability and visibility semantics).
func (g *gen) memoryModel() {
	addr := spirv.AddressingModelLogical
	if g.b.HasCapability(spirv.CapabilityPhysicalStorageBufferAddresses) {
		addr = spirv.AddressingModelPhysicalStorageBuffer64
	}
	if g.b.HasCapability(spirv.CapabilityVulkanMemoryModel) {
		if g.ver < 0x10500 {
			g.b.Extension("SPV_KHR_vulkan_memory_model")
		}
		g.b.MemoryModel(addr, spirv.MemoryModelVulkan)
		return
	}
	g.b.MemoryModel(addr, spirv.MemoryModelGLSL450)
}

// constArg returns the constant value of a scope or semantics
// argument (gl_Scope*, gl_StorageSemantics*, gl_Semantics*); they are
// constant expressions by the extension's rules.
func (g *gen) constArg(e check.Expr, what string) uint32 {
	c, ok := e.(*check.Const)
	if !ok {
		g.fail(e.Position(), "%s must be a constant expression", what)
	}
	return uint32(c.Val.Bits)
}

// checkScope declares what a memory scope needs: queue-family scope is a
// Vulkan-memory-model feature, and device scope needs its own capability
// under that model.
func (g *gen) checkScope(scope uint32) {
	switch spirv.Scope(scope) {
	case spirv.ScopeQueueFamily:
		g.b.Capability(spirv.CapabilityVulkanMemoryModel)
	case spirv.ScopeDevice:
		if g.vmm {
			g.b.Capability(spirv.CapabilityVulkanMemoryModelDeviceScope)
		}
	}
}

// checkSemantics declares the Vulkan memory model when the semantics use
// its availability, visibility, output or volatile bits.
func (g *gen) checkSemantics(sem uint32) {
	const vmmBits = spirv.MemorySemanticsMakeAvailable | spirv.MemorySemanticsMakeVisible | spirv.MemorySemanticsOutputMemory | spirv.MemorySemanticsVolatile
	if spirv.MemorySemantics(sem)&vmmBits != 0 {
		g.b.Capability(spirv.CapabilityVulkanMemoryModel)
	}
}
