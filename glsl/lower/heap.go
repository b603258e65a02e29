package lower

import (
	"fmt"

	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/spirv"
)

// Descriptor heaps (GL_EXT_descriptor_heap, GL_EXT_structured_descriptor_heap)
// lower as glslang lowers them (SPV_EXT_descriptor_heap): the resource and
// sampler heaps are untyped UniformConstant variables decorated with the
// ResourceHeapEXT and SamplerHeapEXT built-ins. A resourceheap/samplerheap
// block, or a layout(descriptor_heap) array, is a type laid over a heap
// (shifted by its heap_offset through a byte array); accesses are untyped
// access chains into it. A buffer descriptor reached that way becomes a
// typed pointer through OpBufferPointerEXT, and the rest of the access is an
// ordinary access chain; anything else is loaded through the untyped
// pointer. Where descriptors are involved, offsets and strides depend on
// the device's descriptor sizes, so they are specialization-constant
// expressions over OpConstantSizeOfEXT (OffsetIdEXT, ArrayStrideIdEXT).

// heapRoot is how a heap-backed variable is reached.
type heapRoot struct {
	v      *check.Var
	heap   uint32 // the resource_heap or sampler_heap variable
	baseTy uint32 // Base Type of the first untyped access chain
	// first holds indices every access starts with (the member of the
	// wrapper block of a readonly/writeonly image array).
	first []uint32
}

// heapPath is an access into a heap not yet emitted: the indices walked so
// far from the root.
type heapPath struct {
	root *heapRoot
	idx  []uint32
}

// step is p one index further.
func (p *heapPath) step(idx uint32) *heapPath {
	return &heapPath{root: p.root, idx: append(append([]uint32(nil), p.idx...), idx)}
}

// heapState caches what lowering heaps declares once.
type heapState struct {
	vars    map[spirv.BuiltIn]uint32
	blocks  map[uint32]bool // buffer block types already decorated Block
	offsets map[*check.Struct][]uint32
	sizes   map[*check.Struct]uint32
	aligns  map[*check.Struct]uint32
	// shifted caches a heap base moved by a constant heap_offset, per block.
	shifted map[[3]uint32]uint32
}

// isHeapVar reports a variable laid over a descriptor heap.
func isHeapVar(v *check.Var) bool {
	return v.Storage == check.StorageResourceHeap || v.Storage == check.StorageSamplerHeap || v.Layout.DescriptorHeap
}

func (g *gen) heapState() *heapState {
	if g.heaps == nil {
		g.heaps = &heapState{vars: map[spirv.BuiltIn]uint32{}, blocks: map[uint32]bool{}, offsets: map[*check.Struct][]uint32{},
			sizes: map[*check.Struct]uint32{}, aligns: map[*check.Struct]uint32{}, shifted: map[[3]uint32]uint32{}}
	}
	return g.heaps
}

// heapVariable declares the resource or sampler heap built-in variable.
func (g *gen) heapVariable(bi spirv.BuiltIn) uint32 {
	hs := g.heapState()
	if id, ok := hs.vars[bi]; ok {
		return id
	}
	g.b.Capability(spirv.CapabilityUntypedPointersKHR)
	g.b.Capability(spirv.CapabilityDescriptorHeapEXT)
	g.b.Extension("SPV_EXT_descriptor_heap")
	g.b.Extension("SPV_KHR_untyped_pointers")
	id := g.b.ID()
	g.b.Add(spirv.SecGlobal, spirv.OpUntypedVariableKHR, g.heapPtrType(), id, uint32(spirv.StorageClassUniformConstant))
	g.b.Decorate(id, spirv.DecorationBuiltIn, uint32(bi))
	name := "resource_heap"
	if bi == spirv.BuiltInSamplerHeapEXT {
		name = "sampler_heap"
	}
	g.b.Name(id, name)
	g.addInterface(id, spirv.StorageClassUniformConstant)
	hs.vars[bi] = id
	return id
}

func (g *gen) heapPtrType() uint32 {
	return g.b.Type(spirv.OpTypeUntypedPointerKHR, uint32(spirv.StorageClassUniformConstant))
}

