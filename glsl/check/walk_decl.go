package check

import (
	"cmp"
	"strings"

	"github.com/coopshader/coop/internal/lazy"

	"github.com/coopshader/coop/glsl/syntax"
)

// file checks every top-level declaration in order.
func (c *checker) file(f *syntax.File) {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *syntax.VarDecl:
			c.varDecl(d, true)
		case *syntax.BlockDecl:
			c.blockDecl(d)
		case *syntax.QualDecl:
			c.qualDecl(d)
		case *syntax.PrecisionDecl:
			c.typeOf(d.Type, "")
		case *syntax.FuncDecl:
			c.funcDecl(d)
		}
	}
}

// storageWords are the storage qualifiers a declaration may carry (at most
// one, besides const with in for parameters).
var storageWords = lazy.Value[map[string]bool]{F: func() map[string]bool {
	return map[string]bool{
		"const": true, "uniform": true, "buffer": true, "shared": true, "in": true, "out": true, "inout": true,
		"attribute": true, "varying": true, "resourceheap": true, "samplerheap": true,
	}
}}

// quals gathers a qualifier list. Layout values are checked as constant
// expressions here; the rules that give them meaning run later.
func (c *checker) quals(qs []*syntax.Qualifier) quals {
	var q quals
	for _, x := range qs {
		if q.pos.Line == 0 {
			q.pos = x.Pos
		}
		switch {
		case x.Name == "layout":
			for _, it := range x.Layout {
				li := layoutItem{name: it.Name, pos: it.Pos}
				if it.Value != nil {
					li.val = c.expr(it.Value)
				}
				q.layout = append(q.layout, li)
			}
		case storageWords.Get()[x.Name]:
			switch {
			case q.storage == "":
				q.storage = x.Name
			case q.storage == "const" && x.Name == "in", q.storage == "in" && x.Name == "const":
				q.storage, q.constIn = "in", true
			default:
				c.errorf(x.Pos, x.Name, "too many storage qualifiers")
			}
		case memoryNames.Get()[x.Name] != 0:
			q.memory |= memoryNames.Get()[x.Name]
			if memoryNames.Get()[x.Name] >= DeviceCoherent {
				c.requireExt(x.Pos, x.Name, "GL_KHR_memory_scope_semantics")
			}
		case x.Name == "precise":
			q.precise = true
		case x.Name == "invariant":
			q.invariant = true
		case x.Name == "nonuniformEXT":
			q.nonUniform = c.requireExt(x.Pos, x.Name, "GL_EXT_nonuniform_qualifier")
		case isIntrinsicQual(x.Name):
			q.spirv = append(q.spirv, x)
		case x.Name == "spirv_by_reference":
			q.byRef = true
		case x.Name == "spirv_literal":
			q.literal = true
		}
	}
	return q
}

// arraySizes checks the size expressions of [] dimensions (nil entries are
// unsized).
func (c *checker) arraySizes(as []*syntax.ArraySize) []Expr {
	if len(as) == 0 {
		return nil
	}
	out := make([]Expr, len(as))
	for i, a := range as {
		if a.Size != nil {
			out[i] = c.expr(a.Size)
		}
	}
	return out
}

// paramKeywords are the type keywords that take <...> parameters.
var paramKeywords = lazy.Value[map[string]bool]{F: func() map[string]bool {
	return map[string]bool{
		"coopmat": true, "fcoopmatNV": true, "icoopmatNV": true, "ucoopmatNV": true, "coopvecNV": true,
		"vector": true, "tensorLayoutNV": true, "tensorViewNV": true, "tensorARM": true,
	}
}}

