package exec

import (
	"math"
	"math/bits"

	"github.com/coopshader/coop/spirv"
)

func glslSupported(n uint32) bool {
	return n >= 1 && n <= 81 && n != spirv.GLSLstd450IMix &&
		(n < spirv.GLSLstd450InterpolateAtCentroid || n > spirv.GLSLstd450InterpolateAtOffset)
}

// glsl runs a GLSL.std.450 instruction. Floating-point functions are
// computed in float64 and rounded once to the result type.
func (l *lane) glsl(in *instr, d []uint64) error {
	r := l.regs
	tys := in.aux.([]*typ)
	if len(in.a) == 0 {
		return l.fail(in, "missing operands")
	}
	arg := func(k int) []uint64 { return r[in.a[k]:] }
	ct := in.t.comp()
	ff := ct.ff
	at := tys[0]
	act := at.comp()
	x := arg(0)
	f1 := func(f func(float64) float64) {
		for k := range d {
			d[k] = fround(f(toF64(x[k], ff)), ff)
		}
	}
	f2 := func(f func(a, b float64) float64) {
		y := arg(1)
		for k := range d {
			d[k] = fround(f(toF64(x[k], ff), toF64(y[k], ff)), ff)
		}
	}
	f3 := func(f func(a, b, c float64) float64) {
		y, z := arg(1), arg(2)
		for k := range d {
			d[k] = fround(f(toF64(x[k], ff), toF64(y[k], ff), toF64(z[k], ff)), ff)
		}
	}
	w := ct.width
	vec := func(k int) []float64 {
		v := make([]float64, tys[k].slots)
		for j := range v {
			v[j] = toF64(arg(k)[j], tys[k].comp().ff)
		}
		return v
	}
	dot := func(a, b []float64) float64 {
		s := 0.0
		for j := range a {
			s += float64(a[j] * b[j])
		}
		return s
	}
	if g, args := glslInt(in.sub, w); g != nil {
		y, z := x, x
		if args > 1 {
			y = arg(1)
		}
		if args > 2 {
			z = arg(2)
		}
		for k := range d {
			d[k] = g(x[k], y[k], z[k])
		}
		return nil
	}
	if g := glslF1(in.sub); g != nil {
		f1(g)
		return nil
	}
	if g := glslF2(in.sub); g != nil {
		f2(g)
		return nil
	}
	if g := glslF3(in.sub); g != nil {
		f3(g)
		return nil
	}
	switch in.sub {
	case spirv.GLSLstd450FAbs:
		for k := range d {
			d[k] = x[k] &^ (1 << (w - 1))
		}
	case spirv.GLSLstd450Determinant:
		n := at.count
		m := matF64(x, n, act.ff)
		d[0] = fround(det(m, n), ff)
	case spirv.GLSLstd450MatrixInverse:
		n := at.count
		m := matF64(x, n, act.ff)
		inv := inverse(m, n)
		for k := range d {
			d[k] = fround(inv[k], ff)
		}
	case spirv.GLSLstd450Modf, spirv.GLSLstd450Frexp:
		// The second result goes to memory through the pointer operand.
		if len(in.a) < 2 {
			return l.fail(in, "missing pointer operand")
		}
		pt := tys[1].elem
		vals := make([]uint64, pt.slots)
		for k := range d {
			v := toF64(x[k], ff)
			if in.sub == spirv.GLSLstd450Modf {
				ip, fr := math.Modf(v)
				if math.IsInf(v, 0) {
					fr = math.Copysign(0, v)
				}
				d[k], vals[k] = fround(fr, ff), fround(ip, ff)
			} else {
				fr, e := math.Frexp(v)
				d[k], vals[k] = fround(fr, ff), uint64(e)&mask(pt.comp().width)
			}
		}
		addr := r[in.a[1]]
		b, err := l.region(in, addr, pt.size, true)
		if err != nil {
			return err
		}
		storeRec(pt, b, 0, vals, matLayout{})
	case spirv.GLSLstd450ModfStruct, spirv.GLSLstd450FrexpStruct:
		mt := in.t.mem[0]
		n := mt.slots
		for k := 0; k < n; k++ {
			v := toF64(x[k], mt.comp().ff)
			if in.sub == spirv.GLSLstd450ModfStruct {
				ip, fr := math.Modf(v)
				if math.IsInf(v, 0) {
					fr = math.Copysign(0, v)
				}
				d[k], d[n+k] = fround(fr, mt.comp().ff), fround(ip, mt.comp().ff)
			} else {
				fr, e := math.Frexp(v)
				d[k], d[n+k] = fround(fr, mt.comp().ff), uint64(e)&mask(in.t.mem[1].comp().width)
			}
		}
	case spirv.GLSLstd450Ldexp:
		y := arg(1)
		yw := tys[1].comp().width
		for k := range d {
			e := sext(y[k], yw)
			e = max(min(e, 1<<12), -(1 << 12))
			d[k] = fround(math.Ldexp(toF64(x[k], ff), int(e)), ff)
		}
	case spirv.GLSLstd450PackSnorm4x8, spirv.GLSLstd450PackUnorm4x8, spirv.GLSLstd450PackSnorm2x16, spirv.GLSLstd450PackUnorm2x16:
		n, bw, scale, lo := 4, 8, 127.0, -1.0
		switch in.sub {
		case spirv.GLSLstd450PackUnorm4x8:
			scale, lo = 255, 0
		case spirv.GLSLstd450PackSnorm2x16:
			n, bw, scale = 2, 16, 32767
		case spirv.GLSLstd450PackUnorm2x16:
			n, bw, scale, lo = 2, 16, 65535, 0
		}
		v := uint64(0)
		for k := 0; k < n; k++ {
			c := math.Min(math.Max(toF64(x[k], act.ff), lo), 1)
			q := int64(math.RoundToEven(c * scale))
			v |= (uint64(q) & mask(bw)) << (k * bw)
		}
		d[0] = v
	case spirv.GLSLstd450UnpackSnorm4x8, spirv.GLSLstd450UnpackUnorm4x8, spirv.GLSLstd450UnpackSnorm2x16, spirv.GLSLstd450UnpackUnorm2x16:
		bw, scale, signed := 8, 127.0, true
		switch in.sub {
		case spirv.GLSLstd450UnpackUnorm4x8:
			scale, signed = 255, false
		case spirv.GLSLstd450UnpackSnorm2x16:
			bw, scale = 16, 32767
		case spirv.GLSLstd450UnpackUnorm2x16:
			bw, scale, signed = 16, 65535, false
		}
		for k := range d {
			q := x[0] >> (k * bw) & mask(bw)
			var v float64
			if signed {
				v = math.Max(float64(sext(q, bw))/scale, -1)
			} else {
				v = float64(q) / scale
			}
			d[k] = fround(v, ff)
		}
	case spirv.GLSLstd450PackHalf2x16:
		d[0] = fromF64(toF64(x[0], act.ff), f16, rne, false) | fromF64(toF64(x[1], act.ff), f16, rne, false)<<16
	case spirv.GLSLstd450UnpackHalf2x16:
		d[0] = fround(toF64(x[0]&0xffff, f16), ff)
		d[1] = fround(toF64(x[0]>>16&0xffff, f16), ff)
	case spirv.GLSLstd450PackDouble2x32:
		d[0] = x[0] | x[1]<<32
	case spirv.GLSLstd450UnpackDouble2x32:
		d[0], d[1] = x[0]&0xffffffff, x[0]>>32
	case spirv.GLSLstd450Length:
		v := vec(0)
		d[0] = fround(math.Sqrt(dot(v, v)), ff)
	case spirv.GLSLstd450Distance:
		a, b := vec(0), vec(1)
		for j := range a {
			a[j] -= b[j]
		}
		d[0] = fround(math.Sqrt(dot(a, a)), ff)
	case spirv.GLSLstd450Cross:
		a, b := vec(0), vec(1)
		c := []float64{float64(a[1]*b[2]) - float64(b[1]*a[2]), float64(a[2]*b[0]) - float64(b[2]*a[0]), float64(a[0]*b[1]) - float64(b[0]*a[1])}
		for k := range d {
			d[k] = fround(c[k], ff)
		}
	case spirv.GLSLstd450Normalize:
		v := vec(0)
		n := math.Sqrt(dot(v, v))
		for k := range d {
			d[k] = fround(v[k]/n, ff)
		}
	case spirv.GLSLstd450FaceForward:
		nv, iv, nr := vec(0), vec(1), vec(2)
		s := 1.0
		if dot(nr, iv) >= 0 {
			s = -1
		}
		for k := range d {
			d[k] = fround(s*nv[k], ff)
		}
	case spirv.GLSLstd450Reflect:
		iv, nv := vec(0), vec(1)
		dt := dot(nv, iv)
		for k := range d {
			d[k] = fround(iv[k]-float64(2*dt*nv[k]), ff)
		}
	case spirv.GLSLstd450Refract:
		iv, nv := vec(0), vec(1)
		eta := toF64(arg(2)[0], tys[2].comp().ff)
		dt := dot(nv, iv)
		kk := 1 - float64(eta*eta*(1-float64(dt*dt)))
		for k := range d {
			if kk < 0 {
				d[k] = 0
			} else {
				d[k] = fround(float64(eta*iv[k])-float64((float64(eta*dt)+math.Sqrt(kk))*nv[k]), ff)
			}
		}
	case spirv.GLSLstd450FindILsb:
		for k := range d {
			v := x[k] & mask(act.width)
			if v == 0 {
				d[k] = mask(w)
			} else {
				d[k] = uint64(bits.TrailingZeros64(v))
			}
		}
	case spirv.GLSLstd450FindSMsb, spirv.GLSLstd450FindUMsb:
		for k := range d {
			v := x[k] & mask(act.width)
			if in.sub == spirv.GLSLstd450FindSMsb && sext(v, act.width) < 0 {
				v = ^v & mask(act.width)
			}
			if v == 0 {
				d[k] = mask(w)
			} else {
				d[k] = uint64(63 - bits.LeadingZeros64(v))
			}
		}
	default:
		return l.fail(in, "GLSL.std.450 instruction %d is not implemented", in.sub)
	}
	return nil
}

