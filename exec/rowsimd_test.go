package exec

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/coopshader/coop/spirv"
)

// The vector row kernels against their scalar twins (rowsimd.go), bit
// for bit: every kernel, random and special values, every length up to
// 67 and some long ones, the second operand a row or one value, and the
// result row the same as an operand. Without the kernels (purego, or a
// processor without AVX2) the loops under test are the twins themselves.

var (
	tI8   = &typ{kind: kInt, width: 8}
	tI16  = &typ{kind: kInt, width: 16}
	tI32  = &typ{kind: kInt, width: 32}
	tI64  = &typ{kind: kInt, width: 64}
	tF16  = &typ{kind: kFloat, width: 16, ff: f16}
	tF32  = &typ{kind: kFloat, width: 32, ff: f32}
	tBool = &typ{kind: kBool, width: 1}
)

// simdCase is one operation: its twin as pickRow chooses it and the
// loop vecBin or vecUn makes of it.
type simdCase struct {
	name      string
	ct, act   *typ
	bin, vbin rowBin
	un, vun   func(d, a []uint64)
}

func simdCases() []simdCase {
	loadF16Table()
	var cs []simdCase
	addBin := func(op spirv.Op, ct, act *typ) {
		var twin rowBin
		switch {
		case ct.kind == kInt:
			if twin, _ = rowIntBin(op, ct.width); twin == nil {
				twin = elemBin(pickIntBin(op, ct.width))
			}
		case ct.kind == kBool && act.kind == kInt:
			if twin, _ = rowIntCmp(op, act.width); twin == nil {
				twin = elemBin(pickIntCmp(op, act.width))
			}
		case ct.kind == kBool && act.kind == kBool:
			twin = elemBin(pickBoolBin(op))
		case ct.kind == kFloat && ct.ff == f16:
			twin = elemBin(pickF16Bin(op))
		case ct.kind == kFloat:
			if twin, _ = rowF32Bin(op); twin == nil {
				twin = elemBin(pickF32Bin(op))
			}
		default:
			twin = elemBin(pickF32Cmp(op))
		}
		in := &instr{op: op}
		cs = append(cs, simdCase{name: fmt.Sprintf("%v/%d", op, act.width), ct: ct, act: act, bin: twin, vbin: vecBin(in, ct, act, twin)})
	}
	for _, t := range []*typ{tI8, tI16, tI32, tI64} {
		for _, op := range []spirv.Op{spirv.OpIAdd, spirv.OpISub, spirv.OpIMul, spirv.OpBitwiseAnd, spirv.OpBitwiseOr,
			spirv.OpBitwiseXor, spirv.OpShiftLeftLogical, spirv.OpShiftRightLogical, spirv.OpShiftRightArithmetic} {
			addBin(op, t, t)
		}
		for op := spirv.OpIEqual; op <= spirv.OpSLessThanEqual; op++ {
			addBin(op, tBool, t)
		}
	}
	for _, op := range []spirv.Op{spirv.OpFAdd, spirv.OpFSub, spirv.OpFMul, spirv.OpFDiv} {
		addBin(op, tF32, tF32)
	}
	for _, op := range []spirv.Op{spirv.OpFAdd, spirv.OpFSub, spirv.OpFMul, spirv.OpFDiv} {
		addBin(op, tF16, tF16)
	}
	for _, op := range []spirv.Op{spirv.OpLogicalAnd, spirv.OpLogicalOr, spirv.OpLogicalEqual, spirv.OpLogicalNotEqual} {
		addBin(op, tBool, tBool)
	}
	for _, c := range fcmpOutcomes {
		addBin(c.op, tBool, tF32)
	}
	for _, g := range []struct {
		name string
		sub  uint32
		k    int
	}{{"GLSLFMin/32", spirv.GLSLstd450FMin, vF32Min}, {"GLSLFMax/32", spirv.GLSLstd450FMax, vF32Max}} {
		twin := elemBin(glslF32(g.sub))
		cs = append(cs, simdCase{name: g.name, ct: tF32, act: tF32, bin: twin, vbin: withTailOr(g.k, glslF32(g.sub))})
	}
	addUn := func(op spirv.Op, ct, act *typ) {
		in := &instr{op: op, sub: uint32(rne)}
		twin := rowConv(in, ct, act)
		if twin == nil {
			twin = elemUn(pickConv(in, ct, act))
		}
		cs = append(cs, simdCase{name: fmt.Sprintf("%v/%d-%d", op, ct.width, act.width), ct: ct, act: act, un: twin, vun: vecUn(in, ct, act, twin)})
	}
	for _, t := range []*typ{tI8, tI16, tI32, tI64} {
		for _, u := range []*typ{tI8, tI16, tI32, tI64} {
			addUn(spirv.OpUConvert, t, u)
		}
		for _, u := range []*typ{tI8, tI16, tI32} {
			addUn(spirv.OpSConvert, t, u)
		}
		addUn(spirv.OpNot, t, t)
		addUn(spirv.OpSNegate, t, t)
	}
	addUn(spirv.OpFNegate, tF32, tF32)
	addUn(spirv.OpFNegate, tF16, tF16)
	addUn(spirv.OpLogicalNot, tBool, tBool)
	addUn(spirv.OpConvertSToF, tF32, tI32)
	addUn(spirv.OpConvertFToS, tI32, tF32)
	addUn(spirv.OpConvertFToU, tI32, tF32)
	addUn(spirv.OpConvertUToF, tF32, tI32)
	addUn(spirv.OpFConvert, tF32, tF16)
	addUn(spirv.OpFConvert, tF16, tF32)
	slices.SortFunc(cs, func(x, y simdCase) int {
		if x.name < y.name {
			return -1
		}
		return 1
	})
	return cs
}

