package exec

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/coopshader/coop/internal/lazy"
	"github.com/coopshader/coop/spirv"
)

// groupKind describes a subgroup instruction: whether it has a Scope
// operand and a GroupOperation literal, and which arithmetic it reduces with.
type groupKind struct {
	scope, gop bool
	arith      spirv.Op // the OpGroupNonUniform* arithmetic it reduces with
}

// groupOps is built on first use, not at start-up: every coop command
// links exec, and most never run a shader.
func groupOps() map[spirv.Op]groupKind { return groupOpsLazy.Get() }

var groupOpsLazy = lazy.Value[map[spirv.Op]groupKind]{F: func() map[spirv.Op]groupKind {
	m := map[spirv.Op]groupKind{
		spirv.OpGroupNonUniformElect:            {scope: true},
		spirv.OpGroupNonUniformAll:              {scope: true},
		spirv.OpGroupNonUniformAny:              {scope: true},
		spirv.OpGroupNonUniformAllEqual:         {scope: true},
		spirv.OpGroupNonUniformBroadcast:        {scope: true},
		spirv.OpGroupNonUniformBroadcastFirst:   {scope: true},
		spirv.OpGroupNonUniformBallot:           {scope: true},
		spirv.OpGroupNonUniformInverseBallot:    {scope: true},
		spirv.OpGroupNonUniformBallotBitExtract: {scope: true},
		spirv.OpGroupNonUniformBallotBitCount:   {scope: true, gop: true},
		spirv.OpGroupNonUniformBallotFindLSB:    {scope: true},
		spirv.OpGroupNonUniformBallotFindMSB:    {scope: true},
		spirv.OpGroupNonUniformShuffle:          {scope: true},
		spirv.OpGroupNonUniformShuffleXor:       {scope: true},
		spirv.OpGroupNonUniformShuffleUp:        {scope: true},
		spirv.OpGroupNonUniformShuffleDown:      {scope: true},
		spirv.OpGroupNonUniformQuadBroadcast:    {scope: true},
		spirv.OpGroupNonUniformQuadSwap:         {scope: true},
		spirv.OpGroupNonUniformRotateKHR:        {scope: true},
		spirv.OpGroupNonUniformPartitionEXT:     {},
		spirv.OpSubgroupBallotKHR:               {},
		spirv.OpSubgroupFirstInvocationKHR:      {},
		spirv.OpSubgroupAllKHR:                  {},
		spirv.OpSubgroupAnyKHR:                  {},
		spirv.OpSubgroupAllEqualKHR:             {},
		spirv.OpSubgroupReadInvocationKHR:       {},
		spirv.OpGroupAll:                        {scope: true},
		spirv.OpGroupAny:                        {scope: true},
		spirv.OpGroupBroadcast:                  {scope: true},
	}
	for _, op := range []spirv.Op{
		spirv.OpGroupNonUniformIAdd, spirv.OpGroupNonUniformFAdd, spirv.OpGroupNonUniformIMul,
		spirv.OpGroupNonUniformFMul, spirv.OpGroupNonUniformSMin, spirv.OpGroupNonUniformUMin,
		spirv.OpGroupNonUniformFMin, spirv.OpGroupNonUniformSMax, spirv.OpGroupNonUniformUMax,
		spirv.OpGroupNonUniformFMax, spirv.OpGroupNonUniformBitwiseAnd, spirv.OpGroupNonUniformBitwiseOr,
		spirv.OpGroupNonUniformBitwiseXor, spirv.OpGroupNonUniformLogicalAnd, spirv.OpGroupNonUniformLogicalOr,
		spirv.OpGroupNonUniformLogicalXor,
	} {
		m[op] = groupKind{scope: true, gop: true, arith: op}
	}
	alias := map[spirv.Op]spirv.Op{
		spirv.OpGroupIAdd: spirv.OpGroupNonUniformIAdd, spirv.OpGroupFAdd: spirv.OpGroupNonUniformFAdd,
		spirv.OpGroupFMin: spirv.OpGroupNonUniformFMin, spirv.OpGroupUMin: spirv.OpGroupNonUniformUMin,
		spirv.OpGroupSMin: spirv.OpGroupNonUniformSMin, spirv.OpGroupFMax: spirv.OpGroupNonUniformFMax,
		spirv.OpGroupUMax: spirv.OpGroupNonUniformUMax, spirv.OpGroupSMax: spirv.OpGroupNonUniformSMax,
		spirv.OpGroupIAddNonUniformAMD: spirv.OpGroupNonUniformIAdd, spirv.OpGroupFAddNonUniformAMD: spirv.OpGroupNonUniformFAdd,
		spirv.OpGroupFMinNonUniformAMD: spirv.OpGroupNonUniformFMin, spirv.OpGroupUMinNonUniformAMD: spirv.OpGroupNonUniformUMin,
		spirv.OpGroupSMinNonUniformAMD: spirv.OpGroupNonUniformSMin, spirv.OpGroupFMaxNonUniformAMD: spirv.OpGroupNonUniformFMax,
		spirv.OpGroupUMaxNonUniformAMD: spirv.OpGroupNonUniformUMax, spirv.OpGroupSMaxNonUniformAMD: spirv.OpGroupNonUniformSMax,
	}
	for op, a := range alias {
		m[op] = groupKind{scope: true, gop: true, arith: a}
	}
	return m
}}

