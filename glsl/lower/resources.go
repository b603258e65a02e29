package lower

import (
	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/spirv"
)

// resourceVar declares a uniform sampler, texture or image (or an array of
// them): a UniformConstant variable, or a TileAttachmentQCOM one for the
// tile attachments of GL_QCOM_tile_shading.
func (g *gen) resourceVar(v *check.Var) {
	sc := spirv.StorageClassUniformConstant
	if v.Layout.TileAttachment {
		sc = spirv.StorageClassTileAttachmentQCOM
		g.b.Capability(spirv.CapabilityTileShadingQCOM)
		g.b.Extension("SPV_QCOM_tile_shading")
	}
	if v.Type.IsUnsizedArray() {
		g.b.Capability(spirv.CapabilityRuntimeDescriptorArray)
		if g.ver < 0x10500 {
			g.b.Extension("SPV_EXT_descriptor_indexing")
		}
	}
	vi := &varInfo{sc: sc, t: v.Type, format: v.Layout.Format, depth: g.depthTextures[v]}
	id := g.b.Variable(g.b.TypePointer(sc, g.resType(v.Type, vi.format, vi.depth)), sc)
	vi.id = id
	g.b.Name(id, v.Name)
	if img := opaqueOf(v.Type); img.Image != nil && img.Image.Kind == 'i' {
		g.resourceMemory(id, v.Memory)
	}
	set, binding := v.Layout.Set, v.Layout.Binding
	if set < 0 {
		set = 0
	}
	if binding >= 0 {
		g.b.Decorate(id, spirv.DecorationBinding, uint32(binding))
	}
	g.b.Decorate(id, spirv.DecorationDescriptorSet, uint32(set))
	g.vars[v] = vi
	g.addInterface(id, sc)
}

// resourceMemory decorates a storage image variable or an opaque
// parameter with its memory qualifiers, as glslang does: coherence as
// Coherent (and volatile as Volatile and Coherent) unless the Vulkan memory
// model expresses it on each access instead.
func (g *gen) resourceMemory(id uint32, m check.MemoryQual) {
	const anyCoherent = check.Coherent | check.DeviceCoherent | check.QueueFamilyCoherent | check.WorkgroupCoherent | check.SubgroupCoherent
	if !g.vmm {
		switch {
		case m&check.Volatile != 0:
			g.b.Decorate(id, spirv.DecorationVolatile)
			g.b.Decorate(id, spirv.DecorationCoherent)
		case m&anyCoherent != 0:
			g.b.Decorate(id, spirv.DecorationCoherent)
		}
	}
	if m&check.Restrict != 0 {
		g.b.Decorate(id, spirv.DecorationRestrict)
	}
	if m&check.ReadOnly != 0 {
		g.b.Decorate(id, spirv.DecorationNonWritable)
	}
	if m&check.WriteOnly != 0 {
		g.b.Decorate(id, spirv.DecorationNonReadable)
	}
}

// findDepthTextures finds the texture variables combined with a
// samplerShadow: glslang declares those depth images.
func findDepthTextures(p *check.Program) map[*check.Var]bool {
	out := map[*check.Var]bool{}
	passed := map[*check.Var]bool{}
	walkProgram(p, func(e check.Expr) {
		switch e := e.(type) {
		case *check.Construct:
			if len(e.Args) == 2 && e.Args[1].Type().Name == "samplerShadow" {
				if v := rootVar(e.Args[0]); v != nil && v.Storage == check.StorageUniform {
					out[v] = true
				}
			}
		case *check.Call:
			for _, a := range e.Args {
				if v := rootVar(a); v != nil {
					passed[v] = true
				}
			}
		}
	})
	// A texture handed to a function keeps the parameter's plain type.
	for v := range passed {
		delete(out, v)
	}
	return out
}

