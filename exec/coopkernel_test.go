package exec

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// refMulAdd is the element-by-element multiply-add the blocked kernels
// replaced, kept as the definition they must match bit for bit. The
// conversions of the products keep them unfused, as the default amd64
// build (GOAMD64=v1) ran the old code; with v3 the compiler would fuse.
func refMulAdd(cm *coopMul, rt *typ, A, B, C []uint64, M, N, K int) []uint64 {
	at, bt, ctp := cm.a.elem, cm.b.elem, cm.c.elem
	D := make([]uint64, M*N)
	switch {
	case rt.kind == kFloat && rt.ff == f32 && at.kind == kFloat && bt.kind == kFloat && at.width <= 16 && bt.width <= 16 && ctp.kind == kFloat:
		for i := 0; i < M; i++ {
			for j := 0; j < N; j++ {
				acc := toF32(C[i*N+j], ctp.ff)
				for k := 0; k < K; k++ {
					acc += float32(toF32(A[i*K+k], at.ff) * toF32(B[k*N+j], bt.ff))
				}
				D[i*N+j] = uint64(math.Float32bits(acc))
				if acc != acc {
					D[i*N+j] = fmtDescs[f32].nan
				}
			}
		}
	case rt.kind == kFloat:
		for i := 0; i < M; i++ {
			for j := 0; j < N; j++ {
				acc := fround(toF64(C[i*N+j], ctp.ff), rt.ff)
				for k := 0; k < K; k++ {
					prod := float64(toF64(A[i*K+k], at.ff) * toF64(B[k*N+j], bt.ff))
					acc = fround(toF64(acc, rt.ff)+prod, rt.ff)
				}
				D[i*N+j] = acc
			}
		}
	default:
		w := rt.width
		ext := func(v uint64, t *typ, signed bool) int64 {
			if t.kind == kFloat {
				return int64(toF64(v, t.ff))
			}
			if signed {
				return sext(v, t.width)
			}
			return int64(v & mask(t.width))
		}
		for i := 0; i < M; i++ {
			for j := 0; j < N; j++ {
				sum := int64(0)
				for k := 0; k < K; k++ {
					sum += ext(A[i*K+k], at, cm.sa) * ext(B[k*N+j], bt, cm.sb)
				}
				c := ext(C[i*N+j], ctp, cm.sc)
				if !cm.sat {
					D[i*N+j] = uint64(c+sum) & mask(w)
					continue
				}
				D[i*N+j] = satAdd(c, sum, w, cm.sr)
			}
		}
	}
	return D
}

func scalarT(name string) *typ {
	var t *typ
	switch name {
	case "f16":
		t = &typ{kind: kFloat, width: 16, ff: f16}
	case "bf16":
		t = &typ{kind: kFloat, width: 16, ff: bf16}
	case "e4m3":
		t = &typ{kind: kFloat, width: 8, ff: e4m3}
	case "e5m2":
		t = &typ{kind: kFloat, width: 8, ff: e5m2}
	case "f32":
		t = &typ{kind: kFloat, width: 32, ff: f32}
	case "f64":
		t = &typ{kind: kFloat, width: 64, ff: f64}
	case "i4", "u4":
		t = &typ{kind: kInt, width: 4, signed: name == "i4"}
	default:
		var w int
		fmt.Sscanf(name[1:], "%d", &w)
		t = &typ{kind: kInt, width: w, signed: name[0] == 'i'}
	}
	t.slots = 1
	t.finishLayout()
	return t
}

func coopT(elem *typ, rows, cols, sg int) *typ {
	n := coopLen(rows, cols, sg)
	t := &typ{kind: kCoopMat, elem: elem, rows: rows, cols: cols, count: n, slots: n}
	t.finishLayout()
	return t
}

// randElems draws matrix elements of type t: any bits, or (nice) small
// values whose sums stay finite.
func randElems(r *rand.Rand, t *typ, n int, nice bool) []uint64 {
	v := make([]uint64, n)
	for k := range v {
		switch {
		case t.kind == kInt || !nice:
			v[k] = r.Uint64() & mask(t.width)
		default:
			x := float64(r.IntN(64)-32) / 8
			if r.IntN(4) == 0 {
				x = r.NormFloat64() * math.Ldexp(1, r.IntN(20)-10)
			}
			v[k] = fromF64(x, t.ff, rne, true)
		}
	}
	return v
}