func isGroupOp(op spirv.Op) bool { _, ok := groupOps()[op]; return ok }

func (p *prog) compileGroup(i int, ins *instr, ops []uint32) (*instr, error) {
	g := groupOps()[ins.op]
	ins.coll = true
	ins.sub = uint32(spirv.ScopeSubgroup)
	if g.scope {
		if len(ops) == 0 {
			return nil, p.errAt(i, "missing scope")
		}
		sc, ok := p.constU(ops[0])
		if !ok {
			return nil, p.errAt(i, "scope %%%d must be a constant", ops[0])
		}
		if spirv.Scope(sc) != spirv.ScopeSubgroup {
			p.unsupport(i, fmt.Sprintf("group operation of scope %d (only Subgroup)", sc))
		}
		ops = ops[1:]
	}
	if g.gop {
		if len(ops) == 0 {
			return nil, p.errAt(i, "missing group operation")
		}
		ins.lit = []uint32{ops[0]}
		ops = ops[1:]
	}
	var err error
	if ins.a, err = p.valSlots(i, ops); err != nil {
		return nil, err
	}
	if len(ops) > 0 {
		ins.at = p.tyOf[ops[0]]
	}
	if ins.t == nil || (ins.op != spirv.OpGroupNonUniformElect && len(ops) == 0) {
		return nil, p.errAt(i, "%s needs a result type and operands", ins.op)
	}
	if p.sgSize > 64 {
		p.unsupport(i, "subgroups wider than 64 invocations")
	}
	return ins, nil
}

// groupIdentity is the identity of a reduction for exclusive scans.
func groupIdentity(op spirv.Op, t *typ) uint64 {
	w := t.width
	switch op {
	case spirv.OpGroupNonUniformIMul:
		return 1
	case spirv.OpGroupNonUniformFMul:
		return fround(1, t.ff)
	case spirv.OpGroupNonUniformSMin:
		return mask(w - 1)
	case spirv.OpGroupNonUniformUMin, spirv.OpGroupNonUniformBitwiseAnd:
		return mask(w)
	case spirv.OpGroupNonUniformLogicalAnd:
		return 1
	case spirv.OpGroupNonUniformFMin:
		return fround(math.Inf(1), t.ff)
	case spirv.OpGroupNonUniformSMax:
		return 1 << (w - 1)
	case spirv.OpGroupNonUniformFMax:
		return fround(math.Inf(-1), t.ff)
	}
	return 0
}

