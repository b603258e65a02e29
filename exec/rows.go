package exec

import (
	"encoding/binary"
	"math"
	"sync"

	"github.com/coopshader/coop/spirv"
)

// Row handlers. A subgroup in lockstep keeps the values that vary
// between its invocations in rows: slot s of invocation k at
// rows[s*w+k] (w the subgroup's size), so an instruction runs as one
// tight loop over contiguous memory instead of visiting every
// invocation's registers. Such a slot has the state sVec: the row holds
// its values and the invocations' registers are stale until spread
// (or release) scatters the row back, which every path that reads
// registers does first. Row handlers compute exactly what the vector
// handlers (vec.go) compute, in the same invocation order; one that
// declines (an operand held as a tile, an address outside the regions
// it knows, an index out of range) leaves the instruction to the general
// path, which redoes it identically and faults where it must.
type rowOp func(m *sgMeta, in *instr) bool

// The functions that make handlers (closures) are marked go:noinline
// here and in vec.go: Go (to 1.27) compiles the copy of a closure made by
// inlining its maker without inlining the closure's own calls
// (golang/go#81380), which left math.Float32frombits, f32out, isUni and
// sext as calls in every row loop.

// maxRowSlots bounds the slots a subgroup keeps rows for; a module with
// more runs on the invocations' registers alone.
const maxRowSlots = 1 << 16

// initRows gives the subgroup its rows and broadcast scratch.
func (m *sgMeta) initRows(slots int) {
	m.w, m.rs = len(m.sg), len(m.sg)
	if slots > maxRowSlots {
		return
	}
	m.rows = make([]uint64, slots*m.w)
	for k := range m.bc {
		m.bc[k] = make([]uint64, m.w)
	}
}

// subRows makes the rows of sub, a subgroup of the workgroup m runs as a
// whole starting at invocation off, views of m's rows: when m hands its
// state to the subgroups (wgState.handOff), their rows hold their values
// already.
func (m *sgMeta) subRows(sub *sgMeta, off int) {
	sub.w, sub.rs, sub.ro = len(sub.sg), m.rs, off
	sub.rows = m.rows
	for k, b := range m.bc {
		sub.bc[k] = b[:sub.w:sub.w]
	}
}

// row is slot s's row.
func (m *sgMeta) row(s int32) []uint64 {
	o := int(s)*m.rs + m.ro
	return m.rows[o : o+m.w : o+m.w]
}

// arg returns the values of slot s as a row: its own row when the values
// live there, the invocations' registers gathered into it when they vary
// (the slot then lives in its row), the value broadcast into scratch row
// k when it is the same everywhere; nil for a tile.
func (m *sgMeta) arg(s int32, k int) []uint64 {
	switch m.st[s] {
	case sVec:
		return m.row(s)
	case sAff:
		m.fill(s)
		return m.row(s)
	case sVar:
		r := m.row(s)
		for i, l := range m.sg {
			r[i] = l.regs[s]
		}
		m.st[s] = sVec
		return r
	case sAll, sLead:
		b := m.bc[k]
		v := m.sg[0].regs[s]
		for i := range b {
			b[i] = v
		}
		return b
	}
	return nil
}

// scatter hands slot s's row to the invocations' registers.
func (m *sgMeta) scatterRow(s int32) {
	r := m.row(s)
	for i, l := range m.sg {
		l.regs[s] = r[i]
	}
	m.st[s] = sVar
}

// chargedRow wraps the row handler of an instruction that has work of
// its own (limits.go: weigh) so that running it spends the work, as
// charged does for vector handlers.
func chargedRow(in *instr, r rowOp) rowOp {
	if r == nil || in.w <= 0 || in.coll {
		return r
	}
	w := in.w
	return func(m *sgMeta, in *instr) bool {
		for _, l := range m.sg {
			l.steps -= w
		}
		return r(m, in)
	}
}

