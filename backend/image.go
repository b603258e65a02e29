package backend

import (
	"errors"
	"fmt"
)

// ImageDim is the dimensionality of an image. Arrays are images with
// more than one layer; texel buffers are buffers bound with a Format.
type ImageDim uint8

const (
	Image1D ImageDim = iota
	Image2D
	Image3D
	// ImageCube is a 2D image of square layers, six per cube (faces +X,
	// -X, +Y, -Y, +Z, -Z in layer order), sampled as cube maps.
	ImageCube
)

func (d ImageDim) String() string {
	switch d {
	case Image1D:
		return "1D"
	case Image2D:
		return "2D"
	case Image3D:
		return "3D"
	case ImageCube:
		return "Cube"
	}
	return fmt.Sprintf("ImageDim(%d)", uint8(d))
}

// ImageDesc describes an image. Zero Height, Depth, Layers, Levels and
// Samples mean 1.
type ImageDesc struct {
	Format                  Format
	Dim                     ImageDim
	Width, Height, Depth    int
	Layers, Levels, Samples int
}

// Norm returns d with its zero counts replaced by 1.
func (d ImageDesc) Norm() ImageDesc {
	one := func(v *int) {
		if *v == 0 {
			*v = 1
		}
	}
	one(&d.Height)
	one(&d.Depth)
	one(&d.Layers)
	one(&d.Levels)
	one(&d.Samples)
	return d
}

// maxImageBytes bounds an image's memory.
const maxImageBytes = 1 << 31

// Validate reports what is wrong with d, if anything.
func (d ImageDesc) Validate() error {
	d = d.Norm()
	fi := d.Format.Info()
	switch {
	case fi == nil:
		return fmt.Errorf("image format %v is not supported", d.Format)
	case d.Dim > ImageCube:
		return fmt.Errorf("image dimensionality %v is not supported", d.Dim)
	case d.Width < 1 || d.Height < 1 || d.Depth < 1 || d.Layers < 1 || d.Levels < 1 || d.Samples < 1:
		return fmt.Errorf("image extent %dx%dx%d, %d layers, %d levels, %d samples: every count must be positive",
			d.Width, d.Height, d.Depth, d.Layers, d.Levels, d.Samples)
	case d.Dim == Image1D && (d.Height != 1 || d.Depth != 1):
		return errors.New("a 1D image has height and depth 1")
	case d.Dim != Image3D && d.Depth != 1:
		return errors.New("only a 3D image has a depth")
	case d.Dim == Image3D && d.Layers != 1:
		return errors.New("a 3D image has one layer")
	case d.Dim == ImageCube && (d.Width != d.Height || d.Layers%6 != 0):
		return errors.New("a cube image has square faces and a multiple of 6 layers")
	case d.Samples&(d.Samples-1) != 0 || d.Samples > 64:
		return fmt.Errorf("%d samples: a power of two up to 64", d.Samples)
	case d.Samples > 1 && (d.Dim != Image2D || d.Levels != 1):
		return errors.New("a multisampled image is 2D with one mip level")
	case d.Levels > 1+bitLen(max(d.Width, d.Height, d.Depth)):
		return fmt.Errorf("%d mip levels for an image of %dx%dx%d", d.Levels, d.Width, d.Height, d.Depth)
	}
	if int64(d.Width)*int64(d.Height)*int64(d.Depth)*int64(d.Layers)*int64(d.Samples)*int64(fi.Size)*2 > maxImageBytes {
		return fmt.Errorf("image of %dx%dx%d texels, %d layers is too large", d.Width, d.Height, d.Depth, d.Layers)
	}
	return nil
}

// bitLen is floor(log2(n)) for n >= 1.
func bitLen(n int) int {
	b := -1
	for ; n > 0; n >>= 1 {
		b++
	}
	return b
}

// LevelExtent is the width, height and depth of mip level l: each halves,
// rounding down, and stays at least 1.
func (d ImageDesc) LevelExtent(l int) (w, h, depth int) {
	d = d.Norm()
	return max(d.Width>>l, 1), max(d.Height>>l, 1), max(d.Depth>>l, 1)
}

// LevelSize is the number of bytes of mip level l, all layers and samples.
func (d ImageDesc) LevelSize(l int) int {
	d = d.Norm()
	w, h, z := d.LevelExtent(l)
	return w * h * z * d.Layers * d.Samples * d.Format.Info().Size
}

// LevelOffset is the byte offset of mip level l in the image's memory.
// An image's memory is tightly packed: level 0, then level 1, ...; within
// a level layer 0, then layer 1, ...; within a layer the z slices, rows
// and texels in increasing order; within a texel its samples; each
// sample in the format's layout (FormatInfo).
func (d ImageDesc) LevelOffset(l int) int {
	off := 0
	for k := 0; k < l; k++ {
		off += d.LevelSize(k)
	}
	return off
}

