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

// uop is one record of a leader run: an instruction's inlined path
// (instr.fast; fNoFast for nops alone, fChainLoad for an access chain and
// the load of its result), its slots, how its uses are tested for
// uniformity (instr.uk, us and uses), and n, the instructions it covers
// (the nops after it among them, each a step).
type uop struct {
	k     uint8
	uk    uint8
	n     int32
	res   int32
	a, b  int32
	sub   int32
	lres  int32 // fChainLoad: the load's result
	us    [2]int32
	m     uint64
	uses  []int32
	ch    *chain
	slots int32 // fCopy: the slots copied
}

// fChainLoad is a leader run's access chain whose result the next
// instruction loads (fLoad32).
const fChainLoad = fCopy + 1

// leadOp reports whether in may be in a leader run. A fused load
// (fuse.go) ends a run: it runs its instructions together where some of
// them vary, so lockstep has to reach it as its first. A fused chain
// declines where its first operand is uniform, which is where a run takes
// it.
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
		case fIAdd, fISub, fIMul, fAnd, fULT, fSLT, fIEq, fExtract, fChain:
			return in.rn == 1
		case fCopy:
			// Of one slot, or of a cooperative matrix (a tile moves).
			return in.rn == int32(in.m) && (in.m == 1 || in.t.kind == kCoopMat)
		}
	case lkLoad:
		return in.fast == fLoad32 && in.rn == 1
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
		if e-k < 2 {
			k = max(e, k+1)
			continue
		}
		var ops []uop
		var at []int
		for i := k; i < e; {
			in := &code[i]
			at = append(at, i)
			o := uop{n: 1}
			if !in.nop {
				o.k, o.uk, o.us, o.uses = in.fast, in.uk, in.us, in.uses
				o.res, o.sub, o.m, o.ch = in.res, int32(in.sub), in.m, in.ch
				o.slots = in.rn
				if len(in.a) > 0 {
					o.a = in.a[0]
				}
				if len(in.a) > 1 {
					o.b = in.a[1]
				}
			}
			i++
			for i < e && code[i].nop {
				o.n++
				i++
			}
			if o.k == fChain && i < e && code[i].fast == fLoad32 && code[i].lk == lkLoad && code[i].a[0] == o.res {
				o.k, o.lres = fChainLoad, code[i].res
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
}

// leadRun runs the records of ops from the first while each one's
// operands are uniform (a tile's for a matrix copy) and it needs nothing
// but the leader, and returns how many instructions that was. The
// lockstep loop has counted the first instruction's step.
func (m *sgMeta) leadRun(ops []uop) int32 {
	st := m.st
	ld := m.sg[0]
	r := ld.regs
	m.left++
	var done int32
	for k := range ops {
		o := &ops[k]
		if m.left < int64(o.n) {
			break
		}
		switch o.k {
		case fNoFast:
		case fLoad32:
			if !isUni(st[o.a]) {
				goto stop
			}
			v, ok := ld.load32(r[o.a])
			if !ok {
				goto stop
			}
			r[o.res] = v
			st[o.res] = sLead
		case fCopy:
			switch {
			case st[o.a] == sTile:
				m.tiles[o.res] = m.tiles[o.a]
				setSt(st, o.res, o.slots, sTile)
			case o.slots == 1 && isUni(st[o.a]):
				r[o.res] = r[o.a]
				st[o.res] = sLead
			case o.slots > 1 && uniformRange(st[o.a:o.a+o.slots]):
				copy(r[o.res:o.res+o.slots], r[o.a:o.a+o.slots])
				setSt(st, o.res, o.slots, sLead)
			default:
				goto stop
			}
		default:
			switch o.uk {
			case 1:
				if !isUni(st[o.us[0]]) {
					goto stop
				}
			case 2:
				if !isUni(st[o.us[0]]) || !isUni(st[o.us[1]]) {
					goto stop
				}
			default:
				if !uniform(st, o.uses) {
					goto stop
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
			case fChain, fChainLoad:
				addr, ok := chainAddr(r, o.a, o.ch)
				if !ok {
					goto stop
				}
				if o.k == fChainLoad {
					v, ok := ld.load32(addr)
					if !ok {
						// The general loop runs both, the load faulting.
						goto stop
					}
					r[o.lres] = v
					st[o.lres] = sLead
				}
				r[o.res] = addr
			}
			st[o.res] = sLead
		}
		m.left -= int64(o.n)
		done += o.n
	}
stop:
	if done == 0 {
		m.left--
	}
	return done
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
