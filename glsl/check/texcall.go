package check

import "strings"

// texForm is the shape of a texture lookup built-in, read from its name.
type texForm struct {
	proj, lod, grad, offset, offsets, fetch, gather bool
	bias                                            bool // takes an optional bias
	sparse                                          bool // returns residency, the texel through an out argument
	clamp                                           bool // takes a level-of-detail clamp
}

var texForms map[Builtin]texForm // filled by loadTables

// defineTexForms fills texForms.
func defineTexForms() {
	texForms = map[Builtin]texForm{
		BTexture:               {bias: true},
		BTextureProj:           {proj: true, bias: true},
		BTextureLod:            {lod: true},
		BTextureOffset:         {offset: true, bias: true},
		BTextureProjOffset:     {proj: true, offset: true, bias: true},
		BTextureLodOffset:      {lod: true, offset: true},
		BTextureProjLod:        {proj: true, lod: true},
		BTextureProjLodOffset:  {proj: true, lod: true, offset: true},
		BTextureGrad:           {grad: true},
		BTextureGradOffset:     {grad: true, offset: true},
		BTextureProjGrad:       {proj: true, grad: true},
		BTextureProjGradOffset: {proj: true, grad: true, offset: true},
		BTexelFetch:            {fetch: true},
		BTexelFetchOffset:      {fetch: true, offset: true},
		BTextureGather:         {gather: true},
		BTextureGatherOffset:   {gather: true, offset: true},
		BTextureGatherOffsets:  {gather: true, offsets: true},

		BSparseTextureARB:              {sparse: true, bias: true},
		BSparseTextureLodARB:           {sparse: true, lod: true},
		BSparseTextureOffsetARB:        {sparse: true, offset: true, bias: true},
		BSparseTexelFetchARB:           {sparse: true, fetch: true},
		BSparseTexelFetchOffsetARB:     {sparse: true, fetch: true, offset: true},
		BSparseTextureLodOffsetARB:     {sparse: true, lod: true, offset: true},
		BSparseTextureGradARB:          {sparse: true, grad: true},
		BSparseTextureGradOffsetARB:    {sparse: true, grad: true, offset: true},
		BSparseTextureGatherARB:        {sparse: true, gather: true},
		BSparseTextureGatherOffsetARB:  {sparse: true, gather: true, offset: true},
		BSparseTextureGatherOffsetsARB: {sparse: true, gather: true, offsets: true},

		BSparseTextureClampARB:           {sparse: true, clamp: true, bias: true},
		BSparseTextureOffsetClampARB:     {sparse: true, offset: true, clamp: true, bias: true},
		BSparseTextureGradClampARB:       {sparse: true, grad: true, clamp: true},
		BSparseTextureGradOffsetClampARB: {sparse: true, grad: true, offset: true, clamp: true},
		BTextureClampARB:                 {clamp: true, bias: true},
		BTextureOffsetClampARB:           {offset: true, clamp: true, bias: true},
		BTextureGradClampARB:             {grad: true, clamp: true},
		BTextureGradOffsetClampARB:       {grad: true, offset: true, clamp: true},
	}
}

// ext is the extension a form needs.
func (f texForm) ext() string {
	switch {
	case f.clamp:
		return "GL_ARB_sparse_texture_clamp"
	case f.sparse:
		return "GL_ARB_sparse_texture2"
	}
	return ""
}

// texSig is one signature of a texture built-in after its first argument.
type texSig struct {
	params []*Type
	roles  []TexRole
}

func (s texSig) with(t *Type, r TexRole) texSig {
	return texSig{append(append([]*Type(nil), s.params...), t), append(append([]TexRole(nil), s.roles...), r)}
}

