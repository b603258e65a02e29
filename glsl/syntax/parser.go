package syntax

import (
	"slices"
	"strings"

	"github.com/coopshader/coop/glsl/diag"
	"github.com/coopshader/coop/glsl/token"
)

// maxDepth bounds the nesting of expressions, statements and type
// definitions (about one level per parenthesis, two per nested block) so
// hostile input cannot exhaust the stack.
const maxDepth = 2000

type parser struct {
	toks  []token.Token
	fl    []kwFlags // keyword flags of each token
	owned bool      // toks is a private copy (a ">>" was split)
	i     int
	d     *diag.List
	// types maps each user type name (struct or buffer_reference block)
	// to its visible bindings, innermost last: true for the type, false
	// for a variable hiding it. scope lists the names bound, in order, and
	// marks the length of scope at each open scope.
	types map[string][]bool
	scope []string
	marks []int
	depth int
	// noGT is set while parsing type parameters, where '>' closes the list.
	noGT    int
	lastErr int // token index of the last syntax error, to avoid cascades
	nodes
}

// bailout unwinds the parse after too deep nesting.
type bailout struct{}

// Parse parses a preprocessed token stream (ending with EOF) into a
// syntax tree. Errors go to d; the tree holds what could be parsed. The
// token slice is not modified.
func Parse(toks []token.Token, d *diag.List) *File {
	defineKeywords()
	if len(toks) == 0 || toks[len(toks)-1].Kind != token.EOF {
		toks = append(toks[:len(toks):len(toks)], token.Token{Kind: token.EOF})
	}
	p := &parser{toks: toks, d: d, lastErr: -1, fl: make([]kwFlags, len(toks))}
	for i, t := range toks {
		if t.Kind == token.Ident {
			p.fl[i] = keywords[t.Text]
		}
	}
	f := &File{}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
		}
	}()
	for p.tok().Kind != token.EOF {
		start := p.i
		if p.got(";") {
			continue
		}
		if dcl := p.externalDecl(); dcl != nil {
			f.Decls = append(f.Decls, dcl)
		}
		if p.i == start {
			p.i++ // guarantee progress after an error
		}
	}
	return f
}

func (p *parser) tok() token.Token { return p.toks[p.i] }

func (p *parser) peek(n int) token.Token {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) flagAt(n int) kwFlags {
	if p.i+n < len(p.fl) {
		return p.fl[p.i+n]
	}
	return 0
}

func (p *parser) next() token.Token {
	t := p.toks[p.i]
	if t.Kind != token.EOF {
		p.i++
	}
	return t
}

// is reports whether the current token is punctuator s.
func (p *parser) is(s string) bool {
	t := &p.toks[p.i]
	return t.Kind == token.Punct && t.Text == s
}

// isWord reports whether the current token is the identifier or keyword s.
func (p *parser) isWord(s string) bool {
	t := &p.toks[p.i]
	return t.Kind == token.Ident && t.Text == s
}

func (p *parser) got(s string) bool {
	if p.is(s) {
		p.i++
		return true
	}
	return false
}

// tokenName is glslang's name for a token in "syntax error" messages.
func (p *parser) tokenName(n int) string {
	t := p.peek(n)
	switch t.Kind {
	case token.EOF:
		return "end of file"
	case token.Ident:
		if f := p.flagAt(n); f != 0 && f&kReserved == 0 && !(f&kNeedLT != 0 && !p.peek(n+1).Is("<")) {
			return keywordName(t.Text)
		}
		if p.isUserType(t.Text) {
			return "TYPE_NAME"
		}
		return "IDENTIFIER"
	case token.IntLit:
		s := strings.ToLower(t.Text)
		s = s[len(strings.TrimRight(s, "uls")):]
		switch {
		case strings.HasPrefix(s, "u") && strings.Contains(s, "l"):
			return "UINT64CONSTANT"
		case strings.Contains(s, "l"):
			return "INT64CONSTANT"
		case strings.HasPrefix(s, "u") && strings.Contains(s, "s"):
			return "UINT16CONSTANT"
		case strings.Contains(s, "s"):
			return "INT16CONSTANT"
		case s == "u":
			return "UINTCONSTANT"
		}
		return "INTCONSTANT"
	case token.FloatLit:
		s := strings.ToLower(t.Text)
		switch {
		case strings.HasSuffix(s, "lf"):
			return "DOUBLECONSTANT"
		case strings.HasSuffix(s, "hf"):
			return "FLOAT16CONSTANT"
		}
		return "FLOATCONSTANT"
	case token.String:
		return "STRING_LITERAL"
	}
	if n, ok := punctNames.Get()[t.Text]; ok {
		return n
	}
	return "'" + t.Text + "'"
}

