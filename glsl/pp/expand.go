package pp

import (
	"strconv"
	"strings"

	"github.com/coopshader/coop/glsl/token"
)

// expand expands macro m used at t. It reports false when t is not an
// expansion after all (a function-like macro's name without arguments).
func (p *pp) expand(t ptok, m *macro) bool {
	if p.stop {
		return true
	}
	p.expansions++
	if p.expansions > maxExpansions {
		p.errorf(t.Pos, t.Text, "too many macro expansions")
		p.stop = true
		return true
	}
	var args [][]ptok
	if m.function {
		next, src := p.raw()
		if next.Kind != token.Punct || next.Text != "(" {
			p.unread(next, src)
			return false
		}
		var ok bool
		if args, ok = p.collectArgs(t, m); !ok {
			return true
		}
	}
	if len(m.body) == 0 {
		return true
	}
	p.stack = append(p.stack, &source{toks: p.substitute(t, m, args), m: m})
	return true
}

// builtin returns the value of __LINE__, __FILE__ or __VERSION__ used at t.
func (p *pp) builtin(t ptok) token.Token {
	out := token.Token{Kind: token.IntLit, Pos: t.Pos}
	switch t.Text {
	case "__LINE__":
		// As in glslang: written in the source (or in macro arguments),
		// the token's own line; from a macro's replacement, the line
		// the scanner has reached (after a call's closing parenthesis).
		line := t.Pos.Line
		if t.fromMacro {
			line = p.cur.Line
		}
		out.Text = strconv.Itoa(line)
	case "__VERSION__":
		out.Text = strconv.Itoa(p.res.Version)
	case "__FILE__":
		fs := p.file().file
		switch {
		case fs.number != "":
			out.Text = fs.number
		case fs.fileName == "":
			out.Text = "0"
		default:
			if !p.extOn(t.Pos, "filename-based __FILE__", cppLineExt...) {
				p.errorf(t.Pos, "filename-based __FILE__", "required extension not requested: GL_GOOGLE_cpp_style_line_directive")
			}
			out.Kind, out.Text = token.String, strconv.Quote(fs.fileName)
		}
	}
	return out
}

// collectArgs reads a function-like macro's arguments after "(".
func (p *pp) collectArgs(use ptok, m *macro) ([][]ptok, bool) {
	var args [][]ptok
	var cur []ptok
	depth := 0
	empty := true // nothing at all between the parentheses
	for {
		t, src := p.raw()
		if t.Kind == token.EOF {
			p.unread(t, src)
			p.errorf(use.Pos, "macro expansion", "End of input in macro %s", m.name)
			return nil, false
		}
		if t.bol && src.m == nil && t.Text == "#" && t.Kind == token.Punct {
			p.errorf(t.Pos, "macro expansion", "unexpected '#' %s", m.name)
			p.directive(t, src)
			continue
		}
		if !p.live() {
			continue
		}
		if t.Kind == token.Punct {
			switch t.Text {
			case "(":
				depth++
			case ")":
				if depth > 0 {
					depth--
					break
				}
				if !empty {
					args = append(args, cur)
				}
				// glslang reads "F()" as no arguments, so it is too few
				// for a macro with parameters.
				switch {
				case len(args) < len(m.params):
					p.errorf(use.Pos, "macro expansion", "Too few args in Macro %s", m.name)
					return nil, false
				case len(args) > len(m.params):
					p.errorf(use.Pos, "macro expansion", "Too many args in macro %s", m.name)
					return nil, false
				}
				return args, true
			case ",":
				if depth == 0 {
					args = append(args, cur)
					cur = nil
					empty = false
					continue
				}
			}
		}
		empty = false
		t.bol = false
		cur = append(cur, t)
	}
}

func (m *macro) param(t ptok) int {
	if t.Kind != token.Ident || !m.function {
		return -1
	}
	for i, q := range m.params {
		if q == t.Text {
			return i
		}
	}
	return -1
}

