package check

import (
	"strings"

	"github.com/coopshader/coop/internal/lazy"

	"github.com/coopshader/coop/glsl/syntax"
	"github.com/coopshader/coop/spirv"
)

// quals is the qualifier list of a declaration, gathered from the syntax
// tree before the rules below apply.
type quals struct {
	storage   string // "", const, uniform, buffer, shared, in, out, inout
	constIn   bool   // "const in" (parameters)
	memory    MemoryQual
	layout    []layoutItem
	precise   bool
	invariant bool
	// nonUniform is the nonuniformEXT qualifier (GL_EXT_nonuniform_qualifier).
	nonUniform bool
	pos        Pos
	// spirv holds the GL_EXT_spirv_intrinsics qualifiers with arguments;
	// byRef and literal are spirv_by_reference and spirv_literal.
	spirv          []*syntax.Qualifier
	byRef, literal bool
}

type layoutItem struct {
	name string
	val  Expr // nil when the identifier has no "= value"
	pos  Pos
}

// layoutInfo is the validated meaning of a layout qualifier list.
type layoutInfo struct {
	Layout
	offset, align   int
	constantID      int
	bufferReference bool
	refAlign        int
	descriptorHeap  bool
	descriptorSize  int
	localSize       [3]int
	localSizeID     [3]int
	hasLocalSize    bool
	derivativeGroup string
	shadingRate     [3]int
	// primitiveCulling: layout(primitive_culling) of
	// GL_EXT_ray_flags_primitive_culling (standalone only).
	primitiveCulling bool
	other            []string
}

var memoryNames = lazy.Value[map[string]MemoryQual]{F: func() map[string]MemoryQual {
	return map[string]MemoryQual{
		"coherent": Coherent, "volatile": Volatile, "restrict": Restrict, "readonly": ReadOnly, "writeonly": WriteOnly,
		"devicecoherent": DeviceCoherent, "queuefamilycoherent": QueueFamilyCoherent, "workgroupcoherent": WorkgroupCoherent,
		"subgroupcoherent": SubgroupCoherent, "nonprivate": NonPrivate,
	}
}}

var extDescriptorHeap = []string{"GL_EXT_descriptor_heap"}

// imageFormats are the format layout qualifiers of images.
var imageFormats map[string]bool // made by loadTables

func defineImageFormats() {
	for _, f := range strings.Fields(`rgba32f rgba16f rg32f rg16f r11f_g11f_b10f r32f r16f rgba16 rgb10_a2 rgba8 rg16 rg8 r16 r8
		rgba16_snorm rgba8_snorm rg16_snorm rg8_snorm r16_snorm r8_snorm rgba32i rgba16i rgba8i rg32i rg16i rg8i r32i r16i r8i
		rgba32ui rgba16ui rgb10_a2ui rgba8ui rg32ui rg16ui rg8ui r32ui r16ui r8ui r64ui r64i`) {
		imageFormats[f] = true
	}
}

// layoutInt evaluates a layout qualifier's integer value.
func (c *checker) layoutInt(it layoutItem) (int, bool) {
	if it.val == nil {
		c.errorf(it.pos, it.name, "needs a literal integer")
		return 0, false
	}
	v := constOf(it.val)
	if v == nil || it.val.Type().Kind != KScalar || !it.val.Type().Scalar.IsInt() {
		c.errorf(it.pos, it.name, "needs a literal integer")
		return 0, false
	}
	return int(v.Int()), true
}