func groupCombine(op spirv.Op, t *typ, a, b uint64) uint64 {
	w := t.width
	m := mask(w)
	switch op {
	case spirv.OpGroupNonUniformIAdd:
		return (a + b) & m
	case spirv.OpGroupNonUniformIMul:
		return a * b & m
	case spirv.OpGroupNonUniformFAdd:
		return fround(toF64(a, t.ff)+toF64(b, t.ff), t.ff)
	case spirv.OpGroupNonUniformFMul:
		return fround(toF64(a, t.ff)*toF64(b, t.ff), t.ff)
	case spirv.OpGroupNonUniformSMin:
		return uint64(min(sext(a, w), sext(b, w))) & m
	case spirv.OpGroupNonUniformSMax:
		return uint64(max(sext(a, w), sext(b, w))) & m
	case spirv.OpGroupNonUniformUMin:
		return min(a, b)
	case spirv.OpGroupNonUniformUMax:
		return max(a, b)
	case spirv.OpGroupNonUniformFMin:
		return fround(fpMin(toF64(a, t.ff), toF64(b, t.ff)), t.ff)
	case spirv.OpGroupNonUniformFMax:
		return fround(fpMax(toF64(a, t.ff), toF64(b, t.ff)), t.ff)
	case spirv.OpGroupNonUniformBitwiseAnd, spirv.OpGroupNonUniformLogicalAnd:
		return a & b
	case spirv.OpGroupNonUniformBitwiseOr, spirv.OpGroupNonUniformLogicalOr:
		return a | b
	}
	return a ^ b
}

// ballot4 writes a 64-bit lane mask as a uvec4.
func ballot4(d []uint64, m uint64) {
	d[0], d[1], d[2], d[3] = m&0xffffffff, m>>32, 0, 0
}

func ballotOf(v []uint64) uint64 { return v[0]&0xffffffff | v[1]<<32 }

