package exec

import (
	"fmt"
	"strings"

	"github.com/coopshader/coop/spirv"
	"github.com/coopshader/coop/validate"
)

// instr is one decoded instruction: operand ids mapped to value slots.
type instr struct {
	// The fields lockstep reads for every instruction come first, in one
	// cache line (rows leave little of the first-level cache to code).
	op  spirv.Op
	res int32 // result slot
	rn  int32 // result slots (resN), for lockstep
	// skip is the number of nops right after the instruction, which
	// lockstep passes over at once (nopRuns).
	skip int32
	// lk is how lockstep execution treats the instruction; uses are the
	// slots of its value operands (slot, count pairs).
	lk uint8
	// fast selects an inlined path in the interpreter loop for the
	// commonest scalar instructions; m is the result mask there.
	fast uint8
	// nop marks a copy of slots onto themselves (a promoted variable's
	// load sharing its slots), which lockstep only counts as a step; uk
	// says how lockstep tests the uses for uniformity: 1 or 2 single
	// slots in us, 0 the whole list.
	nop bool
	// vres marks an instruction computing its result straight into a
	// promoted variable's slots (promotedStores).
	vres bool
	uk   uint8
	us   [2]int32
	// fu and fc are the fused load run and chain starting here (fuse.go).
	fu *fusedLoad
	fc *fusedChain
	// ur are the leader run's records from here (leadrun.go); cq is a
	// cooperative instruction's quick path (cooprun.go).
	ur []uop
	cq *coopQuick
	// row runs it for a subgroup in lockstep on rows of values (rows.go).
	row rowOp
	a   []int32
	// w is the instruction's work beyond one step (limits.go: weigh).
	w int64
	// vec runs the instruction for a list of invocations at once, where
	// it has such a handler (vec.go).
	vec  vecOp
	m    uint64
	uses []int32
	t    *typ // result type
	at   *typ // type of the first value operand
	lit  []uint32
	sub  uint32 // extended instruction number, scope, or a slot offset
	// The core's operands, by kind of instruction: branch edges (e[0]
	// for OpBranch), switch table, callee, access chain, memory layout of
	// a load or store's pointer, OpArrayLength's member offset and
	// stride, DebugPrintf's format.
	e      [2]*edge
	sw     *switchT
	call   *callT
	ch     *chain
	ml     matLayout
	alen   [2]int
	printf *printfT
	// aux is what a feature family (images, cooperative operations,
	// tensors, ...) or an operand-type list ([]*typ) needs.
	aux any
	idx int32 // index in Module.Insts
	id  uint32
	// coll marks collective instructions the scheduler runs for several
	// invocations together; wg those whose scope is the whole workgroup.
	coll bool
	wg   bool
	fam  uint8
	// masked is set on conditional branches lockstep can run with each
	// side masked (masked.go).
	masked *maskedIf
	// region is set on conditional branches whose sides lockstep runs
	// one invocation at a time up to their merge (region.go).
	region *regionIf
}

const (
	fNoFast uint8 = iota
	fIAdd
	fISub
	fIMul
	fAnd
	fULT
	fSLT
	fIEq
	fExtract
	fChain
	fLoad32
	fStore32
	fCopy
)

// setFast picks the inlined path for in, if it has one.
func setFast(in *instr) {
	t := in.t
	switch {
	case t != nil && t.kind == kInt && t.slots == 1 && len(in.a) == 2 && in.at != nil && in.at.kind == kInt:
		in.m = mask(t.width)
		switch in.op {
		case spirv.OpIAdd:
			in.fast = fIAdd
		case spirv.OpISub:
			in.fast = fISub
		case spirv.OpIMul:
			in.fast = fIMul
		case spirv.OpBitwiseAnd:
			in.fast = fAnd
		}
	case t != nil && t.kind == kBool && len(in.a) == 2 && in.at != nil && in.at.kind == kInt && in.at.slots == 1:
		in.m = uint64(in.at.width)
		switch in.op {
		case spirv.OpULessThan:
			in.fast = fULT
		case spirv.OpSLessThan:
			in.fast = fSLT
		case spirv.OpIEqual:
			in.fast = fIEq
		}
	case in.op == spirv.OpCompositeExtract && t != nil && t.slots == 1:
		in.fast = fExtract
	case in.op == spirv.OpCopyObject && t != nil && len(in.a) == 1:
		in.fast, in.m = fCopy, uint64(t.slots)
	case isChain(in.op):
		if c := in.ch; c.desc < 0 {
			in.fast = fChain
		}
	case in.op == spirv.OpLoad && t != nil && t.kind == kInt && t.width == 32 && in.ml.stride == 0:
		in.fast = fLoad32
	case in.op == spirv.OpStore && in.at != nil && in.at.kind == kInt && in.at.width == 32 && in.ml.stride == 0:
		in.fast = fStore32
	}
}

type edge struct {
	label uint32
	pc    int32
	moves []move
	// Loop bookkeeping: the edge enters the loop with header enter, is a
	// back-edge of the loop with header back, or leaves the loop whose
	// header is exit (its target is that loop's merge block).
	enter, back, exit uint32
}

type move struct{ src, dst, n int32 }

type switchT struct {
	vals  []uint64
	edges []*edge
	def   *edge
}

type callT struct {
	fn     uint32
	pc     int32
	params []int32
}

type chain struct {
	off     int
	steps   []cstep
	desc    int32 // slot of the descriptor table, or -1
	descN   int
	descIdx int32 // slot of the descriptor index
	descW   int
}

type cstep struct {
	slot   int32
	w      int
	stride int
	bound  int
}

type phi struct {
	res   int32
	n     int32
	pairs []uint32 // value, parent label, ...
}

