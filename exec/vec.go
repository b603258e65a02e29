package exec

import (
	"encoding/binary"
	"math"
	"sync"

	"github.com/coopshader/coop/spirv"
)

// Vector handlers. The commonest instructions get, at load time, a
// handler that runs them for a whole list of invocations (a converged
// subgroup in lockstep, or one invocation on its own) with the operation,
// widths and operand slots fixed once: no type switch or chain of tests per
// invocation. They compute exactly what the general code (eval, evalConv,
// exec) computes. A handler reports false when an invocation needs the
// general path (an index out of range, an address outside the regions it
// knows); the caller then runs the instruction the general way for every
// invocation, which is safe because what a handler did before declining
// (register results, stores of the same values in the same order) is
// redone identically.
type vecOp func(sg []*lane, in *instr) bool

// pickVecs chooses the family (interp.go), the vector handler and the
// row handler (rows.go) of every instruction; those a float environment
// touches (fenv.go) keep the general path, and an instruction without a
// vector handler has no row handler either.
func (p *prog) pickVecs() {
	p.wideColl = true
	for k := range p.code {
		in := &p.code[k]
		// Workgroup-scope cooperative matrices run in the wide lockstep
		// (lockColl: wideMat).
		if in.coll && !isBarrier(in.op) && (in.wg || !isGroupOp(in.op)) && !wideMat(in) {
			p.wideColl = false
		}
		in.fam = family(in.op)
		if in.op == spirv.OpBranchConditional {
			in.masked = p.findMasked(in)
		}
		in.vec, in.row = nil, nil
		if p.fe == nil || p.fe.ins[in] == 0 {
			in.vec = charged(in, pickVec(in))
			in.row = chargedRow(in, affRow(in, pickRow(in)))
		}
	}
	p.int4Pointers()
	for k := range p.code {
		if in := &p.code[k]; in.vec == nil {
			in.row = nil
		}
	}
}

// plainWidth reports the integer and float widths the handlers cover.
func plainWidth(w int) bool { return w == 8 || w == 16 || w == 32 || w == 64 }

func pickVec(in *instr) vecOp {
	if in.coll || in.t == nil && in.op != spirv.OpStore {
		return nil
	}
	switch in.lk {
	case lkPure, lkLoad, lkLoadU, lkLoadS, lkStore:
	default:
		return nil
	}
	switch in.fast {
	case fExtract:
		return vExtract
	case fCopy:
		return vCopy
	case fChain:
		return vChain(in.ch)
	}
	if plainDynamic(in) {
		return vExtractDyn
	}
	if floatTimesScalar(in) {
		return vTimesScalar
	}
	if ptrCast(in) {
		return vPtrCast
	}
	if plainConstruct(in) {
		return vConstruct
	}
	switch in.op {
	case spirv.OpLoad:
		return pickLoad(in)
	case spirv.OpStore:
		return pickStore(in)
	case spirv.OpSelect:
		if in.t.slots == 1 && in.at != nil && in.at.slots == 1 && len(in.a) == 3 {
			return vSelect
		}
		return nil
	}
	if _, _, _, _, ok := repackShape(in); ok {
		return vRepack
	}
	if g, args := glslElem(in); g != nil {
		return glslVec(int32(in.t.slots), args, g)
	}
	f := elemFunc(in)
	if f == nil {
		return nil
	}
	n := int32(in.t.slots)
	if len(in.a) == 2 {
		return bin(n, f)
	}
	return un(n, f)
}

// elemFunc gives the function of one component (of one operand, or of
// two) of the arithmetic, comparisons and conversions the handlers cover,
// or nil.
func elemFunc(in *instr) func(x, y uint64) uint64 {
	n := in.t.slots
	if in.at == nil || in.at.slots != n || n < 1 || n > 4 {
		return nil
	}
	ct, act := in.t.comp(), in.at.comp()
	switch len(in.a) {
	case 2:
		switch {
		case ct.kind == kInt && act.kind == kInt && plainWidth(ct.width):
			return pickIntBin(in.op, ct.width)
		case ct.kind == kBool && act.kind == kInt && plainWidth(act.width):
			return pickIntCmp(in.op, act.width)
		case ct.kind == kBool && act.kind == kBool:
			return pickBoolBin(in.op)
		case ct.kind == kFloat && ct.ff == f32 && act.kind == kFloat && act.ff == f32 && in.sub == 0:
			return pickF32Bin(in.op)
		case ct.kind == kBool && act.kind == kFloat && act.ff == f32:
			return pickF32Cmp(in.op)
		case ct.kind == kFloat && ct.ff == f16 && act.kind == kFloat && act.ff == f16 && in.sub == 0:
			return pickF16Bin(in.op)
		}
	case 1:
		return pickConv(in, ct, act)
	}
	return nil
}

