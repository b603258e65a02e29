package text

import (
	"bytes"
	"strconv"
	"strings"
	"sync"

	"github.com/coopshader/coop/spirv"
)

// AsmOptions control assembly. The zero value assembles as spirv-as does
// by default.
type AsmOptions struct {
	// Version is the module's SPIR-V version (default 1.6, spirv-as's
	// default target).
	Version spirv.Version
	// PreserveIDs keeps numeric ids (%5 stays id 5) as spirv-as
	// --preserve-numeric-ids does; other names get the free ids in order of
	// first appearance.
	PreserveIDs bool
	// KeepHeader takes the version, generator, bound and schema from the
	// "; Version:", "; Generator:", "; Bound:" and "; Schema:" comments
	// spirv-dis writes before the first instruction (spirv-as ignores
	// them), so a disassembly reassembles to the same header. A bound below
	// what the ids need is raised.
	KeepHeader bool
}

// Generator is the header word spirv-as writes: the Khronos SPIR-V Tools
// Assembler (tool 7), version 0.
const Generator = 7 << 16

// Error is an assembly error at a position (line and byte column, from 1).
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	return e.File + ":" + strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Col) + ": error: " + e.Msg
}

// Assemble parses SPIR-V assembly (spirv-dis output or spirv-as input);
// name is used in error positions.
func Assemble(src []byte, name string) (*spirv.Module, error) {
	return AssembleOptions(src, name, AsmOptions{})
}

// AssembleOptions is Assemble with options.
func AssembleOptions(src []byte, name string, opts AsmOptions) (*spirv.Module, error) {
	var keep map[uint32]bool
	if opts.PreserveIDs {
		// Like spirv-as: a first pass finds the names that are numbers.
		a := newAsm(src, name, opts, nil)
		if err := a.run(); err != nil {
			return nil, err
		}
		keep = map[uint32]bool{}
		for s := range a.ids {
			if v, ok := parseUintC([]byte(s)); ok && v <= 0xffffffff {
				keep[uint32(v)] = true
			}
		}
	}
	a := newAsm(src, name, opts, keep)
	if err := a.run(); err != nil {
		return nil, err
	}
	if a.boundErr != nil && !(opts.KeepHeader && a.headerSeen[2]) {
		return nil, a.boundErr
	}
	return a.module(), nil
}

const (
	tokEOF = iota
	tokWord
	tokString
)

type token struct {
	kind      uint8
	esc       bool   // a string with backslash escapes
	lineFirst bool   // the first token on its line
	text      []byte // a word, or a string's bytes between the quotes
	line, col int32
}

type asm struct {
	src  []byte
	name string
	opts AsmOptions

	pos, line, lineStart int
	lastLine             int // line of the last token
	buf                  [2]token
	nbuf, head           int
	err                  error

	ids      map[string]uint32
	keep     map[uint32]bool
	next     uint32
	bound    uint64
	boundErr error // an id past 32 bits of bound, unless the header gives it

	types *spirv.Types
	words []uint32
	insts []instSpan
	start int // index in words of the instruction being assembled

	header     spirv.Module
	headerSeen [4]bool
}

type instSpan struct {
	op         spirv.Op
	start, end int
}

func newAsm(src []byte, name string, opts AsmOptions, keep map[uint32]bool) *asm {
	return &asm{src: src, name: name, opts: opts, line: 1, ids: map[string]uint32{}, keep: keep, next: 1, bound: 1,
		types: spirv.NewTypes(), words: make([]uint32, 0, len(src)/5+16), insts: make([]instSpan, 0, len(src)/24+4)}
}

