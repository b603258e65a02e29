package exec

import (
	"encoding/binary"
	"math"

	"github.com/coopshader/coop/spirv"
)

// Cooperative matrices. Element (r, c) of an R x C matrix, at row-major
// index e = r*C + c, is owned by the invocation with subgroup lane e / n
// and held at position e % n of its value, where n = ceil(R*C/S) is the
// number of elements every invocation holds (S is the subgroup size): each
// invocation holds a run of consecutive elements, and the last ones of the
// last invocations are padding when S does not divide R*C. Ownership
// depends only on the shape, so conversions between element types and
// uses keep elements where they are and element-wise arithmetic runs per
// invocation.

func coopLen(rows, cols, sg int) int { return (rows*cols + sg - 1) / sg }

func isCoopOp(op spirv.Op) bool {
	switch op {
	case spirv.OpCooperativeMatrixLoadKHR, spirv.OpCooperativeMatrixStoreKHR, spirv.OpCooperativeMatrixMulAddKHR,
		spirv.OpCooperativeMatrixLoadNV, spirv.OpCooperativeMatrixStoreNV, spirv.OpCooperativeMatrixMulAddNV,
		spirv.OpCooperativeMatrixLengthKHR, spirv.OpCooperativeMatrixLengthNV,
		spirv.OpCooperativeMatrixLoadTensorNV, spirv.OpCooperativeMatrixStoreTensorNV:
		return true
	}
	return false
}

// Every collective cooperative instruction runs in lockstep. Those
// calling a function of the module for elements run it on the
// invocations' registers (coop2.go: callback), which hold what it reads
// besides its parameters and its own results: constants and variables of
// the module, the same in lockstep as out of it. Reductions call it on the
// first invocation, decode functions on each element's owner. decodes
// reports a tensor load with a decode function.
func decodes(in *instr) bool {
	tm, ok := in.aux.(*tensorMem)
	return ok && tm.decode != nil
}

// coopMem describes a cooperative load or store.
type coopMem struct {
	mt       *typ // the matrix type
	pes      int  // size of the pointer's element type: the unit of Stride
	colMajor bool
	blocked  *blockedLayout // an ARM blocked layout (armlayout.go), or nil
	stride   int32          // slot of the stride, or -1 for none
	strideW  int
	obj      int32 // slot of the stored object
	mats     []int32
}

type coopMul struct {
	a, b, c             *typ
	sa, sb, sc          bool
	sr, sat             bool
	slotA, slotB, slotC int32
	mats                []int32
}

// coopMats lists the operands of a cooperative instruction as uses do
// (slot, count pairs) that a lockstep subgroup must hand to every
// invocation before running it: the matrices, as they are gathered from
// them unless held as tiles. Pointers and strides are read from the
// leader alone, after checking they are the same everywhere (so the
// leader holds them); a tensor instruction reads its pointer, layout
// and view from the first invocation (as out of lockstep), so the leader
// must hold them (tensorMem.lead).
func coopMats(in *instr) []int32 {
	switch a := in.aux.(type) {
	case *coopMem:
		return a.mats
	case *coopMul:
		return a.mats
	case *tensorMem:
		return a.mats
	}
	return in.uses
}

// opConstU writes the constant lit[0], and zeros to the rest of the result
// (OpCooperativeMatrixLength*, derivatives without derivative groups).
const opConstU spirv.Op = 0xfffe

