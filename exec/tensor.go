package exec

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"

	"github.com/coopshader/coop/spirv"
)

// Tensor layouts and views (SPV_NV_tensor_addressing) are values of 32-bit
// words: a layout of D dimensions holds blockSize, layoutDimension, stride,
// offset and span (D words each) then clampValue; a view holds
// viewDimension and viewStride (D each) then the four clip values. The
// dimension count, clamp mode, hasDimensions and permutation are static,
// in the type.

type tensorInfo struct {
	view   bool
	dim    int
	clamp  spirv.TensorClampMode
	hasDim bool
	perm   []int
}

// Offsets of the fields in a layout value.
func (ti *tensorInfo) block() int  { return 0 }
func (ti *tensorInfo) ldim() int   { return ti.dim }
func (ti *tensorInfo) stride() int { return 2 * ti.dim }
func (ti *tensorInfo) offset() int { return 3 * ti.dim }
func (ti *tensorInfo) span() int   { return 4 * ti.dim }
func (ti *tensorInfo) clampV() int { return 5 * ti.dim }

// Offsets of the fields in a view value.
func (ti *tensorInfo) vdim() int    { return 0 }
func (ti *tensorInfo) vstride() int { return ti.dim }
func (ti *tensorInfo) clip() int    { return 2 * ti.dim }

// declTensorType builds OpTypeTensorLayoutNV and OpTypeTensorViewNV.
func (p *prog) declTensorType(i int, t *typ, w []uint32) error {
	cnst := func(k int) (uint64, error) {
		if k >= len(w) {
			return 0, p.errAt(i, "missing operand")
		}
		v, ok := p.constU(w[k])
		if !ok {
			return 0, p.errAt(i, "operand %%%d must be a constant", w[k])
		}
		return v, nil
	}
	d, err := cnst(1)
	if err != nil {
		return err
	}
	if d < 1 || d > 5 {
		return p.errAt(i, "tensor dimension %d is not from 1 to 5", d)
	}
	ti := &tensorInfo{dim: int(d)}
	u32 := &typ{kind: kInt, width: 32, slots: 1}
	u32.finishLayout()
	n := 5*ti.dim + 1
	if p.m.Insts[i].Op == spirv.OpTypeTensorViewNV {
		ti.view = true
		hd, err := cnst(2)
		if err != nil {
			return err
		}
		ti.hasDim = hd != 0
		seen := 0
		for k := 0; k < ti.dim; k++ {
			v, err := cnst(3 + k)
			if err != nil {
				return err
			}
			if v >= uint64(ti.dim) || seen&(1<<v) != 0 {
				return p.errAt(i, "the permutation is not one of 0..%d", ti.dim-1)
			}
			seen |= 1 << v
			ti.perm = append(ti.perm, int(v))
		}
		n = 2*ti.dim + 4
	} else {
		cm, err := cnst(2)
		if err != nil {
			return err
		}
		ti.clamp = spirv.TensorClampMode(cm)
	}
	t.kind, t.elem, t.count, t.slots, t.tensor = kVector, u32, n, n, ti
	return nil
}

func isTensorOp(op spirv.Op) bool {
	switch op {
	case spirv.OpCreateTensorLayoutNV, spirv.OpTensorLayoutSetDimensionNV, spirv.OpTensorLayoutSetStrideNV,
		spirv.OpTensorLayoutSliceNV, spirv.OpTensorLayoutSetClampValueNV, spirv.OpCreateTensorViewNV,
		spirv.OpTensorViewSetDimensionNV, spirv.OpTensorViewSetStrideNV, spirv.OpTensorViewSetClipNV,
		spirv.OpTensorLayoutSetBlockSizeNV:
		return true
	}
	return false
}

func (p *prog) compileTensor(i int, ins *instr, ops []uint32) (*instr, error) {
	if ins.t == nil || ins.t.tensor == nil {
		return nil, p.errAt(i, "the result type is not a tensor layout or view")
	}
	ti := ins.t.tensor
	var err error
	if ins.a, err = p.valSlots(i, ops); err != nil {
		return nil, err
	}
	want := 1 + ti.dim
	switch ins.op {
	case spirv.OpCreateTensorLayoutNV, spirv.OpCreateTensorViewNV:
		want = 0
	case spirv.OpTensorLayoutSliceNV:
		want = 1 + 2*ti.dim
	case spirv.OpTensorLayoutSetClampValueNV:
		want = 2
	case spirv.OpTensorViewSetClipNV:
		want = 5
	}
	if len(ins.a) != want {
		return nil, p.errAt(i, "%s needs %d operands for %d dimensions", ins.op, want, ti.dim)
	}
	return ins, nil
}

