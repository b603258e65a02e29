package syntax

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/coopshader/coop/internal/lazy"

	"github.com/coopshader/coop/glsl/token"
)

// binaryPrec is the precedence of a binary operator (higher binds
// tighter), 0 for anything else.
func binaryPrec(op string) int {
	switch op {
	case "||":
		return 1
	case "^^":
		return 2
	case "&&":
		return 3
	case "|":
		return 4
	case "^":
		return 5
	case "&":
		return 6
	case "==", "!=":
		return 7
	case "<", ">", "<=", ">=":
		return 8
	case "<<", ">>":
		return 9
	case "+", "-":
		return 10
	case "*", "/", "%":
		return 11
	}
	return 0
}

func isAssignOp(op string) bool {
	switch op {
	case "=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^=":
		return true
	}
	return false
}

// expr parses a full expression, comma operator included.
func (p *parser) expr() Expr {
	x := p.assignExpr()
	for x != nil && p.noGT == 0 && p.is(",") {
		t := p.next()
		y := p.assignExpr()
		if y == nil {
			return nil
		}
		b := p.binaries.alloc()
		*b = Binary{Pos: t.Pos, Op: ",", X: x, Y: y}
		x = b
	}
	return x
}

// assignExpr parses an assignment expression. As in the grammar, only a
// unary expression may be assigned to: "a + b = c" is a syntax error.
func (p *parser) assignExpr() Expr {
	p.enter()
	defer p.leave()
	x := p.unaryExpr()
	if x == nil {
		return nil
	}
	if t := p.tok(); t.Kind == token.Punct && isAssignOp(t.Text) {
		p.i++
		r := p.assignExpr()
		if r == nil {
			return nil
		}
		a := p.assigns.alloc()
		*a = Assign{Pos: t.Pos, Op: t.Text, L: x, R: r}
		return a
	}
	return p.condRest(p.binaryRest(x, 1))
}

// condExpr parses a conditional expression (a constant-expression in the
// grammar: array sizes, layout values, type parameters).
func (p *parser) condExpr() Expr {
	p.enter()
	defer p.leave()
	x := p.unaryExpr()
	if x == nil {
		return nil
	}
	return p.condRest(p.binaryRest(x, 1))
}

// condRest parses "? expr : assignment-expr" after the condition c.
func (p *parser) condRest(c Expr) Expr {
	if c == nil || !p.is("?") {
		return c
	}
	t := p.next()
	saved := p.noGT
	p.noGT = 0
	x := p.expr()
	p.noGT = saved
	if x == nil {
		return nil
	}
	if !p.expect(":") {
		return nil
	}
	y := p.assignExpr()
	if y == nil {
		return nil
	}
	return &Cond{Pos: t.Pos, C: c, T: x, F: y}
}

// binaryRest parses binary operators of precedence minPrec or more after
// the left operand x, by precedence climbing (all left-associative).
func (p *parser) binaryRest(x Expr, minPrec int) Expr {
	for x != nil {
		t := p.tok()
		if t.Kind != token.Punct {
			return x
		}
		prec := binaryPrec(t.Text)
		if prec < minPrec || prec == 0 || p.noGT > 0 && (t.Text == ">" || t.Text == ">>") {
			return x
		}
		p.i++
		y := p.unaryExpr()
		if y == nil {
			return nil
		}
		y = p.binaryRest(y, prec+1)
		if y == nil {
			return nil
		}
		b := p.binaries.alloc()
		*b = Binary{Pos: t.Pos, Op: t.Text, X: x, Y: y}
		x = b
	}
	return x
}

func (p *parser) unaryExpr() Expr {
	t := p.tok()
	if t.Kind == token.Punct {
		switch t.Text {
		case "++", "--", "+", "-", "!", "~":
			p.i++
			p.enter()
			x := p.unaryExpr()
			p.leave()
			if x == nil {
				return nil
			}
			u := p.unaries.alloc()
			*u = Unary{Pos: t.Pos, Op: t.Text, X: x}
			return u
		}
	}
	return p.postfixExpr(p.primaryExpr())
}

