package script

import (
	"bytes"
	"context"
	"strings"
	"testing"

	cpu "github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/spirv/text"
)

// asmCompiler assembles SPIRV-ASM shaders with coop's assembler.
var asmCompiler = Compilers{SPIRVAsm: func(name string, src []byte) ([]uint32, error) {
	m, err := text.Assemble(src, name)
	if err != nil {
		return nil, err
	}
	return m.Words()
}}

// TestImageScript runs testdata/image_sample.amber (storage images, UNORM
// conversion, a combined image sampler and a separate texture and
// sampler with linear filtering) on the executor: every EXPECT, whose
// numbers were worked out by hand, must pass.
func TestImageScript(t *testing.T) {
	s, err := ParseFile("testdata/image_sample.amber")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), s, cpu.New(cpu.Options{}), RunOptions{Compilers: asmCompiler})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	rep.Format(&out)
	if rep.Failed() != 0 || len(rep.Results) != 8 {
		t.Fatalf("%d results:\n%s", len(rep.Results), out.String())
	}
}

// TestImageScriptValues checks how IMAGE values are laid out and read
// back: a 3x2 image of vec2<int16> with two mip levels (the second 1x1),
// FILL and SERIES_FROM initializers, a FORMAT with SNORM components,
// and COPY between images.
func TestImageScriptValues(t *testing.T) {
	src := `IMAGE a DATA_TYPE vec2<int16> MIP_LEVELS 2 DIM_2D WIDTH 3 HEIGHT 2 SERIES_FROM -3 INC_BY 1
IMAGE b DATA_TYPE vec2<int16> MIP_LEVELS 2 DIM_2D WIDTH 3 HEIGHT 2 FILL 9
IMAGE c FORMAT R16_UNORM LAYERS 2 DIM_1D WIDTH 4
BUFFER tb FORMAT R8G8B8A8_SNORM DATA -128 -1 0 127 END
COPY a TO b
EXPECT b IDX 0 EQ -3 -2 -1 0 1 2 3 4 5 6 7 8
EXPECT b IDX 24 EQ 9 10
EXPECT tb IDX 0 EQ -128 -1 0 127
EXPECT c IDX 14 EQ 0
`
	s, err := Parse("t.amber", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if b := s.Buffer("a"); b.Image == nil || b.N != 2*(6+1) || b.Size() != 28 {
		t.Fatalf("image a: %+v, %d values, %d bytes", b.Image, b.N, b.Size())
	}
	if c := s.Buffer("c"); c.Image.Layers != 2 || c.N != 8 {
		t.Fatalf("image c: %+v, %d values", c.Image, c.N)
	}
	rep, err := Run(context.Background(), s, cpu.New(cpu.Options{}), RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	rep.Format(&out)
	if rep.Failed() != 0 || strings.Count(out.String(), "PASS") != 4 {
		t.Fatalf("%s", out.String())
	}
}

// TestImageProbe checks EQ_RGB/EQ_RGBA probes: normalized UNORM values,
// the default and given tolerances, alpha only with EQ_RGBA, and the
// report of a failing texel.
func TestImageProbe(t *testing.T) {
	src := `IMAGE i FORMAT R8G8B8A8_UNORM DIM_2D WIDTH 2 HEIGHT 2 DATA
255 0 128 7   255 0 128 7   255 0 128 7   255 1 128 7
END
EXPECT i IDX 0 0 SIZE 2 2 EQ_RGB 255 0 128
EXPECT i IDX 0 0 SIZE 2 1 EQ_RGBA 255 0 128 7
EXPECT i IDX 0 0 SIZE 2 2 EQ_RGBA 255 0 128 7
EXPECT i IDX 1 1 TOLERANCE 0.004 EQ_RGB 255 0 128
`
	s, err := Parse("t.amber", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), s, cpu.New(cpu.Options{}), RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pass := []bool{false, true, false, true}
	for i, r := range rep.Results {
		if r.Pass != pass[i] {
			t.Errorf("EXPECT %d: pass %v, want %v: %s", i, r.Pass, pass[i], r.Msg)
		}
	}
	if msg := rep.Results[0].Msg; !strings.Contains(msg, "1 of 12 values differ") || !strings.Contains(msg, "(1, 1) G got 1, want 0") {
		t.Errorf("failure report: %q", msg)
	}
}
