package exec

import (
	"encoding/binary"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/internal/reftool"
	"github.com/coopshader/coop/spirv"
	"github.com/coopshader/coop/spirv/text"
)

// untypedSrc reads a struct through untyped and typed access chains
// (bindings 0 and 1 are the same buffer) and writes the results through
// untyped pointers to binding 2.
const untypedSrc = `
               OpCapability Shader
               OpCapability UntypedPointersKHR
               OpCapability VariablePointers
               OpExtension "SPV_KHR_untyped_pointers"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %in %typed %out %gid
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %S Block
               OpMemberDecorate %S 0 Offset 0
               OpMemberDecorate %S 1 Offset 16
               OpMemberDecorate %S 2 Offset 32
               OpMemberDecorate %S 2 RowMajor
               OpMemberDecorate %S 2 MatrixStride 16
               OpMemberDecorate %S 3 Offset 64
               OpMemberDecorate %T 0 Offset 0
               OpMemberDecorate %T 1 Offset 4
               OpDecorate %Tarr ArrayStride 8
               OpDecorate %O Block
               OpMemberDecorate %O 0 Offset 0
               OpDecorate %uarr ArrayStride 4
               OpDecorate %ptrU ArrayStride 8
               OpDecorate %in DescriptorSet 0
               OpDecorate %in Binding 0
               OpDecorate %typed DescriptorSet 0
               OpDecorate %typed Binding 1
               OpDecorate %out DescriptorSet 0
               OpDecorate %out Binding 2
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
        %int = OpTypeInt 32 1
      %float = OpTypeFloat 32
    %v3float = OpTypeVector %float 3
    %v2float = OpTypeVector %float 2
     %mat2v2 = OpTypeMatrix %v2float 2
     %v3uint = OpTypeVector %uint 3
          %T = OpTypeStruct %uint %uint
       %Tarr = OpTypeRuntimeArray %T
          %S = OpTypeStruct %uint %v3float %mat2v2 %Tarr
       %uarr = OpTypeRuntimeArray %uint
          %O = OpTypeStruct %uarr
       %ptrU = OpTypeUntypedPointerKHR StorageBuffer
       %ptrS = OpTypePointer StorageBuffer %S
    %ptrSu32 = OpTypePointer StorageBuffer %uint
    %ptrSf32 = OpTypePointer StorageBuffer %float
    %ptrInV3 = OpTypePointer Input %v3uint
        %gid = OpVariable %ptrInV3 Input
         %in = OpUntypedVariableKHR %ptrU StorageBuffer %S
      %typed = OpVariable %ptrS StorageBuffer
        %out = OpUntypedVariableKHR %ptrU StorageBuffer %O
      %int_0 = OpConstant %int 0
      %int_1 = OpConstant %int 1
      %int_2 = OpConstant %int 2
      %int_3 = OpConstant %int 3
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_3 = OpConstant %uint 3
     %uint_5 = OpConstant %uint 5
    %uint_77 = OpConstant %uint 77
%uint_4 = OpConstant %uint 4
%uint_6 = OpConstant %uint 6
%uint_7 = OpConstant %uint 7
%uint_8 = OpConstant %uint 8
%uint_10 = OpConstant %uint 10
%uint_11 = OpConstant %uint 11
%uint_12 = OpConstant %uint 12
%uint_13 = OpConstant %uint 13
%uint_14 = OpConstant %uint 14
       %main = OpFunction %void None %fn
          %l = OpLabel
         %g3 = OpLoad %v3uint %gid
          %x = OpCompositeExtract %uint %g3 0
         %i3 = OpIAdd %uint %x %uint_3
; a: typed and untyped
         %pa = OpAccessChain %ptrSu32 %typed %int_0
          %a = OpLoad %uint %pa
        %ua0 = OpUntypedAccessChainKHR %ptrU %S %in %int_0
        %ua = OpLoad %uint %ua0
         %o0 = OpUntypedAccessChainKHR %ptrU %O %out %int_0 %int_0
               OpStore %o0 %a
         %o1 = OpUntypedAccessChainKHR %ptrU %O %out %int_0 %int_1
               OpStore %o1 %ua
; v.y
         %pv = OpAccessChain %ptrSf32 %typed %int_1 %int_1
         %vy = OpLoad %float %pv
        %uvp = OpUntypedAccessChainKHR %ptrU %S %in %int_1 %int_1
        %uvy = OpLoad %float %uvp
         %o2 = OpUntypedAccessChainKHR %ptrU %O %out %int_0 %int_2
               OpStore %o2 %vy
         %o3 = OpUntypedAccessChainKHR %ptrU %O %out %int_0 %int_3
               OpStore %o3 %uvy
; row-major m[1][0]
         %pm = OpAccessChain %ptrSf32 %typed %int_2 %int_1 %int_0
         %m10 = OpLoad %float %pm
        %upm = OpUntypedAccessChainKHR %ptrU %S %in %int_2 %int_1 %int_0
       %um10 = OpLoad %float %upm
         %o4 = OpUntypedInBoundsAccessChainKHR %ptrU %O %out %int_0 %uint_4
               OpStore %o4 %m10
         %o5 = OpUntypedAccessChainKHR %ptrU %O %out %int_0 %uint_5
               OpStore %o5 %um10
; arr[x+3].y, dynamic index
         %pt = OpAccessChain %ptrSu32 %typed %int_3 %i3 %int_1
         %ty = OpLoad %uint %pt
        %upt = OpUntypedAccessChainKHR %ptrU %S %in %int_3 %i3 %int_1
        %uty = OpLoad %uint %upt
         %o6 = OpUntypedAccessChainKHR %ptrU %O %out %int_0 %uint_6
               OpStore %o6 %ty
         %o7 = OpUntypedAccessChainKHR %ptrU %O %out %int_0 %uint_7
               OpStore %o7 %uty
; pointer chain: from arr[1], element 2 -> arr[3].x
        %ua1 = OpUntypedAccessChainKHR %ptrU %S %in %int_3 %int_1
        %up3 = OpUntypedPtrAccessChainKHR %ptrU %T %ua1 %int_2 %int_0
        %u3x = OpLoad %uint %up3
         %o8 = OpUntypedAccessChainKHR %ptrU %O %out %int_0 %uint_8
               OpStore %o8 %u3x
; atomics through an untyped pointer
        %o10 = OpUntypedAccessChainKHR %ptrU %O %out %int_0 %uint_10
        %old = OpAtomicIAdd %uint %o10 %uint_1 %uint_0 %uint_5
        %o11 = OpUntypedAccessChainKHR %ptrU %O %out %int_0 %uint_11
               OpAtomicStore %o11 %uint_1 %uint_0 %old
; copy from a typed pointer into an untyped one
        %o12 = OpUntypedAccessChainKHR %ptrU %O %out %int_0 %uint_12
               OpCopyMemory %o12 %pa
; a whole struct through an untyped pointer
        %ut2 = OpUntypedAccessChainKHR %ptrU %S %in %int_3 %int_2
         %t2 = OpLoad %T %ut2
        %t2y = OpCompositeExtract %uint %t2 1
        %o13 = OpUntypedAccessChainKHR %ptrU %O %out %int_0 %uint_13
               OpStore %o13 %t2y
               OpReturn
               OpFunctionEnd
`

