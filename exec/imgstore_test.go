package exec

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
)

// storeKernel exercises storage images and texel buffers; invocation x
// (of 16) writes 8 words at out[8x]:
//
//	0, 1: OpImageRead of img (4x3 R32ui) at (x-4, 1): x and w
//	2:    OpAtomicIAdd of 1 at texel (x%6-1, 2) of img: the old value
//	3:    OpImageRead of ms (2x1, 4 samples) at (x%2, 0), sample x/4
//	4:    OpImageFetch of ub (R8 uniform texel buffer) at x-2, as float bits
//	5:    OpImageSparseRead of img at (x-4, 1): the residency code
//	6:    OpImageSparseTexelsResident of that code
//
// and OpImageWrite writes x+100 at (x, 0) of img and x/2 at x of sb (R32f
// storage texel buffer).
const storeKernel = `
OpCapability Shader
OpCapability SampledBuffer
OpCapability ImageBuffer
OpCapability StorageImageMultisample
OpCapability SparseResidency
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid
OpExecutionMode %main LocalSize 16 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %img DescriptorSet 0
OpDecorate %img Binding 0
OpDecorate %ms DescriptorSet 0
OpDecorate %ms Binding 2
OpDecorate %ub DescriptorSet 0
OpDecorate %ub Binding 3
OpDecorate %sb DescriptorSet 0
OpDecorate %sb Binding 4
OpDecorate %ra ArrayStride 4
OpDecorate %Buf Block
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%v2i = OpTypeVector %int 2
%v3u = OpTypeVector %uint 3
%v4u = OpTypeVector %uint 4
%v4f = OpTypeVector %float 4
%tu = OpTypeImage %uint 2D 0 0 0 2 {{FMT}}
%ptu = OpTypePointer UniformConstant %tu
%img = OpVariable %ptu UniformConstant
%tms = OpTypeImage %uint 2D 0 0 1 2 R32ui
%ptms = OpTypePointer UniformConstant %tms
%ms = OpVariable %ptms UniformConstant
%tub = OpTypeImage %float Buffer 0 0 0 1 Unknown
%ptub = OpTypePointer UniformConstant %tub
%ub = OpVariable %ptub UniformConstant
%tsb = OpTypeImage %float Buffer 0 0 0 2 R32f
%ptsb = OpTypePointer UniformConstant %tsb
%sb = OpVariable %ptsb UniformConstant
%sparse = OpTypeStruct %int %v4u
%ra = OpTypeRuntimeArray %uint
%Buf = OpTypeStruct %ra
%pBuf = OpTypePointer StorageBuffer %Buf
%out = OpVariable %pBuf StorageBuffer
%pu = OpTypePointer StorageBuffer %uint
%pgid = OpTypePointer Input %v3u
%gid = OpVariable %pgid Input
%pti = OpTypePointer Image %uint
%int_0 = OpConstant %int 0
%int_1 = OpConstant %int 1
%int_2 = OpConstant %int 2
%int_4 = OpConstant %int 4
%int_6 = OpConstant %int 6
%int_100 = OpConstant %int 100
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_8 = OpConstant %uint 8
%float_half = OpConstant %float 0.5
%scope = OpConstant %uint 1
%sem = OpConstant %uint 0
%main = OpFunction %void None %fn
%lbl = OpLabel
%g = OpLoad %v3u %gid
%x = OpCompositeExtract %uint %g 0
%xi = OpBitcast %int %x
%base = OpIMul %uint %x %uint_8
%i = OpLoad %tu %img
%rx = OpISub %int %xi %int_4
%rc = OpCompositeConstruct %v2i %rx %int_1
%rd = OpImageRead %v4u %i %rc
%rd0 = OpCompositeExtract %uint %rd 0
%rd3 = OpCompositeExtract %uint %rd 3
%p0 = OpAccessChain %pu %out %int_0 %base
OpStore %p0 %rd0
%b1 = OpIAdd %uint %base %uint_1
%p1 = OpAccessChain %pu %out %int_0 %b1
OpStore %p1 %rd3
%m6 = OpSMod %int %xi %int_6
%ax = OpISub %int %m6 %int_1
%ac = OpCompositeConstruct %v2i %ax %int_2
%tp = OpImageTexelPointer %pti %img %ac %uint_0
%old = OpAtomicIAdd %uint %tp %scope %sem %uint_1
%b2 = OpIAdd %uint %b1 %uint_1
%p2 = OpAccessChain %pu %out %int_0 %b2
OpStore %p2 %old
%mi = OpLoad %tms %ms
%mx = OpSMod %int %xi %int_2
%mc = OpCompositeConstruct %v2i %mx %int_0
%smp = OpSDiv %int %xi %int_4
%mr = OpImageRead %v4u %mi %mc Sample %smp
%mr0 = OpCompositeExtract %uint %mr 0
%b3 = OpIAdd %uint %b2 %uint_1
%p3 = OpAccessChain %pu %out %int_0 %b3
OpStore %p3 %mr0
%u = OpLoad %tub %ub
%fx = OpISub %int %xi %int_2
%fr = OpImageFetch %v4f %u %fx
%fr0 = OpCompositeExtract %float %fr 0
%frb = OpBitcast %uint %fr0
%b4 = OpIAdd %uint %b3 %uint_1
%p4 = OpAccessChain %pu %out %int_0 %b4
OpStore %p4 %frb
%sr = OpImageSparseRead %sparse %i %rc
%code = OpCompositeExtract %int %sr 0
%codeu = OpBitcast %uint %code
%b5 = OpIAdd %uint %b4 %uint_1
%p5 = OpAccessChain %pu %out %int_0 %b5
OpStore %p5 %codeu
%res = OpImageSparseTexelsResident %bool %code
%resu = OpSelect %uint %res %uint_1 %uint_0
%b6 = OpIAdd %uint %b5 %uint_1
%p6 = OpAccessChain %pu %out %int_0 %b6
OpStore %p6 %resu
%wc = OpCompositeConstruct %v2i %xi %int_0
%wv = OpIAdd %int %xi %int_100
%wvu = OpBitcast %uint %wv
%wt = OpCompositeConstruct %v4u %wvu %wvu %wvu %wvu
OpImageWrite %i %wc %wt
%s = OpLoad %tsb %sb
%xf = OpConvertSToF %float %xi
%h = OpFMul %float %xf %float_half
%st = OpCompositeConstruct %v4f %h %h %h %h
OpImageWrite %s %xi %st
OpReturn
OpFunctionEnd
`

