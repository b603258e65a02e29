package exec

import "github.com/coopshader/coop/spirv"

// SPV_QCOM_cooperative_matrix_conversion. Arrays reinterpreted as other
// arrays, or as rows and columns of a matrix, form one little-endian bit
// stream, element 0 lowest (so a uint32 holds two halves or four bytes,
// the first in its low bits). Where sizes do not match (the specification
// requires them to), the leading bits are taken and the rest is zero.
//
// OpCompositeConstructCoopMatQCOM and OpCompositeExtractCoopMatQCOM need
// the whole of a full subgroup, like other cooperative matrix
// instructions. Invocation i supplies (or receives) row i of a MatrixA or
// Accumulator matrix and column i of a MatrixB one; the matrix is then
// held by the invocations as every cooperative matrix is (see the
// package documentation). Rows or columns no invocation supplies are
// zero, and invocations past the last row or column receive zeros.

func isQCOMColl(op spirv.Op) bool {
	return op == spirv.OpCompositeConstructCoopMatQCOM || op == spirv.OpCompositeExtractCoopMatQCOM
}

func (p *prog) compileQCOM(i int, ins *instr, ops []uint32) (*instr, error) {
	if len(ops) != 1 || ins.t == nil {
		return nil, p.errAt(i, "%s needs a result type and one operand", ins.op)
	}
	var err error
	if ins.a, err = p.valSlots(i, ops); err != nil {
		return nil, err
	}
	ins.at = p.tyOf[ops[0]]
	arr, mt := ins.at, ins.t
	if ins.op == spirv.OpCompositeExtractCoopMatQCOM {
		arr, mt = ins.t, ins.at
	}
	if arr.kind != kArray || !arr.elem.scalar() || mt.kind != kCoopMat {
		return nil, p.errAt(i, "%s converts between an array of scalars and a cooperative matrix", ins.op)
	}
	ins.coll = true
	return ins, nil
}

// qcomLines gives a matrix's lines as the QCOM instructions see them: the
// number of lines, their length, and the element step along a line and
// from one line to the next in the row-major element order.
func qcomLines(mt *typ) (lines, per, along, next int) {
	if mt.use == int(spirv.CooperativeMatrixUseMatrixBKHR) {
		return mt.cols, mt.rows, mt.cols, 1
	}
	return mt.rows, mt.cols, 1, mt.cols
}

func qcomExec(in *instr, act, sg []*lane) error {
	l0 := act[0]
	if len(sg) != l0.p.sgSize || len(act) != len(sg) {
		return l0.fail(in, "%s needs all invocations of a full subgroup of %d; %d of %d reached it", in.op, l0.p.sgSize, len(act), len(sg))
	}
	construct := in.op == spirv.OpCompositeConstructCoopMatQCOM
	arr, mt := in.at, in.t
	if !construct {
		arr, mt = in.t, in.at
	}
	lines, per, along, next := qcomLines(mt)
	ew, cw := bitWidth(arr.elem), bitWidth(mt.elem)
	elems := make([]uint64, mt.rows*mt.cols)
	line := make([]uint64, per)
	if construct {
		for _, l := range act {
			if l.sgl >= lines {
				continue
			}
			repack(line, cw, l.regs[in.a[0]:in.a[0]+int32(arr.count)], ew)
			for j, v := range line {
				elems[l.sgl*next+j*along] = v
			}
		}
		scatter(act, in.res, elems)
		return nil
	}
	gather(act, in.a[0], elems)
	res := make([][]uint64, len(act))
	for k, l := range act {
		res[k] = make([]uint64, arr.count)
		if l.sgl >= lines {
			continue
		}
		for j := range line {
			line[j] = elems[l.sgl*next+j*along]
		}
		repack(res[k], ew, line, cw)
	}
	for k, l := range act {
		copy(l.regs[in.res:], res[k])
	}
	return nil
}
