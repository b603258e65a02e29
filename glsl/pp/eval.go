package pp

import (
	"strconv"

	"github.com/coopshader/coop/internal/lazy"

	"github.com/coopshader/coop/glsl/token"
)

// evalIf evaluates an #if or #elif expression.
func (p *pp) evalIf(dir ptok, args []ptok, eol token.Pos) bool {
	// "defined X" and "defined(X)" are resolved before macro expansion.
	pre := make([]ptok, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.Kind != token.Ident || a.Text != "defined" {
			pre = append(pre, a)
			continue
		}
		v, n := p.defined(args[i+1:], a.Pos)
		if n < 0 {
			return false
		}
		a.Token = token.Token{Kind: token.IntLit, Text: v, Pos: a.Pos}
		pre = append(pre, a)
		i += n
	}
	e := &evaluator{p: p, toks: p.expandList(pre), eol: eol}
	v := e.expr(0)
	if !e.failed && e.i < len(e.toks) {
		p.errorf(e.toks[e.i].Pos, "#"+dir.Text, "unexpected tokens following directive")
		return false
	}
	return !e.failed && v != 0
}

// defined evaluates the operand of "defined" in rest, returning "1" or
// "0" and how many tokens it took (-1 after an error).
func (p *pp) defined(rest []ptok, at token.Pos) (string, int) {
	paren := len(rest) > 0 && rest[0].Text == "("
	j := 0
	if paren {
		j = 1
	}
	if j >= len(rest) || rest[j].Kind != token.Ident {
		p.errorf(at, "preprocessor evaluation", "incorrect directive, expected identifier")
		return "", -1
	}
	v := "0"
	if p.isDefined(rest[j].Text) {
		v = "1"
	}
	if paren {
		j++
		if j >= len(rest) || rest[j].Text != ")" {
			p.errorf(rest[j-1].Pos, "preprocessor evaluation", "expected ')'")
			return "", -1
		}
	}
	return v, j + 1
}

// evaluator computes a preprocessor expression with glslang's rules:
// 32-bit signed arithmetic, signed integer literals only, and undefined
// names reading as 0 (an error in ES).
type evaluator struct {
	p      *pp
	toks   []ptok
	i      int
	eol    token.Pos
	failed bool
}

func (e *evaluator) fail(pos token.Pos, msg string) {
	if !e.failed {
		e.p.errorf(pos, "preprocessor evaluation", "%s", msg)
	}
	e.failed = true
}

var binPrec = lazy.Value[map[string]int]{F: func() map[string]int {
	return map[string]int{
		"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6,
		"<": 7, ">": 7, "<=": 7, ">=": 7, "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10,
	}
}}

func (e *evaluator) expr(minPrec int) int64 {
	left := e.unary()
	for !e.failed && e.i < len(e.toks) {
		t := e.toks[e.i]
		prec, isOp := binPrec.Get()[t.Text]
		if t.Kind != token.Punct || !isOp || prec <= minPrec {
			break
		}
		e.i++
		right := e.expr(prec)
		left = e.apply(t, left, right)
	}
	return left
}

func b2i(v bool) int64 {
	if v {
		return 1
	}
	return 0
}

// apply computes one binary operation. Both operands are always
// evaluated: like glslang, division by zero is an error even where
// && or || would not need the operand.
func (e *evaluator) apply(t ptok, a, b int64) int64 {
	x, y := int32(a), int32(b)
	switch t.Text {
	case "||":
		return b2i(x != 0 || y != 0)
	case "&&":
		return b2i(x != 0 && y != 0)
	case "|":
		return int64(x | y)
	case "^":
		return int64(x ^ y)
	case "&":
		return int64(x & y)
	case "==":
		return b2i(x == y)
	case "!=":
		return b2i(x != y)
	case "<":
		return b2i(x < y)
	case ">":
		return b2i(x > y)
	case "<=":
		return b2i(x <= y)
	case ">=":
		return b2i(x >= y)
	case "<<":
		return int64(x << (uint32(y) & 31))
	case ">>":
		return int64(x >> (uint32(y) & 31))
	case "+":
		return int64(x + y)
	case "-":
		return int64(x - y)
	case "*":
		return int64(x * y)
	}
	if y == 0 {
		e.fail(t.Pos, "division by 0")
		return 0
	}
	if y == -1 {
		// Avoid the overflow trap of MinInt32 / -1.
		if t.Text == "/" {
			return int64(-x)
		}
		return 0
	}
	if t.Text == "/" {
		return int64(x / y)
	}
	return int64(x % y)
}

func (e *evaluator) unary() int64 {
	if e.i >= len(e.toks) {
		e.fail(e.eol, "bad expression")
		return 0
	}
	t := e.toks[e.i]
	e.i++
	switch t.Kind {
	case token.Punct:
		switch t.Text {
		case "(":
			v := e.expr(0)
			if e.failed {
				return 0
			}
			if e.i >= len(e.toks) {
				e.fail(e.toks[e.i-1].Pos, "expected ')'")
				return 0
			}
			if e.toks[e.i].Text != ")" {
				e.fail(e.toks[e.i].Pos, "expected ')'")
				return 0
			}
			e.i++
			return v
		case "-":
			return int64(-int32(e.unary()))
		case "+":
			return e.unary()
		case "~":
			return int64(^int32(e.unary()))
		case "!":
			return b2i(e.unary() == 0)
		}
	case token.IntLit:
		v, err := strconv.ParseUint(t.Text, 0, 32)
		if err != nil {
			e.fail(t.Pos, "bad expression")
			return 0
		}
		return int64(int32(v))
	case token.Ident:
		if t.Text == "defined" {
			// Only a "defined" written in the directive itself counts.
			e.p.errorf(t.Pos, "defined", "cannot use in preprocessor expression when expanded from macros")
			e.failed = true
			return 0
		}
		if m := e.p.lookup(t.Text); m != nil && m.function {
			// A function-like macro's name without arguments.
			e.p.errorf(t.Pos, "preprocessor evaluation", "can't evaluate expression")
			e.failed = true
			return 0
		}
		if e.p.res.Profile == "es" {
			e.p.errorf(t.Pos, t.Text, "undefined macro in expression not allowed in es profile")
			e.failed = true
		}
		return 0
	}
	e.fail(t.Pos, "bad expression")
	return 0
}
