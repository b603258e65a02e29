package exec

import "github.com/coopshader/coop/spirv"

// Fused address loads. In llama.cpp-style loops most instructions only
// compute addresses: integer sums and products of the invocation's id
// and uniform loop counters, access chains indexed by them, each used
// once, by the next, ending in a load. Lockstep keeps such values as
// affine functions (affine.go), so each costs little, but still one
// dispatch. A fusedLoad is such a run of instructions found at load
// time, ending in an OpLoad: at its first instruction lockstep computes
// the load's address function directly from the run's inputs and loads
// the row, then goes on after the load, having spent a step for every
// instruction of the run (slot copies among them too). The values in
// between are never written: each is used only inside the run, so no
// instruction reads them. Where any part would not be affine (an
// operand held in a row, a product of two functions, an index not
// provably in bounds, addresses not provably in one buffer), the run is
// declined before anything is written and its instructions run one by
// one, which fault where they must.

// maxFuseNodes bounds the instructions of a fused run that compute,
// maxFuseLeaves its inputs and maxFuseSteps its access chains' indices.
const (
	maxFuseNodes  = 8
	maxFuseLeaves = 16
	maxFuseSteps  = 16
	maxFuseVals   = maxFuseLeaves + maxFuseNodes
)

// fusedLoad is the run of instructions from the one that holds it: n
// instructions (the load last, or an unsigned widening of what it loads),
// leaves the slots it reads, nodes the integer operations and access
// chains among them in program order (the last one the load's pointer),
// then the load of width bytes into slot res.
type fusedLoad struct {
	n      int32
	skip   int32 // nops right after the run (nopRuns)
	id     int32 // the program's fused loads numbered, for their memos
	leaves []fleaf
	nodes  []fnode
	res    int32
	width  int64
}

// fleaf is an input of a run: slot's value as one of width w (0: a
// pointer, whose functions are of 64 bits and whose uniform values are
// taken whole).
type fleaf struct {
	slot int32
	w    uint8
}

// fnode is an integer operation (op; x, y) of width w, or an access
// chain (ch; x its base, idx its indices; w 64). Operands are fvals.
type fnode struct {
	op   spirv.Op
	w    uint8
	x, y fval
	ch   *chain
	idx  []fval
}

// fval numbers a run's values: its leaves first, then its nodes.
type fval int32

// fuseLoads finds the fused runs ending in each load (fusedLoad), then
// the fused chains (fusedChain), from the result ids used exactly once in
// the module.
func (p *prog) fuseLoads(first int) {
	insts := p.m.Insts
	uses := map[uint32]int32{}
	for i := first; i < len(insts); i++ {
		for _, k := range p.idOperands(i) {
			uses[insts[i].Words[k]]++
		}
	}
	covered := make([]bool, len(p.code))
	ids := int32(0)
	for k := range p.code {
		if fl, start := p.fuseAt(int32(k), uses); fl != nil {
			fl.id, ids = ids, ids+1
			p.code[start].fu = fl
			for j := start; j < start+fl.n; j++ {
				covered[j] = true
			}
		}
	}
	p.fuseChains(uses, covered)
}

