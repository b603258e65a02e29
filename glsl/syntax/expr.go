package syntax

import (
	"math"
	"strconv"
	"strings"

	"github.com/coopshader/coop/glsl/token"
)

var binaryPrec = map[string]int{
	"||": 1, "^^": 2, "&&": 3, "|": 4, "^": 5, "&": 6, "==": 7, "!=": 7,
	"<": 8, ">": 8, "<=": 8, ">=": 8, "<<": 9, ">>": 9, "+": 10, "-": 10, "*": 11, "/": 11, "%": 11,
}

var assignOps = map[string]bool{"=": true, "+=": true, "-=": true, "*=": true, "/=": true, "%=": true,
	"<<=": true, ">>=": true, "&=": true, "|=": true, "^=": true}

// expr parses a full expression, comma operator included.
func (p *parser) expr() Expr {
	x := p.assignExpr()
	for p.tok().Is(",") && p.noGT == 0 {
		t := p.next()
		y := p.assignExpr()
		if x == nil || y == nil {
			return nil
		}
		x = &Binary{Pos: t.Pos, Op: ",", X: x, Y: y}
	}
	return x
}

func (p *parser) assignExpr() Expr {
	p.enter()
	defer p.leave()
	x := p.condExpr()
	if t := p.tok(); t.Kind == token.Punct && assignOps[t.Text] && x != nil {
		p.i++
		r := p.assignExpr()
		if r == nil {
			return nil
		}
		return &Assign{Pos: t.Pos, Op: t.Text, L: x, R: r}
	}
	return x
}

func (p *parser) condExpr() Expr {
	c := p.binaryExpr(1)
	if t := p.tok(); t.Is("?") && c != nil {
		p.i++
		saved := p.noGT
		p.noGT = 0
		x := p.expr()
		p.noGT = saved
		if !p.expect(":") {
			return nil
		}
		y := p.assignExpr()
		if x == nil || y == nil {
			return nil
		}
		return &Cond{Pos: t.Pos, C: c, T: x, F: y}
	}
	return c
}

func (p *parser) binaryExpr(minPrec int) Expr {
	x := p.unaryExpr()
	for x != nil {
		t := p.tok()
		prec, ok := binaryPrec[t.Text]
		if t.Kind != token.Punct || !ok || prec < minPrec {
			return x
		}
		if p.noGT > 0 && (t.Text == ">" || t.Text == ">>") {
			return x
		}
		p.i++
		y := p.binaryExpr(prec + 1)
		if y == nil {
			return nil
		}
		x = &Binary{Pos: t.Pos, Op: t.Text, X: x, Y: y}
	}
	return x
}

func (p *parser) unaryExpr() Expr {
	p.enter()
	defer p.leave()
	t := p.tok()
	if t.Kind == token.Punct {
		switch t.Text {
		case "++", "--", "+", "-", "!", "~":
			p.i++
			x := p.unaryExpr()
			if x == nil {
				return nil
			}
			return &Unary{Pos: t.Pos, Op: t.Text, X: x}
		}
	}
	return p.postfixExpr(p.primaryExpr())
}

func (p *parser) postfixExpr(x Expr) Expr {
	for x != nil {
		t := p.tok()
		switch {
		case t.Is("["):
			p.i++
			saved := p.noGT
			p.noGT = 0
			idx := p.expr()
			p.noGT = saved
			if idx == nil || !p.expect("]") {
				return nil
			}
			x = &Index{Pos: t.Pos, X: x, Index: idx}
		case t.Is("."):
			p.i++
			id := p.tok()
			if id.Kind != token.Ident {
				p.errorf(id, "syntax error, unexpected %s, expecting IDENTIFIER", tokenName(id))
				return nil
			}
			p.i++
			if p.tok().Is("(") {
				args, ok := p.args()
				if !ok {
					return nil
				}
				x = &MethodCall{Pos: id.Pos, X: x, Name: id.Text, Args: args}
			} else {
				x = &Field{Pos: id.Pos, X: x, Name: id.Text}
			}
		case t.Is("++") || t.Is("--"):
			p.i++
			x = &Unary{Pos: t.Pos, Op: t.Text, Postfix: true, X: x}
		default:
			return x
		}
	}
	return x
}

// args parses a parenthesised argument list; "(void)" is no arguments.
func (p *parser) args() ([]Expr, bool) {
	p.i++ // '('
	saved := p.noGT
	p.noGT = 0
	defer func() { p.noGT = saved }()
	var args []Expr
	if p.tok().Is("void") && p.peek(1).Is(")") {
		p.i++
	}
	for !p.tok().Is(")") {
		a := p.assignExpr()
		if a == nil {
			return nil, false
		}
		args = append(args, a)
		if !p.got(",") {
			break
		}
	}
	return args, p.expect(")")
}

