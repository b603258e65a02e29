// Package text converts SPIR-V modules to and from the text form of
// SPIRV-Tools: Disassemble prints what spirv-dis prints, and Assemble
// accepts that text and spirv-as syntax.
package text

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/coopshader/coop/spirv"
)

// Options control disassembly.
type Options struct {
	// RawID prints ids as %N instead of friendly names (--raw-id).
	RawID bool
	// NoHeader omits the leading comment lines (--no-header).
	NoHeader bool
}

// indent is the column at which spirv-dis starts an opcode.
const indent = 15

// Disassemble returns the text of m. It fails only for an instruction whose
// operands do not fit the grammar; an opcode the grammar does not know is
// printed with its raw words.
func Disassemble(m *spirv.Module, opts Options) ([]byte, error) {
	var names map[uint32]string
	if !opts.RawID {
		names = FriendlyNames(m)
	}
	d := &dis{names: names, types: spirv.NewTypes()}
	var b strings.Builder
	b.Grow(len(m.Insts) * 40)
	if !opts.NoHeader {
		v := m.Version
		fmt.Fprintf(&b, "; SPIR-V\n; Version: %d.%d\n", v>>16&0xff, v>>8&0xff)
		vendor, tool, ok := spirv.GeneratorName(m.Generator)
		if ok {
			name := vendor
			if tool != "" {
				name += " " + tool
			}
			fmt.Fprintf(&b, "; Generator: %s; %d\n", name, m.Generator&0xffff)
		} else {
			fmt.Fprintf(&b, "; Generator: Unknown(%d); %d\n", m.Generator>>16, m.Generator&0xffff)
		}
		fmt.Fprintf(&b, "; Bound: %d\n; Schema: %d\n", m.Bound, m.Schema)
	}
	var ops []spirv.Operand
	for i := range m.Insts {
		in := &m.Insts[i]
		var err error
		ops, err = d.inst(&b, in, ops[:0])
		if err != nil {
			return nil, fmt.Errorf("error: instruction %d (%s): %v", i, in.Op, err)
		}
		d.types.Record(in)
	}
	return []byte(b.String()), nil
}

type dis struct {
	names map[uint32]string
	types *spirv.Types
}

func (d *dis) id(id uint32) string {
	if n, ok := d.names[id]; ok {
		return "%" + n
	}
	return "%" + strconv.FormatUint(uint64(id), 10)
}

func (d *dis) inst(b *strings.Builder, in *spirv.Inst, ops []spirv.Operand) ([]spirv.Operand, error) {
	desc := in.Op.Desc()
	if desc == nil {
		// Unknown opcode: spirv-dis cannot print it either; keep its words.
		b.WriteString(strings.Repeat(" ", indent))
		fmt.Fprintf(b, "!%d", uint32(len(in.Words)+1)<<16|uint32(in.Op))
		for _, w := range in.Words {
			fmt.Fprintf(b, " !%d", w)
		}
		b.WriteByte('\n')
		return ops, nil
	}
	ops, err := d.types.Operands(in, ops)
	if err != nil {
		return ops, err
	}
	resultAt := -1
	for i, o := range ops {
		if o.Kind == spirv.KindIdResult {
			resultAt = i
			break
		}
	}
	if resultAt >= 0 {
		r := d.id(in.Words[ops[resultAt].Offset]) + " = "
		if len(r) < indent {
			b.WriteString(strings.Repeat(" ", indent-len(r)))
		}
		b.WriteString(r)
	} else {
		b.WriteString(strings.Repeat(" ", indent))
	}
	b.WriteString(desc.Name)
	for i, o := range ops {
		if i == resultAt {
			continue
		}
		b.WriteByte(' ')
		d.operand(b, in, o)
	}
	b.WriteByte('\n')
	return ops, nil
}

func (d *dis) operand(b *strings.Builder, in *spirv.Inst, o spirv.Operand) {
	w := in.Words[o.Offset : o.Offset+o.Count]
	switch o.Kind {
	case spirv.KindIdRef, spirv.KindIdResultType, spirv.KindIdMemorySemantics, spirv.KindIdScope:
		b.WriteString(d.id(w[0]))
		return
	case spirv.KindLiteralString:
		s, _, _ := spirv.DecodeString(w)
		quoteString(b, s)
		return
	case spirv.KindLiteralContextDependentNumber:
		b.WriteString(formatNumber(w, o.Num))
		return
	case spirv.KindLiteralExtInstInteger:
		if o.ExtSet != nil {
			if e := o.ExtSet.Inst(w[0]); e != nil {
				b.WriteString(e.Name)
				return
			}
		}
		b.WriteString(strconv.FormatUint(uint64(w[0]), 10))
		return
	case spirv.KindLiteralSpecConstantOpInteger:
		if dd := spirv.Op(w[0]).Desc(); dd != nil {
			b.WriteString(strings.TrimPrefix(dd.Name, "Op"))
			return
		}
	}
	kd := o.Kind.Desc()
	switch kd.Category {
	case spirv.CategoryValueEnum:
		if e := o.Kind.Enumerant(w[0]); e != nil {
			b.WriteString(e.Name)
			return
		}
	case spirv.CategoryBitEnum:
		b.WriteString(maskString(o.Kind, w[0]))
		return
	case spirv.CategoryId:
		b.WriteString(d.id(w[0]))
		return
	}
	// Literal integers (and anything else one word wide).
	for i, x := range w {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.FormatUint(uint64(x), 10))
	}
}

