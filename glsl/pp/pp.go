package pp

import (
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/coopshader/coop/internal/lazy"

	"github.com/coopshader/coop/glsl/diag"
	"github.com/coopshader/coop/glsl/token"
)

// Define is a macro given on the command line (-Dname=value). An empty
// Value defines the name as empty, as glslangValidator's -Dname does.
type Define struct {
	Name, Value string
}

// Options configure one Preprocess call.
type Options struct {
	Defines     []Define // -D, applied after the predefined macros
	Undefs      []string // -U, applied after Defines
	IncludeDirs []string // -I, searched in order after the includers' directories
	// ReadFile reads included files (nil: os.ReadFile).
	ReadFile func(path string) ([]byte, error)
	// Vulkan predefines VULKAN 100 (as glslangValidator -V does).
	Vulkan bool
	// IncludeDirective enables GL_GOOGLE_include_directive before the
	// source, as glslc's preamble does.
	IncludeDirective bool
}

// Limits that keep hostile input from hanging the preprocessor or
// exhausting memory; real shaders stay far below them.
const (
	maxIncludeDepth = 64
	maxExpansions   = 1 << 18
	maxTokens       = 1 << 20
	// maxIncludes bounds the total number of #include directives
	// processed: a file including itself twice would otherwise make
	// 2^maxIncludeDepth.
	maxIncludes = 1 << 14
	// maxTextBytes bounds the bytes of text the preprocessor makes
	// (output tokens, collected arguments and pasted tokens): ## can
	// double a token's length at each level while the token count stays
	// small.
	maxTextBytes = 1 << 26
)

type macro struct {
	name     string
	function bool
	params   []string
	body     []ptok
}

// source is one level of the token input stack: a file's tokens or a
// macro's replacement list.
type source struct {
	i int
	// A macro's source: the replacement list of m.
	m    *macro
	toks []ptok
	// A file's source (m is nil): compact tokens of its cleaned text.
	file  *fileState
	rtoks []rtok
	text  string
}

// tok returns the i'th token of a file source, with #line applied.
func (s *source) tok(i int) ptok {
	fs := s.file
	return s.rtoks[i].ptok(s.text, fs.fileName, fs.lineDelta)
}

type fileState struct {
	// name is the path the file was read from (its directory anchors
	// "#include" of quoted names).
	name string
	// lineDelta, fileName and number implement #line: tokens of this file
	// get Line+lineDelta and File fileName; number is set when #line gave
	// a source-string number, which __FILE__ then yields.
	lineDelta int
	fileName  string
	number    string
	depth     int
}

type cond struct {
	active     bool // this branch's tokens are kept
	anyTaken   bool // some branch of this #if group was taken
	parentLive bool
	sawElse    bool
}

type pp struct {
	opts   Options
	d      *diag.List
	res    *Result
	macros map[string]*macro // user macros; a nil value hides a predefined one
	stack  []*source
	conds  []cond
	out    []token.Token
	// collect, when set, receives expanded tokens instead of out (for
	// macro arguments and directive expressions).
	collect *[]ptok

	cur        token.Pos // position of the last token read from a file (__LINE__)
	expansions int
	emitted    int
	includes   int
	textBytes  int
	stop       bool // a limit was hit: stop producing tokens
	sawToken   bool // something other than #version, comments and blank lines was seen
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
	p := &pp{opts: opts, d: d, res: &Result{Version: 100}, macros: map[string]*macro{}}
	if opts.Vulkan {
		p.defineText("VULKAN", "100")
	}
	if opts.IncludeDirective {
		p.res.Extensions = append(p.res.Extensions, Extension{Pos: token.Pos{File: name}, Name: "GL_GOOGLE_include_directive", Behavior: Enable})
	}
	for i, def := range opts.Defines {
		// glslangValidator turns -D options into #define lines, so a second
		// -D of a name with another value is a redefinition error.
		if slices.ContainsFunc(opts.Defines[:i], func(d Define) bool { return d.Name == def.Name && d.Value != def.Value }) {
			p.errorf(token.Pos{File: "<command line>", Line: i + 1}, "#define", "Macro redefined; different substitutions: %s", def.Name)
		}
		p.defineText(def.Name, def.Value)
	}
	for _, u := range opts.Undefs {
		p.macros[u] = nil
	}
	p.pushFile(&fileState{name: name, fileName: name}, src)
	// Output is about as long as the file's token list.
	n := len(p.stack[0].rtoks)
	p.out = make([]token.Token, 0, n+n/8)
	p.run()
	if len(p.conds) > 0 && !p.stop {
		p.errorf(p.cur, "", "missing #endif")
	}
	p.out = append(p.out, token.Token{Kind: token.EOF, Pos: p.cur})
	p.res.Tokens = p.out
	return p.res
}

// predefined holds the macros every translation unit starts with, as
// glslang's preamble for SPIR-V compute shaders has them. It is shared
// and never modified.
var predefined = lazy.Value[map[string]*macro]{F: func() map[string]*macro {
	p := &pp{macros: map[string]*macro{}}
	p.defineText("GL_SPIRV", "100")
	p.defineText("GL_COMPUTE_SHADER", "1")
	p.defineText("GL_FRAGMENT_PRECISION_HIGH", "1")
	for _, e := range KnownExtensions {
		if !notPredefined.Get()[e] && !slices.Contains(from460[:], e) && !desktopOnly.Get()[e] && !esOnly.Get()[e] {
			p.defineText(e, "1")
		}
	}
	return p.macros
}}

