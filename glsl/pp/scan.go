package pp

import (
	"bytes"

	"github.com/coopshader/coop/glsl/token"
)

// ptok is a preprocessing token: a token plus whether it starts a line
// (directives are recognised only there), whether white space precedes it
// (a function-like #define needs "(" right after the name; #error and
// stringizing keep spacing), whether it may no longer be expanded as a
// macro (it named a macro being expanded when it was read), and whether
// it was read from a macro's replacement (where __LINE__ means the line
// reached, not the token's own).
type ptok struct {
	token.Token
	bol       bool
	space     bool
	noExpand  bool
	fromMacro bool
}

type errorSink interface {
	errorf(pos token.Pos, tok, format string, args ...any)
}

// scanner splits one source text into preprocessing tokens. Line
// continuations (backslash-newline) are removed before scanning, as the
// spec's phases say, but positions keep counting physical lines: conts
// holds the offsets in the cleaned text where one was removed.
type scanner struct {
	src       string
	conts     []int
	ci        int
	line      int
	lineStart int // offset in src where the current physical line starts
	file      string
	sink      errorSink
}

// rtok is a token as scanned from a file, kept compact and free of
// pointers (its text is src[start:end] of the cleaned source) so that
// large files cost the garbage collector little.
type rtok struct {
	start, end int32
	line, col  int32
	kind       token.Kind
	bol, space bool
}

// scanFile returns the cleaned text of src and its tokens, the last of
// Kind EOF.
func scanFile(src []byte, file string, sink errorSink) (string, []rtok) {
	s := &scanner{file: file, sink: sink, line: 1}
	s.clean(src)
	return s.src, s.all()
}

// scan returns the tokens of a short text (a -D value, a pasted token),
// the last of Kind EOF. File names the positions.
func scan(src []byte, file string, sink errorSink) []ptok {
	text, rs := scanFile(src, file, sink)
	out := make([]ptok, len(rs))
	for i, r := range rs {
		out[i] = r.ptok(text, file, 0)
	}
	return out
}

// ptok expands r into a full token of the named file, its line moved by
// delta (#line).
func (r rtok) ptok(src, file string, delta int) ptok {
	return ptok{
		Token: token.Token{Kind: r.kind, Text: src[r.start:r.end], Pos: token.Pos{File: file, Line: int(r.line) + delta, Col: int(r.col)}},
		bol:   r.bol, space: r.space,
	}
}

// clean removes line continuations, remembering where they were.
func (s *scanner) clean(src []byte) {
	if bytes.IndexByte(src, '\\') < 0 {
		s.src = string(src)
		return
	}
	out := make([]byte, 0, len(src))
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == '\\' && i+1 < len(src) && (src[i+1] == '\n' || src[i+1] == '\r') {
			i++
			if src[i] == '\r' && i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			s.conts = append(s.conts, len(out))
			continue
		}
		out = append(out, c)
	}
	s.src = string(out)
}

// conts applies the continuations at or before offset i to the line count.
func (s *scanner) applyConts(i int) {
	for s.ci < len(s.conts) && s.conts[s.ci] <= i {
		s.line++
		s.lineStart = s.conts[s.ci]
		s.ci++
	}
}

// newline counts the line break at offset i.
func (s *scanner) newline(i int) {
	s.applyConts(i)
	s.line++
	s.lineStart = i + 1
}

func (s *scanner) pos(i int) token.Pos {
	s.applyConts(i)
	return token.Pos{File: s.file, Line: s.line, Col: i - s.lineStart + 1}
}

// at returns the line and column of offset i.
func (s *scanner) at(i int) (int32, int32) {
	s.applyConts(i)
	return int32(s.line), int32(i - s.lineStart + 1)
}

func isIdentStart(c byte) bool { return c == '_' || c|0x20 >= 'a' && c|0x20 <= 'z' }
func isDigit(c byte) bool      { return c >= '0' && c <= '9' }
func isIdentChar(c byte) bool  { return isIdentStart(c) || isDigit(c) }
func isHexDigit(c byte) bool   { return isDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'f' }