// Size is the number of bytes of the image's memory.
func (d ImageDesc) Size() int { return d.LevelOffset(d.Norm().Levels) }

// Image is device memory holding texels, reached by shaders through
// storage image, sampled image and combined image sampler descriptors.
type Image interface {
	Desc() ImageDesc
	// Write and Read copy bytes of the image's memory, laid out as
	// ImageDesc.LevelOffset describes; they fail (never panic) when the
	// range falls outside it.
	Write(offset int, data []byte) error
	Read(offset int, data []byte) error
	// Release frees the image now rather than when the device closes.
	Release()
}

// Filter is a sampler's texel filter.
type Filter uint8

const (
	FilterNearest Filter = iota
	FilterLinear
)

// MipmapMode is how a sampler chooses between mip levels.
type MipmapMode uint8

const (
	MipmapNearest MipmapMode = iota
	MipmapLinear
)

// AddressMode is what a sampler does with coordinates outside the image.
type AddressMode uint8

const (
	AddressRepeat AddressMode = iota
	AddressMirroredRepeat
	AddressClampToEdge
	AddressClampToBorder
	AddressMirrorClampToEdge
)

// BorderColor is the value of texels outside the image under
// AddressClampToBorder.
type BorderColor uint8

const (
	BorderFloatTransparentBlack BorderColor = iota // (0, 0, 0, 0)
	BorderIntTransparentBlack
	BorderFloatOpaqueBlack // (0, 0, 0, 1)
	BorderIntOpaqueBlack
	BorderFloatOpaqueWhite // (1, 1, 1, 1)
	BorderIntOpaqueWhite
)

// CompareOp is a depth-comparison sampler's test of the reference value
// against the texel (reference OP texel).
type CompareOp uint8

const (
	CompareNever CompareOp = iota
	CompareLess
	CompareEqual
	CompareLessOrEqual
	CompareGreater
	CompareNotEqual
	CompareGreaterOrEqual
	CompareAlways
)

// LodClampNone is VK_LOD_CLAMP_NONE: a MaxLod that clamps nothing.
const LodClampNone = 1000

// SamplerDesc describes a sampler as VkSamplerCreateInfo does. The zero
// value samples the base level with nearest filtering and repeat
// addressing (MaxLod 0 clamps to the base level).
type SamplerDesc struct {
	MagFilter, MinFilter         Filter
	Mipmap                       MipmapMode
	AddressU, AddressV, AddressW AddressMode
	MipLodBias                   float32
	MinLod, MaxLod               float32
	Border                       BorderColor
	// Unnormalized takes coordinates in texels rather than in [0, 1]
	// (1D and 2D images, one level, no arrays; as Vulkan restricts).
	Unnormalized bool
	// Compare enables depth comparison (OpImage*Dref*) with CompareOp.
	Compare   bool
	CompareOp CompareOp
}

// Validate reports what is wrong with s, if anything.
func (s SamplerDesc) Validate() error {
	switch {
	case s.MagFilter > FilterLinear || s.MinFilter > FilterLinear:
		return errors.New("sampler filter out of range")
	case s.Mipmap > MipmapLinear:
		return errors.New("sampler mipmap mode out of range")
	case s.AddressU > AddressMirrorClampToEdge || s.AddressV > AddressMirrorClampToEdge || s.AddressW > AddressMirrorClampToEdge:
		return errors.New("sampler address mode out of range")
	case s.Border > BorderIntOpaqueWhite:
		return errors.New("sampler border color out of range")
	case s.CompareOp > CompareAlways:
		return errors.New("sampler compare op out of range")
	case s.MinLod > s.MaxLod || s.MinLod != s.MinLod || s.MaxLod != s.MaxLod:
		return fmt.Errorf("sampler MinLod %g above MaxLod %g", s.MinLod, s.MaxLod)
	case s.Unnormalized && (s.MagFilter != s.MinFilter || s.Mipmap != MipmapNearest || s.MinLod != 0 || s.MaxLod != 0 || s.Compare ||
		!unnormAddress(s.AddressU) || !unnormAddress(s.AddressV)):
		return errors.New("a sampler with unnormalized coordinates needs equal filters, nearest mipmaps, zero LODs, no comparison and clamping address modes")
	}
	return nil
}

func unnormAddress(a AddressMode) bool {
	return a == AddressClampToEdge || a == AddressClampToBorder
}

// Sampler is a sampler object, bound by sampler and combined image
// sampler descriptors.
type Sampler interface {
	Desc() SamplerDesc
	Release()
}
