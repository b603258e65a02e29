package exec

import (
	"errors"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"

	"github.com/coopshader/coop/spirv"
	"github.com/coopshader/coop/spirv/text"
	"github.com/coopshader/coop/validate"
)

const coopmatHuge = `OpCapability Shader
OpCapability CooperativeMatrixKHR
OpCapability VulkanMemoryModel
OpExtension "SPV_KHR_cooperative_matrix"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 32 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%f32 = OpTypeFloat 32
%u32 = OpTypeInt 32 0
%big = OpConstant %u32 {{N}}
%s3 = OpConstant %u32 3
%u0 = OpConstant %u32 0
%cm = OpTypeCooperativeMatrixKHR %f32 %s3 %big %big %u0
%pcm = OpTypePointer Function %cm
%main = OpFunction %void None %fn
%l = OpLabel
%v = OpVariable %pcm Function
OpReturn
OpFunctionEnd
`

const corruptSrc = `OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid
OpExecutionMode %main LocalSize 1 1 1
OpName %main "main"
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %rt ArrayStride 4
OpMemberDecorate %st 0 Offset 0
OpDecorate %st Block
OpDecorate %buf Binding 0
OpDecorate %buf DescriptorSet 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u32 = OpTypeInt 32 0
%v3 = OpTypeVector %u32 3
%pv3 = OpTypePointer Input %v3
%gid = OpVariable %pv3 Input
%rt = OpTypeRuntimeArray %u32
%st = OpTypeStruct %rt
%pst = OpTypePointer StorageBuffer %st
%buf = OpVariable %pst StorageBuffer
%pu = OpTypePointer StorageBuffer %u32
%c0 = OpConstant %u32 0
%main = OpFunction %void None %fn
%l = OpLabel
%g = OpLoad %v3 %gid
%x = OpCompositeExtract %u32 %g 0
%p = OpAccessChain %pu %buf %c0 %x
OpStore %p %x
OpReturn
OpFunctionEnd
`

const idSmall = `OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u32 = OpTypeInt 32 0
%c = OpConstant %u32 7
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
`

// TestLoadAbsurdSizes: a cooperative matrix of 4294967295 x 4294967295
// and result ids of 4294967295 are clear errors from Load, not recovered
// internal errors (nor allocations of the id bound's size).
func TestLoadAbsurdSizes(t *testing.T) {
	load := func(m *spirv.Module) error {
		_, err := Load(m, "", nil, 32)
		return err
	}
	asmMod := func(src string) *spirv.Module {
		m, err := text.Assemble([]byte(src), "t.spvasm")
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	for _, n := range []string{"4294967295", "65536"} {
		err := load(asmMod(strings.ReplaceAll(coopmatHuge, "{{N}}", n)))
		if err == nil || strings.Contains(err.Error(), "internal error") || !strings.Contains(err.Error(), "cooperative matrix of "+n+" x "+n) {
			t.Errorf("coopmat %s: %v", n, err)
		}
	}
	// A result id at or past the bound (a validation rule).
	m := asmMod(idSmall)
	for i := range m.Insts {
		if m.Insts[i].Op == spirv.OpConstant {
			m.Insts[i].Words[1] = 0xffffffff
		}
	}
	if err := load(m); err == nil || !strings.Contains(err.Error(), "Result <id> '4294967295' is not less than the id bound") {
		t.Errorf("result id past the bound: %v", err)
	}
	// A bound past SPIR-V's universal limit, even if every id is below it.
	m = asmMod(idSmall)
	m.Bound = 0xffffffff
	if err := load(m); err == nil || !strings.Contains(err.Error(), "error: id bound 4294967295 is too large") {
		t.Errorf("huge bound: %v", err)
	}
}

// TestLoadCorruptWords: every word of a small module set in turn to 0,
// the bound and 4294967295 gives a clear error or a module that loads,
// never an internal error (result ids of 4294967295 used to wrap the id
// bound to 0, a result type %0 to reach a nil type).
func TestLoadCorruptWords(t *testing.T) {
	src := corruptSrc
	m0, err := text.Assemble([]byte(src), "t")
	if err != nil {
		t.Fatal(err)
	}
	for i := range m0.Insts {
		for j := range m0.Insts[i].Words {
			for _, v := range []uint32{0xffffffff, m0.Bound, 0} {
				m, _ := text.Assemble([]byte(src), "t")
				m.Insts[i].Words[j] = v
				_, err := Load(m, "", nil, 32)
				if err != nil && strings.Contains(err.Error(), "internal") {
					t.Errorf("inst %d word %d = %d: %v", i, j, v, err)
				}
			}
		}
	}
}

// TestLoadValidates: Load runs the validator's structural passes, so a
// malformed module fails with the validator's error naming the rule; a
// Device told to trust words (Trust) reuses the module and result it was
// given instead of decoding and validating them.
func TestLoadValidates(t *testing.T) {
	m, err := text.Assemble([]byte(strings.Replace(corruptSrc, "OpStore %p %x", "OpStore %p %y", 1)), "t.spvasm")
	if err != nil {
		t.Fatal(err)
	}
	var ve *validate.Error
	if _, err := Load(m, "", nil, 32); !errors.As(err, &ve) || ve.Rule != "id.defined" {
		t.Fatalf("Load of a module using an undefined id: %v, want the validator's id.defined", err)
	}
	if m, err = text.Assemble([]byte(corruptSrc), "t.spvasm"); err != nil {
		t.Fatal(err)
	}
	res, err := validate.Validate(m, validate.Options{StructureOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	dev := New(Options{})
	words := []uint32{1, 2, 3} // not a module: trusted words are not decoded
	dev.Trust(words, m, res)
	out := u32buf(t, dev, make([]uint32, 1))
	mustRun(t, dev, words, 1, out)
	if _, err := dev.Dispatch(&backend.Dispatch{Code: []uint32{1, 2, 4}, Entry: "main", Groups: [3]uint32{1, 1, 1}}); err == nil {
		t.Fatal("untrusted garbage words dispatched")
	}
}
