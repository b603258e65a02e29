package exec

import (
	"slices"

	"github.com/coopshader/coop/spirv"
)

// 4-bit integers (SPV_INTEL_int4). A value takes a slot like any integer,
// its low 4 bits significant, so conversions, composites, OpSelect and
// bitcasts need nothing of their own. What is particular is memory: a
// vector (or cooperative matrix) of them is packed two to a byte, the
// first of each pair in bits 0-3 and the second in bits 4-7, in every
// storage class; a scalar one in memory (a Function or Private variable,
// a member or an array element there) takes a byte, its value in bits 0-3,
// and a pointer to one component of a vector there names a half of its
// pair's byte (int4Component).

// isInt4 reports whether t is a 4-bit integer scalar.
func (t *typ) isInt4() bool { return t != nil && t.kind == kInt && t.width == 4 }

// nibbles reports whether t is a vector or cooperative matrix of 4-bit
// integers, whose components are packed in memory.
func (t *typ) nibbles() bool {
	return (t.kind == kVector || t.kind == kCoopMat) && t.elem.isInt4()
}

// has4 reports whether t is or includes a 4-bit integer (not through a
// pointer), so that the extension's list of instructions applies to it.
func (t *typ) has4() bool {
	if t == nil {
		return false
	}
	switch t.kind {
	case kInt:
		return t.width == 4
	case kVector, kMatrix, kArray, kRuntimeArray, kCoopMat:
		return t.elem.has4()
	case kStruct:
		for _, m := range t.mem {
			if m.has4() {
				return true
			}
		}
	}
	return false
}

// loadNibbles decodes n packed 4-bit components at b[off:].
func loadNibbles(b []byte, off, n int, dst []uint64) {
	for k := 0; k < n; k++ {
		dst[k] = uint64(b[off+k/2]>>(4*(k&1))) & 0xf
	}
}

// storeNibbles encodes n 4-bit components at b[off:]. With an odd count
// the high half of the last byte is kept.
func storeNibbles(b []byte, off, n int, src []uint64) {
	for k := 0; k < n; k++ {
		sh := 4 * (k & 1)
		p := &b[off+k/2]
		*p = *p&^(0xf<<sh) | byte(src[k]&0xf)<<sh
	}
}

// int4Ops are the instructions SPV_INTEL_int4 allows on types that are or
// include a 4-bit integer, besides the classes in int4Classes (static
// arrays: package init builds nothing for them).
var int4Ops = [...]spirv.Op{
	spirv.OpCooperativeMatrixMulAddKHR,
	spirv.OpCooperativeMatrixLengthKHR,
	spirv.OpSelect,
	spirv.OpPhi,
	spirv.OpReturnValue,
	spirv.OpLifetimeStart,
	spirv.OpLifetimeStop,
	// Not in the list, but an undefined value is no use of one.
	spirv.OpUndef,
}

var int4Classes = [...]string{"Constant-Creation", "Memory", "Function", "Conversion", "Composite"}

// checkInt4Use refuses an instruction that SPV_INTEL_int4 does not allow
// on 4-bit integers when its result or an id operand has such a type
// (arithmetic among them: the extension allows none). ops are the
// operands after the result type and id.
func (p *prog) checkInt4Use(i int, op spirv.Op, t *typ, ops []uint32) error {
	if slices.Contains(int4Ops[:], op) {
		return nil
	}
	d := op.Desc()
	if d != nil && slices.Contains(int4Classes[:], d.Class) {
		return nil
	}
	bad := t.has4()
	if d != nil && !bad {
		descs := d.Operands
		if d.HasType() {
			descs = descs[min(2, len(descs)):]
		} else if d.HasResult() {
			descs = descs[min(1, len(descs)):]
		}
		k := 0
	scan:
		for _, od := range descs {
			if od.Kind != spirv.KindIdRef {
				break
			}
			for ; k < len(ops); k++ {
				if int(ops[k]) < len(p.tyOf) && p.tyOf[ops[k]].has4() {
					bad = true
					break scan
				}
				if od.Quant != spirv.QuantMany {
					k++
					break
				}
			}
		}
	}
	if bad {
		return p.errAt(i, "%s cannot take 4-bit integers: SPV_INTEL_int4 allows them only in constant-creation, memory, function, conversion and composite instructions, OpSelect, OpPhi, OpReturnValue, OpLifetimeStart/Stop, OpCooperativeMatrixMulAddKHR and OpCooperativeMatrixLengthKHR", op)
	}
	return nil
}

// int4Component handles an access chain that selects one component of a
// vector of 4-bit integers (rest is that index, then any further ones).
// Outside Function and Private memory such a scalar cannot exist; in
// those two the pointer names the byte of the component's pair and, in
// bit 0 of the address's region index (always 0 for invocation memory),
// which half: loads and stores of a 4-bit scalar then go through
// int4Mem, which reads and writes only that half.
func (p *prog) int4Component(i int, ins *instr, c *chain, vt *typ, rest []uint32) error {
	if ins.t == nil || ins.t.kind != kPointer || ins.t.sc != spirv.StorageClassFunction && ins.t.sc != spirv.StorageClassPrivate {
		return p.errAt(i, "an access chain cannot select one component of a vector of 4-bit integers: outside Function and Private memory a pair, packed in a byte, is the smallest addressable unit (SPV_INTEL_int4)")
	}
	if len(rest) != 1 {
		return p.errAt(i, "index into a non-composite")
	}
	s, it := p.slotOf(rest[0])
	if s < 0 || it.kind != kInt {
		return p.errAt(i, "index %%%d is not an integer", rest[0])
	}
	ins.aux = &int4Chain{op: ins.op, c: c, slot: s, w: it.width, n: vt.count}
	ins.op = opInt4Chain
	return nil
}

