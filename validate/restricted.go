package validate

import (
	"slices"

	"github.com/coopshader/coop/spirv"
)

// restricted describes a type family that objects may only reach a listed
// set of instructions (4-bit integers, bfloat16, 8-bit floats).
type restricted struct {
	rule    string
	what    string                   // "4-bit integer"
	is      func(*state, *Type) bool // the scalar type of the family
	classes [][]string               // grammar classes allowed (lists of them: static data)
	ops     []spirv.Op               // instructions allowed besides
	cite    string
}

// allows reports whether r's classes include class.
func (r *restricted) allows(class string) bool {
	for _, l := range r.classes {
		if slices.Contains(l, class) {
			return true
		}
	}
	return false
}

// checkRestricted checks that no instruction outside r's list has a result
// or an operand whose type is or includes r's type.
func (s *state) checkRestricted(r *restricted) {
	has := false
	for _, t := range s.types {
		if r.is(s, t) {
			has = true
			break
		}
	}
	if !has {
		return
	}
	memo := map[uint32]bool{}
	includes := func(id uint32) bool {
		v, ok := memo[id]
		if !ok {
			v = s.contains(s.types[id], func(t *Type) bool { return r.is(s, t) }) != nil
			memo[id] = v
		}
		return v
	}
	for _, f := range s.funcs {
		for i := f.Index + 1; i < f.End; i++ {
			in := &s.m.Insts[i]
			d := in.Op.Desc()
			if r.allows(d.Class) || slices.Contains(r.ops, in.Op) {
				continue
			}
			bad := in.TypeID() != 0 && includes(in.TypeID())
			if !bad {
				for _, o := range s.operands(i) {
					if o.Kind == spirv.KindIdRef && includes(s.typeOf(in.Words[o.Offset])) {
						bad = true
						break
					}
				}
			}
			if bad {
				s.fail(i, r.rule, "%s cannot be used with a type that is or includes a %s (%s)", in.Op, r.what, r.cite)
				return
			}
		}
	}
}

// dataClasses are the instruction classes the narrow-type extensions all
// allow.
var dataClasses = []string{"Constant-Creation", "Memory", "Function", "Conversion", "Composite"}
