package exec

import (
	"encoding/binary"

	"github.com/coopshader/coop/spirv"
)

// Solo runs. An invocation that takes a side of a divergent region runs
// it on its own (region.go), and the interpreter's bookkeeping per
// instruction (the step test, the collective test, a call per
// instruction, pc kept in memory, a whole instr read for a few fields)
// costs more than the work of the integer instructions a side's loop is
// made of (bench/reduce_subgroup's lane-0 loop). So each block of a
// region's sides is also compiled at load time into a solo run: its
// instructions as small records in one slice, nops (promoted loads
// sharing their variable's slots) left out as they only cost a step,
// the commonest integer instructions inline, the others through their
// inlined path or vector handler for the invocation alone, then the
// block's branch. A run spends its steps at once where the invocation
// has them all; where it has not, and from an instruction whose handler
// declines (an address out of range: the interpreter then faults there),
// the interpreter goes on, with the steps of the instructions before it
// spent, so results, faults and step counts are lane.run's.

// soloOp is one instruction of a solo run: an inline kind (fIAdd ...
// fCopy of one slot), soloCall (its inlined path, its vector handler,
// else lane.one), soloCopy (a copy of m slots), soloChain (an access
// chain of one index: off plus the index, of width m, times stride,
// checked against bound where positive), soloLoad32 and soloStore32 (32-bit
// integers in plain memory), a branch (soloBr, soloCond, soloSwitch) or
// a return (soloRet, a the value's slots or -1);
// pc is its instruction's, pre the instructions of the run before it.
// The inline memory kinds that decline go the soloCall way.
type soloOp struct {
	kind    uint8
	res     int32
	a, b    int32
	pc      int32
	pre     int32
	m       uint64
	off     uint64
	stride  int64
	bound   int64
	handler vecOp
}

const (
	soloCall uint8 = 100 + iota
	soloCopy
	soloChain
	soloLoad32
	soloStore32
	soloBr
	soloCond
	soloSwitch
	soloRet
)

// soloRun is the solo run starting at a block: its instructions through
// the branch ending it, and on through the blocks an unconditional
// branch without phis leads to (a loop's back edge too, each block once),
// n of them counting the nops and the branches followed.
type soloRun struct {
	n   int64
	ops []soloOp
}

// soloable reports whether in can be part of a solo run: a branch that
// stays in the function, or an instruction without collective or work
// beyond its step (those stay with the interpreter).
func soloable(in *instr) bool {
	switch in.op {
	case spirv.OpBranch, spirv.OpBranchConditional, spirv.OpSwitch, spirv.OpReturn, spirv.OpReturnValue:
		return true
	case spirv.OpFunctionCall, spirv.OpUnreachable, opHalt,
		spirv.OpKill, spirv.OpTerminateInvocation:
		return false
	}
	return !in.coll && in.w == 0
}

// addSolo compiles the solo runs of the blocks of the regions' sides
// (regionIf.solo). A run never goes on into a region's merge block,
// where the invocation stops.
func (p *prog) addSolo() {
	stops := map[int32]bool{}
	for k := range p.code {
		if ri := p.code[k].region; ri != nil {
			stops[ri.merge] = true
		}
	}
	for k := range p.code {
		ri := p.code[k].region
		if ri == nil {
			continue
		}
		for _, pc := range ri.solo {
			if p.solo == nil {
				p.solo = make([]*soloRun, len(p.code))
			}
			if p.solo[pc] == nil {
				p.solo[pc] = p.soloRun(pc, stops)
			}
		}
	}
}

// soloRun compiles the run starting at block start.
func (p *prog) soloRun(start int32, stops map[int32]bool) *soloRun {
	q := &soloRun{}
	took := map[int32]bool{start: true} // the blocks the run takes in
	for pc := start; ; pc++ {
		in := &p.code[pc]
		o := soloOp{kind: in.fast, res: in.res, pc: pc, pre: int32(q.n), m: in.m, handler: in.vec}
		q.n++
		if len(in.a) > 0 {
			o.a = in.a[0]
		}
		if len(in.a) > 1 {
			o.b = in.a[1]
		}
		switch {
		case in.op == spirv.OpBranch:
			if e := in.e[0]; len(e.moves) == 0 && !took[e.pc] && !stops[e.pc] {
				took[e.pc] = true
				pc = e.pc - 1
				continue
			}
			o.kind = soloBr
		case in.op == spirv.OpBranchConditional:
			o.kind = soloCond
		case in.op == spirv.OpSwitch:
			o.kind = soloSwitch
		case in.op == spirv.OpReturn:
			o.kind, o.a = soloRet, -1
		case in.op == spirv.OpReturnValue:
			o.kind = soloRet
		case in.nop:
			continue
		case in.fast == fExtract:
			o.a += int32(in.sub)
		case in.fast == fCopy && in.m != 1:
			o.kind = soloCopy
		case in.fast == fCopy:
		case in.fast >= fIAdd && in.fast <= fIEq:
		case in.fast == fChain && len(in.ch.steps) == 1:
			st := in.ch.steps[0]
			o.kind, o.b, o.m = soloChain, st.slot, uint64(st.w)
			o.off, o.stride, o.bound = uint64(in.ch.off), int64(st.stride), int64(st.bound)
		case in.fast == fLoad32:
			o.kind = soloLoad32
		case in.fast == fStore32:
			o.kind = soloStore32
		default:
			o.kind = soloCall
		}
		q.ops = append(q.ops, o)
		if o.kind >= soloBr {
			return q
		}
	}
}

