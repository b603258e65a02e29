package exec

import (
	"math"
	"strconv"

	"github.com/coopshader/coop/profile"
	"github.com/coopshader/coop/spirv"
)

// fenv is a program's floating-point environment where it differs from
// the executor's defaults (correct rounding to nearest even, denormals
// kept, canonical NaNs): the float-controls execution modes of the entry
// point (RoundingModeRTE/RTZ, DenormPreserve, DenormFlushToZero) and a
// device profile's implementation-defined choices (profile.Numerics).
// Programs without either have no fenv and never reach this file.
type fenv struct {
	nan    [uf10 + 1]uint64 // NaN result pattern per format
	nanSet [uf10 + 1]bool
	// flushArith flushes denormal operands and results of arithmetic;
	// flushConv those of conversions (only DenormFlushToZero does: the
	// H100 keeps denormals through conversions).
	flushArith [uf10 + 1]bool
	flushConv  [uf10 + 1]bool
	// rtz makes arithmetic of the format round toward zero
	// (RoundingModeRTZ).
	rtz [uf10 + 1]bool
	ins map[*instr]uint8 // the instructions the environment touches: feOn, plus feTrunc
}

const (
	feOn    = 1
	feTrunc = 2 // an undecorated narrowing conversion that truncates (NaNs keep their top bits)
)

// widthFormats are the IEEE formats an execution mode's Target Width names.
func widthFormats(w uint32) []ffmt {
	switch w {
	case 16:
		return []ffmt{f16}
	case 32:
		return []ffmt{f32}
	case 64:
		return []ffmt{f64}
	}
	return nil
}

// profileFormat is the float format a device profile names (a switch,
// not a map that package init would build for every start of coop).
func profileFormat(t string) (ffmt, bool) {
	switch t {
	case "float16":
		return f16, true
	case "float32":
		return f32, true
	case "float64":
		return f64, true
	case "bfloat16":
		return bf16, true
	}
	return 0, false
}

// setFloatEnv gives p its float environment from the entry point's
// execution modes and a device's numerics (nil: none); the modes
// override the device's, FPRoundingMode decorations override both.
func (p *prog) setFloatEnv(entry string, num *profile.Numerics) {
	e := &fenv{ins: map[*instr]uint8{}}
	active := false
	conv := map[ffmt]rounding{} // default rounding of conversions to a format
	trunc := map[ffmt]bool{}    // conversions to the format truncate (profile "trunc")
	if num != nil {
		n := *num
		for t, s := range n.NaN {
			if f, ok := profileFormat(t); ok {
				if v, err := strconv.ParseUint(s, 0, 64); err == nil {
					e.nan[f], e.nanSet[f], active = v, true, true
				}
			}
		}
		for _, w := range n.FlushDenormals {
			if v, err := strconv.Atoi(w); err == nil {
				for _, f := range widthFormats(uint32(v)) {
					e.flushArith[f], active = true, true
				}
			}
		}
		for t, s := range n.NarrowingRounding {
			if f, ok := profileFormat(t); ok && (s == "rtz" || s == "trunc") {
				conv[f], trunc[f], active = rtz, s == "trunc", true
			}
		}
	}
	entryFn, found := uint32(0), false
	for i := range p.m.Insts {
		in := &p.m.Insts[i]
		w := in.Words
		switch in.Op {
		case spirv.OpEntryPoint:
			if len(w) >= 3 && !found && spirv.ExecutionModel(w[0]) == spirv.ExecutionModelGLCompute {
				if name, _, _ := spirv.DecodeString(w[2:]); name == entry || entry == "" {
					entryFn, found = w[1], true
				}
			}
		case spirv.OpExecutionMode:
			if len(w) < 3 || !found || w[0] != entryFn {
				continue
			}
			fs := widthFormats(w[2])
			for _, f := range fs {
				switch spirv.ExecutionMode(w[1]) {
				case spirv.ExecutionModeDenormFlushToZero:
					e.flushArith[f], e.flushConv[f], active = true, true, true
				case spirv.ExecutionModeDenormPreserve:
					e.flushArith[f], e.flushConv[f] = false, false
				case spirv.ExecutionModeRoundingModeRTZ:
					e.rtz[f], conv[f], trunc[f], active = true, rtz, false, true
				case spirv.ExecutionModeRoundingModeRTE:
					e.rtz[f], conv[f], trunc[f] = false, rne, false
				}
			}
		case spirv.OpFunction:
			i = len(p.m.Insts)
		}
	}
	if !active {
		p.fe = nil
		p.pickVecs()
		return
	}
	for k := range p.code {
		in := &p.code[k]
		if in.t == nil || in.t.comp().kind != kFloat {
			continue
		}
		switch in.op {
		case spirv.OpFConvert:
			e.ins[in] = feOn
			if d := p.decos[in.id]; d == nil || d.round < 0 {
				f := in.t.comp().ff
				in.sub = in.sub&^3 | uint32(conv[f])
				if trunc[f] && in.at != nil && in.at.comp().ff == f32 && f == bf16 {
					e.ins[in] = feOn | feTrunc
				}
			}
		case spirv.OpFAdd, spirv.OpFSub, spirv.OpFMul, spirv.OpFDiv, spirv.OpFRem, spirv.OpFMod,
			spirv.OpVectorTimesScalar, spirv.OpMatrixTimesScalar, spirv.OpVectorTimesMatrix,
			spirv.OpMatrixTimesVector, spirv.OpMatrixTimesMatrix, spirv.OpOuterProduct, spirv.OpDot, spirv.OpExtInst:
			e.ins[in] = feOn
		}
	}
	p.fe = e
	p.pickVecs()
}