// heapGlobal declares a variable laid over a heap: the type its accesses
// walk; no variable of its own.
func (g *gen) heapGlobal(v *check.Var) {
	defer func() {
		// Types declared here fail without a position of their own.
		if r := recover(); r != nil {
			if b, ok := r.(bailout); ok && b.err.Pos == (check.Pos{}) {
				b.err.Pos = v.Pos
			}
			panic(r)
		}
	}()
	if g.ver < 0x10200 {
		// OpDecorateId, which heap layouts need, came with SPIR-V 1.2.
		g.fail(v.Pos, "descriptor heaps need SPIR-V 1.2 or later (--target-env vulkan1.1 or later)")
	}
	bi := spirv.BuiltInResourceHeapEXT
	if v.Storage == check.StorageSamplerHeap || v.Layout.DescriptorHeap && isSamplerType(baseOfArrays(v.Type)) {
		bi = spirv.BuiltInSamplerHeapEXT
	}
	r := &heapRoot{v: v, heap: g.heapVariable(bi)}
	if v.Layout.DescriptorHeap {
		elem := baseOfArrays(v.Type)
		desc := g.descriptorType(elem, v.Storage, v.Layout.Format)
		stride := g.u32(uint32(v.Layout.DescriptorStride))
		if v.Layout.DescriptorStride == 0 {
			stride = g.b.Const(spirv.OpConstantSizeOfEXT, g.scalarType(check.Uint32), desc)
		}
		r.baseTy = g.heapArray(v.Type, g.dimStrides(v.Type, stride), desc)
		if im := elem.Image; im != nil && im.Kind == 'i' && v.Memory&(check.ReadOnly|check.WriteOnly) != 0 {
			r.baseTy = g.imageArrayWrapper(v, r.baseTy)
			r.first = []uint32{g.i32(0)}
		}
	} else {
		r.baseTy = g.heapBlock(v.Type)
	}
	g.vars[v] = &varInfo{t: v.Type, heap: r}
}

// imageArrayWrapper is the one-member block glslang wraps a readonly or
// writeonly image array of a heap in, so the member can carry
// NonWritable/NonReadable.
func (g *gen) imageArrayWrapper(v *check.Var, arr uint32) uint32 {
	id := g.b.NewType(spirv.OpTypeStruct, arr)
	g.b.Name(id, v.Name+"_heap")
	g.b.MemberName(id, 0, v.Name)
	g.b.Decorate(id, spirv.DecorationBlock)
	g.b.Add(spirv.SecAnnotation, spirv.OpMemberDecorateIdEXT, id, 0, uint32(spirv.DecorationOffsetIdEXT), g.u32(0))
	g.memberMemory(id, 0, v.Memory&(check.ReadOnly|check.WriteOnly))
	return id
}

func isSamplerType(t *check.Type) bool {
	return t.Kind == check.KOpaque && (t.Name == "sampler" || t.Name == "samplerShadow")
}

// isDescriptor reports a descriptor of a structured heap (arrays
// unwrapped): a buffer_type block or an opaque type.
func isDescriptor(t *check.Type) bool {
	t = baseOfArrays(t)
	return t.Kind == check.KStruct && t.Struct.BufferType != 0 || t.IsOpaque()
}

// hasDescriptor reports a type that is or holds a descriptor.
func hasDescriptor(t *check.Type) bool {
	t = baseOfArrays(t)
	if isDescriptor(t) {
		return true
	}
	if t.Kind == check.KStruct {
		for _, f := range t.Struct.Fields {
			if hasDescriptor(f.Type) {
				return true
			}
		}
	}
	return false
}

// descriptorType is the type of one descriptor: OpTypeBufferEXT for a
// buffer block (storage says which kind when the block is not a
// buffer_type), the opaque type otherwise (an image of the given format).
func (g *gen) descriptorType(t *check.Type, storage check.Storage, format string) uint32 {
	switch {
	case t.Kind == check.KStruct:
		return g.b.Type(spirv.OpTypeBufferEXT, uint32(g.bufferClass(t, storage)))
	case opaqueOf(t) != nil:
		return g.resType(t, format, false)
	}
	return g.typeID(t, check.PackNone)
}

// bufferClass is the storage class of a buffer block reached through a
// heap.
func (g *gen) bufferClass(t *check.Type, storage check.Storage) spirv.StorageClass {
	if t.Struct.BufferType != 0 {
		storage = t.Struct.BufferType
	}
	if storage == check.StorageUniform {
		return spirv.StorageClassUniform
	}
	return spirv.StorageClassStorageBuffer
}

