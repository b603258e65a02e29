package exec

import "github.com/coopshader/coop/spirv"

// Masked branches. When the invocations of a subgroup in lockstep
// disagree on a conditional branch whose sides are straight-line code
// (no control flow, collective or per-invocation exit) meeting again in
// one block, with no loop entered, left or continued on the way (an if,
// an if-else), the subgroup stays in lockstep: each side runs for the
// invocations that take it (the others masked out), and all go on
// together from the block where the sides meet. Every invocation runs
// exactly the instructions of its own path, so this is one more valid
// interleaving of the invocations, like lockstep itself.

// maskedIf is a conditional branch that can run masked: per side (true,
// false) the phi moves into the side, its code [from, to) and the phi
// moves into the block where the sides meet (merge), and the steps an
// invocation taking the side spends on the way (its instructions with
// their work, and the branch to the merge); weighted: an instruction of
// a side has work of its own.
type maskedIf struct {
	side     [2]maskedSide
	merge    int32
	weighted bool
	// across: in a workgroup's lockstep the side may run each instruction
	// for the invocations of every subgroup at once (acrossOK).
	across bool
}

type maskedSide struct {
	pre      []move
	from, to int32
	post     []move
	steps    int64
}

// straightTo finds the straight-line code from pc: the OpBranch that ends
// it and its index, or nil.
func (p *prog) straightTo(pc int32) (*edge, int32) {
	for j := pc; int(j) < len(p.code); j++ {
		c := &p.code[j]
		if c.op == spirv.OpBranch {
			e := c.e[0]
			if e.enter != 0 || e.back != 0 || e.exit != 0 {
				return nil, 0
			}
			return e, j
		}
		if c.coll {
			return nil, 0
		}
		switch c.lk {
		case lkPure, lkLoad, lkLoadU, lkLoadS, lkStore, lkLane:
		default:
			return nil, 0
		}
	}
	return nil, 0
}

// findMasked decides whether the OpBranchConditional in can run masked.
func (p *prog) findMasked(in *instr) *maskedIf {
	e := in.e
	for _, x := range e {
		if x.enter != 0 || x.back != 0 || x.exit != 0 {
			return nil
		}
	}
	var end [2]*edge
	var to [2]int32
	for k := range e {
		end[k], to[k] = p.straightTo(e[k].pc)
	}
	side := func(k int) maskedSide {
		n := int64(to[k]-e[k].pc) + 1
		for j := e[k].pc; j < to[k]; j++ {
			n += max(p.code[j].w, 0)
		}
		return maskedSide{pre: e[k].moves, from: e[k].pc, to: to[k], post: end[k].moves, steps: n}
	}
	empty := func(k int) maskedSide { return maskedSide{post: e[k].moves} }
	var mi *maskedIf
	switch {
	case end[0] != nil && end[0].pc == e[1].pc:
		mi = &maskedIf{side: [2]maskedSide{side(0), empty(1)}, merge: e[1].pc}
	case end[1] != nil && end[1].pc == e[0].pc:
		mi = &maskedIf{side: [2]maskedSide{empty(0), side(1)}, merge: e[0].pc}
	case end[0] != nil && end[1] != nil && end[0].pc == end[1].pc:
		mi = &maskedIf{side: [2]maskedSide{side(0), side(1)}, merge: end[0].pc}
	default:
		return nil
	}
	for _, s := range mi.side {
		for j := s.from; j < s.to; j++ {
			mi.weighted = mi.weighted || p.code[j].w > 0
		}
	}
	mi.across = p.acrossOK(mi)
	return mi
}

// acrossOK reports whether the masked branch mi can run each instruction
// for the invocations of all subgroups at once, with faults as running
// the subgroups one after another finds them: one side has code, no phi
// moves into it and no work of its own, and only its last instruction
// may touch memory other than the invocation's registers. A fault before
// then leaves nothing another invocation can see, so the subgroups before
// the faulting one can still run the rest of the side (lockMaskedAcross).
func (p *prog) acrossOK(mi *maskedIf) bool {
	if mi.weighted {
		return false
	}
	var s *maskedSide
	for k := range mi.side {
		if mi.side[k].to > mi.side[k].from {
			if s != nil {
				return false
			}
			s = &mi.side[k]
		}
	}
	if s == nil || len(s.pre) > 0 {
		return false
	}
	for j := s.from; j+1 < s.to; j++ {
		c := &p.code[j]
		switch {
		case c.lk == lkPure, c.lk == lkLoad, c.lk == lkLoadU, c.lk == lkLoadS:
		case c.lk == lkStore && c.fast == fCopy:
		default:
			return false
		}
	}
	return true
}