func maskString(k spirv.OperandKind, v uint32) string {
	if v == 0 {
		if e := k.Enumerant(0); e != nil {
			return e.Name
		}
		return "None"
	}
	var parts []string
	for bit := uint32(1); bit != 0; bit <<= 1 {
		if v&bit == 0 {
			continue
		}
		if e := k.Enumerant(bit); e != nil {
			parts = append(parts, e.Name)
		} else {
			parts = append(parts, "0x"+strconv.FormatUint(uint64(bit), 16))
		}
	}
	return strings.Join(parts, "|")
}

func quoteString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '"' || c == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	b.WriteByte('"')
}

// formatNumber prints a typed literal as spirv-dis does: integers in
// decimal, 32- and 64-bit floats in decimal with enough digits to round
// trip (hex for infinities and NaNs), narrower floats as hex floats.
func formatNumber(w []uint32, n spirv.NumType) string {
	var bits uint64
	for i, x := range w {
		bits |= uint64(x) << (32 * i)
	}
	if !n.Float {
		// One-word literals print as the word itself, as spirv-dis does
		// (valid modules sign-extend narrow signed values).
		switch {
		case len(w) == 1 && n.Signed:
			return strconv.FormatInt(int64(int32(w[0])), 10)
		case len(w) == 1:
			return strconv.FormatUint(uint64(w[0]), 10)
		case n.Signed:
			return strconv.FormatInt(int64(bits), 10)
		}
		return strconv.FormatUint(bits, 10)
	}
	switch {
	case n.Width == 32 && n.Encoding < 0:
		// Zeros and normal numbers in decimal, the rest as hex floats.
		if e := bits >> 23 & 0xff; e == 0xff || e == 0 && bits&0x7fffff != 0 {
			return hexFloat(bits, 8, 23)
		}
		return formatDecimal(float64(math.Float32frombits(uint32(bits))), 9)
	case n.Width == 64:
		if e := bits >> 52 & 0x7ff; e == 0x7ff || e == 0 && bits&(1<<52-1) != 0 {
			return hexFloat(bits, 11, 52)
		}
		return formatDecimal(math.Float64frombits(bits), 17)
	case n.Encoding >= 0:
		switch spirv.FPEncoding(n.Encoding) {
		case spirv.FPEncodingBFloat16KHR:
			return hexFloat(bits, 8, 7)
		case spirv.FPEncodingFloat8E4M3EXT:
			return hexFloat(bits, 4, 3)
		case spirv.FPEncodingFloat8E5M2EXT:
			return hexFloat(bits, 5, 2)
		case spirv.FPEncodingFloat6E2M3EXT:
			return hexFloat(bits&0x3f, 2, 3)
		case spirv.FPEncodingFloat6E3M2EXT:
			return hexFloat(bits&0x3f, 3, 2)
		case spirv.FPEncodingFloat4E2M1EXT:
			return hexFloat(bits&0xf, 2, 1)
		case spirv.FPEncodingFloat8UnsignedE8M0EXT:
			// No sign, no fraction, no zero: 2^(e-127).
			return "0x1p" + signedExp(int(bits&0xff)-127)
		case spirv.FPEncodingMXInt8EXT:
			// A signed 8-bit fixed-point value in units of 2^-6.
			f := float32(int8(bits)) / 64
			return hexFloat(uint64(math.Float32bits(f)), 8, 23)
		}
	case n.Width == 16:
		return hexFloat(bits, 5, 10)
	}
	return "0x" + strconv.FormatUint(bits, 16)
}

// formatDecimal prints f like C++ ostream with the given precision
// (the shortest %g form with at most prec significant digits).
func formatDecimal(f float64, prec int) string {
	s := strconv.FormatFloat(f, 'g', prec, 64)
	if strings.ContainsAny(s, "e") {
		mant, exp, _ := strings.Cut(s, "e")
		if strings.Contains(mant, ".") {
			mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
		}
		return mant + "e" + exp
	}
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// hexFloat prints a binary float of the given exponent and mantissa widths
// in SPIRV-Tools' hex-float form: [-]0x1.mmmp+e, subnormals normalised,
// zero as 0x0p+0, and the all-ones exponent as 0x1p+(bias+1) (infinity) or
// 0x1.mp+(bias+1) (NaN).
func hexFloat(bits uint64, expBits, manBits int) string {
	sign := ""
	if bits>>(expBits+manBits)&1 != 0 {
		sign = "-"
	}
	e := int(bits >> manBits & (1<<expBits - 1))
	m := bits & (1<<manBits - 1)
	bias := 1<<(expBits-1) - 1
	if e == 0 && m == 0 {
		return sign + "0x0p+0"
	}
	exp := e - bias
	if e == 0 {
		// Normalise a subnormal.
		exp = 1 - bias
		for m&(1<<manBits) == 0 {
			m <<= 1
			exp--
		}
		m &= 1<<manBits - 1
	}
	// Left-align the mantissa to whole hex digits.
	digits := (manBits + 3) / 4
	m <<= uint(digits*4 - manBits)
	frac := fmt.Sprintf("%0*x", digits, m)
	frac = strings.TrimRight(frac, "0")
	s := sign + "0x1"
	if frac != "" {
		s += "." + frac
	}
	return s + "p" + signedExp(exp)
}

func signedExp(e int) string {
	if e >= 0 {
		return "+" + strconv.Itoa(e)
	}
	return strconv.Itoa(e)
}