// fuseAt finds the fused run ending in the load at pc k, and where it
// starts; nil where there is none worth it (fewer than two nodes).
func (p *prog) fuseAt(k int32, uses map[uint32]int32) (*fusedLoad, int32) {
	ld := &p.code[k]
	if ld.op != spirv.OpLoad || ld.lk != lkLoad || ld.w != 0 || ld.t == nil || ld.t.slots != 1 || ld.ml.stride != 0 ||
		ld.t.kind != kInt && ld.t.kind != kFloat || !plainWidth(ld.t.width) || len(ld.a) != 1 {
		return nil, 0
	}
	want := map[int32]bool{ld.a[0]: true}
	var rev []int32 // the nodes' pcs, last first
	start := k
	for j := k - 1; j >= 0 && len(rev) < maxFuseNodes; j-- {
		in := &p.code[j]
		if in.nop && in.fu == nil {
			start = j
			continue
		}
		if in.res < 0 || !want[in.res] || !p.fusible(in) || in.fu != nil {
			break
		}
		if id := p.m.Insts[in.idx].ResultID(); id == 0 || uses[id] != 1 {
			break
		}
		delete(want, in.res)
		for t := 0; t+1 < len(in.uses); t += 2 {
			want[in.uses[t]] = true
		}
		rev = append(rev, j)
		start = j
	}
	if len(rev) < 2 {
		return nil, 0
	}
	// Copies at the start are left out of the run: they may be where
	// lockstep enters the block, and cost nothing.
	for p.code[start].nop {
		start++
	}
	fl := &fusedLoad{n: k - start + 1, res: ld.res, width: int64(ld.t.width / 8)}
	// Leaves are numbered first, then the nodes: the nodes' numbers are
	// patched once the leaves are known (ref's negative values).
	node := map[int32]int32{} // a node's result slot to its index
	leaf := map[fleaf]fval{}
	nodeW := make([]uint8, 0, len(rev))
	ok := true
	ref := func(s int32, w uint8) fval {
		if k, found := node[s]; found {
			// A node's width is fixed: it must be the one asked for.
			if w != nodeW[k] && !(w == 0 && nodeW[k] == 64) {
				ok = false
			}
			return fval(-1 - k)
		}
		lf := fleaf{s, w}
		if v, found := leaf[lf]; found {
			return v
		}
		leaf[lf] = fval(len(fl.leaves))
		fl.leaves = append(fl.leaves, lf)
		return fval(len(fl.leaves) - 1)
	}
	for i := len(rev) - 1; i >= 0; i-- {
		in := &p.code[rev[i]]
		var n fnode
		if in.fast == fChain {
			n = fnode{op: in.op, w: 64, x: ref(in.a[0], 0), ch: in.ch}
			for _, s := range in.ch.steps {
				n.idx = append(n.idx, ref(s.slot, uint8(s.w)))
			}
		} else {
			w := uint8(in.t.width)
			n = fnode{op: in.op, w: w, x: ref(in.a[0], w), y: ref(in.a[1], w)}
		}
		node[in.res] = int32(len(fl.nodes))
		nodeW = append(nodeW, n.w)
		fl.nodes = append(fl.nodes, n)
	}
	last := int32(len(fl.nodes) - 1)
	if k, found := node[ld.a[0]]; !found || k != last || nodeW[k] != 64 || !ok || len(fl.leaves) > maxFuseLeaves {
		return nil, 0
	}
	steps := 0
	for _, n := range fl.nodes {
		steps += len(n.idx)
	}
	if steps > maxFuseSteps {
		return nil, 0
	}
	fix := func(v *fval) {
		if *v < 0 {
			*v = fval(len(fl.leaves)) + (-1 - *v)
		}
	}
	for k := range fl.nodes {
		n := &fl.nodes[k]
		fix(&n.x)
		fix(&n.y)
		for i := range n.idx {
			fix(&n.idx[i])
		}
	}
	// An unsigned widening of the loaded integer right after (used
	// nowhere else) changes no bits: the run loads into its result.
	if c := k + 1; int(c) < len(p.code) {
		cv := &p.code[c]
		if cv.op == spirv.OpUConvert && cv.w == 0 && len(cv.a) == 1 && cv.a[0] == ld.res && ld.t.kind == kInt &&
			cv.t != nil && cv.t.kind == kInt && cv.t.slots == 1 && cv.t.width >= ld.t.width && !ld.vres {
			if id := p.m.Insts[ld.idx].ResultID(); id != 0 && uses[id] == 1 {
				fl.n++
				fl.res = cv.res
			}
		}
	}
	return fl, start
}