// masked runs the masked branch in, each invocation charged the steps of
// its side, where every one has them; else (one would run out on the
// way) the branch diverges, and each runs out on its own (lockCtl).
// Sides without work of their own charge nothing as they run, so the
// steps are charged at once; with, the work is charged as the sides run,
// and the counts are then set to what the sides cost.
func (wg *wgState) masked(in *instr, m *sgMeta) (bool, error) {
	mi, c := in.masked, in.a[0]
	need := max(mi.side[0].steps, mi.side[1].steps)
	if m.left < need {
		wg.touched = true // settled: every invocation's steps
	}
	if !mi.weighted && m.reserve(need) {
		// Every invocation has the steps of either side: each is
		// charged its own side's as the sides are split.
		return false, wg.lockMasked(in, m, mi, true)
	}
	wg.touched = true // every invocation's steps
	spent := m.start - m.left
	ok := true
	lo := m.sg[0].steps
	cr := m.condRow(c)
	for i, l := range m.sg {
		k := side(cr, i, l, c)
		l.steps -= spent + mi.side[k].steps
		ok = ok && l.steps >= 0
		lo = min(lo, l.steps)
	}
	m.start, m.left = lo, lo
	if ok && !mi.weighted {
		return false, wg.lockMasked(in, m, mi, false)
	}
	// The sides' work is charged as they run, on the counts before the
	// branch: the leader runs the instructions of both sides that run
	// once, and spends their work meanwhile.
	to := wg.stmp[:0]
	for i, l := range m.sg {
		to = append(to, l.steps)
		k := side(cr, i, l, c)
		l.steps += mi.side[k].steps
	}
	wg.stmp = to
	m.settle()
	if !ok || m.sg[0].steps < mi.side[0].steps+mi.side[1].steps {
		return wg.diverge(m), nil
	}
	err := wg.lockMasked(in, m, mi, false)
	m.setSteps(to)
	return false, err
}

// lockMasked runs the branch in, on which the invocations disagree, with
// each side masked to the invocations that take it, and leaves the
// subgroup, in lockstep, at the block where the sides meet. Each
// invocation spends the steps of its own side (masked; charge: here).
func (wg *wgState) lockMasked(in *instr, m *sgMeta, mi *maskedIf, charge bool) error {
	if m.wide {
		return wg.lockMaskedWide(in, m, mi, charge)
	}
	ld := m.sg[0]
	sides := wg.maskedSides(m, mi, m.sg, m.condRow(in.a[0]), in.a[0], charge)
	code := wg.x.p.code
	for k := range sides {
		s := &mi.side[k]
		m.maskedMoves(sides[k], s.pre)
		for pc := s.from; pc < s.to; pc++ {
			if err := m.maskedOne(&code[pc], sides[k]); err != nil {
				return err
			}
		}
	}
	m.maskedPost(mi, sides)
	ld.pc = mi.merge
	return nil
}

// maskedSides splits the invocations of sg (a subgroup of m) by the
// values of condition slot c (cr's where not nil) for a masked branch:
// only those of a side that has code or phi moves are listed. With
// charge, those of a side with steps are charged them, and lockstep's
// count goes on from the fewest left.
func (wg *wgState) maskedSides(m *sgMeta, mi *maskedIf, sg []*lane, cr []uint64, c int32, charge bool) [2][]*lane {
	var sides [2][]*lane
	s0, s1 := mi.side[0].used(), mi.side[1].used()
	switch {
	case s0 && s1:
		sides = wg.splitSides(sg, cr, c)
	case s0 || s1:
		k := 0
		if s1 {
			k = 1
		}
		sides[k] = wg.sideOf(sg, cr, c, k)
	}
	if charge {
		spent := m.start - m.left
		for k := range sides {
			if n := mi.side[k].steps; n > 0 {
				for _, l := range sides[k] {
					wg.touch(l)
					l.steps -= n
					if left := l.steps - spent; left < m.left {
						m.start, m.left = left+spent, left
					}
				}
			}
		}
	}
	return sides
}

