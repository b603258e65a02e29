package validate

import (
	"github.com/coopshader/coop/internal/lazy"
	"github.com/coopshader/coop/spirv"
)

// The roles of Scope and Memory Semantics <id> operands: what an
// execution scope, a memory scope and each semantics may be, by
// instruction, in SPIR-V (2.16.2, 3.25 Memory Semantics, 3.27 Scope, the
// non-uniform instructions) and in the Vulkan environment (appendix
// "Validation Rules within a Module", VUID-StandaloneSpirv-*). The
// operands' forms (constant 32-bit integers, valid values) are checked in
// memory.go; here only values known as OpConstant are read.

// scopeKinds are the operand kinds that make an instruction one with a
// Scope or Memory Semantics <id>: memory and image operands take
// MakePointerAvailable's, MakeTexelVisible's, ... memory scopes.
var scopeKinds = [...]spirv.OperandKind{spirv.KindIdScope, spirv.KindIdMemorySemantics, spirv.KindMemoryAccess, spirv.KindImageOperands}

// scopeOps calls f with each instruction with a Scope or Memory Semantics
// <id>, once, from the grammar's lists by operand kind.
func scopeOps(f func(spirv.Op)) {
	var seen [spirv.NumOps]bool
	for _, k := range scopeKinds {
		for _, op := range spirv.OpsWithOperand(k) {
			if !seen[op.Index()] {
				seen[op.Index()] = true
				f(op)
			}
		}
	}
}

// scopeOpIndex tells the instructions of scopeOps by the opcode's place
// in the grammar (spirv.Op.Index), for modelLimits, which asks for every
// instruction an entry point reaches.
func scopeOpIndex() *[spirv.NumOps]bool { return scopeOpIndexLazy.Get() }

var scopeOpIndexLazy = lazy.Value[*[spirv.NumOps]bool]{F: func() *[spirv.NumOps]bool {
	ops := new([spirv.NumOps]bool)
	scopeOps(func(op spirv.Op) { ops[op.Index()] = true })
	return ops
}}

// scopeEach adds the family's rules (instructions.go lists the families).
func scopeEach(add func(spirv.Op, func(*state, int))) {
	scopeOps(func(op spirv.Op) { add(op, (*state).checkScopeRoles) })
}

// scopeRoles are the Scope and Memory Semantics operands of one
// instruction, by their grammar names (0 when absent).
type scopeRoles struct {
	exec, mem, sem, equal, unequal uint32
	// operandMem are the memory scopes of memory and image operands
	// (MakePointerAvailable, MakeTexelVisible, ...).
	operandMem []uint32
}

// memScopes returns every memory scope of the instruction.
func (r scopeRoles) memScopes() []uint32 {
	if r.mem == 0 {
		return r.operandMem
	}
	return append([]uint32{r.mem}, r.operandMem...)
}

// rolesOf pairs instruction i's leading operands with the grammar's: the
// Scope and Memory Semantics operands come before any optional one.
func (s *state) rolesOf(i int) scopeRoles {
	var r scopeRoles
	w := s.m.Insts[i].Words
	ops := s.operands(i)
	lead := 0
	for k, od := range s.m.Insts[i].Op.Desc().Operands {
		if od.Quant != spirv.QuantOne || k >= len(ops) {
			break
		}
		if ops[k].Kind != od.Kind {
			break
		}
		lead = k + 1
		id := w[ops[k].Offset]
		switch {
		case od.Kind == spirv.KindIdScope && od.Name == "Execution":
			r.exec = id
		case od.Kind == spirv.KindIdScope && od.Name == "Memory":
			r.mem = id
		case od.Kind == spirv.KindIdMemorySemantics && od.Name == "Semantics":
			r.sem = id
		case od.Kind == spirv.KindIdMemorySemantics && od.Name == "Equal":
			r.equal = id
		case od.Kind == spirv.KindIdMemorySemantics && od.Name == "Unequal":
			r.unequal = id
		}
	}
	for _, o := range ops[lead:] {
		if o.Kind == spirv.KindIdScope {
			r.operandMem = append(r.operandMem, w[o.Offset])
		}
	}
	return r
}

// known32 returns the value of an OpConstant 32-bit integer id.
func (s *state) known32(id uint32) (uint32, bool) {
	if id == 0 || !s.isInt32Scalar(s.typeOf(id)) {
		return 0, false
	}
	v, ok := s.constValue(id)
	return uint32(v), ok
}

