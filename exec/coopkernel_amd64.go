//go:build amd64 && !purego

package exec

import "sync"

// The AVX micro-kernels of the float32 multiply-add (coopkernel_amd64.s):
// eight lanes of VMULPS then VADDPS are eight of the scalar loop's
// multiplications and additions, each rounded as the scalar one is, so
// they give the same bits (no fused multiply-add).

func cpuFeatures() (avx, avx2f16c bool)

//go:noescape
func halvesF16C(src *byte, raw *uint64, f *float32, n int)

//go:noescape
func halvesF16CRows(src *byte, ls int, raw *uint64, f *float32, rows, cols int)

//go:noescape
func halvesF16CValues(src *byte, ls int, f *float32, rows, cols int) (nan bool)

//go:noescape
func f16AccRows(acc *float64, a *float64, b *float64, ldb int, k int, n int)

//go:noescape
func kernI32x4x8(a *int32, lda int, b *int32, ldb int, c *int32, ldc int, k int)

//go:noescape
func f32AccRows(acc *float64, a *float64, b *float64, ldb int, k int, n int)

//go:noescape
func kernF32x4x16(a *float32, lda int, b *float32, ldb int, c *float32, d *float32, ldc int, k int)

//go:noescape
func kernF32x4x8(a *float32, lda int, b *float32, ldb int, c *float32, d *float32, ldc int, k int)

// The processor's features, which detectCPU sets.
var (
	hasAVX, hasF16C bool
	// hasI32Panels: panelsI32 has its AVX2 kernel (cpuFeatures' second
	// answer needs AVX2).
	hasI32Panels bool
	cpuOnce      sync.Once
)

// detectCPU sets the feature flags and the row kernels on first use
// rather than at package init: CPUID exits to the hypervisor in a virtual
// machine (tens of microseconds, more on a loaded host), and the commands
// that execute nothing (coop val, coop dis) should not pay for it. New
// and LoadValidated call it, before any kernel can run.
func detectCPU() {
	cpuOnce.Do(func() {
		hasAVX, hasF16C = cpuFeatures()
		hasI32Panels = hasF16C
		setRowKernels()
	})
}

// panelsF32 runs the AVX kernels over rows [0, M&^3) and columns
// [0, N&^7) of d = c + a*b for k in [k0, k1), and reports the rows and
// columns it covered (0, 0 without AVX).
func panelsF32(a, b, c, d []float32, M, N, K, k0, k1 int) (int, int) {
	if !hasAVX || k1 <= k0 {
		return 0, 0
	}
	m4, n8 := M&^3, N&^7
	if m4 == 0 || n8 == 0 {
		return 0, 0
	}
	// The last element each kernel touches, checked once for all.
	_ = a[(m4-1)*K+k1-1]
	_ = b[(k1-1)*N+n8-1]
	_, _ = c[(m4-1)*N+n8-1], d[(m4-1)*N+n8-1]
	for j := 0; j < n8; j += 16 {
		if j+16 > n8 {
			for i := 0; i < m4; i += 4 {
				kernF32x4x8(&a[i*K+k0], K, &b[k0*N+j], N, &c[i*N+j], &d[i*N+j], N, k1-k0)
			}
			break
		}
		for i := 0; i < m4; i += 4 {
			kernF32x4x16(&a[i*K+k0], K, &b[k0*N+j], N, &c[i*N+j], &d[i*N+j], N, k1-k0)
		}
	}
	return m4, n8
}

// loadHalves reads len(raw) little-endian halves from src: bits into raw,
// values into f. Only the values of NaNs (which no result keeps: NaN
// results are made canonical) may differ from f16Table's.
func loadHalves(src []byte, raw []uint64, f []float32) {
	n := len(raw)
	_, _ = src[2*n-1], f[n-1]
	v := 0
	if hasF16C {
		v = n &^ 7
		if v > 0 {
			halvesF16C(&src[0], &raw[0], &f[0], v)
		}
	}
	loadHalvesGo(src[2*v:], raw[v:], f[v:n])
}

// loadHalvesRows is loadHalves for R rows of C halves, ls bytes apart in
// src, into raw and f row-major.
func loadHalvesRows(src []byte, ls, R, C int, raw []uint64, f []float32) {
	if R == 0 || C == 0 {
		return
	}
	if hasF16C && C%8 == 0 && ls >= 2*C {
		// The last half read and element written, checked once for all.
		_, _, _ = src[(R-1)*ls+2*C-1], raw[R*C-1], f[R*C-1]
		halvesF16CRows(&src[0], ls, &raw[0], &f[0], R, C)
		return
	}
	loadHalvesRowsGo(src, ls, R, C, raw, f)
}

// loadHalfValues is loadHalvesRows for the values alone, where F16C
// converts whole rows: it reports false, with f unspecified, where it
// cannot or where a value is a NaN (the caller then loads the bits too).
func loadHalfValues(src []byte, ls, R, C int, f []float32) bool {
	if !hasF16C || C%8 != 0 || ls < 2*C || R == 0 {
		return false
	}
	// The last half read and value written, checked once for all.
	_, _ = src[(R-1)*ls+2*C-1], f[R*C-1]
	return !halvesF16CValues(&src[0], ls, &f[0], R, C)
}

// accPanel runs f16AccRows (f16) or f32AccRows (f32) over columns
// [0, N&^3) of every row of acc (M x N, a M x K, b K x N, row-major,
// float64 values of the operands) and reports the columns it covered (0
// without AVX2, or for another result format).
func accPanel(rt ffmt, a, b, acc []float64, M, N, K int) int {
	n4 := N &^ 3
	if !hasF16C || n4 == 0 || K == 0 || M == 0 || rt != f16 && rt != f32 {
		return 0
	}
	// The last element each call touches, checked once for all.
	_, _, _ = a[M*K-1], b[(K-1)*N+n4-1], acc[(M-1)*N+n4-1]
	for i := 0; i < M; i++ {
		if rt == f16 {
			f16AccRows(&acc[i*N], &a[i*K], &b[0], N, K, n4)
		} else {
			f32AccRows(&acc[i*N], &a[i*K], &b[0], N, K, n4)
		}
	}
	return n4
}

// panelsI32 runs kernI32x4x8 over rows [0, M&^3) and columns [0, N&^7)
// of sum (M x N, a M x K, b K x N, row-major, 32-bit wrapping) and
// reports the rows and columns it covered (0, 0 without AVX2).
func panelsI32(a, b, sum []int32, M, N, K int) (int, int) {
	m4, n8 := M&^3, N&^7
	if !hasF16C || m4 == 0 || n8 == 0 || K == 0 {
		return 0, 0
	}
	_, _, _ = a[(m4-1)*K+K-1], b[(K-1)*N+n8-1], sum[(m4-1)*N+n8-1]
	for j := 0; j < n8; j += 8 {
		for i := 0; i < m4; i += 4 {
			kernI32x4x8(&a[i*K], K, &b[j], N, &sum[i*N+j], N, K)
		}
	}
	return m4, n8
}