// syntaxError reports the current token as unexpected; expecting lists
// what the grammar allows there, if short.
func (p *parser) syntaxError(expecting string) {
	if p.i == p.lastErr {
		return
	}
	p.lastErr = p.i
	t := p.tok()
	msg := "syntax error, unexpected " + p.tokenName(0)
	if expecting != "" {
		msg += ", expecting " + expecting
	}
	p.d.Errorf(t.Pos, t.Text, "%s", msg)
}

func (p *parser) errorf(t token.Token, format string, args ...any) {
	p.d.Errorf(t.Pos, t.Text, format, args...)
}

// expect consumes punctuator s or reports a syntax error.
func (p *parser) expect(s string) bool {
	if p.got(s) {
		return true
	}
	p.syntaxError(punctNames.Get()[s])
	return false
}

// sync skips to just after the next ';', or to the next '}', at the
// current brace level (or past a braced body), to resume after an error.
func (p *parser) sync() {
	depth := 0
	for {
		t := p.tok()
		switch {
		case t.Kind == token.EOF:
			return
		case t.Kind != token.Punct:
		case t.Text == "{":
			depth++
		case t.Text == "}":
			if depth == 0 {
				return
			}
			depth--
			if depth == 0 {
				p.i++
				p.got(";")
				return
			}
		case t.Text == ";" && depth == 0:
			p.i++
			return
		}
		p.i++
	}
}

// skipTo skips past the close punctuator s that matches the current
// nesting level, or to a ';' or '}' that ends the enclosing construct.
func (p *parser) skipTo(s string) {
	depth := 0
	for t := p.tok(); t.Kind != token.EOF; t = p.tok() {
		if t.Kind == token.Punct {
			switch {
			case t.Text == s && depth == 0:
				p.i++
				return
			case t.Text == "(" || t.Text == "[":
				depth++
			case t.Text == ")" || t.Text == "]":
				depth--
			case t.Text == ";" || t.Text == "{" || t.Text == "}":
				return
			}
		}
		p.i++
	}
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.errorf(p.tok(), "nesting too deep")
		panic(bailout{})
	}
}

func (p *parser) leave() { p.depth-- }

func (p *parser) pushScope() { p.marks = append(p.marks, len(p.scope)) }
func (p *parser) popScope() {
	mark := p.marks[len(p.marks)-1]
	for _, name := range p.scope[mark:] {
		b := p.types[name]
		p.types[name] = b[:len(b)-1]
	}
	p.scope = p.scope[:mark]
	p.marks = p.marks[:len(p.marks)-1]
}

// isUserType reports whether name is a visible user type name.
func (p *parser) isUserType(name string) bool {
	b := p.types[name]
	return len(b) > 0 && b[len(b)-1]
}

func (p *parser) bind(name string, isType bool) {
	if p.types == nil {
		p.types = map[string][]bool{}
	}
	p.types[name] = append(p.types[name], isType)
	p.scope = append(p.scope, name)
}

// declareType records a type name in the current scope.
func (p *parser) declareType(name string) { p.bind(name, true) }

// declareVar records a variable, which hides a type of the same name
// declared in an outer scope (or earlier in this one).
func (p *parser) declareVar(name string) {
	if p.isUserType(name) {
		p.bind(name, false)
	}
}

// isTypeAt reports whether the token n ahead names a type.
func (p *parser) isTypeAt(n int) bool {
	t := p.peek(n)
	if t.Kind != token.Ident {
		return false
	}
	if f := p.flagAt(n); f&kType != 0 {
		return f&kNeedLT == 0 || p.peek(n+1).Is("<")
	}
	return p.types != nil && p.isUserType(t.Text)
}

// isName reports whether the token n ahead can be a declared or used
// name: an identifier, a reserved word (reported when consumed), or an
// extension keyword that glslang reads as an identifier when its
// extension is off.
func (p *parser) isName(n int) bool {
	if p.peek(n).Kind != token.Ident {
		return false
	}
	f := p.flagAt(n)
	switch {
	case f == 0 || f&kReserved != 0:
		return true
	case f&(kQual|kStmt) != 0:
		return false
	case f&kJump != 0:
		return f&kGatedJump != 0
	case f&kNeedLT != 0:
		return !p.peek(n + 1).Is("<")
	}
	return f&kGated != 0
}

func (p *parser) isQualifier() bool { return p.fl[p.i]&kQual != 0 }

// name consumes a name being declared or used, reporting reserved words.
func (p *parser) name() (token.Token, bool) {
	if !p.isName(0) {
		p.syntaxError("IDENTIFIER")
		return p.tok(), false
	}
	t := p.next()
	if p.fl[p.i-1]&kReserved != 0 {
		p.errorf(t, "Reserved word.")
	}
	return t, true
}

