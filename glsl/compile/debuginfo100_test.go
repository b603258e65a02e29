package compile

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/coopshader/coop/backend"
	cpu "github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/spirv"
	"github.com/coopshader/coop/spirv/text"
)

// debugInsts lists m's NonSemantic.Shader.DebugInfo instructions in
// functions as "Name" or "Name line" (DebugLine), in order.
func debugInsts(m *spirv.Module) []string {
	sets := map[uint32]*spirv.ExtInstSet{}
	consts := map[uint32]uint32{}
	var out []string
	for _, in := range m.Insts {
		w := in.Words
		switch in.Op {
		case spirv.OpExtInstImport:
			s, _, _ := in.String(1)
			if strings.HasPrefix(s, "NonSemantic.Shader.DebugInfo.") {
				sets[w[0]] = spirv.LookupExtInstSet(s)
			}
		case spirv.OpConstant:
			consts[w[1]] = w[2]
		case spirv.OpExtInst:
			set := sets[w[2]]
			if set == nil {
				continue
			}
			name := set.Inst(w[3]).Name
			if name == "DebugLine" {
				name += " " + strconv.Itoa(int(consts[w[5]]))
			}
			out = append(out, name)
		}
	}
	return out
}

// glslangWith compiles src (written as name in a temporary directory)
// with glslangValidator and flags; the test skips without it.
func glslangWith(t *testing.T, name, src string, flags ...string) (*spirv.Module, string) {
	t.Helper()
	glslang := refTool("glslangValidator")
	if glslang == "" {
		t.Skip("glslangValidator not present")
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, name), filepath.Join(dir, "out.spv")
	os.WriteFile(in, []byte(src), 0o644)
	if o, err := exec.Command(glslang, append(append([]string{"-V"}, flags...), in, "-o", out)...).CombinedOutput(); err != nil {
		t.Fatalf("glslangValidator %v: %v\n%s", flags, err, o)
	}
	b, _ := os.ReadFile(out)
	m, err := spirv.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	return m, in
}

// TestDebugInfo: -gV writes glslang's NonSemantic.Shader.DebugInfo.100
// instructions: the import and extension, no OpSource or OpLine, and in
// code the scope, line and declaration instructions glslang writes, in its
// order (the implicit return on the line of the closing brace).
func TestDebugInfo(t *testing.T) {
	var o Options
	if !DebugFlag("-gV", &o) || o.DebugInfoSource {
		t.Fatal("DebugFlag -gV")
	}
	m, d := Compile("dbg.comp", []byte(debugSrc), o)
	if m == nil {
		t.Fatal(d)
	}
	validate(t, m, "vulkan1.0")
	for _, op := range []spirv.Op{spirv.OpSource, spirv.OpLine} {
		if n := count(m, op); n != 0 {
			t.Errorf("-gV: %d %s", n, op)
		}
	}
	got := debugInsts(m)
	// twice, then main (coop writes functions in definition order).
	want := []string{"DebugSource", "DebugCompilationUnit",
		"DebugTypeBasic", "DebugTypeArray", "DebugTypeMember", "DebugTypeComposite", "DebugTypePointer", "DebugGlobalVariable",
		"DebugTypeVector", "DebugTypePointer", "DebugGlobalVariable",
		"DebugTypeFunction", "DebugFunction", "DebugLocalVariable", "DebugExpression",
		"DebugTypeFunction", "DebugTypePointer", "DebugFunction", "DebugLocalVariable", "DebugTypePointer", "DebugLexicalBlock", "DebugTypePointer",
		"DebugScope", "DebugLine 4", "DebugDeclare", "DebugFunctionDefinition", "DebugLine 5",
		"DebugScope", "DebugLine 7", "DebugFunctionDefinition", "DebugLine 8", "DebugDeclare", "DebugLine 9",
		"DebugScope", "DebugLine 10", "DebugScope", "DebugLine 12"}
	if !slices.Equal(got, want) {
		t.Errorf("-gV debug instructions\n got %q\nwant %q", got, want)
	}
	gm, _ := glslangWith(t, "dbg.comp", debugSrc, "-gV")
	gcode := glslangCode(debugInsts(gm))
	code := glslangCode(got)
	// glslang writes main first.
	if wantMain := []string{"DebugScope", "DebugLine 7", "DebugFunctionDefinition", "DebugLine 8", "DebugDeclare", "DebugLine 9",
		"DebugScope", "DebugLine 10", "DebugScope", "DebugLine 12", "DebugScope", "DebugLine 4", "DebugDeclare", "DebugFunctionDefinition", "DebugLine 5"}; !slices.Equal(gcode, wantMain) {
		t.Errorf("glslang -gV code's debug instructions %q", gcode)
	}
	if !slices.Equal(code[5:], gcode[:10]) || !slices.Equal(code[:5], gcode[10:]) {
		t.Errorf("coop's code debug instructions %q, glslang's %q", code, gcode)
	}
	kinds := func(l []string) []string {
		var k []string
		for _, s := range l {
			k = append(k, strings.Fields(s)[0])
		}
		slices.Sort(k)
		return slices.Compact(k)
	}
	if k, gk := kinds(got), kinds(debugInsts(gm)); !slices.Equal(k, gk) {
		t.Errorf("instruction kinds %q, glslang's %q", k, gk)
	}
}