// fusible reports an instruction a fused run may compute: an access
// chain without descriptor table, or an integer sum, difference, product
// or left shift of 32- or 64-bit scalars, without work of its own.
func (p *prog) fusible(in *instr) bool {
	if in.w != 0 || in.vres || in.t == nil {
		return false
	}
	if in.fast == fChain {
		return len(in.a) == 1 && in.t.kind == kPointer
	}
	switch in.op {
	case spirv.OpIAdd, spirv.OpISub, spirv.OpIMul, spirv.OpShiftLeftLogical:
		return in.t.kind == kInt && in.t.slots == 1 && len(in.a) == 2 && (in.t.width == 32 || in.t.width == 64)
	}
	return false
}

// fused runs the fused load fl, computing as affRow and affChain would;
// false, having written nothing, where it cannot. The functions are kept
// as scalars (copies of their arrays stall on store forwarding).
func (m *sgMeta) fused(fl *fusedLoad) bool {
	mm := m.memoOf(fl)
	if mm.fl == fl && m.fusedAgain(fl, mm) {
		return true
	}
	mm.fl = nil
	cs, xs, ys, zs := &m.fv.c, &m.fv.x, &m.fv.y, &m.fv.z
	if !m.boxOK {
		// No range is known: the pointer, which varies, has none either.
		return false
	}
	st, lr := m.st, m.sg[0].regs
	for i, lf := range fl.leaves {
		r := lf.slot
		switch v := st[r]; {
		case v == sAff:
			a := &m.aff[r]
			if a.w != lf.w && (lf.w != 0 || a.w != 64) {
				return false
			}
			cs[i], xs[i], ys[i], zs[i] = a.c, a.d[0], a.d[1], a.d[2]
		case isUni(v):
			c := int64(lr[r])
			if lf.w != 0 && lf.w < 64 {
				c = sext(lr[r], int(lf.w))
			}
			cs[i], xs[i], ys[i], zs[i] = c, 0, 0, 0
		default:
			return false
		}
	}
	b := &m.box
	k := len(fl.leaves)
	for ni := range fl.nodes {
		n := &fl.nodes[ni]
		if n.ch != nil {
			// affChain's sum, the base a 64-bit function or uniform.
			r0, r1, r2, r3 := cs[n.x], xs[n.x], ys[n.x], zs[n.x]
			r0 += int64(n.ch.off)
			for i, s := range n.ch.steps {
				stride := int64(s.stride)
				v := n.idx[i]
				c, dx, dy, dz := cs[v], xs[v], ys[v], zs[v]
				if dx|dy|dz == 0 {
					if s.bound > 0 && uint64(c) >= uint64(s.bound) {
						return false
					}
					r0 += c * stride
					continue
				}
				// rngOf over the box, inline.
				if uint64(c+affMaxC) > 2*affMaxC || uint64(dx+affMaxD) > 2*affMaxD ||
					uint64(dy+affMaxD) > 2*affMaxD || uint64(dz+affMaxD) > 2*affMaxD {
					return false
				}
				lo, hi := c, c
				for j, d := range [3]int64{dx, dy, dz} {
					if d >= 0 {
						lo += d * b[j][0]
						hi += d * b[j][1]
					} else {
						lo += d * b[j][1]
						hi += d * b[j][0]
					}
				}
				if lo < 0 || s.w < 64 && hi >= 1<<(s.w-1) || s.bound > 0 && hi >= int64(s.bound) {
					return false
				}
				r0 += c * stride
				r1 += dx * stride
				r2 += dy * stride
				r3 += dz * stride
			}
			cs[k], xs[k], ys[k], zs[k] = r0, r1, r2, r3
			k++
			continue
		}
		// affRow's operations.
		ca, ax, ay, az := cs[n.x], xs[n.x], ys[n.x], zs[n.x]
		cb, bx, by, bz := cs[n.y], xs[n.y], ys[n.y], zs[n.y]
		var c, dx, dy, dz int64
		switch n.op {
		case spirv.OpIAdd:
			c, dx, dy, dz = ca+cb, ax+bx, ay+by, az+bz
		case spirv.OpISub:
			c, dx, dy, dz = ca-cb, ax-bx, ay-by, az-bz
		default:
			var f int64
			switch {
			case bx|by|bz != 0:
				if n.op == spirv.OpShiftLeftLogical || ax|ay|az != 0 {
					return false
				}
				f, ca, ax, ay, az = ca, cb, bx, by, bz
			case n.op == spirv.OpShiftLeftLogical:
				f = int64(1) << (uint64(cb) & uint64(n.w-1))
			default:
				f = cb
			}
			c, dx, dy, dz = ca*f, ax*f, ay*f, az*f
		}
		if n.w == 32 {
			c, dx, dy, dz = int64(int32(c)), int64(int32(dx)), int64(int32(dy)), int64(int32(dz))
		}
		cs[k], xs[k], ys[k], zs[k] = c, dx, dy, dz
		k++
	}
	k--
	if xs[k]|ys[k]|zs[k] == 0 {
		// The same address everywhere: the load runs once, unfused.
		return false
	}
	a := &m.fa
	a.c, a.d[0], a.d[1], a.d[2], a.w = cs[k], xs[k], ys[k], zs[k], 64
	buf, tag := m.affSpanOf(a, fl.width)
	if buf == nil {
		return false
	}
	affLoadRuns(m.row(fl.res), buf, m.runs, a, tag, fl.width)
	st[fl.res] = sVec
	if mm.again {
		m.remember(fl, mm, buf, tag)
	}
	mm.again = true
	return true
}

