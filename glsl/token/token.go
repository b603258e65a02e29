// Package token defines the tokens that flow from the preprocessor to the
// parser, each with the source position diagnostics report.
package token

import "strconv"

// Pos is a position in a source file. File is the name shown in
// diagnostics (the path given, an include's resolved name, or the source
// string number set by #line); Line and Col are 1-based.
type Pos struct {
	File      string
	Line, Col int
}

// String formats the position as file:line:col (file:line when Col is 0).
func (p Pos) String() string {
	s := p.File + ":" + strconv.Itoa(p.Line)
	if p.Col > 0 {
		s += ":" + strconv.Itoa(p.Col)
	}
	return s
}

// Kind classifies a token.
type Kind uint8

const (
	EOF Kind = iota
	// Ident is an identifier or a keyword; the parser tells them apart.
	Ident
	// IntLit is an integer literal as written, suffix included
	// (e.g. 0x1Fu, 7l, 3us).
	IntLit
	// FloatLit is a floating-point literal as written, suffix included
	// (e.g. 1.5, 2e3f, 1.0lf, 0.5hf).
	FloatLit
	// String is a double-quoted string (debugPrintfEXT); Text keeps the
	// quotes and escapes as written.
	String
	// Punct is an operator or punctuator: ( ) [ ] { } . , ; : ? and every
	// operator, longest match (e.g. "<<=", "++", "&&").
	Punct
)

var kindNames = [...]string{EOF: "end of file", Ident: "identifier", IntLit: "integer literal", FloatLit: "floating-point literal", String: "string literal", Punct: "punctuator"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "token(" + strconv.Itoa(int(k)) + ")"
}

// Token is one token after preprocessing. A token produced by macro
// expansion carries the position of the macro's use.
type Token struct {
	Kind Kind
	Text string
	Pos  Pos
}

// Is reports whether t is the punctuator or identifier text s.
func (t Token) Is(s string) bool { return (t.Kind == Punct || t.Kind == Ident) && t.Text == s }