// texSignatures lists the signatures of a lookup of form f on sampler
// type st, as glslang declares them (none when the combination does not
// exist), and the result type. shadowLod adds the explicit levels of
// detail and biases of array and cube shadow samplers
// (GL_EXT_texture_shadow_lod).
func texSignatures(f texForm, st *Type, shadowLod bool) ([]texSig, *Type) {
	im := st.Image
	texel := VectorType(st.Scalar, 4)
	d := im.Dims()
	switch {
	case f.gather:
		if im.Kind != 's' || im.MS || im.Dim != "2D" && im.Dim != "Rect" && im.Dim != "Cube" || (f.offset || f.offsets) && im.Dim == "Cube" {
			return nil, nil
		}
		s := texSig{}.with(VectorType(Float32, im.coords()), TexCoord)
		if im.Shadow {
			s = s.with(TFloat, TexCompare)
			texel = VectorType(Float32, 4)
		}
		if f.offset {
			s = s.with(VectorType(Int32, 2), TexOffset)
		}
		if f.offsets {
			s = s.with(ArrayType(VectorType(Int32, 2), 4), TexOffsets)
		}
		s, texel = f.texelOut(s, texel)
		if im.Shadow {
			return []texSig{s}, texel
		}
		return []texSig{s, s.with(TInt, TexComp)}, texel
	case f.fetch:
		if im.Kind == 'i' || im.Shadow || im.Dim == "Cube" || f.offset && (im.Dim == "Buffer" || im.MS) || f.sparse && (im.Dim == "1D" || im.Dim == "Buffer") {
			return nil, nil
		}
		s := texSig{}.with(VectorType(Int32, im.coords()), TexCoord)
		switch {
		case im.MS:
			s = s.with(TInt, TexSample)
		case im.Dim != "Buffer" && im.Dim != "Rect":
			s = s.with(TInt, TexLod)
		}
		if f.offset {
			s = s.with(VectorType(Int32, d), TexOffset)
		}
		s, texel = f.texelOut(s, texel)
		return []texSig{s}, texel
	}
	if im.Kind != 's' || im.MS || im.Dim == "Buffer" {
		return nil, nil
	}
	if f.proj && (im.Dim == "Cube" || im.Arrayed) || f.offset && im.Dim == "Cube" || f.sparse && im.Dim == "1D" {
		return nil, nil
	}
	if f.lod && (im.Dim == "Rect" || !shadowLod && im.Shadow && (im.Dim == "2D" && im.Arrayed || im.Dim == "Cube")) {
		return nil, nil
	}
	n := im.coords()
	if im.Shadow && n < 2 {
		n = 2 // the unused second component of 1D shadow lookups
	}
	n += b2i(im.Shadow) + b2i(f.proj)
	compare := false
	if n > 4 {
		compare, n = true, 4
	}
	coords := []*Type{VectorType(Float32, n)}
	if f.proj && !im.Shadow && im.Dim != "3D" && n != 4 {
		coords = append(coords, VectorType(Float32, 4))
	}
	if im.Shadow {
		texel = TFloat
	}
	var sigs []texSig
	rt := texel
	for _, p := range coords {
		s := texSig{}.with(p, TexCoord)
		if compare {
			s = s.with(TFloat, TexCompare)
		}
		if f.lod {
			s = s.with(TFloat, TexLod)
		}
		if f.grad {
			s = s.with(VectorType(Float32, d), TexGradX).with(VectorType(Float32, d), TexGradY)
		}
		if f.offset {
			s = s.with(VectorType(Int32, d), TexOffset)
		}
		if f.clamp {
			s = s.with(TFloat, TexMinLod)
		}
		s, rt = f.texelOut(s, texel)
		sigs = append(sigs, s)
		if f.bias && im.Dim != "Rect" && (shadowLod || !(im.Shadow && im.Arrayed && (im.Dim == "2D" || im.Dim == "Cube"))) {
			sigs = append(sigs, s.with(TFloat, TexBias))
		}
	}
	return sigs, rt
}

// texelOut adds the out argument of a sparse lookup, which then returns
// its residency code.
func (f texForm) texelOut(s texSig, texel *Type) (texSig, *Type) {
	if !f.sparse {
		return s, texel
	}
	return s.with(texel, TexTexel), TInt
}

// textureCall checks the texture built-ins: the lookups (texture,
// textureProj, ...Lod, ...Offset, ...Grad, texelFetch, textureGather and
// their combinations) and the queries (textureSize, textureQueryLod,
// textureQueryLevels, textureSamples).
func (c *checker) textureCall(fn Builtin, name string, args []Expr, pos Pos) Expr {
	noMatch := func() Expr {
		c.errorf(pos, name, " no matching overloaded function found")
		return bad(pos)
	}
	if len(args) == 0 {
		return noMatch()
	}
	st := args[0].Type()
	if st.Kind != KOpaque || st.Image == nil || st.Image.Kind == 'i' {
		return noMatch()
	}
	im := st.Image
	if im.Kind == 't' && !c.requireExt(pos, name, "GL_EXT_samplerless_texture_functions") {
		return bad(pos)
	}
	f, lookup := texForms[fn]
	if ext := f.ext(); ext != "" && !c.requireExt(pos, name, ext) {
		return bad(pos)
	}
	var sigs []texSig
	var rt *Type
	if lookup {
		sigs, rt = texSignatures(f, st, c.extOn("GL_EXT_texture_shadow_lod"))
	} else {
		sigs, rt = texQuery(fn, im)
	}
	for _, s := range sigs {
		if len(s.params) != len(args)-1 {
			continue
		}
		conv, ok := c.texArgs(args, s)
		if !ok {
			continue
		}
		if lookup && f.sparse && !c.checkLValue(conv[len(s.roles)-texelFromEnd(s.roles)], name, pos) {
			return bad(pos)
		}
		if lookup && !c.texConstants(name, conv, s.roles) {
			return bad(pos)
		}
		call := c.builtinResult(fn, rt, conv, pos).(*BuiltinCall)
		if lookup {
			call.Roles = append([]TexRole{TexSampler}, s.roles...)
		}
		return call
	}
	return noMatch()
}

