package exec

import (
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/spirv"
)

// decodeModule builds a shader that loads a 16x16 float matrix of an
// n-element buffer through a decode function reading each element
// through its pointer, and stores it to a second buffer.
func decodeModule() []uint32 {
	ts := newTensorShader(16, spirv.TensorClampModeUndefined)
	b, c, f, tm, tl, in, out, pf, decode, zero := ts.b, ts.c, ts.f, ts.tm, ts.tl, ts.in, ts.out, ts.pf, ts.decode, ts.zero
	l0 := b.EmitResult(spirv.OpCreateTensorLayoutNV, tl)
	l1 := b.EmitResult(spirv.OpTensorLayoutSetDimensionNV, tl, l0, c(16), c(16))
	pin := b.EmitResult(spirv.OpAccessChain, pf, in, c(0), c(0))
	m := b.EmitResult(spirv.OpCooperativeMatrixLoadTensorNV, tm, pin, zero, l1, 0, 2, decode)
	pout := b.EmitResult(spirv.OpAccessChain, pf, out, c(0), c(0))
	b.Emit(spirv.OpCooperativeMatrixStoreKHR, pout, m, c(0), c(16))
	b.Emit(spirv.OpReturn)
	b.EndFunction()
	pp, _, _ := ts.beginDecode()
	v := b.EmitResult(spirv.OpLoad, f, pp, uint32(spirv.MemoryAccessAligned), 4)
	b.Emit(spirv.OpReturnValue, b.EmitResult(spirv.OpFAdd, f, v, b.ConstFloat32(f, 1)))
	b.Emit(spirv.OpFunctionEnd)
	ts.finish()
	code, _ := b.Module().Words()
	return code
}

// TestDecodeBatch: a decode function without side effects runs for all
// the tile's elements together (decodeBatch) and gives the per-element
// calls' results; where one of its calls faults, the fault is the one the
// calls in element order meet first (element 100, owned by invocation
// 12), not the first of a round (invocation 13's first element, 104),
// in lockstep and out of it.
func TestDecodeBatch(t *testing.T) {
	code := decodeModule()
	for _, o := range []Options{{}, {noLockstep: true}, {Check: true}} {
		dev := New(o)
		vals := make([]uint32, 256)
		for i := range vals {
			vals[i] = f32bitsU(float32(i))
		}
		bin, bout := u32buf(t, dev, vals), u32buf(t, dev, make([]uint32, 256))
		if _, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{1, 1, 1},
			Bindings: []backend.Binding{{Binding: 0, Buffer: bin}, {Binding: 1, Buffer: bout}}}); err != nil {
			t.Fatal(err)
		}
		for i, g := range f32s(bout) {
			if g != float32(i+1) {
				t.Fatalf("%+v: element %d = %v, want %v", o, i, g, i+1)
			}
		}
		short := u32buf(t, dev, vals[:100])
		_, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{1, 1, 1},
			Bindings: []backend.Binding{{Binding: 0, Buffer: short}, {Binding: 1, Buffer: bout}}})
		e, ok := err.(*Error)
		if !ok || e.Op != spirv.OpLoad || e.Invocation != [3]uint32{12, 0, 0} || !e.HasAddr || e.Addr&(1<<40-1) != 400 {
			t.Fatalf("%+v: error %v, want the load of element 100 by invocation 12 failing", o, err)
		}
		if !strings.Contains(err.Error(), "invocation (12,0,0)") {
			t.Fatalf("%+v: error %q does not name invocation 12", o, err)
		}
	}
}
