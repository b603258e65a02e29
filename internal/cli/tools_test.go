package cli

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coopshader/coop/internal/reftool"
)

const (
	smallShader = "#version 450\nlayout(local_size_x = 1) in;\nlayout(binding = 0) buffer B { uint v; };\nvoid main() { v = 1u; }\n"
	khrShader   = "../../examples/shaders/matmul_khr_f16.comp"
)

// refTool is a reference tool's path, or a skip.
func refTool(t *testing.T, name string) string {
	p := reftool.Path(name)
	if p == "" {
		t.Skipf("%s not found (set COOP_REF_BIN)", name)
	}
	return p
}

func writeFile(t *testing.T, dir, name, text string) string {
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// wordsOf reads the words back out of -x or --vn text.
func wordsOf(text string) []uint32 {
	var ws []uint32
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == '\n' || r == '\t' || r == ' ' }) {
		var w uint32
		if n, _ := fmtSscanHex(f, &w); n == 1 {
			ws = append(ws, w)
		}
	}
	return ws
}

func fmtSscanHex(s string, w *uint32) (int, error) {
	if !strings.HasPrefix(s, "0x") || len(s) != 10 {
		return 0, nil
	}
	var v uint32
	for _, c := range s[2:] {
		d := strings.IndexRune("0123456789abcdef", c)
		if d < 0 {
			return 0, nil
		}
		v = v<<4 | uint32(d)
	}
	*w = v
	return 1, nil
}

func bytesToWords(b []byte) []uint32 {
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return w
}

// TestCompileHexAndHeader: -x and --vn write the module's words; their
// layout is glslangValidator's (checked on glslang's own module when it is
// installed: all but the version comment agree).
func TestCompileHexAndHeader(t *testing.T) {
	dir := t.TempDir()
	src := writeFile(t, dir, "s.comp", smallShader)
	bin, hex, hdr := filepath.Join(dir, "s.spv"), filepath.Join(dir, "s.txt"), filepath.Join(dir, "s.h")
	for _, args := range [][]string{{"-o", bin, src}, {src, "-x", "-o", hex}, {"--vn", "shader_spv", src, "-o", hdr}} {
		if rc, _, errs := runCLI(append([]string{"compile"}, args...)...); rc != 0 {
			t.Fatalf("%v: rc %d %s", args, rc, errs)
		}
	}
	b, _ := os.ReadFile(bin)
	x, _ := os.ReadFile(hex)
	h, _ := os.ReadFile(hdr)
	want := bytesToWords(b)
	if got := wordsOf(string(x)); !equalWords(got, want) {
		t.Errorf("-x words differ from the binary")
	}
	if got := wordsOf(string(h)); !equalWords(got, want) || !strings.Contains(string(h), "const uint32_t shader_spv[] = {\n") || !strings.HasSuffix(string(h), "\n};\n") {
		t.Errorf("--vn header:\n%s", h)
	}
	gv := refTool(t, "glslangValidator")
	refBin, refHex, refHdr := filepath.Join(dir, "r.spv"), filepath.Join(dir, "r.txt"), filepath.Join(dir, "r.h")
	for _, args := range [][]string{{"-V", "-o", refBin, src}, {"-V", "-x", "-o", refHex, src}, {"-V", "--vn", "shader_spv", "-o", refHdr, src}} {
		if out, err := exec.Command(gv, args...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v %s", args, err, out)
		}
	}
	rb, _ := os.ReadFile(refBin)
	words := bytesToWords(rb)
	for _, c := range []struct {
		file, name string
	}{{refHex, ""}, {refHdr, "shader_spv"}} {
		ref, _ := os.ReadFile(c.file)
		got := string(cWords(words, c.name))
		_, gotRest, _ := strings.Cut(got, "\n")
		_, refRest, _ := strings.Cut(string(ref), "\n")
		if gotRest != refRest {
			t.Errorf("layout of %s differs from glslangValidator's:\n%s\nwant\n%s", c.file, gotRest, refRest)
		}
	}
}