// tensorEval runs the layout and view instructions: each copies its
// operand and updates some fields.
func (l *lane) tensorEval(in *instr) {
	r := l.regs
	ti := in.t.tensor
	d := r[in.res : in.res+int32(in.t.slots)]
	D := ti.dim
	arg := func(k int) uint64 { return r[in.a[k]] & 0xffffffff }
	if len(in.a) > 0 {
		copy(d, r[in.a[0]:in.a[0]+int32(len(d))])
	}
	switch in.op {
	case spirv.OpCreateTensorLayoutNV:
		clear(d)
		for k := 0; k < D; k++ {
			d[ti.block()+k] = 1
		}
	case spirv.OpCreateTensorViewNV:
		clear(d)
		d[ti.clip()+1], d[ti.clip()+3] = 0xffffffff, 0xffffffff
	case spirv.OpTensorLayoutSetBlockSizeNV:
		for k := 0; k < D; k++ {
			d[ti.block()+k] = arg(1 + k)
		}
	case spirv.OpTensorLayoutSetDimensionNV:
		for k := 0; k < D; k++ {
			d[ti.ldim()+k], d[ti.span()+k], d[ti.offset()+k] = arg(1+k), arg(1+k), 0
		}
		d[ti.stride()+D-1] = 1
		for k := D - 2; k >= 0; k-- {
			b := max(d[ti.block()+k+1], 1)
			d[ti.stride()+k] = d[ti.stride()+k+1] * ((d[ti.ldim()+k+1] + b - 1) / b) & 0xffffffff
		}
	case spirv.OpTensorLayoutSetStrideNV:
		for k := 0; k < D; k++ {
			d[ti.stride()+k] = arg(1 + k)
		}
	case spirv.OpTensorLayoutSliceNV:
		for k := 0; k < D; k++ {
			d[ti.offset()+k] = (d[ti.offset()+k] + arg(1+2*k)) & 0xffffffff
			d[ti.span()+k] = arg(2 + 2*k)
		}
	case spirv.OpTensorLayoutSetClampValueNV:
		d[ti.clampV()] = arg(1)
	case spirv.OpTensorViewSetDimensionNV:
		prod := uint64(1)
		for k := D - 1; k >= 0; k-- {
			d[ti.vdim()+k] = arg(1 + k)
			d[ti.vstride()+k] = prod & 0xffffffff
			prod *= arg(1 + k)
		}
	case spirv.OpTensorViewSetStrideNV:
		for k := 0; k < D; k++ {
			d[ti.vstride()+k] = arg(1 + k)
		}
	case spirv.OpTensorViewSetClipNV:
		for k := 0; k < 4; k++ {
			d[ti.clip()+k] = arg(1 + k)
		}
	}
}

// tensorMem is a prepared OpCooperativeMatrix{Load,Store}TensorNV.
type tensorMem struct {
	mt       *typ
	ptr, obj int32
	tl       int32
	lt       *tensorInfo
	view     int32 // slot of the view, or -1
	vt       *tensorInfo
	decode   *coop2
	// decodeVec is the DecodeVectorFunc of SPV_NV_cooperative_matrix_decode_vector.
	decodeVec *coop2
	// mats are the slots of Object (uses pairs), which a lockstep
	// subgroup hands to every invocation; lead those of the pointer,
	// layout and view, which only the first invocation's registers must
	// hold (toLeader): a layout made in the leader alone stays there.
	mats, lead []int32
}

func (p *prog) compileTensorMem(i int, ins *instr, ops []uint32) (*instr, error) {
	if len(ops) < 5 {
		return nil, p.errAt(i, "missing operands")
	}
	tm := &tensorMem{view: -1}
	s, err := p.valSlots(i, ops[:3])
	if err != nil {
		return nil, err
	}
	tm.ptr, tm.obj, tm.tl = s[0], s[1], s[2]
	tm.mt = p.tyOf[ops[1]]
	lt := p.tyOf[ops[2]]
	if tm.mt.kind != kCoopMat || lt.tensor == nil || lt.tensor.view {
		return nil, p.errAt(i, "operands must be a cooperative matrix and a tensor layout")
	}
	if ins.op == spirv.OpCooperativeMatrixLoadTensorNV && (ins.t == nil || ins.t.kind != kCoopMat || ins.t.slots != tm.mt.slots) {
		return nil, p.errAt(i, "the result must have the type of Object")
	}
	tm.lt = lt.tensor
	rest := ops[3:]
	// The memory operand mask, then its extra operands.
	ma := rest[0]
	rest = rest[1:]
	skip := bits.OnesCount32(ma & uint32(spirv.MemoryAccessAligned|spirv.MemoryAccessMakePointerAvailable|
		spirv.MemoryAccessMakePointerVisible|spirv.MemoryAccessAliasScopeINTELMask|spirv.MemoryAccessNoAliasINTELMask))
	if len(rest) < skip+1 {
		return nil, p.errAt(i, "missing tensor addressing operands")
	}
	rest = rest[skip:]
	ta := rest[0]
	rest = rest[1:]
	if ta&1 != 0 {
		if len(rest) == 0 {
			return nil, p.errAt(i, "missing tensor view")
		}
		vs, vt := p.slotOf(rest[0])
		if vs < 0 || vt.tensor == nil || !vt.tensor.view {
			return nil, p.errAt(i, "%%%d is not a tensor view", rest[0])
		}
		tm.view, tm.vt = vs, vt.tensor
		tm.lead = append(tm.lead, vs, int32(vt.slots))
		rest = rest[1:]
	}
	if ta&2 != 0 {
		if len(rest) == 0 || ins.op != spirv.OpCooperativeMatrixLoadTensorNV {
			return nil, p.errAt(i, "a decode function is only for loads")
		}
		tm.decode = &coop2{fn: rest[0], idx: i, want: 3, decode: true}
		p.callbacks = append(p.callbacks, tm.decode)
		rest = rest[1:]
	}
	if ta&uint32(spirv.TensorAddressingOperandsDecodeVectorFunc) != 0 {
		if len(rest) == 0 || tm.decode == nil {
			return nil, p.errAt(i, "a decode vector function needs a decode function")
		}
		tm.decodeVec = &coop2{src: tm.mt, fn: rest[0], idx: i, want: 3, vec: true, decode: true}
		p.callbacks = append(p.callbacks, tm.decodeVec)
	}
	tm.mats = []int32{tm.obj, int32(tm.mt.slots)}
	tm.lead = append(tm.lead, tm.ptr, 1, tm.tl, int32(lt.slots))
	ins.aux = tm
	ins.coll = true
	ins.wg = spirv.Scope(tm.mt.scope) == spirv.ScopeWorkgroup
	return ins, nil
}

