package exec

import (
	"encoding/binary"

	"github.com/coopshader/coop/spirv"
)

// Affine rows. Many values that vary between the invocations of a
// subgroup in lockstep are an affine function of their
// LocalInvocationId: the built-in ids themselves, what integer
// additions, subtractions and multiplications by uniform values make of
// them, and the access chains they index (base + gid*4). Such a slot has
// the state sAff: instead of its row, the subgroup keeps the function
// (c + dx*x + dy*y + dz*z, wrapping, in the value's width), and its row
// is written only where something needs the values one by one
// (materialize). A load or store through an sAff pointer checks the
// range of its addresses once and then reads or writes each run of
// invocations with consecutive x (xrun) as a strided or contiguous
// block; where the range is not provably inside one buffer or the
// workgroup memory, the pointer's row is written and the per-invocation
// path runs as before, so faults are those it reports.

// affine is c + d·(x, y, z) in two's complement, the values of width w
// (32: the low 32 bits, kept sign-extended so the numbers stay small).
type affine struct {
	c int64
	d [3]int64
	w uint8
	// filled: the slot's row holds the values too (fill).
	filled bool
}

// xrun is the invocations i0 .. i0+n-1 of a subgroup's rows, whose
// LocalInvocationIds are (x+j, y, z).
type xrun struct {
	i0, n   int32
	x, y, z int64
}

// Bounds within which an affine function's range is computed without
// overflow: |c| <= affMaxC, |d| <= affMaxD, ids below affMaxID.
const (
	affMaxC  = 1 << 62
	affMaxD  = 1 << 40
	affMaxID = 1 << 20
)

// initRuns splits the subgroup's invocations into xruns and notes the
// ranges of their ids.
func (m *sgMeta) initRuns() {
	m.runs = m.runs[:0]
	for i, l := range m.sg {
		x, y, z := int64(l.lxyz[0]), int64(l.lxyz[1]), int64(l.lxyz[2])
		if k := len(m.runs) - 1; k >= 0 {
			r := &m.runs[k]
			if r.y == y && r.z == z && r.x+int64(r.n) == x {
				r.n++
				continue
			}
		}
		m.runs = append(m.runs, xrun{i0: int32(i), n: 1, x: x, y: y, z: z})
	}
	m.box = [3][2]int64{{affMaxID, -1}, {affMaxID, -1}, {affMaxID, -1}}
	for _, r := range m.runs {
		for k, v := range [3][2]int64{{r.x, r.x + int64(r.n) - 1}, {r.y, r.y}, {r.z, r.z}} {
			m.box[k][0] = min(m.box[k][0], v[0])
			m.box[k][1] = max(m.box[k][1], v[1])
		}
	}
	m.boxOK = len(m.runs) > 0 && max(m.box[0][1], m.box[1][1], m.box[2][1]) < affMaxID
}

// canon keeps a 32-bit function's numbers sign-extended.
func (a affine) canon() affine {
	if a.w == 32 {
		a.c = int64(int32(a.c))
		for k := range a.d {
			a.d[k] = int64(int32(a.d[k]))
		}
	}
	return a
}

// at is a's number (before wrapping to w) at run r's first invocation.
func (a *affine) at(r *xrun) int64 {
	return a.c + a.d[0]*r.x + a.d[1]*r.y + a.d[2]*r.z
}

// rng gives the least and greatest number a takes over the subgroup's
// invocations, as integers (no wrapping); ok is false where that is not
// known to fit in 64 bits.
func (m *sgMeta) rng(a *affine) (lo, hi int64, ok bool) { return m.rngOf(a.c, &a.d) }

// rngOf is rng of c + d·(x, y, z).
func (m *sgMeta) rngOf(c int64, ds *[3]int64) (lo, hi int64, ok bool) {
	if !m.boxOK || uint64(c+affMaxC) > 2*affMaxC {
		return 0, 0, false
	}
	lo, hi = c, c
	for k, d := range ds {
		if uint64(d+affMaxD) > 2*affMaxD {
			return 0, 0, false
		}
		if d >= 0 {
			lo += d * m.box[k][0]
			hi += d * m.box[k][1]
		} else {
			lo += d * m.box[k][1]
			hi += d * m.box[k][0]
		}
	}
	return lo, hi, true
}

