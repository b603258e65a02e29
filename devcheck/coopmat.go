package devcheck

import (
	"fmt"
	"slices"
	"strings"

	"github.com/coopshader/coop/profile"
	"github.com/coopshader/coop/spirv"
)

// mat is a cooperative matrix type with its operands evaluated.
type mat struct {
	comp       *spirv.Inst
	scope      string
	rows, cols uint64
	use        uint64 // KHR MatrixUse: 0 A, 1 B, 2 accumulator
}

// matType reads an OpTypeCooperativeMatrixKHR/NV; ok is false when an
// operand is not a known constant (a spec-constant expression), in which
// case the rules are left to the driver.
func (c *checker) matType(t *spirv.Inst) (mat, bool) {
	if t == nil || len(t.Words) < 5 {
		return mat{}, false
	}
	w := t.Words
	sc, ok1 := c.constant(w[2])
	r, ok2 := c.constant(w[3])
	k, ok3 := c.constant(w[4])
	m := mat{comp: c.def(w[1]), scope: scopeName(sc), rows: r, cols: k}
	if t.Op == spirv.OpTypeCooperativeMatrixKHR {
		if len(w) < 6 {
			return mat{}, false
		}
		u, ok := c.constant(w[5])
		m.use = u
		ok1 = ok1 && ok
	}
	return m, ok1 && ok2 && ok3 && m.comp != nil
}

func scopeName(s uint64) string {
	switch spirv.Scope(s) {
	case spirv.ScopeCrossDevice:
		return "device"
	case spirv.ScopeDevice:
		return "device"
	case spirv.ScopeWorkgroup:
		return "workgroup"
	case spirv.ScopeSubgroup:
		return "subgroup"
	case spirv.ScopeQueueFamily:
		return "queue_family"
	}
	return fmt.Sprintf("Scope(%d)", s)
}

// sameType compares a type with a profile's type name; for KHR matrices
// the integer signedness comes from the instruction (anySign for a type
// declaration, where it is not yet known).
func (c *checker) sameType(t *spirv.Inst, name string, anySign bool) bool {
	n := c.scalarName(t, nil)
	if n == name {
		return true
	}
	if anySign && t.Op == spirv.OpTypeInt {
		return strings.TrimPrefix(strings.TrimPrefix(n, "s"), "u") == strings.TrimPrefix(strings.TrimPrefix(name, "s"), "u")
	}
	return false
}

var useNames = []string{"MatrixA", "MatrixB", "MatrixAccumulator"}

func useName(u uint64) string {
	if u < uint64(len(useNames)) {
		return useNames[u]
	}
	return fmt.Sprintf("Use(%d)", u)
}