// pickRow chooses the row handler of an instruction that has a vector
// handler, or nil.
func pickRow(in *instr) rowOp {
	if in.vec == nil {
		return nil
	}
	switch in.fast {
	case fExtract:
		return rExtract
	case fCopy:
		return nil // copySlots moves rows itself
	case fChain:
		return rChain(in.ch)
	}
	switch in.op {
	case spirv.OpLoad:
		return pickRowLoad(in)
	case spirv.OpStore:
		return pickRowStore(in)
	case spirv.OpSelect:
		return rSelect
	}
	if _, _, _, _, ok := repackShape(in); ok {
		return rRepack
	}
	if plainDynamic(in) {
		return rExtractDyn
	}
	if floatTimesScalar(in) {
		return rTimesScalar
	}
	if ptrCast(in) {
		return rPtrCast
	}
	if plainConstruct(in) {
		return rConstruct
	}
	n := int32(in.t.slots)
	ct, act := in.t.comp(), in.at.comp()
	switch len(in.a) {
	case 2:
		switch {
		case ct.kind == kInt && act.kind == kInt:
			if f, comm := rowIntBin(in.op, ct.width); f != nil {
				return rBin(n, comm, vecBin(in, ct, act, f))
			}
		case ct.kind == kBool && act.kind == kInt:
			if f, comm := rowIntCmp(in.op, act.width); f != nil {
				return rBin(n, comm, vecBin(in, ct, act, f))
			}
		case ct.kind == kFloat && ct.ff == f32 && act.kind == kFloat:
			if f, comm := rowF32Bin(in.op); f != nil {
				return rBin(n, comm, vecBin(in, ct, act, f))
			}
		}
	case 1:
		if f := rowConv(in, ct, act); f != nil {
			return rUn(n, vecUn(in, ct, act, f))
		}
	}
	if g, args := glslElem(in); g != nil {
		return pickRowGLSL(in, n, args, g)
	}
	// The rest apply the vector handler's element function row by row,
	// through a kernel where one does the same (rowsimd.go).
	if f := elemFunc(in); f != nil {
		if r := vecElem(in, n, ct, act, f); r != nil {
			return r
		}
		return rElem(n, len(in.a), f)
	}
	return nil
}

func rExtract(m *sgMeta, in *instr) bool {
	a := m.arg(in.a[0]+int32(in.sub), 0)
	if a == nil {
		return false
	}
	copy(m.row(in.res), a)
	return true
}

// rExtractDyn is vExtractDyn on rows: component by component, each
// taken where the index names it.
func rExtractDyn(m *sgMeta, in *instr) bool {
	x := m.arg(in.a[1], 1)
	if x == nil {
		return false
	}
	d := m.row(in.res)
	x = x[:len(d)]
	clear(d)
	for k := 0; k < in.at.count; k++ {
		a := m.arg(in.a[0]+int32(k), 0)
		if a == nil {
			return false
		}
		a = a[:len(d)]
		for i := range d {
			if x[i] == uint64(k) {
				d[i] = a[i]
			}
		}
	}
	return true
}

// rConstruct is vConstruct on rows.
func rConstruct(m *sgMeta, in *instr) bool {
	k := in.res
	for j, s := range in.a {
		for c := int32(0); c < int32(in.lit[j]); c++ {
			a := m.arg(s+c, 0)
			if a == nil {
				return false
			}
			copy(m.row(k), a)
			k++
		}
	}
	return true
}

// rTimesScalar is vTimesScalar on rows.
func rTimesScalar(m *sgMeta, in *instr) bool {
	ff := in.t.comp().ff
	y := m.arg(in.a[1], 1)
	if y == nil {
		return false
	}
	for k := 0; k < in.t.count; k++ {
		a := m.arg(in.a[0]+int32(k), 0)
		if a == nil {
			return false
		}
		d := m.row(in.res + int32(k))
		a, y := a[:len(d)], y[:len(d)]
		for i := range d {
			d[i] = fround(toF64(a[i], ff)*toF64(y[i], ff), ff)
		}
	}
	return true
}

