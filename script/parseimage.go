package script

import (
	"strconv"
	"strings"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/internal/lazy"
)

// image parses
//
//	IMAGE <name> FORMAT <format> | DATA_TYPE <type> [MIP_LEVELS n] [SAMPLES n] [LAYERS n]
//	      DIM_1D|DIM_2D|DIM_3D|DIM_CUBE WIDTH w [HEIGHT h] [DEPTH d] [<initializer>]
//
// (LAYERS and DIM_CUBE are extensions). The image's values are its texels
// in memory order: level 0 first, then layer by layer, row by row.
func (p *parser) image(ln int, f []string) error {
	if len(f) < 4 || f[2] != "FORMAT" && f[2] != "DATA_TYPE" {
		return p.expected(ln, "IMAGE <name> FORMAT <format> or IMAGE <name> DATA_TYPE <type>", f[min(len(f), 2):])
	}
	if p.s.Buffer(f[1]) != nil {
		return p.errf(ln, "expected a new buffer name, got %q (already defined)", f[1])
	}
	dt, err := ParseDataType(f[3])
	if err != nil {
		return p.errf(ln, "%v", err)
	}
	format, ok := imageFormat(dt)
	if f[2] == "FORMAT" && dt.Format == backend.FormatUndefined || !ok {
		return p.errf(ln, "expected an image format (a Vulkan format of the SPIR-V image formats, D16_UNORM or D32_SFLOAT), or a type of 1, 2 or 4 components of 8- to 32-bit integers, float16 or float, got %q", f[3])
	}
	desc := backend.ImageDesc{Format: format}
	dim := ""
	rest := f[4:]
	sizes := map[string]*int{"MIP_LEVELS": &desc.Levels, "SAMPLES": &desc.Samples, "LAYERS": &desc.Layers,
		"WIDTH": &desc.Width, "HEIGHT": &desc.Height, "DEPTH": &desc.Depth}
scan:
	for len(rest) > 0 {
		switch k := rest[0]; k {
		case "DIM_1D", "DIM_2D", "DIM_3D", "DIM_CUBE":
			dim, rest = k, rest[1:]
		default:
			v, isSize := sizes[k]
			if !isSize {
				break scan
			}
			n, err := strconv.Atoi(at(rest, 1))
			if err != nil || n <= 0 || n > 1<<16 {
				return p.expected(ln, "a positive count after "+k, rest[1:])
			}
			*v, rest = n, rest[2:]
		}
	}
	switch dim {
	case "":
		return p.expected(ln, "DIM_1D, DIM_2D, DIM_3D or DIM_CUBE", rest)
	case "DIM_1D":
		desc.Dim = backend.Image1D
	case "DIM_2D", "DIM_CUBE":
		desc.Dim = backend.Image2D
		if dim == "DIM_CUBE" {
			desc.Dim = backend.ImageCube
			if desc.Layers == 0 {
				desc.Layers = 6
			}
		}
		if desc.Height == 0 {
			return p.errf(ln, "expected HEIGHT for a %s image", dim)
		}
	case "DIM_3D":
		desc.Dim = backend.Image3D
		if desc.Height == 0 || desc.Depth == 0 {
			return p.errf(ln, "expected HEIGHT and DEPTH for a DIM_3D image")
		}
	}
	if desc.Width == 0 {
		return p.errf(ln, "expected WIDTH for an image")
	}
	if err := desc.Validate(); err != nil {
		return p.errf(ln, "image %s: %v", f[1], err)
	}
	desc = desc.Norm()
	fi := desc.Format.Info()
	texels := desc.Size() / fi.Size
	if int64(desc.Size()) > maxBufferBytes {
		return p.errf(ln, "expected an image of at most %d bytes, got %d", maxBufferBytes, desc.Size())
	}
	b := &Buffer{Name: f[1], Type: dt, Line: ln, Image: &desc}
	if at(rest, 0) == "DATA" {
		if err := p.initBuffer(ln, b, rest); err != nil {
			return err
		}
		all, base := texels*dt.Comps(), desc.LevelSize(0)/fi.Size*dt.Comps()
		if b.N != all && b.N != base {
			return p.errf(ln, "expected %d values (level 0) or %d (every level) in the DATA of image %s, got %d", base, all, b.Name, b.N)
		}
		b.N = all
		b.data = append(b.data, make([]byte, dt.byteSize(all)-len(b.data))...)
	} else if err := p.initBuffer(ln, b, append([]string{"SIZE", strconv.Itoa(texels)}, rest...)); err != nil {
		return err
	}
	p.s.Buffers = append(p.s.Buffers, b)
	return nil
}