func isNonUniformGroupOp(op spirv.Op) bool {
	if op == spirv.OpGroupNonUniformRotateKHR {
		return true
	}
	d := op.Desc()
	return d != nil && d.Class == "Non-Uniform"
}

func (s *state) checkScopeRoles(i int) {
	r := s.rolesOf(i)
	if v, ok := s.known32(r.exec); ok {
		s.checkExecutionScope(i, spirv.Scope(v))
	}
	if s.err != nil {
		return
	}
	for _, m := range r.memScopes() {
		if v, ok := s.known32(m); ok && s.err == nil {
			s.checkMemoryScope(i, spirv.Scope(v))
		}
	}
	if s.err != nil {
		return
	}
	for _, id := range []uint32{r.sem, r.equal, r.unequal} {
		if v, ok := s.known32(id); ok && s.err == nil {
			s.checkSemanticsRole(i, spirv.MemorySemantics(v), r, id == r.unequal)
		}
	}
}

// checkExecutionScope: "Scope for execution must: be limited to
// code:Workgroup or code:Subgroup" (VUID-StandaloneSpirv-None-04636);
// "code:Scope for group operations must: be limited to code:Subgroup"
// (-04642, from Vulkan 1.1); in SPIR-V the non-uniform instructions take
// Subgroup (OpGroupNonUniformRotateKHR also Workgroup).
func (s *state) checkExecutionScope(i int, v spirv.Scope) {
	op := s.m.Insts[i].Op
	quad := op == spirv.OpGroupNonUniformQuadAllKHR || op == spirv.OpGroupNonUniformQuadAnyKHR
	if s.env.vulkan {
		if isNonUniformGroupOp(op) && !quad && s.env.vkMinor >= 1 && v != spirv.ScopeSubgroup {
			s.fail(i, "vulkan.group-scope", "[VUID-StandaloneSpirv-None-04642] %s: in Vulkan environment Execution scope is limited to Subgroup", op)
			return
		}
		if v != spirv.ScopeWorkgroup && v != spirv.ScopeSubgroup {
			s.fail(i, "vulkan.execution-scope", "[VUID-StandaloneSpirv-None-04636] %s: in Vulkan environment Execution Scope is limited to Workgroup and Subgroup", op)
			return
		}
	}
	switch {
	case op == spirv.OpGroupNonUniformRotateKHR:
		if v != spirv.ScopeSubgroup && v != spirv.ScopeWorkgroup {
			s.fail(i, "group.scope", "%s: Execution scope is limited to Subgroup or Workgroup", op)
		}
	case isNonUniformGroupOp(op) && !quad && v != spirv.ScopeSubgroup:
		s.fail(i, "group.scope", "%s: Execution scope is limited to Subgroup", op)
	}
}

// checkMemoryScope: "If the VulkanMemoryModel capability is declared and
// any instruction uses Device scope, the VulkanMemoryModelDeviceScope
// capability must be declared" (SPIR-V 2.16.1, paraphrased, no local
// copy); "If none of the code:SubgroupVoteKHR, code:GroupNonUniform, or
// code:SubgroupBallotKHR capabilities are declared, code:Scope for memory
// must: not be code:Subgroup" (VUID-StandaloneSpirv-SubgroupVoteKHR-07951).
func (s *state) checkMemoryScope(i int, v spirv.Scope) {
	op := s.m.Insts[i].Op
	if v == spirv.ScopeDevice && s.hasCap(spirv.CapabilityVulkanMemoryModel) && !s.hasCap(spirv.CapabilityVulkanMemoryModelDeviceScope) {
		s.fail(i, "memory-model.device-scope", "%s: Use of device scope with VulkanKHR memory model requires the VulkanMemoryModelDeviceScopeKHR capability", op)
		return
	}
	if s.env.vulkan && v == spirv.ScopeSubgroup && !s.hasCap(spirv.CapabilitySubgroupVoteKHR) &&
		!s.hasCap(spirv.CapabilityGroupNonUniform) && !s.hasCap(spirv.CapabilitySubgroupBallotKHR) {
		s.fail(i, "vulkan.subgroup-scope", "[VUID-StandaloneSpirv-SubgroupVoteKHR-07951] %s: Memory Scope Subgroup needs one of the SubgroupVoteKHR, GroupNonUniform or SubgroupBallotKHR capabilities", op)
	}
}