func equalWords(a, b []uint32) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestCompileTextOutputs: -E prints glslang's preprocessed text, -H the
// disassembly, and a shader that needs a newer target says which.
func TestCompileTextOutputs(t *testing.T) {
	dir := t.TempDir()
	src := writeFile(t, dir, "s.comp", "#version 450\n#define ONE 1u\nlayout(local_size_x = 1) in;\nlayout(binding = 0) buffer B { uint v; };\nvoid main() { v = ONE; }\n")
	rc, out, errs := runCLI("compile", "-E", src)
	if rc != 0 || !strings.Contains(out, "void main() { v = 1u; }\n") {
		t.Fatalf("-E: rc %d %q %s", rc, out, errs)
	}
	if gv := reftool.Path("glslangValidator"); gv != "" {
		if ref, err := exec.Command(gv, "-E", src).Output(); err != nil || string(ref) != out {
			t.Errorf("-E differs from glslangValidator:\n%s\nwant\n%s", out, ref)
		}
	}
	rc, out, errs = runCLI("compile", "-H", src, "-o", filepath.Join(dir, "s.spv"))
	if rc != 0 || !strings.Contains(out, "; SPIR-V\n") || !strings.Contains(out, "OpEntryPoint GLCompute ") {
		t.Fatalf("-H: rc %d %q %s", rc, out, errs)
	}
	rc, _, errs = runCLI("compile", "-o", filepath.Join(dir, "k.spv"), khrShader)
	if rc != 2 || !strings.Contains(errs, "compiles with --target-env vulkan1.1 (the default is vulkan1.0") {
		t.Fatalf("default target: rc %d %s", rc, errs)
	}
	if rc, _, errs := runCLI("compile", "--target-env", "vulkan1.0", "-o", filepath.Join(dir, "k.spv"), khrShader); rc != 2 || strings.Contains(errs, "compiles with") {
		t.Fatalf("explicit target: rc %d %s", rc, errs)
	}
	for _, args := range [][]string{{"-Od", src}, {"-O", src}, {src, "-l", "-t"}} {
		if rc, _, errs := runCLI(append([]string{"compile", "-o", filepath.Join(dir, "o.spv")}, args...)...); rc != 0 {
			t.Errorf("%v: rc %d %s", args, rc, errs)
		}
	}
	if rc, _, errs := runCLI("compile", "-q", src); rc != 2 || !strings.Contains(errs, "-q") {
		t.Errorf("-q: rc %d %s", rc, errs)
	}
	for _, f := range []string{khrShader, src} {
		if rc, _, errs := runCLI("compile", "--spirv-val", "--target-env", "vulkan1.3", "-o", filepath.Join(dir, "v.spv"), f); rc != 0 {
			t.Errorf("--spirv-val %s: rc %d %s", f, rc, errs)
		}
	}
}

// TestCompileExitCodes follows glslangValidator: 2 for a shader that does
// not compile, 1 for a file that cannot be read.
func TestCompileExitCodes(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad.comp", "#version 450\nvoid main() { x = 1; }\n")
	missing := filepath.Join(dir, "none.comp")
	cases := []struct {
		file string
		rc   int
	}{{bad, 2}, {missing, 1}}
	for _, c := range cases {
		if rc, _, _ := runCLI("compile", "-o", filepath.Join(dir, "o.spv"), c.file); rc != c.rc {
			t.Errorf("%s: rc %d, want %d", c.file, rc, c.rc)
		}
	}
	gv := refTool(t, "glslangValidator")
	for _, c := range cases {
		err := exec.Command(gv, "-V", "-o", filepath.Join(dir, "r.spv"), c.file).Run()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != c.rc {
			t.Errorf("glslangValidator %s: %v, want exit %d", c.file, err, c.rc)
		}
	}
}

