// Package text converts SPIR-V modules to and from the text form of
// SPIRV-Tools: Disassemble prints what spirv-dis prints, and Assemble
// accepts that text and spirv-as syntax.
package text

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/coopshader/coop/spirv"
)

// Options control disassembly. The zero value prints what spirv-dis
// prints by default.
type Options struct {
	// RawID prints ids as %N instead of friendly names (--raw-id).
	RawID bool
	// NoHeader omits the leading comment lines (--no-header).
	NoHeader bool
	// NoIndent starts every line at column 0 instead of aligning the
	// opcodes (--no-indent).
	NoIndent bool
	// Offsets ends each instruction line with a comment giving its byte
	// offset, aligned as spirv-dis --offsets aligns it.
	Offsets bool
}

// commentColumn is where spirv-dis starts the first end-of-line comment;
// a longer line moves this and every later comment right.
const commentColumn = 52

// indent is the column at which spirv-dis starts an opcode.
const indent = 15

var spaces = []byte("                ")

// Disassemble returns the text of m. It fails only for an instruction whose
// operands do not fit the grammar; an opcode the grammar does not know is
// printed as raw !<word> values, which Assemble reads back.
func Disassemble(m *spirv.Module, opts Options) ([]byte, error) {
	return AppendDisassembly(make([]byte, 0, disSizeHint(m)), m, opts)
}

func disSizeHint(m *spirv.Module) int {
	n := 128
	for i := range m.Insts {
		n += 20 + 6*len(m.Insts[i].Words)
	}
	return n
}

// AppendDisassembly appends the text of m to dst.
func AppendDisassembly(dst []byte, m *spirv.Module, opts Options) ([]byte, error) {
	d := dis{types: spirv.NewTypes(), indent: indent}
	if !opts.RawID {
		d.names = friendlyNames(m)
	}
	if opts.NoIndent {
		d.indent = 0
	}
	b := dst
	if !opts.NoHeader {
		b = AppendHeader(b, m)
	}
	var ops []spirv.Operand
	word := 5
	align := commentColumn
	for i := range m.Insts {
		in := &m.Insts[i]
		var err error
		start := len(b)
		b, ops, err = d.inst(b, in, ops[:0])
		if err != nil {
			return nil, &spirv.Error{Word: word, Msg: err.Error()}
		}
		if opts.Offsets {
			// The comment starts at the column of the previous ones, or
			// at least two columns after the text, rounded to four.
			b = b[:len(b)-1]
			n := len(b) - start
			align = max(align, (n+5)&^3)
			b = append(b, bytes.Repeat([]byte{' '}, align-n)...)
			b = append(b, fmt.Sprintf("; 0x%08x\n", 4*word)...)
		}
		d.types.Record(in)
		word += 1 + len(in.Words)
	}
	return b, nil
}

// AppendHeader appends the comment lines spirv-dis starts with.
func AppendHeader(b []byte, m *spirv.Module) []byte {
	v := m.Version
	b = append(b, "; SPIR-V\n; Version: "...)
	b = strconv.AppendUint(b, uint64(v>>16&0xff), 10)
	b = append(b, '.')
	b = strconv.AppendUint(b, uint64(v>>8&0xff), 10)
	b = append(b, "\n; Generator: "...)
	if vendor, tool, ok := spirv.GeneratorName(m.Generator); ok {
		b = append(b, vendor...)
		if tool != "" {
			b = append(b, ' ')
			b = append(b, tool...)
		}
	} else {
		b = append(b, "Unknown("...)
		b = strconv.AppendUint(b, uint64(m.Generator>>16), 10)
		b = append(b, ')')
	}
	b = append(b, "; "...)
	b = strconv.AppendUint(b, uint64(m.Generator&0xffff), 10)
	b = append(b, "\n; Bound: "...)
	b = strconv.AppendUint(b, uint64(m.Bound), 10)
	b = append(b, "\n; Schema: "...)
	b = strconv.AppendUint(b, uint64(m.Schema), 10)
	return append(b, '\n')
}

type dis struct {
	names  *nameTable // nil for raw ids
	types  *spirv.Types
	indent int
}