// rootVar is the variable a resource expression indexes into, or nil.
func rootVar(e check.Expr) *check.Var {
	for {
		switch x := e.(type) {
		case *check.VarRef:
			return x.Var
		case *check.Index:
			e = x.X
		case *check.BuiltinCall:
			if x.Fn != check.BNonuniformEXT {
				return nil
			}
			e = x.Args[0]
		default:
			return nil
		}
	}
}

// resRef is the address of a sampler, texture or image: a pointer, its
// storage class, the resource type there, the variable it belongs to
// (whose format and depth it has), and whether it was reached with a
// non-uniform index. One in a descriptor heap has an access into the heap
// instead of a pointer (heap.go).
type resRef struct {
	ptr        uint32
	sc         spirv.StorageClass
	t          *check.Type
	root       *varInfo
	mem        check.MemoryQual
	nonUniform bool
	heap       *heapPath
}

// typeID is the SPIR-V type the pointer points to.
func (g *gen) refType(r *resRef) uint32 { return g.resType(r.t, r.root.format, r.root.depth) }

// resourceRef evaluates the address of a resource expression: a variable
// or parameter, an element of an array of them, or nonuniformEXT of one.
func (g *gen) resourceRef(e check.Expr) *resRef {
	switch e := e.(type) {
	case *check.VarRef:
		vi := g.vars[e.Var]
		if vi == nil {
			g.fail(e.Pos, "variable %s is not available here", e.Var.Name)
		}
		if vi.heap != nil {
			return g.heapResRef(e.Var, vi)
		}
		return &resRef{ptr: vi.id, sc: vi.sc, t: vi.t, root: vi, mem: e.Var.Memory, nonUniform: e.Var.NonUniform}
	case *check.Field:
		return g.heapResField(g.resourceRef(e.X), e)
	case *check.Index:
		base := g.resourceRef(e.X)
		idx := g.rvalue(e.Index)
		r := *base
		r.t = e.T
		if base.heap != nil {
			r.heap = base.heap.step(idx)
		} else {
			r.ptr = g.b.EmitResult(spirv.OpAccessChain, g.b.TypePointer(base.sc, g.refType(&r)), base.ptr, idx)
		}
		if g.nonUniform(e.Index) {
			r.nonUniform = true
			g.nonUniformIndexCaps(e.T)
		} else if _, ok := e.Index.(*check.Const); !ok {
			g.dynamicIndexCaps(e.T)
		}
		if r.nonUniform && r.heap == nil {
			g.decorateNonUniform(r.ptr)
		}
		return &r
	case *check.BuiltinCall:
		if e.Fn == check.BNonuniformEXT {
			r := g.resourceRef(e.Args[0])
			r.nonUniform = true
			return r
		}
	}
	g.fail(e.Position(), "this %s expression is not supported by the code generator", e.Type())
	return nil
}

// resourceValue loads a resource, or combines a texture and a sampler for
// a sampler constructor. ref is the address it was loaded from; for a
// constructed sampler, the texture's, without its qualifiers.
func (g *gen) resourceValue(e check.Expr) (uint32, *resRef) {
	if c, ok := e.(*check.Construct); ok {
		tex, tr := g.resourceValue(c.Args[0])
		smp, _ := g.resourceValue(c.Args[1])
		ref := &resRef{t: c.T, root: tr.root}
		if c.T.Image.Dim == "Buffer" && g.ver >= 0x10600 {
			return tex, ref
		}
		img := g.imageType(tr.t, tr.root.format, tr.root.depth)
		return g.b.EmitResult(spirv.OpSampledImage, g.b.Type(spirv.OpTypeSampledImage, img), tex, smp), ref
	}
	r := g.resourceRef(e)
	ptr := r.ptr
	if r.heap != nil {
		ptr = g.heapPointer(r.heap, r.t)
	}
	v := g.b.EmitResult(spirv.OpLoad, g.refType(r), ptr)
	if r.nonUniform {
		g.decorateNonUniform(v)
	}
	return v, r
}