func vExtract(sg []*lane, in *instr) bool {
	d, s := in.res, in.a[0]+int32(in.sub)
	for _, l := range sg {
		l.regs[d] = l.regs[s]
	}
	return true
}

// plainDynamic reports an OpVectorExtractDynamic from a vector of one
// slot per component (the handlers' form).
func plainDynamic(in *instr) bool {
	return in.op == spirv.OpVectorExtractDynamic && len(in.a) == 2 && in.t != nil && in.t.slots == 1 &&
		in.at != nil && in.at.kind == kVector && in.at.slots == in.at.count
}

// vExtractDyn is OpVectorExtractDynamic as eval runs it: an index out
// of range gives 0.
func vExtractDyn(sg []*lane, in *instr) bool {
	d, s, x, n := in.res, in.a[0], in.a[1], uint64(in.at.count)
	for _, l := range sg {
		r := l.regs
		if i := r[x]; i < n {
			r[d] = r[s+int32(i)]
		} else {
			r[d] = 0
		}
	}
	return true
}

// floatTimesScalar reports an OpVectorTimesScalar of plain float
// vectors, which the handlers compute as eval's mul does.
func floatTimesScalar(in *instr) bool {
	if in.op != spirv.OpVectorTimesScalar || len(in.a) != 2 || in.t == nil || in.t.kind != kVector || in.t.slots != in.t.count {
		return false
	}
	ct := in.t.comp()
	return ct.kind == kFloat && (ct.ff == f16 || ct.ff == f32 || ct.ff == f64)
}

// vTimesScalar is floatTimesScalar's OpVectorTimesScalar.
func vTimesScalar(sg []*lane, in *instr) bool {
	ff, n := in.t.comp().ff, int32(in.t.count)
	d, a, b := in.res, in.a[0], in.a[1]
	for _, l := range sg {
		r := l.regs
		y := toF64(r[b], ff)
		for k := int32(0); k < n; k++ {
			r[d+k] = fround(toF64(r[a+k], ff)*y, ff)
		}
	}
	return true
}

// plainConstruct reports an OpCompositeConstruct of a vector, array or
// struct from its constituents' slots (eval's concatenation).
func plainConstruct(in *instr) bool {
	if in.op != spirv.OpCompositeConstruct || in.t == nil || len(in.lit) != len(in.a) ||
		in.t.kind != kVector && in.t.kind != kArray && in.t.kind != kStruct {
		return false
	}
	n := 0
	for _, c := range in.lit {
		n += int(c)
	}
	return n == in.t.slots
}

// vConstruct is plainConstruct's OpCompositeConstruct.
func vConstruct(sg []*lane, in *instr) bool {
	for _, l := range sg {
		r, k := l.regs, in.res
		for j, s := range in.a {
			c := int32(in.lit[j])
			copy(r[k:k+c], r[s:s+c])
			k += c
		}
	}
	return true
}

func vCopy(sg []*lane, in *instr) bool {
	d, s, n := in.res, in.a[0], int32(in.m)
	for _, l := range sg {
		r := l.regs
		copy(r[d:d+n], r[s:s+n])
	}
	return true
}

func vSelect(sg []*lane, in *instr) bool {
	d, c, a, b := in.res, in.a[0], in.a[1], in.a[2]
	for _, l := range sg {
		r := l.regs
		if r[c] != 0 {
			r[d] = r[a]
		} else {
			r[d] = r[b]
		}
	}
	return true
}

