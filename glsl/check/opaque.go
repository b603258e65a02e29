package check

import "strings"

// Image describes a sampler, texture or image type (Type.Kind KOpaque with
// Image set). Scalar on the Type is the sampled component type.
type Image struct {
	Dim     string // "1D", "2D", "3D", "Cube", "Buffer", "Rect"
	Arrayed bool
	MS      bool
	Shadow  bool
	// Kind: 's' combined sampler (sampler2D), 't' separate texture
	// (texture2D), 'i' storage image (image2D).
	Kind byte
}

// coords is the number of coordinate components an access takes.
func (im *Image) coords() int {
	n := map[string]int{"1D": 1, "2D": 2, "3D": 3, "Cube": 3, "Buffer": 1, "Rect": 2}[im.Dim]
	if im.Arrayed {
		n++
	}
	return n
}

// opaqueNames maps opaque type keywords (samplers, textures, images,
// acceleration structures, ray queries) to their types.
var opaqueNames = map[string]*Type{}

func init() {
	dims := []string{"1D", "2D", "3D", "Cube", "Buffer", "2DRect", "1DArray", "2DArray", "CubeArray", "2DMS", "2DMSArray"}
	for _, pre := range []struct {
		p string
		s Scalar
	}{{"", Float32}, {"i", Int32}, {"u", Uint32}} {
		for _, d := range dims {
			im := Image{Dim: strings.TrimSuffix(strings.TrimSuffix(d, "Array"), "MS")}
			if strings.HasSuffix(d, "Array") {
				im.Arrayed = true
			}
			if strings.Contains(d, "MS") {
				im.MS = true
				im.Dim = "2D"
			}
			if im.Dim == "2DRect" {
				im.Dim = "Rect"
			}
			for _, k := range []struct {
				kw   string
				kind byte
			}{{"sampler", 's'}, {"texture", 't'}, {"image", 'i'}} {
				name := pre.p + k.kw + d
				x := im
				x.Kind = k.kind
				opaqueNames[name] = &Type{Kind: KOpaque, Name: name, Scalar: pre.s, Image: &x}
			}
		}
	}
	for _, d := range []string{"1D", "2D", "Cube", "1DArray", "2DArray", "CubeArray"} {
		name := "sampler" + d + "Shadow"
		im := *opaqueNames["sampler"+d].Image
		im.Shadow = true
		opaqueNames[name] = &Type{Kind: KOpaque, Name: name, Scalar: Float32, Image: &im}
	}
	for _, n := range []string{"sampler", "samplerShadow", "accelerationStructureEXT", "rayQueryEXT", "atomic_uint"} {
		opaqueNames[n] = &Type{Kind: KOpaque, Name: n}
	}
}

// opaqueExt gives the extension an opaque keyword needs, if any.
func opaqueExt(name string) string {
	switch name {
	case "accelerationStructureEXT":
		return "GL_EXT_ray_query"
	case "rayQueryEXT":
		return "GL_EXT_ray_query"
	}
	return ""
}

// imageCall checks the image built-ins: imageLoad, imageStore, imageSize,
// imageSamples and imageAtomic*.
func (c *checker) imageCall(fn Builtin, name string, args []Expr, pos Pos) Expr {
	noMatch := func() Expr {
		c.errorf(pos, name, " no matching overloaded function found")
		return bad(pos)
	}
	if len(args) == 0 {
		return noMatch()
	}
	it := args[0].Type()
	if it.Kind != KOpaque || it.Image == nil || it.Image.Kind != 'i' {
		return noMatch()
	}
	im := it.Image
	coordT := VectorType(Int32, im.coords())
	texel := VectorType(it.Scalar, 4)
	rest := args[1:]
	want := []*Type{}
	var rt *Type
	switch fn {
	case BImageSize:
		n := im.coords()
		if im.Dim == "Cube" {
			n = 2
			if im.Arrayed {
				n = 3
			}
		}
		rt = VectorType(Int32, n)
	case BImageSamples:
		rt = TInt
	case BImageLoad:
		want = []*Type{coordT}
		rt = texel
	case BImageStore:
		want = []*Type{coordT, texel}
		rt = TVoid
	default: // atomics
		want = []*Type{coordT}
		rt = ScalarType(it.Scalar)
		if im.MS {
			want = append(want, TInt)
		}
		switch fn {
		case BImageAtomicLoad:
			want = append(want, TInt, TInt, TInt)
		case BImageAtomicStore:
			want = append(want, rt, TInt, TInt, TInt)
			rt = TVoid
		case BImageAtomicCompSwap:
			want = append(want, rt, rt)
		default:
			want = append(want, rt)
		}
		// The data operand type follows the image's component type,
		// including 64-bit images (r64i/r64ui).
		if len(rest) > len(want) && len(rest) == len(want)+3 {
			want = append(want, TInt, TInt, TInt)
		}
	}
	if im.MS && (fn == BImageLoad || fn == BImageStore) {
		want = append([]*Type{coordT, TInt}, want[1:]...)
	}
	if len(rest) != len(want) {
		return noMatch()
	}
	conv := []Expr{args[0]}
	for i, a := range rest {
		at := a.Type()
		wt := want[i]
		if c.implicitRank(at, wt) == rankNone {
			// 64-bit atomic images take int64/uint64 data.
			if at.Kind == KScalar && wt.Kind == KScalar && at.Scalar.IsInt() && wt.Scalar.IsInt() && fn != BImageLoad {
				conv = append(conv, a)
				continue
			}
			return noMatch()
		}
		conv = append(conv, c.convert(a, wt))
	}
	return c.builtinResult(fn, rt, conv, pos)
}

// textureCall checks the sampling built-ins used from compute shaders:
// texture, textureLod, textureQueryLod, texelFetch and textureSize.
func (c *checker) textureCall(fn Builtin, name string, args []Expr, pos Pos) Expr {
	noMatch := func() Expr {
		c.errorf(pos, name, " no matching overloaded function found")
		return bad(pos)
	}
	if len(args) == 0 {
		return noMatch()
	}
	st := args[0].Type()
	if st.Kind != KOpaque || st.Image == nil || st.Image.Kind != 's' {
		return noMatch()
	}
	im := st.Image
	n := im.coords()
	if im.Shadow {
		n++
	}
	texel := VectorType(st.Scalar, 4)
	if im.Shadow {
		texel = TFloat
	}
	var want []*Type
	var rt *Type
	switch fn {
	case BTexture:
		want, rt = []*Type{VectorType(Float32, n), TFloat}, texel
		if len(args) == 2 {
			want = want[:1]
		}
	case BTextureLod:
		want, rt = []*Type{VectorType(Float32, n), TFloat}, texel
	case BTextureQueryLod:
		want, rt = []*Type{VectorType(Float32, im.coords()-b2i(im.Arrayed))}, VectorType(Float32, 2)
	case BTexelFetch:
		want, rt = []*Type{VectorType(Int32, im.coords()), TInt}, texel
		if im.Dim == "Buffer" || im.MS {
			want = want[:1]
			if im.MS {
				want = append(want, TInt)
			}
		}
	case BTextureSize:
		want, rt = []*Type{TInt}, VectorType(Int32, im.coords())
		if im.Dim == "Buffer" || im.MS {
			want = nil
		}
	}
	if len(args)-1 != len(want) {
		return noMatch()
	}
	conv := []Expr{args[0]}
	for i, a := range args[1:] {
		if c.implicitRank(a.Type(), want[i]) == rankNone {
			return noMatch()
		}
		conv = append(conv, c.convert(a, want[i]))
	}
	return c.builtinResult(fn, rt, conv, pos)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
