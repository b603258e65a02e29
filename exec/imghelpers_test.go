package exec

import (
	"encoding/binary"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/spirv/text"
)

// asm assembles SPIR-V text, replacing each {{KEY}} by its value.
func asm(t *testing.T, src string, kv ...string) []uint32 {
	t.Helper()
	for k := 0; k+1 < len(kv); k += 2 {
		src = strings.ReplaceAll(src, "{{"+kv[k]+"}}", kv[k+1])
	}
	m, err := text.Assemble([]byte(src), "test.spvasm")
	if err != nil {
		t.Fatal(err)
	}
	w, err := m.Words()
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// Reference conversions, written from the Vulkan specification's formulas
// with exact rational arithmetic (math/big) or by brute force, so they
// share no code with exec's.

// refFloat32 rounds a rational to float32, to nearest even.
func refFloat32(r *big.Rat) float32 {
	f, _ := r.Float32()
	return f
}

// refRoundEven rounds a rational to the nearest integer, ties to even.
func refRoundEven(r *big.Rat) int64 {
	fl := new(big.Int).Div(r.Num(), r.Denom()) // floor for positive denominators
	frac := new(big.Rat).Sub(r, new(big.Rat).SetInt(fl))
	n := fl.Int64()
	switch frac.Cmp(big.NewRat(1, 2)) {
	case 1:
		n++
	case 0:
		if n%2 != 0 {
			n++
		}
	}
	return n
}

func refUnormDecode(c uint64, bits int) float32 {
	return refFloat32(new(big.Rat).SetFrac(new(big.Int).SetUint64(c), big.NewInt(1<<bits-1)))
}

func refSnormDecode(c uint64, bits int) float32 {
	v := int64(c<<(64-bits)) >> (64 - bits)
	r := big.NewRat(v, 1<<(bits-1)-1)
	if r.Cmp(big.NewRat(-1, 1)) < 0 {
		return -1
	}
	return refFloat32(r)
}

func refUnormEncode(f float32, bits int) uint64 {
	x := float64(f)
	if x != x || x < 0 {
		return 0
	}
	if x > 1 {
		return 1<<bits - 1
	}
	r := new(big.Rat).SetFloat64(x)
	return uint64(refRoundEven(r.Mul(r, big.NewRat(1<<bits-1, 1))))
}

func refSnormEncode(f float32, bits int) uint64 {
	x := float64(f)
	switch {
	case x != x:
		return 0
	case x < -1:
		x = -1
	case x > 1:
		x = 1
	}
	r := new(big.Rat).SetFloat64(x)
	r.Mul(r, big.NewRat(1<<(bits-1)-1, 1))
	var n int64
	if r.Sign() < 0 {
		n = -refRoundEven(new(big.Rat).Neg(r))
	} else {
		n = refRoundEven(r)
	}
	return uint64(n) & (1<<bits - 1)
}

// refMiniFloat decodes a float of e exponent and m mantissa bits (a sign
// bit above them when signed).
func refMiniFloat(c uint64, e, m int, signed bool) float64 {
	man := float64(c & (1<<m - 1))
	ex := int(c>>m) & (1<<e - 1)
	bias := 1<<(e-1) - 1
	var v float64
	switch {
	case ex == 1<<e-1 && man != 0:
		return math.NaN()
	case ex == 1<<e-1:
		v = math.Inf(1)
	case ex == 0:
		v = man * math.Pow(2, float64(1-bias-m))
	default:
		v = (1 + man/math.Pow(2, float64(m))) * math.Pow(2, float64(ex-bias))
	}
	if signed && c>>(e+m)&1 != 0 {
		v = -v
	}
	return v
}

// refMiniEncode finds the nearest code (ties to an even code) of a float
// of e exponent and m mantissa bits by trying every finite one. Unsigned
// formats follow Vulkan's rules for 11- and 10-bit floats.
func refMiniEncode(x float64, e, m int, signed bool) uint64 {
	n := 1 << (e + m)
	inf := uint64(1<<e-1) << m
	switch {
	case x != x:
		if signed {
			return inf | 1<<(m-1)
		}
		return inf | 1<<(m-1)
	case !signed && x <= 0:
		return 0
	case math.IsInf(x, 1):
		return inf
	case math.IsInf(x, -1):
		return inf | uint64(n)
	}
	var sign uint64
	if math.Signbit(x) {
		sign, x = uint64(n), -x
	}
	best, bestD := uint64(0), math.Inf(1)
	for c := uint64(0); c < inf; c++ {
		d := math.Abs(refMiniFloat(c, e, m, false) - x)
		if d < bestD || d == bestD && c%2 == 0 {
			best, bestD = c, d
		}
	}
	maxV := refMiniFloat(inf-1, e, m, false)
	if signed && x >= maxV+(maxV-refMiniFloat(inf-2, e, m, false))/2 {
		return sign | inf // beyond the last rounding boundary: infinity
	}
	return sign | best
}

// refDecode is the texel a shader reads from stored bytes: float
// components as float32 bits, integers sign- or zero-extended.
func refDecode(fi *backend.FormatInfo, b []byte) (f [4]float32, u [4]uint64) {
	f, u = [4]float32{0, 0, 0, 1}, [4]uint64{0, 0, 0, 1}
	var comps [4]uint64
	if fi.Packed {
		w := uint64(binary.LittleEndian.Uint32(b))
		sh := 0
		for k, n := range fi.Bits {
			comps[k] = w >> sh & (1<<n - 1)
			sh += int(n)
		}
	} else {
		off := 0
		for k, n := range fi.Bits {
			var v uint64
			for j := 0; j < int(n)/8; j++ {
				v |= uint64(b[off+j]) << (8 * j)
			}
			comps[k] = v
			off += int(n) / 8
		}
	}
	for k, n := range fi.Bits {
		if n == 0 {
			continue
		}
		c, bits := comps[k], int(n)
		switch fi.Kind {
		case backend.SFloat:
			if bits == 16 {
				f[k] = float32(refMiniFloat(c, 5, 10, true))
			} else {
				f[k] = math.Float32frombits(uint32(c))
			}
		case backend.UFloat:
			f[k] = float32(refMiniFloat(c, 5, bits-5, false))
		case backend.UNorm:
			f[k] = refUnormDecode(c, bits)
		case backend.SNorm:
			f[k] = refSnormDecode(c, bits)
		case backend.UInt:
			u[k] = c
		case backend.SInt:
			u[k] = uint64(int64(c<<(64-bits)) >> (64 - bits))
		}
	}
	return f, u
}

// refEncode stores a texel a shader writes.
func refEncode(fi *backend.FormatInfo, f [4]float32, u [4]uint64) []byte {
	var comps [4]uint64
	for k, n := range fi.Bits {
		bits := int(n)
		if bits == 0 {
			continue
		}
		switch fi.Kind {
		case backend.SFloat:
			if bits == 16 {
				comps[k] = refMiniEncode(float64(f[k]), 5, 10, true)
			} else {
				comps[k] = uint64(math.Float32bits(f[k]))
			}
		case backend.UFloat:
			comps[k] = refMiniEncode(float64(f[k]), 5, bits-5, false)
		case backend.UNorm:
			comps[k] = refUnormEncode(f[k], bits)
		case backend.SNorm:
			comps[k] = refSnormEncode(f[k], bits)
		default:
			comps[k] = u[k] & (1<<bits - 1)
			if bits == 64 {
				comps[k] = u[k]
			}
		}
	}
	b := make([]byte, fi.Size)
	if fi.Packed {
		var w uint64
		sh := 0
		for k, n := range fi.Bits {
			w |= comps[k] << sh
			sh += int(n)
		}
		binary.LittleEndian.PutUint32(b, uint32(w))
		return b
	}
	off := 0
	for k, n := range fi.Bits {
		for j := 0; j < int(n)/8; j++ {
			b[off+j] = byte(comps[k] >> (8 * j))
		}
		off += int(n) / 8
	}
	return b
}

// sameF32 compares floats by bits, any NaN matching any NaN.
func sameF32(a, b float32) bool {
	return a != a && b != b || math.Float32bits(a) == math.Float32bits(b)
}
