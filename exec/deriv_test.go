package exec

import (
	"testing"

	"github.com/coopshader/coop/spirv"
)

func TestDerivatives(t *testing.T) {
	for _, linear := range []bool{false, true} {
		k := newKernel(t, 4)
		b := k.b
		mode := spirv.ExecutionModeDerivativeGroupQuadsKHR
		if linear {
			mode = spirv.ExecutionModeDerivativeGroupLinearKHR
		}
		b.ExecutionMode(k.fn, mode)
		// The kernel's LocalSize is 4x1x1; make it 4x2 so quads are 2x2.
		lidV := k.builtin(spirv.BuiltInLocalInvocationId, b.TypeVector(k.u32, 3))
		lx := k.op(spirv.OpCompositeExtract, k.u32, lidV, 0)
		ly := k.op(spirv.OpCompositeExtract, k.u32, lidV, 1)
		idx := k.builtin(spirv.BuiltInLocalInvocationIndex, k.u32)
		fx := k.op(spirv.OpConvertUToF, k.f32, lx)
		fy := k.op(spirv.OpConvertUToF, k.f32, ly)
		v := k.op(spirv.OpFAdd, k.f32, k.op(spirv.OpFMul, k.f32, fx, fx), k.op(spirv.OpFMul, k.f32, fy, b.ConstFloat32(k.f32, 10)))
		out := k.buffer(0, k.f32, 4)
		base := k.op(spirv.OpIMul, k.u32, idx, k.c32(3))
		k.store(out, k.f32, base, k.op(spirv.OpDPdxFine, k.f32, v))
		k.store(out, k.f32, k.op(spirv.OpIAdd, k.u32, base, k.c32(1)), k.op(spirv.OpDPdyFine, k.f32, v))
		k.store(out, k.f32, k.op(spirv.OpIAdd, k.u32, base, k.c32(2)), k.op(spirv.OpFwidthCoarse, k.f32, v))
		words := k.words()
		// Patch LocalSize 4 1 1 into 4 2 1.
		m, _ := spirv.DecodeWords(words, nil)
		for i := range m.Insts {
			in := &m.Insts[i]
			if in.Op == spirv.OpExecutionMode && spirv.ExecutionMode(in.Words[1]) == spirv.ExecutionModeLocalSize {
				in.Words[3] = 2
			}
		}
		words, _ = m.Words()
		dev := New(Options{})
		bo := u32buf(t, dev, make([]uint32, 24))
		mustRun(t, dev, words, 1, bo)
		got := f32s(bo)
		for i := 0; i < 8; i++ {
			x, y := i%4, i/4
			if linear {
				// Linear quads: index&1 is the x step, index&2 the y step.
				f := func(j int) float32 { jx, jy := j%4, j/4; return float32(jx*jx + 10*jy) }
				b0 := i &^ 3
				dx := f(b0+1+(i&2)) - f(b0+(i&2))
				dy := f(b0+2+(i&1)) - f(b0+(i&1))
				fw := abs32(f(b0+1)-f(b0)) + abs32(f(b0+2)-f(b0))
				if got[3*i] != dx || got[3*i+1] != dy || got[3*i+2] != fw {
					t.Errorf("linear lane %d: %v, want %v %v %v", i, got[3*i:3*i+3], dx, dy, fw)
				}
				continue
			}
			qx, qy := x&^1, y&^1 // the quad's first invocation
			f := func(x, y int) float32 { return float32(x*x + 10*y) }
			dx := f(qx+1, y) - f(qx, y)
			dy := f(x, qy+1) - f(x, qy)
			fw := abs32(f(qx+1, qy)-f(qx, qy)) + abs32(f(qx, qy+1)-f(qx, qy))
			if got[3*i] != dx || got[3*i+1] != dy || got[3*i+2] != fw {
				t.Errorf("quad lane %d: %v, want %v %v %v", i, got[3*i:3*i+3], dx, dy, fw)
			}
		}
	}
}

func abs32(v float32) float32 {
	if v < 0 {
		return -v
	}
	return v
}

// Without a DerivativeGroup execution mode every derivative is zero, in
// every component, also where invocations diverge.
func TestDerivativesWithoutGroups(t *testing.T) {
	k := newKernel(t, 8)
	b := k.b
	v4 := b.TypeVector(k.f32, 4)
	fx := k.op(spirv.OpConvertUToF, k.f32, k.x)
	sq := k.op(spirv.OpFMul, k.f32, fx, fx)
	vec := k.op(spirv.OpCompositeConstruct, v4, sq, fx, sq, fx)
	out := k.buffer(0, k.f32, 4)
	base := k.op(spirv.OpIMul, k.u32, k.x, k.c32(6))
	k.store(out, k.f32, base, k.op(spirv.OpDPdx, k.f32, sq))
	k.store(out, k.f32, k.op(spirv.OpIAdd, k.u32, base, k.c32(1)), k.op(spirv.OpFwidthFine, k.f32, sq))
	d := k.op(spirv.OpDPdyCoarse, v4, vec)
	for c := uint32(0); c < 4; c++ {
		k.store(out, k.f32, k.op(spirv.OpIAdd, k.u32, base, k.c32(2+c)), k.op(spirv.OpCompositeExtract, k.f32, d, c))
	}
	dev := New(Options{})
	init := make([]uint32, 48)
	for i := range init {
		init[i] = 0x3f800000 // 1.0: each output must be overwritten
	}
	bo := u32buf(t, dev, init)
	mustRun(t, dev, k.words(), 1, bo)
	for i, g := range u32s(bo) {
		if g != 0 {
			t.Fatalf("output %d = %#x, want +0", i, g)
		}
	}
}
