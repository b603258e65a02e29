package exec

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/spirv"
)

// dispatchRun is the state one dispatch shares between its workers.
type dispatchRun struct {
	p        *prog
	bufs     []*buffer
	accels   []*accelData
	push     []byte
	tmpl     []uint64
	groups   [3]uint32
	base     [3]uint32 // the first workgroup's id (vkCmdDispatchBase)
	budget   int64
	locks    [1024]sync.Mutex
	printf   io.Writer
	printMu  sync.Mutex
	describe func(*spirv.Module, int) string
	stop     atomic.Bool
	noLock   bool // no lockstep execution
	batchAll bool // batch whatever the dispatch's size and workers (Options.batchAll)
	// ctx and progress are the dispatch's Context and Progress.
	ctx      context.Context
	progress func(done, total uint64)
	// work is the dispatch's work budget (instructions of all
	// invocations; negative: none) and worked what has been used.
	work    int64
	worked  atomic.Int64
	capped  bool // budget was cut to the work budget's share (checkCounts)
	tensors []boundTensor
	// check, when set, looks for undefined behaviour (Options.Check).
	check *checker
	// views and samplers are what image and sampler handles name (handle
	// k is element k-1); descMem is each image descriptor's memory.
	views    []*imgView
	samplers []*backend.SamplerDesc
	descMem  [][]byte
	// images and smps are the device's images and samplers, which heap
	// descriptors name; heapViews caches the views of heap handles.
	images    []*image
	smps      []*sampler
	heapViews sync.Map
}

// wgState is one workgroup's invocations and shared memory, reused by a
// worker from one workgroup to the next.
type wgState struct {
	x *dispatchRun
	// groups is how many workgroups it runs at once, in a row along x
	// (batchSize): their invocations are its lanes, as one workgroup's,
	// per of them each; mem holds each one's workgroup memory in turn.
	groups, per int
	lanes       []*lane
	sgs         [][]*lane
	mem         []byte
	id          [3]uint32
	cur         *lane
	vals        []uint64
	// scratch holds tiles for cooperative matrix kernels.
	scratch coopScratch
	// meta is each subgroup's lockstep state; the rest is scratch for it.
	meta []sgMeta
	// wide is the lockstep state of the whole workgroup, where it may run
	// so (useWide): a workgroup starts in lockstep as one row of all its
	// invocations, barriers pass at once, subgroup operations act on each
	// subgroup; where that row diverges the subgroups go on on their own.
	wide    sgMeta
	useWide bool
	utmp    []uint8
	mtmp    []move
	ttmp    []*tile
	// mact and mrest are the two sides of a masked branch (masked.go);
	// act the invocations of a collective instruction (runSubgroup).
	mact, mrest, act []*lane
	// stmp holds step counts of lockstep's invocations (workSteps).
	stmp []int64
	// fresh: the invocations are back in their reset state already,
	// having finished together in the workgroup's lockstep (finishWide),
	// and spent is the steps they had spent before it (for spend).
	fresh bool
	spent int64
	// touched: an invocation other than the first may have left its
	// reset state since all were last put back in it (steps charged,
	// memory filled, per-invocation work in the wide lockstep), so
	// finishWide walks them all; otherwise only the first and those in
	// tlist (touch).
	touched bool
	tlist   []*lane
	// subs: the subgroups' lockstep states (meta) may have changed since
	// reset last cleared them; a workgroup that finished in its wide
	// lockstep never touched them.
	subs bool
}

