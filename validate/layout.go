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
	if s.checkUntypedLayouts(); s.err == nil {
		s.checkNoLayouts()
	}
}

// layoutProhibited reports whether Vulkan memory of storage class sc has
// no explicit layout: Workgroup memory other than a Block
// (SPV_KHR_workgroup_memory_explicit_layout), UniformConstant memory
// other than a descriptor heap's, and from SPIR-V 1.5 Function and
// Private memory.
func (s *state) layoutProhibited(sc spirv.StorageClass, block bool) bool {
	switch sc {
	case spirv.StorageClassWorkgroup:
		return !block
	case spirv.StorageClassUniformConstant:
		return true
	case spirv.StorageClassFunction, spirv.StorageClassPrivate:
		return s.m.Version >= spirv.MakeVersion(1, 5)
	}
	return false
}

// checkNoLayouts: "All variables must have valid explicit layout
// decorations as described in Shader Interfaces"
// (VUID-StandaloneSpirv-None-10684): the types of memory that is not laid
// out carry no Offset, ArrayStride, MatrixStride, RowMajor, ColMajor,
// Block or BufferBlock (nor their Id forms), through pointers into such
// memory too; and a descriptor array (of buffers or opaque handles) has no
// stride of its own.
func (s *state) checkNoLayouts() {
	if !s.env.vulkan {
		return
	}
	clean := map[uint32]bool{}
	for i := range s.m.Insts {
		in := &s.m.Insts[i]
		if in.Op != spirv.OpVariable {
			continue
		}
		pt := s.types[in.Words[0]]
		if pt == nil {
			continue
		}
		t := s.types[pt.Elem]
		switch pt.Storage {
		case spirv.StorageClassStorageBuffer, spirv.StorageClassUniform, spirv.StorageClassUniformConstant:
			if t.is(spirv.OpTypeArray) || t.is(spirv.OpTypeRuntimeArray) {
				for _, d := range []spirv.Decoration{spirv.DecorationArrayStride, spirv.DecorationArrayStrideIdEXT} {
					if s.hasDecoration(t.ID, d) {
						s.fail(i, "vulkan.layout", "[VUID-StandaloneSpirv-None-10684] Invalid explicit layout decorations on type <id> '%d', the %s storage class has an explicit layout from the %s decoration", t.ID, scName(pt.Storage), decName(d))
						return
					}
				}
			}
		}
		block := t.is(spirv.OpTypeStruct) && s.hasDecoration(t.ID, spirv.DecorationBlock)
		if !s.layoutProhibited(pt.Storage, block) {
			continue
		}
		if id, sc, d := s.laidOut(t, pt.Storage, clean); id != 0 {
			s.fail(i, "vulkan.layout", "[VUID-StandaloneSpirv-None-10684] Invalid explicit layout decorations on type <id> '%d', the %s storage class has an explicit layout from the %s decoration", id, scName(sc), decName(d))
			return
		}
	}
}

// laidOut returns the first type within t (in memory of storage class
// sc) carrying an explicit layout decoration, with that storage class and
// the decoration; clean caches the types found without one.
func (s *state) laidOut(t *Type, sc spirv.StorageClass, clean map[uint32]bool) (uint32, spirv.StorageClass, spirv.Decoration) {
	if t == nil || clean[t.ID] {
		return 0, 0, 0
	}
	if t.Op == spirv.OpTypePointer && !s.layoutProhibited(t.Storage, true) {
		return 0, 0, 0
	}
	layoutDec := func(d spirv.Decoration) bool {
		switch d {
		case spirv.DecorationBlock, spirv.DecorationBufferBlock, spirv.DecorationOffset, spirv.DecorationOffsetIdEXT,
			spirv.DecorationArrayStride, spirv.DecorationArrayStrideIdEXT, spirv.DecorationMatrixStride,
			spirv.DecorationRowMajor, spirv.DecorationColMajor:
			return true
		}
		return false
	}
	for _, d := range s.decor[t.ID] {
		if layoutDec(d.dec) {
			return t.ID, sc, d.dec
		}
	}
	for _, d := range s.memberDec[t.ID] {
		if layoutDec(d.dec) {
			return t.ID, sc, d.dec
		}
	}
	clean[t.ID] = true // before its parts: breaks cycles through pointers (a failure ends the check)
	switch t.Op {
	case spirv.OpTypeStruct:
		for _, m := range t.Members {
			if id, msc, d := s.laidOut(s.types[m], sc, clean); id != 0 {
				return id, msc, d
			}
		}
	case spirv.OpTypeArray, spirv.OpTypeRuntimeArray:
		return s.laidOut(s.types[t.Elem], sc, clean)
	case spirv.OpTypePointer:
		return s.laidOut(s.types[t.Elem], t.Storage, clean)
	}
	return 0, 0, 0
}