func (p *prog) compileCoop(i int, ins *instr, ops []uint32) (*instr, error) {
	need := func(n int) error {
		if len(ops) < n {
			return p.errAt(i, "%s needs %d operands", ins.op, n)
		}
		return nil
	}
	cnst := func(k int) (uint64, error) {
		v, ok := p.constU(ops[k])
		if !ok {
			return 0, p.errAt(i, "operand %%%d must be a constant", ops[k])
		}
		return v, nil
	}
	switch ins.op {
	case spirv.OpCooperativeMatrixLengthKHR, spirv.OpCooperativeMatrixLengthNV:
		if err := need(1); err != nil {
			return nil, err
		}
		t := p.types[ops[0]]
		if t == nil || t.kind != kCoopMat {
			return nil, p.errAt(i, "%%%d is not a cooperative matrix type", ops[0])
		}
		ins.op = opConstU
		ins.lit = []uint32{uint32(t.count)}
		return ins, nil
	case spirv.OpCooperativeMatrixMulAddKHR, spirv.OpCooperativeMatrixMulAddNV:
		if err := need(3); err != nil {
			return nil, err
		}
		a, err := p.valSlots(i, ops[:3])
		if err != nil {
			return nil, err
		}
		cm := &coopMul{a: p.tyOf[ops[0]], b: p.tyOf[ops[1]], c: p.tyOf[ops[2]], slotA: a[0], slotB: a[1], slotC: a[2]}
		if cm.a.kind != kCoopMat || cm.b.kind != kCoopMat || cm.c.kind != kCoopMat || ins.t == nil || ins.t.kind != kCoopMat {
			return nil, p.errAt(i, "operands must be cooperative matrices")
		}
		cm.mats = []int32{a[0], int32(cm.a.slots), a[1], int32(cm.b.slots), a[2], int32(cm.c.slots)}
		if cm.a.rows != ins.t.rows || cm.b.cols != ins.t.cols || cm.a.cols != cm.b.rows || cm.c.rows != ins.t.rows || cm.c.cols != ins.t.cols {
			return nil, p.errAt(i, "shapes %dx%d * %dx%d + %dx%d do not fit a %dx%d result",
				cm.a.rows, cm.a.cols, cm.b.rows, cm.b.cols, cm.c.rows, cm.c.cols, ins.t.rows, ins.t.cols)
		}
		if ins.op == spirv.OpCooperativeMatrixMulAddNV {
			cm.sa, cm.sb, cm.sc, cm.sr = cm.a.elem.signed, cm.b.elem.signed, cm.c.elem.signed, ins.t.elem.signed
		} else if len(ops) > 3 {
			f := spirv.CooperativeMatrixOperands(ops[3])
			cm.sa = f&spirv.CooperativeMatrixOperandsMatrixASignedComponentsKHR != 0
			cm.sb = f&spirv.CooperativeMatrixOperandsMatrixBSignedComponentsKHR != 0
			cm.sc = f&spirv.CooperativeMatrixOperandsMatrixCSignedComponentsKHR != 0
			cm.sr = f&spirv.CooperativeMatrixOperandsMatrixResultSignedComponentsKHR != 0
			cm.sat = f&spirv.CooperativeMatrixOperandsSaturatingAccumulationKHR != 0
		}
		ins.aux = cm
		ins.coll = true
		ins.wg = spirv.Scope(ins.t.scope) == spirv.ScopeWorkgroup
		return ins, nil
	}
	load := ins.op == spirv.OpCooperativeMatrixLoadKHR || ins.op == spirv.OpCooperativeMatrixLoadNV
	nv := ins.op == spirv.OpCooperativeMatrixLoadNV || ins.op == spirv.OpCooperativeMatrixStoreNV
	cm := &coopMem{stride: -1, obj: -1}
	if err := need(1); err != nil {
		return nil, err
	}
	ps, pt := p.slotOf(ops[0])
	if ps < 0 || pt.kind != kPointer || pt.elem == nil {
		return nil, p.errAt(i, "%%%d is not a pointer", ops[0])
	}
	cm.pes = pt.elem.size
	ins.a = []int32{ps}
	rest := ops[1:]
	if load {
		cm.mt = ins.t
	} else {
		if len(rest) == 0 {
			return nil, p.errAt(i, "missing object")
		}
		s, t := p.slotOf(rest[0])
		if s < 0 {
			return nil, p.errAt(i, "object %%%d has no value", rest[0])
		}
		cm.obj, cm.mt = s, t
		cm.mats = []int32{s, int32(t.slots)}
		rest = rest[1:]
	}
	if cm.mt == nil || cm.mt.kind != kCoopMat {
		return nil, p.errAt(i, "the matrix is not a cooperative matrix")
	}
	ops = rest
	strideAt, layoutAt := 1, 0
	if nv {
		strideAt, layoutAt = 0, 1
		if err := need(2); err != nil {
			return nil, err
		}
	} else if err := need(1); err != nil {
		return nil, err
	}
	lay, err := cnst(layoutAt)
	if err != nil {
		return nil, err
	}
	switch {
	case nv:
		cm.colMajor = lay != 0
	case spirv.CooperativeMatrixLayout(lay) == spirv.CooperativeMatrixLayoutRowMajorKHR:
	case spirv.CooperativeMatrixLayout(lay) == spirv.CooperativeMatrixLayoutColumnMajorKHR:
		cm.colMajor = true
	default:
		if bl, ok := blockedOf(lay); ok && !cm.mt.nibbles() {
			s, err := uint64(0), error(nil)
			if strideAt < len(ops) {
				s, err = cnst(strideAt)
			}
			if strideAt >= len(ops) || err != nil || s != 1 && s != 2 && s != 4 {
				return nil, p.errAt(i, "a blocked layout needs a constant Stride of 1, 2 or 4")
			}
			bl.groups = int(s)
			if !bl.fits(cm.mt.rows, cm.mt.cols, cm.mt.elem.bytes()) {
				return nil, p.errAt(i, "a %dx%d matrix of %d-byte elements does not fit the blocked layout with Stride %d",
					cm.mt.rows, cm.mt.cols, cm.mt.elem.bytes(), s)
			}
			cm.blocked = &bl
			break
		}
		p.unsupport(i, "cooperative matrix layout other than RowMajor, ColumnMajor and the ARM blocked ones")
		return nil, nil
	}
	if strideAt < len(ops) {
		s, t := p.slotOf(ops[strideAt])
		if s < 0 || t.kind != kInt {
			return nil, p.errAt(i, "stride %%%d is not an integer", ops[strideAt])
		}
		cm.stride, cm.strideW = s, t.width
	}
	ins.aux = cm
	ins.coll = true
	ins.wg = spirv.Scope(cm.mt.scope) == spirv.ScopeWorkgroup
	return ins, nil
}

