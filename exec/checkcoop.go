package exec

import (
	"fmt"

	"github.com/coopshader/coop/spirv"
)

// The cooperative instructions' rules whose breach is undefined behaviour
// at run time rather than a validation error (Options.Check), checked
// before the instruction runs:
//
//   - a cooperative matrix load or store (KHR, NV) touches only its
//     buffer: the first row or column outside it is named; a store's
//     Stride is not 0 when there are several rows or columns
//     (SPV_KHR_cooperative_matrix: Stride "must be greater than 0" for
//     OpCooperativeMatrixStoreKHR);
//   - OpCooperativeMatrixLoadNV and OpCooperativeMatrixStoreNV: Pointer
//     and Stride are aligned to the lesser of 16 bytes and a row's (or
//     column's) natural alignment (VUID-RuntimeSpirv-OpCooperativeMatrixLoadNV-06324);
//   - OpCooperativeMatrixLoadTensorNV and OpCooperativeMatrixStoreTensorNV
//     with clamp mode Undefined: no element's tensor coordinate falls
//     outside the layout's dimensions (SPV_NV_tensor_addressing: "Out of
//     bounds accesses have undefined behavior"); with a DecodeVectorFunc
//     the innermost block size is a multiple of the vector's components
//     (VUID-RuntimeSpirv-OpCooperativeMatrixLoadTensorNV-12429);
//   - cooperative vectors (GLSL_NV_cooperative_vector): load and store
//     offsets, and those of the accumulating instructions, are multiples
//     of 16 from a 16-byte aligned array; a matrix offset is 64-byte
//     aligned, a bias offset 16-byte aligned, a row- or column-major
//     matrix stride a multiple of 16; the vector, matrix (the first row or
//     column outside named) and bias lie inside their buffer.
//
// Offsets are measured from the start of the buffer (or of workgroup
// memory), which Vulkan aligns far more than 64 bytes.

const ubCheck = "undefined behaviour (--check): "

// coll checks a collective instruction about to run for act.
func (c *checker) coll(in *instr, act []*lane) error {
	switch a := in.aux.(type) {
	case *coopMem:
		return c.coopMem(in, a, act[0])
	case *tensorMem:
		return c.tensorMem(in, a, act[0])
	}
	return nil
}

// bufferSize is the size of the memory addr points into, or -1 where
// the access faults anyway (the executor names that fault).
func bufferSize(l *lane, addr uint64) int64 {
	switch addr >> 56 {
	case regBuf:
		idx := (addr >> offBits) & 0xffff
		if l.x == nil || idx >= uint64(len(l.x.bufs)) || l.x.bufs[idx] == nil {
			return -1
		}
		return int64(len(l.x.bufs[idx].data))
	case regWG:
		if l.wg == nil {
			return -1
		}
		return int64(len(l.gmem))
	}
	return -1
}

func (c *checker) coopMem(in *instr, cm *coopMem, l *lane) error {
	mt := cm.mt
	if cm.blocked != nil || mt.nibbles() {
		return nil
	}
	addr := l.regs[in.a[0]]
	size := bufferSize(l, addr)
	if size < 0 {
		return nil
	}
	stride := int64(0)
	if cm.stride >= 0 {
		stride = sext(l.regs[cm.stride], cm.strideW)
	}
	load := in.op == spirv.OpCooperativeMatrixLoadKHR || in.op == spirv.OpCooperativeMatrixLoadNV
	lines, per, what := mt.rows, mt.cols, "row"
	if cm.colMajor {
		lines, per, what = mt.cols, mt.rows, "column"
	}
	cs := int64(mt.elem.bytes())
	ls := stride * int64(cm.pes)
	off := int64(addr & (1<<offBits - 1))
	if in.op == spirv.OpCooperativeMatrixLoadNV || in.op == spirv.OpCooperativeMatrixStoreNV {
		align := min(16, int64(per)*cs)
		if off%align != 0 {
			return l.failAddr(in, addr, ubCheck+"the pointer is at byte %d of its buffer, not aligned to %d bytes (the lesser of 16 and a %s's size: VUID-RuntimeSpirv-OpCooperativeMatrixLoadNV-06324)", off, align, what)
		}
		if lines > 1 && ls%align != 0 {
			return l.failAddr(in, addr, ubCheck+"the stride of %d bytes is not a multiple of %d (the lesser of 16 and a %s's size: VUID-RuntimeSpirv-OpCooperativeMatrixLoadNV-06324)", ls, align, what)
		}
	}
	if !load && lines > 1 && stride == 0 && cm.stride >= 0 {
		return l.failAddr(in, addr, ubCheck+"a store's Stride must be greater than 0: every %s of the %dx%d matrix is written to the same bytes", what, mt.rows, mt.cols)
	}
	if stride < 0 {
		return nil // the executor faults on it
	}
	for k := 0; k < lines; k++ {
		start := off + int64(k)*ls
		if end := start + int64(per)*cs; end > size {
			return l.failAddr(in, addr+uint64(int64(k)*ls), ubCheck+"%s %d of the %dx%d matrix (bytes %d to %d) lies outside its %d-byte buffer", what, k, mt.rows, mt.cols, start, end, size)
		}
	}
	return nil
}

