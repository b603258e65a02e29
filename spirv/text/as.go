package text

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/coopshader/coop/spirv"
)

// AsmOptions control assembly.
type AsmOptions struct {
	// Version is the module's SPIR-V version (default 1.6, as spirv-as).
	Version spirv.Version
	// PreserveIDs keeps numeric ids (%5 stays id 5) as spirv-as
	// --preserve-numeric-ids does; otherwise ids are numbered in order of
	// first appearance.
	PreserveIDs bool
}

// Generator is the header word spirv-as writes: the Khronos SPIR-V Tools
// Assembler (tool 7), version 0.
const Generator = 7 << 16

// Error is an assembly error at a position.
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: error: %s", e.File, e.Line, e.Col, e.Msg)
}

// Assemble parses SPIR-V assembly (spirv-dis output or spirv-as input).
func Assemble(src []byte, name string) (*spirv.Module, error) {
	return AssembleOptions(src, name, AsmOptions{})
}

type tok struct {
	text      string
	line, col int
	str       bool // a quoted string; text holds its value
}

// lex splits the source into tokens, dropping ; comments.
func lex(src []byte, name string) ([]tok, error) {
	var toks []tok
	line, col := 1, 1
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n':
			line, col = line+1, 1
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r':
			i++
			col++
			continue
		case c == ';':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == '"':
			startLine, startCol := line, col
			var b []byte
			i++
			col++
			for {
				if i >= len(src) {
					return nil, &Error{name, startLine, startCol, "missing closing quote of string"}
				}
				c := src[i]
				if c == '"' {
					i++
					col++
					break
				}
				if c == '\\' && i+1 < len(src) {
					i++
					col++
					c = src[i]
				}
				if c == '\n' {
					line, col = line+1, 0
				}
				b = append(b, c)
				i++
				col++
			}
			toks = append(toks, tok{text: string(b), line: startLine, col: startCol, str: true})
			continue
		}
		start, startCol := i, col
		for i < len(src) && src[i] != ' ' && src[i] != '\t' && src[i] != '\n' && src[i] != '\r' && src[i] != ';' && src[i] != '"' {
			i++
			col++
		}
		toks = append(toks, tok{text: string(src[start:i]), line: line, col: startCol})
	}
	return toks, nil
}

type asm struct {
	name   string
	opts   AsmOptions
	toks   []tok
	i      int
	ids    map[string]uint32
	next   uint32
	bound  uint32
	nums   map[uint32]spirv.NumType
	typeOf map[uint32]uint32
	sets   map[uint32]*spirv.ExtInstSet
	keep   map[uint32]bool // numeric ids to preserve
}

func (a *asm) errf(t tok, format string, args ...any) error {
	return &Error{a.name, t.line, t.col, fmt.Sprintf(format, args...)}
}

// AssembleOptions is Assemble with options.
func AssembleOptions(src []byte, name string, opts AsmOptions) (*spirv.Module, error) {
	toks, err := lex(src, name)
	if err != nil {
		return nil, err
	}
	if opts.Version == 0 {
		opts.Version = 0x10600
	}
	a := &asm{name: name, opts: opts, toks: toks, ids: map[string]uint32{}, next: 1, nums: map[uint32]spirv.NumType{},
		typeOf: map[uint32]uint32{}, sets: map[uint32]*spirv.ExtInstSet{}, keep: map[uint32]bool{}}
	if opts.PreserveIDs {
		for _, t := range toks {
			if n, ok := numericID(t.text); ok {
				a.keep[n] = true
			}
		}
	}
	m := &spirv.Module{Version: opts.Version, Generator: Generator}
	for a.i < len(a.toks) {
		in, err := a.inst()
		if err != nil {
			return nil, err
		}
		m.Insts = append(m.Insts, in)
	}
	m.Bound = a.bound
	if m.Bound == 0 {
		m.Bound = 1
	}
	return m, nil
}

func numericID(s string) (uint32, bool) {
	if len(s) < 2 || s[0] != '%' {
		return 0, false
	}
	n, err := strconv.ParseUint(s[1:], 10, 32)
	return uint32(n), err == nil && n > 0
}

