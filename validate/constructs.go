package validate

import "slices"

// Structured constructs (SPIR-V 2.11 Structured Control Flow): "a
// selection construct: the blocks structurally dominated by a selection
// header, while excluding blocks structurally dominated by the selection
// header's merge block"; "a loop construct: the blocks structurally
// dominated by a loop header, while excluding both that header's continue
// construct and the blocks structurally dominated by the loop header's
// merge block"; and of each construct's blocks but its header, "all
// predecessors ... must be in the construct" (2.16.2, "it is not valid to
// branch into a construct other than through its header"; paraphrased,
// no local copy). Structural dominance is dominance in the CFG to which
// each header adds edges to its merge block and continue target, so a
// construct whose branches all return still has its merge. Continue and
// case constructs are not checked here.

// structuralDom is one function's structural dominator tree: pre and post
// number its blocks (by their index in Func.Blocks) in a walk of the tree,
// so a dominates b exactly when a's interval holds b's; a block the entry
// does not reach structurally has pre -1.
type structuralDom struct {
	succs     [][]int
	pre, post []int
}

func (d *structuralDom) reached(b int) bool { return d.pre[b] >= 0 }

func (d *structuralDom) dominates(a, b int) bool {
	return d.pre[a] >= 0 && d.pre[b] >= 0 && d.pre[a] <= d.pre[b] && d.post[b] <= d.post[a]
}

// structuralDominators builds f's structural dominator tree (the
// iterative algorithm of Cooper, Harvey and Kennedy on reverse postorder).
func structuralDominators(f *Func, index map[uint32]int) *structuralDom {
	n := len(f.Blocks)
	d := &structuralDom{succs: make([][]int, n), pre: make([]int, n), post: make([]int, n)}
	for k, b := range f.Blocks {
		for _, t := range b.Succs {
			d.succs[k] = append(d.succs[k], index[t.Label])
		}
		for _, l := range []uint32{b.Merge, b.Continue} {
			if t, ok := index[l]; ok && l != 0 {
				d.succs[k] = append(d.succs[k], t)
			}
		}
	}
	// Reverse postorder from the entry, without recursion.
	rpo := make([]int, n) // rpo number by block, -1 unreached
	for k := range rpo {
		rpo[k] = -1
	}
	visited := make([]bool, n)
	var post []int
	type frame struct{ b, next int }
	stack := []frame{{0, 0}}
	visited[0] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < len(d.succs[top.b]) {
			t := d.succs[top.b][top.next]
			top.next++
			if !visited[t] {
				visited[t] = true
				stack = append(stack, frame{t, 0})
			}
			continue
		}
		post = append(post, top.b)
		stack = stack[:len(stack)-1]
	}
	order := make([]int, len(post)) // blocks in reverse postorder
	for k, b := range post {
		order[len(post)-1-k] = b
	}
	for k, b := range order {
		rpo[b] = k
	}
	preds := make([][]int, n)
	for _, b := range order {
		for _, t := range d.succs[b] {
			preds[t] = append(preds[t], b)
		}
	}
	idom := make([]int, n)
	for k := range idom {
		idom[k] = -1
	}
	idom[0] = 0
	intersect := func(a, b int) int {
		for a != b {
			for rpo[a] > rpo[b] {
				a = idom[a]
			}
			for rpo[b] > rpo[a] {
				b = idom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for _, b := range order[1:] {
			nd := -1
			for _, p := range preds[b] {
				if idom[p] < 0 {
					continue
				}
				if nd < 0 {
					nd = p
				} else {
					nd = intersect(p, nd)
				}
			}
			if nd != idom[b] {
				idom[b], changed = nd, true
			}
		}
	}
	// Number the tree's intervals.
	children := make([][]int, n)
	for _, b := range order[1:] {
		children[idom[b]] = append(children[idom[b]], b)
	}
	for k := range d.pre {
		d.pre[k], d.post[k] = -1, -1
	}
	clock := 0
	stack = append(stack[:0], frame{0, 0})
	d.pre[0] = clock
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < len(children[top.b]) {
			c := children[top.b][top.next]
			top.next++
			clock++
			d.pre[c] = clock
			stack = append(stack, frame{c, 0})
			continue
		}
		clock++
		d.post[top.b] = clock
		stack = stack[:len(stack)-1]
	}
	return d
}

// checkConstructEntries checks that each loop header has one back edge
// and that no block branches into a selection or loop construct other
// than to its header.
func (s *state) checkConstructEntries(f *Func) {
	headers := false
	for _, b := range f.Blocks {
		headers = headers || b.Merge != 0
	}
	if !headers {
		return
	}
	index := make(map[uint32]int, len(f.Blocks))
	for k, b := range f.Blocks {
		index[b.Label] = k
	}
	d := structuralDominators(f, index)
	// "A loop header ... must have exactly one back edge": one block of
	// the loop, the back-edge block, branches back to it (SPIR-V 2.11,
	// paraphrased, no local copy). A back edge's source is one its target
	// structurally dominates, so a continue construct only the header's
	// structural edge reaches still has its back edge.
	for h, hb := range f.Blocks {
		if !hb.Loop || !d.reached(h) {
			continue
		}
		var latches []int
		for _, p := range hb.Preds {
			if pk := index[p.Label]; d.reached(pk) && d.dominates(h, pk) && !slices.Contains(latches, pk) {
				latches = append(latches, pk)
			}
		}
		if n := len(latches); n != 1 {
			s.fail(hb.First, "cfg.loop.back-edge", "Loop header '%d' is targeted by %d back-edge blocks but the standard requires exactly one", hb.Label, n)
			return
		}
	}
	in := make([]int, len(f.Blocks)) // the header (plus one) whose construct holds the block
	var stack, blocks []int
	for h, hb := range f.Blocks {
		if hb.Merge == 0 || !d.reached(h) {
			continue
		}
		exit, ok := index[hb.Merge]
		if !ok {
			continue
		}
		cont := -1
		if hb.Loop {
			if cont, ok = index[hb.Continue]; !ok {
				continue
			}
		}
		// The construct's blocks: those the header reaches through
		// blocks it dominates and neither the merge block nor (for a
		// loop) the continue target dominates.
		stack, blocks = append(stack[:0], h), blocks[:0]
		for len(stack) > 0 {
			b := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if in[b] == h+1 || !d.dominates(h, b) || d.dominates(exit, b) || cont >= 0 && d.dominates(cont, b) {
				continue
			}
			in[b] = h + 1
			blocks = append(blocks, b)
			stack = append(stack, d.succs[b]...)
		}
		kind, head := "selection", "selection header"
		if hb.Loop {
			kind, head = "loop", "loop header"
		}
		for _, b := range blocks {
			if b == h {
				continue
			}
			for _, p := range f.Blocks[b].Preds {
				pk := index[p.Label]
				if d.reached(pk) && in[pk] != h+1 {
					s.fail(p.First, "cfg.construct.entry", "block <ID> %d branches to the %s construct, but not to the %s <ID> %d", p.Label, kind, head, hb.Label)
					return
				}
			}
		}
	}
}
