package script

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coopshader/coop/backend"
	cpu "github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/internal/fuzzwatch"
)

func mustParse(t *testing.T, src string) *Script {
	t.Helper()
	s, err := Parse("t.amber", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func format(rep *Report) string {
	var b bytes.Buffer
	rep.Format(&b)
	return b.String()
}

// wantResults checks the pass/fail pattern of a report.
func wantResults(t *testing.T, rep *Report, want ...bool) {
	t.Helper()
	if len(rep.Results) != len(want) {
		t.Fatalf("%d results, want %d:\n%s", len(rep.Results), len(want), format(rep))
	}
	for i, w := range want {
		if rep.Results[i].Pass != w {
			t.Errorf("result %d (line %d) pass=%v, want %v", i, rep.Results[i].Line, rep.Results[i].Pass, w)
		}
	}
	if t.Failed() {
		t.Log(format(rep))
	}
}

// runFake runs a script on a fake device (no shaders needed).
func runFake(t *testing.T, src string, opts RunOptions) *Report {
	t.Helper()
	rep, err := Run(context.Background(), mustParse(t, src), &fakeDevice{name: "fake"}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestParseErrors(t *testing.T) {
	const buf = "BUFFER b DATA_TYPE float SIZE 4 FILL 0\n"
	tests := []struct{ src, want string }{
		{"BUFFER b DATA_TYPE float SIZE x FILL 0", `t.amber:1: expected a positive element count after SIZE, got "x"`},
		{"BUFFER b DATA_TYPE quux SIZE 1 FILL 0", `t.amber:1: expected a data type, got "quux"`},
		{"BUFFER b DATA_TYPE int4 SIZE 4\nEXPECT b IDX 0x7fffffffffffffff EQ 1", `t.amber:2: expected a byte offset inside b (2 bytes), got 9223372036854775807`},
		// Sizes are checked in 64 bits: 4611686018427387905*4 wraps to 4.
		{"BUFFER b DATA_TYPE float WIDTH 4611686018427387905 HEIGHT 4", `t.amber:1: expected a buffer of at most 4294967296 bytes, got WIDTH 4611686018427387905 HEIGHT 4`},
		{"BUFFER b DATA_TYPE float WIDTH 65536 HEIGHT 65536", `t.amber:1: expected a buffer of at most 4294967296 bytes, got SIZE 4294967296 of float`},
		{"BUFFER b DATA_TYPE mat4x4<double> SIZE 0x7fffffffffffffff", `t.amber:1: expected a buffer of at most 4294967296 bytes, got SIZE 9223372036854775807 of mat4x4<double>`},
		{"BUFFER b DATA_TYPE vec4<uint64> SIZE 134217729", `t.amber:1: expected a buffer of at most 4294967296 bytes, got SIZE 134217729 of vec4<uint64>`},
		{"BUFFER b DATA_TYPE vec5<float> SIZE 1", `t.amber:1: expected vec2, vec3 or vec4, got "vec5"`},
		{"BUFFER b DATA_TYPE float SIZE 2 FILL", `t.amber:1: expected FILL <value>, got end of line`},
		{"BUFFER b DATA_TYPE float SIZE 2 ZERO", `t.amber:1: expected FILL, SERIES_FROM, RANDOM, FILE or end of line after SIZE <n>, got "ZERO"`},
		{"BUFFER b DATA_TYPE float", `t.amber:1: expected DATA, SIZE <n> or FILE BINARY|TEXT <path>, got end of line`},
		{"BUFFER b DATA_TYPE", `t.amber:1: expected BUFFER <name> DATA_TYPE <type> or BUFFER <name> FORMAT <format>, got "DATA_TYPE"`},
		{"BUFFER b DATA_TYPE int8 DATA\n1 2\n300\nEND", `t.amber:3: expected a int8 value, got "300" (out of range)`},
		{"BUFFER b DATA_TYPE float DATA\n1 2\n", `t.amber:1: expected END for BUFFER b DATA, got end of file`},
		{"BUFFER b DATA_TYPE float SIZE 4 RANDOM SEED 1 MIN 2 MAX 1", `t.amber:1: expected MAX at least MIN, got MIN 2 MAX 1`},
		{"BUFFER b DATA_TYPE float SIZE 4 RANDOM SEED 1 MIN 0", `t.amber:1: expected RANDOM SEED <s> MIN <a> MAX <b> [STEP <q>], got "SEED"`},
		{buf + buf, `t.amber:2: expected a new buffer name, got "b" (already defined)`},
		{"\n\nFROB", `t.amber:3: expected a command (SHADER, BUFFER, PIPELINE, RUN, EXPECT, COPY, REPEAT), got "FROB"`},
		{"SHADER vertex v GLSL\nEND", `t.amber:1: expected shader type compute, got "vertex"`},
		{"SHADER compute s HLSL\nEND", `t.amber:1: expected a shader format (GLSL, SPIRV-ASM, SPIRV-HEX, SPIRV-BIN), got "HLSL"`},
		{"SHADER compute s GLSL\nvoid main() {}\n", `t.amber:1: expected END for SHADER s, got end of file`},
		{"SHADER compute s SPIRV-HEX\n03 02 23\nEND", `t.amber:1: expected SPIR-V as hexadecimal bytes, got 3 bytes (not whole 32-bit words)`},
		{"SHADER compute s SPIRV-HEX\n03 02 zz 07\nEND", `t.amber:1: expected SPIR-V as hexadecimal bytes, got "zz"`},
		{"SHADER compute s SPIRV-BIN\nEND", `t.amber:1: expected FILE <path> for SPIRV-BIN, got end of line`},
		{"SHADER compute s GLSL FILE nope.comp", `t.amber:1: expected a readable shader file, got open nope.comp`},
		{"RUN nope 1 1 1", `t.amber:1: expected a pipeline declared earlier, got "nope"`},
		{"PIPELINE compute p\nATTACH nope\nEND", `t.amber:2: expected a shader declared earlier, got "nope"`},
		{"PIPELINE graphics p\nEND", `t.amber:1: expected pipeline type compute, got "graphics"`},
		{"SHADER compute s SPIRV-HEX\n03 02 23 07\nEND\nPIPELINE compute p\nEND", `t.amber:5: expected ATTACH <shader> in PIPELINE p, got END`},
		{"SHADER compute s SPIRV-HEX\n03 02 23 07\nEND\nPIPELINE compute p\nATTACH s SPECIALIZE 1 AS vec4 1\nEND", `t.amber:5: expected a specialization type (bool, int8 to int64, uint8 to uint64, float16, float, double), got "vec4"`},
		{"SHADER compute s SPIRV-HEX\n03 02 23 07\nEND\n" + buf + "PIPELINE compute p\nATTACH s\nBIND BUFFER b AS sampled_image DESCRIPTOR_SET 0 BINDING 0\nEND", `t.amber:7: expected an IMAGE to bind as sampled_image, got buffer b`},
		{"SHADER compute s SPIRV-HEX\n03 02 23 07\nEND\n" + buf + "PIPELINE compute p\nATTACH s\nBIND BUFFER b AS storage_dynamic DESCRIPTOR_SET 0 BINDING 0\nEND", `t.amber:7: expected storage, uniform, push_constant, storage_image, sampled_image, combined_image_sampler, uniform_texel_buffer or storage_texel_buffer, got "storage_dynamic"`},
		{"SHADER compute s SPIRV-HEX\n03 02 23 07\nEND\n" + buf + "PIPELINE compute p\nATTACH s\nBIND BUFFER b AS uniform_texel_buffer DESCRIPTOR_SET 0 BINDING 0\nEND", `t.amber:7: expected a buffer with a texel FORMAT (such as R32_SFLOAT) to bind as uniform_texel_buffer, got b of type float`},
		{"SAMPLER s\nSHADER compute c SPIRV-HEX\n03 02 23 07\nEND\nIMAGE i FORMAT R8G8B8A8_UNORM DIM_2D WIDTH 2 HEIGHT 2\nPIPELINE compute p\nATTACH c\nBIND BUFFER i AS combined_image_sampler DESCRIPTOR_SET 0 BINDING 0\nEND", `t.amber:8: expected SAMPLER <a sampler declared earlier> after AS combined_image_sampler, got "DESCRIPTOR_SET"`},
		{"IMAGE i FORMAT R8G8B8A8_UNORM DIM_2D WIDTH 2", `t.amber:1: expected HEIGHT for a DIM_2D image`},
		{"IMAGE i FORMAT R8G8B8A8_UNORM WIDTH 2", `t.amber:1: expected DIM_1D, DIM_2D, DIM_3D or DIM_CUBE, got end of line`},
		{"IMAGE i DATA_TYPE vec3<float> DIM_1D WIDTH 2", `t.amber:1: expected an image format (a Vulkan format of the SPIR-V image formats, D16_UNORM or D32_SFLOAT), or a type of 1, 2 or 4 components of 8- to 32-bit integers, float16 or float, got "vec3<float>"`},
		{"IMAGE i DATA_TYPE float DIM_2D WIDTH 2 HEIGHT 2 DATA 1 2 3 END", `t.amber:1: expected 4 values (level 0) or 4 (every level) in the DATA of image i, got 3`},
		{"IMAGE i DATA_TYPE float DIM_CUBE WIDTH 2 HEIGHT 3", `t.amber:1: image i: a cube image has square faces and a multiple of 6 layers`},
		{"SAMPLER s MAG_FILTER cubic", `t.amber:1: expected a valid value after MAG_FILTER, got "cubic"`},
		{"SAMPLER s MIN_LOD 2 MAX_LOD 1", `t.amber:1: sampler s: sampler MinLod 2 above MaxLod 1`},
		{"SHADER compute s SPIRV-HEX\n03 02 23 07\nEND\n" + buf + "PIPELINE compute p\nATTACH s\nBIND BUFFER b AS storage DESCRIPTOR_SET 0\nEND", `t.amber:7: expected BINDING <n>, got end of line`},
		{"SHADER compute s SPIRV-HEX\n03 02 23 07\nEND\n" + buf + "PIPELINE compute p\nATTACH s\nBIND BUFFER_ADDRESS b INTO b OFFSET 12\nEND", `t.amber:7: expected an 8-byte aligned OFFSET inside b (16 bytes), got "12"`},
		{"SHADER compute s SPIRV-HEX\n03 02 23 07\nEND\nPIPELINE compute p\nATTACH s\nEND\nRUN p 1 0 1", `t.amber:7: expected a positive workgroup count, got "0"`},
		{"SHADER compute s SPIRV-HEX\n03 02 23 07\nEND\nPIPELINE compute p\nATTACH s\nEND\nRUN p DRAW_RECT POS 0 0 SIZE 1 1", `t.amber:7: expected RUN <pipeline> <x> <y> <z> (compute pipelines only), got "DRAW_RECT"`},
		{buf + "EXPECT b IDX 0 EQ", `t.amber:2: expected values after EQ, got end of line`},
		{buf + "EXPECT b IDX 0 FOO 1", `t.amber:2: expected a comparator (EQ, NE, LT, LE, GT, GE) or TOLERANCE, got "FOO"`},
		{buf + "EXPECT b IDX 4 EQ 0 0 0 0", `t.amber:2: expected values inside b (16 bytes), got 4 values from byte 4`},
		{buf + "EXPECT b IDX 2 EQ 0", `t.amber:2: expected a byte offset that is a multiple of the element size 4 of b, got 2`},
		{buf + "EXPECT b IDX 0 0 EQ 0", `t.amber:2: expected an IMAGE for a probe IDX x y, got buffer b`},
		{buf + "EXPECT b IDX 0 TOLERANCE EQ 0", `t.amber:2: expected one to four tolerance values after TOLERANCE, got "EQ"`},
		{buf + "EXPECT b IDX 0 TOLERANCE 1 LT 0", `t.amber:2: expected EQ with TOLERANCE or ULP, got LT`},
		{buf + "EXPECT b EQ_BUFFER c", `t.amber:2: expected a buffer declared earlier after EQ_BUFFER, got "c"`},
		{buf + "EXPECT b RMSE_BUFFER b", `t.amber:2: expected TOLERANCE <rmse> after RMSE_BUFFER <buffer>, got end of line`},
		{buf + "BUFFER c DATA_TYPE float SIZE 5 FILL 0\nEXPECT b EQ_BUFFER c", `t.amber:3: expected buffers with as many values, got b with 4 and c with 5`},
		{buf + "EXPECT b EQ_MATMUL b b M 2 N 2 K 4", `t.amber:2: expected A (b) to hold 8 values for M=2 N=2 K=4, got 4`},
		{buf + "EXPECT b EQ_MATMUL b b M 2 N 2", `t.amber:2: expected M, N and K in EQ_MATMUL <A> <B> M <m> N <n> K <k>`},
		{buf + "EXPECT b EQ_MATMUL b b M 2 N 2 K 2 TRANSPOSE b", `t.amber:2: expected A, B or C (the operand, not a buffer name) after TRANSPOSE, got "b"`},
		{buf + "EXPECT b EQ_MATMUL b b M 2 N 2 K 2 STRIDE A 1", `t.amber:2: expected STRIDE A at least 2, got 1`},
		{buf + "EXPECT b EQ_MATMUL b b M 2 N 2 K 2 FAST", `t.amber:2: expected M, N, K, TRANSPOSE, STRIDE, BATCH, ADD, SATURATE, SAMPLE, TOLERANCE, ULP or end of line, got "FAST"`},
		{buf + "EXPECT b EQ_HISTOGRAM_EMD_BUFFER b TOLERANCE 1", `t.amber:2: expected IDX, EQ_BUFFER, RMSE_BUFFER or EQ_MATMUL, got "EQ_HISTOGRAM_EMD_BUFFER" (image histograms are not supported)`},
		{buf + "REPEAT 2\nEXPECT b IDX 0 EQ 0\n", `t.amber:2: expected END for REPEAT, got end of file`},
		{buf + "REPEAT 2\nBUFFER c DATA_TYPE float SIZE 1\nEND", `t.amber:3: expected RUN, COPY, EXPECT or END in REPEAT, got "BUFFER"`},
		{buf + "BUFFER c DATA_TYPE int32 SIZE 4\nCOPY b TO c", `t.amber:3: expected buffers of one type and size, got b (float, 4 values) and c (int32, 4 values)`},
		{"CLEAR_COLOR p 0 0 0 0", `t.amber:1: expected a compute command, got "CLEAR_COLOR" (graphics, ray tracing and debugging are not supported)`},
		{"BUFFER f FORMAT B8G8R8A8_UNORM", `t.amber:1: expected a format such as R32G32B32A32_SFLOAT (one component type; _UINT, _SINT or _SFLOAT), got "B8G8R8A8_UNORM"`},
		{"SET FOO 1", `t.amber:1: expected ENGINE_DATA after SET, got "FOO"`},
		{"END", `t.amber:1: expected a command, got END without a block`},
	}
	for _, tc := range tests {
		_, err := Parse("t.amber", []byte(tc.src))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q:\n got %v\nwant %s", tc.src, err, tc.want)
		}
		var se *Error
		if err != nil && !errors.As(err, &se) {
			t.Errorf("%q: error %T is not *Error", tc.src, err)
		}
	}
}

// TestParseAmberSyntax covers Amber forms accepted as written.
func TestParseAmberSyntax(t *testing.T) {
	s := mustParse(t, `#!amber
# A comment line.
DEVICE_FEATURE Storage16BitFeatures.storageBuffer16BitAccess
DEVICE_EXTENSION VK_KHR_cooperative_matrix
INSTANCE_EXTENSION VK_KHR_get_physical_device_properties2
SET ENGINE_DATA fence_timeout_ms 1000
VIRTUAL_FILE k.comp
#version 450
void main() {}
END
SHADER compute k GLSL TARGET_ENV spv1.5 VIRTUAL_FILE k.comp
SHADER compute inl GLSL DEFINE TILE=16 # our extension
#version 450
layout(local_size_x = TILE) in;
void main() {}
END  # shader
BUFFER a DATA_TYPE uint32 DATA 1 2 0x10
  4 # trailing comment
END
BUFFER u DATA_TYPE vec4<float> STD140 SIZE 2 FILL 0.5
BUFFER w DATA_TYPE int16 WIDTH 2 HEIGHT 3 SERIES_FROM -2 INC_BY 3
BUFFER f FORMAT R32G32_SFLOAT SIZE 1 FILL 1
PIPELINE compute p
  ATTACH k TYPE compute ENTRY_POINT main SPECIALIZE 3 AS uint32 7 SPECIALIZE 4 AS float 0.5
  SHADER_OPTIMIZATION k
    --eliminate-dead-code-aggressive
  END
  SUBGROUP k
    FULLY_POPULATED on
    REQUIRED_SIZE 16
  END
  BIND BUFFER a AS storage DESCRIPTOR_SET 1 BINDING 2 DESCRIPTOR_OFFSET 0 DESCRIPTOR_RANGE -1
  BIND BUFFER_ARRAY u w AS uniform DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER f AS push_constant
END  # pipeline
DERIVE_PIPELINE q FROM p
  SUBGROUP_SIZE 32
END
RUN TIMED_EXECUTION p 2 1 1
REPEAT 3
  RUN q 1 1 1
  EXPECT a IDX 4 EQ 2 16
END
COPY a TO a
EXPECT a IDX 0 TOLERANCE 1 2% EQ 1 2
`)
	if len(s.Features) != 1 || len(s.Extensions) != 2 {
		t.Errorf("features %v extensions %v", s.Features, s.Extensions)
	}
	k, inl := s.Shaders["k"], s.Shaders["inl"]
	if k.TargetEnv != "spv1.5" || !strings.Contains(string(k.Source), "void main") || k.FirstLine != 0 {
		t.Errorf("shader k: %+v", k)
	}
	if inl.FirstLine != 13 || len(inl.Defines) != 1 || inl.Defines[0] != "TILE=16" || strings.Contains(string(inl.Source), "END") {
		t.Errorf("shader inl: first line %d defines %v source %q", inl.FirstLine, inl.Defines, inl.Source)
	}
	if got := s.Buffer("a").Values(); len(got) != 4 || got[2].I != 16 {
		t.Errorf("a = %v", got)
	}
	if u := s.Buffer("u"); u.N != 8 || u.Size() != 32 || !u.Type.Std140 {
		t.Errorf("u: %d values, %d bytes", u.N, u.Size())
	}
	if w := s.Buffer("w"); w.N != 6 || int64(w.Values()[5].I) != 13 {
		t.Errorf("w = %v", w.Values())
	}
	if f := s.Buffer("f"); f.Size() != 8 || f.Type.Comps() != 2 {
		t.Errorf("f: %+v", f.Type)
	}
	p, q := s.Pipelines["p"], s.Pipelines["q"]
	if p.Subgroup != 16 || q.Subgroup != 32 || len(p.Spec) != 2 || len(q.Binds) != 4 || q.Shader != "k" {
		t.Errorf("p %+v\nq %+v", p, q)
	}
	if b := p.Binds[2]; b.Buffer != "w" || b.ArrayElement != 1 || b.As != "uniform" {
		t.Errorf("array bind %+v", b)
	}
	if got := binary.LittleEndian.Uint32(p.Spec[4]); got != math.Float32bits(0.5) {
		t.Errorf("spec 4 = %#x", got)
	}
	if len(s.Commands) != 1+3*2+2 {
		t.Fatalf("%d commands", len(s.Commands))
	}
	if r := s.Commands[0].(*RunCmd); !r.Timed || r.Groups != [3]uint32{2, 1, 1} {
		t.Errorf("run %+v", r)
	}
	e := s.Commands[2].(*Expect)
	if e.Offset != 4 || e.Start != 1 || len(e.Values) != 2 {
		t.Errorf("expect %+v", e)
	}
	last := s.Commands[len(s.Commands)-1].(*Expect)
	if len(last.Tol) != 2 || last.Tol[0].Abs != 1 || last.Tol[1].Rel != 0.02 {
		t.Errorf("tolerances %+v", last.Tol)
	}
}

func TestLayouts(t *testing.T) {
	tests := []struct {
		typ    string
		std140 bool
		vals   []float64
		want   string // hex bytes
	}{
		{"vec3<float>", false, []float64{1, 2, 3, 4}, "0000803f00000040000040400000000000008040000000000000000000000000"},
		{"vec2<int8>", false, []float64{1, -1, 2, 3}, "01ff0203"},
		{"vec3<int8>", false, []float64{1, 2, 3}, "01020300"},
		{"int32[]", true, []float64{1, 2}, "0100000000000000000000000000000002000000000000000000000000000000"},
		{"int32", true, []float64{1, 2}, "0100000002000000"},
		{"mat2x3<float>", false, []float64{1, 2, 3, 4, 5, 6}, "0000803f000000400000404000000000000080400000a0400000c04000000000"},
		{"mat2x2<float>", true, []float64{1, 2, 3, 4}, "0000803f00000040000000000000000000004040000080400000000000000000"},
		{"mat2x2<float16>", false, []float64{1, 2, 3, 4}, "003c004000420044"},
		{"R16G16B16_SINT", false, []float64{1, 2, 3, 4, 5, 6}, "010002000300040005000600"},
		{"int4", false, []float64{1, -2, 7}, "e107"},
		{"uint4", false, []float64{15, 0, 3}, "0f03"},
		{"vec2<int4>", false, []float64{1, -2, 7, 3}, "e137"},
		{"vec4<uint4>", false, []float64{1, 2, 3, 4, 5, 6, 7, 8}, "21436587"},
		{"float8_e4m3", false, []float64{1, 448, -2}, "387ec0"},
		{"float8_e5m2", false, []float64{1, 57344, 1e6}, "3c7b7c"},
		{"bfloat16", false, []float64{1, -2.5}, "803f20c0"},
	}
	for _, tc := range tests {
		dt, err := ParseDataType(tc.typ)
		if err != nil {
			t.Fatal(err)
		}
		dt.Std140 = tc.std140
		vals := make([]Value, len(tc.vals))
		for i, f := range tc.vals {
			vals[i] = dt.fromFloat(f)
		}
		b := dt.encode(vals)
		if got := hexString(b); got != tc.want {
			t.Errorf("%s std140=%v: %s, want %s", tc.typ, tc.std140, got, tc.want)
			continue
		}
		back := dt.decode(b, len(vals))
		for i := range vals {
			if back[i] != vals[i] && !(math.IsInf(vals[i].F, 0) && math.IsInf(back[i].F, 0)) {
				t.Errorf("%s: value %d %v decodes to %v", tc.typ, i, vals[i], back[i])
			}
		}
	}
}

func hexString(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, x := range b {
		out = append(out, digits[x>>4], digits[x&15])
	}
	return string(out)
}

func TestValues(t *testing.T) {
	i8, _ := ParseDataType("int8")
	u32, _ := ParseDataType("uint32")
	f16, _ := ParseDataType("float16")
	tests := []struct {
		t    DataType
		in   string
		want Value
	}{
		{i8, "-128", Value{I: uint64(math.MaxUint64 - 127)}},
		{i8, "0xff", Value{I: math.MaxUint64}},
		{u32, "-1", Value{I: 0xffffffff}},
		{u32, "0x10", Value{I: 16}},
		{f16, "0x10", Value{F: 16}},
		{f16, "0.1", Value{F: 0.0999755859375}},
		{f16, "1e10", Value{F: math.Inf(1)}},
		{f16, "-inf", Value{F: math.Inf(-1)}},
	}
	for _, tc := range tests {
		got, err := tc.t.parseValue(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("%s %q = %v, %v; want %v", tc.t.Name, tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"256", "-129", "1.5", "x"} {
		if _, err := i8.parseValue(bad); err == nil {
			t.Errorf("int8 %q accepted", bad)
		}
	}
}

func TestInitializers(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "v.bin"), []byte{1, 0, 2, 0, 3, 0}, 0o644)
	os.WriteFile(filepath.Join(dir, "v.txt"), []byte("1.5 -2\n3"), 0o644)
	src := `BUFFER r1 DATA_TYPE float16 SIZE 1000 RANDOM SEED 7 MIN -2 MAX 2 STEP 0.25
BUFFER r2 DATA_TYPE float16 SIZE 1000 RANDOM SEED 7 MIN -2 MAX 2 STEP 0.25
BUFFER r3 DATA_TYPE int8 SIZE 1000 RANDOM SEED 8 MIN -128 MAX 127
BUFFER s DATA_TYPE float SIZE 4 SERIES_FROM 0.5 INC_BY 0.25
BUFFER si DATA_TYPE int64 SIZE 3 SERIES_FROM 9007199254740993 INC_BY 2
BUFFER bin DATA_TYPE uint16 FILE BINARY v.bin
BUFFER bin2 DATA_TYPE uint16 SIZE 2 FILE BINARY v.bin
BUFFER txt DATA_TYPE float FILE TEXT v.txt
`
	s, err := Parse(filepath.Join(dir, "t.amber"), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r1, r2, r3 := s.Buffer("r1").Values(), s.Buffer("r2").Values(), s.Buffer("r3").Values()
	seen := map[float64]bool{}
	for i := range r1 {
		if r1[i] != r2[i] || r1[i].F < -2 || r1[i].F > 2 || r1[i].F*4 != math.Trunc(r1[i].F*4) {
			t.Fatalf("random value %d: %v %v", i, r1[i], r2[i])
		}
		seen[r1[i].F] = true
	}
	if len(seen) != 17 {
		t.Errorf("%d distinct random values, want all 17", len(seen))
	}
	lo, hi := int64(0), int64(0)
	for _, v := range r3 {
		lo, hi = min(lo, int64(v.I)), max(hi, int64(v.I))
	}
	if lo != -128 || hi != 127 {
		t.Errorf("int8 random range [%d, %d]", lo, hi)
	}
	if v := s.Buffer("s").Values(); v[3].F != 1.25 {
		t.Errorf("series %v", v)
	}
	if v := s.Buffer("si").Values(); v[2].I != 9007199254740997 {
		t.Errorf("int64 series %v (lost precision?)", v)
	}
	if v := s.Buffer("bin").Values(); len(v) != 3 || v[2].I != 3 {
		t.Errorf("binary %v", v)
	}
	if v := s.Buffer("bin2").Values(); len(v) != 2 {
		t.Errorf("binary with SIZE %v", v)
	}
	if v := s.Buffer("txt").Values(); len(v) != 3 || v[1].F != -2 {
		t.Errorf("text %v", v)
	}
}

// TestExpectIdx checks each comparator, passing and failing, and the
// failure message.
func TestExpectIdx(t *testing.T) {
	rep := runFake(t, `BUFFER f DATA_TYPE float DATA 1 2 3 4 nan END
BUFFER i DATA_TYPE int32 DATA -5 0 7 END
BUFFER u DATA_TYPE uint8 DATA 250 1 END
BUFFER v DATA_TYPE vec2<float> DATA 1 100 2 200 END
EXPECT f IDX 0 EQ 1 2 3 4 nan
EXPECT f IDX 4 EQ 2 3.5 4 5
EXPECT i IDX 0 EQ -5 0 7
EXPECT i IDX 0 NE 1 1 1
EXPECT i IDX 0 NE 1 0 1
EXPECT i IDX 0 LT -4 1 8
EXPECT i IDX 0 LE -5 0 7
EXPECT i IDX 0 GT -6 -1 6
EXPECT i IDX 0 GE -5 0 7
EXPECT u IDX 0 GT 249 0
EXPECT u IDX 0 LT 249 0
EXPECT f IDX 16 LT 1
EXPECT f IDX 0 TOLERANCE 0.5 EQ 1.4 2.4
EXPECT f IDX 0 TOLERANCE 0.5 EQ 1.6
EXPECT f IDX 8 TOLERANCE 10% EQ 3.3
EXPECT f IDX 8 TOLERANCE 1% EQ 3.3
EXPECT f IDX 0 ULP 1 EQ 1.0000001
EXPECT f IDX 0 ULP 1 EQ 1.0000003
EXPECT v IDX 8 TOLERANCE 0.1 5 EQ 2.05 204
EXPECT v IDX 8 TOLERANCE 0.1 5 EQ 2.05 206
EXPECT i IDX 0 TOLERANCE 1 EQ -4 1
`, RunOptions{})
	wantResults(t, rep, true, false, true, true, false, true, true, true, true, true, false, false,
		true, false, true, false, true, false, true, false, true)
	out := format(rep)
	for _, want := range []string{
		"FAIL t.amber:6 EXPECT f IDX 4 EQ 2 3.5 4 5\n    2 of 4 values differ:\n    [2] got 3, want 3.5\n    [4] got NaN, want 5\n",
		"FAIL t.amber:9 EXPECT i IDX 0 NE 1 0 1\n    1 of 3 values differ:\n    [1] got 0, want ne 0\n",
		"FAIL t.amber:15 EXPECT u IDX 0 LT 249 0\n    2 of 2 values differ:\n    [0] got 250, want lt 249\n",
		"[1][1] got 200, want 206",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if d := rep.Results[1].Diffs; len(d) != 2 || d[0].Index != 2 || d[0].Got != "3" || rep.Results[1].Count != 2 || rep.Results[1].Total != 4 {
		t.Errorf("diffs %+v", rep.Results[1])
	}
}

func TestExpectBuffers(t *testing.T) {
	rep := runFake(t, `BUFFER a DATA_TYPE float DATA 1 2 3 4 END
BUFFER b DATA_TYPE float DATA 1 2 3 4.5 END
BUFFER h DATA_TYPE float16 DATA 1 2 3 4 END
BUFFER n DATA_TYPE int32 SIZE 10 SERIES_FROM 0 INC_BY 1
BUFFER m DATA_TYPE int32 SIZE 10 SERIES_FROM 0 INC_BY 1
EXPECT a EQ_BUFFER h
EXPECT a EQ_BUFFER b
EXPECT a EQ_BUFFER b TOLERANCE 0.5
EXPECT a EQ_BUFFER b TOLERANCE 12%
EXPECT a EQ_BUFFER b TOLERANCE 1%
EXPECT a RMSE_BUFFER b TOLERANCE 0.25
EXPECT a RMSE_BUFFER b TOLERANCE 0.2
EXPECT n EQ_BUFFER m
`, RunOptions{MaxDiffs: 1})
	wantResults(t, rep, true, false, true, true, false, true, false, true)
	out := format(rep)
	if !strings.Contains(out, "FAIL t.amber:7 EXPECT a EQ_BUFFER b\n    1 of 4 values differ:\n    [3] got 4, want 4.5\n") ||
		!strings.Contains(out, "RMSE 0.25 exceeds 0.2") {
		t.Error(out)
	}
}

func TestExpectMatmul(t *testing.T) {
	// A is 2x3, B is 3x2: C = [[4 10] [10 28]] with A = [1 2 3; 4 5 6]...
	// computed below; wrong entries are planted to check the messages.
	const common = `BUFFER A DATA_TYPE float16 DATA 1 2 3 4 5 6 END
BUFFER B DATA_TYPE float16 DATA 1 0 0 1 1 1 END
BUFFER At DATA_TYPE float16 DATA 1 4 2 5 3 6 END
BUFFER Bp DATA_TYPE float16 DATA 1 0 9 0 1 9 1 1 9 END
BUFFER bias DATA_TYPE float DATA 0.5 0.5 0.5 0.5 END
BUFFER C DATA_TYPE float DATA 4 5 10 11 END
BUFFER Cbad DATA_TYPE float DATA 4 5 10 12 END
BUFFER Ct DATA_TYPE float DATA 4 10 5 11 END
BUFFER Cadd DATA_TYPE float DATA 4.5 5.5 10.5 11.5 END
BUFFER Cnear DATA_TYPE float DATA 4.001 5 10 11 END
BUFFER I8 DATA_TYPE int8 DATA 127 127 127 127 END
BUFFER S8 DATA_TYPE int8 DATA 127 127 END
BUFFER W8 DATA_TYPE int8 DATA 2 2 END
BUFFER I4 DATA_TYPE int4 DATA 7 -8 1 2 END
BUFFER O4 DATA_TYPE int32 DATA 113 END
BUFFER A2 DATA_TYPE float DATA 1 2 3 4 5 6 1 2 3 4 5 6 END
BUFFER B2 DATA_TYPE float DATA 1 0 0 1 1 1 2 0 0 2 2 2 END
BUFFER C2 DATA_TYPE float DATA 4 5 10 11 8 10 20 22 END
`
	rep := runFake(t, common+`EXPECT C EQ_MATMUL A B M 2 N 2 K 3
EXPECT Cbad EQ_MATMUL A B M 2 N 2 K 3
EXPECT C EQ_MATMUL At B M 2 N 2 K 3 TRANSPOSE A
EXPECT Ct EQ_MATMUL A B M 2 N 2 K 3 TRANSPOSE C
EXPECT C EQ_MATMUL A Bp M 2 N 2 K 3 STRIDE B 3
EXPECT Cadd EQ_MATMUL A B M 2 N 2 K 3 ADD bias
EXPECT Cnear EQ_MATMUL A B M 2 N 2 K 3
EXPECT Cnear EQ_MATMUL A B M 2 N 2 K 3 TOLERANCE 0.01
EXPECT Cnear EQ_MATMUL A B M 2 N 2 K 3 ULP 2100
EXPECT Cnear EQ_MATMUL A B M 2 N 2 K 3 ULP 2000
EXPECT S8 EQ_MATMUL I8 I8 M 1 N 1 K 2 SATURATE
EXPECT W8 EQ_MATMUL I8 I8 M 1 N 1 K 2
EXPECT O4 EQ_MATMUL I4 I4 M 1 N 1 K 2 TRANSPOSE B
EXPECT C2 EQ_MATMUL A2 B2 M 2 N 2 K 3 BATCH 2
EXPECT C2 EQ_MATMUL A2 B2 M 2 N 2 K 3 BATCH 2 SAMPLE 3
EXPECT Cbad EQ_MATMUL A B M 2 N 2 K 3 SAMPLE 1000
`, RunOptions{})
	wantResults(t, rep, true, false, true, true, true, true, false, true, true, false, true, true, true, true, true, false)
	out := format(rep)
	if !strings.Contains(out, "FAIL t.amber:20 EXPECT Cbad EQ_MATMUL A B M 2 N 2 K 3\n    1 of 4 values differ:\n    [3] (row 1, col 1) got 12, want 11\n") {
		t.Error(out)
	}
	if rep.Results[14].Total != 3 {
		t.Errorf("sampled %d cells", rep.Results[13].Total)
	}
}

// TestRunOnExecutor runs SPIR-V built in the test on the CPU executor:
// push constants, a specialization constant, two storage buffers.
func TestRunOnExecutor(t *testing.T) {
	src := "SHADER compute axpb SPIRV-HEX\n" + hexWords(axpbKernel(t)) + `END
BUFFER in DATA_TYPE float SIZE 8 SERIES_FROM 0 INC_BY 1
BUFFER out DATA_TYPE float SIZE 8 FILL 0
BUFFER pc DATA_TYPE float DATA 2.0 END
BUFFER ref DATA_TYPE float DATA 1 3 5 7 9 11 13 15 END
PIPELINE compute p
  ATTACH axpb
  BIND BUFFER in AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER out AS storage DESCRIPTOR_SET 0 BINDING 1
  BIND BUFFER pc AS push_constant
END
DERIVE_PIPELINE p2 FROM p
  ATTACH axpb SPECIALIZE 0 AS float 0.5
END
RUN p 2 1 1
EXPECT out IDX 0 EQ 1 3 5
EXPECT out EQ_BUFFER ref
EXPECT out IDX 28 EQ 16
RUN p2 2 1 1
EXPECT out IDX 0 EQ 0.5 2.5
`
	var dump bytes.Buffer
	rep, err := Run(context.Background(), mustParse(t, src), cpu.New(cpu.Options{}), RunOptions{Timed: true, Dump: []string{"out"}, DumpTo: &dump})
	if err != nil {
		t.Fatal(err)
	}
	wantResults(t, rep, true, true, false, true)
	out := format(rep)
	if !strings.Contains(out, "FAIL t.amber:") || !strings.Contains(out, "EXPECT out IDX 28 EQ 16\n    1 of 1 values differ:\n    [7] got 15, want 16\n") {
		t.Error(out)
	}
	if len(rep.Timings) != 2 || rep.Timings[0].Pipeline != "p" || rep.Timings[0].Device != "cpu (reference executor)" {
		t.Errorf("timings %+v", rep.Timings)
	}
	if dump.String() != "BUFFER out (float, 8 values)\n0.5 2.5 4.5 6.5 8.5 10.5 12.5 14.5\n" {
		t.Errorf("dump %q", dump.String())
	}
}

// TestAmberExample runs the compute example of Amber's documentation
// unchanged (a fake GLSL compiler supplies the module).
func TestAmberExample(t *testing.T) {
	src := `#!amber
# Simple amber compute shader.

SHADER compute kComputeShader GLSL
#version 450

layout(binding = 3) buffer block {
  uvec2 values[];
};

void main() {
  values[gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x] =
                gl_WorkGroupID.xy;
}
END  # shader

BUFFER kComputeBuffer DATA_TYPE vec2<int32> SIZE 524288 FILL 0

PIPELINE compute kComputePipeline
  ATTACH kComputeShader
  BIND BUFFER kComputeBuffer AS storage DESCRIPTOR_SET 0 BINDING 3
END  # pipeline

RUN kComputePipeline 256 256 1

# Four corners
EXPECT kComputeBuffer IDX 0 EQ 0 0
EXPECT kComputeBuffer IDX 2040 EQ 255 0
EXPECT kComputeBuffer IDX 522240 EQ 0 255
EXPECT kComputeBuffer IDX 524280 EQ 255 255

# Center
EXPECT kComputeBuffer IDX 263168 EQ 128 128
`
	words := workgroupKernel(t)
	var got CompileOptions
	opts := RunOptions{Compilers: Compilers{GLSL: func(name string, src []byte, o CompileOptions) ([]uint32, error) {
		if !strings.HasPrefix(string(src), "#version 450\n") {
			t.Errorf("source %q", src)
		}
		got = o
		return words, nil
	}}}
	rep, err := Run(context.Background(), mustParse(t, src), cpu.New(cpu.Options{}), opts)
	if err != nil {
		t.Fatal(err)
	}
	wantResults(t, rep, true, true, true, true, true)
	if got.TargetEnv != "vulkan1.3" || got.FirstLine != 5 || got.Entry != "main" {
		t.Errorf("compile options %+v", got)
	}
}

func TestCompileOptions(t *testing.T) {
	src := `SHADER compute s GLSL TARGET_ENV vulkan1.4 DEFINE N=4 DEFINE FAST
void main() {}
END
SHADER compute a SPIRV-ASM
OpCapability Shader
END
PIPELINE compute p
  ATTACH s ENTRY_POINT go
END
PIPELINE compute q
  ATTACH a
END
`
	s := mustParse(t, src)
	var got CompileOptions
	calls := 0
	c := Compilers{GLSL: func(name string, src []byte, o CompileOptions) ([]uint32, error) {
		got, calls = o, calls+1
		if name != "t.amber" {
			t.Errorf("name %q", name)
		}
		return []uint32{1}, nil
	}}
	_, err := Compile(s, RunOptions{Compilers: c})
	if err == nil || err.Error() != "t.amber:4: shader a: no SPIR-V assembler available" {
		t.Fatalf("got %v", err)
	}
	c.SPIRVAsm = func(name string, src []byte) ([]uint32, error) {
		return nil, errors.New("t.amber:5: error: bad")
	}
	if _, err := Compile(s, RunOptions{Compilers: c}); err == nil || !strings.Contains(err.Error(), "t.amber:4: shader a: t.amber:5: error: bad") {
		t.Fatalf("got %v", err)
	}
	c.SPIRVAsm = func(name string, src []byte) ([]uint32, error) { return []uint32{2}, nil }
	code, err := Compile(s, RunOptions{Compilers: c})
	if err != nil || code["p"][0] != 1 || code["q"][0] != 2 {
		t.Fatalf("%v %v", code, err)
	}
	if calls != 3 || got.TargetEnv != "vulkan1.4" || strings.Join(got.Defines, ",") != "N=4,FAST" || got.Entry != "go" || got.FirstLine != 2 || got.IncludeDirs[0] != "." {
		t.Errorf("%d calls, options %+v", calls, got)
	}
	if _, err := Run(context.Background(), s, &fakeDevice{}, RunOptions{}); err == nil || err.Error() != "t.amber:1: expected RUN, COPY or EXPECT commands, got none: the script tests nothing" {
		t.Errorf("got %v", err)
	}
	s.Commands = []Command{&RunCmd{Pipeline: "p", Groups: [3]uint32{1, 1, 1}, Line: 9}}
	if _, err := Run(context.Background(), s, &fakeDevice{}, RunOptions{}); err == nil || err.Error() != "t.amber:1: shader s: no GLSL compiler available" {
		t.Errorf("got %v", err)
	}
	for _, src := range []string{"", "# nothing\n", "BUFFER b DATA_TYPE float SIZE 4\n"} {
		if _, err := Run(context.Background(), mustParse(t, src), &fakeDevice{}, RunOptions{}); err == nil || !strings.Contains(err.Error(), "the script tests nothing") {
			t.Errorf("script %q: %v", src, err)
		}
	}
}

func TestBufferAddressOnExecutor(t *testing.T) {
	src := "SHADER compute refs SPIRV-HEX\n" + hexWords(addressKernel(t)) + `END
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
	s := mustParse(t, src)
	if !s.Buffer("a").Address || s.Buffer("pc").Address {
		t.Error("address usage")
	}
	rep, err := Run(context.Background(), s, cpu.New(cpu.Options{}), RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantResults(t, rep, true)

	// Compare skips the address slots, which differ between devices.
	run := func(d *fakeDevice) func(x *backend.Dispatch) error {
		return func(x *backend.Dispatch) error {
			src, dst := d.byAddress(binary.LittleEndian.Uint64(x.PushConstants)), d.byAddress(binary.LittleEndian.Uint64(x.PushConstants[8:]))
			for i := 0; i < 8; i++ {
				v := math.Float32frombits(binary.LittleEndian.Uint32(src.data[4*i:]))
				binary.LittleEndian.PutUint32(dst.data[4*i:], math.Float32bits(2*v))
			}
			return nil
		}
	}
	da, db := &fakeDevice{name: "A"}, &fakeDevice{name: "B", base: 1 << 48}
	da.run, db.run = run(da), run(db)
	rep, err = Compare(context.Background(), s, da, db, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantResults(t, rep, true, true, true, true, true)
}

func TestCompare(t *testing.T) {
	src := "SHADER compute axpb SPIRV-HEX\n" + hexWords(axpbKernel(t)) + `END
BUFFER in DATA_TYPE float SIZE 4 SERIES_FROM 1 INC_BY 1
BUFFER out DATA_TYPE float SIZE 4 FILL 0
BUFFER pc DATA_TYPE float DATA 3 END
PIPELINE compute p
  ATTACH axpb
  BIND BUFFER in AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER out AS storage DESCRIPTOR_SET 0 BINDING 1
  BIND BUFFER pc AS push_constant
END
RUN p 1 1 1
EXPECT out IDX 0 EQ 4 7 10 13
`
	s := mustParse(t, src)
	rep, err := Compare(context.Background(), s, cpu.New(cpu.Options{}), cpu.New(cpu.Options{SubgroupSize: 8}), RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantResults(t, rep, true, true, true, true, true)

	// Two fake devices that disagree: out differs, within the EXPECT's
	// tolerance in the second script.
	write := func(v float32) func(x *backend.Dispatch) error {
		return func(x *backend.Dispatch) error {
			for i := range 4 {
				binary.LittleEndian.PutUint32(b4[:], math.Float32bits(v+float32(i)))
				x.Bindings[1].Buffer.Write(4*i, b4[:])
			}
			return nil
		}
	}
	a, b := &fakeDevice{name: "A", run: write(4)}, &fakeDevice{name: "B", run: write(4.25)}
	rep, err = Compare(context.Background(), s, a, b, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantResults(t, rep, false, false, true, false, true)
	out := format(rep)
	if !strings.Contains(out, "FAIL t.amber:") || !strings.Contains(out, "BUFFER out same on both devices\n    4 of 4 values differ between the devices:\n    [0] got 4 on A, want 4.25 on B\n") {
		t.Error(out)
	}
	tolerant := mustParse(t, strings.Replace(src, "EXPECT out IDX 0 EQ 4 7 10 13", "EXPECT out IDX 0 TOLERANCE 0.5 EQ 4 5 6 7", 1))
	rep, err = Compare(context.Background(), tolerant, a, b, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantResults(t, rep, true, true, true, true, true)
	rmse := mustParse(t, strings.Replace(src, "EXPECT out IDX 0 EQ 4 7 10 13", "BUFFER want DATA_TYPE float DATA 4 5 6 7 END\nEXPECT out RMSE_BUFFER want TOLERANCE 0.2", 1))
	rep, err = Compare(context.Background(), rmse, a, b, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantResults(t, rep, true, false, true, false, true, true)
	if !strings.Contains(format(rep), "RMSE between A and B is 0.25, above 0.2") {
		t.Error(format(rep))
	}
}

var b4 [4]byte

func TestRepeatCopyAndTiming(t *testing.T) {
	src := `SHADER compute s SPIRV-HEX
03 02 23 07
END
BUFFER A DATA_TYPE float16 SIZE 4 FILL 1
BUFFER B DATA_TYPE float16 SIZE 4 FILL 1
BUFFER C DATA_TYPE float SIZE 4 FILL 0
BUFFER D DATA_TYPE float SIZE 4 FILL 0
PIPELINE compute mm
  ATTACH s
  BIND BUFFER A AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER B AS storage DESCRIPTOR_SET 0 BINDING 1
  BIND BUFFER C AS storage DESCRIPTOR_SET 0 BINDING 2
END
REPEAT 2
  RUN mm 1 1 1
  EXPECT C EQ_MATMUL A B M 2 N 2 K 2
END
COPY C TO D
EXPECT D IDX 0 EQ 4 4 4 4
`
	runs := 0
	dev := &fakeDevice{name: "fake", elapsed: time.Microsecond, run: func(x *backend.Dispatch) error {
		runs++
		for i := range 4 {
			binary.LittleEndian.PutUint32(b4[:], math.Float32bits(float32(2*runs)))
			x.Bindings[2].Buffer.Write(4*i, b4[:])
		}
		return nil
	}}
	rep, err := Run(context.Background(), mustParse(t, src), dev, RunOptions{Timed: true})
	if err != nil {
		t.Fatal(err)
	}
	wantResults(t, rep, true, false, true)
	if len(rep.Timings) != 2 || rep.Timings[0].Flops != 16 || rep.Timings[1].TFLOPS() != 16e6/1e12 {
		t.Errorf("timings %+v", rep.Timings)
	}
	if !strings.Contains(format(rep), "TIME t.amber:15 RUN mm 1x1x1 on fake: 0.001 ms, 0.016 GFLOPS") {
		t.Error(format(rep))
	}
}

func TestRunErrors(t *testing.T) {
	src := `SHADER compute s SPIRV-HEX
03 02 23 07
END
BUFFER b DATA_TYPE float SIZE 4 FILL 0
PIPELINE compute p
  ATTACH s
  BIND BUFFER b AS storage DESCRIPTOR_SET 0 BINDING 0
END
EXPECT b IDX 0 EQ 0
RUN p 1 1 1
EXPECT b IDX 0 EQ 0
`
	s := mustParse(t, src)
	dev := &fakeDevice{name: "fake", run: func(*backend.Dispatch) error { return errors.New("device lost") }}
	rep, err := Run(context.Background(), s, dev, RunOptions{})
	if err == nil || err.Error() != "t.amber:10: on fake: RUN p: device lost" || len(rep.Results) != 1 {
		t.Fatalf("got %v, %v", err, rep)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, s, &fakeDevice{}, RunOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run: %v", err)
	}
	if _, err := Run(context.Background(), s, &fakeDevice{}, RunOptions{Dump: []string{"x"}, DumpTo: &bytes.Buffer{}}); err == nil || !strings.Contains(err.Error(), `cannot dump "x"`) {
		t.Errorf("dump of unknown buffer: %v", err)
	}
	// A bad module reaches the executor, which refuses it with an error.
	if _, err := Run(context.Background(), s, cpu.New(cpu.Options{}), RunOptions{}); err == nil || !strings.HasPrefix(err.Error(), "t.amber:10: on cpu (reference executor): RUN p:") {
		t.Errorf("bad module: %v", err)
	}
}

// TestTestdataParses keeps the scripts in testdata and examples valid;
// running them needs the GLSL compiler, which the CLI's tests wire in.
func TestTestdataParses(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.amber")
	examples, _ := filepath.Glob("../examples/*.amber")
	if len(files) == 0 || len(examples) == 0 {
		t.Fatal("no scripts found")
	}
	for _, f := range append(files, examples...) {
		if _, err := ParseFile(f); err != nil {
			t.Error(err)
		}
	}
}

var longNumber = regexp.MustCompile(`[0-9a-fA-FxX]{6,}`)

// FuzzParse: no input makes Parse, or running what it accepts on a fake
// device, panic or hang.
func FuzzParse(f *testing.F) {
	f.Add("BUFFER b DATA_TYPE vec3<float> STD140 SIZE 4 SERIES_FROM 1 INC_BY 1\nEXPECT b IDX 16 TOLERANCE 1 2% EQ 1 2 3\n")
	f.Add("BUFFER A DATA_TYPE int4 DATA 1 2 3 4 END\nBUFFER C DATA_TYPE int8 SIZE 4\nEXPECT C EQ_MATMUL A A M 2 N 2 K 1 TRANSPOSE B STRIDE A 1 SATURATE SAMPLE 3\n")
	f.Add("SHADER compute s SPIRV-HEX\n03 02 23 07\nEND\nBUFFER p DATA_TYPE uint64 SIZE 2\nPIPELINE compute q\nATTACH s SPECIALIZE 1 AS bool true\nBIND BUFFER_ADDRESS p INTO p OFFSET 8\nBIND BUFFER p AS push_constant\nEND\nREPEAT 3\nRUN q 1 1 1\nCOPY p TO p\nEND\nEXPECT p RMSE_BUFFER p TOLERANCE 0\n")
	f.Fuzz(func(t *testing.T, src string) {
		defer fuzzwatch.Start()()
		if longNumber.MatchString(src) {
			t.Skip("large sizes only cost memory")
		}
		s, err := Parse("f.amber", []byte(src))
		if err != nil {
			return
		}
		Run(context.Background(), s, &fakeDevice{name: "fake"}, RunOptions{})
	})
}

// TestGeneratedChunks checks contents computed a chunk at a time across
// chunk boundaries: values in order, padding zero, RANDOM's sequence
// unbroken.
func TestGeneratedChunks(t *testing.T) {
	src := `BUFFER s DATA_TYPE vec3<float> SIZE 200000 SERIES_FROM 0 INC_BY 1
BUFFER q DATA_TYPE int4 SIZE 5000001 SERIES_FROM 0 INC_BY 1
BUFFER r DATA_TYPE uint32 SIZE 600000 RANDOM SEED 7 MIN 0 MAX 1000000
BUFFER r2 DATA_TYPE uint32 SIZE 10 RANDOM SEED 7 MIN 0 MAX 1000000
`
	s, err := Parse("t.amber", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	sb := s.Buffer("s")
	data := sb.Bytes()
	if len(data) != 200000*16 || sb.Size() != len(data) {
		t.Fatalf("%d bytes", len(data))
	}
	for i := range 600000 {
		e, c := i/3, i%3
		if got := math.Float32frombits(binary.LittleEndian.Uint32(data[16*e+4*c:])); got != float32(i) {
			t.Fatalf("s component %d = %v", i, got)
		}
		if c == 2 && binary.LittleEndian.Uint32(data[16*e+12:]) != 0 {
			t.Fatalf("padding of element %d not zero", e)
		}
	}
	for i, v := range s.Buffer("q").Values() {
		if want := int64(i<<60) >> 60; int64(v.I) != want {
			t.Fatalf("q[%d] = %d, want %d", i, int64(v.I), want)
		}
	}
	r, r2 := s.Buffer("r").Values(), s.Buffer("r2").Values()
	if !slices.Equal(r[:10], r2) || r[599999] == r[0] && r[1] == r[0] {
		t.Fatalf("random: %v vs %v", r[:10], r2)
	}
}

// TestRunProgressAndCancel: RunOptions.Progress hears each workgroup of a
// RUN, and a context cancelled during a RUN stops the run with an error
// naming the RUN's line and wrapping the context's.
func TestRunProgressAndCancel(t *testing.T) {
	src := "SHADER compute axpb SPIRV-HEX\n" + hexWords(axpbKernel(t)) + `END
BUFFER in DATA_TYPE float SIZE 4096 SERIES_FROM 0 INC_BY 1
BUFFER out DATA_TYPE float SIZE 4096 FILL 0
BUFFER pc DATA_TYPE float DATA 2.0 END
PIPELINE compute p
  ATTACH axpb
  BIND BUFFER in AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER out AS storage DESCRIPTOR_SET 0 BINDING 1
  BIND BUFFER pc AS push_constant
END
RUN p 1024 1 1
EXPECT out IDX 4 EQ 3
`
	s := mustParse(t, src)
	var calls atomic.Int64
	rep, err := Run(context.Background(), s, cpu.New(cpu.Options{}), RunOptions{Progress: func(r *RunCmd, done, total uint64) {
		if r.Pipeline != "p" || total != 1024 {
			t.Errorf("progress of RUN %s: %d of %d", r.Pipeline, done, total)
		}
		if done > 0 {
			calls.Add(1)
		}
	}})
	if err != nil || rep.Failed() != 0 || calls.Load() != 1024 {
		t.Fatalf("%v, %d progress calls", err, calls.Load())
	}
	ctx, cancel := context.WithCancel(context.Background())
	_, err = Run(ctx, s, cpu.New(cpu.Options{}), RunOptions{Progress: func(r *RunCmd, done, total uint64) {
		if done == 8 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "RUN p: dispatch stopped after") {
		t.Fatalf("cancelled run: %v", err)
	}
}

// TestConvertMatrixOpaque: CONVERT_MATRIX runs on a device, and a buffer
// holding an optimal-layout matrix is compared between devices after each
// converts it back to row-major, whatever its own optimal layout is.
func TestConvertMatrixOpaque(t *testing.T) {
	src := `BUFFER W DATA_TYPE float16 DATA
1 2 3 4 5 6
END
BUFFER O DATA_TYPE float16 SIZE 16 FILL 0
BUFFER C DATA_TYPE float16 SIZE 6 FILL 0
CONVERT_MATRIX W TO O ROWS 2 COLS 3 SRC_LAYOUT row_major DST_LAYOUT inferencing_optimal
CONVERT_MATRIX W TO C ROWS 2 COLS 3 SRC_LAYOUT row_major DST_LAYOUT column_major
EXPECT C IDX 0 EQ 1 4 2 5 3 6
`
	s, err := Parse("m.amber", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []backend.Device{cpu.New(cpu.Options{}), &transposingDevice{Device: cpu.New(cpu.Options{})}} {
		rep, err := Compare(context.Background(), s, cpu.New(cpu.Options{}), b, RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		rep.Format(&out)
		if rep.Failed() != 0 || !strings.Contains(out.String(), "PASS m.amber:4 BUFFER O (a 2 x 3 float16 matrix in each device's inferencing_optimal layout) same on both devices after converting it to row_major") {
			t.Fatalf("%s", out.String())
		}
	}
	// A device whose optimal layout loses a value is caught.
	rep, err := Compare(context.Background(), s, cpu.New(cpu.Options{}), &transposingDevice{Device: cpu.New(cpu.Options{}), spoil: true}, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	rep.Format(&out)
	if rep.Failed() != 1 || !strings.Contains(out.String(), "(1, 2) got 6 on cpu (reference executor), want 0") {
		t.Fatalf("%s", out.String())
	}
	if _, err := Parse("m.amber", []byte("BUFFER W DATA_TYPE float16 SIZE 4 FILL 0\nCONVERT_MATRIX W TO W ROWS 2\n")); err == nil {
		t.Error("CONVERT_MATRIX without layouts accepted")
	}
}

// transposingDevice is an executor whose optimal layouts are column-major
// (so its bytes differ from the executor's); spoil zeroes the last
// element on the way back to a plain layout.
type transposingDevice struct {
	*cpu.Device
	spoil bool
}

func (d *transposingDevice) ConvertMatrix(c *backend.MatrixConversion) (int, error) {
	cc := *c
	if cc.SrcLayout.Optimal() {
		cc.SrcLayout, cc.SrcStride = backend.ColumnMajor, 0
	}
	if cc.DstLayout.Optimal() {
		cc.DstLayout, cc.DstStride = backend.ColumnMajor, 0
	}
	n, err := d.Device.ConvertMatrix(&cc)
	if err == nil && d.spoil && c.Dst != nil && c.SrcLayout.Optimal() {
		clear(c.Dst[n-2 : n])
	}
	return n, err
}

// TestHostBuffer: BUFFER ... HOST asks the device for host memory.
func TestHostBuffer(t *testing.T) {
	s := mustParse(t, "BUFFER a DATA_TYPE float STD430 HOST SIZE 4 FILL 1\nBUFFER b DATA_TYPE float SIZE 4 FILL 1\nBUFFER c FORMAT R32_SFLOAT HOST DATA\n1 2\nEND\n")
	if !s.Buffer("a").Host || s.Buffer("b").Host || !s.Buffer("c").Host {
		t.Errorf("Host: a %v, b %v, c %v", s.Buffer("a").Host, s.Buffer("b").Host, s.Buffer("c").Host)
	}
	if _, err := Parse("t.amber", []byte("BUFFER a DATA_TYPE float HOST HOST SIZE 4\n")); err == nil {
		t.Error("HOST twice accepted")
	}
}
