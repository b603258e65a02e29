package text

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coopshader/coop/internal/fuzzwatch"
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

// roundTrip is how a disassembly reads back to the module it came from:
// numeric ids and the header comments kept.
var roundTrip = AsmOptions{PreserveIDs: true, KeepHeader: true}

// TestCorpusRoundTrip assembles every corpus text (spirv-dis output),
// encodes, decodes and disassembles it: the text must be the file, byte
// for byte, header included. Disassembling with raw ids and reassembling
// must give the same binary.
func TestCorpusRoundTrip(t *testing.T) {
	files := corpus(t)
	same := 0
	for _, f := range files {
		name := filepath.Base(f)
		src, _ := os.ReadFile(f)
		m, err := AssembleOptions(src, f, roundTrip)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		bin, err := m.Encode()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		m2, err := spirv.Decode(bin)
		if err != nil {
			t.Errorf("%s: decode: %v", name, err)
			continue
		}
		txt, err := Disassemble(m2, Options{})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !bytes.Equal(txt, src) {
			firstDiff(t, name, txt, src)
			continue
		}
		raw, _ := Disassemble(m2, Options{RawID: true})
		m3, err := AssembleOptions(raw, f, roundTrip)
		if err != nil {
			t.Errorf("%s: raw-id reassembly: %v", name, err)
			continue
		}
		if b3, _ := m3.Encode(); !bytes.Equal(bin, b3) {
			t.Errorf("%s: raw-id reassembly differs", name)
			continue
		}
		same++
	}
	t.Logf("%d of %d corpus texts round-trip text to text and binary to binary", same, len(files))
}

func firstDiff(t *testing.T, name string, got, want []byte) {
	t.Helper()
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range min(len(gl), len(wl)) {
		if gl[i] != wl[i] {
			t.Errorf("%s: line %d differs:\n got %q\nwant %q", name, i+1, gl[i], wl[i])
			return
		}
	}
	t.Errorf("%s: %d lines, want %d", name, len(gl), len(wl))
}