// heapSrc has each invocation x reach buffer x through the resource heap:
// buffer descriptors from byte 64 of the heap, one every
// OpConstantSizeOfEXT bytes. It writes 100*size+x to word 1 and word 0 + 1
// to word 2.
const heapSrc = `
               OpCapability Shader
               OpCapability Int8
               OpCapability UntypedPointersKHR
               OpCapability DescriptorHeapEXT
               OpExtension "SPV_EXT_descriptor_heap"
               OpExtension "SPV_KHR_untyped_pointers"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %heap %gid
               OpExecutionMode %main LocalSize 4 1 1
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %heap BuiltIn ResourceHeapEXT
               OpDecorateId %descs ArrayStrideIdEXT %dsize
               OpDecorate %bytes ArrayStride 1
               OpDecorate %O Block
               OpMemberDecorate %O 0 Offset 0
               OpDecorate %uarr ArrayStride 4
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
        %int = OpTypeInt 32 1
      %uchar = OpTypeInt 8 0
     %v3uint = OpTypeVector %uint 3
       %bufT = OpTypeBufferEXT StorageBuffer
      %dsize = OpConstantSizeOfEXT %uint %bufT
      %descs = OpTypeRuntimeArray %bufT
      %bytes = OpTypeRuntimeArray %uchar
       %uarr = OpTypeRuntimeArray %uint
          %O = OpTypeStruct %uarr
      %ptrUC = OpTypeUntypedPointerKHR UniformConstant
       %ptrO = OpTypePointer StorageBuffer %O
     %ptrU32 = OpTypePointer StorageBuffer %uint
    %ptrInV3 = OpTypePointer Input %v3uint
        %gid = OpVariable %ptrInV3 Input
       %heap = OpUntypedVariableKHR %ptrUC UniformConstant
      %int_0 = OpConstant %int 0
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
    %uint_64 = OpConstant %uint 64
   %uint_100 = OpConstant %uint 100
       %main = OpFunction %void None %fn
          %l = OpLabel
         %g3 = OpLoad %v3uint %gid
          %x = OpCompositeExtract %uint %g3 0
       %base = OpUntypedAccessChainKHR %ptrUC %bytes %heap %uint_64
          %d = OpUntypedAccessChainKHR %ptrUC %descs %base %x
          %p = OpBufferPointerEXT %ptrO %d
         %p0 = OpAccessChain %ptrU32 %p %int_0 %uint_0
         %e0 = OpLoad %uint %p0
         %p1 = OpAccessChain %ptrU32 %p %int_0 %uint_1
         %sz = OpIMul %uint %dsize %uint_100
          %v = OpIAdd %uint %sz %x
               OpStore %p1 %v
         %p2 = OpAccessChain %ptrU32 %p %int_0 %uint_2
         %e1 = OpIAdd %uint %e0 %uint_1
               OpStore %p2 %e1
               OpReturn
               OpFunctionEnd
`