// typeOf resolves a written type (with its array dimensions). declName is
// the declared name glslang quotes in some messages. It returns tError
// after reporting a problem.
func (c *checker) typeOf(ts *syntax.TypeSpec, declName string) *Type {
	if ts == nil {
		return tError
	}
	var t *Type
	switch {
	case ts.Struct != nil:
		t = c.structType(ts.Struct)
	case ts.Block != nil:
		t = c.inlineBlock(ts.Block)
	case ts.Spirv != nil:
		if t = c.spirvType(ts); t == nil {
			return tError
		}
	case paramKeywords.Get()[ts.Name]:
		args := make([]typeArg, len(ts.Params))
		for i, p := range ts.Params {
			args[i].pos = ts.Pos
			if p.Type != nil {
				args[i].t = c.typeOf(p.Type, "")
			} else if p.Expr != nil {
				args[i].e = c.expr(p.Expr)
				args[i].pos = p.Expr.Position()
			}
		}
		t = c.paramType(ts.Name, args, len(ts.Params) > 0, declName, ts.Pos)
		if t == nil {
			return tError
		}
	default:
		t = c.namedType(ts.Name, ts.Pos)
		if t == nil {
			return tError
		}
		if len(ts.Params) > 0 {
			c.errorf(ts.Pos, declName, "unexpected type parameters")
			return tError
		}
	}
	if len(ts.ArraySizes) > 0 {
		t = c.applyArrays(t, c.arraySizes(ts.ArraySizes), ts.Pos)
	}
	return t
}

// namedType resolves a type keyword or a user type name.
func (c *checker) namedType(name string, pos Pos) *Type {
	if t, ok := typeNames[name]; ok {
		if exts := typeNameExt[name]; exts != nil && !c.requireExt(pos, name, exts...) {
			return nil
		}
		return t
	}
	if t, ok := opaqueNames[name]; ok {
		if exts := opaqueExt(name); exts != nil && !c.requireExt(pos, name, exts...) {
			return nil
		}
		return t
	}
	if sym := c.lookup(name); sym != nil && sym.typ != nil {
		return sym.typ
	}
	if t, ok := c.refTypes[name]; ok {
		return t
	}
	c.errorf(pos, name, "undeclared type")
	return nil
}

// structType declares an inline struct definition.
func (c *checker) structType(st *syntax.StructType) *Type {
	return c.declareStruct(st.Name, c.members(st.Members), st.Pos)
}

// members resolves member declarations of a struct or block.
func (c *checker) members(ms []*syntax.Member) []blockMember {
	var out []blockMember
	for _, m := range ms {
		q := c.quals(m.Type.Quals)
		name := ""
		if len(m.Names) > 0 {
			name = m.Names[0].Name
		}
		t := c.typeOf(m.Type, name)
		for _, dn := range m.Names {
			mt := t
			if len(dn.ArraySizes) > 0 {
				mt = c.applyArrays(t, c.arraySizes(dn.ArraySizes), dn.Pos)
			}
			if dn.Init != nil {
				c.errorf(dn.Pos, dn.Name, "member initializers are not allowed")
			}
			out = append(out, blockMember{q: q, t: mt, name: dn.Name, pos: dn.Pos, inline: m.Type.Block != nil})
		}
	}
	return out
}

// varDecl checks a variable declaration; for locals it returns the
// statements that declare and initialize them.
func (c *checker) varDecl(d *syntax.VarDecl, global bool) []Stmt {
	q := c.quals(d.Type.Quals)
	name := ""
	if len(d.Names) > 0 {
		name = d.Names[0].Name
	}
	if len(q.layout) > 0 && !global {
		c.errorf(q.pos, "layout", "layout qualifiers are not allowed on local variables")
		q.layout = nil
	}
	base := c.typeOf(d.Type, name)
	var out []Stmt
	for _, dn := range d.Names {
		t := base
		if len(dn.ArraySizes) > 0 && t != tError {
			t = c.applyArrays(t, c.arraySizes(dn.ArraySizes), dn.Pos)
		}
		var init Expr
		if dn.Init != nil {
			init = c.initExpr(dn.Init, t)
		}
		if t == tError {
			// Declare the name anyway so later uses do not cascade.
			c.declare(dn.Name, dn.Pos, &symbol{v: &Var{Name: dn.Name, Type: tError, SpecID: -1, Layout: noLayout()}})
			continue
		}
		v, rest := c.declareVar(q, t, dn.Name, init, dn.Pos, global)
		if global {
			continue
		}
		switch {
		case v.Storage == StorageFunction:
			out = append(out, &DeclStmt{Var: v, Init: rest})
		case v.Storage == StorageConst && v.Init != nil:
			// Constants defined by spec-constant expressions are module
			// level in SPIR-V, wherever they are declared.
			c.prog.Globals = append(c.prog.Globals, v)
		}
	}
	return out
}

