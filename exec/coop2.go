package exec

import (
	"github.com/coopshader/coop/spirv"
)

// SPV_NV_cooperative_matrix2: reductions, per-element operations (both call
// a SPIR-V function of the module for each element or pair), transposes
// and use conversions.

// opHalt ends a callback: the function called for an element returns to it.
const opHalt spirv.Op = 0xfffd

type coop2 struct {
	src    *typ
	mode   spirv.CooperativeMatrixReduce
	fn     uint32
	pc     int32
	params []int32
	pn     []int32 // slots of each parameter
	extra  []int32 // slots of the extra operands of a per-element op
	extraT []*typ
	idx    int
	// want is the parameter count a decode function needs (0: derived);
	// pointee the size of what its pointer parameter points to.
	want    int
	pointee int
	// decode marks a decode function (Options.Check: it must not write
	// memory).
	decode bool
	// res and nres are the slots the function's result is returned
	// through: slot 0 for scalars, scratch slots for a vector decode
	// function (vec: SPV_NV_cooperative_matrix_decode_vector).
	res, nres int32
	vec       bool
	// bodyEnd and ret describe a scalar decode function that the tile's
	// elements can run through together (decodeBatch): its code is
	// [pc, bodyEnd), one block of instructions without side effects,
	// then OpReturnValue of slot ret. bodyEnd is 0 for any other.
	bodyEnd, ret int32
	// rows is how the body runs for a whole tile at once (coopdecode.go).
	rows rowPlan
}

func (p *prog) compileCoop2(i int, ins *instr, ops []uint32) (*instr, error) {
	if len(ops) < 1 {
		return nil, p.errAt(i, "missing matrix")
	}
	ms, mt := p.slotOf(ops[0])
	if ms < 0 || mt.kind != kCoopMat || ins.t == nil || ins.t.kind != kCoopMat {
		return nil, p.errAt(i, "operand and result must be cooperative matrices")
	}
	ins.a = []int32{ms}
	ins.at = mt
	ins.wg = spirv.Scope(mt.scope) == spirv.ScopeWorkgroup
	switch ins.op {
	case spirv.OpCooperativeMatrixConvertNV:
		// Ownership depends only on the shape, so a use change is a copy.
		if mt.rows != ins.t.rows || mt.cols != ins.t.cols {
			return nil, p.errAt(i, "shapes differ")
		}
		ins.op = spirv.OpCopyObject
		return ins, nil
	case spirv.OpCooperativeMatrixTransposeNV:
		if mt.rows != ins.t.cols || mt.cols != ins.t.rows {
			return nil, p.errAt(i, "the result must have the operand's shape transposed")
		}
		ins.coll = true
		return ins, nil
	}
	c := &coop2{src: mt, idx: i}
	if ins.op == spirv.OpCooperativeMatrixReduceNV {
		if len(ops) < 3 {
			return nil, p.errAt(i, "missing operands")
		}
		c.mode, c.fn = spirv.CooperativeMatrixReduce(ops[1]), ops[2]
		switch {
		case c.mode == spirv.CooperativeMatrixReduce2x2:
			if ins.t.rows*2 != mt.rows || ins.t.cols*2 != mt.cols {
				return nil, p.errAt(i, "a 2x2 reduction halves both dimensions")
			}
		case c.mode == spirv.CooperativeMatrixReduceRow:
			if ins.t.rows != mt.rows {
				return nil, p.errAt(i, "a row reduction keeps the number of rows")
			}
		case c.mode == spirv.CooperativeMatrixReduceColumn:
			if ins.t.cols != mt.cols {
				return nil, p.errAt(i, "a column reduction keeps the number of columns")
			}
		case c.mode == spirv.CooperativeMatrixReduceRow|spirv.CooperativeMatrixReduceColumn:
		default:
			return nil, p.errAt(i, "invalid reduction mode %d", c.mode)
		}
		ins.coll = true
	} else {
		if len(ops) < 2 {
			return nil, p.errAt(i, "missing function")
		}
		c.fn = ops[1]
		for _, id := range ops[2:] {
			s, t := p.slotOf(id)
			if s < 0 {
				return nil, p.errAt(i, "operand %%%d has no value", id)
			}
			c.extra, c.extraT = append(c.extra, s), append(c.extraT, t)
		}
	}
	ins.aux = c
	p.callbacks = append(p.callbacks, c)
	return ins, nil
}

