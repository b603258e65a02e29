package spirv

import (
	"fmt"
	"strings"
)

// Inst is one instruction: its opcode and its operand words (the leading
// word that holds the word count and opcode is not stored).
type Inst struct {
	Op    Op
	Words []uint32
}

// ResultID returns the id the instruction defines, or 0.
func (in *Inst) ResultID() uint32 {
	d := in.Op.Desc()
	if d == nil || !d.HasResult() {
		return 0
	}
	i := 0
	if d.HasType() {
		i = 1
	}
	if i < len(in.Words) {
		return in.Words[i]
	}
	return 0
}

// TypeID returns the instruction's result type id, or 0.
func (in *Inst) TypeID() uint32 {
	d := in.Op.Desc()
	if d == nil || !d.HasType() || len(in.Words) == 0 {
		return 0
	}
	return in.Words[0]
}

// String decodes the literal string that starts at operand word i and
// returns it with the number of words it occupies; ok is false when no
// terminating NUL is found.
func (in *Inst) String(i int) (s string, words int, ok bool) {
	return DecodeString(in.Words[min(i, len(in.Words)):])
}

// DecodeString decodes a NUL-terminated, word-padded literal string at the
// start of words.
func DecodeString(words []uint32) (s string, n int, ok bool) {
	// Find the NUL first so the string is built in one allocation.
	size := 4 * len(words)
	for i, w := range words {
		if k := nulByte(w); k < 4 {
			size, n, ok = 4*i+k, i+1, true
			break
		}
	}
	if !ok {
		n = len(words)
	}
	var b strings.Builder
	b.Grow(size)
	for i := range size {
		b.WriteByte(byte(words[i/4] >> (8 * (i % 4))))
	}
	return b.String(), n, ok
}

// nulByte returns the index of w's first zero byte (little-endian), or 4.
func nulByte(w uint32) int {
	for k := 0; k < 4; k++ {
		if byte(w>>(8*k)) == 0 {
			return k
		}
	}
	return 4
}

// AppendString appends s as a literal string: UTF-8 bytes, NUL-terminated,
// padded with NULs to a whole word.
func AppendString(words []uint32, s string) []uint32 {
	var w uint32
	for i := 0; i < len(s); i++ {
		w |= uint32(s[i]) << (8 * (i % 4))
		if i%4 == 3 {
			words = append(words, w)
			w = 0
		}
	}
	return append(words, w)
}

// NumType is a scalar numeric type, as far as literal operands need it.
type NumType struct {
	Width    uint32
	Float    bool
	Signed   bool
	Encoding int32 // FPEncoding of a float type, or -1 for IEEE
}

// Operand is one operand of a parsed instruction: its kind and where its
// words are within Inst.Words.
type Operand struct {
	Kind   OperandKind
	Offset int
	Count  int
	// Num is the literal's type for LiteralContextDependentNumber operands.
	Num NumType
	// ExtSet is the extended instruction set of a LiteralExtInstInteger.
	ExtSet *ExtInstSet
}

// Types tracks the facts earlier instructions establish that parsing later
// operands needs: the widths of numeric types (for OpConstant and OpSwitch
// literals), the type of every result id, and the imported extended
// instruction sets. Feed it every instruction in order with Record.
type Types struct {
	nums    map[uint32]NumType
	typeOf  []uint32
	typeMap map[uint32]uint32
	extSets map[uint32]*ExtInstSet
	// ExtNames holds the names of the imported sets, known or not.
	ExtNames map[uint32]string
}

// NewTypes returns an empty tracker.
func NewTypes() *Types {
	return &Types{nums: map[uint32]NumType{}, extSets: map[uint32]*ExtInstSet{}, ExtNames: map[uint32]string{}}
}

// denseIDLimit bounds the dense id table; rarer, larger ids use a map so a
// corrupt bound cannot make us allocate gigabytes.
const denseIDLimit = 1 << 22

// Record notes what in defines.
func (t *Types) Record(in *Inst) {
	w := in.Words
	switch in.Op {
	case OpTypeInt:
		if len(w) >= 3 {
			t.nums[w[0]] = NumType{Width: w[1], Signed: w[2] != 0, Encoding: -1}
		}
	case OpTypeFloat:
		if len(w) >= 2 {
			n := NumType{Width: w[1], Float: true, Encoding: -1}
			if len(w) >= 3 {
				n.Encoding = int32(w[2])
			}
			t.nums[w[0]] = n
		}
	case OpExtInstImport:
		if len(w) >= 2 {
			name, _, _ := DecodeString(w[1:])
			t.ExtNames[w[0]] = name
			t.extSets[w[0]] = LookupExtInstSet(name)
		}
	}
	if ty := in.TypeID(); ty != 0 {
		id := in.ResultID()
		if id < denseIDLimit {
			if int(id) >= len(t.typeOf) {
				n := max(2*len(t.typeOf), int(id)+1, 64)
				t.typeOf = append(t.typeOf, make([]uint32, n-len(t.typeOf))...)
			}
			t.typeOf[id] = ty
		} else {
			if t.typeMap == nil {
				t.typeMap = map[uint32]uint32{}
			}
			t.typeMap[id] = ty
		}
	}
}

// TypeOf returns the result type of id, or 0 if unknown.
func (t *Types) TypeOf(id uint32) uint32 {
	if id < uint32(len(t.typeOf)) {
		return t.typeOf[id]
	}
	return t.typeMap[id]
}

// Num returns the numeric type with the given type id.
func (t *Types) Num(typeID uint32) (NumType, bool) {
	n, ok := t.nums[typeID]
	return n, ok
}

// ExtSet returns the extended instruction set imported as id; nil when the
// import is unknown or names a set we have no grammar for.
func (t *Types) ExtSet(id uint32) *ExtInstSet { return t.extSets[id] }