// parseLayout validates the layout identifiers of a declaration.
func (c *checker) parseLayout(items []layoutItem) layoutInfo {
	li := layoutInfo{Layout: noLayout(), offset: -1, constantID: -1, localSizeID: [3]int{-1, -1, -1}}
	for _, it := range items {
		name := strings.ToLower(it.name)
		// Identifiers that take a value.
		valued := map[string]bool{"set": true, "binding": true, "location": true, "offset": true, "align": true, "constant_id": true,
			"local_size_x": true, "local_size_y": true, "local_size_z": true, "local_size_x_id": true, "local_size_y_id": true,
			"local_size_z_id": true, "buffer_reference_align": true, "component": true, "index": true,
			"shading_rate_xqcom": true, "shading_rate_yqcom": true, "shading_rate_zqcom": true}
		switch name {
		case "heap_offset":
			c.heapOffset(it, &li)
			continue
		case "descriptor_stride", "descriptor_size":
			c.descriptorLayout(it, &li)
			continue
		}
		if valued[name] {
			n, ok := c.layoutInt(it)
			if !ok {
				continue
			}
			switch name {
			case "set":
				li.Set = n
			case "binding":
				li.Binding = n
			case "location":
				li.Location = n
			case "offset":
				li.offset = n
			case "align":
				li.align = n
			case "constant_id":
				li.constantID = n
			case "buffer_reference_align":
				li.refAlign = n
			case "local_size_x", "local_size_y", "local_size_z":
				if n < 1 {
					c.errorf(it.pos, it.name, "must be at least 1")
				}
				li.localSize[name[11]-'x'] = n
				li.hasLocalSize = true
			case "shading_rate_xqcom", "shading_rate_yqcom", "shading_rate_zqcom":
				if c.requireExt(it.pos, it.name, tileShadingExt...) {
					if n < 1 {
						c.errorf(it.pos, it.name, "must be at least 1")
					}
					li.shadingRate[name[13]-'x'] = n
				}
			case "local_size_x_id", "local_size_y_id", "local_size_z_id":
				li.localSizeID[name[11]-'x'] = n
				li.hasLocalSize = true
			}
			continue
		}
		if it.val != nil {
			c.errorf(it.pos, it.name, "there is no such layout identifier taking an assigned value")
			continue
		}
		switch {
		case name == "std140":
			li.Packing = PackStd140
		case name == "std430":
			li.Packing = PackStd430
		case name == "scalar":
			if c.requireExt(it.pos, "scalar block layout", "GL_EXT_scalar_block_layout") {
				li.Packing = PackScalar
			}
		case name == "shared" || name == "packed":
			li.Packing = PackStd430
		case name == "row_major":
			li.RowMajor = true
		case name == "column_major":
			li.RowMajor = false
		case name == "push_constant":
			li.PushConstant = true
		case name == "buffer_reference":
			if c.requireExt(it.pos, "buffer_reference", "GL_EXT_buffer_reference") {
				li.bufferReference = true
			}
		case imageFormats[name]:
			li.Format = name
		case name == "descriptor_heap":
			li.descriptorHeap = c.requireExt(it.pos, it.name, extDescriptorHeap...)
		case name == "buffer_type":
			c.requireExt(it.pos, it.name, extStructuredHeap...)
		case name == "tile_attachmentqcom":
			li.TileAttachment = c.requireExt(it.pos, it.name, tileShadingExt...)
		case name == "derivative_group_quadsnv", name == "derivative_group_linearnv", name == "derivative_group_quadskhr", name == "derivative_group_linearkhr":
			if li.derivativeGroup != "" && derivativeQuads(li.derivativeGroup) != derivativeQuads(name) {
				c.errorf(it.pos, "derivative_group_quads* and derivative_group_linear*", "cannot be both specified")
			}
			li.derivativeGroup = name
			c.khrDerivativeLayout = c.khrDerivativeLayout || strings.HasSuffix(name, "khr")
		case name == "primitive_culling":
			li.primitiveCulling = c.requireExt(it.pos, "primitive culling", extPrimitiveCulling)
		default:
			li.other = append(li.other, name)
			c.errorf(it.pos, it.name, "unrecognized layout identifier, or qualifier requires assignment (e.g., binding = 4)")
		}
	}
	return li
}

// applyArrays wraps t in the array dimensions of a declarator, outermost
// first. A nil entry is an unsized dimension.
func (c *checker) applyArrays(t *Type, sizes []Expr, pos Pos) *Type {
	for i := len(sizes) - 1; i >= 0; i-- {
		t = c.arrayOf(t, sizes[i], pos)
	}
	return t
}