var (
	filters = lazy.Value[map[string]backend.Filter]{F: func() map[string]backend.Filter {
		return map[string]backend.Filter{"nearest": backend.FilterNearest, "linear": backend.FilterLinear}
	}}
	mipmaps = lazy.Value[map[string]backend.MipmapMode]{F: func() map[string]backend.MipmapMode {
		return map[string]backend.MipmapMode{"nearest": backend.MipmapNearest, "linear": backend.MipmapLinear}
	}}
	addresses = lazy.Value[map[string]backend.AddressMode]{F: func() map[string]backend.AddressMode {
		return map[string]backend.AddressMode{"repeat": backend.AddressRepeat, "mirrored_repeat": backend.AddressMirroredRepeat,
			"clamp_to_edge": backend.AddressClampToEdge, "clamp_to_border": backend.AddressClampToBorder,
			"mirrored_clamp_to_edge": backend.AddressMirrorClampToEdge}
	}}
	borders = lazy.Value[map[string]backend.BorderColor]{F: func() map[string]backend.BorderColor {
		return map[string]backend.BorderColor{"float_transparent_black": backend.BorderFloatTransparentBlack,
			"int_transparent_black": backend.BorderIntTransparentBlack, "float_opaque_black": backend.BorderFloatOpaqueBlack,
			"int_opaque_black": backend.BorderIntOpaqueBlack, "float_opaque_white": backend.BorderFloatOpaqueWhite,
			"int_opaque_white": backend.BorderIntOpaqueWhite}
	}}
	compareOps = lazy.Value[map[string]backend.CompareOp]{F: func() map[string]backend.CompareOp {
		return map[string]backend.CompareOp{"never": backend.CompareNever, "less": backend.CompareLess,
			"equal": backend.CompareEqual, "less_or_equal": backend.CompareLessOrEqual, "greater": backend.CompareGreater,
			"not_equal": backend.CompareNotEqual, "greater_or_equal": backend.CompareGreaterOrEqual, "always": backend.CompareAlways}
	}}
)