// declName consumes a declared name and warns about names reserved for
// the implementation, as glslang does.
func (p *parser) declName() (token.Token, bool) {
	t, ok := p.name()
	if ok && strings.Contains(t.Text, "__") {
		p.d.Warnf(t.Pos, t.Text, `identifiers containing consecutive underscores ("__") are reserved`)
	}
	return t, ok
}

// externalDecl parses one top-level declaration or function definition.
func (p *parser) externalDecl() Decl {
	if p.isWord("precision") {
		return p.precisionDecl()
	}
	if !p.isQualifier() && !p.isTypeAt(0) && !p.isWord("struct") {
		if p.fl[p.i]&kReserved != 0 {
			p.errorf(p.tok(), "Reserved word.")
		} else {
			p.syntaxError("")
		}
		p.sync()
		return nil
	}
	return p.declaration(true)
}

func (p *parser) precisionDecl() *PrecisionDecl {
	pos := p.next().Pos
	prec := p.tok()
	if !prec.Is("highp") && !prec.Is("mediump") && !prec.Is("lowp") {
		p.syntaxError("HIGH_PRECISION or MEDIUM_PRECISION or LOW_PRECISION")
		p.sync()
		return nil
	}
	p.i++
	ts := p.typeSpec(nil)
	if ts == nil || !p.expect(";") {
		p.sync()
		return nil
	}
	return &PrecisionDecl{Pos: pos, Precision: prec.Text, Type: ts}
}

// qualifiers parses a (possibly empty) qualifier list.
func (p *parser) qualifiers() []*Qualifier {
	var qs []*Qualifier
	for p.isQualifier() {
		f := p.fl[p.i]
		t := p.next()
		q := &Qualifier{Pos: t.Pos, Name: t.Text}
		switch {
		case t.Text == "layout":
			q.Layout = p.layoutList()
		case f&kArgQual != 0:
			q.Layout = p.intrinsicArgs()
		}
		qs = append(qs, q)
	}
	return qs
}

// layoutList parses (id [= constant-expression], ...); "shared" is a
// valid id there.
func (p *parser) layoutList() []*LayoutItem {
	if !p.expect("(") {
		return nil
	}
	var items []*LayoutItem
	for {
		t := p.tok()
		if t.Kind != token.Ident {
			p.syntaxError("IDENTIFIER")
			p.skipTo(")")
			return items
		}
		p.i++
		it := &LayoutItem{Pos: t.Pos, Name: t.Text}
		if p.got("=") {
			if it.Value = p.condExpr(); it.Value == nil {
				p.skipTo(")")
				return items
			}
		}
		items = append(items, it)
		if p.got(",") {
			continue
		}
		if !p.expect(")") {
			p.skipTo(")")
		}
		return items
	}
}

// intrinsicArgs parses a spirv_* qualifier's arguments: positional
// constant expressions or strings, "name = value", and
// "extensions = [...]" / "capabilities = [...]".
func (p *parser) intrinsicArgs() []*LayoutItem {
	if !p.expect("(") {
		return nil
	}
	var items []*LayoutItem
	for {
		t := p.tok()
		it := &LayoutItem{Pos: t.Pos}
		if t.Kind == token.Ident && p.peek(1).Is("=") {
			p.i += 2
			it.Name = t.Text
		}
		if t := p.tok(); it.Name != "" && t.Is("[") {
			p.i++
			list := &InitList{Pos: t.Pos}
			for {
				x := p.condExpr()
				if x == nil {
					p.skipTo(")")
					return items
				}
				list.Elems = append(list.Elems, x)
				if !p.got(",") {
					break
				}
			}
			if !p.expect("]") {
				p.skipTo(")")
				return items
			}
			it.Value = list
		} else if it.Value = p.condExpr(); it.Value == nil {
			p.skipTo(")")
			return items
		}
		items = append(items, it)
		if !p.got(",") {
			break
		}
	}
	if !p.expect(")") {
		p.skipTo(")")
	}
	return items
}

// declaration parses a declaration at the current position; global
// allows function definitions.
func (p *parser) declaration(global bool) Decl {
	pos := p.tok().Pos
	quals := p.qualifiers()
	if len(quals) > 0 {
		switch {
		case p.is(";"):
			// Qualifiers alone: "layout(local_size_x = 64) in;".
			p.i++
			return &QualDecl{Pos: pos, Quals: quals}
		case p.peek(1).Is("{") && p.isBlockName():
			return p.blockDecl(quals, pos)
		case p.isName(0) && !p.isTypeAt(0) && (p.peek(1).Is(";") || p.peek(1).Is(",")):
			return p.qualNames(quals, pos)
		}
	}
	ts := p.typeSpec(quals)
	if ts == nil {
		p.sync()
		return nil
	}
	if len(quals) > 0 {
		ts.Pos = pos
	}
	if p.got(";") {
		return &VarDecl{Type: ts}
	}
	name, ok := p.declName()
	if !ok {
		p.sync()
		return nil
	}
	if p.is("(") {
		if !global {
			p.errorf(name, "function definitions must be at global scope")
		}
		return p.funcDecl(ts, name)
	}
	return p.declarators(ts, name)
}