// coopExec runs a cooperative instruction for a whole subgroup (act holds
// every lane, in lane order). With same set, the caller knows pointer and
// stride are the same in every lane, and only the first lane's are read.
func coopExec(in *instr, io matIO, same bool) error {
	switch in.op {
	case spirv.OpCooperativeMatrixMulAddKHR, spirv.OpCooperativeMatrixMulAddNV:
		return coopMulAdd(in, io)
	case spirv.OpCooperativeMatrixLoadTensorNV, spirv.OpCooperativeMatrixStoreTensorNV:
		return tensorMemExec(in, io)
	}
	act := io.act
	l0 := act[0]
	cm := in.aux.(*coopMem)
	mt := cm.mt
	R, C := mt.rows, mt.cols
	ct := mt.elem
	cs := ct.bytes()
	addr := l0.regs[in.a[0]]
	stride := int64(0)
	if cm.stride >= 0 {
		stride = sext(l0.regs[cm.stride], cm.strideW)
	}
	for _, l := range act[1:] {
		if same {
			break
		}
		if l.regs[in.a[0]] != addr || (cm.stride >= 0 && sext(l.regs[cm.stride], cm.strideW) != stride) {
			return l.fail(in, "pointer and stride must be the same in every invocation of the subgroup")
		}
	}
	if stride < 0 || stride > 1<<30 {
		return l0.fail(in, "stride %d out of range", stride)
	}
	load := in.op == spirv.OpCooperativeMatrixLoadKHR || in.op == spirv.OpCooperativeMatrixLoadNV
	if mt.nibbles() {
		return coopNibbles(in, io, cm, addr, int(stride), load)
	}
	if cm.blocked != nil {
		b, err := l0.region(in, addr, R*C*cs, !load)
		if err != nil {
			return err
		}
		tile := l0.wg.scratch.u64(0, R*C)
		if !load {
			tile = io.raw(cm.obj, tile)
		}
		cm.blocked.blockedCopy(ct, b, tile, R, C, load)
		if load {
			io.putRaw(in.res, mt, tile)
		}
		return nil
	}
	lines, per := R, C // lines of the layout and elements per line
	if cm.colMajor {
		lines, per = C, R
	}
	ls := int(stride) * cm.pes
	if lines > 1 && cm.stride < 0 {
		return l0.fail(in, "a stride is required")
	}
	ext := (lines-1)*ls + per*cs
	b, err := l0.region(in, addr, ext, !load)
	if err != nil {
		return err
	}
	if load && io.m == nil && !cm.colMajor && (cs == 2 || cs == 4) && loadRuns(act, in.res, b, R, C, ls, cs) {
		return nil
	}
	if load && io.m != nil && !cm.colMajor && ct.kind == kFloat && ct.ff == f16 {
		// Straight into a tile, as the float32 values a multiply-add
		// wants; the bits too where a NaN's payload needs them (others
		// follow from the values, tile.bits).
		t := io.m.newTile(mt)
		t.f, t.has = growF(t.f, R*C), hasF
		if loadHalfValues(b, ls, R, C, t.f) {
			io.m.tiles[in.res] = t
			setSt(io.m.st, in.res, int32(mt.slots), sTile)
			return nil
		}
		t.raw, t.has = grow(t.raw, R*C), hasRaw|hasF
		if ls == 2*C {
			loadHalves(b[:2*R*C], t.raw, t.f)
		} else {
			loadHalvesRows(b, ls, R, C, t.raw, t.f)
		}
		io.m.tiles[in.res] = t
		setSt(io.m.st, in.res, int32(mt.slots), sTile)
		return nil
	}
	if !load && ct.kind == kFloat && ct.ff == f32 && !cm.colMajor {
		if t := io.tileAt(cm.obj); t != nil && t.has&hasRaw == 0 {
			// A multiply-add's float32 values: straight to memory.
			storeF32Rows(b, ls, R, C, t.f)
			return nil
		}
	}
	tile := l0.wg.scratch.u64(0, R*C)
	if !load {
		tile = io.raw(cm.obj, tile)
	}
	rs, csd := ls, cs // byte steps to the next row and to the next column
	if cm.colMajor {
		rs, csd = cs, ls
	}
	for r := 0; r < R; r++ {
		row := tile[r*C : r*C+C]
		off := r * rs
		switch {
		case load && cs == 2 && csd == 2:
			src := b[off : off+2*C]
			for c := range row {
				row[c] = uint64(binary.LittleEndian.Uint16(src[2*c:]))
			}
		case load && cs == 4 && csd == 4:
			src := b[off : off+4*C]
			for c := range row {
				row[c] = uint64(binary.LittleEndian.Uint32(src[4*c:]))
			}
		case load:
			for c := range row {
				row[c] = rdScalar(ct, b[off+c*csd:])
			}
		case cs == 4 && csd == 4:
			dst := b[off : off+4*C]
			for c, v := range row {
				binary.LittleEndian.PutUint32(dst[4*c:], uint32(v))
			}
		case cs == 2 && csd == 2:
			dst := b[off : off+2*C]
			for c, v := range row {
				binary.LittleEndian.PutUint16(dst[2*c:], uint16(v))
			}
		default:
			for c := range row {
				wrScalar(ct, b[off+c*csd:], row[c])
			}
		}
	}
	if load {
		io.putRaw(in.res, mt, tile)
	}
	return nil
}