func (p *parser) postfixExpr(x Expr) Expr {
	for x != nil {
		t := p.tok()
		if t.Kind != token.Punct {
			return x
		}
		switch t.Text {
		case "[":
			p.i++
			saved := p.noGT
			p.noGT = 0
			idx := p.expr()
			p.noGT = saved
			if idx == nil || !p.expect("]") {
				return nil
			}
			ix := p.indexes.alloc()
			*ix = Index{Pos: t.Pos, X: x, Index: idx}
			x = ix
		case ".":
			p.i++
			id := p.tok()
			if id.Kind != token.Ident {
				p.syntaxError("FIELD_SELECTION")
				return nil
			}
			p.i++
			if p.is("(") {
				args, ok := p.args()
				if !ok {
					return nil
				}
				x = &MethodCall{Pos: id.Pos, X: x, Name: id.Text, Args: args}
			} else {
				f := p.fields.alloc()
				*f = Field{Pos: id.Pos, X: x, Name: id.Text}
				x = f
			}
		case "++", "--":
			p.i++
			u := p.unaries.alloc()
			*u = Unary{Pos: t.Pos, Op: t.Text, Postfix: true, X: x}
			x = u
		default:
			return x
		}
	}
	return x
}

// args parses a parenthesised argument list; "()" and "(void)" are no
// arguments.
func (p *parser) args() ([]Expr, bool) {
	p.i++ // '('
	saved := p.noGT
	p.noGT = 0
	defer func() { p.noGT = saved }()
	if p.isWord("void") && p.peek(1).Is(")") {
		p.i++
	}
	mark := len(p.exprs)
	if !p.is(")") {
		for {
			a := p.assignExpr()
			if a == nil {
				clear(p.exprs[mark:])
				p.exprs = p.exprs[:mark]
				return nil, false
			}
			p.exprs = append(p.exprs, a)
			if !p.got(",") {
				break
			}
		}
	}
	args := p.popExprs(mark)
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
		f := p.fl[p.i]
		switch {
		case f&kStmt != 0 && (t.Text == "true" || t.Text == "false"):
			p.i++
			return &Lit{Pos: t.Pos, Kind: LitBool, Text: t.Text, Bool: t.Text == "true"}
		case t.Text == "nonuniformEXT" && p.peek(1).Is("("):
			// The qualifier keyword is also a function marking a value
			// non-uniform (GL_EXT_nonuniform_qualifier).
			p.i++
			args, ok := p.args()
			if !ok {
				return nil
			}
			c := p.calls.alloc()
			*c = Call{Pos: t.Pos, Func: t.Text, Args: args}
			return c
		case p.isTypeAt(0) && !(f&kGated != 0 && !p.peek(1).Is("(") && !p.peek(1).Is("<") && !p.peek(1).Is("[")):
			ts := p.typeSpec(nil)
			if ts == nil {
				return nil
			}
			return p.ctorCall(ts, t.Pos)
		case p.isName(0):
			p.i++
			if f&kReserved != 0 {
				p.errorf(t, "Reserved word.")
			}
			if p.is("(") {
				args, ok := p.args()
				if !ok {
					return nil
				}
				c := p.calls.alloc()
				*c = Call{Pos: t.Pos, Func: t.Text, Args: args}
				return c
			}
			id := p.idents.alloc()
			*id = Ident{Pos: t.Pos, Name: t.Text}
			return id
		}
	}
	p.syntaxError("")
	return nil
}

// ctorCall parses the arguments of a constructor of type ts.
func (p *parser) ctorCall(ts *TypeSpec, pos Pos) Expr {
	if !p.is("(") {
		p.syntaxError("LEFT_PAREN")
		return nil
	}
	args, ok := p.args()
	if !ok {
		return nil
	}
	c := p.calls.alloc()
	*c = Call{Pos: pos, Func: ts.Name, Type: ts, Args: args}
	return c
}

