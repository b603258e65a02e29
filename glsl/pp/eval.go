package pp

import (
	"strconv"
	"strings"

	"github.com/coopshader/coop/glsl/token"
)

// evalIf evaluates an #if or #elif expression.
func (p *pp) evalIf(dir ptok, args []ptok) bool {
	// "defined X" and "defined(X)" are resolved before macro expansion.
	var pre []ptok
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.Kind == token.Ident && a.Text == "defined" {
			j := i + 1
			paren := j < len(args) && args[j].Text == "("
			if paren {
				j++
			}
			if j >= len(args) || args[j].Kind != token.Ident {
				p.errorf(a.Pos, "defined", "identifier expected after 'defined'")
				return false
			}
			_, def := p.macros[args[j].Text]
			if paren {
				j++
				if j >= len(args) || args[j].Text != ")" {
					p.errorf(a.Pos, "defined", "missing ')'")
					return false
				}
			}
			v := "0"
			if def {
				v = "1"
			}
			pre = append(pre, ptok{Token: token.Token{Kind: token.IntLit, Text: v, Pos: a.Pos}})
			i = j
			continue
		}
		pre = append(pre, a)
	}
	toks := p.expandList(pre)
	if len(toks) == 0 {
		p.errorf(dir.Pos, "#"+dir.Text, "expected an expression")
		return false
	}
	e := &evaluator{p: p, toks: toks, dir: dir}
	v := e.expr(0)
	if !e.failed && e.i < len(toks) {
		e.fail(toks[e.i], "unexpected token in expression")
	}
	return !e.failed && v != 0
}

type evaluator struct {
	p      *pp
	toks   []token.Token
	i      int
	dir    ptok
	failed bool
	// dead counts enclosing short-circuited operands, where division by
	// zero is not an error.
	dead int
}

func (e *evaluator) fail(t token.Token, msg string) {
	if !e.failed {
		e.p.errorf(t.Pos, t.Text, "%s", msg)
	}
	e.failed = true
}

var binPrec = map[string]int{
	"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6,
	"<": 7, ">": 7, "<=": 7, ">=": 7, "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10,
}

func (e *evaluator) peek() (token.Token, bool) {
	if e.i < len(e.toks) {
		return e.toks[e.i], true
	}
	return token.Token{}, false
}

func (e *evaluator) expr(minPrec int) int64 {
	left := e.unary()
	for !e.failed {
		t, ok := e.peek()
		if !ok || t.Kind != token.Punct {
			return left
		}
		prec, isOp := binPrec[t.Text]
		if !isOp || prec <= minPrec {
			return left
		}
		e.i++
		shortCircuit := (t.Text == "||" && left != 0) || (t.Text == "&&" && left == 0)
		if shortCircuit {
			e.dead++
		}
		right := e.expr(prec)
		if shortCircuit {
			e.dead--
		}
		left = e.apply(t, left, right)
	}
	return left
}

func (e *evaluator) apply(t token.Token, a, b int64) int64 {
	bool2 := func(v bool) int64 {
		if v {
			return 1
		}
		return 0
	}
	switch t.Text {
	case "||":
		return bool2(a != 0 || b != 0)
	case "&&":
		return bool2(a != 0 && b != 0)
	case "|":
		return a | b
	case "^":
		return a ^ b
	case "&":
		return a & b
	case "==":
		return bool2(a == b)
	case "!=":
		return bool2(a != b)
	case "<":
		return bool2(a < b)
	case ">":
		return bool2(a > b)
	case "<=":
		return bool2(a <= b)
	case ">=":
		return bool2(a >= b)
	case "<<":
		return int64(int32(a) << (uint64(b) & 31))
	case ">>":
		return int64(int32(a) >> (uint64(b) & 31))
	case "+":
		return int64(int32(a + b))
	case "-":
		return int64(int32(a - b))
	case "*":
		return int64(int32(a * b))
	case "/", "%":
		if b == 0 {
			if e.dead == 0 {
				e.fail(t, "division by 0 in preprocessor evaluation")
			}
			return 0
		}
		if t.Text == "/" {
			return int64(int32(a / b))
		}
		return int64(int32(a % b))
	}
	return 0
}

func (e *evaluator) unary() int64 {
	t, ok := e.peek()
	if !ok {
		last := e.toks[len(e.toks)-1]
		e.fail(last, "expected an expression")
		return 0
	}
	e.i++
	switch {
	case t.Kind == token.Punct && t.Text == "(":
		v := e.expr(0)
		if n, ok := e.peek(); !ok || n.Text != ")" {
			e.fail(t, "expected ')'")
			return 0
		}
		e.i++
		return v
	case t.Kind == token.Punct && t.Text == "-":
		return int64(int32(-e.unary()))
	case t.Kind == token.Punct && t.Text == "+":
		return e.unary()
	case t.Kind == token.Punct && t.Text == "~":
		return int64(^int32(e.unary()))
	case t.Kind == token.Punct && t.Text == "!":
		if e.unary() == 0 {
			return 1
		}
		return 0
	case t.Kind == token.IntLit:
		text := strings.TrimRight(t.Text, "uUlLsS")
		v, err := strconv.ParseUint(text, 0, 64)
		if err != nil {
			e.fail(t, "bad integer in preprocessor expression")
			return 0
		}
		return int64(int32(v))
	case t.Kind == token.Ident:
		if e.p.res.Profile == "es" {
			e.fail(t, "undefined macro in expression not allowed in es profile")
			return 0
		}
		return 0
	}
	e.fail(t, "unexpected token in preprocessor expression")
	return 0
}