func (a *asm) module() *spirv.Module {
	m := &spirv.Module{Version: a.opts.Version, Generator: Generator, Bound: uint32(min(a.bound, 0xffffffff))}
	if m.Version == 0 {
		m.Version = spirv.MakeVersion(1, 6)
	}
	if a.opts.KeepHeader {
		h := &a.header
		if a.headerSeen[0] {
			m.Version = h.Version
		}
		if a.headerSeen[1] {
			m.Generator = h.Generator
		}
		if a.headerSeen[2] {
			m.Bound = max(m.Bound, h.Bound)
			if a.bound > 0xffffffff {
				m.Bound = h.Bound
			}
		}
		if a.headerSeen[3] {
			m.Schema = h.Schema
		}
	}
	m.Insts = make([]spirv.Inst, len(a.insts))
	for i, s := range a.insts {
		m.Insts[i] = spirv.Inst{Op: s.op, Words: a.words[s.start:s.end:s.end]}
	}
	return m
}

func (a *asm) errAt(t token, msg string) error {
	if a.err != nil {
		return a.err
	}
	line, col := int(t.line), int(t.col)
	if t.kind == tokEOF {
		line, col = a.line, a.pos-a.lineStart+1
	}
	return &Error{a.name, line, col, msg}
}

// lex reads the next token, skipping white space and ; comments.
func (a *asm) lex() token {
	src := a.src
	for a.pos < len(src) {
		c := src[a.pos]
		switch c {
		case '\n':
			a.pos++
			a.line++
			a.lineStart = a.pos
			continue
		case ' ', '\t', '\r', '\v', '\f':
			a.pos++
			continue
		case ';':
			start := a.pos
			for a.pos < len(src) && src[a.pos] != '\n' {
				a.pos++
			}
			if a.opts.KeepHeader && len(a.insts) == 0 {
				a.headerComment(src[start:a.pos])
			}
			continue
		}
		break
	}
	if a.pos >= len(src) {
		return token{}
	}
	t := token{kind: tokWord, line: int32(a.line), col: int32(a.pos - a.lineStart + 1), lineFirst: a.line != a.lastLine}
	a.lastLine = a.line
	if src[a.pos] == '"' {
		t.kind = tokString
		a.pos++
		start := a.pos
		for {
			if a.pos >= len(src) {
				a.err = &Error{a.name, int(t.line), int(t.col), "missing closing quote of string"}
				return token{}
			}
			c := src[a.pos]
			if c == '"' {
				break
			}
			if c == '\\' {
				t.esc = true
				a.pos++
				if a.pos < len(src) {
					c = src[a.pos]
				}
			}
			if c == '\n' {
				a.line++
				a.lineStart = a.pos + 1
			}
			a.pos++
		}
		t.text = src[start:a.pos]
		a.pos++
		if a.pos < len(src) && !isDelim(src[a.pos]) {
			a.err = &Error{a.name, a.line, a.pos - a.lineStart + 1, "expected white space after the closing quote"}
			return token{}
		}
		return t
	}
	start := a.pos
	// As in spirv-as, a quote inside a word quotes delimiters until the
	// closing quote (such a word is never valid, but is one word).
	quoted, escaped := false, false
	for ; a.pos < len(src); a.pos++ {
		c := src[a.pos]
		if c == '\\' {
			escaped = !escaped
			continue
		}
		if c == '"' && !escaped {
			quoted = !quoted
		} else if c == '\n' {
			if quoted || escaped {
				a.line++
				a.lineStart = a.pos + 1
			} else {
				break
			}
		} else if isDelim(c) && !quoted && !escaped {
			break
		}
		escaped = false
	}
	if a.pos == start {
		a.err = &Error{a.name, int(t.line), int(t.col), "unexpected " + strconv.QuoteRune(rune(src[a.pos]))}
		return token{}
	}
	t.text = src[start:a.pos]
	return t
}

func isDelim(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', '\v', '\f', ';', ',', '(', ')':
		return true
	}
	return false
}

