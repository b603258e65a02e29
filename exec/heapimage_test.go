package exec

import (
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
)

// heapImageSrc reads every kind of image descriptor from heaps. The
// resource heap holds a struct: two storage images (R32ui) 32 bytes apart
// at 0, textures at 64 and 96 and a storage texel buffer (R32ui) at 128;
// the sampler heap an array of samplers. It writes to binding 0: out[0] =
// img[0] at (1, 0), then img[0] at (2, 0) = out[0]+1; out[1] = atomic add
// of 5 to img[1] at (0, 1); out[2] = the first texture sampled with
// sampler 1 at (0.5, 0.5); out[3] = the second with sampler 0; out[4] =
// atomic add of 3 to texel 2 of the texel buffer; out[5] = texel 3 of it.
const heapImageSrc = `
               OpCapability Shader
               OpCapability ImageBuffer
               OpCapability UntypedPointersKHR
               OpCapability DescriptorHeapEXT
               OpExtension "SPV_EXT_descriptor_heap"
               OpExtension "SPV_KHR_untyped_pointers"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %heap %sheap %out
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %heap BuiltIn ResourceHeapEXT
               OpDecorate %sheap BuiltIn SamplerHeapEXT
               OpDecorateId %imgArr ArrayStrideIdEXT %uint_32
               OpDecorateId %smpArr ArrayStrideIdEXT %ssize
               OpMemberDecorateIdEXT %H 0 OffsetIdEXT %uint_0
               OpMemberDecorateIdEXT %H 1 OffsetIdEXT %uint_64
               OpMemberDecorateIdEXT %H 2 OffsetIdEXT %uint_96
               OpMemberDecorateIdEXT %H 3 OffsetIdEXT %uint_128
               OpDecorate %O Block
               OpMemberDecorate %O 0 Offset 0
               OpDecorate %uarr ArrayStride 4
               OpDecorate %out DescriptorSet 0
               OpDecorate %out Binding 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
        %int = OpTypeInt 32 1
      %float = OpTypeFloat 32
    %v2float = OpTypeVector %float 2
    %v4float = OpTypeVector %float 4
     %v2int = OpTypeVector %int 2
     %v4uint = OpTypeVector %uint 4
       %imgU = OpTypeImage %uint 2D 0 0 0 2 R32ui
       %texF = OpTypeImage %float 2D 0 0 0 1 Unknown
         %tb = OpTypeImage %uint Buffer 0 0 0 2 R32ui
       %smpT = OpTypeSampler
    %sampled = OpTypeSampledImage %texF
     %uint_0 = OpConstant %uint 0
     %uint_2 = OpConstant %uint 2
     %uint_5 = OpConstant %uint 5
     %uint_3 = OpConstant %uint 3
     %uint_1 = OpConstant %uint 1
    %uint_32 = OpConstant %uint 32
    %uint_64 = OpConstant %uint 64
    %uint_96 = OpConstant %uint 96
   %uint_128 = OpConstant %uint 128
      %ssize = OpConstantSizeOfEXT %uint %smpT
     %imgArr = OpTypeArray %imgU %uint_2
     %smpArr = OpTypeRuntimeArray %smpT
          %H = OpTypeStruct %imgArr %texF %texF %tb
       %uarr = OpTypeRuntimeArray %uint
          %O = OpTypeStruct %uarr
      %ptrUC = OpTypeUntypedPointerKHR UniformConstant
     %ptrImg = OpTypeUntypedPointerKHR Image
       %ptrO = OpTypePointer StorageBuffer %O
     %ptrU32 = OpTypePointer StorageBuffer %uint
       %heap = OpUntypedVariableKHR %ptrUC UniformConstant
      %sheap = OpUntypedVariableKHR %ptrUC UniformConstant
        %out = OpVariable %ptrO StorageBuffer
      %int_0 = OpConstant %int 0
      %int_1 = OpConstant %int 1
      %int_2 = OpConstant %int 2
      %int_3 = OpConstant %int 3
      %int_4 = OpConstant %int 4
      %int_5 = OpConstant %int 5
       %c1_0 = OpConstantComposite %v2int %int_1 %int_0
       %c2_0 = OpConstantComposite %v2int %int_2 %int_0
       %c0_1 = OpConstantComposite %v2int %int_0 %int_1
    %float_0 = OpConstant %float 0
  %float_0_5 = OpConstant %float 0.5
     %center = OpConstantComposite %v2float %float_0_5 %float_0_5
       %main = OpFunction %void None %fn
          %l = OpLabel
         %p0 = OpUntypedAccessChainKHR %ptrUC %H %heap %int_0 %int_0
        %im0 = OpLoad %imgU %p0
         %t0 = OpImageRead %v4uint %im0 %c1_0
         %v0 = OpCompositeExtract %uint %t0 0
         %o0 = OpAccessChain %ptrU32 %out %int_0 %int_0
               OpStore %o0 %v0
         %w0 = OpIAdd %uint %v0 %uint_1
         %w4 = OpCompositeConstruct %v4uint %w0 %w0 %w0 %w0
               OpImageWrite %im0 %c2_0 %w4
         %p1 = OpUntypedAccessChainKHR %ptrUC %H %heap %int_0 %int_1
         %q1 = OpUntypedImageTexelPointerEXT %ptrImg %imgU %p1 %c0_1 %uint_0
         %a1 = OpAtomicIAdd %uint %q1 %uint_1 %uint_0 %uint_5
         %o1 = OpAccessChain %ptrU32 %out %int_0 %int_1
               OpStore %o1 %a1
         %pt = OpUntypedAccessChainKHR %ptrUC %H %heap %int_1
        %tex = OpLoad %texF %pt
         %ps = OpUntypedAccessChainKHR %ptrUC %smpArr %sheap %int_1
        %smp = OpLoad %smpT %ps
         %si = OpSampledImage %sampled %tex %smp
         %s2 = OpImageSampleExplicitLod %v4float %si %center Lod %float_0
         %f2 = OpCompositeExtract %float %s2 0
         %b2 = OpBitcast %uint %f2
         %o2 = OpAccessChain %ptrU32 %out %int_0 %int_2
               OpStore %o2 %b2
         %pc = OpUntypedAccessChainKHR %ptrUC %H %heap %int_2
       %tex2 = OpLoad %texF %pc
        %ps0 = OpUntypedAccessChainKHR %ptrUC %smpArr %sheap %int_0
       %smp0 = OpLoad %smpT %ps0
         %cs = OpSampledImage %sampled %tex2 %smp0
         %s3 = OpImageSampleExplicitLod %v4float %cs %center Lod %float_0
         %f3 = OpCompositeExtract %float %s3 0
         %b3 = OpBitcast %uint %f3
         %o3 = OpAccessChain %ptrU32 %out %int_0 %int_3
               OpStore %o3 %b3
         %pb = OpUntypedAccessChainKHR %ptrUC %H %heap %int_3
         %q4 = OpUntypedImageTexelPointerEXT %ptrImg %tb %pb %int_2 %uint_0
         %a4 = OpAtomicIAdd %uint %q4 %uint_1 %uint_0 %uint_3
         %o4 = OpAccessChain %ptrU32 %out %int_0 %int_4
               OpStore %o4 %a4
        %tbv = OpLoad %tb %pb
         %t5 = OpImageRead %v4uint %tbv %int_3
         %v5 = OpCompositeExtract %uint %t5 0
         %o5 = OpAccessChain %ptrU32 %out %int_0 %int_5
               OpStore %o5 %v5
               OpReturn
               OpFunctionEnd
`