func (c *checker) tensorMem(in *instr, tm *tensorMem, l *lane) error {
	L := l.regs[tm.tl : tm.tl+int32(5*tm.lt.dim+1)]
	var V []uint64
	if tm.view >= 0 {
		V = l.regs[tm.view : tm.view+int32(2*tm.vt.dim+4)]
	}
	if tm.decodeVec != nil {
		nv := uint64(int(tm.decodeVec.nres) / max(tm.mt.elem.slots, 1))
		if b := L[tm.lt.block()+tm.lt.dim-1]; nv > 0 && b%nv != 0 {
			return l.fail(in, ubCheck+"the tensor layout's innermost block size %d is not a multiple of the %d components the DecodeVectorFunc returns (VUID-RuntimeSpirv-OpCooperativeMatrixLoadTensorNV-12429)", b, nv)
		}
	}
	if tm.lt.clamp != spirv.TensorClampModeUndefined {
		return nil
	}
	// With clamp mode Constant the mapping reports any coordinate outside
	// the layout as clamped: that is where Undefined is undefined.
	probe := *tm.lt
	probe.clamp = spirv.TensorClampModeConstant
	var bc, ib [5]uint64
	R, C := tm.mt.rows, tm.mt.cols
	for e := 0; e < R*C; e++ {
		_, skip, clamped := tensorElement(&probe, L, tm.vt, V, uint64(e/C), uint64(e%C), uint64(C), false, bc[:], ib[:])
		if clamped && !skip {
			return l.fail(in, ubCheck+"element (%d, %d) of the %dx%d matrix maps to a tensor coordinate outside the layout's dimensions, and the layout's clamp mode is Undefined", e/C, e%C, R, C)
		}
	}
	return nil
}

// cvec checks a cooperative vector instruction about to run on l.
func (c *checker) cvec(in *instr, l *lane) error {
	r := l.regs
	switch in.op {
	case spirv.OpCooperativeVectorLoadNV, spirv.OpCooperativeVectorStoreNV,
		spirv.OpCooperativeVectorReduceSumAccumulateNV, spirv.OpCooperativeVectorOuterProductAccumulateNV:
		base, o := r[in.a[0]], sext(r[in.a[1]], 32)
		if err := c.aligned(in, l, base, o, 16, 16, "offset"); err != nil {
			return err
		}
		if in.op == spirv.OpCooperativeVectorOuterProductAccumulateNV {
			return nil // the matrix's extent depends on the training-optimal layout
		}
		t := in.t
		if in.op != spirv.OpCooperativeVectorLoadNV {
			t = in.at
		}
		if t == nil || t.elem == nil {
			return nil
		}
		return c.inside(in, l, base, o, int64(t.count)*int64(t.elem.size), "the %d-component vector", t.count)
	case spirv.OpCooperativeVectorMatrixMulNV, spirv.OpCooperativeVectorMatrixMulAddNV:
		cv := in.aux.(*cvecOp)
		base, o := r[cv.matPtr], sext(r[cv.matOff], 32)
		if err := c.aligned(in, l, base, o, 64, 16, "matrix offset"); err != nil {
			return err
		}
		R, C := cv.M, cv.K
		if cv.transpose {
			R, C = C, R
		}
		es := int64(cv.mat.bytes())
		if cv.layout <= spirv.CooperativeVectorMatrixLayoutColumnMajorNV && cv.stride >= 0 {
			stride := int64(r[cv.stride] & mask(32))
			if stride%16 != 0 {
				return l.fail(in, ubCheck+"the matrix stride %d is not a multiple of 16 bytes", stride)
			}
			lines, per, what := R, C, "row"
			if cv.layout == spirv.CooperativeVectorMatrixLayoutColumnMajorNV {
				lines, per, what = C, R, "column"
			}
			for k := 0; k < lines; k++ {
				if err := c.inside(in, l, base, o+int64(k)*stride, int64(per)*es, "%s %d of the %dx%d matrix", what, k, R, C); err != nil {
					return err
				}
			}
		} else if cv.layout <= spirv.CooperativeVectorMatrixLayoutColumnMajorNV {
			if err := c.inside(in, l, base, o, int64(R)*int64(C)*es, "the %dx%d matrix", R, C); err != nil {
				return err
			}
		}
		if in.op == spirv.OpCooperativeVectorMatrixMulAddNV && cv.bias != nil {
			bb, bo := r[cv.biasPtr], sext(r[cv.biasOff], 32)
			if err := c.aligned(in, l, bb, bo, 16, 16, "bias offset"); err != nil {
				return err
			}
			return c.inside(in, l, bb, bo, int64(cv.M)*int64(cv.bias.bytes()), "the %d-element bias", cv.M)
		}
	}
	return nil
}

// aligned checks that an array at base (in its buffer) is baseAlign
// aligned and that o, an offset from it, is a multiple of offAlign.
func (c *checker) aligned(in *instr, l *lane, base uint64, o int64, offAlign, baseAlign int64, what string) error {
	if o%offAlign != 0 {
		return l.failAddr(in, base+uint64(o), ubCheck+"the %s %d is not a multiple of %d bytes", what, o, offAlign)
	}
	if bufferSize(l, base) >= 0 {
		if b := int64(base & (1<<offBits - 1)); b%baseAlign != 0 {
			return l.failAddr(in, base, ubCheck+"the array starts at byte %d of its buffer, not %d-byte aligned", b, baseAlign)
		}
	}
	return nil
}

// inside checks that n bytes at offset o from base lie inside base's
// buffer, naming what they are.
func (c *checker) inside(in *instr, l *lane, base uint64, o, n int64, format string, args ...any) error {
	size := bufferSize(l, base)
	if size < 0 {
		return nil
	}
	start := int64(base&(1<<offBits-1)) + o
	if start < 0 || start+n > size {
		return l.failAddr(in, base+uint64(o), ubCheck+"%s (bytes %d to %d) lies outside its %d-byte buffer", fmt.Sprintf(format, args...), start, start+n, size)
	}
	return nil
}
