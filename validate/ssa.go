package validate

import "github.com/coopshader/coop/spirv"

// checkSSA checks that every id a function uses is a global, one of its
// own definitions, or a function (SPIR-V 2.16.1: "the definition of an
// SSA id must dominate its uses"), and OpPhi's operand pairs against the
// block's predecessors (SPIR-V 3.56.17 OpPhi).
func (s *state) checkSSA() {
	for _, f := range s.funcs {
		for i := f.Index + 1; i < f.End; i++ {
			in := &s.m.Insts[i]
			if in.Op == spirv.OpPhi {
				s.checkPhi(f, i)
				if s.err != nil {
					return
				}
				continue
			}
			ub := s.blockOf[i]
			for _, o := range s.operands(i) {
				if !isIDKind(o.Kind) {
					continue
				}
				for k := 0; k < o.Count; k++ {
					id := in.Words[o.Offset+k]
					if !s.checkUse(f, i, id, ub) {
						return
					}
				}
			}
		}
	}
}

// checkUse checks one use of id by instruction i in block ub of f.
func (s *state) checkUse(f *Func, i int, id uint32, ub *Block) bool {
	d := s.defIndex(id)
	if d == i {
		// An instruction's own result is not defined yet where it is
		// used (OpPhi's operands are checked at their parent block).
		s.fail(i, "id.defined", "ID '%d' has not been defined", id)
		return false
	}
	if d >= 0 && s.m.Insts[d].Op == spirv.OpFunction && !refersToFunctions(s.m.Insts[i].Op) {
		s.fail(i, "id.function", "Invalid use of function result id '%d'.", id)
		return false
	}
	if d < f.Index || d > f.End {
		// A global, or a function of the module; a value or label of
		// another function is not.
		if dbk := s.blockOf[d]; dbk != nil || s.m.Insts[d].Op == spirv.OpFunctionParameter {
			s.fail(i, "ssa.function", "ID '%d' defined in another function is used in function <id> '%d'.", id, f.ID)
			return false
		}
		return true
	}
	db := s.blockOf[d]
	if db == nil || ub == nil || s.m.Insts[d].Op == spirv.OpLabel {
		return true // parameters, labels
	}
	if !ub.Reachable {
		return true
	}
	if db == ub {
		if d > i {
			s.fail(i, "ssa.dominance", "ID '%d' is used before its definition in block '%d'.", id, ub.Label)
			return false
		}
		return true
	}
	if !db.Reachable || !db.Dominates(ub) {
		s.fail(i, "ssa.dominance", "ID '%d' defined in block '%d' does not dominate its use in block '%d'", id, db.Label, ub.Label)
		return false
	}
	return true
}

func (s *state) checkPhi(f *Func, i int) {
	in := &s.m.Insts[i]
	b := s.blockOf[i]
	for k := b.First + 1; k < i; k++ {
		if op := s.m.Insts[k].Op; op != spirv.OpPhi && op != spirv.OpLine && op != spirv.OpNoLine {
			s.fail(i, "phi.position", "OpPhi must appear within a non-entry block before all non-OpPhi instructions (except for OpLine, which can be mixed with OpPhi).")
			return
		}
	}
	if s.types[in.Words[0]].is(spirv.OpTypeVoid) {
		s.fail(i, "phi.type", "OpPhi must not have void result type")
		return
	}
	pairs := in.Words[2:]
	if len(pairs)%2 != 0 {
		s.fail(i, "phi.operands", "OpPhi does not have an equal number of incoming values and basic blocks.")
		return
	}
	if len(pairs)/2 != len(b.Preds) {
		s.fail(i, "phi.preds", "OpPhi's number of incoming blocks (%d) does not match block's predecessor count (%d).", len(pairs)/2, len(b.Preds))
		return
	}
	for k := 0; k < len(pairs); k += 2 {
		v, parent := pairs[k], pairs[k+1]
		if s.typeOf(v) != in.Words[0] {
			s.fail(i, "phi.type", "OpPhi's result type <id> '%d' does not match incoming value <id> '%d' type <id> '%d'.", in.Words[0], v, s.typeOf(v))
			return
		}
		pi := s.defIndex(parent)
		if pi < f.Index || pi > f.End || s.m.Insts[pi].Op != spirv.OpLabel {
			s.fail(i, "phi.parent", "OpPhi's incoming basic block <id> '%d' is not an OpLabel.", parent)
			return
		}
		pb := s.blockOf[pi]
		if !containsBlock(b.Preds, pb) {
			s.fail(i, "phi.parent", "OpPhi's incoming basic block <id> '%d' is not a predecessor of <id> '%d'.", parent, b.Label)
			return
		}
		// The value must be available at the end of the parent block.
		if !s.checkUse(f, pb.Last+1, v, pb) {
			s.err.Index = i
			return
		}
	}
}

