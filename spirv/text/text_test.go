package text

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coopshader/coop/internal/reftool"
	"github.com/coopshader/coop/spirv"
)

func corpus(t testing.TB) []string {
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "shared", "corpus", "glslang", "*.spvasm"))
	if len(files) == 0 {
		t.Skip("corpus not present")
	}
	return files
}

func refTool(name string) string { return reftool.Path(name) }

// stripHeader drops the leading comment lines.
func stripHeader(s string) string {
	for strings.HasPrefix(s, ";") {
		_, s, _ = strings.Cut(s, "\n")
	}
	return s
}

// TestCorpusRoundTrip assembles every corpus text keeping its numeric ids,
// disassembles it back (the same text as the file, header aside: the
// generator becomes the assembler's), and reassembles the disassembly to
// the same binary.
func TestCorpusRoundTrip(t *testing.T) {
	files := corpus(t)
	same := 0
	for _, f := range files {
		src, _ := os.ReadFile(f)
		m, err := AssembleOptions(src, f, AsmOptions{PreserveIDs: true})
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		txt, err := Disassemble(m, Options{})
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if stripHeader(string(txt)) != stripHeader(string(src)) {
			t.Errorf("%s: disassembly differs from the source text", filepath.Base(f))
			continue
		}
		m2, err := AssembleOptions(txt, f, AsmOptions{PreserveIDs: true})
		if err != nil {
			t.Errorf("%s: reassembly: %v", f, err)
			continue
		}
		b1, _ := m.Encode()
		b2, _ := m2.Encode()
		if !bytes.Equal(b1, b2) {
			t.Errorf("%s: reassembled binary differs", filepath.Base(f))
			continue
		}
		raw, _ := Disassemble(m, Options{RawID: true})
		m3, err := AssembleOptions(raw, f, AsmOptions{PreserveIDs: true})
		if err != nil {
			t.Errorf("%s: raw-id reassembly: %v", f, err)
			continue
		}
		if b3, _ := m3.Encode(); !bytes.Equal(b1, b3) {
			t.Errorf("%s: raw-id reassembly differs", filepath.Base(f))
			continue
		}
		same++
	}
	t.Logf("%d of %d corpus texts round-trip text to text and binary to binary", same, len(files))
}

// TestMatchesReferenceTools compares with spirv-as and spirv-dis when they
// are installed.
func TestMatchesReferenceTools(t *testing.T) {
	as, dis := refTool("spirv-as"), refTool("spirv-dis")
	if as == "" || dis == "" {
		t.Skip("spirv-as/spirv-dis not found (set COOP_REF_BIN)")
	}
	files := corpus(t)
	dir := t.TempDir()
	for _, f := range files {
		out := filepath.Join(dir, "m.spv")
		if b, err := exec.Command(as, "--target-env", "spv1.6", "-o", out, f).CombinedOutput(); err != nil {
			t.Fatalf("spirv-as %s: %v %s", f, err, b)
		}
		want, _ := os.ReadFile(out)
		src, _ := os.ReadFile(f)
		m, err := Assemble(src, f)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := m.Encode(); !bytes.Equal(got, want) {
			t.Errorf("%s: binary differs from spirv-as", filepath.Base(f))
		}
		for _, raw := range []bool{false, true} {
			args := []string{out}
			if raw {
				args = append(args, "--raw-id")
			}
			wantText, _ := exec.Command(dis, args...).Output()
			gotText, _ := Disassemble(m, Options{RawID: raw})
			if string(gotText) != string(wantText) {
				t.Errorf("%s (raw %v): text differs from spirv-dis", filepath.Base(f), raw)
			}
		}
	}
}

