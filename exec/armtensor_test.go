package exec

import (
	"encoding/binary"
	"slices"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/spirv/text"
)

// tensorAsm reads a 3x5 int tensor t (binding 0) with the memory-model
// operands the GLSL compiler never emits, and writes what it finds to the
// buffer at binding 1: per invocation x (one workgroup of 4),
//
//	out[3x .. 3x+2] = the 3 elements from (1, 2x) on, out-of-bounds ones 99
//	out[12+x]      = element (x, 0), through 64-bit coordinates, read with
//	                 plain zero for out of bounds
//	out[16], [17]  = the sizes of dimensions 0 and 1
//
// and writes 2-element rows [100+x, 200+x] at (2, 2x+1), the second
// element falling off the tensor for x = 1 and both for x >= 2.
const tensorAsm = `
               OpCapability Shader
               OpCapability VulkanMemoryModel
               OpCapability TensorsARM
               OpExtension "SPV_ARM_tensors"
               OpMemoryModel Logical Vulkan
               OpEntryPoint GLCompute %main "main" %t %out %gid
               OpExecutionMode %main LocalSize 4 1 1
               OpDecorate %t DescriptorSet 0
               OpDecorate %t Binding 0
               OpDecorate %out DescriptorSet 0
               OpDecorate %out Binding 1
               OpDecorate %gid BuiltIn LocalInvocationId
               OpDecorate %ra ArrayStride 4
               OpDecorate %blk Block
               OpMemberDecorate %blk 0 Offset 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
        %int = OpTypeInt 32 1
      %ulong = OpTypeInt 64 0
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
     %uint_4 = OpConstant %uint 4
    %uint_12 = OpConstant %uint 12
    %uint_16 = OpConstant %uint 16
    %uint_17 = OpConstant %uint 17
     %ulong_0 = OpConstant %ulong 0
     %int_99 = OpConstant %int 99
    %int_100 = OpConstant %int 100
    %int_200 = OpConstant %int 200
     %v3uint = OpTypeVector %uint 3
   %ptr_in3 = OpTypePointer Input %v3uint
        %gid = OpVariable %ptr_in3 Input
         %tt = OpTypeTensorARM %int %uint_2
     %ptr_tt = OpTypePointer UniformConstant %tt
          %t = OpVariable %ptr_tt UniformConstant
         %ra = OpTypeRuntimeArray %int
        %blk = OpTypeStruct %ra
    %ptr_blk = OpTypePointer StorageBuffer %blk
        %out = OpVariable %ptr_blk StorageBuffer
    %ptr_int = OpTypePointer StorageBuffer %int
     %coords = OpTypeArray %uint %uint_2
    %lcoords = OpTypeArray %ulong %uint_2
      %arr3 = OpTypeArray %int %uint_3
      %arr2 = OpTypeArray %int %uint_2
       %main = OpFunction %void None %fn
          %l = OpLabel
          %g = OpLoad %v3uint %gid
          %x = OpCompositeExtract %uint %g 0
         %tv = OpLoad %tt %t
         %x2 = OpIMul %uint %x %uint_2
         %c1 = OpCompositeConstruct %coords %uint_1 %x2
         %r3 = OpTensorReadARM %arr3 %tv %c1 OutOfBoundsValueARM|MakeElementVisibleARM|NonPrivateElementARM %int_99 %uint_1
         %o0 = OpIMul %uint %x %uint_3
         %e0 = OpCompositeExtract %int %r3 0
         %e1 = OpCompositeExtract %int %r3 1
         %e2 = OpCompositeExtract %int %r3 2
         %p0 = OpAccessChain %ptr_int %out %uint_0 %o0
               OpStore %p0 %e0
         %o1 = OpIAdd %uint %o0 %uint_1
         %p1 = OpAccessChain %ptr_int %out %uint_0 %o1
               OpStore %p1 %e1
         %o2 = OpIAdd %uint %o0 %uint_2
         %p2 = OpAccessChain %ptr_int %out %uint_0 %o2
               OpStore %p2 %e2
         %xl = OpUConvert %ulong %x
         %c2 = OpCompositeConstruct %lcoords %xl %ulong_0
         %r1 = OpTensorReadARM %int %tv %c2
         %o3 = OpIAdd %uint %x %uint_12
         %p3 = OpAccessChain %ptr_int %out %uint_0 %o3
               OpStore %p3 %r1
         %s0 = OpTensorQuerySizeARM %uint %tv %uint_0
         %s1 = OpTensorQuerySizeARM %uint %tv %uint_1
         %si0 = OpBitcast %int %s0
         %si1 = OpBitcast %int %s1
         %p4 = OpAccessChain %ptr_int %out %uint_0 %uint_16
               OpStore %p4 %si0
         %p5 = OpAccessChain %ptr_int %out %uint_0 %uint_17
               OpStore %p5 %si1
         %a = OpBitcast %int %x
         %w0 = OpIAdd %int %int_100 %a
         %w1 = OpIAdd %int %int_200 %a
         %wv = OpCompositeConstruct %arr2 %w0 %w1
        %x21 = OpIAdd %uint %x2 %uint_1
         %c4 = OpCompositeConstruct %coords %uint_2 %x21
               OpTensorWriteARM %tv %c4 %wv MakeElementAvailableARM|NonPrivateElementARM %uint_1
               OpReturn
               OpFunctionEnd
`