// glslInt gives the function of one component of the integer
// GLSL.std.450 instructions that work component by component on operands
// of the result's type, w bits wide, and its operand count; nil for the
// others.
func glslInt(sub uint32, w int) (func(x, y, z uint64) uint64, int) {
	m := mask(w)
	switch sub {
	case spirv.GLSLstd450SAbs:
		return func(x, _, _ uint64) uint64 {
			v := sext(x, w)
			if v < 0 {
				v = -v
			}
			return uint64(v) & m
		}, 1
	case spirv.GLSLstd450SSign:
		return func(x, _, _ uint64) uint64 {
			v := sext(x, w)
			s := int64(0)
			if v > 0 {
				s = 1
			} else if v < 0 {
				s = -1
			}
			return uint64(s) & m
		}, 1
	case spirv.GLSLstd450UMin:
		return func(x, y, _ uint64) uint64 { return min(x, y) }, 2
	case spirv.GLSLstd450UMax:
		return func(x, y, _ uint64) uint64 { return max(x, y) }, 2
	case spirv.GLSLstd450SMin:
		return func(x, y, _ uint64) uint64 { return uint64(min(sext(x, w), sext(y, w))) & m }, 2
	case spirv.GLSLstd450SMax:
		return func(x, y, _ uint64) uint64 { return uint64(max(sext(x, w), sext(y, w))) & m }, 2
	case spirv.GLSLstd450UClamp:
		return func(x, y, z uint64) uint64 { return min(max(x, y), z) }, 3
	case spirv.GLSLstd450SClamp:
		return func(x, y, z uint64) uint64 { return uint64(min(max(sext(x, w), sext(y, w)), sext(z, w))) & m }, 3
	}
	return nil, 0
}