// arrayOf builds an array type with a constant, spec-constant or absent size.
func (c *checker) arrayOf(t *Type, size Expr, pos Pos) *Type {
	if t.Kind == KVoid {
		c.errorf(pos, "", "illegal use of type 'void'")
	}
	if size == nil {
		return ArrayType(t, 0)
	}
	if isErr(size) {
		return ArrayType(t, 1)
	}
	st := size.Type()
	if st.Kind != KScalar || !st.Scalar.IsInt() {
		c.errorf(pos, "", "array size must be a constant integer expression")
		return ArrayType(t, 1)
	}
	if v := constOf(size); v != nil {
		n := v.Int()
		if st.Scalar.IsUnsigned() {
			n = int64(v.Uint() & (1<<62 - 1))
		}
		if n <= 0 {
			c.errorf(pos, "", "array size must be a positive integer")
			return ArrayType(t, 1)
		}
		return ArrayType(t, int(n))
	}
	if IsSpecConst(size) {
		a := ArrayType(t, 1)
		a.SpecLen = size
		if v := specDefault(size); v != nil {
			a.N = int(v.Int())
		}
		return a
	}
	c.errorf(pos, "", "array size must be a constant integer expression")
	return ArrayType(t, 1)
}

// containsSubByte reports the 4- and 6-bit floats (GL_EXT_float_e2m1,
// _e2m3, _e3m2), which live only in Function and Private memory.
func containsSubByte(t *Type) bool {
	return t.Contains(func(t *Type) bool {
		return (t.Kind == KScalar || t.Kind == KVector) && t.Scalar.Bits() < 8
	})
}

func containsCoop(t *Type) bool {
	return t.Contains(func(t *Type) bool { return t.IsCoop() || t.Kind == KTensorLayout || t.Kind == KTensorView })
}

// declareGlobalLayoutIn handles "layout(local_size_x = ...) in;".
func (c *checker) declareLayoutIn(q quals) {
	li := c.parseLayout(q.layout)
	if q.storage != "in" {
		return
	}
	c.defaultInLayout(q)
	if li.derivativeGroup != "" {
		if g := c.prog.DerivativeGroup; g != "" && derivativeQuads(g) != derivativeQuads(li.derivativeGroup) {
			c.errorf(q.pos, "derivative_group_quads* and derivative_group_linear*", "cannot be both specified")
		}
		c.prog.DerivativeGroup = li.derivativeGroup
		c.derivativePos = q.pos
	}
	for i, n := range li.shadingRate {
		if n > 0 {
			c.prog.TileShadingRate[i] = n
		}
	}
	if li.hasLocalSize && !c.prog.ES && c.prog.Version >= 420 && c.prog.Version < 430 && !c.arbComputeBefore(q.pos) {
		c.errorf(q.pos, "gl_WorkGroupSize", "not supported for this version or the enabled extensions")
	}
	if li.hasLocalSize {
		c.localSizeSet = true
		for i := range 3 {
			if li.localSize[i] > maxWorkGroupSize[i] {
				c.errorf(q.pos, "local_size", "too large; see gl_MaxComputeWorkGroupSize")
			}
			if li.localSize[i] > 0 {
				c.prog.LocalSize[i] = li.localSize[i]
			}
			if li.localSizeID[i] >= 0 {
				c.prog.LocalSizeSpec[i] = li.localSizeID[i]
			}
		}
	}
}

// requireBinding reports a descriptor declared without
// layout(binding=), which glslang refuses for Vulkan (its module would have
// no Binding decoration) unless bindings are mapped automatically or the
// shader uses descriptor heaps.
func (c *checker) requireBinding(li layoutInfo, pos Pos, msg string) {
	if c.opts.Vulkan && !c.opts.AutoMapBindings && li.Binding < 0 && !c.extOn("GL_EXT_descriptor_heap") {
		c.errorf(pos, "binding", "%s", msg)
	}
}

// maxWorkGroupSize is gl_MaxComputeWorkGroupSize in glslang's default
// resource limits. Like glslang, the checker leaves the product
// (gl_MaxComputeWorkGroupInvocations) to the device.
var maxWorkGroupSize = [3]int{1024, 1024, 64}

