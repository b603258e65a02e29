package pp

import (
	"path/filepath"
	"strconv"

	"github.com/coopshader/coop/glsl/token"
)

// unread pushes a token back so the next raw read returns it.
func (p *pp) unread(t ptok, src *source) {
	if src.macro == "" && t.Kind == token.EOF {
		return // raw returns a file's EOF again without consuming it
	}
	src.i--
}

// expand expands macro m used at t. It reports false when t is not an
// expansion after all (a function-like macro name without arguments).
func (p *pp) expand(t ptok, m *macro) bool {
	p.expansions++
	if p.expansions > maxExpansions {
		if p.expansions == maxExpansions+1 {
			p.errorf(t.Pos, t.Text, "too many macro expansions")
		}
		return false
	}
	if m.builtin {
		p.out = append(p.out, p.builtinMacro(t))
		return true
	}
	if !m.function {
		p.push(m, p.substitute(t, m, nil))
		return true
	}
	next, src := p.raw()
	if next.Text != "(" || next.Kind != token.Punct {
		p.unread(next, src)
		return false
	}
	args, ok := p.collectArgs(t, m)
	if !ok {
		return true
	}
	p.push(m, p.substitute(t, m, args))
	return true
}

func (p *pp) push(m *macro, toks []ptok) {
	p.stack = append(p.stack, &source{toks: toks, macro: m.name, file: p.fileOf().file})
}

func (p *pp) builtinMacro(t ptok) token.Token {
	out := token.Token{Kind: token.IntLit, Pos: t.Pos}
	switch t.Text {
	case "__LINE__":
		out.Text = strconv.Itoa(t.Pos.Line)
	case "__VERSION__":
		out.Text = strconv.Itoa(p.res.Version)
	case "__FILE__":
		// glslang gives the source-string number (0 for the main file)
		// and the file's name inside an include.
		fs := p.fileOf().file
		name := t.Pos.File
		switch _, err := strconv.Atoi(name); {
		case err == nil:
			out.Text = name
		case fs.depth == 0 && fs.fileName == fs.name:
			out.Text = "0"
		default:
			out.Kind, out.Text = token.String, strconv.Quote(name)
		}
	}
	return out
}

// collectArgs reads a function-like macro's arguments after "(".
func (p *pp) collectArgs(use ptok, m *macro) ([][]ptok, bool) {
	var args [][]ptok
	var cur []ptok
	depth := 0
	for {
		t, src := p.raw()
		if t.Kind == token.EOF {
			p.unread(t, src)
			p.errorf(use.Pos, use.Text, "End of input in macro")
			return nil, false
		}
		if t.bol && t.Text == "#" && src.macro == "" {
			p.errorf(t.Pos, use.Text, "directive inside macro arguments")
		}
		switch {
		case t.Text == "(" && t.Kind == token.Punct:
			depth++
		case t.Text == ")" && t.Kind == token.Punct:
			if depth == 0 {
				args = append(args, cur)
				if len(m.params) == 0 && len(args) == 1 && len(args[0]) == 0 {
					args = nil
				}
				if len(args) < len(m.params) {
					p.errorf(use.Pos, use.Text, "Too few args in Macro")
					return nil, false
				}
				if len(args) > len(m.params) {
					p.errorf(use.Pos, use.Text, "Too many args in macro")
					return nil, false
				}
				return args, true
			}
			depth--
		case t.Text == "," && t.Kind == token.Punct && depth == 0:
			args = append(args, cur)
			cur = nil
			continue
		}
		cur = append(cur, t)
	}
}