// headerComment reads one of spirv-dis's header lines.
func (a *asm) headerComment(line []byte) {
	s := strings.TrimSpace(string(line[1:]))
	key, val, ok := strings.Cut(s, ":")
	if !ok {
		return
	}
	val = strings.TrimSpace(val)
	switch key {
	case "Version":
		maj, min, ok := strings.Cut(val, ".")
		x, err1 := strconv.ParseUint(maj, 10, 8)
		y, err2 := strconv.ParseUint(min, 10, 8)
		if ok && err1 == nil && err2 == nil {
			a.header.Version = spirv.MakeVersion(int(x), int(y))
			a.headerSeen[0] = true
		}
	case "Generator":
		i := strings.LastIndexByte(val, ';')
		if i < 0 {
			return
		}
		misc, err := strconv.ParseUint(strings.TrimSpace(val[i+1:]), 10, 16)
		tool, ok := generatorID(strings.TrimSpace(val[:i]))
		if err == nil && ok {
			a.header.Generator = tool<<16 | uint32(misc)
			a.headerSeen[1] = true
		}
	case "Bound":
		if v, err := strconv.ParseUint(val, 10, 32); err == nil {
			a.header.Bound = uint32(v)
			a.headerSeen[2] = true
		}
	case "Schema":
		if v, err := strconv.ParseUint(val, 10, 32); err == nil {
			a.header.Schema = uint32(v)
			a.headerSeen[3] = true
		}
	}
}

// generatorID finds the tool id spirv-dis names as s ("Khronos Glslang
// Reference Front End", or "Unknown(N)").
func generatorID(s string) (uint32, bool) {
	if n, ok := strings.CutPrefix(s, "Unknown("); ok {
		v, err := strconv.ParseUint(strings.TrimSuffix(n, ")"), 10, 16)
		return uint32(v), err == nil
	}
	for id := uint32(0); id < 1<<16; id++ {
		vendor, tool, ok := spirv.GeneratorName(id << 16)
		if !ok {
			continue
		}
		name := vendor
		if tool != "" {
			name += " " + tool
		}
		if name == s {
			return id, true
		}
	}
	return 0, false
}

// peek returns the token i (0 or 1) ahead; buf is a ring from head.
func (a *asm) peek(i int) *token {
	for a.nbuf <= i {
		a.buf[(a.head+a.nbuf)&1] = a.lex()
		a.nbuf++
	}
	return &a.buf[(a.head+i)&1]
}

func (a *asm) take() token {
	t := a.peek(0)
	a.head ^= 1
	a.nbuf--
	return *t
}

// atInstStart reports whether the next token begins an instruction (or
// the text ends), by spirv-as's rule: Op followed by a capital letter, or
// %name followed by =. A !<integer> first on its line also starts one
// (spirv-as would append it to the previous instruction), so the raw
// lines Disassemble prints for unknown opcodes read back.
func (a *asm) atInstStart() bool {
	t := a.peek(0)
	if t.kind != tokWord {
		return t.kind == tokEOF
	}
	if s := t.text; len(s) >= 3 && s[0] == 'O' && s[1] == 'p' && s[2] >= 'A' && s[2] <= 'Z' || s[0] == '!' && t.lineFirst {
		return true
	}
	if t.text[0] != '%' {
		return false
	}
	u := a.peek(1)
	return u.kind == tokWord && len(u.text) == 1 && u.text[0] == '='
}

func (a *asm) run() error {
	for {
		if a.peek(0).kind == tokEOF {
			return a.err
		}
		if err := a.inst(); err != nil {
			return err
		}
	}
}

// id returns the id a %name stands for, assigning the next free one the
// first time.
func (a *asm) id(t token) (uint32, error) {
	if t.kind != tokWord || len(t.text) < 2 || t.text[0] != '%' {
		return 0, a.errAt(t, "expected an id (%name), got "+quoteTok(t))
	}
	name := t.text[1:]
	for _, c := range name {
		if !isIDChar(c) {
			return 0, a.errAt(t, "invalid id "+quoteTok(t))
		}
	}
	if a.keep != nil {
		if v, ok := parseUintC(name); ok && v <= 0xffffffff && a.keep[uint32(v)] {
			// The bound is one more than the largest id, a 32-bit word:
			// id 4294967295 fits only a module whose header (kept) says
			// its bound.
			if v == 0xffffffff && a.boundErr == nil {
				a.boundErr = a.errAt(t, "id "+quoteTok(t)+" is too large: the module's id bound would be 4294967296, past 32 bits")
			}
			a.bound = max(a.bound, v+1)
			return uint32(v), nil
		}
	}
	if id, ok := a.ids[string(name)]; ok {
		return id, nil
	}
	for a.keep[a.next] {
		a.next++
	}
	id := a.next
	if id == 0xffffffff {
		return 0, a.errAt(t, "too many ids: the module's id bound would pass 32 bits")
	}
	a.next++
	a.ids[string(name)] = id
	a.bound = max(a.bound, uint64(id)+1)
	return id, nil
}

