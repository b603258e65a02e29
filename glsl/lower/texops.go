package lower

import (
	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/internal/lazy"
	"github.com/coopshader/coop/spirv"
)

// texQueries maps the texture queries to their instructions.
var texQueries = lazy.Value[map[check.Builtin]spirv.Op]{F: func() map[check.Builtin]spirv.Op {
	return map[check.Builtin]spirv.Op{
		check.BTextureSize: spirv.OpImageQuerySizeLod, check.BTextureQueryLevels: spirv.OpImageQueryLevels,
		check.BTextureSamples: spirv.OpImageQuerySamples, check.BTextureQueryLod: spirv.OpImageQueryLod,
	}
}}

// textureBuiltin lowers the texture built-ins; ok is false for other
// built-ins.
func (g *gen) textureBuiltin(e *check.BuiltinCall, tid uint32) (uint32, bool) {
	if op, ok := texQueries.Get()[e.Fn]; ok {
		return g.textureQuery(e, op, tid), true
	}
	if e.Roles == nil {
		return 0, false
	}
	return g.textureLookup(e, tid), true
}

// imageOf is the image under a sampled image (OpImage), which fetches and
// queries read; textures and storage images are their images already.
func (g *gen) imageOf(v uint32, t *check.Type, r *resRef) uint32 {
	if t.Image.Kind != 's' || t.Image.Dim == "Buffer" && g.ver >= 0x10600 {
		return v
	}
	img := g.b.EmitResult(spirv.OpImage, g.imageType(t, r.root.format, r.root.depth), v)
	if r.nonUniform {
		g.decorateNonUniform(img)
	}
	return img
}

// textureQuery lowers textureSize, textureQueryLevels, textureSamples and
// textureQueryLod.
func (g *gen) textureQuery(e *check.BuiltinCall, op spirv.Op, tid uint32) uint32 {
	st := e.Args[0].Type()
	v, r := g.resourceValue(e.Args[0])
	g.b.Capability(spirv.CapabilityImageQuery)
	if op == spirv.OpImageQueryLod {
		g.needDerivatives(e, "textureQueryLod")
		return g.b.EmitResult(op, tid, v, g.rvalue(e.Args[1]))
	}
	img := g.imageOf(v, st, r)
	if op == spirv.OpImageQuerySizeLod && len(e.Args) == 1 {
		op = spirv.OpImageQuerySize
	}
	words := []uint32{img}
	for _, a := range e.Args[1:] {
		words = append(words, g.rvalue(a))
	}
	return g.b.EmitResult(op, tid, words...)
}

// needDerivatives reports a use of implicit derivatives (a bias or a level
// of detail query) in a compute shader without a derivative group.
func (g *gen) needDerivatives(e *check.BuiltinCall, what string) {
	if g.p.DerivativeGroup == "" {
		g.fail(e.Pos, "%s needs implicit derivatives: declare layout(derivative_group_quadsKHR) in; or derivative_group_linearKHR (GL_KHR_compute_shader_derivatives)", what)
	}
}