// asmValid assembles src with coop's assembler and, when spirv-val is
// installed, checks that it is valid for Vulkan 1.3.
func asmValid(t *testing.T, src string) []uint32 {
	t.Helper()
	m, err := text.Assemble([]byte(src), "test.spvasm")
	if err != nil {
		t.Fatal(err)
	}
	w, err := m.Words()
	if err != nil {
		t.Fatal(err)
	}
	if val := reftool.Path("spirv-val"); val != "" {
		b, _ := m.Encode()
		f := filepath.Join(t.TempDir(), "m.spv")
		os.WriteFile(f, b, 0o644)
		if out, err := exec.Command(val, "--target-env", "vulkan1.3", f).CombinedOutput(); err != nil {
			t.Fatalf("spirv-val: %s", out)
		}
	}
	return w
}

func TestUntypedAccessChains(t *testing.T) {
	code := asmValid(t, untypedSrc)
	for _, lockstep := range []bool{true, false} {
		dev := New(Options{noLockstep: !lockstep})
		in, _ := dev.NewBuffer(256, backend.UsageStorage)
		b := Bytes(in)
		le := binary.LittleEndian
		le.PutUint32(b[0:], 1234)
		for k, f := range []float32{1.5, 2.5, 3.5} {
			le.PutUint32(b[16+4*k:], math.Float32bits(f))
		}
		le.PutUint32(b[36:], math.Float32bits(7.25)) // row-major m[1][0]
		for i := 0; i < 8; i++ {
			le.PutUint32(b[64+8*i:], uint32(100+i))
			le.PutUint32(b[68+8*i:], uint32(200+i))
		}
		out := u32buf(t, dev, make([]uint32, 16))
		if _, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{1, 1, 1},
			Bindings: []backend.Binding{{Binding: 0, Buffer: in}, {Binding: 1, Buffer: in}, {Binding: 2, Buffer: out}}}); err != nil {
			t.Fatal(err)
		}
		got := u32s(out)
		want := map[int]uint32{0: 1234, 1: 1234, 2: math.Float32bits(2.5), 3: math.Float32bits(2.5), 4: math.Float32bits(7.25),
			5: math.Float32bits(7.25), 6: 203, 7: 203, 8: 103, 9: 0, 10: 5, 11: 0, 12: 1234, 13: 202}
		for i, w := range want {
			if got[i] != w {
				t.Errorf("lockstep %v: out[%d] = %d, want %d", lockstep, i, got[i], w)
			}
		}
	}
}