func (d *dis) inst(b []byte, in *spirv.Inst, ops []spirv.Operand) ([]byte, []spirv.Operand, error) {
	desc := in.Op.Desc()
	if desc == nil {
		// Unknown opcode: keep its words.
		b = append(b, spaces[:d.indent]...)
		b = append(b, '!')
		b = strconv.AppendUint(b, uint64(uint32(len(in.Words)+1)<<16|uint32(in.Op)), 10)
		for _, w := range in.Words {
			b = append(b, " !"...)
			b = strconv.AppendUint(b, uint64(w), 10)
		}
		return append(b, '\n'), ops, nil
	}
	ops, err := d.types.Operands(in, ops)
	if err != nil {
		return b, ops, err
	}
	resultAt := -1
	for i := 0; i < len(ops) && i < 2; i++ {
		if ops[i].Kind == spirv.KindIdResult {
			resultAt = i
			break
		}
	}
	if resultAt >= 0 {
		id := in.Words[ops[resultAt].Offset]
		if d.indent > 0 {
			if pad := d.indent - 3 - d.names.idLen(id) - 1; pad > 0 {
				b = append(b, spaces[:pad]...)
			}
		}
		b = d.names.appendID(b, id)
		b = append(b, " = "...)
	} else {
		b = append(b, spaces[:d.indent]...)
	}
	b = append(b, desc.Name...)
	for i := range ops {
		if i == resultAt {
			continue
		}
		b = append(b, ' ')
		b = d.operand(b, in, &ops[i])
	}
	return append(b, '\n'), ops, nil
}

func (d *dis) operand(b []byte, in *spirv.Inst, o *spirv.Operand) []byte {
	w := in.Words[o.Offset : o.Offset+o.Count]
	switch o.Kind {
	case spirv.KindIdRef, spirv.KindIdResultType, spirv.KindIdMemorySemantics, spirv.KindIdScope, spirv.KindIdResult:
		return d.names.appendID(b, w[0])
	case spirv.KindLiteralString:
		return appendQuoted(b, w)
	case spirv.KindLiteralContextDependentNumber:
		return appendNumber(b, w, o.Num)
	case spirv.KindLiteralInteger:
		return strconv.AppendUint(b, uint64(w[0]), 10)
	case spirv.KindLiteralFloat:
		return appendNumber(b, w, spirv.NumType{Width: 32, Float: true, Encoding: -1})
	case spirv.KindLiteralExtInstInteger:
		if o.ExtSet != nil {
			if e := o.ExtSet.Inst(w[0]); e != nil {
				return append(b, e.Name...)
			}
		}
		return strconv.AppendUint(b, uint64(w[0]), 10)
	case spirv.KindLiteralSpecConstantOpInteger:
		if dd := spirv.Op(w[0]).Desc(); dd != nil {
			return append(b, dd.Name[2:]...)
		}
	}
	switch o.Kind.Desc().Category {
	case spirv.CategoryValueEnum:
		if e := o.Kind.Enumerant(w[0]); e != nil {
			return append(b, e.Name...)
		}
	case spirv.CategoryBitEnum:
		return appendMask(b, o.Kind, w[0])
	case spirv.CategoryId:
		return d.names.appendID(b, w[0])
	}
	return strconv.AppendUint(b, uint64(w[0]), 10)
}

// appendMask prints the names of the set bits, lowest first, joined with
// '|'; zero prints as the kind's zero enumerant (None), if any.
func appendMask(b []byte, k spirv.OperandKind, v uint32) []byte {
	if v == 0 {
		if e := k.Enumerant(0); e != nil {
			b = append(b, e.Name...)
		}
		return b
	}
	first := true
	for bit := uint32(1); v != 0; bit <<= 1 {
		if v&bit == 0 {
			continue
		}
		v &^= bit
		if !first {
			b = append(b, '|')
		}
		first = false
		if e := k.Enumerant(bit); e != nil {
			b = append(b, e.Name...)
		} else {
			b = append(b, "0x"...)
			b = strconv.AppendUint(b, uint64(bit), 16)
		}
	}
	return b
}

// appendQuoted prints the literal string in words with " and \ escaped.
func appendQuoted(b []byte, words []uint32) []byte {
	b = append(b, '"')
	for _, w := range words {
		for k := 0; k < 4; k++ {
			c := byte(w >> (8 * k))
			if c == 0 {
				return append(b, '"')
			}
			if c == '"' || c == '\\' {
				b = append(b, '\\')
			}
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// FormatNumber prints a typed literal's words as spirv-dis does.
func FormatNumber(words []uint32, n spirv.NumType) string {
	return string(appendNumber(nil, words, n))
}

// ParseNumber parses a literal of numeric type n as spirv-as does and
// returns its words (one, or two for 64-bit types).
func ParseNumber(s string, n spirv.NumType) ([]uint32, error) {
	var bits uint64
	var err error
	if n.Float {
		bits, err = parseFloat([]byte(s), n)
	} else {
		bits, err = parseInt([]byte(s), n.Width, n.Signed)
	}
	if err != nil {
		return nil, err
	}
	if n.Width > 32 {
		return []uint32{uint32(bits), uint32(bits >> 32)}, nil
	}
	return []uint32{uint32(bits)}, nil
}
