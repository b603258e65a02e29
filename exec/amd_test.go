package exec

import (
	"math"
	"math/bits"
	"testing"

	"github.com/coopshader/coop/spirv"
)

// SPV_AMD_shader_ballot in divergent control flow (a third of the
// invocations inactive) at several subgroup sizes, against the
// extension's definitions evaluated here lane by lane.
func TestAMDShaderBallot(t *testing.T) {
	const n, outs = 64, 8
	for _, size := range []int{16, 32, 64} {
		k := newKernel(t, n)
		b := k.b
		b.Capability(spirv.CapabilityGroups)
		b.Capability(spirv.CapabilityInt64)
		set := b.ExtInstImport("SPV_AMD_shader_ballot")
		u64 := b.TypeInt(64, false)
		out := k.buffer(0, k.u32, 4)
		active := k.op(spirv.OpINotEqual, k.boo, k.op(spirv.OpUMod, k.u32, k.x, k.c32(3)), k.c32(0))
		then, merge := b.ID(), b.ID()
		b.Emit(spirv.OpSelectionMerge, merge, 0)
		b.Emit(spirv.OpBranchConditional, active, then, merge)
		b.Label(then)
		sub := k.c32(uint32(spirv.ScopeSubgroup))
		val := k.op(spirv.OpUMod, k.u32, k.op(spirv.OpIMul, k.u32, k.x, k.c32(7)), k.c32(11))
		fval := k.op(spirv.OpConvertUToF, k.f32, val)
		res := []uint32{
			k.op(spirv.OpExtInst, k.u32, set, amdSwizzleInvocations, k.x,
				b.Const(spirv.OpConstantComposite, b.TypeVector(k.u32, 4), k.c32(1), k.c32(0), k.c32(3), k.c32(2))),
			k.op(spirv.OpExtInst, k.u32, set, amdSwizzleInvocationsMasked, k.x,
				b.Const(spirv.OpConstantComposite, b.TypeVector(k.u32, 3), k.c32(0x1c), k.c32(2), k.c32(0x11))),
			k.op(spirv.OpExtInst, k.u32, set, amdWriteInvocation, k.x, k.c32(1000), k.c32(5)),
			k.op(spirv.OpExtInst, k.u32, set, amdMbcnt, b.Const(spirv.OpConstant, u64, 0x55555555, 0x0f0f0f0f)),
			k.op(spirv.OpGroupIAddNonUniformAMD, k.u32, sub, uint32(spirv.GroupOperationInclusiveScan), val),
			k.op(spirv.OpGroupUMinNonUniformAMD, k.u32, sub, uint32(spirv.GroupOperationReduce), val),
			k.op(spirv.OpGroupSMaxNonUniformAMD, k.u32, sub, uint32(spirv.GroupOperationExclusiveScan), val),
			k.op(spirv.OpBitcast, k.u32, k.op(spirv.OpGroupFMinNonUniformAMD, k.f32, sub, uint32(spirv.GroupOperationExclusiveScan), fval)),
		}
		base := k.op(spirv.OpIMul, k.u32, k.x, k.c32(outs))
		for j, r := range res {
			k.store(out, k.u32, k.op(spirv.OpIAdd, k.u32, base, k.c32(uint32(j))), r)
		}
		b.Emit(spirv.OpBranch, merge)
		b.Label(merge)
		dev := New(Options{SubgroupSize: size})
		init := make([]uint32, n*outs)
		for i := range init {
			init[i] = 0xdeadbeef
		}
		bo := u32buf(t, dev, init)
		mustRun(t, dev, k.words(), 1, bo)
		got := u32s(bo)

		isActive := func(l int) bool { return l%3 != 0 }
		v := func(l int) uint32 { return uint32(l * 7 % 11) }
		for l := 0; l < n; l++ {
			g := got[l*outs : (l+1)*outs]
			if !isActive(l) {
				for _, w := range g {
					if w != 0xdeadbeef {
						t.Fatalf("size %d: inactive lane %d wrote %#x", size, l, w)
					}
				}
				continue
			}
			first, me := l/size*size, l%size
			// A lane of the subgroup by its id, or 0 when it is inactive.
			at := func(id int) uint32 {
				if id >= size || !isActive(first+id) {
					return 0
				}
				return uint32(first + id)
			}
			want := make([]uint32, outs)
			want[0] = at(me&^3 + []int{1, 0, 3, 2}[me&3])
			j := (me&0x1f&0x1c | 2) ^ 0x11 | me&0x20
			want[1] = at(j)
			want[2] = uint32(l)
			if me == 5 {
				want[2] = 1000
			}
			want[3] = uint32(bits.OnesCount64(0x0f0f0f0f55555555 & (1<<me - 1)))
			sum, lo, hi, fmin := uint32(0), uint32(math.MaxUint32), int32(math.MinInt32), float32(math.Inf(1))
			for id := 0; id < size; id++ {
				o := first + id
				if !isActive(o) {
					continue
				}
				if id <= me {
					sum += v(o)
				}
				lo = min(lo, v(o))
				if id < me {
					hi = max(hi, int32(v(o)))
					fmin = min(fmin, float32(v(o)))
				}
			}
			want[4], want[5], want[6], want[7] = sum, lo, uint32(hi), math.Float32bits(fmin)
			for c := range want {
				if g[c] != want[c] {
					t.Errorf("size %d lane %d output %d = %#x, want %#x", size, l, c, g[c], want[c])
				}
			}
		}
	}
}