// vChain computes an access chain without a descriptor table.
//
//go:noinline
func vChain(c *chain) vecOp {
	off := uint64(c.off)
	if len(c.steps) == 1 {
		s := c.steps[0]
		return func(sg []*lane, in *instr) bool {
			d, b := in.res, in.a[0]
			for _, l := range sg {
				r := l.regs
				k := sext(r[s.slot], s.w)
				if s.bound > 0 && uint64(k) >= uint64(s.bound) {
					return false
				}
				r[d] = r[b] + off + uint64(k*int64(s.stride))
			}
			return true
		}
	}
	return func(sg []*lane, in *instr) bool {
		d, b := in.res, in.a[0]
		for _, l := range sg {
			r := l.regs
			addr := r[b] + off
			for _, s := range c.steps {
				k := sext(r[s.slot], s.w)
				if s.bound > 0 && uint64(k) >= uint64(s.bound) {
					return false
				}
				addr += uint64(k * int64(s.stride))
			}
			r[d] = addr
		}
		return true
	}
}

// plainMem returns the n bytes at addr when they lie in a buffer, the
// workgroup's memory or the invocation's own, or nil (the general path then decides, faulting if
// it must).
func (l *lane) plainMem(addr uint64, n uint64) []byte {
	off := addr & (1<<offBits - 1)
	var b []byte
	switch addr >> 56 {
	case regBuf:
		idx := (addr >> offBits) & 0xffff
		bufs := l.x.bufs
		if idx >= uint64(len(bufs)) || bufs[idx] == nil {
			return nil
		}
		b = bufs[idx].data
	case regWG:
		if (addr>>offBits)&0xffff != 0 || l.wg == nil {
			return nil
		}
		b = l.gmem
	case regInv:
		if (addr>>offBits)&0xffff != 0 {
			return nil
		}
		if l.memStale {
			l.fillMem()
		}
		b = l.mem
	default:
		return nil
	}
	if off > uint64(len(b)) || n > uint64(len(b))-off {
		return nil
	}
	return b[off : off+n]
}

// memScalar reports whether t is an int or float scalar the memory
// handlers move as plain little-endian bytes.
func memScalar(t *typ) bool {
	return t != nil && (t.kind == kInt || t.kind == kFloat) && plainWidth(t.width)
}

func pickLoad(in *instr) vecOp {
	if plainVecLoad(in) {
		return vLoadVec
	}
	if !memScalar(in.t) || in.ml.stride != 0 {
		return nil
	}
	switch in.t.width {
	case 8:
		return vLoad8
	case 16:
		return vLoad16
	case 32:
		return vLoad32
	}
	return vLoad64
}

// plainVecLoad reports a load of a vector of plain scalars laid out one
// after another (no matrix stride, no nibbles): loadBytes' vectors.
func plainVecLoad(in *instr) bool {
	t := in.t
	return in.op == spirv.OpLoad && t != nil && t.kind == kVector && memScalar(t.elem) && in.ml.stride == 0 &&
		!t.nibbles() && t.slots == t.count && t.size >= t.count*t.elem.size
}

// vLoadVec is plainVecLoad's load, each invocation's whole extent
// checked as the general path's region is.
func vLoadVec(sg []*lane, in *instr) bool {
	t := in.t
	d, a, es := in.res, in.a[0], t.elem.size
	for _, l := range sg {
		b := l.plainMem(l.regs[a], uint64(t.size))
		if b == nil {
			return false
		}
		for k := 0; k < t.count; k++ {
			l.regs[d+int32(k)] = rdScalar(t.elem, b[k*es:])
		}
	}
	return true
}

func vLoad8(sg []*lane, in *instr) bool {
	d, a := in.res, in.a[0]
	for _, l := range sg {
		b := l.plainMem(l.regs[a], 1)
		if b == nil {
			return false
		}
		l.regs[d] = uint64(b[0])
	}
	return true
}

func vLoad16(sg []*lane, in *instr) bool {
	d, a := in.res, in.a[0]
	for _, l := range sg {
		b := l.plainMem(l.regs[a], 2)
		if b == nil {
			return false
		}
		l.regs[d] = uint64(binary.LittleEndian.Uint16(b))
	}
	return true
}

func vLoad32(sg []*lane, in *instr) bool {
	d, a := in.res, in.a[0]
	for _, l := range sg {
		b := l.plainMem(l.regs[a], 4)
		if b == nil {
			return false
		}
		l.regs[d] = uint64(binary.LittleEndian.Uint32(b))
	}
	return true
}

func vLoad64(sg []*lane, in *instr) bool {
	d, a := in.res, in.a[0]
	for _, l := range sg {
		b := l.plainMem(l.regs[a], 8)
		if b == nil {
			return false
		}
		l.regs[d] = binary.LittleEndian.Uint64(b)
	}
	return true
}