// initExpr checks an initializer for a variable of type t; braced lists
// build t's constructor.
func (c *checker) initExpr(e syntax.Expr, t *Type) Expr {
	il, ok := e.(*syntax.InitList)
	if !ok {
		return c.expr(e)
	}
	if t == tError {
		for _, x := range il.Elems {
			c.expr(x)
		}
		return bad(il.Pos)
	}
	if len(il.Elems) == 0 {
		if !c.extOn("GL_EXT_null_initializer") {
			c.errorf(il.Pos, "empty { } initializer", "not supported for this version or the enabled extensions")
			return bad(il.Pos)
		}
		if t.Contains(func(t *Type) bool { return t.IsOpaque() || t.IsUnsizedArray() }) {
			c.errorf(il.Pos, "{", "initializer list cannot initialize this type: %s", t)
			return bad(il.Pos)
		}
		return &NullInit{exprBase{T: t, Pos: il.Pos}}
	}
	var elemType func(i int) *Type
	n := -1
	switch t.Kind {
	case KArray:
		elemType = func(int) *Type { return t.Elem }
		if !t.IsUnsizedArray() && t.SpecLen == nil {
			n = t.N
		}
	case KStruct:
		elemType = func(i int) *Type {
			if i < len(t.Struct.Fields) {
				return t.Struct.Fields[i].Type
			}
			return tError
		}
		n = len(t.Struct.Fields)
	case KVector:
		elemType = func(int) *Type { return ScalarType(t.Scalar) }
		n = t.N
	case KMatrix:
		elemType = func(int) *Type { return t.Column() }
		n = t.N
	default:
		c.errorf(il.Pos, "{", "initializer list cannot initialize this type: %s", t)
		return bad(il.Pos)
	}
	if n >= 0 && len(il.Elems) != n {
		c.errorf(il.Pos, "{", "wrong number of initializer list elements")
		return bad(il.Pos)
	}
	args := make([]Expr, len(il.Elems))
	for i, x := range il.Elems {
		et := elemType(i)
		args[i] = c.initExpr(x, et)
		if isErr(args[i]) {
			return args[i]
		}
		args[i] = c.coerce(args[i], et, "{", x.Position())
		if isErr(args[i]) {
			return args[i]
		}
	}
	if t.Kind == KArray && t.IsUnsizedArray() {
		t = ArrayType(t.Elem, len(args))
	}
	return c.foldConstruct(t, args, il.Pos)
}

// blockDecl checks an interface block or buffer_reference block.
func (c *checker) blockDecl(d *syntax.BlockDecl) {
	q := c.quals(d.Quals)
	q.layout = append(append([]layoutItem(nil), c.blockDefaults[q.storage]...), q.layout...)
	if hasLayout(q.layout, "buffer_reference") {
		// Members may name the block itself (linked lists): make the
		// reference type known first.
		if c.lookup(d.BlockName) == nil {
			c.declare(d.BlockName, d.Pos, &symbol{typ: c.refType(d.BlockName)})
		}
	}
	members := c.members(d.Members)
	var sizes []Expr
	if len(d.ArraySizes) > 0 {
		sizes = c.arraySizes(d.ArraySizes)
	}
	c.declareBlock(q, d.BlockName, members, d.Instance, sizes, len(d.ArraySizes) > 0, d.Pos)
}

func hasLayout(items []layoutItem, name string) bool {
	for _, it := range items {
		if strings.EqualFold(it.name, name) {
			return true
		}
	}
	return false
}

// qualDecl checks default qualifiers, qualifiers added to declared names,
// and buffer_reference forward declarations.
func (c *checker) qualDecl(d *syntax.QualDecl) {
	q := c.quals(d.Quals)
	if len(d.Names) == 0 && q.storage == "" && len(q.spirv) > 0 {
		c.prog.SpirvExecutionModes = append(c.prog.SpirvExecutionModes, c.intrinsics(q, "spirv_execution_mode").execModes...)
		return
	}
	if len(d.Names) == 0 && hasLayout(q.layout, "primitive_culling") {
		c.primitiveCulling(q)
		return
	}
	if len(d.Names) == 0 {
		switch q.storage {
		case "in":
			c.declareLayoutIn(q)
		case "uniform", "buffer", "shared":
			li := c.parseLayout(q.layout)
			if li.hasLocalSize || li.constantID >= 0 || li.Binding >= 0 && q.storage != "uniform" {
				c.errorf(q.pos, q.storage, "qualifier not allowed in a default declaration")
			}
			c.blockDefaults[q.storage] = append(c.blockDefaults[q.storage], q.layout...)
		case "out":
			c.parseLayout(q.layout)
		default:
			c.errorf(d.Pos, q.storage, "qualifier declaration needs a storage qualifier")
		}
		return
	}
	if hasLayout(q.layout, "buffer_reference") {
		c.parseLayout(q.layout)
		for _, n := range d.Names {
			if c.lookup(n.Name) == nil {
				c.declare(n.Name, n.Pos, &symbol{typ: c.refType(n.Name)})
			}
		}
		return
	}
	for _, n := range d.Names {
		if n.Name == opacityMicromapName && c.lookup(n.Name) == nil {
			c.opacityMicromapSpec(q, n.Pos)
			continue
		}
		if c.lookup(n.Name) == nil {
			c.errorf(n.Pos, n.Name, "undeclared identifier")
		}
	}
}

