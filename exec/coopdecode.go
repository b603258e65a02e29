package exec

import (
	"slices"

	"github.com/coopshader/coop/spirv"
)

// Decode functions on rows. A decode function without side effects
// (coop2.bodyEnd) can run for every element of a tile at once: each
// element is one "invocation" of a row, its parameters and the body's
// results kept slot-major as a lockstep subgroup keeps varying values
// (rows.go), so every instruction of the body is one row handler's loop
// over the tile instead of a pass over the subgroup per element of an
// invocation (decodeBatch's rounds). The row's invocations are the
// elements' owners, so a handler that falls back on an invocation's own
// memory reads the owner's, as the element's call would.

// rowPlan is what a decode function's body needs on rows, derived once
// at load time: the slots it writes (parameters and results, [lo, hi)),
// the slots it reads without writing them (liveIn, as uses pairs of one
// slot each), and whether it can
// run on rows at all (no stores to memory: on rows every element of one
// owner would share the owner's variable).
type rowPlan struct {
	ok     bool
	lo, hi int32
	liveIn []int32
	// coords: the body reads the coordinates (parameters 1 and 2).
	coords bool
	// acts says how each instruction of the body runs where not by its
	// row handler.
	acts []rowAct
}

// rowAct is how an instruction of a decode body runs on rows where a
// Function variable's value stands for the variable (planRows): not at
// all (skip: its store, an access chain into it), or as a copy of the
// value's slots from src (a load).
type rowAct struct {
	skip, copy bool
	src        int32
}

// constPart walks the constant indices idx of an access chain into a
// value of type t: the slot offset and type of the part reached, or a
// nil type.
func (p *prog) constPart(t *typ, idx []uint32) (int32, *typ) {
	off := int32(0)
	for _, id := range idx {
		i, ok := p.constU(id)
		if !ok || t == nil {
			return 0, nil
		}
		switch t.kind {
		case kVector, kArray, kMatrix:
			if i >= uint64(t.count) || t.elem == nil {
				return 0, nil
			}
			off += int32(i) * int32(t.elem.slots)
			t = t.elem
		case kStruct:
			if i >= uint64(len(t.mem)) || len(t.moff) != len(t.mem) {
				return 0, nil
			}
			off += int32(t.moff[i])
			t = t.mem[i]
		default:
			return 0, nil
		}
	}
	return off, t
}

// planRows derives c's rowPlan from its straight body.
func (p *prog) planRows(c *coop2) rowPlan {
	var rp rowPlan
	if c.bodyEnd == 0 {
		return rp
	}
	written := map[int32]bool{}
	lo, hi := int32(-1), int32(-1)
	write := func(s, n int32) {
		for k := s; k < s+n; k++ {
			written[k] = true
			if lo < 0 || k < lo {
				lo = k
			}
			hi = max(hi, k+1)
		}
	}
	for j, s := range c.params {
		write(s, c.pn[j])
	}
	seen := map[int32]bool{}
	coord := func(s int32) bool {
		for j := 1; j < len(c.params) && j < 3; j++ {
			if s >= c.params[j] && s < c.params[j]+c.pn[j] {
				return true
			}
		}
		return false
	}
	use := func(uses []int32) {
		for i := 0; i+1 < len(uses); i += 2 {
			for s := uses[i]; s < uses[i]+uses[i+1]; s++ {
				rp.coords = rp.coords || coord(s)
				if !written[s] && !seen[s] {
					seen[s] = true
					rp.liveIn = append(rp.liveIn, s, 1)
				}
			}
		}
	}
	// A Function variable the body stores whole before any use
	// (straightBody) is its value: on rows, every element of one owner
	// would share the owner's variable, so its loads, through constant
	// access chains too, copy the stored value's slots instead (fwd: the
	// value's part each such pointer reaches), and the store and chains
	// do nothing.
	type part struct {
		src int32
		t   *typ
	}
	fwd := map[int32]part{}
	// spares reports whether writing n slots from r leaves alone every
	// stored value's slots (a promoted variable's may be one).
	spares := func(r, n int32) bool {
		for _, f := range fwd {
			if r < f.src+int32(f.t.slots) && f.src < r+n {
				return false
			}
		}
		return true
	}
	rp.acts = make([]rowAct, c.bodyEnd-c.pc)
	for pc := c.pc; pc < c.bodyEnd; pc++ {
		in := &p.code[pc]
		act := &rp.acts[pc-c.pc]
		switch {
		case in.lk == lkStore && in.fast != fCopy:
			if len(in.a) < 2 || in.at == nil {
				return rowPlan{}
			}
			fwd[in.a[0]] = part{in.a[1], in.at}
			act.skip = true
			use([]int32{in.a[1], int32(in.at.slots)})
			continue
		case in.op == spirv.OpAccessChain || in.op == spirv.OpInBoundsAccessChain:
			w := p.m.Insts[in.idx].Words
			if len(w) < 3 || int(w[2]) >= len(p.slot) {
				break
			}
			f, ok := fwd[p.slot[w[2]]]
			if !ok {
				break
			}
			off, t := p.constPart(f.t, w[3:])
			if t == nil {
				return rowPlan{}
			}
			fwd[in.res] = part{f.src + off, t}
			act.skip = true
			continue
		case in.op == spirv.OpLoad && len(in.a) > 0:
			f, ok := fwd[in.a[0]]
			if !ok {
				break
			}
			if in.t == nil || in.t.slots != f.t.slots {
				return rowPlan{}
			}
			act.copy, act.src = true, f.src
			if !spares(in.res, int32(f.t.slots)) {
				return rowPlan{}
			}
			write(in.res, int32(f.t.slots))
			continue
		}
		if in.w > 0 || in.lk == lkStore && in.fast != fCopy {
			return rowPlan{}
		}
		for i := 0; i+1 < len(in.uses); i += 2 {
			for s := in.uses[i]; s < in.uses[i]+in.uses[i+1]; s++ {
				if _, ok := fwd[s]; ok {
					return rowPlan{} // a variable's pointer used otherwise
				}
			}
		}
		use(in.uses)
		r, n := in.res, resN(in)
		if in.fast == fCopy {
			n = int32(in.m)
		}
		if !spares(r, n) {
			return rowPlan{}
		}
		write(r, n)
	}
	if !written[c.ret] {
		return rowPlan{}
	}
	rp.ok, rp.lo, rp.hi = true, lo, hi
	return rp
}