// OperandError is a mismatch between an instruction and the grammar.
type OperandError struct {
	Op  Op
	Msg string
}

func (e *OperandError) Error() string { return fmt.Sprintf("%s: %s", e.Op, e.Msg) }

// Operands parses the operands of in against the grammar, appending them to
// dst. It fails for an unknown opcode and for words that do not fit the
// grammar (missing operands, leftover words, unknown enumerants, strings
// without a terminator).
func (t *Types) Operands(in *Inst, dst []Operand) ([]Operand, error) {
	d := in.Op.Desc()
	if d == nil {
		return dst, &OperandError{in.Op, "unknown opcode"}
	}
	p := operandParser{t: t, in: in, dst: dst}
	if err := p.list(d.Operands); err != nil {
		return p.dst, err
	}
	if p.pos != len(in.Words) {
		return p.dst, p.errf("%d extra words after the last operand", len(in.Words)-p.pos)
	}
	return p.dst, nil
}

type operandParser struct {
	t   *Types
	in  *Inst
	pos int
	dst []Operand
}

func (p *operandParser) errf(format string, args ...any) error {
	return &OperandError{p.in.Op, fmt.Sprintf(format, args...)}
}

func (p *operandParser) list(ops []OperandDesc) error {
	for _, od := range ops {
		switch od.Quant {
		case QuantOne:
			if p.pos >= len(p.in.Words) {
				return p.errf("missing operand %s", operandName(od))
			}
			if err := p.one(od.Kind); err != nil {
				return err
			}
		case QuantOptional:
			if p.pos < len(p.in.Words) {
				if err := p.one(od.Kind); err != nil {
					return err
				}
			}
		case QuantMany:
			for p.pos < len(p.in.Words) {
				if err := p.one(od.Kind); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func operandName(od OperandDesc) string {
	if od.Name != "" {
		return fmt.Sprintf("'%s' (%s)", od.Name, od.Kind)
	}
	return od.Kind.String()
}

func (p *operandParser) push(k OperandKind, n int) {
	p.dst = append(p.dst, Operand{Kind: k, Offset: p.pos, Count: n})
	p.pos += n
}

func (p *operandParser) one(k OperandKind) error {
	w := p.in.Words
	if p.pos >= len(w) {
		return p.errf("missing operand %s", k)
	}
	if k == KindPairLiteralIntegerIdRef && p.in.Op == OpSwitch {
		// OpSwitch case literals are as wide as the selector's type.
		if err := p.contextNumber(w); err != nil {
			return err
		}
		return p.one(KindIdRef)
	}
	switch k {
	case KindLiteralString:
		_, n, ok := DecodeString(w[p.pos:])
		if !ok {
			return p.errf("literal string has no terminating NUL")
		}
		p.push(k, n)
	case KindLiteralContextDependentNumber:
		return p.contextNumber(w)
	case KindLiteralExtInstInteger:
		return p.extInst(w)
	case KindLiteralSpecConstantOpInteger:
		inner := Op(w[p.pos])
		d := inner.Desc()
		if d == nil || w[p.pos] > 0xffff {
			return p.errf("invalid opcode %d for OpSpecConstantOp", w[p.pos])
		}
		p.push(k, 1)
		ops := d.Operands
		for len(ops) > 0 && (ops[0].Kind == KindIdResultType || ops[0].Kind == KindIdResult) {
			ops = ops[1:]
		}
		return p.list(ops)
	default:
		kd := k.Desc()
		switch kd.Category {
		case CategoryComposite:
			for _, b := range kd.Bases {
				if err := p.one(b); err != nil {
					return err
				}
			}
		case CategoryValueEnum:
			v := w[p.pos]
			e := k.Enumerant(v)
			if e == nil {
				return p.errf("invalid %s value %d", k, v)
			}
			p.push(k, 1)
			return p.list(e.Params)
		case CategoryBitEnum:
			v := w[p.pos]
			p.push(k, 1)
			for bit := uint32(1); bit != 0; bit <<= 1 {
				if v&bit == 0 {
					continue
				}
				e := k.Enumerant(bit)
				if e == nil {
					return p.errf("invalid %s bit 0x%x", k, bit)
				}
				if err := p.list(e.Params); err != nil {
					return err
				}
			}
		default:
			p.push(k, 1)
		}
	}
	return nil
}

func (p *operandParser) contextNumber(w []uint32) error {
	var ty uint32
	switch p.in.Op {
	case OpSwitch:
		ty = p.t.TypeOf(w[0])
		if ty == 0 {
			return p.errf("selector %%%d has no known type", w[0])
		}
	default:
		ty = w[0]
	}
	n, ok := p.t.nums[ty]
	if !ok {
		return p.errf("type %%%d of the literal is not a scalar numeric type", ty)
	}
	count := max(int(n.Width+31)/32, 1)
	if p.pos+count > len(w) {
		return p.errf("literal of %d bits needs %d words", n.Width, count)
	}
	p.dst = append(p.dst, Operand{Kind: KindLiteralContextDependentNumber, Offset: p.pos, Count: count, Num: n})
	p.pos += count
	return nil
}

func (p *operandParser) extInst(w []uint32) error {
	set := p.t.extSets[w[p.pos-1]]
	p.dst = append(p.dst, Operand{Kind: KindLiteralExtInstInteger, Offset: p.pos, Count: 1, ExtSet: set})
	num := w[p.pos]
	p.pos++
	if set == nil {
		for p.pos < len(w) {
			p.push(KindIdRef, 1)
		}
		return nil
	}
	d := set.Inst(num)
	if d == nil {
		return p.errf("%s has no instruction %d", set.Name, num)
	}
	return p.list(d.Operands)
}
