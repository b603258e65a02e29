package exec

import (
	"math"

	"github.com/coopshader/coop/spirv"
)

// Cooperative vectors (SPV_NV_cooperative_vector) are ordinary per-
// invocation vectors; their matrix instructions read the matrix from
// memory. The optimal layouts are, in this executor, row-major with rows
// packed tightly (MatrixStride ignored); a transposed optimal matrix is
// stored K x M the same way.

type cvecOp struct {
	in, mat, bias *typ // interpretations
	packed        bool
	inTy          *typ // the input vector's own type
	M, K          int
	layout        spirv.CooperativeVectorMatrixLayout
	transpose     bool
	inSigned      bool
	resSigned     bool
	// slots
	input, matPtr, matOff, biasPtr, biasOff, stride int32
}

// interp is the type a Component Type value names.
func interp(ct spirv.ComponentType) (*typ, bool, bool) {
	switch ct {
	case spirv.ComponentTypeFloat16NV:
		return &typ{kind: kFloat, width: 16, ff: f16}, false, true
	case spirv.ComponentTypeFloat32NV:
		return &typ{kind: kFloat, width: 32, ff: f32}, false, true
	case spirv.ComponentTypeFloat64NV:
		return &typ{kind: kFloat, width: 64, ff: f64}, false, true
	case spirv.ComponentTypeFloatE4M3NV:
		return &typ{kind: kFloat, width: 8, ff: e4m3}, false, true
	case spirv.ComponentTypeFloatE5M2NV:
		return &typ{kind: kFloat, width: 8, ff: e5m2}, false, true
	case spirv.ComponentTypeSignedInt8NV, spirv.ComponentTypeSignedInt16NV, spirv.ComponentTypeSignedInt32NV, spirv.ComponentTypeSignedInt64NV:
		return &typ{kind: kInt, signed: true, width: 8 << (ct - spirv.ComponentTypeSignedInt8NV)}, false, true
	case spirv.ComponentTypeUnsignedInt8NV, spirv.ComponentTypeUnsignedInt16NV, spirv.ComponentTypeUnsignedInt32NV, spirv.ComponentTypeUnsignedInt64NV:
		return &typ{kind: kInt, width: 8 << (ct - spirv.ComponentTypeUnsignedInt8NV)}, false, true
	case spirv.ComponentTypeSignedInt8PackedNV:
		return &typ{kind: kInt, signed: true, width: 8}, true, true
	case spirv.ComponentTypeUnsignedInt8PackedNV:
		return &typ{kind: kInt, width: 8}, true, true
	}
	return nil, false, false
}

func isCvecOp(op spirv.Op) bool {
	switch op {
	case spirv.OpCooperativeVectorLoadNV, spirv.OpCooperativeVectorStoreNV, spirv.OpCooperativeVectorMatrixMulNV,
		spirv.OpCooperativeVectorMatrixMulAddNV, spirv.OpCooperativeVectorOuterProductAccumulateNV,
		spirv.OpCooperativeVectorReduceSumAccumulateNV:
		return true
	}
	return false
}

