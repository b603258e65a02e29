package validate

import (
	"fmt"

	"github.com/coopshader/coop/spirv"
)

// Explicit layouts (SPIR-V 2.16.2 "Shader Validation", Vulkan 15.6.4
// "Offset and Stride Assignment"): the members of a Block or BufferBlock
// struct in Uniform, StorageBuffer, PushConstant, PhysicalStorageBuffer
// and ShaderRecordBufferKHR memory (and Workgroup memory with
// WorkgroupMemoryExplicitLayoutKHR) carry Offsets, arrays ArrayStrides and
// matrices MatrixStrides that respect std140 (uniform blocks), std430 (the
// others, and uniform blocks with --uniform-buffer-standard-layout) or the
// scalar layout (--scalar-block-layout); Vulkan 1.1 and later relax vector
// alignment as VK_KHR_relaxed_block_layout does, as spirv-val does.

type layoutRules struct {
	std140  bool
	scalar  bool
	relaxed bool
	name    string
}

func (s *state) layoutFor(sc spirv.StorageClass, bufferBlock bool) layoutRules {
	r := layoutRules{relaxed: s.opts.RelaxBlockLayout || s.env.vulkan && s.env.vkMinor >= 1, name: "std430"}
	if sc == spirv.StorageClassUniform && !bufferBlock && !s.opts.UniformBufferStandardLayout {
		r.std140, r.name = true, "std140"
	}
	if s.opts.ScalarBlockLayout {
		r.scalar, r.name = true, "scalar"
	}
	return r
}

func explicitStorage(sc spirv.StorageClass) bool {
	switch sc {
	case spirv.StorageClassUniform, spirv.StorageClassStorageBuffer, spirv.StorageClassPushConstant,
		spirv.StorageClassPhysicalStorageBuffer, spirv.StorageClassShaderRecordBufferKHR:
		return true
	}
	return false
}

// checkBlockLayouts checks the layout of each block reached by a variable
// or a physical storage buffer pointer.
func (s *state) checkBlockLayouts() {
	if !s.hasCap(spirv.CapabilityShader) {
		return
	}
	done := map[[2]uint32]bool{}
	for i := range s.m.Insts {
		in := &s.m.Insts[i]
		var pt *Type
		switch {
		case in.Op == spirv.OpVariable:
			pt = s.types[in.Words[0]]
		case in.Op == spirv.OpTypePointer && spirv.StorageClass(in.Words[1]) == spirv.StorageClassPhysicalStorageBuffer:
			pt = s.types[in.Words[0]]
		case in.Op == spirv.OpBufferPointerEXT:
			// A descriptor heap's buffer (SPV_EXT_descriptor_heap) is a
			// block the pointer's storage class lays out.
			pt = s.types[in.Words[0]]
		default:
			continue
		}
		// SPV_KHR_workgroup_memory_explicit_layout: Workgroup blocks are
		// laid out explicitly, as storage buffers are.
		wg := pt != nil && pt.Storage == spirv.StorageClassWorkgroup && s.hasCap(spirv.CapabilityWorkgroupMemoryExplicitLayoutKHR)
		if pt == nil || !explicitStorage(pt.Storage) && !wg {
			continue
		}
		t := s.types[pt.Elem]
		for t != nil && (t.Op == spirv.OpTypeArray || t.Op == spirv.OpTypeRuntimeArray) {
			t = s.types[t.Elem]
		}
		if !t.is(spirv.OpTypeStruct) {
			continue
		}
		bb := s.hasDecoration(t.ID, spirv.DecorationBufferBlock)
		if !bb && !s.hasDecoration(t.ID, spirv.DecorationBlock) {
			continue
		}
		key := [2]uint32{t.ID, uint32(pt.Storage)}
		if done[key] {
			continue
		}
		done[key] = true
		// A block's members are laid out within it: one holding a block of
		// its own would make that one's decorations and offsets ambiguous
		// (SPIR-V 2.16.2, paraphrased: a Block or BufferBlock struct is not
		// nested in another).
		for _, m := range t.Members {
			inner := s.contains(s.types[m], func(u *Type) bool {
				return u.Op == spirv.OpTypeStruct && (s.hasDecoration(u.ID, spirv.DecorationBlock) || s.hasDecoration(u.ID, spirv.DecorationBufferBlock))
			})
			if inner != nil {
				s.fail(i, "layout.nested-block", "rules: A Block or BufferBlock cannot be nested within another Block or BufferBlock. Structure id %d contains Block %d", t.ID, inner.ID)
				return
			}
		}
		r := s.layoutFor(pt.Storage, bb)
		if msg := s.checkStructLayout(t, r, false); msg != "" {
			s.fail(i, "layout."+r.name, "Structure id %d decorated as %s for variable in %s storage class must follow %s storage buffer layout rules: %s",
				t.ID, decName(map[bool]spirv.Decoration{true: spirv.DecorationBufferBlock, false: spirv.DecorationBlock}[bb]), scName(pt.Storage), r.name, msg)
			return
		}
	}
}

