package exec

import (
	"math"
	"strings"

	"github.com/coopshader/coop/spirv"
)

// Lockstep execution. A subgroup whose invocations are converged (same
// instruction, call stack and loop iterations) runs instruction by
// instruction for all of them at once: control flow is decided once, and
// an instruction whose operands hold the same value in every invocation
// (tracked per slot, the subgroup's uniform bits) is computed once and its
// result copied to all. This is one valid interleaving of the invocations
// (each instruction of all of them, in lane order, before the next), so
// results are those of running them one by one, except that output of
// DebugPrintf and the order of racing memory accesses may differ. The
// subgroup leaves lockstep where invocations would diverge (a branch they
// do not agree on) or at an instruction it does not run this way, and
// enters it again where they re-converge at a collective instruction.

// Lockstep kinds of instructions (instr.lk).
const (
	lkPure  uint8 = iota // a function of its operand slots
	lkLoad               // OpLoad: once when the address is the same and not invocation memory
	lkLoadU              // OpLoad of a workgroup-uniform built-in: once when the address is the same
	lkLoadS              // OpLoad of SubgroupId: lkLoadU in a subgroup, lkLoad in a whole workgroup
	lkStore              // OpStore: once when pointer and value are the same outside invocation memory
	lkLane               // run for each invocation (side effects, invocation memory)
	lkCtl                // control flow the lockstep loop performs itself
	lkColl               // collective
	lkExit               // leave lockstep and let each invocation run it
)

// Ways a subgroup (re)enters lockstep (sgMeta.enter).
const (
	enterNone      uint8 = iota
	enterFresh           // every slot holds its template value: all uniform
	enterRecompute       // compare the invocations' slots
	enterResume          // parked at a workgroup barrier: the slot states still hold
)

// sgMeta is a subgroup's lockstep state: for every slot whether it
// varies between the invocations (sVar), holds the same value in all of
// them (sAll), holds a value the same for all that only the leader's
// registers have so far (sLead; copied out when another invocation needs
// it), or belongs to a cooperative matrix the subgroup holds whole in a
// tile (sTile, from the value's first slot on; its elements are handed
// out to the invocations when one of them needs its share).
type sgMeta struct {
	sg    []*lane
	st    []uint8
	tiles []*tile // by first slot, where st is sTile
	pool  []*tile
	used  int
	enter uint8
	// parked: the subgroup waits at a workgroup barrier in lockstep, its
	// slot states and tiles kept for when it goes on.
	parked bool
	// rows holds the sVec slots, slot-major, w values each; bc is scratch
	// for operands broadcast to rows (rows.go).
	rows []uint64
	w    int
	bc   [3][]uint64
	// rs and ro place the rows in rows: slot s's at s*rs+ro (a subgroup of
	// a wide workgroup views the workgroup's rows).
	rs, ro int
	// wide: sg is the whole workgroup of several subgroups (wgState.wide);
	// multi: of several workgroups run at once (a batch, newWG), whose
	// WorkgroupId and workgroup memory differ.
	wide, multi bool
	// aff holds the functions of the sAff slots, runs and box the
	// invocations' ids for them (affine.go); made: the row handler just
	// run made its result sAff.
	aff []affine
	fa  affine // a fused load's address (fuse.go)
	// fv is fused's scratch, fmemo the fused loads' memos (fuse.go),
	// of the lockstep run numbered fepoch.
	fv     fuseVals
	fmemo  []fmemo
	fepoch uint64
	// inv remembers the leader runs' computations of module-scope values
	// (leadrun.go), for the dispatch.
	inv   []invMemo
	runs  []xrun
	box   [3][2]int64
	boxOK bool
	made  bool
	// left counts the steps the invocations spend alike in lockstep down
	// from start, the fewest any of them had left (settle); fin is what
	// each spent so when they finished in lockstep unsettled (spend).
	left, start, fin int64
}

const (
	sVar uint8 = iota
	sAll
	sLead
	sTile
	sVec // in the subgroup's row of the slot (rows.go)
	sAff // an affine function of the invocation's id (affine.go)
)

// tile is a whole cooperative matrix value, row-major: the elements' bits,
// their float32 values, or both (each filled in when first needed).
type tile struct {
	mt  *typ
	raw []uint64
	f   []float32
	has uint8 // hasRaw | hasF
	// held marks, while the pool is reclaimed, a tile some slot holds.
	held bool
}

const (
	hasRaw uint8 = 1 << iota
	hasF
)

// maxTiles bounds the tiles a subgroup holds; past it they are handed out.
const maxTiles = 64

// uniformBuiltin reports built-ins whose value is the same in every
// invocation of a subgroup.
func uniformBuiltin(b spirv.BuiltIn) bool {
	switch b {
	case spirv.BuiltInNumWorkgroups, spirv.BuiltInWorkgroupId, spirv.BuiltInWorkgroupSize,
		spirv.BuiltInSubgroupSize, spirv.BuiltInSubgroupMaxSize, spirv.BuiltInNumSubgroups,
		spirv.BuiltInSubgroupId, spirv.BuiltInDeviceIndex, spirv.BuiltInTileOffsetQCOM, spirv.BuiltInTileDimensionQCOM,
		spirv.BuiltInTileApronSizeQCOM:
		return true
	}
	return false
}

// promotable finds the Function variables used only by whole OpLoad and
// OpStore (not as the stored value): they live in value slots rather than
// invocation memory, so loading and storing them are slot copies.
func (p *prog) promotable(first int) map[uint32]bool {
	insts := p.m.Insts
	cand := map[uint32]bool{}
	for i := first; i < len(insts); i++ {
		in := &insts[i]
		if in.Op == spirv.OpVariable && len(in.Words) >= 3 && spirv.StorageClass(in.Words[2]) == spirv.StorageClassFunction {
			t := p.types[in.Words[0]]
			if t != nil && t.kind == kPointer && t.elem != nil && t.elem.slots > 0 && t.elem.kind != kRuntimeArray {
				cand[in.Words[1]] = true
			}
		}
	}
	if len(cand) == 0 {
		return cand
	}
	for i := first; i < len(insts); i++ {
		in := &insts[i]
		w := in.Words
		if in.Op == spirv.OpExtInst && len(w) >= 4 {
			if set := p.extSets[w[2]]; strings.HasPrefix(set, "NonSemantic.") && set != "NonSemantic.DebugPrintf" {
				continue // debug information names variables but does nothing
			}
		}
		for _, k := range p.idOperands(i) {
			v := w[k]
			if !cand[v] {
				continue
			}
			ok := in.Op == spirv.OpLoad && k == 2 || in.Op == spirv.OpStore && k == 0 && len(w) > 1 && w[1] != v
			if !ok {
				delete(cand, v)
			}
		}
	}
	return cand
}