// toLeader writes the slots of uses that lockstep holds in rows or as
// affine functions into the invocations' registers, the leader's among
// them; the leader holds the others already (sAll, sLead, sVar).
func (m *sgMeta) toLeader(uses []int32) {
	for k := 0; k+1 < len(uses); k += 2 {
		for s := uses[k]; s < uses[k]+uses[k+1]; s++ {
			if v := m.st[s]; v == sVec || v == sAff {
				m.spreadSlots([]int32{s, 1}, false)
			}
		}
	}
}

// tensorElement maps element (row, col) of a matrix with N columns to an
// element index of the tensor, following the coopmat2 specification's
// matrixCoordToTensorElement(WithView). skip: the element is clipped (load
// keeps Object's value, store writes nothing); clamped: a Constant-mode
// load takes clampValue (stores are discarded).
func tensorElement(lt *tensorInfo, L []uint64, vt *tensorInfo, V []uint64, row, col, N uint64, store bool,
	blockCoord, inBlock []uint64) (index uint64, skip, clamped bool) {
	D := lt.dim
	var linear uint64
	if vt != nil {
		cro, crs, cco, ccs := V[vt.clip()], V[vt.clip()+1], V[vt.clip()+2], V[vt.clip()+3]
		if row < cro || row >= cro+crs || col < cco || col >= cco+ccs {
			return 0, true, false
		}
		row -= cro
		col -= cco
		width := min(N, ccs)
		idx := row*width + col
		var viewCoord [5]uint64
		for dim := vt.dim - 1; dim >= 0; dim-- {
			i := vt.perm[dim]
			size := L[lt.span()+i]
			if vt.hasDim {
				size = V[vt.vdim()+i]
			}
			size = max(size, 1)
			viewCoord[i] = idx % size
			idx /= size
		}
		var stride [5]uint64
		if vt.hasDim {
			for k := 0; k < vt.dim; k++ {
				stride[k] = V[vt.vstride()+k]
			}
		} else {
			stride[vt.dim-1] = 1
			for dim := vt.dim - 2; dim >= 0; dim-- {
				stride[dim] = stride[dim+1] * L[lt.span()+dim+1]
			}
		}
		for dim := vt.dim - 1; dim >= 0; dim-- {
			linear += viewCoord[dim] * stride[dim]
		}
	} else {
		linear = row*N + col
	}
	linear &= 0xffffffff
	var spanCoord [5]uint64
	for dim := D - 1; dim >= 0; dim-- {
		s := max(L[lt.span()+dim], 1)
		spanCoord[dim] = linear % s
		linear /= s
	}
	index, clamped = tensorAddress(lt, L, &spanCoord, store, blockCoord, inBlock)
	return index, false, clamped
}

// tensorAddress finishes tensorElement from the span coordinates: the
// offsets, clamping, blocks and strides.
func tensorAddress(lt *tensorInfo, L []uint64, spanCoord *[5]uint64, store bool, blockCoord, inBlock []uint64) (index uint64, clamped bool) {
	D := lt.dim
	for dim := 0; dim < D; dim++ {
		c := int64(int32(uint32(spanCoord[dim] + L[lt.offset()+dim])))
		ld := int64(L[lt.ldim()+dim])
		if c < 0 || c >= ld {
			mode := lt.clamp
			if store && mode != spirv.TensorClampModeUndefined {
				mode = spirv.TensorClampModeConstant
			}
			switch mode {
			case spirv.TensorClampModeConstant:
				return 0, true
			case spirv.TensorClampModeClampToEdge:
				c = min(max(c, 0), ld-1)
			case spirv.TensorClampModeRepeat:
				c = smod(c, ld)
			case spirv.TensorClampModeRepeatMirrored:
				c = smod(c, 2*ld-2)
				if c >= ld {
					c = 2*ld - 2 - c
				}
			}
		}
		if b := int64(L[lt.block()+dim]); b > 1 {
			inBlock[dim] = uint64(c % b)
			blockCoord[dim] = uint64(c / b)
		} else {
			inBlock[dim], blockCoord[dim] = 0, uint64(c)
		}
	}
	for dim := 0; dim < D; dim++ {
		index += blockCoord[dim] * L[lt.stride()+dim]
	}
	return index & 0xffffffff, false
}