// compileFunctions turns the function section into code, pass by pass:
// value slots for every result (allocSlots), then each function's body
// (fnBuild: its blocks' shape, then its instructions, then its branch
// targets), then the load-time choices over all code (classify,
// pickVecs), the callbacks, and the calls' targets (linkCalls).
func (p *prog) compileFunctions(first int) error {
	insts := p.m.Insts
	pslot, err := p.allocSlots(first, p.promotable(first))
	if err != nil {
		return err
	}
	var calls []*instr
	merges, loops := map[int32]*edge{}, map[int32]*edge{}
	uvars := p.uniformInputs(first)
	for _, f := range p.res.Funcs {
		b := &fnBuild{p: p, fn: f.ID, pslot: pslot, uvars: uvars, calls: &calls, merges: merges, loops: loops}
		if err := b.compile(f); err != nil {
			return err
		}
	}
	p.halt = int32(len(p.code))
	p.code = append(p.code, instr{op: opHalt, idx: int32(len(insts) - 1), res: -1})
	p.markVarResults(pslot)
	p.resetSlots()
	p.classify()
	p.weigh()
	p.quickCoops()
	p.pickVecs()
	p.fuseLoads(first)
	p.nopRuns()
	p.leadRuns()
	if err := p.resolveCallbacks(); err != nil {
		return err
	}
	p.linkCalls(calls)
	p.findRegions(merges, loops)
	return nil
}

// markVarResults marks the instructions other than slot copies whose
// result slots are a promoted variable's (promotedStores made them so).
func (p *prog) markVarResults(pslot map[uint32]int32) {
	if len(pslot) == 0 {
		return
	}
	isVar := make([]bool, len(p.tmpl))
	for v, s := range pslot {
		for k := range p.tyOf[v].elem.slots {
			isVar[int(s)+k] = true
		}
	}
	for k := range p.code {
		in := &p.code[k]
		in.vres = in.res >= 0 && int(in.res) < len(isVar) && isVar[in.res] && in.op != spirv.OpCopyObject && in.op != spirv.OpStore
	}
}

// allocSlots gives every result a slot; Function variables get
// invocation memory, or value slots when promoted (returned by id).
func (p *prog) allocSlots(first int, promo map[uint32]bool) (map[uint32]int32, error) {
	insts := p.m.Insts
	pslot := map[uint32]int32{}
	alias := p.promotedLoads(first, promo)
	stores := p.promotedStores(first, promo, alias)
	for i := first; i < len(insts); i++ {
		in := &insts[i]
		ty := in.TypeID()
		id := in.ResultID()
		if id == 0 || ty == 0 || in.Op == spirv.OpFunction {
			continue
		}
		t := p.types[ty] // validation made every result type a type
		if v, ok := alias[id]; ok && p.tyOf[v].elem == t {
			p.slot[id], p.tyOf[id] = pslot[v], t
			continue
		}
		if v, ok := stores[id]; ok && p.tyOf[v].elem == t {
			p.slot[id], p.tyOf[id] = pslot[v], t
			continue
		}
		s, err := p.newSlots(i, id, t)
		if err != nil {
			return nil, err
		}
		if in.Op != spirv.OpVariable && in.Op != spirv.OpUntypedVariableKHR {
			p.defined = append(p.defined, [2]int32{s, s + int32(max(t.slots, 0))})
		}
		if in.Op == spirv.OpVariable || in.Op == spirv.OpUntypedVariableKHR {
			vt, _, err := p.localVar(i, t)
			if err != nil {
				return nil, err
			}
			if promo[id] {
				if len(p.tmpl)+t.elem.slots > maxSlots {
					return nil, fmt.Errorf("%w: instruction %d: values need more than %d slots per invocation", ErrUnsupported, i, maxSlots)
				}
				pslot[id] = int32(len(p.tmpl))
				p.tmpl = append(p.tmpl, make([]uint64, t.elem.slots)...)
				continue
			}
			off := roundUp(p.invMem, 8)
			p.invMem = off + vt.size
			if p.invMem > maxMem {
				return nil, fmt.Errorf("%w: instruction %d: more than %d bytes of memory per invocation", ErrUnsupported, i, maxMem)
			}
			p.tmpl[s] = addrOf(regInv, 0, off)
		}
	}
	p.invInit = append(p.invInit, make([]byte, p.invMem-len(p.invInit))...)
	return pslot, nil
}

// linkCalls points every call at its function's code and parameters.
func (p *prog) linkCalls(calls []*instr) {
	// Validation matched every call to a function and its parameters.
	for _, c := range calls {
		ct := c.call
		ct.pc = p.fnPC[ct.fn]
		ct.params = p.params[ct.fn]
	}
}

// fnBuild compiles one function.
type fnBuild struct {
	p     *prog
	fn    uint32
	pslot map[uint32]int32 // promoted variables' value slots
	uvars map[uint32]bool  // pointers into subgroup-uniform built-ins
	calls *[]*instr
	// merges holds the selection merge block of each conditional branch
	// that has one (by pc; its target pc once linked).
	merges map[int32]*edge
	// loops holds, for each conditional branch inside a loop, an edge to
	// the innermost one's merge block, exit its header (by pc).
	loops map[int32]*edge
	// The blocks' shape (scan): phis by block, loop headers, the header
	// whose merge block a block is, each block's order.
	phis       map[uint32][]phi
	loopHeader map[uint32]bool
	mergeOf    map[uint32]uint32
	selMerge   map[uint32]uint32 // a selection header's merge block
	blockAt    map[uint32]int
	blocks     []*validate.Block
	// label is the block being compiled; labelPC where each block's code
	// starts; fix the edges whose target pc link fills in.
	label   uint32
	labelPC map[uint32]int32
	fix     []*edge
}

// compile compiles function f of the validated module.
func (b *fnBuild) compile(f *validate.Func) error {
	p := b.p
	p.fnRet[b.fn] = p.types[p.m.Insts[f.Index].TypeID()]
	if len(f.Blocks) == 0 {
		p.unsupport(f.Index, "a function without a body (linkage)")
		return nil
	}
	b.scan(f)
	p.fnPC[b.fn] = int32(len(p.code))
	if err := b.body(f.Index, f.End); err != nil {
		return err
	}
	b.link()
	return nil
}

