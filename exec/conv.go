package exec

import (
	"math"

	"github.com/coopshader/coop/spirv"
)

// fToInt converts with truncation toward zero. Out-of-range values, which
// SPIR-V leaves undefined, saturate to the range of the type; NaN gives 0.
func fToInt(v float64, w int, signed bool) uint64 {
	if v != v {
		return 0
	}
	v = math.Trunc(v)
	if signed {
		lo, hi := -math.Ldexp(1, w-1), math.Ldexp(1, w-1)
		switch {
		case v < lo:
			return uint64(1) << (w - 1)
		case v >= hi:
			return mask(w - 1)
		}
		return uint64(int64(v)) & mask(w)
	}
	hi := math.Ldexp(1, w)
	switch {
	case v <= 0:
		return 0
	case v >= hi:
		return mask(w)
	}
	return uint64(v)
}

// intToF rounds an integer to format f once, with rounding mode rm.
func intToF(v uint64, signed bool, w int, f ffmt, rm rounding) uint64 {
	var x float64
	neg := false
	if signed {
		s := sext(v, w)
		if s < 0 {
			neg = true
			v = uint64(-s)
		}
	}
	if v > 1<<53 && rm == rne && (f == f32 || f == f64) {
		if f == f32 {
			r := float32(v)
			if neg {
				r = -r
			}
			return uint64(math.Float32bits(r))
		}
		r := float64(v)
		if neg {
			r = -r
		}
		return math.Float64bits(r)
	}
	x = float64(v)
	if neg {
		x = -x
	}
	return fromF64(x, f, rm, false)
}

func (l *lane) evalConv(in *instr, d, x, y []uint64) error {
	ct := in.t.comp()
	w := ct.width
	act := in.at.comp()
	rm := rounding(in.sub & 3)
	sat := in.sub&256 != 0
	switch in.op {
	case spirv.OpConvertFToU, spirv.OpConvertFToS:
		for k := range d {
			d[k] = fToInt(toF64(x[k], act.ff), w, in.op == spirv.OpConvertFToS)
		}
	case spirv.OpConvertSToF, spirv.OpConvertUToF:
		for k := range d {
			d[k] = intToF(x[k], in.op == spirv.OpConvertSToF, act.width, ct.ff, rm)
		}
	case spirv.OpUConvert:
		for k := range d {
			d[k] = x[k] & mask(w)
		}
	case spirv.OpSConvert:
		for k := range d {
			d[k] = uint64(sext(x[k], act.width)) & mask(w)
		}
	case spirv.OpFConvert:
		for k := range d {
			d[k] = fromF64(toF64(x[k], act.ff), ct.ff, rm, sat)
		}
	case spirv.OpQuantizeToF16:
		for k := range d {
			h := fromF64(toF64(x[k], f32), f16, rne, false)
			if h&0x7c00 == 0 {
				h &= 0x8000 // denormal halves flush to zero
			}
			d[k] = fromF64(toF64(h, f16), f32, rne, false)
		}
	case spirv.OpSatConvertSToU:
		for k := range d {
			s := sext(x[k], act.width)
			switch {
			case s < 0:
				d[k] = 0
			case uint64(s) > mask(w):
				d[k] = mask(w)
			default:
				d[k] = uint64(s)
			}
		}
	case spirv.OpSatConvertUToS:
		for k := range d {
			d[k] = min(x[k], mask(w-1))
		}
	case spirv.OpConvertPtrToU:
		d[0] = x[0] & mask(w)
	case spirv.OpConvertUToPtr:
		d[0] = x[0]
	case spirv.OpPtrEqual:
		d[0] = b2u(x[0] == y[0])
	case spirv.OpPtrNotEqual:
		d[0] = b2u(x[0] != y[0])
	case spirv.OpPtrDiff:
		et := in.at.elem
		st := roundUp(et.size, et.align)
		d[0] = uint64((int64(x[0]) - int64(y[0])) / int64(max(st, 1)))
	case spirv.OpBitcast:
		return l.bitcast(in, d, x)
	case spirv.OpBitCastArrayQCOM:
		if in.t.kind != kArray || in.at.kind != kArray {
			return l.fail(in, "OpBitCastArrayQCOM needs arrays")
		}
		repack(d, bitWidth(in.t.elem), x[:in.at.slots], bitWidth(in.at.elem))
	case spirv.OpExtractSubArrayQCOM:
		// Past the end of the source (undefined) reads zeros.
		start := uint64(sext(y[0], l.regsType(in, 1).width))
		for k := range d {
			d[k] = 0
			if i := start + uint64(k); i < uint64(in.at.slots) {
				d[k] = x[i]
			}
		}
	case spirv.OpBitcastExtractEXT:
		bitcastExtract(d, x, act.width, w, y[0]&mask(l.regsType(in, 1).width))
	case spirv.OpVectorTimesScalar, spirv.OpMatrixTimesScalar:
		for k := range d {
			d[k] = l.mul(ct, x[k], y[0])
		}
	case spirv.OpDot:
		acc := uint64(0)
		for k := 0; k < in.at.count; k++ {
			acc = fround(toF64(acc, ct.ff)+toF64(l.mul(ct, x[k], y[k]), ct.ff), ct.ff)
		}
		d[0] = acc
	case spirv.OpMatrixTimesVector:
		rows := in.t.count
		cols := in.at.count
		for i := 0; i < rows; i++ {
			acc := uint64(0)
			for c := 0; c < cols; c++ {
				acc = fround(toF64(acc, ct.ff)+toF64(l.mul(ct, x[c*rows+i], y[c]), ct.ff), ct.ff)
			}
			d[i] = acc
		}
	case spirv.OpVectorTimesMatrix:
		mt := l.regsType(in, 1)
		rows := mt.elem.count
		for c := range d {
			acc := uint64(0)
			for i := 0; i < rows; i++ {
				acc = fround(toF64(acc, ct.ff)+toF64(l.mul(ct, x[i], y[c*rows+i]), ct.ff), ct.ff)
			}
			d[c] = acc
		}
	case spirv.OpMatrixTimesMatrix:
		rows := in.t.elem.count
		inner := in.at.count
		for j := 0; j < in.t.count; j++ {
			for i := 0; i < rows; i++ {
				acc := uint64(0)
				for k := 0; k < inner; k++ {
					acc = fround(toF64(acc, ct.ff)+toF64(l.mul(ct, x[k*rows+i], y[j*inner+k]), ct.ff), ct.ff)
				}
				d[j*rows+i] = acc
			}
		}
	case spirv.OpOuterProduct:
		rows := in.t.elem.count
		for c := 0; c < in.t.count; c++ {
			for i := 0; i < rows; i++ {
				d[c*rows+i] = l.mul(ct, x[i], y[c])
			}
		}
	case spirv.OpTranspose:
		rows := in.t.elem.count // = columns of the operand
		cols := in.t.count      // = rows of the operand
		for c := 0; c < cols; c++ {
			for i := 0; i < rows; i++ {
				d[c*rows+i] = x[i*cols+c]
			}
		}
	case spirv.OpExtInst:
		return l.glsl(in, d)
	case spirv.OpSDot, spirv.OpUDot, spirv.OpSUDot, spirv.OpSDotAccSat, spirv.OpUDotAccSat, spirv.OpSUDotAccSat:
		d[0] = l.intDot(in)
	case spirv.OpFDot2MixAcc32VALVE, spirv.OpFDot2MixAcc16VALVE, spirv.OpFDot4MixAcc32VALVE:
		d[0] = l.mixDot(in)
	default:
		return l.fail(in, "instruction is not implemented")
	}
	return nil
}

