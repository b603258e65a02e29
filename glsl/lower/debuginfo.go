package lower

import (
	"strconv"

	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/spirv"
)

// NonSemantic.Shader.DebugInfo.100 (glslangValidator -gV, -gVS), written
// as glslang writes it: a DebugSource per file (with its text for -gVS) and
// one DebugCompilationUnit; a debug type for the type of each variable and
// function and a DebugTypePointer for each pointer type to one of them; a
// DebugFunction per function, DebugLocalVariable and DebugDeclare for its
// parameters and locals, DebugGlobalVariable for globals; in code, a
// DebugScope (the function, or the lexical block of braces, a for or while
// statement or a do-while loop) and a DebugLine (column 0) at the start of
// each block and wherever the scope or the line changes, where -g writes
// OpLine. Names stay; OpSource and OpLine are not written. Operands are all
// ids: numbers are 32-bit unsigned constants.

// Constants of the instruction set (its grammar's enumerations).
const (
	diFlagIsPublic     = 3 // FlagIsPublic: functions, members, composites
	diFlagIsLocal      = 4 // local variables and parameters
	diFlagIsDefinition = 8 // global variables
	diEncBoolean       = 2
	diEncFloat         = 3
	diEncSigned        = 4
	diEncUnsigned      = 6
	diTagStructure     = 1
	diLanguageGLSL     = 2
	diDWARFVersion     = 4
	diVersion          = 1 // DebugCompilationUnit's Version operand, as glslang writes it
)

// diState is the -gV state of one Lower call.
type diState struct {
	set, void uint32
	cu, expr  uint32
	sources   map[string]uint32        // DebugSource of each file
	strs      map[string]uint32        // OpString of each name
	types     map[string]uint32        // debug type of each check type (typeKey)
	structs   map[*check.Struct]uint32 // debug type of each struct; 0 while it is built
	vars      map[uint32]uint32        // variable id to its debug type, for DebugTypePointer
	none      uint32                   // DebugInfoNone, 0 until used
	funcs     map[*check.Func]uint32   // DebugFunction
	// scopes are the open scopes of the function being lowered: the
	// DebugFunction, then lexical blocks.
	scopes []uint32
	// shared is a loop body whose braces share the scope of their for or
	// while statement (GLSL's scope rule, which glslang follows).
	shared *check.Block
	// v101 is set when an instruction of version 101 is written (glslang
	// then imports NonSemantic.Shader.DebugInfo.101).
	v101 bool
}

// diInit starts -gV output: the import, the sources and the compilation unit.
func (g *gen) diInit() {
	g.b.Extension("SPV_KHR_non_semantic_info")
	d := &diState{set: g.b.ExtInstImport("NonSemantic.Shader.DebugInfo.100"),
		sources: map[string]uint32{}, strs: map[string]uint32{}, types: map[string]uint32{},
		structs: map[*check.Struct]uint32{}, vars: map[uint32]uint32{}, funcs: map[*check.Func]uint32{}}
	g.di = d
	d.void = g.b.TypeVoid()
	g.lines.files = map[string]uint32{}
	g.b.BeforeEmit = g.beforeEmit
	main := g.diSource(g.opts.SourceFile, g.opts.Source)
	for _, inc := range g.opts.Includes {
		g.diSource(inc.Name, inc.Text)
	}
	d.cu = g.diInst(spirv.ShaderDebugInfoDebugCompilationUnit, g.diConst(diVersion), g.diConst(diDWARFVersion), main, g.diConst(diLanguageGLSL))
}

// diSource writes the DebugSource of a file, with its text for -gVS
// (continued in DebugSourceContinued past an OpString's size, as glslang
// splits it).
func (g *gen) diSource(name, text string) uint32 {
	d := g.di
	if id, ok := d.sources[name]; ok {
		return id
	}
	ops := []uint32{g.diString(name)}
	var rest string
	if g.opts.DebugInfoSource {
		const chunk = 65535*4 - 64
		first := text[:min(len(text), chunk)]
		ops = append(ops, g.b.String(first))
		rest = text[len(first):]
	}
	id := g.diInst(spirv.ShaderDebugInfoDebugSource, ops...)
	d.sources[name] = id
	for rest != "" {
		const chunk = 65535*4 - 64
		part := rest[:min(len(rest), chunk)]
		g.diInst(spirv.ShaderDebugInfoDebugSourceContinued, g.b.String(part))
		rest = rest[len(part):]
	}
	return id
}

