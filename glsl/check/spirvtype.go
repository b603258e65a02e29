package check

import (
	"fmt"
	"strings"

	"github.com/coopshader/coop/glsl/syntax"
)

// SpirvType is a type declared with spirv_type(...) (GL_EXT_spirv_intrinsics):
// the type instruction Op with its operands, each literal words or a type.
// Such a type (Kind KSpirv) is opaque to GLSL: values can be declared,
// copied, passed to functions, held in blocks and handed to
// spirv_instruction functions, and it can be a coopmat's component type
// (then the coopmat has Elem set and no Scalar).
type SpirvType struct {
	SpirvReqs
	Op     uint32
	Params []SpirvTypeParam
}

// SpirvTypeParam is one operand of a spirv_type: Type for an id operand,
// otherwise the literal's words.
type SpirvTypeParam struct {
	Type  *Type
	Words []uint32
}

func (s *SpirvType) same(o *SpirvType) bool {
	if s.Op != o.Op || len(s.Params) != len(o.Params) {
		return false
	}
	for i, p := range s.Params {
		q := o.Params[i]
		if (p.Type == nil) != (q.Type == nil) || p.Type != nil && !Identical(p.Type, q.Type) || fmt.Sprint(p.Words) != fmt.Sprint(q.Words) {
			return false
		}
	}
	return true
}

func (s *SpirvType) write(b *strings.Builder) {
	fmt.Fprintf(b, "spirv_type(id = %d", s.Op)
	for _, p := range s.Params {
		b.WriteString(", ")
		if p.Type != nil {
			p.Type.write(b)
		} else {
			for k, w := range p.Words {
				if k > 0 {
					b.WriteString(" ")
				}
				fmt.Fprint(b, w)
			}
		}
	}
	b.WriteString(")")
}

// spirvType resolves spirv_type(...).
func (c *checker) spirvType(ts *syntax.TypeSpec) *Type {
	if !c.requireExt(ts.Pos, "spirv_type", spirvIntrinsicsExt) {
		return nil
	}
	// The parser keeps the named arguments apart from the operands.
	reqs, named, _ := c.spirvArgs(&syntax.Qualifier{Pos: ts.Pos, Name: "spirv_type", Layout: ts.Spirv.Named})
	if named["set"] != nil {
		c.errorf(named["set"].Pos, "set", "spirv_type takes no instruction set")
		return nil
	}
	id := named["id"]
	if id == nil {
		c.errorf(ts.Pos, "spirv_type", "missing id = <opcode>")
		return nil
	}
	op, ok := c.spirvUint(id.Value, "id")
	if !ok {
		return nil
	}
	st := &SpirvType{SpirvReqs: reqs, Op: op}
	for _, p := range ts.Spirv.Params {
		if p.Type != nil {
			t := c.typeOf(p.Type, "")
			if t == tError {
				return nil
			}
			st.Params = append(st.Params, SpirvTypeParam{Type: t})
			continue
		}
		w, ok := c.spirvLiteral(p.Expr, "spirv_type")
		if !ok {
			return nil
		}
		st.Params = append(st.Params, SpirvTypeParam{Words: w})
	}
	return &Type{Kind: KSpirv, Spirv: st}
}