// mul multiplies two components of type t (float or integer).
func (l *lane) mul(t *typ, a, b uint64) uint64 {
	if t.kind == kInt {
		return a * b & mask(t.width)
	}
	return fround(toF64(a, t.ff)*toF64(b, t.ff), t.ff)
}

// regsType gives the type of value operand k (recorded at prepare time).
func (l *lane) regsType(in *instr, k int) *typ {
	return in.aux.([]*typ)[k]
}

func (l *lane) bitcast(in *instr, d, x []uint64) error {
	sw, dw := bitWidth(in.at.comp()), bitWidth(in.t.comp())
	if in.at.slots*sw != in.t.slots*dw {
		return l.fail(in, "bitcast between types of different sizes")
	}
	if sw == dw {
		copy(d, x[:len(d)])
		return nil
	}
	repack(d, dw, x[:in.at.slots], sw)
	return nil
}

// intDot is the SPV_KHR_integer_dot_product family: the exact dot product,
// truncated to the result width, or with AccSat added to the accumulator
// with saturation (signed for SDot and SUDot, unsigned for UDot).
func (l *lane) intDot(in *instr) uint64 {
	r := l.regs
	s1 := in.op == spirv.OpSDot || in.op == spirv.OpSUDot || in.op == spirv.OpSDotAccSat || in.op == spirv.OpSUDotAccSat
	s2 := in.op == spirv.OpSDot || in.op == spirv.OpSDotAccSat
	var a, b []int64
	if in.sub == 1 {
		for k := 0; k < 4; k++ {
			x, y := r[in.a[0]]>>(8*k)&0xff, r[in.a[1]]>>(8*k)&0xff
			a, b = append(a, ext8(x, s1)), append(b, ext8(y, s2))
		}
	} else {
		ct := in.at.comp()
		for k := 0; k < in.at.slots; k++ {
			a = append(a, extW(r[in.a[0]+int32(k)], ct.width, s1))
			b = append(b, extW(r[in.a[1]+int32(k)], ct.width, s2))
		}
	}
	sum := int64(0)
	for k := range a {
		sum += a[k] * b[k]
	}
	w := in.t.width
	if len(in.a) < 3 {
		return uint64(sum) & mask(w)
	}
	return satAdd(extW(r[in.a[2]], w, in.op != spirv.OpUDotAccSat), sum, w, in.op != spirv.OpUDotAccSat)
}

func ext8(v uint64, signed bool) int64 { return extW(v, 8, signed) }

func extW(v uint64, w int, signed bool) int64 {
	if signed {
		return sext(v, w)
	}
	return int64(v & mask(w))
}
