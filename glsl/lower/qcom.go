package lower

import (
	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/spirv"
)

// qcomConversion lowers the built-ins of
// GL_QCOM_cooperative_matrix_conversion as glslang does: the source is
// loaded, converted by one SPV_QCOM_cooperative_matrix_conversion
// instruction to the type of the out argument (the last), and stored
// there. ok is false for other built-ins.
func (g *gen) qcomConversion(e *check.BuiltinCall) (uint32, bool) {
	var op spirv.Op
	switch e.Fn {
	case check.BBitcastQCOM:
		op = spirv.OpBitCastArrayQCOM
	case check.BExtractSubArrayQCOM:
		op = spirv.OpExtractSubArrayQCOM
	case check.BVectorToCoopmatQCOM:
		op = spirv.OpCompositeConstructCoopMatQCOM
	case check.BCoopmatToVectorQCOM:
		op = spirv.OpCompositeExtractCoopMatQCOM
	default:
		return 0, false
	}
	g.b.Capability(spirv.CapabilityCooperativeMatrixConversionQCOM)
	g.b.Extension("SPV_QCOM_cooperative_matrix_conversion")
	dst := e.Args[len(e.Args)-1]
	var ops []uint32
	for _, a := range e.Args[:len(e.Args)-1] {
		ops = append(ops, g.rvalue(a))
	}
	v := g.b.EmitResult(op, g.typeID(dst.Type(), check.PackNone), ops...)
	g.store(nil, g.lvalue(dst), v, dst.Type())
	return 0, true
}