// heapRun dispatches heapSrc on 4 buffers (word 0 of buffer i holding 10*i)
// whose descriptors fill is given the heap to write.
func heapRun(t *testing.T, fill func(heap []byte, bufs []backend.Buffer)) ([]backend.Buffer, error) {
	t.Helper()
	dev := New(Options{})
	var bufs []backend.Buffer
	for i := range 4 {
		bufs = append(bufs, u32buf(t, dev, []uint32{uint32(10 * i), 0, 0, 0}))
	}
	heap, _ := dev.NewBuffer(1024, backend.UsageStorage)
	fill(Bytes(heap), bufs)
	_, err := dev.Dispatch(&backend.Dispatch{Code: asmValid(t, heapSrc), Entry: "main", Groups: [3]uint32{1, 1, 1}, ResourceHeap: heap})
	return bufs, err
}

func TestHeapBufferDescriptors(t *testing.T) {
	bufs, err := heapRun(t, func(heap []byte, bufs []backend.Buffer) {
		for i, b := range bufs {
			copy(heap[64+BufferDescriptorSize*i:], BufferDescriptor(b))
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range bufs {
		got := u32s(b)
		if want := []uint32{uint32(10 * i), 100*BufferDescriptorSize + uint32(i), uint32(10*i + 1), 0}; !slices.Equal(got, want) {
			t.Errorf("buffer %d = %v, want %v", i, got, want)
		}
	}
}

func TestHeapFaults(t *testing.T) {
	cases := []struct {
		name string
		fill func(heap []byte, bufs []backend.Buffer)
		want string
	}{
		{"null descriptor", func([]byte, []backend.Buffer) {}, "null buffer descriptor"},
		{"not a buffer", func(heap []byte, _ []backend.Buffer) {
			for i := range 4 {
				binary.LittleEndian.PutUint64(heap[64+16*i:], 0x0300000000000010)
			}
		}, "not the address of a buffer"},
		{"too long", func(heap []byte, bufs []backend.Buffer) {
			for i, b := range bufs {
				d := BufferDescriptor(b)
				binary.LittleEndian.PutUint64(d[8:], 17)
				copy(heap[64+16*i:], d)
			}
		}, "runs past its buffer of 16 bytes"},
	}
	for _, c := range cases {
		_, err := heapRun(t, c.fill)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "OpBufferPointerEXT") {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	dev := New(Options{})
	_, err := dev.Dispatch(&backend.Dispatch{Code: asmValid(t, heapSrc), Entry: "main", Groups: [3]uint32{1, 1, 1}})
	if err == nil || !strings.Contains(err.Error(), "no resource heap") {
		t.Errorf("missing heap: %v", err)
	}
	m, _ := text.Assemble([]byte(heapSrc), "heap.spvasm")
	pr, err := Load(m, "main", nil, 32)
	if err != nil {
		t.Fatal(err)
	}
	if res, smp := pr.Heaps(); !res || smp {
		t.Errorf("Heaps() = %v, %v", res, smp)
	}
	if BufferDescriptor(nil) != nil {
		t.Error("descriptor of nil")
	}
}

// TestHeapLayoutIDs checks OffsetIdEXT and ArrayStrideIdEXT take their
// constants' values, and OpConstantSizeOfEXT the descriptor sizes.
func TestHeapLayoutIDs(t *testing.T) {
	src := `OpCapability Shader
OpCapability UntypedPointersKHR
OpCapability DescriptorHeapEXT
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpMemberDecorateIdEXT %S 0 OffsetIdEXT %u0
OpMemberDecorateIdEXT %S 1 OffsetIdEXT %off
OpDecorateId %arr ArrayStrideIdEXT %sz
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%buf = OpTypeBufferEXT Uniform
%smp = OpTypeSampler
%u0 = OpConstant %uint 0
%u4 = OpConstant %uint 4
%sz = OpConstantSizeOfEXT %uint %buf
%ssz = OpConstantSizeOfEXT %uint %smp
%off = OpSpecConstantOp %uint IAdd %u4 %sz
%arr = OpTypeArray %buf %u4
%S = OpTypeStruct %uint %arr
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
`
	m, err := text.Assemble([]byte(src), "ids.spvasm")
	if err != nil {
		t.Fatal(err)
	}
	pr, err := Load(m, "", nil, 32)
	if err != nil {
		t.Fatal(err)
	}
	p := pr.p
	var st, arr *typ
	for _, t := range p.types {
		switch t.kind {
		case kStruct:
			st = t
		case kArray:
			arr = t
		}
	}
	if arr == nil || arr.stride != BufferDescriptorSize || arr.size != 4*BufferDescriptorSize {
		t.Fatalf("array %+v", arr)
	}
	if st == nil || st.offs[0] != 0 || st.offs[1] != 4+BufferDescriptorSize {
		t.Fatalf("struct %+v", st)
	}
	sizes := map[uint64]bool{}
	for i, in := range m.Insts {
		if in.Op == spirv.OpConstantSizeOfEXT {
			v, ok := p.constU(in.ResultID())
			if !ok {
				t.Fatalf("instruction %d has no value", i)
			}
			sizes[v] = true
		}
	}
	if !sizes[BufferDescriptorSize] || !sizes[OpaqueDescriptorSize] {
		t.Errorf("sizes %v", sizes)
	}
}

// TestUntypedVariables runs untyped Function and Private variables (not
// Vulkan SPIR-V, but SPV_KHR_untyped_pointers allows them elsewhere).
func TestUntypedVariables(t *testing.T) {
	src := `OpCapability Shader
OpCapability UntypedPointersKHR
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %out %pv
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %O Block
OpMemberDecorate %O 0 Offset 0
OpDecorate %arr ArrayStride 4
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%u2 = OpConstant %uint 2
%u5 = OpConstant %uint 5
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%arr = OpTypeArray %uint %u2
%O = OpTypeStruct %arr
%ptrSB = OpTypeUntypedPointerKHR StorageBuffer
%ptrF = OpTypeUntypedPointerKHR Function
%ptrP = OpTypeUntypedPointerKHR Private
%out = OpUntypedVariableKHR %ptrSB StorageBuffer %O
%pv = OpUntypedVariableKHR %ptrP Private %uint %u5
%main = OpFunction %void None %fn
%l = OpLabel
%fv = OpUntypedVariableKHR %ptrF Function %arr
%e1 = OpUntypedAccessChainKHR %ptrF %arr %fv %u1
OpStore %e1 %u2
%a = OpLoad %arr %fv
%o = OpUntypedAccessChainKHR %ptrSB %O %out %u0
OpStore %o %a
%p = OpLoad %uint %pv
%o0 = OpUntypedAccessChainKHR %ptrSB %O %out %u0 %u0
OpStore %o0 %p
OpReturn
OpFunctionEnd
`
	m, err := text.Assemble([]byte(src), "vars.spvasm")
	if err != nil {
		t.Fatal(err)
	}
	code, _ := m.Words()
	dev := New(Options{})
	out := u32buf(t, dev, []uint32{9, 9})
	mustRun(t, dev, code, 1, out)
	if got := u32s(out); got[0] != 5 || got[1] != 2 {
		t.Errorf("out = %v, want [5 2]", got)
	}
}