// storeF32Rows writes the R x C float32 values f, row-major, as rows ls
// bytes apart from the start of b, NaNs made canonical as tile.bits makes
// them.
func storeF32Rows(b []byte, ls, R, C int, f []float32) {
	nan := uint32(fmtDescs[f32].nan)
	for r := range R {
		dst := b[r*ls : r*ls+4*C]
		for c, v := range f[r*C : r*C+C] {
			u := math.Float32bits(v)
			if v != v {
				u = nan
			}
			binary.LittleEndian.PutUint32(dst[4*c:], u)
		}
	}
}

// matIO reads and writes whole cooperative matrices: from and to the
// lanes' slots or, in lockstep (m set), tiles the subgroup holds whole.
type matIO struct {
	act []*lane
	m   *sgMeta
}

func (io matIO) tileAt(slot int32) *tile {
	if io.m != nil && io.m.st[slot] == sTile {
		return io.m.tiles[slot]
	}
	return nil
}

// raw returns the bits of the matrix at slot, row-major: in dst, or the
// tile's own (not to be written).
func (io matIO) raw(slot int32, dst []uint64) []uint64 {
	if t := io.tileAt(slot); t != nil {
		return t.bits()
	}
	gather(io.act, slot, dst)
	return dst
}

// f32 is raw for formats float32 holds exactly, as float32 values.
func (io matIO) f32(slot int32, f ffmt, dst []float32) []float32 {
	if t := io.tileAt(slot); t != nil {
		if t.has&hasF == 0 {
			t.f = growF(t.f, len(t.raw))
			toF32s(t.f, t.raw, t.mt.elem.ff)
			t.has |= hasF
		}
		return t.f
	}
	gatherF32(io.act, slot, f, dst)
	return dst
}

// putRaw stores a result given as bits; operands must have been read.
func (io matIO) putRaw(slot int32, mt *typ, src []uint64) {
	if io.m == nil {
		scatter(io.act, slot, src)
		return
	}
	t := io.m.newTile(mt)
	t.raw = grow(t.raw, len(src))
	copy(t.raw, src)
	t.has = hasRaw
	io.m.tiles[slot] = t
	setSt(io.m.st, slot, int32(mt.slots), sTile)
}