// decorateNonUniform marks a value or pointer as not dynamically uniform.
// As in glslang, a shader that enables GL_EXT_descriptor_heap gets the
// capability but no decorations.
func (g *gen) decorateNonUniform(id uint32) {
	g.b.Capability(spirv.CapabilityShaderNonUniform)
	if g.ver < 0x10500 {
		g.b.Extension("SPV_EXT_descriptor_indexing")
	}
	if g.p.HasExtension("GL_EXT_descriptor_heap") {
		return
	}
	g.b.Decorate(id, spirv.DecorationNonUniform)
}

// nonUniformIndexCaps declares what indexing an array of resources of
// type t with a non-uniform index needs.
func (g *gen) nonUniformIndexCaps(t *check.Type) {
	im := t.Image
	switch {
	case t.Kind == check.KStruct:
		return
	case im == nil:
		return
	case im.Kind == 'i' && im.Dim == "Buffer":
		g.b.Capability(spirv.CapabilityStorageTexelBufferArrayNonUniformIndexing)
	case im.Dim == "Buffer":
		g.b.Capability(spirv.CapabilityUniformTexelBufferArrayNonUniformIndexing)
	case im.Kind == 'i':
		g.b.Capability(spirv.CapabilityStorageImageArrayNonUniformIndexing)
	default:
		g.b.Capability(spirv.CapabilitySampledImageArrayNonUniformIndexing)
	}
}

// dynamicIndexCaps declares what indexing an array of texel buffers with
// a dynamically uniform index needs (other arrays need only Shader).
func (g *gen) dynamicIndexCaps(t *check.Type) {
	if im := t.Image; im != nil && im.Dim == "Buffer" {
		g.b.Capability(pick(im.Kind == 'i', spirv.CapabilityStorageTexelBufferArrayDynamicIndexing, spirv.CapabilityUniformTexelBufferArrayDynamicIndexing))
		if g.ver < 0x10500 {
			g.b.Extension("SPV_EXT_descriptor_indexing")
		}
	}
}

// nonUniform reports whether e's value is marked non-uniform: by
// nonuniformEXT, a nonuniformEXT variable, or an operation on such values
// (the operators, selections and indexing of GL_EXT_nonuniform_qualifier).
func (g *gen) nonUniform(e check.Expr) bool {
	switch e := e.(type) {
	case *check.BuiltinCall:
		return e.Fn == check.BNonuniformEXT
	case *check.VarRef:
		return e.Var.NonUniform
	case *check.Unary:
		return g.nonUniform(e.X)
	case *check.Binary:
		return g.nonUniform(e.X) || g.nonUniform(e.Y)
	case *check.Convert:
		return g.nonUniform(e.X)
	case *check.Swizzle:
		return g.nonUniform(e.X)
	case *check.Field:
		return g.nonUniform(e.X)
	case *check.Index:
		return g.nonUniform(e.X) || g.nonUniform(e.Index)
	case *check.Construct:
		for _, a := range e.Args {
			if g.nonUniform(a) {
				return true
			}
		}
	}
	return false
}

// nonuniformValue lowers nonuniformEXT(x) on a value: a copy decorated
// NonUniform, as glslang emits it.
func (g *gen) nonuniformValue(e *check.BuiltinCall) uint32 {
	if opaqueOf(e.T) != nil {
		v, _ := g.resourceValue(e)
		return v
	}
	v := g.b.EmitResult(spirv.OpCopyObject, g.typeID(e.T, check.PackNone), g.rvalue(e.Args[0]))
	g.decorateNonUniform(v)
	return v
}

// resourceArg is the pointer a resource argument of a user function
// passes: the UniformConstant variable or array element itself.
func (g *gen) resourceArg(a check.Expr) uint32 {
	r := g.resourceRef(a)
	if r.heap != nil {
		// glslang passes the untyped heap pointer, which no parameter type fits.
		g.fail(a.Position(), "a sampler, texture or image in a descriptor heap cannot be passed to a function")
	}
	if r.sc != spirv.StorageClassUniformConstant {
		g.fail(a.Position(), "a tile attachment cannot be passed to a function")
	}
	return r.ptr
}