// tensorRig is the tensor module with its buffers: a 3x5 tensor whose
// rows are 8 elements apart (element (i, j) holds 10*i + j), and an output
// buffer.
type tensorRig struct {
	dev      *Device
	pr       *Program
	tbuf     backend.Buffer
	out      backend.Buffer
	bindings []backend.Binding
}

func newTensorRig(t *testing.T, asm string) *tensorRig {
	t.Helper()
	m, err := text.Assemble([]byte(asm), "tensor.spvasm")
	if err != nil {
		t.Fatal(err)
	}
	pr, err := Load(m, "", nil, 4)
	if err != nil {
		t.Fatal(err)
	}
	dev := New(Options{})
	tbuf, _ := dev.NewBuffer(4*8*3, backend.UsageStorage)
	raw := Bytes(tbuf)
	for i := range 3 {
		for j := range 8 {
			binary.LittleEndian.PutUint32(raw[4*(8*i+j):], uint32(10*i+j))
		}
	}
	out, _ := dev.NewBuffer(4*18, backend.UsageStorage)
	desc := &backend.TensorDescription{Format: backend.TensorInt32, Dimensions: []int64{3, 5}, Strides: []int64{32, 4}}
	return &tensorRig{dev: dev, pr: pr, tbuf: tbuf, out: out, bindings: []backend.Binding{
		{Binding: 0, Kind: backend.StorageTensor, Buffer: tbuf, Tensor: desc},
		{Binding: 1, Buffer: out},
	}}
}

func (r *tensorRig) run() error { return r.dev.Run(r.pr, [3]uint32{1, 1, 1}, r.bindings, nil) }