// putF32 stores a float32 result; operands must have been read.
func (io matIO) putF32(slot int32, mt *typ, src []float32) {
	if io.m != nil {
		t := io.m.newTile(mt)
		t.f = growF(t.f, len(src))
		copy(t.f, src)
		t.has = hasF
		io.m.tiles[slot] = t
		setSt(io.m.st, slot, int32(mt.slots), sTile)
		return
	}
	act := io.act
	n := (len(src) + len(act) - 1) / len(act)
	for li, l := range act {
		lo := li * n
		if lo >= len(src) {
			break
		}
		vs := src[lo:min(lo+n, len(src))]
		regs := l.regs[slot : slot+int32(len(vs))]
		for k, v := range vs {
			bits := uint64(math.Float32bits(v))
			if v != v {
				bits = fmtDescs[f32].nan
			}
			regs[k] = bits
		}
	}
}

// loadRuns loads a row-major matrix of 16- or 32-bit elements straight
// into the lanes when every lane's run of elements lies within one row.
func loadRuns(act []*lane, res int32, b []byte, R, C, ls, cs int) bool {
	n := (R*C + len(act) - 1) / len(act)
	if C%n != 0 {
		return false
	}
	for li, l := range act {
		lo := li * n
		if lo >= R*C {
			break
		}
		off := lo/C*ls + lo%C*cs
		regs := l.regs[res : res+int32(n)]
		if cs == 2 {
			src := b[off : off+2*n]
			for k := range regs {
				regs[k] = uint64(src[2*k]) | uint64(src[2*k+1])<<8
			}
		} else {
			src := b[off : off+4*n]
			for k := range regs {
				regs[k] = uint64(binary.LittleEndian.Uint32(src[4*k:]))
			}
		}
	}
	return true
}

// gather collects a whole matrix from the lanes; scatter hands one out.
// Lane li holds elements li*n to li*n+n-1 at slots slot to slot+n-1.
func gather(act []*lane, slot int32, dst []uint64) {
	n := (len(dst) + len(act) - 1) / len(act)
	for li, l := range act {
		lo := li * n
		if lo >= len(dst) {
			break
		}
		hi := min(lo+n, len(dst))
		copy(dst[lo:hi], l.regs[slot:slot+int32(hi-lo)])
	}
}

func scatter(act []*lane, slot int32, src []uint64) {
	n := (len(src) + len(act) - 1) / len(act)
	for li, l := range act {
		lo := li * n
		if lo >= len(src) {
			break
		}
		hi := min(lo+n, len(src))
		copy(l.regs[slot:slot+int32(hi-lo)], src[lo:hi])
	}
}

// coopMulAdd computes D = A*B + C. Every product is formed exactly (in
// float32 when the inputs are 16-bit or 8-bit floats, whose products
// float32 holds exactly; in float64 otherwise) and added to the
// accumulator in increasing k, starting from C, rounding to the result
// type after each addition. Integer products and sums wrap at the result
// width; with SaturatingAccumulation the sum of products is exact and its
// addition to C saturates. The kernels are in coopkernel.go.
func coopMulAdd(in *instr, io matIO) error {
	l0 := io.act[0]
	cm := in.aux.(*coopMul)
	M, N, K := in.t.rows, in.t.cols, cm.a.cols
	sc := &l0.wg.scratch
	rt := in.t.elem
	at, bt, ctp := cm.a.elem, cm.b.elem, cm.c.elem
	if rt.kind == kFloat && rt.ff == f32 && at.kind == kFloat && bt.kind == kFloat && at.width <= 16 && bt.width <= 16 && ctp.kind == kFloat {
		mulAddF32(sc, io, in, cm, M, N, K)
		return nil
	}
	A := io.raw(cm.slotA, sc.u64(0, M*K))
	B := io.raw(cm.slotB, sc.u64(1, K*N))
	Cm := io.raw(cm.slotC, sc.u64(2, M*N))
	D := sc.u64(3, M*N)
	if rt.kind == kFloat {
		mulAddFloat(sc, cm, rt.ff, A, B, Cm, D, M, N, K)
	} else {
		mulAddInt(sc, cm, rt, A, B, Cm, D, M, N, K)
	}
	io.putRaw(in.res, in.t, D)
	return nil
}

