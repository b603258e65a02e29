package exec

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/coopshader/coop/internal/fuzzwatch"
	"github.com/coopshader/coop/spirv"
)

// FuzzLoadRun: no module, however malformed, panics Load or a dispatch.
func FuzzLoadRun(f *testing.F) {
	t := &testing.T{}
	for _, code := range [][]uint32{
		binaryKernel(t, spirv.OpIAdd, func(k *kernel) uint32 { return k.u32 }, func(k *kernel) uint32 { return k.u32 }),
		matmulKernel(t, 32, 32, 32, 16, false),
		asm(t, storeKernel, "FMT", "R32ui"),
		asm(t, sampleKernel, "N", "4", "MODE", "OpExecutionMode %main DerivativeGroupLinearKHR", "IMG", img2D,
			"OP", "%r = OpImageSampleImplicitLod %v4f %si %st Bias|ConstOffset %lod %off"),
		asm(t, sampleKernel, "N", "4", "MODE", "", "IMG", "OpTypeImage %float Cube 0 1 0 1 Unknown",
			"OP", "%d = OpImageSampleDrefExplicitLod %float %si %iv %dref Lod %lod\n%r = OpCompositeConstruct %v4f %d %d %d %d"),
	} {
		b := make([]byte, 4*len(code))
		for i, w := range code {
			binary.LittleEndian.PutUint32(b[4*i:], w)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		defer fuzzwatch.Start()()
		m, err := spirv.Decode(b)
		if err != nil {
			return
		}
		pr, err := Load(m, "", nil, 32)
		if err != nil {
			if strings.Contains(err.Error(), "internal error") {
				t.Fatal(err)
			}
			return
		}
		if l := pr.LocalSize(); l[0]*l[1]*l[2] > 256 {
			return
		}
		// Every descriptor gets a resource, so image instructions run.
		var e *Error
		if err := runCorpus(pr, nil, Options{StepBudget: 1 << 12, Workers: 1}); errors.As(err, &e) && e.Internal {
			t.Fatal(err)
		}
	})
}