func words(b backend.Buffer) []int32 {
	raw := Bytes(b)
	w := make([]int32, len(raw)/4)
	for i := range w {
		w[i] = int32(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	return w
}

func TestTensorARMReadWriteQuery(t *testing.T) {
	r := newTensorRig(t, tensorAsm)
	if err := r.run(); err != nil {
		t.Fatal(err)
	}
	// The element at (i, j) of the 3x5 tensor, or oob outside it.
	at := func(i, j int, oob int32) int32 {
		if i < 0 || i >= 3 || j < 0 || j >= 5 {
			return oob
		}
		return int32(10*i + j)
	}
	got := words(r.out)
	for x := range 4 {
		for k := range 3 {
			if want := at(1, 2*x+k, 99); got[3*x+k] != want {
				t.Errorf("x=%d: read element %d = %d, want %d", x, k, got[3*x+k], want)
			}
		}
		if want := at(x, 0, 0); got[12+x] != want {
			t.Errorf("x=%d: read (%d, 0) = %d, want %d", x, x, got[12+x], want)
		}
	}
	if got[16] != 3 || got[17] != 5 {
		t.Errorf("sizes %d, %d; want 3, 5", got[16], got[17])
	}
	// Row 2 after the writes; the padding after each row is untouched.
	want := []int32{20, 100, 200, 101, 201, 25, 26, 27}
	if row := words(r.tbuf)[16:24]; !slices.Equal(row, want) {
		t.Errorf("row 2 = %v, want %v", row, want)
	}
	if row := words(r.tbuf)[8:16]; !slices.Equal(row, []int32{10, 11, 12, 13, 14, 15, 16, 17}) {
		t.Errorf("row 1 changed: %v", row)
	}
}

func TestTensorARMBindingErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(b *backend.Binding)
		want string
	}{
		{"buffer kind", func(b *backend.Binding) { b.Kind = backend.StorageBuffer }, "bind it with Kind StorageTensor"},
		{"no description", func(b *backend.Binding) { b.Tensor = nil }, "bind it with Kind StorageTensor"},
		{"rank", func(b *backend.Binding) {
			b.Tensor = &backend.TensorDescription{Format: backend.TensorInt32, Dimensions: []int64{15}}
		}, "a tensor of 1 dimensions bound to a tensor of rank 2"},
		{"format", func(b *backend.Binding) {
			b.Tensor = &backend.TensorDescription{Format: backend.TensorUint32, Dimensions: []int64{3, 5}}
		}, "uint32 elements bound to a tensor of int32"},
		{"too small", func(b *backend.Binding) {
			b.Tensor = &backend.TensorDescription{Format: backend.TensorInt32, Dimensions: []int64{4, 8}, Strides: []int64{64, 4}}
		}, "needs 224 bytes, its buffer has 96"},
		{"invalid", func(b *backend.Binding) {
			b.Tensor = &backend.TensorDescription{Format: backend.TensorInt32, Dimensions: []int64{3, 5}, Strides: []int64{16, 4}}
		}, "covering the 20 bytes of dimension 1"},
	} {
		r := newTensorRig(t, tensorAsm)
		c.edit(&r.bindings[0])
		if err := r.run(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
	r := newTensorRig(t, tensorAsm)
	r.bindings[1].Kind, r.bindings[1].Tensor = backend.StorageTensor, &backend.TensorDescription{Format: backend.TensorInt32, Dimensions: []int64{2}}
	if err := r.run(); err == nil || !strings.Contains(err.Error(), "a tensor bound to a buffer descriptor") {
		t.Errorf("tensor on a buffer: got %v", err)
	}
	r = newTensorRig(t, tensorAsm)
	r.bindings = r.bindings[1:]
	if err := r.run(); err == nil || !strings.Contains(err.Error(), "no tensor is bound here") {
		t.Errorf("unbound tensor: got %v", err)
	}
}

func TestTensorARMDescriptors(t *testing.T) {
	r := newTensorRig(t, tensorAsm)
	ds := r.pr.Descriptors()
	if len(ds) != 2 || !ds[0].Tensor || ds[0].Format != backend.TensorInt32 || ds[0].Rank != 2 || ds[1].Tensor {
		t.Errorf("descriptors %+v", ds)
	}
}

// An unsigned tensor accepts signed elements of its width; a bool tensor
// reads bytes, nonzero as true, and writes 0 or 1; a signed coordinate of
// -1 is out of bounds while the next element, at 0, is not.
func TestTensorARMFormats(t *testing.T) {
	asm := `
               OpCapability Shader
               OpCapability TensorsARM
               OpCapability Int8
               OpExtension "SPV_ARM_tensors"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %tb DescriptorSet 0
               OpDecorate %tb Binding 0
               OpDecorate %tu DescriptorSet 0
               OpDecorate %tu Binding 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %bool = OpTypeBool
      %uchar = OpTypeInt 8 0
       %uint = OpTypeInt 32 0
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_4 = OpConstant %uint 4
    %uchar_7 = OpConstant %uchar 7
    %uchar_3 = OpConstant %uchar 3
        %int = OpTypeInt 32 1
     %int_m1 = OpConstant %int -1
    %icoords = OpTypeArray %int %uint_1
        %icm1 = OpConstantComposite %icoords %int_m1
     %uint_2 = OpConstant %uint 2
      %uarr2 = OpTypeArray %uchar %uint_2
        %tbt = OpTypeTensorARM %bool %uint_1
        %tut = OpTypeTensorARM %uchar %uint_1
      %ptb = OpTypePointer UniformConstant %tbt
      %ptu = OpTypePointer UniformConstant %tut
         %tb = OpVariable %ptb UniformConstant
         %tu = OpVariable %ptu UniformConstant
     %coords = OpTypeArray %uint %uint_1
      %barr = OpTypeArray %bool %uint_4
       %main = OpFunction %void None %fn
          %l = OpLabel
          %b = OpLoad %tbt %tb
          %u = OpLoad %tut %tu
         %c0 = OpCompositeConstruct %coords %uint_0
         %bs = OpTensorReadARM %barr %b %c0
         %n0 = OpCompositeExtract %bool %bs 0
         %n1 = OpCompositeExtract %bool %bs 1
         %n2 = OpCompositeExtract %bool %bs 2
         %n3 = OpCompositeExtract %bool %bs 3
         %nb = OpCompositeConstruct %barr %n3 %n2 %n1 %n0
         %c4 = OpCompositeConstruct %coords %uint_4
               OpTensorWriteARM %b %c4 %nb
         %v = OpTensorReadARM %uchar %u %c0
         %v7 = OpIAdd %uchar %v %uchar_7
         %c1 = OpCompositeConstruct %coords %uint_1
               OpTensorWriteARM %u %c1 %v7
       %pair = OpTensorReadARM %uarr2 %u %icm1 OutOfBoundsValueARM %uchar_3
         %p0 = OpCompositeExtract %uchar %pair 0
         %p1 = OpCompositeExtract %uchar %pair 1
        %rev = OpCompositeConstruct %uarr2 %p1 %p0
               OpTensorWriteARM %u %icm1 %rev
               OpReturn
               OpFunctionEnd
`
	m, err := text.Assemble([]byte(asm), "formats.spvasm")
	if err != nil {
		t.Fatal(err)
	}
	pr, err := Load(m, "", nil, 32)
	if err != nil {
		t.Fatal(err)
	}
	dev := New(Options{})
	bb, _ := dev.NewBuffer(8, backend.UsageStorage)
	ub, _ := dev.NewBuffer(2, backend.UsageStorage)
	copy(Bytes(bb), []byte{0, 5, 0, 0, 9, 9, 9, 9})
	copy(Bytes(ub), []byte{0xfe, 0})
	err = dev.Run(pr, [3]uint32{1, 1, 1}, []backend.Binding{
		{Binding: 0, Kind: backend.StorageTensor, Buffer: bb, Tensor: &backend.TensorDescription{Format: backend.TensorBool, Dimensions: []int64{8}}},
		{Binding: 1, Kind: backend.StorageTensor, Buffer: ub, Tensor: &backend.TensorDescription{Format: backend.TensorInt8, Dimensions: []int64{2}}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := Bytes(bb), []byte{0, 5, 0, 0, 0, 0, 1, 0}; string(got) != string(want) {
		t.Errorf("bool tensor %v, want %v", got, want)
	}
	// Element 1 is 0xfe+7, wrapped; element 0 comes from the second
	// element of [3 (out of bounds at -1), 0xfe] reversed.
	if got := Bytes(ub); got[0] != 3 || got[1] != 5 {
		t.Errorf("uint8 tensor %v, want [3 5]", got)
	}
}
