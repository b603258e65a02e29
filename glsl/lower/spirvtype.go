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
