package pp

import (
	"slices"
	"strconv"
	"strings"

	"github.com/coopshader/coop/internal/lazy"

	"github.com/coopshader/coop/glsl/token"
)

// lineTokens reads the rest of a directive's line from the current file.
func (p *pp) lineTokens(src *source) []ptok {
	var toks []ptok
	for r := src.rtoks[src.i]; r.kind != token.EOF && !r.bol; r = src.rtoks[src.i] {
		toks = append(toks, src.tok(src.i))
		src.i++
	}
	return toks
}

// eolPos is where glslang reports a directive that ends too early: at
// its newline token, which is counted on the next line (or at the end
// of a file that has no final newline).
func eolPos(line []ptok, src *source) token.Pos {
	last := line[len(line)-1].Pos
	n := min(last.Line+1, int(src.rtoks[src.i].line)+src.file.lineDelta)
	return token.Pos{File: last.File, Line: n, Col: 1}
}

func (p *pp) directive(hash ptok, src *source) {
	line := p.lineTokens(src)
	if len(line) == 0 {
		return // the null directive
	}
	name, args := line[0], line[1:]
	eol := eolPos(line, src)
	if p.conditional(name, args, eol) {
		return
	}
	if !p.live() {
		return
	}
	if name.Text != "version" {
		p.sawToken = true
	}
	switch name.Text {
	case "define":
		p.define(name, args, eol)
	case "undef":
		p.undef(name, args, eol)
	case "error":
		pos := name.Pos
		if len(args) == 0 {
			pos = eol
		}
		p.errorf(pos, "#error", "%s", spell(args))
	case "pragma":
		toks := make([]token.Token, len(args))
		for i, a := range args {
			toks[i] = a.Token
		}
		p.res.Pragmas = append(p.res.Pragmas, Pragma{Pos: name.Pos, Tokens: toks})
		if len(args) == 1 && args[0].Text == "once" {
			p.d.Warnf(name.Pos, "#pragma once", "not implemented")
		}
	case "version":
		p.version(name, args, eol)
	case "extension":
		p.extension(name, args, eol)
	case "line":
		p.line(name, line, src, eol)
	case "include":
		p.include(name, args, eol)
	default:
		p.errorf(name.Pos, "#", "invalid directive: %s", name.Text)
	}
}

// spell joins tokens as written, one space where white space was.
func spell(ts []ptok) string {
	var b strings.Builder
	for i, t := range ts {
		if i > 0 && t.space {
			b.WriteByte(' ')
		}
		b.WriteString(t.Text)
	}
	return b.String()
}

// conditional handles #if, #ifdef, #ifndef, #elif, #else and #endif,
// which are seen even in skipped groups; it reports false for any other
// directive.
func (p *pp) conditional(name ptok, args []ptok, eol token.Pos) bool {
	extra := func() {
		if len(args) > 0 {
			p.errorf(args[0].Pos, "#"+name.Text, "unexpected tokens following directive")
		}
	}
	switch name.Text {
	case "if", "ifdef", "ifndef":
		parent := p.live()
		if parent {
			p.sawToken = true
		}
		val := false
		if parent {
			if name.Text == "if" {
				val = p.evalIf(name, args, eol)
			} else {
				switch {
				case len(args) == 0:
					p.errorf(eol, "#"+name.Text, "must be followed by macro name")
				case args[0].Kind != token.Ident:
					p.errorf(args[0].Pos, "#"+name.Text, "must be followed by macro name")
				default:
					val = p.isDefined(args[0].Text) == (name.Text == "ifdef")
					args = args[1:]
					extra()
				}
			}
		}
		p.conds = append(p.conds, cond{active: parent && val, anyTaken: !parent || val, parentLive: parent})
	case "elif", "else", "endif":
		if len(p.conds) == 0 {
			p.errorf(name.Pos, "#"+name.Text, "without matching #if")
			return true
		}
		c := &p.conds[len(p.conds)-1]
		switch name.Text {
		case "elif":
			if c.sawElse {
				p.errorf(name.Pos, "#elif", "#elif after #else")
			}
			c.active = false
			if !c.anyTaken {
				v := p.evalIf(name, args, eol)
				c.active, c.anyTaken = v, v
			}
		case "else":
			if c.sawElse {
				p.errorf(name.Pos, "#else", "#else after #else")
			}
			c.sawElse = true
			c.active = !c.anyTaken
			c.anyTaken = true
			if c.parentLive {
				extra()
			}
		case "endif":
			if c.parentLive {
				extra()
			}
			p.conds = p.conds[:len(p.conds)-1]
		}
	default:
		return false
	}
	return true
}

