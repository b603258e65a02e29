package exec

import (
	"encoding/binary"

	"github.com/coopshader/coop/spirv"
)

// Leader runs. In lockstep an instruction whose operands are the same in
// every invocation runs once, in the leader (lockstep.go's once path);
// the scalar bookkeeping around cooperative operations (a loop counter, a
// pointer computed from it and push constants, the comparison that ends
// the loop) is all such instructions, and the general loop spends most of
// a loop iteration's time choosing that path again for each. leadRuns
// gives each sequence of the simplest instructions (integer arithmetic,
// comparisons, one-slot copies and extracts, access chains without
// descriptors, 32-bit integer loads, moves of whole tiles, nops, the
// quick cooperative instructions of cooprun.go, branches without phis)
// compact records of what the leader does, which leadRun runs one after
// another while their operands stay uniform, as the general loop would
// one at a time: the same results, left in the leader (sLead), and a
// step each; a branch goes on with the records of its target, so a loop
// of such instructions runs here iteration after iteration. The first
// record that declines (an operand that varies, an address not in a
// buffer or the push constants, an index out of bounds, the budget)
// leaves its instruction to the general loop, which runs it, faulting
// where it must.

// uop is one record of a leader run: an instruction's inlined path
// (instr.fast; fNoFast for nops alone, and the kinds below), its slots,
// how its uses are tested for uniformity (instr.uk, us and uses), and n,
// the instructions it covers (the nops after it among them, each a
// step).
type uop struct {
	k    uint8
	uk   uint8
	n    int32
	res  int32
	a, b int32
	// x is an extract's offset, a copy's slot count, or the result of the
	// load of fChainLoad.
	x  int32
	us [2]int32
	// inv numbers (from 1) an access chain of module-scope values only
	// (constants, variables' pointers), the same everywhere in a
	// dispatch: the sgMeta remembers its address, and the value it loads
	// from the push constants (invMemo).
	inv int32
	m   uint64
	ch  *chain
	// c holds what few records need, apart so that the records of a run
	// stay small.
	c *uopCold
}

// invMemo is what a subgroup remembers of a record's computation that
// every later one in the dispatch repeats (uop.inv).
type invMemo struct {
	ok   bool
	push bool // v is the value at addr, in the push constants
	addr uint64
	v    uint64
}

type uopCold struct {
	uses []int32
	e    [2]*edge // a branch's edges
	tgt  [2][]uop // and their targets' records (nil for none)
	in   *instr   // a quick cooperative instruction
}

// The records that are not instr.fast's paths.
const (
	// fChainLoad is an access chain whose result the next instruction
	// loads (fLoad32).
	fChainLoad = fCopy + 1 + iota
	fBranch    // OpBranch
	fCond      // OpBranchConditional on a uniform condition
	fQuick     // a cooperative instruction's quick path (instr.cq)
)

// leadOp reports whether in may be in a leader run. A fused load
// (fuse.go) ends a run: it runs its instructions together where some of
// them vary, so lockstep has to reach it as its first. A fused chain
// declines where its first operand is uniform, which is where a run takes
// it.
func (p *prog) leadOp(in *instr) bool {
	if in.nop {
		return true
	}
	if in.cq != nil {
		return true
	}
	if in.w != 0 || in.coll || in.fu != nil || p.fe != nil && p.fe.ins[in] != 0 {
		return false
	}
	switch in.lk {
	case lkPure:
		switch in.fast {
		case fIAdd, fISub, fIMul, fAnd, fULT, fSLT, fIEq, fExtract, fChain:
			return in.rn == 1
		case fCopy:
			// Of one slot, or of a cooperative matrix (a tile moves).
			return in.rn == int32(in.m) && (in.m == 1 || in.t.kind == kCoopMat)
		}
	case lkLoad:
		return in.fast == fLoad32 && in.rn == 1
	case lkCtl:
		switch in.op {
		case spirv.OpBranch:
			return len(in.e[0].moves) == 0
		case spirv.OpBranchConditional:
			return len(in.e[0].moves) == 0 && len(in.e[1].moves) == 0
		}
	}
	return false
}

