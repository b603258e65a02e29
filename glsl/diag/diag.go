// Package diag collects compiler diagnostics and prints them the way
// glslang does: "ERROR: file:line: 'token' : message".
package diag

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/coopshader/coop/glsl/token"
)

// Severity orders diagnostics by seriousness.
type Severity uint8

const (
	Warning Severity = iota
	Error
)

// Diag is one diagnostic. Token is the text glslang quotes (may be empty).
type Diag struct {
	Sev   Severity
	Pos   token.Pos
	Token string
	Msg   string
}

func (d *Diag) Error() string {
	kind := "ERROR"
	if d.Sev == Warning {
		kind = "WARNING"
	}
	file := d.Pos.File
	if file == "" {
		file = "0"
	}
	return kind + ": " + file + ":" + strconv.Itoa(d.Pos.Line) + ": '" + d.Token + "' : " + d.Msg
}

// List gathers diagnostics in the order they were found.
type List struct {
	Diags []*Diag
	// MaxErrors stops recording errors past this many (0: no limit), so a
	// pathological input cannot grow the list without bound.
	MaxErrors int
	errors    int
}

// Errorf records an error at pos about tok.
func (l *List) Errorf(pos token.Pos, tok, format string, args ...any) {
	l.errors++
	if l.MaxErrors > 0 && l.errors > l.MaxErrors {
		return
	}
	l.Diags = append(l.Diags, &Diag{Sev: Error, Pos: pos, Token: tok, Msg: fmt.Sprintf(format, args...)})
}

// Warnf records a warning at pos about tok.
func (l *List) Warnf(pos token.Pos, tok, format string, args ...any) {
	l.Diags = append(l.Diags, &Diag{Sev: Warning, Pos: pos, Token: tok, Msg: fmt.Sprintf(format, args...)})
}

// Add appends already-built diagnostics (from another stage).
func (l *List) Add(ds ...*Diag) {
	for _, d := range ds {
		if d.Sev == Error {
			l.errors++
		}
		l.Diags = append(l.Diags, d)
	}
}

// ErrorCount is the number of errors found (including any not recorded
// past MaxErrors).
func (l *List) ErrorCount() int { return l.errors }

// HasErrors reports whether any error was found.
func (l *List) HasErrors() bool { return l.errors > 0 }

// Err returns nil when there are no errors, else the list as an error.
func (l *List) Err() error {
	if l.errors == 0 {
		return nil
	}
	return l
}

// Error formats every diagnostic and the closing count line.
func (l *List) Error() string {
	lines := make([]string, 0, len(l.Diags)+1)
	for _, d := range l.Diags {
		lines = append(lines, d.Error())
	}
	if l.errors > 0 {
		lines = append(lines, "ERROR: "+strconv.Itoa(l.errors)+" compilation errors.  No code generated.")
	}
	return strings.Join(lines, "\n")
}

// Print writes every diagnostic, one per line, then glslang's closing
// "ERROR: N compilation errors.  No code generated." line when there were
// errors.
func (l *List) Print(w io.Writer) error {
	s := l.Error()
	if s == "" {
		return nil
	}
	_, err := io.WriteString(w, s+"\n")
	return err
}