func quoteTok(t token) string {
	switch t.kind {
	case tokEOF:
		return "the end of the text"
	case tokString:
		return strconv.Quote(string(t.text))
	}
	return strconv.Quote(string(t.text))
}

func (a *asm) inst() error {
	first := a.take()
	var result token
	hasResult := false
	if first.kind == tokWord && first.text[0] == '%' {
		eq := a.take()
		if eq.kind != tokWord || string(eq.text) != "=" {
			return a.errAt(first, "expected "+string(first.text)+" = Op..., or an opcode")
		}
		result, hasResult = first, true
		first = a.take()
	}
	a.start = len(a.words)
	if first.kind == tokWord && first.text[0] == '!' && !hasResult {
		return a.rawInst(first)
	}
	op, ok := lookupOp(first)
	if !ok {
		if first.kind == tokEOF {
			return a.errAt(first, "expected an opcode after "+string(result.text)+" =")
		}
		return a.errAt(first, "unknown opcode "+quoteTok(first))
	}
	desc := op.Desc()
	if desc.HasResult() != hasResult {
		if hasResult {
			return a.errAt(first, desc.Name+" does not produce a result id")
		}
		return a.errAt(first, desc.Name+" needs a result id: %name = "+desc.Name+" ...")
	}
	p := operandAsm{a: a, op: op, opTok: first, result: result}
	err := p.list(desc.Operands)
	if err == errCIV {
		err = p.civs()
	}
	if err != nil {
		return err
	}
	if !a.atInstStart() {
		t := *a.peek(0)
		return a.errAt(t, "expected the next instruction, got "+quoteTok(t)+" (too many operands for "+desc.Name+"?)")
	}
	a.finish(op)
	return a.err
}

func (a *asm) finish(op spirv.Op) {
	a.insts = append(a.insts, instSpan{op, a.start, len(a.words)})
	in := spirv.Inst{Op: op, Words: a.words[a.start:]}
	if op.Desc() != nil {
		a.types.Record(&in)
	}
}

// rawInst assembles an instruction that starts with a !<integer> word
// (opcode and word count); its operands are !<integer> words, numbers,
// strings and ids, up to the word count.
func (a *asm) rawInst(first token) error {
	w, err := a.immediate(first)
	if err != nil {
		return err
	}
	n := int(w >> 16)
	p := operandAsm{a: a, op: spirv.Op(w & 0xffff), opTok: first}
	for !a.atInstStart() {
		if err := p.civ(); err != nil {
			return err
		}
	}
	if got := len(a.words) - a.start + 1; got != n {
		return a.errAt(first, "raw instruction's word count "+strconv.Itoa(n)+" does not match its "+strconv.Itoa(got)+" words")
	}
	a.finish(spirv.Op(w & 0xffff))
	return a.err
}

func (a *asm) immediate(t token) (uint32, error) {
	v, ok := parseUintC(t.text[1:])
	if !ok || v > 0xffffffff {
		return 0, a.errAt(t, "invalid immediate integer "+quoteTok(t))
	}
	return uint32(v), nil
}

var (
	tablesOnce sync.Once
	opByName   map[string]spirv.Op
	enumByName []map[string]*spirv.Enumerant // by operand kind
	extByName  sync.Map                      // *spirv.ExtInstSet -> map[string]*spirv.ExtInstDesc
)