func (p *prog) compileCvec(i int, ins *instr, ops []uint32) (*instr, error) {
	vals := func(ids []uint32) ([]int32, error) { return p.valSlots(i, ids) }
	cnst := func(k int) (uint64, error) {
		if k >= len(ops) {
			return 0, p.errAt(i, "missing operand")
		}
		v, ok := p.constU(ops[k])
		if !ok {
			return 0, p.errAt(i, "operand %%%d must be a constant", ops[k])
		}
		return v, nil
	}
	interpAt := func(k int) (*typ, bool, error) {
		v, err := cnst(k)
		if err != nil {
			return nil, false, err
		}
		t, packed, ok := interp(spirv.ComponentType(v))
		if !ok {
			return nil, false, p.errAt(i, "unknown component type %d", v)
		}
		return t, packed, nil
	}
	var err error
	switch ins.op {
	case spirv.OpCooperativeVectorLoadNV:
		if len(ops) < 2 {
			return nil, p.errAt(i, "missing operands")
		}
		ins.a, err = vals(ops[:2])
		return ins, err
	case spirv.OpCooperativeVectorStoreNV, spirv.OpCooperativeVectorReduceSumAccumulateNV:
		if len(ops) < 3 {
			return nil, p.errAt(i, "missing operands")
		}
		ins.a, err = vals(ops[:3])
		ins.at = p.tyOf[ops[2]]
		if err == nil && ins.at.kind != kVector {
			err = p.errAt(i, "the object is not a vector")
		}
		return ins, err
	case spirv.OpCooperativeVectorOuterProductAccumulateNV:
		if len(ops) < 6 {
			return nil, p.errAt(i, "missing operands")
		}
		cv := &cvecOp{stride: -1}
		if ins.a, err = vals(ops[:4]); err != nil {
			return nil, err
		}
		lay, err := cnst(4)
		if err != nil {
			return nil, err
		}
		cv.layout = spirv.CooperativeVectorMatrixLayout(lay)
		if cv.mat, _, err = interpAt(5); err != nil {
			return nil, err
		}
		if len(ops) > 6 {
			s, err := vals(ops[6:7])
			if err != nil {
				return nil, err
			}
			cv.stride = s[0]
		}
		ins.at = p.tyOf[ops[2]]
		cv.inTy = p.tyOf[ops[3]]
		if ins.at.kind != kVector || cv.inTy.kind != kVector {
			return nil, p.errAt(i, "A and B must be vectors")
		}
		cv.M, cv.K = ins.at.count, cv.inTy.count
		ins.aux = cv
		return ins, nil
	}
	// OpCooperativeVectorMatrixMul(Add)NV
	add := ins.op == spirv.OpCooperativeVectorMatrixMulAddNV
	n := 10
	if add {
		n = 13
	}
	if len(ops) < n {
		return nil, p.errAt(i, "missing operands")
	}
	cv := &cvecOp{stride: -1, biasPtr: -1}
	s, err := vals(ops[:1])
	if err != nil {
		return nil, err
	}
	cv.input, cv.inTy = s[0], p.tyOf[ops[0]]
	if cv.in, cv.packed, err = interpAt(1); err != nil {
		return nil, err
	}
	if s, err = vals(ops[2:4]); err != nil {
		return nil, err
	}
	cv.matPtr, cv.matOff = s[0], s[1]
	if cv.mat, _, err = interpAt(4); err != nil {
		return nil, err
	}
	k := 5
	if add {
		if s, err = vals(ops[5:7]); err != nil {
			return nil, err
		}
		cv.biasPtr, cv.biasOff = s[0], s[1]
		if cv.bias, _, err = interpAt(7); err != nil {
			return nil, err
		}
		k = 8
	}
	m, err := cnst(k)
	if err != nil {
		return nil, err
	}
	kk, err := cnst(k + 1)
	if err != nil {
		return nil, err
	}
	lay, err := cnst(k + 2)
	if err != nil {
		return nil, err
	}
	tr, err := cnst(k + 3)
	if err != nil {
		return nil, err
	}
	cv.M, cv.K, cv.layout, cv.transpose = int(m), int(kk), spirv.CooperativeVectorMatrixLayout(lay), tr != 0
	rest := ops[k+4:]
	if len(rest) > 0 {
		if s, err = vals(rest[:1]); err != nil {
			return nil, err
		}
		cv.stride = s[0]
	}
	if len(rest) > 1 {
		f := spirv.CooperativeMatrixOperands(rest[1])
		cv.inSigned = f&spirv.CooperativeMatrixOperandsMatrixBSignedComponentsKHR != 0
		cv.resSigned = f&spirv.CooperativeMatrixOperandsMatrixResultSignedComponentsKHR != 0
	}
	if cv.M <= 0 || cv.K <= 0 || cv.M > 1<<16 || cv.K > 1<<16 || ins.t == nil || ins.t.kind != kVector || ins.t.count != cv.M {
		return nil, p.errAt(i, "the result must be a vector of M components")
	}
	if cv.layout > spirv.CooperativeVectorMatrixLayoutTrainingOptimalNV {
		return nil, p.errAt(i, "unknown matrix layout %d", cv.layout)
	}
	ins.aux = cv
	return ins, nil
}