func rSelect(m *sgMeta, in *instr) bool {
	c, a, b := m.arg(in.a[0], 0), m.arg(in.a[1], 1), m.arg(in.a[2], 2)
	if c == nil || a == nil || b == nil {
		return false
	}
	d := m.row(in.res)
	vecSelect(d, c[:len(d)], a[:len(d)], b[:len(d)])
	return true
}

// selectRows is the select loop (vecSelect's twin): d = a where c is
// not 0, b where it is.
func selectRows(d, c, a, b []uint64) {
	a, b, c = a[:len(d)], b[:len(d)], c[:len(d)]
	for i := range d {
		if c[i] != 0 {
			d[i] = a[i]
		} else {
			d[i] = b[i]
		}
	}
}

// rChain computes an access chain without a descriptor table: the base
// and the indices the same everywhere folded into one offset first.
//
//go:noinline
func rChain(c *chain) rowOp {
	off := uint64(c.off)
	return func(m *sgMeta, in *instr) bool {
		st, lr := m.st, m.sg[0].regs
		if m.aff != nil && m.affChain(c, in) {
			return true
		}
		k0 := off
		var base []uint64
		if a := in.a[0]; isUni(st[a]) {
			k0 += lr[a]
		} else if base = m.arg(a, 0); base == nil {
			return false
		}
		for _, s := range c.steps {
			if isUni(st[s.slot]) {
				k := sext(lr[s.slot], s.w)
				if s.bound > 0 && uint64(k) >= uint64(s.bound) {
					return false
				}
				k0 += uint64(k * int64(s.stride))
			}
		}
		d := m.row(in.res)
		set := base != nil // d holds the sum so far
		if set {
			base = base[:len(d)]
			for i := range d {
				d[i] = base[i] + k0
			}
		}
		for _, s := range c.steps {
			if isUni(st[s.slot]) {
				continue
			}
			x := m.arg(s.slot, 1)
			if x == nil {
				return false
			}
			x = x[:len(d)]
			stride, bound := int64(s.stride), uint64(s.bound)
			switch {
			case s.w == 32 && !set:
				for i := range d {
					k := int64(int32(x[i]))
					if bound > 0 && uint64(k) >= bound {
						return false
					}
					d[i] = k0 + uint64(k*stride)
				}
			case s.w == 32:
				for i := range d {
					k := int64(int32(x[i]))
					if bound > 0 && uint64(k) >= bound {
						return false
					}
					d[i] += uint64(k * stride)
				}
			default:
				if !set {
					for i := range d {
						d[i] = k0
					}
				}
				for i := range d {
					k := sext(x[i], s.w)
					if bound > 0 && uint64(k) >= bound {
						return false
					}
					d[i] += uint64(k * stride)
				}
			}
			set = true
		}
		if !set {
			for i := range d {
				d[i] = k0
			}
		}
		return true
	}
}

// span finds the bytes of the buffer or workgroup memory address a
// points into, and the bits (region and index) all of its addresses
// share, or nil.
func (m *sgMeta) span(a uint64) ([]byte, uint64) {
	tag := a &^ (1<<offBits - 1)
	switch a >> 56 {
	case regBuf:
		idx := (a >> offBits) & 0xffff
		bufs := m.sg[0].x.bufs
		if idx >= uint64(len(bufs)) || bufs[idx] == nil {
			return nil, 0
		}
		return bufs[idx].data, tag
	case regWG:
		// The wide row of a batch spans workgroups, each with its own
		// memory: its invocations find theirs one by one (plainMem).
		if tag != regWG<<56 || m.sg[0].wg == nil || m.multi {
			return nil, 0
		}
		return m.sg[0].gmem, tag
	}
	return nil, 0
}