// diFile is the DebugSource of the file of pos (the main file's when pos
// has none).
func (g *gen) diFile(pos check.Pos) uint32 {
	if pos.File == "" {
		return g.diSource(g.opts.SourceFile, "")
	}
	return g.diSource(pos.File, "")
}

func (g *gen) diString(s string) uint32 {
	if id, ok := g.di.strs[s]; ok {
		return id
	}
	id := g.b.String(s)
	g.di.strs[s] = id
	return id
}

func (g *gen) diConst(v uint32) uint32 { return g.b.ConstUint32(g.scalarType(check.Uint32), v) }

func (g *gen) diLine(pos check.Pos) uint32 { return g.diConst(uint32(max(pos.Line, 0))) }

// diInst writes a debug instruction among the global declarations.
func (g *gen) diInst(inst uint32, ops ...uint32) uint32 {
	id := g.b.ID()
	g.b.Add(spirv.SecGlobal, spirv.OpExtInst, append([]uint32{g.di.void, id, g.di.set, inst}, ops...)...)
	return id
}

// diEmit writes a debug instruction in the current function.
func (g *gen) diEmit(inst uint32, ops ...uint32) uint32 {
	return g.b.EmitResult(spirv.OpExtInst, g.di.void, append([]uint32{g.di.set, inst}, ops...)...)
}

func (g *gen) diNone() uint32 {
	if g.di.none == 0 {
		g.di.none = g.diInst(spirv.ShaderDebugInfoDebugInfoNone)
	}
	return g.di.none
}

func (g *gen) diCached(key string, make func() uint32) uint32 {
	if id, ok := g.di.types[key]; ok {
		return id
	}
	id := make()
	g.di.types[key] = id
	return id
}