// runMulAdd runs coopMulAdd on a subgroup of sg lanes holding the
// operands, with the result left in the lanes or (tiles) in a tile.
func runMulAdd(cm *coopMul, rt *coopMatT, A, B, C []uint64, sg int, tiles bool) []uint64 {
	ta, tb, tc := cm.a, cm.b, cm.c
	cm.slotA = 1
	cm.slotB = cm.slotA + int32(ta.slots)
	cm.slotC = cm.slotB + int32(tb.slots)
	res := cm.slotC + int32(tc.slots)
	nslots := int(res) + rt.t.slots
	wg := &wgState{}
	lanes := make([]*lane, sg)
	for i := range lanes {
		lanes[i] = &lane{regs: make([]uint64, nslots), wg: wg}
	}
	scatter(lanes, cm.slotA, A)
	scatter(lanes, cm.slotB, B)
	scatter(lanes, cm.slotC, C)
	in := &instr{t: rt.t, res: res, aux: cm}
	io := matIO{act: lanes}
	if tiles {
		io.m = &sgMeta{sg: lanes, st: make([]uint8, nslots), tiles: make([]*tile, nslots)}
	}
	if err := coopMulAdd(in, io); err != nil {
		panic(err)
	}
	D := make([]uint64, rt.t.rows*rt.t.cols)
	if t := io.tileAt(res); t != nil {
		copy(D, t.bits())
	} else {
		gather(lanes, res, D)
	}
	return D
}

type coopMatT struct{ t *typ }

// TestMulAddKernels compares the blocked kernels with the element-by-
// element definition on random operands, for every combination of
// component types the executor's multiply-add takes and many shapes.
func TestMulAddKernels(t *testing.T) {
	loadF16Table()
	type combo struct{ a, b, c, r string }
	var combos []combo
	floats := []string{"f16", "bf16", "e4m3", "e5m2"}
	for _, a := range floats {
		for _, b := range floats {
			combos = append(combos, combo{a, b, "f32", "f32"}, combo{a, b, "f16", "f32"})
		}
		combos = append(combos, combo{a, a, "f16", "f16"}, combo{a, a, "bf16", "bf16"})
	}
	combos = append(combos,
		combo{"f32", "f32", "f32", "f32"}, combo{"f64", "f64", "f64", "f64"}, combo{"f16", "f16", "f32", "f16"},
		combo{"f32", "f16", "f32", "f32"}, combo{"e4m3", "e4m3", "e4m3", "e4m3"}, combo{"e5m2", "e5m2", "e5m2", "e5m2"},
		combo{"f16", "f16", "f64", "f64"}, combo{"f32", "f32", "f64", "f64"},
		combo{"u8", "u8", "u32", "u32"}, combo{"i8", "i8", "i32", "i32"}, combo{"i8", "u8", "i32", "i32"},
		combo{"u8", "i8", "u32", "u32"}, combo{"i8", "i8", "i16", "i16"}, combo{"i8", "i8", "i8", "i8"},
		combo{"u8", "u8", "u8", "u8"}, combo{"i4", "i4", "i32", "i32"}, combo{"u4", "i4", "i32", "i32"},
		combo{"i4", "i4", "i4", "i4"}, combo{"i16", "i16", "i32", "i32"}, combo{"i32", "i32", "i32", "i32"},
		combo{"i32", "i32", "i64", "i64"}, combo{"i64", "i64", "i64", "i64"}, combo{"u32", "u32", "u64", "u64"},
		combo{"f16", "f16", "i32", "i32"})
	shapes := [][3]int{{16, 16, 16}, {16, 8, 16}, {8, 8, 8}, {32, 32, 32}, {16, 16, 32}, {1, 1, 1}, {3, 5, 7},
		{4, 16, 4}, {20, 24, 12}, {12, 40, 3}, {64, 64, 16}, {17, 33, 9}, {8, 16, 600}}
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range combos {
		for si, sh := range shapes {
			M, N, K := sh[0], sh[1], sh[2]
			if testing.Short() && si > 6 {
				break
			}
			for trial := 0; trial < 4; trial++ {
				sg := []int{32, 16, 4, 1}[trial]
				at, bt, ct, rtp := scalarT(c.a), scalarT(c.b), scalarT(c.c), scalarT(c.r)
				cm := &coopMul{a: coopT(at, M, K, sg), b: coopT(bt, K, N, sg), c: coopT(ct, M, N, sg)}
				if rtp.kind == kInt {
					cm.sa, cm.sb, cm.sc, cm.sr = r.IntN(2) == 0, r.IntN(2) == 0, r.IntN(2) == 0, r.IntN(2) == 0
					cm.sat = trial%2 == 1
				}
				rt := &coopMatT{coopT(rtp, M, N, sg)}
				nice := trial < 3
				A, B, C := randElems(r, at, M*K, nice), randElems(r, bt, K*N, nice), randElems(r, ct, M*N, nice)
				want := refMulAdd(cm, rt.t.elem, A, B, C, M, N, K)
				for _, tiles := range []bool{false, true} {
					got := runMulAdd(cm, rt, A, B, C, sg, tiles)
					for e := range want {
						if got[e] != want[e] {
							t.Fatalf("%v %dx%dx%d sg %d tiles %v signs %v%v%v%v sat %v: element (%d, %d) is %#x, want %#x",
								c, M, N, K, sg, tiles, cm.sa, cm.sb, cm.sc, cm.sr, cm.sat, e/N, e%N, got[e], want[e])
						}
					}
				}
			}
		}
	}
}