func storeBindings(t *testing.T, dev *Device) (img, ms backend.Image, ub, sb, out backend.Buffer, bs []backend.Binding) {
	img = newImage(t, dev, backend.ImageDesc{Format: backend.FormatR32ui, Dim: backend.Image2D, Width: 4, Height: 3})
	for i := 0; i < 12; i++ {
		binary.LittleEndian.PutUint32(ImageBytes(img)[4*i:], uint32(1000+i))
	}
	ms = newImage(t, dev, backend.ImageDesc{Format: backend.FormatR32ui, Dim: backend.Image2D, Width: 2, Height: 1, Samples: 4})
	for i := 0; i < 8; i++ {
		binary.LittleEndian.PutUint32(ImageBytes(ms)[4*i:], uint32(i*11))
	}
	ub, _ = dev.NewBuffer(10, backend.UsageStorage)
	for i := range Bytes(ub) {
		Bytes(ub)[i] = byte(i * 25)
	}
	sb, _ = dev.NewBuffer(4*12, backend.UsageStorage)
	out, _ = dev.NewBuffer(4*8*16, backend.UsageStorage)
	bs = []backend.Binding{
		{Binding: 0, Kind: backend.StorageImage, Image: img},
		{Binding: 1, Kind: backend.StorageBuffer, Buffer: out},
		{Binding: 2, Kind: backend.StorageImage, Image: ms},
		{Binding: 3, Kind: backend.UniformTexelBuffer, Buffer: ub, Format: backend.FormatR8},
		{Binding: 4, Kind: backend.StorageTexelBuffer, Buffer: sb, Format: backend.FormatR32f},
	}
	return
}

