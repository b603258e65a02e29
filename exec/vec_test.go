package exec

import (
	"math"
	"math/rand"
	"testing"

	"github.com/coopshader/coop/spirv"
)

// TestVecMatchesEval checks every vector handler of a pure instruction
// against the general code, bit for bit, on random operands and on
// special values (zeros, infinities, NaNs, denormals, extremes).
func TestVecMatchesEval(t *testing.T) {
	bl := &typ{kind: kBool, width: 1, slots: 1}
	ints := func(w int, signed bool) *typ { return &typ{kind: kInt, width: w, signed: signed, slots: 1} }
	flt := func(w int, ff ffmt) *typ { return &typ{kind: kFloat, width: w, ff: ff, slots: 1} }
	vec := func(e *typ, n int) *typ { return &typ{kind: kVector, elem: e, count: n, slots: n} }
	f32t, f16t, f64t := flt(32, f32), flt(16, f16), flt(64, f64)
	type c struct {
		op     spirv.Op
		t, at  *typ
		nargs  int
		sub    uint32
		isVec3 bool
	}
	var cases []c
	intBin := []spirv.Op{spirv.OpIAdd, spirv.OpISub, spirv.OpIMul, spirv.OpBitwiseAnd, spirv.OpBitwiseOr, spirv.OpBitwiseXor,
		spirv.OpShiftLeftLogical, spirv.OpShiftRightLogical, spirv.OpShiftRightArithmetic, spirv.OpUDiv, spirv.OpUMod}
	intCmp := []spirv.Op{spirv.OpIEqual, spirv.OpINotEqual, spirv.OpULessThan, spirv.OpULessThanEqual, spirv.OpUGreaterThan,
		spirv.OpUGreaterThanEqual, spirv.OpSLessThan, spirv.OpSLessThanEqual, spirv.OpSGreaterThan, spirv.OpSGreaterThanEqual}
	fBin := []spirv.Op{spirv.OpFAdd, spirv.OpFSub, spirv.OpFMul, spirv.OpFDiv}
	fCmp := []spirv.Op{spirv.OpFOrdEqual, spirv.OpFUnordEqual, spirv.OpFOrdNotEqual, spirv.OpFUnordNotEqual,
		spirv.OpFOrdLessThan, spirv.OpFUnordLessThan, spirv.OpFOrdGreaterThan, spirv.OpFUnordGreaterThan,
		spirv.OpFOrdLessThanEqual, spirv.OpFUnordLessThanEqual, spirv.OpFOrdGreaterThanEqual, spirv.OpFUnordGreaterThanEqual}
	for _, w := range []int{8, 16, 32, 64} {
		it := ints(w, true)
		for _, op := range intBin {
			cases = append(cases, c{op: op, t: it, at: it, nargs: 2}, c{op: op, t: vec(it, 3), at: vec(it, 3), nargs: 2})
		}
		for _, op := range intCmp {
			cases = append(cases, c{op: op, t: bl, at: it, nargs: 2}, c{op: op, t: vec(bl, 2), at: vec(it, 2), nargs: 2})
		}
		for _, op := range []spirv.Op{spirv.OpNot, spirv.OpSNegate} {
			cases = append(cases, c{op: op, t: it, at: it, nargs: 1})
		}
		for _, w2 := range []int{8, 16, 32, 64} {
			cases = append(cases, c{op: spirv.OpUConvert, t: ints(w2, false), at: ints(w, false), nargs: 1},
				c{op: spirv.OpSConvert, t: ints(w2, true), at: ints(w, true), nargs: 1})
		}
		for _, ft := range []*typ{f16t, f32t, f64t} {
			for _, rm := range []uint32{0, 1, 2, 3} {
				cases = append(cases, c{op: spirv.OpConvertSToF, t: ft, at: it, nargs: 1, sub: rm},
					c{op: spirv.OpConvertUToF, t: ft, at: it, nargs: 1, sub: rm})
			}
			cases = append(cases, c{op: spirv.OpConvertFToS, t: it, at: ft, nargs: 1}, c{op: spirv.OpConvertFToU, t: it, at: ft, nargs: 1})
		}
	}
	for _, op := range fBin {
		cases = append(cases, c{op: op, t: f32t, at: f32t, nargs: 2}, c{op: op, t: vec(f32t, 4), at: vec(f32t, 4), nargs: 2},
			c{op: op, t: f16t, at: f16t, nargs: 2}, c{op: op, t: vec(f16t, 2), at: vec(f16t, 2), nargs: 2})
	}
	for _, op := range fCmp {
		cases = append(cases, c{op: op, t: bl, at: f32t, nargs: 2})
	}
	for _, op := range []spirv.Op{spirv.OpLogicalAnd, spirv.OpLogicalOr, spirv.OpLogicalEqual, spirv.OpLogicalNotEqual} {
		cases = append(cases, c{op: op, t: bl, at: bl, nargs: 2})
	}
	cases = append(cases, c{op: spirv.OpLogicalNot, t: bl, at: bl, nargs: 1},
		c{op: spirv.OpBitcast, t: ints(32, true), at: f32t, nargs: 1}, c{op: spirv.OpBitcast, t: f16t, at: ints(16, false), nargs: 1})
	cases = append(cases, c{op: spirv.OpVectorExtractDynamic, t: ints(32, false), at: vec(ints(32, false), 4), nargs: 2},
		c{op: spirv.OpVectorExtractDynamic, t: f16t, at: vec(f16t, 2), nargs: 2})
	for _, ft := range []*typ{f16t, f32t, f64t} {
		cases = append(cases, c{op: spirv.OpVectorTimesScalar, t: vec(ft, 4), at: vec(ft, 4), nargs: 2})
	}
	// Bitcasts between component widths (unpack8, pack32, unpackFloat2x16, ...).
	for _, p := range [][2]*typ{{vec(ints(8, false), 4), ints(32, false)}, {vec(ints(16, false), 2), ints(32, false)},
		{vec(f16t, 2), ints(32, false)}, {vec(ints(32, false), 2), ints(64, false)}, {vec(ints(8, true), 8), vec(ints(32, true), 2)},
		{vec(f16t, 4), f64t}, {vec(ints(16, false), 4), vec(f32t, 2)}} {
		cases = append(cases, c{op: spirv.OpBitcast, t: p[0], at: p[1], nargs: 1}, c{op: spirv.OpBitcast, t: p[1], at: p[0], nargs: 1})
	}
	for _, a := range []*typ{f16t, f32t, f64t} {
		cases = append(cases, c{op: spirv.OpFNegate, t: a, at: a, nargs: 1})
		for _, b := range []*typ{f16t, f32t, f64t} {
			for _, rm := range []uint32{0, 1, 2, 3} {
				cases = append(cases, c{op: spirv.OpFConvert, t: b, at: a, nargs: 1, sub: rm})
			}
		}
	}
	cases = append(cases, c{op: spirv.OpSelect, t: f32t, at: bl, nargs: 3})

	specials := []uint64{0, 1, 2, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000, 0xffffffff,
		1 << 63, math.MaxUint64, 0x7f800000, 0xff800000, 0x7fc00001, 0xffc00000, 0x00000001, 0x807fffff, 0x3f800000,
		0x7c00, 0xfc00, 0x7e01, 0x0001, 0x7ff0000000000000, 0x7ff8000000000001, 0x0000000000000001, 0x4330000000000000}
	rng := rand.New(rand.NewSource(1))
	const lanes = 8
	for _, tc := range cases {
		n := int32(tc.t.slots)
		an := int32(tc.at.slots)
		in := &instr{op: tc.op, t: tc.t, at: tc.at, res: 0, sub: tc.sub, lk: lkPure}
		for k := 0; k < tc.nargs; k++ {
			in.a = append(in.a, n+int32(k)*max(an, n))
		}
		setFast(in)
		in.vec = pickVec(in)
		if in.vec == nil {
			t.Errorf("%v %v<-%v: no vector handler", tc.op, tc.t.kind, tc.at.kind)
			continue
		}
		size := int(n + int32(tc.nargs)*max(an, n))
		for trial := 0; trial < 200; trial++ {
			var sg, ref []*lane
			for k := 0; k < lanes; k++ {
				regs := make([]uint64, size)
				for s := n; s < int32(size); s++ {
					v := rng.Uint64()
					switch rng.Intn(3) {
					case 0:
						v = specials[rng.Intn(len(specials))]
					case 1:
						v >>= uint(rng.Intn(64))
					}
					regs[s] = v
				}
				// Operands hold values of their width, as the executor's do.
				for j, a := range in.a {
					ct := tc.at.comp()
					if j > 0 && tc.op == spirv.OpSelect {
						ct = tc.t.comp()
					}
					for s := a; s < a+max(an, n); s++ {
						if ct.kind == kBool {
							regs[s] &= 1
						} else {
							regs[s] &= mask(ct.width)
						}
					}
				}
				sg = append(sg, &lane{regs: regs})
				ref = append(ref, &lane{regs: append([]uint64(nil), regs...)})
			}
			if !in.vec(sg, in) {
				t.Fatalf("%v: handler declined", tc.op)
			}
			for k := range sg {
				if err := ref[k].eval(in); err != nil {
					t.Fatal(err)
				}
				for s := int32(0); s < n; s++ {
					if sg[k].regs[s] != ref[k].regs[s] {
						t.Fatalf("%v (%d-bit from %d-bit, sub %d) on %x: vector %#x, general %#x", tc.op, tc.t.comp().width, tc.at.comp().width, tc.sub,
							ref[k].regs[n:], sg[k].regs[s], ref[k].regs[s])
					}
				}
			}
		}
	}
}