// unquote resolves a string literal's escapes.
func unquote(s string) string {
	if v, err := strconv.Unquote(s); err == nil {
		return v
	}
	return strings.Trim(s, "\"")
}

// floatSuffixes are the float literal suffixes of the narrow float types
// (after lower-casing), checked before the one-letter ones.
var floatSuffixes = [...]string{"fue8m0", "fmxint8", "fe2m1", "fe2m3", "fe3m2", "fe4m3", "fe5m2", "bf16"}

// literal converts a numeric token, checking its suffix and range the way
// glslang's scanner does.
func (p *parser) literal(t token.Token) Expr {
	l := p.lits.alloc()
	*l = Lit{Pos: t.Pos, Text: t.Text}
	if t.Kind == token.FloatLit {
		p.floatLit(l)
	} else {
		p.intLit(l)
	}
	return l
}

func (p *parser) floatLit(l *Lit) {
	text := l.Text
	lower := func(n int) string { return strings.ToLower(text[len(text)-n:]) }
	l.Kind = LitFloat
	for _, sfx := range floatSuffixes {
		if len(text) > len(sfx) && lower(len(sfx)) == sfx {
			l.Suffix, text = sfx, text[:len(text)-len(sfx)]
			break
		}
	}
	if l.Suffix == "" && len(text) > 2 {
		switch lower(2) {
		case "lf":
			l.Kind, l.Suffix, text = LitDouble, "lf", text[:len(text)-2]
		case "hf":
			l.Kind, l.Suffix, text = LitFloat16, "hf", text[:len(text)-2]
		}
	}
	if l.Suffix == "" && len(text) > 1 && lower(1) == "f" {
		l.Suffix, text = "f", text[:len(text)-1]
	}
	dot, exp := false, false
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '.' && !dot && !exp:
			dot = true
		case (c == 'e' || c == 'E') && !exp:
			exp = true
			if i+1 < len(text) && (text[i+1] == '+' || text[i+1] == '-') {
				i++
			}
			if i+1 >= len(text) || text[i+1] < '0' || text[i+1] > '9' {
				p.errorf(token.Token{Pos: l.Pos}, "bad character in float exponent")
				return
			}
		case c >= '0' && c <= '9':
		default:
			p.errorf(token.Token{Pos: l.Pos, Text: l.Text}, "bad floating-point literal")
			return
		}
	}
	if !dot && !exp {
		p.errorf(token.Token{Pos: l.Pos}, "float literal needs a decimal point or exponent")
		return
	}
	// Rounded once from the decimal text to the literal's type, except
	// that float literals keep double precision as in glslang, which folds
	// float constants in double and rounds them where it writes them. Out
	// of range gives ±Inf, which glslang accepts silently.
	var v float64
	if f, ok := narrowFormats.Get()[l.Suffix]; ok {
		v = roundDecimal(text, f.sig, f.emin)
	} else {
		var err error
		if v, err = strconv.ParseFloat(text, 64); err != nil && !isRangeErr(err) {
			p.errorf(token.Token{Pos: l.Pos, Text: l.Text}, "bad floating-point literal")
			return
		}
	}
	if math.IsInf(v, 0) || l.Kind == LitFloat && math.IsInf(float64(float32(v)), 0) {
		p.d.Warnf(l.Pos, l.Text, "float literal out of range, taken as infinity")
	}
	l.Float = v
}