// promotedLoads finds the loads of promoted variables whose result is
// used only later in the same block with no store to the variable in
// between (the id of the load's result to the variable's): such a result
// can share the variable's value slots, so the load copies nothing.
func (p *prog) promotedLoads(first int, promo map[uint32]bool) map[uint32]uint32 {
	insts := p.m.Insts
	cand := map[uint32]uint32{}
	for i := first; i < len(insts); i++ {
		if in := &insts[i]; in.Op == spirv.OpLoad && len(in.Words) >= 3 && promo[in.Words[2]] {
			cand[in.Words[1]] = in.Words[2]
		}
	}
	if len(cand) == 0 {
		return cand
	}
	bad := map[uint32]bool{}
	open := map[uint32]bool{} // loads of this block whose variable is unchanged since
	for i := first; i < len(insts); i++ {
		in := &insts[i]
		w := in.Words
		if in.Op == spirv.OpLabel {
			clear(open)
		}
		for _, k := range p.idOperands(i) {
			if v := w[k]; cand[v] != 0 && !open[v] {
				bad[v] = true
			}
		}
		if in.Op == spirv.OpStore && len(w) >= 2 && promo[w[0]] {
			for r := range open {
				if cand[r] == w[0] {
					delete(open, r)
				}
			}
		}
		if in.Op == spirv.OpLoad && len(w) >= 3 {
			if _, ok := cand[w[1]]; ok {
				open[w[1]] = true
			}
		}
	}
	for r := range bad {
		delete(cand, r)
	}
	return cand
}

// promotedStores finds the values stored into a promoted variable by the
// instruction right before the store (OpLines aside) and used nowhere
// else (the value's id to the variable's): such a value can be computed
// straight into the variable's slots, so the store copies nothing (it
// becomes a copy of the slots onto themselves). Nothing runs between the
// two, so no read of the variable sees the new value early. Only
// component-wise results of scalar or vector type qualify, and an
// operand sharing the variable's slots (loads) only for scalar
// arithmetic, whose every path reads its operands before it writes.
func (p *prog) promotedStores(first int, promo map[uint32]bool, loads map[uint32]uint32) map[uint32]uint32 {
	insts := p.m.Insts
	cand := map[uint32]uint32{}
	for i := first + 1; i < len(insts); i++ {
		in := &insts[i]
		if in.Op != spirv.OpStore || len(in.Words) < 2 || !promo[in.Words[0]] {
			continue
		}
		j := i - 1
		for j > first && (insts[j].Op == spirv.OpLine || insts[j].Op == spirv.OpNoLine) {
			j--
		}
		if insts[j].ResultID() == in.Words[1] && p.storeInPlace(j, in.Words[0], promo, loads) {
			cand[in.Words[1]] = in.Words[0]
		}
	}
	if len(cand) == 0 {
		return cand
	}
	uses := map[uint32]int{}
	for i := first; i < len(insts); i++ {
		for _, k := range p.idOperands(i) {
			if v := insts[i].Words[k]; cand[v] != 0 {
				uses[v]++
			}
		}
	}
	for x := range cand {
		if uses[x] != 1 {
			delete(cand, x)
		}
	}
	return cand
}

// storeInPlace reports whether d's result may be written straight into
// the slots of the promoted variable v (promotedStores; allocSlots checks
// that the types agree).
func (p *prog) storeInPlace(j int, v uint32, promo map[uint32]bool, loads map[uint32]uint32) bool {
	d := &p.m.Insts[j]
	t := p.types[d.TypeID()]
	if t == nil {
		return false
	}
	e := t
	if t.kind == kVector {
		e = t.elem
	}
	if e == nil || e.kind != kInt && e.kind != kFloat && e.kind != kBool {
		return false
	}
	arith := false
	switch d.Op {
	case spirv.OpIAdd, spirv.OpISub, spirv.OpIMul, spirv.OpFAdd, spirv.OpFSub, spirv.OpFMul:
		arith = t.slots == 1
	case spirv.OpUDiv, spirv.OpSDiv, spirv.OpUMod, spirv.OpSRem, spirv.OpSMod, spirv.OpFDiv, spirv.OpFRem, spirv.OpFMod,
		spirv.OpFNegate, spirv.OpSNegate, spirv.OpNot,
		spirv.OpShiftLeftLogical, spirv.OpShiftRightLogical, spirv.OpShiftRightArithmetic,
		spirv.OpBitwiseAnd, spirv.OpBitwiseOr, spirv.OpBitwiseXor,
		spirv.OpConvertSToF, spirv.OpConvertUToF, spirv.OpConvertFToS, spirv.OpConvertFToU,
		spirv.OpUConvert, spirv.OpSConvert, spirv.OpFConvert, spirv.OpBitcast, spirv.OpSelect,
		spirv.OpIEqual, spirv.OpINotEqual, spirv.OpULessThan, spirv.OpSLessThan, spirv.OpUGreaterThan,
		spirv.OpSGreaterThan, spirv.OpULessThanEqual, spirv.OpSLessThanEqual, spirv.OpUGreaterThanEqual,
		spirv.OpSGreaterThanEqual, spirv.OpFOrdLessThan, spirv.OpFOrdGreaterThan, spirv.OpFOrdEqual,
		spirv.OpLogicalAnd, spirv.OpLogicalOr, spirv.OpLogicalNot:
	case spirv.OpLoad:
		if len(d.Words) < 3 || promo[d.Words[2]] {
			return false
		}
	default:
		return false
	}
	for _, k := range p.idOperands(j) {
		if loads[d.Words[k]] == v && !arith {
			return false
		}
	}
	return true
}

// idOperands returns the word positions of the id operands of
// instruction i (its result type and id aside), from the grammar: a literal
// that happens to equal an id (an OpLine's line, a constant's bits) is not a
// use. An instruction the grammar does not fit counts every word after its
// result.
func (p *prog) idOperands(i int) []uint16 {
	if p.idPos == nil {
		p.indexIDOperands()
	}
	return p.idPos[p.idAt[i]:p.idAt[i+1]]
}

// indexIDOperands fills idPos and idAt for every instruction of the module.
func (p *prog) indexIDOperands() {
	insts := p.m.Insts
	t := spirv.NewTypes()
	p.idAt = make([]int32, len(insts)+1)
	p.idPos = []uint16{}
	var ops []spirv.Operand
	for i := range insts {
		in := &insts[i]
		p.idAt[i] = int32(len(p.idPos))
		var err error
		if ops, err = t.Operands(in, ops[:0]); err != nil || len(in.Words) > 1<<16 {
			for k := operandStart(in); k < len(in.Words) && k < 1<<16; k++ {
				p.idPos = append(p.idPos, uint16(k))
			}
		} else {
			for _, o := range ops {
				switch o.Kind {
				case spirv.KindIdRef, spirv.KindIdMemorySemantics, spirv.KindIdScope:
					p.idPos = append(p.idPos, uint16(o.Offset))
				}
			}
		}
		t.Record(in)
	}
	p.idAt[len(insts)] = int32(len(p.idPos))
}

// operandStart is the index of the first word after result type and id.
func operandStart(in *spirv.Inst) int {
	k := 0
	if d := in.Op.Desc(); d != nil {
		if d.HasType() {
			k++
		}
		if d.HasResult() {
			k++
		}
	}
	return min(k, len(in.Words))
}