// memRow runs ld for every invocation's address in a: on the shared
// region's bytes directly while the addresses stay in it, through the
// invocation's plainMem otherwise. It reports false where an access
// needs the general path.
func (m *sgMeta) memRow(a []uint64, n uint64, f func(i int, b []byte)) bool {
	buf, tag := m.span(a[0])
	// A batch's wide row (multi) spans workgroups: each invocation's
	// workgroup memory is its own workgroup's.
	groups := m.multi && a[0]>>56 == regWG
	if groups {
		tag = regWG << 56
	}
	for i, x := range a {
		if groups {
			buf = m.sg[i].gmem
		}
		if x&^(1<<offBits-1) == tag && buf != nil {
			off, size := x&(1<<offBits-1), uint64(len(buf))
			if off > size || n > size-off {
				return false
			}
			f(i, buf[off:off+n])
			continue
		}
		b := m.sg[i].plainMem(x, n)
		if b == nil {
			return false
		}
		f(i, b)
	}
	return true
}

//go:noinline
func pickRowLoad(in *instr) rowOp {
	if plainVecLoad(in) {
		return rLoadVec
	}
	switch in.t.width {
	case 8:
		return rLoad8
	case 16:
		return rLoad16
	case 32:
		return rLoad32
	}
	return func(m *sgMeta, in *instr) bool {
		if m.st[in.a[0]] == sAff && m.affLoad(in, 8) {
			return true
		}
		a := m.arg(in.a[0], 0)
		d := m.row(in.res)
		return a != nil && m.memRow(a, 8, func(i int, b []byte) { d[i] = binary.LittleEndian.Uint64(b) })
	}
}

// rLoad32 is the commonest load, with the shared region's loop inlined.
func rLoad32(m *sgMeta, in *instr) bool {
	switch p := in.a[0]; m.st[p] {
	case sAff:
		if m.affLoad(in, 4) {
			return true
		}
	case sAll, sLead:
		// A built-in input, before its address is broadcast to a row
		// (a uniform address elsewhere loads once, not here).
		if a := m.sg[0].regs[p]; a>>56 == regInv && m.builtinRow(in.res, a&(1<<offBits-1), m.row(in.res)) {
			return true
		}
	}
	a := m.arg(in.a[0], 0)
	if a == nil {
		return false
	}
	d := m.row(in.res)
	a = a[:len(d)]
	buf, tag := m.span(a[0])
	if buf == nil {
		return m.memRow(a, 4, func(i int, b []byte) { d[i] = uint64(binary.LittleEndian.Uint32(b)) })
	}
	size := uint64(len(buf))
	for i, x := range a {
		off := x & (1<<offBits - 1)
		if x&^(1<<offBits-1) != tag || off > size || 4 > size-off {
			b := m.sg[i].plainMem(x, 4)
			if b == nil {
				return false
			}
			d[i] = uint64(binary.LittleEndian.Uint32(b))
			continue
		}
		d[i] = uint64(binary.LittleEndian.Uint32(buf[off:]))
	}
	return true
}

// builtinRow fills d with the 32-bit integer built-in input at offset off
// of every invocation's memory, computed from the invocation's place as
// fillMem would store it, so that memory need not be filled (the ids
// and the invocation index make slot res sAff instead); false for an
// offset elsewhere.
func (m *sgMeta) builtinRow(res int32, off uint64, d []uint64) bool {
	l0 := m.sg[0]
	for _, iv := range l0.p.inputs {
		o, t := off-uint64(iv.off), iv.t
		if off < uint64(iv.off) || o >= uint64(t.size) {
			continue
		}
		if o%4 != 0 || !(t.kind == kInt || t.kind == kVector && t.elem.kind == kInt) || t.comp().size != 4 {
			return false
		}
		c := o / 4
		loc := l0.p.local
		// In a batch (newWG) z is the workgroup's place in the batch and
		// the local size (n, m, 1).
		batch := l0.wg.groups > 1
		switch iv.builtin {
		case spirv.BuiltInGlobalInvocationId, spirv.BuiltInLocalInvocationId:
			// In 32 bits, as the invocation's gid is computed.
			a := affine{w: 32}
			if !batch || c < 2 {
				a.d[c] = 1
			}
			if iv.builtin == spirv.BuiltInGlobalInvocationId {
				a.c = int64(l0.wg.id[c] * loc[c])
				if batch && c == 0 {
					a.d[2] = int64(loc[0])
				}
			}
			m.setAff(res, a)
		case spirv.BuiltInLocalInvocationIndex:
			if batch {
				m.setAff(res, affine{d: [3]int64{1, int64(loc[0]), 0}, w: 32})
				break
			}
			m.setAff(res, affine{d: [3]int64{1, int64(loc[0]), int64(loc[0]) * int64(loc[1])}, w: 32})
		case spirv.BuiltInSubgroupLocalInvocationId:
			for i := range d {
				d[i] = uint64((l0.lid + i) % l0.p.sgSize)
			}
		case spirv.BuiltInSubgroupId:
			for i := range d {
				d[i] = uint64((l0.lid + i) % l0.wg.per / l0.p.sgSize)
			}
		case spirv.BuiltInWorkgroupId:
			if batch && c == 0 {
				m.setAff(res, affine{c: int64(l0.wg.id[0]), d: [3]int64{0, 0, 1}, w: 32})
				break
			}
			for i := range d {
				d[i] = uint64(l0.wg.id[c])
			}
		default:
			return false
		}
		return true
	}
	return false
}