// texQuery gives the signature of a texture query on im.
func texQuery(fn Builtin, im *Image) ([]texSig, *Type) {
	lodless := im.Dim == "Rect" || im.Dim == "Buffer" || im.MS
	switch fn {
	case BTextureSize:
		s := texSig{}
		if !lodless {
			s = s.with(TInt, TexLod)
		}
		return []texSig{s}, VectorType(Int32, im.sizeComps())
	case BTextureQueryLod:
		if im.Kind != 's' || lodless {
			return nil, nil
		}
		return []texSig{texSig{}.with(VectorType(Float32, im.Dims()), TexCoord)}, VectorType(Float32, 2)
	case BTextureQueryLevels:
		if lodless {
			return nil, nil
		}
		return []texSig{{}}, TInt
	case BTextureSamples:
		if !im.MS {
			return nil, nil
		}
		return []texSig{{}}, TInt
	}
	return nil, nil
}

// texArgs converts the arguments after the sampler to the signature's
// parameters; a sparse lookup's texel out argument must have its type
// exactly.
func (c *checker) texArgs(args []Expr, s texSig) ([]Expr, bool) {
	conv := []Expr{args[0]}
	for i, a := range args[1:] {
		p := s.params[i]
		if s.roles[i] == TexTexel {
			if !Identical(a.Type(), p) {
				return nil, false
			}
			conv = append(conv, a)
			continue
		}
		if c.implicitRank(a.Type(), p) == rankNone {
			return nil, false
		}
		conv = append(conv, c.convert(a, p))
	}
	return conv, true
}

// texelFromEnd is how far from the end of roles the texel out argument
// is (bias and a gather's component follow it).
func texelFromEnd(roles []TexRole) int {
	for i := len(roles) - 1; i >= 0; i-- {
		if roles[i] == TexTexel {
			return len(roles) - 1 - i
		}
	}
	return 0
}

// texConstants checks the arguments that must be constant: texel offsets
// (within glslang's default limits) except textureGatherOffset's, and a
// gather's component.
func (c *checker) texConstants(name string, args []Expr, roles []TexRole) bool {
	gather := strings.Contains(name, "Gather")
	for i, r := range roles {
		a := args[i+1]
		v := constOf(a)
		switch r {
		case TexOffset:
			if gather {
				continue
			}
			if v == nil {
				c.errorf(a.Position(), "texel offset", "argument must be compile-time constant")
				return false
			}
			if !offsetsIn(v, -8, 7) {
				c.errorf(a.Position(), "texel offset", "value is out of range: [gl_MinProgramTexelOffset, gl_MaxProgramTexelOffset]")
				return false
			}
		case TexOffsets:
			if v == nil {
				c.errorf(a.Position(), name+"(...)", "must be a compile-time constant: offsets argument")
				return false
			}
			if !offsetsIn(v, -32, 31) {
				c.errorf(a.Position(), name+"(...)", "value is out of range: offsets argument")
				return false
			}
		case TexComp:
			if v == nil {
				c.errorf(a.Position(), name+"(...)", "must be a compile-time constant: component argument")
				return false
			}
			if k := v.Int(); k < 0 || k > 3 {
				c.errorf(a.Position(), name+"(...)", "must be 0, 1, 2, or 3: component argument")
				return false
			}
		}
	}
	return true
}

// offsetsIn reports whether every integer component of v lies in [lo, hi].
func offsetsIn(v *Value, lo, hi int64) bool {
	if v.Elems != nil {
		for _, e := range v.Elems {
			if !offsetsIn(e, lo, hi) {
				return false
			}
		}
		return true
	}
	return v.Int() >= lo && v.Int() <= hi
}
