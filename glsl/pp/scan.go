package pp

import (
	"github.com/coopshader/coop/glsl/token"
)

// ptok is a preprocessing token: a token plus whether it starts a line
// (directives are recognised only there) and whether it may no longer be
// expanded as a macro (its name was being expanded when it was produced).
type ptok struct {
	token.Token
	bol      bool
	noExpand bool
	space    bool // preceded by white space (for function-like #define)
}

// scanner splits one source file into preprocessing tokens. Line
// continuations (backslash-newline) are removed as the spec says, but
// positions keep counting physical lines.
type scanner struct {
	src  []byte
	file string
	i    int
	line int
	col  int
	d    errorSink
	// str is src as a string, so token texts are substrings of it
	// instead of fresh allocations; conts counts skipped continuations.
	str   string
	conts int
	buf   []byte
}

type errorSink interface {
	errorf(pos token.Pos, tok, format string, args ...any)
}

var puncts3 = []string{"<<=", ">>="}
var puncts2 = []string{"<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "^^", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##"}

// peek returns the byte at offset k from the cursor, skipping line
// continuations; 0 at the end.
func (s *scanner) peekAt(k int) byte {
	j := s.i
	for {
		for j+1 < len(s.src) && s.src[j] == '\\' && (s.src[j+1] == '\n' || s.src[j+1] == '\r') {
			j += 2
			if s.src[j-1] == '\r' && j < len(s.src) && s.src[j] == '\n' {
				j++
			}
		}
		if j >= len(s.src) {
			return 0
		}
		if k == 0 {
			return s.src[j]
		}
		k--
		j++
	}
}

// skipCont consumes line continuations at the cursor.
func (s *scanner) skipCont() {
	for s.i+1 < len(s.src) && s.src[s.i] == '\\' && (s.src[s.i+1] == '\n' || s.src[s.i+1] == '\r') {
		s.i += 2
		if s.src[s.i-1] == '\r' && s.i < len(s.src) && s.src[s.i] == '\n' {
			s.i++
		}
		s.conts++
		s.line++
		s.col = 1
	}
}

// next consumes one byte (after continuations) and returns it.
func (s *scanner) next() byte {
	s.skipCont()
	if s.i >= len(s.src) {
		return 0
	}
	c := s.src[s.i]
	s.i++
	if c == '\n' {
		s.line++
		s.col = 1
	} else {
		s.col++
	}
	return c
}

func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool      { return c >= '0' && c <= '9' }
func isIdentChar(c byte) bool  { return isIdentStart(c) || isDigit(c) }

// scanAll returns every token of the file; the last is EOF.
func (s *scanner) scanAll() []ptok {
	if s.line == 0 {
		s.line, s.col = 1, 1
	}
	s.str = string(s.src)
	out := make([]ptok, 0, len(s.src)/4+1)
	bol, space := true, false
	for {
		s.skipCont()
		c := s.peekAt(0)
		switch {
		case c == 0:
			out = append(out, ptok{Token: token.Token{Kind: token.EOF, Pos: token.Pos{File: s.file, Line: s.line, Col: s.col}}, bol: true})
			return out
		case c == '\n':
			s.next()
			bol, space = true, false
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f':
			s.next()
			space = true
			continue
		case c == '/' && s.peekAt(1) == '/':
			for c := s.peekAt(0); c != '\n' && c != 0; c = s.peekAt(0) {
				s.next()
			}
			space = true
			continue
		case c == '/' && s.peekAt(1) == '*':
			pos := s.pos()
			s.next()
			s.next()
			closed := false
			for s.peekAt(0) != 0 {
				if s.peekAt(0) == '*' && s.peekAt(1) == '/' {
					s.next()
					s.next()
					closed = true
					break
				}
				s.next()
			}
			if !closed {
				s.d.errorf(pos, "/*", "end of input in comment")
			}
			space = true
			continue
		}
		t := s.scanToken()
		out = append(out, ptok{Token: t, bol: bol, space: space})
		bol, space = false, false
	}
}

func (s *scanner) pos() token.Pos { return token.Pos{File: s.file, Line: s.line, Col: s.col} }

// text collects the bytes of a token consumed by f (continuations removed).
func (s *scanner) scanToken() token.Token { return s.scanText() }

func (s *scanner) scanText() token.Token {
	pos := s.pos()
	start, conts := s.i, s.conts
	b := s.buf[:0]
	defer func() { s.buf = b }()
	text := func() string {
		if s.conts == conts {
			return s.str[start:s.i]
		}
		return string(b)
	}
	take := func() { b = append(b, s.next()) }
	c := s.peekAt(0)
	kind := token.Punct
	switch {
	case isIdentStart(c):
		kind = token.Ident
		for isIdentChar(s.peekAt(0)) {
			take()
		}
	case isDigit(c) || c == '.' && isDigit(s.peekAt(1)):
		kind = s.scanNumber(&b)
	case c == '"':
		kind = token.String
		take()
		for {
			c := s.peekAt(0)
			if c == 0 || c == '\n' {
				s.d.errorf(pos, string(b), "unterminated string")
				break
			}
			take()
			if c == '\\' && s.peekAt(0) != 0 && s.peekAt(0) != '\n' {
				take()
				continue
			}
			if c == '"' {
				break
			}
		}
	default:
		for _, p := range puncts3 {
			if c == p[0] && s.peekAt(1) == p[1] && s.peekAt(2) == p[2] {
				take()
				take()
				take()
				return token.Token{Kind: kind, Text: text(), Pos: pos}
			}
		}
		for _, p := range puncts2 {
			if c == p[0] && s.peekAt(1) == p[1] {
				take()
				take()
				return token.Token{Kind: kind, Text: text(), Pos: pos}
			}
		}
		take()
		if c < 0x20 || c >= 0x7f || c == '@' || c == '$' || c == '`' || c == '\'' || c == '\\' {
			s.d.errorf(pos, string(b), "unexpected character")
		}
	}
	return token.Token{Kind: kind, Text: text(), Pos: pos}
}

// scanNumber reads an integer or floating-point literal with any suffix.
func (s *scanner) scanNumber(b *[]byte) token.Kind {
	take := func() { *b = append(*b, s.next()) }
	kind := token.IntLit
	if s.peekAt(0) == '0' && (s.peekAt(1) == 'x' || s.peekAt(1) == 'X') {
		take()
		take()
		for c := s.peekAt(0); isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'; c = s.peekAt(0) {
			take()
		}
	} else {
		for isDigit(s.peekAt(0)) {
			take()
		}
		if s.peekAt(0) == '.' {
			kind = token.FloatLit
			take()
			for isDigit(s.peekAt(0)) {
				take()
			}
		}
		if c := s.peekAt(0); c == 'e' || c == 'E' {
			n := 1
			if c1 := s.peekAt(1); c1 == '+' || c1 == '-' {
				n = 2
			}
			if isDigit(s.peekAt(n)) {
				kind = token.FloatLit
				for ; n > 0; n-- {
					take()
				}
				for isDigit(s.peekAt(0)) {
					take()
				}
			}
		}
	}
	// Suffix letters (u, l, ul, lf, hf, f, s, us, ...) belong to the
	// literal; the parser checks which are valid.
	for isIdentChar(s.peekAt(0)) {
		c := s.peekAt(0)
		if kind == token.IntLit && (c == 'f' || c == 'F') && len(*b) > 0 && !((*b)[0] == '0' && len(*b) > 1 && ((*b)[1] == 'x' || (*b)[1] == 'X')) {
			kind = token.FloatLit
		}
		take()
	}
	return kind
}