// decodeMeta is a worker's scratch for decodeRows.
type decodeMeta struct {
	m     sgMeta
	sg    []*lane // the owner of each element decoded
	elems []int   // the elements decoded, in increasing order
	n     []int   // elements per owner, by lane
	// all: every element of the tile is decoded (elems counts from 0);
	// act and per are the owners and share sg was made for then, which
	// the next load of the same subgroup reuses.
	all bool
	act []*lane
	per int
	// vsg and vn are sg and n for the groups of a vector decode
	// function (decodeVecRows).
	vsg []*lane
	vn  []int
	// gat, gparts and gout are decodeMeta.groups' map, groups and result.
	gat    map[vecKey]int32
	gparts []vecPart
	gout   []vecGroup
}

// owners lists the elements to decode (those idxs addresses) and their
// owners, per elements each in act's order. Where every element is
// addressed and the owners are the last call's, the lists are the same
// and are kept: a worker runs one workgroup after another with the same
// lanes.
func (dm *decodeMeta) owners(act []*lane, per int, idxs []int64) {
	all := !slices.ContainsFunc(idxs, func(x int64) bool { return x < 0 })
	if all && dm.all && dm.per == per && len(dm.sg) == len(idxs) && slices.Equal(dm.act, act) {
		return
	}
	if cap(dm.sg) < len(idxs) {
		dm.sg, dm.elems = make([]*lane, len(idxs)), make([]int, len(idxs))
	}
	dm.n = append(dm.n[:0], make([]int, len(act))...)
	sg, elems, k := dm.sg[:len(idxs)], dm.elems[:len(idxs)], 0
	for o, l := range act {
		k0 := k
		for e := o * per; e < min(o*per+per, len(idxs)); e++ {
			if idxs[e] >= 0 {
				sg[k], elems[k] = l, e
				k++
			}
		}
		dm.n[o] = k - k0
	}
	dm.sg, dm.elems = sg[:k], elems[:k]
	dm.all, dm.per, dm.act = all, per, append(dm.act[:0], act...)
}

// maxDecodeRows bounds the row values one pass of decodeRows keeps: a
// tile whose elements times the body's slots exceed it runs in chunks.
const maxDecodeRows = 1 << 18