func (p *pp) isDefined(name string) bool {
	switch name {
	case "__LINE__", "__FILE__", "__VERSION__":
		return true
	}
	return p.lookup(name) != nil
}

// checkName applies glslang's rules for names given to #define and
// #undef; it reports whether the directive should take effect.
func (p *pp) checkName(op string, t ptok) bool {
	es := p.res.Profile == "es"
	switch {
	case t.Text == "defined":
		p.errorf(t.Pos, op, "\"defined\" can't be (un)defined: defined")
		return false
	case strings.HasPrefix(t.Text, "GL_"):
		p.errorf(t.Pos, op, "names beginning with \"GL_\" can't be (un)defined: %s", t.Text)
		return false
	case !strings.Contains(t.Text, "__"):
		return true
	}
	builtin := t.Text == "__LINE__" || t.Text == "__FILE__" || t.Text == "__VERSION__"
	switch {
	case es && p.res.Version >= 300 && builtin:
		p.errorf(t.Pos, op, "predefined names can't be (un)defined: %s", t.Text)
	case es && p.res.Version < 300:
		p.errorf(t.Pos, op, "names containing consecutive underscores are reserved, and an error if version < 300: %s", t.Text)
	default:
		p.d.Warnf(t.Pos, op, "names containing consecutive underscores are reserved: %s", t.Text)
	}
	// The built-in names keep their meaning whatever is defined.
	return !builtin
}

func (p *pp) define(dir ptok, args []ptok, eol token.Pos) {
	if len(args) == 0 {
		p.errorf(eol, "#define", "must be followed by macro name")
		return
	}
	nt := args[0]
	if nt.Kind != token.Ident {
		p.errorf(nt.Pos, "#define", "must be followed by macro name")
		return
	}
	if !p.checkName("#define", nt) {
		return
	}
	m := &macro{name: nt.Text}
	body := args[1:]
	if len(body) > 0 && body[0].Text == "(" && !body[0].space {
		m.function = true
		i := 1
		for {
			if i >= len(body) {
				p.errorf(eol, "#define", "missing parenthesis")
				return
			}
			if body[i].Text == ")" && len(m.params) == 0 {
				i++
				break
			}
			if body[i].Kind != token.Ident {
				p.errorf(body[i].Pos, "#define", "bad argument")
				return
			}
			if slices.Contains(m.params, body[i].Text) {
				p.errorf(body[i].Pos, "#define", "duplicate macro parameter")
				return
			}
			m.params = append(m.params, body[i].Text)
			i++
			if i < len(body) && body[i].Text == "," {
				i++
				continue
			}
			if i < len(body) && body[i].Text == ")" {
				i++
				break
			}
			pos := eol
			if i < len(body) {
				pos = body[i].Pos
			}
			p.errorf(pos, "#define", "missing parenthesis")
			return
		}
		body = body[i:]
	}
	m.body = slices.Clone(body)
	for i := range m.body {
		m.body[i].bol = false
		m.body[i].noExpand = false
	}
	if !p.checkBody(m) {
		return
	}
	if old := p.macros[m.name]; old != nil && !sameMacro(old, m) {
		p.errorf(nt.Pos, "#define", "Macro redefined; different substitutions: %s", m.name)
	}
	p.macros[m.name] = m
}

// checkBody rejects # that does not name a parameter and ## at either end.
func (p *pp) checkBody(m *macro) bool {
	b := m.body
	for i, t := range b {
		if t.Kind != token.Punct {
			continue
		}
		switch t.Text {
		case "#":
			if i+1 >= len(b) || !m.function || !slices.Contains(m.params, b[i+1].Text) || b[i+1].Kind != token.Ident {
				p.errorf(t.Pos, "#", "'#' is not followed by a macro parameter.")
				return false
			}
		case "##":
			if i == 0 || i == len(b)-1 {
				p.errorf(t.Pos, "##", "'##' cannot appear at either end of a macro expansion")
				return false
			}
		}
	}
	return true
}

func sameMacro(a, b *macro) bool {
	if a.function != b.function || !slices.Equal(a.params, b.params) || len(a.body) != len(b.body) {
		return false
	}
	for i := range a.body {
		if a.body[i].Text != b.body[i].Text || i > 0 && a.body[i].space != b.body[i].space {
			return false
		}
	}
	return true
}