// tensorIndices runs tensorElement for every element of an R x C matrix
// in row-major order: idxs[e] is the element's index, or tensorSkip or
// tensorClamped; coords, when not nil, gets the block coordinates and
// the coordinates in the block of each element addressed (D of each, at
// 2*D*e). Without a view the linear position of element e is e itself,
// so its span coordinates are a mixed-radix counter stepped once per
// element rather than divided out of e.
func tensorIndices(lt *tensorInfo, L []uint64, vt *tensorInfo, V []uint64, R, C int, store bool, idxs []int64, coords []uint64) {
	D := lt.dim
	var bc, ib [5]uint64
	var span, sc [5]uint64
	counter := vt == nil && uint64(R)*uint64(C) <= 1<<32
	for dim := 0; dim < D; dim++ {
		span[dim] = max(L[lt.span()+dim], 1)
	}
	put := func(e int, idx uint64, skip, clamped bool) {
		switch {
		case skip:
			idxs[e] = tensorSkip
		case clamped:
			idxs[e] = tensorClamped
		default:
			idxs[e] = int64(idx)
			if coords != nil {
				copy(coords[e*2*D:], bc[:D])
				copy(coords[e*2*D+D:], ib[:D])
			}
		}
	}
	n := R * C
	if !counter {
		for e := 0; e < n; e++ {
			idx, skip, clamped := tensorElement(lt, L, vt, V, uint64(e/C), uint64(e%C), uint64(C), store, bc[:], ib[:])
			put(e, idx, skip, clamped)
		}
		return
	}
	in := D - 1 // the innermost dimension
	for e := 0; e < n; {
		idx, clamped := tensorAddress(lt, L, &sc, store, bc[:], ib[:])
		put(e, idx, false, clamped)
		// The rest of the innermost run: when all of it lies inside the
		// tensor, each element's coordinate in the block is the last
		// one's plus one, and where that reaches the block size the
		// block coordinate moves on and the index by the stride.
		run := min(span[in]-sc[in], uint64(n-e))
		c0 := int64(int32(uint32(sc[in] + L[lt.offset()+in])))
		c1 := int64(int32(uint32(sc[in] + run - 1 + L[lt.offset()+in])))
		if !clamped && run > 1 && c0 >= 0 && c1 == c0+int64(run)-1 && c1 < int64(L[lt.ldim()+in]) {
			tensorRun(idxs[e+1:e+int(run)], coords, e+1, D, idx, L[lt.stride()+in], max(L[lt.block()+in], 1), &bc, &ib)
		} else {
			run = 1
		}
		e += int(run)
		sc[in] += run
		for dim := in; dim >= 0 && sc[dim] >= span[dim]; dim-- {
			sc[dim] = 0
			if dim > 0 {
				sc[dim-1]++
			}
		}
	}
}

// tensorRun fills the indices (and, with coords, the coordinates from
// element e on) of a run along the innermost dimension that follows an
// element of index idx and coordinates bc, ib, all inside the tensor:
// each element one further in its block of b, the next block's first
// element stride further.
func tensorRun(idxs []int64, coords []uint64, e, D int, idx, stride, b uint64, bc, ib *[5]uint64) {
	in := D - 1
	if coords == nil {
		if b == 1 {
			for r := range idxs {
				idx = (idx + stride) & 0xffffffff
				idxs[r] = int64(idx)
			}
			return
		}
		k := ib[in]
		for r := range idxs {
			if k++; k == b {
				k = 0
				idx = (idx + stride) & 0xffffffff
			}
			idxs[r] = int64(idx)
		}
		return
	}
	for r := range idxs {
		if ib[in]++; ib[in] >= b {
			ib[in] = 0
			bc[in]++
			idx = (idx + stride) & 0xffffffff
		}
		idxs[r] = int64(idx)
		cd := coords[(e+r)*2*D : (e+r+1)*2*D]
		copy(cd, bc[:D])
		copy(cd[D:], ib[:D])
	}
}

// smod is OpSMod: the remainder takes the sign of the divisor.
func smod(a, b int64) int64 {
	if b == 0 {
		return 0
	}
	r := a % b
	if r != 0 && (r < 0) != (b < 0) {
		r += b
	}
	return r
}

