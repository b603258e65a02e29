package devcheck

import (
	"math/bits"

	"github.com/coopshader/coop/spirv"
)

// limits checks the module against the device's compute limits: the
// workgroup size (VUID-RuntimeSpirv-x-06429, y-06430, z-06431, x-06432)
// and the workgroup memory (VUID-RuntimeSpirv-Workgroup-06530). A
// driver handed a module past them may fail in any way; the H100's
// loses the device on a workgroup of 2048 invocations.
func (c *checker) limits() {
	lim := c.p.Limits
	if lim == nil {
		return
	}
	if c.f.hasLocal {
		for k, vuid := range []string{"x-06429", "y-06430", "z-06431"} {
			if c.f.local[k] > uint64(lim.MaxComputeWorkGroupSize[k]) {
				c.fail(c.f.localAt, vuid, "local size %c is %d; %s allows at most %d (maxComputeWorkGroupSize[%d])", "xyz"[k], c.f.local[k], c.p.Name, lim.MaxComputeWorkGroupSize[k], k)
			}
		}
		if inv := sat(sat(c.f.local[0], c.f.local[1]), c.f.local[2]); inv > uint64(lim.MaxComputeWorkGroupInvocations) {
			c.fail(c.f.localAt, "x-06432", "the workgroup has %d invocations (local size %d x %d x %d); %s allows at most %d (maxComputeWorkGroupInvocations)",
				inv, c.f.local[0], c.f.local[1], c.f.local[2], c.p.Name, lim.MaxComputeWorkGroupInvocations)
		}
	}
	if lim.MaxComputeSharedMemorySize == 0 {
		return
	}
	sz := &sizer{c: c, stride: map[uint32]uint64{}, offset: map[[2]uint32]uint64{}}
	for i := range c.m.Insts {
		in := &c.m.Insts[i]
		if in.Op == spirv.OpDecorate && len(in.Words) >= 3 && in.Words[1] == uint32(spirv.DecorationArrayStride) {
			sz.stride[in.Words[0]] = uint64(in.Words[2])
		}
		if in.Op == spirv.OpMemberDecorate && len(in.Words) >= 4 && in.Words[2] == uint32(spirv.DecorationOffset) {
			sz.offset[[2]uint32{in.Words[0], in.Words[1]}] = uint64(in.Words[3])
		}
	}
	total, last := uint64(0), -1
	for i := range c.m.Insts {
		in := &c.m.Insts[i]
		if in.Op != spirv.OpVariable || len(in.Words) < 3 || in.Words[2] != uint32(spirv.StorageClassWorkgroup) {
			continue
		}
		if pt := c.def(in.Words[0]); pt != nil && pt.Op == spirv.OpTypePointer && len(pt.Words) >= 3 {
			total, last = addSat(total, sz.size(pt.Words[2], 0)), i
		}
	}
	if last >= 0 && total > uint64(lim.MaxComputeSharedMemorySize) {
		c.fail(last, "Workgroup-06530", "the workgroup variables take at least %d bytes; %s allows at most %d (maxComputeSharedMemorySize)", total, c.p.Name, lim.MaxComputeSharedMemorySize)
	}
}

// sizer computes the bytes a type takes at least: its explicit layout
// where decorated, packed otherwise (the padding a driver adds is its own).
type sizer struct {
	c      *checker
	stride map[uint32]uint64    // ArrayStride by array type
	offset map[[2]uint32]uint64 // Offset by (struct, member)
}

func (s *sizer) size(id uint32, depth int) uint64 {
	t := s.c.def(id)
	if t == nil || depth > 64 {
		return 0
	}
	w := t.Words
	switch t.Op {
	case spirv.OpTypeInt, spirv.OpTypeFloat:
		if len(w) >= 2 {
			return (uint64(w[1]) + 7) / 8
		}
	case spirv.OpTypeBool:
		return 1
	case spirv.OpTypeVector, spirv.OpTypeMatrix:
		if len(w) >= 3 {
			return sat(uint64(w[2]), s.size(w[1], depth+1))
		}
	case spirv.OpTypeArray:
		if len(w) >= 3 {
			n, ok := s.c.constant(w[2])
			if !ok {
				return 0
			}
			el, ok := s.stride[id]
			if !ok {
				el = s.size(w[1], depth+1)
			}
			return sat(n, el)
		}
	case spirv.OpTypeStruct:
		total := uint64(0)
		for k, m := range w[1:] {
			ms := s.size(m, depth+1)
			if off, ok := s.offset[[2]uint32{id, uint32(k)}]; ok {
				total = max(total, addSat(off, ms))
			} else {
				total = addSat(total, ms)
			}
		}
		return total
	}
	return 0
}

// sat multiplies, saturating at the largest uint64.
func sat(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 {
		return ^uint64(0)
	}
	return lo
}

func addSat(a, b uint64) uint64 {
	if s := a + b; s >= a {
		return s
	}
	return ^uint64(0)
}
