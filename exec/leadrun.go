package exec

import "encoding/binary"

// Leader runs. In lockstep an instruction whose operands are the same in
// every invocation runs once, in the leader (lockstep.go's once path);
// the scalar bookkeeping around cooperative operations (a loop counter, a
// pointer computed from it and push constants, the comparison that ends
// the loop) is all such instructions, and the general loop spends most of
// a loop iteration's time choosing that path again for each. leadRuns
// gives each instruction of a sequence of the simplest ones (integer
// arithmetic, comparisons, one-slot copies and extracts, access chains
// without descriptors, 32-bit integer loads, nops) compact records of
// what the leader does, which leadRun runs one after another while their
// operands stay uniform, as the once path would one at a time: the same
// results, left in the leader (sLead), and a step each. The first record
// that declines (an operand that varies, an address not in a buffer or
// the push constants, an index out of bounds, the budget) leaves its
// instruction to the general loop, which runs it, faulting where it must.

// uop is one instruction of a leader run: its inlined path (instr.fast;
// fNoFast for a nop), slots, and how its uses are tested for uniformity
// (instr.uk, us and uses).
type uop struct {
	k    uint8
	uk   uint8
	res  int32
	a, b int32
	us   [2]int32
	sub  int32
	m    uint64
	uses []int32
	ch   *chain
}

// leadOp reports whether in may be a record of a leader run. A fused
// load (fuse.go) ends a run: it runs its instructions together where
// some of them vary, so lockstep has to reach it as its first. A fused
// chain declines where its first operand is uniform, which is where a
// run takes it.
func (p *prog) leadOp(in *instr) bool {
	if in.nop {
		return true
	}
	if in.w != 0 || in.coll || in.fu != nil || p.fe != nil && p.fe.ins[in] != 0 {
		return false
	}
	switch in.lk {
	case lkPure:
		switch in.fast {
		case fIAdd, fISub, fIMul, fAnd, fULT, fSLT, fIEq, fExtract:
			return in.rn == 1
		case fCopy:
			return in.rn == 1 && in.m == 1
		case fChain:
			return in.rn == 1
		}
	case lkLoad:
		return in.fast == fLoad32 && in.rn == 1
	}
	return false
}

// leadRuns gives every instruction of a sequence of at least two leadOps
// the records from it to the sequence's end (instr.ur).
func (p *prog) leadRuns() {
	code := p.code
	for k := 0; k < len(code); {
		e := k
		for e < len(code) && p.leadOp(&code[e]) {
			e++
		}
		if e-k < 2 {
			k = max(e, k+1)
			continue
		}
		ops := make([]uop, e-k)
		for i := range ops {
			in := &code[k+i]
			o := &ops[i]
			if in.nop {
				continue
			}
			o.k, o.uk, o.us, o.uses = in.fast, in.uk, in.us, in.uses
			o.res, o.sub, o.m, o.ch = in.res, int32(in.sub), in.m, in.ch
			if len(in.a) > 0 {
				o.a = in.a[0]
			}
			if len(in.a) > 1 {
				o.b = in.a[1]
			}
		}
		for i := range ops {
			code[k+i].ur = ops[i:]
		}
		k = e
	}
}

// leadRun runs the records of ops from the first while each one's
// operands are uniform and it needs nothing but the leader, and returns
// how many ran. The lockstep loop has counted the first one's step; the
// others are counted here.
func (m *sgMeta) leadRun(ops []uop) int32 {
	st := m.st
	ld := m.sg[0]
	r := ld.regs
	for k := range ops {
		if k > 0 && m.left < 1 {
			return int32(k)
		}
		o := &ops[k]
		switch o.k {
		case fNoFast:
		case fLoad32:
			if !isUni(st[o.a]) {
				return int32(k)
			}
			v, ok := ld.load32(r[o.a])
			if !ok {
				return int32(k)
			}
			r[o.res] = v
			st[o.res] = sLead
		default:
			switch o.uk {
			case 1:
				if !isUni(st[o.us[0]]) {
					return int32(k)
				}
			case 2:
				if !isUni(st[o.us[0]]) || !isUni(st[o.us[1]]) {
					return int32(k)
				}
			default:
				if !uniform(st, o.uses) {
					return int32(k)
				}
			}
			switch o.k {
			case fIAdd:
				r[o.res] = (r[o.a] + r[o.b]) & o.m
			case fISub:
				r[o.res] = (r[o.a] - r[o.b]) & o.m
			case fIMul:
				r[o.res] = r[o.a] * r[o.b] & o.m
			case fAnd:
				r[o.res] = r[o.a] & r[o.b]
			case fULT:
				r[o.res] = b2u(r[o.a] < r[o.b])
			case fSLT:
				r[o.res] = b2u(sext(r[o.a], int(o.m)) < sext(r[o.b], int(o.m)))
			case fIEq:
				r[o.res] = b2u(r[o.a] == r[o.b])
			case fExtract:
				r[o.res] = r[o.a+o.sub]
			case fCopy:
				r[o.res] = r[o.a]
			case fChain:
				addr, ok := chainAddr(r, o.a, o.ch)
				if !ok {
					return int32(k)
				}
				r[o.res] = addr
			}
			st[o.res] = sLead
		}
		if k > 0 {
			m.left--
		}
	}
	return int32(len(ops))
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