// glslangCode is the part of debugInsts in function bodies.
func glslangCode(l []string) []string {
	for i, s := range l {
		if s == "DebugScope" {
			return l[i:]
		}
	}
	return nil
}

// TestDebugInfoSource: -gVS puts each file's text in its DebugSource,
// continued in DebugSourceContinued past what one OpString holds.
func TestDebugInfoSource(t *testing.T) {
	var o Options
	DebugFlag("-gVS", &o)
	big := debugSrc + "// " + strings.Repeat("x", 300000) + "\n"
	m, d := Compile("dbg.comp", []byte(big), o)
	if m == nil {
		t.Fatal(d)
	}
	validate(t, m, "vulkan1.0")
	strs := map[uint32]string{}
	var text string
	for _, in := range m.Insts {
		if in.Op == spirv.OpString {
			strs[in.Words[0]], _, _ = in.String(1)
		}
		if in.Op == spirv.OpExtInst && len(in.Words) > 5 && in.Words[3] == spirv.ShaderDebugInfoDebugSource {
			text += strs[in.Words[5]]
		}
		if in.Op == spirv.OpExtInst && in.Words[3] == spirv.ShaderDebugInfoDebugSourceContinued {
			text += strs[in.Words[4]]
		}
	}
	if text != big {
		t.Errorf("DebugSource texts hold %d bytes, want the %d of the source", len(text), len(big))
	}
}

// TestDebugInfoInclude: an included file has its DebugSource, and lines in
// it name it.
func TestDebugInfoInclude(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "inc.h"), []byte("uint twice(uint x) {\n    return x * 2u;\n}\n"), 0o644)
	src := strings.Replace(debugSrc, "uint twice(uint x) {\n    return x * 2u;\n}\n", "#include \"inc.h\"\n", 1)
	src = strings.Replace(src, "#version 450\n", "#version 450\n#extension GL_GOOGLE_include_directive : enable\n", 1)
	main := filepath.Join(dir, "main.comp")
	m, d := Compile(main, []byte(src), Options{DebugInfo: true})
	if m == nil {
		t.Fatal(d)
	}
	validate(t, m, "vulkan1.0")
	dev := cpu.New(cpu.Options{})
	buf, _ := dev.NewBuffer(16, backend.UsageStorage)
	words, _ := m.Words()
	_, err := dev.Dispatch(&backend.Dispatch{Code: words, Entry: "main", Groups: [3]uint32{1, 1, 1},
		Bindings: []backend.Binding{{Binding: 0, Buffer: buf}}})
	if err == nil || !strings.HasPrefix(err.Error(), "error: "+main+":9: ") {
		t.Errorf("fault: %v", err)
	}
	if n := strings.Count(strings.Join(debugInsts(m), " "), "DebugSource"); n != 2 {
		t.Errorf("%d DebugSource, want 2", n)
	}
}

// TestDebugInfoFaultNamesLine: a module compiled with -gV faults naming
// the GLSL file and line from its DebugLine, coop's as glslang's.
func TestDebugInfoFaultNamesLine(t *testing.T) {
	run := func(m *spirv.Module) error {
		dev := cpu.New(cpu.Options{})
		buf, _ := dev.NewBuffer(16, backend.UsageStorage)
		words, _ := m.Words()
		_, err := dev.Dispatch(&backend.Dispatch{Code: words, Entry: "main", Groups: [3]uint32{1, 1, 1},
			Bindings: []backend.Binding{{Binding: 0, Buffer: buf}}})
		return err
	}
	m, d := Compile("dbg.comp", []byte(debugSrc), Options{DebugInfo: true})
	if m == nil {
		t.Fatal(d)
	}
	if err := run(m); err == nil || !strings.HasPrefix(err.Error(), "error: dbg.comp:10: instruction ") || !strings.Contains(err.Error(), "OpStore") {
		t.Errorf("coop -gV: %v", err)
	}
	gm, path := glslangWith(t, "dbg.comp", debugSrc, "-gV")
	if err := run(gm); err == nil || !strings.HasPrefix(err.Error(), "error: "+path+":10: ") {
		t.Errorf("glslang -gV: %v", err)
	}
}