// sampler parses SAMPLER <name> [<option> <value>]... with Amber's
// options and defaults (nearest filters, repeat, MIN_LOD 0, MAX_LOD 1,
// float_transparent_black), plus MIPMAP_MODE and MIP_LOD_BIAS
// (extensions).
func (p *parser) sampler(ln int, f []string) error {
	if len(f) < 2 {
		return p.expected(ln, "SAMPLER <name>", nil)
	}
	if p.s.Sampler(f[1]) != nil {
		return p.errf(ln, "expected a new sampler name, got %q (already defined)", f[1])
	}
	d := backend.SamplerDesc{MaxLod: 1}
	unnorm := false
	for w := f[2:]; len(w) > 0; {
		key, v := w[0], at(w, 1)
		bad := func(what string) error { return p.expected(ln, what+" after "+key, w[1:]) }
		var ok bool
		switch key {
		case "NORMALIZED_COORDS", "UNNORMALIZED_COORDS":
			unnorm, w = key == "UNNORMALIZED_COORDS", w[1:]
			continue
		case "MAG_FILTER":
			d.MagFilter, ok = filters.Get()[v]
		case "MIN_FILTER":
			d.MinFilter, ok = filters.Get()[v]
		case "MIPMAP_MODE":
			d.Mipmap, ok = mipmaps.Get()[v]
		case "ADDRESS_MODE_U":
			d.AddressU, ok = addresses.Get()[v]
		case "ADDRESS_MODE_V":
			d.AddressV, ok = addresses.Get()[v]
		case "ADDRESS_MODE_W":
			d.AddressW, ok = addresses.Get()[v]
		case "BORDER_COLOR":
			d.Border, ok = borders.Get()[v]
		case "COMPARE":
			d.Compare, ok = v == "on", v == "on" || v == "off"
		case "COMPARE_OP":
			d.CompareOp, ok = compareOps.Get()[v]
		case "MIN_LOD", "MAX_LOD", "MIP_LOD_BIAS":
			x, isNum := number(v)
			if !isNum {
				return bad("a number")
			}
			ok = true
			switch key {
			case "MIN_LOD":
				d.MinLod = float32(x)
			case "MAX_LOD":
				d.MaxLod = float32(x)
			default:
				d.MipLodBias = float32(x)
			}
		default:
			return p.expected(ln, "a sampler option (MAG_FILTER, MIN_FILTER, MIPMAP_MODE, ADDRESS_MODE_U/V/W, BORDER_COLOR, MIN_LOD, MAX_LOD, MIP_LOD_BIAS, NORMALIZED_COORDS, UNNORMALIZED_COORDS, COMPARE, COMPARE_OP)", w)
		}
		if !ok {
			return bad("a valid value")
		}
		w = w[2:]
	}
	if unnorm {
		// As in Amber, unnormalized coordinates take the LOD range to 0.
		d.Unnormalized, d.MinLod, d.MaxLod = true, 0, 0
	}
	if err := d.Validate(); err != nil {
		return p.errf(ln, "sampler %s: %v", f[1], err)
	}
	p.s.Samplers = append(p.s.Samplers, &Sampler{Name: f[1], Desc: d, Line: ln})
	return nil
}

// bindSampler parses BIND SAMPLER|SAMPLER_ARRAY <sampler>... DESCRIPTOR_SET s BINDING b.
func (p *parser) bindSampler(l int, pl *Pipeline, w []string) error {
	j := 2
	var names []string
	for j < len(w) && w[j] != "DESCRIPTOR_SET" && w[j] != "BINDING" {
		if p.s.Sampler(w[j]) == nil {
			return p.errf(l, "expected a sampler declared earlier, got %q", w[j])
		}
		names = append(names, w[j])
		j++
	}
	if len(names) == 0 || len(names) > 1 && w[1] == "SAMPLER" {
		return p.expected(l, "one sampler name after BIND SAMPLER", w[2:])
	}
	var set, binding uint32
	hasBinding := false
	for k := j; k < len(w); k += 2 {
		n, err := strconv.ParseUint(at(w, k+1), 0, 32)
		if err != nil {
			return p.expected(l, "a number after "+w[k], w[k+1:])
		}
		switch w[k] {
		case "DESCRIPTOR_SET":
			set = uint32(n)
		case "BINDING":
			binding, hasBinding = uint32(n), true
		default:
			return p.expected(l, "DESCRIPTOR_SET or BINDING", w[k:])
		}
	}
	if !hasBinding {
		return p.expected(l, "BINDING <n>", nil)
	}
	for i, name := range names {
		pl.Binds = append(pl.Binds, Bind{As: "sampler", Sampler: name, Set: set, Binding: binding, ArrayElement: uint32(i), Line: l})
	}
	return nil
}

// checkBindKind checks that the buffers bound AS as are of the right sort:
// images for the image kinds, buffers with a texel format for texel
// buffers, plain buffers otherwise.
func (p *parser) checkBindKind(l int, as string, names []string) error {
	for _, name := range names {
		b := p.s.Buffer(name)
		switch {
		case strings.HasSuffix(as, "_image") || as == "combined_image_sampler":
			if b.Image == nil {
				return p.errf(l, "expected an IMAGE to bind as %s, got buffer %s", as, name)
			}
		case b.Image != nil:
			return p.errf(l, "expected a buffer to bind as %s, got image %s", as, name)
		case strings.HasSuffix(as, "_texel_buffer") && b.Type.Format == backend.FormatUndefined:
			return p.errf(l, "expected a buffer with a texel FORMAT (such as R32_SFLOAT) to bind as %s, got %s of type %s", as, name, b.Type.Name)
		}
	}
	return nil
}
