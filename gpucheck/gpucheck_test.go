package gpucheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/glsl/compile"
	"github.com/coopshader/coop/spirv"
)

// TestCorpusOnExecutors runs the corpus check with the executor on both
// sides: every runnable module must give the same bytes twice.
func TestCorpusOnExecutors(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "corpus", "glslang")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("corpus absent")
	}
	a, b := exec.New(exec.Options{StepBudget: 1 << 20}), exec.New(exec.Options{StepBudget: 1 << 20})
	same, total := 0, 0
	_, err := Corpus(dir, 0, a, b, nil, func(r Result) {
		total++
		switch r.Outcome {
		case Differ:
			t.Errorf("%s: %s", r.Name, r.Why)
		case Same:
			same++
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if same == 0 {
		t.Fatal("no corpus module ran")
	}
	t.Logf("%d of %d modules ran and agreed", same, total)
}

// skewed is an executor whose buffers read back with their first byte
// changed, standing in for a device that disagrees.
type skewed struct{ *exec.Device }

type skewedBuf struct{ backend.Buffer }

func (d skewed) NewBuffer(size int, u backend.BufferUsage) (backend.Buffer, error) {
	b, err := d.Device.NewBuffer(size, u)
	return skewedBuf{b}, err
}

func (b skewedBuf) Read(off int, p []byte) error {
	err := b.Buffer.Read(off, p)
	if off == 0 && len(p) > 0 {
		p[0] ^= 1
	}
	return err
}

func (d skewed) Dispatch(ds *backend.Dispatch) (backend.Result, error) {
	c := *ds
	c.Bindings = append([]backend.Binding(nil), ds.Bindings...)
	for i := range c.Bindings {
		if sb, ok := c.Bindings[i].Buffer.(skewedBuf); ok {
			c.Bindings[i].Buffer = sb.Buffer
		}
	}
	return d.Device.Dispatch(&c)
}

func compileOrFail(t *testing.T, src string) *spirv.Module {
	t.Helper()
	m, d := compile.Compile("t.comp", []byte(src), compile.Options{TargetEnv: "vulkan1.3"})
	if m == nil {
		t.Fatal(d)
	}
	return m
}

// TestClassify: a difference in a module with a data race is Undefined,
// one in a well-defined module is Differ; uniform blocks get uniform
// descriptors and two blocks on one binding share its buffer.
func TestClassify(t *testing.T) {
	check := exec.New(exec.Options{Check: true})
	racy := compileOrFail(t, "#version 450\nlayout(local_size_x = 4) in;\nlayout(binding = 0) buffer B { uint v[]; };\nvoid main() { v[0] = gl_LocalInvocationID.x; }\n")
	if r := Module("racy", racy, exec.New(exec.Options{}), skewed{exec.New(exec.Options{})}, check); r.Outcome != Undefined || !strings.Contains(r.Why, "data race") {
		t.Errorf("racy: %v %s", r.Outcome, r.Why)
	}
	clean := compileOrFail(t, `#version 450
layout(local_size_x = 4) in;
layout(binding = 0) uniform U { uint u[4]; };
layout(binding = 1) buffer B { uint v[]; };
layout(binding = 1) buffer C { uint w[]; };
void main() { v[gl_LocalInvocationID.x] = u[0] + 1u; }
`)
	if r := Module("clean", clean, exec.New(exec.Options{}), skewed{exec.New(exec.Options{})}, check); r.Outcome != Differ {
		t.Errorf("clean: %v %s", r.Outcome, r.Why)
	}
	pr, err := exec.Load(clean, "", nil, 32)
	if err != nil {
		t.Fatal(err)
	}
	ss, err := slots(clean, pr.Descriptors())
	if err != nil || len(ss) != 2 || ss[0].kind != backend.UniformBuffer || ss[1].kind != backend.StorageBuffer {
		t.Errorf("slots: %+v %v", ss, err)
	}
}