// rLoad16 is rLoad32 for 16-bit values (quantized weights, halves).
func rLoad16(m *sgMeta, in *instr) bool {
	if m.st[in.a[0]] == sAff && m.affLoad(in, 2) {
		return true
	}
	a := m.arg(in.a[0], 0)
	if a == nil {
		return false
	}
	d := m.row(in.res)
	a = a[:len(d)]
	buf, tag := m.span(a[0])
	if buf == nil {
		return m.memRow(a, 2, func(i int, b []byte) { d[i] = uint64(binary.LittleEndian.Uint16(b)) })
	}
	size := uint64(len(buf))
	for i, x := range a {
		off := x & (1<<offBits - 1)
		if x&^(1<<offBits-1) != tag || off > size || 2 > size-off {
			b := m.sg[i].plainMem(x, 2)
			if b == nil {
				return false
			}
			d[i] = uint64(binary.LittleEndian.Uint16(b))
			continue
		}
		d[i] = uint64(binary.LittleEndian.Uint16(buf[off:]))
	}
	return true
}

// rLoadVec is vLoadVec on rows.
func rLoadVec(m *sgMeta, in *instr) bool {
	t := in.t
	a := m.arg(in.a[0], 0)
	if a == nil {
		return false
	}
	var d [16][]uint64
	if t.count > len(d) {
		return false
	}
	for k := 0; k < t.count; k++ {
		d[k] = m.row(in.res + int32(k))
	}
	es := t.elem.size
	return m.memRow(a[:m.w], uint64(t.size), func(i int, b []byte) {
		for k := 0; k < t.count; k++ {
			d[k][i] = rdScalar(t.elem, b[k*es:])
		}
	})
}

// rLoad8 is rLoad16 for bytes (the quantized weights decode functions
// read).
func rLoad8(m *sgMeta, in *instr) bool {
	if m.st[in.a[0]] == sAff && m.affLoad(in, 1) {
		return true
	}
	a := m.arg(in.a[0], 0)
	if a == nil {
		return false
	}
	d := m.row(in.res)
	a = a[:len(d)]
	buf, tag := m.span(a[0])
	if buf == nil {
		return m.memRow(a, 1, func(i int, b []byte) { d[i] = uint64(b[0]) })
	}
	size := uint64(len(buf))
	for i, x := range a {
		off := x & (1<<offBits - 1)
		if x&^(1<<offBits-1) != tag || off >= size {
			b := m.sg[i].plainMem(x, 1)
			if b == nil {
				return false
			}
			d[i] = uint64(b[0])
			continue
		}
		d[i] = uint64(buf[off])
	}
	return true
}

