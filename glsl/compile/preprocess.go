package compile

import (
	"strconv"
	"strings"

	"github.com/coopshader/coop/glsl/diag"
	"github.com/coopshader/coop/glsl/pp"
	"github.com/coopshader/coop/glsl/token"
)

// Preprocess returns the preprocessed text of src as glslangValidator -E
// prints it: every token on the line it came from (so diagnostics on the
// text name the same lines), indented as its line was, spaced by
// glslang's rules; #version, #extension and #pragma lines kept; #line
// directives where an #include's text starts and where the includer goes
// on. The text is nil when preprocessing failed.
func Preprocess(name string, src []byte, opts Options) ([]byte, *diag.List) {
	d := &diag.List{MaxErrors: 1000}
	pre := pp.Preprocess(name, src, pp.Options{
		Defines:          opts.Defines,
		Undefs:           opts.Undefs,
		IncludeDirs:      opts.IncludeDirs,
		ReadFile:         opts.ReadFile,
		Vulkan:           true,
		IncludeDirective: opts.IncludeDirective,
	}, d)
	if d.HasErrors() {
		return nil, d
	}
	w := &ppWriter{file: name, line: 1, fresh: true, pre: pre, pending: map[string][]directive{}}
	if pre.HasVersion {
		w.sync(pre.VersionPos)
		w.b.WriteString("#version " + strconv.Itoa(pre.Version))
		if pre.Profile != "" {
			w.b.WriteString(" " + pre.Profile)
		}
	}
	for _, e := range pre.Extensions {
		if e.Pos.Line > 0 { // not glslc's implicit include extension
			w.add(e.Pos, "#extension "+e.Name+" : "+e.Behavior.String())
		}
	}
	for _, p := range pre.Pragmas {
		words := make([]string, len(p.Tokens))
		for i, t := range p.Tokens {
			words[i] = t.Text
		}
		w.add(p.Pos, "#pragma "+strings.Join(words, " "))
	}
	for i := range pre.Tokens {
		t := &pre.Tokens[i]
		if t.Kind == token.EOF {
			break
		}
		w.token(t)
	}
	for len(w.stack) > 0 {
		w.leave()
	}
	w.flush(w.file, 1<<62)
	// glslangValidator ends the text with a newline and prints it with
	// another.
	w.b.WriteString("\n\n")
	return []byte(w.b.String()), d
}

// directive is a #extension or #pragma line to write at its place.
type directive struct {
	line int
	text string
}

// ppWriter lays out preprocessed tokens as glslang's -E does.
type ppWriter struct {
	b     strings.Builder
	pre   *pp.Result
	file  string
	line  int  // the line the text ends on
	fresh bool // nothing written on that line yet
	last  token.Token
	// pending holds each file's directives not yet written, in line
	// order; stack the files being included from, with the line each
	// goes on at; used counts the includes entered.
	pending map[string][]directive
	stack   []struct {
		file string
		line int
	}
	used int
}

func (w *ppWriter) add(pos token.Pos, text string) {
	ds := w.pending[pos.File]
	i := len(ds)
	for i > 0 && ds[i-1].line > pos.Line {
		i--
	}
	w.pending[pos.File] = append(ds[:i], append([]directive{{pos.Line, text}}, ds[i:]...)...)
}

// flush writes file's directives before line.
func (w *ppWriter) flush(file string, line int) {
	ds := w.pending[file]
	for len(ds) > 0 && ds[0].line < line {
		w.sync(token.Pos{File: file, Line: ds[0].line})
		w.b.WriteString(ds[0].text)
		ds = ds[1:]
	}
	w.pending[file] = ds
}

// directiveLine writes a #line directive: the next line is line of file.
func (w *ppWriter) directiveLine(file string, line int) {
	if !w.fresh {
		w.b.WriteString("\n")
	}
	w.b.WriteString("#line " + strconv.Itoa(line) + " " + strconv.Quote(file))
	w.file, w.line, w.fresh = file, line-1, false
}

// leave returns from the innermost included file to its includer.
func (w *ppWriter) leave() {
	w.flush(w.file, 1<<62)
	top := w.stack[len(w.stack)-1]
	w.stack = w.stack[:len(w.stack)-1]
	w.directiveLine(top.file, top.line)
}

// enter moves to the text of file, which the next unused #include of
// the current file brings in.
func (w *ppWriter) enter(file string) bool {
	inc := w.pre
	for k := w.used; k < len(inc.Includes); k++ {
		if inc.Includes[k] == file && inc.IncludedAt[k].File == w.file {
			w.used = k + 1
			at := inc.IncludedAt[k].Line
			w.flush(w.file, at)
			if at > w.line { // the #line takes the #include's line
				w.b.WriteString(strings.Repeat("\n", at-w.line))
				w.line, w.fresh = at, true
			}
			w.stack = append(w.stack, struct {
				file string
				line int
			}{w.file, at + 1})
			w.directiveLine(file, 1)
			return true
		}
	}
	return false
}

// sync moves to pos's line and reports whether pos starts a line.
func (w *ppWriter) sync(pos token.Pos) bool {
	if pos.File != w.file {
		for len(w.stack) > 0 && !w.enter(pos.File) && w.onStack(pos.File) {
			w.leave()
		}
		if pos.File != w.file && !w.enter(pos.File) {
			// A #line directive of the source renamed the file.
			w.directiveLine(pos.File, pos.Line)
		}
	}
	if pos.Line > w.line {
		w.b.WriteString(strings.Repeat("\n", pos.Line-w.line))
		w.line, w.fresh = pos.Line, true
	}
	fresh := w.fresh
	w.fresh = false
	if fresh {
		w.last = token.Token{}
	}
	return fresh
}

func (w *ppWriter) onStack(file string) bool {
	for _, s := range w.stack {
		if s.file == file {
			return true
		}
	}
	return false
}

func (w *ppWriter) token(t *token.Token) {
	if t.Pos.File == w.file {
		w.flush(w.file, t.Pos.Line+1)
	}
	if w.sync(t.Pos) {
		w.b.WriteString(strings.Repeat(" ", max(t.Pos.Col-1, 0)))
	} else if w.last.Kind != token.EOF && spaceBetween(w.last, *t) {
		w.b.WriteString(" ")
	}
	w.b.WriteString(t.Text)
	w.last = *t
}

// spaceBetween is glslang's rule for a space between two tokens on a
// line: none before ; ) [ ] . , nor after . [ (, and none before a ( that
// follows a name (a call or a constructor) other than if, for, while and
// switch.
func spaceBetween(prev, t token.Token) bool {
	if t.Kind == token.Punct && t.Text == "(" && prev.Kind == token.Ident {
		switch prev.Text {
		case "if", "for", "while", "switch":
			return true
		}
		return false
	}
	if t.Kind == token.Punct && len(t.Text) == 1 && strings.Contains(";)[].,", t.Text) {
		return false
	}
	return !(prev.Kind == token.Punct && len(prev.Text) == 1 && strings.Contains(".[(", prev.Text))
}
