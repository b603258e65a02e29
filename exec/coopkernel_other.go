//go:build !amd64 || purego

package exec

// panelsF32 has no vector kernels to run here: the portable loops of
// mulAddF32Blocked cover the whole matrix.
func panelsF32(a, b, c, d []float32, M, N, K, k0, k1 int) (int, int) { return 0, 0 }

// loadHalves reads len(raw) little-endian halves from src: bits into raw,
// values into f.
func loadHalves(src []byte, raw []uint64, f []float32) { loadHalvesGo(src, raw, f) }

// loadHalvesRows is loadHalves for R rows of C halves, ls bytes apart in
// src, into raw and f row-major.
func loadHalvesRows(src []byte, ls, R, C int, raw []uint64, f []float32) {
	loadHalvesRowsGo(src, ls, R, C, raw, f)
}

// loadHalfValues has no vector kernel here: callers load bits and values
// with loadHalvesRows.
func loadHalfValues(src []byte, ls, R, C int, f []float32) bool { return false }

// accPanel has no vector kernels to run here (mulAddFloat's loop covers
// every column).
func accPanel(rt ffmt, a, b, acc []float64, M, N, K int) int { return 0 }

const hasI32Panels = false

// detectCPU has nothing to detect here.
func detectCPU() {}

// panelsI32 has no vector kernel to run here.
func panelsI32(a, b, sum []int32, M, N, K int) (int, int) { return 0, 0 }