// defaultInLayout reports the layout qualifiers a default "in"
// declaration cannot carry, in glslang's words.
func (c *checker) defaultInLayout(q quals) {
	for _, it := range q.layout {
		switch strings.ToLower(it.name) {
		case "binding":
			c.errorf(q.pos, "binding", "requires uniform or buffer or tile image storage qualifier")
			c.errorf(q.pos, "binding", "cannot declare a default, include a type or full declaration")
		case "std140", "std430", "scalar", "shared", "packed", "row_major", "column_major":
			c.errorf(q.pos, "layout", "matrix or packing qualifiers can only be used on a uniform or buffer")
		case "location", "component", "index":
			c.errorf(q.pos, "location qualifier on input", "not supported in this stage: compute")
		case "offset", "align":
			c.errorf(q.pos, "layout qualifier", "cannot use offset or align qualifiers in a default qualifier declaration (declaration with no type)")
		case "push_constant":
			c.errorf(q.pos, "push_constant", "can only be used with a uniform")
		case "constant_id":
			c.errorf(q.pos, "constant_id", "cannot declare a default, can only be used on a scalar")
		case "buffer_reference":
			c.errorf(q.pos, "buffer_reference", "can only be used with buffer")
		}
	}
}

// declareVar declares a global or local variable and returns it; init (may
// be nil) is checked against its type. Locals return the DeclStmt's Var.
func (c *checker) declareVar(q quals, t *Type, name string, init Expr, pos Pos, global bool) (*Var, Expr) {
	li := c.parseLayout(q.layout)
	if li.primitiveCulling {
		c.errorf(pos, "primitive_culling", "can only be applied as standalone")
	}
	v := &Var{Name: name, Type: t, Pos: pos, Memory: q.memory, SpecID: -1, Layout: li.Layout, Precise: q.precise}
	if global {
		sq := c.intrinsics(q, "spirv_decorate", "spirv_storage_class")
		v.SpirvDecorations, v.SpirvStorageClass = sq.decorations, sq.storageClass
	} else {
		v.SpirvDecorations = c.intrinsics(q, "spirv_decorate").decorations
	}
	switch q.storage {
	case "":
		v.Storage = StorageFunction
		if global {
			v.Storage = StoragePrivate
		}
	case "const":
		v.Storage = StorageConst
	case "shared":
		v.Storage = StorageShared
		if !global {
			c.errorf(pos, "shared", "not allowed in nested scope")
		}
		if containsCoop(t) {
			c.errorf(pos, "Cooperative matrix types must not be used in shared memory", "qualifier")
		}
		if containsSubByte(t) {
			c.errorf(pos, "qualifier", "sub-byte sized types not allowed in storage class")
		}
		if looseInt4(t) {
			c.errorf(pos, name, "%s", looseInt4Msg)
		}
	case "uniform":
		v.Storage = StorageUniform
		if !t.Contains((*Type).IsOpaque) {
			c.errorf(pos, "uniform", "non-opaque uniforms outside a block : not allowed when using GLSL for Vulkan")
		}
		c.descriptorHeapDecl(v, li, pos)
		if baseOfArrays(t).isResource() && !li.TileAttachment {
			c.requireBinding(li, pos, "sampler/texture/image requires layout(binding=X)")
		}
	case "buffer":
		v.Storage = StorageBuffer
		c.errorf(pos, "buffer", "buffers can only be declared as blocks")
	case "in", "out":
		c.errorf(pos, q.storage, "compute shaders have no user-defined inputs or outputs")
		v.Storage = StoragePrivate
	default:
		c.errorf(pos, q.storage, "qualifier not allowed here")
	}
	if t.Kind == KVoid {
		c.errorf(pos, name, "illegal use of type 'void'")
		return v, nil
	}
	c.tensorVarCheck(v)
	v.NonUniform = q.nonUniform
	c.checkResourceDecl(v, pos)
	if li.constantID >= 0 {
		if q.storage != "const" || t.Kind != KScalar {
			c.errorf(pos, "constant_id", "can only be applied to 'const'-qualified scalar")
		}
		if t.Kind == KScalar && (q.storage == "const" || q.storage == "" && init != nil) {
			// Without const, glslang reports the error and goes on with a
			// specialization constant: so do later diagnostics here.
			v.Storage = StorageSpecConst
			v.SpecID = li.constantID
		}
	}
	if init != nil && !isErr(init) {
		if t.IsUnsizedArray() && init.Type().IsUnsizedArray() {
			c.errorf(pos, "[]", "array initializer must be sized")
			init = bad(pos)
		} else if t.IsUnsizedArray() && init.Type().Kind == KArray {
			t = ArrayType(t.Elem, init.Type().N)
			v.Type = t
		}
		if !isErr(init) {
			init = c.coerce(init, t, "=", pos)
		}
	}
	switch v.Storage {
	case StorageConst, StorageSpecConst:
		if init == nil {
			c.errorf(pos, name, "variables with qualifier 'const' must be initialized")
			break
		}
		if isErr(init) {
			break
		}
		if val := constOf(init); val != nil {
			v.Value = val
			if v.Storage == StorageSpecConst && val.Elems != nil {
				c.errorf(pos, "constant_id", "can only be applied to 'const'-qualified scalar")
			}
			init = nil
			break
		}
		if v.Storage == StorageSpecConst {
			c.errorf(pos, name, "specialization constant requires a constant initializer")
			break
		}
		if IsSpecConst(init) {
			v.Init = init
			v.Value = specDefault(init)
			init = nil
			break
		}
		if global {
			c.errorf(pos, "=", "global const initializers must be constant ' const %s'", t)
			break
		}
		// A local const initialized at run time behaves as a read-only
		// variable.
		v.Storage = StorageFunction
		v.Memory |= ReadOnly
	case StorageShared, StorageUniform:
		if _, null := init.(*NullInit); null && v.Storage == StorageShared {
			// Shared memory starts zeroed (an OpVariable initializer).
			v.Init = init
			init = nil
		} else if init != nil {
			c.errorf(pos, name, "cannot initialize this type of qualifier ")
			init = nil
		}
	case StoragePrivate:
		if init != nil && !isErr(init) {
			v.Init = init
			init = nil
		}
	}
	c.rayQueryDecl(v, init, pos)
	c.declare(name, pos, &symbol{v: v})
	if global {
		c.prog.Globals = append(c.prog.Globals, v)
		if name == opacityMicromapName {
			c.redeclaredOpacityMicromap(v)
		}
	}
	return v, init
}

