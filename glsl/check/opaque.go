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

// Dims is the number of coordinates that address one layer: 1 for 1D and
// buffers, 2 for 2D and rectangles, 3 for 3D and cube maps.
func (im *Image) Dims() int {
	switch im.Dim {
	case "2D", "Rect":
		return 2
	case "3D", "Cube":
		return 3
	}
	return 1
}

// coords is the number of components of a sampling coordinate: the
// dimensions plus the array layer.
func (im *Image) coords() int { return im.Dims() + b2i(im.Arrayed) }

// imageCoords is the number of components of an image (and texel fetch)
// coordinate: cube maps address their faces as layers, so a cube array
// takes three coordinates like a cube.
func (im *Image) imageCoords() int {
	if im.Dim == "Cube" {
		return 3
	}
	return im.coords()
}

// sizeComps is the number of components textureSize and imageSize return:
// a cube face is two-dimensional.
func (im *Image) sizeComps() int {
	if im.Dim == "Cube" {
		return 2 + b2i(im.Arrayed)
	}
	return im.coords()
}

// IsSampler reports the types sampler and samplerShadow.
func (t *Type) IsSampler() bool {
	return t.Kind == KOpaque && (t.Name == "sampler" || t.Name == "samplerShadow")
}

// isResource reports the opaque types that may only be uniforms or
// function parameters: samplers, textures and images.
func (t *Type) isResource() bool { return t.Kind == KOpaque && (t.Image != nil || t.IsSampler()) }

// baseOfArrays is t without its array dimensions.
func baseOfArrays(t *Type) *Type {
	for t.Kind == KArray {
		t = t.Elem
	}
	return t
}

// opaqueNames maps opaque type keywords (samplers, textures, images,
// acceleration structures, ray queries) to their types.
var opaqueNames map[string]*Type // made by loadTables

// int64Images lists the 64-bit integer image keywords
// (GL_EXT_shader_image_int64).
var int64Images map[string]bool // made by loadTables

func defineOpaqueNames() {
	dims := []string{"1D", "2D", "3D", "Cube", "Buffer", "2DRect", "1DArray", "2DArray", "CubeArray", "2DMS", "2DMSArray"}
	kinds := []struct {
		kw   string
		kind byte
	}{{"sampler", 's'}, {"texture", 't'}, {"image", 'i'}}
	for _, pre := range []struct {
		p string
		s Scalar
	}{{"", Float32}, {"i", Int32}, {"u", Uint32}, {"i64", Int64}, {"u64", Uint64}} {
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
			for _, k := range kinds {
				if len(pre.p) == 3 && k.kind != 'i' {
					continue
				}
				name := pre.p + k.kw + d
				x := im
				x.Kind = k.kind
				opaqueNames[name] = &Type{Kind: KOpaque, Name: name, Scalar: pre.s, Image: &x}
				if len(pre.p) == 3 {
					int64Images[name] = true
				}
			}
		}
	}
	for _, d := range []string{"1D", "2D", "Cube", "1DArray", "2DArray", "CubeArray", "2DRect"} {
		name := "sampler" + d + "Shadow"
		im := *opaqueNames["sampler"+d].Image
		im.Shadow = true
		opaqueNames[name] = &Type{Kind: KOpaque, Name: name, Scalar: Float32, Image: &im}
	}
	for _, n := range []string{"sampler", "samplerShadow", "accelerationStructureEXT", "rayQueryEXT", "atomic_uint"} {
		opaqueNames[n] = &Type{Kind: KOpaque, Name: n}
	}
}

// opaqueExt gives the extensions (any one of them) an opaque keyword needs.
func opaqueExt(name string) []string {
	switch {
	case name == "accelerationStructureEXT", name == "rayQueryEXT":
		return []string{"GL_EXT_ray_query"}
	case int64Images[name]:
		return []string{"GL_EXT_shader_image_int64"}
	}
	return nil
}

// formatScalar classifies an image format by the component type it holds:
// 'f' float, 'i' signed and 'u' unsigned integer.
func formatScalar(f string) byte {
	switch {
	case strings.HasSuffix(f, "ui"):
		return 'u'
	case strings.HasSuffix(f, "i"):
		return 'i'
	}
	return 'f'
}

// checkResourceDecl applies the rules of sampler, texture and image
// declarations: where they may live and which formats fit them.
func (c *checker) checkResourceDecl(v *Var, pos Pos) {
	base := baseOfArrays(v.Type)
	if base.Kind == KStruct && !base.Struct.Block && base.Contains((*Type).isResource) {
		// Vulkan forbids opaque members of structs.
		c.errorf(pos, v.Name, "structs holding samplers, textures or images are not supported in Vulkan")
		return
	}
	if !base.isResource() {
		if v.Layout.Format != "" {
			c.errorf(pos, v.Layout.Format, "only apply to images")
		}
		return
	}
	if v.Storage != StorageUniform && v.Storage != StorageParam {
		c.errorf(pos, base.Name, "sampler/image types can only be used in uniform variables or function parameters: %s", v.Name)
		return
	}
	if v.Type.IsUnsizedArray() && v.Storage == StorageUniform && !c.extOn("GL_EXT_nonuniform_qualifier") && !v.Layout.DescriptorHeap {
		// Without descriptor indexing, glslang sizes the array from the
		// largest constant index used (a descriptor heap array stays a
		// runtime array).
		c.implicitArrays[v.Type] = -1
	}
	if c.noVulkanRect(base, pos) {
		return
	}
	c.imageFormatRules(pos, v.Layout.Format, base, v.Memory)
}