// Fused load memos. In a loop, a fused load's inputs are mostly the
// same from one iteration to the next: the invocations' functions (ib)
// and the constants do not change, only a uniform counter (j) does, which
// moves the addresses without changing their coefficients. A subgroup
// keeps, per fused load, what its last computation in this lockstep run
// (fmemo.epoch: the rows' layout, the box, the buffers and the workgroup
// memory stay as they are within one) established: the functions of its
// inputs that vary, the ranges of its varying indices and of the address
// about their constant terms, and the buffer the addresses lay in. When
// the inputs that vary are the same and no uniform input that changed
// reaches a coefficient (a multiplier or shift count of a varying value),
// every coefficient is the same as then, so fusedAgain computes only the
// constant terms, with the same arithmetic as fused, and checks them
// against the same limits; where any check fails it leaves the decision
// to fused, which computes everything again.

// fmemo is a subgroup's memo of one fused load; fl is nil where none holds.
type fmemo struct {
	epoch uint64
	fl    *fusedLoad
	// again: the load ran before in this lockstep run; a memo is made
	// only then (a load that runs once per run, outside loops, would pay
	// for it and never use it).
	again bool
	// uni marks the leaves that were the same everywhere, dfeed those of
	// them whose value reaches a coefficient (they must not change).
	uni, dfeed uint32
	leaf       [maxFuseLeaves][4]int64 // c, dx, dy, dz
	lw         [maxFuseLeaves]uint8    // the widths of sAff leaves
	// vary marks the chain indices (in order over the nodes) that vary;
	// lo and hi their ranges less their constant terms.
	vary   uint32
	lo, hi [maxFuseSteps]int64
	// The address: its coefficients, its range less its constant term,
	// the bytes it lies in and their tag.
	d        [3]int64
	alo, ahi int64
	buf      []byte
	tag      int64
}

// fuseVals is the scratch of fused: the values' functions by fval.
type fuseVals struct {
	c, x, y, z [maxFuseVals]int64
}

// memoOf gives the memo of fl in m, emptied where it is of an earlier
// lockstep run.
func (m *sgMeta) memoOf(fl *fusedLoad) *fmemo {
	if int(fl.id) >= len(m.fmemo) {
		m.fmemo = append(m.fmemo, make([]fmemo, int(fl.id)+1-len(m.fmemo))...)
	}
	mm := &m.fmemo[fl.id]
	if mm.epoch != m.fepoch {
		mm.epoch, mm.fl, mm.buf, mm.again = m.fepoch, nil, nil, false
	}
	return mm
}