// tensorExec runs a tensor load or store for a whole scope.
func tensorExec(in *instr, act []*lane) error { return tensorMemExec(in, matIO{act: act}) }

// tensorMemExec runs a tensor load or store for a whole subgroup (or
// scope), reading the layout, view and pointer of the first invocation.
func tensorMemExec(in *instr, io matIO) error {
	act := io.act
	l0 := act[0]
	tm := in.aux.(*tensorMem)
	mt := tm.mt
	R, C := mt.rows, mt.cols
	ct := mt.elem
	L := l0.regs[tm.tl : tm.tl+int32(5*tm.lt.dim+1)]
	var V []uint64
	if tm.view >= 0 {
		V = l0.regs[tm.view : tm.view+int32(2*tm.vt.dim+4)]
	}
	base := l0.regs[tm.ptr]
	load := in.op == spirv.OpCooperativeMatrixLoadTensorNV
	sc := &l0.wg.scratch
	if load && tm.decode == nil && io.m != nil && tensorLoadTile(in, io, l0, tm, L, V, base) {
		return nil
	}
	tile := sc.u64(0, R*C)
	if tm.decode == nil {
		copy(tile, io.raw(tm.obj, tile))
		if err := tensorPlain(in, l0, tm, L, V, base, tile, load); err != nil {
			return err
		}
		if load {
			io.putRaw(in.res, mt, tile)
		}
		return nil
	}
	per := (len(tile) + len(act) - 1) / len(act)
	owner := func(e int) *lane { return act[e/per] }
	// Every element's index and coordinates first (D of each kind), then
	// the calls. On rows, a body that reads no coordinates needs none.
	D := tm.lt.dim
	batch := tm.decode.bodyEnd > 0 && l0.x != nil && l0.x.check == nil
	onRows := batch && tm.decode.rows.ok
	if tm.decodeVec != nil {
		// The vector function too must be free of side effects for its
		// calls to come apart from the scalar function's.
		onRows = onRows && tm.decodeVec.bodyEnd > 0
	}
	sc.decIdx = growI(sc.decIdx, R*C)
	idxs, coords := sc.decIdx, []uint64(nil)
	if !onRows || tm.decode.rows.coords || tm.decodeVec != nil {
		sc.decCoord = grow(sc.decCoord, R*C*2*D)
		coords = sc.decCoord
	}
	tensorIndices(tm.lt, L, tm.vt, V, R, C, false, idxs, coords)
	var groups []vecGroup
	if tm.decodeVec != nil {
		groups = decodeScratch(l0).groups(tm, L, idxs, coords)
	}
	if slices.Contains(idxs, tensorSkip) {
		// Clipped elements keep Object's values.
		copy(tile, io.raw(tm.obj, tile))
	}
	for e, idx := range idxs {
		if idx == tensorClamped {
			idxs[e] = tensorSkip
			tile[e] = L[tm.lt.clampV()] & mask(ct.width)
		}
	}
	if tm.decodeVec != nil && onRows {
		if ok, err := decodeVectorsRows(in, tm, groups, act, io.m, per, base, idxs, coords, tile); ok || err != nil {
			if err == nil {
				io.putRaw(in.res, mt, tile)
			}
			return err
		}
	} else if onRows && decodeRows(tm, act, io.m, per, base, idxs, coords, tile) {
		io.putRaw(in.res, mt, tile)
		return nil
	}
	if coords == nil {
		sc.decCoord = grow(sc.decCoord, R*C*2*D)
		coords = sc.decCoord
		tensorIndices(tm.lt, L, tm.vt, V, R, C, false, sc.i64s(0, R*C), coords)
	}
	var done []bool
	if tm.decodeVec != nil {
		var err error
		if done, err = decodeVectors(in, tm, groups, base, tile, owner); err != nil {
			return err
		}
	}
	for e := range done {
		if done[e] {
			idxs[e] = tensorSkip
		}
	}
	if batch && decodeBatch(tm, act, per, base, idxs, coords, tile) {
		io.putRaw(in.res, mt, tile)
		return nil
	}
	var args [11]uint64
	for e, idx := range idxs {
		if idx < 0 {
			continue
		}
		cd := coords[e*2*D : e*2*D+2*D]
		v, err := owner(e).callback(in, tm.decode, decodeArgs(args[:0], tm, base, uint64(idx), cd[:D], cd[D:]))
		if err != nil {
			return err
		}
		tile[e] = v
	}
	io.putRaw(in.res, mt, tile)
	return nil
}