// TestMatchesReferenceTools compares with spirv-as and spirv-dis when they
// are installed: our binary of each corpus text against spirv-as's (both
// numberings), and our text of that binary against spirv-dis's.
func TestMatchesReferenceTools(t *testing.T) {
	as, dis := refTool("spirv-as"), refTool("spirv-dis")
	if as == "" || dis == "" {
		t.Skip("spirv-as/spirv-dis not found (set COOP_REF_BIN)")
	}
	files := corpus(t)
	dir := t.TempDir()
	same := 0
	for _, f := range files {
		name := filepath.Base(f)
		src, _ := os.ReadFile(f)
		ok := true
		for _, preserve := range []bool{false, true} {
			out := filepath.Join(dir, "m.spv")
			args := []string{"-o", out, f}
			if preserve {
				args = append(args, "--preserve-numeric-ids")
			}
			if b, err := exec.Command(as, args...).CombinedOutput(); err != nil {
				t.Fatalf("spirv-as %s: %v %s", f, err, b)
			}
			want, _ := os.ReadFile(out)
			m, err := AssembleOptions(src, f, AsmOptions{PreserveIDs: preserve})
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := m.Encode(); !bytes.Equal(got, want) {
				t.Errorf("%s (preserve %v): binary differs from spirv-as", name, preserve)
				ok = false
			}
			for _, o := range []Options{{}, {RawID: true}, {NoHeader: true, NoIndent: true}} {
				args := []string{out}
				if o.RawID {
					args = append(args, "--raw-id")
				}
				if o.NoHeader {
					args = append(args, "--no-header", "--no-indent")
				}
				wantText, _ := exec.Command(dis, args...).Output()
				gotText, _ := Disassemble(m, o)
				if !bytes.Equal(gotText, wantText) {
					firstDiff(t, name, gotText, wantText)
					ok = false
				}
			}
		}
		if ok {
			same++
		}
	}
	t.Logf("%d of %d corpus modules match spirv-as and spirv-dis", same, len(files))
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
%short = OpTypeInt 16 1
%bf = OpTypeFloat 16 BFloat16KHR
%e4 = OpTypeFloat 8 Float8E4M3EXT
%1 = OpConstant %half 0x1.8p+0
%2 = OpConstant %half -0x1p-24
%3 = OpConstant %half 0x1p+16
%4 = OpConstant %float 0.100000001
%5 = OpConstant %float -0x1p+128
%6 = OpConstant %double 1e+300
%7 = OpConstant %int -7
%8 = OpConstant %ulong 18446744073709551615
%9 = OpConstant %float 1.40129846e-45
%10 = OpConstant %short 0xffff
%11 = OpConstant %bf 1.5
%12 = OpConstant %e4 0x1.cp+8
%13 = OpConstant %double 1e16
%14 = OpConstant %half 0.1
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
		"%float_0x1pn149 = OpConstant %float 0x1p-149", "%short_n1 = OpConstant %short -1",
		"%bfloat16_0x1_8p_0 = OpConstant %bfloat16 0x1.8p+0", "%fp8e4m3_0x1_cp_8 = OpConstant %fp8e4m3 0x1.cp+8",
		"%double_10000000000000000 = OpConstant %double 10000000000000000",
		// Decimals for narrow types round toward zero, as spirv-as does.
		"%half_0x1_998pn4 = OpConstant %half 0x1.998p-4"} {
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
OpName %q "q\"\\"
OpDecorate %gid BuiltIn GlobalInvocationId
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v3uint = OpTypeVector %uint 3
%ptr = OpTypePointer Input %v3uint
%gid = OpVariable %ptr Input
%x = OpConstant %uint 1
%y = OpConstant %uint 2
%z = OpConstant %uint 3
%q = OpConstant %uint 4
%main = OpFunction %void None %fn
%l = OpLabel
OpSelectionMerge %l2 None
OpSwitch %z %l2 1 %l2 2 %l2
%l2 = OpLabel
OpReturn
OpFunctionEnd
`
	m, err := Assemble([]byte(src), "n")
	if err != nil {
		t.Fatal(err)
	}
	txt, _ := Disassemble(m, Options{NoHeader: true})
	for _, want := range []string{"               OpName %a_b \"a-b\"\n               OpName %a_b_0 \"a-b\"",
		"%gl_GlobalInvocationID = OpVariable %_ptr_Input_v3uint Input", "       %main = OpFunction %void None %7",
		"OpDecorate %gl_GlobalInvocationID BuiltIn GlobalInvocationId", "OpName %q__ \"q\\\"\\\\\"",
		"OpSwitch %uint_3 %13 1 %13 2 %13"} {
		if !strings.Contains(string(txt), want) {
			t.Errorf("missing %q in\n%s", want, txt)
		}
	}
	txt, _ = Disassemble(m, Options{NoHeader: true, NoIndent: true, RawID: true})
	if !strings.HasPrefix(string(txt), "OpCapability Shader\n") || !strings.Contains(string(txt), "\n%6 = OpTypeVoid\n") {
		t.Errorf("no-indent raw-id text:\n%s", txt)
	}
}

// TestSwitch64 checks that OpSwitch case literals take the selector's
// width.
func TestSwitch64(t *testing.T) {
	src := `%long = OpTypeInt 64 1
%c = OpConstant %long -5
%f = OpFunction %long None %ft
%l = OpLabel
OpSwitch %c %l -1 %l 0x100000000 %l
OpFunctionEnd
`
	m, err := Assemble([]byte(src), "s")
	if err != nil {
		t.Fatal(err)
	}
	sw := m.Insts[4]
	if want := []uint32{2, 5, 0xffffffff, 0xffffffff, 5, 0, 1, 5}; !equalWords(sw.Words, want) {
		t.Fatalf("OpSwitch words %x, want %x", sw.Words, want)
	}
	txt, err := Disassemble(m, Options{NoHeader: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(txt), "OpSwitch %long_n5 %5 -1 %5 4294967296 %5") {
		t.Errorf("got\n%s", txt)
	}
}

func TestAssembleErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"OpFoo", "e:1:1: error: unknown opcode \"OpFoo\""},
		{"OpCapability Shader\n  OpCapability Bogus", "e:2:16: error: invalid Capability \"Bogus\""},
		{"%1 = OpTypeInt 32", "e:1:6: error: OpTypeInt: missing operand 'Signedness'"},
		{"OpName %x \"unterminated", "e:1:11: error: missing closing quote"},
		{"%t = OpTypeInt 32 0\n%c = OpConstant %t 1.5", "e:2:20: error: invalid unsigned integer literal \"1.5\""},
		{"%t = OpTypeInt 32 0\n%c = OpConstant %t -1", "e:2:20: error: cannot put a negative number in an unsigned literal"},
		{"%t = OpTypeInt 16 1\n%c = OpConstant %t 40000", "e:2:20: error: 40000 does not fit in a 16-bit signed integer"},
		{"%t = OpTypeFloat 32\n%c = OpConstant %t 1e39", "e:2:20: error: invalid 32-bit float literal \"1e39\""},
		{"%t = OpTypeFloat 32\n%c = OpConstant %t 0x10", "e:2:20: error: invalid 32-bit float literal \"0x10\""},
		{"%t = OpTypeFloat 16\n%c = OpConstant %t 70000", "e:2:20: error: float literal \"70000\" is out of range"},
		{"OpCapability Shader Shader", "e:1:21: error: expected the next instruction, got \"Shader\""},
		{"%x = OpCapability Shader", "e:1:6: error: OpCapability does not produce a result id"},
		{"OpTypeVoid", "e:1:1: error: OpTypeVoid needs a result id"},
		{"%c = OpConstant %nope 1", "e:1:23: error: the type of literal \"1\" is not a known numeric type"},
		{"OpCapability %x", "e:1:14: error: invalid Capability \"%x\""},
		{"!0x00020011 !1 !2", "e:1:1: error: raw instruction's word count 2 does not match its 3 words"},
		{"OpName %a-b \"x\"", "e:1:8: error: invalid id \"%a-b\""},
		{"OpName x \"x\"", "e:1:8: error: expected an id (%name), got \"x\""},
		{"OpName %x x", "e:1:11: error: expected a quoted string, got \"x\""},
		{"OpName %x \"a\"b", "e:1:14: error: expected white space after the closing quote"},
		{"%x = ", "e:1:6: error: expected an opcode after %x ="},
		{"%x OpTypeVoid", "e:1:1: error: expected %x = Op..., or an opcode"},
		{"OpCapability !x", "e:1:14: error: invalid immediate integer \"!x\""},
		{"OpCapability Shader, Float16", "e:1:20: error: unexpected ','"},
		{"%s = OpExtInstImport \"GLSL.std.450\"\n%f = OpTypeFloat 32\n%r = OpExtInst %f %s Bogus %f", "e:3:22: error: unknown extended instruction \"Bogus\""},
		{"OpLoopMerge %a %b Unroll|Bogus", "e:1:19: error: invalid LoopControl \"Bogus\""},
	}
	for _, tc := range tests {
		_, err := Assemble([]byte(tc.src), "e")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.src, err, tc.want)
		}
	}
}

func TestRawWords(t *testing.T) {
	// After a !<integer> operand the rest are context-independent values,
	// as in spirv-as; a ! first on its line starts a raw instruction.
	m, err := Assemble([]byte("OpCapability !1\n!0x00020011 !1\nOpDecorate %x !30 5 \"s\" -1 1.5\n!0x00030999 7 %x"), "r")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Insts) != 4 || m.Insts[0].Words[0] != 1 || m.Insts[1].Op != spirv.OpCapability {
		t.Fatalf("%+v", m.Insts)
	}
	if want := []uint32{1, 30, 5, 's', 0xffffffff, 0x3fc00000}; !equalWords(m.Insts[2].Words, want) {
		t.Errorf("OpDecorate words %x, want %x", m.Insts[2].Words, want)
	}
	txt, err := Disassemble(&spirv.Module{Version: 0x10600, Bound: 2, Insts: m.Insts[3:]}, Options{NoHeader: true})
	if err != nil {
		t.Fatal(err)
	}
	if string(txt) != "               !199065 !7 !1\n" {
		t.Errorf("unknown opcode printed as %q", txt)
	}
	back, err := Assemble(txt, "r")
	if err != nil || len(back.Insts) != 1 || back.Insts[0].Op != 0x999 {
		t.Errorf("raw line read back as %+v, %v", back, err)
	}
}

func TestKeepHeader(t *testing.T) {
	src := "; SPIR-V\n; Version: 1.3\n; Generator: Khronos Glslang Reference Front End; 11\n; Bound: 40\n; Schema: 0\nOpCapability Shader\n"
	m, err := AssembleOptions([]byte(src), "h", AsmOptions{KeepHeader: true})
	if err != nil {
		t.Fatal(err)
	}
	if m.Version != spirv.MakeVersion(1, 3) || m.Generator != 8<<16|11 || m.Bound != 40 {
		t.Errorf("header %v %#x %d", m.Version, m.Generator, m.Bound)
	}
	m, _ = Assemble([]byte(src), "h")
	if m.Version != spirv.MakeVersion(1, 6) || m.Generator != Generator || m.Bound != 1 {
		t.Errorf("default header %v %#x %d", m.Version, m.Generator, m.Bound)
	}
}

func TestDisassembleErrors(t *testing.T) {
	m := &spirv.Module{Version: 0x10600, Bound: 5, Insts: []spirv.Inst{
		{Op: spirv.OpCapability, Words: []uint32{1}},
		{Op: spirv.OpTypeInt, Words: []uint32{1, 32}},
	}}
	_, err := Disassemble(m, Options{})
	if err == nil || !strings.Contains(err.Error(), "word 7") || !strings.Contains(err.Error(), "Signedness") {
		t.Errorf("got %v", err)
	}
}

func FuzzAssemble(f *testing.F) {
	f.Add("OpCapability Shader\n%1 = OpTypeInt 32 0\n%2 = OpConstant %1 7\n")
	f.Add("%x = OpTypeFloat 16\n%y = OpConstant %x 0x1p+16\nOpName %y \"a\\\"b\"")
	f.Add("%s = OpExtInstImport \"GLSL.std.450\"\n%f = OpTypeFloat 32\n%c = OpConstant %f 1\n%r = OpExtInst %f %s Sqrt %c")
	f.Fuzz(func(t *testing.T, src string) {
		defer fuzzwatch.Start()()
		m, err := Assemble([]byte(src), "f")
		if err != nil {
			return
		}
		if _, err := Disassemble(m, Options{}); err != nil {
			return
		}
		// With raw ids the text reads back to the same words. (Friendly
		// names need not: OpName %x "7" prints %x as %7.)
		txt, err := Disassemble(m, Options{RawID: true})
		if err != nil {
			t.Fatalf("raw-id disassembly fails where friendly names do not: %v", err)
		}
		m2, err := AssembleOptions(txt, "f", roundTrip)
		if unfitLiteral(err) {
			return
		}
		if err != nil {
			t.Fatalf("reassembly: %v\n%s", err, txt)
		}
		if !sameModule(m, m2) {
			t.Fatalf("reassembly differs\n%s", txt)
		}
	})
}

func FuzzDisassemble(f *testing.F) {
	m, _ := Assemble([]byte("OpCapability Shader\nOpMemoryModel Logical GLSL450\n%1 = OpTypeInt 32 0\n%2 = OpConstant %1 7\n%3 = OpTypeVector %1 3\n"), "seed")
	b, _ := m.Encode()
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		defer fuzzwatch.Start()()
		m, err := spirv.Decode(data)
		if err != nil {
			return
		}
		if _, err := Disassemble(m, Options{}); err != nil || dirtyPadding(m) || ambiguousGenerator(m) {
			return
		}
		for _, o := range []Options{{RawID: true}, {RawID: true, NoIndent: true, NoHeader: true}} {
			txt, err := Disassemble(m, o)
			if err != nil {
				t.Fatalf("raw-id disassembly fails where friendly names do not: %v", err)
			}
			if o.NoHeader {
				// Without the header the bound and generator come back
				// as spirv-as sets them.
				m2, err := Assemble(txt, "f")
				if unfitLiteral(err) {
					return
				}
				if err != nil {
					t.Fatalf("reassembly: %v\n%s", err, txt)
				}
				if len(m2.Insts) != len(m.Insts) {
					t.Fatalf("reassembly has %d instructions, want %d", len(m2.Insts), len(m.Insts))
				}
				continue
			}
			// A decodable module's raw-id text reads back to the same
			// binary.
			m2, err := AssembleOptions(txt, "f", roundTrip)
			if unfitLiteral(err) {
				return
			}
			if err != nil {
				t.Fatalf("reassembly: %v\n%s", err, txt)
			}
			if !sameModule(m, m2) {
				t.Fatalf("reassembly differs\n%s", txt)
			}
		}
	})
}

// ambiguousGenerator reports a generator word whose tool spirv-dis names
// as it names another (ids 5 and 47 are both "ARM"): the text cannot say
// which.
func ambiguousGenerator(m *spirv.Module) bool {
	vendor, tool, ok := spirv.GeneratorName(m.Generator)
	if !ok {
		return false
	}
	name := vendor
	if tool != "" {
		name += " " + tool
	}
	id, _ := generatorID(name)
	return id != m.Generator>>16
}

// unfitLiteral reports an error for a literal whose words do not fit its
// type (a 0-bit integer type, 256 in an 8-bit one): spirv-dis prints the
// words and spirv-as, like Assemble, refuses them.
func unfitLiteral(err error) bool {
	return err != nil && strings.Contains(err.Error(), "does not fit in a")
}

// dirtyPadding reports a literal string whose last word has non-zero
// bytes after the NUL; text cannot show them.
func dirtyPadding(m *spirv.Module) bool {
	types := spirv.NewTypes()
	var ops []spirv.Operand
	for i := range m.Insts {
		in := &m.Insts[i]
		if in.Op.Desc() == nil {
			continue
		}
		ops, _ = types.Operands(in, ops[:0])
		for _, o := range ops {
			if o.Kind != spirv.KindLiteralString {
				continue
			}
			last := in.Words[o.Offset+o.Count-1]
			for k := 0; k < 4; k++ {
				if byte(last>>(8*k)) == 0 {
					if last>>(8*k) != 0 {
						return true
					}
					break
				}
			}
		}
		types.Record(in)
	}
	return false
}

// sameModule compares everything but the bound, which the assembler
// recomputes from the ids (an !<integer> id does not count, as in
// spirv-as), and the version's unused bytes, which the header comment
// does not show.
func sameModule(a, b *spirv.Module) bool {
	w1, _ := a.Words()
	w2, _ := b.Words()
	return w1[1]&0xffff00 == w2[1]&0xffff00 && w1[2] == w2[2] && equalWords(w1[4:], w2[4:])
}

func loadCorpus(b *testing.B) ([][]byte, []*spirv.Module, int) {
	var texts [][]byte
	var mods []*spirv.Module
	n := 0
	for _, f := range corpus(b) {
		src, _ := os.ReadFile(f)
		m, err := Assemble(src, f)
		if err != nil {
			b.Fatal(err)
		}
		texts = append(texts, src)
		mods = append(mods, m)
		n += len(src)
	}
	return texts, mods, n
}

// BenchmarkAssemble reports text bytes read per second.
func BenchmarkAssemble(b *testing.B) {
	texts, _, n := loadCorpus(b)
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range texts {
			if _, err := Assemble(t, "b"); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkDisassemble reports text bytes written per second.
func BenchmarkDisassemble(b *testing.B) {
	_, mods, n := loadCorpus(b)
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range mods {
			if _, err := Disassemble(m, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// TestNameCollisions checks spirv-dis's rules when debug names collide
// with derived and numeric names (expected text from spirv-dis).
func TestNameCollisions(t *testing.T) {
	src := `OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpName %main "main"
OpName %z "12"
OpName %w "uint_3"
OpName %v "void_0"
OpName %uint "10"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%z = OpConstant %uint 3
%w = OpConstant %uint 5
%v3 = OpConstant %uint 3
%void2 = OpTypeVoid
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
`
	want := `               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpName %main "main"
               OpName %12 "12"
               OpName %uint_3 "uint_3"
               OpName %void_0 "void_0"
               OpName %10 "10"
       %void = OpTypeVoid
          %7 = OpTypeFunction %void
         %10 = OpTypeInt 32 0
         %12 = OpConstant %10 3
     %uint_3 = OpConstant %10 5
       %10_3 = OpConstant %10 3
     %void_1 = OpTypeVoid
       %main = OpFunction %void None %7
       %10_0 = OpLabel
               OpReturn
               OpFunctionEnd
`
	m, err := Assemble([]byte(src), "c")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := Disassemble(m, Options{NoHeader: true})
	if string(got) != want {
		firstDiff(t, "collisions", got, []byte(want))
	}
	names := FriendlyNames(m)
	if names[2] != "12" || names[10] != "10_0" || names[9] != "void_1" || len(names) != 9 {
		t.Errorf("FriendlyNames: %v", names)
	}
}