func (p *pp) undef(dir ptok, args []ptok, eol token.Pos) {
	if len(args) == 0 {
		p.errorf(eol, "#undef", "must be followed by macro name")
		return
	}
	if args[0].Kind != token.Ident {
		p.errorf(args[0].Pos, "#undef", "must be followed by macro name")
		return
	}
	if len(args) > 1 {
		p.errorf(args[1].Pos, "#undef", "can only be followed by a single macro name")
	}
	if !p.checkName("#undef", args[0]) {
		return
	}
	if predefined.Get()[args[0].Text] != nil {
		p.macros[args[0].Text] = nil
	} else {
		delete(p.macros, args[0].Text)
	}
}

func (p *pp) version(dir ptok, args []ptok, eol token.Pos) {
	if p.sawToken || p.res.HasVersion {
		p.errorf(dir.Pos, "#version", "must occur first in shader")
		if p.res.HasVersion {
			return
		}
	}
	p.res.HasVersion = true
	p.res.VersionPos = dir.Pos
	if len(args) == 0 {
		p.errorf(eol, "#version", "must be followed by version number")
		return
	}
	v, err := strconv.Atoi(args[0].Text)
	if args[0].Kind != token.IntLit || err != nil {
		p.errorf(args[0].Pos, "#version", "must be followed by version number")
		return
	}
	p.res.Version = v
	switch v {
	case 100, 110, 120, 130, 140, 150, 300, 310, 320, 330, 400, 410, 420, 430, 440, 450, 460:
	default:
		p.errorf(args[0].Pos, "#version", "version not supported: %d", v)
	}
	if len(args) > 1 {
		switch args[1].Text {
		case "core", "compatibility", "es":
			p.res.Profile = args[1].Text
		default:
			p.errorf(args[1].Pos, "#version", "bad profile name; use es, core, or compatibility")
		}
		if len(args) > 2 {
			p.errorf(args[2].Pos, "#version", "bad tokens following profile -- expected newline")
		}
	}
	switch {
	case p.res.Profile == "" && v == 100:
		p.res.Profile = "es"
	case p.res.Profile != "es" && (v == 300 || v == 310 || v == 320):
		p.errorf(args[0].Pos, "#version", "versions 300, 310, and 320 require specifying the 'es' profile")
		p.res.Profile = "es"
	case p.res.Profile == "es" && v != 100 && v != 300 && v != 310 && v != 320:
		p.errorf(args[1].Pos, "#version", "versions 100, 300, 310, and 320 are the only ones for the es profile")
	}
	switch p.res.Profile {
	case "es":
		p.defineText("GL_ES", "1")
	case "compatibility":
		p.defineText("GL_compatibility_profile", "1")
		p.defineText("GL_core_profile", "1")
	default:
		p.defineText("GL_core_profile", "1")
	}
	if p.res.Profile != "es" && v >= 460 {
		for _, e := range from460 {
			p.defineText(e, "1")
		}
	}
	only := desktopOnly.Get()
	if p.res.Profile == "es" {
		only = esOnly.Get()
	}
	for e := range only {
		p.defineText(e, "1")
	}
}

var behaviors = lazy.Value[map[string]Behavior]{F: func() map[string]Behavior {
	return map[string]Behavior{"require": Require, "enable": Enable, "warn": Warn, "disable": Disable}
}}

func (p *pp) extension(dir ptok, args []ptok, eol token.Pos) {
	const op = "#extension"
	switch {
	case len(args) == 0:
		p.errorf(eol, op, "extension name not specified")
		return
	case args[0].Kind != token.Ident:
		p.errorf(args[0].Pos, op, "extension name expected")
		return
	case len(args) == 1:
		p.errorf(eol, op, "':' missing after extension name")
		return
	case args[1].Text != ":":
		p.errorf(args[1].Pos, op, "':' missing after extension name")
		return
	case len(args) == 2:
		p.errorf(eol, op, "behavior for extension not specified")
		return
	}
	name := args[0].Text
	b, ok := behaviors.Get()[args[2].Text]
	if !ok {
		p.errorf(args[2].Pos, op, "behavior not supported: %s", args[2].Text)
		return
	}
	if len(args) > 3 {
		p.errorf(args[3].Pos, op, "extra tokens -- expected newline")
	}
	switch {
	case name == "all":
		if b == Require || b == Enable {
			p.errorf(args[2].Pos, op, "extension 'all' cannot have 'require' or 'enable' behavior")
			return
		}
	case !knownExtension(name):
		if b == Require {
			p.errorf(args[0].Pos, op, "extension not supported: %s", name)
		} else {
			p.d.Warnf(args[0].Pos, op, "extension not supported: %s", name)
		}
	}
	p.res.Extensions = append(p.res.Extensions, Extension{Pos: dir.Pos, Name: name, Behavior: b})
}