// textureLookup lowers the sampling, fetch and gather built-ins as glslang
// does: shadow references are read from P (or taken from their own
// argument), projective coordinates get q moved to where SPIR-V reads it,
// and lookups without a level of detail sample level 0 unless the shader
// declares compute derivatives.
func (g *gen) textureLookup(e *check.BuiltinCall, tid uint32) uint32 {
	st := e.Args[0].Type()
	im := st.Image
	sampled, r := g.resourceValue(e.Args[0])
	arg := map[check.TexRole]uint32{}
	argType := map[check.TexRole]*check.Type{}
	var texelOut check.Expr
	for i, role := range e.Roles[1:] {
		if role == check.TexTexel {
			texelOut = e.Args[i+1]
			continue
		}
		arg[role] = g.rvalue(e.Args[i+1])
		argType[role] = e.Args[i+1].Type()
	}
	f := texFormOf(e.Fn)
	coord := arg[check.TexCoord]
	ct := argType[check.TexCoord]
	float := g.scalarType(check.Float32)
	dref, hasDref := arg[check.TexCompare]
	if im.Shadow && !hasDref && !f.gather {
		// The reference is the third component of a projective P, the
		// last of any other.
		comp := ct.N - 1
		if f.proj {
			comp = 2
		}
		dref, hasDref = g.b.EmitResult(spirv.OpCompositeExtract, float, coord, uint32(comp)), true
	}
	if f.proj {
		// SPIR-V divides by the component after the used ones.
		to := im.Dims()
		if from := ct.N - 1; from != to {
			q := g.b.EmitResult(spirv.OpCompositeExtract, float, coord, uint32(from))
			coord = g.b.EmitResult(spirv.OpCompositeInsert, g.typeID(ct, check.PackNone), q, coord, uint32(to))
		}
	}
	var mask uint32
	var operands []uint32
	add := func(bit spirv.ImageOperands, ids ...uint32) {
		mask |= uint32(bit)
		operands = append(operands, ids...)
	}
	if b, ok := arg[check.TexBias]; ok {
		g.needDerivatives(e, "a texture lookup with a bias")
		add(spirv.ImageOperandsBias, b)
	}
	explicit := false
	switch lod, hasLod := arg[check.TexLod]; {
	case hasLod:
		add(spirv.ImageOperandsLod, lod)
		explicit = true
	case f.grad:
		add(spirv.ImageOperandsGrad, arg[check.TexGradX], arg[check.TexGradY])
		explicit = true
	case !f.fetch && !f.gather && g.p.DerivativeGroup == "":
		add(spirv.ImageOperandsLod, g.b.ConstFloat32(float, 0))
		explicit = true
	}
	if off, ok := arg[check.TexOffset]; ok {
		if g.isConst(off) {
			add(spirv.ImageOperandsConstOffset, off)
		} else {
			g.b.Capability(spirv.CapabilityImageGatherExtended)
			add(spirv.ImageOperandsOffset, off)
		}
	}
	if offs, ok := arg[check.TexOffsets]; ok {
		g.b.Capability(spirv.CapabilityImageGatherExtended)
		add(spirv.ImageOperandsConstOffsets, offs)
	}
	if smp, ok := arg[check.TexSample]; ok {
		add(spirv.ImageOperandsSample, smp)
	}
	if clamp, ok := arg[check.TexMinLod]; ok {
		// A level-of-detail clamp applies to implicit or gradient lookups.
		if !f.grad {
			g.needDerivatives(e, "a level-of-detail clamp without gradients")
		}
		g.b.Capability(spirv.CapabilityMinLod)
		add(spirv.ImageOperandsMinLod, clamp)
	}
	if g.vmm {
		if r.mem&check.NonPrivate != 0 {
			add(spirv.ImageOperandsNonPrivateTexel)
		}
		if r.mem&check.Volatile != 0 {
			add(spirv.ImageOperandsVolatileTexel)
		}
	}
	mask |= g.extendMask(st.Scalar)
	words := []uint32{sampled, coord}
	var op spirv.Op
	switch {
	case f.fetch:
		op = spirv.OpImageFetch
		words[0] = g.imageOf(sampled, st, r)
	case f.gather && hasDref:
		op = spirv.OpImageDrefGather
		words = append(words, dref)
	case f.gather:
		op = spirv.OpImageGather
		comp, ok := arg[check.TexComp]
		if !ok {
			comp = g.i32(0)
		}
		words = append(words, comp)
	default:
		op = sampleOps.Get()[sampleKind{hasDref, f.proj, explicit}]
		if hasDref {
			words = append(words, dref)
		}
	}
	if mask != 0 {
		words = append(words, mask)
		words = append(words, operands...)
	}
	texelT := e.T
	if texelOut != nil {
		texelT = texelOut.Type()
	}
	rt := g.typeID(texelT, check.PackNone)
	if hasDref && !f.gather {
		rt = float
	}
	if texelOut == nil {
		return g.b.EmitResult(op, rt, words...)
	}
	return g.sparseResult(sparseOps.Get()[op], tid, rt, words, texelOut)
}

