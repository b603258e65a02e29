package lower

import (
	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/spirv"
)

// spirvType declares a spirv_type(...): its extensions and capabilities,
// then the type instruction with its operands (types are declared first,
// literals are their words), deduplicated like any type.
func (g *gen) spirvType(t *check.Type) uint32 {
	st := t.Spirv
	g.spirvReqs(st.SpirvReqs)
	var ops []uint32
	for _, p := range st.Params {
		if p.Type != nil {
			ops = append(ops, g.typeID(p.Type, check.PackNone))
			continue
		}
		ops = append(ops, p.Words...)
	}
	return g.b.Type(spirv.Op(st.Op), ops...)
}

// coopMatComponent is the component type id of a KHR cooperative matrix.
// A 4-bit integer component needs Int4CooperativeMatrixINTEL, which
// glslang leaves out (SPV_INTEL_int4 allows such a component only with it).
func (g *gen) coopMatComponent(t *check.Type) uint32 {
	if e := t.Elem; e != nil {
		if st := e.Spirv; st != nil && spirv.Op(st.Op) == spirv.OpTypeInt && len(st.Params) > 0 && len(st.Params[0].Words) == 1 && st.Params[0].Words[0] == 4 {
			g.b.Capability(spirv.CapabilityInt4CooperativeMatrixINTEL)
		}
		return g.typeID(e, check.PackNone)
	}
	return g.scalarType(t.Scalar)
}

// spirvIntConvert converts between cooperative matrices of which one or
// both have a spirv_type integer component (SPV_INTEL_int4's 4-bit
// integers): the opcode follows the source's signedness when widening
// and the result's when narrowing, as the value bits are the same either
// way and OpUConvert and OpConvertFToU need an unsigned result.
func (g *gen) spirvIntConvert(v uint32, from, to *check.Type, pos check.Pos) uint32 {
	if check.Identical(from, to) {
		return v
	}
	fb, fs, fi := coopComponent(from)
	tb, ts, ti := coopComponent(to)
	if !sameDim(from.Params[3], to.Params[3]) || fb == 0 || tb == 0 {
		g.fail(pos, "conversion from %s to %s is not supported by the code generator", from, to)
		return 0
	}
	tid := g.typeID(to, check.PackNone)
	var op spirv.Op
	switch {
	case fi && ti && fb == tb:
		op = spirv.OpBitcast
	case fi && ti && fb < tb:
		op = pick(fs, spirv.OpSConvert, spirv.OpUConvert)
		if !fs && ts {
			mid := *to
			mid.Scalar = to.Scalar.ToUnsigned()
			return g.b.EmitResult(spirv.OpBitcast, tid, g.b.EmitResult(spirv.OpUConvert, g.typeID(&mid, check.PackNone), v))
		}
	case fi && ti:
		op = pick(ts, spirv.OpSConvert, spirv.OpUConvert)
	case fi:
		op = pick(fs, spirv.OpConvertSToF, spirv.OpConvertUToF)
	case ti:
		op = pick(ts, spirv.OpConvertFToS, spirv.OpConvertFToU)
	default:
		op = spirv.OpFConvert
	}
	return g.b.EmitResult(op, tid, v)
}

// coopComponent is a cooperative matrix component's width, signedness
// and whether it is an integer; a width of 0 for one no conversion
// reaches.
func coopComponent(t *check.Type) (bits uint32, signed, isInt bool) {
	if t.Elem != nil {
		b, s, ok := t.Elem.SpirvInt()
		if !ok {
			return 0, false, false
		}
		return b, s, true
	}
	if t.Scalar == check.Bool {
		return 0, false, false
	}
	return uint32(t.Scalar.Bits()), t.Scalar.IsSigned(), t.Scalar.IsInt()
}
