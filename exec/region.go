package exec

import (
	"slices"

	"github.com/coopshader/coop/spirv"
)

// Divergent regions. When the invocations of a subgroup in lockstep
// disagree on a selection (an if, an if-else) whose sides are not
// straight-line code (loops, nested branches, calls), but which has no
// collective instruction and no way out other than its merge block, the
// subgroup stays in lockstep: each invocation, in order, takes its side
// and runs it on its own (the interpreter, its own steps) up to the merge
// block, where it stops; then all go on together in lockstep from there.
// This is the interleaving running the invocations one by one up to the
// merge gives, so a fault on a side is found as there (fault order
// below: regionFault).
//
// A conditional branch in a called function that is neither (an if
// whose side returns, load_b's in llama.cpp's mul_mat_vec) runs the same
// way where everything from it to the function's returns qualifies: the
// invocations each run on their own until they return, and lockstep goes
// on in the caller (regionIf.ret; in the entry function such a branch
// still diverges).
//
// A conditional branch inside a loop that is no such selection (the
// loop's exit test, an if whose side breaks out of the loop) runs the
// same way where everything from it to the loop's merge block qualifies:
// the invocations that take its sides each run the rest of the loop on
// their own, up to the merge block, where lockstep goes on. Values
// computed in the loop may be read past its merge without phis (the
// header dominates the merge), so all the slots the rest of the loop
// writes are kept, not only variables.

// regionIf is a conditional branch whose sides run this way: the merge
// block, and per side (true, false) whether it has code before the merge
// and the slots (slot, count pairs) an invocation taking it may read on
// the way (the entering phi moves, its instructions, those of the
// functions it calls, the phi moves into the merge); writes the slots
// either side may write; keep those of them that hold variables (slot
// copies and results computed into promoted variables), which unlike
// results of instructions may be read past the merge, so the
// invocations that do not write them keep their values; keepLive those
// of keep some instruction reachable from the merge in the entry
// function may read (liveAt).
type regionIf struct {
	merge          int32
	loop           uint32 // the header of the loop it ends, 0 for a selection
	ret            bool   // it ends at its function's return (merge unused)
	run            [2]bool
	uses           [2][]int32
	writes         []int32
	keep, keepLive []int32
	// solo are the blocks of the sides, which have solo runs (solo.go),
	// when every instruction of theirs can run so.
	solo []int32
}

// maxRegion bounds the instructions a region's search visits, so that
// load time stays linear in practice.
const maxRegion = 4096

// findRegions marks the divergent regions of every function (after the
// calls are linked: a region may call functions): selections (merges),
// then the branches inside loops (loops: their innermost loop's merge
// block) that are neither a selection region nor masked
// (findReturnRegions does the rest).
func (p *prog) findRegions(merges, loops map[int32]*edge) {
	for pc, e := range merges {
		in := &p.code[pc]
		if in.op != spirv.OpBranchConditional || in.masked != nil {
			continue
		}
		in.region = p.findRegion(in, e.pc, 0)
	}
	for pc, e := range loops {
		in := &p.code[pc]
		if in.op != spirv.OpBranchConditional || in.masked != nil || in.region != nil {
			continue
		}
		in.region = p.findRegion(in, e.pc, e.exit)
	}
}

// findReturnRegions marks the divergent regions ending at their
// function's return, of the branches of called functions that are no
// other region nor masked (once the entry point is known), then compiles
// every region's solo runs.
func (p *prog) findReturnRegions() {
	var starts []int32 // the functions' first pcs, but the entry's
	for _, pc := range p.fnPC {
		if pc != p.entry {
			starts = append(starts, pc)
		}
	}
	slices.Sort(starts)
	for pc := range p.code {
		in := &p.code[pc]
		if in.op != spirv.OpBranchConditional || in.masked != nil || in.region != nil {
			continue
		}
		// In a called function: after the start of one, and the entry's
		// code not between.
		if k, _ := slices.BinarySearch(starts, int32(pc)+1); k > 0 && (p.entry < starts[k-1] || p.entry > int32(pc)) {
			in.region = p.findRegion(in, -1, 0)
		}
	}
	p.addSolo()
}