// usesOf lists the slots (slot, count pairs) of the value operands of
// instruction i.
func (p *prog) usesOf(i int) []int32 {
	w := p.m.Insts[i].Words
	var u []int32
	for _, k := range p.idOperands(i) {
		if v := w[k]; v < uint32(len(p.slot)) && p.slot[v] >= 0 && p.tyOf[v] != nil && p.tyOf[v].slots > 0 {
			u = append(u, p.slot[v], int32(p.tyOf[v].slots))
		}
	}
	return u
}

// classify sets the lockstep kind and operand slots of every instruction.
func (p *prog) classify() {
	for k := range p.code {
		in := &p.code[k]
		if in.uses == nil && in.op != opHalt && int(in.idx) < len(p.m.Insts) {
			in.uses = p.usesOf(int(in.idx))
		}
		in.rn = resN(in)
		switch {
		case in.coll:
			in.lk = lkColl
		case in.op == spirv.OpBranch || in.op == spirv.OpBranchConditional || in.op == spirv.OpSwitch ||
			in.op == spirv.OpReturn || in.op == spirv.OpReturnValue || in.op == spirv.OpFunctionCall:
			in.lk = lkCtl
		case in.op == spirv.OpLoad || in.op == spirv.OpBufferPointerEXT:
			if in.lk != lkLoadU && in.lk != lkLoadS {
				in.lk = lkLoad
			}
		case in.op == spirv.OpStore:
			in.lk = lkStore
		case in.op == spirv.OpCopyMemory || in.op == opDebugPrintf || in.op == spirv.OpAbortKHR || isAtomic(in.op) || isCvecOp(in.op) || isTensorARMOp(in.op) || isRayStateOp(in.op),
			in.op == spirv.OpImageWrite,
			in.op == spirv.OpExtInst && (in.sub == spirv.GLSLstd450Modf || in.sub == spirv.GLSLstd450Frexp):
			in.lk = lkLane
		case in.op == spirv.OpCooperativeMatrixPerElementOpNV || in.op == spirv.OpUnreachable || in.op == opHalt ||
			in.op == spirv.OpKill || in.op == spirv.OpTerminateInvocation:
			in.lk = lkExit
		default:
			in.lk = lkPure
		}
		in.nop = in.fast == fCopy && len(in.a) == 1 && in.res == in.a[0] && in.w == 0
		in.uk = 0
		switch u := in.uses; {
		case len(u) == 2 && u[1] == 1:
			in.uk, in.us = 1, [2]int32{u[0], u[0]}
		case len(u) == 4 && u[1] == 1 && u[3] == 1:
			in.uk, in.us = 2, [2]int32{u[0], u[2]}
		}
	}
}

// isUni reports a slot state that is the same in every invocation.
func isUni(v uint8) bool { return v == sAll || v == sLead }

// uniform reports whether every slot of uses is the same in all invocations.
func uniform(st []uint8, uses []int32) bool {
	for k := 0; k+1 < len(uses); k += 2 {
		for s := uses[k]; s < uses[k]+uses[k+1]; s++ {
			if !isUni(st[s]) {
				return false
			}
		}
	}
	return true
}

func setSt(st []uint8, s, n int32, v uint8) {
	for k := s; k < s+n; k++ {
		st[k] = v
	}
}

// resN is the number of result slots of in.
func resN(in *instr) int32 {
	if in.res < 0 || in.t == nil {
		return 0
	}
	return int32(in.t.slots)
}

// spread gives every invocation its value of the slots of uses: sLead
// slots are copied from the leader, tiles handed out.
func (m *sgMeta) spread(uses []int32) { m.spreadSlots(uses, true) }

// spreadLead copies the sLead slots of uses from the leader to the others
// and scatters their rows, leaving tiles held.
func (m *sgMeta) spreadLead(uses []int32) { m.spreadSlots(uses, false) }

// spreadSlots is spread, handing out tiles only when tiles is set.
func (m *sgMeta) spreadSlots(uses []int32, tiles bool) {
	ld, rest := m.sg[0], m.sg[1:]
	for k := 0; k+1 < len(uses); k += 2 {
		for s := uses[k]; s < uses[k]+uses[k+1]; s++ {
			switch m.st[s] {
			case sLead:
				v := ld.regs[s]
				for _, l := range rest {
					l.regs[s] = v
				}
				m.st[s] = sAll
			case sTile:
				if tiles {
					m.handOut(s)
				}
			case sVec:
				m.scatterRow(s)
			case sAff:
				m.materialize(s)
				m.scatterRow(s)
			}
		}
	}
}

// handOut scatters the tile at slot s to the invocations.
func (m *sgMeta) handOut(s int32) {
	t := m.tiles[s]
	scatter(m.sg, s, t.bits())
	setSt(m.st, s, int32(t.mt.slots), sVar)
	m.tiles[s] = nil
}

// bits returns the elements' bits.
func (t *tile) bits() []uint64 {
	if t.has&hasRaw == 0 && t.mt.elem.kind == kFloat && t.mt.elem.ff == f16 {
		// Halves loaded as values alone, none a NaN: each value is a
		// half's exactly.
		t.raw = grow(t.raw, len(t.f))
		for k, v := range t.f {
			t.raw[k] = halfBits(float64(v))
		}
		t.has |= hasRaw
	}
	if t.has&hasRaw == 0 {
		// Only float32 results are made as values.
		t.raw = grow(t.raw, len(t.f))
		for k, v := range t.f {
			b := uint64(math.Float32bits(v))
			if v != v {
				b = fmtDescs[f32].nan
			}
			t.raw[k] = b
		}
		t.has |= hasRaw
	}
	return t.raw
}

// floats returns the elements as float32 (for formats float32 holds
// exactly).
func (t *tile) floats() []float32 {
	if t.has&hasF == 0 {
		t.f = growF(t.f, len(t.raw))
		ff := t.mt.elem.ff
		for k, v := range t.raw {
			switch ff {
			case f16:
				t.f[k] = f16Table[uint16(v)]
			case f32:
				t.f[k] = math.Float32frombits(uint32(v))
			default:
				t.f[k] = toF32(v, ff)
			}
		}
		t.has |= hasF
	}
	return t.f
}

func grow(b []uint64, n int) []uint64 {
	if cap(b) < n {
		return make([]uint64, n)
	}
	return b[:n]
}

func growF(b []float32, n int) []float32 {
	if cap(b) < n {
		return make([]float32, n)
	}
	return b[:n]
}

// newTile takes a tile for a result of type mt from the pool, reclaiming
// the tiles no slot holds any more when it is used up. Callers have read
// their operands by then.
func (m *sgMeta) newTile(mt *typ) *tile {
	if m.used == maxTiles {
		m.reclaimTiles()
	}
	if m.used == len(m.pool) {
		m.pool = append(m.pool, &tile{})
	}
	t := m.pool[m.used]
	m.used++
	t.mt, t.has = mt, 0
	return t
}

