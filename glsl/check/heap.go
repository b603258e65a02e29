package check

import "github.com/coopshader/coop/glsl/syntax"

// Structured descriptor heaps (GL_EXT_structured_descriptor_heap):
// resourceheap and samplerheap blocks laid over the descriptor heaps at
// heap_offset, buffer_type blocks that name buffer descriptors, and inline
// buffer_reference / buffer_type block types of heap members.

var extStructuredHeap = []string{"GL_EXT_structured_descriptor_heap"}

// heapOffset checks layout(heap_offset = e): any scalar integer
// expression, constant or not (a push-constant member, a spec constant).
// As in glslang, it needs both heap extensions.
func (c *checker) heapOffset(it layoutItem, li *layoutInfo) {
	if !c.requireExt(it.pos, it.name, extDescriptorHeap...) || !c.requireExt(it.pos, it.name, extStructuredHeap...) {
		return
	}
	if it.val == nil || isErr(it.val) {
		if it.val == nil {
			c.errorf(it.pos, it.name, "needs an integer expression")
		}
		return
	}
	t := it.val.Type()
	if t.Kind != KScalar || t.Scalar != Int32 && t.Scalar != Uint32 {
		c.errorf(it.pos, it.name, "must be a scalar int or uint expression")
		return
	}
	li.HeapOffset = it.val
}

// heapBlock declares a resourceheap or samplerheap block. Its members may be
// data, opaque types, buffer_type blocks, buffer references (including
// inline block types) and arrays and structs of those; samplerheap holds
// samplers only.
func (c *checker) heapBlock(q quals, li layoutInfo, blockName string, members []blockMember, instance string, arrays []Expr, hasArray bool, pos Pos) {
	if !c.requireExt(pos, q.storage, extStructuredHeap...) {
		return
	}
	storage := StorageResourceHeap
	if q.storage == "samplerheap" {
		storage = StorageSamplerHeap
	}
	if instance == "" || hasArray {
		c.errorf(pos, blockName, "descriptor heap blocks need an instance name and cannot be arrays")
		return
	}
	st := &Struct{Name: blockName, Block: true, Packing: li.Packing}
	if st.Packing == PackNone {
		st.Packing = PackStd430
	}
	for i, m := range members {
		if storage == StorageSamplerHeap && !isSampler(m.t) {
			c.errorf(m.pos, m.name, "samplerheap members must be samplers or arrays of samplers")
		}
		if containsCoop(m.t) {
			c.errorf(m.pos, m.name, "member of block cannot be or contain a cooperative matrix type")
		}
		if m.t.IsUnsizedArray() && i != len(members)-1 {
			c.errorf(m.pos, m.name, "array size required")
		}
		c.addField(st, m, true)
		f := st.Fields[len(st.Fields)-1]
		switch base := baseOfArrays(f.Type); {
		case !base.isResource():
			if f.Format != "" {
				c.errorf(m.pos, f.Format, "only apply to images")
			}
		case !c.noVulkanRect(base, m.pos):
			c.imageFormatRules(m.pos, f.Format, base, f.Memory|q.memory)
		}
	}
	v := &Var{Name: instance, Type: &Type{Kind: KStruct, Struct: st}, Storage: storage, Pos: pos, Memory: q.memory, SpecID: -1, Layout: li.Layout}
	c.prog.Globals = append(c.prog.Globals, v)
	c.declare(blockName, pos, &symbol{typ: v.Type})
	c.declare(instance, pos, &symbol{v: v})
}

func isSampler(t *Type) bool {
	for t.Kind == KArray {
		t = t.Elem
	}
	return t.Kind == KOpaque && (t.Name == "sampler" || t.Name == "samplerShadow")
}

// addField appends a block member to st, reporting a duplicate name. Only
// members of descriptor heaps (heap) may have a descriptor_size.
func (c *checker) addField(st *Struct, m blockMember, heap bool) {
	mli := c.parseLayout(m.q.layout)
	if !heap {
		c.noDescriptorSize(mli, m)
	}
	for _, other := range st.Fields {
		if other.Name == m.name {
			c.errorf(m.pos, m.name, "redefinition")
		}
	}
	st.Fields = append(st.Fields, &Member{Name: m.name, Type: m.t, Pos: m.pos, Offset: mli.offset, Align: mli.align, RowMajor: mli.RowMajor, Memory: m.q.memory, DescriptorSize: mli.descriptorSize,
		Format: mli.Format, Spirv: c.intrinsics(m.q, "spirv_decorate").memberDecorations(c)})
}