// heapType is the type of a value held in a structured heap; dsize and
// format are the descriptor_size and image format of its member.
func (g *gen) heapType(t *check.Type, dsize int, format string) uint32 {
	switch {
	case t.Kind == check.KArray && hasDescriptor(t):
		return g.heapArray(t, g.heapStrides(t, dsize, format), g.heapType(baseOfArrays(t), dsize, format))
	case isDescriptor(t):
		return g.descriptorType(t, check.StorageBuffer, format)
	case t.Kind == check.KStruct && hasDescriptor(t):
		return g.heapStruct(t, false)
	}
	return g.typeID(t, check.PackScalar)
}

// heapBlock is the type of a resourceheap or samplerheap block: without
// descriptors an ordinary scalar-layout block; with them a struct whose
// offsets depend on descriptor sizes.
func (g *gen) heapBlock(t *check.Type) uint32 {
	if !hasDescriptor(t) {
		id := g.typeID(t, check.PackScalar)
		g.decorateBlock(id)
		return id
	}
	return g.heapStruct(t, true)
}

func (g *gen) decorateBlock(id uint32) {
	hs := g.heapState()
	if !hs.blocks[id] {
		hs.blocks[id] = true
		g.b.Decorate(id, spirv.DecorationBlock)
	}
}

// heapStruct declares a struct holding descriptors. The top-level heap
// block is a Block only when it ends in a runtime array, as Vulkan wants.
func (g *gen) heapStruct(t *check.Type, top bool) uint32 {
	key := fmt.Sprintf("heap@%p", t.Struct)
	if id, ok := g.types[key]; ok {
		return id
	}
	st := t.Struct
	members := make([]uint32, len(st.Fields))
	for i, f := range st.Fields {
		members[i] = g.heapType(f.Type, f.DescriptorSize, f.Format)
	}
	offs := g.heapOffsets(st)
	id := g.b.NewType(spirv.OpTypeStruct, members...)
	g.types[key] = id
	if st.Name != "" {
		g.b.Name(id, st.Name)
	}
	for i, f := range st.Fields {
		if st.Name != "" {
			g.b.MemberName(id, uint32(i), f.Name)
		}
		g.b.Add(spirv.SecAnnotation, spirv.OpMemberDecorateIdEXT, id, uint32(i), uint32(spirv.DecorationOffsetIdEXT), offs[i])
		if ft := baseOfArrays(f.Type); ft.Kind == check.KMatrix {
			if f.RowMajor {
				g.b.MemberDecorate(id, uint32(i), spirv.DecorationRowMajor)
			} else {
				g.b.MemberDecorate(id, uint32(i), spirv.DecorationColMajor)
			}
			g.b.MemberDecorate(id, uint32(i), spirv.DecorationMatrixStride, g.layoutLit(check.MatrixStride(f.Type, check.PackScalar, f.RowMajor), "matrix stride"))
		}
	}
	if top && len(st.Fields) > 0 && st.Fields[len(st.Fields)-1].Type.IsUnsizedArray() {
		g.decorateBlock(id)
	}
	return id
}

// heapArray declares an array (of arrays) of elem laid out in a heap with
// the given strides (innermost first): each dimension gets an
// ArrayStrideIdEXT.
func (g *gen) heapArray(t *check.Type, strides []uint32, elem uint32) uint32 {
	var dims []*check.Type
	for a := t; a.Kind == check.KArray; a = a.Elem {
		dims = append(dims, a)
	}
	id := elem
	for k := len(dims) - 1; k >= 0; k-- {
		s := strides[len(dims)-1-k]
		key := fmt.Sprintf("heaparr:%d:%d:%d", id, g.arrayLen(dims[k]), s)
		if old, ok := g.types[key]; ok {
			id = old
			continue
		}
		if dims[k].IsUnsizedArray() {
			id = g.b.NewType(spirv.OpTypeRuntimeArray, id)
		} else {
			id = g.b.NewType(spirv.OpTypeArray, id, g.arrayLen(dims[k]))
		}
		g.b.DecorateId(id, spirv.DecorationArrayStrideIdEXT, s)
		g.types[key] = id
	}
	return id
}

// arrayLen is the id of an array type's length (0 for a runtime array).
func (g *gen) arrayLen(a *check.Type) uint32 {
	switch {
	case a.IsUnsizedArray():
		return 0
	case a.SpecLen != nil:
		return g.specLen(a.SpecLen)
	}
	return g.u32(uint32(a.N))
}