// newWG makes the state of one workgroup, or of groups workgroups in a
// row run at once (batchSize: local size (n, m, 1)). A batch is laid out
// as one workgroup of n x m x groups invocations: an invocation's lxyz
// is (its x, its y, its workgroup's place in the batch), so that the
// built-in ids stay affine functions of lxyz (affine.go: WorkgroupId's x
// is the first workgroup's plus z), and each workgroup of the batch has
// its own part of mem (lane.gmem).
func newWG(x *dispatchRun, groups int) *wgState {
	p := x.p
	per := int(p.local[0] * p.local[1] * p.local[2])
	n := per * groups
	wg := &wgState{x: x, groups: groups, per: per, mem: make([]byte, p.wgMem*groups), subs: true}
	// The invocations, their registers and their memory each lie in one
	// block, in invocation order, so that walking them stays in cache.
	ls := make([]lane, n)
	slots, im, wm := len(x.tmpl), p.invMem, p.wgMem
	regs, mem := make([]uint64, n*slots), make([]byte, n*im)
	for i := 0; i < n; i++ {
		l := &ls[i]
		g := i / per
		*l = lane{p: p, x: x, wg: wg, regs: regs[i*slots : (i+1)*slots : (i+1)*slots], mem: mem[i*im : (i+1)*im : (i+1)*im], lid: i, sgl: i % p.sgSize,
			gmem: wg.mem[g*wm : (g+1)*wm : (g+1)*wm]}
		copy(l.regs, x.tmpl)
		// In a batch local[2] is 1: z is the workgroup's place.
		l.lxyz = [3]uint32{uint32(i) % p.local[0], uint32(i) / p.local[0] % p.local[1], uint32(i) / (p.local[0] * p.local[1])}
		l.self[0] = l
		wg.lanes = append(wg.lanes, l)
	}
	// Built-ins that depend only on the invocation's place in the
	// workgroup (and the dispatch) are encoded once; reset copies them back.
	for _, l := range wg.lanes {
		for _, iv := range p.inputs {
			if perGroup(iv.builtin) {
				continue
			}
			wg.vals = builtinValue(wg.vals[:0], iv.builtin, l, l.localID())
			if len(wg.vals) >= iv.t.slots {
				storeRec(iv.t, l.mem, iv.off, wg.vals, matLayout{})
			}
			l.fixed = append(l.fixed, l.mem[iv.off:iv.off+iv.t.size]...)
		}
	}
	wg.useWide = p.wideColl && n > p.sgSize && slots*n <= maxWideWords
	if wg.useWide {
		wg.wide = sgMeta{sg: wg.lanes, st: make([]uint8, slots), tiles: make([]*tile, slots), wide: true, multi: groups > 1}
		wg.wide.initRows(slots)
		wg.wide.initRuns()
	}
	for i := 0; i < n; i += p.sgSize {
		wg.sgs = append(wg.sgs, wg.lanes[i:min(i+p.sgSize, n)])
		m := sgMeta{sg: wg.sgs[len(wg.sgs)-1], st: make([]uint8, slots), tiles: make([]*tile, slots)}
		if wg.useWide {
			wg.wide.subRows(&m, i)
		} else {
			m.initRows(slots)
		}
		m.initRuns()
		wg.meta = append(wg.meta, m)
	}
	return wg
}

// maxWideWords bounds the rows of a workgroup run in lockstep as a whole
// (slots times invocations).
const maxWideWords = 1 << 20