func TestLiterals(t *testing.T) {
	src := `OpCapability Shader
OpCapability Float16
OpCapability Int64
OpMemoryModel Logical GLSL450
%half = OpTypeFloat 16
%float = OpTypeFloat 32
%double = OpTypeFloat 64
%int = OpTypeInt 32 1
%ulong = OpTypeInt 64 0
%1 = OpConstant %half 0x1.8p+0
%2 = OpConstant %half -0x1p-24
%3 = OpConstant %half 0x1p+16
%4 = OpConstant %float 0.100000001
%5 = OpConstant %float -0x1p+128
%6 = OpConstant %double 1e+300
%7 = OpConstant %int -7
%8 = OpConstant %ulong 18446744073709551615
%9 = OpConstant %float 1.40129846e-45
`
	m, err := Assemble([]byte(src), "lit")
	if err != nil {
		t.Fatal(err)
	}
	txt, err := Disassemble(m, Options{NoHeader: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"%half_0x1_8p_0 = OpConstant %half 0x1.8p+0", "%half_n0x1pn24 = OpConstant %half -0x1p-24",
		"%half_0x1p_16 = OpConstant %half 0x1p+16", "%float_0_100000001 = OpConstant %float 0.100000001",
		"%float_n0x1p_128 = OpConstant %float -0x1p+128", "%double_1_0000000000000001e_300 = OpConstant %double 1.0000000000000001e+300",
		"%int_n7 = OpConstant %int -7", "%ulong_18446744073709551615 = OpConstant %ulong 18446744073709551615",
		"%float_0x1pn149 = OpConstant %float 0x1p-149"} {
		if !strings.Contains(string(txt), want) {
			t.Errorf("missing %q in\n%s", want, txt)
		}
	}
}

func TestNamesAndLayout(t *testing.T) {
	src := `OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %main "main"
OpName %x "a-b"
OpName %y "a-b"
OpDecorate %gid BuiltIn GlobalInvocationId
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v3uint = OpTypeVector %uint 3
%ptr = OpTypePointer Input %v3uint
%gid = OpVariable %ptr Input
%x = OpConstant %uint 1
%y = OpConstant %uint 2
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
`
	m, err := Assemble([]byte(src), "n")
	if err != nil {
		t.Fatal(err)
	}
	txt, _ := Disassemble(m, Options{NoHeader: true})
	for _, want := range []string{"               OpName %a_b \"a-b\"\n               OpName %a_b_0 \"a-b\"",
		"%gl_GlobalInvocationID = OpVariable %_ptr_Input_v3uint Input", "       %main = OpFunction %void None %6",
		"OpDecorate %gl_GlobalInvocationID BuiltIn GlobalInvocationId"} {
		if !strings.Contains(string(txt), want) {
			t.Errorf("missing %q in\n%s", want, txt)
		}
	}
}

func TestAssembleErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"OpFoo", "e:1:1: error: unknown opcode \"OpFoo\""},
		{"OpCapability Shader\n  OpCapability Bogus", "e:2:16: error: invalid Capability \"Bogus\""},
		{"%1 = OpTypeInt 32", "missing operand 'Signedness'"},
		{"OpName %x \"unterminated", "e:1:11: error: missing closing quote"},
		{"%t = OpTypeInt 32 0\n%c = OpConstant %t 1.5", "e:2:20: error: invalid 32-bit integer \"1.5\""},
		{"OpCapability Shader Shader", "too many operands"},
		{"%x = OpCapability Shader", "does not produce a result id"},
		{"OpTypeVoid", "needs a result id"},
		{"%c = OpConstant %nope 1", "not a known numeric type"},
		{"OpCapability %x", "invalid Capability \"%x\""},
		{"!0x00020011 !1 !2", "word count 2 does not match its 3 words"},
	}
	for _, tc := range tests {
		_, err := Assemble([]byte(tc.src), "e")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.src, err, tc.want)
		}
	}
}

func TestRawWords(t *testing.T) {
	m, err := Assemble([]byte("OpCapability !1\n!0x00020011 !1"), "r")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Insts) != 2 || m.Insts[0].Words[0] != 1 || m.Insts[1].Op != spirv.OpCapability {
		t.Fatalf("%+v", m.Insts)
	}
}

func FuzzAssemble(f *testing.F) {
	f.Add("OpCapability Shader\n%1 = OpTypeInt 32 0\n%2 = OpConstant %1 7\n")
	f.Add("%x = OpTypeFloat 16\n%y = OpConstant %x 0x1p+16\nOpName %y \"a\\\"b\"")
	f.Add("%s = OpExtInstImport \"GLSL.std.450\"\n%f = OpTypeFloat 32\n%c = OpConstant %f 1\n%r = OpExtInst %f %s Sqrt %c")
	f.Fuzz(func(t *testing.T, src string) {
		m, err := Assemble([]byte(src), "f")
		if err != nil {
			return
		}
		if _, err := Disassemble(m, Options{}); err != nil {
			return
		}
	})
}

func FuzzDisassemble(f *testing.F) {
	m, _ := Assemble([]byte("OpCapability Shader\nOpMemoryModel Logical GLSL450\n%1 = OpTypeInt 32 0\n%2 = OpConstant %1 7\n%3 = OpTypeVector %1 3\n"), "seed")
	b, _ := m.Encode()
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := spirv.Decode(data)
		if err != nil {
			return
		}
		Disassemble(m, Options{})
		Disassemble(m, Options{RawID: true})
	})
}

func loadCorpus(b *testing.B) ([][]byte, []*spirv.Module) {
	var texts [][]byte
	var mods []*spirv.Module
	for _, f := range corpus(b) {
		src, _ := os.ReadFile(f)
		m, err := Assemble(src, f)
		if err != nil {
			b.Fatal(err)
		}
		texts = append(texts, src)
		mods = append(mods, m)
	}
	return texts, mods
}

func BenchmarkAssemble(b *testing.B) {
	texts, _ := loadCorpus(b)
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	b.SetBytes(int64(n))
	for b.Loop() {
		for _, t := range texts {
			Assemble(t, "b")
		}
	}
}

func BenchmarkDisassemble(b *testing.B) {
	texts, mods := loadCorpus(b)
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	b.SetBytes(int64(n)) // text bytes produced
	for b.Loop() {
		for _, m := range mods {
			Disassemble(m, Options{})
		}
	}
}