// used reports whether a side of a masked branch does anything: a block
// to run (steps), or phi moves.
func (s *maskedSide) used() bool {
	return s.steps > 0 || len(s.pre) > 0 || len(s.post) > 0
}

// maskedPost performs the moves into the block where the sides meet,
// which read values of both sides' paths only for the invocations that
// took them.
func (m *sgMeta) maskedPost(mi *maskedIf, sides [2][]*lane) {
	for k := range sides {
		if len(mi.side[k].post) > 0 {
			m.spreadMoves(mi.side[k].post)
		}
	}
	for k := range sides {
		post := mi.side[k].post
		if len(post) == 0 {
			continue
		}
		for _, l := range sides[k] {
			phiMoves(l, post)
		}
		for _, v := range post {
			setSt(m.st, v.dst, v.n, sVar)
		}
	}
}

// condRow returns the values of condition slot c as a row where they
// live in one (the branch then reads them there, not scattered to the
// registers first), else nil.
func (m *sgMeta) condRow(c int32) []uint64 {
	if m.st[c] == sVec {
		return m.row(c)
	}
	return nil
}

// side returns the side (0 true, 1 false) invocation l, at i in the row
// cr of condition slot c (nil: in its registers), takes.
func side(cr []uint64, i int, l *lane, c int32) int {
	var v uint64
	if cr != nil {
		v = cr[i]
	} else {
		v = l.regs[c]
	}
	if v != 0 {
		return 0
	}
	return 1
}

// splitSides splits the invocations of sg by condition slot c, whose
// values are cr's where not nil: those taking the true side, those
// taking the false side.
func (wg *wgState) splitSides(sg []*lane, cr []uint64, c int32) [2][]*lane {
	var sides [2][]*lane
	sides[0], sides[1] = wg.mact[:0], wg.mrest[:0]
	for i, l := range sg {
		k := side(cr, i, l, c)
		sides[k] = append(sides[k], l)
	}
	wg.mact, wg.mrest = sides[0], sides[1]
	return sides
}

// lockMaskedWide runs a masked branch of a whole workgroup in lockstep
// one subgroup after another, each as lockMasked runs a subgroup's, so
// that a fault is the one running the subgroups one by one finds.
func (wg *wgState) lockMaskedWide(in *instr, m *sgMeta, mi *maskedIf, charge bool) error {
	if mi.across && wg.x.check == nil {
		return wg.lockMaskedAcross(in, m, mi, charge)
	}
	code := wg.x.p.code
	cr := m.condRow(in.a[0])
	for _, sg := range wg.sgs {
		// The wide row holds invocation i's value at i.
		var scr []uint64
		if cr != nil {
			scr = cr[sg[0].lid : sg[0].lid+len(sg)]
		}
		sides := wg.maskedSides(m, mi, sg, scr, in.a[0], charge)
		for k := range sides {
			if len(sides[k]) == 0 {
				continue
			}
			s := &mi.side[k]
			m.maskedMoves(sides[k], s.pre)
			for pc := s.from; pc < s.to; pc++ {
				if err := m.maskedOne(&code[pc], sides[k]); err != nil {
					return wg.finishEarly(m, sg[0], mi.merge, err)
				}
			}
		}
		m.maskedPost(mi, sides)
	}
	m.sg[0].pc = mi.merge
	return nil
}

