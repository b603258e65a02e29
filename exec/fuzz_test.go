package exec

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/coopshader/coop/spirv"
)

// FuzzLoadRun: no module, however malformed, panics Load or a dispatch.
func FuzzLoadRun(f *testing.F) {
	t := &testing.T{}
	for _, code := range [][]uint32{
		binaryKernel(t, spirv.OpIAdd, func(k *kernel) uint32 { return k.u32 }, func(k *kernel) uint32 { return k.u32 }),
		matmulKernel(t, 32, 32, 32, 16, false),
	} {
		b := make([]byte, 4*len(code))
		for i, w := range code {
			binary.LittleEndian.PutUint32(b[4*i:], w)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
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
		dev := New(Options{StepBudget: 1 << 12, Workers: 1})
		var e *Error
		if err := dev.Run(pr, [3]uint32{1, 1, 1}, nil, nil); errors.As(err, &e) && e.Internal {
			t.Fatal(err)
		}
	})
}
