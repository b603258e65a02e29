package exec

import (
	"encoding/binary"
	"math"

	"github.com/coopshader/coop/spirv"
)

// cvecKernel computes the M results of a cooperative vector matrix
// multiply into res: the bias (or zero), then the products of each
// matrix row with the input x added in increasing k, as cvecMul defines
// them. The matrix row is decoded in bulk once per row, the input once
// per call; mb holds the matrix, bb the bias (or nil).
func cvecKernel(cv *cvecOp, rt *typ, x []numVal, mb, bb []byte, stride int, res []uint64, sc *coopScratch) {
	mt := cv.mat
	es := mt.bytes()
	base, kstep := cv.rowSteps(es, stride)
	K := cv.K
	bias := func(m int) numVal { return readNum(cv.bias, rdScalar(cv.bias, bb[m*cv.bias.bytes():])) }
	if rt.kind != kFloat {
		xi, row := sc.i64s(0, K), sc.i64s(1, K)
		for k, v := range x {
			xi[k] = numI(v)
		}
		for m := range res {
			var acc int64
			if bb != nil {
				acc = numI(bias(m))
			}
			decodeInts(row, mb, m*base, kstep, mt)
			for k, v := range row {
				acc += v * xi[k]
			}
			res[m] = uint64(acc) & mask(rt.width)
		}
		return
	}
	xf, row := sc.f64s(0, K), sc.f64s(1, K)
	for k, v := range x {
		xf[k] = numF(v)
	}
	for m := range res {
		var acc uint64
		if bb != nil {
			acc = numTo(bias(m), rt)
		}
		decodeFloats(row, mb, m*base, kstep, mt)
		res[m] = dotRound(toF64(acc, rt.ff), row, xf, rt.ff, acc)
	}
}

// dotRound adds the products row[k]*x[k] to acc in increasing k, each
// product in float64 and each sum rounded to format f, and returns the
// result's bits (accBits: acc's own bits, for an empty row).
func dotRound(acc float64, row, x []float64, f ffmt, accBits uint64) uint64 {
	x = x[:len(row)]
	switch f {
	case f32:
		for k, v := range row {
			acc = float64(float32(acc + float64(v*x[k])))
		}
	case f64:
		for k, v := range row {
			acc += float64(v * x[k])
		}
	case f16:
		for k, v := range row {
			acc = roundF16(acc + float64(v*x[k]))
		}
		return halfBits(acc)
	case bf16:
		for k, v := range row {
			acc = roundBF16(acc + float64(v*x[k]))
		}
		if acc != acc {
			return fmtDescs[bf16].nan
		}
		return uint64(math.Float32bits(float32(acc)) >> 16)
	default:
		// The bits of each rounding are kept: for these formats they
		// carry more than the value (the sign of an overflow's NaN).
		b := accBits
		for k, v := range row {
			b = fround(acc+float64(v*x[k]), f)
			acc = toF64(b, f)
		}
		return b
	}
	return fround(acc, f)
}

// rowSteps gives the byte offset of row m's first element (m*base) and
// the step to the next element along k, for the layout and transpose.
func (cv *cvecOp) rowSteps(es, stride int) (base, kstep int) {
	switch {
	case cv.layout == spirv.CooperativeVectorMatrixLayoutRowMajorNV && !cv.transpose,
		cv.layout == spirv.CooperativeVectorMatrixLayoutColumnMajorNV && cv.transpose:
		return stride, es
	case cv.layout == spirv.CooperativeVectorMatrixLayoutRowMajorNV, cv.layout == spirv.CooperativeVectorMatrixLayoutColumnMajorNV:
		return es, stride
	case cv.transpose:
		return es, cv.M * es
	}
	return cv.K * es, es
}

// decodeFloats reads len(dst) elements of type t at b[off:], step bytes
// apart, as float64 (integers converted).
func decodeFloats(dst []float64, b []byte, off, step int, t *typ) {
	if t.kind != kFloat {
		for k := range dst {
			dst[k] = float64(readNum(t, rdScalar(t, b[off+k*step:])).i)
		}
		return
	}
	switch t.ff {
	case f16:
		tab := f16Table
		for k := range dst {
			dst[k] = float64(tab[binary.LittleEndian.Uint16(b[off+k*step:])])
		}
	case f32:
		for k := range dst {
			dst[k] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[off+k*step:])))
		}
	case f64:
		for k := range dst {
			dst[k] = math.Float64frombits(binary.LittleEndian.Uint64(b[off+k*step:]))
		}
	case e4m3, e5m2:
		tab := fp8Table(t.ff)
		for k := range dst {
			dst[k] = float64(tab[b[off+k*step]])
		}
	default:
		for k := range dst {
			dst[k] = toF64(rdScalar(t, b[off+k*step:]), t.ff)
		}
	}
}

// decodeInts reads len(dst) elements of type t at b[off:], step bytes
// apart, as int64 (floats truncated).
func decodeInts(dst []int64, b []byte, off, step int, t *typ) {
	switch {
	case t.kind == kFloat:
		for k := range dst {
			dst[k] = int64(toF64(rdScalar(t, b[off+k*step:]), t.ff))
		}
	case t.width == 8 && t.signed:
		for k := range dst {
			dst[k] = int64(int8(b[off+k*step]))
		}
	case t.width == 8:
		for k := range dst {
			dst[k] = int64(b[off+k*step])
		}
	default:
		for k := range dst {
			dst[k] = readNum(t, rdScalar(t, b[off+k*step:])).i
		}
	}
}
