package exec

import (
	"math"

	"github.com/coopshader/coop/internal/lazy"
)

// Blocked kernels of the cooperative multiply-adds. Each keeps the
// arithmetic of the element-by-element definition exactly: for floats,
// every element's accumulator takes its products in increasing k, rounded
// after each addition, so blocking only reorders work between elements
// (and splits k into chunks whose partial sums stay in the accumulator,
// in order); integer sums wrap in 64 bits, where order does not matter.
// Operands are converted once per call, in bulk, not once per product.

// kBlock is how much of k one pass takes: a 16-column panel of B of that
// many rows (16 KiB of float32) stays in the first-level cache.
const kBlock = 256

// mulAddF32Blocked sets d to c + a*b (M x K, K x N, M x N, row-major):
// d[i][j] = c[i][j] + a[i][k]*b[k][j] for k in increasing order, each
// product and sum rounded to float32 (never fused: row16F32 says why). c
// and d may be the same slice; reading c while writing d saves the copy
// of the accumulator a new result would otherwise start with.
func mulAddF32Blocked(a, b, c, d []float32, M, N, K int) {
	if K == 0 {
		copy(d[:M*N], c[:M*N])
		return
	}
	src := c
	for k0 := 0; k0 < K; k0 += kBlock {
		k1 := min(k0+kBlock, K)
		mv, nv := panelsF32(a, b, src, d, M, N, K, k0, k1)
		// Rows below the vector panels, then the columns right of them
		// (none, the common case, where the panels cover the matrix).
		if mv < M {
			mulAddF32Rows(a, b, src, d, mv, M, 0, N, N, K, k0, k1)
		}
		if nv < N {
			mulAddF32Rows(a, b, src, d, 0, mv, nv, N, N, K, k0, k1)
		}
		src = d
	}
}

// mulAddF32Rows is mulAddF32Blocked for rows [i0, i1), columns [j0, j1)
// and k in [k0, k1).
func mulAddF32Rows(a, b, c, d []float32, i0, i1, j0, j1, N, K, k0, k1 int) {
	for i := i0; i < i1; i++ {
		j := j0
		for ; j+16 <= j1; j += 16 {
			row16F32(a[i*K+k0:i*K+k1], b[k0*N+j:], c[i*N+j:i*N+j+16], d[i*N+j:i*N+j+16], N)
		}
		if j == j1 {
			continue
		}
		row := d[i*N+j : i*N+j1]
		copy(row, c[i*N+j:i*N+j1])
		for k := k0; k < k1; k++ {
			aik := a[i*K+k]
			brow := b[k*N+j : k*N+j1]
			for x := range row {
				row[x] += float32(aik * brow[x])
			}
		}
	}
}

// row16F32 is one row of 16 accumulators held in registers, from c's row
// into d's. The conversions of the products keep the compiler from fusing
// them with the additions (which GOAMD64=v3 would otherwise do): a product of bfloat16
// values can overflow or underflow float32, and the fused sum would then
// differ from the definition's.
func row16F32(ar, b, c, d []float32, N int) {
	row := (*[16]float32)(c)
	r0, r1, r2, r3, r4, r5, r6, r7 := row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7]
	r8, r9, r10, r11, r12, r13, r14, r15 := row[8], row[9], row[10], row[11], row[12], row[13], row[14], row[15]
	for k, x := range ar {
		br := (*[16]float32)(b[k*N : k*N+16])
		r0 += float32(x * br[0])
		r1 += float32(x * br[1])
		r2 += float32(x * br[2])
		r3 += float32(x * br[3])
		r4 += float32(x * br[4])
		r5 += float32(x * br[5])
		r6 += float32(x * br[6])
		r7 += float32(x * br[7])
		r8 += float32(x * br[8])
		r9 += float32(x * br[9])
		r10 += float32(x * br[10])
		r11 += float32(x * br[11])
		r12 += float32(x * br[12])
		r13 += float32(x * br[13])
		r14 += float32(x * br[14])
		r15 += float32(x * br[15])
	}
	row = (*[16]float32)(d)
	row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7] = r0, r1, r2, r3, r4, r5, r6, r7
	row[8], row[9], row[10], row[11], row[12], row[13], row[14], row[15] = r8, r9, r10, r11, r12, r13, r14, r15
}