// specials are values that try the kernels' edges: float32 NaN
// payloads, infinities, signed zeros, denormals, integers at their
// widths' limits, and bits above a value's width.
var specials = []uint64{
	0, 1, 2, 31, 32, 33, 63, 64, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff,
	0x7fffffff, 0x80000000, 0xffffffff, 0x100000000, 0xffffffff80000000,
	1 << 63, 1<<63 - 1, ^uint64(0),
	0x3f800000, 0xbf800000, 0x80000000, 0x7f800000, 0xff800000, // ±1, -0, ±inf
	0x7fc00000, 0x7f800001, 0x7fbfffff, 0xffc00001, 0x7fffffff, // NaNs
	0x00000001, 0x007fffff, 0x80000001, 0x807fffff, 0x00800000, // denormals, least normal
	0x7f7fffff, 0xff7fffff, 0x33800000, 0x4b000000, 0xcf000000, 0x4f000000, 0x4effffff, 0xcf000001, 0x4f800000, 0x4f7fffff, 0x3f7fffff, 0xbf7fffff,
	0x0000000100000001, 0xdeadbeef3f800000,
	0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe01, 0x0001, 0x03ff, 0x8001, 0x3c00, 0x7bff, 0x0400, // halves
	0x477fe000, 0x477fefff, 0x477ff000, 0x33000000, 0x33000001, 0x337fffff, 0x387fc000, 0x387fe000, // float32s at halves' edges
}

func simdValue(rng *rand.Rand) uint64 {
	switch rng.IntN(6) {
	case 5:
		// Float32s of halves' range, so that narrowing rounds.
		return uint64(rng.Uint32N(40)+100)<<23 | uint64(rng.Uint32N(1<<23)) | uint64(rng.Uint32N(2))<<31
	case 0, 1:
		return specials[rng.IntN(len(specials))]
	case 2:
		return rng.Uint64()
	case 3:
		return uint64(rng.Uint32())
	}
	// Nearby float32s, so that sums and differences round and cancel.
	return uint64(0x3f000000 + rng.Uint32N(1<<25) + rng.Uint32N(2)<<31)
}

// checkCase runs c on a and b (b nil: the value u) at lengths up to
// len(a), in fresh rows and in place, and reports the first difference.
func checkCase(c simdCase, a, b []uint64, u uint64) error {
	if c.un != nil {
		b = nil
	}
	n := len(a)
	want, got := make([]uint64, n), make([]uint64, n)
	run := func(vec bool, d, a, b []uint64) {
		switch {
		case c.un != nil && vec:
			c.vun(d, a)
		case c.un != nil:
			c.un(d, a)
		case vec:
			c.vbin(d, a, b, u)
		default:
			c.bin(d, a, b, u)
		}
	}
	diff := func(how string) error {
		for i := range want {
			if want[i] != got[i] {
				return fmt.Errorf("%s, %s, %d lanes: lane %d of a %#x b %v c %#x: got %#x, want %#x",
					c.name, how, n, i, a[i], laneOf(b, i), u, got[i], want[i])
			}
		}
		return nil
	}
	run(false, want, a, b)
	run(true, got, a, b)
	if err := diff("new row"); err != nil {
		return err
	}
	copy(got, a)
	run(true, got, got, b)
	if err := diff("d = a"); err != nil {
		return err
	}
	if b != nil {
		copy(got, b)
		run(true, got, a, got)
		return diff("d = b")
	}
	return nil
}

func laneOf(b []uint64, i int) string {
	if b == nil {
		return "nil"
	}
	return fmt.Sprintf("%#x", b[i])
}