// blockMember is a member declaration of a block or struct.
type blockMember struct {
	q    quals
	t    *Type
	name string
	pos  Pos
	// inline marks a block type written in place (descriptor heaps only).
	inline bool
}

// declareBlock declares an interface block (uniform, buffer, shared or push
// constant) or a buffer_reference block type.
func (c *checker) declareBlock(q quals, blockName string, members []blockMember, instance string, arrays []Expr, hasArray bool, pos Pos) {
	li := c.parseLayout(q.layout)
	if li.primitiveCulling {
		c.errorf(pos, "primitive_culling", "can only be applied as standalone")
	}
	st := &Struct{Name: blockName, Block: true}
	storage := StorageUniform
	switch q.storage {
	case "uniform":
		if li.PushConstant {
			storage = StoragePushConstant
		}
	case "buffer":
		storage = StorageBuffer
	case "shared":
		storage = StorageShared
		if v, ok := spirv.TargetVersion(c.opts.TargetEnv); ok && v < spirv.MakeVersion(1, 4) {
			c.errorf(pos, "shared block", "shared block requires at least SPIR-V 1.4")
		}
		c.requireExt(pos, "shared block", "GL_EXT_shared_memory_block")
	case "resourceheap", "samplerheap":
		c.heapBlock(q, li, blockName, members, instance, arrays, hasArray, pos)
		return
	default:
		c.errorf(pos, q.storage, "interface blocks in compute shaders must be uniform, buffer or shared")
		return
	}
	if hasLayout(q.layout, "buffer_type") {
		if t := c.bufferType(q, li, storage, blockName, members, pos); t != nil && (instance != "" || hasArray) {
			c.errorf(pos, blockName, "buffer_type block declares a type: it cannot have an instance name")
		}
		return
	}
	st.Packing = li.Packing
	if st.Packing == PackNone {
		st.Packing = PackStd430
		if storage == StorageUniform {
			st.Packing = PackStd140
		}
	}
	for _, m := range members {
		mli := c.parseLayout(m.q.layout)
		c.noDescriptorSize(mli, m)
		if m.inline {
			c.errorf(m.pos, m.name, "inline block types are only allowed in descriptor heaps")
		}
		if containsCoop(m.t) {
			c.errorf(m.pos, m.name, "member of block cannot be or contain a cooperative matrix type")
		}
		if m.t.Contains((*Type).IsOpaque) {
			c.errorf(m.pos, m.name, "member of block cannot be or contain a sampler, image, or atomic_uint type")
		}
		if containsSubByte(m.t) {
			c.errorf(m.pos, m.name, "member of block cannot be or contain a sub-byte type")
		}
		if looseInt4(m.t) {
			c.errorf(m.pos, m.name, "%s", looseInt4Msg)
		}
		f := &Member{Name: m.name, Type: m.t, Pos: m.pos, Offset: mli.offset, Align: mli.align, RowMajor: mli.RowMajor || li.RowMajor && !hasColumnMajor(m.q.layout), Memory: m.q.memory,
			Spirv: c.intrinsics(m.q, "spirv_decorate").memberDecorations(c)}
		for _, other := range st.Fields {
			if other.Name == m.name {
				c.errorf(m.pos, m.name, "redefinition")
			}
		}
		st.Fields = append(st.Fields, f)
	}
	for i, f := range st.Fields {
		if !f.Type.IsUnsizedArray() || i == len(st.Fields)-1 && (storage == StorageBuffer || li.bufferReference) {
			continue
		}
		if storage == StorageBuffer || li.bufferReference {
			// glslang sizes an unsized array that is not last from the
			// largest constant index used.
			c.implicitArrays[f.Type] = -1
			continue
		}
		c.errorf(f.Pos, f.Name, "array size required")
	}
	if li.bufferReference {
		st.Ref = true
		st.RefAlign = li.refAlign
		if st.RefAlign == 0 {
			st.RefAlign = 16
		}
		c.defineRefBlock(blockName, st, pos)
		if instance == "" {
			return
		}
		if storage != StorageBuffer {
			t := c.refTypes[blockName]
			c.declareVar(quals{}, c.applyArrays(t, arrays, pos), instance, nil, pos, true)
			return
		}
		// An instance of a buffer_reference block declared as a buffer is
		// also an ordinary storage-buffer block variable, as in glslang.
		bt := &Type{Kind: KStruct, Struct: st}
		t := bt
		if hasArray {
			t = c.applyArrays(bt, arrays, pos)
		}
		v := &Var{Name: instance, Type: t, Storage: storage, Pos: pos, Memory: q.memory, SpecID: -1, Layout: li.Layout,
			SpirvDecorations: c.intrinsics(q, "spirv_decorate").decorations}
		c.prog.Globals = append(c.prog.Globals, v)
		c.declare(instance, pos, &symbol{v: v})
		return
	}
	bt := &Type{Kind: KStruct, Struct: st}
	t := bt
	if hasArray {
		t = c.applyArrays(bt, arrays, pos)
	}
	v := &Var{Name: instance, Type: t, Storage: storage, Pos: pos, Memory: q.memory, SpecID: -1, Layout: li.Layout, Anonymous: instance == "",
		SpirvDecorations: c.intrinsics(q, "spirv_decorate").decorations}
	if storage == StorageUniform || storage == StorageBuffer {
		c.descriptorHeapDecl(v, li, pos)
		c.requireBinding(li, pos, "uniform/buffer blocks require layout(binding=X)")
	}
	c.prog.Globals = append(c.prog.Globals, v)
	c.declare(blockName, pos, &symbol{typ: bt})
	if instance != "" {
		c.declare(instance, pos, &symbol{v: v})
		return
	}
	for i, f := range st.Fields {
		c.declare(f.Name, f.Pos, &symbol{v: &Var{Name: f.Name, Type: f.Type, Storage: storage, SpecID: -1, Memory: q.memory | f.Memory, anonBlock: v, anonIndex: i}})
	}
}

