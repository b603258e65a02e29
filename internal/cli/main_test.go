package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coopshader/coop/internal/reftool"
)

func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	rc := Main(args, &out, &errb)
	return rc, out.String(), errb.String()
}

func TestUsage(t *testing.T) {
	rc, _, errs := runCLI()
	if rc != 2 || !strings.Contains(errs, "compile") {
		t.Fatalf("rc %d, usage %q", rc, errs)
	}
	if rc, _, _ := runCLI("nope"); rc != 2 {
		t.Fatalf("unknown command rc %d", rc)
	}
	if rc, out, errs := runCLI("--help"); rc != 0 || !strings.Contains(out, "commands:") || errs != "" {
		t.Fatalf("--help: rc %d, %q, %q", rc, out, errs)
	}
	if rc, out, _ := runCLI("--version"); rc != 0 || !strings.HasPrefix(out, "coop ") {
		t.Fatalf("--version: rc %d, %q", rc, out)
	}
}

// TestHelpVersionAndBadFlags: every command prints its help to stdout
// with status 0 for -h and --help, its version for --version, and an
// error with the help to stderr with status 2 for an unknown flag, before
// or after its arguments.
func TestHelpVersionAndBadFlags(t *testing.T) {
	for _, c := range commands {
		cmd := c.name
		for _, h := range []string{"-h", "--help"} {
			if rc, out, errs := runCLI(cmd, h); rc != 0 || !strings.Contains(out, "usage: coop "+cmd) || errs != "" {
				t.Errorf("%s %s: rc %d, stdout %q, stderr %q", cmd, h, rc, out, errs)
			}
		}
		if rc, out, errs := runCLI(cmd, "--version"); rc != 0 || !strings.HasPrefix(out, "coop "+cmd+" ") || errs != "" {
			t.Errorf("%s --version: rc %d, stdout %q, stderr %q", cmd, rc, out, errs)
		}
		for _, args := range [][]string{{"--bogus", "x"}, {"x", "--bogus"}} {
			if rc, out, errs := runCLI(append([]string{cmd}, args...)...); rc != 2 || out != "" || !strings.Contains(errs, "bogus") || !strings.Contains(errs, "usage: coop "+cmd) {
				t.Errorf("%s %v: rc %d, stdout %q, stderr %q", cmd, args, rc, out, errs)
			}
		}
	}
}

// TestFlagsAfterScripts: run and bench read flags after the scripts, as
// amber and the other commands do.
func TestFlagsAfterScripts(t *testing.T) {
	rc, out, errs := runCLI("run", "../../examples/matmul_khr_i8.amber", "--backend", "cpu")
	if rc != 0 || !strings.Contains(out, "0 failed") {
		t.Fatalf("run: rc %d\n%s\n%s", rc, out, errs)
	}
	rc, out, errs = runCLI("bench", "../../examples/matmul_khr_i8.amber", "--runs", "2")
	if rc != 0 || !strings.Contains(out, "(2 runs)") {
		t.Fatalf("bench: rc %d\n%s\n%s", rc, out, errs)
	}
	if rc, _, errs := runCLI("run", "--", "--backend"); rc != 1 || !strings.Contains(errs, "--backend") {
		t.Fatalf("a script named --backend after --: rc %d, %s", rc, errs)
	}
}

func TestCompileCommand(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.spv")
	rc, _, errs := runCLI("compile", "-V", "--target-env", "vulkan1.3", "-o", out, "../../examples/shaders/matmul_khr_f16.comp")
	if rc != 0 {
		t.Fatalf("rc %d: %s", rc, errs)
	}
	b, err := os.ReadFile(out)
	if err != nil || len(b) < 20 || b[0] != 0x03 || b[3] != 0x07 {
		t.Fatalf("output %d bytes, %v", len(b), err)
	}
	bad := filepath.Join(dir, "bad.comp")
	os.WriteFile(bad, []byte("#version 450\nvoid main() { x = 1; }\n"), 0o644)
	rc, _, errs = runCLI("compile", "-o", filepath.Join(dir, "b.spv"), bad)
	if rc != 2 || !strings.Contains(errs, "bad.comp:2: 'x' : undeclared identifier") || !strings.Contains(errs, "1 compilation errors") {
		t.Fatalf("rc %d, %q", rc, errs)
	}
	if rc, _, errs := runCLI("compile", "-S", "frag", bad); rc != 2 || !strings.Contains(errs, "compute shaders only") {
		t.Fatalf("rc %d, %q", rc, errs)
	}
	if rc, _, _ := runCLI("compile", "a.comp", "b.comp", "-o", "x"); rc != 2 {
		t.Fatalf("-o with two inputs accepted")
	}
}

