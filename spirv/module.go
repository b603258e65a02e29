package spirv

import (
	"encoding/binary"
	"fmt"
)

// Module is a SPIR-V module: the header and the instructions in binary
// order.
type Module struct {
	Version   Version
	Generator uint32
	Bound     uint32
	Schema    uint32
	// BigEndian records the byte order the module was read in, so Encode
	// reproduces the input byte for byte.
	BigEndian bool
	Insts     []Inst
}

// Error is a fault in a binary module, at a word offset from the start of
// the module.
type Error struct {
	Word int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("error: word %d: %s", e.Word, e.Msg) }

// Warning is something a reader keeps going past, such as an opcode the
// grammar does not know (the instruction is kept raw).
type Warning = Error

// Decode reads a binary module. Either byte order is accepted. Every
// instruction's operands are checked against the grammar; an unknown opcode
// is kept raw.
func Decode(b []byte) (*Module, error) { return DecodeWarn(b, nil) }

// DecodeWarn is Decode that reports warnings to warn (which may be nil).
func DecodeWarn(b []byte, warn func(*Warning)) (*Module, error) {
	words, big, err := decodeWords(b)
	if err != nil {
		return nil, err
	}
	m, err := DecodeWords(words, warn)
	if m != nil {
		m.BigEndian = big
	}
	return m, err
}

// DecodeRaw reads a binary module as Decode does but checks no operand:
// it splits the instructions by their word counts alone, for a caller
// that checks every instruction against the grammar itself (validate's
// Validate does, reporting the same operand errors as rules), which would
// otherwise parse each operand twice.
func DecodeRaw(b []byte) (*Module, error) {
	words, big, err := decodeWords(b)
	if err != nil {
		return nil, err
	}
	m := &Module{Version: Version(words[1]), Generator: words[2], Bound: words[3], Schema: words[4], BigEndian: big}
	// Count the instructions first: one exact allocation costs less than
	// growing a guess, which for small modules is most of the decoding.
	count := 0
	for pos := 5; pos < len(words); count++ {
		n, err := instLen(words, pos)
		if err != nil {
			return nil, err
		}
		pos += n
	}
	m.Insts = make([]Inst, count)
	for i, pos := 0, 5; pos < len(words); i++ {
		n := int(words[pos] >> 16)
		m.Insts[i] = Inst{Op: Op(words[pos] & 0xffff), Words: words[pos+1 : pos+n : pos+n]}
		pos += n
	}
	return m, nil
}

// decodeWords checks a binary module's size and magic number and returns
// its words in native order; big tells a big-endian module.
func decodeWords(b []byte) (words []uint32, big bool, err error) {
	if len(b)%4 != 0 {
		return nil, false, &Error{len(b) / 4, fmt.Sprintf("module is %d bytes, not a whole number of words", len(b))}
	}
	if len(b) < 20 {
		return nil, false, &Error{len(b) / 4, fmt.Sprintf("module of %d words is shorter than the 5-word header", len(b)/4)}
	}
	words = make([]uint32, len(b)/4)
	order := binary.ByteOrder(binary.LittleEndian)
	switch binary.LittleEndian.Uint32(b) {
	case MagicNumber:
	case 0x03022307:
		order, big = binary.BigEndian, true
	default:
		return nil, false, &Error{0, fmt.Sprintf("invalid SPIR-V magic number 0x%08x", binary.LittleEndian.Uint32(b))}
	}
	for i := range words {
		words[i] = order.Uint32(b[4*i:])
	}
	return words, big, nil
}

// instLen returns the word count of the instruction at words[pos], which
// must fit in words.
func instLen(words []uint32, pos int) (int, error) {
	n := int(words[pos] >> 16)
	op := Op(words[pos] & 0xffff)
	if n == 0 {
		return 0, &Error{pos, fmt.Sprintf("instruction %s has a word count of 0", op)}
	}
	if pos+n > len(words) {
		return 0, &Error{pos, fmt.Sprintf("instruction %s of %d words runs past the end of the module (%d words left)", op, n, len(words)-pos)}
	}
	return n, nil
}

// DecodeWords reads a module from words in native order. The instructions
// share the words slice.
func DecodeWords(words []uint32, warn func(*Warning)) (*Module, error) {
	if len(words) < 5 {
		return nil, &Error{len(words), fmt.Sprintf("module of %d words is shorter than the 5-word header", len(words))}
	}
	if words[0] != MagicNumber {
		return nil, &Error{0, fmt.Sprintf("invalid SPIR-V magic number 0x%08x", words[0])}
	}
	m := &Module{Version: Version(words[1]), Generator: words[2], Bound: words[3], Schema: words[4]}
	m.Insts = make([]Inst, 0, len(words)/4)
	types := NewTypes()
	var ops []Operand
	for pos := 5; pos < len(words); {
		n, err := instLen(words, pos)
		if err != nil {
			return nil, err
		}
		op := Op(words[pos] & 0xffff)
		in := Inst{Op: op, Words: words[pos+1 : pos+n : pos+n]}
		if op.Desc() == nil {
			if warn != nil {
				warn(&Warning{pos, fmt.Sprintf("unknown opcode %d kept raw", uint16(op))})
			}
		} else {
			if ops, err = types.Operands(&in, ops[:0]); err != nil {
				return nil, &Error{pos, err.Error()}
			}
			types.Record(&in)
		}
		m.Insts = append(m.Insts, in)
		pos += n
	}
	return m, nil
}

// Words returns the module as words in native order. It fails only for an
// instruction too long for its 16-bit word count.
func (m *Module) Words() ([]uint32, error) {
	n := 5
	for i := range m.Insts {
		n += 1 + len(m.Insts[i].Words)
	}
	w := make([]uint32, 0, n)
	w = append(w, MagicNumber, uint32(m.Version), m.Generator, m.Bound, m.Schema)
	for i := range m.Insts {
		in := &m.Insts[i]
		if len(in.Words)+1 > 0xffff {
			return nil, fmt.Errorf("instruction %d (%s) has %d words, more than a word count can hold", i, in.Op, len(in.Words)+1)
		}
		w = append(w, uint32(len(in.Words)+1)<<16|uint32(in.Op))
		w = append(w, in.Words...)
	}
	return w, nil
}

// Encode returns the module's binary form in the byte order it was read in
// (little-endian for built modules).
func (m *Module) Encode() ([]byte, error) {
	w, err := m.Words()
	if err != nil {
		return nil, err
	}
	b := make([]byte, 4*len(w))
	order := binary.ByteOrder(binary.LittleEndian)
	if m.BigEndian {
		order = binary.BigEndian
	}
	for i, x := range w {
		order.PutUint32(b[4*i:], x)
	}
	return b, nil
}
