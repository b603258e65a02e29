package exec

import "math/bits"

// opAMDBallot marks an OpExtInst of the SPV_AMD_shader_ballot set; the
// instruction number is in sub.
const opAMDBallot = 0xfffc

// The SPV_AMD_shader_ballot extended instructions.
const (
	amdSwizzleInvocations       = 1
	amdSwizzleInvocationsMasked = 2
	amdWriteInvocation          = 3
	amdMbcnt                    = 4
)

// amdOperandsFit checks the operands' shapes: data as wide as the result,
// a uvec4 offset, a uvec3 mask, a scalar index or mask.
func amdOperandsFit(in *instr, tyOf []*typ, ids []uint32) bool {
	slots := func(k int) int { return tyOf[ids[k]].slots }
	switch in.sub {
	case amdSwizzleInvocations:
		return slots(0) == in.t.slots && slots(1) == 4
	case amdSwizzleInvocationsMasked:
		return slots(0) == in.t.slots && slots(1) == 3
	case amdWriteInvocation:
		return slots(0) == in.t.slots && slots(1) == in.t.slots && slots(2) == 1
	}
	return slots(0) == 1 && in.t.slots == 1
}

// amdExec runs an SPV_AMD_shader_ballot extended instruction for the lanes
// in act, sg being the whole subgroup by lane id. The swizzles read the
// lane their pattern names, giving 0 when it is not active (as the
// extension defines); WriteInvocationAMD and MbcntAMD depend on the lane's
// own id.
func amdExec(in *instr, act, sg []*lane) error {
	var live uint64
	for _, l := range act {
		live |= 1 << uint(l.sgl)
	}
	n := in.t.slots
	res := make([]uint64, n*len(act))
	for j, l := range act {
		d := res[j*n : (j+1)*n]
		me := uint64(l.sgl)
		arg := func(k int) []uint64 { return l.regs[in.a[k]:] }
		read := func(src uint64) {
			if src < uint64(len(sg)) && live&(1<<src) != 0 {
				copy(d, sg[src].regs[in.a[0]:in.a[0]+int32(n)])
			}
		}
		switch in.sub {
		case amdSwizzleInvocations:
			read(me&^3 + arg(1)[me&3]&3)
		case amdSwizzleInvocationsMasked:
			m := arg(1)
			read((me&0x1f&m[0]|m[1])&0x1f ^ m[2]&0x1f | me&0x20)
		case amdWriteInvocation:
			if me == arg(2)[0]&mask(32) {
				copy(d, arg(1)[:n])
			} else {
				copy(d, arg(0)[:n])
			}
		case amdMbcnt:
			d[0] = uint64(bits.OnesCount64(arg(0)[0] & mask(int(me))))
		default:
			return l.fail(in, "SPV_AMD_shader_ballot instruction %d is not implemented", in.sub)
		}
	}
	for j, l := range act {
		copy(l.regs[in.res:], res[j*n:(j+1)*n])
	}
	return nil
}
