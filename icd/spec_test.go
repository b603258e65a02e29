package icd

import (
	"encoding/binary"
	"os"
	"strings"
	"testing"
	"unsafe"

	"github.com/coopshader/coop/glsl/compile"
	"github.com/coopshader/coop/icd/vkt"
	"github.com/coopshader/coop/spirv/text"
)

// TestSpecializedDeviceRule creates a pipeline of testdata/shape.comp
// whose default specialization fits the device and one whose
// specialization breaks a device rule, which is refused with the rule
// named.
func TestSpecializedDeviceRule(t *testing.T) {
	src, err := os.ReadFile("testdata/shape.comp")
	if err != nil {
		t.Fatal(err)
	}
	words, err := compile.Words("shape.comp", src, compile.Options{TargetEnv: "vulkan1.3"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := prepare(words, "main", nil, defaultSubgroup); err != nil {
		t.Fatalf("default specialization refused: %v", err)
	}
	spec := map[uint32][]byte{7: binary.LittleEndian.AppendUint32(nil, 8)}
	_, err = prepare(words, "main", spec, defaultSubgroup)
	if err == nil {
		t.Fatal("an 8x8x8 float16 multiply-add was accepted")
	}
	t.Log(err)
	if !strings.Contains(err.Error(), "VUID-RuntimeSpirv-") {
		t.Errorf("error %q names no rule", err)
	}
}

// TestSecondEntryPoint creates pipelines of both entry points of one
// module: the validator's device rules see the pipeline's entry point
// (validate.Options.EntryPoint), so the second one is accepted although
// the first one's workgroup is over the device's size limit, and
// the first is refused with the rule named.
func TestSecondEntryPoint(t *testing.T) {
	m, err := text.Assemble([]byte(`
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %b "large"
OpEntryPoint GLCompute %a "small"
OpExecutionMode %a LocalSize 64 1 1
OpExecutionMode %b LocalSize 2048 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%a = OpFunction %void None %fn
%la = OpLabel
OpReturn
OpFunctionEnd
%b = OpFunction %void None %fn
%lb = OpLabel
OpReturn
OpFunctionEnd
`), "two.spvasm")
	if err != nil {
		t.Fatal(err)
	}
	words, err := m.Words()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := prepare(words, "small", nil, defaultSubgroup); err != nil {
		t.Fatalf("entry point small refused: %v", err)
	}
	_, err = prepare(words, "large", nil, defaultSubgroup)
	if err == nil || !strings.Contains(err.Error(), "VUID-RuntimeSpirv-x-06429") {
		t.Fatalf("entry point large: got %v, want the workgroup size limit's rule", err)
	}
}

// TestFailOnCompileRequired: with pipelineCreationCacheControl reported, a
// creation flagged VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT
// returns VK_PIPELINE_COMPILE_REQUIRED and no pipeline (the driver's
// caches hold none); with early return, later pipelines are not created.
func TestFailOnCompileRequired(t *testing.T) {
	dev := newTestDevice(t)
	words, err := compile.Words("one.comp", []byte("#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n"), compile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var mod uint64
	mci := vkt.ShaderModuleCreateInfo{SType: vkt.StructureTypeShaderModuleCreateInfo, CodeSize: uintptr(4 * len(words)), PCode: unsafe.Pointer(&words[0])}
	if r := CreateShaderModule(dev, unsafe.Pointer(&mci), nil, unsafe.Pointer(&mod)); r != success {
		t.Fatalf("vkCreateShaderModule: %d", r)
	}
	defer DestroyShaderModule(dev, mod, nil)
	name := []byte("main\x00")
	info := func(flags vkt.PipelineCreateFlags) vkt.ComputePipelineCreateInfo {
		return vkt.ComputePipelineCreateInfo{SType: vkt.StructureTypeComputePipelineCreateInfo, Flags: flags,
			Stage: vkt.PipelineShaderStageCreateInfo{SType: vkt.StructureTypePipelineShaderStageCreateInfo,
				Stage: vkt.ShaderStageComputeBit, Module: vkt.ShaderModule(mod), PName: unsafe.Pointer(&name[0])}}
	}
	fail, early := vkt.PipelineCreateFailOnPipelineCompileRequiredBit, vkt.PipelineCreateEarlyReturnOnFailureBit
	for _, c := range []struct {
		flags []vkt.PipelineCreateFlags
		made  []bool
	}{
		{[]vkt.PipelineCreateFlags{0, fail, 0}, []bool{true, false, true}},
		{[]vkt.PipelineCreateFlags{0, fail | early, 0}, []bool{true, false, false}},
	} {
		var infos []vkt.ComputePipelineCreateInfo
		for _, f := range c.flags {
			infos = append(infos, info(f))
		}
		out := []uint64{7, 7, 7}
		r := CreateComputePipelines(dev, 0, uint32(len(infos)), unsafe.Pointer(&infos[0]), nil, unsafe.Pointer(&out[0]))
		if r != int32(vkt.PipelineCompileRequired) {
			t.Errorf("flags %v: vkCreateComputePipelines gives %d", c.flags, r)
		}
		for i, p := range out {
			if (p != 0) != c.made[i] {
				t.Errorf("flags %v: pipeline %d is %#x", c.flags, i, p)
			}
			if p != 0 {
				DestroyPipeline(dev, p, nil)
			}
		}
	}
}
