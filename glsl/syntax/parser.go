package syntax

import (
	"strings"

	"github.com/coopshader/coop/glsl/diag"
	"github.com/coopshader/coop/glsl/token"
)

// maxDepth bounds the nesting of expressions and statements so hostile
// input cannot overflow the stack.
const maxDepth = 1000

type parser struct {
	toks  []token.Token
	i     int
	d     *diag.List
	types []map[string]bool // user type names, innermost scope last
	depth int
	// noGT is set while parsing type parameters, where '>' closes the list.
	noGT int
}

// bailout unwinds the parse after too deep nesting.
type bailout struct{}

// Parse parses a preprocessed token stream (ending with EOF) into a
// syntax tree. Errors go to d; the tree holds what could be parsed.
func Parse(toks []token.Token, d *diag.List) *File {
	if len(toks) == 0 || toks[len(toks)-1].Kind != token.EOF {
		toks = append(toks, token.Token{Kind: token.EOF})
	}
	p := &parser{toks: toks, d: d, types: []map[string]bool{{}}}
	f := &File{}
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(bailout); !ok {
					panic(r)
				}
			}
		}()
		for p.tok().Kind != token.EOF {
			start := p.i
			if p.tok().Is(";") {
				p.i++
				continue
			}
			if dcl := p.externalDecl(); dcl != nil {
				f.Decls = append(f.Decls, dcl)
			}
			if p.i == start {
				p.i++ // guarantee progress after an error
			}
		}
	}()
	return f
}

func (p *parser) tok() token.Token { return p.toks[p.i] }

func (p *parser) peek(n int) token.Token {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) next() token.Token {
	t := p.toks[p.i]
	if t.Kind != token.EOF {
		p.i++
	}
	return t
}

func (p *parser) got(s string) bool {
	if t := p.tok(); t.Kind == token.Punct && t.Text == s {
		p.i++
		return true
	}
	return false
}

// tokenName is how glslang names a token in "syntax error" messages.
func tokenName(t token.Token) string {
	switch t.Kind {
	case token.EOF:
		return "end of file"
	case token.Ident:
		if typeKeywords[t.Text] {
			return "TYPE"
		}
		return "IDENTIFIER"
	case token.IntLit:
		return "INTCONSTANT"
	case token.FloatLit:
		return "FLOATCONSTANT"
	case token.String:
		return "STRING_LITERAL"
	}
	return "'" + t.Text + "'"
}

func (p *parser) errorf(t token.Token, format string, args ...any) {
	p.d.Errorf(t.Pos, t.Text, format, args...)
}

// expect consumes punctuator s or reports a syntax error.
func (p *parser) expect(s string) bool {
	if p.got(s) {
		return true
	}
	t := p.tok()
	p.errorf(t, "syntax error, unexpected %s, expecting '%s'", tokenName(t), s)
	return false
}