// funcDecl declares a function and checks its body.
func (c *checker) funcDecl(d *syntax.FuncDecl) {
	rt := c.typeOf(d.Result, d.Name)
	rq := c.quals(d.Result.Quals)
	intrinsic := c.intrinsics(rq, "spirv_instruction").instruction
	if intrinsic != nil && d.Body != nil {
		c.errorf(d.Pos, d.Name, "a spirv_instruction function cannot have a body")
	}
	if rq.storage != "" && rq.storage != "const" {
		c.errorf(d.Pos, rq.storage, "qualifier not allowed on function return type")
	}
	if rt == tError {
		rt = TVoid
	}
	if rt.Contains(func(t *Type) bool { return t.IsUnsizedArray() }) {
		c.errorf(d.Pos, d.Name, "function return type cannot be an unsized array")
	}
	if rt.Contains((*Type).isResource) {
		c.errorf(d.Pos, "return", "sampler or image cannot be used as return type when generating SPIR-V")
	}
	params := make([]*Var, len(d.Params))
	for i, p := range d.Params {
		q := c.quals(p.Type.Quals)
		t := c.typeOf(p.Type, p.Name)
		if len(p.ArraySizes) > 0 && t != tError {
			t = c.applyArrays(t, c.arraySizes(p.ArraySizes), p.Pos)
		}
		if t.Kind == KVoid && t != tError {
			c.errorf(p.Pos, p.Name, "illegal use of type 'void'")
		}
		v := &Var{Name: p.Name, Type: t, Storage: StorageParam, Pos: p.Pos, Memory: q.memory, SpecID: -1, Layout: noLayout(), Precise: q.precise,
			ByReference: q.byRef, Literal: q.literal}
		c.intrinsics(q)
		if q.literal && intrinsic == nil {
			c.errorf(p.Pos, "spirv_literal", "only allowed on parameters of spirv_instruction functions")
		}
		switch q.storage {
		case "", "in":
			v.ConstParam = q.constIn
		case "const":
			v.ConstParam = true
		case "out":
			v.Dir = DirOut
		case "inout":
			v.Dir = DirInOut
		default:
			c.errorf(p.Pos, q.storage, "qualifier not allowed on function parameter")
		}
		if len(q.layout) > 0 {
			c.errorf(p.Pos, "layout", "qualifier not allowed on function parameter")
		}
		if t != tError {
			v.NonUniform = q.nonUniform
			c.checkResourceDecl(v, p.Pos)
		}
		params[i] = v
	}
	f := c.declareFunc(d.Name, rt, params, d.Body != nil && intrinsic == nil, d.Pos)
	if intrinsic != nil {
		f.Intrinsic = intrinsic
	}
	if d.Body == nil || intrinsic != nil {
		return
	}
	c.funcBody(f, d.Body, d.Pos)
}

// funcBody checks a definition's body (the definition is at pos). The
// body shares the parameters' scope, so a local may not redeclare a
// parameter. Like glslang, a non-void function needs a return statement
// with a value somewhere; paths that fall off the end return an undefined
// value (lowering's concern).
func (c *checker) funcBody(f *Func, body *syntax.BlockStmt, pos Pos) {
	saved := c.scope
	c.scope = &scope{parent: c.globalScope(), syms: map[string]*symbol{}}
	c.fn, c.loops, c.breaks, c.returnsValue = f, 0, 0, false
	for _, p := range f.Params {
		if p.Name != "" {
			c.declare(p.Name, p.Pos, &symbol{v: p})
		}
	}
	b := &Block{}
	for _, s := range body.Stmts {
		b.Stmts = append(b.Stmts, c.stmt(s)...)
	}
	f.Body, f.End = b, body.End
	if !f.Result.IsVoid() && !c.returnsValue {
		c.errorf(pos, "", "function does not return a value: %s", f.Name)
	}
	c.fn = nil
	c.scope = saved
	c.prog.Funcs = append(c.prog.Funcs, f)
}

