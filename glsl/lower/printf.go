package lower

import (
	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/spirv"
)

// debugPrintf lowers debugPrintfEXT(format, args...) to the
// NonSemantic.DebugPrintf instruction, as glslang does: the format is an
// OpString and the arguments are passed as values.
func (g *gen) debugPrintf(e *check.BuiltinCall) uint32 {
	sc, ok := e.Args[0].(*check.StringConst)
	if !ok {
		g.fail(e.Pos, "debugPrintfEXT needs a string literal as its format")
	}
	if g.ver < 0x10600 {
		g.b.Extension("SPV_KHR_non_semantic_info")
	}
	set := g.b.ExtInstImport("NonSemantic.DebugPrintf")
	words := []uint32{set, 1, g.b.String(sc.Text)}
	for _, a := range e.Args[1:] {
		words = append(words, g.rvalue(a))
	}
	g.b.EmitResult(spirv.OpExtInst, g.b.TypeVoid(), words...)
	return 0
}