// findRegion decides whether the conditional branch in, whose selection
// merge block starts at merge (or, loop not 0, the merge block of the
// loop with header loop; merge -1: its function's return), runs as a
// divergent region.
func (p *prog) findRegion(in *instr, merge int32, loop uint32) *regionIf {
	ri := &regionIf{merge: merge, loop: loop, ret: merge < 0}
	var walks [2]*regionWalk
	for k, e := range in.e {
		if e.pc == merge {
			if e.enter != 0 || e.back != 0 || e.exit != loop {
				return nil
			}
		} else if !ri.ret && (e.exit != 0 || e.back != 0 && e.back != loop) {
			return nil
		}
		w := &regionWalk{p: p, merge: merge, loop: loop, seen: map[int32]bool{}, entered: map[uint32]bool{}}
		if loop != 0 {
			w.entered[loop] = true
		}
		w.uses = appendMoves(nil, e.moves, true)
		w.writes = appendMoves(ri.writes, e.moves, false)
		if e.enter != 0 {
			w.entered[e.enter] = true
		}
		if e.pc != merge {
			ri.run[k] = true
			w.blocks = append(w.blocks, e.pc)
			if !w.walk(e.pc, false) || !ri.ret && !w.loopsInside() {
				return nil
			}
			walks[k] = w
		}
		ri.uses[k], ri.writes, ri.keep = w.uses, w.writes, append(ri.keep, w.keep...)
	}
	ri.solo = soloBlocks(walks)
	if loop != 0 || ri.ret {
		ri.keep = ri.writes
	}
	ri.keepLive = ri.keep
	if ri.ret {
		return ri // it runs in called functions, where keep is spread whole
	}
	if live := p.reachReads(merge); live != nil {
		ri.keepLive = nil
		for k := 0; k+1 < len(ri.keep); k += 2 {
			for s := ri.keep[k]; s < ri.keep[k]+ri.keep[k+1]; s++ {
				if live[s>>6]&(1<<(s&63)) != 0 {
					ri.keepLive = append(ri.keepLive, s, 1)
				}
			}
		}
	}
	return ri
}

// soloBlocks returns the blocks of the sides walked, nil where an
// instruction of theirs cannot be part of a solo run.
func soloBlocks(walks [2]*regionWalk) []int32 {
	var blocks []int32
	for _, w := range walks {
		if w == nil {
			continue
		}
		for pc := range w.seen {
			if !soloable(&w.p.code[pc]) {
				return nil
			}
		}
		blocks = append(blocks, w.blocks...)
	}
	return blocks
}

// appendMoves appends the sources (src) or destinations of moves.
func appendMoves(to []int32, moves []move, src bool) []int32 {
	for _, v := range moves {
		if src {
			to = append(to, v.src, v.n)
		} else {
			to = append(to, v.dst, v.n)
		}
	}
	return to
}

// regionWalk searches a side of a region: every instruction reachable
// from its entry before the merge, and those of the functions called.
type regionWalk struct {
	p       *prog
	merge   int32
	loop    uint32 // the loop whose merge it is, or 0
	seen    map[int32]bool
	n       int
	uses    []int32
	writes  []int32
	keep    []int32
	entered map[uint32]bool // loops entered on the way
	left    []uint32        // loops continued or left on the way
	blocks  []int32         // the blocks of the side (in the region's function)
}