// heapImageRig holds the resources heapImageSrc reads.
type heapImageRig struct {
	dev              *Device
	img              [2]backend.Image
	tex, mip         backend.Image
	linear, nearest  backend.Sampler
	texels           backend.Buffer
	heap, sheap, out backend.Buffer
}

func newHeapImageRig(t *testing.T) *heapImageRig {
	t.Helper()
	r := &heapImageRig{dev: New(Options{})}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	var err error
	for k := range r.img {
		r.img[k], err = r.dev.NewImage(backend.ImageDesc{Format: backend.FormatR32ui, Dim: backend.Image2D, Width: 4, Height: 4})
		must(err)
	}
	le := binary.LittleEndian
	le.PutUint32(ImageBytes(r.img[0])[4*1:], 41) // (1, 0)
	le.PutUint32(ImageBytes(r.img[1])[4*4:], 7)  // (0, 1)
	r.tex, err = r.dev.NewImage(backend.ImageDesc{Format: backend.FormatR32f, Dim: backend.Image2D, Width: 2, Height: 2})
	must(err)
	for k, v := range []float32{1, 2, 3, 4} {
		le.PutUint32(ImageBytes(r.tex)[4*k:], math.Float32bits(v))
	}
	// Two levels: 2x2 of 5s, then 1x1 holding 9.
	r.mip, err = r.dev.NewImage(backend.ImageDesc{Format: backend.FormatR32f, Dim: backend.Image2D, Width: 2, Height: 2, Levels: 2})
	must(err)
	for k := range 5 {
		le.PutUint32(ImageBytes(r.mip)[4*k:], math.Float32bits(float32(5+4*(k/4))))
	}
	r.linear, err = r.dev.NewSampler(backend.SamplerDesc{MagFilter: backend.FilterLinear, MinFilter: backend.FilterLinear})
	must(err)
	r.nearest, err = r.dev.NewSampler(backend.SamplerDesc{})
	must(err)
	r.texels = u32buf(t, r.dev, []uint32{10, 20, 30, 40})
	r.heap, _ = r.dev.NewBuffer(256, backend.UsageStorage)
	r.sheap, _ = r.dev.NewBuffer(128, backend.UsageStorage)
	r.out = u32buf(t, r.dev, make([]uint32, 8))
	r.put(r.heap, 0, ImageDescriptor(r.img[0], 0))
	r.put(r.heap, 32, ImageDescriptor(r.img[1], 0))
	r.put(r.heap, 64, ImageDescriptor(r.tex, 0))
	r.put(r.heap, 96, ImageDescriptor(r.mip, 1))
	r.put(r.heap, 128, TexelBufferDescriptor(r.texels, backend.FormatR32ui))
	r.put(r.sheap, 0, SamplerDescriptor(r.nearest))
	r.put(r.sheap, OpaqueDescriptorSize, SamplerDescriptor(r.linear))
	return r
}

