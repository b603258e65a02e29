package lower

import (
	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/spirv"
)

// loopControl is the loop-control mask and its literal operands for a
// loop's attributes, in glslang's order. The dependency controls exist from
// SPIR-V 1.1 on, the iteration counts from 1.4; before, they are dropped
// (glslang emits the dependency controls anyway, which spirv-val rejects).
func (g *gen) loopControl(h *check.LoopHints) []uint32 {
	if h == nil {
		return []uint32{uint32(spirv.LoopControlNone)}
	}
	var mask spirv.LoopControl
	var ops []uint32
	if h.DontUnroll {
		mask |= spirv.LoopControlDontUnroll
	}
	if h.Unroll {
		mask |= spirv.LoopControlUnroll
	}
	switch {
	case g.ver < 0x10100:
	case h.Dependency < 0:
		mask |= spirv.LoopControlDependencyInfinite
	case h.Dependency > 0:
		mask |= spirv.LoopControlDependencyLength
		ops = append(ops, uint32(h.Dependency))
	}
	if g.ver >= 0x10400 {
		counts := []struct {
			on  bool
			bit spirv.LoopControl
			n   uint32
		}{
			{h.MinIterations > 0, spirv.LoopControlMinIterations, h.MinIterations},
			{h.MaxIterations < 0xFFFFFFFF, spirv.LoopControlMaxIterations, h.MaxIterations},
			{h.IterationMultiple > 1, spirv.LoopControlIterationMultiple, h.IterationMultiple},
			{h.PeelCount > 0, spirv.LoopControlPeelCount, h.PeelCount},
			{h.PartialCount > 0, spirv.LoopControlPartialCount, h.PartialCount},
		}
		for _, c := range counts {
			if c.on {
				mask |= c.bit
				ops = append(ops, c.n)
			}
		}
	}
	if h.WaitQueues >= 0 {
		mask |= spirv.LoopControlMultipleWaitQueuesQCOM
		ops = append(ops, uint32(h.WaitQueues))
	}
	return append([]uint32{uint32(mask)}, ops...)
}

// selectionControl is flatten or dont_flatten (flatten wins, as in
// glslang).
func selectionControl(h check.SelectionHints) uint32 {
	switch {
	case h.Flatten:
		return uint32(spirv.SelectionControlFlatten)
	case h.DontFlatten:
		return uint32(spirv.SelectionControlDontFlatten)
	}
	return uint32(spirv.SelectionControlNone)
}