// id returns the id a %name stands for, assigning the next free one the
// first time.
func (a *asm) id(t tok) (uint32, error) {
	if len(t.text) < 2 || t.text[0] != '%' || t.str {
		return 0, a.errf(t, "expected an id (%%name), got %q", t.text)
	}
	if a.opts.PreserveIDs {
		if n, ok := numericID(t.text); ok {
			a.bound = max(a.bound, n+1)
			return n, nil
		}
	}
	if id, ok := a.ids[t.text]; ok {
		return id, nil
	}
	for a.keep[a.next] {
		a.next++
	}
	id := a.next
	a.next++
	a.ids[t.text] = id
	a.bound = max(a.bound, id+1)
	return id, nil
}

// atInstStart reports whether the token at i begins an instruction.
func (a *asm) atInstStart(i int) bool {
	if i >= len(a.toks) {
		return true
	}
	t := a.toks[i]
	if t.str {
		return false
	}
	if strings.HasPrefix(t.text, "Op") {
		// Enumerants may start with "Op" too (OpacityMicromapIdKHR).
		_, isOp := spirv.LookupOp(t.text)
		return isOp
	}
	return strings.HasPrefix(t.text, "%") && i+1 < len(a.toks) && a.toks[i+1].text == "=" && !a.toks[i+1].str
}

func (a *asm) inst() (spirv.Inst, error) {
	first := a.toks[a.i]
	var result uint32
	hasResult := false
	if strings.HasPrefix(first.text, "%") && !first.str {
		if a.i+2 >= len(a.toks) || a.toks[a.i+1].text != "=" {
			return spirv.Inst{}, a.errf(first, "expected %s = Op..., or an opcode", first.text)
		}
		id, err := a.id(first)
		if err != nil {
			return spirv.Inst{}, err
		}
		result, hasResult = id, true
		a.i += 2
	}
	opTok := a.toks[a.i]
	if strings.HasPrefix(opTok.text, "!") && !opTok.str {
		return a.rawInst(opTok)
	}
	op, ok := spirv.LookupOp(opTok.text)
	if !ok || opTok.str {
		return spirv.Inst{}, a.errf(opTok, "unknown opcode %q", opTok.text)
	}
	a.i++
	desc := op.Desc()
	in := spirv.Inst{Op: op}
	ops := desc.Operands
	if desc.HasResult() != hasResult {
		if hasResult {
			return in, a.errf(opTok, "%s does not produce a result id", desc.Name)
		}
		return in, a.errf(opTok, "%s needs a result id: %%name = %s ...", desc.Name, desc.Name)
	}
	p := &operandAsm{a: a, in: &in, result: result, op: opTok}
	if err := p.list(ops); err != nil {
		return in, err
	}
	if !a.atInstStart(a.i) && !(strings.HasPrefix(a.toks[a.i].text, "!") && !a.toks[a.i].str) {
		return in, a.errf(a.toks[a.i], "expected the next instruction, got %q (too many operands for %s?)", a.toks[a.i].text, desc.Name)
	}
	a.record(&in)
	return in, nil
}

// rawInst assembles an instruction written as !<word> values.
func (a *asm) rawInst(first tok) (spirv.Inst, error) {
	var words []uint32
	for !a.atInstStart(a.i) || len(words) == 0 {
		t := a.toks[a.i]
		w, err := a.rawWord(t)
		if err != nil {
			return spirv.Inst{}, err
		}
		words = append(words, w)
		a.i++
		if a.i >= len(a.toks) {
			break
		}
	}
	n := int(words[0] >> 16)
	if n != len(words) {
		return spirv.Inst{}, a.errf(first, "raw instruction's word count %d does not match its %d words", n, len(words))
	}
	return spirv.Inst{Op: spirv.Op(words[0] & 0xffff), Words: words[1:]}, nil
}