// TestEntryFunctionName: the entry function's OpName is "main", as
// glslang writes it by default, with -g and with -gV.
func TestEntryFunctionName(t *testing.T) {
	name := func(m *spirv.Module) string {
		var ep uint32
		for _, in := range m.Insts {
			if in.Op == spirv.OpEntryPoint {
				ep = in.Words[1]
			}
		}
		for _, in := range m.Insts {
			if in.Op == spirv.OpName && in.Words[0] == ep {
				s, _, _ := in.String(1)
				return s
			}
		}
		return ""
	}
	for _, flag := range []string{"", "-g", "-gV"} {
		var o Options
		DebugFlag(flag, &o)
		m, _ := Compile("dbg.comp", []byte(debugSrc), o)
		if n := name(m); n != "main" {
			t.Errorf("%s: entry function named %q", flag, n)
		}
		if refTool("glslangValidator") == "" {
			continue
		}
		var flags []string
		if flag != "" {
			flags = append(flags, flag)
		}
		if gm, _ := glslangWith(t, "dbg.comp", debugSrc, flags...); name(gm) != "main" {
			t.Errorf("glslang %s: entry function named %q", flag, name(gm))
		}
	}
}

// TestDebugInfoCorpus: every corpus compute shader coop compiles, compiled
// with -gV, passes coop val and spirv-val (where installed), disassembles
// as spirv-dis does, compiles to the same words twice, and runs on the
// executor with the same results as without -gV.
func TestDebugInfoCorpus(t *testing.T) {
	shaders := posShaders(t)
	if testing.Short() {
		t.Skip("short")
	}
	val, dis := refTool("spirv-val"), refTool("spirv-dis")
	tmp := t.TempDir()
	n, ran := 0, 0
	for _, path := range shaders {
		name := filepath.Base(path)
		env := corpusEnv(path + ".spvasm")
		src, _ := os.ReadFile(path)
		plain, _ := Compile(path, src, Options{TargetEnv: env, AutoMapBindings: true})
		if plain == nil {
			continue
		}
		m, d := Compile(path, src, Options{TargetEnv: env, AutoMapBindings: true, DebugInfo: true})
		if m == nil {
			t.Errorf("%s: compiles without -gV, not with it: %v", name, d)
			continue
		}
		n++
		coopValidate(t, m, env)
		b, err := m.Encode()
		if err != nil {
			t.Fatal(err)
		}
		again, _ := Compile(path, src, Options{TargetEnv: env, AutoMapBindings: true, DebugInfo: true})
		if b2, _ := again.Encode(); !bytes.Equal(b, b2) {
			t.Errorf("%s -gV: two compilations differ", name)
		}
		out := filepath.Join(tmp, "m.spv")
		os.WriteFile(out, b, 0o644)
		if val != "" {
			if o, err := exec.Command(val, "--target-env", strings.Replace(env, "spirv", "spv", 1), out).CombinedOutput(); err != nil {
				t.Errorf("%s -gV: spirv-val --target-env %s: %s", name, env, o)
			}
		}
		if dis != "" {
			want, err := exec.Command(dis, out).Output()
			got, _ := text.Disassemble(m, text.Options{})
			if err == nil && !bytes.Equal(got, want) {
				t.Errorf("%s -gV: coop dis differs from spirv-dis", name)
			}
		}
		fill := func(i int) byte {
			if i%4 == 0 {
				return byte(i/4%7 + 1)
			}
			return 0
		}
		want, err := runFilled(plain, fill)
		if err != nil {
			continue
		}
		got, err := runFilled(m, fill)
		if err != nil {
			t.Errorf("%s: runs without -gV, fails with it: %v", name, err)
			continue
		}
		if len(got) != len(want) {
			t.Errorf("%s -gV: %d buffers, %d without", name, len(got), len(want))
			continue
		}
		for i := range got {
			if !bytes.Equal(got[i], want[i]) {
				t.Errorf("%s -gV: buffer %d differs from the run without -gV", name, i)
			}
		}
		ran++
	}
	t.Logf("%d corpus shaders compiled with -gV; %d ran on the executor with and without it", n, ran)
}