// matOffset is the byte offset of element (r, c) of an R x C matrix.
func (cv *cvecOp) matOffset(r, c, R, C, es, stride int) int {
	switch cv.layout {
	case spirv.CooperativeVectorMatrixLayoutRowMajorNV:
		return r*stride + c*es
	case spirv.CooperativeVectorMatrixLayoutColumnMajorNV:
		return c*stride + r*es
	}
	return (r*C + c) * es
}

func (cv *cvecOp) matExtent(R, C, es, stride int) int {
	switch cv.layout {
	case spirv.CooperativeVectorMatrixLayoutRowMajorNV:
		return (R-1)*stride + C*es
	case spirv.CooperativeVectorMatrixLayoutColumnMajorNV:
		return (C-1)*stride + R*es
	}
	return R * C * es
}

// numVal is a number in transit between interpretations.
type numVal struct {
	f     float64
	i     int64
	float bool
}

func readNum(t *typ, v uint64) numVal {
	if t.kind == kFloat {
		return numVal{f: toF64(v, t.ff), float: true}
	}
	if t.signed {
		return numVal{i: sext(v, t.width)}
	}
	return numVal{i: int64(v & mask(t.width))}
}

// convertTo converts arithmetically as the cooperative vector rules say:
// saturating integer conversions, round-to-nearest-even everywhere.
func convertTo(n numVal, t *typ) numVal {
	if t.kind == kFloat {
		x := n.f
		if !n.float {
			x = float64(n.i)
		}
		return numVal{f: toF64(fromF64(x, t.ff, rne, false), t.ff), float: true}
	}
	lo, hi := int64(0), int64(mask(t.width))
	if t.signed {
		lo, hi = -int64(1)<<(t.width-1), int64(mask(t.width-1))
	}
	if t.width == 64 {
		hi = math.MaxInt64
	}
	if n.float {
		x := math.RoundToEven(n.f)
		switch {
		case x != x:
			return numVal{}
		case x <= float64(lo):
			return numVal{i: lo}
		case x >= float64(hi):
			return numVal{i: hi}
		}
		return numVal{i: int64(x)}
	}
	return numVal{i: min(max(n.i, lo), hi)}
}

func (l *lane) cvec(in *instr) error {
	r := l.regs
	switch in.op {
	case spirv.OpCooperativeVectorLoadNV, spirv.OpCooperativeVectorStoreNV:
		t := in.t
		if in.op == spirv.OpCooperativeVectorStoreNV {
			t = in.at
		}
		addr := r[in.a[0]] + uint64(sext(r[in.a[1]], 32))
		es := t.elem.size
		b, err := l.region(in, addr, es*t.count, in.op == spirv.OpCooperativeVectorStoreNV)
		if err != nil {
			return err
		}
		for k := 0; k < t.count; k++ {
			if in.op == spirv.OpCooperativeVectorLoadNV {
				r[in.res+int32(k)] = rdScalar(t.elem, b[k*es:])
			} else {
				wrScalar(t.elem, b[k*es:], r[in.a[2]+int32(k)])
			}
		}
		return nil
	case spirv.OpCooperativeVectorReduceSumAccumulateNV:
		t := in.at.elem
		addr := r[in.a[0]] + uint64(sext(r[in.a[1]], 32))
		es := t.size
		b, err := l.region(in, addr, es*in.at.count, true)
		if err != nil {
			return err
		}
		for k := 0; k < in.at.count; k++ {
			l.atomicAdd(addr+uint64(k*es), t, b[k*es:], r[in.a[2]+int32(k)])
		}
		return nil
	case spirv.OpCooperativeVectorOuterProductAccumulateNV:
		cv := in.aux.(*cvecOp)
		mt := cv.mat
		es := mt.bytes()
		stride := cv.K * es
		if cv.stride >= 0 && cv.layout <= spirv.CooperativeVectorMatrixLayoutColumnMajorNV {
			stride = int(r[cv.stride] & mask(32))
		}
		addr := r[in.a[0]] + uint64(sext(r[in.a[1]], 32))
		b, err := l.region(in, addr, cv.matExtent(cv.M, cv.K, es, stride), true)
		if err != nil {
			return err
		}
		at, bt := in.at.elem, cv.inTy.elem
		for m := 0; m < cv.M; m++ {
			for k := 0; k < cv.K; k++ {
				prod := toF64(r[in.a[2]+int32(m)], at.ff) * toF64(r[in.a[3]+int32(k)], bt.ff)
				off := cv.matOffset(m, k, cv.M, cv.K, es, stride)
				l.atomicAdd(addr+uint64(off), mt, b[off:], fromF64(prod, mt.ff, rne, false))
			}
		}
		return nil
	}
	return l.cvecMul(in)
}