// scalarAlign is the alignment of a scalar, or of a vector's component.
func (s *state) scalarAlign(t *Type) uint64 {
	switch t.Op {
	case spirv.OpTypeInt, spirv.OpTypeFloat:
		return max(uint64(t.Width)/8, 1)
	case spirv.OpTypeBool:
		return 4
	case spirv.OpTypePointer, spirv.OpTypeUntypedPointerKHR:
		return 8
	case spirv.OpTypeVector, spirv.OpTypeVectorIdEXT, spirv.OpTypeArray, spirv.OpTypeRuntimeArray, spirv.OpTypeMatrix:
		return s.scalarAlign(s.types[t.Elem])
	case spirv.OpTypeStruct:
		a := uint64(1)
		for _, m := range t.Members {
			a = max(a, s.scalarAlign(s.types[m]))
		}
		return a
	}
	return 1
}

// baseAlign is a type's alignment under std430, or std140 when r says so
// (arrays and structs rounded up to 16), or the scalar layout.
func (s *state) baseAlign(t *Type, rowMajor bool, r layoutRules) uint64 {
	if r.scalar {
		return s.scalarAlign(t)
	}
	switch t.Op {
	case spirv.OpTypeVector:
		c, n := s.scalarAlign(s.types[t.Elem]), t.Count
		if isInt4(s, s.types[t.Elem]) {
			// SPV_INTEL_int4 packs components in pairs, one byte each
			// (Memory Layout): the vector lays out as the 8-bit vector of
			// half as many components.
			n = (n + 1) / 2
		}
		switch {
		case n == 2:
			return 2 * c
		case n == 3 || n == 4:
			return 4 * c
		}
		// Long vectors (SPV_EXT_long_vector) get no layout rule of their
		// own there; their component alignment is the one every producer
		// respects.
		return c
	case spirv.OpTypeMatrix:
		col := s.types[t.Elem]
		if rowMajor {
			row := &Type{Op: spirv.OpTypeVector, Elem: col.Elem, Count: t.Count}
			return s.roundStd140(s.baseAlign(row, false, r), r)
		}
		return s.roundStd140(s.baseAlign(col, false, r), r)
	case spirv.OpTypeArray, spirv.OpTypeRuntimeArray:
		return s.roundStd140(s.baseAlign(s.types[t.Elem], rowMajor, r), r)
	case spirv.OpTypeStruct:
		a := uint64(1)
		for k, m := range t.Members {
			a = max(a, s.baseAlign(s.types[m], s.memberHasDecoration(t.ID, uint32(k), spirv.DecorationRowMajor), r))
		}
		return s.roundStd140(a, r)
	}
	return s.scalarAlign(t)
}

func (s *state) roundStd140(a uint64, r layoutRules) uint64 {
	if r.std140 {
		return max(a, 16)
	}
	return a
}

// size is the number of bytes a type occupies in an explicit layout (the
// last array element and matrix column are not padded to their stride).
func (s *state) size(t *Type, rowMajor bool, matrixStride uint32) uint64 {
	switch t.Op {
	case spirv.OpTypeInt, spirv.OpTypeFloat:
		return max(uint64(t.Width)/8, 1)
	case spirv.OpTypeBool:
		return 4
	case spirv.OpTypePointer, spirv.OpTypeUntypedPointerKHR:
		return 8
	case spirv.OpTypeVector:
		e := s.types[t.Elem]
		if isInt4(s, e) {
			return (t.Count + 1) / 2
		}
		return t.Count * s.size(e, false, 0)
	case spirv.OpTypeMatrix:
		col := s.types[t.Elem]
		comp := s.size(s.types[col.Elem], false, 0)
		if rowMajor {
			return (col.Count-1)*uint64(matrixStride) + t.Count*comp
		}
		return (t.Count-1)*uint64(matrixStride) + s.size(col, false, 0)
	case spirv.OpTypeArray:
		if !t.CountKnown || t.Count == 0 {
			return 0
		}
		stride, _ := s.decorationArg(t.ID, spirv.DecorationArrayStride)
		return (t.Count-1)*uint64(stride) + s.size(s.types[t.Elem], rowMajor, matrixStride)
	case spirv.OpTypeStruct:
		var end uint64
		for k, m := range t.Members {
			off, _ := s.memberDecorationArg(t.ID, uint32(k), spirv.DecorationOffset)
			ms, _ := s.memberDecorationArg(t.ID, uint32(k), spirv.DecorationMatrixStride)
			end = max(end, uint64(off)+s.size(s.types[m], s.memberHasDecoration(t.ID, uint32(k), spirv.DecorationRowMajor), ms))
		}
		return end
	}
	return 0
}