// reclaimTiles moves the tiles some slot holds to the front of the pool
// and frees the rest; only when every tile is held are they all handed
// out to the invocations.
func (m *sgMeta) reclaimTiles() {
	for _, t := range m.pool {
		t.held = false
	}
	for s, v := range m.st {
		if v == sTile && m.tiles[s] != nil {
			m.tiles[s].held = true
		}
	}
	k := 0
	for i, t := range m.pool {
		if t.held {
			m.pool[k], m.pool[i] = t, m.pool[k]
			k++
		}
	}
	if k == len(m.pool) {
		m.handOutAll()
		k = 0
	}
	m.used = k
}

func (m *sgMeta) handOutAll() {
	for s := 0; s < len(m.st); s++ {
		if m.st[s] == sTile {
			m.handOut(int32(s))
		}
	}
}

// release gives every invocation its values and hands the leader's
// control state to the others, which then run on their own from there.
func (m *sgMeta) release() {
	ld, rest := m.sg[0], m.sg[1:]
	var live []uint64
	if len(ld.stack) == 0 && ld.x != nil && ld.x.check == nil {
		live = ld.p.liveAt(ld.pc)
	}
	for s, v := range m.st {
		if live != nil && v != sTile && v != sVar && v != sAll && live[s>>6]&(1<<(s&63)) == 0 {
			// No instruction the invocations may run from here reads
			// the slot: its values need not reach their registers.
			m.st[s] = sVar
			continue
		}
		switch v {
		case sLead:
			x := ld.regs[s]
			for _, l := range rest {
				l.regs[s] = x
			}
			m.st[s] = sAll
		case sTile:
			m.handOut(int32(s))
		case sVec:
			m.scatterRow(int32(s))
		case sAff:
			m.materialize(int32(s))
			m.scatterRow(int32(s))
		}
	}
	m.used = 0
	m.settle()
	for _, l := range rest {
		l.pc = ld.pc
		l.stack = append(l.stack[:0], ld.stack...)
		l.loops = append(l.loops[:0], ld.loops...)
	}
}

// maxLive bounds the instructions whose live slots liveAt keeps.
const maxLive = 256

// liveAt returns the slots (a bit each) that an invocation of the entry
// function at instruction pc, its call stack empty, may still read: those
// read by any instruction reachable from pc, phi moves included; nil where
// that is not known (an instruction of a feature family, whose aux may
// name slots or callbacks, is reachable) or not kept (maxLive). Every
// later read counts, written again before or not, so a slot left out is
// never read again.
func (p *prog) liveAt(pc int32) []uint64 {
	if v, ok := p.live.Load(pc); ok {
		return v.([]uint64)
	}
	live := p.reachReads(pc)
	n := 0
	p.live.Range(func(any, any) bool { n++; return n < maxLive })
	if n < maxLive {
		p.live.Store(pc, live)
	}
	return live
}

func (p *prog) reachReads(pc int32) []uint64 {
	live := make([]uint64, (len(p.tmpl)+63)/64)
	mark := func(s, n int32) bool {
		if s < 0 || n < 0 || int(s)+int(n) > len(p.tmpl) {
			return false
		}
		for k := s; k < s+n; k++ {
			live[k>>6] |= 1 << (k & 63)
		}
		return true
	}
	seen := make([]bool, len(p.code))
	work := []int32{pc}
	edge := func(e *edge) bool {
		if e == nil {
			return true
		}
		for _, v := range e.moves {
			if !mark(v.src, v.n) {
				return false
			}
		}
		work = append(work, e.pc)
		return true
	}
	for len(work) > 0 {
		at := work[len(work)-1]
		work = work[:len(work)-1]
		if at < 0 || int(at) >= len(p.code) || seen[at] {
			continue
		}
		seen[at] = true
		in := &p.code[at]
		if _, types := in.aux.([]*typ); in.aux != nil && !types {
			return nil
		}
		for k := 0; k+1 < len(in.uses); k += 2 {
			if !mark(in.uses[k], in.uses[k+1]) {
				return nil
			}
		}
		switch in.op {
		case spirv.OpBranch, spirv.OpBranchConditional:
			if !edge(in.e[0]) || !edge(in.e[1]) {
				return nil
			}
			continue
		case spirv.OpSwitch:
			if in.sw == nil {
				return nil
			}
			for _, e := range in.sw.edges {
				if !edge(e) {
					return nil
				}
			}
			if !edge(in.sw.def) {
				return nil
			}
			continue
		case spirv.OpFunctionCall:
			if in.call == nil {
				return nil
			}
			work = append(work, in.call.pc)
		}
		switch in.lk {
		case lkExit:
			continue
		case lkCtl:
			if in.op == spirv.OpReturn || in.op == spirv.OpReturnValue {
				// The caller goes on after its call, which is reachable.
				continue
			}
		}
		work = append(work, at+1)
	}
	return live
}

// park leaves lockstep at a workgroup barrier without handing values
// out: the invocations get the leader's control state (so the barrier's
// checks see where each waits), while values the same everywhere stay in
// the leader and tiles whole, since nothing runs on the subgroup's
// registers until it resumes in lockstep.
func (m *sgMeta) park() {
	ld, rest := m.sg[0], m.sg[1:]
	m.settle()
	for _, l := range rest {
		l.pc = ld.pc
		l.stack = append(l.stack[:0], ld.stack...)
		l.loops = append(l.loops[:0], ld.loops...)
	}
	m.parked = true
}

// settle gives every invocation the steps spent in lockstep since the
// last settle, and starts counting again from the fewest left, so that
// left goes below zero exactly where one of them would run out.
func (m *sgMeta) settle() {
	spent := m.start - m.left
	lo := m.sg[0].steps - spent
	if spent == 0 {
		for _, l := range m.sg[1:] {
			lo = min(lo, l.steps)
		}
	} else {
		for _, l := range m.sg {
			l.steps -= spent
			lo = min(lo, l.steps)
		}
	}
	m.start, m.left = lo, lo
}

// enterLockstep prepares the slot states and the step count.
func (m *sgMeta) enterLockstep() {
	sg := m.sg
	ld := sg[0]
	switch m.enter {
	case enterFresh:
		// Every invocation has the whole budget (reset): nothing to settle.
		b := ld.x.budget
		m.start, m.left = b, b
	case enterResume:
		// The steps spent before (handOff) are still to settle.
		m.settle()
	default:
		m.start, m.left = 0, 0
		m.settle()
	}
	if m.enter == enterResume {
		m.enter, m.parked = enterNone, false
		return
	}
	switch m.enter {
	case enterFresh:
		for s := range m.st {
			m.st[s] = sAll
		}
		for _, r := range ld.p.reset {
			setSt(m.st, r[0], r[1]-r[0], sLead)
		}
	default:
		// Invocation by invocation, each one's registers read in order
		// (slot by slot across the invocations misses the cache at every
		// step in modules of thousands of slots).
		st := m.st
		for s := range st {
			st[s] = sAll
		}
		lr := ld.regs[:len(st)]
		for _, l := range sg[1:] {
			r := l.regs[:len(lr)]
			for s, v := range r {
				if v != lr[s] {
					st[s] = sVar
				}
			}
		}
	}
	m.enter = enterNone
	m.used = 0
}