// decodeRows runs the decode function for the elements whose index idxs
// holds on rows (coords, the elements' coordinates, only where the body
// reads them), owners' step budgets charged as decodeBatch charges
// them. It reports false, having changed nothing, where it cannot: an
// operand the lockstep subgroup does not hold the same everywhere, an
// instruction without a row handler or one that declines, a budget that
// runs out; decodeBatch's rounds then take over. lm is the lockstep
// subgroup's state, or nil where the invocations run on their own.
func decodeRows(tm *tensorMem, act []*lane, lm *sgMeta, per int, base uint64, idxs []int64, coords, tile []uint64) bool {
	c := tm.decode
	D := tm.lt.dim
	if !rowsReady(c, act, lm, D) {
		return false
	}
	cost := int64(c.bodyEnd-c.pc) + 2
	dm := decodeScratch(act[0])
	// The elements to decode and their owners; every owner's budget must
	// cover its calls.
	dm.owners(act, per, idxs)
	for o, l := range act {
		if l.steps < int64(dm.n[o])*cost {
			return false
		}
	}
	ok := dm.run(c, act[0], dm.sg, func(m *sgMeta, lo, n int) {
		elems := dm.elems[lo : lo+n]
		ptr := m.row(c.params[0])
		for i, e := range elems {
			ptr[i] = base + uint64(idxs[e])*uint64(c.pointee)
		}
		if c.rows.coords {
			bc, ib := m.rowsOf(c.params[1], D), m.rowsOf(c.params[2], D)
			for i, e := range elems {
				cd := coords[e*2*D : e*2*D+2*D]
				for d := 0; d < D; d++ {
					bc[d][i], ib[d][i] = cd[d], cd[D+d]
				}
			}
		}
	}, func(m *sgMeta, lo, n int) {
		elems := dm.elems[lo : lo+n]
		if dm.all {
			copy(tile[elems[0]:], m.row(c.ret))
			return
		}
		for i, v := range m.row(c.ret) {
			tile[elems[i]] = v
		}
	})
	if !ok {
		return false
	}
	for o, l := range act {
		l.steps -= int64(dm.n[o]) * cost
	}
	return true
}

// decodeVecRows runs the vector decode function for every group on
// rows, as decodeRows runs the scalar one, each group an element owned
// by the owner of its first matrix element (decodeVectors' calls), the
// components of group k's result at vals[k*nv:]. It reports false,
// having changed no budget, where it cannot.
func decodeVecRows(tm *tensorMem, groups []vecGroup, act []*lane, lm *sgMeta, per int, base uint64, vals []uint64) bool {
	c := tm.decodeVec
	D := tm.lt.dim
	if !rowsReady(c, act, lm, D) {
		return false
	}
	nv := int(c.nres) / max(tm.mt.elem.slots, 1)
	cost := int64(c.bodyEnd-c.pc) + 2
	dm := decodeScratch(act[0])
	dm.vsg = dm.vsg[:0]
	dm.vn = append(dm.vn[:0], make([]int, len(act))...)
	for _, g := range groups {
		o := g.elem[0] / per
		dm.vsg = append(dm.vsg, act[o])
		dm.vn[o]++
	}
	for o, l := range act {
		if l.steps < int64(dm.vn[o])*cost {
			return false
		}
	}
	ok := dm.run(c, act[0], dm.vsg, func(m *sgMeta, lo, n int) {
		gs := groups[lo : lo+n]
		ptr := m.row(c.params[0])
		for i := range gs {
			ptr[i] = base + gs[i].idx*uint64(tm.decode.pointee)
		}
		if c.rows.coords {
			bc, ib := m.rowsOf(c.params[1], D), m.rowsOf(c.params[2], D)
			for i := range gs {
				for d := 0; d < D; d++ {
					bc[d][i], ib[d][i] = gs[i].bc[d], gs[i].ib[d]
				}
			}
		}
	}, func(m *sgMeta, lo, n int) {
		for j := 0; j < nv; j++ {
			for i, v := range m.row(c.ret + int32(j))[:n] {
				vals[(lo+i)*nv+j] = v
			}
		}
	})
	if !ok {
		return false
	}
	for o, l := range act {
		l.steps -= int64(dm.vn[o]) * cost
	}
	return true
}

// rowsReady reports whether decode function c can run on rows for the
// invocations act: a body on rows, arguments of the usual shape, and
// what the body reads besides its own values the same in every
// invocation, and in all their registers (where the calls of the other
// paths read it). Out of lockstep (lm nil) the registers are compared.
func rowsReady(c *coop2, act []*lane, lm *sgMeta, D int) bool {
	rp := &c.rows
	l0 := act[0]
	if !rp.ok || len(l0.stack) >= 64 || c.pn[0] != 1 || int(c.pn[1]) != D || int(c.pn[2]) != D {
		return false
	}
	if lm != nil {
		lm.spreadLead(rp.liveIn)
	}
	for k := 0; k < len(rp.liveIn); k += 2 {
		s := rp.liveIn[k]
		if lm != nil && lm.st[s] != sAll {
			return false
		}
		if lm == nil {
			for _, l := range act[1:] {
				if l.regs[s] != l0.regs[s] {
					return false
				}
			}
		}
	}
	return true
}