// setAff makes slot s hold a (a handler's result: lockstep then leaves
// the state as it is).
func (m *sgMeta) setAff(s int32, a affine) {
	m.ensureAff()
	if a.w == 32 {
		a = a.canon()
	}
	a.filled = false
	m.aff[s] = a
	m.st[s] = sAff
	m.made = true
}

// ensureAff gives the subgroup its table of functions.
func (m *sgMeta) ensureAff() {
	if m.aff == nil {
		m.aff = make([]affine, len(m.st))
	}
}

// materialize makes the sAff slot s an ordinary row (sVec).
func (m *sgMeta) materialize(s int32) {
	m.fill(s)
	m.st[s] = sVec
}

// fill writes the values of the sAff slot s into its row, which it keeps
// (the function stays known for the loads, stores and chains to come).
func (m *sgMeta) fill(s int32) {
	a := &m.aff[s]
	if a.filled {
		return
	}
	a.filled = true
	r := m.row(s)
	mk := mask(int(a.w))
	for i := range m.runs {
		u := &m.runs[i]
		v := a.at(u)
		d := r[u.i0 : u.i0+u.n]
		for j := range d {
			d[j] = uint64(v) & mk
			v += a.d[0]
		}
	}
}

// affOf gives slot s as an affine function of width w: its own, or the
// constant it holds everywhere (no slopes).
func (m *sgMeta) affOf(s int32, w uint8) (c int64, d *[3]int64, ok bool) {
	switch v := m.st[s]; {
	case v == sAff:
		a := &m.aff[s]
		return a.c, &a.d, a.w == w
	case isUni(v):
		c = int64(m.sg[0].regs[s])
		if w == 32 {
			c = int64(int32(c))
		}
		return c, &noSlope, true
	}
	return 0, nil, false
}

var noSlope [3]int64

// affRow wraps the row handler of the integer operations that keep
// functions affine (a sum, a difference, a product or left shift by a
// uniform value, of 32- or 64-bit scalars): where an operand is sAff and
// the other uniform or sAff, the result is sAff; otherwise r runs.
func affRow(in *instr, r rowOp) rowOp {
	if r == nil || in.w > 0 || in.t == nil || in.t.kind != kInt || in.t.slots != 1 || len(in.a) != 2 ||
		in.t.width != 32 && in.t.width != 64 {
		return r
	}
	w := uint8(in.t.width)
	op := in.op
	switch op {
	case spirv.OpIAdd, spirv.OpISub:
	case spirv.OpIMul, spirv.OpShiftLeftLogical:
	default:
		return r
	}
	return func(m *sgMeta, in *instr) bool {
		x, y := in.a[0], in.a[1]
		ax, ay := m.st[x] == sAff, m.st[y] == sAff
		if !ax && !ay || ax && ay && (op == spirv.OpIMul || op == spirv.OpShiftLeftLogical) || !ax && op == spirv.OpShiftLeftLogical {
			return r(m, in)
		}
		ca, da, ok1 := m.affOf(x, w)
		cb, db, ok2 := m.affOf(y, w)
		if !ok1 || !ok2 {
			return r(m, in)
		}
		// Written in place, field by field (copies of the whole struct
		// cost store-forwarding stalls here): the result's slot is
		// neither operand's.
		var c, d0, d1, d2 int64
		switch op {
		case spirv.OpIAdd:
			c, d0, d1, d2 = ca+cb, da[0]+db[0], da[1]+db[1], da[2]+db[2]
		case spirv.OpISub:
			c, d0, d1, d2 = ca-cb, da[0]-db[0], da[1]-db[1], da[2]-db[2]
		default:
			var k int64
			switch {
			case op == spirv.OpShiftLeftLogical:
				k = int64(1) << (uint64(cb) & uint64(w-1))
			case ax:
				k = cb
			default:
				k, ca, da = ca, cb, db
			}
			c, d0, d1, d2 = ca*k, da[0]*k, da[1]*k, da[2]*k
		}
		if w == 32 {
			c, d0, d1, d2 = int64(int32(c)), int64(int32(d0)), int64(int32(d1)), int64(int32(d2))
		}
		res := &m.aff[in.res]
		res.c, res.d[0], res.d[1], res.d[2] = c, d0, d1, d2
		res.w, res.filled = w, false
		m.st[in.res] = sAff
		m.made = true
		return true
	}
}