// line handles #line N [S]: the next line is numbered N, and S (a
// source-string number, or with GL_GOOGLE_cpp_style_line_directive a
// quoted file name) names the source from then on.
func (p *pp) line(dir ptok, line []ptok, src *source, eol token.Pos) {
	args := line[1:]
	if len(args) == 0 {
		p.errorf(eol, "#line", "must be followed by an integral literal")
		return
	}
	e := &evaluator{p: p, toks: p.expandList(args), eol: eol}
	n := e.expr(0)
	if e.failed {
		return
	}
	fs := src.file
	lastPhys := line[len(line)-1].Pos.Line - fs.lineDelta
	fs.lineDelta = int(n) - (lastPhys + 1)
	if e.i >= len(e.toks) {
		return
	}
	if t := e.toks[e.i]; t.Kind == token.String {
		e.i++
		if !p.extOn(t.Pos, "filename-based #line", cppLineExt...) {
			p.errorf(t.Pos, "filename-based #line", "required extension not requested: GL_GOOGLE_cpp_style_line_directive")
		}
		fs.fileName, fs.number = unquote(t.Text), ""
	} else {
		num := e.expr(0)
		if e.failed {
			return
		}
		fs.number = strconv.FormatInt(num, 10)
		fs.fileName = fs.number
	}
	if e.i < len(e.toks) {
		p.errorf(token.Pos{File: dir.Pos.File, Line: int(n) - 1}, "#line", "unexpected tokens following directive")
	}
}

// dirOf is the directory glslang's includer gives a file's includes.
func dirOf(path string) string {
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		return path[:i]
	}
	return "."
}

func (p *pp) include(dir ptok, args []ptok, eol token.Pos) {
	const op = "#include"
	if !p.extOn(dir.Pos, op, "GL_GOOGLE_include_directive", "GL_ARB_shading_language_include") {
		p.errorf(dir.Pos, op, "required extension not requested: GL_GOOGLE_include_directive or GL_ARB_shading_language_include")
		return
	}
	var name string
	angled := false
	rest := args
	switch {
	case len(args) > 0 && args[0].Kind == token.String:
		name = unquote(args[0].Text)
		rest = args[1:]
	case len(args) > 0 && args[0].Text == "<":
		end := slices.IndexFunc(args, func(t ptok) bool { return t.Text == ">" })
		if end < 0 {
			p.errorf(eol, op, "must be followed by a header name")
			return
		}
		angled = true
		name = spell(args[1:end])
		rest = args[end+1:]
	default:
		pos := eol
		if len(args) > 0 {
			pos = args[0].Pos
		}
		p.errorf(pos, op, "must be followed by a header name")
		return
	}
	if len(rest) > 0 {
		p.errorf(rest[0].Pos, op, "extra content after header name: %s", name)
		return
	}
	from := p.file()
	if from.file.depth >= maxIncludeDepth {
		p.errorf(dir.Pos, op, "includes nested too deeply (more than %d levels)", maxIncludeDepth)
		// Stop: a file that includes itself several times would report
		// this error for each of its exponentially many leaves.
		p.stop = true
		return
	}
	if p.includes++; p.includes > maxIncludes {
		p.errorf(dir.Pos, op, "too many includes (more than %d in all)", maxIncludes)
		p.stop = true
		return
	}
	// A quoted name is looked for next to the including file, then next
	// to each file that included it, outwards; then in the -I
	// directories.
	var dirs []string
	if !angled {
		for i := len(p.stack) - 1; i >= 0; i-- {
			if s := p.stack[i]; s.m == nil {
				if d := dirOf(s.file.name); !slices.Contains(dirs, d) {
					dirs = append(dirs, d)
				}
			}
		}
	}
	dirs = append(dirs, p.opts.IncludeDirs...)
	for _, d := range dirs {
		path := resolve(d, name)
		data, err := p.opts.ReadFile(path)
		if err != nil {
			continue
		}
		p.res.Includes = append(p.res.Includes, path)
		p.res.IncludeTexts = append(p.res.IncludeTexts, string(data))
		p.res.IncludedAt = append(p.res.IncludedAt, dir.Pos)
		p.pushFile(&fileState{name: path, fileName: path, depth: from.file.depth + 1}, data)
		return
	}
	p.errorf(dir.Pos, op, "Could not process include directive for header name: %s", name)
}

// unquote strips a string token's quotes (an unterminated one has only
// the first).
func unquote(s string) string {
	s = s[1:]
	if n := len(s); n > 0 && s[n-1] == '"' {
		s = s[:n-1]
	}
	return s
}