func buildTables() {
	opByName = map[string]spirv.Op{}
	for op := 0; op < 1<<16; op++ {
		if d := spirv.Op(op).Desc(); d != nil {
			opByName[d.Name] = d.Op
			for _, al := range d.Aliases {
				opByName[al] = d.Op
			}
		}
	}
	for k := spirv.OperandKind(1); k.Desc() != nil; k++ {
		for len(enumByName) <= int(k) {
			enumByName = append(enumByName, nil)
		}
		d := k.Desc()
		if len(d.Enumerants) == 0 {
			continue
		}
		m := make(map[string]*spirv.Enumerant, len(d.Enumerants))
		for i := range d.Enumerants {
			e := &d.Enumerants[i]
			m[e.Name] = e
			for _, al := range e.Aliases {
				if _, ok := m[al]; !ok {
					m[al] = e
				}
			}
		}
		enumByName[k] = m
	}
}

func lookupOp(t token) (spirv.Op, bool) {
	if t.kind != tokWord {
		return 0, false
	}
	tablesOnce.Do(buildTables)
	op, ok := opByName[string(t.text)]
	return op, ok
}

func lookupEnum(k spirv.OperandKind, name []byte) *spirv.Enumerant {
	tablesOnce.Do(buildTables)
	if int(k) >= len(enumByName) || enumByName[k] == nil {
		return nil
	}
	return enumByName[k][string(name)]
}

func lookupExt(set *spirv.ExtInstSet, name []byte) *spirv.ExtInstDesc {
	v, ok := extByName.Load(set)
	if !ok {
		m := make(map[string]*spirv.ExtInstDesc, len(set.Insts))
		for i := range set.Insts {
			m[set.Insts[i].Name] = &set.Insts[i]
		}
		v, _ = extByName.LoadOrStore(set, m)
	}
	return v.(map[string]*spirv.ExtInstDesc)[string(name)]
}

// errCIV unwinds the grammar-driven operand parse after a !<integer>
// operand: like spirv-as, the rest of the instruction is then read as
// context-independent values.
var errCIV = &Error{Msg: "internal: !<integer> operand"}

type operandAsm struct {
	a          *asm
	op         spirv.Op
	opTok      token
	result     token
	resultDone bool
}

func (p *operandAsm) word(w uint32) { p.a.words = append(p.a.words, w) }

// words returns the words of the instruction so far.
func (p *operandAsm) words() []uint32 { return p.a.words[p.a.start:] }