// sparseOps maps the lookups to their sparse-residency forms.
var sparseOps = lazy.Value[map[spirv.Op]spirv.Op]{F: func() map[spirv.Op]spirv.Op {
	return map[spirv.Op]spirv.Op{
		spirv.OpImageSampleImplicitLod: spirv.OpImageSparseSampleImplicitLod, spirv.OpImageSampleExplicitLod: spirv.OpImageSparseSampleExplicitLod,
		spirv.OpImageSampleDrefImplicitLod: spirv.OpImageSparseSampleDrefImplicitLod, spirv.OpImageSampleDrefExplicitLod: spirv.OpImageSparseSampleDrefExplicitLod,
		spirv.OpImageFetch: spirv.OpImageSparseFetch, spirv.OpImageGather: spirv.OpImageSparseGather,
		spirv.OpImageDrefGather: spirv.OpImageSparseDrefGather, spirv.OpImageRead: spirv.OpImageSparseRead,
	}
}}

// sparseResult emits a sparse-residency instruction, whose result is a
// struct of the residency code and the texel: the texel goes to the out
// argument, the code is the value.
func (g *gen) sparseResult(op spirv.Op, codeT, texelT uint32, words []uint32, out check.Expr) uint32 {
	g.b.Capability(spirv.CapabilitySparseResidency)
	st := g.b.Type(spirv.OpTypeStruct, codeT, texelT)
	r := g.b.EmitResult(op, st, words...)
	texel := g.b.EmitResult(spirv.OpCompositeExtract, texelT, r, 1)
	g.store(nil, g.lvalue(out), texel, out.Type())
	return g.b.EmitResult(spirv.OpCompositeExtract, codeT, r, 0)
}

type sampleKind struct{ dref, proj, explicit bool }

// sampleOps picks the sampling instruction.
var sampleOps = lazy.Value[map[sampleKind]spirv.Op]{F: func() map[sampleKind]spirv.Op {
	return map[sampleKind]spirv.Op{
		{false, false, false}: spirv.OpImageSampleImplicitLod, {false, false, true}: spirv.OpImageSampleExplicitLod,
		{false, true, false}: spirv.OpImageSampleProjImplicitLod, {false, true, true}: spirv.OpImageSampleProjExplicitLod,
		{true, false, false}: spirv.OpImageSampleDrefImplicitLod, {true, false, true}: spirv.OpImageSampleDrefExplicitLod,
		{true, true, false}: spirv.OpImageSampleProjDrefImplicitLod, {true, true, true}: spirv.OpImageSampleProjDrefExplicitLod,
	}
}}

// lookupForm is what the name of a texture lookup says about its
// operands.
type lookupForm struct{ proj, grad, fetch, gather bool }

func texFormOf(fn check.Builtin) lookupForm {
	switch fn {
	case check.BTextureProj, check.BTextureProjOffset, check.BTextureProjLod, check.BTextureProjLodOffset:
		return lookupForm{proj: true}
	case check.BTextureGrad, check.BTextureGradOffset:
		return lookupForm{grad: true}
	case check.BTextureProjGrad, check.BTextureProjGradOffset:
		return lookupForm{proj: true, grad: true}
	case check.BTexelFetch, check.BTexelFetchOffset:
		return lookupForm{fetch: true}
	case check.BTextureGather, check.BTextureGatherOffset, check.BTextureGatherOffsets,
		check.BSparseTextureGatherARB, check.BSparseTextureGatherOffsetARB, check.BSparseTextureGatherOffsetsARB:
		return lookupForm{gather: true}
	case check.BSparseTexelFetchARB, check.BSparseTexelFetchOffsetARB:
		return lookupForm{fetch: true}
	case check.BSparseTextureGradARB, check.BSparseTextureGradOffsetARB, check.BSparseTextureGradClampARB,
		check.BSparseTextureGradOffsetClampARB, check.BTextureGradClampARB, check.BTextureGradOffsetClampARB:
		return lookupForm{grad: true}
	}
	return lookupForm{}
}