// scan records the function's blocks, loop headers and merge blocks (for
// telling dynamic instances apart) and phis, from the structure
// validation established.
func (b *fnBuild) scan(f *validate.Func) {
	p := b.p
	b.phis = map[uint32][]phi{}
	b.loopHeader = map[uint32]bool{}
	b.mergeOf = map[uint32]uint32{}
	b.selMerge = map[uint32]uint32{}
	b.blockAt = make(map[uint32]int, len(f.Blocks))
	b.blocks = f.Blocks
	b.labelPC = make(map[uint32]int32, len(f.Blocks))
	for n, blk := range f.Blocks {
		b.blockAt[blk.Label] = n
		if blk.Loop {
			b.loopHeader[blk.Label] = true
			b.mergeOf[blk.Merge] = blk.Label
		} else if blk.Merge != 0 {
			b.selMerge[blk.Label] = blk.Merge
		}
		for k := blk.First + 1; k < blk.Last; k++ {
			in := &p.m.Insts[k]
			if in.Op == spirv.OpPhi {
				s, t := p.slotOf(in.Words[1])
				b.phis[blk.Label] = append(b.phis[blk.Label], phi{s, int32(t.slots), in.Words[2:]})
			}
		}
	}
}

// edge makes the edge from the current block to target:
// its loop bookkeeping and phi moves; link fills in its pc.
func (b *fnBuild) edge(target uint32) *edge {
	p := b.p
	e := &edge{label: target}
	if b.loopHeader[target] {
		if b.blockAt[b.label] >= b.blockAt[target] {
			e.back = target
		} else {
			e.enter = target
		}
	}
	e.exit = b.mergeOf[target]
	// Validation gave every phi one value, defined, for each predecessor.
	for _, ph := range b.phis[target] {
		for j := 0; j+1 < len(ph.pairs); j += 2 {
			if ph.pairs[j+1] == b.label {
				s, _ := p.slotOf(ph.pairs[j])
				e.moves = append(e.moves, move{s, ph.res, ph.n})
				break
			}
		}
	}
	b.fix = append(b.fix, e)
	return e
}

// innerLoop returns the header of the innermost loop whose construct
// holds the current block (dominated by the header, not by its merge
// block), or nil.
func (b *fnBuild) innerLoop() *validate.Block {
	blk := b.blocks[b.blockAt[b.label]]
	for a := blk; a != nil; a = a.Idom {
		if !a.Loop {
			continue
		}
		if m, ok := b.blockAt[a.Merge]; !ok || !b.blocks[m].Dominates(blk) {
			return a
		}
	}
	return nil
}

// link fills in the edges' target pcs (validation made every target a
// block of the function).
func (b *fnBuild) link() {
	for _, e := range b.fix {
		e.pc = b.labelPC[e.label]
	}
}

// body compiles the function's instructions (validation put each in a
// block, operands complete).
func (b *fnBuild) body(i, end int) error {
	p := b.p
	insts := p.m.Insts
	var params []int32
	var paramIDs []uint32
	for k := i + 1; k < end; k++ {
		in := &insts[k]
		w := in.Words
		switch in.Op {
		case spirv.OpFunctionParameter:
			params = append(params, p.slot[w[1]])
			paramIDs = append(paramIDs, w[1])
			p.paramN[b.fn] = append(p.paramN[b.fn], int32(p.tyOf[w[1]].slots))
			continue
		case spirv.OpLabel:
			b.label = w[0]
			b.labelPC[b.label] = int32(len(p.code))
			continue
		case spirv.OpPhi, spirv.OpLine, spirv.OpNoLine, spirv.OpSelectionMerge, spirv.OpLoopMerge,
			spirv.OpNop, spirv.OpMemoryBarrier, spirv.OpUndef, spirv.OpAssumeTrueKHR, spirv.OpMemoryNamedBarrier:
			continue
		}
		if err := b.inst(k, in); err != nil {
			return err
		}
	}
	p.params[b.fn] = params
	p.paramIDs[b.fn] = paramIDs
	return nil
}

// inst compiles instruction k of a block.
func (b *fnBuild) inst(k int, in *spirv.Inst) error {
	p := b.p
	w := in.Words
	switch in.Op {
	case spirv.OpVariable, spirv.OpUntypedVariableKHR:
		return b.varInit(k, w)
	case spirv.OpLoad, spirv.OpStore:
		if ok, err := b.promotedAccess(k, in); ok || err != nil {
			return err
		}
	case spirv.OpBranch:
		p.code = append(p.code, instr{op: in.Op, e: [2]*edge{b.edge(w[0])}, idx: int32(k)})
		return nil
	case spirv.OpBranchConditional:
		return b.branchConditional(k, w)
	case spirv.OpSwitch:
		return b.switchOp(k, w)
	}
	d := in.Op.Desc()
	var ty, id uint32
	ops := w
	if d.HasType() {
		ty, id, ops = w[0], w[1], w[2:]
	} else if d.HasResult() {
		id, ops = w[0], w[1:]
	}
	ins, err := p.compileOp(k, in.Op, ty, id, ops)
	if err != nil || ins == nil {
		return err
	}
	if ins.op == spirv.OpFunctionCall {
		*b.calls = append(*b.calls, ins)
	}
	p.markUniformLoad(in, ins, b.uvars)
	setFast(ins)
	p.code = append(p.code, *ins)
	return nil
}

// varInit compiles a Function variable's initializer as a store (a slot
// copy when the variable is promoted).
func (b *fnBuild) varInit(k int, w []uint32) error {
	p := b.p
	_, init, err := p.localVar(k, p.tyOf[w[1]])
	if err != nil || init == 0 {
		return err
	}
	ins := instr{op: spirv.OpStore, a: []int32{p.slot[w[1]], p.slot[init]}, at: p.tyOf[init], idx: int32(k)}
	if ins.a[1] < 0 {
		return p.errAt(k, "initializer %%%d has no value", init)
	}
	if s, ok := b.pslot[w[1]]; ok {
		ins = p.promotedCopy(k, s, ins.a[1], p.tyOf[w[1]].elem, 0)
	}
	p.code = append(p.code, ins)
	return nil
}

