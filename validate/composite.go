package validate

import "github.com/coopshader/coop/spirv"

// The composite instructions (SPIR-V 3.56.12): the literal indices of
// OpCompositeExtract and OpCompositeInsert select a member that exists,
// OpVectorShuffle's components select a component of its two vectors.
// Like the arithmetic rules they also check an OpSpecConstantOp's
// operation.

var compositeRules = [...]opValue[func(*op)]{
	{spirv.OpCompositeExtract, compositeExtract},
	{spirv.OpCompositeInsert, compositeInsert},
	{spirv.OpVectorShuffle, vectorShuffle},
}

// walkLiterals follows literal indices from the type t, as
// OpCompositeExtract and OpCompositeInsert do.
func (c *op) walkLiterals(t *Type, idx []uint32) *Type {
	for _, x := range idx {
		var why string
		if t, why = c.s.walkIndex(t, uint64(x), true, true); t == nil {
			c.fail("composite.index", "Op%s: %s (index %d).", c.name, why, x)
			return nil
		}
	}
	return t
}

// compositeExtract: "Indexes walk the type hierarchy to the desired
// depth, potentially down to component granularity ... 'Result Type' must
// be the type of object selected by the last provided index."
func compositeExtract(c *op) {
	if len(c.args) < 1 {
		return
	}
	t := c.s.valueType(c.args[0])
	if t == nil {
		c.fail("composite.extract", "Op%s Composite <id> '%d' is not a composite object.", c.name, c.args[0])
		return
	}
	if t = c.walkLiterals(t, c.args[1:]); t == nil {
		return
	}
	if t.ID != c.rt {
		c.fail("composite.extract", "Op%s result type (Op%s) does not match the type that results from indexing into the composite (Op%s).",
			c.name, c.s.types[c.rt].Op.String()[2:], t.Op.String()[2:])
	}
}

// compositeInsert: "Result Type must be the same type as Composite.
// Object is the object to use as the modified part. Indexes walk the type
// hierarchy of Composite to the desired depth ... The type of the part
// selected to modify must match the type of Object."
func compositeInsert(c *op) {
	if len(c.args) < 2 {
		return
	}
	if c.s.typeOf(c.args[1]) != c.rt {
		c.fail("composite.insert", "The Result Type must be the same as Composite type in Op%s yielding Result Id %d.", c.name, c.s.m.Insts[c.i].ResultID())
		return
	}
	t := c.walkLiterals(c.s.types[c.rt], c.args[2:])
	if t != nil && t.ID != c.s.typeOf(c.args[0]) {
		c.fail("composite.insert", "The Object type (Op%s) does not match the type that results from indexing into the Composite (Op%s).",
			c.s.valueType(c.args[0]).opName(), t.Op.String()[2:])
	}
}

func (t *Type) opName() string {
	if t == nil {
		return "<not a type>"
	}
	return t.Op.String()[2:]
}

// vectorShuffle: "Result Type must be an OpTypeVector. The number of
// components in Result Type must be the same as the number of Component
// operands. The types of Vector 1 and Vector 2 must be vectors, with the
// same component type as Result Type. ... Components are these
// logical numbers ... A Component literal may also be FFFFFFFF".
func vectorShuffle(c *op) {
	r := c.s.types[c.rt]
	if !r.is(spirv.OpTypeVector) {
		c.fail("composite.shuffle", "The Result Type of OpVectorShuffle must be OpTypeVector. Found Op%s.", r.opName())
		return
	}
	if len(c.args) < 2 {
		return
	}
	comps := c.args[2:]
	if uint64(len(comps)) != r.Count {
		c.fail("composite.shuffle", "OpVectorShuffle component literals count does not match Result Type <id> '%d's vector component count.", c.rt)
		return
	}
	var total uint64
	for k, v := range c.args[:2] {
		t := c.s.valueType(v)
		if !t.is(spirv.OpTypeVector) {
			c.fail("composite.shuffle", "The type of Vector %d must be a vector type.", k+1)
			return
		}
		if t.Elem != r.Elem {
			c.fail("composite.shuffle", "The Component Type of Vector %d must be the same as ResultType.", k+1)
			return
		}
		total += t.Count
	}
	for _, x := range comps {
		if x != 0xffffffff && uint64(x) >= total {
			c.fail("composite.shuffle", "Component index %d is out of bounds for combined (Vector1 + Vector2) size of %d.", x, total)
			return
		}
	}
}