// Pseudo-opcodes of the instructions int4Mem runs.
const (
	opInt4Chain spirv.Op = 0xfff0 + iota
	opInt4Load
	opInt4Store
	opInt4Copy
)

// int4Chain is an access chain ending in one component of a vector of
// 4-bit integers: the chain to the vector, then the component's index.
type int4Chain struct {
	op   spirv.Op
	c    *chain
	slot int32
	w, n int
}

// int4Half marks the high half of a byte in an invocation-memory address.
const int4Half = 1 << offBits

// int4Pointers routes the loads, stores and copies of 4-bit scalars to
// int4Mem, and keeps vector handlers off them. It runs after the lockstep
// kinds are set (each time the handlers are picked), so these keep the
// memory kinds of the instructions they stand for.
func (p *prog) int4Pointers() {
	for k := range p.code {
		in := &p.code[k]
		var op spirv.Op
		switch {
		case in.op == spirv.OpLoad && in.t.isInt4():
			op = opInt4Load
		case in.op == spirv.OpStore && in.at.isInt4():
			op = opInt4Store
		case in.op == spirv.OpCopyMemory && in.at.isInt4():
			op = opInt4Copy
		case in.op >= opInt4Chain && in.op <= opInt4Copy:
			op = in.op
		default:
			continue
		}
		in.op, in.vec, in.fast = op, nil, fNoFast
	}
}

// int4Mem runs an instruction int4Pointers routed here; its faults name
// the opcode it stands for.
func (l *lane) int4Mem(in *instr) error {
	err := l.int4Run(in)
	if e, ok := err.(*Error); ok {
		e.Op = [...]spirv.Op{spirv.OpAccessChain, spirv.OpLoad, spirv.OpStore, spirv.OpCopyMemory}[in.op-opInt4Chain]
		if in.op == opInt4Chain {
			e.Op = in.aux.(*int4Chain).op
		}
	}
	return err
}

func (l *lane) int4Run(in *instr) error {
	r := l.regs
	switch in.op {
	case opInt4Chain:
		ic := in.aux.(*int4Chain)
		addr := r[in.a[0]] + uint64(ic.c.off)
		for _, s := range ic.c.steps {
			k := sext(r[s.slot], s.w)
			if s.bound > 0 && (k < 0 || k >= int64(s.bound)) {
				return l.fail(in, "index %d out of range for %d elements", k, s.bound)
			}
			addr += uint64(k * int64(s.stride))
		}
		k := sext(r[ic.slot], ic.w)
		if k < 0 || k >= int64(ic.n) {
			return l.fail(in, "index %d out of range for %d elements", k, ic.n)
		}
		r[in.res] = addr + uint64(k/2) + uint64(k&1)*int4Half
	case opInt4Load:
		v, err := l.int4Read(in, r[in.a[0]])
		if err != nil {
			return err
		}
		r[in.res] = v
	case opInt4Store:
		return l.int4Write(in, r[in.a[0]], r[in.a[1]])
	case opInt4Copy:
		v, err := l.int4Read(in, r[in.a[1]])
		if err != nil {
			return err
		}
		return l.int4Write(in, r[in.a[0]], v)
	}
	return nil
}

// int4Byte is the byte a 4-bit scalar's address names and the shift of
// its half.
func (l *lane) int4Byte(in *instr, addr uint64, write bool) (*byte, uint, error) {
	sh := uint(0)
	if addr>>56 == regInv && addr&int4Half != 0 {
		addr &^= int4Half
		sh = 4
	}
	b, err := l.region(in, addr, 1, write)
	if err != nil {
		return nil, 0, err
	}
	return &b[0], sh, nil
}

func (l *lane) int4Read(in *instr, addr uint64) (uint64, error) {
	b, sh, err := l.int4Byte(in, addr, false)
	if err != nil {
		return 0, err
	}
	return uint64(*b>>sh) & 0xf, nil
}

func (l *lane) int4Write(in *instr, addr, v uint64) error {
	b, sh, err := l.int4Byte(in, addr, true)
	if err != nil {
		return err
	}
	*b = *b&^(0xf<<sh) | byte(v&0xf)<<sh
	return nil
}

// coopNibbles loads or stores a cooperative matrix of 4-bit integers: each
// row (column, column-major) is a run of packed components starting at a
// multiple of the stride, so element k of a line is in byte k/2, bits 0-3
// for even k and 4-7 for odd k.
func coopNibbles(in *instr, io matIO, cm *coopMem, addr uint64, stride int, load bool) error {
	l0 := io.act[0]
	mt := cm.mt
	R, C := mt.rows, mt.cols
	lines, per := R, C
	if cm.colMajor {
		lines, per = C, R
	}
	ls := stride * cm.pes
	if lines > 1 && cm.stride < 0 {
		return l0.fail(in, "a stride is required")
	}
	lineBytes := (per + 1) / 2
	b, err := l0.region(in, addr, (lines-1)*ls+lineBytes, !load)
	if err != nil {
		return err
	}
	tile := l0.wg.scratch.u64(0, R*C)
	if !load {
		tile = io.raw(cm.obj, tile)
	}
	line := l0.wg.scratch.u64(1, per)
	for n := 0; n < lines; n++ {
		at := func(k int) *uint64 {
			if cm.colMajor {
				return &tile[k*C+n]
			}
			return &tile[n*C+k]
		}
		if load {
			loadNibbles(b, n*ls, per, line)
			for k, v := range line {
				*at(k) = v
			}
			continue
		}
		for k := range line {
			line[k] = *at(k)
		}
		storeNibbles(b, n*ls, per, line)
	}
	if load {
		io.putRaw(in.res, mt, tile)
	}
	return nil
}