func (p *parser) primaryExpr() Expr {
	t := p.tok()
	switch t.Kind {
	case token.IntLit, token.FloatLit:
		p.i++
		return p.literal(t)
	case token.String:
		p.i++
		return &StringLit{Pos: t.Pos, Value: unquote(t.Text)}
	case token.Punct:
		if t.Text == "(" {
			p.i++
			saved := p.noGT
			p.noGT = 0
			x := p.expr()
			p.noGT = saved
			if x == nil || !p.expect(")") {
				return nil
			}
			return x
		}
	case token.Ident:
		switch {
		case t.Text == "true" || t.Text == "false":
			p.i++
			return &Lit{Pos: t.Pos, Kind: LitBool, Text: t.Text, Bool: t.Text == "true"}
		case p.isTypeName(t) || t.Is("struct"):
			ts := p.typeSpec(nil)
			if ts == nil {
				return nil
			}
			if !p.tok().Is("(") {
				p.errorf(p.tok(), "syntax error, unexpected %s, expecting '('", tokenName(p.tok()))
				return nil
			}
			args, ok := p.args()
			if !ok {
				return nil
			}
			return &Call{Pos: t.Pos, Func: ts.Name, Type: ts, Args: args}
		case reservedWords[t.Text]:
			p.i++
			p.errorf(t, "Reserved word.")
			return nil
		case qualifierWords[t.Text] || isStatementKeyword(t.Text):
		default:
			p.i++
			if p.tok().Is("(") {
				args, ok := p.args()
				if !ok {
					return nil
				}
				return &Call{Pos: t.Pos, Func: t.Text, Args: args}
			}
			return &Ident{Pos: t.Pos, Name: t.Text}
		}
	}
	if t.Kind == token.EOF {
		p.errorf(t, "syntax error, unexpected end of file")
	} else {
		p.errorf(t, "syntax error, unexpected %s", tokenName(t))
	}
	return nil
}

func unquote(s string) string {
	if v, err := strconv.Unquote(s); err == nil {
		return v
	}
	return strings.Trim(s, "\"")
}

// literal converts a numeric token, checking its suffix and range.
func (p *parser) literal(t token.Token) Expr {
	l := &Lit{Pos: t.Pos, Text: t.Text}
	text := t.Text
	lower := strings.ToLower(text)
	if t.Kind == token.FloatLit {
		for _, sfx := range []string{"fe2m1", "fe2m3", "fe3m2", "fe4m3", "fe5m2", "bf16"} {
			if strings.HasSuffix(lower, sfx) {
				l.Suffix, text, lower = sfx, text[:len(text)-len(sfx)], lower[:len(lower)-len(sfx)]
				break
			}
		}
		switch {
		case l.Suffix != "":
			l.Kind = LitFloat
		case strings.HasSuffix(lower, "lf"):
			l.Kind, text, l.Suffix = LitDouble, text[:len(text)-2], "lf"
		case strings.HasSuffix(lower, "hf"):
			l.Kind, text, l.Suffix = LitFloat16, text[:len(text)-2], "hf"
		case strings.HasSuffix(lower, "f"):
			l.Kind, text, l.Suffix = LitFloat, text[:len(text)-1], "f"
		default:
			l.Kind = LitFloat
		}
		bits := 64
		if l.Kind == LitFloat {
			bits = 32
		}
		v, err := strconv.ParseFloat(text, bits)
		if err != nil && !isRangeErr(err) || strings.ContainsAny(text, "xXuUlLsShH") {
			p.errorf(t, "bad floating-point literal")
			return l
		}
		if !strings.ContainsAny(text, ".eE") {
			p.errorf(t, "floating-point suffix on an integer literal")
		}
		l.Float = v
		if math.IsInf(v, 0) {
			p.errorf(t, "float literal out of range")
		}
		return l
	}
	hex := strings.HasPrefix(lower, "0x")
	suffix := ""
	for len(lower) > 0 {
		c := lower[len(lower)-1]
		if c == 'u' || c == 'l' || c == 's' {
			suffix = string(c) + suffix
			lower = lower[:len(lower)-1]
			continue
		}
		break
	}
	digits := text[:len(lower)]
	l.Suffix = suffix
	max := uint64(math.MaxUint32)
	switch suffix {
	case "":
		l.Kind = LitInt
	case "u":
		l.Kind = LitUint
	case "l":
		l.Kind, max = LitInt64, math.MaxUint64
	case "ul", "lu":
		l.Kind, max = LitUint64, math.MaxUint64
	case "s":
		l.Kind, max = LitInt16, math.MaxUint16
	case "us":
		l.Kind, max = LitUint16, math.MaxUint16
	default:
		p.errorf(t, "invalid integer literal suffix")
		return l
	}
	base := 10
	switch {
	case hex:
		base, digits = 16, digits[2:]
	case len(digits) > 1 && digits[0] == '0':
		base, digits = 8, digits[1:]
	}
	if digits == "" {
		p.errorf(t, "bad integer literal")
		return l
	}
	v, err := strconv.ParseUint(digits, base, 64)
	if err != nil && !isRangeErr(err) {
		if base == 8 {
			p.errorf(t, "octal literal digit too large")
		} else {
			p.errorf(t, "bad integer literal")
		}
		return l
	}
	if err != nil || v > max {
		switch l.Kind {
		case LitInt16, LitUint16:
			p.errorf(t, "16-bit integer literal too big")
		case LitInt64, LitUint64:
			p.errorf(t, "64-bit integer literal too big")
		default:
			p.errorf(t, "integer literal too big")
		}
		return l
	}
	l.Int = v
	return l
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}