// lockstep runs the converged subgroup until it finishes, waits at a
// workgroup-wide instruction, or leaves lockstep (its invocations then
// continue from the same place on their own). Only the leader's control
// state (pc, stack, loops) is kept up to date meanwhile, and the steps
// all spend alike in m.left (settle). Where an invocation would run out
// of steps, lockstep ends before the instruction, so that each runs on
// from there on its own and the budget stops the one it stops running
// the invocations one at a time.
func (wg *wgState) lockstep(m *sgMeta) error {
	m.enterLockstep()
	m.fepoch++
	x := wg.x
	code := x.p.code
	st, sg := m.st, m.sg
	ld := sg[0]
	wg.cur = ld
	for {
		in := &code[ld.pc]
		m.left--
		if m.left < 0 {
			m.left++
			wg.leave(m)
			return nil
		}
		if in.ur != nil {
			ran, err := wg.leadRun(m, in.ur)
			if err != nil {
				return err
			}
			if ran {
				continue
			}
		}
		if in.nop {
			ld.pc++
			continue
		}
		if in.fu != nil && m.rows != nil && m.left >= int64(in.fu.n-1) && m.fused(in.fu) {
			m.left -= int64(in.fu.n - 1)
			ld.pc += in.fu.n
			m.skipNops(ld, in.fu.skip)
			continue
		}
		if in.fc != nil && m.rows != nil && m.left >= int64(in.fc.n-1) && m.chain(in.fc) {
			m.left -= int64(in.fc.n - 1)
			ld.pc += in.fc.n
			m.skipNops(ld, in.fc.skip)
			continue
		}
		n := in.rn
		once := false
		switch in.lk {
		case lkPure:
			once = uniformIn(st, in)
		case lkLoad, lkLoadU, lkLoadS:
			once = m.loadOnce(in)
		case lkStore:
			once = uniformIn(st, in) && m.onceAt(ld.regs[in.a[0]])
		case lkLane:
		case lkCtl:
			done, err := wg.lockCtl(in, m)
			if done || err != nil {
				return err
			}
			continue
		case lkColl:
			if in.cq != nil && wg.coopQuick(in, in.cq, m) {
				ld.pc++
				if x.stop.Load() {
					return errStopped
				}
				continue
			}
			// A barrier of the whole workgroup, or a subgroup operation
			// on rows, without work of its own changes no invocation's
			// steps or control state.
			if in.w > 0 || !(m.wide && isBarrier(in.op)) && !m.collRow(in) {
				wg.touched = true
			}
			switch {
			case m.wide && isBarrier(in.op):
				// The whole workgroup is here, in lockstep: the barrier
				// releases at once.
				if in.w > 0 {
					m.settle()
				}
				if err := wg.slices(func(s []*lane) error { return chargeColl(in, s) }); err != nil {
					return err
				}
				if in.w > 0 {
					m.settle()
				}
				ld.pc++
				if x.stop.Load() {
					return errStopped
				}
				continue
			case isWG(in) && !wideCoop(m, in):
				if isBarrier(in.op) && !in.wg {
					m.park()
				} else {
					m.release()
				}
				for _, l := range sg {
					l.state = stBlocked
				}
				return nil
			}
			// Work of its own falls on the invocations unevenly (a
			// short subgroup's share, decode functions): it is charged
			// on settled counts, unless it is an equal share (coopEven).
			// Without, nothing is charged.
			even := in.w > 0 && m.coopEven(in, x)
			if in.w > 0 && !even {
				m.settle()
			}
			if err := wg.lockColl(in, m, even); err != nil {
				return err
			}
			if in.w > 0 && !even {
				m.settle()
			}
			ld.pc++
			if x.stop.Load() {
				return errStopped
			}
			continue
		default:
			m.left++
			wg.leave(m)
			return nil
		}
		// An instruction with work of its own costs every invocation the
		// same, however it runs here (once, on rows, in each invocation).
		weighted := in.w > 0
		if weighted {
			wg.touched = true
		}
		if weighted && !wg.workSteps(m, in.w) {
			m.left++
			wg.leave(m)
			return nil
		}
		switch {
		case once:
			if in.vec == nil || !in.vec(ld.self[:], in) {
				if err := ld.one(in); err != nil {
					return err
				}
			}
			setSt(st, in.res, n, sLead)
		case in.fast == fCopy:
			m.copySlots(in.res, in.a[0], int32(in.m))
		case in.row != nil && m.rows != nil && in.row(m, in):
			if m.made {
				m.made = false
			} else {
				setSt(st, in.res, n, sVec)
			}
		default:
			wg.touched = true
			m.spread(in.uses)
			if in.vec == nil || !in.vec(sg, in) {
				for _, l := range sg {
					if err := l.one(in); err != nil {
						return wg.finishEarly(m, l, ld.pc+1, err)
					}
				}
			}
			setSt(st, in.res, n, sVar)
		}
		if weighted {
			m.setSteps(wg.stmp)
		}
		ld.pc++
		m.skipNops(ld, in.skip)
	}
}

// skipNops passes the leader ld over the k nops at its pc where every
// invocation has a step left for each (else lockstep takes them one by
// one and stops where the budget does).
func (m *sgMeta) skipNops(ld *lane, k int32) {
	if k > 0 && m.left >= int64(k) {
		m.left -= int64(k)
		ld.pc += k
	}
}

// workSteps settles the step counts and puts each invocation's count
// after spending w in wg.stmp; false where one of them has fewer than w
// left (it then runs out on its own).
func (wg *wgState) workSteps(m *sgMeta, w int64) bool {
	m.settle()
	if m.left < w {
		return false
	}
	pre := wg.stmp[:0]
	for _, l := range m.sg {
		pre = append(pre, l.steps-w)
	}
	wg.stmp = pre
	return true
}

// reserve reports whether every invocation has at least n steps left
// beyond those spent alike; where lockstep's count (the fewest left, or
// less) says not, it settles the counts first.
func (m *sgMeta) reserve(n int64) bool {
	if m.left < n {
		m.settle()
	}
	return m.left >= n
}

// uniformRange reports whether every slot state of st is the same in all
// invocations.
func uniformRange(st []uint8) bool {
	for _, v := range st {
		if !isUni(v) {
			return false
		}
	}
	return true
}

// uniformIn is uniform(st, in.uses), through the single slots of in.us
// where the uses are one or two of them.
func uniformIn(st []uint8, in *instr) bool {
	switch in.uk {
	case 1:
		return isUni(st[in.us[0]])
	case 2:
		return isUni(st[in.us[0]]) && isUni(st[in.us[1]])
	}
	return uniform(st, in.uses)
}

// setSteps gives the invocations of m the step counts in to.
func (m *sgMeta) setSteps(to []int64) {
	for i, l := range m.sg {
		l.steps = to[i]
	}
	m.start, m.left = 0, 0
	m.settle()
}

