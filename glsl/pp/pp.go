package pp

import (
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/coopshader/coop/glsl/diag"
	"github.com/coopshader/coop/glsl/token"
)

// Define is a macro given on the command line (-Dname=value).
type Define struct {
	Name, Value string
}

// Options configure one Preprocess call.
type Options struct {
	Defines     []Define // -D, applied before the source, after the predefined macros
	Undefs      []string // -U, applied after Defines
	IncludeDirs []string // -I, searched in order
	// ReadFile reads included files (nil: os.ReadFile).
	ReadFile func(path string) ([]byte, error)
	// Vulkan predefines VULKAN (as glslangValidator -V does).
	Vulkan bool
}

const (
	maxIncludeDepth = 64
	// maxExpansions bounds the macro expansions of one translation unit so
	// hostile macros cannot make the output grow without limit.
	maxExpansions = 1 << 20
	maxTokens     = 1 << 24
)

type macro struct {
	name     string
	pos      token.Pos
	function bool
	params   []string
	body     []ptok
	builtin  bool
}

// source is one level of the token input stack: a file's tokens or a
// macro's replacement list.
type source struct {
	toks  []ptok
	i     int
	macro string // the macro whose expansion this is ("" for a file)
	file  *fileState
}

type fileState struct {
	name string
	dir  string
	// lineDelta and fileName implement #line for tokens of this file.
	lineDelta int
	fileName  string
	depth     int
}

type cond struct {
	active     bool // this branch's tokens are kept
	anyTaken   bool // some branch of this #if group was taken
	parentLive bool
	sawElse    bool
	pos        token.Pos
}

type pp struct {
	opts   Options
	d      *diag.List
	res    *Result
	macros map[string]*macro
	stack  []*source
	conds  []cond
	out    []token.Token

	expansions  int
	sawToken    bool // a non-directive token or directive other than #version was seen
	includeSeen map[string]bool
}

func (p *pp) errorf(pos token.Pos, tok, format string, args ...any) {
	p.d.Errorf(pos, tok, format, args...)
}

// Preprocess preprocesses one translation unit. Diagnostics go to d; the
// result is usable (possibly partial) even when errors were reported.
func Preprocess(name string, src []byte, opts Options, d *diag.List) *Result {
	if opts.ReadFile == nil {
		opts.ReadFile = os.ReadFile
	}
	p := &pp{opts: opts, d: d, res: &Result{Version: 100}, macros: map[string]*macro{}, includeSeen: map[string]bool{}}
	p.predefine()
	for _, def := range opts.Defines {
		p.defineText(def.Name, def.Value)
	}
	for _, u := range opts.Undefs {
		delete(p.macros, u)
	}
	p.out = make([]token.Token, 0, len(src)/4+1)
	fs := &fileState{name: name, dir: filepath.Dir(name), fileName: name}
	p.pushFile(fs, src)
	p.run()
	for _, c := range p.conds {
		p.errorf(c.pos, "#if", "missing #endif")
	}
	p.out = append(p.out, token.Token{Kind: token.EOF, Pos: p.lastPos()})
	p.res.Tokens = p.out
	return p.res
}

func (p *pp) lastPos() token.Pos {
	if n := len(p.out); n > 0 {
		return p.out[n-1].Pos
	}
	return token.Pos{File: "", Line: 1, Col: 1}
}

// predefined holds the macros every translation unit starts with; they
// are never modified, so each unit copies the map.
var predefined = sync.OnceValue(func() map[string]*macro {
	p := &pp{macros: map[string]*macro{}}
	for _, n := range []string{"__LINE__", "__FILE__", "__VERSION__"} {
		p.macros[n] = &macro{name: n, builtin: true}
	}
	p.defineText("GL_SPIRV", "100")
	for _, e := range KnownExtensions {
		p.defineText(e, "1")
	}
	return p.macros
})

func (p *pp) predefine() {
	maps.Copy(p.macros, predefined())
	if p.opts.Vulkan {
		p.defineText("VULKAN", "100")
	}
}

// defineText defines an object-like macro from text (predefined and -D).
func (p *pp) defineText(name, value string) {
	s := &scanner{src: []byte(value), file: "<command line>", d: p}
	toks := s.scanAll()
	toks = toks[:len(toks)-1]
	for i := range toks {
		toks[i].bol = false
	}
	p.macros[name] = &macro{name: name, body: toks}
}