func TestCompileFlags(t *testing.T) {
	a, err := parseCompileArgs([]string{"-DA=2", "-DB", "-UC", "-Iinc", "--amb", "-g", "-e", "go", "x.comp"})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.defines) != 2 || a.defines[0].Value != "2" || a.defines[1].Value != "" || a.opts.Undefs[0] != "C" ||
		a.opts.IncludeDirs[0] != "inc" || !a.opts.AutoMapBindings || !a.opts.Debug || a.opts.EntryPoint != "go" {
		t.Fatalf("%+v", a)
	}
	if _, err := parseCompileArgs([]string{"--bogus", "x.comp"}); err == nil {
		t.Fatal("unknown flag accepted")
	}
}

// BenchmarkCompileProcess compiles one corpus shader as a whole process,
// with coop and (when present) glslangValidator, so the two can be
// compared in one run.
func BenchmarkCompileProcess(b *testing.B) {
	shader := filepath.Join("..", "..", "..", "shared", "corpus", "glslang", "spv.coopmatKHR.comp")
	if _, err := os.Stat(shader); err != nil {
		b.Skip("corpus not present")
	}
	dir := b.TempDir()
	bin := filepath.Join(dir, "coop")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/coop").CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	tools := map[string][]string{"coop": {bin, "compile", "--target-env", "vulkan1.3", "-o", filepath.Join(dir, "a.spv"), shader}}
	if g := reftool.Path("glslangValidator"); g != "" {
		tools["glslangValidator"] = []string{g, "-V", "--target-env", "vulkan1.3", "-o", filepath.Join(dir, "b.spv"), shader}
	}
	for _, name := range []string{"coop", "glslangValidator"} {
		argv, ok := tools[name]
		if !ok {
			continue
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
					b.Fatalf("%v\n%s", err, out)
				}
			}
		})
	}
}

// TestExamples runs every example script on the CPU executor, named as
// the README names them: the directory, which stands for its scripts.
func TestExamples(t *testing.T) {
	scripts, _ := filepath.Glob("../../examples/*.amber")
	if len(scripts) < 3 {
		t.Fatalf("found %d example scripts", len(scripts))
	}
	rc, out, errs := runCLI("run", "../../examples")
	if rc != 0 || !strings.Contains(out, fmt.Sprintf("%d passed, 0 failed", strings.Count(out, "PASS "))) || strings.Count(out, "PASS ") < len(scripts) {
		t.Fatalf("rc %d\n%s\n%s", rc, out, errs)
	}
	// A directory without scripts is an error, as any argument that is
	// not a script is for amber.
	if rc, _, errs := runCLI("run", "../../examples/shaders"); rc != 1 || !strings.Contains(errs, "a directory without *.amber scripts") {
		t.Fatalf("shaders directory: rc %d, %s", rc, errs)
	}
}