func (s *scanner) all() []rtok {
	src := s.src
	n := len(src)
	out := make([]rtok, 0, n/3+1)
	bol, space := true, false
	i := 0
	for i < n {
		c := src[i]
		switch c {
		case '\n':
			s.newline(i)
			i++
			bol, space = true, false
			continue
		case '\r':
			// CR LF is one line break (counted at the LF); a lone CR is one too.
			if i+1 < n && src[i+1] == '\n' {
				i++
				continue
			}
			s.newline(i)
			i++
			bol, space = true, false
			continue
		case ' ', '\t', '\v', '\f':
			i++
			space = true
			continue
		case '/':
			if i+1 < n && src[i+1] == '/' {
				for i < n && src[i] != '\n' && src[i] != '\r' {
					i++
				}
				space = true
				continue
			}
			if i+1 < n && src[i+1] == '*' {
				start := s.pos(i)
				i += 2
				for {
					if i+1 >= n {
						s.sink.errorf(start, "/*", "end of input in comment")
						i = n
						break
					}
					if src[i] == '*' && src[i+1] == '/' {
						i += 2
						break
					}
					if src[i] == '\n' || src[i] == '\r' && src[i+1] != '\n' {
						s.newline(i)
					}
					i++
				}
				space = true
				continue
			}
		}
		line, col := s.at(i)
		kind, end := s.token(i)
		out = append(out, rtok{start: int32(i), end: int32(end), line: line, col: col, kind: kind, bol: bol, space: space})
		i = end
		bol, space = false, false
	}
	line, col := s.at(n)
	return append(out, rtok{start: int32(n), end: int32(n), line: line, col: col, kind: token.EOF, bol: true})
}

// token scans the token starting at src[i] and returns its kind and end.
func (s *scanner) token(i int) (token.Kind, int) {
	src := s.src
	n := len(src)
	c := src[i]
	switch {
	case isIdentStart(c):
		j := i + 1
		for j < n && isIdentChar(src[j]) {
			j++
		}
		return token.Ident, j
	case isDigit(c) || c == '.' && i+1 < n && isDigit(src[i+1]):
		return s.number(i)
	case c == '"':
		for j := i + 1; j < n && src[j] != '\n' && src[j] != '\r'; j++ {
			switch src[j] {
			case '\\':
				if j+1 < n && src[j+1] != '\n' && src[j+1] != '\r' {
					j++
				}
			case '"':
				return token.String, j + 1
			}
		}
		end := i + 1
		for end < n && src[end] != '\n' && src[end] != '\r' {
			end++
		}
		s.sink.errorf(s.pos(i), src[i:end], "end of line in string")
		return token.String, end
	}
	at := func(k int) byte {
		if i+k < n {
			return src[i+k]
		}
		return 0
	}
	c1 := at(1)
	switch c {
	case '<', '>':
		if c1 == c {
			if at(2) == '=' {
				return token.Punct, i + 3
			}
			return token.Punct, i + 2
		}
		if c1 == '=' {
			return token.Punct, i + 2
		}
	case '+', '-', '&', '|', '^':
		if c1 == c || c1 == '=' {
			return token.Punct, i + 2
		}
	case '*', '/', '%', '=', '!':
		if c1 == '=' {
			return token.Punct, i + 2
		}
	case '#':
		if c1 == '#' {
			return token.Punct, i + 2
		}
	case '(', ')', '[', ']', '{', '}', '.', ',', ';', ':', '?', '~':
	default:
		s.sink.errorf(s.pos(i), src[i:i+1], "unexpected character")
	}
	return token.Punct, i + 1
}

// number scans an integer or floating-point literal and any suffix
// letters (u, l, ul, s, us, f, lf, hf, ...; the parser checks which are
// valid).
func (s *scanner) number(i int) (token.Kind, int) {
	src := s.src
	n := len(src)
	j := i
	if src[j] == '0' && j+1 < n && src[j+1]|0x20 == 'x' {
		j += 2
		for j < n && isHexDigit(src[j]) {
			j++
		}
		for j < n && isIdentChar(src[j]) {
			j++
		}
		return token.IntLit, j
	}
	kind := token.IntLit
	for j < n && isDigit(src[j]) {
		j++
	}
	if j < n && src[j] == '.' {
		kind = token.FloatLit
		j++
		for j < n && isDigit(src[j]) {
			j++
		}
	}
	if j < n && src[j]|0x20 == 'e' {
		k := j + 1
		if k < n && (src[k] == '+' || src[k] == '-') {
			k++
		}
		if k < n && isDigit(src[k]) {
			kind = token.FloatLit
			j = k
			for j < n && isDigit(src[j]) {
				j++
			}
		}
	}
	for j < n && isIdentChar(src[j]) {
		if src[j]|0x20 == 'f' {
			kind = token.FloatLit
		}
		j++
	}
	return kind, j
}