// lockMaskedAcross runs a masked branch of a whole workgroup in lockstep
// (mi.across) each instruction for the invocations of every subgroup
// that take the side at once, in their order. A fault is reported as
// lockMaskedWide finds it: the subgroups before the faulting invocation's
// run the rest of the side first, and the first of them to fault is the
// one reported.
func (wg *wgState) lockMaskedAcross(in *instr, m *sgMeta, mi *maskedIf, charge bool) error {
	code := wg.x.p.code
	sides := wg.maskedSides(m, mi, m.sg, m.condRow(in.a[0]), in.a[0], charge)
	for k := range sides {
		s := &mi.side[k]
		act := sides[k]
		if s.to == s.from || len(act) == 0 {
			continue
		}
		for pc := s.from; pc < s.to; pc++ {
			if err := m.maskedOne(&code[pc], act); err != nil {
				return wg.acrossFault(m, mi, sides, k, pc, err)
			}
		}
	}
	m.maskedPost(mi, sides)
	m.sg[0].pc = mi.merge
	return nil
}

// acrossFault reports the fault err of instruction pc of side k of a
// masked branch run across subgroups, as running the subgroups one after
// another finds it: the invocations of the subgroups before the faulting
// one ran pc (faults come in invocation order), so they run the rest of
// the side, subgroup by subgroup, and a fault of theirs comes first.
// Those that finish take the moves into the merge block and run on from
// there (finishEarly).
func (wg *wgState) acrossFault(m *sgMeta, mi *maskedIf, sides [2][]*lane, k int, pc int32, err error) error {
	act := sides[k]
	bad := act[0]
	if e, ok := err.(*Error); ok {
		for _, l := range act {
			if l.globalID() == e.Invocation {
				bad = l
				break
			}
		}
	}
	sz := wg.x.p.sgSize
	g := bad.lid / sz
	in := &wg.x.p.code[pc]
	// The invocations before the faulting one hold pc's results.
	setSt(m.st, in.res, resN(in), sVar)
	s := &mi.side[k]
	code := wg.x.p.code
	n := 0 // act[:n] are the invocations of the subgroups done
	for n < len(act) && act[n].lid/sz < g {
		i := act[n].lid / sz
		e := n
		for e < len(act) && act[e].lid/sz == i {
			e++
		}
		for j := pc + 1; j < s.to; j++ {
			if ferr := m.maskedOne(&code[j], act[n:e]); ferr != nil {
				wg.acrossPost(m, mi, sides, act[n].lid-act[n].lid%sz)
				return wg.finishEarly(m, act[n], mi.merge, ferr)
			}
		}
		n = e
	}
	wg.acrossPost(m, mi, sides, g*sz)
	return wg.finishEarly(m, bad, mi.merge, err)
}

// acrossPost performs the moves into the merge block for the invocations
// of sides before local index end.
func (wg *wgState) acrossPost(m *sgMeta, mi *maskedIf, sides [2][]*lane, end int) {
	var done [2][]*lane
	for k := range sides {
		n := 0
		for n < len(sides[k]) && sides[k][n].lid < end {
			n++
		}
		done[k] = sides[k][:n]
	}
	m.maskedPost(mi, done)
}

// spreadMoves gives every invocation the sources of moves.
func (m *sgMeta) spreadMoves(moves []move) {
	for _, v := range moves {
		m.spread([]int32{v.src, v.n})
	}
}

// maskedMoves performs phi moves for the invocations in act.
func (m *sgMeta) maskedMoves(act []*lane, moves []move) {
	if len(moves) == 0 {
		return
	}
	m.spreadMoves(moves)
	for _, v := range moves {
		m.spread([]int32{v.dst, v.n})
	}
	for _, l := range act {
		phiMoves(l, moves)
	}
	for _, v := range moves {
		setSt(m.st, v.dst, v.n, sVar)
	}
}

// spreadTo gives the invocations of act, some of m's, their values of the
// slots of uses, which stay where they live for the others (rows, the
// leader): the masked instruction reads the active invocations' registers
// only, and the slots go on in their rows after the branch.
func (m *sgMeta) spreadTo(uses []int32, act []*lane) {
	ld := m.sg[0]
	for k := 0; k+1 < len(uses); k += 2 {
		for s := uses[k]; s < uses[k]+uses[k+1]; s++ {
			switch m.st[s] {
			case sLead:
				v := ld.regs[s]
				for _, l := range act {
					l.regs[s] = v
				}
			case sTile:
				m.handOut(s)
			case sAff, sVec:
				if m.st[s] == sAff {
					m.fill(s)
				}
				// m.sg is a run of the workgroup's invocations, its
				// rows in their order.
				r := m.row(s)
				for _, l := range act {
					l.regs[s] = r[l.lid-ld.lid]
				}
			}
		}
	}
}