// decodeBatch runs a decode function without side effects
// (coop2.bodyEnd) for the elements whose index idxs holds, in rounds:
// round k calls it for the k-th element of every invocation, all
// together, each instruction through its vector handler (one call for
// the round) or, where that declines, the general path per invocation.
// Each invocation still decodes its own elements in increasing order,
// so the results are those of one call per element. When an instruction
// fails or a step budget runs out it restores the budgets and reports
// false, and the caller makes the calls one by one from the start,
// faulting where they must. Neither it nor the calls spread anything
// from the lockstep subgroup first: besides its parameters and its own
// results a decode function reads only module-scope values (constants
// and variables' addresses, slots below constEnd that every invocation's
// registers hold from the template and nothing writes) and memory
// (Private variables are invocation memory, which lockstep stores write
// in every invocation and an owner fills when first touched);
// exec/decstale_test.go pins this.
func decodeBatch(tm *tensorMem, act []*lane, per int, base uint64, idxs []int64, coords, tile []uint64) bool {
	c := tm.decode
	l0 := act[0]
	D := tm.lt.dim
	if len(l0.stack) >= 64 || c.pn[0] != 1 || int(c.pn[1]) != D || int(c.pn[2]) != D {
		return false // the calls fail, or take their arguments otherwise
	}
	code := l0.p.code
	// What a call spends: its instructions, the return and the halt.
	cost := int64(c.bodyEnd-c.pc) + 2
	sc := &l0.wg.scratch
	steps := sc.steps[:0]
	for _, l := range act {
		steps = append(steps, l.steps)
	}
	sc.steps = steps
	fail := func() bool {
		for i, l := range act {
			l.steps = steps[i]
		}
		return false
	}
	batch, elems := sc.batch[:0], sc.batchE[:0]
	defer func() { sc.batch, sc.batchE = batch[:0], elems[:0] }()
	for k := 0; k < per; k++ {
		batch, elems = batch[:0], elems[:0]
		for li, l := range act {
			e := li*per + k
			if e >= len(idxs) || idxs[e] < 0 {
				continue
			}
			if l.steps -= cost; l.steps < 0 {
				return fail()
			}
			cd := coords[e*2*D : e*2*D+2*D]
			r := l.regs
			r[c.params[0]] = base + uint64(idxs[e])*uint64(c.pointee)
			copy(r[c.params[1]:c.params[1]+c.pn[1]], cd[:D])
			copy(r[c.params[2]:c.params[2]+c.pn[2]], cd[D:])
			batch, elems = append(batch, l), append(elems, e)
		}
		if len(batch) == 0 {
			continue
		}
		for pc := c.pc; pc < c.bodyEnd; pc++ {
			in := &code[pc]
			if in.vec != nil && in.vec(batch, in) {
				continue
			}
			for _, l := range batch {
				if l.one(in) != nil {
					return fail()
				}
			}
		}
		for i, l := range batch {
			tile[elems[i]] = l.regs[c.ret]
		}
	}
	return true
}

// Element states of a tensor load or store without a decode function.
const (
	tensorSkip    = -1 // clipped by the view: untouched
	tensorClamped = -2 // outside the tensor in Constant mode: clampValue, or not stored
)

// tensorPlain loads or stores the elements of tile (row-major) without a
// decode function: every element's index first, then, when all the
// addressed elements are in one region, one bounds check for them all.
// A region the check refuses is walked element by element, so the fault
// names the first element out of bounds, as an element-wise walk would.
func tensorPlain(in *instr, l0 *lane, tm *tensorMem, L, V []uint64, base uint64, tile []uint64, load bool) error {
	mt := tm.mt
	R, C := mt.rows, mt.cols
	ct := mt.elem
	es := uint64(ct.bytes())
	idxs := l0.wg.scratch.i64s(0, R*C)
	tensorIndices(tm.lt, L, tm.vt, V, R, C, !load, idxs, nil)
	lo, hi := uint64(math.MaxUint64), uint64(0)
	for _, idx := range idxs {
		if idx >= 0 {
			lo, hi = min(lo, uint64(idx)), max(hi, uint64(idx))
		}
	}
	var b []byte
	if lo <= hi {
		var err error
		if b, err = l0.region(in, base+lo*es, int((hi-lo+1)*es), !load); err != nil {
			b = nil
		}
	}
	for e, idx := range idxs {
		switch {
		case idx == tensorSkip:
			continue
		case idx == tensorClamped:
			if load {
				tile[e] = L[tm.lt.clampV()] & mask(ct.width)
			}
			continue
		}
		var eb []byte
		if b != nil {
			eb = b[(uint64(idx)-lo)*es:]
		} else {
			var err error
			if eb, err = l0.region(in, base+uint64(idx)*es, int(es), !load); err != nil {
				return err
			}
		}
		if load {
			tile[e] = rdScalar(ct, eb)
		} else {
			wrScalar(ct, eb, tile[e])
		}
	}
	return nil
}