func (c *checker) coopMat() {
	p := c.p
	flex := p.Feature("cooperativeMatrixFlexibleDimensions")
	inv, invKnown := c.f.invocations()
	for i := range c.m.Insts {
		in := &c.m.Insts[i]
		switch in.Op {
		case spirv.OpTypeCooperativeMatrixKHR:
			m, ok := c.matType(in)
			if !ok {
				continue
			}
			desc := fmt.Sprintf("%s %dx%d %s, %s scope", useName(m.use), m.rows, m.cols, c.scalarName(m.comp, nil), m.scope)
			if m.scope == "workgroup" {
				if !p.Feature("cooperativeMatrixWorkgroupScope") {
					c.fail(i, "cooperativeMatrixWorkgroupScope-10164", "%s: %s does not support workgroup-scope cooperative matrices (feature cooperativeMatrixWorkgroupScope)", desc, p.Name)
					continue
				}
				if lim := p.CoopMat2; lim != nil && invKnown && inv > uint64(lim.WorkgroupScopeMaxWorkgroupSize) {
					c.fail(i, "cooperativeMatrixWorkgroupScope-10164", "%s: the workgroup has %d invocations; %s allows at most %d with workgroup-scope matrices (cooperativeMatrixWorkgroupScopeMaxWorkgroupSize)", desc, inv, p.Name, lim.WorkgroupScopeMaxWorkgroupSize)
				}
			}
			if lim := p.CoopMat2; lim != nil && (m.rows > uint64(lim.FlexibleDimensionsMaxDimension) || m.cols > uint64(lim.FlexibleDimensionsMaxDimension)) {
				c.fail(i, "cooperativeMatrixFlexibleDimensionsMaxDimension-10167", "%s: a dimension exceeds %s's cooperativeMatrixFlexibleDimensionsMaxDimension %d", desc, p.Name, lim.FlexibleDimensionsMaxDimension)
				continue
			}
			if c.khrTypeListed(m) {
				continue
			}
			if flex {
				if ok, why := c.flexTypeListed(m, inv, invKnown); !ok {
					c.fail(i, "cooperativeMatrixFlexibleDimensions-10165", "%s: %s lists no cooperative-matrix shape or flexible-dimension entry with this type%s", desc, p.Name, why)
				}
				continue
			}
			c.fail(i, "OpTypeCooperativeMatrixKHR-10163", "%s: %s lists no cooperative-matrix shape with this type (%s)", desc, p.Name, shapesKHR(p.CoopMatKHR))
		case spirv.OpCooperativeMatrixMulAddKHR:
			c.mulAddKHR(i, in, flex, inv, invKnown)
		case spirv.OpTypeCooperativeMatrixNV:
			m, ok := c.matType(in)
			if !ok {
				continue
			}
			found := false
			for _, s := range p.CoopMatNV {
				if s.Scope != m.scope {
					continue
				}
				for _, d := range [][3]any{{s.M, s.K, s.A}, {s.K, s.N, s.B}, {s.M, s.N, s.C}, {s.M, s.N, s.Result}} {
					if uint64(d[0].(uint32)) == m.rows && uint64(d[1].(uint32)) == m.cols && c.sameType(m.comp, d[2].(string), false) {
						found = true
					}
				}
			}
			if !found {
				c.fail(i, "OpTypeCooperativeMatrixNV-06316", "%dx%d %s, %s scope: %s lists no VK_NV_cooperative_matrix shape with this type (%s)", m.rows, m.cols, c.scalarName(m.comp, nil), m.scope, p.Name, shapesKHR(p.CoopMatNV))
			}
		case spirv.OpCooperativeMatrixMulAddNV:
			if len(in.Words) < 5 {
				continue
			}
			var ms [4]mat
			ok := true
			for k, id := range []uint32{in.Words[2], in.Words[3], in.Words[4]} {
				var o bool
				ms[k], o = c.matType(c.typeOf(id))
				ok = ok && o
			}
			var o bool
			ms[3], o = c.matType(c.def(in.Words[0]))
			if !ok || !o {
				continue
			}
			found := false
			for _, s := range p.CoopMatNV {
				if ms[0].rows == uint64(s.M) && ms[0].cols == uint64(s.K) && ms[1].cols == uint64(s.N) && ms[2].rows == uint64(s.M) && ms[2].cols == uint64(s.N) &&
					c.sameType(ms[0].comp, s.A, false) && c.sameType(ms[1].comp, s.B, false) && c.sameType(ms[2].comp, s.C, false) && c.sameType(ms[3].comp, s.Result, false) &&
					ms[0].scope == "subgroup" && s.Scope == "subgroup" {
					found = true
				}
			}
			if !found {
				c.fail(i, "OpTypeCooperativeMatrixMulAddNV-10059", "%s lists no VK_NV_cooperative_matrix shape M=%d N=%d K=%d A=%s B=%s C=%s Result=%s, %s scope (%s)", p.Name,
					ms[0].rows, ms[1].cols, ms[0].cols, c.scalarName(ms[0].comp, nil), c.scalarName(ms[1].comp, nil), c.scalarName(ms[2].comp, nil), c.scalarName(ms[3].comp, nil), ms[0].scope, shapesKHR(p.CoopMatNV))
			}
		}
	}
}

// khrTypeListed: VUID-RuntimeSpirv-OpTypeCooperativeMatrixKHR-10163.
func (c *checker) khrTypeListed(m mat) bool {
	for _, s := range c.p.CoopMatKHR {
		if s.Scope != m.scope {
			continue
		}
		switch m.use {
		case 0:
			if uint64(s.M) == m.rows && uint64(s.K) == m.cols && c.sameType(m.comp, s.A, true) {
				return true
			}
		case 1:
			if uint64(s.K) == m.rows && uint64(s.N) == m.cols && c.sameType(m.comp, s.B, true) {
				return true
			}
		case 2:
			if uint64(s.M) == m.rows && uint64(s.N) == m.cols && (c.sameType(m.comp, s.C, true) || c.sameType(m.comp, s.Result, true)) {
				return true
			}
		}
	}
	return false
}

// flexTypeListed: VUID-RuntimeSpirv-cooperativeMatrixFlexibleDimensions-10165.
func (c *checker) flexTypeListed(m mat, inv uint64, invKnown bool) (bool, string) {
	why := ""
	for _, s := range c.p.CoopMatFlex {
		if s.Scope != m.scope {
			continue
		}
		var ok bool
		switch m.use {
		case 0:
			ok = m.rows%uint64(s.MGranularity) == 0 && m.cols%uint64(s.KGranularity) == 0 && c.sameType(m.comp, s.A, true)
		case 1:
			ok = m.rows%uint64(s.KGranularity) == 0 && m.cols%uint64(s.NGranularity) == 0 && c.sameType(m.comp, s.B, true)
		case 2:
			ok = m.rows%uint64(s.MGranularity) == 0 && m.cols%uint64(s.NGranularity) == 0 && (c.sameType(m.comp, s.C, true) || c.sameType(m.comp, s.Result, true))
		}
		if !ok {
			continue
		}
		if s.Scope == "workgroup" && invKnown && inv != uint64(s.WorkgroupInvocations) {
			why = fmt.Sprintf(" for a workgroup of %d invocations (workgroup-scope entries need %s)", inv, flexInvocations(c.p.CoopMatFlex))
			continue
		}
		return true, ""
	}
	return false, why
}