// maskedOne runs a straight-line instruction for the invocations in act.
// An instruction with operands the same everywhere still runs once (on
// the leader, which may be masked out: its result slot is its own, which
// the others never read, or memory every active invocation would write
// alike). Slot copies may write variables that live on past the branch,
// so they go to the active invocations only. Steps are charged for the
// whole branch (masked). A fault of an instruction run once names the
// first invocation of act, which running them one at a time finds.
func (m *sgMeta) maskedOne(in *instr, act []*lane) error {
	st := m.st
	ld := m.sg[0]
	n := resN(in)
	if in.fast == fCopy {
		d, s, k := in.res, in.a[0], int32(in.m)
		if d == s {
			// A load of a promoted variable sharing its slots.
			return nil
		}
		m.spread([]int32{s, k, d, k})
		for _, l := range act {
			copy(l.regs[d:d+k], l.regs[s:s+k])
		}
		setSt(st, d, k, sVar)
		return nil
	}
	once := false
	switch {
	case in.vres:
		// Its result is a variable's, which the masked-out invocations
		// keep: they get their values first, and it runs for act alone.
		m.spread([]int32{in.res, n})
	case in.lk == lkPure:
		once = uniform(st, in.uses)
	case in.lk == lkLoad, in.lk == lkLoadU, in.lk == lkLoadS:
		once = m.loadOnce(in)
	case in.lk == lkStore:
		once = uniform(st, in.uses) && m.onceAt(ld.regs[in.a[0]])
	}
	if once {
		if in.vec == nil || !in.vec(ld.self[:], in) {
			if err := ld.one(in); err != nil {
				if e, ok := err.(*Error); ok && act[0] != ld {
					e.Invocation = act[0].globalID()
				}
				return err
			}
		}
		setSt(st, in.res, n, sLead)
		return nil
	}
	if in.op == spirv.OpLoad && isUni(st[in.a[0]]) && ld.regs[in.a[0]]>>56 == regInv && builtinLanes(in, ld.regs[in.a[0]]&(1<<offBits-1), act) {
		setSt(st, in.res, n, sVar)
		return nil
	}
	m.spreadTo(in.uses, act)
	if in.vec == nil || !in.vec(act, in) {
		for _, l := range act {
			if err := l.one(in); err != nil {
				return err
			}
		}
	}
	setSt(st, in.res, n, sVar)
	return nil
}

// builtinLanes gives the invocations of act the 32-bit integer built-in
// input at offset off of their memory, for the load in, computed from
// each one's place as fillMem would store it (as builtinRow does for
// rows), so that their memory need not be filled; false for other
// offsets and types.
func builtinLanes(in *instr, off uint64, act []*lane) bool {
	t := in.t
	if len(act) == 0 || t == nil || t.kind != kInt || t.width != 32 || t.slots != 1 {
		return false
	}
	l0 := act[0]
	for _, iv := range l0.p.inputs {
		o, it := off-uint64(iv.off), iv.t
		if off < uint64(iv.off) || o >= uint64(it.size) {
			continue
		}
		if o%4 != 0 || !(it.kind == kInt || it.kind == kVector && it.elem.kind == kInt) || it.comp().size != 4 {
			return false
		}
		c, r := o/4, in.res
		for _, l := range act {
			var v uint32
			switch iv.builtin {
			case spirv.BuiltInGlobalInvocationId:
				v = l.globalID()[c]
			case spirv.BuiltInLocalInvocationId:
				v = l.localID()[c]
			case spirv.BuiltInLocalInvocationIndex:
				v = uint32(l.localIndex())
			case spirv.BuiltInSubgroupLocalInvocationId:
				v = uint32(l.sgl)
			case spirv.BuiltInSubgroupId:
				v = uint32(l.localIndex() / l.p.sgSize)
			case spirv.BuiltInWorkgroupId:
				v = l.groupID()[c]
			default:
				return false
			}
			l.regs[r] = uint64(v)
		}
		return true
	}
	return false
}