// Heap layout, as specialization-constant expressions: a descriptor is
// aligned to its size; data is laid out as scalar, its size rounded up to
// its alignment; a struct holding descriptors is aligned to its largest
// member alignment and padded to it.

func (g *gen) specU(op spirv.Op, args ...uint32) uint32 { return g.specOp(check.TUint, op, args...) }

// alignTo rounds v up to a multiple of a.
func (g *gen) alignTo(v, a uint32) uint32 {
	m := g.specU(spirv.OpUMod, v, a)
	pad := g.specU(spirv.OpISub, a, m)
	pad = g.specU(spirv.OpUMod, pad, a)
	return g.specU(spirv.OpIAdd, v, pad)
}

func (g *gen) maxOf(x, y uint32) uint32 {
	gt := g.specOp(check.TBool, spirv.OpUGreaterThan, x, y)
	return g.specU(spirv.OpSelect, gt, x, y)
}

func scalarSizeAlign(t *check.Type, rowMajor bool) (int, int) {
	return check.SizeAlign(t, check.PackScalar, rowMajor)
}

// valueSize is the heap size of a non-array value (of an image of the
// given format).
func (g *gen) valueSize(t *check.Type, dsize int, format string) uint32 {
	switch {
	case isDescriptor(t):
		if dsize > 0 {
			return g.u32(uint32(dsize))
		}
		return g.b.Const(spirv.OpConstantSizeOfEXT, g.scalarType(check.Uint32), g.descriptorType(t, check.StorageBuffer, format))
	case t.Kind == check.KStruct && hasDescriptor(t):
		return g.heapStructSize(t.Struct)
	}
	s, a := scalarSizeAlign(t, false)
	return g.u32(uint32(roundUpTo(s, a)))
}

// valueAlign is the heap alignment of a non-array value.
func (g *gen) valueAlign(t *check.Type, dsize int, format string) uint32 {
	switch {
	case isDescriptor(t):
		return g.valueSize(t, dsize, format)
	case t.Kind == check.KStruct && hasDescriptor(t):
		return g.heapStructAlign(t.Struct)
	}
	_, a := scalarSizeAlign(t, false)
	return g.u32(uint32(a))
}

// heapStrides are the strides of an array's dimensions in a structured
// heap, innermost first.
func (g *gen) heapStrides(t *check.Type, dsize int, format string) []uint32 {
	if !hasDescriptor(t) {
		return []uint32{g.u32(g.layoutLit(check.ArrayStride(t, check.PackScalar, false), "array stride"))}
	}
	elem := baseOfArrays(t)
	var s uint32
	switch {
	case dsize > 0 && isDescriptor(elem):
		s = g.u32(uint32(dsize))
	default:
		s = g.valueSize(elem, dsize, format)
	}
	return g.dimStrides(t, s)
}

// dimStrides are the strides of an array's dimensions, innermost first,
// for elements s bytes apart.
func (g *gen) dimStrides(t *check.Type, s uint32) []uint32 {
	var dims []*check.Type
	for a := t; a.Kind == check.KArray; a = a.Elem {
		dims = append(dims, a)
	}
	var out []uint32
	for k := len(dims) - 1; k >= 0; k-- {
		out = append(out, s)
		if k > 0 {
			s = g.specU(spirv.OpIMul, s, g.arrayLen(dims[k]))
		}
	}
	return out
}

// memberSize is the heap size of a struct member; a runtime array counts
// one element.
func (g *gen) memberSize(f *check.Member) uint32 {
	t := f.Type
	switch {
	case t.Kind != check.KArray:
		return g.valueSize(t, f.DescriptorSize, f.Format)
	case !hasDescriptor(t):
		s, _ := scalarSizeAlign(t, f.RowMajor)
		return g.u32(g.layoutLit(s, "member size"))
	}
	strides := g.heapStrides(t, f.DescriptorSize, f.Format)
	last := strides[len(strides)-1]
	if t.IsUnsizedArray() {
		return last
	}
	return g.specU(spirv.OpIMul, last, g.arrayLen(t))
}

func (g *gen) memberAlign(f *check.Member) uint32 {
	t := f.Type
	if t.Kind == check.KArray && !hasDescriptor(t) {
		_, a := scalarSizeAlign(t, f.RowMajor)
		return g.u32(uint32(a))
	}
	return g.valueAlign(baseOfArrays(t), f.DescriptorSize, f.Format)
}

