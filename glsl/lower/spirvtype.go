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
func (g *gen) coopMatComponent(t *check.Type) uint32 {
	if t.Elem != nil {
		return g.typeID(t.Elem, check.PackNone)
	}
	return g.scalarType(t.Scalar)
}
