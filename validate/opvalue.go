package validate

import (
	"github.com/coopshader/coop/internal/lazy"
	"github.com/coopshader/coop/spirv"
)

// opValue pairs an opcode with what a family's rules know of it. Tables of
// them are static arrays, which neither package init nor the first
// Validate of a process builds: every start of coop pays for init, and a
// map built on first use cost a fresh process more than validating a
// small module.
type opValue[T any] struct {
	op spirv.Op
	v  T
}

// lookup finds op in table, linearly: these tables are short (valueRule
// indexes the long one).
func lookup[T any](table []opValue[T], op spirv.Op) (T, bool) {
	for _, e := range table {
		if e.op == op {
			return e.v, true
		}
	}
	var zero T
	return zero, false
}

// valueRule returns the arithmetic or composite rule of op (arithRules,
// compositeRules), or nil; checkValueOp asks for every arithmetic
// instruction, so the rules are indexed by the opcode's place in the
// grammar on first use.
func valueRule(op spirv.Op) func(*op) {
	if k := op.Index(); k >= 0 {
		return valueRulesLazy.Get()[k]
	}
	return nil
}

var valueRulesLazy = lazy.Value[*[spirv.NumOps]func(*op)]{F: func() *[spirv.NumOps]func(*op) {
	t := new([spirv.NumOps]func(*op))
	for _, table := range [...][]opValue[func(*op)]{arithRules[:], compositeRules[:]} {
		for _, r := range table {
			t[r.op.Index()] = r.v
		}
	}
	return t
}}