func (p *pp) pushFile(fs *fileState, src []byte) {
	s := &scanner{src: src, file: fs.name, d: p}
	p.stack = append(p.stack, &source{toks: s.scanAll(), file: fs})
}

// live reports whether tokens are currently kept.
func (p *pp) live() bool { return len(p.conds) == 0 || p.conds[len(p.conds)-1].active }

// raw returns the next token from the input stack without expansion,
// popping exhausted macro sources (not files: a file's EOF is returned).
func (p *pp) raw() (ptok, *source) {
	for {
		top := p.stack[len(p.stack)-1]
		if top.i < len(top.toks) {
			t := top.toks[top.i]
			top.i++
			if top.macro != "" && t.Kind == token.Ident && t.Text == top.macro {
				t.noExpand = true
			}
			if top.macro != "" && t.Kind == token.Ident && p.disabled(t.Text) {
				t.noExpand = true
			}
			if top.macro == "" {
				t = fix(t, top.file)
			}
			return t, top
		}
		if top.macro == "" {
			return fix(top.toks[len(top.toks)-1], top.file), top
		}
		p.stack = p.stack[:len(p.stack)-1]
	}
}

// disabled reports whether name is being expanded by an active source.
func (p *pp) disabled(name string) bool {
	for _, s := range p.stack {
		if s.macro == name {
			return true
		}
	}
	return false
}

// fileOf returns the innermost file source.
func (p *pp) fileOf() *source {
	for i := len(p.stack) - 1; i >= 0; i-- {
		if p.stack[i].macro == "" {
			return p.stack[i]
		}
	}
	return nil
}

// fix applies #line to a token read from a file.
func fix(t ptok, fs *fileState) ptok {
	t.Pos.Line += fs.lineDelta
	t.Pos.File = fs.fileName
	return t
}

func (p *pp) run() {
	for {
		t, src := p.raw()
		if t.Kind == token.EOF {
			// End of a file: pop it unless it is the main one.
			if len(p.stack) == 1 {
				return
			}
			p.stack = p.stack[:len(p.stack)-1]
			continue
		}
		if t.bol && t.Text == "#" && t.Kind == token.Punct && src.macro == "" {
			p.directive(t, src)
			continue
		}
		if !p.live() {
			continue
		}
		p.sawToken = true
		p.emit(t)
		if len(p.out) > maxTokens {
			p.errorf(t.Pos, "", "preprocessed output too large")
			return
		}
	}
}

// emit expands t if it is a macro and appends the result to the output.
func (p *pp) emit(t ptok) {
	if t.Kind == token.Ident && !t.noExpand {
		if m, ok := p.macros[t.Text]; ok && p.expand(t, m) {
			return
		}
	}
	p.out = append(p.out, t.Token)
}

// lineTokens reads the rest of a directive's line from the current file.
func (p *pp) lineTokens(src *source) []ptok {
	var toks []ptok
	for src.i < len(src.toks) && !src.toks[src.i].bol {
		toks = append(toks, fix(src.toks[src.i], src.file))
		src.i++
	}
	return toks
}