// remember fills mm from the computation of fl fused just made (m.fv),
// whose address lies in buf (tag).
func (m *sgMeta) remember(fl *fusedLoad, mm *fmemo, buf []byte, tag int64) {
	v := &m.fv
	st := m.st
	var dep [maxFuseVals]uint32 // the uniform leaves each value's constant term depends on
	mm.uni, mm.dfeed, mm.vary = 0, 0, 0
	for i, lf := range fl.leaves {
		mm.leaf[i] = [4]int64{v.c[i], v.x[i], v.y[i], v.z[i]}
		if isUni(st[lf.slot]) {
			mm.uni |= 1 << i
			dep[i] = 1 << i
		} else {
			mm.lw[i] = m.aff[lf.slot].w
		}
	}
	varies := func(k fval) bool { return v.x[k]|v.y[k]|v.z[k] != 0 }
	k, j := len(fl.leaves), 0
	for ni := range fl.nodes {
		n := &fl.nodes[ni]
		dep[k] = dep[n.x]
		if n.ch != nil {
			for _, x := range n.idx {
				dep[k] |= dep[x]
				if varies(x) {
					d := [3]int64{v.x[x], v.y[x], v.z[x]}
					lo, hi, _ := m.rngOf(v.c[x], &d)
					mm.vary |= 1 << j
					mm.lo[j], mm.hi[j] = lo-v.c[x], hi-v.c[x]
				}
				j++
			}
		} else {
			dep[k] |= dep[n.y]
			if n.op == spirv.OpIMul || n.op == spirv.OpShiftLeftLogical {
				// The factor of a varying operand scales its coefficients.
				switch {
				case varies(n.y):
					mm.dfeed |= dep[n.x]
				case varies(n.x):
					mm.dfeed |= dep[n.y]
				}
			}
		}
		k++
	}
	a := &m.fa
	lo, hi, _ := m.rng(a)
	mm.d, mm.alo, mm.ahi = a.d, lo-a.c, hi-a.c
	mm.buf, mm.tag, mm.fl = buf, tag, fl
}

// fusedAgain runs fl from its memo mm where the computation's
// coefficients are those mm holds and every check passes; false, having
// written nothing, where not (fused then decides).
func (m *sgMeta) fusedAgain(fl *fusedLoad, mm *fmemo) bool {
	st, lr := m.st, m.sg[0].regs
	cs := &m.fv.c
	for i, lf := range fl.leaves {
		r := lf.slot
		switch v := st[r]; {
		case v == sAff:
			a, e := &m.aff[r], &mm.leaf[i]
			if mm.uni&(1<<i) != 0 || a.w != mm.lw[i] || a.c != e[0] || a.d[0] != e[1] || a.d[1] != e[2] || a.d[2] != e[3] {
				return false
			}
			cs[i] = a.c
		case isUni(v):
			c := int64(lr[r])
			if lf.w != 0 && lf.w < 64 {
				c = sext(lr[r], int(lf.w))
			}
			if mm.uni&(1<<i) == 0 || mm.dfeed&(1<<i) != 0 && c != mm.leaf[i][0] {
				return false
			}
			cs[i] = c
		default:
			return false
		}
	}
	k, j := len(fl.leaves), 0
	for ni := range fl.nodes {
		n := &fl.nodes[ni]
		if n.ch != nil {
			r0 := cs[n.x] + int64(n.ch.off)
			for i, s := range n.ch.steps {
				c := cs[n.idx[i]]
				if mm.vary&(1<<j) == 0 {
					if s.bound > 0 && uint64(c) >= uint64(s.bound) {
						return false
					}
				} else {
					lo, hi := c+mm.lo[j], c+mm.hi[j]
					if uint64(c+affMaxC) > 2*affMaxC || lo < 0 || s.w < 64 && hi >= 1<<(s.w-1) || s.bound > 0 && hi >= int64(s.bound) {
						return false
					}
				}
				r0 += c * int64(s.stride)
				j++
			}
			cs[k] = r0
			k++
			continue
		}
		ca, cb := cs[n.x], cs[n.y]
		var c int64
		switch n.op {
		case spirv.OpIAdd:
			c = ca + cb
		case spirv.OpISub:
			c = ca - cb
		case spirv.OpShiftLeftLogical:
			c = ca * (int64(1) << (uint64(cb) & uint64(n.w-1)))
		default:
			c = ca * cb
		}
		if n.w == 32 {
			c = int64(int32(c))
		}
		cs[k] = c
		k++
	}
	// affSpanOf's checks, the coefficients and the tag those of the memo.
	c := cs[k-1]
	lo, hi := c+mm.alo, c+mm.ahi
	if uint64(c+affMaxC) > 2*affMaxC || lo < 0 || lo&^(1<<offBits-1) != mm.tag || hi&^(1<<offBits-1) != mm.tag ||
		hi-mm.tag > int64(len(mm.buf))-fl.width {
		return false
	}
	a := &m.fa
	a.c, a.d, a.w = c, mm.d, 64
	affLoadRuns(m.row(fl.res), mm.buf, m.runs, a, mm.tag, fl.width)
	st[fl.res] = sVec
	return true
}