// affChain computes an access chain whose base and indices are sAff or
// uniform as an sAff address, where every index provably lies within its
// bound (and is its own sign extension); false leaves it to rChain's
// loop.
func (m *sgMeta) affChain(c *chain, in *instr) bool {
	st, lr := m.st, m.sg[0].regs
	// The sum is kept in locals and stored field by field (see affRow).
	var r0 int64
	var r [3]int64
	switch b := in.a[0]; {
	case isUni(st[b]):
		r0 = int64(lr[b])
	case st[b] == sAff && m.aff[b].w == 64:
		a := &m.aff[b]
		r0, r = a.c, a.d
	default:
		return false
	}
	r0 += int64(c.off)
	for _, s := range c.steps {
		stride := int64(s.stride)
		if isUni(st[s.slot]) {
			k := sext(lr[s.slot], s.w)
			if s.bound > 0 && uint64(k) >= uint64(s.bound) {
				return false
			}
			r0 += k * stride
			continue
		}
		if st[s.slot] != sAff {
			return false
		}
		x := &m.aff[s.slot]
		lo, hi, ok := m.rng(x)
		if !ok || int(x.w) != s.w || lo < 0 || s.w < 64 && hi >= 1<<(s.w-1) || s.bound > 0 && hi >= int64(s.bound) {
			return false
		}
		r0 += x.c * stride
		r[0] += x.d[0] * stride
		r[1] += x.d[1] * stride
		r[2] += x.d[2] * stride
	}
	m.ensureAff()
	a := &m.aff[in.res]
	a.c, a.d[0], a.d[1], a.d[2] = r0, r[0], r[1], r[2]
	a.w, a.filled = 64, false
	st[in.res] = sAff
	m.made = true
	return true
}

// affSpan finds the bytes the addresses of the sAff pointer slot s fall
// in, n bytes each, and the offset of the bytes' start in the address;
// nil where they do not provably lie within one buffer or the workgroup
// memory.
func (m *sgMeta) affSpan(s int32, n int64) ([]byte, int64) { return m.affSpanOf(&m.aff[s], n) }

// affSpanOf is affSpan of the function a.
func (m *sgMeta) affSpanOf(a *affine, n int64) ([]byte, int64) {
	if a.w != 64 {
		return nil, 0
	}
	lo, hi, ok := m.rng(a)
	if !ok || lo < 0 {
		return nil, 0
	}
	tag := lo &^ (1<<offBits - 1)
	if hi&^(1<<offBits-1) != tag {
		return nil, 0
	}
	buf, _ := m.span(uint64(lo))
	if buf == nil || hi-tag > int64(len(buf))-n {
		return nil, 0
	}
	return buf, tag
}

// affLoad runs a load of n bytes (1, 2, 4 or 8) through the sAff pointer
// in.a[0] into the result's row; false where affSpan finds no bytes.
func (m *sgMeta) affLoad(in *instr, n int64) bool {
	s := in.a[0]
	buf, tag := m.affSpan(s, n)
	if buf == nil {
		if !m.groupSpan(&m.aff[s], n) {
			return false
		}
		d := m.row(in.res)
		m.eachGroup(func(buf []byte, runs []xrun) { affLoadRuns(d, buf, runs, &m.aff[s], regWG<<56, n) })
		return true
	}
	affLoadRuns(m.row(in.res), buf, m.runs, &m.aff[s], tag, n)
	return true
}