// leadRuns gives the instructions of each sequence of leadOps records
// (instr.ur at the first instruction of each, the records from there to
// the sequence's end).
func (p *prog) leadRuns() {
	code := p.code
	for k := 0; k < len(code); {
		e := k
		for e < len(code) && p.leadOp(&code[e]) {
			e++
		}
		if e == k {
			k++
			continue
		}
		var ops []uop
		var at []int
		for i := k; i < e; {
			at = append(at, i)
			// Nops before an instruction of the simplest kinds are in
			// its record, which counts their steps first.
			j := i
			for j < e && code[j].nop {
				j++
			}
			o := uop{n: 1}
			if j > i && j < e && !code[j].nop && code[j].cq == nil && code[j].lk != lkCtl {
				o.n += int32(j - i)
				i = j
			}
			in := &code[i]
			if !in.nop {
				o.k, o.uk, o.us = in.fast, in.uk, in.us
				o.res, o.m, o.ch = in.res, in.m, in.ch
				if o.uk == 0 {
					o.c = &uopCold{uses: in.uses}
				}
				o.x = int32(in.sub)
				if in.fast == fCopy {
					o.x = in.rn
				}
				if len(in.a) > 0 {
					o.a = in.a[0]
				}
				if len(in.a) > 1 {
					o.b = in.a[1]
				}
				switch {
				case in.cq != nil:
					o.k, o.c = fQuick, &uopCold{in: in}
				case in.op == spirv.OpBranch:
					o.k, o.c = fBranch, &uopCold{e: [2]*edge{in.e[0]}}
				case in.op == spirv.OpBranchConditional:
					o.k, o.c = fCond, &uopCold{e: in.e}
				}
			}
			i++
			// The nops after a branch begin another block.
			for i < e && code[i].nop && o.k != fBranch && o.k != fCond {
				o.n++
				i++
			}
			if o.k == fChain && p.moduleScope(in.uses) {
				p.nInv++
				o.inv = p.nInv
			}
			if o.k == fChain && i < e && code[i].fast == fLoad32 && code[i].lk == lkLoad && code[i].a[0] == o.res {
				o.k, o.x = fChainLoad, code[i].res
				i++
				o.n++
				for i < e && code[i].nop {
					o.n++
					i++
				}
			}
			ops = append(ops, o)
		}
		for j, i := range at {
			code[i].ur = ops[j:]
		}
		k = e
	}
	// Each record is the first of one instruction's.
	for k := range code {
		if ur := code[k].ur; len(ur) > 0 && ur[0].c != nil {
			for j, e := range ur[0].c.e {
				if e != nil {
					ur[0].c.tgt[j] = code[e.pc].ur
				}
			}
		}
	}
}

// moduleScope reports whether the slots of uses all hold module-scope
// values, which nothing writes: the same in every invocation throughout
// a dispatch.
func (p *prog) moduleScope(uses []int32) bool {
	for k := 0; k+1 < len(uses); k += 2 {
		if uses[k] < 1 || uses[k]+uses[k+1] > p.constEnd {
			return false
		}
	}
	return true
}