func pickStore(in *instr) vecOp {
	if !memScalar(in.at) || in.ml.stride != 0 {
		return nil
	}
	switch in.at.width {
	case 8:
		return vStore8
	case 16:
		return vStore16
	case 32:
		return vStore32
	}
	return vStore64
}

func vStore8(sg []*lane, in *instr) bool {
	p, v := in.a[0], in.a[1]
	for _, l := range sg {
		b := l.plainMem(l.regs[p], 1)
		if b == nil {
			return false
		}
		b[0] = byte(l.regs[v])
	}
	return true
}

func vStore16(sg []*lane, in *instr) bool {
	p, v := in.a[0], in.a[1]
	for _, l := range sg {
		b := l.plainMem(l.regs[p], 2)
		if b == nil {
			return false
		}
		binary.LittleEndian.PutUint16(b, uint16(l.regs[v]))
	}
	return true
}

func vStore32(sg []*lane, in *instr) bool {
	p, v := in.a[0], in.a[1]
	for _, l := range sg {
		b := l.plainMem(l.regs[p], 4)
		if b == nil {
			return false
		}
		binary.LittleEndian.PutUint32(b, uint32(l.regs[v]))
	}
	return true
}

func vStore64(sg []*lane, in *instr) bool {
	p, v := in.a[0], in.a[1]
	for _, l := range sg {
		b := l.plainMem(l.regs[p], 8)
		if b == nil {
			return false
		}
		binary.LittleEndian.PutUint64(b, l.regs[v])
	}
	return true
}

// bin makes a handler applying f to n components of two operands.
//
//go:noinline
func bin(n int32, f func(x, y uint64) uint64) vecOp {
	if n == 1 {
		return func(sg []*lane, in *instr) bool {
			d, a, b := in.res, in.a[0], in.a[1]
			for _, l := range sg {
				r := l.regs
				r[d] = f(r[a], r[b])
			}
			return true
		}
	}
	return func(sg []*lane, in *instr) bool {
		d, a, b := in.res, in.a[0], in.a[1]
		for _, l := range sg {
			r := l.regs
			for k := int32(0); k < n; k++ {
				r[d+k] = f(r[a+k], r[b+k])
			}
		}
		return true
	}
}

// un makes a handler applying f (its second operand unused) to n
// components of one operand.
//
//go:noinline
func un(n int32, f func(x, y uint64) uint64) vecOp {
	return func(sg []*lane, in *instr) bool {
		d, a := in.res, in.a[0]
		for _, l := range sg {
			r := l.regs
			for k := int32(0); k < n; k++ {
				r[d+k] = f(r[a+k], 0)
			}
		}
		return true
	}
}

func pickIntBin(op spirv.Op, w int) func(x, y uint64) uint64 {
	m := mask(w)
	sh := uint64(w - 1)
	switch op {
	case spirv.OpIAdd:
		return func(x, y uint64) uint64 { return (x + y) & m }
	case spirv.OpISub:
		return func(x, y uint64) uint64 { return (x - y) & m }
	case spirv.OpIMul:
		return func(x, y uint64) uint64 { return x * y & m }
	case spirv.OpBitwiseAnd:
		return func(x, y uint64) uint64 { return (x & y) & m }
	case spirv.OpBitwiseOr:
		return func(x, y uint64) uint64 { return (x | y) & m }
	case spirv.OpBitwiseXor:
		return func(x, y uint64) uint64 { return (x ^ y) & m }
	case spirv.OpShiftLeftLogical:
		return func(x, y uint64) uint64 { return x << (y & sh) & m }
	case spirv.OpShiftRightLogical:
		return func(x, y uint64) uint64 { return x >> (y & sh) & m }
	case spirv.OpShiftRightArithmetic:
		return func(x, y uint64) uint64 { return uint64(sext(x, w)>>(y&sh)) & m }
	case spirv.OpUDiv:
		return func(x, y uint64) uint64 {
			if y == 0 {
				return m
			}
			return x / y & m
		}
	case spirv.OpUMod:
		return func(x, y uint64) uint64 {
			if y == 0 {
				return 0
			}
			return x % y & m
		}
	}
	return nil
}

