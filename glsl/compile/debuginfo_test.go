package compile

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
	cpu "github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/spirv"
)

const debugSrc = `#version 450
layout(local_size_x = 4) in;
layout(binding = 0) buffer B { uint data[]; };
uint twice(uint x) {
    return x * 2u;
}
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i > 1u) {
        data[i + 100u] = twice(i);
    }
}
`

// lines lists the OpLine instructions of m as "file:line".
func lines(m *spirv.Module) []string {
	files := map[uint32]string{}
	var out []string
	for _, in := range m.Insts {
		switch in.Op {
		case spirv.OpString:
			s, _, _ := in.String(1)
			files[in.Words[0]] = s
		case spirv.OpLine:
			out = append(out, files[in.Words[0]]+":"+strconv.Itoa(int(in.Words[1])))
		}
	}
	return out
}

// TestDebugLines: -g writes the source text in OpSource (after glslang's
// OpModuleProcessed comments) and an OpLine for each source line that
// makes code, per block, and before each function, as glslang does.
func TestDebugLines(t *testing.T) {
	m, d := Compile("dbg.comp", []byte(debugSrc), Options{Debug: true})
	if m == nil {
		t.Fatal(d)
	}
	got := strings.Join(lines(m), " ")
	want := "dbg.comp:4 dbg.comp:5 dbg.comp:7 dbg.comp:8 dbg.comp:9 dbg.comp:10"
	if !strings.HasPrefix(got, want) {
		t.Errorf("OpLines %s, want them to start %s", got, want)
	}
	var src string
	for _, in := range m.Insts {
		if in.Op == spirv.OpSource {
			src, _, _ = in.String(3)
		}
	}
	if !strings.HasPrefix(src, "// OpModuleProcessed client vulkan100\n// OpModuleProcessed target-env vulkan1.0\n// OpModuleProcessed entry-point main\n#line 1\n#version 450\n") {
		t.Errorf("OpSource text %q", src)
	}
	// The default has names but no lines; -g0 has neither.
	m, _ = Compile("dbg.comp", []byte(debugSrc), Options{})
	if n := count(m, spirv.OpLine); n != 0 || count(m, spirv.OpName) == 0 {
		t.Errorf("default: %d OpLine, %d OpName", n, count(m, spirv.OpName))
	}
	var o Options
	if !DebugFlag("-g0", &o) || DebugFlag("-gx", &o) {
		t.Fatal("DebugFlag")
	}
	m, _ = Compile("dbg.comp", []byte(debugSrc), o)
	for _, op := range []spirv.Op{spirv.OpName, spirv.OpMemberName, spirv.OpSource, spirv.OpString, spirv.OpLine} {
		if n := count(m, op); n != 0 {
			t.Errorf("-g0: %d %s", n, op)
		}
	}
}

func count(m *spirv.Module, op spirv.Op) int {
	n := 0
	for _, in := range m.Insts {
		if in.Op == op {
			n++
		}
	}
	return n
}

// TestDebugLinesInclude: lines in an included file name it, and its text
// has its own OpSource.
func TestDebugLinesInclude(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "inc.h"), []byte("uint twice(uint x) {\n    return x * 2u;\n}\n"), 0o644)
	src := strings.Replace(debugSrc, "uint twice(uint x) {\n    return x * 2u;\n}\n", "#include \"inc.h\"\n", 1)
	src = strings.Replace(src, "#version 450\n", "#version 450\n#extension GL_GOOGLE_include_directive : enable\n", 1)
	main := filepath.Join(dir, "main.comp")
	m, d := Compile(main, []byte(src), Options{Debug: true})
	if m == nil {
		t.Fatal(d)
	}
	got := strings.Join(lines(m), " ")
	if !strings.Contains(got, filepath.Join(dir, "inc.h")+":2") || !strings.Contains(got, main+":9") {
		t.Errorf("OpLines %s", got)
	}
	if n := count(m, spirv.OpSource); n != 2 {
		t.Errorf("%d OpSource, want 2", n)
	}
}

// TestDebugCorpus: every corpus shader compiled with -g passes spirv-val
// (where it is installed): OpLine never lands where SPIR-V forbids it.
func TestDebugCorpus(t *testing.T) {
	shaders := posShaders(t)
	val := refTool("spirv-val")
	if val == "" {
		t.Skip("spirv-val not present")
	}
	n := 0
	for _, path := range shaders {
		name := filepath.Base(path)
		env := corpusEnv(path + ".spvasm")
		src, _ := os.ReadFile(path)
		m, _ := Compile(path, src, Options{TargetEnv: env, Debug: true})
		if m == nil {
			continue
		}
		AutoMapBindings(m)
		b, _ := m.Encode()
		out := filepath.Join(t.TempDir(), "m.spv")
		os.WriteFile(out, b, 0o644)
		if o, err := exec.Command(val, "--target-env", env, out).CombinedOutput(); err != nil {
			t.Errorf("%s -g: spirv-val --target-env %s: %s", name, env, o)
		}
		n++
	}
	t.Logf("%d shaders compiled with -g", n)
}

// TestFaultNamesSourceLine: a GLSL out-of-bounds write compiled with -g
// faults on the executor naming the GLSL file and line; glslang's -g
// output does too, where glslangValidator is installed.
func TestFaultNamesSourceLine(t *testing.T) {
	run := func(words []uint32) error {
		dev := cpu.New(cpu.Options{})
		buf, _ := dev.NewBuffer(16, backend.UsageStorage)
		_, err := dev.Dispatch(&backend.Dispatch{Code: words, Entry: "main", Groups: [3]uint32{1, 1, 1},
			Bindings: []backend.Binding{{Binding: 0, Buffer: buf}}})
		return err
	}
	m, d := Compile("dbg.comp", []byte(debugSrc), Options{Debug: true})
	if m == nil {
		t.Fatal(d)
	}
	words, _ := m.Words()
	err := run(words)
	if err == nil || !strings.HasPrefix(err.Error(), "error: dbg.comp:10: instruction ") || !strings.Contains(err.Error(), "OpStore") {
		t.Errorf("coop -g: %v", err)
	}
	// Without -g the fault names only the instruction.
	m, _ = Compile("dbg.comp", []byte(debugSrc), Options{})
	words, _ = m.Words()
	if err := run(words); err == nil || strings.Contains(err.Error(), "dbg.comp") {
		t.Errorf("coop: %v", err)
	}
	glslang := refTool("glslangValidator")
	if glslang == "" {
		return
	}
	dir := t.TempDir()
	src, out := filepath.Join(dir, "dbg.comp"), filepath.Join(dir, "dbg.spv")
	os.WriteFile(src, []byte(debugSrc), 0o644)
	if o, err := exec.Command(glslang, "-V", "-g", src, "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("%s: %s", err, o)
	}
	b, _ := os.ReadFile(out)
	gm, err := spirv.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	words, _ = gm.Words()
	if err := run(words); err == nil || !strings.HasPrefix(err.Error(), "error: "+src+":10: ") {
		t.Errorf("glslang -g: %v", err)
	}
}