// reset prepares the workgroup with the given id to run from the start.
func (wg *wgState) reset(id [3]uint32) {
	x, p := wg.x, wg.x.p
	wg.id = id
	for g := 0; g < len(wg.mem); g += p.wgMem {
		copy(wg.mem[g:], p.wgInit)
	}
	if x.check != nil {
		x.check.reset(wg)
	}
	if wg.subs {
		for i := range wg.meta {
			wg.meta[i].enter, wg.meta[i].parked, wg.meta[i].fin = enterFresh, false, 0
		}
		wg.subs = false
	}
	wg.wide.enter, wg.wide.fin = enterFresh, 0
	// In lockstep the template's values of the slots reset restores are
	// the leaders' (sLead, enterLockstep), copied to the others where
	// one needs them; each invocation's memory is filled when first
	// touched (fillMem).
	if !wg.fresh {
		wg.touched = false
		wg.untouch()
		entry, budget := p.entry, x.budget
		for _, l := range wg.lanes {
			l.memStale, l.pc, l.state, l.steps = true, entry, stRun, budget
			l.stack, l.loops, l.rqs = l.stack[:0], l.loops[:0], l.rqs[:0]
		}
	}
	wg.fresh = false
	step := p.sgSize // the leaders
	switch {
	case x.noLock:
		step = 1
	case wg.useWide:
		// The workgroup's leader alone: the subgroups' leaders get its
		// values where the wide lockstep hands off (handOff).
		step = len(wg.lanes)
	}
	for i := 0; i < len(wg.lanes); i += step {
		regs := wg.lanes[i].regs
		for _, r := range p.reset {
			// The ranges are mostly a slot or two: a loop beats memmove.
			for s := r[0]; s < r[1]; s++ {
				regs[s] = x.tmpl[s]
			}
		}
	}
}

// fillMem gives the invocation's memory its initial contents and the
// built-in inputs.
func (l *lane) fillMem() {
	l.memStale = false
	p, wg := l.p, l.wg
	wg.touch(l)
	copy(l.mem, p.invInit)
	fixed := l.fixed
	for _, iv := range p.inputs {
		if !perGroup(iv.builtin) {
			fixed = fixed[copy(l.mem[iv.off:], fixed[:iv.t.size]):]
			continue
		}
		v := l.globalID()
		if iv.builtin == spirv.BuiltInWorkgroupId {
			v = l.groupID()
		}
		if t := iv.t; t.kind == kVector && t.count == 3 && t.elem.kind == kInt && t.elem.size == 4 {
			b := l.mem[iv.off : iv.off+12]
			binary.LittleEndian.PutUint32(b, v[0])
			binary.LittleEndian.PutUint32(b[4:], v[1])
			binary.LittleEndian.PutUint32(b[8:], v[2])
			continue
		}
		wg.vals = builtinValue(wg.vals[:0], iv.builtin, l, l.localID())
		if len(wg.vals) >= iv.t.slots {
			storeRec(iv.t, l.mem, iv.off, wg.vals, matLayout{})
		}
	}
}

// localID is the invocation's LocalInvocationId (in a batch lxyz's z is
// its workgroup's place in the batch, newWG).
func (l *lane) localID() [3]uint32 {
	if l.wg.groups > 1 {
		return [3]uint32{l.lxyz[0], l.lxyz[1], 0}
	}
	return l.lxyz
}

// groupID is the invocation's WorkgroupId.
func (l *lane) groupID() [3]uint32 {
	id := l.wg.id
	if l.wg.groups > 1 {
		id[0] += l.lxyz[2]
	}
	return id
}

// localIndex is the invocation's LocalInvocationIndex (lid is its place
// in the batch).
func (l *lane) localIndex() int { return l.lid % l.wg.per }

// groupIn reports whether addr is in the WorkgroupId input, whose value
// differs between the workgroups of a batch.
func (p *prog) groupIn(addr uint64) bool {
	off := addr & (1<<offBits - 1)
	for _, iv := range p.inputs {
		if iv.builtin == spirv.BuiltInWorkgroupId && addr>>56 == regInv && off-uint64(iv.off) < uint64(iv.t.size) {
			return true
		}
	}
	return false
}

// perGroup reports the built-ins that change from one workgroup to the
// next; the others are fixed for an invocation of a dispatch.
func perGroup(b spirv.BuiltIn) bool {
	return b == spirv.BuiltInWorkgroupId || b == spirv.BuiltInGlobalInvocationId
}