func (c *checker) globalScope() *scope {
	s := c.scope
	for s.parent != nil {
		s = s.parent
	}
	return s
}

// checkSharedMix reports shared variables declared both inside and
// outside blocks (GL_EXT_shared_memory_block): SPIR-V's explicitly laid
// out workgroup memory takes all of them as blocks or none (glslang
// refuses the mix when linking).
func (c *checker) checkSharedMix() {
	var block, plain *Var
	for _, v := range c.prog.Globals {
		if v.Storage != StorageShared {
			continue
		}
		if bt := baseOfArrays(v.Type); bt.Kind == KStruct && bt.Struct.Block {
			block = cmp.Or(block, v)
		} else {
			plain = cmp.Or(plain, v)
		}
	}
	if block != nil && plain != nil {
		later := block
		if plain.Pos.Line > block.Pos.Line {
			later = plain
		}
		c.errorf(later.Pos, "shared", "cannot mix use of shared variables inside and outside blocks")
	}
}

// finish applies the whole-program rules: an entry point, a body for
// every called function, no recursion.
func (c *checker) finish() {
	if c.extOn(opacityMicromapExt) {
		c.prog.OpacityMicromap = c.builtinVar(BuiltinEnableOpacityMicromapEXT)
	}
	if c.prog.Main == nil || c.prog.Main.Body == nil {
		c.errorf(Pos{}, "", "Missing entry point: Each stage requires one entry point")
	}
	c.checkDerivativeGroup()
	if c.khrDerivatives && !c.khrDerivativeLayout {
		c.errorf(c.end, "GL_KHR_compute_shader_derivatives", "requires one of derivative_group_quadsKHR or derivative_group_linearKHR layout qualifiers")
	}
	c.checkSharedMix()
	for t, n := range c.implicitArrays {
		t.N = int(max(n, 0)) + 1
	}
	reported := map[*Func]bool{}
	for _, f := range c.prog.Funcs {
		for _, g := range c.calls[f] {
			if g.Body == nil && g.Intrinsic == nil && !reported[g] {
				c.errorf(c.callPos[g], g.Name, "No function definition (body) found")
				reported[g] = true
			}
		}
	}
	// Recursion: depth-first search for a back edge.
	state := map[*Func]int{} // 1 on the stack, 2 done
	var visit func(f *Func) bool
	visit = func(f *Func) bool {
		state[f] = 1
		for _, g := range c.calls[f] {
			switch state[g] {
			case 1:
				c.errorf(g.Pos, g.Name, "Recursion detected: %s calls %s", f.Name, g.Name)
				return true
			case 0:
				if visit(g) {
					return true
				}
			}
		}
		state[f] = 2
		return false
	}
	for _, f := range c.prog.Funcs {
		if state[f] == 0 && visit(f) {
			break
		}
	}
}

// checkDerivativeGroup applies the workgroup-size rules of compute
// derivatives (as glslang, only to sizes that are not specialization
// constants): quads need an even width and height, a linear group a
// multiple of four invocations.
func (c *checker) checkDerivativeGroup() {
	ls, spec := c.prog.LocalSize, c.prog.LocalSizeSpec
	switch c.prog.DerivativeGroup {
	case "derivative_group_quadskhr", "derivative_group_quadsnv":
		if spec[0] < 0 && ls[0]%2 != 0 || spec[1] < 0 && ls[1]%2 != 0 {
			c.errorf(c.derivativePos, "derivative_group_quads", "requires local_size_x and local_size_y to be multiple of two")
		}
	case "derivative_group_linearkhr", "derivative_group_linearnv":
		if spec == [3]int{-1, -1, -1} && ls[0]*ls[1]*ls[2]%4 != 0 {
			c.errorf(c.derivativePos, "derivative_group_linear", "requires total group size to be multiple of four")
		}
	}
}