func (p *parser) intLit(l *Lit) {
	text := l.Text
	// The suffix: u, l, s, ul, us (either case), as glslang reads them;
	// "lu" is accepted too.
	end := len(text)
	for end > 0 {
		c := text[end-1] | 0x20
		if c != 'u' && c != 'l' && c != 's' {
			break
		}
		end--
	}
	digits := text[:end]
	hex := len(digits) >= 2 && digits[0] == '0' && digits[1]|0x20 == 'x'
	l.Suffix = strings.ToLower(text[end:])
	max := uint64(math.MaxUint32)
	switch l.Suffix {
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
		p.errorf(token.Token{Pos: l.Pos, Text: l.Text}, "syntax error, bad numeric literal")
		return
	}
	base, kind := 10, "numeric"
	switch {
	case hex:
		base, kind, digits = 16, "hexadecimal", digits[2:]
		if max == math.MaxUint16 {
			// glslang checks 16-bit hex and octal literals only against
			// 32 bits and keeps the low 16.
			max = math.MaxUint32
		}
	case len(digits) > 1 && digits[0] == '0':
		base, kind, digits = 8, "octal", digits[1:]
		if max == math.MaxUint16 {
			max = math.MaxUint32
		}
	}
	if digits == "" {
		p.errorf(token.Token{Pos: l.Pos}, "bad digit in hexadecimal literal")
		return
	}
	v, err := strconv.ParseUint(digits, base, 64)
	if err != nil && !isRangeErr(err) {
		switch {
		case base == 8 && strings.Trim(digits, "0123456789") == "":
			p.errorf(token.Token{Pos: l.Pos}, "octal literal digit too large")
		case base == 16:
			p.errorf(token.Token{Pos: l.Pos}, "bad digit in hexadecimal literal")
		default:
			p.errorf(token.Token{Pos: l.Pos, Text: l.Text}, "syntax error, bad numeric literal")
		}
		return
	}
	if err != nil || v > max {
		p.errorf(token.Token{Pos: l.Pos}, "%s literal too big", kind)
		return
	}
	if l.Kind == LitInt16 || l.Kind == LitUint16 {
		v &= math.MaxUint16
	}
	l.Int = v
}

// narrowFormats gives the significand bits (implicit bit included) and
// least normal exponent of the float types narrower than 32 bits, by
// literal suffix.
var narrowFormats = lazy.Value[map[string]struct{ sig, emin int }]{F: func() map[string]struct{ sig, emin int } {
	return map[string]struct{ sig, emin int }{
		"hf": {11, -14}, "bf16": {8, -126}, "fe5m2": {3, -14}, "fe4m3": {4, -6},
		"fe2m1": {2, 0}, "fe2m3": {4, 0}, "fe3m2": {3, -2},
		// MXINT8's multiples of 2^-6 below 2 (larger values saturate later).
		"fmxint8": {7, 0},
		// E8M0 constants are rounded to float32 first (as glslang parses
		// them), then toward zero by the checker.
		"fue8m0": {24, -126},
	}
}}

// roundDecimal rounds a decimal float literal (already checked) once,
// to nearest even, to a binary format with sig significand bits and least
// normal exponent emin, subnormals included. The exponent range is not
// capped: a value past the format's largest is left for the checker.
func roundDecimal(text string, sig, emin int) float64 {
	f, _, err := big.ParseFloat(text, 10, 512, big.ToNearestEven)
	if err != nil || f.Sign() == 0 || f.IsInf() {
		v, _ := f.Float64()
		return v
	}
	e := f.MantExp(nil) - 1 // f = 1.m × 2^e
	prec := sig
	if e < emin {
		prec -= emin - e
	}
	if prec <= 0 {
		// Below the least subnormal q = 2^(emin-sig+1): f rounds to q
		// when over q/2, else to 0 (0 is even on a tie).
		q := new(big.Float).SetMantExp(big.NewFloat(1), emin-sig+1)
		half := new(big.Float).SetMantExp(big.NewFloat(1), emin-sig)
		v := 0.0
		if prec == 0 && new(big.Float).Abs(f).Cmp(half) > 0 {
			v, _ = q.Float64()
		}
		return math.Copysign(v, float64(f.Sign()))
	}
	v, _ := new(big.Float).SetMode(big.ToNearestEven).SetPrec(uint(prec)).Set(f).Float64()
	return v
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}