// TestGroupArithLinear checks the one-pass reductions and scans against
// the general path (a partitioned operation whose partition is every
// active lane), bit for bit, including float sums that round.
func TestGroupArithLinear(t *testing.T) {
	f32t := &typ{kind: kFloat, width: 32, ff: f32, slots: 1}
	u32t := &typ{kind: kInt, width: 32, slots: 1}
	rng := rand.New(rand.NewSource(2))
	pairs := [][2]spirv.GroupOperation{
		{spirv.GroupOperationReduce, spirv.GroupOperationPartitionedReduceEXT},
		{spirv.GroupOperationInclusiveScan, spirv.GroupOperationPartitionedInclusiveScanEXT},
		{spirv.GroupOperationExclusiveScan, spirv.GroupOperationPartitionedExclusiveScanEXT},
	}
	for _, op := range []spirv.Op{spirv.OpGroupNonUniformFAdd, spirv.OpGroupNonUniformFMul, spirv.OpGroupNonUniformFMin,
		spirv.OpGroupNonUniformIAdd, spirv.OpGroupNonUniformIMul, spirv.OpGroupNonUniformUMax, spirv.OpGroupNonUniformBitwiseXor} {
		ty := u32t
		if op == spirv.OpGroupNonUniformFAdd || op == spirv.OpGroupNonUniformFMul || op == spirv.OpGroupNonUniformFMin {
			ty = f32t
		}
		for _, pr := range pairs {
			var act []*lane
			var ballot uint64
			for k := 0; k < 32; k++ {
				if rng.Intn(4) == 0 {
					continue
				}
				v := uint64(rng.Uint32())
				if ty == f32t {
					v = uint64(math.Float32bits(float32(rng.NormFloat64() * 1000)))
				}
				// slots: 0 value, 1-2 ballot, 3 result
				act = append(act, &lane{sgl: k, regs: []uint64{v, 0, 0, 0}})
				ballot |= 1 << k
			}
			for _, l := range act {
				l.regs[1], l.regs[2] = ballot&0xffffffff, ballot>>32
			}
			ref := make([]*lane, len(act))
			for i, l := range act {
				ref[i] = &lane{sgl: l.sgl, regs: append([]uint64(nil), l.regs...)}
			}
			fast := &instr{op: op, t: ty, at: ty, a: []int32{0}, res: 3, lit: []uint32{uint32(pr[0])}}
			slow := &instr{op: op, t: ty, at: ty, a: []int32{0, 1}, res: 3, lit: []uint32{uint32(pr[1])}}
			if err := groupArith(fast, act, act); err != nil {
				t.Fatal(err)
			}
			if err := groupArith(slow, ref, ref); err != nil {
				t.Fatal(err)
			}
			for i := range act {
				if act[i].regs[3] != ref[i].regs[3] {
					t.Fatalf("%v %v lane %d: %#x, general %#x", op, pr[0], act[i].sgl, act[i].regs[3], ref[i].regs[3])
				}
			}
		}
	}
}