// groupExec runs a subgroup instruction for the lanes in act (the lanes of
// the subgroup that reached it together), sg being the whole subgroup
// indexed by lane id.
func groupExec(in *instr, act []*lane, sg []*lane) error {
	var live uint64
	for _, l := range act {
		live |= 1 << uint(l.sgl)
	}
	n := in.t.slots
	valOf := func(l *lane, k int) []uint64 { return l.regs[in.a[k] : in.a[k]+int32(n)] }
	val := func(l *lane, k int) uint64 { return l.regs[in.a[k]] }
	first := act[0]
	// read picks a value from lane src, or zero when that lane is inactive
	// (the spec leaves it undefined).
	read := func(d []uint64, src uint64) {
		if src < uint64(len(sg)) && live&(1<<src) != 0 {
			copy(d, valOf(sg[src], 0))
		} else {
			clear(d)
		}
	}
	// Values are read from all lanes before any result is written, as the
	// result slot of one lane is never an operand slot of another (SSA).
	switch in.op {
	case spirv.OpGroupNonUniformElect:
		for _, l := range act {
			l.regs[in.res] = b2u(l == first)
		}
	case spirv.OpGroupNonUniformAll, spirv.OpSubgroupAllKHR, spirv.OpGroupAll,
		spirv.OpGroupNonUniformAny, spirv.OpSubgroupAnyKHR, spirv.OpGroupAny:
		all := in.op == spirv.OpGroupNonUniformAll || in.op == spirv.OpSubgroupAllKHR || in.op == spirv.OpGroupAll
		v := all
		for _, l := range act {
			if all {
				v = v && val(l, 0) != 0
			} else {
				v = v || val(l, 0) != 0
			}
		}
		for _, l := range act {
			l.regs[in.res] = b2u(v)
		}
	case spirv.OpGroupNonUniformAllEqual, spirv.OpSubgroupAllEqualKHR:
		eq := true
		vn := in.at.slots
		ref := first.regs[in.a[0] : in.a[0]+int32(vn)]
		for _, l := range act {
			v := l.regs[in.a[0] : in.a[0]+int32(vn)]
			for k := range v {
				eq = eq && v[k] == ref[k]
			}
		}
		for _, l := range act {
			l.regs[in.res] = b2u(eq)
		}
	case spirv.OpGroupNonUniformBroadcast, spirv.OpSubgroupReadInvocationKHR, spirv.OpGroupBroadcast:
		src := val(first, 1)
		tmp := make([]uint64, n)
		read(tmp, src)
		for _, l := range act {
			copy(l.regs[in.res:], tmp)
		}
	case spirv.OpGroupNonUniformBroadcastFirst, spirv.OpSubgroupFirstInvocationKHR:
		tmp := append([]uint64(nil), valOf(first, 0)...)
		for _, l := range act {
			copy(l.regs[in.res:], tmp)
		}
	case spirv.OpGroupNonUniformBallot, spirv.OpSubgroupBallotKHR:
		var m uint64
		for _, l := range act {
			if val(l, 0) != 0 {
				m |= 1 << uint(l.sgl)
			}
		}
		for _, l := range act {
			if in.t.slots == 4 {
				ballot4(l.regs[in.res:], m)
			} else {
				l.regs[in.res] = m & mask(in.t.comp().width)
			}
		}
	case spirv.OpGroupNonUniformInverseBallot:
		for _, l := range act {
			l.regs[in.res] = ballotOf(l.regs[in.a[0]:]) >> uint(l.sgl) & 1
		}
	case spirv.OpGroupNonUniformBallotBitExtract:
		for _, l := range act {
			i := val(l, 1)
			l.regs[in.res] = 0
			if i < 64 {
				l.regs[in.res] = ballotOf(l.regs[in.a[0]:]) >> i & 1
			}
		}
	case spirv.OpGroupNonUniformBallotBitCount:
		size := uint(len(sg))
		for _, l := range act {
			b := ballotOf(l.regs[in.a[0]:]) & mask(int(size))
			switch spirv.GroupOperation(in.lit[0]) {
			case spirv.GroupOperationInclusiveScan:
				b &= mask(l.sgl + 1)
			case spirv.GroupOperationExclusiveScan:
				b &= mask(l.sgl)
			}
			l.regs[in.res] = uint64(bits.OnesCount64(b))
		}
	case spirv.OpGroupNonUniformBallotFindLSB, spirv.OpGroupNonUniformBallotFindMSB:
		for _, l := range act {
			b := ballotOf(l.regs[in.a[0]:])
			r := uint64(bits.TrailingZeros64(b))
			if in.op == spirv.OpGroupNonUniformBallotFindMSB {
				r = uint64(63 - bits.LeadingZeros64(b))
			}
			if b == 0 {
				r = mask(32)
			}
			l.regs[in.res] = r
		}
	case spirv.OpGroupNonUniformShuffle, spirv.OpGroupNonUniformShuffleXor, spirv.OpGroupNonUniformShuffleUp,
		spirv.OpGroupNonUniformShuffleDown, spirv.OpGroupNonUniformQuadBroadcast, spirv.OpGroupNonUniformQuadSwap,
		spirv.OpGroupNonUniformRotateKHR:
		res := make([]uint64, n*len(act))
		for j, l := range act {
			me := uint64(l.sgl)
			x := val(l, 1) & mask(32)
			var src uint64
			switch in.op {
			case spirv.OpGroupNonUniformShuffle:
				src = x
			case spirv.OpGroupNonUniformShuffleXor:
				src = me ^ x
			case spirv.OpGroupNonUniformShuffleUp:
				src = me - x
			case spirv.OpGroupNonUniformShuffleDown:
				src = me + x
			case spirv.OpGroupNonUniformQuadBroadcast:
				src = me&^3 + x
			case spirv.OpGroupNonUniformQuadSwap:
				src = me ^ (x + 1)
			default:
				c := uint64(len(sg))
				if len(in.a) > 2 {
					c = val(l, 2)
				}
				if c == 0 {
					c = 1
				}
				src = (me+x)%c + me/c*c
			}
			read(res[j*n:(j+1)*n], src)
		}
		for j, l := range act {
			copy(l.regs[in.res:], res[j*n:(j+1)*n])
		}
	case spirv.OpGroupNonUniformPartitionEXT:
		vn := in.at.slots
		for _, l := range act {
			var m uint64
			for _, o := range act {
				eq := true
				for k := 0; k < vn; k++ {
					eq = eq && l.regs[in.a[0]+int32(k)] == o.regs[in.a[0]+int32(k)]
				}
				if eq {
					m |= 1 << uint(o.sgl)
				}
			}
			l.tmp = append(l.tmp[:0], m)
		}
		for _, l := range act {
			ballot4(l.regs[in.res:], l.tmp[0])
		}
	default:
		return groupArith(in, act, sg)
	}
	return nil
}