// walk visits the code from block start pc; fn: in a called function,
// whose returns go back to the caller. It reports false where the side
// cannot run as a region.
func (w *regionWalk) walk(pc int32, fn bool) bool {
	work := []int32{pc}
	for len(work) > 0 {
		at := work[len(work)-1]
		work = work[:len(work)-1]
	block:
		for ; !w.seen[at]; at++ {
			if at < 0 || int(at) >= len(w.p.code) {
				return false
			}
			w.seen[at] = true
			if w.n++; w.n > maxRegion {
				return false
			}
			in := &w.p.code[at]
			if _, types := in.aux.([]*typ); in.coll || in.aux != nil && !types {
				return false
			}
			w.uses = append(w.uses, in.uses...)
			if in.rn > 0 {
				w.writes = append(w.writes, in.res, in.rn)
				if in.fast == fCopy || in.vres {
					w.keep = append(w.keep, in.res, in.rn)
				}
			}
			switch in.lk {
			case lkPure, lkLoad, lkLoadU, lkLoadS, lkStore, lkLane:
				continue
			case lkExit:
				if in.op != spirv.OpUnreachable {
					return false
				}
				break block // the invocation faults there
			}
			switch in.op {
			case spirv.OpBranch, spirv.OpBranchConditional:
				for _, e := range in.e {
					if e != nil && !w.edge(e, &work, fn) {
						return false
					}
				}
			case spirv.OpSwitch:
				for _, e := range in.sw.edges {
					if !w.edge(e, &work, fn) {
						return false
					}
				}
				if !w.edge(in.sw.def, &work, fn) {
					return false
				}
			case spirv.OpReturn, spirv.OpReturnValue:
				if !fn && w.merge >= 0 {
					return false
				}
			case spirv.OpFunctionCall:
				if in.call == nil {
					return false
				}
				for k, s := range in.call.params {
					w.writes = append(w.writes, s, int32(in.lit[k]))
				}
				if !w.walk(in.call.pc, true) {
					return false
				}
				continue
			default:
				return false
			}
			break block
		}
	}
	return true
}

// edge follows edge e of the walk: its phi moves, its target unless that
// is the merge (of the region's branch; not reachable from a called
// function), the loops it continues or leaves.
func (w *regionWalk) edge(e *edge, work *[]int32, fn bool) bool {
	w.uses = appendMoves(w.uses, e.moves, true)
	w.writes = appendMoves(w.writes, e.moves, false)
	if e.enter != 0 {
		w.entered[e.enter] = true
	}
	if !fn {
		if e.back != 0 {
			w.left = append(w.left, e.back)
		}
		if e.exit != 0 {
			w.left = append(w.left, e.exit)
		}
	}
	if e.pc == w.merge && !fn {
		return e.back == 0 && e.exit == w.loop && e.enter == 0
	}
	if !fn {
		w.blocks = append(w.blocks, e.pc)
	}
	*work = append(*work, e.pc)
	return true
}

// loopsInside reports whether every loop the side continues or leaves is
// one it entered: it never leaves the selection but through the merge.
func (w *regionWalk) loopsInside() bool {
	for _, h := range w.left {
		if !w.entered[h] {
			return false
		}
	}
	return true
}