// promotedAccess compiles a load or store of a promoted variable as a
// slot copy; it reports false for other loads and stores.
func (b *fnBuild) promotedAccess(k int, in *spirv.Inst) (bool, error) {
	p := b.p
	w := in.Words
	v, ptr := w[0], w[0]
	if in.Op == spirv.OpLoad {
		if len(w) < 3 {
			return false, nil
		}
		v, ptr = w[1], w[2]
	} else if len(w) < 2 {
		return false, nil
	} else {
		v = w[1]
	}
	s, ok := b.pslot[ptr]
	if !ok {
		return false, nil
	}
	vs, vt := p.slotOf(v)
	if vs < 0 || vt != p.tyOf[ptr].elem && vt.slots != p.tyOf[ptr].elem.slots {
		return true, p.errAt(k, "%%%d does not fit variable %%%d", v, ptr)
	}
	if in.Op == spirv.OpLoad {
		p.code = append(p.code, p.promotedCopy(k, vs, s, vt, v))
	} else {
		p.code = append(p.code, p.promotedCopy(k, s, vs, vt, 0))
	}
	return true, nil
}

func (b *fnBuild) branchConditional(k int, w []uint32) error {
	p := b.p
	e1, e2 := b.edge(w[1]), b.edge(w[2])
	c, err := p.valSlots(k, w[:1])
	if err != nil {
		return err
	}
	if m := b.selMerge[b.label]; m != 0 {
		e := &edge{label: m}
		b.fix = append(b.fix, e)
		b.merges[int32(len(p.code))] = e
	}
	if h := b.innerLoop(); h != nil {
		e := &edge{label: h.Merge, exit: h.Label}
		b.fix = append(b.fix, e)
		b.loops[int32(len(p.code))] = e
	}
	p.code = append(p.code, instr{op: spirv.OpBranchConditional, a: c, e: [2]*edge{e1, e2}, idx: int32(k)})
	return nil
}

func (b *fnBuild) switchOp(k int, w []uint32) error {
	p := b.p
	c, err := p.valSlots(k, w[:1])
	if err != nil {
		return err
	}
	st := &switchT{def: b.edge(w[1])}
	sel := p.tyOf[w[0]]
	step := 1
	if sel.width > 32 {
		step = 2
	}
	for j := 2; j+step < len(w)+1 && j < len(w); j += step + 1 {
		v := uint64(w[j])
		if step == 2 {
			v |= uint64(w[j+1]) << 32
		}
		e := b.edge(w[j+step])
		st.vals = append(st.vals, v&mask(sel.width))
		st.edges = append(st.edges, e)
	}
	p.code = append(p.code, instr{op: spirv.OpSwitch, a: c, at: sel, sw: st, idx: int32(k)})
	return nil
}

// valSlots maps value ids to their slots.
func (p *prog) valSlots(i int, ids []uint32) ([]int32, error) {
	out := make([]int32, len(ids))
	for k, id := range ids {
		s, _ := p.slotOf(id)
		if s < 0 {
			return nil, p.errAt(i, "operand %%%d is not a value", id)
		}
		out[k] = s
	}
	return out, nil
}

// compileOp decodes one instruction with its result type and id stripped
// from ops. It returns nil for instructions with nothing to run. Each
// kind of instruction the core runs has its own method of opBuild; the
// feature families (images, groups, cooperative matrices and vectors,
// tensors, ray queries) compile in their own files.
func (p *prog) compileOp(i int, op spirv.Op, ty, id uint32, ops []uint32) (*instr, error) {
	ins := &instr{op: op, idx: int32(i), id: id, res: -1}
	if ty != 0 {
		ins.t = p.types[ty] // validation made every result type a type
		ins.res = p.slot[id]
	}
	if err := p.checkInt4Use(i, op, ins.t, ops); err != nil {
		return nil, err
	}
	o := &opBuild{p: p, i: i, op: op, id: id, ins: ins, ops: ops}
	switch op {
	case spirv.OpCompositeExtract, spirv.OpCompositeInsert:
		return o.composite()
	case spirv.OpVectorShuffle:
		return o.shuffle()
	case spirv.OpExtInst:
		return o.extInst()
	case spirv.OpLoad:
		return o.load()
	case spirv.OpStore:
		return o.store()
	case spirv.OpCopyMemory:
		return o.copyMemory()
	case spirv.OpAccessChain, spirv.OpInBoundsAccessChain, spirv.OpPtrAccessChain, spirv.OpInBoundsPtrAccessChain:
		if err := o.need(1); err != nil {
			return nil, err
		}
		return ins, p.compileChain(i, ins, ops)
	case spirv.OpUntypedAccessChainKHR, spirv.OpUntypedInBoundsAccessChainKHR, spirv.OpUntypedPtrAccessChainKHR, spirv.OpUntypedInBoundsPtrAccessChainKHR:
		return ins, p.compileUntypedChain(i, ins, ops)
	case spirv.OpBufferPointerEXT:
		return p.compileBufferPointer(i, ins, ops)
	case spirv.OpArrayLength:
		return o.arrayLength()
	case spirv.OpFunctionCall:
		return o.call()
	case spirv.OpReturn, spirv.OpUnreachable, spirv.OpKill, spirv.OpTerminateInvocation:
		return ins, nil
	case spirv.OpReturnValue:
		if err := o.vals(ops); err != nil {
			return nil, err
		}
		return ins, o.need(1)
	case spirv.OpControlBarrierArriveEXT:
		// A split barrier waits where it waits: arriving does nothing here.
		return nil, nil
	case spirv.OpAbortKHR:
		if err := o.need(2); err != nil {
			return nil, err
		}
		if err := o.vals(ops[1:2]); err != nil {
			return nil, err
		}
		return ins, nil
	case spirv.OpControlBarrier, spirv.OpControlBarrierWaitEXT:
		return o.barrier()
	case spirv.OpAtomicLoad, spirv.OpAtomicStore, spirv.OpAtomicExchange, spirv.OpAtomicCompareExchange,
		spirv.OpAtomicIIncrement, spirv.OpAtomicIDecrement, spirv.OpAtomicIAdd, spirv.OpAtomicISub,
		spirv.OpAtomicSMin, spirv.OpAtomicUMin, spirv.OpAtomicSMax, spirv.OpAtomicUMax,
		spirv.OpAtomicAnd, spirv.OpAtomicOr, spirv.OpAtomicXor, spirv.OpAtomicFAddEXT,
		spirv.OpAtomicFMinEXT, spirv.OpAtomicFMaxEXT:
		return o.atomic()
	case spirv.OpSampledImage, spirv.OpImage:
		return o.imageHandle()
	}
	if ins, ok, err := p.compileFamily(i, ins, ops); ok {
		return ins, err
	}
	switch {
	case op == spirv.OpSDot, op == spirv.OpUDot, op == spirv.OpSUDot, op == spirv.OpSDotAccSat, op == spirv.OpUDotAccSat, op == spirv.OpSUDotAccSat:
		return o.dot()
	case isDerivative(op):
		return o.derivative()
	}
	return o.pure()
}