// sync skips to just after the next ';' (or before '}') at the current
// nesting level, to resume after an error.
func (p *parser) sync() {
	depth := 0
	for {
		t := p.tok()
		switch {
		case t.Kind == token.EOF:
			return
		case t.Is("{") || t.Is("(") || t.Is("["):
			depth++
		case t.Is(")") || t.Is("]"):
			if depth > 0 {
				depth--
			}
		case t.Is("}"):
			if depth == 0 {
				return
			}
			depth--
			if depth == 0 {
				p.i++
				if p.tok().Is(";") {
					p.i++
				}
				return
			}
		case t.Is(";") && depth == 0:
			p.i++
			return
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

func (p *parser) pushScope() { p.types = append(p.types, map[string]bool{}) }
func (p *parser) popScope()  { p.types = p.types[:len(p.types)-1] }

// isUserType reports whether name is a visible user type name.
func (p *parser) isUserType(name string) bool {
	for i := len(p.types) - 1; i >= 0; i-- {
		if v, ok := p.types[i][name]; ok {
			return v
		}
	}
	return false
}

// declareType records a type name; declareVar hides a type name of an
// outer scope.
func (p *parser) declareType(name string) { p.types[len(p.types)-1][name] = true }
func (p *parser) declareVar(name string) {
	if p.isUserType(name) {
		p.types[len(p.types)-1][name] = false
	}
}

func (p *parser) isTypeName(t token.Token) bool {
	return t.Kind == token.Ident && (typeKeywords[t.Text] || p.isUserType(t.Text))
}

func (p *parser) isQualifier(t token.Token) bool {
	return t.Kind == token.Ident && qualifierWords[t.Text]
}

// startsDecl reports whether the current token begins a declaration.
func (p *parser) startsDecl() bool {
	t := p.tok()
	return p.isQualifier(t) || p.isTypeName(t) || t.Is("struct") || t.Is("precision")
}

func (p *parser) ident() (token.Token, bool) {
	t := p.tok()
	if t.Kind != token.Ident || typeKeywords[t.Text] || qualifierWords[t.Text] || isStatementKeyword(t.Text) {
		p.errorf(t, "syntax error, unexpected %s, expecting IDENTIFIER", tokenName(t))
		return t, false
	}
	if reservedWords[t.Text] {
		p.errorf(t, "Reserved word.")
	}
	p.i++
	return t, true
}

func isStatementKeyword(s string) bool {
	switch s {
	case "if", "else", "for", "while", "do", "switch", "case", "default", "return", "struct", "true", "false", "precision":
		return true
	}
	return jumpWords[s]
}

// externalDecl parses one top-level declaration or function definition.
func (p *parser) externalDecl() Decl {
	if p.tok().Is("precision") {
		return p.precisionDecl()
	}
	if !p.startsDecl() {
		t := p.tok()
		if t.Kind == token.Ident && reservedWords[t.Text] {
			p.errorf(t, "Reserved word.")
		} else {
			p.errorf(t, "syntax error, unexpected %s", tokenName(t))
		}
		p.sync()
		return nil
	}
	return p.declaration(true)
}

func (p *parser) precisionDecl() Decl {
	pos := p.next().Pos
	prec := p.tok()
	if prec.Text != "highp" && prec.Text != "mediump" && prec.Text != "lowp" {
		p.errorf(prec, "syntax error, unexpected %s, expecting precision qualifier", tokenName(prec))
		p.sync()
		return nil
	}
	p.i++
	ts := p.typeSpec(nil)
	p.expect(";")
	return &PrecisionDecl{Pos: pos, Precision: prec.Text, Type: ts}
}

// qualifiers parses a (possibly empty) qualifier list.
func (p *parser) qualifiers() []*Qualifier {
	var qs []*Qualifier
	for p.isQualifier(p.tok()) {
		t := p.next()
		q := &Qualifier{Pos: t.Pos, Name: t.Text}
		switch {
		case t.Text == "layout":
			q.Layout = p.layoutList()
		case argQualifiers[t.Text]:
			q.Layout = p.intrinsicArgs()
		}
		qs = append(qs, q)
	}
	return qs
}

func (p *parser) layoutList() []*LayoutItem {
	if !p.expect("(") {
		return nil
	}
	var items []*LayoutItem
	for {
		t := p.tok()
		if t.Kind != token.Ident {
			p.errorf(t, "syntax error, unexpected %s, expecting IDENTIFIER", tokenName(t))
			p.skipTo(")")
			return items
		}
		p.i++
		it := &LayoutItem{Pos: t.Pos, Name: t.Text}
		if p.got("=") {
			it.Value = p.condExpr()
		}
		items = append(items, it)
		if p.got(",") {
			continue
		}
		p.expect(")")
		return items
	}
}

// intrinsicArgs parses a spirv_* qualifier's arguments.
func (p *parser) intrinsicArgs() []*LayoutItem {
	if !p.expect("(") {
		return nil
	}
	var items []*LayoutItem
	for !p.tok().Is(")") && p.tok().Kind != token.EOF {
		t := p.tok()
		it := &LayoutItem{Pos: t.Pos}
		if t.Kind == token.Ident && p.peek(1).Is("=") && p.peek(2).Is("[") {
			p.i += 3
			it.Name = t.Text
			list := &InitList{Pos: t.Pos}
			for !p.tok().Is("]") && p.tok().Kind != token.EOF {
				list.Elems = append(list.Elems, p.condExpr())
				if !p.got(",") {
					break
				}
			}
			p.expect("]")
			it.Value = list
		} else {
			it.Value = p.condExpr()
		}
		if it.Value == nil {
			p.skipTo(")")
			return items
		}
		items = append(items, it)
		if !p.got(",") {
			break
		}
	}
	p.expect(")")
	return items
}

// skipTo skips past the matching close punctuator s.
func (p *parser) skipTo(s string) {
	depth := 0
	for t := p.tok(); t.Kind != token.EOF; t = p.tok() {
		p.i++
		switch {
		case t.Is("(") || t.Is("[") || t.Is("{"):
			depth++
		case t.Is(s) && depth == 0:
			return
		case t.Is(")") || t.Is("]") || t.Is("}"):
			depth--
		}
	}
}

// declaration parses a declaration after the current position; global
// allows function definitions and blocks.
func (p *parser) declaration(global bool) Decl {
	quals := p.qualifiers()
	t := p.tok()
	pos := t.Pos
	if len(quals) > 0 {
		pos = quals[0].Pos
	}
	// Qualifiers alone: "layout(local_size_x = 64) in;".
	if t.Is(";") && len(quals) > 0 {
		p.i++
		return &QualDecl{Pos: pos, Quals: quals}
	}
	if t.Kind == token.Ident && !typeKeywords[t.Text] && !t.Is("struct") && len(quals) > 0 && p.peek(1).Is("{") {
		return p.blockDecl(quals, pos)
	}
	if t.Kind == token.Ident && !p.isTypeName(t) && !t.Is("struct") && len(quals) > 0 {
		switch n := p.peek(1); {
		case n.Is(";") || n.Is(","):
			q := &QualDecl{Pos: pos, Quals: quals}
			for {
				id, ok := p.ident()
				if !ok {
					p.sync()
					return q
				}
				q.Names = append(q.Names, &Ident{Pos: id.Pos, Name: id.Text})
				if hasLayout(quals, "buffer_reference") || hasLayout(quals, "buffer_type") {
					p.declareType(id.Text)
				}
				if !p.got(",") {
					break
				}
			}
			p.expect(";")
			return q
		}
	}
	ts := p.typeSpec(quals)
	if ts == nil {
		p.sync()
		return nil
	}
	if ts.Pos.Line == 0 {
		ts.Pos = pos
	}
	if p.got(";") {
		return &VarDecl{Type: ts}
	}
	name, ok := p.ident()
	if !ok {
		p.sync()
		return nil
	}
	if p.tok().Is("(") {
		if !global {
			p.errorf(name, "function definitions must be at global scope")
		}
		return p.funcDecl(ts, name)
	}
	return p.declarators(ts, name)
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
			dcl.Init = p.initializer()
		}
		p.declareVar(name.Text)
		vd.Names = append(vd.Names, dcl)
		if !p.got(",") {
			break
		}
		var ok bool
		if name, ok = p.ident(); !ok {
			p.sync()
			return vd
		}
	}
	if !p.expect(";") {
		p.sync()
	}
	return vd
}

func (p *parser) initializer() Expr {
	if t := p.tok(); t.Is("{") {
		p.i++
		p.enter()
		defer p.leave()
		il := &InitList{Pos: t.Pos}
		for !p.tok().Is("}") && p.tok().Kind != token.EOF {
			il.Elems = append(il.Elems, p.initializer())
			if !p.got(",") {
				break
			}
		}
		p.expect("}")
		return il
	}
	return p.assignExpr()
}

func (p *parser) arraySizes() []*ArraySize {
	var as []*ArraySize
	for p.tok().Is("[") {
		t := p.next()
		a := &ArraySize{Pos: t.Pos}
		if !p.tok().Is("]") {
			a.Size = p.condExpr()
		}
		p.expect("]")
		as = append(as, a)
	}
	return as
}

func (p *parser) blockDecl(quals []*Qualifier, pos Pos) Decl {
	name := p.next()
	b := &BlockDecl{Pos: pos, Quals: quals, BlockName: name.Text}
	if hasLayout(quals, "buffer_reference") || hasLayout(quals, "buffer_type") {
		p.declareType(name.Text)
	}
	p.i++ // '{'
	b.Members = p.members()
	if t := p.tok(); t.Kind == token.Ident && !p.isTypeName(t) {
		id, _ := p.ident()
		b.Instance, b.InstPos = id.Text, id.Pos
		b.ArraySizes = p.arraySizes()
		p.declareVar(id.Text)
	}
	if !p.expect(";") {
		p.sync()
	}
	return b
}

// members parses struct or block members up to and including '}'.
func (p *parser) members() []*Member {
	var ms []*Member
	for !p.tok().Is("}") {
		if p.tok().Kind == token.EOF {
			p.expect("}")
			return ms
		}
		quals := p.qualifiers()
		var ts *TypeSpec
		if t := p.tok(); len(quals) > 0 && (t.Is("{") || t.Kind == token.Ident && !typeKeywords[t.Text] && p.peek(1).Is("{")) {
			ts = p.inlineBlock(quals)
		} else {
			ts = p.typeSpec(quals)
		}
		if ts == nil {
			p.sync()
			continue
		}
		m := &Member{Type: ts}
		for {
			id, ok := p.ident()
			if !ok {
				break
			}
			m.Names = append(m.Names, &Declarator{Pos: id.Pos, Name: id.Text, ArraySizes: p.arraySizes()})
			if p.tok().Is("=") {
				p.errorf(p.tok(), "syntax error, unexpected '=', expecting ';'")
				p.i++
				p.assignExpr()
			}
			if !p.got(",") {
				break
			}
		}
		ms = append(ms, m)
		if !p.expect(";") {
			p.sync()
		}
	}
	p.i++
	return ms
}

// inlineBlock parses a block type written inside a structured descriptor
// heap: quals [Name] { members }.
func (p *parser) inlineBlock(quals []*Qualifier) *TypeSpec {
	t := p.tok()
	b := &BlockDecl{Pos: quals[0].Pos, Quals: quals}
	if t.Kind == token.Ident {
		b.BlockName = t.Text
		p.i++
		if hasLayout(quals, "buffer_reference") || hasLayout(quals, "buffer_type") {
			p.declareType(t.Text)
		}
	}
	p.i++ // '{'
	p.enter()
	b.Members = p.members()
	p.leave()
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
		if n := p.tok(); n.Kind == token.Ident && !n.Is("{") {
			id, _ := p.ident()
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
	case p.isTypeName(t):
		p.i++
		ts.Name = t.Text
		if paramTypes[t.Text] && p.tok().Is("<") {
			ts.Params = p.typeParams()
		}
	default:
		if t.Kind == token.Ident && reservedWords[t.Text] {
			p.errorf(t, "Reserved word.")
		} else {
			p.errorf(t, "syntax error, unexpected %s, expecting TYPE", tokenName(t))
		}
		return nil
	}
	ts.ArraySizes = p.arraySizes()
	return ts
}

// typeParams parses <arg, ...>; a '>' closes the list, and ">>" is split.
func (p *parser) typeParams() []*TypeArg {
	p.i++ // '<'
	p.noGT++
	defer func() { p.noGT-- }()
	var args []*TypeArg
	for {
		if p.isTypeName(p.tok()) && !p.peek(1).Is("(") {
			args = append(args, &TypeArg{Type: p.typeSpec(nil)})
		} else {
			args = append(args, &TypeArg{Expr: p.condExpr()})
		}
		if p.got(",") {
			continue
		}
		if t := p.tok(); t.Is(">>") {
			// Close this list and leave one '>' for the enclosing one.
			p.toks[p.i] = token.Token{Kind: token.Punct, Text: ">", Pos: Pos{File: t.Pos.File, Line: t.Pos.Line, Col: t.Pos.Col + 1}}
			return args
		}
		p.expect(">")
		return args
	}
}

func (p *parser) funcDecl(ret *TypeSpec, name token.Token) Decl {
	fd := &FuncDecl{Pos: name.Pos, Result: ret, Name: name.Text}
	p.i++ // '('
	p.pushScope()
	defer p.popScope()
	if p.tok().Is("void") && p.peek(1).Is(")") {
		p.i++
	}
	for !p.tok().Is(")") {
		quals := p.qualifiers()
		ts := p.typeSpec(quals)
		if ts == nil {
			p.skipTo(")")
			p.sync()
			return nil
		}
		prm := &Param{Pos: ts.Pos, Type: ts}
		if len(quals) > 0 {
			prm.Pos = quals[0].Pos
		}
		if t := p.tok(); t.Kind == token.Ident && !p.isTypeName(t) {
			id, _ := p.ident()
			prm.Name = id.Text
			prm.Pos = id.Pos
			prm.ArraySizes = p.arraySizes()
			p.declareVar(id.Text)
		}
		fd.Params = append(fd.Params, prm)
		if !p.got(",") {
			break
		}
	}
	if !p.expect(")") {
		p.sync()
		return fd
	}
	if p.got(";") {
		return fd
	}
	if !p.tok().Is("{") {
		p.errorf(p.tok(), "syntax error, unexpected %s, expecting ';' or '{'", tokenName(p.tok()))
		p.sync()
		return fd
	}
	fd.Body = p.block(false)
	return fd
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
	for !p.tok().Is("}") {
		if p.tok().Kind == token.EOF {
			p.expect("}")
			return b
		}
		start := p.i
		if s := p.statement(); s != nil {
			b.Stmts = append(b.Stmts, s)
		}
		if p.i == start {
			p.i++
		}
	}
	p.i++
	return b
}

func (p *parser) attributes() []*Attribute {
	var attrs []*Attribute
	for p.tok().Is("[") && p.peek(1).Is("[") {
		p.i += 2
		for {
			id := p.tok()
			if id.Kind != token.Ident {
				p.errorf(id, "syntax error, unexpected %s, expecting IDENTIFIER", tokenName(id))
				p.skipTo("]")
				break
			}
			p.i++
			a := &Attribute{Pos: id.Pos, Name: id.Text}
			if p.got("(") {
				for !p.tok().Is(")") {
					a.Args = append(a.Args, p.condExpr())
					if !p.got(",") {
						break
					}
				}
				p.expect(")")
			}
			attrs = append(attrs, a)
			if !p.got(",") {
				break
			}
		}
		p.expect("]")
		p.expect("]")
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
	switch {
	case t.Is("{"):
		return p.block(true)
	case t.Is(";"):
		p.i++
		return &EmptyStmt{Pos: t.Pos}
	case t.Kind == token.Ident && t.Text == "if":
		p.i++
		s := &IfStmt{Pos: t.Pos, Attrs: attrs}
		p.expect("(")
		s.Cond = p.expr()
		p.expect(")")
		s.Then = p.scopedStatement()
		if p.tok().Is("else") {
			p.i++
			s.Else = p.scopedStatement()
		}
		return s
	case t.Kind == token.Ident && t.Text == "for":
		return p.forStmt(attrs)
	case t.Kind == token.Ident && t.Text == "while":
		p.i++
		s := &WhileStmt{Pos: t.Pos, Attrs: attrs}
		p.expect("(")
		p.pushScope()
		defer p.popScope()
		s.Cond, s.CondDecl = p.condition()
		p.expect(")")
		s.Body = p.bodyStatement()
		return s
	case t.Kind == token.Ident && t.Text == "do":
		p.i++
		s := &DoStmt{Pos: t.Pos, Attrs: attrs}
		s.Body = p.scopedStatement()
		if !p.tok().Is("while") {
			p.errorf(p.tok(), "syntax error, unexpected %s, expecting WHILE", tokenName(p.tok()))
			p.sync()
			return s
		}
		p.i++
		p.expect("(")
		s.Cond = p.expr()
		p.expect(")")
		p.expect(";")
		return s
	case t.Kind == token.Ident && t.Text == "switch":
		p.i++
		s := &SwitchStmt{Pos: t.Pos, Attrs: attrs}
		p.expect("(")
		s.X = p.expr()
		p.expect(")")
		if !p.tok().Is("{") {
			p.expect("{")
			p.sync()
			return s
		}
		s.Body = p.block(true).Stmts
		return s
	case t.Kind == token.Ident && (t.Text == "case" || t.Text == "default"):
		p.i++
		c := &CaseLabel{Pos: t.Pos}
		if t.Text == "case" {
			c.X = p.expr()
		}
		p.expect(":")
		return c
	case t.Kind == token.Ident && jumpWords[t.Text]:
		p.i++
		p.expect(";")
		return &BranchStmt{Pos: t.Pos, Kind: t.Text}
	case t.Kind == token.Ident && t.Text == "return":
		p.i++
		r := &ReturnStmt{Pos: t.Pos}
		if !p.tok().Is(";") {
			r.X = p.expr()
		}
		if !p.expect(";") {
			p.sync()
		}
		return r
	case p.startsDeclStmt():
		d := p.declaration(false)
		switch d := d.(type) {
		case *VarDecl:
			return &DeclStmt{Decl: d}
		case nil:
			return nil
		default:
			p.errorf(t, "this declaration is only allowed at global scope")
			return nil
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
	return &ExprStmt{X: x}
}

// startsDeclStmt tells a declaration from an expression statement that
// starts with a type name (a constructor call).
func (p *parser) startsDeclStmt() bool {
	t := p.tok()
	if p.isQualifier(t) || t.Is("struct") || t.Is("precision") {
		return true
	}
	if !p.isTypeName(t) {
		return false
	}
	// T(...) and T[..](...) are constructor expressions.
	j := 1
	if paramTypes[t.Text] && p.peek(1).Is("<") {
		depth := 0
		for ; ; j++ {
			n := p.peek(j)
			if n.Kind == token.EOF {
				return true
			}
			if n.Is("<") {
				depth++
			} else if n.Is(">") {
				depth--
			} else if n.Is(">>") {
				depth -= 2
			}
			if depth <= 0 {
				j++
				break
			}
		}
	}
	for p.peek(j).Is("[") {
		depth := 0
		for ; ; j++ {
			n := p.peek(j)
			if n.Kind == token.EOF {
				return true
			}
			if n.Is("[") {
				depth++
			} else if n.Is("]") {
				depth--
				if depth == 0 {
					j++
					break
				}
			}
		}
	}
	n := p.peek(j)
	return !(n.Is("(") || n.Is(".") || n.Is(";"))
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
	if p.tok().Is("{") {
		return p.block(false)
	}
	return p.statement()
}

func (p *parser) condition() (Expr, *VarDecl) {
	if p.startsDeclStmt() {
		quals := p.qualifiers()
		ts := p.typeSpec(quals)
		if ts == nil {
			return nil, nil
		}
		id, _ := p.ident()
		p.expect("=")
		init := p.assignExpr()
		p.declareVar(id.Text)
		return nil, &VarDecl{Type: ts, Names: []*Declarator{{Pos: id.Pos, Name: id.Text, Init: init}}}
	}
	return p.expr(), nil
}

func (p *parser) forStmt(attrs []*Attribute) Stmt {
	t := p.next()
	s := &ForStmt{Pos: t.Pos, Attrs: attrs}
	p.pushScope()
	defer p.popScope()
	if !p.expect("(") {
		p.sync()
		return s
	}
	switch {
	case p.tok().Is(";"):
		s.Init = &EmptyStmt{Pos: p.next().Pos}
	case p.startsDeclStmt():
		if d, ok := p.declaration(false).(*VarDecl); ok {
			s.Init = &DeclStmt{Decl: d}
		}
	default:
		x := p.expr()
		p.expect(";")
		s.Init = &ExprStmt{X: x}
	}
	if !p.tok().Is(";") {
		s.Cond, s.CondDecl = p.condition()
	}
	p.expect(";")
	if !p.tok().Is(")") {
		s.Post = p.expr()
	}
	if !p.expect(")") {
		p.sync()
		return s
	}
	s.Body = p.bodyStatement()
	return s
}