const (
	semOrder   = spirv.MemorySemanticsAcquire | spirv.MemorySemanticsRelease | spirv.MemorySemanticsAcquireRelease | spirv.MemorySemanticsSequentiallyConsistent
	semStorage = spirv.MemorySemanticsUniformMemory | spirv.MemorySemanticsWorkgroupMemory | spirv.MemorySemanticsImageMemory | spirv.MemorySemanticsOutputMemory
)

// checkSemanticsRole: the Memory Semantics bits an instruction may use
// (SPIR-V 3.25, the Vulkan memory model, VUID-StandaloneSpirv-MemorySemantics-*).
func (s *state) checkSemanticsRole(i int, v spirv.MemorySemantics, r scopeRoles, unequal bool) {
	op := s.m.Insts[i].Op
	vk := s.env.vulkan || s.memModel == spirv.MemoryModelVulkan
	order := v & semOrder
	if order&(order-1) != 0 {
		return // more than one order: memory.go's rule
	}
	atomic := op.Desc().Class == "Atomic"
	switch {
	case v&spirv.MemorySemanticsUniformMemory != 0 && !s.hasCap(spirv.CapabilityShader):
		s.fail(i, "semantics.capability", "%s: Memory Semantics UniformMemory requires capability Shader", op)
	case v&spirv.MemorySemanticsOutputMemory != 0 && !s.hasCap(spirv.CapabilityVulkanMemoryModel):
		s.fail(i, "semantics.capability", "%s: Memory Semantics OutputMemoryKHR requires capability VulkanMemoryModelKHR", op)
	case (op == spirv.OpAtomicStore || op == spirv.OpAtomicFlagClear) && v&(spirv.MemorySemanticsAcquire|spirv.MemorySemanticsAcquireRelease) != 0:
		s.fail(i, "semantics.store-order", "[VUID-StandaloneSpirv-MemorySemantics-10867] %s: MemorySemantics must not use Acquire or AcquireRelease memory order with %s", op, op)
	case op == spirv.OpAtomicLoad && v&(spirv.MemorySemanticsRelease|spirv.MemorySemanticsAcquireRelease) != 0:
		s.fail(i, "semantics.load-order", "[VUID-StandaloneSpirv-MemorySemantics-10868] %s: MemorySemantics must not use Release or AcquireRelease memory order with %s", op, op)
	case vk && op == spirv.OpMemoryBarrier && order == 0:
		s.fail(i, "vulkan.semantics.barrier-relaxed", "[VUID-StandaloneSpirv-MemorySemantics-10869] %s: MemorySemantics must not use Relaxed memory order with %s", op, op)
	case vk && order != 0 && v&semStorage == 0:
		s.fail(i, "vulkan.semantics.storage", "[VUID-StandaloneSpirv-MemorySemantics-10870] %s: Memory Semantics with a non-relaxed memory order (Acquire, Release, or AcquireRelease) must have at least one Vulkan-supported storage class semantics bit set (UniformMemory, WorkgroupMemory, ImageMemory, or OutputMemory)", op)
	case vk && order == 0 && v&semStorage != 0:
		s.fail(i, "vulkan.semantics.storage", "[VUID-StandaloneSpirv-MemorySemantics-10871] %s: Memory Semantics with at least one Vulkan-supported storage class semantics bit set (UniformMemory, WorkgroupMemory, ImageMemory, or OutputMemory) must use a non-relaxed memory order (Acquire, Release, or AcquireRelease)", op)
	case v&(spirv.MemorySemanticsMakeAvailable|spirv.MemorySemanticsMakeVisible|spirv.MemorySemanticsVolatile) != 0 && !s.hasCap(spirv.CapabilityVulkanMemoryModel):
		s.fail(i, "semantics.capability", "%s: Memory Semantics MakeAvailable, MakeVisible and Volatile require capability VulkanMemoryModelKHR", op)
	case v&spirv.MemorySemanticsMakeAvailable != 0 && v&(spirv.MemorySemanticsRelease|spirv.MemorySemanticsAcquireRelease) == 0:
		s.fail(i, "semantics.make-available", "[VUID-StandaloneSpirv-MemorySemantics-10872] %s: Memory Semantics with MakeAvailable bit set must use Release or AcquireRelease memory order", op)
	case v&spirv.MemorySemanticsMakeVisible != 0 && v&(spirv.MemorySemanticsAcquire|spirv.MemorySemanticsAcquireRelease) == 0:
		s.fail(i, "semantics.make-visible", "[VUID-StandaloneSpirv-MemorySemantics-10873] %s: Memory Semantics with MakeVisible bit set must use Acquire or AcquireRelease memory order", op)
	case v&spirv.MemorySemanticsVolatile != 0 && !atomic:
		s.fail(i, "semantics.volatile", "[VUID-StandaloneSpirv-MemorySemantics-13551] %s: Memory Semantics with Volatile bit set must not be used with barrier instructions", op)
	}
	if s.err != nil {
		return
	}
	if unequal {
		s.checkUnequalSemantics(i, v, r)
		if s.err != nil {
			return
		}
	}
	if m, ok := s.known32(r.mem); vk && ok && order != 0 && spirv.Scope(m) == spirv.ScopeInvocation {
		s.fail(i, "vulkan.semantics.invocation", "[VUID-StandaloneSpirv-None-04641] %s: Vulkan specification requires Memory Semantics to be Relaxed if used with Invocation Memory Scope", op)
		return
	}
	if vk && (op == spirv.OpControlBarrierArriveEXT && order&^spirv.MemorySemanticsRelease != 0 ||
		op == spirv.OpControlBarrierWaitEXT && order&^spirv.MemorySemanticsAcquire != 0) {
		s.fail(i, "vulkan.semantics.split-barrier", "%s Memory Semantics must not have any non-relaxed memory order set other than %s", op,
			map[bool]string{true: "Release", false: "Acquire"}[op == spirv.OpControlBarrierArriveEXT])
	}
}