func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.amber")
	os.WriteFile(bad, []byte("BUFFER b DATA_TYPE float SIZE 2 FILL 1\nEXPECT b IDX 0 EQ 1 2\n"), 0o644)
	rc, out, _ := runCLI("run", bad)
	if rc != 1 || !strings.Contains(out, "FAIL "+bad+":2") || !strings.Contains(out, "[1] got 1, want 2") {
		t.Fatalf("rc %d\n%s", rc, out)
	}
	rc, _, errs := runCLI("run", "--backend", "tpu", bad)
	if rc != 2 || !strings.Contains(errs, "unknown backend") {
		t.Fatalf("rc %d %s", rc, errs)
	}
	os.WriteFile(bad, []byte("BUFFER b DATA_TYPE float SIZE two FILL 1\n"), 0o644)
	rc, _, errs = runCLI("run", bad)
	if rc != 1 || !strings.Contains(errs, bad+":1: expected a positive element count") {
		t.Fatalf("rc %d %s", rc, errs)
	}
	os.WriteFile(bad, nil, 0o644)
	if rc, out, errs := runCLI("run", bad); rc != 1 || !strings.Contains(errs, "the script tests nothing") || !strings.Contains(out, "1 scripts could not run") {
		t.Fatalf("empty script: rc %d %s %s", rc, out, errs)
	}
}

// TestRunTimeout: --timeout stops a long dispatch (65535² workgroups,
// with no work budget, which would refuse it at once) within about its
// time, names the RUN, and exits 1.
func TestRunTimeout(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "long.amber")
	os.WriteFile(path, []byte(strings.Replace(storeScript, "RUN p 1 1 1", "RUN p 65535 65535 1", 1)), 0o644)
	start := time.Now()
	rc, out, errs := runCLI("run", path, "--timeout", "200ms", "--work-budget", "-1")
	if rc != 1 || !strings.Contains(errs, "RUN p: dispatch stopped after") || !strings.Contains(errs, "--timeout 200ms reached") || !strings.Contains(out, "0 passed, 0 failed, 1 scripts could not run") {
		t.Fatalf("rc %d\n%s\n%s", rc, out, errs)
	}
	if el := time.Since(start); el > 20*time.Second {
		t.Errorf("stopped after %v", el)
	}
}

func TestDisAs(t *testing.T) {
	dir := t.TempDir()
	spv := filepath.Join(dir, "m.spv")
	if rc, _, errs := runCLI("compile", "--target-env", "vulkan1.3", "-o", spv, "../../examples/shaders/matmul_khr_i8.comp"); rc != 0 {
		t.Fatal(errs)
	}
	rc, txt, errs := runCLI("dis", spv)
	if rc != 0 || !strings.Contains(txt, "OpCooperativeMatrixMulAddKHR") || !strings.Contains(txt, "; SPIR-V") {
		t.Fatalf("rc %d %s\n%s", rc, errs, txt)
	}
	asm := filepath.Join(dir, "m.spvasm")
	if rc, _, errs := runCLI("dis", "--raw-id", "-o", asm, spv); rc != 0 {
		t.Fatal(errs)
	}
	back := filepath.Join(dir, "back.spv")
	if rc, _, errs := runCLI("as", "--preserve-numeric-ids", asm, "-o", back); rc != 0 {
		t.Fatal(errs)
	}
	a, _ := os.ReadFile(spv)
	b, _ := os.ReadFile(back)
	// Only the generator word differs: coop as writes the assembler's.
	if len(a) != len(b) || !bytes.Equal(a[12:], b[12:]) {
		t.Fatalf("round trip differs: %d vs %d bytes", len(a), len(b))
	}
	os.WriteFile(asm, []byte("OpCapability Shader\n%1 = OpTypeInt 32\n"), 0o644)
	if rc, _, errs := runCLI("as", asm, "-o", back); rc != 1 || !strings.Contains(errs, asm+":2:6: error: OpTypeInt: missing operand 'Signedness'") {
		t.Fatalf("rc %d %q", rc, errs)
	}
	os.WriteFile(back, []byte{1, 2, 3}, 0o644)
	if rc, _, errs := runCLI("dis", back); rc != 1 || !strings.Contains(errs, "error: word") {
		t.Fatalf("rc %d %q", rc, errs)
	}
}

