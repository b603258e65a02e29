package lower

import (
	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/spirv"
)

// function emits one user function. Parameters are pointers to Function
// variables, as glslang passes them; callers copy in and out.
func (g *gen) function(f *check.Func) {
	if f.Body == nil {
		g.fail(f.Pos, "function %s is declared but never defined", f.Name)
	}
	ret := g.typeID(f.Result, check.PackNone)
	params := make([]uint32, len(f.Params))
	byValue := g.callbacks[f]
	for i, p := range f.Params {
		g.valueCaps(p.Type)
		rsc, ray := rayClass(p.Type)
		switch {
		case ray:
			params[i] = g.ptrType(rsc, p.Type, check.PackNone)
		case opaqueOf(p.Type) != nil:
			// Samplers, textures and images are passed by pointer to
			// their UniformConstant variable, as glslang does.
			params[i] = g.b.TypePointer(spirv.StorageClassUniformConstant, g.resType(p.Type, "", false))
		case byValue:
			params[i] = g.typeID(p.Type, check.PackNone)
		case isTensorARM(p.Type):
			params[i] = g.ptrType(spirv.StorageClassUniformConstant, p.Type, check.PackNone)
		default:
			params[i] = g.ptrType(spirv.StorageClassFunction, p.Type, check.PackNone)
		}
	}
	fnType := g.b.TypeFunction(ret, params...)
	id := g.funcs[f]
	g.at(f.Pos)
	g.functionLine(f)
	g.b.BeginFunctionID(id, ret, spirv.FunctionControlNone, fnType)
	g.b.Name(id, g.funcName(f))
	for i, p := range f.Params {
		pid := g.b.ID()
		g.b.Emit(spirv.OpFunctionParameter, params[i], pid)
		g.b.Name(pid, p.Name)
		if byValue && p.Type.Kind == check.KReference {
			// A PhysicalStorageBuffer pointer parameter must say how it aliases.
			g.b.Decorate(pid, spirv.DecorationAliased)
		}
		if opaqueOf(p.Type) != nil {
			g.resourceMemory(pid, p.Memory)
			g.vars[p] = &varInfo{id: pid, sc: spirv.StorageClassUniformConstant, t: p.Type}
			continue
		}
		sc := spirv.StorageClassFunction
		if isTensorARM(p.Type) && !byValue {
			sc = spirv.StorageClassUniformConstant
			g.tensorParam(pid, p.Memory)
		}
		if rsc, ok := rayClass(p.Type); ok {
			sc = rsc
		}
		g.vars[p] = &varInfo{id: pid, sc: sc, t: p.Type, value: byValue && sc == spirv.StorageClassFunction}
	}
	g.fn = f
	g.label(g.b.ID())
	g.diFunctionStart(f, id)
	if f == g.p.Main {
		for _, v := range g.privateInits {
			g.store(g.vars[v], nil, g.rvalue(v.Init), v.Type)
		}
	}
	g.block(f.Body)
	if !g.terminated {
		// glslang gives the implicit return the closing brace's line.
		g.at(f.End)
		if f.Result.IsVoid() {
			g.b.Emit(spirv.OpReturn)
		} else {
			// A path that falls off the end of a non-void function
			// returns an undefined value, as in glslang.
			g.b.Emit(spirv.OpReturnValue, g.b.EmitResult(spirv.OpUndef, g.typeID(f.Result, check.PackNone)))
		}
	}
	g.b.EndFunction()
	g.fn = nil
}

// funcName is a function's OpName: glslang's mangled name, except the
// entry function's, which glslang names plainly "main".
func (g *gen) funcName(f *check.Func) string {
	if f == g.p.Main {
		return f.Name
	}
	return f.Name + g.mangle(f)
}

// mangle is glslang's name suffix: "(" then one code per parameter type.
func (g *gen) mangle(f *check.Func) string {
	s := "("
	for _, p := range f.Params {
		s += p.Type.String() + ";"
	}
	return s
}

// label starts a new block.
func (g *gen) label(id uint32) {
	g.b.Label(id)
	g.terminated = false
}

// branch ends the current block with a branch, unless it already ended.
func (g *gen) branch(target uint32) {
	if !g.terminated {
		g.b.Emit(spirv.OpBranch, target)
		g.terminated = true
	}
}

// live makes sure code can be emitted: after a terminator, an unreachable
// block is opened.
func (g *gen) live() {
	if g.terminated {
		g.label(g.b.ID())
	}
}

func (g *gen) block(b *check.Block) {
	for _, s := range b.Stmts {
		g.stmt(s)
	}
}