// runSolo runs l, on a side of a region, up to its halt: solo runs where
// its block has one and it has the steps for the whole run, the
// interpreter otherwise. The runs keep no loop bookkeeping (lane.follow):
// a side leaves every loop it enters, and has no collective whose
// scheduling would read it; the interpreter, where it takes over, finds
// no entry for a loop a run entered and leaves its list as it is.
func (l *lane) runSolo() error {
	runs, code := l.p.solo, l.p.code
	if runs == nil {
		return l.run()
	}
	r := l.regs
	for {
		q := runs[l.pc]
		if q == nil || l.steps < q.n {
			return l.run()
		}
		steps := l.steps
		l.steps -= q.n
		var e *edge
		for k := range q.ops {
			o := &q.ops[k]
			switch o.kind {
			case fIAdd, fISub, fIMul, fAnd, fULT, fSLT, fIEq:
				r[o.res] = intOp(o.kind, o.m, r[o.a], r[o.b])
			case fExtract, fCopy:
				r[o.res] = r[o.a]
			case soloCopy:
				copy(r[o.res:o.res+int32(o.m)], r[o.a:o.a+int32(o.m)])
			case soloChain:
				k := sext(r[o.b], int(o.m))
				if o.bound <= 0 || k >= 0 && k < o.bound {
					r[o.res] = r[o.a] + o.off + uint64(k*o.stride)
					continue
				}
				if err := l.soloCall(o, code, steps, q.n); err != nil {
					return err
				}
			case soloLoad32:
				// Workgroup memory first, inline (a reduction's partial sums).
				if a := r[o.a]; a>>offBits == regWG<<(56-offBits) && a&(1<<offBits-1)+4 <= uint64(len(l.gmem)) {
					r[o.res] = uint64(binary.LittleEndian.Uint32(l.gmem[a&(1<<offBits-1):]))
					continue
				}
				if b := l.plainMem(r[o.a], 4); b != nil {
					r[o.res] = uint64(binary.LittleEndian.Uint32(b))
					continue
				}
				if err := l.soloCall(o, code, steps, q.n); err != nil {
					return err
				}
			case soloStore32:
				if b := l.plainMem(r[o.a], 4); b != nil {
					binary.LittleEndian.PutUint32(b, uint32(r[o.b]))
					continue
				}
				if err := l.soloCall(o, code, steps, q.n); err != nil {
					return err
				}
			case soloCall:
				if err := l.soloCall(o, code, steps, q.n); err != nil {
					return err
				}
			case soloBr:
				e = code[o.pc].e[0]
			case soloCond:
				if r[o.a] != 0 {
					e = code[o.pc].e[0]
				} else {
					e = code[o.pc].e[1]
				}
			case soloSwitch:
				e = code[o.pc].sw.pick(r[o.a])
			case soloRet:
				// A region ending at its function's return, in a called
				// function (the interpreter handles anything else).
				n := len(l.stack) - 1
				if n < 0 {
					l.pc, l.steps = o.pc, steps-int64(o.pre)
					return l.run()
				}
				f := l.stack[n]
				l.stack = l.stack[:n]
				l.loops = l.loops[:min(int(f.loops), len(l.loops))]
				if o.a >= 0 {
					copy(r[f.res:f.res+f.n], r[o.a:o.a+f.n])
				}
				l.pc = f.ret
			}
		}
		if e != nil {
			l.pc = e.pc
			if len(e.moves) > 0 {
				phiMoves(l, e.moves)
			}
		}
		if l.pc == l.halt {
			return nil
		}
	}
}

// soloCall runs the instruction of o as the interpreter does (its inlined
// path, its vector handler, else the general path); steps is what l had
// before the run of n steps it is in. The general path finds l's steps as
// the interpreter would leave them (this instruction and those before it
// spent) and its pc at the instruction, so that a fault is the
// interpreter's.
func (l *lane) soloCall(o *soloOp, code []instr, steps, n int64) error {
	in := &code[o.pc]
	if in.fast != fNoFast && l.fastOne(in) || o.handler != nil && o.handler(l.self[:], in) {
		return nil
	}
	l.pc, l.steps = o.pc, steps-int64(o.pre)-1
	if err := l.one(in); err != nil {
		return err
	}
	l.steps = steps - n
	return nil
}
