package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestValCommand(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.spv")
	if rc, _, errs := runCLI("compile", "-V", "--target-env", "vulkan1.3", "-o", good, "../../examples/shaders/matmul_khr_f16.comp"); rc != 0 {
		t.Fatalf("compile: rc %d %s", rc, errs)
	}
	if rc, out, errs := runCLI("val", good); rc != 0 || out != "" || errs != "" {
		t.Fatalf("valid module: rc %d %q %q", rc, out, errs)
	}
	bad := filepath.Join(dir, "bad.spv")
	if rc, _, errs := runCLI("as", "-o", bad, "../../validate/testdata/coopmat_muladd_shape.spvasm"); rc != 0 {
		t.Fatalf("as: rc %d %s", rc, errs)
	}
	rc, _, errs := runCLI("val", bad)
	if rc != 1 || !strings.HasPrefix(errs, "error: line ") || !strings.Contains(errs, "OpCooperativeMatrixMulAddKHR") {
		t.Fatalf("invalid module: rc %d %q", rc, errs)
	}
	// Several files: each message names its file; flags may follow files.
	rc, _, errs = runCLI("val", good, bad, "--target-env", "vulkan1.3", "--scalar-block-layout", "--relax-block-layout",
		"--uniform-buffer-standard-layout", "--before-hlsl-legalization")
	if rc != 1 || !strings.HasPrefix(errs, bad+": error: line ") || strings.Contains(errs, good) {
		t.Fatalf("two files: rc %d %q", rc, errs)
	}
	if rc, _, _ := runCLI("val"); rc != 2 {
		t.Errorf("no files: rc %d", rc)
	}
	if rc, _, _ := runCLI("val", "--target-env", "vulkan9", good); rc != 2 {
		t.Errorf("bad env: rc %d", rc)
	}
	if rc, _, _ := runCLI("val", "--device", "no-such-gpu", good); rc != 2 {
		t.Errorf("bad device: rc %d", rc)
	}
	notSPV := filepath.Join(dir, "x.spv")
	os.WriteFile(notSPV, []byte("hello world, not SPIR-V!"), 0o644)
	if rc, _, errs := runCLI("val", notSPV); rc != 1 || !strings.Contains(errs, "magic number") {
		t.Errorf("not SPIR-V: rc %d %q", rc, errs)
	}
}

// TestValDevice: the fp16 x fp16 -> fp32 cooperative vector layer that
// computed garbage on an H100 is refused under the H100's profile, naming
// the instruction and the rule; without a device it is valid SPIR-V.
func TestValDevice(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "layer.comp")
	b, err := os.ReadFile("../../scripts/refused/coopvec_fp16_fp32.amber")
	if err != nil {
		t.Fatal(err)
	}
	// The script's inline shader runs from the SHADER line to END.
	_, body, _ := strings.Cut(string(b), "SHADER compute layer GLSL\n")
	body, _, _ = strings.Cut(body, "\nEND\n")
	os.WriteFile(src, []byte(body+"\n"), 0o644)
	spv := filepath.Join(dir, "layer.spv")
	if rc, _, errs := runCLI("compile", "-V", "--target-env", "vulkan1.3", "-o", spv, src); rc != 0 {
		t.Fatalf("compile: rc %d %s", rc, errs)
	}
	if rc, _, errs := runCLI("val", spv); rc != 0 {
		t.Fatalf("without a device: rc %d %s", rc, errs)
	}
	rc, _, errs := runCLI("val", "--device", "h100", spv)
	if rc != 1 || !strings.Contains(errs, "OpCooperativeVectorMatrixMulNV") || !strings.Contains(errs, "VUID-RuntimeSpirv-OpCooperativeVectorMatrixMulNV-10089") {
		t.Fatalf("h100: rc %d %q", rc, errs)
	}
	// The example as it ships now (fp16 -> fp16) is what the H100 lists.
	good := filepath.Join(dir, "good.spv")
	if rc, _, errs := runCLI("compile", "-V", "--target-env", "vulkan1.3", "-o", good, "../../examples/shaders/coopvec_layer.comp"); rc != 0 {
		t.Fatalf("compile: rc %d %s", rc, errs)
	}
	if rc, _, errs := runCLI("val", "--device", "h100", good); rc != 0 {
		t.Fatalf("examples/coopvec_layer under h100: rc %d %s", rc, errs)
	}
}

// TestRunValidates: coop run refuses an invalid module before its first
// dispatch; --no-validate runs it anyway.
func TestRunValidates(t *testing.T) {
	dir := t.TempDir()
	s := filepath.Join(dir, "bad.amber")
	os.WriteFile(s, []byte(`SHADER compute s SPIRV-ASM
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%u0 = OpConstant %uint 0
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpFAdd %float %u0 %u0
OpReturn
OpFunctionEnd
END
PIPELINE compute p
  ATTACH s
END
RUN p 1 1 1
`), 0o644)
	rc, _, errs := runCLI("run", s)
	if rc != 1 || !strings.Contains(errs, "invalid module") || !strings.Contains(errs, "error: line 12: Expected arithmetic operands") {
		t.Fatalf("rc %d %q", rc, errs)
	}
	if _, _, errs := runCLI("run", "--no-validate", s); strings.Contains(errs, "invalid module") {
		t.Fatalf("--no-validate still validated: %q", errs)
	}
}

// TestValSpec: --spec validates the module as a pipeline specialized with
// those values would run it; the MulAdd's K comes from SpecId 7 (default 16).
func TestValSpec(t *testing.T) {
	mod := filepath.Join(t.TempDir(), "spec.spv")
	if rc, _, errs := runCLI("as", "-o", mod, "../../validate/testdata/spec_muladd_shape.spvasm"); rc != 0 {
		t.Fatalf("as: rc %d %s", rc, errs)
	}
	if rc, _, errs := runCLI("val", mod, "--spec", "7=8"); rc != 1 || !strings.Contains(errs, "the columns of A must equal the rows of B") {
		t.Errorf("K=8: rc %d %q", rc, errs)
	}
	for _, args := range [][]string{{mod}, {"--spec", "7=16", mod}, {"--spec", "7=0x10", "--spec", "3=-1", mod}} {
		if rc, _, errs := runCLI(append([]string{"val"}, args...)...); rc != 0 {
			t.Errorf("%q: rc %d %q", args, rc, errs)
		}
	}
	for _, bad := range []string{"7", "x=1", "7=1.5", "7=yes"} {
		if rc, _, _ := runCLI("val", "--spec", bad, mod); rc != 2 {
			t.Errorf("--spec %s: rc %d, want 2", bad, rc)
		}
	}
}