func pickRowStore(in *instr) rowOp {
	var n uint64
	var put func(b []byte, v uint64)
	switch in.at.width {
	case 8:
		n, put = 1, func(b []byte, v uint64) { b[0] = byte(v) }
	case 16:
		n, put = 2, func(b []byte, v uint64) { binary.LittleEndian.PutUint16(b, uint16(v)) }
	case 32:
		return rStore32
	default:
		n, put = 8, func(b []byte, v uint64) { binary.LittleEndian.PutUint64(b, v) }
	}
	return func(m *sgMeta, in *instr) bool {
		if m.st[in.a[0]] == sAff && m.affStore(in, int64(n)) {
			return true
		}
		a, v := m.arg(in.a[0], 0), m.arg(in.a[1], 1)
		return a != nil && v != nil && m.memRow(a, n, func(i int, b []byte) { put(b, v[i]) })
	}
}

func rStore32(m *sgMeta, in *instr) bool {
	if m.st[in.a[0]] == sAff && m.affStore(in, 4) {
		return true
	}
	a, v := m.arg(in.a[0], 0), m.arg(in.a[1], 1)
	if a == nil || v == nil {
		return false
	}
	v = v[:len(a)]
	buf, tag := m.span(a[0])
	if buf == nil {
		return m.memRow(a, 4, func(i int, b []byte) { binary.LittleEndian.PutUint32(b, uint32(v[i])) })
	}
	size := uint64(len(buf))
	for i, x := range a {
		off := x & (1<<offBits - 1)
		if x&^(1<<offBits-1) != tag || off > size || 4 > size-off {
			b := m.sg[i].plainMem(x, 4)
			if b == nil {
				return false
			}
			binary.LittleEndian.PutUint32(b, uint32(v[i]))
			continue
		}
		binary.LittleEndian.PutUint32(buf[off:], uint32(v[i]))
	}
	return true
}

// rowBin is the loop of a binary operation over rows: d = a op b, or,
// where b is nil, d = a op c (an operand the same everywhere, which
// then needs no broadcast row).
type rowBin func(d, a, b []uint64, c uint64)

// rBin makes a handler applying the row function f to n components of
// two operands; comm: the operation is commutative, so a first operand
// the same everywhere can go second.
//
//go:noinline
func rBin(n int32, comm bool, f rowBin) rowOp {
	return func(m *sgMeta, in *instr) bool {
		st, lr := m.st, m.sg[0].regs
		for k := int32(0); k < n; k++ {
			x, y := in.a[0]+k, in.a[1]+k
			if comm && isUni(st[x]) && !isUni(st[y]) {
				x, y = y, x
			}
			a := m.arg(x, 0)
			if a == nil {
				return false
			}
			if isUni(st[y]) {
				f(m.row(in.res+k), a, nil, lr[y])
				continue
			}
			b := m.arg(y, 1)
			if b == nil {
				return false
			}
			f(m.row(in.res+k), a, b, 0)
		}
		return true
	}
}

// rElem makes a handler applying an element function (one or two
// operands) to n components.
//
//go:noinline
func rElem(n int32, args int, f func(x, y uint64) uint64) rowOp {
	return func(m *sgMeta, in *instr) bool {
		for k := int32(0); k < n; k++ {
			a := m.arg(in.a[0]+k, 0)
			b := a
			if args == 2 {
				b = m.arg(in.a[1]+k, 1)
			}
			if a == nil || b == nil {
				return false
			}
			d := m.row(in.res + k)
			a, b = a[:len(d)], b[:len(d)]
			for i := range d {
				d[i] = f(a[i], b[i])
			}
		}
		return true
	}
}