// TestStorageImages checks out-of-bounds reads (zero, alpha 1), writes
// (dropped) and atomics (no effect, old value 0), texel-pointer atomics,
// multisampled reads, texel buffers and sparse residency.
func TestStorageImages(t *testing.T) {
	dev := New(Options{})
	code := asm(t, storeKernel, "FMT", "R32ui")
	img, _, _, sb, out, bs := storeBindings(t, dev)
	if _, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{1, 1, 1}, Bindings: bs}); err != nil {
		t.Fatal(err)
	}
	o := u32s(out)
	texel := func(x, y int) uint32 { return binary.LittleEndian.Uint32(ImageBytes(img)[4*(y*4+x):]) }
	for x := 0; x < 16; x++ {
		w := o[8*x : 8*x+8]
		rd, alpha := uint32(0), uint32(1)
		if x >= 4 && x < 8 {
			rd, alpha = uint32(1004+x-4), 1
		}
		if w[0] != rd || w[1] != alpha {
			t.Errorf("read %d: got (%d, w %d), want (%d, w %d)", x, w[0], w[1], rd, alpha)
		}
		if ax := x%6 - 1; (ax < 0 || ax > 3) && w[2] != 0 {
			t.Errorf("atomic %d outside the image returned %d, want 0", x, w[2])
		}
		if want := uint32(((x/4)%4 + (x%2)*4) * 11); w[3] != want {
			t.Errorf("multisample read %d: got %d, want %d", x, w[3], want)
		}
		fx := x - 2
		want := float32(0)
		if fx >= 0 && fx < 10 {
			want = refUnormDecode(uint64(fx*25), 8)
		}
		if got := math.Float32frombits(w[4]); got != want {
			t.Errorf("texel buffer fetch %d: got %v, want %v", x, got, want)
		}
		if w[5] != 0 || w[6] != 1 {
			t.Errorf("sparse %d: code %d, resident %d; want 0, 1", x, w[5], w[6])
		}
	}
	for x := 0; x < 4; x++ {
		if got := texel(x, 0); got != uint32(x+100) {
			t.Errorf("write (%d, 0): got %d", x, got)
		}
		if got, want := texel(x, 2), uint32(1008+x+map[int]int{0: 3, 1: 3, 2: 3, 3: 2}[x]); got != want {
			t.Errorf("atomics at (%d, 2): got %d, want %d", x, got, want)
		}
	}
	for x, v := range f32s(sb) {
		if v != float32(x)/2 {
			t.Errorf("storage texel buffer %d: got %v, want %v", x, v, float32(x)/2)
		}
	}
}

// TestImageBindingErrors checks that a binding that does not fit the
// variable's type is refused, naming it.
func TestImageBindingErrors(t *testing.T) {
	dev := New(Options{})
	code := asm(t, storeKernel, "FMT", "R32ui")
	wrongFormat := newImage(t, dev, backend.ImageDesc{Format: backend.FormatR32i, Dim: backend.Image2D, Width: 4, Height: 3})
	wrongDim := newImage(t, dev, backend.ImageDesc{Format: backend.FormatR32ui, Dim: backend.Image3D, Width: 4, Height: 3, Depth: 2})
	for _, c := range []struct {
		edit func(bs []backend.Binding)
		want string
	}{
		{func(bs []backend.Binding) { bs[0].Image = wrongFormat }, "declares format R32_UINT, the image has R32_SINT"},
		{func(bs []backend.Binding) { bs[0].Image = wrongDim }, "declares a 2D image"},
		{func(bs []backend.Binding) { bs[0].Kind = backend.SampledImage }, "a sampled image bound to an image variable"},
		{func(bs []backend.Binding) { bs[3].Format = backend.FormatR32i }, "reads float texels"},
		{func(bs []backend.Binding) { bs[2].Image = nil }, "not an image of this device"},
	} {
		_, _, _, _, _, bs := storeBindings(t, dev)
		c.edit(bs)
		_, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{1, 1, 1}, Bindings: bs})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want an error containing %q", err, c.want)
		}
	}
	_, _, _, _, _, bs := storeBindings(t, dev)
	_, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{1, 1, 1}, Bindings: bs[:4]})
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(e.Msg, "not bound") {
		t.Errorf("unbound texel buffer: got %v", err)
	}
	if _, err := dev.NewImage(backend.ImageDesc{Format: backend.FormatR8, Dim: backend.ImageCube, Width: 2, Height: 2, Layers: 5}); err == nil {
		t.Errorf("a cube image of 5 layers was accepted")
	}
	if _, err := dev.NewSampler(backend.SamplerDesc{Unnormalized: true, MaxLod: 2}); err == nil {
		t.Errorf("an unnormalized sampler with a LOD range was accepted")
	}
}