// toF32s widens src (bits of format f, which float32 holds exactly) into
// dst.
func toF32s(dst []float32, src []uint64, f ffmt) {
	dst = dst[:len(src)]
	switch f {
	case f16:
		t := f16Table
		for k, v := range src {
			dst[k] = t[uint16(v)]
		}
	case f32:
		for k, v := range src {
			dst[k] = math.Float32frombits(uint32(v))
		}
	case bf16:
		for k, v := range src {
			dst[k] = math.Float32frombits(uint32(v) << 16)
		}
	case e4m3, e5m2:
		t := fp8Table(f)
		for k, v := range src {
			dst[k] = t[uint8(v)]
		}
	default:
		for k, v := range src {
			dst[k] = toF32(v, f)
		}
	}
}

// toF64s widens src (bits of format f) into dst, exactly.
func toF64s(dst []float64, src []uint64, f ffmt) {
	dst = dst[:len(src)]
	switch f {
	case f64:
		for k, v := range src {
			dst[k] = math.Float64frombits(v)
		}
	case f16:
		t := f16Table
		for k, v := range src {
			dst[k] = float64(t[uint16(v)])
		}
	case f32:
		for k, v := range src {
			dst[k] = float64(math.Float32frombits(uint32(v)))
		}
	case bf16:
		for k, v := range src {
			dst[k] = float64(math.Float32frombits(uint32(v) << 16))
		}
	case e4m3, e5m2:
		t := fp8Table(f)
		for k, v := range src {
			dst[k] = float64(t[uint8(v)])
		}
	default:
		for k, v := range src {
			dst[k] = toF64(v, f)
		}
	}
}

// fp8Table returns the 256 values of an 8-bit float format as float32
// (every one exact), built on first use.
func fp8Table(f ffmt) *[256]float32 {
	if f == e4m3 {
		return e4m3TableLazy.Get()
	}
	return e5m2TableLazy.Get()
}

// The tables are lazy.Values, which unlike sync.OnceValue allocate
// nothing at package init.
var (
	e4m3TableLazy = lazy.Value[*[256]float32]{F: func() *[256]float32 { return fp8Values(e4m3) }}
	e5m2TableLazy = lazy.Value[*[256]float32]{F: func() *[256]float32 { return fp8Values(e5m2) }}
)

func fp8Values(f ffmt) *[256]float32 {
	t := new([256]float32)
	for v := range t {
		t[v] = float32(toF64slow(uint64(v), f))
	}
	return t
}

// mulAddFloat computes D = A*B + C for a float result of any format, as
// the definition says: products formed in float64 (exact for inputs of 32
// bits or fewer), each added to the accumulator in float64 and rounded to
// the result format.
func mulAddFloat(sc *coopScratch, cm *coopMul, rt ffmt, A, B, C, D []uint64, M, N, K int) {
	af := sc.f64s(0, M*K)
	bf := sc.f64s(1, K*N)
	acc := sc.f64s(2, M*N)
	toF64s(af, A, cm.a.elem.ff)
	toF64s(bf, B, cm.b.elem.ff)
	toF64s(acc, C, cm.c.elem.ff)
	switch rt {
	case f32, f64, f16, bf16:
	default:
		// Formats whose encoding of a result (a signed NaN for an
		// overflow) carries more than its value: the bits are kept.
		for e, v := range acc {
			D[e] = fround(v, rt)
			acc[e] = toF64(D[e], rt)
		}
		for i := 0; i < M; i++ {
			for k := 0; k < K; k++ {
				x := af[i*K+k]
				for j, y := range bf[k*N : k*N+N] {
					e := i*N + j
					D[e] = fround(acc[e]+float64(x*y), rt)
					acc[e] = toF64(D[e], rt)
				}
			}
		}
		return
	}
	rnd := rounder(rt)
	for e, v := range acc {
		acc[e] = rnd(v)
	}
	j0 := accPanel(rt, af, bf, acc, M, N, K) // columns done by a vector kernel
	for i := 0; i < M && j0 < N; i++ {
		row := acc[i*N+j0 : i*N+N]
		for k := 0; k < K; k++ {
			x := af[i*K+k]
			brow := bf[k*N+j0 : k*N+N]
			switch rt {
			case f32:
				for j, y := range brow {
					row[j] = float64(float32(row[j] + float64(x*y)))
				}
			case f64:
				for j, y := range brow {
					row[j] += float64(x * y)
				}
			case f16:
				for j, y := range brow {
					// roundF16 with its common case inline.
					v := row[j] + float64(x*y)
					b := math.Float64bits(v)
					if e := b >> 52 & 0x7ff; e-(1023-14) <= 29 {
						b += 1<<41 - 1 + b>>42&1
						b &^= 1<<42 - 1
						if b&(1<<63-1) <= 0x40effc0000000000 {
							row[j] = math.Float64frombits(b)
							continue
						}
					}
					row[j] = roundF16(v)
				}
			default:
				for j, y := range brow {
					row[j] = roundBF16(row[j] + float64(x*y))
				}
			}
		}
	}
	switch rt {
	case f16:
		for e, v := range acc {
			D[e] = halfBits(v)
		}
	case bf16:
		for e, v := range acc {
			D[e] = uint64(math.Float32bits(float32(v)) >> 16)
			if v != v {
				D[e] = fmtDescs[bf16].nan
			}
		}
	default:
		for e, v := range acc {
			D[e] = fround(v, rt)
		}
	}
}