// diType is the debug type of t: DebugInfoNone for the types the
// instruction set has no form for (opaque types, cooperative types other
// than KHR cooperative matrices, which need version 101 of the set).
func (g *gen) diType(t *check.Type) uint32 {
	switch t.Kind {
	case check.KVoid:
		return g.di.void
	case check.KScalar:
		return g.diCached(t.String(), func() uint32 {
			enc := uint32(diEncFloat)
			switch {
			case t.Scalar == check.Bool:
				enc = diEncBoolean
			case t.Scalar.IsSigned():
				enc = diEncSigned
			case t.Scalar.IsUnsigned():
				enc = diEncUnsigned
			}
			bits := uint32(t.Scalar.Bits())
			if t.Scalar == check.Bool {
				bits = 32
			}
			return g.diInst(spirv.ShaderDebugInfoDebugTypeBasic, g.diString(t.Scalar.String()), g.diConst(bits), g.diConst(enc), g.diConst(0))
		})
	case check.KVector:
		key := t.String()
		if t.SpecLen != nil {
			key += "#" + strconv.Itoa(int(g.specLen(t.SpecLen)))
		}
		return g.diCached(key, func() uint32 {
			elem := g.diType(&check.Type{Kind: check.KScalar, Scalar: t.Scalar})
			if t.SpecLen != nil {
				g.di.v101 = true
				return g.diInst(spirv.ShaderDebugInfo101DebugTypeVectorIdEXT, elem, g.specLen(t.SpecLen))
			}
			if t.N <= 4 {
				return g.diInst(spirv.ShaderDebugInfoDebugTypeVector, elem, g.diConst(uint32(t.N)))
			}
			// DebugTypeVector holds at most 4 components (glslang writes
			// it for long vectors anyway, which spirv-val rejects); version
			// 101's DebugTypeVectorIdEXT takes any count.
			g.di.v101 = true
			return g.diInst(spirv.ShaderDebugInfo101DebugTypeVectorIdEXT, elem, g.diConst(uint32(t.N)))
		})
	case check.KMatrix:
		return g.diCached(t.String(), func() uint32 {
			col := g.diType(&check.Type{Kind: check.KVector, Scalar: t.Scalar, N: t.Rows})
			return g.diInst(spirv.ShaderDebugInfoDebugTypeMatrix, col, g.diConst(uint32(t.N)), g.b.ConstBool(g.b.TypeBool(), true))
		})
	case check.KArray:
		elem := g.diType(t.Elem)
		if elem == g.di.none {
			return elem
		}
		// A specialization-constant length is described by its default.
		return g.diCached(t.String()+"@"+strconv.Itoa(int(elem)), func() uint32 {
			return g.diInst(spirv.ShaderDebugInfoDebugTypeArray, elem, g.diConst(uint32(t.N)))
		})
	case check.KStruct:
		return g.diStruct(t)
	case check.KCoopMat:
		elem := g.diType(&check.Type{Kind: check.KScalar, Scalar: t.Scalar})
		ops := []uint32{elem}
		key := "coopmat"
		for _, p := range t.Params {
			if p.Spec != nil && p.Spec.Type().Scalar != check.Uint32 {
				// Its dimensions must be uint constants (glslang writes
				// others, which spirv-val rejects).
				return g.diNone()
			}
			ops = append(ops, g.dim(p))
			key += "@" + strconv.Itoa(int(ops[len(ops)-1]))
		}
		return g.diCached(key+"@"+strconv.Itoa(int(elem)), func() uint32 {
			g.di.v101 = true
			return g.diInst(spirv.ShaderDebugInfo101DebugTypeCooperativeMatrixKHR, ops...)
		})
	case check.KReference:
		if t.Struct == nil {
			return g.diNone()
		}
		st := g.diStruct(&check.Type{Kind: check.KStruct, Struct: t.Struct})
		if st == g.di.none {
			return st
		}
		return g.diCached("ref@"+strconv.Itoa(int(st)), func() uint32 {
			return g.diInst(spirv.ShaderDebugInfoDebugTypePointer, st, g.diConst(uint32(spirv.StorageClassPhysicalStorageBuffer)), g.diConst(0))
		})
	}
	return g.diNone()
}

// diStruct describes a struct: a DebugTypeMember per member (at the
// member's position), then the DebugTypeComposite. A struct reached again
// while its members are described (a buffer_reference to itself) is
// DebugInfoNone there.
func (g *gen) diStruct(t *check.Type) uint32 {
	s := t.Struct
	if id, ok := g.di.structs[s]; ok {
		if id == 0 {
			return g.diNone()
		}
		return id
	}
	g.di.structs[s] = 0
	var members []uint32
	pos := check.Pos{}
	for _, f := range s.Fields {
		if pos.Line == 0 {
			pos = f.Pos
		}
		members = append(members, g.diInst(spirv.ShaderDebugInfoDebugTypeMember, g.diString(f.Name), g.diType(f.Type),
			g.diFile(f.Pos), g.diLine(f.Pos), g.diConst(uint32(max(f.Pos.Col, 0))), g.diConst(0), g.diConst(0), g.diConst(diFlagIsPublic)))
	}
	name := g.diString(s.Name)
	id := g.diInst(spirv.ShaderDebugInfoDebugTypeComposite, append([]uint32{name, g.diConst(diTagStructure), g.diFile(pos), g.diLine(pos),
		g.diConst(0), g.di.cu, name, g.diConst(0), g.diConst(diFlagIsPublic)}, members...)...)
	g.di.structs[s] = id
	return id
}