func flexInvocations(ss []profile.CoopMatFlexShape) string {
	var ns []uint32
	for _, s := range ss {
		if s.Scope == "workgroup" {
			ns = append(ns, s.WorkgroupInvocations)
		}
	}
	slices.Sort(ns)
	var out []string
	for _, n := range slices.Compact(ns) {
		out = append(out, fmt.Sprint(n))
	}
	return strings.Join(out, ", ")
}

// mulAddKHR: VUID-RuntimeSpirv-OpCooperativeMatrixMulAddKHR-10060 and
// cooperativeMatrixFlexibleDimensions-10166.
func (c *checker) mulAddKHR(i int, in *spirv.Inst, flex bool, inv uint64, invKnown bool) {
	w := in.Words
	if len(w) < 5 {
		return
	}
	var ms [4]mat
	for k, id := range []uint32{w[2], w[3], w[4]} {
		var ok bool
		if ms[k], ok = c.matType(c.typeOf(id)); !ok {
			return
		}
	}
	var ok bool
	if ms[3], ok = c.matType(c.def(w[0])); !ok {
		return
	}
	ops := uint32(0)
	if len(w) >= 6 {
		ops = w[5]
	}
	signed := func(bit uint32) *bool { b := ops&bit != 0; return &b }
	names := [4]string{
		c.scalarName(ms[0].comp, signed(uint32(spirv.CooperativeMatrixOperandsMatrixASignedComponentsKHR))),
		c.scalarName(ms[1].comp, signed(uint32(spirv.CooperativeMatrixOperandsMatrixBSignedComponentsKHR))),
		c.scalarName(ms[2].comp, signed(uint32(spirv.CooperativeMatrixOperandsMatrixCSignedComponentsKHR))),
		c.scalarName(ms[3].comp, signed(uint32(spirv.CooperativeMatrixOperandsMatrixResultSignedComponentsKHR))),
	}
	sat := ops&uint32(spirv.CooperativeMatrixOperandsSaturatingAccumulationKHR) != 0
	M, N, K := ms[0].rows, ms[1].cols, ms[0].cols
	scope := ms[0].scope
	match := func(a, b, cc, r string, s bool, sc string) bool {
		return names[0] == a && names[1] == b && names[2] == cc && names[3] == r && s == sat && sc == scope
	}
	for _, s := range c.p.CoopMatKHR {
		if uint64(s.M) == M && uint64(s.N) == N && uint64(s.K) == K && match(s.A, s.B, s.C, s.Result, s.SaturatingAccumulation, s.Scope) {
			return
		}
	}
	combo := fmt.Sprintf("M=%d N=%d K=%d A=%s B=%s C=%s Result=%s saturating=%v, %s scope", M, N, K, names[0], names[1], names[2], names[3], sat, scope)
	if flex {
		why := ""
		for _, s := range c.p.CoopMatFlex {
			if M%uint64(s.MGranularity) == 0 && N%uint64(s.NGranularity) == 0 && K%uint64(s.KGranularity) == 0 && match(s.A, s.B, s.C, s.Result, s.SaturatingAccumulation, s.Scope) {
				if s.Scope == "workgroup" && invKnown && inv != uint64(s.WorkgroupInvocations) {
					why = fmt.Sprintf(" for a workgroup of %d invocations (entries of this type need %s)", inv, flexInvocations(c.p.CoopMatFlex))
					continue
				}
				return
			}
		}
		c.fail(i, "cooperativeMatrixFlexibleDimensions-10166", "%s lists no cooperative-matrix shape or flexible-dimension entry %s%s", c.p.Name, combo, why)
		return
	}
	c.fail(i, "OpCooperativeMatrixMulAddKHR-10060", "%s lists no cooperative-matrix shape %s (%s)", c.p.Name, combo, shapesKHR(c.p.CoopMatKHR))
}

// shapesKHR lists a device's shapes briefly, for messages.
func shapesKHR(ss []profile.CoopMatShape) string {
	if len(ss) == 0 {
		return "it lists none"
	}
	var out []string
	for _, s := range ss {
		out = append(out, fmt.Sprintf("%dx%dx%d %s,%s,%s->%s %s", s.M, s.N, s.K, s.A, s.B, s.C, s.Result, s.Scope))
	}
	return "it has " + strings.Join(out, "; ")
}