// TestDebugLinesLikeGlslang: -g writes OpLine on the lines glslang writes
// them (the implicit return on the closing brace's line among them); coop
// writes the functions in another order.
func TestDebugLinesLikeGlslang(t *testing.T) {
	m, d := Compile("dbg.comp", []byte(debugSrc), Options{Debug: true})
	if m == nil {
		t.Fatal(d)
	}
	gm, path := glslangWith(t, "dbg.comp", debugSrc, "-g")
	got, want := lines(m), lines(gm)
	for i := range want {
		want[i] = strings.Replace(want[i], path, "dbg.comp", 1)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("-g OpLines %q, glslang's %q", got, want)
	}
}

// debugCode maps each function (by its unmangled OpName) to its debug
// instructions in code, DebugLine with its line.
func debugCode(m *spirv.Module) map[string][]string {
	names := map[uint32]string{}
	for _, in := range m.Insts {
		if in.Op == spirv.OpName {
			s, _, _ := in.String(1)
			names[in.Words[0]], _, _ = strings.Cut(s, "(")
		}
	}
	out := map[string][]string{}
	all := debugInsts(m)
	k, cur := 0, ""
	sets := map[uint32]bool{}
	for _, in := range m.Insts {
		switch in.Op {
		case spirv.OpExtInstImport:
			s, _, _ := in.String(1)
			sets[in.Words[0]] = strings.HasPrefix(s, "NonSemantic.Shader.DebugInfo.")
		case spirv.OpFunction:
			cur = names[in.Words[1]]
		case spirv.OpExtInst:
			if sets[in.Words[2]] {
				if cur != "" {
					out[cur] = append(out[cur], all[k])
				}
				k++
			}
		}
	}
	return out
}

// TestDebugInfoLikeGlslangCorpus compares, function by function, the debug
// instructions in code (DebugScope, DebugLine with its line, DebugDeclare,
// DebugFunctionDefinition, ...) of corpus shaders compiled with -gV by coop
// and by glslangValidator. The count of identical functions may only grow
// (docs/TOOLS.md lists what still differs).
func TestDebugInfoLikeGlslangCorpus(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "glslang")
	man, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Skip("corpus not present")
	}
	glslang := refTool("glslangValidator")
	if glslang == "" || testing.Short() {
		t.Skip("glslangValidator not present, or short")
	}
	tmp := t.TempDir()
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan bool, 4) // glslangValidator processes at a time
	shaders, funcs, same := 0, 0, 0
	// A glslangValidator process per shader is slow on a loaded machine:
	// every fourth shader unless COOP_DEBUGINFO_ALL is set.
	all := os.Getenv("COOP_DEBUGINFO_ALL") != ""
	n := 0
	for i, line := range strings.Split(string(man), "\n") {
		f := strings.Split(line, "\t")
		if len(f) < 2 || f[1] != "pos" {
			continue
		}
		if n++; !all && n%4 != 1 {
			continue
		}
		wg.Add(1)
		sem <- true
		go func() {
			defer func() { <-sem; wg.Done() }()
			path := filepath.Join(dir, f[0])
			env := corpusEnv(path + ".spvasm")
			src, _ := os.ReadFile(path)
			m, _ := Compile(path, src, Options{TargetEnv: env, AutoMapBindings: true, DebugInfo: true})
			if m == nil {
				return
			}
			genv := env
			if env == "spirv1.4" {
				genv = "vulkan1.1"
			}
			out := filepath.Join(tmp, strconv.Itoa(i)+".spv")
			if _, err := exec.Command(glslang, "-V", "--target-env", genv, "--amb", "-gV", path, "-o", out).CombinedOutput(); err != nil {
				return
			}
			b, _ := os.ReadFile(out)
			gm, err := spirv.Decode(b)
			if err != nil {
				return
			}
			ours := debugCode(m)
			mu.Lock()
			defer mu.Unlock()
			shaders++
			for name, theirs := range debugCode(gm) {
				funcs++
				if slices.Equal(ours[name], theirs) {
					same++
				}
			}
		}()
	}
	wg.Wait()
	t.Logf("%d corpus shaders compiled with -gV by coop and glslang: %d of %d functions have the same debug instructions in code", shaders, same, funcs)
	if floor := map[bool]int{true: 119, false: 29}[all]; shaders > 0 && same < floor {
		t.Errorf("%d functions like glslang's, fewer than the %d of before", same, floor)
	}
}