func knownBuiltin(b spirv.BuiltIn) bool {
	switch b {
	case spirv.BuiltInNumWorkgroups, spirv.BuiltInWorkgroupId, spirv.BuiltInLocalInvocationId,
		spirv.BuiltInGlobalInvocationId, spirv.BuiltInLocalInvocationIndex, spirv.BuiltInWorkgroupSize,
		spirv.BuiltInSubgroupSize, spirv.BuiltInSubgroupMaxSize, spirv.BuiltInNumSubgroups, spirv.BuiltInSubgroupId,
		spirv.BuiltInSubgroupLocalInvocationId, spirv.BuiltInSubgroupEqMask, spirv.BuiltInSubgroupGeMask,
		spirv.BuiltInSubgroupGtMask, spirv.BuiltInSubgroupLeMask, spirv.BuiltInSubgroupLtMask,
		spirv.BuiltInDeviceIndex, spirv.BuiltInTileOffsetQCOM, spirv.BuiltInTileDimensionQCOM, spirv.BuiltInTileApronSizeQCOM:
		return true
	}
	return false
}

func builtinValue(v []uint64, b spirv.BuiltIn, l *lane, lid [3]uint32) []uint64 {
	p := l.p
	wg := l.wg
	s := uint64(p.sgSize)
	n := uint64(wg.per)
	me := uint(l.sgl)
	masks := func(m uint64) []uint64 { return append(v, m&0xffffffff, m>>32, 0, 0) }
	full := mask(p.sgSize)
	switch b {
	case spirv.BuiltInNumWorkgroups:
		return append(v, uint64(l.x.groups[0]), uint64(l.x.groups[1]), uint64(l.x.groups[2]))
	case spirv.BuiltInWorkgroupId:
		id := l.groupID()
		return append(v, uint64(id[0]), uint64(id[1]), uint64(id[2]))
	case spirv.BuiltInLocalInvocationId:
		return append(v, uint64(lid[0]), uint64(lid[1]), uint64(lid[2]))
	case spirv.BuiltInGlobalInvocationId:
		g := l.globalID()
		return append(v, uint64(g[0]), uint64(g[1]), uint64(g[2]))
	case spirv.BuiltInLocalInvocationIndex:
		return append(v, uint64(l.localIndex()))
	case spirv.BuiltInWorkgroupSize:
		return append(v, uint64(p.local[0]), uint64(p.local[1]), uint64(p.local[2]))
	case spirv.BuiltInSubgroupSize, spirv.BuiltInSubgroupMaxSize:
		return append(v, s)
	case spirv.BuiltInNumSubgroups:
		return append(v, (n+s-1)/s)
	case spirv.BuiltInSubgroupId:
		return append(v, uint64(l.localIndex())/s)
	case spirv.BuiltInSubgroupLocalInvocationId:
		return append(v, uint64(l.sgl))
	case spirv.BuiltInSubgroupEqMask:
		return masks(1 << me)
	case spirv.BuiltInSubgroupGeMask:
		return masks(full &^ mask(int(me)))
	case spirv.BuiltInSubgroupGtMask:
		return masks(full &^ mask(int(me)+1))
	case spirv.BuiltInSubgroupLeMask:
		return masks(mask(int(me) + 1))
	case spirv.BuiltInSubgroupLtMask:
		return masks(mask(int(me)))
	case spirv.BuiltInDeviceIndex:
		return append(v, 0)
	case spirv.BuiltInTileOffsetQCOM, spirv.BuiltInTileApronSizeQCOM:
		return append(v, 0, 0, 0)
	case spirv.BuiltInTileDimensionQCOM:
		return append(v, uint64(tileSize[0]), uint64(tileSize[1]), uint64(tileSize[2]))
	}
	return v
}

// before orders two blocked lanes by where they are: call stack first,
// then the iterations of the loops they are in, then instruction. The
// scheduler runs the earliest waiting point first, which re-converges
// lanes that took different paths, as structured control flow does.
func before(a, b *lane) bool {
	for k := 0; k < len(a.stack) && k < len(b.stack); k++ {
		if a.stack[k].ret != b.stack[k].ret {
			return a.stack[k].ret < b.stack[k].ret
		}
	}
	if len(a.stack) != len(b.stack) {
		return len(a.stack) > len(b.stack)
	}
	for k := 0; k < len(a.loops) && k < len(b.loops); k++ {
		if a.loops[k].header != b.loops[k].header {
			break
		}
		if a.loops[k].iter != b.loops[k].iter {
			return a.loops[k].iter < b.loops[k].iter
		}
	}
	return a.pc < b.pc
}