// TestDisOffsets: --offsets matches spirv-dis --offsets; --no-color is
// accepted; --comment is refused with the reason.
func TestDisOffsets(t *testing.T) {
	dir := t.TempDir()
	spv := filepath.Join(dir, "m.spv")
	if rc, _, errs := runCLI("compile", "--target-env", "vulkan1.3", "-o", spv, khrShader); rc != 0 {
		t.Fatal(errs)
	}
	rc, out, errs := runCLI("dis", spv, "--offsets", "--no-color")
	if rc != 0 || !strings.Contains(out, "OpCapability Shader                  ; 0x00000014\n") {
		t.Fatalf("rc %d %s\n%s", rc, errs, out)
	}
	if rc, _, errs := runCLI("dis", "--comment", spv); rc != 2 || !strings.Contains(errs, "--comment is not supported") {
		t.Errorf("--comment: rc %d %s", rc, errs)
	}
	sd := refTool(t, "spirv-dis")
	for _, flags := range [][]string{{"--offsets"}, {"--offsets", "--no-indent"}, {"--offsets", "--raw-id", "--no-header"}} {
		ref, err := exec.Command(sd, append(flags, spv)...).Output()
		_, got, _ := runCLI(append([]string{"dis", spv}, flags...)...)
		if err != nil || got != string(ref) {
			t.Errorf("%v differs from spirv-dis (%v)", flags, err)
		}
	}
}

// TestAsTargetEnv: a Vulkan target environment gives the SPIR-V version
// spirv-as gives it.
func TestAsTargetEnv(t *testing.T) {
	dir := t.TempDir()
	asm := writeFile(t, dir, "m.spvasm", "OpCapability Shader\nOpMemoryModel Logical GLSL450\n")
	want := map[string]uint32{"vulkan1.0": 0x10000, "vulkan1.1": 0x10300, "vulkan1.1spv1.4": 0x10400, "vulkan1.2": 0x10500, "vulkan1.3": 0x10600, "spv1.2": 0x10200}
	sa := reftool.Path("spirv-as")
	for env, v := range want {
		out := filepath.Join(dir, env+".spv")
		if rc, _, errs := runCLI("as", asm, "--target-env", env, "-o", out); rc != 0 {
			t.Fatalf("%s: %s", env, errs)
		}
		b, _ := os.ReadFile(out)
		if got := binary.LittleEndian.Uint32(b[4:]); got != v {
			t.Errorf("%s: version %#x, want %#x", env, got, v)
		}
		if sa == "" {
			continue
		}
		ref := filepath.Join(dir, env+".ref.spv")
		if err := exec.Command(sa, "--target-env", env, asm, "-o", ref).Run(); err != nil {
			t.Fatal(err)
		}
		r, _ := os.ReadFile(ref)
		if !bytes.Equal(r[4:8], b[4:8]) {
			t.Errorf("%s: spirv-as writes version %x", env, r[4:8])
		}
	}
	if rc, _, errs := runCLI("as", "--target-env", "vulkan9", asm); rc != 2 || !strings.Contains(errs, "unknown --target-env") {
		t.Errorf("vulkan9: rc %d %s", rc, errs)
	}
}