// substitute builds m's replacement for the use at t: parameters replaced
// by their (pre-expanded, unless next to ##) arguments, ## pastes done, and
// every token placed at the use's position.
func (p *pp) substitute(t ptok, m *macro, args [][]ptok) []ptok {
	param := func(name string) int {
		for i, q := range m.params {
			if q == name {
				return i
			}
		}
		return -1
	}
	var out []ptok
	body := m.body
	for i := 0; i < len(body); i++ {
		b := body[i]
		if b.Kind == token.Ident {
			if k := param(b.Text); k >= 0 {
				pasted := (i+1 < len(body) && body[i+1].Text == "##") || (i > 0 && body[i-1].Text == "##")
				var arg []ptok
				if pasted {
					arg = args[k]
				} else {
					arg = p.preExpand(args[k])
				}
				for j, a := range arg {
					a.space = j == 0 && b.space || j > 0 && a.space
					out = append(out, a)
				}
				continue
			}
		}
		if b.Text == "##" && b.Kind == token.Punct {
			if len(out) == 0 || i+1 >= len(body) {
				p.errorf(t.Pos, "##", "'##' cannot appear at either end of a macro expansion")
				continue
			}
			// Paste the previous output token with the next body token (or
			// the first token of its argument).
			i++
			right := []ptok{body[i]}
			if body[i].Kind == token.Ident {
				if k := param(body[i].Text); k >= 0 {
					right = args[k]
				}
			}
			if len(right) > 0 {
				left := out[len(out)-1]
				out = out[:len(out)-1]
				out = append(out, p.paste(left, right[0])...)
				out = append(out, right[1:]...)
			}
			continue
		}
		b.Pos = t.Pos
		out = append(out, b)
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

// paste joins two tokens' text and rescans it.
func (p *pp) paste(a, b ptok) []ptok {
	s := &scanner{src: []byte(a.Text + b.Text), file: a.Pos.File, line: a.Pos.Line, col: a.Pos.Col, d: p}
	toks := s.scanAll()
	toks = toks[:len(toks)-1]
	if len(toks) != 1 {
		p.errorf(a.Pos, "##", "pasting %q and %q does not give a valid token", a.Text, b.Text)
	}
	return toks
}

// preExpand fully macro-expands an argument on its own.
func (p *pp) preExpand(arg []ptok) []ptok {
	if len(arg) == 0 {
		return nil
	}
	expanded := p.expandList(arg)
	out := make([]ptok, len(expanded))
	for i, t := range expanded {
		out[i] = ptok{Token: t, space: i == 0 || i < len(arg) && arg[i].space}
	}
	// Names that must not expand again keep that mark.
	for i := range out {
		if out[i].Kind == token.Ident && p.disabled(out[i].Text) {
			out[i].noExpand = true
		}
	}
	return out
}

func (p *pp) includeEnabled() bool {
	on := false
	for _, e := range p.res.Extensions {
		if e.Name == "GL_GOOGLE_include_directive" || e.Name == "GL_ARB_shading_language_include" {
			on = e.Behavior != Disable
		}
	}
	return on
}

func (p *pp) include(dir ptok, args []ptok, src *source) {
	if !p.includeEnabled() {
		p.errorf(dir.Pos, "#include", "required extension not requested: GL_GOOGLE_include_directive or GL_ARB_shading_language_include")
		return
	}
	var name string
	angled := false
	switch {
	case len(args) == 1 && args[0].Kind == token.String:
		name = args[0].Text[1 : len(args[0].Text)-1]
	case len(args) >= 2 && args[0].Text == "<" && args[len(args)-1].Text == ">":
		angled = true
		for i, a := range args[1 : len(args)-1] {
			if i > 0 && a.space {
				name += " "
			}
			name += a.Text
		}
	default:
		p.errorf(dir.Pos, "#include", "expected a header name: \"file\" or <file>")
		return
	}
	if src.file.depth+1 > maxIncludeDepth {
		p.errorf(dir.Pos, "#include", "includes nested too deeply (more than %d levels)", maxIncludeDepth)
		return
	}
	var candidates []string
	if filepath.IsAbs(name) {
		candidates = []string{name}
	} else {
		if !angled {
			candidates = append(candidates, filepath.Join(src.file.dir, name))
		}
		for _, d := range p.opts.IncludeDirs {
			candidates = append(candidates, filepath.Join(d, name))
		}
	}
	for _, c := range candidates {
		data, err := p.opts.ReadFile(c)
		if err != nil {
			continue
		}
		p.res.Includes = append(p.res.Includes, c)
		fs := &fileState{name: c, dir: filepath.Dir(c), fileName: c, depth: src.file.depth + 1}
		p.pushFile(fs, data)
		return
	}
	p.errorf(dir.Pos, "#include", "could not process include directive for header name: %s", name)
}