// memberOffset returns member k of struct st's Offset, or the value of
// its OffsetIdEXT <id> (SPV_EXT_descriptor_heap): has says one decorates
// it, known that its value is known (not a specialization constant's).
func (s *state) memberOffset(st uint32, k int) (off uint64, has, known bool) {
	for _, x := range s.memberDec[st] {
		if x.member != uint32(k) || len(x.args) == 0 {
			continue
		}
		switch x.dec {
		case spirv.DecorationOffset:
			return uint64(x.args[0]), true, true
		case spirv.DecorationOffsetIdEXT:
			v, ok := s.constValue(x.args[0])
			return v, true, ok
		}
	}
	return 0, false, false
}

// arrayStride returns an array type's ArrayStride or the value of its
// ArrayStrideIdEXT <id>, as memberOffset does.
func (s *state) arrayStride(id uint32) (stride uint64, has, known bool) {
	for _, x := range s.decor[id] {
		if len(x.args) == 0 {
			continue
		}
		switch x.dec {
		case spirv.DecorationArrayStride:
			return uint64(x.args[0]), true, true
		case spirv.DecorationArrayStrideIdEXT:
			v, ok := s.constValue(x.args[0])
			return v, true, ok
		}
	}
	return 0, false, false
}

// checkUntypedLayouts: in Vulkan the data an untyped pointer reaches is
// laid out explicitly (VUID-StandaloneSpirv-OpTypeUntypedPointerKHR-11417:
// untyped pointers only into explicitly laid out storage classes; a
// descriptor heap's UniformConstant memory is laid out as a storage
// buffer, SPV_EXT_descriptor_heap). The struct each untyped variable,
// access chain, load, store or array length names (its descriptor array
// stripped) follows its storage class's rules; an OffsetIdEXT or
// ArrayStrideIdEXT whose <id> is a specialization constant is left to
// the pipeline, and a descriptor (whose size the device gives) takes no
// bytes of its own.
func (s *state) checkUntypedLayouts() {
	if !s.env.vulkan || !s.hasCap(spirv.CapabilityUntypedPointersKHR) {
		return
	}
	done := map[[2]uint32]bool{}
	for i := range s.m.Insts {
		sc, dt, ok := s.untypedReference(i)
		if !ok {
			continue
		}
		t := s.types[dt]
		if t.is(spirv.OpTypeArray) || t.is(spirv.OpTypeRuntimeArray) {
			if e := s.types[t.Elem]; s.hasDecoration(t.Elem, spirv.DecorationBlock) || s.hasDecoration(t.Elem, spirv.DecorationBufferBlock) {
				t = e
			}
		}
		if !t.is(spirv.OpTypeStruct) || done[[2]uint32{t.ID, uint32(sc)}] {
			continue
		}
		done[[2]uint32{t.ID, uint32(sc)}] = true
		r := s.layoutFor(sc, s.hasDecoration(t.ID, spirv.DecorationBufferBlock))
		if msg := s.checkStructLayout(t, r, false); msg != "" {
			s.fail(i, "layout."+r.name, "Structure id %d reached through an untyped pointer in %s storage class must follow %s layout rules: %s", t.ID, scName(sc), r.name, msg)
			return
		}
	}
}