// tensorLoadTile is a plain tensor load straight into a tile of the
// lockstep subgroup, for the common case where every element is
// addressed (nothing clipped or clamped) and each row of the matrix is
// a run of consecutive tensor elements, all in one region: rows copied
// whole, halves converted in bulk as cooperative loads do, Object not
// read. It reports false, having changed nothing the general path does
// not redo, where that does not hold; the general path then faults
// where it must.
func tensorLoadTile(in *instr, io matIO, l0 *lane, tm *tensorMem, L, V []uint64, base uint64) bool {
	mt := tm.mt
	R, C := mt.rows, mt.cols
	ct := mt.elem
	es := ct.bytes()
	if (ct.kind != kInt && ct.kind != kFloat) || ct.width != 8*es || es > 4 || R*C == 0 {
		return false
	}
	idxs := l0.wg.scratch.i64s(0, R*C)
	tensorIndices(tm.lt, L, tm.vt, V, R, C, false, idxs, nil)
	lo, hi := int64(math.MaxInt64), int64(-1)
	for r := 0; r < R; r++ {
		row := idxs[r*C : r*C+C]
		x := row[0]
		if x < 0 {
			return false
		}
		for c, v := range row {
			if v != x+int64(c) {
				return false
			}
		}
		lo, hi = min(lo, x), max(hi, x+int64(C))
	}
	b, err := l0.region(in, base+uint64(lo)*uint64(es), int(hi-lo)*es, false)
	if err != nil {
		return false
	}
	t := io.m.newTile(mt)
	t.raw, t.has = grow(t.raw, R*C), hasRaw
	if ct.kind == kFloat && ct.ff == f16 {
		t.f, t.has = growF(t.f, R*C), hasRaw|hasF
	}
	for r := 0; r < R; r++ {
		src := b[int(idxs[r*C]-lo)*es:][:C*es]
		raw := t.raw[r*C : r*C+C]
		switch {
		case t.has&hasF != 0:
			loadHalves(src, raw, t.f[r*C:r*C+C])
		case es == 1:
			for c := range raw {
				raw[c] = uint64(src[c])
			}
		case es == 2:
			for c := range raw {
				raw[c] = uint64(binary.LittleEndian.Uint16(src[2*c:]))
			}
		default:
			for c := range raw {
				raw[c] = uint64(binary.LittleEndian.Uint32(src[4*c:]))
			}
		}
	}
	io.m.tiles[in.res] = t
	setSt(io.m.st, in.res, int32(mt.slots), sTile)
	return true
}

// decodeArgs appends to args a decode function's arguments: a pointer to
// the block (blocks are the size of the scalar decode function's
// pointee), then the block coordinates and the coordinates within the
// block.
func decodeArgs(args []uint64, tm *tensorMem, base, idx uint64, bc, ib []uint64) []uint64 {
	args = append(args, base+idx*uint64(tm.decode.pointee))
	args = append(args, bc[:tm.lt.dim]...)
	return append(args, ib[:tm.lt.dim]...)
}

// vecGroup is a group of matrix elements one call of a vector decode
// function covers (decodeMeta.groups).
type vecGroup struct {
	elem   [8]int // matrix element of each component
	bc, ib [5]uint64
	idx    uint64
}

// groups finds every group of V matrix elements the specification lets
// the vector decode function cover: elements of one block whose
// coordinates agree but in the last dimension, where they run over V
// consecutive values from a multiple of V, in the order their first
// elements come. idxs and coords are tensorIndices' (clamped elements
// not yet replaced). The groups are dm's until its next call.
func (dm *decodeMeta) groups(tm *tensorMem, L []uint64, idxs []int64, coords []uint64) []vecGroup {
	D := tm.lt.dim
	nv := int(tm.decodeVec.nres) / max(tm.mt.elem.slots, 1)
	if dm.gat == nil {
		dm.gat = map[vecKey]int32{}
	}
	clear(dm.gat)
	parts := dm.gparts[:0]
	last := -1
	for e, idx := range idxs {
		if idx < 0 {
			continue // clipped or clamped
		}
		var k vecKey
		cd := coords[e*2*D : e*2*D+2*D]
		copy(k.bc[:D], cd[:D])
		copy(k.ib[:D], cd[D:])
		off := int(k.ib[D-1] % uint64(nv))
		k.ib[D-1] -= uint64(off)
		// Elements of a group mostly come one after another.
		g := last
		if g < 0 || parts[g].k != k {
			i, ok := dm.gat[k]
			if !ok {
				i = int32(len(parts))
				dm.gat[k] = i
				parts = append(parts, vecPart{k: k, idx: uint64(idx), elem: [8]int{-1, -1, -1, -1, -1, -1, -1, -1}})
			}
			g = int(i)
		}
		last = g
		p := &parts[g]
		if p.elem[off] >= 0 {
			p.bad = true
			continue
		}
		p.elem[off] = e
		p.n++
	}
	dm.gparts = parts
	out := dm.gout[:0]
	for _, p := range parts {
		if p.bad || p.n != nv || L[tm.lt.block()+D-1] != 0 && L[tm.lt.block()+D-1]%uint64(nv) != 0 {
			continue
		}
		out = append(out, vecGroup{elem: p.elem, bc: p.k.bc, ib: p.k.ib, idx: p.idx})
	}
	dm.gout = out
	return out
}

// vecKey is what the elements of one group share (decodeMeta.groups).
type vecKey struct {
	bc, ib [5]uint64
}