// Fused chains. The unpacking of quantized values is a chain of
// integer operations, each on the previous one's result (used nowhere
// else) and a value the same everywhere: int(w << 24) >> 24 is a shift,
// a bitcast and a shift; the dot product after it a chain of float
// operations whose other operands are rows: s += a*x + b (a multiply,
// an add, an add). A fusedChain runs such a run of instructions at its
// first one as passes over rows: the operations' row loops (kernels),
// the values in between in scratch, the last one into the final result's
// row, bitcasts not at all; the rows of the values in between are never
// written (nothing reads them). A commutative operation may take the
// previous result as its second operand (the kernels are exact either
// way round, NaNs canonical). It declines, having written nothing, where
// its input is the same everywhere (the chain then runs once, unfused),
// an operand is a tile, or an operand is an affine function (affine.go:
// one by one, sums and products of those stay functions, which the loads
// they address fuse; a chain would make them rows).

// fusedChain is the run of n instructions from the one that holds it;
// x the input, steps the operations, res the final result.
type fusedChain struct {
	n     int32
	skip  int32 // nops right after the run (nopRuns)
	x     int32
	steps []chainOp
	res   int32
}

// chainOp is one operation of a chain: the row loop of a binary operation
// (bin, with other operand y) or of a unary one (un); neither for a
// bitcast, which keeps the bits.
type chainOp struct {
	bin  rowBin
	y    int32
	comm bool
	un   func(d, a []uint64)
}

// fuseChains finds the fused chains outside the fused loads' runs, from
// the result ids used exactly once in the module (uses).
func (p *prog) fuseChains(uses map[uint32]int32, covered []bool) {
	for k := 0; k < len(p.code); k++ {
		if covered[k] {
			continue
		}
		fc, end := p.chainAt(int32(k), uses, covered)
		if fc == nil {
			continue
		}
		p.code[k].fc = fc
		k = int(end)
	}
}

// chainStep gives the chain step of in (y its second operand), or false
// where it cannot be one: the row loops pickRow would run it with.
func (p *prog) chainStep(in *instr) (chainOp, bool) {
	if in.w != 0 || in.t == nil || in.at == nil || in.t.slots != 1 || in.at.slots != 1 || in.nop || in.fu != nil || in.row == nil {
		return chainOp{}, false
	}
	ct, act := in.t, in.at
	switch {
	case in.op == spirv.OpBitcast && len(in.a) == 1 && ct.kind == kInt && act.kind == kInt && act.width == ct.width:
		return chainOp{}, true
	case (in.op == spirv.OpUConvert || in.op == spirv.OpConvertSToF) && len(in.a) == 1:
		if f := rowConv(in, ct, act); f != nil {
			return chainOp{un: vecUn(in, ct, act, f)}, true
		}
	case len(in.a) == 2 && ct.kind == kInt && act.kind == kInt:
		if f, comm := rowIntBin(in.op, ct.width); f != nil {
			return chainOp{bin: vecBin(in, ct, act, f), y: in.a[1], comm: comm}, true
		}
	case len(in.a) == 2 && ct.kind == kFloat && ct.ff == f32 && act.kind == kFloat:
		if f, comm := rowF32Bin(in.op); f != nil {
			return chainOp{bin: vecBin(in, ct, act, f), y: in.a[1], comm: comm}, true
		}
	}
	return chainOp{}, false
}