// compileFamily hands an instruction of a feature family to its file's
// compiler; ok is false for the core's own instructions.
func (p *prog) compileFamily(i int, ins *instr, ops []uint32) (_ *instr, ok bool, err error) {
	switch op := ins.op; {
	case isImageOp(op):
		ins, err = p.compileImage(i, ins, ops)
	case isGroupOp(op):
		ins, err = p.compileGroup(i, ins, ops)
	case op == spirv.OpCooperativeMatrixLoadTensorNV, op == spirv.OpCooperativeMatrixStoreTensorNV:
		ins, err = p.compileTensorMem(i, ins, ops)
	case op == spirv.OpCooperativeMatrixReduceNV, op == spirv.OpCooperativeMatrixPerElementOpNV,
		op == spirv.OpCooperativeMatrixTransposeNV, op == spirv.OpCooperativeMatrixConvertNV:
		ins, err = p.compileCoop2(i, ins, ops)
	case isCoopOp(op):
		ins, err = p.compileCoop(i, ins, ops)
	case isQCOMColl(op):
		ins, err = p.compileQCOM(i, ins, ops)
	case isCvecOp(op):
		ins, err = p.compileCvec(i, ins, ops)
	case isTensorOp(op):
		ins, err = p.compileTensor(i, ins, ops)
	case isTensorARMOp(op):
		ins, err = p.compileTensorARM(i, ins, ops)
	case isRayOp(op):
		ins, err = p.compileRay(i, ins, ops)
	default:
		return nil, false, nil
	}
	return ins, true, err
}

// opBuild is one instruction being compiled: its index, opcode, result
// id, the instr made so far and its operand words.
type opBuild struct {
	p   *prog
	i   int
	op  spirv.Op
	id  uint32
	ins *instr
	ops []uint32
}

// vals maps the value operands' ids to slots; the first one's type is
// the instruction's operand type.
func (o *opBuild) vals(ids []uint32) error {
	var err error
	o.ins.a, err = o.p.valSlots(o.i, ids)
	if err == nil && len(ids) > 0 {
		o.ins.at = o.p.tyOf[ids[0]]
	}
	return err
}

// need requires n operands.
func (o *opBuild) need(n int) error {
	if len(o.ops) < n {
		return o.p.errAt(o.i, "%s needs %d operands, has %d", o.op, n, len(o.ops))
	}
	return nil
}

// constOp is operand k, which must be a constant.
func (o *opBuild) constOp(k int) (uint32, error) {
	if k >= len(o.ops) {
		return 0, o.p.errAt(o.i, "missing operand")
	}
	v, ok := o.p.constU(o.ops[k])
	if !ok {
		return 0, o.p.errAt(o.i, "operand %%%d must be a constant", o.ops[k])
	}
	return uint32(v), nil
}

// composite compiles composite extracts and inserts: a slot offset into the composite.
func (o *opBuild) composite() (*instr, error) {
	p, i, op, ins, ops := o.p, o.i, o.op, o.ins, o.ops
	nv := 1
	if op == spirv.OpCompositeInsert {
		nv = 2
	}
	if err := o.need(nv); err != nil {
		return nil, err
	}
	if err := o.vals(ops[:nv]); err != nil {
		return nil, err
	}
	ct := p.tyOf[ops[nv-1]]
	off, _, err := p.walk(i, ct, ops[nv:])
	if err != nil {
		return nil, err
	}
	if off < 0 {
		if op == spirv.OpCompositeExtract {
			ins.op, ins.lit = opConstU, []uint32{0}
			return ins, nil
		}
		ins.op, ins.a, ins.at = spirv.OpCopyObject, ins.a[1:], ct
		return ins, nil
	}
	ins.sub = uint32(off)
	ins.at = ct
	if op == spirv.OpCompositeInsert {
		ins.lit = []uint32{uint32(p.tyOf[ops[0]].slots)}
		if off+p.tyOf[ops[0]].slots > ct.slots || ins.t.slots != ct.slots {
			return nil, p.errAt(i, "inserted object does not fit the composite")
		}
	} else if off+ins.t.slots > ct.slots {
		return nil, p.errAt(i, "extracted part does not fit the composite")
	}
	return ins, nil
}

// shuffle compiles vector shuffles: the components as literals.
func (o *opBuild) shuffle() (*instr, error) {
	p, i, ins, ops := o.p, o.i, o.ins, o.ops
	if err := o.need(2); err != nil {
		return nil, err
	}
	if err := o.vals(ops[:2]); err != nil {
		return nil, err
	}
	ins.lit = ops[2:]
	n1 := p.tyOf[ops[0]].slots
	for _, c := range ins.lit {
		if c != 0xffffffff && int(c) >= n1+p.tyOf[ops[1]].slots {
			return nil, p.errAt(i, "shuffle component %d out of range", c)
		}
	}
	return ins, nil
}

