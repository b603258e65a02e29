package lower

import (
	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/spirv"
)

// narrowConst evaluates a constant of an 8- or 16-bit type that the
// shader may store but not compute with (GL_EXT_shader_8bit_storage or
// GL_EXT_shader_16bit_storage without the arithmetic extension): as in
// glslang, a 32-bit constant converted at run time, since a constant of the
// narrow type would need the Int8, Int16 or Float16 capability (and the
// device feature behind it). ok is false for any other constant.
func (g *gen) narrowConst(v *check.Value) (id uint32, ok bool) {
	t := v.Type
	if g.fn == nil || v.Elems != nil && t.Kind != check.KVector || t.Kind != check.KScalar && t.Kind != check.KVector {
		return 0, false
	}
	s := t.Scalar
	var wide check.Scalar
	var op spirv.Op
	switch {
	case s == check.Float16 && !g.arithmetic(extArithF16):
		wide, op = check.Float32, spirv.OpFConvert
	case (s == check.Int8 || s == check.Uint8) && !g.arithmetic(extArithI8),
		(s == check.Int16 || s == check.Uint16) && !g.arithmetic(extArithI16):
		wide, op = check.Int32, spirv.OpSConvert
		if s.IsUnsigned() {
			wide, op = check.Uint32, spirv.OpUConvert
		}
	default:
		return 0, false
	}
	widen := func(e *check.Value) *check.Value {
		w := &check.Value{Type: check.ScalarType(wide), Bits: e.Bits, F: e.F}
		// A float16 value keeps its precision: glslang converts the
		// float32 constant at run time.
		if s.IsSigned() {
			sh := 64 - s.Bits()
			w.Bits = uint64(uint32(int64(e.Bits<<sh) >> sh))
		}
		return w
	}
	var c uint32
	if t.Kind == check.KScalar {
		c = g.constValue(widen(v))
	} else {
		elems := make([]*check.Value, len(v.Elems))
		for i, e := range v.Elems {
			elems[i] = widen(e)
		}
		c = g.constValue(&check.Value{Type: check.VectorType(wide, t.N), Elems: elems})
	}
	return g.b.EmitResult(op, g.typeID(t, check.PackNone), c), true
}

// The extensions that allow arithmetic on each narrow type, as glslang
// decides whether to fold conversions to it.
var (
	extArithF16 = []string{"GL_EXT_shader_explicit_arithmetic_types", "GL_EXT_shader_explicit_arithmetic_types_float16", "GL_AMD_gpu_shader_half_float", "GL_NV_gpu_shader5"}
	extArithI8  = []string{"GL_EXT_shader_explicit_arithmetic_types", "GL_EXT_shader_explicit_arithmetic_types_int8", "GL_NV_gpu_shader5"}
	extArithI16 = []string{"GL_EXT_shader_explicit_arithmetic_types", "GL_EXT_shader_explicit_arithmetic_types_int16", "GL_AMD_gpu_shader_int16", "GL_NV_gpu_shader5"}
)

func (g *gen) arithmetic(exts []string) bool {
	for _, e := range exts {
		if g.p.HasExtension(e) {
			return true
		}
	}
	return false
}