// samePlace: the same dynamic instance of an instruction.
func samePlace(a, b *lane) bool {
	if a.pc != b.pc || len(a.stack) != len(b.stack) || len(a.loops) != len(b.loops) {
		return false
	}
	for k := range a.stack {
		if a.stack[k].ret != b.stack[k].ret {
			return false
		}
	}
	for k := range a.loops {
		if a.loops[k] != b.loops[k] {
			return false
		}
	}
	return true
}

// isWG reports whether a collective instruction gathers the whole
// workgroup (a workgroup barrier, a Workgroup-scope cooperative matrix).
func isWG(in *instr) bool {
	return in.wg || isBarrier(in.op) && spirv.Scope(in.sub) == spirv.ScopeWorkgroup
}

// collective performs a subgroup- or workgroup-wide instruction for the
// lanes in act (sg: the lanes of the subgroup, by lane id).
func collective(in *instr, act, sg []*lane) error {
	if err := chargeColl(in, act); err != nil {
		return err
	}
	switch {
	case isBarrier(in.op):
		if len(act) > 0 && act[0].x != nil && act[0].x.check != nil {
			act[0].x.check.barrier(act, sg)
		}
		return nil
	case in.op == spirv.OpCooperativeMatrixReduceNV, in.op == spirv.OpCooperativeMatrixTransposeNV:
		return coop2Exec(in, act)
	case in.op == spirv.OpCooperativeMatrixLoadTensorNV, in.op == spirv.OpCooperativeMatrixStoreTensorNV:
		return tensorExec(in, act)
	case isCoopOp(in.op):
		return coopExec(in, matIO{act: act}, false)
	case isDerivative(in.op):
		return derivExec(in, act)
	case in.op == opAMDBallot:
		return amdExec(in, act, sg)
	case isQCOMColl(in.op):
		return qcomExec(in, act, sg)
	case isImageOp(in.op):
		return imageImplicitExec(in, act)
	}
	return groupExec(in, act, sg)
}

// run runs the workgroup, or the batch of workgroups, to completion.
func (wg *wgState) run() error {
	x := wg.x
	if wg.useWide && !x.noLock {
		if err := wg.lockstep(&wg.wide); err != nil {
			return err
		}
		if wg.fresh || wg.lanes[0].state == stDone {
			return nil
		}
	}
	wg.subs = true
	for g := range wg.groups {
		if err := wg.runGroup(g); err != nil {
			return err
		}
	}
	return nil
}

// runGroup runs workgroup g of the batch (all of a single workgroup) to
// completion, subgroup by subgroup, releasing its workgroup barriers
// where all its invocations wait at one: a barrier needs to be uniform
// within a workgroup only, so it never waits for the batch's others.
func (wg *wgState) runGroup(g int) error {
	x := wg.x
	code := x.p.code
	k0, k1 := g*len(wg.sgs)/wg.groups, (g+1)*len(wg.sgs)/wg.groups
	lanes := wg.lanes[g*wg.per : (g+1)*wg.per]
	for {
		for i := k0; i < k1; i++ {
			if err := wg.runSubgroup(i); err != nil {
				return err
			}
		}
		var waiting, done *lane
		for _, l := range lanes {
			switch l.state {
			case stBlocked:
				if waiting == nil {
					waiting = l
				}
			case stDone:
				done = l
			}
		}
		if waiting == nil {
			return nil
		}
		in := &code[waiting.pc]
		what := "barrier divergence"
		if !isBarrier(in.op) {
			what = "workgroup-wide instruction in non-uniform control flow"
		}
		if done != nil {
			g := done.globalID()
			return waiting.fail(in, "%s: invocation (%d,%d,%d) waits here, but invocation (%d,%d,%d) has finished",
				what, waiting.globalID()[0], waiting.globalID()[1], waiting.globalID()[2], g[0], g[1], g[2])
		}
		for _, l := range lanes {
			if !samePlace(l, waiting) {
				return l.fail(&code[l.pc], "%s: invocations wait at different places (the other at instruction %d)", what, in.idx)
			}
		}
		wg.cur = waiting
		if err := collective(in, lanes, nil); err != nil {
			return err
		}
		for _, l := range lanes {
			l.pc++
			l.state = stRun
		}
		for i := k0; i < k1; i++ {
			if wg.meta[i].parked {
				wg.meta[i].enter = enterResume
			} else {
				wg.meta[i].enter = enterRecompute
			}
		}
		if x.stop.Load() {
			return errStopped
		}
	}
}