// extInst compiles extended instructions: GLSL.std.450, DebugPrintf, AMD ballots; other non-semantic sets do nothing.
func (o *opBuild) extInst() (*instr, error) {
	p, i, ins, ops := o.p, o.i, o.ins, o.ops
	if err := o.need(2); err != nil {
		return nil, err
	}
	set := p.extSets[ops[0]]
	ins.sub = ops[1]
	switch {
	case set == "GLSL.std.450":
		if !glslSupported(ops[1]) {
			p.unsupport(i, fmt.Sprintf("GLSL.std.450 instruction %d", ops[1]))
			return nil, nil
		}
	case set == "NonSemantic.DebugPrintf":
		if len(ops) < 3 {
			return nil, p.errAt(i, "DebugPrintf needs a format")
		}
		ins.op = opDebugPrintf
		if err := o.vals(ops[3:]); err != nil {
			return nil, err
		}
		pt := &printfT{format: p.strs[ops[2]]}
		for _, id := range ops[3:] {
			pt.tys = append(pt.tys, p.tyOf[id])
		}
		ins.printf = pt
		return ins, nil
	case set == "SPV_AMD_shader_ballot":
		if ops[1] < amdSwizzleInvocations || ops[1] > amdMbcnt {
			p.unsupport(i, fmt.Sprintf("SPV_AMD_shader_ballot instruction %d", ops[1]))
			return nil, nil
		}
		ins.op, ins.coll = opAMDBallot, true
		if err := o.vals(ops[2:]); err != nil {
			return nil, err
		}
		if ins.t == nil || len(ins.a) != []int{0, 2, 2, 3, 1}[ops[1]] || !amdOperandsFit(ins, p.tyOf, ops[2:]) {
			return nil, p.errAt(i, "SPV_AMD_shader_ballot instruction %d has the wrong operands", ops[1])
		}
		return ins, nil
	case strings.HasPrefix(set, "NonSemantic."):
		return nil, nil
	default:
		p.unsupport(i, fmt.Sprintf("extended instruction set %q", set))
		return nil, nil
	}
	if err := o.vals(ops[2:]); err != nil {
		return nil, err
	}
	if ins.t == nil {
		return nil, p.errAt(i, "OpExtInst has no result type")
	}
	tys := make([]*typ, len(ops)-2)
	for k, id := range ops[2:] {
		tys[k] = p.tyOf[id]
	}
	ins.aux = tys
	return ins, nil
}

// load compiles loads: the pointer's matrix layout (a tensor pointer is its handle).
func (o *opBuild) load() (*instr, error) {
	p, ins, ops := o.p, o.ins, o.ops
	if err := o.need(1); err != nil {
		return nil, err
	}
	if ins.t != nil && ins.t.kind == kTensorARM {
		// The pointer to a tensor is its handle.
		ins.op = spirv.OpCopyObject
		return ins, o.vals(ops[:1])
	}
	ins.ml = p.ptrLay[ops[0]]
	if err := o.vals(ops[:1]); err != nil {
		return nil, err
	}
	accelLoad(ins)
	return ins, nil
}

// store compiles stores: the pointer's matrix layout.
func (o *opBuild) store() (*instr, error) {
	p, ins, ops := o.p, o.ins, o.ops
	if err := o.need(2); err != nil {
		return nil, err
	}
	ins.ml = p.ptrLay[ops[0]]
	if err := o.vals(ops[:2]); err != nil {
		return nil, err
	}
	ins.at = p.tyOf[ops[1]]
	return ins, nil
}

// copyMemory compiles OpCopyMemory: the type copied.
func (o *opBuild) copyMemory() (*instr, error) {
	p, i, ins, ops := o.p, o.i, o.ins, o.ops
	if err := o.need(2); err != nil {
		return nil, err
	}
	if err := o.vals(ops[:2]); err != nil {
		return nil, err
	}
	// An untyped pointer takes the type the other one points to.
	ins.at = p.tyOf[ops[1]].elem
	if ins.at == nil {
		ins.at = p.tyOf[ops[0]].elem
	}
	if ins.at == nil {
		return nil, p.errAt(i, "OpCopyMemory needs a typed target or source")
	}
	return ins, nil
}

// arrayLength compiles OpArrayLength: the runtime array member's offset and stride.
func (o *opBuild) arrayLength() (*instr, error) {
	p, i, ins, ops := o.p, o.i, o.ins, o.ops
	if err := o.need(2); err != nil {
		return nil, err
	}
	if err := o.vals(ops[:1]); err != nil {
		return nil, err
	}
	st := p.tyOf[ops[0]].elem
	m := int(ops[1])
	if st == nil || st.kind != kStruct || m >= len(st.mem) || st.mem[m].kind != kRuntimeArray {
		return nil, p.errAt(i, "member %d is not a runtime array", m)
	}
	ins.alen = [2]int{st.offs[m], st.mem[m].stride}
	return ins, nil
}

// call compiles calls: the callee (linkCalls finds its code) and the arguments' sizes.
func (o *opBuild) call() (*instr, error) {
	p, ins, ops := o.p, o.ins, o.ops
	if err := o.need(1); err != nil {
		return nil, err
	}
	ins.call = &callT{fn: ops[0]}
	if err := o.vals(ops[1:]); err != nil {
		return nil, err
	}
	for _, a := range ops[1:] {
		ins.lit = append(ins.lit, uint32(p.tyOf[a].slots))
	}
	return ins, nil
}

// barrier compiles control barriers: the scope, run as collectives.
func (o *opBuild) barrier() (*instr, error) {
	p, i, ins := o.p, o.i, o.ins
	sc, err := o.constOp(0)
	if err != nil {
		return nil, err
	}
	ins.sub = sc
	ins.coll = true
	if spirv.Scope(sc) != spirv.ScopeWorkgroup && spirv.Scope(sc) != spirv.ScopeSubgroup {
		p.unsupport(i, fmt.Sprintf("barrier of scope %d", sc))
	}
	return ins, nil
}