func hasColumnMajor(items []layoutItem) bool {
	for _, it := range items {
		if strings.EqualFold(it.name, "column_major") {
			return true
		}
	}
	return false
}

// refType returns the buffer reference type named name, declaring it
// forward when first mentioned.
func (c *checker) refType(name string) *Type {
	if t, ok := c.refTypes[name]; ok {
		return t
	}
	t := &Type{Kind: KReference, Struct: &Struct{Name: name, Block: true, Ref: true, Packing: PackStd430, RefAlign: 16}}
	c.refTypes[name] = t
	return t
}

// defineRefBlock fills in a buffer_reference block's members (the type may
// have been forward-declared and already used).
func (c *checker) defineRefBlock(name string, st *Struct, pos Pos) {
	t := c.refType(name)
	if len(st.Fields) > 0 || t.Struct.Fields == nil {
		*t.Struct = *st
	}
	if c.lookup(name) == nil {
		c.declare(name, pos, &symbol{typ: t})
	}
}

// declareStruct declares a struct type.
func (c *checker) declareStruct(name string, members []blockMember, pos Pos) *Type {
	st := &Struct{Name: name}
	for _, m := range members {
		if m.t.Kind == KVoid {
			c.errorf(m.pos, m.name, "illegal use of type 'void'")
		}
		if m.inline {
			c.errorf(m.pos, m.name, "inline block types are only allowed in descriptor heaps")
		}
		for _, other := range st.Fields {
			if other.Name == m.name {
				c.errorf(m.pos, m.name, "redefinition")
			}
		}
		mli := c.parseLayout(m.q.layout)
		c.noDescriptorSize(mli, m)
		st.Fields = append(st.Fields, &Member{Name: m.name, Type: m.t, Pos: m.pos, Offset: mli.offset, Align: mli.align, RowMajor: mli.RowMajor, Memory: m.q.memory,
			Spirv: c.intrinsics(m.q, "spirv_decorate").memberDecorations(c)})
	}
	t := &Type{Kind: KStruct, Struct: st}
	if name != "" {
		c.declare(name, pos, &symbol{typ: t})
	}
	return t
}

