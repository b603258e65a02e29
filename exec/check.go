package exec

import "slices"

// Options.Check: the executor reports undefined behaviour it can see as
// a fault naming both instructions involved:
//
//   - a read of workgroup memory that no invocation of the workgroup
//     wrote (and no initializer set): Vulkan leaves it undefined, though
//     the executor zeroes it (atomics and cooperative stores write too,
//     a cooperative store its whole strided extent);
//   - a decode function (SPV_NV_cooperative_matrix2) that writes
//     workgroup or storage memory, atomically or not;
//   - a data race on workgroup or storage memory: two invocations access
//     the same byte, at least one writing, with no control barrier
//     between them (invocations of different workgroups are never
//     ordered). Atomic instructions do not race; cooperative matrix,
//     vector and tensor loads and stores are not checked for races (they
//     name a strided extent, not the bytes they touch); their own rules
//     (bounds, alignment, clamping) are in checkcoop.go.
//
// Checking runs the invocations one by one (no lockstep, no fast memory
// paths) and the workgroups one after another, so it is slow; the
// shadow of storage memory is kept per byte touched.

// access is one invocation's access to a byte: which invocation (lane
// index + 1 in its workgroup, 0 for none; -1 for several readers), in
// which workgroup (linear index), between which barriers, by which
// instruction.
type access struct {
	lane       int32
	wg         uint64
	wgEp, sgEp uint32
	idx        int32
	gid        [3]uint32
}

// shadow is the last write and the reads since it of one byte.
type shadow struct{ w, r access }

type checker struct {
	wgIndex uint64
	wgEp    uint32
	sgEp    []uint32
	wgMem   []shadow
	written []bool
	bufs    map[uint64]*shadow
	// decoding counts the decode functions running.
	decoding int
}

func newChecker() *checker { return &checker{bufs: map[uint64]*shadow{}} }

// reset starts workgroup wg.
func (c *checker) reset(wg *wgState) {
	g := wg.x.groups
	c.wgIndex = uint64(wg.id[0]) + uint64(g[0])*(uint64(wg.id[1])+uint64(g[1])*uint64(wg.id[2]))
	c.wgEp = 0
	c.sgEp = append(c.sgEp[:0], make([]uint32, len(wg.sgs))...)
	c.wgMem = append(c.wgMem[:0], make([]shadow, len(wg.mem))...)
	c.written = append(c.written[:0], make([]bool, len(wg.mem))...)
	for _, r := range wg.x.p.wgInitialized {
		for i := r[0]; i < r[1] && i < len(c.written); i++ {
			c.written[i] = true
		}
	}
}

// barrier records a control barrier over the lanes in act: a workgroup
// one (sg nil) or a subgroup one.
func (c *checker) barrier(act, sg []*lane) {
	if sg == nil {
		c.wgEp++
		return
	}
	if len(act) > 0 {
		c.sgEp[act[0].lid/act[0].p.sgSize]++
	}
}

func (c *checker) stamp(l *lane, in *instr) access {
	return access{lane: int32(l.lid) + 1, wg: c.wgIndex, wgEp: c.wgEp, sgEp: c.sgEp[l.lid/l.p.sgSize], idx: in.idx, gid: l.globalID()}
}

// ordered reports whether a is ordered before the access now by l: the
// same invocation, or one of the workgroup with a barrier between.
func (c *checker) ordered(a access, l *lane) bool {
	switch {
	case a.lane == 0, a.lane == int32(l.lid)+1 && a.wg == c.wgIndex:
		return true
	case a.wg != c.wgIndex:
		return false
	case a.wgEp != c.wgEp:
		return true
	}
	// A subgroup barrier orders invocations of one subgroup.
	return a.lane > 0 && int(a.lane-1)/l.p.sgSize == l.lid/l.p.sgSize && a.sgEp != c.sgEp[l.lid/l.p.sgSize]
}

// access checks n bytes at addr accessed by l at in.
func (c *checker) access(l *lane, in *instr, addr uint64, n int, write bool) error {
	kind := addr >> 56
	if c.decoding > 0 && write && (kind == regWG || kind == regBuf) {
		return l.failAddr(in, addr, "undefined behaviour (--check): a decode function writes memory (decode functions must have no side effects)")
	}
	// Cooperative matrix, vector and tensor accesses name a strided
	// extent, not the bytes they touch: they are not checked.
	if isAtomic(in.op) || n <= 0 || isCoopOp(in.op) || isCoop2Coll(in.op) || isCvecOp(in.op) || isTensorOp(in.op) || isTensorARMOp(in.op) {
		if write && kind == regWG && n > 0 {
			// What they write is written, for the reads that follow (a
			// cooperative store's extent: the gaps between its rows too).
			off := addr & (1<<offBits - 1)
			for i := off; i < off+uint64(n) && i < uint64(len(c.written)); i++ {
				c.written[i] = true
			}
		}
		return nil
	}
	if kind != regWG && kind != regBuf {
		return nil
	}
	off := addr & (1<<offBits - 1)
	me := c.stamp(l, in)
	for i := range uint64(n) {
		var s *shadow
		if kind == regWG {
			if off+i >= uint64(len(c.wgMem)) {
				return nil
			}
			s = &c.wgMem[off+i]
			if !write && !c.written[off+i] {
				return l.failAddr(in, addr+i, "undefined behaviour (--check): reads workgroup memory that no invocation of the workgroup wrote")
			}
		} else {
			if s = c.bufs[addr+i]; s == nil {
				s = &shadow{}
				c.bufs[addr+i] = s
			}
		}
		if !c.ordered(s.w, l) {
			return c.race(l, in, addr+i, write, "wrote", s.w)
		}
		if write {
			// Several readers (lane -1) read in one interval between
			// workgroup barriers (a later read replaces them): ordered
			// holds for them exactly where such a barrier came since.
			if !c.ordered(s.r, l) {
				return c.race(l, in, addr+i, write, "read", s.r)
			}
			s.w, s.r = me, access{}
			if kind == regWG {
				c.written[off+i] = true
			}
			continue
		}
		switch {
		case s.r.lane == 0 || c.ordered(s.r, l):
			s.r = me
		case s.r.lane != me.lane || s.r.wg != me.wg:
			s.r.lane = -1 // several readers: a write races until a workgroup barrier
		}
	}
	return nil
}

func (c *checker) race(l *lane, in *instr, addr uint64, write bool, did string, other access) error {
	verb := "reads"
	if write {
		verb = "writes"
	}
	what := "storage"
	if addr>>56 == regWG {
		what = "workgroup"
	}
	if other.lane == -1 {
		return l.failAddr(in, addr, "undefined behaviour (--check): data race on %s memory: this invocation %s a byte other invocations read with no barrier between", what, verb)
	}
	return l.failAddr(in, addr, "undefined behaviour (--check): data race on %s memory: this invocation %s a byte that invocation (%d,%d,%d) %s at instruction %d (%s) with no barrier between",
		what, verb, other.gid[0], other.gid[1], other.gid[2], did, other.idx, l.p.m.Insts[other.idx].Op)
}

// checkedProg is p for a checking dispatch: the fast memory paths off, so
// every access goes through lane.region.
func checkedProg(p *prog) *prog {
	q := *p
	q.code = slices.Clone(p.code)
	for i := range q.code {
		in := &q.code[i]
		in.vec = nil
		if in.fast == fLoad32 || in.fast == fStore32 {
			in.fast = fNoFast
		}
	}
	return &q
}