// satAdd adds with saturation to a w-bit result of the given signedness.
func satAdd(c, sum int64, w int, signed bool) uint64 {
	v := float64(c) + float64(sum)
	exact := c + sum
	if signed {
		lo, hi := -int64(1)<<(w-1), int64(1)<<(w-1)-1
		if w == 64 {
			if v > math.MaxInt64/2 && exact < 0 {
				return uint64(hi)
			}
			if v < math.MinInt64/2 && exact > 0 {
				return uint64(lo)
			}
			return uint64(exact)
		}
		return uint64(min(max(exact, lo), hi)) & mask(w)
	}
	if exact < 0 {
		return 0
	}
	if w < 64 && exact > int64(mask(w)) {
		return mask(w)
	}
	return uint64(exact)
}

// mulAddF32 is the float32-accumulator case: products of 16-bit (or
// narrower) floats are exact in float32, so float32 arithmetic gives the
// rounding of the definition.
func mulAddF32(sc *coopScratch, io matIO, in *instr, cm *coopMul, M, N, K int) {
	if io.m != nil {
		// Straight into the result's tile, taken first: should that hand
		// the tiles out, the operands are then read from the invocations.
		t := io.m.newTile(in.t)
		t.f = growF(t.f, M*N)
		a := io.f32(cm.slotA, cm.a.elem.ff, sc.f32(0, M*K))
		b := io.f32(cm.slotB, cm.b.elem.ff, sc.f32(1, K*N))
		mulAddF32Blocked(a, b, io.f32(cm.slotC, cm.c.elem.ff, sc.f32(2, M*N)), t.f, M, N, K)
		t.has = hasF
		io.m.tiles[in.res] = t
		setSt(io.m.st, in.res, int32(in.t.slots), sTile)
		return
	}
	a := io.f32(cm.slotA, cm.a.elem.ff, sc.f32(0, M*K))
	b := io.f32(cm.slotB, cm.b.elem.ff, sc.f32(1, K*N))
	acc := sc.f32(2, M*N)
	copy(acc, io.f32(cm.slotC, cm.c.elem.ff, acc))
	mulAddF32Blocked(a, b, acc, acc, M, N, K)
	io.putF32(in.res, in.t, acc)
}

// gatherF32 collects a whole matrix of a format float32 holds exactly.
func gatherF32(act []*lane, slot int32, f ffmt, dst []float32) {
	n := (len(dst) + len(act) - 1) / len(act)
	for li, l := range act {
		lo := li * n
		if lo >= len(dst) {
			break
		}
		d := dst[lo:min(lo+n, len(dst))]
		toF32s(d, l.regs[slot:slot+int32(len(d))], f)
	}
}

// coopScratch holds a worker's reusable tile buffers.
type coopScratch struct {
	u   [4][]uint64
	f   [3][]float32
	d   [3][]float64
	i   [4][]int64
	i32 [3][]int32
	// cvecIn holds a cooperative vector multiply's input; peRes and args
	// the results and arguments of a per-element function, which may run
	// while a collective's callbacks hold the tiles above.
	cvecIn      []numVal
	peRes, args []uint64
	// batch, batchE and steps serve decodeBatch: the invocations of a
	// round, their elements, and every invocation's step budget before.
	batch  []*lane
	batchE []int
	steps  []int64
	// decIdx and decCoord hold a decode load's element indices and
	// coordinates, which its calls must not overwrite.
	decIdx   []int64
	decCoord []uint64
	// decode serves decodeRows.
	decode *decodeMeta
	// perElement is set while a per-element operation uses peRes and args.
	perElement bool
}

func (s *coopScratch) f64s(k, n int) []float64 {
	if cap(s.d[k]) < n {
		s.d[k] = make([]float64, n)
	}
	return s.d[k][:n]
}

func (s *coopScratch) i64s(k, n int) []int64 {
	if cap(s.i[k]) < n {
		s.i[k] = make([]int64, n)
	}
	return s.i[k][:n]
}

func (s *coopScratch) i32s(k, n int) []int32 {
	if cap(s.i32[k]) < n {
		s.i32[k] = make([]int32, n)
	}
	return s.i32[k][:n]
}

func (s *coopScratch) u64(k, n int) []uint64 {
	if cap(s.u[k]) < n {
		s.u[k] = make([]uint64, n)
	}
	return s.u[k][:n]
}

func (s *coopScratch) f32(k, n int) []float32 {
	if cap(s.f[k]) < n {
		s.f[k] = make([]float32, n)
	}
	return s.f[k][:n]
}

func growI(b []int64, n int) []int64 {
	if cap(b) < n {
		return make([]int64, n)
	}
	return b[:n]
}