func (a *asm) rawWord(t tok) (uint32, error) {
	if t.str || !strings.HasPrefix(t.text, "!") {
		return 0, a.errf(t, "expected !<integer>, got %q", t.text)
	}
	v, err := strconv.ParseUint(t.text[1:], 0, 32)
	if err != nil {
		return 0, a.errf(t, "expected !<integer>, got %q", t.text)
	}
	return uint32(v), nil
}

// record keeps what later literals need: numeric types, result types and
// extended instruction sets.
func (a *asm) record(in *spirv.Inst) {
	w := in.Words
	switch in.Op {
	case spirv.OpTypeInt:
		a.nums[w[0]] = spirv.NumType{Width: w[1], Signed: w[2] != 0, Encoding: -1}
	case spirv.OpTypeFloat:
		n := spirv.NumType{Width: w[1], Float: true, Encoding: -1}
		if len(w) > 2 {
			n.Encoding = int32(w[2])
		}
		a.nums[w[0]] = n
	case spirv.OpExtInstImport:
		s, _, _ := spirv.DecodeString(w[1:])
		a.sets[w[0]] = spirv.LookupExtInstSet(s)
	}
	if d := in.Op.Desc(); d != nil && d.HasType() && len(w) >= 2 {
		a.typeOf[w[1]] = w[0]
	}
}

type operandAsm struct {
	a      *asm
	in     *spirv.Inst
	result uint32
	op     tok
}

func (p *operandAsm) more() bool { return !p.a.atInstStart(p.a.i) }

