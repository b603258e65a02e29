package check

import (
	"github.com/coopshader/coop/glsl/syntax"
	"github.com/coopshader/coop/internal/lazy"
)

var binaryOps = lazy.Value[map[string]BinaryOp]{F: func() map[string]BinaryOp {
	return map[string]BinaryOp{
		"+": Add, "-": Sub, "*": Mul, "/": Div, "%": Mod, "<<": Shl, ">>": Shr,
		"&": BitAnd, "|": BitOr, "^": BitXor, "&&": LogAnd, "||": LogOr, "^^": LogXor,
		"==": Eq, "!=": Ne, "<": Lt, ">": Gt, "<=": Le, ">=": Ge,
	}
}}

// expr checks an expression and returns its typed tree (bad(pos) after an
// error, which later rules accept silently).
func (c *checker) expr(e syntax.Expr) Expr {
	switch e := e.(type) {
	case *syntax.Ident:
		return c.ident(e.Name, e.Pos)
	case *syntax.Lit:
		return c.literal(e)
	case *syntax.StringLit:
		c.errorf(e.Pos, "\""+e.Value+"\"", "string literals are only allowed as the format of debugPrintfEXT and abortEXT")
		return bad(e.Pos)
	case *syntax.Unary:
		x := c.expr(e.X)
		switch e.Op {
		case "-":
			return c.unary(Neg, x, e.Pos, e.Op)
		case "!":
			return c.unary(Not, x, e.Pos, e.Op)
		case "~":
			return c.unary(BitNot, x, e.Pos, e.Op)
		case "+":
			if !isErr(x) && !((x.Type().IsNumeric() || x.Type().IsCoop()) && arithScalar(x.Type().Scalar)) {
				c.errorf(e.Pos, "+", " wrong operand type no operation '+' exists that takes an operand of type %s (or there is no acceptable conversion)", c.typeDesc(x))
				return bad(e.Pos)
			}
			return x
		case "++", "--":
			op := PreInc
			switch {
			case e.Op == "++" && e.Postfix:
				op = PostInc
			case e.Op == "--" && e.Postfix:
				op = PostDec
			case e.Op == "--":
				op = PreDec
			}
			return c.incDec(op, x, e.Pos, e.Op)
		}
		c.errorf(e.Pos, e.Op, "unknown unary operator")
		return bad(e.Pos)
	case *syntax.Binary:
		if e.Op == "," {
			return c.sequence(e)
		}
		x, y := c.expr(e.X), c.expr(e.Y)
		op, ok := binaryOps.Get()[e.Op]
		if !ok {
			c.errorf(e.Pos, e.Op, "unknown binary operator")
			return bad(e.Pos)
		}
		return c.binary(op, x, y, e.Pos)
	case *syntax.Assign:
		l, r := c.expr(e.L), c.expr(e.R)
		var op BinaryOp
		if e.Op != "=" {
			var ok bool
			if op, ok = binaryOps.Get()[e.Op[:len(e.Op)-1]]; !ok || op >= LogAnd {
				c.errorf(e.Pos, e.Op, "unknown assignment operator")
				return bad(e.Pos)
			}
		}
		return c.assign(op, l, r, e.Pos, e.Op)
	case *syntax.Cond:
		return c.cond(c.expr(e.C), c.expr(e.T), c.expr(e.F), e.Pos)
	case *syntax.Call:
		return c.callExpr(e)
	case *syntax.MethodCall:
		return c.method(e)
	case *syntax.Index:
		return c.index(c.expr(e.X), c.expr(e.Index), e.Pos)
	case *syntax.Field:
		return c.selector(c.expr(e.X), e.Name, e.Pos)
	case *syntax.InitList:
		c.errorf(e.Pos, "{", "initializer lists are only allowed in declarations")
		return bad(e.Pos)
	}
	return bad(e.Position())
}