// resolveCallbacks points callbacks at their functions.
func (p *prog) resolveCallbacks() error {
	var fnVars map[uint32]bool
	if len(p.callbacks) > 0 {
		fnVars = p.functionVars()
	}
	for _, c := range p.callbacks {
		pc, ok := p.fnPC[c.fn]
		if !ok {
			return p.errAt(c.idx, "%%%d is not a function", c.fn)
		}
		c.pc, c.params, c.pn = pc, p.params[c.fn], p.paramN[c.fn]
		want := c.want
		switch {
		case want != 0:
			if pt := p.paramType(c.fn, 0); pt != nil && pt.kind == kPointer && pt.elem != nil {
				c.pointee = pt.elem.size
			}
		case c.mode != 0:
			want = 2
		default:
			want = 3 + len(c.extra)
		}
		if len(c.params) != want {
			return p.errAt(c.idx, "function %%%d has %d parameters, the instruction passes %d", c.fn, len(c.params), want)
		}
		c.nres = 1
		if c.vec {
			rt := p.fnRet[c.fn]
			if rt == nil || rt.kind != kVector || rt.count != 2 && rt.count != 4 && rt.count != 8 {
				return p.errAt(c.idx, "decode vector function %%%d must return a vector of 2, 4 or 8 components", c.fn)
			}
			if e := c.src.elem; rt.elem.kind != e.kind || rt.elem.width != e.width || rt.elem.ff != e.ff {
				return p.errAt(c.idx, "decode vector function %%%d must return vectors of the matrix's component type", c.fn)
			}
			c.res, c.nres = int32(len(p.tmpl)), int32(rt.slots)
			p.tmpl = append(p.tmpl, make([]uint64, rt.slots)...)
		}
		if c.decode {
			c.bodyEnd, c.ret = p.straightBody(c.pc, fnVars)
			c.rows = p.planRows(c)
		}
	}
	return nil
}

// maxBatchBody bounds the decode functions run batched: longer ones are
// rare, and each instruction costs a pass over the subgroup.
const maxBatchBody = 256

// functionVars lists the ids of the module's Function variables.
func (p *prog) functionVars() map[uint32]bool {
	vars := map[uint32]bool{}
	for i := range p.m.Insts {
		in := &p.m.Insts[i]
		if in.Op == spirv.OpVariable && len(in.Words) >= 3 && spirv.StorageClass(in.Words[2]) == spirv.StorageClassFunction {
			vars[in.Words[1]] = true
		}
	}
	return vars
}

// straightBody reports where the function starting at pc ends when it is
// one block whose instructions compute values, load, copy promoted
// variables or store whole Function variables before any other use of
// them (no other stores, atomics, calls, output, collectives). Its result
// then depends on its parameters and the memory it reads alone, and
// running it changes nothing another call or another invocation sees:
// calls for several elements may run in another order, and a call may be
// made again. It returns the OpReturnValue's index and the returned slot,
// or zeros.
func (p *prog) straightBody(pc int32, fnVars map[uint32]bool) (end, ret int32) {
	for k := pc; int(k) < len(p.code) && k-pc < maxBatchBody; k++ {
		in := &p.code[k]
		switch {
		case in.op == spirv.OpStore && in.lk == lkStore && in.fast != fCopy:
			if !p.storesFirst(pc, k, fnVars) {
				return 0, 0
			}
		case in.op == spirv.OpReturnValue:
			if k == pc || len(in.a) == 0 {
				return 0, 0
			}
			return k, in.a[0]
		case in.coll:
			return 0, 0
		case in.lk == lkPure || in.lk == lkLoad || in.lk == lkLoadU:
		case in.lk == lkStore && in.fast == fCopy:
		default:
			return 0, 0
		}
	}
	return 0, 0
}

// storesFirst reports whether the OpStore at k writes a whole Function
// variable that no instruction in [pc, k) uses.
func (p *prog) storesFirst(pc, k int32, fnVars map[uint32]bool) bool {
	w := p.m.Insts[p.code[k].idx].Words
	if len(w) < 2 || !fnVars[w[0]] || int(w[0]) >= len(p.slot) {
		return false
	}
	s := p.slot[w[0]]
	if s < 0 {
		return false
	}
	for j := pc; j < k; j++ {
		u := p.code[j].uses
		for i := 0; i+1 < len(u); i += 2 {
			if s >= u[i] && s < u[i]+u[i+1] {
				return false
			}
		}
	}
	return true
}

// callback runs function c on lane l with the given arguments (one value
// per parameter, flattened) and returns the first slot of its result.
func (l *lane) callback(in *instr, c *coop2, args []uint64) (uint64, error) {
	p := l.p
	savedPC, savedState, depth, loops := l.pc, l.state, len(l.stack), len(l.loops)
	k := int32(0)
	for j, s := range c.params {
		n := c.pn[j]
		copy(l.regs[s:s+n], args[k:k+n])
		k += n
	}
	l.stack = append(l.stack, frame{ret: p.halt, res: c.res, n: c.nres, loops: int32(len(l.loops))})
	l.pc = c.pc
	if len(l.stack) > 64 {
		return 0, l.fail(in, "call stack deeper than 64")
	}
	if c.decode && l.x != nil && l.x.check != nil {
		l.x.check.decoding++
	}
	err := l.run()
	if c.decode && l.x != nil && l.x.check != nil {
		l.x.check.decoding--
	}
	if err != nil {
		return 0, err
	}
	if l.pc != p.halt || len(l.stack) != depth {
		return 0, l.fail(in, "the function called for matrix elements reached a collective instruction")
	}
	// Slot 0 is the scratch slot scalar results are returned through; a
	// vector's components stay in its slots for the caller to read.
	v := l.regs[c.res]
	l.regs[0] = 0
	l.pc, l.state = savedPC, savedState
	l.loops = l.loops[:loops]
	return v, nil
}