// TestGlslcFlags: -E, -S, -M, -mfmt, -c's default name, -Werror, -std=.
func TestGlslcFlags(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeFile(t, dir, "defs.glsl", "#define SCALE 3u\n")
	src := writeFile(t, dir, "k.comp", "#version 450\n#include \"defs.glsl\"\nlayout(local_size_x = 1) in;\nlayout(binding = 0) buffer B { uint v; };\nvoid main() { v = SCALE; }\n")
	if rc, out, errs := runCLI("glslc", "-E", src); rc != 0 || !strings.Contains(out, "v = 3u;") {
		t.Errorf("-E: rc %d %q %s", rc, out, errs)
	}
	if rc, out, errs := runCLI("glslc", "-M", src); rc != 0 || out != "k.comp.spv: "+src+" "+filepath.Join(dir, "defs.glsl")+"\n" {
		t.Errorf("-M: rc %d %q %s", rc, out, errs)
	}
	if rc, _, errs := runCLI("glslc", "-S", src); rc != 0 {
		t.Errorf("-S: rc %d %s", rc, errs)
	} else if b, _ := os.ReadFile("k.comp.spvasm"); !strings.HasPrefix(string(b), "; SPIR-V\n") {
		t.Errorf("-S wrote %q", b)
	}
	if rc, _, errs := runCLI("glslc", "-c", src); rc != 0 {
		t.Errorf("-c: rc %d %s", rc, errs)
	} else if b, _ := os.ReadFile("k.comp.spv"); len(b) < 20 || b[0] != 0x03 {
		t.Errorf("-c wrote %d bytes", len(b))
	}
	rc, out, errs := runCLI("glslc", "-mfmt=num", src, "-o", "-")
	if ws := wordsOf(out); rc != 0 || len(ws) < 5 || ws[0] != 0x07230203 || !strings.HasPrefix(out, "0x07230203,0x00010000,0x") || strings.Count(strings.SplitN(out, "\n", 2)[0], "0x") != 4 {
		t.Errorf("-mfmt=num: rc %d %q %s", rc, out, errs)
	}
	if rc, out, _ := runCLI("glslc", "-mfmt=c", src, "-o", "-"); rc != 0 || !strings.HasPrefix(out, "{0x07230203,") || !strings.HasSuffix(out, "}\n") {
		t.Errorf("-mfmt=c: %q", out)
	}
	noVersion := writeFile(t, dir, "nv.comp", "layout(local_size_x = 1) in;\nlayout(binding = 0) buffer B { uint v; };\nvoid main() { v = 1u; }\n")
	if rc, _, errs := runCLI("glslc", "-std=450core", "-c", noVersion); rc != 0 {
		t.Errorf("-std=450core: rc %d %s", rc, errs)
	}
	warn := writeFile(t, dir, "w.comp", "#version 450\n#extension GL_EXT_no_such_thing : warn\nlayout(local_size_x = 1) in;\nvoid main() {}\n")
	if rc, _, errs := runCLI("glslc", "-c", warn); rc != 0 {
		t.Fatalf("warning alone: rc %d %s", rc, errs)
	}
	if rc, _, errs := runCLI("glslc", "-c", warn, "-Werror"); rc != 1 || !strings.Contains(errs, "-Werror") {
		t.Errorf("-Werror: rc %d %s", rc, errs)
	}
}

// TestProgressLine: the line names the work, counts, rate and time left;
// nothing is drawn off a terminal.
func TestProgressLine(t *testing.T) {
	if newProgress(&bytes.Buffer{}) != nil {
		t.Fatal("progress on a buffer")
	}
	var b bytes.Buffer
	p := &progress{w: &b}
	if si(12345678) != "12.3M" || si(1) != "1" || si(2500) != "2.5k" {
		t.Errorf("si: %s %s %s", si(12345678), si(1), si(2500))
	}
	p.begin("t.amber:3 RUN mm 8x1x1", "workgroups", 8)
	p.set(2)
	p.draw()
	if b.Len() != 0 {
		t.Fatalf("drawn in the first second: %q", b.String())
	}
	p.start = time.Now().Add(-2 * time.Second)
	p.draw()
	if s := b.String(); !strings.HasPrefix(s, "\rt.amber:3 RUN mm 8x1x1: 2 of 8 workgroups (25.0%), 2s, 1 workgroups/s, about 6s left\x1b[K") {
		t.Fatalf("%q", s)
	}
	p.clear()
	if !strings.HasSuffix(b.String(), "\r\x1b[K") {
		t.Fatalf("not cleared: %q", b.String())
	}
}