// storeScript stores 42 from a shader in SPIR-V assembly.
const storeScript = `SHADER compute s SPIRV-ASM
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %buf
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %B Block
               OpMemberDecorate %B 0 Offset 0
               OpDecorate %buf DescriptorSet 0
               OpDecorate %buf Binding 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
          %B = OpTypeStruct %uint
        %ptr = OpTypePointer StorageBuffer %B
       %uptr = OpTypePointer StorageBuffer %uint
        %buf = OpVariable %ptr StorageBuffer
     %uint_0 = OpConstant %uint 0
    %uint_42 = OpConstant %uint 42
       %main = OpFunction %void None %fn
      %entry = OpLabel
          %p = OpAccessChain %uptr %buf %uint_0
               OpStore %p %uint_42
               OpReturn
               OpFunctionEnd
END
BUFFER out DATA_TYPE uint32 SIZE 1 FILL 0
PIPELINE compute p
  ATTACH s
  BIND BUFFER out AS storage DESCRIPTOR_SET 0 BINDING 0
END
RUN p 1 1 1
EXPECT out IDX 0 EQ 42
`

func TestRunSPIRVAssembly(t *testing.T) {
	scriptPath := filepath.Join(t.TempDir(), "asm.amber")
	os.WriteFile(scriptPath, []byte(storeScript), 0o644)
	if rc, out, errs := runCLI("run", scriptPath); rc != 0 {
		t.Fatalf("rc %d\n%s\n%s", rc, out, errs)
	}
}

func TestBench(t *testing.T) {
	rc, out, errs := runCLI("bench", "--runs", "2", "../../examples/matmul_khr_i8.amber")
	if rc != 0 || !strings.Contains(out, "RUN mm on cpu") || !strings.Contains(out, "FLOPS") {
		t.Fatalf("rc %d\n%s\n%s", rc, out, errs)
	}
	if rc, _, _ := runCLI("bench", "--backend", "tpu", "x.amber"); rc != 2 {
		t.Fatalf("bad backend accepted")
	}
	for _, c := range []string{"cpu", "cpu,cpu", "cpu,tpu"} {
		if rc, _, _ := runCLI("bench", "--compare", c, "x.amber"); rc != 2 {
			t.Fatalf("--compare %s accepted", c)
		}
	}
}

// TestGlslcCommand compiles as a build system that calls glslc would:
// #include without its #extension, glslc's flag spellings, a dependency
// file, and nothing on stderr when all is well.
func TestGlslcCommand(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "defs.glsl"), []byte("#define SCALE 3u\n"), 0o644)
	src := filepath.Join(dir, "k.comp")
	os.WriteFile(src, []byte("#version 450\n#include \"defs.glsl\"\nlayout(local_size_x = 1) in;\nlayout(binding = 0) buffer B { uint v; };\nvoid main() { v = SCALE * X; }\n"), 0o644)
	out, dep := filepath.Join(dir, "k.spv"), filepath.Join(dir, "k.d")
	rc, stdout, errs := runCLI("glslc", "-fshader-stage=compute", "--target-env=vulkan1.2", src, "-o", out, "-O", "-MD", "-MF", dep, "-DX=2")
	if rc != 0 || errs != "" || stdout != "" {
		t.Fatalf("rc %d, stdout %q, stderr %q", rc, stdout, errs)
	}
	if b, err := os.ReadFile(out); err != nil || len(b) < 20 || b[0] != 0x03 {
		t.Fatalf("output: %v", err)
	}
	d, _ := os.ReadFile(dep)
	if want := out + ": " + src + " " + filepath.Join(dir, "defs.glsl") + "\n"; string(d) != want {
		t.Errorf("dependency file %q, want %q", d, want)
	}
	if rc, _, errs := runCLI("glslc", "-fshader-stage=fragment", src); rc != 2 || !strings.Contains(errs, "compute shaders only") {
		t.Errorf("fragment stage: rc %d, %q", rc, errs)
	}
	if rc, _, errs := runCLI("glslc", src, "-o", out); rc != 1 || !strings.Contains(errs, "'X' : undeclared identifier") {
		t.Errorf("missing define: rc %d, %q", rc, errs)
	}
	if rc, _, errs := runCLI("glslc", "--bogus", src); rc != 2 || !strings.Contains(errs, "unknown flag --bogus") {
		t.Errorf("unknown flag: rc %d, %q", rc, errs)
	}
}