var errStopped = errors.New("stopped")

// runSubgroup runs the lanes of one subgroup until each has finished or
// waits at a workgroup barrier, performing the subgroup-wide instructions
// they meet on the way.
func (wg *wgState) runSubgroup(si int) error {
	x := wg.x
	code := x.p.code
	sg, meta := wg.sgs[si], &wg.meta[si]
	act := wg.act[:0]
	defer func() { wg.act = act[:0] }()
	for {
		if meta.enter != enterNone && !x.noLock {
			if err := wg.lockstep(meta); err != nil {
				return err
			}
		}
		for _, l := range sg {
			if l.state == stRun {
				wg.cur = l
				if err := l.run(); err != nil {
					return err
				}
			}
		}
		var best *lane
		for _, l := range sg {
			if l.state != stBlocked || isWG(&code[l.pc]) {
				continue
			}
			if best == nil || before(l, best) {
				best = l
			}
		}
		if best == nil {
			return nil
		}
		act = act[:0]
		live := 0
		for _, l := range sg {
			if l.state != stDone {
				live++
			}
			if l.state == stBlocked && samePlace(l, best) {
				act = append(act, l)
			}
		}
		in := &code[best.pc]
		wg.cur = best
		var err error
		switch {
		case isBarrier(in.op):
			if len(act) != live {
				err = best.fail(in, "barrier divergence: %d of %d invocations of the subgroup reached this subgroup barrier", len(act), live)
			}
		case isCoopOp(in.op) || isCoop2Coll(in.op):
			switch {
			case len(sg) != x.p.sgSize:
				err = best.fail(in, "cooperative matrices need a full subgroup of %d invocations; this one has %d", x.p.sgSize, len(sg))
			case len(act) != len(sg):
				err = best.fail(in, "cooperative instruction reached by %d of the %d invocations of its subgroup (it needs uniform control flow)", len(act), len(sg))
			default:
				err = collective(in, act, sg)
			}
		default:
			err = collective(in, act, sg)
		}
		if err != nil {
			return err
		}
		for _, l := range act {
			l.pc++
			l.state = stRun
		}
		if len(act) == len(sg) {
			meta.enter = enterRecompute
		}
		if x.stop.Load() {
			return errStopped
		}
	}
}