// qualNames parses "quals name, name;": qualifiers added to declared
// names, or buffer_reference forward declarations.
func (p *parser) qualNames(quals []*Qualifier, pos Pos) *QualDecl {
	q := &QualDecl{Pos: pos, Quals: quals}
	ref := hasLayout(quals, "buffer_reference") || hasLayout(quals, "buffer_type")
	for {
		id, ok := p.name()
		if !ok {
			p.sync()
			return q
		}
		q.Names = append(q.Names, &Ident{Pos: id.Pos, Name: id.Text})
		if ref {
			p.declareType(id.Text)
		}
		if !p.got(",") {
			break
		}
	}
	if !p.got(";") {
		p.syntaxError("COMMA or SEMICOLON")
		p.sync()
	}
	return q
}

func hasLayout(qs []*Qualifier, name string) bool {
	for _, q := range qs {
		for _, it := range q.Layout {
			if strings.EqualFold(it.Name, name) {
				return true
			}
		}
	}
	return false
}

// declarators parses "name [arrays] [= init] {, name ...} ;" after the
// first name.
func (p *parser) declarators(ts *TypeSpec, first token.Token) *VarDecl {
	vd := &VarDecl{Type: ts}
	name := first
	for {
		dcl := &Declarator{Pos: name.Pos, Name: name.Text, ArraySizes: p.arraySizes()}
		if p.got("=") {
			if dcl.Init = p.initializer(); dcl.Init == nil {
				p.sync()
				return vd
			}
		}
		// A variable's scope starts after its initializer.
		p.declareVar(name.Text)
		vd.Names = append(vd.Names, dcl)
		if !p.got(",") {
			break
		}
		var ok bool
		if name, ok = p.declName(); !ok {
			p.sync()
			return vd
		}
	}
	if !p.got(";") {
		p.syntaxError("COMMA or SEMICOLON")
		p.sync()
	}
	return vd
}

// initializer parses an assignment expression or a braced list, which
// may end with a comma.
func (p *parser) initializer() Expr {
	t := p.tok()
	if !t.Is("{") {
		return p.assignExpr()
	}
	p.i++
	p.enter()
	defer p.leave()
	il := &InitList{Pos: t.Pos}
	for !p.is("}") {
		x := p.initializer()
		if x == nil {
			return nil
		}
		il.Elems = append(il.Elems, x)
		if !p.got(",") {
			break
		}
	}
	if !p.expect("}") {
		return nil
	}
	return il
}

func (p *parser) arraySizes() []*ArraySize {
	var as []*ArraySize
	for p.is("[") {
		t := p.next()
		a := &ArraySize{Pos: t.Pos}
		if !p.is("]") {
			saved := p.noGT
			p.noGT = 0
			a.Size = p.condExpr()
			p.noGT = saved
			if a.Size == nil {
				p.skipTo("]")
				as = append(as, a)
				continue
			}
		}
		if !p.expect("]") {
			p.skipTo("]")
		}
		as = append(as, a)
	}
	return as
}

// isBlockName reports whether the current token can name a block: an
// identifier, or a buffer_reference type declared before.
func (p *parser) isBlockName() bool {
	return p.isName(0) || p.tok().Kind == token.Ident && p.isUserType(p.tok().Text)
}

func (p *parser) blockDecl(quals []*Qualifier, pos Pos) Decl {
	name := p.next()
	if strings.Contains(name.Text, "__") {
		p.d.Warnf(name.Pos, name.Text, `identifiers containing consecutive underscores ("__") are reserved`)
	}
	b := &BlockDecl{Pos: pos, Quals: quals, BlockName: name.Text}
	p.i++ // '{'
	p.enter()
	b.Members = p.members()
	p.leave()
	// The name is a type only after the members, as in glslang: a block
	// that refers to itself needs a forward declaration.
	if hasLayout(quals, "buffer_reference") || hasLayout(quals, "buffer_type") {
		p.declareType(name.Text)
	}
	if p.isName(0) && p.fl[p.i]&kType == 0 {
		id, _ := p.declName()
		b.Instance, b.InstPos = id.Text, id.Pos
		b.ArraySizes = p.arraySizes()
		p.declareVar(id.Text)
	}
	if !p.got(";") {
		p.syntaxError("IDENTIFIER or SEMICOLON")
		p.sync()
	}
	return b
}