// bufferType declares a layout(buffer_type) uniform or buffer block: a type
// name, no variable. It returns nil after an error.
func (c *checker) bufferType(q quals, li layoutInfo, storage Storage, name string, members []blockMember, pos Pos) *Type {
	if storage != StorageBuffer && storage != StorageUniform {
		c.errorf(pos, name, "buffer_type blocks must be uniform or buffer blocks")
		return nil
	}
	st := &Struct{Name: name, Block: true, Packing: li.Packing, BufferType: storage}
	if st.Packing == PackNone {
		st.Packing = PackStd430
		if storage == StorageUniform {
			st.Packing = PackStd140
		}
	}
	for i, m := range members {
		if m.t.Contains((*Type).IsOpaque) || m.inline {
			c.errorf(m.pos, m.name, "member of block cannot be or contain a sampler, image, or atomic_uint type")
		}
		if m.t.IsUnsizedArray() && (i != len(members)-1 || storage != StorageBuffer) {
			c.errorf(m.pos, m.name, "array size required")
		}
		m.q.memory |= q.memory
		c.addField(st, m, false)
	}
	t := &Type{Kind: KStruct, Struct: st}
	if name != "" {
		c.declare(name, pos, &symbol{typ: t})
	}
	return t
}

// inlineBlock resolves a block type written as a heap member:
// layout(buffer_reference) buffer [Name] { ... } or layout(buffer_type).
func (c *checker) inlineBlock(b *syntax.BlockDecl) *Type {
	q := c.quals(b.Quals)
	li := c.parseLayout(q.layout)
	members := c.members(b.Members)
	switch {
	case li.bufferReference:
		st := &Struct{Name: b.BlockName, Block: true, Ref: true, Packing: li.Packing, RefAlign: li.refAlign}
		if st.Packing == PackNone {
			st.Packing = PackStd430
		}
		if st.RefAlign == 0 {
			st.RefAlign = 16
		}
		for _, m := range members {
			c.addField(st, m, false)
		}
		if b.BlockName != "" {
			c.defineRefBlock(b.BlockName, st, b.Pos)
			return c.refTypes[b.BlockName]
		}
		return &Type{Kind: KReference, Struct: st}
	case hasLayout(q.layout, "buffer_type"):
		storage := StorageBuffer
		if q.storage == "uniform" {
			storage = StorageUniform
		}
		if t := c.bufferType(q, li, storage, b.BlockName, members, b.Pos); t != nil {
			return t
		}
		return tError
	}
	c.errorf(b.Pos, b.BlockName, "an inline block type must be a buffer_reference or buffer_type block")
	return tError
}

// descriptorLayout checks layout(descriptor_stride = N), a power of two,
// and layout(descriptor_size = N) of GL_EXT_descriptor_heap.
func (c *checker) descriptorLayout(it layoutItem, li *layoutInfo) {
	if !c.requireExt(it.pos, it.name, extDescriptorHeap...) || it.name == "descriptor_size" && !c.requireExt(it.pos, it.name, extStructuredHeap...) {
		return
	}
	n, ok := c.layoutInt(it)
	if !ok {
		return
	}
	switch {
	case n <= 0:
		c.errorf(it.pos, it.name, "must be a positive integer")
	case it.name == "descriptor_size":
		li.descriptorSize = n
	case n&(n-1) != 0:
		c.errorf(it.pos, it.name, "must be a power of 2")
	default:
		li.DescriptorStride = n
	}
}

// descriptorHeapDecl applies layout(descriptor_heap), descriptor_stride and
// heap_offset to a uniform or buffer declaration of v. As in glslang, an
// explicit set or binding leaves the declaration an ordinary binding.
func (c *checker) descriptorHeapDecl(v *Var, li layoutInfo, pos Pos) {
	if li.DescriptorStride != 0 && !li.descriptorHeap {
		c.errorf(pos, "descriptor_stride", "must specify 'descriptor_heap' to use 'descriptor_stride'")
	}
	if li.HeapOffset != nil && !li.descriptorHeap {
		c.errorf(pos, "heap_offset", "must specify 'descriptor_heap' to use 'heap_offset'")
	}
	if !li.descriptorHeap || li.Set >= 0 || li.Binding >= 0 {
		return
	}
	if v.Type.Kind != KArray {
		c.errorf(pos, v.Name, "layout(descriptor_heap) decorated variable could only be declared as an array.")
		return
	}
	if e := baseOfArrays(v.Type); e.Image != nil && e.Image.Kind == 's' {
		c.errorf(pos, v.Name, "layout(descriptor_heap) cannot be used with combined image samplers.")
		return
	}
	v.Layout.DescriptorHeap = true
}

// noDescriptorSize reports descriptor_size on a member outside a heap.
func (c *checker) noDescriptorSize(mli layoutInfo, m blockMember) {
	if mli.descriptorSize != 0 {
		c.errorf(m.pos, "descriptor_size", "can only be used on resourceheap or samplerheap block members")
	}
}
