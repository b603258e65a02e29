package exec

import (
	"github.com/coopshader/coop/spirv"
)

// 4-bit integers (SPV_INTEL_int4). A value takes a slot like any integer,
// its low 4 bits significant, so conversions, composites, OpSelect and
// bitcasts need nothing of their own. What is particular is memory: a
// vector (or cooperative matrix) of them is packed two to a byte, the
// first of each pair in bits 0-3 and the second in bits 4-7, in every
// storage class; a scalar one in memory (a Function or Private variable,
// a member or an array element there) takes a byte, its value in bits 0-3.

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
// include a 4-bit integer, besides the classes in int4Classes.
var int4Ops = map[spirv.Op]bool{
	spirv.OpCooperativeMatrixMulAddKHR: true,
	spirv.OpCooperativeMatrixLengthKHR: true,
	spirv.OpSelect:                     true,
	spirv.OpPhi:                        true,
	spirv.OpReturnValue:                true,
	spirv.OpLifetimeStart:              true,
	spirv.OpLifetimeStop:               true,
	// Not in the list, but an undefined value is no use of one.
	spirv.OpUndef: true,
}

var int4Classes = map[string]bool{
	"Constant-Creation": true, "Memory": true, "Function": true, "Conversion": true, "Composite": true,
}

// checkInt4Use refuses an instruction that SPV_INTEL_int4 does not allow
// on 4-bit integers when its result or an id operand has such a type
// (arithmetic among them: the extension allows none). ops are the
// operands after the result type and id.
func (p *prog) checkInt4Use(i int, op spirv.Op, t *typ, ops []uint32) error {
	if int4Ops[op] {
		return nil
	}
	d := op.Desc()
	if d != nil && int4Classes[d.Class] {
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
// vector of 4-bit integers. In memory other than Function and Private
// such a scalar cannot exist; in those two the executor's packed layout
// has no address for it.
func (p *prog) int4Component(i int, ins *instr, c *chain) error {
	if ins.t != nil && ins.t.kind == kPointer && (ins.t.sc == spirv.StorageClassFunction || ins.t.sc == spirv.StorageClassPrivate) {
		ins.ch = c
		p.unsupport(i, "a pointer to one component of a vector of 4-bit integers (the executor packs them in pairs in every storage class)")
		return nil
	}
	return p.errAt(i, "an access chain cannot select one component of a vector of 4-bit integers: outside Function and Private memory a pair, packed in a byte, is the smallest addressable unit (SPV_INTEL_int4)")
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