// noVulkanRect reports a rectangle texture when targeting Vulkan, which
// allows neither SampledRect nor ImageRect. A rectangle image is kept: its
// integer coordinates address texels as a 2D image's do, and lowering
// declares it as one.
func (c *checker) noVulkanRect(base *Type, pos Pos) bool {
	if im := base.Image; im != nil && im.Dim == "Rect" && im.Kind != 'i' && strings.HasPrefix(c.opts.TargetEnv, "vulkan") {
		c.errorf(pos, base.Name, "rectangle textures are not supported when targeting Vulkan")
		return true
	}
	return false
}

// imageFormatRules checks the format qualifier f (or its absence) of an
// image, texture or sampler of type base with memory qualifiers mem: a
// variable or a descriptor heap member.
func (c *checker) imageFormatRules(pos Pos, f string, base *Type, mem MemoryQual) {
	im := base.Image
	if f != "" {
		if im == nil || im.Kind != 'i' {
			c.errorf(pos, f, "only apply to images")
			return
		}
		switch fs := formatScalar(f); {
		case base.Scalar.IsFloat() && fs != 'f':
			c.errorf(pos, f, "does not apply to floating point images")
		case base.Scalar.IsSigned() && fs != 'i':
			c.errorf(pos, f, "does not apply to signed integer images")
		case base.Scalar.IsUnsigned() && fs != 'u':
			c.errorf(pos, f, "does not apply to unsigned integer images")
		case base.Scalar.Bits() == 64 && !strings.HasPrefix(f, "r64"):
			c.errorf(pos, f, "64-bit integer images need the r64i or r64ui format")
		}
		if c.prog.ES && f != "r32f" && f != "r32i" && f != "r32ui" && mem&(ReadOnly|WriteOnly) == 0 {
			c.errorf(pos, f, "format requires readonly or writeonly memory qualifier")
		}
		return
	}
	if im != nil && im.Kind == 'i' && mem&WriteOnly == 0 {
		const what = "image variables not declared 'writeonly' and without a format layout qualifier"
		switch {
		case c.prog.ES:
			c.errorf(pos, what, "not supported with this profile: es")
		case !c.extOn("GL_EXT_shader_image_load_formatted"):
			c.errorf(pos, what, "not supported for this version or the enabled extensions")
		}
	}
}

// resourceArg checks an argument passed to a user function's sampler,
// texture or image parameter: it must name a resource (a constructed
// sampler only exists at its point of use), may not drop memory
// qualifiers, and must have the parameter's format (none: parameters
// cannot have layout qualifiers).
func (c *checker) resourceArg(a Expr, p *Var, pos Pos) bool {
	if _, ok := a.(*Construct); ok {
		c.errorf(pos, "call argument", "sampler constructor must appear at point of use")
		return false
	}
	q, ok := resourceQuals(a)
	if !ok {
		return true
	}
	const msg = "argument cannot drop memory qualifier when passed to formal parameter"
	am, fm := q.mem, p.Memory
	drops := []struct {
		q     MemoryQual
		name  string
		keeps MemoryQual
	}{
		{Volatile, "volatile", Volatile},
		{Coherent, "coherent", Coherent | DeviceCoherent},
		{DeviceCoherent, "devicecoherent", Coherent | DeviceCoherent},
		{QueueFamilyCoherent, "queuefamilycoherent", Coherent | DeviceCoherent | QueueFamilyCoherent},
		{WorkgroupCoherent, "workgroupcoherent", Coherent | DeviceCoherent | QueueFamilyCoherent | WorkgroupCoherent},
		{SubgroupCoherent, "subgroupcoherent", Coherent | DeviceCoherent | QueueFamilyCoherent | WorkgroupCoherent | SubgroupCoherent},
		{ReadOnly, "readonly", ReadOnly},
		{WriteOnly, "writeonly", WriteOnly},
	}
	for _, d := range drops {
		if am&d.q != 0 && fm&d.keeps == 0 {
			c.errorf(pos, d.name, msg)
			ok = false
		}
	}
	// glslang lets a writeonly parameter without a format take a formatted
	// image, but the pointer types then differ and its module is invalid.
	if q.format != p.Layout.Format {
		c.errorf(pos, "format", "image formats must match")
		ok = false
	}
	return ok
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