// halfBits encodes a float64 holding a half's value exactly (or a NaN).
func halfBits(v float64) uint64 {
	if v != v {
		return fmtDescs[f16].nan
	}
	b := math.Float32bits(float32(v))
	sign := uint64(b>>16) & 0x8000
	e := int(b>>23&0xff) - 127
	switch {
	case e == 128:
		return sign | 0x7c00
	case e >= -14:
		return sign | uint64(e+15)<<10 | uint64(b>>13&0x3ff)
	}
	// A subnormal half (or zero): a multiple of 2^-24.
	return sign | uint64(math.Abs(v)*(1<<24))
}

// rounder returns the function rounding a float64 to the nearest value of
// format f (ties to even), as a float64: toF64(fround(x, f), f), for the
// IEEE formats f16, bf16, f32 and f64.
func rounder(f ffmt) func(float64) float64 {
	switch f {
	case f32:
		return func(x float64) float64 { return float64(float32(x)) }
	case f16:
		return roundF16
	case bf16:
		return roundBF16
	}
	return func(x float64) float64 { return x }
}

// roundF16 rounds x to the nearest half (ties to even), as a float64.
// Normal halves (exponents -14 to 15) are rounded on the bits: the
// fraction's low 42 bits go, to nearest with ties to even, a carry
// running into the exponent as it should, and a result past 65504 (only
// 65536 can be) overflows. Zeros keep their sign; the rest (subnormal
// halves, out of range, NaN) go through roundBinary.
func roundF16(x float64) float64 {
	b := math.Float64bits(x)
	if e := b >> 52 & 0x7ff; e-(1023-14) <= 29 {
		b += 1<<41 - 1 + b>>42&1
		b &^= 1<<42 - 1
		if b&(1<<63-1) > 0x40effc0000000000 { // 65504
			return math.Copysign(math.Inf(1), x)
		}
		return math.Float64frombits(b)
	}
	if x == 0 {
		return x
	}
	return roundBinary(x, 10, -14, 15, 65504)
}

func roundBF16(x float64) float64 { return roundBinary(x, 7, -126, 127, 0x1.fep127) }

// roundBinary rounds x to an IEEE binary format with man fraction bits,
// normal exponents emin to emax and largest finite value maxv, ties to
// even; past maxv it overflows to infinity.
func roundBinary(x float64, man, emin, emax int, maxv float64) float64 {
	e := max(int(math.Float64bits(x)>>52&0x7ff)-1023, emin)
	if e > emax {
		if x != x {
			return x
		}
		return math.Copysign(math.Inf(1), x)
	}
	// The format's spacing at x's exponent is q = 2^(e-man); adding and
	// taking away 1.5*2^52*q rounds x to a multiple of q, ties to even,
	// in the hardware's rounding. Rounding keeps the sign (of a zero too).
	c := math.Float64frombits(uint64(e-man+52+1023)<<52 | 1<<51)
	y := math.Copysign((x+c)-c, x)
	if math.Abs(y) > maxv {
		return math.Copysign(math.Inf(1), x)
	}
	return y
}