// vecPart is a group as decodeMeta.groups gathers it: the matrix
// element of each component (-1 while none), how many, whether an
// offset came twice (clamping folds elements together), its index.
type vecPart struct {
	k    vecKey
	elem [8]int
	n    int
	bad  bool
	idx  uint64
}

// decodeVectors decodes every group of decodeMeta.groups with the vector
// decode function, each once, on the invocation owning its element of
// lowest coordinate. The scalar decode function is then called for each
// element of the group too, and a disagreement is a fault: the
// implementation may call either, so a shader whose two functions differ
// has no defined result. It returns which elements are done.
func decodeVectors(in *instr, tm *tensorMem, groups []vecGroup, base uint64, tile []uint64, owner func(int) *lane) ([]bool, error) {
	D := tm.lt.dim
	nv := int(tm.decodeVec.nres) / max(tm.mt.elem.slots, 1)
	done := make([]bool, len(tile))
	vals := make([]uint64, nv)
	for _, g := range groups {
		l := owner(g.elem[0])
		args := decodeArgs(nil, tm, base, g.idx, g.bc[:], g.ib[:])
		if _, err := l.callback(in, tm.decodeVec, args); err != nil {
			return nil, err
		}
		copy(vals, l.regs[tm.decodeVec.res:tm.decodeVec.res+int32(nv)])
		for i, e := range g.elem[:nv] {
			ib := g.ib
			ib[D-1] += uint64(i)
			s, err := owner(e).callback(in, tm.decode, decodeArgs(nil, tm, base, g.idx, g.bc[:], ib[:]))
			if err != nil {
				return nil, err
			}
			if err := vecAgree(in, tm, l, e, i, s, vals[i]); err != nil {
				return nil, err
			}
			tile[e], done[e] = vals[i], true
		}
	}
	return done, nil
}

// vecAgree faults where the scalar decode function's value s for matrix
// element e differs from component i, v, of the vector function's.
func vecAgree(in *instr, tm *tensorMem, l *lane, e, i int, s, v uint64) error {
	if sameValue(tm.mt.elem, s, v) {
		return nil
	}
	C := tm.mt.cols
	return l.fail(in, "the decode functions disagree at matrix element (%d, %d): the scalar function gives %#x, component %d of the vector function %#x",
		e/C, e%C, s, i, v)
}

// decodeVectorsRows is decodeVectors where both decode functions have no
// side effects: the vector calls first (on rows, decodeVecRows, where
// they can run there), then the scalar function for
// every element the load addresses at once (decodeRows), into tile, and
// the comparisons; vector values then replace the scalar ones. The calls
// give what decodeVectors' interleaved ones give, and a disagreement is
// the same first one. It reports false, with every budget as before,
// where a call fails or decodeRows cannot run; the interleaved calls then
// take over and fault where they must.
func decodeVectorsRows(in *instr, tm *tensorMem, groups []vecGroup, act []*lane, lm *sgMeta, per int, base uint64, idxs []int64, coords, tile []uint64) (bool, error) {
	sc := &act[0].wg.scratch
	steps := sc.steps[:0]
	for _, l := range act {
		steps = append(steps, l.steps)
	}
	sc.steps = steps
	restore := func() {
		for i, l := range act {
			l.steps = sc.steps[i]
		}
	}
	owner := func(e int) *lane { return act[e/per] }
	nv := int(tm.decodeVec.nres) / max(tm.mt.elem.slots, 1)
	vals := sc.u64(1, len(groups)*nv)
	if !decodeVecRows(tm, groups, act, lm, per, base, vals) {
		for k, g := range groups {
			l := owner(g.elem[0])
			var a [11]uint64
			pc, state, depth, loops := l.pc, l.state, len(l.stack), len(l.loops)
			if _, err := l.callback(in, tm.decodeVec, decodeArgs(a[:0], tm, base, g.idx, g.bc[:], g.ib[:])); err != nil {
				// As before the call, for the interleaved calls to redo it.
				l.pc, l.state, l.stack, l.loops = pc, state, l.stack[:depth], l.loops[:loops]
				restore()
				return false, nil
			}
			copy(vals[k*nv:k*nv+nv], l.regs[tm.decodeVec.res:tm.decodeVec.res+int32(nv)])
		}
	}
	if !decodeRows(tm, act, lm, per, base, idxs, coords, tile) {
		restore()
		return false, nil
	}
	for k, g := range groups {
		for i, e := range g.elem[:nv] {
			v := vals[k*nv+i]
			if err := vecAgree(in, tm, owner(g.elem[0]), e, i, tile[e], v); err != nil {
				return true, err
			}
			tile[e] = v
		}
	}
	return true, nil
}

// sameValue compares two scalars bit for bit, any NaN equal to any NaN.
func sameValue(t *typ, a, b uint64) bool {
	if a == b {
		return true
	}
	return t.kind == kFloat && math.IsNaN(toF64(a, t.ff)) && math.IsNaN(toF64(b, t.ff))
}
