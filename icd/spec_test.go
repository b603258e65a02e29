package icd

import (
	"encoding/binary"
	"os"
	"strings"
	"testing"

	"github.com/coopshader/coop/glsl/compile"
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