// derivativeQuads tells a derivative_group_quads* layout from a
// derivative_group_linear* one.
func derivativeQuads(name string) bool { return strings.HasPrefix(name, "derivative_group_quads") }

// arbComputeBefore reports whether GL_ARB_compute_shader was turned on
// before pos (in another file, an included one, counts as before).
func (c *checker) arbComputeBefore(pos Pos) bool {
	e := c.arbCompute
	return e != nil && (e.File != pos.File || e.Line < pos.Line || e.Line == pos.Line && e.Col < pos.Col)
}

// looseInt4Msg is SPV_INTEL_int4's memory rule, which glslang does not check.
const looseInt4Msg = "4-bit integers outside Function and Private memory must be in vectors of an even component count (SPV_INTEL_int4)"

// looseInt4 reports whether t holds a spirv_type 4-bit integer that is not
// a component of a vector of an even component count: SPV_INTEL_int4
// allows such scalars (and odd vectors) only in Function and Private
// memory, as a pair in a byte is the smallest unit elsewhere.
func looseInt4(t *Type) bool {
	switch t.Kind {
	case KSpirv:
		if bits, _, ok := t.SpirvInt(); ok {
			return bits == 4
		}
		const opTypeVector = 23
		st := t.Spirv
		if st.Op == opTypeVector && len(st.Params) == 2 && st.Params[0].Type != nil && len(st.Params[1].Words) == 1 {
			if bits, _, ok := st.Params[0].Type.SpirvInt(); ok && bits == 4 {
				return st.Params[1].Words[0]%2 != 0
			}
		}
		return false
	case KArray:
		return looseInt4(t.Elem)
	case KStruct:
		for _, f := range t.Struct.Fields {
			if looseInt4(f.Type) {
				return true
			}
		}
	}
	return false
}