// untypedReference returns the storage class and data type instruction i
// reaches memory with through an untyped pointer, if it does.
func (s *state) untypedReference(i int) (spirv.StorageClass, uint32, bool) {
	in := &s.m.Insts[i]
	w := in.Words
	untyped := func(ptr uint32) (spirv.StorageClass, bool) {
		if t := s.valueType(ptr); t.is(spirv.OpTypeUntypedPointerKHR) {
			return t.Storage, true
		}
		return 0, false
	}
	switch in.Op {
	case spirv.OpUntypedVariableKHR:
		if len(w) > 3 {
			return spirv.StorageClass(w[2]), w[3], true
		}
	case spirv.OpUntypedAccessChainKHR, spirv.OpUntypedInBoundsAccessChainKHR, spirv.OpUntypedPtrAccessChainKHR, spirv.OpUntypedInBoundsPtrAccessChainKHR:
		if rt := s.types[w[0]]; rt != nil {
			return rt.Storage, w[2], true
		}
	case spirv.OpLoad:
		if sc, ok := untyped(w[2]); ok {
			return sc, w[0], true
		}
	case spirv.OpStore:
		if sc, ok := untyped(w[0]); ok {
			return sc, s.typeOf(w[1]), true
		}
	case spirv.OpUntypedArrayLengthKHR:
		if sc, ok := untyped(w[3]); ok {
			return sc, w[2], true
		}
	}
	return 0, 0, false
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
		es := s.size(s.types[t.Elem], rowMajor, matrixStride)
		stride, _, known := s.arrayStride(t.ID)
		if !known {
			return es
		}
		return (t.Count-1)*stride + es
	case spirv.OpTypeStruct:
		var end uint64
		for k, m := range t.Members {
			off, _, known := s.memberOffset(t.ID, k)
			if !known {
				continue
			}
			ms, _ := s.memberDecorationArg(t.ID, uint32(k), spirv.DecorationMatrixStride)
			end = max(end, off+s.size(s.types[m], s.memberHasDecoration(t.ID, uint32(k), spirv.DecorationRowMajor), ms))
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
		off, has, known := s.memberOffset(t.ID, k)
		if !has {
			return fmt.Sprintf("member %d must be explicitly laid out with an Offset decoration", k)
		}
		if known {
			ms = append(ms, member{k, off})
		}
	}
	// Members are checked in offset order, as they may be declared in any.
	for a := 1; a < len(ms); a++ {
		for b := a; b > 0 && ms[b].off < ms[b-1].off; b-- {
			ms[b], ms[b-1] = ms[b-1], ms[b]
		}
	}
	for n, m := range ms {
		mt := s.types[t.Members[m.k]]
		if mt == nil {
			continue
		}
		// A runtime array runs to the end of the block, so no member lies
		// past it (VUID-StandaloneSpirv-OpTypeRuntimeArray-04680: the
		// last member, by offset as by declaration).
		if mt.Op == spirv.OpTypeRuntimeArray && n != len(ms)-1 {
			return fmt.Sprintf("[VUID-StandaloneSpirv-OpTypeRuntimeArray-04680] Structure has a runtime array at offset %d, but other members at larger offsets", m.off)
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
			stride, has, known := s.arrayStride(t.ID)
			if !has {
				return fmt.Sprintf("member %d is an array and must be explicitly laid out with ArrayStride decorations", k)
			}
			e := s.types[t.Elem]
			if e == nil {
				return ""
			}
			a := s.baseAlign(t, rowMajor, r)
			if known && stride%a != 0 {
				return fmt.Sprintf("member %d contains an array with stride %d not satisfying alignment to %d", k, stride, a)
			}
			if es := s.size(e, rowMajor, mstride); known && stride < es {
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