// rowIntBin gives the loops of the commonest integer operations, and
// whether they are commutative.
func rowIntBin(op spirv.Op, w int) (rowBin, bool) {
	m := mask(w)
	sh := uint64(w - 1)
	switch op {
	case spirv.OpIAdd:
		return func(d, a, b []uint64, c uint64) {
			a = a[:len(d)]
			if b == nil {
				for i := range d {
					d[i] = (a[i] + c) & m
				}
				return
			}
			b = b[:len(d)]
			for i := range d {
				d[i] = (a[i] + b[i]) & m
			}
		}, true
	case spirv.OpISub:
		return func(d, a, b []uint64, c uint64) {
			a = a[:len(d)]
			if b == nil {
				for i := range d {
					d[i] = (a[i] - c) & m
				}
				return
			}
			b = b[:len(d)]
			for i := range d {
				d[i] = (a[i] - b[i]) & m
			}
		}, false
	case spirv.OpIMul:
		return func(d, a, b []uint64, c uint64) {
			a = a[:len(d)]
			if b == nil {
				for i := range d {
					d[i] = a[i] * c & m
				}
				return
			}
			b = b[:len(d)]
			for i := range d {
				d[i] = a[i] * b[i] & m
			}
		}, true
	case spirv.OpBitwiseAnd:
		return func(d, a, b []uint64, c uint64) {
			a = a[:len(d)]
			if b == nil {
				for i := range d {
					d[i] = a[i] & c & m
				}
				return
			}
			b = b[:len(d)]
			for i := range d {
				d[i] = a[i] & b[i] & m
			}
		}, true
	case spirv.OpShiftLeftLogical:
		return func(d, a, b []uint64, c uint64) {
			a = a[:len(d)]
			if b == nil {
				c &= sh
				for i := range d {
					d[i] = a[i] << c & m
				}
				return
			}
			b = b[:len(d)]
			for i := range d {
				d[i] = a[i] << (b[i] & sh) & m
			}
		}, false
	case spirv.OpShiftRightLogical:
		return func(d, a, b []uint64, c uint64) {
			a = a[:len(d)]
			if b == nil {
				c &= sh
				for i := range d {
					d[i] = a[i] >> c & m
				}
				return
			}
			b = b[:len(d)]
			for i := range d {
				d[i] = a[i] >> (b[i] & sh) & m
			}
		}, false
	case spirv.OpShiftRightArithmetic:
		if w != 32 {
			return nil, false
		}
		return func(d, a, b []uint64, c uint64) {
			a = a[:len(d)]
			if b == nil {
				c &= 31
				for i := range d {
					d[i] = uint64(uint32(int32(a[i]) >> c))
				}
				return
			}
			b = b[:len(d)]
			for i := range d {
				d[i] = uint64(uint32(int32(a[i]) >> (b[i] & 31)))
			}
		}, false
	}
	return nil, false
}

// rowConv gives the loops of the commonest conversions, or nil.
func rowConv(in *instr, ct, act *typ) func(d, a []uint64) {
	switch {
	case in.op == spirv.OpConvertSToF && ct.ff == f32 && act.width == 32 && in.sub&3 == uint32(rne):
		// An int32 is exact in float64; one rounding to float32 is
		// what intToF does.
		return func(d, a []uint64) {
			a = a[:len(d)]
			for i := range d {
				d[i] = uint64(math.Float32bits(float32(int32(a[i]))))
			}
		}
	case in.op == spirv.OpUConvert && act.kind == kInt:
		m := mask(ct.width)
		return func(d, a []uint64) {
			a = a[:len(d)]
			for i := range d {
				d[i] = a[i] & m
			}
		}
	case in.op == spirv.OpBitcast:
		return func(d, a []uint64) { copy(d, a) }
	case (in.op == spirv.OpConvertSToF || in.op == spirv.OpConvertUToF) && act.kind == kInt && act.width == 8 &&
		ct.kind == kFloat && (ct.ff == f32 || ct.ff == f16 || ct.ff == f64 || ct.ff == bf16):
		// Every byte's result (quantized weights), computed on first use
		// by intToF as the vector handler's table is.
		signed, ff, rm := in.op == spirv.OpConvertSToF, ct.ff, rounding(in.sub&3)
		tab := sync.OnceValue(func() *[256]uint64 {
			t := new([256]uint64)
			for v := range t {
				t[v] = intToF(uint64(v), signed, 8, ff, rm)
			}
			return t
		})
		return func(d, a []uint64) {
			t := tab()
			a = a[:len(d)]
			for i := range d {
				d[i] = t[uint8(a[i])]
			}
		}
	}
	return nil
}

