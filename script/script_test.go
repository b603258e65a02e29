package script

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	cpu "github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/glsl/compile"
)

var compilers = Compilers{GLSL: func(name string, src []byte, o GLSLOptions) ([]uint32, error) {
	return compile.Words(name, src, compile.Options{TargetEnv: o.TargetEnv})
}}

const addShader = `SHADER compute add GLSL
#version 450
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer A { float a[]; };
layout(std430, binding = 1) buffer B { float b[]; };
layout(push_constant) uniform P { float k; };
void main() { uint i = gl_GlobalInvocationID.x; b[i] = a[i] * k + 1.0; }
END
`

func run(t *testing.T, src string) (*Report, error) {
	t.Helper()
	s, err := Parse("t.amber", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return Run(s, cpu.New(cpu.Options{}), compilers, RunOptions{})
}

func TestRunAndExpect(t *testing.T) {
	src := addShader + `
BUFFER in DATA_TYPE float SIZE 8 SERIES_FROM 0 INC_BY 1
BUFFER out DATA_TYPE float SIZE 8 FILL 0
BUFFER pc DATA_TYPE float DATA
2.0
END
BUFFER ref DATA_TYPE float DATA
1 3 5 7 9 11 13 15
END
PIPELINE compute p
  ATTACH add
  BIND BUFFER in AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER out AS storage DESCRIPTOR_SET 0 BINDING 1
  BIND BUFFER pc AS push_constant
END
RUN p 2 1 1
EXPECT out IDX 0 EQ 1 3 5
EXPECT out IDX 2 TOLERANCE 0.5 EQ 5.4
EXPECT out IDX 2 TOLERANCE 10% EQ 5.4
EXPECT out IDX 2 ULP 1 EQ 5.0000005
EXPECT out EQ_BUFFER ref
EXPECT out RMSE_BUFFER ref TOLERANCE 0.001
EXPECT out IDX 7 EQ 16
EXPECT out IDX 2 TOLERANCE 0.1 EQ 5.4
EXPECT out IDX 2 ULP 1 EQ 5.00001
`
	rep, err := run(t, src)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	rep.Format(&b)
	want := []bool{true, true, true, true, true, true, false, false, false}
	if len(rep.Results) != len(want) {
		t.Fatalf("%d results:\n%s", len(rep.Results), b.String())
	}
	for i, w := range want {
		if rep.Results[i].Pass != w {
			t.Errorf("result %d pass=%v, want %v:\n%s", i, rep.Results[i].Pass, w, b.String())
		}
	}
	if !strings.Contains(b.String(), "FAIL t.amber:31 EXPECT out IDX 7 EQ 16\n    1 of 1 values differ:\n    [7] got 15, want 16") {
		t.Errorf("report:\n%s", b.String())
	}
}

func TestMatmulExpect(t *testing.T) {
	src := `SHADER compute mm GLSL
#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer A { int a[]; };
layout(std430, binding = 1) buffer B { int b[]; };
layout(std430, binding = 2) buffer C { int c[]; };
void main() {
	uint i = gl_GlobalInvocationID.x / 3, j = gl_GlobalInvocationID.x % 3;
	int s = 0;
	for (int k = 0; k < 4; k++) s += a[i * 4 + k] * b[k * 3 + j];
	c[i * 3 + j] = s + (i == 1 && j == 2 ? 1 : 0);
}
END
BUFFER A DATA_TYPE int32 SIZE 8 RANDOM SEED 7 MIN -5 MAX 5
BUFFER B DATA_TYPE int32 SIZE 12 RANDOM SEED 8 MIN -5 MAX 5
BUFFER C DATA_TYPE int32 SIZE 6 FILL 0
PIPELINE compute p
  ATTACH mm
  BIND BUFFER A AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER B AS storage DESCRIPTOR_SET 0 BINDING 1
  BIND BUFFER C AS storage DESCRIPTOR_SET 0 BINDING 2
END
RUN p 6 1 1
EXPECT C EQ_MATMUL A B M 2 N 3 K 4
`
	rep, err := run(t, src)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 || rep.Results[0].Pass || !strings.Contains(rep.Results[0].Msg, "1 of 6 values differ") || !strings.Contains(rep.Results[0].Msg, "[5]") {
		t.Fatalf("%+v", rep.Results)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"BUFFER b DATA_TYPE float SIZE x FILL 0", "t.amber:1: expected a positive element count after SIZE, got \"x\""},
		{"BUFFER b DATA_TYPE quux SIZE 1 FILL 0", "t.amber:1: unknown data type \"quux\""},
		{"\n\nFROB", "t.amber:3: expected a command"},
		{"SHADER compute s GLSL\nvoid main() {}\n", "t.amber:1: expected END for SHADER s"},
		{"RUN nope 1 1 1", "unknown pipeline \"nope\""},
		{"BUFFER b DATA_TYPE int8 DATA\n1 2 300\nEND", "t.amber:2: expected an int8, got \"300\""},
		{"BUFFER b DATA_TYPE float SIZE 1 FILL 0\nEXPECT b IDX 0 EQ", "expected EQ <values...>"},
		{"BUFFER b DATA_TYPE float SIZE 1 FILL 0\nEXPECT b IDX 1 EQ 0", "reads past the end"},
		{"PIPELINE compute p\nATTACH nope\nEND", "t.amber:2: unknown shader \"nope\""},
		{"BUFFER b DATA_TYPE float SIZE 1 FILL 0\nEXPECT b EQ_MATMUL b b M 2 N 2 K 2", "too small"},
	}
	for _, tc := range tests {
		_, err := Parse("t.amber", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.src, err, tc.want)
		}
	}
}