// checkStructLayout returns a description of the first layout rule t
// breaks, or "".
func (s *state) checkStructLayout(t *Type, r layoutRules, nested bool) string {
	next := uint64(0)
	type member struct {
		k   int
		off uint64
	}
	ms := make([]member, 0, len(t.Members))
	for k := range t.Members {
		off, ok := s.memberDecorationArg(t.ID, uint32(k), spirv.DecorationOffset)
		if !ok {
			return fmt.Sprintf("member %d must be explicitly laid out with an Offset decoration", k)
		}
		ms = append(ms, member{k, uint64(off)})
	}
	// Members are checked in offset order, as they may be declared in any.
	for a := 1; a < len(ms); a++ {
		for b := a; b > 0 && ms[b].off < ms[b-1].off; b-- {
			ms[b], ms[b-1] = ms[b-1], ms[b]
		}
	}
	for _, m := range ms {
		mt := s.types[t.Members[m.k]]
		if mt == nil {
			continue
		}
		rowMajor := s.memberHasDecoration(t.ID, uint32(m.k), spirv.DecorationRowMajor)
		stride, hasStride := s.memberDecorationArg(t.ID, uint32(m.k), spirv.DecorationMatrixStride)
		align := s.baseAlign(mt, rowMajor, r)
		size := s.size(mt, rowMajor, stride)
		if mt.Op == spirv.OpTypeVector && r.relaxed && !r.scalar {
			// VK_KHR_relaxed_block_layout: a vector may be aligned to its
			// component if it does not straddle a 16-byte boundary
			// improperly.
			align = s.scalarAlign(mt)
			if size <= 16 && m.off/16 != (m.off+size-1)/16 || size > 16 && m.off%16 != 0 {
				return fmt.Sprintf("member %d is an improperly straddling vector at offset %d", m.k, m.off)
			}
		}
		if m.off%align != 0 {
			return fmt.Sprintf("member %d at offset %d is not aligned to %d", m.k, m.off, align)
		}
		if m.off < next {
			return fmt.Sprintf("member %d at offset %d overlaps previous member ending at offset %d", m.k, m.off, next-1)
		}
		if msg := s.checkNestedLayout(mt, rowMajor, stride, hasStride, r, m.k); msg != "" {
			return msg
		}
		next = m.off + size
		if !r.scalar && (mt.Op == spirv.OpTypeArray || mt.Op == spirv.OpTypeStruct) && r.std140 {
			next = (next + align - 1) / align * align
		}
	}
	return ""
}

// checkNestedLayout checks the strides and nested structs within a member
// of type t.
func (s *state) checkNestedLayout(t *Type, rowMajor bool, mstride uint32, hasMStride bool, r layoutRules, k int) string {
	for t != nil {
		switch t.Op {
		case spirv.OpTypeMatrix:
			if !hasMStride {
				return fmt.Sprintf("member %d is a matrix and must be explicitly laid out with MatrixStride decorations", k)
			}
			col := s.types[t.Elem]
			vec := col
			if rowMajor {
				vec = &Type{Op: spirv.OpTypeVector, Elem: col.Elem, Count: t.Count}
			}
			a := s.roundStd140(s.baseAlign(vec, false, r), r)
			if uint64(mstride)%a != 0 {
				return fmt.Sprintf("member %d is a matrix with stride %d not satisfying alignment to %d", k, mstride, a)
			}
			return ""
		case spirv.OpTypeArray, spirv.OpTypeRuntimeArray:
			stride, ok := s.decorationArg(t.ID, spirv.DecorationArrayStride)
			if !ok {
				return fmt.Sprintf("member %d is an array and must be explicitly laid out with ArrayStride decorations", k)
			}
			e := s.types[t.Elem]
			if e == nil {
				return ""
			}
			a := s.baseAlign(t, rowMajor, r)
			if uint64(stride)%a != 0 {
				return fmt.Sprintf("member %d contains an array with stride %d not satisfying alignment to %d", k, stride, a)
			}
			if es := s.size(e, rowMajor, mstride); uint64(stride) < es {
				return fmt.Sprintf("member %d contains an array with stride %d smaller than its element's size %d", k, stride, es)
			}
			t = e
		case spirv.OpTypeStruct:
			return s.checkStructLayout(t, r, true)
		default:
			return ""
		}
	}
	return ""
}