// checkStructured checks the structured control flow rules of SPIR-V
// 2.11 and 2.16.2 for modules declaring Shader: merge instructions
// precede a suitable branch, a block is the merge block of at
// most one header, headers dominate their merge blocks and continue
// targets, and back edges go to loop headers.
func (s *state) checkStructured() {
	if !s.hasCap(spirv.CapabilityShader) {
		return
	}
	for _, f := range s.funcs {
		labels := map[uint32]*Block{}
		for _, b := range f.Blocks {
			labels[b.Label] = b
		}
		mergeOf := map[uint32]uint32{}
		for _, b := range f.Blocks {
			if b.Merge == 0 {
				continue
			}
			term := s.m.Insts[b.Last].Op
			mi := b.Last - 1
			if b.Loop {
				if term != spirv.OpBranch && term != spirv.OpBranchConditional {
					s.fail(mi, "cfg.loop-merge", "OpLoopMerge must immediately precede either an OpBranch or OpBranchConditional instruction.")
					return
				}
			} else if term != spirv.OpBranchConditional && term != spirv.OpSwitch {
				s.fail(mi, "cfg.selection-merge", "OpSelectionMerge must immediately precede either an OpBranchConditional or OpSwitch instruction.")
				return
			}
			mb := labels[b.Merge]
			if mb == nil {
				s.fail(mi, "cfg.merge.target", "Merge Block <id> '%d' is not a label in the current function.", b.Merge)
				return
			}
			if mb == b {
				s.fail(mi, "cfg.merge.target", "Merge Block may not be the block containing the merge instruction (block '%d').", b.Label)
				return
			}
			if h, ok := mergeOf[b.Merge]; ok {
				s.fail(mi, "cfg.merge.unique", "Block '%d' is already a merge block for another header ('%d').", b.Merge, h)
				return
			}
			mergeOf[b.Merge] = b.Label
			if b.Reachable && mb.Reachable && !b.Dominates(mb) {
				s.fail(mi, "cfg.merge.dominance", "Header block '%d' doesn't dominate its merge block '%d'", b.Label, b.Merge)
				return
			}
			if b.Loop {
				cb := labels[b.Continue]
				if cb == nil {
					s.fail(mi, "cfg.continue.target", "Continue Target <id> '%d' is not a label in the current function.", b.Continue)
					return
				}
				if b.Continue == b.Merge {
					s.fail(mi, "cfg.continue.target", "Merge Block and Continue Target of loop header '%d' are the same block.", b.Label)
					return
				}
				if b.Reachable && cb.Reachable && !b.Dominates(cb) {
					s.fail(mi, "cfg.continue.dominance", "Loop header '%d' doesn't dominate its continue target '%d'", b.Label, b.Continue)
					return
				}
			}
		}
		for _, b := range f.Blocks {
			if !b.Reachable {
				continue
			}
			for _, t := range b.Succs {
				if t.Dominates(b) && !t.Loop {
					s.fail(b.Last, "cfg.back-edge", "Back-edges ('%d' -> '%d') can only be formed between a block and a loop header.", b.Label, t.Label)
					return
				}
			}
		}
		if s.checkConstructEntries(f); s.err != nil {
			return
		}
	}
}

// refersToFunctions reports whether op may name a function: calls, the
// cooperative matrix instructions taking functions (reduce, per-element
// operations, the tensor addressing operands naming decode functions) and
// the extended instructions (debug information).
func refersToFunctions(op spirv.Op) bool {
	switch op {
	case spirv.OpFunctionCall, spirv.OpCooperativeMatrixReduceEXT, spirv.OpCooperativeMatrixPerElementOpEXT,
		spirv.OpCooperativeMatrixLoadTensorNV, spirv.OpCooperativeMatrixStoreTensorNV, spirv.OpExtInst, spirv.OpExtInstWithForwardRefsKHR,
		spirv.OpConstantFunctionPointerINTEL, spirv.OpEnqueueKernel, spirv.OpGetKernelNDrangeSubGroupCount,
		spirv.OpGetKernelNDrangeMaxSubGroupSize, spirv.OpGetKernelWorkGroupSize,
		spirv.OpGetKernelPreferredWorkGroupSizeMultiple, spirv.OpGetKernelLocalSizeForSubgroupCount,
		spirv.OpGetKernelMaxNumSubgroups:
		return true
	}
	return false
}