// loadOnce reports whether a load runs once for the subgroup: its address
// is the same everywhere and outside invocation memory, or it reads a
// built-in the same in all of them.
func (m *sgMeta) loadOnce(in *instr) bool {
	a := in.a[0]
	if !isUni(m.st[a]) {
		return false
	}
	switch in.lk {
	case lkLoadU:
		return !m.multi || !m.sg[0].p.groupIn(m.sg[0].regs[a])
	case lkLoadS:
		return !m.wide
	}
	return m.onceAt(m.sg[0].regs[a])
}

// onceAt reports whether an access to the address the same in every
// invocation may run once for all: not in invocation memory, nor in
// workgroup memory where the row spans a batch's workgroups (multi).
func (m *sgMeta) onceAt(a uint64) bool {
	return a>>56 != regInv && !(m.multi && a>>56 == regWG)
}

// slices runs f for each subgroup of the workgroup in order; it stops at
// an error.
func (wg *wgState) slices(f func(s []*lane) error) error {
	for _, s := range wg.sgs {
		if err := f(s); err != nil {
			return err
		}
	}
	return nil
}

// finishEarly returns err, a fault of invocation l in the workgroup's
// wide lockstep, as running the subgroups one after another would have
// found it: each subgroup before l's runs on from resume (the instruction
// after the one they completed with l) until it finishes or waits at a
// workgroup barrier, and a fault of theirs comes first.
func (wg *wgState) finishEarly(m *sgMeta, l *lane, resume int32, err error) error {
	g := l.lid / wg.x.p.sgSize
	if !m.wide || g == 0 {
		return err
	}
	m.release()
	wg.subs = true
	for i := range g {
		for _, e := range wg.sgs[i] {
			e.pc = resume
		}
		wg.meta[i].enter = enterRecompute
	}
	// In a batch the workgroups before l's run to their end first.
	first := 0
	if m.multi {
		k := l.lid / wg.per
		for j := range k {
			if err := wg.runGroup(j); err != nil {
				return err
			}
		}
		first = k * wg.per / wg.x.p.sgSize
	}
	for i := first; i < g; i++ {
		if err := wg.runSubgroup(i); err != nil {
			return err
		}
	}
	return err
}

// lockColl performs a subgroup-wide instruction for the whole subgroup.
func (wg *wgState) lockColl(in *instr, m *sgMeta, charged bool) error {
	sg, st := m.sg, m.st
	ld, rest := sg[0], sg[1:]
	n := resN(in)
	if m.collRow(in) {
		// On rows: each subgroup's part of the operand's row, the result
		// the subgroup's in its part of the result's row.
		if m.wide {
			for _, s := range wg.sgs {
				if err := chargeColl(in, s); err != nil {
					return wg.finishEarly(m, s[0], ld.pc+1, err)
				}
			}
		} else if err := chargeColl(in, sg); err != nil {
			return err
		}
		m.groupRow(in, wg.x.p.sgSize)
		setSt(st, in.res, n, sVec)
		return nil
	}
	if !isCoopOp(in.op) {
		m.spread(in.uses)
		if wideCoop(m, in) {
			if err := collective(in, sg, nil); err != nil {
				return err
			}
		} else if m.wide {
			// Subgroup operations act on each subgroup of the workgroup.
			for _, s := range wg.sgs {
				if err := collective(in, s, s); err != nil {
					return wg.finishEarly(m, s[0], ld.pc+1, err)
				}
			}
		} else if err := collective(in, sg, sg); err != nil {
			return err
		}
		for s := in.res; s < in.res+n; s++ {
			u := sAll
			for _, l := range rest {
				if l.regs[s] != ld.regs[s] {
					u = sVar
					break
				}
			}
			st[s] = u
		}
		return nil
	}
	if charged {
	} else if err := chargeColl(in, sg); err != nil {
		return err
	}
	if len(sg) != wg.x.p.sgSize && !wideCoop(m, in) {
		return ld.fail(in, "cooperative matrices need a full subgroup of %d invocations; this one has %d", wg.x.p.sgSize, len(sg))
	}
	if cm, ok := in.aux.(*coopMem); ok && !(isUni(st[in.a[0]]) && (cm.stride < 0 || isUni(st[cm.stride]))) {
		// Pointer or stride may differ between invocations: the general
		// path, which checks them, with values in the invocations.
		m.spread(in.uses)
		if err := coopExec(in, matIO{act: sg}, false); err != nil {
			return err
		}
		setSt(st, in.res, n, sVar)
		return nil
	}
	// Only the leader's pointer and stride are read; matrices stay whole
	// (a matrix held as a tile, all its slots sTile, is skipped at once).
	// A decode function runs on every invocation, each on its own steps
	// (settled).
	mats := coopMats(in)
	for k := 0; k+1 < len(mats); k += 2 {
		if st[mats[k]] != sTile {
			m.spreadLead(mats[k : k+2])
		}
	}
	if tm, ok := in.aux.(*tensorMem); ok {
		m.toLeader(tm.lead)
	}
	return coopExec(in, matIO{act: sg, m: m}, true)
}

// wideCoop reports a workgroup-scope cooperative matrix instruction in
// the wide lockstep of the whole workgroup (wideMat). A load, store or
// multiply-add runs there as a subgroup-scope one does in a subgroup's,
// on tiles the workgroup holds whole (elements owned by local invocation
// index, as the collective path's act is the workgroup's invocations in
// that order); a reduction or transpose once for the workgroup, on the
// invocations' registers.
func wideCoop(m *sgMeta, in *instr) bool { return m.wide && wideMat(in) }

// wideMat reports the workgroup-scope cooperative matrix instructions the
// wide lockstep runs (wideCoop) rather than leave for.
func wideMat(in *instr) bool {
	return in.wg && (isCoopOp(in.op) || in.op == spirv.OpCooperativeMatrixReduceNV || in.op == spirv.OpCooperativeMatrixTransposeNV)
}

// coopEven charges a cooperative load, store or multiply-add of a whole
// subgroup in lockstep when its equal share is at most what every
// invocation has left: then spending it alike (in m.left, as lockstep
// spends the steps of instructions) is what charging each invocation on
// settled counts would do, and none of them runs out. Elsewhere
// (decode functions, a short subgroup, checking, too few steps) it
// reports false and the collective is charged on settled counts.
func (m *sgMeta) coopEven(in *instr, x *dispatchRun) bool {
	if !isCoopOp(in.op) || decodes(in) || x.check != nil || len(m.sg) != x.p.sgSize && !wideCoop(m, in) {
		return false
	}
	share := (in.w + int64(len(m.sg)) - 1) / int64(len(m.sg))
	if m.left < share {
		return false
	}
	m.left -= share
	return true
}

// collRow reports whether lockColl runs the subgroup operation in on
// rows (groupRow).
func (m *sgMeta) collRow(in *instr) bool {
	return m.rows != nil && groupRowOp(in) && (len(in.a) == 0 || m.st[in.a[0]] != sTile)
}