// TestRoundBinary checks the fast roundings against the general encoder.
func TestRoundBinary(t *testing.T) {
	loadF16Table()
	for h := 0; h < 1<<16; h++ {
		x := toF64(uint64(h), f16)
		if x != x {
			continue
		}
		if got := halfBits(x); got != uint64(h) {
			t.Fatalf("half %#04x: halfBits gives %#04x", h, got)
		}
		if got, want := halfBits(roundF16(x)), fmtDescs[f16].nf.Encode(x, 0, false); got != want {
			t.Fatalf("half %#04x: rounds to %#04x, want %#04x", h, got, want)
		}
		// The midpoint to the next half up, and the values next to it
		// and to the half itself.
		if h&0x7fff < 0x7c00 {
			up := toF64(uint64(h+1), f16)
			if h&0x7fff == 0x7bff {
				up = math.Copysign(65536, x)
			}
			mid := (x + up) / 2
			for _, v := range []float64{mid, math.Nextafter(mid, 0), math.Nextafter(mid, math.Inf(1)), math.Nextafter(mid, math.Inf(-1)),
				math.Nextafter(x, 0), math.Nextafter(x, math.Inf(1)), math.Nextafter(x, math.Inf(-1))} {
				if got, want := halfBits(roundF16(v)), fmtDescs[f16].nf.Encode(v, 0, false); got != want {
					t.Fatalf("%v (%#x) rounds to %#04x, want %#04x", v, math.Float64bits(v), got, want)
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, f := range []ffmt{f16, bf16} {
		rnd := rounder(f)
		check := func(x float64) {
			wantBits := fmtDescs[f].nf.Encode(x, 0, false)
			if x != x {
				wantBits = fmtDescs[f].nan
			}
			want := toF64(wantBits, f)
			got := rnd(x)
			if math.Float64bits(got) != math.Float64bits(want) && !(got != got && want != want) {
				t.Fatalf("format %d: %v (%#x) rounds to %v, want %v", f, x, math.Float64bits(x), got, want)
			}
			if f == f16 && fromF64(x, f16, rne, false) != wantBits {
				t.Fatalf("fromF64(%v) = %#x, want %#x", x, fromF64(x, f16, rne, false), wantBits)
			}
		}
		for k := 0; k < 200000; k++ {
			check(math.Float64frombits(r.Uint64()))
			// Values near the format's range: exponents -30 to 20 for
			// half, -140 to 130 for bfloat16, with ties made often.
			e := r.IntN(51) - 30
			if f == bf16 {
				e = r.IntN(271) - 140
			}
			m := float64(r.Uint64()>>40) / (1 << 24)
			check(math.Copysign(math.Ldexp(1+m, e), float64(r.IntN(2)*2-1)))
			check(math.Ldexp(float64(r.IntN(1<<14)|1), e-12))
		}
		for _, x := range []float64{0, math.Copysign(0, -1), 65504, 65519.99, 65520, 65536, -65520, math.Inf(1), math.Inf(-1), math.NaN(),
			0x1p-24, 0x1p-25, 0x1.8p-25, 0x1p-26, 0x1.fep127, 0x1.ffp127, 0x1p-133, 0x1p-134, 0x1.8p-134} {
			check(x)
		}
	}
}

// BenchmarkMulAdd times one subgroup multiply-add of each common kind
// through coopMulAdd, operands and result in tiles (lockstep). cpu-ns/op
// is the process's CPU time per operation, which other processes sharing
// the machine do not inflate as they do ns/op.
func BenchmarkMulAdd(b *testing.B) {
	loadF16Table()
	for _, c := range []struct {
		name    string
		a, c, r string
		M, N, K int
	}{
		{"f16_f32_16x16x16", "f16", "f32", "f32", 16, 16, 16},
		{"f16_f32_64x64x64", "f16", "f32", "f32", 64, 64, 64},
		{"f16_f16_16x16x16", "f16", "f16", "f16", 16, 16, 16},
		{"f32_f32_16x16x16", "f32", "f32", "f32", 16, 16, 16},
		{"i8_i32_16x16x32", "i8", "i32", "i32", 16, 16, 32},
	} {
		b.Run(c.name, func(b *testing.B) {
			r := rand.New(rand.NewPCG(5, 6))
			M, N, K := c.M, c.N, c.K
			at, ct, rtp := scalarT(c.a), scalarT(c.c), scalarT(c.r)
			cm := &coopMul{a: coopT(at, M, K, 32), b: coopT(at, K, N, 32), c: coopT(ct, M, N, 32), sa: true, sb: true, sc: true, sr: true}
			rt := &coopMatT{coopT(rtp, M, N, 32)}
			A, B, C := randElems(r, at, M*K, true), randElems(r, at, K*N, true), randElems(r, ct, M*N, true)
			cm.slotA = 1
			cm.slotB = cm.slotA + int32(cm.a.slots)
			cm.slotC = cm.slotB + int32(cm.b.slots)
			res := cm.slotC + int32(cm.c.slots)
			nslots := int(res) + rt.t.slots
			wg := &wgState{}
			lanes := make([]*lane, 32)
			for i := range lanes {
				lanes[i] = &lane{regs: make([]uint64, nslots), wg: wg}
			}
			in := &instr{t: rt.t, res: res, aux: cm}
			m := &sgMeta{sg: lanes, st: make([]uint8, nslots), tiles: make([]*tile, nslots)}
			io := matIO{act: lanes, m: m}
			// The operands as a lockstep subgroup holds them after loads:
			// whole tiles, their float32 values made once.
			for _, op := range []struct {
				slot int32
				t    *typ
				v    []uint64
			}{{cm.slotA, cm.a, A}, {cm.slotB, cm.b, B}, {cm.slotC, cm.c, C}} {
				tl := &tile{mt: op.t, raw: op.v, has: hasRaw}
				m.tiles[op.slot] = tl
				setSt(m.st, op.slot, int32(op.t.slots), sTile)
				if op.t.elem.kind == kFloat && op.t.elem.width <= 32 {
					io.f32(op.slot, op.t.elem.ff, nil)
				}
			}
			b.ReportAllocs()
			cpu0 := cpuTime()
			for b.Loop() {
				m.used = 0
				setSt(m.st, res, int32(rt.t.slots), sVar)
				if err := coopMulAdd(in, io); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(2*M*N*K)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
			if cpu0 >= 0 {
				b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
			}
		})
	}
}

// TestLoadHalves checks the bulk half loader against the table on every
// half, at every alignment of the vector part.
func TestLoadHalves(t *testing.T) {
	loadF16Table()
	const n = 1 << 16
	src := make([]byte, 2*n+2)
	for h := 0; h < n; h++ {
		src[2*h], src[2*h+1] = byte(h), byte(h>>8)
	}
	for _, skip := range []int{0, 1} {
		for _, cnt := range []int{n - skip, 13, 8, 7} {
			raw, f := make([]uint64, cnt), make([]float32, cnt)
			loadHalves(src[2*skip:], raw, f)
			for k := range raw {
				h := uint16(k + skip)
				want := f16Table[h]
				if raw[k] != uint64(h) || math.Float32bits(f[k]) != math.Float32bits(want) && !(f[k] != f[k] && want != want) {
					t.Fatalf("half %#04x: bits %#x, value %v (want %v)", h, raw[k], f[k], want)
				}
			}
		}
	}
}

// TestLoadHalvesRows checks the strided loader against row-by-row loads,
// for shapes the vector path takes and those it leaves to the loop.
func TestLoadHalvesRows(t *testing.T) {
	loadF16Table()
	r := rand.New(rand.NewPCG(7, 8))
	for _, c := range []struct{ R, C, ls int }{{16, 16, 64}, {16, 16, 1024}, {8, 32, 64}, {4, 8, 18}, {3, 12, 30}, {16, 16, 32}, {1, 8, 16}} {
		src := make([]byte, (c.R-1)*c.ls+2*c.C)
		for k := range src {
			src[k] = byte(r.Uint32())
		}
		raw, f := make([]uint64, c.R*c.C), make([]float32, c.R*c.C)
		loadHalvesRows(src, c.ls, c.R, c.C, raw, f)
		for i := 0; i < c.R; i++ {
			for j := 0; j < c.C; j++ {
				h := uint16(src[i*c.ls+2*j]) | uint16(src[i*c.ls+2*j+1])<<8
				e := i*c.C + j
				want := f16Table[h]
				if raw[e] != uint64(h) || math.Float32bits(f[e]) != math.Float32bits(want) && !(f[e] != f[e] && want != want) {
					t.Fatalf("%dx%d stride %d: element (%d, %d) bits %#x value %v, want %#x %v", c.R, c.C, c.ls, i, j, raw[e], f[e], h, want)
				}
			}
		}
	}
}

// TestF16Panel checks the vector half-accumulator kernel (and the
// float32 one) against the scalar steps, on operands of every kind: all halves (zeros,
// subnormals, infinities, NaNs), float32 and float64 values around the
// half range and its overflow, products that round to signed zeros.
func TestF16Panel(t *testing.T) {
	loadF16Table()
	r := rand.New(rand.NewPCG(9, 10))
	val := func() float64 {
		switch r.IntN(4) {
		case 0:
			return toF64(uint64(r.IntN(1<<16)), f16)
		case 1:
			return math.Copysign(math.Ldexp(1+r.Float64(), r.IntN(60)-40), float64(r.IntN(2)*2-1))
		case 2:
			return float64(math.Float32frombits(r.Uint32()))
		}
		return []float64{0, math.Copysign(0, -1), 65504, -65504, 65519.99, 65520, 0x1p-24, -0x1p-25, 0x1p-14, 0x1.ffcp-15, math.Inf(1), math.NaN()}[r.IntN(12)]
	}
	for it := 0; it < 3000; it++ {
		M, N, K := 1+r.IntN(5), 1+r.IntN(13), 1+r.IntN(9)
		a, b, acc := make([]float64, M*K), make([]float64, K*N), make([]float64, M*N)
		for _, s := range [][]float64{a, b, acc} {
			for k := range s {
				s[k] = val()
			}
		}
		for k := range acc {
			acc[k] = roundF16(acc[k])
		}
		want := append([]float64(nil), acc...)
		n4 := accPanel(f16, a, b, acc, M, N, K)
		for i := 0; i < M; i++ {
			for j := 0; j < n4; j++ {
				for k := 0; k < K; k++ {
					want[i*N+j] = roundF16(want[i*N+j] + float64(a[i*K+k]*b[k*N+j]))
				}
				g, w := acc[i*N+j], want[i*N+j]
				if math.Float64bits(g) != math.Float64bits(w) && !(g != g && w != w) {
					t.Fatalf("%dx%dx%d: element (%d, %d) is %v (%#x), want %v (%#x)", M, N, K, i, j, g, math.Float64bits(g), w, math.Float64bits(w))
				}
			}
		}
		// The float32 kernel on the same operands, from accumulators
		// rounded to float32.
		for k := range acc {
			acc[k] = float64(float32(val()))
		}
		want = append(want[:0], acc...)
		n4 = accPanel(f32, a, b, acc, M, N, K)
		for i := 0; i < M; i++ {
			for j := 0; j < n4; j++ {
				for k := 0; k < K; k++ {
					want[i*N+j] = float64(float32(want[i*N+j] + float64(a[i*K+k]*b[k*N+j])))
				}
				g, w := acc[i*N+j], want[i*N+j]
				if math.Float64bits(g) != math.Float64bits(w) && !(g != g && w != w) {
					t.Fatalf("float32 %dx%dx%d: element (%d, %d) is %v (%#x), want %v (%#x)", M, N, K, i, j, g, math.Float64bits(g), w, math.Float64bits(w))
				}
			}
		}
	}
}

// TestMulAddF32Apart checks that mulAddF32Blocked reading its accumulator
// from c and writing d (a multiply-add's new tile) leaves c as it was and
// gives d what the same call in place gives, on shapes the vector panels
// cover, shapes with edges they leave to the loops, and k longer than a
// block.
func TestMulAddF32Apart(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, sh := range [][3]int{{16, 16, 16}, {32, 32, 32}, {17, 33, 9}, {4, 8, 3}, {3, 5, 7}, {8, 16, 600}, {4, 4, 0}} {
		M, N, K := sh[0], sh[1], sh[2]
		fill := func(n int) []float32 {
			v := make([]float32, n)
			for i := range v {
				v[i] = float32(r.IntN(64)-32) / 8
			}
			return v
		}
		a, b, c := fill(M*K), fill(K*N), fill(M*N)
		c0 := slices.Clone(c)
		in := slices.Clone(c)
		mulAddF32Blocked(a, b, in, in, M, N, K)
		d := fill(M * N)
		mulAddF32Blocked(a, b, c, d, M, N, K)
		if !slices.Equal(c, c0) {
			t.Errorf("%v: c changed", sh)
		}
		if !slices.Equal(d, in) {
			t.Errorf("%v: d differs from the result in place", sh)
		}
	}
}
