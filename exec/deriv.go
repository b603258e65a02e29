package exec

import (
	"math"

	"github.com/coopshader/coop/spirv"
)

// Compute derivatives (SPV_KHR_compute_shader_derivatives). Quads are 2x2
// blocks of LocalInvocationId (DerivativeGroupQuads) or groups of four
// consecutive LocalInvocationIndex values (DerivativeGroupLinear), with
// lanes ordered (0,0), (1,0), (0,1), (1,1). The executor gathers the whole
// workgroup for a derivative, so derivatives need workgroup-uniform control
// flow here (the specification needs only quad-uniform flow). Coarse
// derivatives use the quad's first row or column; fine ones the
// invocation's own.

func isDerivative(op spirv.Op) bool {
	switch op {
	case spirv.OpDPdx, spirv.OpDPdy, spirv.OpFwidth, spirv.OpDPdxFine, spirv.OpDPdyFine, spirv.OpFwidthFine,
		spirv.OpDPdxCoarse, spirv.OpDPdyCoarse, spirv.OpFwidthCoarse:
		return true
	}
	return false
}

// quadOf gives the local indices of lane l's quad and l's place in it.
func quadOf(p *prog, l *lane) (q [4]int, me int) {
	if p.derivLinear {
		base := l.lid &^ 3
		return [4]int{base, base + 1, base + 2, base + 3}, l.lid & 3
	}
	w := int(p.local[0])
	x, y := l.lid%w, l.lid/w%int(p.local[1])
	z := l.lid / (w * int(p.local[1]))
	bx, by := x&^1, y&^1
	at := func(dx, dy int) int { return (z*int(p.local[1])+by+dy)*w + bx + dx }
	return [4]int{at(0, 0), at(1, 0), at(0, 1), at(1, 1)}, (y&1)*2 + x&1
}

func derivExec(in *instr, act []*lane) error {
	p := act[0].p
	ct := in.t.comp()
	n := in.t.slots
	res := make([]uint64, n*len(act))
	for j, l := range act {
		q, me := quadOf(p, l)
		for _, k := range q {
			if k >= len(act) {
				return l.fail(in, "the workgroup size does not divide into derivative quads")
			}
		}
		val := func(k, c int) float64 { return toF64(act[q[k]].regs[in.a[0]+int32(c)], ct.ff) }
		row, col := me/2, me%2
		for c := 0; c < n; c++ {
			dx := val(row*2+1, c) - val(row*2, c)
			dy := val(2+col, c) - val(col, c)
			switch in.op {
			case spirv.OpDPdxCoarse, spirv.OpDPdyCoarse, spirv.OpFwidthCoarse, spirv.OpDPdx, spirv.OpDPdy, spirv.OpFwidth:
				dx, dy = val(1, c)-val(0, c), val(2, c)-val(0, c)
			}
			var v float64
			switch in.op {
			case spirv.OpDPdx, spirv.OpDPdxFine, spirv.OpDPdxCoarse:
				v = dx
			case spirv.OpDPdy, spirv.OpDPdyFine, spirv.OpDPdyCoarse:
				v = dy
			default:
				v = math.Abs(dx) + math.Abs(dy)
			}
			res[j*n+c] = fround(v, ct.ff)
		}
	}
	for j, l := range act {
		copy(l.regs[in.res:], res[j*n:(j+1)*n])
	}
	return nil
}
