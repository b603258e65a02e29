package backend

import "fmt"

// Tensors (VK_ARM_tensors): a binding of kind StorageTensor is a tensor
// whose elements lie in Binding.Buffer as Binding.Tensor describes, the
// host-side equivalent of a VkTensorDescriptionARM with linear tiling
// bound to that buffer's memory at offset 0.

// TensorFormat is the format of a tensor's elements, one of the
// one-component formats VK_ARM_tensors allows.
type TensorFormat int

const (
	TensorBool      TensorFormat = iota + 1 // VK_FORMAT_R8_BOOL_ARM: one byte, nonzero is true
	TensorInt8                              // VK_FORMAT_R8_SINT
	TensorUint8                             // VK_FORMAT_R8_UINT
	TensorInt16                             // VK_FORMAT_R16_SINT
	TensorUint16                            // VK_FORMAT_R16_UINT
	TensorInt32                             // VK_FORMAT_R32_SINT
	TensorUint32                            // VK_FORMAT_R32_UINT
	TensorInt64                             // VK_FORMAT_R64_SINT
	TensorUint64                            // VK_FORMAT_R64_UINT
	TensorFloat16                           // VK_FORMAT_R16_SFLOAT
	TensorBFloat16                          // VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM
	TensorFloat32                           // VK_FORMAT_R32_SFLOAT
	TensorFloat64                           // VK_FORMAT_R64_SFLOAT
	TensorFloatE4M3                         // VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM
	TensorFloatE5M2                         // VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E5M2_ARM
)

// tensorFormatNames is a static array (package init builds nothing for
// it).
var tensorFormatNames = [...]string{
	TensorBool: "bool", TensorInt8: "int8", TensorUint8: "uint8", TensorInt16: "int16", TensorUint16: "uint16",
	TensorInt32: "int32", TensorUint32: "uint32", TensorInt64: "int64", TensorUint64: "uint64",
	TensorFloat16: "float16", TensorBFloat16: "bfloat16", TensorFloat32: "float32", TensorFloat64: "float64",
	TensorFloatE4M3: "floate4m3", TensorFloatE5M2: "floate5m2",
}

func (f TensorFormat) String() string {
	if f > 0 && int(f) < len(tensorFormatNames) {
		return tensorFormatNames[f]
	}
	return fmt.Sprintf("TensorFormat(%d)", int(f))
}

// Size is the size of one element in bytes, 0 for an unknown format.
func (f TensorFormat) Size() int {
	switch f {
	case TensorBool, TensorInt8, TensorUint8, TensorFloatE4M3, TensorFloatE5M2:
		return 1
	case TensorInt16, TensorUint16, TensorFloat16, TensorBFloat16:
		return 2
	case TensorInt32, TensorUint32, TensorFloat32:
		return 4
	case TensorInt64, TensorUint64, TensorFloat64:
		return 8
	}
	return 0
}

// TensorDescription says how a tensor's elements lie in its buffer.
// Element (i0, ..., in-1) is at byte sum(ik * Strides[k]); dimension 0 is
// the outermost, as in SPIR-V coordinates.
type TensorDescription struct {
	Format     TensorFormat
	Dimensions []int64
	// Strides are the byte steps between consecutive indices of each
	// dimension; nil means packed (the innermost stride is the element
	// size, each outer one the next inner stride times its dimension).
	Strides []int64
}

// ByteStrides returns the strides, packed ones when Strides is nil; like
// Extent, it is meant for descriptions that Validate accepts.
func (d *TensorDescription) ByteStrides() []int64 {
	if d.Strides != nil {
		return d.Strides
	}
	s := make([]int64, len(d.Dimensions))
	step := int64(d.Format.Size())
	for k := len(s) - 1; k >= 0; k-- {
		s[k] = step
		step *= d.Dimensions[k]
	}
	return s
}

// Extent is the number of bytes from the first element to the end of the
// last, which the buffer must hold.
func (d *TensorDescription) Extent() int64 {
	n := int64(d.Format.Size())
	for k, s := range d.ByteStrides() {
		n += (d.Dimensions[k] - 1) * s
	}
	return n
}

// Validate applies VkTensorDescriptionARM's rules for linear tensors: a
// known format, at least one dimension, every dimension positive, and
// strides (if given) one per dimension, multiples of the element size,
// the innermost equal to it, each outer one covering the dimension inside
// it. The extent must stay below 2^40 bytes.
func (d *TensorDescription) Validate() error {
	es := int64(d.Format.Size())
	if es == 0 {
		return fmt.Errorf("tensor: unknown element format %v", d.Format)
	}
	n := len(d.Dimensions)
	if n == 0 {
		return fmt.Errorf("tensor: no dimensions")
	}
	for k, v := range d.Dimensions {
		if v <= 0 || v > 1<<40 {
			return fmt.Errorf("tensor: dimension %d is %d", k, v)
		}
	}
	if d.Strides != nil && len(d.Strides) != n {
		return fmt.Errorf("tensor: %d strides for %d dimensions", len(d.Strides), n)
	}
	// From the innermost dimension out: step is the least stride that
	// covers the dimensions inside (the packed stride). Every stride and
	// extent is kept below 2^40, so no product overflows.
	ext, step := es, es
	for k := n - 1; k >= 0; k-- {
		s := step
		if d.Strides != nil {
			s = d.Strides[k]
			if k == n-1 && s != es {
				return fmt.Errorf("tensor: innermost stride %d is not the element size %d", s, es)
			}
			if s%es != 0 || s < step {
				return fmt.Errorf("tensor: stride %d of dimension %d is not a multiple of %d covering the %d bytes of dimension %d",
					s, k, es, step, k+1)
			}
		}
		if s > 1<<40 || d.Dimensions[k]-1 > (1<<40-ext)/s {
			return fmt.Errorf("tensor: more than 2^40 bytes")
		}
		ext += (d.Dimensions[k] - 1) * s
		step = s * d.Dimensions[k]
	}
	return nil
}