// groupSpan reports whether the addresses of the sAff pointer a, n bytes
// each, lie in workgroup memory in a batch's row of several workgroups
// (multi), at the same offsets in each workgroup's (a does not depend on
// z, the workgroup's place in the batch), so that eachGroup may run the
// access on each one's memory.
func (m *sgMeta) groupSpan(a *affine, n int64) bool {
	if !m.multi || a.w != 64 || a.d[2] != 0 {
		return false
	}
	lo, hi, ok := m.rng(a)
	const tag = regWG << 56
	return ok && lo >= tag && hi&^(1<<offBits-1) == tag && hi-tag <= int64(len(m.sg[0].gmem))-n
}

// eachGroup runs f for each workgroup of a batch's row (multi) with its
// workgroup memory and its runs.
func (m *sgMeta) eachGroup(f func(buf []byte, runs []xrun)) {
	for runs := m.runs; len(runs) > 0; {
		k := 1
		for k < len(runs) && runs[k].z == runs[0].z {
			k++
		}
		f(m.sg[runs[0].i0].gmem, runs[:k])
		runs = runs[k:]
	}
}

// affLoadRuns reads the row d's values of n bytes from buf at a's addresses
// less tag (which the caller checked lie within buf), run by run. Apart
// from the big loops' functions, so that its loops keep their variables
// in registers.
//
//go:noinline
func affLoadRuns(d []uint64, buf []byte, runs []xrun, a *affine, tag, n int64) {
	var prev []uint64 // the last run's values, and where it read them
	po := int64(-1)
	dx := a.d[0]
	for i := 0; i < len(runs); i++ {
		u := &runs[i]
		o := a.at(u) - tag
		dd := d[u.i0 : u.i0+u.n]
		switch {
		case o == po && len(dd) == len(prev):
			// Rows of a tile read alike (an address not depending on y).
			copy(dd, prev)
		case n == 4 && dx == 0:
			v := uint64(binary.LittleEndian.Uint32(buf[o:]))
			for j := range dd {
				dd[j] = v
			}
		case n == 4 && dx == 4:
			load32s(dd, buf[o:])
		default:
			loadRun(dd, buf, o, dx, n)
		}
		prev, po = dd, o
		// The runs right after it in the row that read alike (the
		// workgroups of a batch, the rows of a tile) are filled by
		// doubling copies: a few long copies instead of one per run.
		k := i + 1
		for k < len(runs) && runs[k].n == u.n && runs[k].i0 == runs[k-1].i0+runs[k-1].n && a.at(&runs[k])-tag == o {
			k++
		}
		if k > i+1 {
			rep := d[u.i0 : runs[k-1].i0+runs[k-1].n]
			for w := len(dd); w < len(rep); w *= 2 {
				copy(rep[w:], rep[:w])
			}
			prev = d[runs[k-1].i0 : runs[k-1].i0+runs[k-1].n]
			i = k - 1
		}
	}
}

// loadRun reads d's values of n bytes from b at o, o+dx, ... (the
// caller checked that they lie within b).
func loadRun(d []uint64, b []byte, o, dx, n int64) {
	switch {
	case dx == 0:
		b = b[o:]
		var v uint64
		switch n {
		case 1:
			v = uint64(b[0])
		case 2:
			v = uint64(binary.LittleEndian.Uint16(b))
		case 4:
			v = uint64(binary.LittleEndian.Uint32(b))
		default:
			v = binary.LittleEndian.Uint64(b)
		}
		for j := range d {
			d[j] = v
		}
	case n == 4 && dx == 4:
		load32s(d, b[o:])
	case (n == 4 || n == 2) && loadStrided(d, b, o, dx, n):
	case n == 4:
		for j := range d {
			d[j] = uint64(binary.LittleEndian.Uint32(b[o:]))
			o += dx
		}
	case n == 2:
		for j := range d {
			d[j] = uint64(binary.LittleEndian.Uint16(b[o:]))
			o += dx
		}
	case n == 1:
		for j := range d {
			d[j] = uint64(b[o])
			o += dx
		}
	default:
		for j := range d {
			d[j] = binary.LittleEndian.Uint64(b[o:])
			o += dx
		}
	}
}

