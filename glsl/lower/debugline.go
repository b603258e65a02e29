package lower

import (
	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/spirv"
)

// Debug line information (-g), written as glslang writes it: an OpLine
// (column 0) before the first instruction of a block and before each
// instruction whose source line differs from the last one written in the
// block, and one before each OpFunction. A line's scope ends with its
// block, so each block starts afresh.

type lineState struct {
	files    map[string]uint32 // OpString of each source file
	fileID   uint32            // the last OpLine (DebugLine: its DebugSource) written in this block
	line     int
	scope    uint32   // the last DebugScope written in this block
	lastOp   spirv.Op // the last instruction appended to the function
	emitting bool
}

// lineFile is the OpString naming a source file.
func (g *gen) lineFile(name string) uint32 {
	if id, ok := g.lines.files[name]; ok {
		return id
	}
	id := g.b.String(name)
	g.lines.files[name] = id
	return id
}

// beforeEmit writes an OpLine for the position being lowered when it
// differs from the block's last one.
func (g *gen) beforeEmit(op spirv.Op) {
	ls := &g.lines
	if ls.emitting {
		return
	}
	prev := ls.lastOp
	ls.lastOp = op
	switch op {
	case spirv.OpLabel:
		ls.fileID, ls.line, ls.scope = 0, 0, 0
		return
	case spirv.OpPhi, spirv.OpFunctionParameter, spirv.OpFunctionEnd, spirv.OpLine, spirv.OpNoLine:
		return
	case spirv.OpBranch, spirv.OpBranchConditional, spirv.OpSwitch:
		// A merge instruction must immediately precede its branch.
		if prev == spirv.OpSelectionMerge || prev == spirv.OpLoopMerge {
			return
		}
	}
	if g.fn == nil || g.pos.Line <= 0 || g.pos.File == "" {
		return
	}
	if g.di != nil {
		g.diLineAt(op)
		return
	}
	file := g.lineFile(g.pos.File)
	if file == ls.fileID && g.pos.Line == ls.line {
		return
	}
	ls.fileID, ls.line = file, g.pos.Line
	ls.emitting = true
	g.b.Emit(spirv.OpLine, file, uint32(g.pos.Line), 0)
	ls.emitting = false
}

// functionLine writes the OpLine before a function's OpFunction.
func (g *gen) functionLine(f *check.Func) {
	if !g.opts.Debug || f.Pos.Line <= 0 || f.Pos.File == "" {
		return
	}
	g.lines.emitting = true
	g.b.Emit(spirv.OpLine, g.lineFile(f.Pos.File), uint32(f.Pos.Line), uint32(max(f.Pos.Col, 0)))
	g.lines.emitting = false
	g.lines.lastOp = spirv.OpLine
}