// atomic compiles atomics: the type in memory.
func (o *opBuild) atomic() (*instr, error) {
	p, i, op, ins, ops := o.p, o.i, o.op, o.ins, o.ops
	if err := o.vals(ops); err != nil {
		return nil, err
	}
	ins.at = p.tyOf[ops[0]].elem
	if pt := p.tyOf[ops[0]]; ins.at == nil && pt.kind == kPointer {
		// Through an untyped pointer: the result or stored value's type.
		ins.at = ins.t
		if op == spirv.OpAtomicStore && len(ops) > 3 {
			ins.at = p.tyOf[ops[3]]
		}
	}
	if ins.at == nil || !ins.at.scalar() {
		p.unsupport(i, "atomic through a pointer to a non-scalar (an image texel?)")
		return nil, nil
	}
	return ins, nil
}

// imageHandle compiles OpSampledImage and OpImage as slot copies of the handles.
func (o *opBuild) imageHandle() (*instr, error) {
	p, i, op, ins, ops := o.p, o.i, o.op, o.ins, o.ops
	if op == spirv.OpSampledImage {
		// A sampled image is its image and sampler handles.
		if err := o.need(2); err != nil {
			return nil, err
		}
		if err := o.vals(ops[:2]); err != nil {
			return nil, err
		}
		if ins.t == nil || ins.t.kind != kSampledImage || p.tyOf[ops[0]].kind != kImage || p.tyOf[ops[1]].kind != kSampler {
			return nil, p.errAt(i, "OpSampledImage needs an image and a sampler")
		}
		ins.op, ins.lit = spirv.OpCompositeConstruct, []uint32{1, 1}
		return ins, nil
	}
	if err := o.need(1); err != nil {
		return nil, err
	}
	if err := o.vals(ops[:1]); err != nil {
		return nil, err
	}
	if ins.t == nil || ins.t.kind != kImage || ins.at.kind != kSampledImage {
		return nil, p.errAt(i, "OpImage needs a sampled image")
	}
	ins.op, ins.sub = spirv.OpCompositeExtract, 0
	return ins, nil
}

// dot compiles integer dot products; sub marks the packed 4x8-bit format.
func (o *opBuild) dot() (*instr, error) {
	p, i, op, ins, ops := o.p, o.i, o.op, o.ins, o.ops
	n := 2
	if op == spirv.OpSDotAccSat || op == spirv.OpUDotAccSat || op == spirv.OpSUDotAccSat {
		n = 3
	}
	if len(ops) < n || ins.t == nil || ins.t.kind != kInt {
		return nil, p.errAt(i, "%s needs %d operands and an integer result", op, n)
	}
	if err := o.vals(ops[:n]); err != nil {
		return nil, err
	}
	if len(ops) > n {
		ins.sub = 1 // PackedVectorFormat4x8Bit
	}
	return ins, nil
}

// derivative compiles derivatives: zero without derivative groups, else collectives of the workgroup.
func (o *opBuild) derivative() (*instr, error) {
	p, i, op, ins, ops := o.p, o.i, o.op, o.ins, o.ops
	if !p.derivQuads && !p.derivLinear {
		// No derivative groups: derivatives are zero, as
		// GL_NV_compute_shader_derivatives defines without a layout.
		if ins.t == nil {
			return nil, p.errAt(i, "%s has no result type", op)
		}
		ins.op, ins.lit = opConstU, []uint32{0}
		return ins, nil
	}
	var err error
	if ins.a, err = p.valSlots(i, ops); err != nil {
		return nil, err
	}
	if len(ins.a) != 1 || ins.t == nil {
		return nil, p.errAt(i, "%s needs one operand", op)
	}
	ins.coll, ins.wg = true, true
	return ins, nil
}

// pure compiles the instructions that compute a value from their operands: operand types, rounding and saturation decorations, checks (checkPure).
func (o *opBuild) pure() (*instr, error) {
	p, i, op, ins, ops, id := o.p, o.i, o.op, o.ins, o.ops, o.id
	if !pureOps()[op] {
		p.unsupport(i, "")
		return nil, nil
	}
	if err := o.vals(ops); err != nil {
		return nil, err
	}
	if ins.t == nil {
		return nil, p.errAt(i, "%s has no result type", op)
	}
	tys := make([]*typ, len(ops))
	for k, id := range ops {
		tys[k] = p.tyOf[id]
	}
	ins.aux = tys
	if d := p.decos[id]; d != nil {
		if d.round >= 0 {
			ins.sub = uint32(d.round) & 3
		}
		if d.sat {
			ins.sub |= 256
		}
	}
	if op == spirv.OpCompositeConstruct {
		total := 0
		for _, id := range ops {
			ins.lit = append(ins.lit, uint32(p.tyOf[id].slots))
			total += p.tyOf[id].slots
		}
		if total != ins.t.slots && !(ins.t.kind == kCoopMat && len(ops) == 1) {
			return nil, p.errAt(i, "constituents give %d components, the result has %d", total, ins.t.slots)
		}
	}
	return ins, p.checkPure(i, ins)
}

// walk follows literal indices into a composite type, returning the slot
// offset and type of the part.
func (p *prog) walk(i int, t *typ, idx []uint32) (int, *typ, error) {
	off := 0
	for _, x := range idx {
		k := int(x)
		switch t.kind {
		case kCoopMat:
			if k >= t.count {
				// Undefined by the spec (elements beyond the invocation's
				// share): extraction gives 0, insertion changes nothing.
				return -1, t.elem, nil
			}
			off += k
			t = t.elem
		case kVector, kArray:
			if k >= t.count {
				return 0, nil, p.errAt(i, "index %d out of range for %d elements", k, t.count)
			}
			off += k * t.elem.slots
			t = t.elem
		case kMatrix:
			if k >= t.count {
				return 0, nil, p.errAt(i, "index %d out of range for %d columns", k, t.count)
			}
			off += k * t.elem.slots
			t = t.elem
		case kStruct:
			if k >= len(t.mem) {
				return 0, nil, p.errAt(i, "member %d out of range", k)
			}
			off += t.moff[k]
			t = t.mem[k]
		default:
			return 0, nil, p.errAt(i, "index into a non-composite")
		}
	}
	return off, t, nil
}