func (p *operandAsm) list(ops []spirv.OperandDesc) error {
	a := p.a
	for _, od := range ops {
		switch od.Quant {
		case spirv.QuantOne:
			if od.Kind != spirv.KindIdResult && a.atInstStart() {
				return a.errAt(p.opTok, p.opTok.String()+": missing operand "+operandLabel(od))
			}
			if err := p.one(od.Kind); err != nil {
				return err
			}
		case spirv.QuantOptional:
			if !a.atInstStart() {
				if err := p.one(od.Kind); err != nil {
					return err
				}
			}
		case spirv.QuantMany:
			for !a.atInstStart() {
				if err := p.one(od.Kind); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (t token) String() string { return string(t.text) }

func operandLabel(od spirv.OperandDesc) string {
	if od.Name != "" {
		return "'" + od.Name + "'"
	}
	return od.Kind.String()
}

// civs reads the rest of an instruction after a !<integer> operand: the
// result id if it is still due, then context-independent values.
func (p *operandAsm) civs() error {
	if p.result.kind != tokEOF && !p.resultDone {
		if err := p.one(spirv.KindIdResult); err != nil {
			return err
		}
	}
	for !p.a.atInstStart() {
		if err := p.civ(); err != nil {
			return err
		}
	}
	return nil
}

// civ reads one context-independent value: !<integer>, a string, an id,
// or a 32-bit number (float with a '.', signed with a '-').
func (p *operandAsm) civ() error {
	a := p.a
	t := a.take()
	switch {
	case t.kind == tokString:
		a.words = appendStringWords(a.words, t)
		return nil
	case t.text[0] == '!':
		w, err := a.immediate(t)
		p.word(w)
		return err
	case t.text[0] == '%':
		id, err := a.id(t)
		p.word(id)
		return err
	}
	var bits uint64
	var err error
	switch {
	case bytes.IndexByte(t.text, '.') >= 0:
		bits, err = parseFloat(t.text, spirv.NumType{Width: 32, Float: true, Encoding: -1})
	default:
		bits, err = parseInt(t.text, 32, t.text[0] == '-')
	}
	if err != nil {
		return a.errAt(t, err.Error())
	}
	p.word(uint32(bits))
	return nil
}

// appendStringWords appends a string token's value as a literal string.
func appendStringWords(words []uint32, t token) []uint32 {
	var w uint32
	n := 0
	s := t.text
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && t.esc && i+1 < len(s) {
			i++
			c = s[i]
		}
		if c == 0 {
			// The string ends at a NUL, as in spirv-as.
			break
		}
		w |= uint32(c) << (8 * (n % 4))
		n++
		if n%4 == 0 {
			words = append(words, w)
			w = 0
		}
	}
	return append(words, w)
}

func (p *operandAsm) one(k spirv.OperandKind) error {
	a := p.a
	if k == spirv.KindIdResult {
		id, err := a.id(p.result)
		if err != nil {
			return err
		}
		p.resultDone = true
		p.word(id)
		return nil
	}
	t := *a.peek(0)
	if t.kind == tokWord && t.text[0] == '!' {
		a.take()
		w, err := a.immediate(t)
		if err != nil {
			return err
		}
		p.word(w)
		return errCIV
	}
	switch k {
	case spirv.KindLiteralString:
		if t.kind != tokString {
			return a.errAt(t, "expected a quoted string, got "+quoteTok(t))
		}
		a.take()
		a.words = appendStringWords(a.words, t)
		return nil
	case spirv.KindLiteralContextDependentNumber:
		return p.typedNumber(t, p.literalType())
	case spirv.KindPairLiteralIntegerIdRef:
		if p.op == spirv.OpSwitch {
			// The case literals have the selector's type.
			var sel uint32
			if w := p.words(); len(w) > 0 {
				sel = w[0]
			}
			if err := p.typedNumber(t, a.types.TypeOf(sel)); err != nil {
				return err
			}
			if a.atInstStart() {
				return a.errAt(p.opTok, "OpSwitch: missing the target label of a case")
			}
			return p.one(spirv.KindIdRef)
		}
	case spirv.KindLiteralExtInstInteger:
		return p.extInst(t)
	case spirv.KindLiteralSpecConstantOpInteger:
		a.take()
		var op spirv.Op
		ok := false
		if t.kind == tokWord {
			tablesOnce.Do(buildTables)
			op, ok = opByName["Op"+string(t.text)]
		}
		if !ok {
			v, isNum := parseUintC(t.text)
			if !isNum || v > 0xffff || spirv.Op(v).Desc() == nil || t.kind != tokWord {
				return a.errAt(t, "unknown opcode "+quoteTok(t)+" in OpSpecConstantOp")
			}
			op = spirv.Op(v)
		}
		p.word(uint32(op))
		ops := op.Desc().Operands
		for len(ops) > 0 && (ops[0].Kind == spirv.KindIdResultType || ops[0].Kind == spirv.KindIdResult) {
			ops = ops[1:]
		}
		return p.list(ops)
	case spirv.KindLiteralInteger:
		a.take()
		v, err := p.literal(t, 32, false)
		p.word(uint32(v))
		return err
	case spirv.KindLiteralFloat:
		a.take()
		if t.kind != tokWord {
			return a.errAt(t, "expected a number, got "+quoteTok(t))
		}
		v, err := parseFloat(t.text, spirv.NumType{Width: 32, Float: true, Encoding: -1})
		if err != nil {
			return a.errAt(t, err.Error())
		}
		p.word(uint32(v))
		return nil
	}
	kd := k.Desc()
	switch kd.Category {
	case spirv.CategoryId:
		a.take()
		id, err := a.id(t)
		p.word(id)
		return err
	case spirv.CategoryComposite:
		for i, b := range kd.Bases {
			if i > 0 && a.atInstStart() {
				return a.errAt(p.opTok, p.opTok.String()+": missing part of a "+k.String()+" operand")
			}
			if err := p.one(b); err != nil {
				return err
			}
		}
		return nil
	case spirv.CategoryValueEnum:
		a.take()
		if t.kind != tokWord {
			return a.errAt(t, "invalid "+k.String()+" "+quoteTok(t))
		}
		e := lookupEnum(k, t.text)
		if e == nil {
			v, ok := parseUintC(t.text)
			if !ok || v > 0xffffffff {
				return a.errAt(t, "invalid "+k.String()+" "+quoteTok(t))
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
		a.take()
		if t.kind != tokWord {
			return a.errAt(t, "invalid "+k.String()+" "+quoteTok(t))
		}
		var v uint32
		rest := t.text
		for {
			i := 0
			for i < len(rest) && rest[i] != '|' {
				i++
			}
			part := rest[:i]
			if e := lookupEnum(k, part); e != nil {
				v |= e.Value
			} else if n, ok := parseUintC(part); ok && n <= 0xffffffff {
				v |= uint32(n)
			} else {
				return a.errAt(t, "invalid "+k.String()+" "+strconv.Quote(string(part)))
			}
			if i == len(rest) {
				break
			}
			rest = rest[i+1:]
		}
		p.word(v)
		for bit := uint32(1); bit != 0 && bit <= v; bit <<= 1 {
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
	// Any other literal: a 32-bit unsigned integer.
	a.take()
	v, err := p.literal(t, 32, false)
	p.word(uint32(v))
	return err
}

func (p *operandAsm) literal(t token, width uint32, signed bool) (uint64, error) {
	if t.kind != tokWord {
		return 0, p.a.errAt(t, "expected a number, got "+quoteTok(t))
	}
	v, err := parseInt(t.text, width, signed)
	if err != nil {
		return 0, p.a.errAt(t, err.Error())
	}
	return v, nil
}

// literalType is the type that decides an OpConstant/OpSpecConstant
// literal's width: the instruction's result type.
func (p *operandAsm) literalType() uint32 {
	if w := p.words(); len(w) > 0 {
		return w[0]
	}
	return 0
}

func (p *operandAsm) typedNumber(t token, ty uint32) error {
	a := p.a
	n, ok := a.types.Num(ty)
	if !ok {
		return a.errAt(t, "the type of literal "+quoteTok(t)+" is not a known numeric type")
	}
	a.take()
	if t.kind != tokWord {
		return a.errAt(t, "expected a number, got "+quoteTok(t))
	}
	var bits uint64
	var err error
	if n.Float {
		bits, err = parseFloat(t.text, n)
	} else {
		if n.Width > 64 {
			return a.errAt(t, "unsupported "+strconv.Itoa(int(n.Width))+"-bit integer literal")
		}
		bits, err = parseInt(t.text, n.Width, n.Signed)
	}
	if err != nil {
		return a.errAt(t, err.Error())
	}
	p.word(uint32(bits))
	if n.Width > 32 {
		p.word(uint32(bits >> 32))
	}
	return nil
}

func (p *operandAsm) extInst(t token) error {
	a := p.a
	a.take()
	var setID uint32
	if w := p.words(); len(w) > 0 {
		setID = w[len(w)-1]
	}
	set := a.types.ExtSet(setID)
	if set != nil && t.kind == tokWord {
		if d := lookupExt(set, t.text); d != nil {
			p.word(d.Number)
			return p.list(d.Operands)
		}
	}
	v, ok := parseUintC(t.text)
	if !ok || v > 0xffffffff || t.kind != tokWord {
		return a.errAt(t, "unknown extended instruction "+quoteTok(t))
	}
	p.word(uint32(v))
	if set != nil {
		if d := set.Inst(uint32(v)); d != nil {
			return p.list(d.Operands)
		}
	}
	for !a.atInstStart() {
		if err := p.one(spirv.KindIdRef); err != nil {
			return err
		}
	}
	return nil
}