func (r *heapImageRig) put(heap backend.Buffer, off int, d []byte) {
	if d == nil {
		panic("nil descriptor")
	}
	copy(Bytes(heap)[off:], d)
}

func (r *heapImageRig) run(t *testing.T, lockstep bool) error {
	t.Helper()
	r.dev.opts.noLockstep = !lockstep
	_, err := r.dev.Dispatch(&backend.Dispatch{Code: asmValid(t, heapImageSrc), Entry: "main", Groups: [3]uint32{1, 1, 1},
		Bindings: []backend.Binding{{Binding: 0, Buffer: r.out}}, ResourceHeap: r.heap, SamplerHeap: r.sheap})
	return err
}

// TestHeapImageDescriptors reads, writes, samples and updates atomically
// images, a sampled image and a texel buffer whose descriptors the host
// wrote into the heaps.
func TestHeapImageDescriptors(t *testing.T) {
	for _, lockstep := range []bool{true, false} {
		r := newHeapImageRig(t)
		if err := r.run(t, lockstep); err != nil {
			t.Fatal(err)
		}
		want := []uint32{41, 7, math.Float32bits(2.5), math.Float32bits(9), 30, 40, 0, 0}
		if got := u32s(r.out); !slices.Equal(got, want) {
			t.Errorf("lockstep %v: out = %v, want %v", lockstep, got, want)
		}
		le := binary.LittleEndian
		if got := le.Uint32(ImageBytes(r.img[0])[4*2:]); got != 42 {
			t.Errorf("img[0] at (2, 0) = %d, want 42", got)
		}
		if got := le.Uint32(ImageBytes(r.img[1])[4*4:]); got != 12 {
			t.Errorf("img[1] at (0, 1) = %d, want 12", got)
		}
		if got := u32s(r.texels); !slices.Equal(got, []uint32{10, 20, 33, 40}) {
			t.Errorf("texel buffer = %v", got)
		}
	}
}