// affStore runs a store of n bytes (1, 2, 4 or 8) of in.a[1] through the
// sAff pointer in.a[0], invocations in order; false where affSpan finds
// no bytes or the value is a tile.
func (m *sgMeta) affStore(in *instr, n int64) bool {
	s := in.a[0]
	a := &m.aff[s]
	buf, tag := m.affSpan(s, n)
	if buf == nil && !m.groupSpan(a, n) {
		return false
	}
	v := m.arg(in.a[1], 1)
	if v == nil {
		return false
	}
	dx := a.d[0]
	store := func(buf []byte, runs []xrun) {
		for i := range runs {
			u := &runs[i]
			vv := v[u.i0 : u.i0+u.n]
			if dx == 0 {
				// The run's invocations write one place: the last one's
				// value stays.
				vv = vv[len(vv)-1:]
			}
			storeRun(buf, a.at(u)-tag, vv, dx, n)
		}
	}
	if buf == nil {
		// A batch's workgroups, each in its own workgroup memory.
		tag = regWG << 56
		m.eachGroup(store)
		return true
	}
	store(buf, m.runs)
	return true
}

// storeRun writes v's values of n bytes to b at o, o+dx, ... (the caller
// checked that they lie within b), in order.
//
//go:noinline
func storeRun(b []byte, o int64, v []uint64, dx, n int64) {
	switch {
	case n == 4 && dx == 4:
		store32s(b[o:], v)
	case n == 4:
		for _, x := range v {
			binary.LittleEndian.PutUint32(b[o:], uint32(x))
			o += dx
		}
	case n == 2:
		for _, x := range v {
			binary.LittleEndian.PutUint16(b[o:], uint16(x))
			o += dx
		}
	case n == 1:
		for _, x := range v {
			b[o] = byte(x)
			o += dx
		}
	default:
		for _, x := range v {
			binary.LittleEndian.PutUint64(b[o:], x)
			o += dx
		}
	}
}

// load32sGo reads d's values from the consecutive 32-bit words at the
// start of b, four at a time: the plain loop, a bounds check and a spill
// per value, took twice as long. load32s runs it where there is no vector
// kernel, and for the tail.
//
//go:noinline
func load32sGo(d []uint64, b []byte) {
	b = b[:4*len(d)]
	for len(d) >= 4 && len(b) >= 16 {
		d[0] = uint64(binary.LittleEndian.Uint32(b))
		d[1] = uint64(binary.LittleEndian.Uint32(b[4:]))
		d[2] = uint64(binary.LittleEndian.Uint32(b[8:]))
		d[3] = uint64(binary.LittleEndian.Uint32(b[12:]))
		d, b = d[4:], b[16:]
	}
	for j := range d {
		d[j] = uint64(binary.LittleEndian.Uint32(b[4*j:]))
	}
}

// store32s writes v's values as consecutive 32-bit words at the start of
// b, four at a time (as load32sGo).
//
//go:noinline
func store32s(b []byte, v []uint64) {
	b = b[:4*len(v)]
	for len(v) >= 4 && len(b) >= 16 {
		binary.LittleEndian.PutUint32(b, uint32(v[0]))
		binary.LittleEndian.PutUint32(b[4:], uint32(v[1]))
		binary.LittleEndian.PutUint32(b[8:], uint32(v[2]))
		binary.LittleEndian.PutUint32(b[12:], uint32(v[3]))
		v, b = v[4:], b[16:]
	}
	for j, x := range v {
		binary.LittleEndian.PutUint32(b[4*j:], uint32(x))
	}
}