func (p *pp) directive(hash ptok, src *source) {
	line := p.lineTokens(src)
	if len(line) == 0 {
		return // the null directive
	}
	name := line[0]
	args := line[1:]
	switch name.Text {
	case "if", "ifdef", "ifndef":
		p.sawToken = true
		parent := p.live()
		val := false
		if parent {
			switch name.Text {
			case "if":
				val = p.evalIf(name, args)
			default:
				if len(args) == 0 || args[0].Kind != token.Ident {
					p.errorf(name.Pos, "#"+name.Text, "must be followed by macro name")
				} else {
					_, def := p.macros[args[0].Text]
					val = def == (name.Text == "ifdef")
					if len(args) > 1 {
						p.errorf(args[1].Pos, "#"+name.Text, "unexpected tokens following directive")
					}
				}
			}
		}
		p.conds = append(p.conds, cond{active: parent && val, anyTaken: val, parentLive: parent, pos: name.Pos})
		return
	case "elif", "else", "endif":
		if len(p.conds) == 0 {
			p.errorf(name.Pos, "#"+name.Text, "without matching #if")
			return
		}
		c := &p.conds[len(p.conds)-1]
		switch name.Text {
		case "elif":
			if c.sawElse {
				p.errorf(name.Pos, "#elif", "#elif after #else")
			}
			if c.parentLive && !c.anyTaken {
				v := p.evalIf(name, args)
				c.active, c.anyTaken = v, v
			} else {
				c.active = false
			}
		case "else":
			if c.sawElse {
				p.errorf(name.Pos, "#else", "#else after #else")
			}
			c.sawElse = true
			c.active = c.parentLive && !c.anyTaken
			c.anyTaken = true
			if len(args) > 0 {
				p.errorf(args[0].Pos, "#else", "unexpected tokens following directive")
			}
		case "endif":
			p.conds = p.conds[:len(p.conds)-1]
			if len(args) > 0 {
				p.errorf(args[0].Pos, "#endif", "unexpected tokens following directive")
			}
		}
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
		p.define(name, args)
	case "undef":
		if len(args) == 0 || args[0].Kind != token.Ident {
			p.errorf(name.Pos, "#undef", "must be followed by macro name")
			return
		}
		if strings.HasPrefix(args[0].Text, "GL_") || p.macros[args[0].Text] != nil && p.macros[args[0].Text].builtin {
			p.errorf(args[0].Pos, "#undef", "predefined names can't be undefined")
			return
		}
		delete(p.macros, args[0].Text)
		if len(args) > 1 {
			p.errorf(args[1].Pos, "#undef", "unexpected tokens following directive")
		}
	case "error":
		p.errorf(name.Pos, "#error", "%s", joinTokens(args))
	case "pragma":
		toks := make([]token.Token, len(args))
		for i, a := range args {
			toks[i] = a.Token
		}
		p.res.Pragmas = append(p.res.Pragmas, Pragma{Pos: name.Pos, Tokens: toks})
	case "version":
		p.version(name, args)
	case "extension":
		p.extension(name, args)
	case "line":
		p.line(name, args, src)
	case "include":
		p.include(name, args, src)
	default:
		p.errorf(name.Pos, "#", "invalid directive: %s", name.Text)
	}
}

func joinTokens(ts []ptok) string {
	var b strings.Builder
	for i, t := range ts {
		if i > 0 && t.space {
			b.WriteByte(' ')
		}
		b.WriteString(t.Text)
	}
	return b.String()
}

