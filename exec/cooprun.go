package exec

import "github.com/coopshader/coop/spirv"

// Quick cooperative instructions. In a loop of 16x16x16 tiles the general
// lockstep path of a cooperative instruction (lockColl, coopExec: the
// checks of every kind of instruction, layout and operand) costs about
// what loading a tile does. The commonest two, a row-major fp16 load from
// a buffer and a float32 multiply-add of tiles, get a record of what
// never changes (coopQuick, chosen at load time), and lockstep runs them
// from it where everything the general path would check holds: a full
// subgroup, its equal share of the work left to every invocation
// (coopEven), pointer and stride the same everywhere, the bytes in the
// buffer, the operands tiles (an accumulator the same in every invocation
// too). Anything else, faults included, goes the general way, before any
// effect.

// coopQuick is an instruction's quick path (instr.cq).
type coopQuick struct {
	mulAdd bool
	share  int64 // the work each invocation spends (coopEven)
	cm     *coopMem
	mul    *coopMul
}

// quickCoops gives the instructions that have one their quick path.
func (p *prog) quickCoops() {
	for k := range p.code {
		in := &p.code[k]
		in.cq = nil
		if !in.coll || in.wg || in.w <= 0 || p.sgSize <= 0 {
			continue
		}
		q := &coopQuick{share: (in.w + int64(p.sgSize) - 1) / int64(p.sgSize)}
		switch a := in.aux.(type) {
		case *coopMem:
			e := a.mt.elem
			if in.op != spirv.OpCooperativeMatrixLoadKHR || a.blocked != nil || a.colMajor || a.stride < 0 ||
				a.mt.nibbles() || e.kind != kFloat || e.ff != f16 {
				continue
			}
			q.cm = a
		case *coopMul:
			rt := in.t.elem
			if in.op != spirv.OpCooperativeMatrixMulAddKHR || rt.kind != kFloat || rt.ff != f32 ||
				a.a.elem.kind != kFloat || a.b.elem.kind != kFloat || a.a.elem.width > 16 || a.b.elem.width > 16 ||
				a.c.elem.kind != kFloat {
				continue
			}
			q.mulAdd, q.mul = true, a
		default:
			continue
		}
		in.cq = q
	}
}

// coopQuick runs in, which has quick path q, and reports whether it did;
// where it did not, the general path has everything to do (a tile taken
// for a load that found a NaN is held by no slot, and the pool has it
// back at its next reclaim).
func (wg *wgState) coopQuick(in *instr, q *coopQuick, m *sgMeta) bool {
	if m.wide || len(m.sg) != wg.x.p.sgSize || m.left < q.share {
		return false
	}
	st := m.st
	ld := m.sg[0]
	if q.mulAdd {
		cm := q.mul
		if st[cm.slotA] != sTile || st[cm.slotB] != sTile {
			return false
		}
		M, N, K := in.t.rows, in.t.cols, cm.a.cols
		sc := &ld.wg.scratch
		if st[cm.slotC] == sTile {
			wg.touched = true
			m.left -= q.share
			mulAddF32(sc, matIO{act: m.sg, m: m}, in, cm, M, N, K)
			return true
		}
		n := int32(cm.c.slots)
		if !uniformRange(st[cm.slotC : cm.slotC+n]) {
			return false
		}
		// An accumulator the same in every invocation (a loop's first,
		// made from a constant): its elements from the leader's slots,
		// invocation i holding elements [i*n, i*n+n).
		wg.touched = true
		m.left -= q.share
		c := sc.f32(2, M*N)
		own := ld.regs[cm.slotC : cm.slotC+n]
		for e := 0; e < len(c); e += int(n) {
			toF32s(c[e:min(e+int(n), len(c))], own, cm.c.elem.ff)
		}
		io := matIO{act: m.sg, m: m}
		t := m.newTile(in.t)
		t.f = growF(t.f, M*N)
		a := io.f32(cm.slotA, cm.a.elem.ff, sc.f32(0, M*K))
		b := io.f32(cm.slotB, cm.b.elem.ff, sc.f32(1, K*N))
		mulAddF32Blocked(a, b, c, t.f, M, N, K)
		t.has = hasF
		m.tiles[in.res] = t
		setSt(st, in.res, int32(in.t.slots), sTile)
		return true
	}
	cm := q.cm
	a := in.a[0]
	if !isUni(st[a]) || !isUni(st[cm.stride]) {
		return false
	}
	addr := ld.regs[a]
	stride := sext(ld.regs[cm.stride], cm.strideW)
	if stride < 0 || stride > 1<<30 || addr>>56 != regBuf {
		return false
	}
	mt := cm.mt
	R, C := mt.rows, mt.cols
	ls := int(stride) * cm.pes
	idx, off := (addr>>offBits)&0xffff, addr&(1<<offBits-1)
	if idx >= uint64(len(wg.x.bufs)) || wg.x.bufs[idx] == nil {
		return false
	}
	b := wg.x.bufs[idx].data
	if ext := uint64((R-1)*ls + 2*C); off > uint64(len(b)) || ext > uint64(len(b))-off {
		return false
	}
	t := m.newTile(mt)
	t.f, t.has = growF(t.f, R*C), hasF
	if !loadHalfValues(b[off:], ls, R, C, t.f) {
		return false // a NaN, or no F16C
	}
	wg.touched = true
	m.left -= q.share
	m.tiles[in.res] = t
	setSt(st, in.res, int32(mt.slots), sTile)
	return true
}