// chainAt finds the fused chain starting at pc k and the pc of its last
// instruction; nil where there is none of at least two operations.
func (p *prog) chainAt(k int32, uses map[uint32]int32, covered []bool) (*fusedChain, int32) {
	first := &p.code[k]
	s, ok := p.chainStep(first)
	if !ok || s.bin == nil && s.un == nil {
		return nil, 0
	}
	fc := &fusedChain{x: first.a[0], steps: []chainOp{s}, res: first.res}
	last := k
	for j := k + 1; int(j) < len(p.code) && !covered[j]; j++ {
		in := &p.code[j]
		if in.nop {
			continue
		}
		prev := &p.code[last]
		if len(in.a) == 0 || prev.vres {
			break
		}
		if id := p.m.Insts[prev.idx].ResultID(); id == 0 || uses[id] != 1 {
			break
		}
		s, ok := p.chainStep(in)
		if !ok {
			break
		}
		linked := in.a[0] == prev.res
		if !linked && s.bin != nil && s.comm && in.a[1] == prev.res {
			s.y, linked = in.a[0], true
		}
		if !linked || s.bin != nil && s.y == prev.res {
			break
		}
		fc.steps = append(fc.steps, s)
		fc.res, last = in.res, j
	}
	if len(fc.steps) < 2 {
		return nil, 0
	}
	fc.n = last - k + 1
	return fc, last
}

// chain runs the fused chain fc; false, having written nothing, where it
// cannot.
func (m *sgMeta) chain(fc *fusedChain) bool {
	st, lr := m.st, m.sg[0].regs
	// An affine value (an id, and in a batch of workgroups WorkgroupId)
	// goes on through the instructions one by one: those that keep it
	// affine keep the loads it indexes runs (affine.go).
	if v := st[fc.x]; isUni(v) || v == sTile || v == sAff {
		return false
	}
	for _, s := range fc.steps {
		if s.bin != nil && (st[s.y] == sTile || st[s.y] == sAff) {
			return false
		}
	}
	a := m.arg(fc.x, 0)
	if a == nil {
		return false
	}
	d := m.row(fc.res)
	t := m.bc[2]
	end := len(fc.steps) - 1
	for k, s := range fc.steps {
		o := t
		if k == end {
			o = d
		}
		switch {
		case s.bin != nil && isUni(st[s.y]):
			s.bin(o, a, nil, lr[s.y])
		case s.bin != nil:
			b := m.arg(s.y, 1)
			if b == nil {
				return false
			}
			s.bin(o, a, b, 0)
		case s.un != nil:
			s.un(o, a)
		case k < end:
			// A bitcast keeps the bits where they are.
			continue
		default:
			if &a[0] != &o[0] {
				copy(o, a)
			}
		}
		a = o
	}
	st[fc.res] = sVec
	return true
}

// nopRuns notes after each instruction, fused load and fused chain the
// number of nops that follow it, so that lockstep passes over them
// without reading them (each still costs its step).
func (p *prog) nopRuns() {
	run := make([]int32, len(p.code)+1) // the nops starting at each pc
	for k := len(p.code) - 1; k >= 0; k-- {
		if p.code[k].nop && p.code[k].fu == nil && p.code[k].fc == nil {
			run[k] = run[k+1] + 1
		}
	}
	for k := range p.code {
		in := &p.code[k]
		in.skip = run[k+1]
		if in.fu != nil {
			in.fu.skip = run[k+int(in.fu.n)]
		}
		if in.fc != nil {
			in.fc.skip = run[k+int(in.fc.n)]
		}
	}
}