// checkUnequalSemantics: OpAtomicCompareExchange's Unequal semantics
// "must not be set to Release or Acquire and Release ... must not be set
// to a stronger memory-order than Equal"; in Vulkan its storage class and
// MakeVisible bits are among Equal's and its Volatile bit is Equal's
// (VUID-StandaloneSpirv-UnequalMemorySemantics-10875 ... -10879).
func (s *state) checkUnequalSemantics(i int, v spirv.MemorySemantics, r scopeRoles) {
	op := s.m.Insts[i].Op
	if v&(spirv.MemorySemanticsRelease|spirv.MemorySemanticsAcquireRelease) != 0 {
		s.fail(i, "semantics.unequal", "[VUID-StandaloneSpirv-UnequalMemorySemantics-10875] %s Unequal Memory Semantics must not use Release or AcquireRelease memory order", op)
		return
	}
	ev, ok := s.known32(r.equal)
	if !ok {
		return
	}
	e := spirv.MemorySemantics(ev)
	if v&spirv.MemorySemanticsSequentiallyConsistent != 0 && e&spirv.MemorySemanticsSequentiallyConsistent == 0 ||
		v&spirv.MemorySemanticsAcquire != 0 && e&semOrder == 0 {
		s.fail(i, "semantics.unequal", "[VUID-StandaloneSpirv-UnequalMemorySemantics-10876] %s Unequal Memory Semantics must not use a stronger memory order than the corresponding Equal Memory Semantics", op)
		return
	}
	if !s.env.vulkan && s.memModel != spirv.MemoryModelVulkan {
		return
	}
	switch {
	case v&^e&semStorage != 0:
		s.fail(i, "vulkan.semantics.unequal", "[VUID-StandaloneSpirv-UnequalMemorySemantics-10877] %s Unequal Memory Semantics must not have any Vulkan-supported storage class semantics bit set (UniformMemory, WorkgroupMemory, ImageMemory, or OutputMemory) unless this bit is also set in the corresponding Equal Memory Semantics", op)
	case v&^e&spirv.MemorySemanticsMakeVisible != 0:
		s.fail(i, "vulkan.semantics.unequal", "[VUID-StandaloneSpirv-UnequalMemorySemantics-10878] %s Unequal Memory Semantics must not have MakeVisible bit set unless this bit is also set in the corresponding Equal Memory Semantics", op)
	case (v^e)&spirv.MemorySemanticsVolatile != 0:
		s.fail(i, "vulkan.semantics.unequal", "[VUID-StandaloneSpirv-UnequalMemorySemantics-10879] %s Unequal Memory Semantics must have Volatile bit set if and only if this bit is also set in the corresponding Equal Memory Semantics", op)
	}
}
