package validate

import (
	"github.com/coopshader/coop/spirv"
)

// buildFunctions splits the functions into blocks and checks their
// signatures (SPIR-V 3.56.9 Function Instructions): the result type is the
// function type's return type and each parameter has its type.
func (s *state) buildFunctions() {
	s.blockOf = make([]*Block, len(s.m.Insts))
	var f *Func
	var b *Block
	labels := map[uint32]*Block{}
	for i := range s.m.Insts {
		in := &s.m.Insts[i]
		switch in.Op {
		case spirv.OpFunction:
			f = &Func{ID: in.Words[1], Type: in.Words[3], Index: i}
			ft := s.types[f.Type]
			if !ft.is(spirv.OpTypeFunction) {
				s.fail(i, "function.type", "OpFunction Function Type <id> '%d' is not a function type.", f.Type)
				return
			}
			if ft.Elem != in.Words[0] {
				s.fail(i, "function.type", "OpFunction Result Type <id> '%d' does not match the Function Type's return type <id> '%d'.", in.Words[0], ft.Elem)
				return
			}
			s.funcs = append(s.funcs, f)
			s.funcOf[f.ID] = f
			clear(labels)
		case spirv.OpFunctionParameter:
			ft := s.types[f.Type]
			k := len(f.Params)
			if k >= len(ft.Members) {
				s.fail(i, "function.param", "Too many OpFunctionParameters for function <id> '%d': expected %d based on the function's type.", f.ID, len(ft.Members))
				return
			}
			if in.Words[0] != ft.Members[k] {
				s.fail(i, "function.param", "OpFunctionParameter Result Type <id> '%d' does not match the OpTypeFunction parameter type of the same index.", in.Words[0])
				return
			}
			f.Params = append(f.Params, in.Words[1])
		case spirv.OpLabel:
			if len(f.Params) != len(s.types[f.Type].Members) && len(f.Blocks) == 0 {
				s.fail(f.Index, "function.param", "OpFunction <id> '%d' has %d parameters, its type has %d.", f.ID, len(f.Params), len(s.types[f.Type].Members))
				return
			}
			b = &Block{Label: in.Words[0], First: i}
			f.Blocks = append(f.Blocks, b)
			labels[b.Label] = b
		case spirv.OpFunctionEnd:
			if len(f.Params) != len(s.types[f.Type].Members) {
				s.fail(f.Index, "function.param", "OpFunction <id> '%d' has %d parameters, its type has %d.", f.ID, len(f.Params), len(s.types[f.Type].Members))
				return
			}
			f.End = i
			f = nil
			b = nil
		}
		if b != nil {
			s.blockOf[i] = b
			if spirv.IsTerminator(in.Op) {
				b.Last = i
				b = nil
			}
		}
	}
}

// checkCFG links the blocks of each function through their terminators'
// targets, which must be labels of the same function (SPIR-V 2.16.1),
// records their merge instructions, and computes reachability and
// dominators.
func (s *state) checkCFG() {
	for _, f := range s.funcs {
		labels := make(map[uint32]*Block, len(f.Blocks))
		for _, b := range f.Blocks {
			labels[b.Label] = b
		}
		for _, b := range f.Blocks {
			in := &s.m.Insts[b.Last]
			targets := s.branchTargets(b.Last)
			for _, t := range targets {
				tb := labels[t]
				if tb == nil {
					s.fail(b.Last, "cfg.target", "%s target <id> '%d' is not a label in the current function.", in.Op, t)
					return
				}
				if !containsBlock(b.Succs, tb) {
					b.Succs = append(b.Succs, tb)
					tb.Preds = append(tb.Preds, b)
				}
			}
			// A merge instruction is the block's second-to-last (SPIR-V
			// 3.56.17 OpSelectionMerge, OpLoopMerge), so consumers find
			// loops and selections from the block alone.
			for k := b.First + 1; k < b.Last-1; k++ {
				if op := s.m.Insts[k].Op; op == spirv.OpSelectionMerge || op == spirv.OpLoopMerge {
					s.fail(k, "cfg.merge.position", "%s must immediately precede either an OpBranch, OpBranchConditional or OpSwitch instruction. %s must be the second-to-last instruction in its block.", op, op)
					return
				}
			}
			if b.Last > b.First+1 {
				prev := &s.m.Insts[b.Last-1]
				switch prev.Op {
				case spirv.OpSelectionMerge:
					b.Merge = prev.Words[0]
				case spirv.OpLoopMerge:
					b.Merge, b.Continue, b.Loop = prev.Words[0], prev.Words[1], true
				}
			}
		}
		if len(f.Blocks) > 0 && len(f.Blocks[0].Preds) > 0 {
			s.fail(f.Blocks[0].First, "cfg.entry", "First block '%d' of function <id> '%d' is targeted by block '%d'", f.Blocks[0].Label, f.ID, f.Blocks[0].Preds[0].Label)
			return
		}
		dominators(f)
	}
}

func containsBlock(bs []*Block, b *Block) bool {
	for _, x := range bs {
		if x == b {
			return true
		}
	}
	return false
}

// branchTargets returns the labels the terminator at index i may branch to.
func (s *state) branchTargets(i int) []uint32 {
	in := &s.m.Insts[i]
	w := in.Words
	switch in.Op {
	case spirv.OpBranch:
		return w[:1]
	case spirv.OpBranchConditional:
		return w[1:3]
	case spirv.OpSwitch:
		// The selector, then the default and the case labels, each an
		// IdRef operand (the case literals are as wide as the selector).
		var t []uint32
		for _, o := range s.operands(i)[1:] {
			if o.Kind == spirv.KindIdRef {
				t = append(t, w[o.Offset])
			}
		}
		return t
	}
	return nil
}

// dominators computes reverse postorder, reachability and immediate
// dominators (Cooper, Harvey and Kennedy's iterative algorithm).
func dominators(f *Func) {
	if len(f.Blocks) == 0 {
		return
	}
	var post []*Block
	seen := make(map[*Block]bool, len(f.Blocks))
	type frame struct {
		b *Block
		k int
	}
	stack := []frame{{f.Blocks[0], 0}}
	seen[f.Blocks[0]] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.k < len(top.b.Succs) {
			n := top.b.Succs[top.k]
			top.k++
			if !seen[n] {
				seen[n] = true
				stack = append(stack, frame{n, 0})
			}
			continue
		}
		post = append(post, top.b)
		stack = stack[:len(stack)-1]
	}
	for k, b := range post {
		b.order = len(post) - 1 - k
		b.Reachable = true
	}
	entry := f.Blocks[0]
	idom := map[*Block]*Block{entry: entry}
	intersect := func(a, b *Block) *Block {
		for a != b {
			for a.order > b.order {
				a = idom[a]
			}
			for b.order > a.order {
				b = idom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for k := len(post) - 2; k >= 0; k-- {
			b := post[k]
			var nd *Block
			for _, p := range b.Preds {
				if idom[p] == nil {
					continue
				}
				if nd == nil {
					nd = p
				} else {
					nd = intersect(p, nd)
				}
			}
			if nd != nil && idom[b] != nd {
				idom[b] = nd
				changed = true
			}
		}
	}
	for _, b := range post {
		if b != entry {
			b.Idom = idom[b]
		}
	}
}