// diGlobals writes a DebugGlobalVariable for each global variable lowered
// so far and not yet described.
func (g *gen) diGlobals(done map[*check.Var]bool) {
	if g.di == nil {
		return
	}
	for _, v := range g.p.Globals {
		vi := g.vars[v]
		// A const global is a constant, not a variable: glslang describes
		// it too, as a variable spirv-val rejects when it is a replicated
		// composite.
		if done[v] || vi == nil || vi.value || vi.heap != nil || v.Storage == check.StorageConst {
			continue
		}
		done[v] = true
		name := v.Name
		if v.Anonymous {
			name = ""
		}
		pos := v.Pos
		if pos.Line <= 0 {
			pos = g.diFirstUse(v)
		}
		s, dt := g.diString(name), g.diType(vi.t)
		g.di.vars[vi.id] = dt
		g.diInst(spirv.ShaderDebugInfoDebugGlobalVariable, s, dt, g.diFile(pos), g.diLine(pos), g.diConst(0),
			g.di.cu, s, vi.id, g.diConst(diFlagIsDefinition))
	}
}

// diFirstUse is where a variable declared nowhere (a built-in) is first
// used: glslang describes it there. glslang lowers main first, then the
// other functions; within one, the earliest position counts.
func (g *gen) diFirstUse(v *check.Var) check.Pos {
	funcs := append([]*check.Func{g.p.Main}, g.p.Funcs...)
	for _, f := range funcs {
		if f.Body == nil {
			continue
		}
		var first check.Pos
		walkStmt(f.Body, func(e check.Expr) {
			if r, ok := e.(*check.VarRef); ok && r.Var == v {
				p := r.Position()
				if p.Line > 0 && (first.Line == 0 || p.Line < first.Line || p.Line == first.Line && p.Col < first.Col) {
					first = p
				}
			}
		})
		if first.Line > 0 {
			return first
		}
	}
	return check.Pos{}
}

// diFunctionStart opens function f's scope at the start of its first
// block: the DebugFunction (written among the globals with its parameters'
// DebugLocalVariable), the DebugDeclare of each parameter, then
// DebugFunctionDefinition, as glslang orders them.
func (g *gen) diFunctionStart(f *check.Func, id uint32) {
	d := g.di
	if d == nil {
		return
	}
	params := []uint32{g.diConst(diFlagIsPublic), g.diType(f.Result)}
	for _, p := range f.Params {
		params = append(params, g.diType(p.Type))
	}
	fnType := g.diInst(spirv.ShaderDebugInfoDebugTypeFunction, params...)
	name := g.diString(f.Name)
	src, line := g.diFile(f.Pos), g.diLine(f.Pos)
	fn := g.diInst(spirv.ShaderDebugInfoDebugFunction, name, fnType, src, line, g.diConst(0), d.cu, name, g.diConst(diFlagIsPublic), line)
	d.funcs[f] = fn
	d.scopes = []uint32{fn}
	g.at(f.Pos)
	for i, p := range f.Params {
		vi := g.vars[p]
		lv := g.diInst(spirv.ShaderDebugInfoDebugLocalVariable, g.diString(p.Name), g.diType(p.Type), src, line, g.diConst(0), fn,
			g.diConst(diFlagIsLocal), g.diConst(uint32(i+1)))
		if vi != nil && !vi.value {
			g.diEmit(spirv.ShaderDebugInfoDebugDeclare, lv, vi.id, g.diExpr())
		}
	}
	g.diEmit(spirv.ShaderDebugInfoDebugFunctionDefinition, fn, id)
}

func (g *gen) diExpr() uint32 {
	if g.di.expr == 0 {
		g.di.expr = g.diInst(spirv.ShaderDebugInfoDebugExpression)
	}
	return g.di.expr
}

// diLocal describes local variable v (pointer id) in the current scope and
// declares it where it is declared.
func (g *gen) diLocal(v *check.Var, id uint32) {
	d := g.di
	if d == nil || len(d.scopes) == 0 {
		return
	}
	dt := g.diType(v.Type)
	d.vars[id] = dt
	lv := g.diInst(spirv.ShaderDebugInfoDebugLocalVariable, g.diString(v.Name), dt, g.diFile(v.Pos), g.diLine(v.Pos),
		g.diConst(0), d.scopes[len(d.scopes)-1], g.diConst(diFlagIsLocal))
	g.at(v.Pos)
	g.diEmit(spirv.ShaderDebugInfoDebugDeclare, lv, id, g.diExpr())
}