// mulAddInt computes D = A*B + C for an integer result: inputs extended
// to 64 bits by their signedness (float inputs truncated), the sum of
// products wrapping in 64 bits, then added to C wrapping at the result
// width, or with sat saturating to the result's range.
func mulAddInt(sc *coopScratch, cm *coopMul, rt *typ, A, B, C, D []uint64, M, N, K int) {
	ae := sc.i64s(0, M*K)
	be := sc.i64s(1, K*N)
	ce := sc.i64s(2, M*N)
	sum := sc.i64s(3, M*N)
	w := rt.width
	if !cm.sat && w <= 32 && mulAddInt32(sc, cm, A, B, C, D, M, N, K, w) {
		return
	}
	extInts(ae, A, cm.a.elem, cm.sa)
	extInts(be, B, cm.b.elem, cm.sb)
	extInts(ce, C, cm.c.elem, cm.sc)
	clear(sum)
	for i := 0; i < M; i++ {
		row := sum[i*N : i*N+N]
		for k := 0; k < K; k++ {
			x := ae[i*K+k]
			if x == 0 {
				continue
			}
			brow := be[k*N : k*N+N]
			for j, y := range brow {
				row[j] += x * y
			}
		}
	}
	for e, s := range sum {
		if cm.sat {
			D[e] = satAdd(ce[e], s, w, cm.sr)
		} else {
			D[e] = uint64(ce[e]+s) & mask(w)
		}
	}
}

// extInts extends the elements of a matrix of type t to 64 bits.
func extInts(dst []int64, src []uint64, t *typ, signed bool) {
	dst = dst[:len(src)]
	switch {
	case t.kind == kFloat:
		for k, v := range src {
			dst[k] = int64(toF64(v, t.ff))
		}
	case signed && t.width < 64:
		sh := 64 - t.width
		for k, v := range src {
			dst[k] = int64(v<<sh) >> sh
		}
	case signed:
		for k, v := range src {
			dst[k] = int64(v)
		}
	default:
		m := mask(t.width)
		for k, v := range src {
			dst[k] = int64(v & m)
		}
	}
}

func loadHalvesGo(src []byte, raw []uint64, f []float32) {
	t := f16Table
	f = f[:len(raw)]
	src = src[:2*len(raw)]
	for c := range raw {
		h := uint16(src[2*c]) | uint16(src[2*c+1])<<8
		raw[c], f[c] = uint64(h), t[h]
	}
}

func loadHalvesRowsGo(src []byte, ls, R, C int, raw []uint64, f []float32) {
	for r := 0; r < R; r++ {
		loadHalves(src[r*ls:r*ls+2*C], raw[r*C:r*C+C], f[r*C:r*C+C])
	}
}

// mulAddInt32 is mulAddInt for a result of 32 bits or fewer without
// saturation, whose bits are those of the sums modulo 2^32: the operands'
// low 32 bits are multiplied and added in 32-bit arithmetic that wraps,
// through the vector kernels where there are. It reports false, doing
// nothing, where there are none.
func mulAddInt32(sc *coopScratch, cm *coopMul, A, B, C, D []uint64, M, N, K, w int) bool {
	if !hasI32Panels || M < 4 || N < 8 {
		return false
	}
	a32, b32, sum := sc.i32s(0, M*K), sc.i32s(1, K*N), sc.i32s(2, M*N)
	extInts32(a32, A, cm.a.elem, cm.sa)
	extInts32(b32, B, cm.b.elem, cm.sb)
	clear(sum)
	mv, nv := panelsI32(a32, b32, sum, M, N, K)
	// Rows below the panels, then the columns right of them.
	for _, r := range [2][4]int{{mv, M, 0, N}, {0, mv, nv, N}} {
		for i := r[0]; i < r[1]; i++ {
			row := sum[i*N+r[2] : i*N+r[3]]
			for k := 0; k < K; k++ {
				x := a32[i*K+k]
				for j, y := range b32[k*N+r[2] : k*N+r[3]] {
					row[j] += x * y
				}
			}
		}
	}
	c32 := sc.i32s(0, M*N) // the operands are read by now
	extInts32(c32, C, cm.c.elem, cm.sc)
	m := mask(w)
	for e, s := range sum {
		D[e] = uint64(uint32(c32[e]+s)) & m
	}
	return true
}

// extInts32 is extInts keeping the low 32 bits.
func extInts32(dst []int32, src []uint64, t *typ, signed bool) {
	dst = dst[:len(src)]
	switch {
	case t.kind == kFloat:
		for k, v := range src {
			dst[k] = int32(int64(toF64(v, t.ff)))
		}
	case signed && t.width < 32:
		sh := 32 - t.width
		for k, v := range src {
			dst[k] = int32(uint32(v)<<sh) >> sh
		}
	default:
		m := mask(t.width)
		for k, v := range src {
			dst[k] = int32(uint32(v & m))
		}
	}
}
