package devcheck

import (
	"fmt"
	"strings"

	"github.com/coopshader/coop/profile"
	"github.com/coopshader/coop/spirv"
)

// vecComponent names the component type of a cooperative vector type.
func (c *checker) vecComponent(t *spirv.Inst) string {
	if t == nil || t.Op != spirv.OpTypeCooperativeVectorNV || len(t.Words) < 3 {
		return "?"
	}
	return c.scalarName(c.def(t.Words[1]), nil)
}

func (c *checker) coopVec() {
	p := c.p
	lim := p.CoopVecLimits
	for i := range c.m.Insts {
		in := &c.m.Insts[i]
		w := in.Words
		switch in.Op {
		case spirv.OpTypeCooperativeVectorNV:
			if len(w) < 3 {
				continue
			}
			comp := c.scalarName(c.def(w[1]), nil)
			if n, ok := c.constant(w[2]); ok && lim != nil && n > uint64(lim.MaxCooperativeVectorComponents) {
				c.fail(i, "maxCooperativeVectorComponents-10094", "a cooperative vector of %d components; %s allows at most %d (maxCooperativeVectorComponents)", n, p.Name, lim.MaxCooperativeVectorComponents)
			}
			if !vecTypeListed(p.CoopVec, comp) {
				c.fail(i, "OpTypeCooperativeVector-10095", "component type %s is no input or result type of %s's cooperative-vector combinations (%s)", comp, p.Name, vecTypes(p.CoopVec))
			}
		case spirv.OpCooperativeVectorMatrixMulNV, spirv.OpCooperativeVectorMatrixMulAddNV:
			add := in.Op == spirv.OpCooperativeVectorMatrixMulAddNV
			li, ti := 9, 10
			if add {
				li, ti = 12, 13
			}
			if len(w) <= ti {
				continue
			}
			inType := c.vecComponent(c.typeOf(w[2]))
			resType := c.vecComponent(c.def(w[0]))
			inInterp, ok1 := c.interpretation(w[3])
			mInterp, ok2 := c.interpretation(w[6])
			bInterp, ok3 := "", true
			if add {
				bInterp, ok3 = c.interpretation(w[9])
			}
			layout, ok4 := c.constant(w[li])
			tr, ok5 := c.constant(w[ti])
			if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 {
				continue
			}
			if (mInterp == "float8_e4m3" || mInterp == "float8_e5m2") && layout < uint64(spirv.CooperativeVectorMatrixLayoutInferencingOptimalNV) {
				c.fail(i, "OpCooperativeVectorMatrixMulNV-10090", "matrix interpretation %s needs an inferencing- or training-optimal matrix layout, not %s", mInterp, layoutName(layout))
			}
			found := false
			for _, v := range p.CoopVec {
				if v.InputType == inType && v.InputInterpretation == inInterp && v.MatrixInterpretation == mInterp &&
					(!add || v.BiasInterpretation == bInterp) && v.ResultType == resType && (tr == 0 || v.Transpose) {
					found = true
					break
				}
			}
			if !found {
				combo := fmt.Sprintf("input %s, input interpretation %s, matrix interpretation %s", inType, inInterp, mInterp)
				if add {
					combo += ", bias interpretation " + bInterp
				}
				combo += ", result " + resType
				if tr != 0 {
					combo += ", transposed"
				}
				c.fail(i, "OpCooperativeVectorMatrixMulNV-10089", "%s lists no cooperative-vector combination %s (%s)", p.Name, combo, combos(p.CoopVec))
			}
		case spirv.OpCooperativeVectorReduceSumAccumulateNV:
			if len(w) < 3 {
				continue
			}
			comp := c.vecComponent(c.typeOf(w[2]))
			c.training(i, "OpCooperativeVectorReduceSumAccumulateNV-10092", comp, "the vector's component type")
		case spirv.OpCooperativeVectorOuterProductAccumulateNV:
			if len(w) < 6 {
				continue
			}
			mInterp, ok := c.interpretation(w[5])
			if ok {
				c.training(i, "OpCooperativeVectorOuterProductAccumulateNV-10093", mInterp, "matrix interpretation")
			}
			if layout, ok := c.constant(w[4]); ok && layout != uint64(spirv.CooperativeVectorMatrixLayoutTrainingOptimalNV) {
				c.fail(i, "OpCooperativeVectorOuterProductAccumulateNV-10093", "the matrix layout is %s; outer products accumulate into a training-optimal matrix only", layoutName(layout))
			}
			for _, id := range w[2:4] {
				if t := c.vecComponent(c.typeOf(id)); t != "float16" {
					c.fail(i, "OpCooperativeVectorOuterProductAccumulateNV-10093", "operands A and B must be fp16 vectors, not %s", t)
					break
				}
			}
		}
	}
}

// training checks a training accumulation type against the device's
// cooperativeVectorTrainingFloat16/32Accumulation.
func (c *checker) training(i int, vuid, typ, what string) {
	lim := c.p.CoopVecLimits
	switch typ {
	case "float16":
		if lim == nil || !lim.TrainingFloat16Accumulation {
			c.fail(i, vuid, "%s is float16, but %s does not support fp16 training accumulation (cooperativeVectorTrainingFloat16Accumulation)", what, c.p.Name)
		}
	case "float32":
		if lim == nil || !lim.TrainingFloat32Accumulation {
			c.fail(i, vuid, "%s is float32, but %s does not support fp32 training accumulation (cooperativeVectorTrainingFloat32Accumulation)", what, c.p.Name)
		}
	default:
		c.fail(i, vuid, "%s is %s; training accumulation is fp16 or fp32 only", what, typ)
	}
}

func layoutName(l uint64) string {
	switch spirv.CooperativeVectorMatrixLayout(l) {
	case spirv.CooperativeVectorMatrixLayoutRowMajorNV:
		return "RowMajor"
	case spirv.CooperativeVectorMatrixLayoutColumnMajorNV:
		return "ColumnMajor"
	case spirv.CooperativeVectorMatrixLayoutInferencingOptimalNV:
		return "InferencingOptimal"
	case spirv.CooperativeVectorMatrixLayoutTrainingOptimalNV:
		return "TrainingOptimal"
	}
	return fmt.Sprintf("layout %d", l)
}

func vecTypeListed(vs []profile.CoopVecCombo, t string) bool {
	for _, v := range vs {
		if v.InputType == t || v.ResultType == t {
			return true
		}
	}
	return false
}

func vecTypes(vs []profile.CoopVecCombo) string {
	var out []string
	for _, v := range vs {
		out = append(out, v.InputType, v.ResultType)
	}
	if len(out) == 0 {
		return "it lists none"
	}
	return "it has " + strings.Join(uniqueSorted(out), ", ")
}

// combos lists a device's cooperative-vector combinations briefly.
func combos(vs []profile.CoopVecCombo) string {
	if len(vs) == 0 {
		return "it lists none"
	}
	var out []string
	for _, v := range vs {
		s := fmt.Sprintf("%s/%s x %s + %s -> %s", v.InputType, v.InputInterpretation, v.MatrixInterpretation, v.BiasInterpretation, v.ResultType)
		if v.Transpose {
			s += " (transposable)"
		}
		out = append(out, s)
	}
	return "it has " + strings.Join(out, "; ")
}