// diBlockScope opens the lexical block of braces b (unless they are a for
// or while body, which shares its statement's scope) and returns what
// closes it.
func (g *gen) diBlockScope(b *check.Block) func() {
	if g.di == nil || len(g.di.scopes) == 0 {
		return func() {}
	}
	if g.di.shared == b {
		g.di.shared = nil
		return func() {}
	}
	return g.diOpenScope(stmtPos(b))
}

// diLoopScope opens the lexical block of a loop statement; the braces of
// a for or while body share it (body), a do-while body has its own.
func (g *gen) diLoopScope(s check.Stmt, body check.Stmt) func() {
	if g.di == nil || len(g.di.scopes) == 0 {
		return func() {}
	}
	end := g.diOpenScope(stmtPos(s))
	if b, ok := body.(*check.Block); ok {
		g.di.shared = b
	}
	return end
}

func (g *gen) diOpenScope(pos check.Pos) func() {
	d := g.di
	if pos.Line <= 0 {
		pos = g.pos
	}
	parent := d.scopes[len(d.scopes)-1]
	blk := g.diInst(spirv.ShaderDebugInfoDebugLexicalBlock, g.diFile(pos), g.diLine(pos), g.diConst(uint32(max(pos.Col, 0))), parent)
	d.scopes = append(d.scopes, blk)
	return func() { d.scopes = d.scopes[:len(d.scopes)-1] }
}

// stmtPos is the position of a statement's first expression or
// declaration (the tree keeps no positions for statements), or none.
func stmtPos(s check.Stmt) check.Pos {
	switch s := s.(type) {
	case *check.Block:
		for _, st := range s.Stmts {
			if p := stmtPos(st); p.Line > 0 {
				return p
			}
		}
	case *check.DeclStmt:
		return s.Var.Pos
	case *check.ExprStmt:
		return s.X.Position()
	case *check.If:
		return s.Cond.Position()
	case *check.For:
		if s.Init != nil {
			if p := stmtPos(s.Init); p.Line > 0 {
				return p
			}
		}
		if s.Cond != nil {
			return s.Cond.Position()
		}
		return stmtPos(s.Body)
	case *check.While:
		return s.Cond.Position()
	case *check.DoWhile:
		return s.Cond.Position()
	case *check.Switch:
		return s.X.Position()
	case *check.Return:
		if s.X != nil {
			return s.X.Position()
		}
	}
	return check.Pos{}
}

// diLineAt writes, before instruction op, the DebugScope (when the scope
// changed since the last one of this block) and the DebugLine of the
// position being lowered. An OpBranch gets neither: glslang leaves a
// branch in the scope of the code before it (the end of a nested block).
func (g *gen) diLineAt(op spirv.Op) {
	d, ls := g.di, &g.lines
	if len(d.scopes) == 0 || op == spirv.OpBranch {
		return
	}
	src := g.diFile(g.pos)
	scope := d.scopes[len(d.scopes)-1]
	changed := scope != ls.scope
	if !changed && src == ls.fileID && g.pos.Line == ls.line {
		return
	}
	ls.emitting = true
	if changed {
		ls.scope = scope
		g.diEmit(spirv.ShaderDebugInfoDebugScope, scope)
	}
	ls.fileID, ls.line = src, g.pos.Line
	line := g.diLine(g.pos)
	g.diEmit(spirv.ShaderDebugInfoDebugLine, src, line, line, g.diConst(0), g.diConst(0))
	ls.emitting = false
}