// groupRowOp reports the subgroup operations groupRow runs: Elect, and
// the Reduce of IAdd on a scalar integer.
func groupRowOp(in *instr) bool {
	switch in.op {
	case spirv.OpGroupNonUniformElect:
		return true
	case spirv.OpGroupNonUniformIAdd:
		return len(in.lit) > 0 && spirv.GroupOperation(in.lit[0]) == spirv.GroupOperationReduce && len(in.a) == 1 &&
			in.t.kind == kInt && in.t.slots == 1
	}
	return false
}

// groupRow performs a groupRowOp for every subgroup of m (consecutive
// parts of size sgs of its rows, all invocations active) as groupExec
// does: Elect is true in each subgroup's first invocation, Reduce adds in
// invocation order, wrapping.
func (m *sgMeta) groupRow(in *instr, sgs int) {
	d := m.row(in.res)
	if in.op == spirv.OpGroupNonUniformElect {
		// Subgroup sizes are powers of two.
		first := m.sg[0].sgl
		for i := range d {
			d[i] = b2u((first+i)&(sgs-1) == 0)
		}
		return
	}
	a := m.arg(in.a[0], 0)[:len(d)]
	mk := mask(in.t.width)
	for o := 0; o < len(d); o += sgs {
		e := min(o+sgs, len(d))
		var acc uint64
		for _, v := range a[o:e] {
			acc += v // wraps modulo 2^64, a multiple of the width's modulus
		}
		acc &= mk
		for j := o; j < e; j++ {
			d[j] = acc
		}
	}
}

// finishWide ends a workgroup all of whose invocations finished together
// in its lockstep: one pass over them counts the steps they spent (for
// spend) and puts them back in their reset state, which the next
// workgroup's reset then skips; walking the invocations once instead of
// three times matters to a workgroup of short invocations.
// Where nothing touched the others (wgState.touched), only the first,
// the leader, has left its reset state: a workgroup of 256 invocations
// then costs one invocation's reset, not 256 cache misses.
func (wg *wgState) finishWide() {
	x := wg.x
	entry, budget := x.p.entry, x.budget
	ls := wg.lanes
	if !wg.touched {
		ls = append(wg.tlist, ls[0])
	}
	var n int64
	for _, l := range ls {
		n += budget - l.steps
		l.memStale, l.pc, l.state, l.steps = true, entry, stRun, budget
		l.stack, l.loops, l.rqs = l.stack[:0], l.loops[:0], l.rqs[:0]
	}
	wg.untouch()
	wg.spent, wg.fresh, wg.touched = n, true, false
}

// touch records that invocation l may have left its reset state (its
// steps charged, memory filled, control state moved), for finishWide:
// the first is always put back, and once touched is set, all are.
func (wg *wgState) touch(l *lane) {
	if wg.touched || l.listed || l == wg.lanes[0] {
		return
	}
	l.listed = true
	wg.tlist = append(wg.tlist, l)
}

// untouch empties the list of touched invocations.
func (wg *wgState) untouch() {
	for _, l := range wg.tlist {
		l.listed = false
	}
	wg.tlist = wg.tlist[:0]
}

// lockCtl performs a control-flow instruction for the whole subgroup. It
// reports done when the subgroup has finished or left lockstep.
func (wg *wgState) lockCtl(in *instr, m *sgMeta) (bool, error) {
	sg, st := m.sg, m.st
	ld, rest := sg[0], sg[1:]
	r := ld.regs
	if len(in.a) > 0 && st[in.a[0]] == sAff {
		m.materialize(in.a[0])
	}
	switch in.op {
	case spirv.OpBranch:
		return wg.lockTake(in.e[0], m)
	case spirv.OpBranchConditional:
		c := in.a[0]
		if st[c] == sVec {
			return wg.lockCondRow(in, m)
		}
		v := r[c] != 0
		if !isUni(st[c]) {
			for _, l := range rest {
				if (l.regs[c] != 0) != v {
					return wg.lockSplit(in, m)
				}
			}
		}
		return wg.lockBranch(in, m, v)
	case spirv.OpSwitch:
		sw := in.sw
		c := in.a[0]
		if st[c] == sVec {
			m.scatterRow(c)
		}
		e := sw.pick(r[c])
		if !isUni(st[c]) {
			for _, l := range rest {
				if sw.pick(l.regs[c]) != e {
					return wg.diverge(m), nil
				}
			}
		}
		return wg.lockTake(e, m)
	case spirv.OpReturn, spirv.OpReturnValue:
		if len(ld.stack) == 0 {
			m.fin = m.start - m.left
			if m.wide && wg.x.check == nil {
				wg.finishWide()
				return true, nil
			}
			for _, l := range sg {
				l.state = stDone
			}
			return true, nil
		}
		f := ld.stack[len(ld.stack)-1]
		ld.stack = ld.stack[:len(ld.stack)-1]
		ld.loops = ld.loops[:min(int(f.loops), len(ld.loops))]
		if in.op == spirv.OpReturnValue {
			m.copySlots(f.res, in.a[0], f.n)
		}
		ld.pc = f.ret
	case spirv.OpFunctionCall:
		ct := in.call
		if len(ld.stack) >= 64 {
			return true, ld.fail(in, "call stack deeper than 64 (recursion is not allowed)")
		}
		for k, s := range in.a {
			m.copySlots(ct.params[k], s, int32(in.lit[k]))
		}
		ld.stack = append(ld.stack, frame{ld.pc + 1, in.res, int32(in.t.slots), int32(len(ld.loops))})
		ld.pc = ct.pc
	}
	return false, nil
}

// diverge leaves lockstep at a branch the invocations do not agree on;
// each then takes its own way from there (the subgroups of a wide
// workgroup each in its own lockstep).
func (wg *wgState) diverge(m *sgMeta) bool {
	m.left++
	wg.leave(m)
	return true
}

// leave ends lockstep of m: a wide workgroup hands its state to its
// subgroups, a subgroup releases its invocations.
func (wg *wgState) leave(m *sgMeta) {
	if m.wide {
		wg.handOff(m)
		return
	}
	m.release()
}

// handOff gives each subgroup of the wide workgroup m its part of m's
// lockstep state, so that each goes on in its own lockstep from where m
// is: the slot states (rows are shared views), the leader's values and
// control state copied to each subgroup's leader; the steps spent alike are
// settled as each subgroup enters its lockstep.
func (wg *wgState) handOff(m *sgMeta) {
	// Tiles of workgroup-scope matrices (wideCoop) go to the invocations
	// first: a subgroup holds tiles of its own matrices only.
	m.handOutAll()
	ld := m.sg[0]
	spent := m.start - m.left
	for i := range wg.meta {
		sm := &wg.meta[i]
		copy(sm.st, m.st)
		sl := sm.sg[0]
		for s, v := range m.st {
			switch {
			case v == sLead && sl != ld:
				sl.regs[s] = ld.regs[s]
			case v == sAff:
				if sm.aff == nil {
					sm.aff = make([]affine, len(sm.st))
				}
				sm.aff[s] = m.aff[s]
			}
		}
		if sl != ld {
			sl.pc = ld.pc
			sl.stack = append(sl.stack[:0], ld.stack...)
			sl.loops = append(sl.loops[:0], ld.loops...)
		}
		sm.enter, sm.parked, sm.used = enterResume, false, 0
		sm.start, sm.left = spent, 0
	}
}