// heapOffsets are the member offsets of a struct holding descriptors: an
// explicit offset, else the end of the previous member aligned up.
func (g *gen) heapOffsets(st *check.Struct) []uint32 {
	hs := g.heapState()
	if o, ok := hs.offsets[st]; ok {
		return o
	}
	offs := make([]uint32, len(st.Fields))
	cur := g.u32(0)
	for i, f := range st.Fields {
		switch {
		case f.Offset >= 0:
			cur = g.u32(uint32(f.Offset))
		case i > 0:
			end := g.specU(spirv.OpIAdd, cur, g.memberSize(st.Fields[i-1]))
			cur = g.alignTo(end, g.memberAlign(f))
		}
		offs[i] = cur
	}
	hs.offsets[st] = offs
	return offs
}

func (g *gen) heapStructAlign(st *check.Struct) uint32 {
	hs := g.heapState()
	if a, ok := hs.aligns[st]; ok {
		return a
	}
	var a uint32
	for _, f := range st.Fields {
		if m := g.memberAlign(f); a == 0 {
			a = m
		} else {
			a = g.maxOf(a, m)
		}
	}
	if a == 0 {
		a = g.u32(1)
	}
	hs.aligns[st] = a
	return a
}

func (g *gen) heapStructSize(st *check.Struct) uint32 {
	hs := g.heapState()
	if s, ok := hs.sizes[st]; ok {
		return s
	}
	s := g.u32(0)
	if n := len(st.Fields); n > 0 {
		offs := g.heapOffsets(st)
		end := g.specU(spirv.OpIAdd, offs[n-1], g.memberSize(st.Fields[n-1]))
		s = g.alignTo(end, g.heapStructAlign(st))
	}
	hs.sizes[st] = s
	return s
}

func roundUpTo(n, a int) int {
	if a <= 1 {
		return n
	}
	return (n + a - 1) / a * a
}

// Accesses.

// heapLval starts an access to a heap-backed variable.
func (g *gen) heapLval(vi *varInfo) *lval {
	return &lval{t: vi.t, heap: &heapPath{root: vi.heap, idx: vi.heap.first}}
}

// heapChain steps into a heap access. Reaching a buffer descriptor turns
// it into a typed pointer to the buffer.
func (g *gen) heapChain(base *lval, t *check.Type, idx uint32) *lval {
	p := base.heap.step(idx)
	if t.Kind == check.KStruct && (t.Struct.BufferType != 0 || t.Struct.Block && !t.Struct.Ref) {
		return g.heapBuffer(p, t)
	}
	return &lval{t: t, heap: p}
}

// heapBase is the heap variable, moved by the root's heap_offset.
func (g *gen) heapBase(r *heapRoot) uint32 {
	e := r.v.Layout.HeapOffset
	if e == nil {
		return r.heap
	}
	var off uint32
	global := true
	if c, ok := e.(*check.Const); ok {
		off = g.u32(uint32(c.Val.Bits))
	} else {
		global = check.IsSpecConst(e)
		off = g.rvalue(e)
	}
	key := [3]uint32{g.currentLabel(), r.heap, off}
	hs := g.heapState()
	if id, ok := hs.shifted[key]; ok && global {
		return id
	}
	id := g.b.EmitResult(spirv.OpUntypedAccessChainKHR, g.heapPtrType(), g.heapBytes(), r.heap, off)
	if global {
		hs.shifted[key] = id
	}
	return id
}

// heapBytes is the byte array a heap_offset indexes.
func (g *gen) heapBytes() uint32 {
	if id, ok := g.types["heapbytes"]; ok {
		return id
	}
	g.b.Capability(spirv.CapabilityInt8)
	id := g.b.NewType(spirv.OpTypeRuntimeArray, g.scalarType(check.Uint8))
	g.b.Decorate(id, spirv.DecorationArrayStride, 1)
	g.types["heapbytes"] = id
	return id
}

// heapPointer emits the untyped access chain of p.
func (g *gen) heapPointer(p *heapPath, t *check.Type) uint32 {
	if len(p.idx) == 0 {
		g.fail(p.root.v.Pos, "%s of type %s cannot be used as a whole", p.root.v.Name, t)
	}
	base := g.heapBase(p.root)
	return g.b.EmitResult(spirv.OpUntypedAccessChainKHR, g.heapPtrType(), append([]uint32{p.root.baseTy, base}, p.idx...)...)
}