// substitute builds m's replacement for the use at t: parameters replaced
// by their arguments (macro-expanded first, except next to ## or after
// #), # stringizing, ## pasting, and every token placed at the use.
func (p *pp) substitute(t ptok, m *macro, args [][]ptok) []ptok {
	body := m.body
	out := make([]ptok, 0, len(body))
	lastEmpty := false // the previous operand was an empty argument
	for i := 0; i < len(body); i++ {
		b := body[i]
		switch {
		case b.Kind == token.Punct && b.Text == "#" && m.function:
			i++
			out = append(out, stringize(args[m.param(body[i])], b))
			lastEmpty = false
		case b.Kind == token.Punct && b.Text == "##":
			i++
			right := []ptok{body[i]}
			if k := m.param(body[i]); k >= 0 {
				right = args[k]
			} else if body[i].Text == "#" && m.function && i+1 < len(body) {
				i++
				right = []ptok{stringize(args[m.param(body[i])], body[i-1])}
			}
			switch {
			case lastEmpty:
				// glslang rejects an empty left operand.
				p.errorf(t.Pos, "##", "unexpected location")
				out = append(out, right...)
			case len(right) > 0:
				left := out[len(out)-1]
				out = append(out[:len(out)-1], p.paste(t, left, right[0])...)
				out = append(out, right[1:]...)
			}
			lastEmpty = lastEmpty && len(right) == 0
		default:
			k := m.param(b)
			if k < 0 {
				out = append(out, b)
				lastEmpty = false
				break
			}
			arg := args[k]
			if i+1 >= len(body) || body[i+1].Text != "##" {
				arg = p.preExpand(arg)
			}
			for j, a := range arg {
				if j == 0 {
					a.space = b.space
				}
				out = append(out, a)
			}
			lastEmpty = len(arg) == 0
		}
	}
	for i := range out {
		out[i].Pos = t.Pos
		out[i].bol = false
	}
	if len(out) > 0 {
		out[0].space = t.space
	}
	return out
}

// stringize makes a string literal of an argument's spelling.
func stringize(arg []ptok, at ptok) ptok {
	s := spell(arg)
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, `"`, `\"`)
	return ptok{Token: token.Token{Kind: token.String, Text: `"` + s + `"`, Pos: at.Pos}, space: at.space}
}

// paste joins two tokens' text and rescans it; the result must be one
// token.
func (p *pp) paste(use, a, b ptok) []ptok {
	if !p.addText(use.Pos, len(a.Text)+len(b.Text)) {
		return []ptok{a}
	}
	toks := scan([]byte(a.Text+b.Text), a.Pos.File, discard{})
	toks = toks[:len(toks)-1]
	// glslang pastes onto identifiers and operators, never onto numbers.
	if len(toks) != 1 || a.Kind == token.IntLit || a.Kind == token.FloatLit {
		p.errorf(use.Pos, "##", "not supported for these tokens")
		return []ptok{a, b}
	}
	toks[0].space = a.space
	return toks
}

// discard drops the scanner's diagnostics for text made by pasting; a
// bad paste is reported once, as such.
type discard struct{}

func (discard) errorf(token.Pos, string, string, ...any) {}

// preExpand fully macro-expands an argument on its own.
func (p *pp) preExpand(arg []ptok) []ptok {
	if len(arg) == 0 {
		return nil
	}
	return p.expandList(arg)
}

// expandList macro-expands a token list (an argument, or a directive's
// operands) in isolation.
func (p *pp) expandList(toks []ptok) []ptok {
	var out []ptok
	saveCollect, saveStack := p.collect, p.stack
	p.collect = &out
	end := ptok{Token: token.Token{Kind: token.EOF}, bol: true}
	base := &source{toks: append(toks[:len(toks):len(toks)], end), m: listMacro}
	p.stack = append(p.stack[:len(p.stack):len(p.stack)], base)
	for !p.stop {
		t, src := p.raw()
		// The sentinel EOF keeps base from being popped, so reading
		// never runs past the list into the file.
		if src == base && t.Kind == token.EOF {
			break
		}
		p.emit(t)
	}
	p.collect, p.stack = saveCollect, saveStack
	return out
}

// listMacro marks the source expandList reads from; it is no macro.
var listMacro = &macro{name: "<list>"}