// perElement runs OpCooperativeMatrixPerElementOpNV for the elements the
// lane owns (index within the scope: lane of the subgroup, or local
// invocation index for Workgroup scope).
func (l *lane) perElement(in *instr) error {
	c := in.aux.(*coop2)
	mt := c.src
	me := l.sgl
	if spirv.Scope(mt.scope) == spirv.ScopeWorkgroup {
		me = l.lid
	}
	// The buffers are the worker's, unless a per-element function runs
	// another per-element operation inside.
	sc := &l.wg.scratch
	var res, args []uint64
	if sc.perElement {
		res = make([]uint64, mt.count)
	} else {
		sc.perElement = true
		defer func() { sc.perElement = false }()
		if cap(sc.peRes) < mt.count {
			sc.peRes = make([]uint64, mt.count)
		}
		res, args = sc.peRes[:mt.count], sc.args[:0]
	}
	for pos := 0; pos < mt.count; pos++ {
		e := me*mt.count + pos
		if e >= mt.rows*mt.cols {
			break
		}
		args = append(args[:0], uint64(e/mt.cols), uint64(e%mt.cols), l.regs[in.a[0]+int32(pos)])
		for j, s := range c.extra {
			if c.extraT[j].kind == kCoopMat {
				args = append(args, l.regs[s+int32(pos)])
			} else {
				args = append(args, l.regs[s:s+int32(c.extraT[j].slots)]...)
			}
		}
		v, err := l.callback(in, c, args)
		if err != nil {
			return err
		}
		res[pos] = v
	}
	if cap(args) > cap(sc.args) {
		sc.args = args
	}
	copy(l.regs[in.res:], res)
	return nil
}

// coop2Exec runs the collective matrix2 instructions for a whole scope.
func coop2Exec(in *instr, act []*lane) error {
	l0 := act[0]
	mt := in.at
	R, C := mt.rows, mt.cols
	sc := &l0.wg.scratch
	src := sc.u64(0, R*C)
	gather(act, in.a[0], src)
	rt := in.t
	dst := sc.u64(1, rt.rows*rt.cols)
	if in.op == spirv.OpCooperativeMatrixTransposeNV {
		for r := 0; r < R; r++ {
			for c := 0; c < C; c++ {
				dst[c*R+r] = src[r*C+c]
			}
		}
		scatter(act, in.res, dst)
		return nil
	}
	cb := in.aux.(*coop2)
	combine := func(a, b uint64) (uint64, error) {
		pair := [2]uint64{a, b}
		return l0.callback(in, cb, pair[:])
	}
	reduce := func(vals []uint64) (uint64, error) {
		acc := vals[0]
		for _, v := range vals[1:] {
			var err error
			if acc, err = combine(acc, v); err != nil {
				return 0, err
			}
		}
		return acc, nil
	}
	switch cb.mode {
	case spirv.CooperativeMatrixReduce2x2:
		for r := 0; r < rt.rows; r++ {
			for c := 0; c < rt.cols; c++ {
				quad := [4]uint64{src[2*r*C+2*c], src[(2*r+1)*C+2*c], src[2*r*C+2*c+1], src[(2*r+1)*C+2*c+1]}
				v, err := reduce(quad[:])
				if err != nil {
					return err
				}
				dst[r*rt.cols+c] = v
			}
		}
	case spirv.CooperativeMatrixReduceRow:
		for r := 0; r < R; r++ {
			v, err := reduce(src[r*C : r*C+C])
			if err != nil {
				return err
			}
			for c := 0; c < rt.cols; c++ {
				dst[r*rt.cols+c] = v
			}
		}
	case spirv.CooperativeMatrixReduceColumn:
		col := sc.u64(2, R)
		for c := 0; c < C; c++ {
			for r := range col {
				col[r] = src[r*C+c]
			}
			v, err := reduce(col)
			if err != nil {
				return err
			}
			for r := 0; r < rt.rows; r++ {
				dst[r*rt.cols+c] = v
			}
		}
	default:
		v, err := reduce(src)
		if err != nil {
			return err
		}
		for k := range dst {
			dst[k] = v
		}
	}
	scatter(act, in.res, dst)
	return nil
}