func (p *pp) define(dir ptok, args []ptok) {
	if len(args) == 0 || args[0].Kind != token.Ident {
		p.errorf(dir.Pos, "#define", "must be followed by macro name")
		return
	}
	nt := args[0]
	if strings.HasPrefix(nt.Text, "GL_") && !isKnownExtMacro(nt.Text) {
		p.errorf(nt.Pos, "#define", "names beginning with \"GL_\" can't be (un)defined: %s", nt.Text)
		return
	}
	if strings.Contains(nt.Text, "__") {
		p.d.Warnf(nt.Pos, "#define", "names containing consecutive underscores are reserved, and an error if version < 300: %s", nt.Text)
	}
	m := &macro{name: nt.Text, pos: nt.Pos}
	body := args[1:]
	if len(body) > 0 && body[0].Text == "(" && !body[0].space {
		m.function = true
		i := 1
		for {
			if i >= len(body) {
				p.errorf(nt.Pos, "#define", "missing ')' in macro parameter list")
				return
			}
			if body[i].Text == ")" {
				i++
				break
			}
			if body[i].Kind != token.Ident {
				p.errorf(body[i].Pos, "#define", "bad argument: %s", body[i].Text)
				return
			}
			for _, q := range m.params {
				if q == body[i].Text {
					p.errorf(body[i].Pos, "#define", "duplicate macro parameter: %s", q)
					return
				}
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
			p.errorf(nt.Pos, "#define", "missing ')' or ',' in macro parameter list")
			return
		}
		body = body[i:]
	}
	m.body = append([]ptok(nil), body...)
	for i := range m.body {
		m.body[i].bol = false
	}
	if old, ok := p.macros[m.name]; ok {
		if old.builtin {
			p.errorf(nt.Pos, "#define", "predefined names can't be (un)defined: %s", m.name)
			return
		}
		if !sameMacro(old, m) {
			p.errorf(nt.Pos, "#define", "Macro redefined; different substitutions: %s", m.name)
		}
	}
	p.macros[m.name] = m
}

func isKnownExtMacro(name string) bool {
	for _, e := range KnownExtensions {
		if e == name {
			return true
		}
	}
	return false
}

func sameMacro(a, b *macro) bool {
	if a.function != b.function || len(a.params) != len(b.params) || len(a.body) != len(b.body) {
		return false
	}
	for i := range a.params {
		if a.params[i] != b.params[i] {
			return false
		}
	}
	for i := range a.body {
		if a.body[i].Text != b.body[i].Text || (i > 0 && a.body[i].space != b.body[i].space) {
			return false
		}
	}
	return true
}

func (p *pp) version(dir ptok, args []ptok) {
	if p.sawToken || p.res.HasVersion {
		p.errorf(dir.Pos, "#version", "must occur first in shader")
		if p.res.HasVersion {
			return
		}
	}
	p.res.HasVersion = true
	p.res.VersionPos = dir.Pos
	if len(args) == 0 || args[0].Kind != token.IntLit {
		p.errorf(dir.Pos, "#version", "bad version number")
		return
	}
	v, err := strconv.Atoi(args[0].Text)
	if err != nil {
		p.errorf(args[0].Pos, "#version", "bad version number")
		return
	}
	p.res.Version = v
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
	switch v {
	case 100, 110, 120, 130, 140, 150, 300, 310, 320, 330, 400, 410, 420, 430, 440, 450, 460:
	default:
		p.errorf(args[0].Pos, "#version", "version not supported: %d", v)
	}
	if p.res.Profile == "es" {
		p.defineText("GL_ES", "1")
	} else {
		p.defineText("GL_core_profile", "1")
		if p.res.Profile == "compatibility" {
			p.defineText("GL_compatibility_profile", "1")
		}
	}
}

func (p *pp) extension(dir ptok, args []ptok) {
	if len(args) != 3 || args[0].Kind != token.Ident || args[1].Text != ":" || args[2].Kind != token.Ident {
		p.errorf(dir.Pos, "#extension", "extension name and behavior expected: #extension name : behavior")
		return
	}
	var b Behavior
	switch args[2].Text {
	case "require":
		b = Require
	case "enable":
		b = Enable
	case "warn":
		b = Warn
	case "disable":
		b = Disable
	default:
		p.errorf(args[2].Pos, "#extension", "behavior not supported: %s", args[2].Text)
		return
	}
	name := args[0].Text
	if name == "all" {
		if b == Require || b == Enable {
			p.errorf(args[2].Pos, "#extension", "extension 'all' cannot have 'require' or 'enable' behavior")
			return
		}
	} else if !isKnownExtMacro(name) {
		switch b {
		case Require:
			p.errorf(args[0].Pos, "#extension", "extension not supported: %s", name)
		case Enable, Warn:
			p.d.Warnf(args[0].Pos, "#extension", "extension not supported: %s", name)
		}
	}
	p.res.Extensions = append(p.res.Extensions, Extension{Pos: dir.Pos, Name: name, Behavior: b})
}

func (p *pp) line(dir ptok, args []ptok, src *source) {
	toks := p.expandList(args)
	if len(toks) == 0 || toks[0].Kind != token.IntLit {
		p.errorf(dir.Pos, "#line", "first argument must be a line number")
		return
	}
	n, err := strconv.Atoi(toks[0].Text)
	if err != nil || n < 0 {
		p.errorf(toks[0].Pos, "#line", "bad line number")
		return
	}
	// The line after the directive gets number n.
	phys := dir.Pos.Line - src.file.lineDelta
	src.file.lineDelta = n - (phys + 1)
	if len(toks) > 1 {
		switch toks[1].Kind {
		case token.IntLit, token.String:
			src.file.fileName = strings.Trim(toks[1].Text, "\"")
		default:
			p.errorf(toks[1].Pos, "#line", "second argument can only be a source-string number or a file name")
		}
		if len(toks) > 2 {
			p.errorf(toks[2].Pos, "#line", "unexpected tokens following directive")
		}
	}
}

// expandList macro-expands a directive's tokens.
func (p *pp) expandList(args []ptok) []token.Token {
	saveOut, saveStack := p.out, p.stack
	p.out = nil
	p.stack = []*source{{toks: append(append([]ptok(nil), args...), ptok{Token: token.Token{Kind: token.EOF}, bol: true}), file: p.fileOf().file}}
	p.stack[0].file = &fileState{fileName: p.fileOf().file.fileName}
	for {
		t, src := p.raw()
		if t.Kind == token.EOF && src == p.stack[0] {
			break
		}
		p.emit(t)
	}
	out := p.out
	p.out, p.stack = saveOut, saveStack
	return out
}