func (p *operandAsm) list(ops []spirv.OperandDesc) error {
	for _, od := range ops {
		switch od.Quant {
		case spirv.QuantOne:
			if od.Kind != spirv.KindIdResult && !p.more() {
				return p.a.errf(p.op, "%s: missing operand %s", p.op.text, operandLabel(od))
			}
			if err := p.one(od.Kind); err != nil {
				return err
			}
		case spirv.QuantOptional:
			if p.more() {
				if err := p.one(od.Kind); err != nil {
					return err
				}
			}
		case spirv.QuantMany:
			for p.more() {
				if err := p.one(od.Kind); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func operandLabel(od spirv.OperandDesc) string {
	if od.Name != "" {
		return "'" + od.Name + "'"
	}
	return od.Kind.String()
}

func (p *operandAsm) take() tok {
	t := p.a.toks[p.a.i]
	p.a.i++
	return t
}

func (p *operandAsm) word(w uint32) { p.in.Words = append(p.in.Words, w) }

func (p *operandAsm) one(k spirv.OperandKind) error {
	a := p.a
	if k == spirv.KindIdResult {
		p.word(p.result)
		return nil
	}
	t := a.toks[a.i]
	if !t.str && strings.HasPrefix(t.text, "!") {
		w, err := a.rawWord(t)
		if err != nil {
			return err
		}
		a.i++
		p.word(w)
		return nil
	}
	switch k {
	case spirv.KindLiteralString:
		if !t.str {
			return a.errf(t, "expected a quoted string, got %q", t.text)
		}
		a.i++
		p.in.Words = spirv.AppendString(p.in.Words, t.text)
		return nil
	case spirv.KindLiteralContextDependentNumber:
		return p.contextNumber()
	case spirv.KindLiteralExtInstInteger:
		a.i++
		set := a.sets[p.in.Words[len(p.in.Words)-1]]
		var d *spirv.ExtInstDesc
		if set != nil {
			d = set.Lookup(t.text)
		}
		if d != nil {
			p.word(d.Number)
			return p.list(d.Operands)
		}
		v, err := strconv.ParseUint(t.text, 0, 32)
		if err != nil {
			return a.errf(t, "unknown extended instruction %q", t.text)
		}
		p.word(uint32(v))
		if set != nil {
			if d := set.Inst(uint32(v)); d != nil {
				return p.list(d.Operands)
			}
		}
		for p.more() {
			if err := p.one(spirv.KindIdRef); err != nil {
				return err
			}
		}
		return nil
	case spirv.KindLiteralSpecConstantOpInteger:
		a.i++
		op, ok := spirv.LookupOp("Op" + t.text)
		if !ok {
			v, err := strconv.ParseUint(t.text, 0, 16)
			if err != nil || spirv.Op(v).Desc() == nil {
				return a.errf(t, "unknown opcode %q in OpSpecConstantOp", t.text)
			}
			op = spirv.Op(v)
		}
		p.word(uint32(op))
		ops := op.Desc().Operands
		for len(ops) > 0 && (ops[0].Kind == spirv.KindIdResultType || ops[0].Kind == spirv.KindIdResult) {
			ops = ops[1:]
		}
		return p.list(ops)
	}
	kd := k.Desc()
	switch kd.Category {
	case spirv.CategoryId:
		id, err := a.id(t)
		if err != nil {
			return err
		}
		a.i++
		p.word(id)
		return nil
	case spirv.CategoryComposite:
		for _, b := range kd.Bases {
			if !p.more() {
				return a.errf(t, "missing part of a %s operand", k)
			}
			if err := p.one(b); err != nil {
				return err
			}
		}
		return nil
	case spirv.CategoryValueEnum:
		a.i++
		e := k.LookupEnumerant(t.text)
		if e == nil {
			v, err := strconv.ParseUint(t.text, 0, 32)
			if err != nil {
				return a.errf(t, "invalid %s %q", k, t.text)
			}
			p.word(uint32(v))
			if e = k.Enumerant(uint32(v)); e == nil {
				return nil
			}
		} else {
			p.word(e.Value)
		}
		return p.list(e.Params)
	case spirv.CategoryBitEnum:
		a.i++
		var v uint32
		for _, part := range strings.Split(t.text, "|") {
			if e := k.LookupEnumerant(part); e != nil {
				v |= e.Value
				continue
			}
			n, err := strconv.ParseUint(part, 0, 32)
			if err != nil {
				return a.errf(t, "invalid %s %q", k, part)
			}
			v |= uint32(n)
		}
		p.word(v)
		for bit := uint32(1); bit != 0; bit <<= 1 {
			if v&bit != 0 {
				if e := k.Enumerant(bit); e != nil {
					if err := p.list(e.Params); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	// A literal integer (32 bits; a negative value is its two's complement).
	a.i++
	v, err := parseInt(t.text, 32, true)
	if err != nil {
		return a.errf(t, "expected an integer, got %q", t.text)
	}
	p.word(uint32(v))
	return nil
}

func (p *operandAsm) contextNumber() error {
	a := p.a
	t := a.toks[a.i]
	var ty uint32
	if p.in.Op == spirv.OpSwitch {
		ty = a.typeOf[p.in.Words[0]]
	} else if len(p.in.Words) > 0 {
		ty = p.in.Words[0]
	}
	n, ok := a.nums[ty]
	if !ok {
		return a.errf(t, "the type of literal %q is not a known numeric type", t.text)
	}
	a.i++
	bits, err := parseNumber(t.text, n)
	if err != nil {
		return a.errf(t, "%v", err)
	}
	p.word(uint32(bits))
	if n.Width > 32 {
		p.word(uint32(bits >> 32))
	}
	return nil
}

// parseInt parses a decimal or 0x integer of the given width; negative
// values are allowed when signed.
func parseInt(s string, width uint32, signed bool) (uint64, error) {
	if strings.HasPrefix(s, "-") {
		if !signed {
			return 0, fmt.Errorf("negative value %s for an unsigned type", s)
		}
		v, err := strconv.ParseInt(s, 0, int(width))
		return uint64(v), err
	}
	v, err := strconv.ParseUint(s, 0, int(width))
	return v, err
}

// parseNumber parses a literal of numeric type n into its bits (integers
// of width < 32 sign-extended to 32 bits when signed, as spirv-as does).
func parseNumber(s string, n spirv.NumType) (uint64, error) {
	if !n.Float {
		v, err := parseInt(s, n.Width, n.Signed)
		if err != nil {
			return 0, fmt.Errorf("invalid %d-bit integer %q", n.Width, s)
		}
		if n.Signed && n.Width < 32 {
			shift := 64 - n.Width
			v = uint64(int64(v<<shift)>>shift) & 0xffffffff
		}
		return v, nil
	}
	f, err := parseFloat(s)
	if err != nil {
		return 0, fmt.Errorf("invalid floating-point literal %q", s)
	}
	switch {
	case n.Width == 64:
		return math.Float64bits(f), nil
	case n.Width == 32 && n.Encoding < 0:
		return uint64(math.Float32bits(float32(f))), nil
	}
	exp, man := 5, 10
	ieee := true
	switch spirv.FPEncoding(n.Encoding) {
	case spirv.FPEncodingBFloat16KHR:
		exp, man = 8, 7
	case spirv.FPEncodingFloat8E4M3EXT:
		exp, man, ieee = 4, 3, false
	case spirv.FPEncodingFloat8E5M2EXT:
		exp, man = 5, 2
	case spirv.FPEncodingFloat6E2M3EXT:
		exp, man, ieee = 2, 3, false
	case spirv.FPEncodingFloat6E3M2EXT:
		exp, man, ieee = 3, 2, false
	case spirv.FPEncodingFloat4E2M1EXT:
		exp, man, ieee = 2, 1, false
	case spirv.FPEncodingFloat8UnsignedE8M0EXT:
		// A power of two: the biased exponent alone.
		_, e := math.Frexp(f)
		return uint64(e-1+127) & 0xff, nil
	case spirv.FPEncodingMXInt8EXT:
		// Signed fixed point in units of 2^-6.
		return uint64(uint8(int8(math.RoundToEven(f * 64)))), nil
	}
	if n.Encoding < 0 && n.Width != 16 {
		return 0, fmt.Errorf("unsupported %d-bit float literal %q", n.Width, s)
	}
	return encodeNarrow(f, exp, man, ieee), nil
}

// parseFloat parses decimal and hex-float literals (0x1.8p+3), including
// the hex forms spirv-dis prints for infinities and NaNs of narrow types.
func parseFloat(s string) (float64, error) {
	neg := strings.HasPrefix(s, "-")
	body := strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	if strings.HasPrefix(body, "0x") || strings.HasPrefix(body, "0X") {
		if !strings.ContainsAny(body, "pP") {
			body += "p0"
		}
		f, err := strconv.ParseFloat(body, 64)
		if err != nil && !isRange(err) {
			return 0, err
		}
		if neg {
			f = -f
		}
		return f, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !isRange(err) {
		return 0, err
	}
	return f, nil
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// encodeNarrow rounds f to nearest even in a float format of exp and man
// bits. The exponent just past the largest finite one (how spirv-dis
// prints infinities and NaNs) encodes as infinity; NaNs keep a quiet bit.
func encodeNarrow(f float64, expBits, manBits int, ieee bool) uint64 {
	var sign uint64
	if math.Signbit(f) {
		sign = 1 << (expBits + manBits)
		f = -f
	}
	expMax := uint64(1)<<expBits - 1
	bias := 1<<(expBits-1) - 1
	if math.IsNaN(f) {
		return sign | expMax<<manBits | 1<<(manBits-1)
	}
	_, e := math.Frexp(f)
	if !math.IsInf(f, 0) && f != 0 && e-1 == bias+1 {
		// 0x1.xp+(bias+1): the all-ones exponent with its fraction bits.
		frac := math.Ldexp(f, -(bias + 1))
		m := uint64(math.RoundToEven((frac - 1) * float64(uint64(1)<<manBits)))
		return sign | expMax<<manBits | m
	}
	if math.IsInf(f, 0) {
		return sign | expMax<<manBits
	}
	if f == 0 {
		return sign
	}
	exp := e - 1
	if exp < 1-bias {
		exp = 1 - bias
	}
	m := math.RoundToEven(math.Ldexp(f, manBits-exp))
	if m >= float64(uint64(2)<<manBits) {
		m /= 2
		exp++
	}
	if m < float64(uint64(1)<<manBits) {
		return sign | uint64(m)
	}
	be := uint64(exp + bias)
	if be >= expMax && ieee {
		return sign | expMax<<manBits
	}
	return sign | be<<manBits | (uint64(m) - 1<<manBits)
}