// groupArithLinear is groupArith for a reduction or scan over all of act
// in one pass: the same combinations in the same order, each made once.
func groupArithLinear(in *instr, act []*lane, op spirv.Op, ct *typ, n int, gop spirv.GroupOperation) {
	src, dst := in.a[0], in.res
	for k := int32(0); k < int32(n); k++ {
		acc := groupIdentity(op, ct)
		started := false
		for _, l := range act {
			v := l.regs[src+k]
			if gop == spirv.GroupOperationExclusiveScan {
				if started {
					l.regs[dst+k] = acc
				} else {
					l.regs[dst+k] = groupIdentity(op, ct)
				}
			}
			if !started {
				acc, started = v, true
			} else {
				acc = groupCombine(op, ct, acc, v)
			}
			if gop == spirv.GroupOperationInclusiveScan {
				l.regs[dst+k] = acc
			}
		}
		if gop == spirv.GroupOperationReduce {
			for _, l := range act {
				l.regs[dst+k] = acc
			}
		}
	}
}

// groupArith runs reductions and scans in lane order, rounding after each
// step.
func groupArith(in *instr, act []*lane, sg []*lane) error {
	g := groupOps()[in.op]
	op := g.arith
	ct := in.t.comp()
	n := in.t.slots
	gop := spirv.GroupOperation(in.lit[0])
	// part gives, for each lane, the set of lanes it combines with.
	part := func(l *lane) uint64 { return ^uint64(0) }
	switch gop {
	case spirv.GroupOperationClusteredReduce:
		c := uint64(len(sg))
		if len(in.a) > 1 {
			c = act[0].regs[in.a[1]]
		}
		if c == 0 || c&(c-1) != 0 {
			return act[0].fail(in, "cluster size %d is not a power of two", c)
		}
		part = func(l *lane) uint64 {
			base := uint64(l.sgl) / c * c
			return mask(int(c)) << base
		}
	case spirv.GroupOperationPartitionedReduceEXT, spirv.GroupOperationPartitionedInclusiveScanEXT,
		spirv.GroupOperationPartitionedExclusiveScanEXT:
		if len(in.a) < 2 {
			return act[0].fail(in, "partitioned operation needs a partition ballot")
		}
		part = func(l *lane) uint64 { return ballotOf(l.regs[in.a[1]:]) }
	}
	switch gop {
	case spirv.GroupOperationReduce, spirv.GroupOperationInclusiveScan, spirv.GroupOperationExclusiveScan:
		groupArithLinear(in, act, op, ct, n, gop)
		return nil
	}
	res := make([]uint64, n*len(act))
	for j, l := range act {
		pm := part(l)
		for k := 0; k < n; k++ {
			acc := groupIdentity(op, ct)
			started := false
			for _, o := range act {
				if pm&(1<<uint(o.sgl)) == 0 {
					continue
				}
				switch gop {
				case spirv.GroupOperationInclusiveScan, spirv.GroupOperationPartitionedInclusiveScanEXT:
					if o.sgl > l.sgl {
						continue
					}
				case spirv.GroupOperationExclusiveScan, spirv.GroupOperationPartitionedExclusiveScanEXT:
					if o.sgl >= l.sgl {
						continue
					}
				}
				v := o.regs[in.a[0]+int32(k)]
				if !started {
					acc, started = v, true
				} else {
					acc = groupCombine(op, ct, acc, v)
				}
			}
			res[j*n+k] = acc
		}
	}
	for j, l := range act {
		copy(l.regs[in.res:], res[j*n:(j+1)*n])
	}
	return nil
}