func pickIntCmp(op spirv.Op, w int) func(x, y uint64) uint64 {
	switch op {
	case spirv.OpIEqual:
		return func(x, y uint64) uint64 { return b2u(x == y) }
	case spirv.OpINotEqual:
		return func(x, y uint64) uint64 { return b2u(x != y) }
	case spirv.OpULessThan:
		return func(x, y uint64) uint64 { return b2u(x < y) }
	case spirv.OpULessThanEqual:
		return func(x, y uint64) uint64 { return b2u(x <= y) }
	case spirv.OpUGreaterThan:
		return func(x, y uint64) uint64 { return b2u(x > y) }
	case spirv.OpUGreaterThanEqual:
		return func(x, y uint64) uint64 { return b2u(x >= y) }
	case spirv.OpSLessThan:
		return func(x, y uint64) uint64 { return b2u(sext(x, w) < sext(y, w)) }
	case spirv.OpSLessThanEqual:
		return func(x, y uint64) uint64 { return b2u(sext(x, w) <= sext(y, w)) }
	case spirv.OpSGreaterThan:
		return func(x, y uint64) uint64 { return b2u(sext(x, w) > sext(y, w)) }
	case spirv.OpSGreaterThanEqual:
		return func(x, y uint64) uint64 { return b2u(sext(x, w) >= sext(y, w)) }
	}
	return nil
}

//go:noinline
func pickBoolBin(op spirv.Op) func(x, y uint64) uint64 {
	switch op {
	case spirv.OpLogicalAnd:
		return func(x, y uint64) uint64 { return b2u(x&y != 0) }
	case spirv.OpLogicalOr:
		return func(x, y uint64) uint64 { return b2u(x|y != 0) }
	case spirv.OpLogicalEqual:
		return func(x, y uint64) uint64 { return b2u(x == y) }
	case spirv.OpLogicalNotEqual:
		return func(x, y uint64) uint64 { return b2u(x != y) }
	}
	return nil
}

// f32wide reads a float32 slot as float64, exactly.
func f32wide(b uint64) float64 { return float64(math.Float32frombits(uint32(b))) }

// f32bits rounds x to float32 once, NaN to the canonical quiet NaN (as
// fround does).
func f32bits(x float64) uint64 {
	if x != x {
		return fmtDescs[f32].nan
	}
	return uint64(math.Float32bits(float32(x)))
}

//go:noinline
func pickF32Bin(op spirv.Op) func(x, y uint64) uint64 {
	switch op {
	case spirv.OpFAdd:
		return func(x, y uint64) uint64 { return f32bits(f32wide(x) + f32wide(y)) }
	case spirv.OpFSub:
		return func(x, y uint64) uint64 { return f32bits(f32wide(x) - f32wide(y)) }
	case spirv.OpFMul:
		return func(x, y uint64) uint64 { return f32bits(f32wide(x) * f32wide(y)) }
	case spirv.OpFDiv:
		return func(x, y uint64) uint64 { return f32bits(f32wide(x) / f32wide(y)) }
	}
	return nil
}

// pickF16Bin is half arithmetic as the general path computes it (in
// float64, rounded once), without its dispatch: decode functions are
// made of it.
func pickF16Bin(op spirv.Op) func(x, y uint64) uint64 {
	var f func(a, b float64) float64
	switch op {
	case spirv.OpFAdd:
		f = func(a, b float64) float64 { return a + b }
	case spirv.OpFSub:
		f = func(a, b float64) float64 { return a - b }
	case spirv.OpFMul:
		f = func(a, b float64) float64 { return a * b }
	case spirv.OpFDiv:
		f = func(a, b float64) float64 { return a / b }
	default:
		return nil
	}
	return func(x, y uint64) uint64 { return fround(f(toF64(x, f16), toF64(y, f16)), f16) }
}

// fcmp makes a float32 comparison: unord is the result when an operand
// is NaN.
//
//go:noinline
func fcmp(unord bool, f func(a, b float64) bool) func(x, y uint64) uint64 {
	u := b2u(unord)
	return func(x, y uint64) uint64 {
		a, b := f32wide(x), f32wide(y)
		if a != a || b != b {
			return u
		}
		return b2u(f(a, b))
	}
}