// rUn makes a handler applying the row function f to n components of
// one operand.
//
//go:noinline
func rUn(n int32, f func(d, a []uint64)) rowOp {
	return func(m *sgMeta, in *instr) bool {
		for k := int32(0); k < n; k++ {
			a := m.arg(in.a[0]+k, 0)
			if a == nil {
				return false
			}
			f(m.row(in.res+k), a)
		}
		return true
	}
}

//go:noinline
func rowIntCmp(op spirv.Op, w int) (rowBin, bool) {
	switch op {
	case spirv.OpULessThan:
		return func(d, a, b []uint64, c uint64) {
			a = a[:len(d)]
			if b == nil {
				for i := range d {
					d[i] = b2u(a[i] < c)
				}
				return
			}
			b = b[:len(d)]
			for i := range d {
				d[i] = b2u(a[i] < b[i])
			}
		}, false
	case spirv.OpIEqual:
		return func(d, a, b []uint64, c uint64) {
			a = a[:len(d)]
			if b == nil {
				for i := range d {
					d[i] = b2u(a[i] == c)
				}
				return
			}
			b = b[:len(d)]
			for i := range d {
				d[i] = b2u(a[i] == b[i])
			}
		}, true
	case spirv.OpSLessThan:
		return func(d, a, b []uint64, c uint64) {
			a = a[:len(d)]
			if b == nil {
				sc := sext(c, w)
				for i := range d {
					d[i] = b2u(sext(a[i], w) < sc)
				}
				return
			}
			b = b[:len(d)]
			for i := range d {
				d[i] = b2u(sext(a[i], w) < sext(b[i], w))
			}
		}, false
	}
	return nil, false
}

// rowF32Bin gives float32 arithmetic done in float32: the same results
// as vec.go's rounding of the float64 result, since float64 carries more
// than twice float32's precision (double rounding is harmless for +, -
// and *).
//
//go:noinline
func rowF32Bin(op spirv.Op) (rowBin, bool) {
	switch op {
	case spirv.OpFAdd:
		return func(d, a, b []uint64, c uint64) {
			a = a[:len(d)]
			if b == nil {
				y := math.Float32frombits(uint32(c))
				for i := range d {
					d[i] = f32out(math.Float32frombits(uint32(a[i])) + y)
				}
				return
			}
			b = b[:len(d)]
			for i := range d {
				d[i] = f32out(math.Float32frombits(uint32(a[i])) + math.Float32frombits(uint32(b[i])))
			}
		}, true
	case spirv.OpFMul:
		return func(d, a, b []uint64, c uint64) {
			a = a[:len(d)]
			if b == nil {
				y := math.Float32frombits(uint32(c))
				for i := range d {
					d[i] = f32out(math.Float32frombits(uint32(a[i])) * y)
				}
				return
			}
			b = b[:len(d)]
			for i := range d {
				d[i] = f32out(math.Float32frombits(uint32(a[i])) * math.Float32frombits(uint32(b[i])))
			}
		}, true
	case spirv.OpFSub:
		return func(d, a, b []uint64, c uint64) {
			a = a[:len(d)]
			if b == nil {
				y := math.Float32frombits(uint32(c))
				for i := range d {
					d[i] = f32out(math.Float32frombits(uint32(a[i])) - y)
				}
				return
			}
			b = b[:len(d)]
			for i := range d {
				d[i] = f32out(math.Float32frombits(uint32(a[i])) - math.Float32frombits(uint32(b[i])))
			}
		}, false
	}
	return nil, false
}

// nanF32 is the float32 NaN arithmetic makes by default
// (fmtDescs[f32].nan).
const nanF32 = 0x7fc00000

// f32out is the bits of a float32 result, NaN canonical (as fround
// makes it).
func f32out(x float32) uint64 {
	b := uint64(math.Float32bits(x))
	if x != x {
		b = nanF32
	}
	return b
}