func TestCompileErrorNamesScriptLine(t *testing.T) {
	s, err := Parse("t.amber", []byte("# c\nSHADER compute s GLSL\n#version 450\nvoid main() { x = 1; }\nEND\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(s, cpu.New(cpu.Options{}), compilers, RunOptions{})
	if err == nil || !strings.Contains(err.Error(), "t.amber:3: shader s") || !strings.Contains(err.Error(), "undeclared identifier") {
		t.Fatalf("got %v", err)
	}
}

func TestCompareBackends(t *testing.T) {
	src := addShader + `
BUFFER in DATA_TYPE float SIZE 4 SERIES_FROM 1 INC_BY 1
BUFFER out DATA_TYPE float SIZE 4 FILL 0
BUFFER pc DATA_TYPE float DATA
3
END
PIPELINE compute p
  ATTACH add
  BIND BUFFER in AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER out AS storage DESCRIPTOR_SET 0 BINDING 1
  BIND BUFFER pc AS push_constant
END
RUN p 1 1 1
EXPECT out IDX 0 EQ 4 7 10 13
`
	s, err := Parse("t.amber", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Compare(s, cpu.New(cpu.Options{}), cpu.New(cpu.Options{SubgroupSize: 8}), compilers, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Failed() != 0 || len(rep.Results) != 2+3 {
		var b bytes.Buffer
		rep.Format(&b)
		t.Fatalf("%d results, %d failed:\n%s", len(rep.Results), rep.Failed(), b.String())
	}
}

func TestDumpAndTiming(t *testing.T) {
	src := addShader + `
BUFFER in DATA_TYPE float16 SIZE 4 FILL 0.5
BUFFER out DATA_TYPE float SIZE 4 FILL 0
BUFFER pc DATA_TYPE float DATA
1
END
`
	s, err := Parse("t.amber", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := Run(s, cpu.New(cpu.Options{}), compilers, RunOptions{Dump: []string{"in"}, DumpTo: &b, Timed: true}); err != nil {
		t.Fatal(err)
	}
	if b.String() != "BUFFER in (float16, 4 values)\n0.5 0.5 0.5 0.5\n" {
		t.Fatalf("dump %q", b.String())
	}
}

func TestBufferAddress(t *testing.T) {
	src := `SHADER compute refs GLSL
#version 450
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 4) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Data { float v[]; };
layout(push_constant) uniform P { Data src; Data dst; };
void main() {
	uint i = gl_GlobalInvocationID.x;
	dst.v[i] = src.v[i] * 2.0;
}
END
BUFFER a DATA_TYPE float SIZE 8 SERIES_FROM 1 INC_BY 1
BUFFER b DATA_TYPE float SIZE 8 FILL 0
BUFFER pc DATA_TYPE uint64 SIZE 2 FILL 0
PIPELINE compute p
  ATTACH refs
  BIND BUFFER_ADDRESS a INTO pc OFFSET 0
  BIND BUFFER_ADDRESS b INTO pc OFFSET 8
  BIND BUFFER pc AS push_constant
END
RUN p 2 1 1
EXPECT b IDX 0 EQ 2 4 6 8 10 12 14 16
`
	rep, err := run(t, src)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Failed() != 0 {
		var b bytes.Buffer
		rep.Format(&b)
		t.Fatal(b.String())
	}
}

// TestScripts runs every script in testdata on the CPU executor.
func TestScripts(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.amber")
	if len(files) == 0 {
		t.Fatal("no test scripts")
	}
	for _, f := range files {
		s, err := ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Run(s, cpu.New(cpu.Options{}), compilers, RunOptions{})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if rep.Failed() != 0 {
			var b bytes.Buffer
			rep.Format(&b)
			t.Errorf("%s:\n%s", f, b.String())
		}
	}
}