func pickF32Cmp(op spirv.Op) func(x, y uint64) uint64 {
	switch op {
	case spirv.OpFOrdEqual, spirv.OpFUnordEqual:
		return fcmp(op == spirv.OpFUnordEqual, func(a, b float64) bool { return a == b })
	case spirv.OpFOrdNotEqual, spirv.OpFUnordNotEqual:
		return fcmp(op == spirv.OpFUnordNotEqual, func(a, b float64) bool { return a != b })
	case spirv.OpFOrdLessThan, spirv.OpFUnordLessThan:
		return fcmp(op == spirv.OpFUnordLessThan, func(a, b float64) bool { return a < b })
	case spirv.OpFOrdGreaterThan, spirv.OpFUnordGreaterThan:
		return fcmp(op == spirv.OpFUnordGreaterThan, func(a, b float64) bool { return a > b })
	case spirv.OpFOrdLessThanEqual, spirv.OpFUnordLessThanEqual:
		return fcmp(op == spirv.OpFUnordLessThanEqual, func(a, b float64) bool { return a <= b })
	case spirv.OpFOrdGreaterThanEqual, spirv.OpFUnordGreaterThanEqual:
		return fcmp(op == spirv.OpFUnordGreaterThanEqual, func(a, b float64) bool { return a >= b })
	}
	return nil
}

// pickConv covers conversions between plain ints and floats, with the
// rounding mode and saturation the instruction carries, by the functions
// evalConv uses.
func pickConv(in *instr, ct, act *typ) func(x, y uint64) uint64 {
	rm := rounding(in.sub & 3)
	sat := in.sub&256 != 0
	intOK := func(t *typ) bool { return t.kind == kInt && plainWidth(t.width) }
	floatOK := func(t *typ) bool {
		return t.kind == kFloat && (t.ff == f32 || t.ff == f16 || t.ff == f64 || t.ff == bf16)
	}
	w, aw := ct.width, act.width
	switch in.op {
	case spirv.OpConvertFToU, spirv.OpConvertFToS:
		if !intOK(ct) || !floatOK(act) {
			return nil
		}
		signed, ff := in.op == spirv.OpConvertFToS, act.ff
		return func(x, _ uint64) uint64 { return fToInt(toF64(x, ff), w, signed) }
	case spirv.OpConvertSToF, spirv.OpConvertUToF:
		if !floatOK(ct) || !intOK(act) {
			return nil
		}
		signed, ff := in.op == spirv.OpConvertSToF, ct.ff
		if aw == 8 {
			// Every byte's result, computed on first use: decode
			// functions convert quantized bytes.
			tab := sync.OnceValue(func() *[256]uint64 {
				t := new([256]uint64)
				for v := range t {
					t[v] = intToF(uint64(v), signed, aw, ff, rm)
				}
				return t
			})
			return func(x, _ uint64) uint64 { return tab()[uint8(x)] }
		}
		return func(x, _ uint64) uint64 { return intToF(x, signed, aw, ff, rm) }
	case spirv.OpUConvert:
		if !intOK(ct) || !intOK(act) {
			return nil
		}
		m := mask(w)
		return func(x, _ uint64) uint64 { return x & m }
	case spirv.OpSConvert:
		if !intOK(ct) || !intOK(act) {
			return nil
		}
		m := mask(w)
		return func(x, _ uint64) uint64 { return uint64(sext(x, aw)) & m }
	case spirv.OpFConvert:
		if !floatOK(ct) || !floatOK(act) {
			return nil
		}
		ff, aff := ct.ff, act.ff
		return func(x, _ uint64) uint64 { return fromF64(toF64(x, aff), ff, rm, sat) }
	case spirv.OpFNegate:
		if !floatOK(ct) {
			return nil
		}
		sign := uint64(1) << (w - 1)
		return func(x, _ uint64) uint64 { return x ^ sign }
	case spirv.OpNot:
		if !intOK(ct) {
			return nil
		}
		m := mask(w)
		return func(x, _ uint64) uint64 { return ^x & m }
	case spirv.OpSNegate:
		if !intOK(ct) {
			return nil
		}
		m := mask(w)
		return func(x, _ uint64) uint64 { return -x & m }
	case spirv.OpBitcast:
		if !(intOK(ct) || floatOK(ct)) || !(intOK(act) || floatOK(act)) || w != aw {
			return nil
		}
		return func(x, _ uint64) uint64 { return x }
	case spirv.OpLogicalNot:
		if ct.kind != kBool {
			return nil
		}
		return func(x, _ uint64) uint64 { return x ^ 1 }
	}
	return nil
}