// atomicAdd adds v (of type t) to the scalar at b, which is at addr.
func (l *lane) atomicAdd(addr uint64, t *typ, b []byte, v uint64) {
	mu := &l.x.locks[(addr>>3)%uint64(len(l.x.locks))]
	mu.Lock()
	old := rdScalar(t, b)
	if t.kind == kFloat {
		wrScalar(t, b, fround(toF64(old, t.ff)+toF64(v, t.ff), t.ff))
	} else {
		wrScalar(t, b, (old+v)&mask(t.width))
	}
	mu.Unlock()
}

// cvecMul: result[m] = bias[m] + sum over k of matrix[m][k] * input[k],
// each product formed in float64 and added in increasing k, rounding to
// the result type after each addition; integers wrap at the result width
// (cvecKernel, coopvec_kernel.go).
func (l *lane) cvecMul(in *instr) error {
	r := l.regs
	cv := in.aux.(*cvecOp)
	if cap(l.wg.scratch.cvecIn) < cv.K {
		l.wg.scratch.cvecIn = make([]numVal, cv.K)
	}
	x := l.wg.scratch.cvecIn[:cv.K]
	inT := cv.inTy.elem
	if cv.packed {
		for k := range x {
			w := r[cv.input+int32(k/4)] >> (8 * (k % 4)) & 0xff
			if k/4 >= cv.inTy.count {
				return l.fail(in, "packed input has fewer than %d values", cv.K)
			}
			x[k] = readNum(cv.in, w)
		}
	} else {
		if cv.inTy.count < cv.K {
			return l.fail(in, "input has %d components, K is %d", cv.inTy.count, cv.K)
		}
		src := inT
		if src.kind == kInt && src.signed != cv.inSigned {
			c := *src
			c.signed = cv.inSigned
			src = &c
		}
		for k := range x {
			x[k] = convertTo(readNum(src, r[cv.input+int32(k)]), cv.in)
		}
	}
	mt := cv.mat
	es := mt.bytes()
	R, C := cv.M, cv.K
	if cv.transpose {
		R, C = C, R
	}
	stride := C * es
	if cv.stride >= 0 && cv.layout <= spirv.CooperativeVectorMatrixLayoutColumnMajorNV {
		stride = int(r[cv.stride] & mask(32))
	}
	maddr := r[cv.matPtr] + uint64(sext(r[cv.matOff], 32))
	mb, err := l.region(in, maddr, cv.matExtent(R, C, es, stride), false)
	if err != nil {
		return err
	}
	var bb []byte
	if cv.biasPtr >= 0 {
		baddr := r[cv.biasPtr] + uint64(sext(r[cv.biasOff], 32))
		if bb, err = l.region(in, baddr, cv.M*cv.bias.bytes(), false); err != nil {
			return err
		}
	}
	cvecKernel(cv, in.t.elem, x, mb, bb, stride, r[in.res:in.res+int32(cv.M)], &l.wg.scratch)
	return nil
}

func numF(n numVal) float64 {
	if n.float {
		return n.f
	}
	return float64(n.i)
}

func numI(n numVal) int64 {
	if n.float {
		return int64(n.f)
	}
	return n.i
}

// numTo gives the bits of n in the result type t (bias values).
func numTo(n numVal, t *typ) uint64 {
	if t.kind == kFloat {
		return fround(numF(n), t.ff)
	}
	return uint64(numI(n)) & mask(t.width)
}