// isDenormal reports whether b is a denormal of format f.
func isDenormal(b uint64, f ffmt) bool {
	switch f {
	case f16:
		return b&0x7c00 == 0 && b&0x3ff != 0
	case bf16:
		return b&0x7f80 == 0 && b&0x7f != 0
	case f32:
		return b&0x7f800000 == 0 && b&0x7fffff != 0
	case f64:
		return b&0x7ff0000000000000 == 0 && b&0xfffffffffffff != 0
	}
	return false
}

func isNaN(b uint64, f ffmt) bool {
	switch f {
	case f16:
		return b&0x7c00 == 0x7c00 && b&0x3ff != 0
	case bf16:
		return b&0x7f80 == 0x7f80 && b&0x7f != 0
	case f32:
		return b&0x7f800000 == 0x7f800000 && b&0x7fffff != 0
	case f64:
		return b&0x7ff0000000000000 == 0x7ff0000000000000 && b&0xfffffffffffff != 0
	}
	return false
}

// signBit is the sign bit of format f (0 for formats it does not handle).
func signBit(f ffmt) uint64 {
	switch f {
	case f16, bf16:
		return 0x8000
	case f32:
		return 0x80000000
	case f64:
		return 1 << 63
	}
	return 0
}

// evalFenv runs in under the program's float environment: denormal
// operands flushed (they are restored afterwards: the registers are the
// values' only copies), the operation, then NaN results replaced by the
// environment's pattern and denormal results flushed to zero, keeping
// the sign.
func (l *lane) evalFenv(in *instr) error {
	e := l.p.fe
	conv := in.op == spirv.OpFConvert
	flush := &e.flushArith
	if conv {
		flush = &e.flushConv
	}
	tys, _ := in.aux.([]*typ)
	type saved struct {
		at int32
		v  uint64
	}
	var keep []saved
	for k, a := range in.a {
		if k >= len(tys) || tys[k] == nil || tys[k].comp().kind != kFloat {
			continue
		}
		f := tys[k].comp().ff
		if !flush[f] {
			continue
		}
		for s := int32(0); s < int32(tys[k].slots); s++ {
			if v := l.regs[a+s]; isDenormal(v, f) {
				keep = append(keep, saved{a + s, v})
				l.regs[a+s] = v & signBit(f)
			}
		}
	}
	var err error
	if e.rtz[in.t.comp().ff] {
		err = l.evalRTZ(in)
	} else {
		err = l.evalPlain(in)
	}
	for _, s := range keep {
		l.regs[s.at] = s.v
	}
	if err != nil {
		return err
	}
	f := in.t.comp().ff
	d := l.regs[in.res : in.res+int32(in.t.slots)]
	if e.ins[in]&feTrunc != 0 {
		// f32 to bf16 by truncation: a NaN keeps its top 16 bits.
		x := l.regs[in.a[0]:]
		for k := range d {
			if isNaN(x[k], f32) {
				d[k] = x[k] >> 16
			}
		}
		return nil
	}
	for k, v := range d {
		switch {
		case e.nanSet[f] && isNaN(v, f):
			d[k] = e.nan[f]
		case flush[f] && isDenormal(v, f):
			d[k] = v & signBit(f)
		}
	}
	return nil
}

// evalRTZ runs FAdd, FSub, FMul and FDiv rounding toward zero
// (RoundingModeRTZ); others run as usual. The float64 result is exact
// for products and fp16 sums; otherwise its error's sign (TwoSum for sums,
// the fused remainder for quotients) decides the direction when the
// float64 result is itself representable.
func (l *lane) evalRTZ(in *instr) error {
	switch in.op {
	case spirv.OpFAdd, spirv.OpFSub, spirv.OpFMul, spirv.OpFDiv:
	default:
		return l.evalPlain(in)
	}
	ff := in.t.comp().ff
	r := l.regs
	d := r[in.res : in.res+int32(in.t.slots)]
	x, y := r[in.a[0]:], r[in.a[1]:]
	for k := range d {
		a, b := toF64(x[k], ff), toF64(y[k], ff)
		var s, errTerm float64
		switch in.op {
		case spirv.OpFAdd, spirv.OpFSub:
			if in.op == spirv.OpFSub {
				b = -b
			}
			s = a + b
			bb := s - a
			errTerm = (a - (s - bb)) + (b - bb)
		case spirv.OpFMul:
			s = a * b
			errTerm = math.FMA(a, b, -s)
		case spirv.OpFDiv:
			// The remainder a - s*b is exact; the true quotient exceeds s
			// when it has the sign of b.
			s = a / b
			if rem := math.FMA(-s, b, a); rem != 0 && !math.IsInf(b, 0) {
				errTerm = math.Copysign(1, rem) * math.Copysign(1, b)
			}
		}
		v := fromF64(s, ff, rtz, false)
		if errTerm != 0 && !math.IsInf(s, 0) && s == s && toF64(v, ff) == s && (errTerm < 0) != (s < 0) && s != 0 {
			v-- // one step toward zero: the magnitude's bits are ordered
		}
		d[k] = v
	}
	return nil
}