// heapBuffer turns the buffer descriptor at p into a pointer to the
// buffer block t.
func (g *gen) heapBuffer(p *heapPath, t *check.Type) *lval {
	v := p.root.v
	storage := check.StorageBuffer
	if v.Layout.DescriptorHeap {
		storage = v.Storage
	}
	// The checker gives every buffer block its packing.
	pk := t.Struct.Packing
	if pk == check.PackNone {
		pk = check.PackStd430
	}
	sc := g.bufferClass(t, storage)
	if sc == spirv.StorageClassStorageBuffer && g.ver < 0x10300 {
		g.b.Extension("SPV_KHR_storage_buffer_storage_class")
	}
	block := g.typeID(t, pk)
	if hs := g.heapState(); !hs.blocks[block] {
		g.decorateBlock(block)
		g.memoryCaps(t, sc, sc == spirv.StorageClassStorageBuffer)
	}
	chain := g.heapPointer(p, t)
	ptr := g.b.EmitResult(spirv.OpBufferPointerEXT, g.b.TypePointer(sc, block), chain)
	if v.Layout.DescriptorHeap {
		if v.Memory&check.WriteOnly != 0 {
			g.b.Decorate(ptr, spirv.DecorationNonReadable)
		}
		if v.Memory&check.ReadOnly != 0 && sc == spirv.StorageClassStorageBuffer {
			g.b.Decorate(ptr, spirv.DecorationNonWritable)
		}
	}
	return &lval{ptr: ptr, sc: sc, t: t, pk: pk}
}

// heapLoad loads a value held in a heap: data, a buffer reference or an
// opaque descriptor.
func (g *gen) heapLoad(l *lval) uint32 {
	t := l.t
	if hasDescriptor(t) && !t.IsOpaque() {
		g.fail(l.heap.root.v.Pos, "a value of type %s in a descriptor heap cannot be loaded as a whole", t)
	}
	ptr := g.heapPointer(l.heap, t)
	var v uint32
	if t.IsOpaque() || t.Kind == check.KReference {
		v = g.b.EmitResult(spirv.OpLoad, g.typeID(t, check.PackNone), ptr)
	} else {
		v = g.b.EmitResult(spirv.OpLoad, g.typeID(t, check.PackScalar), ptr)
		v = g.fromMemory(v, t, check.PackScalar)
	}
	if len(l.comps) > 0 {
		return g.swizzle(v, t, l.comps)
	}
	return v
}

// Samplers, textures and images in heaps are loaded through the untyped
// pointer to their descriptor; image atomics take their texel pointer from
// it (OpUntypedImageTexelPointerEXT).

// heapResRef starts an access to a layout(descriptor_heap) array of
// samplers, textures or images, or to a heap block holding them.
func (g *gen) heapResRef(v *check.Var, vi *varInfo) *resRef {
	return &resRef{t: vi.t, heap: &heapPath{root: vi.heap, idx: vi.heap.first}, mem: v.Memory, nonUniform: v.NonUniform,
		root: &varInfo{t: vi.t, format: v.Layout.Format, depth: g.depthTextures[v]}}
}

// heapResField steps into a member of a heap block (or of a struct in
// one): the member's format and memory qualifiers apply from there.
func (g *gen) heapResField(base *resRef, e *check.Field) *resRef {
	st := e.X.Type().Struct
	if base.heap == nil || st == nil || e.Index >= len(st.Fields) {
		g.fail(e.Pos, "this %s expression is not supported by the code generator", e.T)
	}
	f := st.Fields[e.Index]
	r := *base
	r.t, r.heap = e.T, base.heap.step(g.i32(int32(e.Index)))
	r.root = &varInfo{t: e.T, format: f.Format}
	r.mem |= f.Memory
	return &r
}

// heapTexelPointer is the pointer to a texel of the heap image r for an
// image atomic.
func (g *gen) heapTexelPointer(r *resRef, coord, sample uint32) uint32 {
	img := g.imageType(r.t, r.root.format, false)
	ptrT := g.b.Type(spirv.OpTypeUntypedPointerKHR, uint32(spirv.StorageClassImage))
	return g.b.EmitResult(spirv.OpUntypedImageTexelPointerEXT, ptrT, img, g.heapPointer(r.heap, r.t), coord, sample)
}
