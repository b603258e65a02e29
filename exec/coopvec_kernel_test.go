package exec

import (
	"math/rand/v2"
	"testing"

	"github.com/coopshader/coop/spirv"
)

// refCvec is the element-by-element matrix-vector product cvecKernel
// replaced, kept as the definition it must match bit for bit (products
// unfused, as in refMulAdd).
func refCvec(cv *cvecOp, rt *typ, x []numVal, mb, bb []byte, stride int) []uint64 {
	mt := cv.mat
	es := mt.bytes()
	R, C := cv.M, cv.K
	if cv.transpose {
		R, C = C, R
	}
	res := make([]uint64, cv.M)
	for m := 0; m < cv.M; m++ {
		var acc uint64
		if bb != nil {
			bv := readNum(cv.bias, rdScalar(cv.bias, bb[m*cv.bias.bytes():]))
			acc = numTo(bv, rt)
		}
		for k := 0; k < cv.K; k++ {
			rr, cc := m, k
			if cv.transpose {
				rr, cc = k, m
			}
			mv := readNum(mt, rdScalar(mt, mb[cv.matOffset(rr, cc, R, C, es, stride):]))
			if rt.kind == kFloat {
				acc = fround(toF64(acc, rt.ff)+float64(numF(mv)*numF(x[k])), rt.ff)
			} else {
				acc = (acc + uint64(numI(mv)*numI(x[k]))) & mask(rt.width)
			}
		}
		res[m] = acc
	}
	return res
}

// TestCvecKernel compares cvecKernel with the definition on random
// matrices, inputs and biases, in every layout, transposed or not.
func TestCvecKernel(t *testing.T) {
	loadF16Table()
	type combo struct{ mat, in, bias, res string }
	combos := []combo{
		{"f16", "f16", "f16", "f16"}, {"f16", "f16", "f32", "f32"}, {"f16", "f32", "f16", "f32"}, {"f32", "f32", "f32", "f32"},
		{"e4m3", "e4m3", "f16", "f16"}, {"e5m2", "f16", "f16", "f16"}, {"e4m3", "f16", "f32", "f32"}, {"f64", "f64", "f64", "f64"},
		{"bf16", "bf16", "bf16", "bf16"}, {"f16", "f16", "e4m3", "e4m3"},
		{"i8", "i8", "i32", "i32"}, {"u8", "u8", "u32", "u32"}, {"i8", "u8", "i32", "i32"}, {"u8", "i8", "i32", "u32"},
		{"i8", "i8", "i32", "i16"}, {"i16", "i16", "i32", "i32"}, {"i32", "i32", "i32", "i32"}, {"i8", "f16", "i32", "i32"},
		{"f16", "i8", "f16", "f16"}, {"u8", "u8", "u8", "u8"},
	}
	layouts := []spirv.CooperativeVectorMatrixLayout{spirv.CooperativeVectorMatrixLayoutRowMajorNV, spirv.CooperativeVectorMatrixLayoutColumnMajorNV,
		spirv.CooperativeVectorMatrixLayoutInferencingOptimalNV, spirv.CooperativeVectorMatrixLayoutTrainingOptimalNV}
	r := rand.New(rand.NewPCG(7, 8))
	sc := &coopScratch{}
	for _, c := range combos {
		for _, lay := range layouts {
			for _, tr := range []bool{false, true} {
				for _, sh := range [][2]int{{1, 1}, {8, 16}, {16, 8}, {3, 33}, {32, 32}, {5, 64}} {
					M, K := sh[0], sh[1]
					mt, it, bt, rt := scalarT(c.mat), scalarT(c.in), scalarT(c.bias), scalarT(c.res)
					cv := &cvecOp{mat: mt, bias: bt, M: M, K: K, layout: lay, transpose: tr}
					es := mt.bytes()
					R, C := M, K
					if tr {
						R, C = K, M
					}
					stride := 0
					switch lay {
					case spirv.CooperativeVectorMatrixLayoutRowMajorNV:
						stride = C*es + r.IntN(3)*es
					case spirv.CooperativeVectorMatrixLayoutColumnMajorNV:
						stride = R*es + r.IntN(3)*es
					}
					nice := r.IntN(4) != 0
					mb := make([]byte, cv.matExtent(R, C, es, stride))
					for rr := 0; rr < R; rr++ {
						for cc := 0; cc < C; cc++ {
							wrScalar(mt, mb[cv.matOffset(rr, cc, R, C, es, stride):], randElems(r, mt, 1, nice)[0])
						}
					}
					var bb []byte
					if r.IntN(3) != 0 {
						bb = make([]byte, M*bt.bytes())
						for m := 0; m < M; m++ {
							wrScalar(bt, bb[m*bt.bytes():], randElems(r, bt, 1, nice)[0])
						}
					}
					x := make([]numVal, K)
					for k, v := range randElems(r, it, K, nice) {
						x[k] = readNum(it, v)
					}
					want := refCvec(cv, rt, x, mb, bb, stride)
					got := make([]uint64, M)
					cvecKernel(cv, rt, x, mb, bb, stride, got, sc)
					for m := range want {
						if got[m] != want[m] {
							t.Fatalf("%v layout %v transpose %v %dx%d: result %d is %#x, want %#x", c, lay, tr, M, K, m, got[m], want[m])
						}
					}
				}
			}
		}
	}
}