// decodeScratch is the worker's decodeMeta.
func decodeScratch(l0 *lane) *decodeMeta {
	dm := l0.wg.scratch.decode
	if dm == nil {
		dm = &decodeMeta{}
		l0.wg.scratch.decode = dm
	}
	return dm
}

// run runs c's body on rows for len(sg) elements owned by sg, in chunks
// of rows that fit maxDecodeRows: set fills the parameters' rows of the
// chunk of elements [lo, lo+n), get takes its results. It reports false
// where an instruction cannot run on rows.
func (dm *decodeMeta) run(c *coop2, l0 *lane, sg []*lane, set, get func(m *sgMeta, lo, n int)) bool {
	rp := &c.rows
	code := l0.p.code
	m := &dm.m
	if len(m.st) < len(l0.regs) {
		m.st = make([]uint8, len(l0.regs))
	}
	for k := 0; k < len(rp.liveIn); k += 2 {
		m.st[rp.liveIn[k]] = sAll
	}
	slots := int(rp.hi - rp.lo)
	w := max(1, min(len(sg), maxDecodeRows/max(slots, 1)))
	if need := slots * w; cap(m.rows) < need {
		m.rows = make([]uint64, need)
	}
	for k := range m.bc {
		if cap(m.bc[k]) < w {
			m.bc[k] = make([]uint64, w)
		}
	}
	for lo := 0; lo < len(sg); lo += w {
		n := min(w, len(sg)-lo)
		m.sg, m.w, m.rs, m.ro = sg[lo:lo+n], n, n, -int(rp.lo)*n
		m.rows = m.rows[:slots*n]
		for k := range m.bc {
			m.bc[k] = m.bc[k][:n]
		}
		set(m, lo, n)
		for j, s := range c.params {
			setSt(m.st, s, c.pn[j], sVec)
		}
		for pc := c.pc; pc < c.bodyEnd; pc++ {
			in := &code[pc]
			switch a := &rp.acts[pc-c.pc]; {
			case a.skip:
			case a.copy:
				for k := int32(0); k < int32(in.t.slots); k++ {
					v := m.arg(a.src+k, 0)
					if v == nil {
						return false
					}
					copy(m.row(in.res+k), v)
				}
				setSt(m.st, in.res, int32(in.t.slots), sVec)
			default:
				if !m.decodeStep(in) {
					return false
				}
			}
		}
		get(m, lo, n)
	}
	return true
}

// rowsOf returns the rows of the n slots from s.
func (m *sgMeta) rowsOf(s int32, n int) [5][]uint64 {
	var r [5][]uint64
	for k := 0; k < n; k++ {
		r[k] = m.row(s + int32(k))
	}
	return r
}

// decodeStep runs one instruction of a decode body on m's rows.
func (m *sgMeta) decodeStep(in *instr) bool {
	if in.fast == fCopy {
		for k := int32(0); k < int32(in.m); k++ {
			a := m.arg(in.a[0]+k, 0)
			if a == nil {
				return false
			}
			copy(m.row(in.res+k), a)
		}
		setSt(m.st, in.res, int32(in.m), sVec)
		return true
	}
	if in.row == nil {
		return false
	}
	// A load through a pointer the same everywhere into an invocation's
	// built-in inputs: the row handlers would place the values by the
	// row's position, which here is an element's, not an invocation's.
	if in.op == spirv.OpLoad && isUni(m.st[in.a[0]]) {
		if a := m.sg[0].regs[in.a[0]]; a>>56 == regInv && m.sg[0].p.inInputs(a&(1<<offBits-1)) {
			return false
		}
	}
	if !in.row(m, in) {
		return false
	}
	if m.made {
		// An affine function of the invocation id (affine.go) means
		// nothing for elements: decline (none arises from the sources
		// guarded above).
		m.made = false
		return false
	}
	setSt(m.st, in.res, resN(in), sVec)
	return true
}

// inInputs reports whether offset off of an invocation's memory lies in
// one of its input variables.
func (p *prog) inInputs(off uint64) bool {
	for _, iv := range p.inputs {
		if off >= uint64(iv.off) && off-uint64(iv.off) < uint64(iv.t.size) {
			return true
		}
	}
	return false
}