// diPointers adds the DebugTypePointer of each pointer type whose pointee
// has a debug type (a scalar, vector or matrix type, or a variable's type),
// after the last of its operands' definitions, and imports version 101 of
// the set where an instruction needs it. It returns the finished module.
func (g *gen) diPointers(m *spirv.Module) *spirv.Module {
	d := g.di
	if d == nil {
		return m
	}
	typeOf := map[uint32]uint32{}
	kinds := map[uint32]*check.Type{} // SPIR-V scalar and vector types
	ptrOf := map[uint32]uint32{}      // pointer type to its pointee
	for _, in := range m.Insts {
		w := in.Words
		var t *check.Type
		switch {
		case in.Op == spirv.OpTypeBool && len(w) == 1:
			t = &check.Type{Kind: check.KScalar, Scalar: check.Bool}
		case in.Op == spirv.OpTypeInt && len(w) == 3:
			t = &check.Type{Kind: check.KScalar, Scalar: intScalar(w[1], w[2] == 1)}
		case in.Op == spirv.OpTypeFloat && len(w) == 2:
			t = &check.Type{Kind: check.KScalar, Scalar: map[uint32]check.Scalar{16: check.Float16, 32: check.Float32, 64: check.Float64}[w[1]]}
		case in.Op == spirv.OpTypeVector && len(w) == 3 && kinds[w[1]] != nil && kinds[w[1]].Kind == check.KScalar:
			t = &check.Type{Kind: check.KVector, Scalar: kinds[w[1]].Scalar, N: int(w[2])}
		case in.Op == spirv.OpTypeMatrix && len(w) == 3 && kinds[w[1]] != nil && kinds[w[1]].Kind == check.KVector:
			t = &check.Type{Kind: check.KMatrix, Scalar: kinds[w[1]].Scalar, N: int(w[2]), Rows: kinds[w[1]].N}
		case in.Op == spirv.OpTypePointer && len(w) == 3:
			ptrOf[w[0]] = w[2]
		}
		if t != nil && t.Scalar != check.NoScalar {
			kinds[w[0]] = t
			if id, ok := d.types[t.String()]; ok {
				typeOf[w[0]] = id
			}
		}
	}
	// Struct and array types are found from the variables described.
	for _, in := range m.Insts {
		if w := in.Words; in.Op == spirv.OpVariable && len(w) >= 3 {
			if dt, ok := d.vars[w[1]]; ok && typeOf[ptrOf[w[0]]] == 0 {
				typeOf[ptrOf[w[0]]] = dt
			}
		}
	}
	type ptr struct {
		id  uint32
		ops []uint32
	}
	var ptrs []ptr
	for _, in := range m.Insts {
		if w := in.Words; in.Op == spirv.OpTypePointer && len(w) == 3 && typeOf[w[2]] != 0 && typeOf[w[2]] != d.none {
			// The constants the pointers need are declared here, before
			// the module is taken again.
			ptrs = append(ptrs, ptr{w[0], []uint32{typeOf[w[2]], g.diConst(w[1]), g.diConst(0)}})
		}
	}
	m = g.b.Module()
	def := map[uint32]int{}
	for i := range m.Insts {
		if in := &m.Insts[i]; in.Op != spirv.OpFunction {
			if id := in.ResultID(); id != 0 {
				def[id] = i
			}
		} else {
			break
		}
	}
	after := make([][]spirv.Inst, len(m.Insts))
	for _, p := range ptrs {
		at := def[p.id]
		for _, o := range p.ops {
			at = max(at, def[o])
		}
		id := m.Bound
		m.Bound++
		after[at] = append(after[at], spirv.Inst{Op: spirv.OpExtInst,
			Words: append([]uint32{d.void, id, d.set, spirv.ShaderDebugInfoDebugTypePointer}, p.ops...)})
	}
	out := make([]spirv.Inst, 0, len(m.Insts)+len(ptrs))
	for i, in := range m.Insts {
		out = append(out, in)
		out = append(out, after[i]...)
	}
	m.Insts = out
	if d.v101 {
		for i, in := range m.Insts {
			if in.Op == spirv.OpExtInstImport && len(in.Words) > 0 && in.Words[0] == d.set {
				m.Insts[i].Words = spirv.AppendString([]uint32{d.set}, "NonSemantic.Shader.DebugInfo.101")
			}
		}
	}
	return m
}

func intScalar(bits uint32, signed bool) check.Scalar {
	s := map[uint32]check.Scalar{8: check.Uint8, 16: check.Uint16, 32: check.Uint32, 64: check.Uint64}[bits]
	if signed && s != check.NoScalar {
		s = s.ToSigned()
	}
	return s
}