// members parses struct or block members up to and including '}'.
func (p *parser) members() []*Member {
	var ms []*Member
	for !p.is("}") {
		if p.tok().Kind == token.EOF {
			p.expect("}")
			return ms
		}
		start := p.i
		quals := p.qualifiers()
		var ts *TypeSpec
		if len(quals) > 0 && (p.is("{") || p.peek(1).Is("{") && p.isBlockName()) {
			ts = p.inlineBlock(quals)
		} else {
			ts = p.typeSpec(quals)
			if ts != nil && ts.Struct != nil {
				p.d.Errorf(ts.Struct.Pos, "", "cannot nest a structure definition inside a structure or block")
			}
		}
		if ts == nil {
			p.sync()
			if p.i == start {
				p.i++
			}
			continue
		}
		m := &Member{Type: ts}
		for {
			id, ok := p.declName()
			if !ok {
				break
			}
			m.Names = append(m.Names, &Declarator{Pos: id.Pos, Name: id.Text, ArraySizes: p.arraySizes()})
			if !p.got(",") {
				break
			}
		}
		ms = append(ms, m)
		if !p.got(";") {
			p.syntaxError("COMMA or SEMICOLON")
			p.sync()
		}
	}
	p.i++
	return ms
}

// inlineBlock parses a block type written inside a structured descriptor
// heap: quals [Name] { members }.
func (p *parser) inlineBlock(quals []*Qualifier) *TypeSpec {
	b := &BlockDecl{Pos: quals[0].Pos, Quals: quals}
	if !p.is("{") {
		b.BlockName = p.next().Text
	}
	p.i++ // '{'
	p.enter()
	b.Members = p.members()
	p.leave()
	if b.BlockName != "" && (hasLayout(quals, "buffer_reference") || hasLayout(quals, "buffer_type")) {
		p.declareType(b.BlockName)
	}
	return &TypeSpec{Pos: b.Pos, Quals: quals, Name: b.BlockName, Block: b}
}

// typeSpec parses a type (after its qualifiers): a keyword, a user type,
// or a struct definition, with type parameters and array dimensions.
func (p *parser) typeSpec(quals []*Qualifier) *TypeSpec {
	t := p.tok()
	ts := &TypeSpec{Pos: t.Pos, Quals: quals}
	switch {
	case t.Is("struct"):
		p.i++
		st := &StructType{Pos: t.Pos}
		if p.isName(0) {
			id, _ := p.declName()
			st.Name = id.Text
		}
		if !p.expect("{") {
			return nil
		}
		p.enter()
		st.Members = p.members()
		p.leave()
		if st.Name != "" {
			p.declareType(st.Name)
		}
		ts.Struct = st
		ts.Name = st.Name
	case p.isTypeAt(0):
		p.i++
		ts.Name = t.Text
		// Any type may carry a parameter list here; the checker rejects
		// it on types that take none, as glslang does, and goes on.
		if p.is("<") {
			ts.Params = p.typeParams()
		}
		if t.Text == "spirv_type" {
			if ts.Spirv = p.spirvTypeArgs(); ts.Spirv == nil {
				return nil
			}
		}
	case p.fl[p.i]&kReserved != 0:
		p.errorf(t, "Reserved word.")
		return nil
	default:
		p.syntaxError("TYPE")
		return nil
	}
	ts.ArraySizes = p.arraySizes()
	return ts
}

// typeParams parses <arg, ...>; a '>' closes the list, and ">>" closes
// two.
func (p *parser) typeParams() []*TypeArg {
	p.i++ // '<'
	p.enter()
	defer p.leave()
	p.noGT++
	defer func() { p.noGT-- }()
	var args []*TypeArg
	for {
		if p.isTypeAt(0) {
			pos := p.tok().Pos
			ts := p.typeSpec(nil)
			if ts == nil {
				return args
			}
			if !p.is("(") {
				args = append(args, &TypeArg{Type: ts})
			} else {
				// A constructor starts an expression argument.
				x := p.ctorCall(ts, pos)
				if x != nil {
					x = p.condRest(p.binaryRest(p.postfixExpr(x), 1))
				}
				if x == nil {
					return args
				}
				args = append(args, &TypeArg{Expr: x})
			}
		} else {
			x := p.condExpr()
			if x == nil {
				return args
			}
			args = append(args, &TypeArg{Expr: x})
		}
		if p.got(",") {
			continue
		}
		if t := p.tok(); t.Is(">>") {
			// Close this list and leave one '>' for the enclosing one,
			// in a private copy of the tokens.
			if !p.owned {
				p.toks, p.owned = slices.Clone(p.toks), true
			}
			t.Text = ">"
			t.Pos.Col++
			p.toks[p.i] = t
			return args
		}
		p.expect(">")
		return args
	}
}