// sequence flattens a chain of comma operators.
func (c *checker) sequence(e *syntax.Binary) Expr {
	var list []Expr
	var walk func(x syntax.Expr)
	walk = func(x syntax.Expr) {
		if b, ok := x.(*syntax.Binary); ok && b.Op == "," {
			walk(b.X)
			walk(b.Y)
			return
		}
		list = append(list, c.expr(x))
	}
	walk(e)
	for _, x := range list {
		if isErr(x) {
			return bad(e.Pos)
		}
	}
	last := list[len(list)-1]
	return &Sequence{exprBase: exprBase{T: last.Type(), Pos: e.Pos}, List: list}
}

// literal types a literal by its spelling; the sized-integer and half
// suffixes need their arithmetic extensions.
// narrowSuffixes are the float literal suffixes of the narrow float types
// and the extensions that enable them.
type narrowSuffix struct {
	s   Scalar
	ext []string
}

var narrowSuffixes = lazy.Value[map[string]narrowSuffix]{F: func() map[string]narrowSuffix {
	return map[string]narrowSuffix{
		"bf16":    {BFloat16, extBF16},
		"fe5m2":   {E5M2, []string{"GL_EXT_float_e5m2"}},
		"fe4m3":   {E4M3, []string{"GL_EXT_float_e4m3"}},
		"fe2m1":   {E2M1, extE2M1},
		"fe2m3":   {E2M3, extE2M3},
		"fe3m2":   {E3M2, extE3M2},
		"fmxint8": {MXInt8, extMXInt8},
		"fue8m0":  {UE8M0, extUE8M0},
	}
}}

func (c *checker) literal(l *syntax.Lit) Expr {
	var v *Value
	switch l.Kind {
	case syntax.LitInt:
		v = IntConst(Int32, int64(l.Int))
	case syntax.LitUint:
		v = IntConst(Uint32, int64(l.Int))
	case syntax.LitInt64, syntax.LitUint64:
		if !c.requireExt(l.Pos, l.Text, extInt64Arith...) {
			return bad(l.Pos)
		}
		s := Int64
		if l.Kind == syntax.LitUint64 {
			s = Uint64
		}
		v = &Value{Type: ScalarType(s), Bits: l.Int}
	case syntax.LitInt16, syntax.LitUint16:
		if !c.requireExt(l.Pos, l.Text, extInt16Arith...) {
			return bad(l.Pos)
		}
		s := Int16
		if l.Kind == syntax.LitUint16 {
			s = Uint16
		}
		v = IntConst(s, int64(l.Int))
	case syntax.LitFloat:
		if sfx, ok := narrowSuffixes.Get()[l.Suffix]; ok {
			if !c.requireExt(l.Pos, l.Text, sfx.ext...) {
				return bad(l.Pos)
			}
			v = FloatConst(sfx.s, l.Float)
			break
		}
		v = FloatConst(Float32, l.Float)
	case syntax.LitDouble:
		v = FloatConst(Float64, l.Float)
	case syntax.LitFloat16:
		if !c.requireExt(l.Pos, l.Text, extF16Arith...) {
			return bad(l.Pos)
		}
		v = FloatConst(Float16, l.Float)
	case syntax.LitBool:
		v = BoolConst(l.Bool)
	default:
		return bad(l.Pos)
	}
	return newConst(v, l.Pos)
}

var (
	extInt64Arith = []string{"GL_EXT_shader_explicit_arithmetic_types", "GL_EXT_shader_explicit_arithmetic_types_int64", "GL_ARB_gpu_shader_int64"}
	extInt16Arith = []string{"GL_EXT_shader_explicit_arithmetic_types", "GL_EXT_shader_explicit_arithmetic_types_int16", "GL_AMD_gpu_shader_int16"}
	extF16Arith   = []string{"GL_EXT_shader_explicit_arithmetic_types", "GL_EXT_shader_explicit_arithmetic_types_float16", "GL_AMD_gpu_shader_half_float"}
)