// glslF1, glslF2 and glslF3 give the float64 functions of the
// GLSL.std.450 instructions that apply one to each component of one, two
// or three operands of the result's type (glsl rounds the result; row
// and vector handlers use them too, rowglsl.go), or nil.
func glslF1(sub uint32) func(float64) float64 {
	switch sub {
	case spirv.GLSLstd450Round:
		return math.Round
	case spirv.GLSLstd450RoundEven:
		return math.RoundToEven
	case spirv.GLSLstd450Trunc:
		return math.Trunc
	case spirv.GLSLstd450FSign:
		return func(a float64) float64 {
			switch {
			case a > 0:
				return 1
			case a < 0:
				return -1
			}
			return a
		}
	case spirv.GLSLstd450Floor:
		return math.Floor
	case spirv.GLSLstd450Ceil:
		return math.Ceil
	case spirv.GLSLstd450Fract:
		return func(a float64) float64 {
			if math.IsInf(a, 0) {
				return math.NaN()
			}
			return a - math.Floor(a)
		}
	case spirv.GLSLstd450Radians:
		return func(a float64) float64 { return a * math.Pi / 180 }
	case spirv.GLSLstd450Degrees:
		return func(a float64) float64 { return a * 180 / math.Pi }
	case spirv.GLSLstd450Sin:
		return math.Sin
	case spirv.GLSLstd450Cos:
		return math.Cos
	case spirv.GLSLstd450Tan:
		return math.Tan
	case spirv.GLSLstd450Asin:
		return math.Asin
	case spirv.GLSLstd450Acos:
		return math.Acos
	case spirv.GLSLstd450Atan:
		return math.Atan
	case spirv.GLSLstd450Sinh:
		return math.Sinh
	case spirv.GLSLstd450Cosh:
		return math.Cosh
	case spirv.GLSLstd450Tanh:
		return math.Tanh
	case spirv.GLSLstd450Asinh:
		return math.Asinh
	case spirv.GLSLstd450Acosh:
		return math.Acosh
	case spirv.GLSLstd450Atanh:
		return math.Atanh
	case spirv.GLSLstd450Exp:
		return math.Exp
	case spirv.GLSLstd450Log:
		return math.Log
	case spirv.GLSLstd450Exp2:
		return math.Exp2
	case spirv.GLSLstd450Log2:
		return math.Log2
	case spirv.GLSLstd450Sqrt:
		return math.Sqrt
	case spirv.GLSLstd450InverseSqrt:
		return func(a float64) float64 { return 1 / math.Sqrt(a) }
	}
	return nil
}