// constructorAhead reports whether the type at the current token is
// followed, after its <...> parameters and [] dimensions, by '(': a
// constructor call rather than a declaration.
func (p *parser) constructorAhead() bool {
	j := 1
	if p.tok().Is("spirv_type") {
		if j = p.skipParens(1); j < 0 {
			return false
		}
	}
	if p.fl[p.i]&kParam != 0 && p.peek(1).Is("<") {
		// Skip <...>: '>' closes it only outside parentheses and brackets.
		angle, paren := 0, 0
	params:
		for ; ; j++ {
			t := p.peek(j)
			switch {
			case t.Kind == token.EOF:
				return false
			case t.Kind != token.Punct:
			case t.Text == "(" || t.Text == "[":
				paren++
			case t.Text == ")" || t.Text == "]":
				paren--
			case paren > 0:
			case t.Text == "<":
				angle++
			case t.Text == ">" || t.Text == ">>":
				angle -= len(t.Text)
				if angle <= 0 {
					j++
					break params
				}
			case t.Text == ";" || t.Text == "{" || t.Text == "}":
				return false
			}
		}
	}
	for p.peek(j).Is("[") {
		depth := 0
		for ; ; j++ {
			t := p.peek(j)
			if t.Kind == token.EOF || t.Is(";") || t.Is("{") || t.Is("}") {
				return false
			}
			if t.Is("[") {
				depth++
			} else if t.Is("]") {
				if depth--; depth == 0 {
					j++
					break
				}
			}
		}
	}
	return p.peek(j).Is("(")
}

func (p *parser) funcDecl(ret *TypeSpec, name token.Token) Decl {
	fd := &FuncDecl{Pos: name.Pos, Result: ret, Name: name.Text}
	p.i++ // '('
	p.pushScope()
	defer p.popScope()
	if p.isWord("void") && p.peek(1).Is(")") {
		p.i++
	}
	if !p.is(")") {
		for {
			prm := p.param()
			if prm == nil {
				p.skipTo(")")
				p.sync()
				return nil
			}
			fd.Params = append(fd.Params, prm)
			if !p.got(",") {
				break
			}
		}
	}
	if !p.expect(")") {
		p.sync()
		return fd
	}
	if p.got(";") {
		return fd
	}
	if !p.is("{") {
		p.syntaxError("SEMICOLON or LEFT_BRACE")
		p.sync()
		return fd
	}
	fd.Body = p.block(false)
	return fd
}

func (p *parser) param() *Param {
	quals := p.qualifiers()
	ts := p.typeSpec(quals)
	if ts == nil {
		return nil
	}
	prm := &Param{Pos: ts.Pos, Type: ts}
	if len(quals) > 0 {
		prm.Pos = quals[0].Pos
	}
	// After a type, a user type name is a name (as in glslang's lexer).
	if p.isName(0) && p.fl[p.i]&kType == 0 {
		id, _ := p.declName()
		prm.Name = id.Text
		prm.Pos = id.Pos
		prm.ArraySizes = p.arraySizes()
		p.declareVar(id.Text)
	}
	return prm
}

// block parses { statements }; scope says whether it opens a new scope
// (a function body shares its parameters' scope).
func (p *parser) block(scope bool) *BlockStmt {
	t := p.next() // '{'
	b := &BlockStmt{Pos: t.Pos}
	if scope {
		p.pushScope()
		defer p.popScope()
	}
	p.enter()
	defer p.leave()
	mark := len(p.stmts)
	for !p.is("}") {
		if p.tok().Kind == token.EOF {
			p.expect("}")
			b.Stmts = p.popStmts(mark)
			return b
		}
		start := p.i
		if s := p.statement(); s != nil {
			p.stmts = append(p.stmts, s)
		}
		if p.i == start {
			p.i++
		}
	}
	b.End = p.tok().Pos
	p.i++
	b.Stmts = p.popStmts(mark)
	return b
}

// attributes parses GL_EXT_control_flow_attributes lists: [[a, b(args)]].
func (p *parser) attributes() []*Attribute {
	var attrs []*Attribute
	for p.is("[") && p.peek(1).Is("[") {
		p.i += 2
		for {
			id := p.tok()
			if id.Kind != token.Ident {
				p.syntaxError("IDENTIFIER")
				p.skipTo("]")
				break
			}
			p.i++
			a := &Attribute{Pos: id.Pos, Name: id.Text}
			if p.is("(") {
				args, ok := p.args()
				if !ok {
					p.skipTo("]")
					break
				}
				a.Args = args
			}
			attrs = append(attrs, a)
			if !p.got(",") {
				break
			}
		}
		if !p.expect("]") || !p.expect("]") {
			p.skipTo("]")
		}
	}
	return attrs
}