// leadRun runs the records of ops from the first while each one's
// operands are uniform (a tile's for a matrix copy) and it needs nothing
// but the leader, following branches to their targets' records, and
// reports whether it ran any; the leader's pc is where lockstep goes on.
// The lockstep loop has counted the first instruction's step.
func (wg *wgState) leadRun(m *sgMeta, ops []uop) (bool, error) {
	st := m.st
	ld := m.sg[0]
	r := ld.regs
	x := wg.x
	left, pc := m.left+1, ld.pc
	ran := false
next:
	for k := range ops {
		o := &ops[k]
		if left < int64(o.n) {
			break next
		}
		switch o.k {
		case fNoFast:
		case fLoad32:
			if !isUni(st[o.a]) {
				break next
			}
			v, ok := ld.load32(r[o.a])
			if !ok {
				break next
			}
			r[o.res] = v
			st[o.res] = sLead
		case fCopy:
			switch {
			case st[o.a] == sTile:
				m.tiles[o.res] = m.tiles[o.a]
				setSt(st, o.res, o.x, sTile)
			case o.x == 1 && isUni(st[o.a]):
				r[o.res] = r[o.a]
				st[o.res] = sLead
			case o.x > 1 && uniformRange(st[o.a:o.a+o.x]):
				copy(r[o.res:o.res+o.x], r[o.a:o.a+o.x])
				setSt(st, o.res, o.x, sLead)
			default:
				break next
			}
		case fBranch, fCond:
			j := 0
			if o.k == fCond {
				if !isUni(st[o.a]) {
					break next
				}
				if r[o.a] == 0 {
					j = 1
				}
			}
			left -= int64(o.n)
			ran = true
			e := o.c.e[j]
			if e.exit|e.back|e.enter != 0 {
				ld.follow(e)
			}
			pc = e.pc
			ld.pc = pc
			if e.back != 0 && x.stop.Load() {
				m.left = left
				return true, errStopped
			}
			if ops = o.c.tgt[j]; ops == nil {
				m.left = left
				return true, nil
			}
			goto next
		case fQuick:
			m.left = left - 1
			if !wg.coopQuick(o.c.in, o.c.in.cq, m) {
				break next
			}
			left = m.left - int64(o.n-1)
			pc += o.n
			ran = true
			if x.stop.Load() {
				m.left, ld.pc = left, pc
				return true, errStopped
			}
			continue
		default:
			if o.inv != 0 && int(o.inv) < len(m.inv) && m.inv[o.inv].ok {
				mm := &m.inv[o.inv]
				r[o.res] = mm.addr
				st[o.res] = sLead
				if o.k == fChainLoad {
					v := mm.v
					if !mm.push {
						var ok bool
						if v, ok = ld.load32(mm.addr); !ok {
							break next
						}
					}
					r[o.x] = v
					st[o.x] = sLead
				}
				break
			}
			switch o.uk {
			case 1:
				if !isUni(st[o.us[0]]) {
					break next
				}
			case 2:
				if !isUni(st[o.us[0]]) || !isUni(st[o.us[1]]) {
					break next
				}
			default:
				if !uniform(st, o.c.uses) {
					break next
				}
			}
			switch o.k {
			case fIAdd, fISub, fIMul, fAnd, fULT, fSLT, fIEq:
				r[o.res] = intOp(o.k, o.m, r[o.a], r[o.b])
			case fExtract:
				r[o.res] = r[o.a+o.x]
			case fChain, fChainLoad:
				addr, ok := chainAddr(r, o.a, o.ch)
				if !ok {
					break next
				}
				var v uint64
				if o.k == fChainLoad {
					if v, ok = ld.load32(addr); !ok {
						// The general loop runs both, the load faulting.
						break next
					}
					r[o.x] = v
					st[o.x] = sLead
				}
				r[o.res] = addr
				if o.inv != 0 {
					m.keepInv(o, addr, v)
				}
			}
			st[o.res] = sLead
		}
		left -= int64(o.n)
		pc += o.n
		ran = true
	}
	if !ran {
		left--
	}
	m.left, ld.pc = left, pc
	return ran, nil
}

// keepInv keeps what record o (uop.inv) computed: its address, and where
// it loaded from the push constants, the value.
func (m *sgMeta) keepInv(o *uop, addr, v uint64) {
	if int(o.inv) >= len(m.inv) {
		m.inv = append(m.inv, make([]invMemo, int(o.inv)+1-len(m.inv))...)
	}
	m.inv[o.inv] = invMemo{ok: true, push: o.k == fChainLoad && addr>>56 == regPush, addr: addr, v: v}
}

// chainAddr is the address of access chain c (without descriptors) from
// the base pointer in slot base; false where an index is out of bounds.
func chainAddr(r []uint64, base int32, c *chain) (uint64, bool) {
	addr := r[base] + uint64(c.off)
	for _, s := range c.steps {
		k := sext(r[s.slot], s.w)
		if s.bound > 0 && (k < 0 || k >= int64(s.bound)) {
			return 0, false
		}
		addr += uint64(k * int64(s.stride))
	}
	return addr, true
}

// load32 reads the 32 bits at addr in a buffer or the push constants;
// false where addr is elsewhere or the bytes are not all there.
func (l *lane) load32(addr uint64) (uint64, bool) {
	off := addr & (1<<offBits - 1)
	var b []byte
	switch addr >> 56 {
	case regBuf:
		idx := (addr >> offBits) & 0xffff
		if idx >= uint64(len(l.x.bufs)) || l.x.bufs[idx] == nil {
			return 0, false
		}
		b = l.x.bufs[idx].data
	case regPush:
		if (addr>>offBits)&0xffff != 0 {
			return 0, false
		}
		b = l.x.push
	default:
		return 0, false
	}
	if off+4 > uint64(len(b)) {
		return 0, false
	}
	return uint64(binary.LittleEndian.Uint32(b[off:])), true
}