func (p *prog) compileChain(i int, ins *instr, ops []uint32) error {
	bs, bt := p.slotOf(ops[0])
	if bs < 0 || bt.kind != kPointer || bt.elem == nil {
		return p.errAt(i, "base %%%d is not a pointer", ops[0])
	}
	t := bt.elem
	ptrChain := ins.op == spirv.OpPtrAccessChain || ins.op == spirv.OpInBoundsPtrAccessChain
	stride := 0
	if ptrChain {
		if stride = p.deco(bt.id).stride; stride == 0 {
			stride = roundUp(t.size, t.align)
		}
	}
	return p.chainFrom(i, ins, ops[0], bt, t, ptrChain, stride, ops[1:])
}

// chainFrom decodes the indices of an access chain from base (of pointer
// type bt) pointing to a t; a pointer access chain's element steps by
// stride.
func (p *prog) chainFrom(i int, ins *instr, base uint32, bt, t *typ, ptrChain bool, stride int, idx []uint32) error {
	bs, _ := p.slotOf(base)
	ins.a = []int32{bs}
	ins.at = bt
	c := &chain{desc: -1}
	ml := matLayout{}
	vstride := 0
	addStep := func(k int, stride, bound int) error {
		id := idx[k]
		if v, ok := p.constU(id); ok {
			// An out-of-range constant index faults only if it runs.
			if n := sext(v, p.tyOf[id].width); bound == 0 || n >= 0 && n < int64(bound) {
				c.off += int(n) * stride
				return nil
			}
		}
		s, it := p.slotOf(id)
		if s < 0 || it.kind != kInt {
			return p.errAt(i, "index %%%d is not an integer", id)
		}
		c.steps = append(c.steps, cstep{s, it.width, stride, bound})
		return nil
	}
	if ptrChain {
		if len(idx) == 0 {
			return p.errAt(i, "missing element index")
		}
		if err := addStep(0, stride, 0); err != nil {
			return err
		}
		idx = idx[1:]
	}
	for dv := range p.descs {
		d := &p.descs[dv]
		if d.id == base && d.count > 0 && !ptrChain {
			if len(idx) == 0 {
				return p.errAt(i, "array of buffers needs an index")
			}
			s, it := p.slotOf(idx[0])
			if s < 0 || it.kind != kInt {
				return p.errAt(i, "index %%%d is not an integer", idx[0])
			}
			c.desc, c.descN, c.descIdx, c.descW = d.slot+1, d.count, s, it.width
			if t.kind == kArray && d.count > t.count {
				c.descN = t.count
			}
			t = t.elem
			idx = idx[1:]
		}
	}
	for k := range idx {
		switch t.kind {
		case kStruct:
			v, ok := p.constU(idx[k])
			if !ok || int(v) >= len(t.mem) {
				return p.errAt(i, "struct index %%%d must be a constant member number", idx[k])
			}
			c.off += t.offs[v]
			ml = t.mlay[v]
			t = t.mem[v]
		case kArray, kRuntimeArray:
			if err := addStep(k, t.stride, t.count); err != nil {
				return err
			}
			t = t.elem
		case kMatrix:
			col := t.elem
			stride, bound := col.size, t.count
			if ml.stride != 0 {
				stride = ml.stride
			}
			if ml.rowMajor {
				vstride = stride
				stride = col.elem.size
			}
			if err := addStep(k, stride, bound); err != nil {
				return err
			}
			t = col
		case kVector, kCoopMat:
			if t.nibbles() {
				return p.int4Component(i, ins, c, t, idx[k:])
			}
			stride := t.elem.size
			if vstride != 0 {
				stride = vstride
			}
			if err := addStep(k, stride, t.count); err != nil {
				return err
			}
			vstride = 0
			t = t.elem
		default:
			return p.errAt(i, "index into a non-composite")
		}
		if t.kind != kMatrix && t.kind != kArray {
			ml = matLayout{}
		}
	}
	if vstride != 0 && t.kind == kVector {
		p.ptrLay[ins.id] = matLayout{vstride, true}
	} else if t.kind == kMatrix && ml.stride != 0 {
		p.ptrLay[ins.id] = ml
	}
	if ins.t == nil || ins.t.kind != kPointer {
		return p.errAt(i, "access chain result is not a pointer")
	}
	ins.ch = c
	return nil
}

// paramType is the type of parameter k of function fn.
func (p *prog) paramType(fn uint32, k int) *typ {
	ids := p.paramIDs[fn]
	if k >= len(ids) {
		return nil
	}
	return p.tyOf[ids[k]]
}

// resetSlots finds the slots a workgroup must restore from the template
// before it runs: not the module-scope values (nothing writes them) nor the
// results of instructions in functions (in a valid module each is written
// before it is read, its definition dominating its uses), but the rest:
// promoted variables, callback results, the scratch slot 0.
func (p *prog) resetSlots() {
	keep := make([]bool, len(p.tmpl))
	for s := int32(1); s < p.constEnd && int(s) < len(keep); s++ {
		keep[s] = true
	}
	for _, r := range p.defined {
		for s := r[0]; s < r[1]; s++ {
			keep[s] = true
		}
	}
	p.defined = nil
	p.reset = p.reset[:0]
	for s := 0; s < len(keep); {
		if keep[s] {
			s++
			continue
		}
		e := s
		for e < len(keep) && !keep[e] {
			e++
		}
		p.reset = append(p.reset, [2]int32{int32(s), int32(e)})
		s = e
	}
}