func (p *parser) statement() Stmt {
	p.enter()
	defer p.leave()
	attrs := p.attributes()
	t := p.tok()
	if len(attrs) > 0 && !(t.Is("for") || t.Is("while") || t.Is("do") || t.Is("if") || t.Is("switch")) {
		p.errorf(t, "attribute must be followed by a selection or iteration statement")
	}
	switch t.Kind {
	case token.Punct:
		switch t.Text {
		case "{":
			return p.block(true)
		case ";":
			p.i++
			return &EmptyStmt{Pos: t.Pos}
		}
	case token.Ident:
		f := p.fl[p.i]
		if f&kStmt != 0 {
			switch t.Text {
			case "if":
				return p.ifStmt(attrs)
			case "for":
				return p.forStmt(attrs)
			case "while":
				return p.whileStmt(attrs)
			case "do":
				return p.doStmt(attrs)
			case "switch":
				return p.switchStmt(attrs)
			case "case", "default":
				p.i++
				c := &CaseLabel{Pos: t.Pos}
				if t.Text == "case" {
					if c.X = p.expr(); c.X == nil {
						p.sync()
						return nil
					}
				}
				if !p.expect(":") {
					p.sync()
				}
				return c
			case "return":
				p.i++
				r := &ReturnStmt{Pos: t.Pos}
				if !p.is(";") {
					if r.X = p.expr(); r.X == nil {
						p.sync()
						return r
					}
				}
				if !p.expect(";") {
					p.sync()
				}
				return r
			case "precision":
				if d := p.precisionDecl(); d != nil {
					return &PrecisionStmt{Decl: d}
				}
				return nil
			case "else":
				p.syntaxError("")
				p.i++
				return nil
			}
		}
		if f&kJump != 0 && (f&kGatedJump == 0 || p.peek(1).Is(";")) {
			p.i++
			if !p.expect(";") {
				p.sync()
			}
			return &BranchStmt{Pos: t.Pos, Kind: t.Text}
		}
		if p.startsDeclStmt() {
			switch d := p.declaration(false).(type) {
			case *VarDecl:
				return &DeclStmt{Decl: d}
			case nil:
				return nil
			default:
				p.errorf(t, "this declaration is only allowed at global scope")
				return nil
			}
		}
	}
	x := p.expr()
	if x == nil {
		p.sync()
		return nil
	}
	if !p.expect(";") {
		p.sync()
	}
	es := p.exprStmt.alloc()
	es.X = x
	return es
}

// startsDeclStmt tells a declaration from an expression statement: a
// type name starts a declaration unless it is a constructor call, and an
// extension type keyword followed by an operator is an identifier.
func (p *parser) startsDeclStmt() bool {
	f := p.fl[p.i]
	if f&kQual != 0 || p.isWord("struct") {
		return true
	}
	if !p.isTypeAt(0) {
		return false
	}
	if f&kGated != 0 {
		if n := p.peek(1); n.Kind == token.Punct && n.Text != "<" && n.Text != "[" && n.Text != "(" && n.Text != ";" {
			return false
		}
	}
	return !p.constructorAhead()
}

func (p *parser) ifStmt(attrs []*Attribute) Stmt {
	s := &IfStmt{Pos: p.next().Pos, Attrs: attrs}
	if !p.expect("(") {
		p.sync()
		return s
	}
	if s.Cond = p.expr(); s.Cond == nil || !p.expect(")") {
		p.skipTo(")")
	}
	s.Then = p.scopedStatement()
	if p.isWord("else") {
		p.i++
		s.Else = p.scopedStatement()
	}
	return s
}

func (p *parser) whileStmt(attrs []*Attribute) Stmt {
	s := &WhileStmt{Pos: p.next().Pos, Attrs: attrs}
	if !p.expect("(") {
		p.sync()
		return s
	}
	p.pushScope()
	defer p.popScope()
	if s.Cond, s.CondDecl = p.condition(); s.Cond == nil && s.CondDecl == nil || !p.expect(")") {
		p.skipTo(")")
	}
	s.Body = p.bodyStatement()
	return s
}

func (p *parser) doStmt(attrs []*Attribute) Stmt {
	s := &DoStmt{Pos: p.next().Pos, Attrs: attrs}
	s.Body = p.scopedStatement()
	if !p.isWord("while") {
		p.syntaxError("WHILE")
		p.sync()
		return s
	}
	p.i++
	if !p.expect("(") {
		p.sync()
		return s
	}
	if s.Cond = p.expr(); s.Cond == nil || !p.expect(")") || !p.expect(";") {
		p.sync()
	}
	return s
}

