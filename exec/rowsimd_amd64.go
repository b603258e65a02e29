//go:build amd64 && !purego

package exec

// The AVX2 row kernels (rowsimd_amd64.s), run where cpuFeatures finds
// AVX2 (its second answer).

//go:noescape
func vkF32Add(d, a, b *uint64, c, p, q, r uint64, n int)

//go:noescape
func vkF32Sub(d, a, b *uint64, c, p, q, r uint64, n int)

//go:noescape
func vkF32Mul(d, a, b *uint64, c, p, q, r uint64, n int)

//go:noescape
func vkF32Div(d, a, b *uint64, c, p, q, r uint64, n int)

//go:noescape
func vkF32Min(d, a, b *uint64, c, p, q, r uint64, n int)

//go:noescape
func vkF32Max(d, a, b *uint64, c, p, q, r uint64, n int)

//go:noescape
func vkF16Add(d, a, b *uint64, c, p, q, r uint64, n int)

//go:noescape
func vkF16Sub(d, a, b *uint64, c, p, q, r uint64, n int)

//go:noescape
func vkF16Mul(d, a, b *uint64, c, p, q, r uint64, n int)

//go:noescape
func vkF16Div(d, a, b *uint64, c, p, q, r uint64, n int)

//go:noescape
func vkLAnd(d, a, b *uint64, c, p, q, r uint64, n int)

//go:noescape
func vkLOr(d, a, b *uint64, c, p, q, r uint64, n int)

//go:noescape
func vkIAdd(d, a, b *uint64, c, p, q, r uint64, n int)

//go:noescape
func vkISub(d, a, b *uint64, c, p, q, r uint64, n int)

//go:noescape
func vkIMul(d, a, b *uint64, c, p, q, r uint64, n int)

//go:noescape
func vkAnd(d, a, b *uint64, c, p, q, r uint64, n int)

//go:noescape
func vkOr(d, a, b *uint64, c, p, q, r uint64, n int)

//go:noescape
func vkXor(d, a, b *uint64, c, p, q, r uint64, n int)

//go:noescape
func vkShl(d, a, b *uint64, c, p, q, r uint64, n int)

//go:noescape
func vkShr(d, a, b *uint64, c, p, q, r uint64, n int)

//go:noescape
func vkSar32(d, a, b *uint64, c, p, q, r uint64, n int)

//go:noescape
func vkICmp(d, a, b *uint64, c, p, q, r uint64, n int)

//go:noescape
func vkFCmp(d, a, b *uint64, c, p, q, r uint64, n int)

//go:noescape
func vkSelect(d, c, a, b *uint64, n int)

//go:noescape
func vkXorAnd(d, a *uint64, p, q uint64, n int)

//go:noescape
func vkNegAnd(d, a *uint64, p, q uint64, n int)

//go:noescape
func vkSToF32(d, a *uint64, p, q uint64, n int)

//go:noescape
func vkSExt(d, a *uint64, p, q uint64, n int)

//go:noescape
func vkF2S32(d, a *uint64, p, q uint64, n int)

//go:noescape
func vkF2U32(d, a *uint64, p, q uint64, n int)

//go:noescape
func vkUToF32(d, a *uint64, n int) int

//go:noescape
func vkH2F(d, a *uint64, p, q uint64, n int)

//go:noescape
func vkF2H(d, a *uint64, p, q uint64, n int)

// setRowKernels installs the AVX2 row kernels where the processor has
// them (detectCPU).
func setRowKernels() {
	if !hasF16C {
		return
	}
	binKerns = [nVBin]vkBin{
		vF32Add: vkF32Add, vF32Sub: vkF32Sub, vF32Mul: vkF32Mul, vF32Div: vkF32Div, vF32Min: vkF32Min, vF32Max: vkF32Max,
		vF16Add: vkF16Add, vF16Sub: vkF16Sub, vF16Mul: vkF16Mul, vF16Div: vkF16Div,
		vLAnd: vkLAnd, vLOr: vkLOr,
		vIAdd: vkIAdd, vISub: vkISub, vIMul: vkIMul,
		vAnd: vkAnd, vOr: vkOr, vXor: vkXor,
		vShl: vkShl, vShr: vkShr, vSar32: vkSar32,
		vICmp: vkICmp, vFCmp: vkFCmp,
	}
	unKerns = [nVUn]vkUn{vXorAnd: vkXorAnd, vNegAnd: vkNegAnd, vSToF32: vkSToF32, vH2F: vkH2F, vF2H: vkF2H,
		vSExt: vkSExt, vF2S32: vkF2S32, vF2U32: vkF2U32,
	}
	selKern = vkSelect
	uToF32Kern = vkUToF32
}
