package script

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
	cpu "github.com/coopshader/coop/exec"
)

// refusingDevice can never run a module, as the Vulkan backend cannot
// run 4-bit integers.
type refusingDevice struct{ fakeDevice }

func (d *refusingDevice) CheckModule([]uint32) error {
	return fmt.Errorf("capability Int4TypeINTEL: %w", backend.ErrNoDeviceSupport)
}

func (d *refusingDevice) Dispatch(*backend.Dispatch) (backend.Result, error) {
	panic("a refused module was dispatched")
}

// TestCompareOneDeviceOnly: Compare runs a script one device can never
// run on the other alone, with a note saying so.
func TestCompareOneDeviceOnly(t *testing.T) {
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
	gpu := &refusingDevice{fakeDevice{name: "gpu"}}
	for _, order := range [][2]backend.Device{{cpu.New(cpu.Options{}), gpu}, {gpu, cpu.New(cpu.Options{})}} {
		rep, err := Compare(context.Background(), s, order[0], order[1], RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		wantResults(t, rep, true)
		out := format(rep)
		if !strings.HasPrefix(out, "NOTE t.amber: runs on cpu") || !strings.Contains(out, "not on gpu: pipeline p: capability Int4TypeINTEL") {
			t.Error(out)
		}
	}
}

// TestInt4VectorScript runs testdata/int4_vectors.amber: script buffers of
// vec4<int4> and uint4 back a shader's vectors of 4-bit integers.
func TestInt4VectorScript(t *testing.T) {
	s, err := ParseFile("testdata/int4_vectors.amber")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), s, cpu.New(cpu.Options{}), RunOptions{Compilers: asmCompiler})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Failed() != 0 || len(rep.Results) != 2 {
		t.Fatalf("%d results:\n%s", len(rep.Results), format(rep))
	}
}