func glslF2(sub uint32) func(a, b float64) float64 {
	switch sub {
	case spirv.GLSLstd450Atan2:
		return math.Atan2
	case spirv.GLSLstd450Pow:
		return math.Pow
	case spirv.GLSLstd450FMin, spirv.GLSLstd450NMin:
		return fpMin
	case spirv.GLSLstd450FMax, spirv.GLSLstd450NMax:
		return fpMax
	case spirv.GLSLstd450Step:
		return func(e, v float64) float64 {
			if v < e {
				return 0
			}
			return 1
		}
	}
	return nil
}

func glslF3(sub uint32) func(a, b, c float64) float64 {
	switch sub {
	case spirv.GLSLstd450FClamp, spirv.GLSLstd450NClamp:
		return func(a, lo, hi float64) float64 { return fpMin(fpMax(a, lo), hi) }
	case spirv.GLSLstd450FMix:
		return func(a, b, t float64) float64 { return float64(a*(1-t)) + float64(b*t) }
	case spirv.GLSLstd450SmoothStep:
		return func(e0, e1, v float64) float64 {
			t := math.Min(math.Max((v-e0)/(e1-e0), 0), 1)
			return t * t * (3 - 2*t)
		}
	case spirv.GLSLstd450Fma:
		return math.FMA
	}
	return nil
}

// matF64 widens an n x n column-major matrix.
func matF64(x []uint64, n int, f ffmt) []float64 {
	m := make([]float64, n*n)
	for k := range m {
		m[k] = toF64(x[k], f)
	}
	return m
}

// det is the determinant by cofactor expansion (n <= 4).
func det(m []float64, n int) float64 {
	if n == 1 {
		return m[0]
	}
	if n == 2 {
		return float64(m[0]*m[3]) - float64(m[2]*m[1])
	}
	s := 0.0
	for c := 0; c < n; c++ {
		s += float64(m[c*n] * cofactor(m, n, c, 0))
	}
	return s
}

// cofactor of element (column c, row r).
func cofactor(m []float64, n, c, r int) float64 {
	sub := make([]float64, 0, (n-1)*(n-1))
	for cc := 0; cc < n; cc++ {
		if cc == c {
			continue
		}
		for rr := 0; rr < n; rr++ {
			if rr != r {
				sub = append(sub, m[cc*n+rr])
			}
		}
	}
	v := det(sub, n-1)
	if (c+r)%2 == 1 {
		v = -v
	}
	return v
}

func inverse(m []float64, n int) []float64 {
	dt := det(m, n)
	inv := make([]float64, n*n)
	for c := 0; c < n; c++ {
		for r := 0; r < n; r++ {
			// inverse = adjugate / det; adjugate is the transposed cofactor matrix.
			inv[c*n+r] = cofactor(m, n, r, c) / dt
		}
	}
	return inv
}