// copySlots copies n slots from src to dst: a tile by reference, a value
// the same everywhere in the leader only, others in every invocation.
func (m *sgMeta) copySlots(dst, src, n int32) {
	st, sg := m.st, m.sg
	switch {
	case n > 0 && st[src] == sTile:
		m.tiles[dst] = m.tiles[src]
		setSt(st, dst, n, sTile)
	case uniformRange(st[src : src+n]):
		copy(sg[0].regs[dst:dst+n], sg[0].regs[src:src+n])
		setSt(st, dst, n, sLead)
	case dst == src:
	case m.rows != nil && allRows(st[src:src+n]):
		for k := range n {
			if st[src+k] == sAff {
				m.aff[dst+k] = m.aff[src+k]
				m.aff[dst+k].filled = false // dst's row is its own
				st[dst+k] = sAff
				continue
			}
			copy(m.row(dst+k), m.row(src+k))
			st[dst+k] = sVec
		}
	default:
		m.spread([]int32{src, n})
		for _, l := range sg {
			d := l.regs[dst : dst+n]
			for k, v := range l.regs[src : src+n] {
				d[k] = v // short: a loop beats a call of memmove
			}
		}
		copy(st[dst:dst+n], st[src:src+n])
	}
}

// lockTake follows edge e for the whole subgroup: the leader's loop
// bookkeeping and pc, the phi copies (tiles by reference, values the same
// everywhere in the leader only, others in every invocation).
func (wg *wgState) lockTake(e *edge, m *sgMeta) (bool, error) {
	sg, st := m.sg, m.st
	ld := sg[0]
	ld.follow(e)
	if len(e.moves) > 0 {
		// Phis read their values before any is written.
		tl := wg.ttmp[:0] // per move: the tile it copies, or nil
		all := true
		for _, v := range e.moves {
			var t *tile
			if v.n > 0 && st[v.src] == sTile {
				t = m.tiles[v.src]
			} else {
				all = all && uniform(st, []int32{v.src, v.n})
			}
			tl = append(tl, t)
		}
		mv := wg.mtmp[:0]
		for i, v := range e.moves {
			if tl[i] == nil {
				mv = append(mv, v)
				if !all {
					m.spread([]int32{v.src, v.n})
				}
			}
		}
		u := wg.utmp[:0]
		for _, v := range mv {
			u = append(u, st[v.src:v.src+v.n]...)
		}
		if all {
			phiMoves(ld, mv)
		} else {
			for _, l := range sg {
				phiMoves(l, mv)
			}
		}
		k := 0
		for i, v := range e.moves {
			switch {
			case tl[i] != nil:
				m.tiles[v.dst] = tl[i]
				setSt(st, v.dst, v.n, sTile)
				continue
			case all:
				setSt(st, v.dst, v.n, sLead)
			default:
				copy(st[v.dst:v.dst+v.n], u[k:k+int(v.n)])
			}
			k += int(v.n)
		}
		wg.mtmp, wg.ttmp, wg.utmp = mv, tl, u
	}
	if e.back != 0 && wg.x.stop.Load() {
		return true, errStopped
	}
	return false, nil
}

// pick chooses the edge for selector value v.
func (st *switchT) pick(v uint64) *edge {
	for k, c := range st.vals {
		if c == v {
			return st.edges[k]
		}
	}
	return st.def
}

// promotedCopy is the slot copy that stands for a load or store of a
// promoted variable.
func (p *prog) promotedCopy(i int, dst, src int32, t *typ, id uint32) instr {
	in := instr{op: spirv.OpCopyObject, res: dst, a: []int32{src}, t: t, at: t, idx: int32(i), id: id,
		uses: []int32{src, int32(t.slots)}}
	setFast(&in)
	return in
}

// uniformInputs finds the Input variables of subgroup-uniform built-ins:
// true for those the same in the whole workgroup, false for SubgroupId.
func (p *prog) uniformInputs(first int) map[uint32]bool {
	u := map[uint32]bool{}
	for i := 0; i < first; i++ {
		in := &p.m.Insts[i]
		if in.Op != spirv.OpVariable || len(in.Words) < 3 || spirv.StorageClass(in.Words[2]) != spirv.StorageClassInput {
			continue
		}
		if d := p.deco(in.Words[1]); d.builtin >= 0 && uniformBuiltin(spirv.BuiltIn(d.builtin)) {
			u[in.Words[1]] = spirv.BuiltIn(d.builtin) != spirv.BuiltInSubgroupId
		}
	}
	return u
}

// markUniformLoad follows pointers into subgroup-uniform built-ins through
// access chains and marks the loads from them.
func (p *prog) markUniformLoad(in *spirv.Inst, ins *instr, uvars map[uint32]bool) {
	if len(in.Words) < 3 {
		return
	}
	wgu, ok := uvars[in.Words[2]]
	if !ok {
		return
	}
	switch in.Op {
	case spirv.OpAccessChain, spirv.OpInBoundsAccessChain:
		uvars[in.Words[1]] = wgu
	case spirv.OpLoad:
		ins.lk = lkLoadU
		if !wgu {
			ins.lk = lkLoadS
		}
	}
}

// allRows reports whether every state of st is sVec or sAff.
func allRows(st []uint8) bool {
	for _, x := range st {
		if x != sVec && x != sAff {
			return false
		}
	}
	return true
}

// lockCondRow performs a conditional branch on a condition held in its
// row.
func (wg *wgState) lockCondRow(in *instr, m *sgMeta) (bool, error) {
	c := in.a[0]
	r := m.row(c)
	v := r[0] != 0
	for _, x := range r[1:] {
		if (x != 0) != v {
			if in.masked != nil {
				// The masked branch reads the condition from its row.
				return wg.masked(in, m)
			}
			if m.regionAt(in) {
				return wg.lockRegion(in, m)
			}
			if !m.wide {
				m.scatterRow(c)
			}
			// A wide workgroup's subgroups read the row they are
			// handed, each deciding on its own part.
			return wg.diverge(m), nil
		}
	}
	return wg.lockBranch(in, m, v)
}

// lockSplit ends a conditional branch whose invocations disagree: a
// masked branch runs both sides in lockstep, any other diverges.
func (wg *wgState) lockSplit(in *instr, m *sgMeta) (bool, error) {
	if in.masked != nil {
		return wg.masked(in, m)
	}
	if m.regionAt(in) {
		return wg.lockRegion(in, m)
	}
	return wg.diverge(m), nil
}

// regionAt reports whether branch in runs as a divergent region here: a
// region ending at its function's return needs the function's frame.
func (m *sgMeta) regionAt(in *instr) bool {
	return in.region != nil && (!in.region.ret || len(m.sg[0].stack) > 0)
}

// lockBranch takes a conditional branch every invocation agrees on.
func (wg *wgState) lockBranch(in *instr, m *sgMeta, v bool) (bool, error) {
	if v {
		return wg.lockTake(in.e[0], m)
	}
	return wg.lockTake(in.e[1], m)
}