func (p *parser) switchStmt(attrs []*Attribute) Stmt {
	s := &SwitchStmt{Pos: p.next().Pos, Attrs: attrs}
	if !p.expect("(") {
		p.sync()
		return s
	}
	if s.X = p.expr(); s.X == nil || !p.expect(")") {
		p.skipTo(")")
	}
	if !p.is("{") {
		p.expect("{")
		p.sync()
		return s
	}
	s.Body = p.block(true).Stmts
	return s
}

// scopedStatement parses the sub-statement of if/else/do, which gets its
// own scope even when it is not a compound statement.
func (p *parser) scopedStatement() Stmt {
	p.pushScope()
	defer p.popScope()
	return p.statement()
}

// bodyStatement parses a loop body: a compound body shares the scope of
// the loop's header declarations (for, while) in GLSL.
func (p *parser) bodyStatement() Stmt {
	if p.is("{") {
		return p.block(false)
	}
	return p.statement()
}

// condition parses a loop condition: an expression, or a declaration
// with an initializer ("bool b = f()").
func (p *parser) condition() (Expr, *VarDecl) {
	if !p.startsDeclStmt() {
		return p.expr(), nil
	}
	quals := p.qualifiers()
	ts := p.typeSpec(quals)
	if ts == nil {
		return nil, nil
	}
	id, ok := p.declName()
	if !ok || !p.expect("=") {
		return nil, nil
	}
	init := p.initializer()
	if init == nil {
		return nil, nil
	}
	p.declareVar(id.Text)
	return nil, &VarDecl{Type: ts, Names: []*Declarator{{Pos: id.Pos, Name: id.Text, Init: init}}}
}

func (p *parser) forStmt(attrs []*Attribute) Stmt {
	s := &ForStmt{Pos: p.next().Pos, Attrs: attrs}
	p.pushScope()
	defer p.popScope()
	if !p.expect("(") {
		p.sync()
		return s
	}
	switch {
	case p.is(";"):
		s.Init = &EmptyStmt{Pos: p.next().Pos}
	case p.startsDeclStmt():
		d, ok := p.declaration(false).(*VarDecl)
		if !ok {
			p.skipTo(")")
			s.Body = p.bodyStatement()
			return s
		}
		s.Init = &DeclStmt{Decl: d}
	default:
		x := p.expr()
		if x == nil || !p.expect(";") {
			p.skipTo(")")
			s.Body = p.bodyStatement()
			return s
		}
		s.Init = &ExprStmt{X: x}
	}
	if !p.is(";") {
		if s.Cond, s.CondDecl = p.condition(); s.Cond == nil && s.CondDecl == nil {
			p.skipTo(")")
			s.Body = p.bodyStatement()
			return s
		}
	}
	if !p.expect(";") {
		p.skipTo(")")
		s.Body = p.bodyStatement()
		return s
	}
	if !p.is(")") {
		s.Post = p.expr()
	}
	if !p.expect(")") {
		p.skipTo(")")
	}
	s.Body = p.bodyStatement()
	return s
}

// slab hands out nodes from chunks, so the many small nodes of a tree
// cost a few allocations instead of one each; a tree lives as a whole.
type slab[T any] struct {
	buf  []T
	size int
}

func (s *slab[T]) alloc() *T {
	if len(s.buf) == 0 {
		// Chunks grow, so a small shader wastes little.
		s.size = min(max(2*s.size, 4), 64)
		s.buf = make([]T, s.size)
	}
	x := &s.buf[0]
	s.buf = s.buf[1:]
	return x
}

// nodes holds the slabs of the most frequent nodes.
type nodes struct {
	idents   slab[Ident]
	lits     slab[Lit]
	calls    slab[Call]
	fields   slab[Field]
	indexes  slab[Index]
	binaries slab[Binary]
	assigns  slab[Assign]
	unaries  slab[Unary]
	exprStmt slab[ExprStmt]
	exprs    []Expr // scratch stack for argument lists
	stmts    []Stmt // scratch stack for statement lists
}

// popStmts returns the statements pushed on the scratch stack since mark,
// in a slice of their own.
func (p *parser) popStmts(mark int) []Stmt {
	if len(p.stmts) == mark {
		return nil
	}
	out := slices.Clone(p.stmts[mark:])
	clear(p.stmts[mark:])
	p.stmts = p.stmts[:mark]
	return out
}

// popExprs is popStmts for the expression stack.
func (p *parser) popExprs(mark int) []Expr {
	if len(p.exprs) == mark {
		return nil
	}
	out := slices.Clone(p.exprs[mark:])
	clear(p.exprs[mark:])
	p.exprs = p.exprs[:mark]
	return out
}