func (g *gen) stmt(s check.Stmt) {
	switch s := s.(type) {
	case *check.Block:
		defer g.diBlockScope(s)()
		g.block(s)
	case *check.DeclStmt:
		g.live()
		v := s.Var
		if v.Storage == check.StorageConst || g.rayVar(v) {
			return
		}
		id := g.b.LocalVariable(g.ptrType(spirv.StorageClassFunction, v.Type, check.PackNone))
		g.b.Name(id, v.Name)
		g.spirvDecorate(id, v.SpirvDecorations)
		vi := &varInfo{id: id, sc: spirv.StorageClassFunction, t: v.Type}
		g.vars[v] = vi
		g.diLocal(v, id)
		if s.Init != nil {
			g.store(vi, nil, g.rvalue(s.Init), v.Type)
		}
	case *check.ExprStmt:
		g.live()
		if g.addressable(s.X) && s.X.Type().Contains((*check.Type).IsUnsizedArray) {
			// Naming a runtime-sized array evaluates only its indices,
			// as in glslang: there is no value to load.
			g.lvalue(s.X)
			break
		}
		g.rvalue(s.X)
	case *check.If:
		g.live()
		c := g.rvalue(s.Cond)
		then, merge := g.b.ID(), g.b.ID()
		els := merge
		if s.Else != nil {
			els = g.b.ID()
		}
		g.b.Emit(spirv.OpSelectionMerge, merge, selectionControl(s.Hints))
		g.b.Emit(spirv.OpBranchConditional, c, then, els)
		g.label(then)
		g.stmt(s.Then)
		g.branch(merge)
		if s.Else != nil {
			g.label(els)
			g.stmt(s.Else)
			g.branch(merge)
		}
		g.label(merge)
	case *check.For:
		g.live()
		defer g.diLoopScope(s, s.Body)()
		if s.Init != nil {
			g.stmt(s.Init)
		}
		g.loop(s.Cond, s.Body, s.Post, false, s.Hints)
	case *check.While:
		g.live()
		defer g.diLoopScope(s, s.Body)()
		g.loop(s.Cond, s.Body, nil, false, s.Hints)
	case *check.DoWhile:
		g.live()
		defer g.diLoopScope(s, nil)()
		g.loop(s.Cond, s.Body, nil, true, s.Hints)
	case *check.Switch:
		g.live()
		g.switchStmt(s)
	case *check.Break:
		g.live()
		g.branch(g.breaks[len(g.breaks)-1])
	case *check.Continue:
		g.live()
		g.branch(g.continues[len(g.continues)-1])
	case *check.Return:
		g.live()
		if s.X == nil {
			g.b.Emit(spirv.OpReturn)
		} else {
			g.b.Emit(spirv.OpReturnValue, g.rvalue(s.X))
		}
		g.terminated = true
	case *check.Terminate:
		g.live()
		g.b.Emit(spirv.OpTerminateInvocation)
		g.terminated = true
	default:
		g.fail(check.Pos{}, "statement %T is not supported by the code generator", s)
	}
}

// loop emits a structured loop: header (OpLoopMerge), condition, body,
// continue block (post expression, or the condition of do-while).
func (g *gen) loop(cond check.Expr, body check.Stmt, post check.Expr, doWhile bool, hints *check.LoopHints) {
	header, condBlock, bodyBlock, cont, merge := g.b.ID(), g.b.ID(), g.b.ID(), g.b.ID(), g.b.ID()
	g.branch(header)
	g.label(header)
	g.b.Emit(spirv.OpLoopMerge, append([]uint32{merge, cont}, g.loopControl(hints)...)...)
	if doWhile {
		g.branch(bodyBlock)
	} else {
		g.branch(condBlock)
		g.label(condBlock)
		if cond != nil {
			c := g.rvalue(cond)
			g.b.Emit(spirv.OpBranchConditional, c, bodyBlock, merge)
			g.terminated = true
		} else {
			g.branch(bodyBlock)
		}
	}
	g.label(bodyBlock)
	g.breaks = append(g.breaks, merge)
	g.continues = append(g.continues, cont)
	g.stmt(body)
	g.breaks = g.breaks[:len(g.breaks)-1]
	g.continues = g.continues[:len(g.continues)-1]
	g.branch(cont)
	g.label(cont)
	if doWhile {
		c := g.rvalue(cond)
		g.b.Emit(spirv.OpBranchConditional, c, header, merge)
		g.terminated = true
	} else {
		if post != nil {
			g.rvalue(post)
		}
		g.branch(header)
	}
	g.label(merge)
}

func (g *gen) switchStmt(s *check.Switch) {
	sel := g.rvalue(s.X)
	merge := g.b.ID()
	labels := make([]uint32, len(s.Cases))
	def := merge
	words := []uint32{sel, 0}
	wide := s.X.Type().Scalar.Bits() == 64
	for i, c := range s.Cases {
		labels[i] = g.b.ID()
		if c.Default {
			def = labels[i]
		}
		for _, v := range c.Values {
			if wide {
				words = append(words, uint32(v), uint32(uint64(v)>>32), labels[i])
			} else {
				words = append(words, uint32(v), labels[i])
			}
		}
	}
	words[1] = def
	g.b.Emit(spirv.OpSelectionMerge, merge, selectionControl(s.Hints))
	g.b.Emit(spirv.OpSwitch, words...)
	g.terminated = true
	g.breaks = append(g.breaks, merge)
	for i, c := range s.Cases {
		if !g.terminated {
			g.branch(labels[i]) // fall through
		}
		g.label(labels[i])
		for _, st := range c.Body {
			g.stmt(st)
		}
	}
	g.breaks = g.breaks[:len(g.breaks)-1]
	g.branch(merge)
	g.label(merge)
}