// execute runs all workgroups of the dispatch on a pool of workers and
// returns the fault of the lowest-numbered failing workgroup.
func (x *dispatchRun) execute(workers int) error {
	g := x.groups
	total, err := x.checkCounts()
	if err != nil || total == 0 {
		return err
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = int(min(uint64(workers), total))
	if x.ctx != nil {
		if err := x.ctx.Err(); err != nil {
			return err
		}
		// Workers see stop between instructions, so a long workgroup ends
		// too.
		defer context.AfterFunc(x.ctx, func() { x.stop.Store(true) })()
	}
	var cancelled <-chan struct{}
	if x.ctx != nil {
		cancelled = x.ctx.Done()
	}
	batch := x.batchSize(total, workers)
	var next, done atomic.Uint64
	var mu sync.Mutex
	var firstErr error
	firstIdx := ^uint64(0)
	var wgrp sync.WaitGroup
	for w := 0; w < workers; w++ {
		wgrp.Add(1)
		go func() {
			defer wgrp.Done()
			var one, many *wgState // the state of one workgroup, of a batch
			if batch > 1 {
				many = newWG(x, int(batch))
			}
			var pend int64    // work spent, not yet in x.worked (spend)
			var i, end uint64 // the workgroups claimed and not yet run
			for !x.stop.Load() {
				select {
				case <-cancelled:
					x.stop.Store(true)
					return
				default:
				}
				if i == end {
					if i, end = claim(&next, total, workers, batch); i >= total {
						return
					}
				}
				// A batch where the next ones lie in one row of x.
				wg, k := one, uint64(1)
				if batch > 1 && i%uint64(g[0])+batch <= uint64(g[0]) && i+batch <= end {
					wg, k = many, batch
				} else if one == nil {
					one = newWG(x, 1)
					wg = one
				}
				id := [3]uint32{x.base[0] + uint32(i%uint64(g[0])), x.base[1] + uint32(i/uint64(g[0])%uint64(g[1])), x.base[2] + uint32(i/(uint64(g[0])*uint64(g[1])))}
				err := x.spend(wg, wg.safeRun(id), &pend, i+k == end, done.Load(), total)
				if err != nil && err != errStopped {
					mu.Lock()
					if i < firstIdx {
						firstIdx, firstErr = i, err
					}
					mu.Unlock()
					x.stop.Store(true)
					return
				}
				if err == nil && x.progress != nil {
					x.progress(done.Add(k), total)
				}
				i += k
			}
		}()
	}
	wgrp.Wait()
	if firstErr == nil && x.ctx != nil && x.ctx.Err() != nil {
		return fmt.Errorf("dispatch stopped after %d of %d workgroups: %w", done.Load(), total, x.ctx.Err())
	}
	return firstErr
}

// claim hands a worker the next workgroups [i, end) of next's count:
// guided, a share of what is left that shrinks towards the end (at most
// maxClaim, one at a time for a single worker, which keeps the work
// budget's accounting per workgroup there), so that consecutive
// workgroups go to one worker (their data in a row) and the workers
// touch the shared count once per claim rather than per workgroup.
func claim(next *atomic.Uint64, total uint64, workers int, batch uint64) (i, end uint64) {
	for {
		i = next.Load()
		if i >= total {
			return total, total
		}
		k := uint64(1)
		if workers > 1 || batch > 1 {
			k = min(max((total-i)/uint64(8*workers), 1), maxClaim)
			k = min((k+batch-1)/batch*batch, total-i)
		}
		if next.CompareAndSwap(i, i+k) {
			return i, i + k
		}
	}
}

// maxClaim bounds the workgroups a worker claims at once.
const maxClaim = 32

// batchSize is how many workgroups in a row of x a worker runs at once,
// as one wide lockstep row of all their invocations (1: one at a time).
// The per-workgroup costs (reset, each instruction's dispatch, the
// leader's uniform work) then fall on the batch, which for a short
// kernel of a few hundred invocations halves its time. Only with several
// workers (Options.Parallel: workgroups then run in no fixed order
// anyway), only for a program whose workgroups may run so (prog.batch),
// for dispatches large enough that each worker gets many batches, and for
// rows within maxWideWords and memory within maxBatchMem.
func (x *dispatchRun) batchSize(total uint64, workers int) uint64 {
	p := x.p
	if !p.batch || workers < 2 && !x.batchAll || x.noLock || x.check != nil {
		return 1
	}
	n := uint64(p.local[0]) * uint64(p.local[1])
	b := min(maxBatchLanes/n, uint64(x.groups[0]))
	if !x.batchAll {
		b = min(b, total/(uint64(workers)*64))
	}
	if slots := uint64(len(x.tmpl)); slots > 0 {
		b = min(b, maxWideWords/(slots*n))
	}
	if m := uint64(p.invMem)*n + uint64(p.wgMem); m > 0 {
		b = min(b, maxBatchMem/m)
	}
	return max(b, 1)
}

// maxBatchLanes bounds the invocations of a batch of workgroups, and
// maxBatchMem their memory.
const (
	maxBatchLanes = 1024
	maxBatchMem   = 1 << 24
)

// batchable reports whether workgroups of the program may run several at
// once as one (batchSize) with the results of running them one by one
// in some order: a local size (n, m, 1) of whole subgroups (so no
// subgroup spans two workgroups), collectives only barriers and subgroup
// operations (prog.wideColl, none of workgroup scope), and built-in
// inputs the batch gives each invocation as its own workgroup would
// (builtinValue, builtinRow: the ids, the subgroups' places and sizes).
// Workgroup memory is each workgroup's own (lane.gmem) and a barrier
// waits for its own workgroup alone (runGroup).
func (p *prog) batchable() bool {
	n := p.local[0] * p.local[1]
	if p.local[2] != 1 || n == 0 || int(n)%p.sgSize != 0 || !p.wideColl {
		return false
	}
	for _, iv := range p.inputs {
		switch iv.builtin {
		case spirv.BuiltInGlobalInvocationId, spirv.BuiltInNumWorkgroups, spirv.BuiltInWorkgroupSize,
			spirv.BuiltInSubgroupSize, spirv.BuiltInSubgroupMaxSize, spirv.BuiltInDeviceIndex,
			spirv.BuiltInWorkgroupId, spirv.BuiltInLocalInvocationId, spirv.BuiltInLocalInvocationIndex,
			spirv.BuiltInSubgroupId, spirv.BuiltInNumSubgroups, spirv.BuiltInSubgroupLocalInvocationId,
			spirv.BuiltInSubgroupEqMask, spirv.BuiltInSubgroupGeMask, spirv.BuiltInSubgroupGtMask,
			spirv.BuiltInSubgroupLeMask, spirv.BuiltInSubgroupLtMask:
		default:
			return false
		}
	}
	for k := range p.code {
		in := &p.code[k]
		if in.wg || in.coll && in.op != spirv.OpControlBarrier && !isGroupOp(in.op) {
			return false
		}
	}
	return true
}

// safeRun runs one workgroup, turning a panic inside the executor into an
// internal error that names the instruction being run.
func (wg *wgState) safeRun(id [3]uint32) (err error) {
	defer func() {
		if r := recover(); r != nil {
			l := wg.cur
			if l == nil || len(wg.x.p.code) == 0 {
				err = &Error{Internal: true, Msg: fmt.Sprint(r)}
				return
			}
			in := &wg.x.p.code[min(int(l.pc), len(wg.x.p.code)-1)]
			e := l.fail(in, "%v", r)
			e.Internal = true
			err = e
		}
	}()
	wg.cur = nil
	wg.reset(id)
	return wg.run()
}

// isCoop2Coll reports the collective cooperative matrix 2 instructions.
func isCoop2Coll(op spirv.Op) bool {
	switch op {
	case spirv.OpCooperativeMatrixReduceNV, spirv.OpCooperativeMatrixTransposeNV,
		spirv.OpCooperativeMatrixLoadTensorNV, spirv.OpCooperativeMatrixStoreTensorNV:
		return true
	}
	return false
}

// isBarrier reports control barriers: OpControlBarrier, and the waiting
// half of a split barrier, which waits for all invocations as a whole
// barrier does (every one that waits has arrived before).
func isBarrier(op spirv.Op) bool {
	return op == spirv.OpControlBarrier || op == spirv.OpControlBarrierWaitEXT
}
