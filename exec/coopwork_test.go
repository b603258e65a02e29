package exec

import (
	"strings"
	"testing"
	"time"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/spirv/text"
)

// mulAddLoop multiplies two {{N}} x {{N}} cooperative matrices for ever.
const mulAddLoop = `OpCapability Shader
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
%bool = OpTypeBool
%n = OpConstant %u32 {{N}}
%s3 = OpConstant %u32 3
%u0 = OpConstant %u32 0
%u1 = OpConstant %u32 1
%u2 = OpConstant %u32 2
%one = OpConstant %f32 1
%ta = OpTypeCooperativeMatrixKHR %f32 %s3 %n %n %u0
%tb = OpTypeCooperativeMatrixKHR %f32 %s3 %n %n %u1
%tc = OpTypeCooperativeMatrixKHR %f32 %s3 %n %n %u2
%t = OpConstantTrue %bool
%main = OpFunction %void None %fn
%entry = OpLabel
%a = OpCompositeConstruct %ta %one
%b = OpCompositeConstruct %tb %one
%c0 = OpCompositeConstruct %tc %one
OpBranch %head
%head = OpLabel
%c = OpPhi %tc %c0 %entry %d %cont
OpLoopMerge %merge %cont None
OpBranchConditional %t %body %merge
%body = OpLabel
%d = OpCooperativeMatrixMulAddKHR %tc %a %b %c
OpBranch %cont
%cont = OpLabel
OpBranch %head
%merge = OpLabel
OpReturn
OpFunctionEnd
`

// TestCoopWorkBudget: a cooperative matrix multiply costs its
// multiply-adds, not one step, so a loop of large ones stops within the
// step and work budgets in about the time they stand for (it used to run
// for hours on a budget of 4096 steps), in lockstep and out of it.
func TestCoopWorkBudget(t *testing.T) {
	m, err := text.Assemble([]byte(strings.ReplaceAll(mulAddLoop, "{{N}}", "128")), "loop.spvasm")
	if err != nil {
		t.Fatal(err)
	}
	code, err := m.Words()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		opts   Options
		budget int64
		want   string
	}{
		{Options{StepBudget: 1 << 16}, 0, "step budget exhausted by this instruction's work"},
		{Options{StepBudget: 1 << 16, noLockstep: true}, 0, "step budget exhausted by this instruction's work"},
		{Options{}, 1 << 20, "the work budget of 1048576 instructions per dispatch is spent"},
		{Options{WorkBudget: 1 << 20, noLockstep: true}, 0, "the work budget of 1048576 instructions per dispatch is spent"},
	} {
		start := time.Now()
		_, err := New(c.opts).Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{1, 1, 1}, WorkBudget: c.budget})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v, want %q", c.opts, err, c.want)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%+v: took %v", c.opts, d)
		}
	}
}
