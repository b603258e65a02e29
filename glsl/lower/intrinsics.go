package lower

import (
	"math"

	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/spirv"
)

// GL_EXT_spirv_intrinsics: instructions, decorations, execution modes and
// storage classes written by number in the shader.

// spirvReqs declares what an intrinsic asks the module to declare.
func (g *gen) spirvReqs(r check.SpirvReqs) {
	for _, c := range r.Capabilities {
		g.b.Capability(spirv.Capability(c))
	}
	for _, e := range r.Extensions {
		g.b.Extension(e)
	}
}

// spirvDecorate applies a declaration's spirv_decorate* qualifiers to id.
// Id operands name constants, specialization constants or variables, so
// globals are decorated once all of them exist (see run).
func (g *gen) spirvDecorate(id uint32, ds []*check.SpirvDecoration) {
	for _, d := range ds {
		g.spirvReqs(d.SpirvReqs)
		switch d.Kind {
		case check.SpirvDecorate:
			g.b.Decorate(id, spirv.Decoration(d.Decoration), d.Literals...)
		case check.SpirvDecorateID:
			ids := make([]uint32, len(d.IDs))
			for i, x := range d.IDs {
				ids[i] = g.spirvOperandID(x)
			}
			g.b.DecorateId(id, spirv.Decoration(d.Decoration), ids...)
		case check.SpirvDecorateString:
			w := []uint32{id, d.Decoration}
			for _, s := range d.Strings {
				w = spirv.AppendString(w, s)
			}
			g.b.Add(spirv.SecAnnotation, spirv.OpDecorateString, w...)
		}
	}
}

// spirvMemberDecorate applies a member's qualifiers to member i of the
// struct type id.
func (g *gen) spirvMemberDecorate(id uint32, i int, ds []*check.SpirvDecoration) {
	for _, d := range ds {
		g.spirvReqs(d.SpirvReqs)
		if d.Kind == check.SpirvDecorateString {
			w := []uint32{id, uint32(i), d.Decoration}
			for _, s := range d.Strings {
				w = spirv.AppendString(w, s)
			}
			g.b.Add(spirv.SecAnnotation, spirv.OpMemberDecorateString, w...)
			continue
		}
		g.b.MemberDecorate(id, uint32(i), spirv.Decoration(d.Decoration), d.Literals...)
	}
}

// spirvOperandID is the id of a constant, specialization constant or
// global variable operand.
func (g *gen) spirvOperandID(x check.Expr) uint32 {
	if r, ok := x.(*check.VarRef); ok {
		if vi := g.vars[r.Var]; vi != nil && !vi.value {
			return vi.id
		}
	}
	return g.specValue(x)
}

// spirvExecutionModes declares the shader's spirv_execution_mode(_id)s.
func (g *gen) spirvExecutionModes(mainID uint32) {
	for _, m := range g.p.SpirvExecutionModes {
		g.spirvReqs(m.SpirvReqs)
		if !m.UseIDs {
			g.b.ExecutionMode(mainID, spirv.ExecutionMode(m.Mode), m.Literals...)
			continue
		}
		ids := make([]uint32, len(m.IDs))
		for i, x := range m.IDs {
			ids[i] = g.specValue(x)
		}
		g.b.ExecutionModeId(mainID, spirv.ExecutionMode(m.Mode), ids...)
	}
}

// intrinsicCall emits the instruction a spirv_instruction function names.
// Arguments go by value, by pointer (spirv_by_reference) or as literal
// words (spirv_literal); a void function's instruction has no result.
func (g *gen) intrinsicCall(e *check.Call) uint32 {
	in := e.Func.Intrinsic
	g.spirvReqs(in.SpirvReqs)
	ops := make([]uint32, 0, len(e.Args))
	for i, a := range e.Args {
		p := e.Func.Params[i]
		switch {
		case p.Literal:
			c, ok := a.(*check.Const)
			if !ok {
				g.fail(a.Position(), "a spirv_literal argument must be a constant expression")
			}
			ops = append(ops, literalWord(c.Val))
		case p.ByReference:
			ops = append(ops, g.lvaluePointer(a))
		default:
			ops = append(ops, g.rvalue(a))
		}
	}
	void := e.Func.Result.Kind == check.KVoid
	if in.Set != "" {
		set := g.b.ExtInstImport(in.Set)
		return g.b.EmitResult(spirv.OpExtInst, g.typeID(e.Func.Result, check.PackNone), append([]uint32{set, in.ID}, ops...)...)
	}
	if void {
		g.b.Emit(spirv.Op(in.ID), ops...)
		return 0
	}
	return g.b.EmitResult(spirv.Op(in.ID), g.typeID(e.Func.Result, check.PackNone), ops...)
}

// literalWord is a 32-bit literal operand: integers as their bits, floats
// as float32 bits, bools as 0 or 1.
func literalWord(v *check.Value) uint32 {
	s := v.Type.Scalar
	switch {
	case s == check.Bool:
		if v.Bool() {
			return 1
		}
		return 0
	case s.IsFloat():
		return math.Float32bits(float32(v.Float()))
	}
	return uint32(v.Bits)
}

// lvaluePointer is a pointer to a spirv_by_reference argument: the
// argument's own memory when it has an address, else a temporary holding
// its value.
func (g *gen) lvaluePointer(a check.Expr) uint32 {
	if g.addressable(a) {
		if lv := g.lvalue(a); len(lv.comps) == 0 {
			return lv.ptr
		}
	}
	tmp := g.b.LocalVariable(g.ptrType(spirv.StorageClassFunction, a.Type(), check.PackNone))
	g.b.Emit(spirv.OpStore, tmp, g.rvalue(a))
	return tmp
}