// lockRegion runs the divergent region in, on which the invocations of m
// disagree: each invocation in order takes its side and runs it on its
// own to the merge block; the subgroup then goes on in lockstep from the
// merge. The variables the sides may write and code past the merge may
// read are first given to every invocation (so those that do not write
// them keep their values), the slots the sides read to the invocations
// that take them. Only the invocations that run a side have their steps
// settled, for the run, and lockstep's count goes on from the fewest
// left.
func (wg *wgState) lockRegion(in *instr, m *sgMeta) (bool, error) {
	ri := in.region
	c := in.a[0]
	cr := m.condRow(c)
	ld := m.sg[0]
	if len(ld.stack) == 0 {
		m.spread(ri.keepLive)
	} else {
		m.spread(ri.keep)
	}
	var sides [2][]*lane
	for k := range sides {
		if ri.run[k] || len(in.e[k].moves) > 0 {
			sides[k] = wg.sideOf(m.sg, cr, c, k)
			m.spreadTo(ri.uses[k], sides[k])
		}
	}
	for k, e := range in.e {
		if !ri.run[k] {
			for _, l := range sides[k] {
				phiMoves(l, e.moves)
			}
		}
	}
	// At the merge the leader's loops are those of now, less the loop
	// the region leaves (lane.follow).
	loops, calls := len(ld.loops), len(ld.stack)
	merge := ri.merge
	var ret frame // the frame a region ending at its function's return leaves
	if ri.ret {
		// Every invocation runs, with the leader's call stack and loops.
		for _, l := range m.sg[1:] {
			l.stack = append(l.stack[:0], ld.stack...)
			l.loops = append(l.loops[:0], ld.loops...)
		}
		ret = ld.stack[calls-1]
		merge, calls, loops = ret.ret, calls-1, min(int(ret.loops), loops)
	}
	if ri.loop != 0 {
		for n := loops - 1; n >= 0; n-- {
			if ld.loops[n].header == ri.loop {
				loops = n
				break
			}
		}
	}
	spent := m.start - m.left
	run := func(l *lane, k int) error {
		wg.touch(l) // its steps and control state
		l.steps -= spent
		l.take(in.e[k])
		wg.cur = l
		l.halt = merge
		err := l.runSolo()
		l.halt = 0
		left := l.steps
		l.steps += spent
		if err != nil {
			ld.pc, ld.loops, ld.stack = merge, ld.loops[:loops], ld.stack[:calls]
			return wg.regionFault(m, l, err)
		}
		if left < m.left {
			m.start, m.left = left+spent, left
		}
		return nil
	}
	if ri.run[0] && ri.run[1] {
		for i, l := range m.sg {
			if err := run(l, side(cr, i, l, c)); err != nil {
				return true, err
			}
		}
	} else {
		for k := range sides {
			if !ri.run[k] {
				continue
			}
			for _, l := range sides[k] {
				if err := run(l, k); err != nil {
					return true, err
				}
			}
		}
	}
	wg.cur = ld
	ld.pc, ld.loops, ld.stack = merge, ld.loops[:loops], ld.stack[:calls]
	setSt(m.st, ret.res, ret.n, sVar)
	for k := 0; k+1 < len(ri.writes); k += 2 {
		setSt(m.st, ri.writes[k], ri.writes[k+1], sVar)
	}
	return false, nil
}

// sideOf returns the invocations of sg that take side k (0 true, 1
// false) of a branch on condition slot c, whose values are cr's where not
// nil.
func (wg *wgState) sideOf(sg []*lane, cr []uint64, c int32, k int) []*lane {
	act := wg.mact[:0]
	if k == 1 {
		act = wg.mrest[:0]
	}
	switch {
	case cr == nil:
		for i, l := range sg {
			if side(cr, i, l, c) == k {
				act = append(act, l)
			}
		}
	case k == 0:
		// Rows first, each a tight loop: sides are often a few
		// invocations (an elected one per subgroup, invocation 0).
		for i, v := range cr[:len(sg)] {
			if v != 0 {
				act = append(act, sg[i])
			}
		}
	default:
		for i, v := range cr[:len(sg)] {
			if v == 0 {
				act = append(act, sg[i])
			}
		}
	}
	if k == 0 {
		wg.mact = act
	} else {
		wg.mrest = act
	}
	return act
}

// regionFault returns err, the fault of invocation l of m on its side
// of a region, as running the invocations one by one finds it: the
// subgroups before its own (of a wide workgroup) run on from the merge,
// then the invocations of its subgroup before it, each until it
// finishes or waits at a collective; a fault of theirs comes first.
func (wg *wgState) regionFault(m *sgMeta, l *lane, err error) error {
	m.release()
	first := 0
	if m.wide {
		g := l.lid / wg.x.p.sgSize
		for j := range g {
			wg.meta[j].enter = enterRecompute
		}
		// In a batch the workgroups before l's run to their end first.
		j0 := 0
		if m.multi {
			k := l.lid / wg.per
			for j := range k {
				if err := wg.runGroup(j); err != nil {
					return err
				}
			}
			j0 = k * wg.per / wg.x.p.sgSize
		}
		for j := j0; j < g; j++ {
			if err := wg.runSubgroup(j); err != nil {
				return err
			}
		}
		first = g * wg.x.p.sgSize
	}
	for _, e := range m.sg[first : l.lid-m.sg[0].lid] {
		wg.cur = e
		if err := e.run(); err != nil {
			return err
		}
	}
	return err
}