// TestRunProfileRefuses: with --profile the executor refuses what the
// device does not list, as the device's Vulkan backend does. Each script
// in scripts/refused names the rule it breaks on its first line.
func TestRunProfileRefuses(t *testing.T) {
	refused, _ := filepath.Glob("../../scripts/refused/*.amber")
	if len(refused) == 0 {
		t.Fatal("no scripts in scripts/refused")
	}
	for _, s := range refused {
		b, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(string(b), "\n")
		vuid := strings.TrimSpace(strings.TrimPrefix(first, "# REFUSED:"))
		rc, _, errs := runCLI("run", "--profile", "h100", s)
		if rc != 1 || !strings.Contains(errs, vuid) || !strings.Contains(errs, "h100") {
			t.Errorf("%s: rc %d, want a refusal naming %s:\n%s", s, rc, vuid, errs)
		}
	}
	rc, _, errs := runCLI("run", "--profile", "no-such-gpu", refused[0])
	if rc != 2 || !strings.Contains(errs, "no built-in device profile") {
		t.Errorf("rc %d %s", rc, errs)
	}
}

// TestRunWorkBudget: an absurd dispatch fails at once naming the budget,
// which --work-budget sets.
func TestRunWorkBudget(t *testing.T) {
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.amber")
	os.WriteFile(huge, []byte(strings.Replace(storeScript, "RUN p 1 1 1", "RUN p 65535 65535 64", 1)), 0o644)
	if rc, _, errs := runCLI("run", huge); rc != 1 || !strings.Contains(errs, "274869518400 invocations) exceeds the work budget of 68719476736") {
		t.Fatalf("rc %d %s", rc, errs)
	}
	small := filepath.Join(dir, "small.amber")
	os.WriteFile(small, []byte(storeScript), 0o644)
	if rc, _, errs := runCLI("run", small, "--work-budget", "1000"); rc != 0 {
		t.Fatalf("budget 1000: rc %d %s", rc, errs)
	}
	if rc, _, errs := runCLI("run", small, "--work-budget", "1"); rc != 1 || !strings.Contains(errs, "work budget of 1 ") {
		t.Fatalf("budget 1: rc %d %s", rc, errs)
	}
}

// TestRunNoValidate: --no-validate skips the environment's rules (a
// storage buffer's struct without Block runs), but the backend still runs
// the validator's structural passes, so a malformed module is an error
// naming the rule, never a crash.
func TestRunNoValidate(t *testing.T) {
	dir := t.TempDir()
	noBlock := filepath.Join(dir, "noblock.amber")
	os.WriteFile(noBlock, []byte(strings.Replace(storeScript, "OpDecorate %B Block\n", "", 1)), 0o644)
	if rc, _, errs := runCLI("run", noBlock); rc != 1 || !strings.Contains(errs, "invalid module") {
		t.Errorf("validated: rc %d, %q", rc, errs)
	}
	if rc, out, errs := runCLI("run", "--no-validate", noBlock); rc != 0 {
		t.Errorf("--no-validate: rc %d\n%s\n%s", rc, out, errs)
	}
	undefined := filepath.Join(dir, "undefined.amber")
	os.WriteFile(undefined, []byte(strings.Replace(storeScript, "OpStore %p %uint_42", "OpStore %p %nothing", 1)), 0o644)
	if rc, _, errs := runCLI("run", "--no-validate", undefined); rc != 1 || !strings.Contains(errs, "has not been defined") {
		t.Errorf("--no-validate, undefined id: rc %d, %q", rc, errs)
	}
}

// TestCommandsSorted: the command table is sorted by name, once each, as
// usage lists it.
func TestCommandsSorted(t *testing.T) {
	for k := 1; k < len(commands); k++ {
		if commands[k-1].name >= commands[k].name {
			t.Errorf("commands: %q before %q", commands[k-1].name, commands[k].name)
		}
	}
}