// lookup returns the macro called name, or nil.
func (p *pp) lookup(name string) *macro {
	if m, ok := p.macros[name]; ok {
		return m
	}
	// Every shared predefined name starts with "GL_"; most identifiers
	// skip the second map.
	if len(name) > 3 && name[0] == 'G' && name[1] == 'L' && name[2] == '_' {
		return predefined.Get()[name]
	}
	return nil
}

// defineText defines an object-like macro from text (predefined and -D).
func (p *pp) defineText(name, value string) {
	toks := scan([]byte(value), "", p)
	toks = toks[:len(toks)-1]
	for i := range toks {
		toks[i].bol = false
	}
	p.macros[name] = &macro{name: name, body: toks}
}

func (p *pp) pushFile(fs *fileState, src []byte) {
	if len(src) >= math.MaxInt32 {
		p.errorf(p.cur, "", "source too large: %s", fs.name)
		src = nil
	}
	text, toks := scanFile(src, fs.name, p)
	p.stack = append(p.stack, &source{rtoks: toks, text: text, file: fs})
}

// live reports whether tokens are currently kept.
func (p *pp) live() bool { return len(p.conds) == 0 || p.conds[len(p.conds)-1].active }

// raw returns the next token from the input stack without expansion,
// popping exhausted macro sources (not files: a file's EOF is returned,
// and returned again on the next call).
func (p *pp) raw() (ptok, *source) {
	for {
		top := p.stack[len(p.stack)-1]
		if top.m == nil {
			t := top.tok(top.i)
			if t.Kind != token.EOF {
				top.i++
			}
			p.cur = t.Pos
			return t, top
		}
		if top.i < len(top.toks) {
			t := top.toks[top.i]
			top.i++
			t.fromMacro = top.m != listMacro
			// A name read while its macro is being expanded is never
			// expanded again (it is "painted blue").
			if t.Kind == token.Ident && !t.noExpand {
				if m := p.lookup(t.Text); m != nil && p.active(m) {
					t.noExpand = true
				}
			}
			return t, top
		}
		p.stack = p.stack[:len(p.stack)-1]
	}
}

// unread pushes back the token raw just returned from src.
func (p *pp) unread(t ptok, src *source) {
	if t.Kind != token.EOF || src.m != nil {
		src.i--
	}
}

// active reports whether m's expansion is on the input stack.
func (p *pp) active(m *macro) bool {
	for _, s := range p.stack {
		if s.m == m {
			return true
		}
	}
	return false
}

// file returns the innermost file source.
func (p *pp) file() *source {
	for i := len(p.stack) - 1; i >= 0; i-- {
		if p.stack[i].m == nil {
			return p.stack[i]
		}
	}
	return nil
}

func (p *pp) run() {
	for !p.stop {
		t, src := p.raw()
		if t.Kind == token.EOF {
			if len(p.stack) == 1 {
				return
			}
			p.stack = p.stack[:len(p.stack)-1] // end of an included file
			continue
		}
		if t.bol && t.Kind == token.Punct && t.Text == "#" {
			p.directive(t, src)
			continue
		}
		if !p.live() {
			continue
		}
		p.sawToken = true
		if t.Kind == token.Punct && (t.Text == "#" || t.Text == "##") {
			p.errorf(t.Pos, "#", "preprocessor directive cannot be preceded by another token")
			continue
		}
		p.emit(t)
	}
}

// emit expands t if it names a macro, else appends it to the output.
func (p *pp) emit(t ptok) {
	if t.Kind == token.Ident && !t.noExpand {
		switch t.Text {
		case "__LINE__", "__FILE__", "__VERSION__":
			t.Token = p.builtin(t)
		default:
			if m := p.lookup(t.Text); m != nil && p.expand(t, m) {
				return
			}
		}
	}
	p.emitted++
	if p.emitted > maxTokens {
		p.errorf(t.Pos, "", "preprocessed output too large (more than %d tokens)", maxTokens)
		p.stop = true
		return
	}
	if !p.addText(t.Pos, len(t.Text)) {
		return
	}
	if p.collect != nil {
		*p.collect = append(*p.collect, t)
		return
	}
	p.out = append(p.out, t.Token)
}

// addText counts n bytes of text made; past maxTextBytes it reports an
// error and stops the preprocessor.
func (p *pp) addText(pos token.Pos, n int) bool {
	p.textBytes += n
	if p.textBytes > maxTextBytes {
		p.errorf(pos, "", "preprocessed text too large (more than %d bytes)", maxTextBytes)
		p.stop = true
		return false
	}
	return true
}

// extOn reports whether the #extension directives so far enable one of
// names (enable, require or warn; "all" counts), warning when the
// behavior is warn.
func (p *pp) extOn(pos token.Pos, use string, names ...string) bool {
	for i := len(p.res.Extensions) - 1; i >= 0; i-- {
		e := p.res.Extensions[i]
		name := e.Name
		if name == "all" {
			name = names[0]
		} else if !slices.Contains(names, name) {
			continue
		}
		if e.Behavior == Warn {
			p.d.Warnf(pos, "", "extension %s is being used for %s", name, use)
		}
		return e.Behavior != Disable
	}
	return false
}

// cppLineExt names the extensions that allow file names in #line and
// __FILE__ (including files implies them, as in glslang).
var cppLineExt = []string{"GL_GOOGLE_cpp_style_line_directive", "GL_GOOGLE_include_directive", "GL_ARB_shading_language_include"}

// resolve joins an include's directory and name the way glslang's
// includer does, so diagnostics name included files alike.
func resolve(dir, name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	return dir + "/" + name
}