// callExpr checks a call of a function or a constructor.
func (c *checker) callExpr(e *syntax.Call) Expr {
	var t *Type
	if e.Type != nil {
		t = c.typeOf(e.Type, "")
	} else if sym := c.lookup(e.Func); sym != nil && sym.typ != nil {
		t = sym.typ
	} else if _, ok := typeNames[e.Func]; ok {
		t = c.namedType(e.Func, e.Pos)
		if t == nil {
			t = tError
		}
	}
	args := make([]Expr, len(e.Args))
	for i, a := range e.Args {
		if s, ok := a.(*syntax.StringLit); ok && i == 0 && t == nil && c.takesString(e.Func) {
			args[i] = &StringConst{exprBase: exprBase{T: TString, Pos: s.Pos}, Text: s.Value}
			continue
		}
		args[i] = c.expr(a)
	}
	if t != nil {
		if t == tError {
			return bad(e.Pos)
		}
		if t.Kind == KVoid {
			c.errorf(e.Pos, "void", "cannot construct a void")
			return bad(e.Pos)
		}
		return c.construct(t, args, e.Pos)
	}
	r := c.call(e.Func, args, e.Pos)
	if call, ok := r.(*Call); ok {
		c.addCall(call.Func, e.Pos)
	}
	if bc, ok := r.(*BuiltinCall); ok {
		for _, a := range bc.Args {
			if f, ok := a.(*FuncRef); ok {
				c.addCall(f.Func, e.Pos)
			}
		}
	}
	return r
}

// addCall records an edge of the call graph.
func (c *checker) addCall(f *Func, pos Pos) {
	if _, ok := c.callPos[f]; !ok {
		c.callPos[f] = pos
	}
	if c.fn == nil {
		return
	}
	for _, g := range c.calls[c.fn] {
		if g == f {
			return
		}
	}
	c.calls[c.fn] = append(c.calls[c.fn], f)
}

// method checks x.name(args); only length() exists.
func (c *checker) method(e *syntax.MethodCall) Expr {
	x := c.expr(e.X)
	if isErr(x) {
		return x
	}
	// length64() of GL_EXT_shader_64bit_indexing is length() typed int64_t.
	lt := TInt
	switch e.Name {
	case "length":
	case "length64":
		if !c.requireExt(e.Pos, e.Name, "GL_EXT_shader_64bit_indexing") {
			return bad(e.Pos)
		}
		lt = TInt64
	default:
		c.errorf(e.Pos, e.Name, "unknown method")
		return bad(e.Pos)
	}
	if len(e.Args) > 0 {
		c.errorf(e.Pos, "length", "method does not accept any arguments")
		return bad(e.Pos)
	}
	t := x.Type()
	n := -1
	var spec Expr
	switch t.Kind {
	case KArray:
		switch {
		case t.SpecLen != nil:
			spec = t.SpecLen
		case t.N == 0:
			return &Length{exprBase: exprBase{T: lt, Pos: e.Pos}, X: x}
		default:
			n = t.N
		}
	case KVector:
		if t.SpecLen != nil {
			spec = t.SpecLen
		} else {
			n = t.N
		}
	case KMatrix:
		n = t.N
	case KCoopMat, KCoopMatNV:
		return &Length{exprBase: exprBase{T: lt, Pos: e.Pos}, X: x}
	case KCoopVec:
		if t.Params[0].Spec != nil {
			spec = t.Params[0].Spec
		} else {
			n = int(t.Params[0].Val)
		}
	default:
		c.errorf(e.Pos, "length", "can only be applied to an array, vector, matrix or cooperative type")
		return bad(e.Pos)
	}
	if spec != nil {
		return c.convert(spec, lt)
	}
	return newConst(IntConst(lt.Scalar, int64(n)), e.Pos)
}

// selector checks x.name: a member of a struct, block or buffer
// reference, or a swizzle of a scalar or vector.
func (c *checker) selector(x Expr, name string, pos Pos) Expr {
	if isErr(x) {
		return x
	}
	t := x.Type()
	switch t.Kind {
	case KStruct, KReference:
		if t.Kind == KReference && len(t.Struct.Fields) == 0 {
			c.errorf(pos, name, "buffer reference type is only forward declared")
			return bad(pos)
		}
		return c.field(x, name, pos)
	case KScalar, KVector:
		return c.swizzle(x, name, pos)
	case KCoopMat, KCoopMatNV:
		c.errorf(pos, ".", "cannot apply to a cooperative matrix type: %s", name)
		return bad(pos)
	}
	c.errorf(pos, name, " field selection requires structure, vector, or matrix on left hand side")
	return bad(pos)
}
