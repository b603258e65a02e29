package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunFaultNamesShaderLine: coop run compiles GLSL with -g, so an
// out-of-bounds write in an inline shader fails naming the script's file
// and the line of the write.
func TestRunFaultNamesShaderLine(t *testing.T) {
	script := `SHADER compute s GLSL
#version 450
layout(local_size_x = 4) in;
layout(binding = 0) buffer B { uint data[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    data[i + 100u] = i;
}
END

BUFFER buf DATA_TYPE uint32 SIZE 4 FILL 0

PIPELINE compute p
  ATTACH s
  BIND BUFFER buf AS storage DESCRIPTOR_SET 0 BINDING 0
END

RUN p 1 1 1
`
	path := filepath.Join(t.TempDir(), "oob.amber")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	rc, out, errs := runCLI("run", path)
	if rc != 1 || !strings.Contains(out+errs, "RUN p: error: "+path+":7: instruction ") {
		t.Fatalf("rc %d\n%s%s", rc, out, errs)
	}
}

// TestCompileG0StripsNames: -g0 leaves no OpName in the module (the
// default keeps them, as glslangValidator does).
func TestCompileG0StripsNames(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "a.comp")
	os.WriteFile(src, []byte("#version 450\nlayout(local_size_x = 1) in;\nlayout(binding = 0) buffer Blockname { uint v; };\nvoid main() { v = 1u; }\n"), 0o644)
	for _, c := range []struct {
		flag  string
		names bool
	}{{"-g0", false}, {"-g", true}} {
		out := filepath.Join(dir, "a"+c.flag+".spv")
		if rc, so, se := runCLI("compile", c.flag, src, "-o", out); rc != 0 {
			t.Fatalf("%s: rc %d %s%s", c.flag, rc, so, se)
		}
		b, _ := os.ReadFile(out)
		if got := strings.Contains(string(b), "Blockname"); got != c.names {
			t.Errorf("%s: names present %v", c.flag, got)
		}
	}
}
