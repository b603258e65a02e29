package validate

import (
	"testing"

	"github.com/coopshader/coop/spirv/text"
)

// TestSpecOp: with Options.Spec, specialization constants take the given
// or default values and OpSpecConstantOp's integer and Boolean operations
// are evaluated at their operands' width and signedness.
func TestSpecOp(t *testing.T) {
	m, err := text.Assemble([]byte(`OpCapability Shader
OpMemoryModel Logical GLSL450
OpDecorate %a SpecId 0
OpDecorate %d SpecId 1
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%bool = OpTypeBool
%a = OpSpecConstant %int 1
%d = OpSpecConstant %uint 5
%m3 = OpConstant %int -3
%one = OpConstant %int 1
%sdiv = OpSpecConstantOp %int SDiv %a %m3
%smod = OpSpecConstantOp %int SMod %a %m3
%srem = OpSpecConstantOp %int SRem %a %m3
%ult = OpSpecConstantOp %bool ULessThan %a %m3
%slt = OpSpecConstantOp %bool SLessThan %a %m3
%sra = OpSpecConstantOp %int ShiftRightArithmetic %m3 %one
%srl = OpSpecConstantOp %int ShiftRightLogical %m3 %one
%mul = OpSpecConstantOp %uint IMul %d %d
%sel = OpSpecConstantOp %uint Select %slt %d %mul
%zero = OpSpecConstantOp %int SDiv %a %a
`), "t")
	if err != nil {
		t.Fatal(err)
	}
	s, err := newState(m, Options{TargetEnv: "spv1.6", Spec: map[uint32][]byte{0: {7, 0, 0, 0}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range passes[:8] { // through checkConstants
		if p.run(s); s.err != nil {
			t.Fatal(s.finish())
		}
	}
	neg := func(v int64) uint64 { return uint64(v) }
	names := []string{"a", "d", "m3", "one", "sdiv", "smod", "srem", "ult", "slt", "sra", "srl", "mul", "sel", "zero"}
	want := map[string]uint64{"a": 7, "d": 5, "sdiv": neg(-2), "smod": neg(-2), "srem": 1,
		"ult": 1, "slt": 0, "sra": neg(-2), "srl": 0x7ffffffe, "mul": 25, "sel": 25, "zero": 1}
	k := 0
	for i := range m.Insts {
		in := &m.Insts[i]
		if !isConstInst(in.Op) {
			continue
		}
		name := names[k]
		k++
		w, ok := want[name]
		if !ok {
			continue
		}
		if v, known := s.constValue(in.ResultID()); !known || v != w {
			t.Errorf("%%%s = %#x (known %v), want %#x", name, v, known, w)
		}
	}
}