func TestRowKernels(t *testing.T) {
	if binKerns[vF32Add] == nil {
		t.Log("no vector row kernels here: the twins are checked against themselves")
	}
	rng := rand.New(rand.NewPCG(14, 1))
	lengths := []int{256, 1000, 1027}
	for n := 0; n <= 67; n++ {
		lengths = append(lengths, n)
	}
	for _, c := range simdCases() {
		for _, n := range lengths {
			for rep := 0; rep < 3; rep++ {
				a, b := make([]uint64, n), make([]uint64, n)
				for i := range a {
					a[i], b[i] = simdValue(rng), simdValue(rng)
				}
				if err := checkCase(c, a, b, 0); err != nil {
					t.Fatal(err)
				}
				// Values of 32 bits at most, as 32-bit slots hold.
				a32, b32 := slices.Clone(a), slices.Clone(b)
				for i := range a32 {
					a32[i], b32[i] = a32[i]&0xffffffff, b32[i]&0xffffffff
				}
				if err := checkCase(c, a32, b32, 0); err != nil {
					t.Fatal(err)
				}
				if c.un == nil {
					if err := checkCase(c, a, nil, simdValue(rng)); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
}

// TestRowKernelSpecials crosses every special value with every other,
// in each lane position of a vector.
func TestRowKernelSpecials(t *testing.T) {
	var a, b []uint64
	for _, x := range specials {
		for _, y := range specials {
			a, b = append(a, x), append(b, y)
		}
	}
	for _, c := range simdCases() {
		for s := 0; s < 4; s++ {
			if err := checkCase(c, a[s:], b[s:], 0); err != nil {
				t.Fatal(err)
			}
		}
		if c.un != nil {
			continue
		}
		for _, u := range specials {
			if err := checkCase(c, a, nil, u); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestRowSelect(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 2))
	for n := 0; n <= 300; n++ {
		c, a, b := make([]uint64, n), make([]uint64, n), make([]uint64, n)
		for i := range c {
			c[i], a[i], b[i] = specials[rng.IntN(4)]<<(rng.IntN(2)*40), rng.Uint64(), rng.Uint64()
		}
		want, got := make([]uint64, n), make([]uint64, n)
		selectRows(want, c, a, b)
		vecSelect(got, c, a, b)
		if !slices.Equal(want, got) {
			t.Fatalf("%d lanes: got %x, want %x", n, got, want)
		}
		copy(got, c)
		vecSelect(got, got, a, b)
		if !slices.Equal(want, got) {
			t.Fatalf("%d lanes, d = c: got %x, want %x", n, got, want)
		}
	}
}

// FuzzRowKernels: the first byte picks the operation, the second the
// form (second operand a row or one value), the rest are the lanes.
func FuzzRowKernels(f *testing.F) {
	cs := simdCases()
	f.Add([]byte{0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	seed := make([]byte, 2+16*7)
	for i, v := range specials[:16*7/8] {
		binary.LittleEndian.PutUint64(seed[2+8*i:], v)
	}
	for k := range cs {
		seed[0] = byte(k)
		f.Add(slices.Clone(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		c, uni := cs[int(data[0])%len(cs)], data[1]&1 == 1 && cs[int(data[0])%len(cs)].un == nil
		words := make([]uint64, (len(data)-2+7)/8)
		for i := range words {
			var w [8]byte
			copy(w[:], data[2+8*i:])
			words[i] = binary.LittleEndian.Uint64(w[:])
		}
		if uni {
			if len(words) == 0 {
				return
			}
			if err := checkCase(c, words[1:], nil, words[0]); err != nil {
				t.Fatal(err)
			}
			return
		}
		h := len(words) / 2
		if c.un != nil {
			h = len(words)
		}
		b := words[h:]
		if c.un == nil {
			b = b[:h]
		}
		if err := checkCase(c, words[:h], b, 0); err != nil {
			t.Fatal(err)
		}
	})
}

// BenchmarkRowKernels times some kernels and their twins on rows of 256
// lanes (ns/lane).
func BenchmarkRowKernels(b *testing.B) {
	const n = 256
	rng := rand.New(rand.NewPCG(14, 3))
	x, y, d := make([]uint64, n), make([]uint64, n), make([]uint64, n)
	for i := range x {
		x[i], y[i] = uint64(0x3f000000+rng.Uint32N(1<<24)), uint64(0x3f000000+rng.Uint32N(1<<24))
	}
	want := map[string]bool{"OpFAdd/32": true, "OpFMul/32": true, "OpIAdd/32": true, "OpSLessThan/32": true,
		"OpFOrdLessThan/32": true, "OpShiftRightLogical/32": true, "OpConvertSToF/32-32": true,
		"OpFAdd/16": true, "OpFConvert/32-16": true, "GLSLFMax/32": true}
	for _, c := range simdCases() {
		if !want[c.name] {
			continue
		}
		for _, form := range []string{"rows", "uniform"} {
			if form == "uniform" && c.un != nil {
				continue
			}
			for _, vec := range []bool{false, true} {
				name := c.name + "/" + form + "/scalar"
				if vec {
					name = c.name + "/" + form + "/vector"
				}
				b.Run(name, func(b *testing.B) {
					yy := y
					if form == "uniform" {
						yy = nil
					}
					for range b.N {
						switch {
						case c.un != nil && vec:
							c.vun(d, x)
						case c.un != nil:
							c.un(d, x)
						case vec:
							c.vbin(d, x, yy, 0x3f800000)
						default:
							c.bin(d, x, yy, 0x3f800000)
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/lane")
				})
			}
		}
	}
	for _, vec := range []bool{false, true} {
		b.Run(fmt.Sprintf("OpSelect/vector=%v", vec), func(b *testing.B) {
			for range b.N {
				if vec {
					vecSelect(d, x, x, y)
				} else {
					selectRows(d, x, x, y)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/lane")
		})
	}
}