// TestHeapImageFaults checks that bad image and sampler descriptors fault
// where the shader reads them, naming the descriptor's address.
func TestHeapImageFaults(t *testing.T) {
	cases := []struct {
		name   string
		change func(r *heapImageRig)
		want   string
		op     string
	}{
		{"null image", func(r *heapImageRig) { r.put(r.heap, 0, make([]byte, 32)) }, "null image descriptor", "OpLoad"},
		{"sampler as image", func(r *heapImageRig) { r.put(r.heap, 0, SamplerDescriptor(r.linear)) }, "is not an image or texel buffer descriptor", "OpLoad"},
		{"buffer as image", func(r *heapImageRig) { r.put(r.heap, 0, BufferDescriptor(r.texels)) }, "is not an image or texel buffer descriptor", "OpLoad"},
		{"format", func(r *heapImageRig) { r.put(r.heap, 0, ImageDescriptor(r.tex, 0)) }, "the shader declares format", "OpLoad"},
		{"texel buffer as image", func(r *heapImageRig) {
			r.put(r.heap, 0, TexelBufferDescriptor(r.texels, backend.FormatR32ui))
		}, "a texel buffer descriptor read as a 2D image", "OpLoad"},
		{"image as texel buffer", func(r *heapImageRig) { r.put(r.heap, 128, ImageDescriptor(r.img[1], 0)) }, "an image descriptor read as a texel buffer", "OpUntypedImageTexelPointerEXT"},
		{"atomic on null", func(r *heapImageRig) { r.put(r.heap, 32, make([]byte, 32)) }, "null image descriptor", "OpUntypedImageTexelPointerEXT"},
		{"no such image", func(r *heapImageRig) {
			binary.LittleEndian.PutUint64(Bytes(r.heap)[64:], heapHandle(hImage, 0, 99))
		}, "names no image", "OpLoad"},
		{"null sampler", func(r *heapImageRig) { r.put(r.sheap, 32, make([]byte, 32)) }, "null sampler descriptor", "OpLoad"},
		{"image as sampler", func(r *heapImageRig) { r.put(r.sheap, 32, ImageDescriptor(r.tex, 0)) }, "is not a sampler descriptor", "OpLoad"},
		// A released image's number is free for the next image.
		{"released image", func(r *heapImageRig) { r.tex.Release() }, "names no image", "OpLoad"},
	}
	for _, c := range cases {
		r := newHeapImageRig(t)
		c.change(r)
		err := r.run(t, true)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.op) || !strings.Contains(err.Error(), "address 0x1") {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	r := newHeapImageRig(t)
	switch {
	case ImageDescriptor(r.mip, 2) != nil, ImageDescriptor(r.mip, -1) != nil, ImageDescriptor(nil, 0) != nil:
		t.Error("descriptor of a level the image lacks, or of no image")
	case SamplerDescriptor(nil) != nil:
		t.Error("descriptor of no sampler")
	case TexelBufferDescriptor(r.texels, backend.FormatUndefined) != nil:
		t.Error("texel buffer descriptor without a format")
	}
	d := ImageDescriptor(r.mip, 1)
	if len(d) != OpaqueDescriptorSize || binary.LittleEndian.Uint64(d) != 0x81000001_00000004 {
		t.Errorf("image descriptor % x", d)
	}
	if d := SamplerDescriptor(r.nearest); binary.LittleEndian.Uint64(d) != 0x83000000_00000002 {
		t.Errorf("sampler descriptor % x", d)
	}
}
