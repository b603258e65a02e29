package check

import (
	"math"
	"strings"

	"github.com/coopshader/coop/internal/lazy"

	"github.com/coopshader/coop/glsl/syntax"
)

const spirvIntrinsicsExt = "GL_EXT_spirv_intrinsics"

// SpirvReqs are the extensions and capabilities a GL_EXT_spirv_intrinsics
// qualifier asks the module to declare.
type SpirvReqs struct {
	Extensions   []string
	Capabilities []uint32
}

// SpirvInstruction is a function declared with spirv_instruction: a call
// becomes the instruction ID of the core set (Set "") or OpExtInst of Set.
type SpirvInstruction struct {
	SpirvReqs
	Set string
	ID  uint32
}

// SpirvDecorationKind says which decorate instruction a qualifier asks for.
type SpirvDecorationKind uint8

const (
	SpirvDecorate       SpirvDecorationKind = iota // OpDecorate / OpMemberDecorate with literals
	SpirvDecorateID                                // OpDecorateId with constant operands
	SpirvDecorateString                            // OpDecorateString / OpMemberDecorateString
)

// SpirvDecoration is one spirv_decorate, spirv_decorate_id or
// spirv_decorate_string qualifier.
type SpirvDecoration struct {
	SpirvReqs
	Pos        Pos
	Kind       SpirvDecorationKind
	Decoration uint32
	Literals   []uint32 // SpirvDecorate
	IDs        []Expr   // SpirvDecorateID: constant expressions
	Strings    []string // SpirvDecorateString
}

// SpirvExecutionMode is a spirv_execution_mode (literal operands) or
// spirv_execution_mode_id (constant-expression operands) declaration.
type SpirvExecutionMode struct {
	SpirvReqs
	Mode     uint32
	UseIDs   bool
	Literals []uint32
	IDs      []Expr
}

// SpirvStorageClass is a spirv_storage_class qualifier on a global.
type SpirvStorageClass struct {
	SpirvReqs
	Class uint32
}

// isIntrinsicQual reports whether a qualifier is one of the extension's
// argument-taking qualifiers.
func isIntrinsicQual(name string) bool {
	switch name {
	case "spirv_instruction", "spirv_decorate", "spirv_decorate_id", "spirv_decorate_string",
		"spirv_execution_mode", "spirv_execution_mode_id", "spirv_storage_class":
		return true
	}
	return false
}

// spirvArgs splits a qualifier's arguments into its requirements, its named
// items (set = , id = ) and its positional values.
func (c *checker) spirvArgs(q *syntax.Qualifier) (SpirvReqs, map[string]*syntax.LayoutItem, []*syntax.LayoutItem) {
	var r SpirvReqs
	named := map[string]*syntax.LayoutItem{}
	var pos []*syntax.LayoutItem
	for _, it := range q.Layout {
		switch it.Name {
		case "":
			pos = append(pos, it)
		case "extensions", "capabilities":
			list, ok := it.Value.(*syntax.InitList)
			if !ok {
				c.errorf(it.Pos, it.Name, "expected a [ ] list")
				continue
			}
			for _, e := range list.Elems {
				if it.Name == "extensions" {
					if s, ok := e.(*syntax.StringLit); ok {
						r.Extensions = append(r.Extensions, s.Value)
					} else {
						c.errorf(it.Pos, it.Name, "extension names must be string literals")
					}
				} else if v, ok := c.spirvUint(e, "capability"); ok {
					r.Capabilities = append(r.Capabilities, v)
				}
			}
		case "set", "id":
			named[it.Name] = it
		default:
			c.errorf(it.Pos, it.Name, "unknown argument of %s", q.Name)
		}
	}
	return r, named, pos
}

// spirvUint evaluates an integer constant expression to a 32-bit word.
func (c *checker) spirvUint(e syntax.Expr, what string) (uint32, bool) {
	x := c.expr(e)
	v, ok := c.intConst(x, what)
	if !ok {
		return 0, false
	}
	if v < 0 || v > math.MaxUint32 {
		c.errorf(x.Position(), what, "value out of range of a 32-bit word")
		return 0, false
	}
	return uint32(v), true
}

// spirvLiteral evaluates a literal operand (integer, float, bool or
// string) to the words SPIR-V encodes it as.
func (c *checker) spirvLiteral(e syntax.Expr, what string) ([]uint32, bool) {
	if s, ok := e.(*syntax.StringLit); ok {
		return stringWords(s.Value), true
	}
	x := c.expr(e)
	v := constOf(x)
	t := x.Type()
	if v == nil || t.Kind != KScalar || v.Type == nil {
		c.errorf(x.Position(), what, "literal operands must be scalar constants")
		return nil, false
	}
	switch s := t.Scalar; {
	case s == Bool:
		if v.Bool() {
			return []uint32{1}, true
		}
		return []uint32{0}, true
	case s.IsFloat():
		return []uint32{math.Float32bits(float32(v.Float()))}, true
	case s.Bits() > 32:
		c.errorf(x.Position(), what, "literal operands must fit in 32 bits")
		return nil, false
	}
	return []uint32{uint32(v.Bits)}, true
}

// stringWords encodes a SPIR-V literal string: UTF-8, nul-terminated,
// padded to whole little-endian words.
func stringWords(s string) []uint32 {
	b := append([]byte(s), 0)
	words := make([]uint32, (len(b)+3)/4)
	for i, c := range b {
		words[i/4] |= uint32(c) << (8 * (i % 4))
	}
	return words
}

func (c *checker) spirvInstruction(q *syntax.Qualifier) *SpirvInstruction {
	r, named, pos := c.spirvArgs(q)
	in := &SpirvInstruction{SpirvReqs: r}
	if len(pos) > 0 {
		c.errorf(pos[0].Pos, q.Name, "expected set = or id =")
	}
	if it := named["set"]; it != nil {
		if s, ok := it.Value.(*syntax.StringLit); ok {
			in.Set = s.Value
		} else {
			c.errorf(it.Pos, "set", "the instruction set must be a string literal")
		}
	}
	it := named["id"]
	if it == nil {
		c.errorf(q.Pos, q.Name, "the instruction id is required")
		return nil
	}
	id, ok := c.spirvUint(it.Value, "id")
	if !ok {
		return nil
	}
	if in.Set == "" && (id == 0 || id > 0xffff) {
		c.errorf(it.Pos, "id", "not a SPIR-V opcode: %d", id)
		return nil
	}
	in.ID = id
	return in
}

// spirvHead reads the leading number of a decoration, execution-mode or
// storage-class qualifier; rest are the operands after it.
func (c *checker) spirvHead(q *syntax.Qualifier, what string) (r SpirvReqs, n uint32, rest []*syntax.LayoutItem, ok bool) {
	r, named, pos := c.spirvArgs(q)
	for _, key := range [...]string{"set", "id"} {
		if it := named[key]; it != nil {
			c.errorf(it.Pos, key, "unknown argument of %s", q.Name)
		}
	}
	if len(pos) == 0 {
		c.errorf(q.Pos, q.Name, "the %s is required", what)
		return r, 0, nil, false
	}
	n, ok = c.spirvUint(pos[0].Value, what)
	return r, n, pos[1:], ok
}

var decorationKinds = lazy.Value[map[string]SpirvDecorationKind]{F: func() map[string]SpirvDecorationKind {
	return map[string]SpirvDecorationKind{
		"spirv_decorate": SpirvDecorate, "spirv_decorate_id": SpirvDecorateID, "spirv_decorate_string": SpirvDecorateString,
	}
}}

func (c *checker) spirvDecoration(q *syntax.Qualifier) *SpirvDecoration {
	r, dec, rest, ok := c.spirvHead(q, "decoration")
	if !ok {
		return nil
	}
	d := &SpirvDecoration{SpirvReqs: r, Pos: q.Pos, Kind: decorationKinds.Get()[q.Name], Decoration: dec}
	for _, it := range rest {
		switch d.Kind {
		case SpirvDecorate:
			if _, isStr := it.Value.(*syntax.StringLit); isStr {
				c.errorf(it.Pos, q.Name, "string operands need spirv_decorate_string")
				return nil
			}
			w, ok := c.spirvLiteral(it.Value, q.Name)
			if !ok {
				return nil
			}
			d.Literals = append(d.Literals, w...)
		case SpirvDecorateID:
			x := c.expr(it.Value)
			if constOf(x) == nil && !isVarRef(x) {
				c.errorf(x.Position(), q.Name, "operands must be constant expressions or variables")
				return nil
			}
			d.IDs = append(d.IDs, x)
		case SpirvDecorateString:
			s, ok := it.Value.(*syntax.StringLit)
			if !ok {
				c.errorf(it.Pos, q.Name, "operands must be string literals")
				return nil
			}
			d.Strings = append(d.Strings, s.Value)
		}
	}
	if d.Kind == SpirvDecorateString && len(d.Strings) == 0 {
		c.errorf(q.Pos, q.Name, "at least one string operand is required")
		return nil
	}
	return d
}

// isVarRef reports whether x names a variable: spirv_decorate_id may point
// at another resource (CounterBuffer), as glslang allows.
func isVarRef(x Expr) bool {
	_, ok := x.(*VarRef)
	return ok
}

func (c *checker) spirvExecutionMode(q *syntax.Qualifier) *SpirvExecutionMode {
	r, mode, rest, ok := c.spirvHead(q, "execution mode")
	if !ok {
		return nil
	}
	m := &SpirvExecutionMode{SpirvReqs: r, Mode: mode, UseIDs: q.Name == "spirv_execution_mode_id"}
	for _, it := range rest {
		if m.UseIDs {
			x := c.expr(it.Value)
			if constOf(x) == nil && !isSpecConstRef(x) {
				c.errorf(x.Position(), q.Name, "operands must be constant expressions")
				return nil
			}
			m.IDs = append(m.IDs, x)
			continue
		}
		w, ok := c.spirvLiteral(it.Value, q.Name)
		if !ok {
			return nil
		}
		m.Literals = append(m.Literals, w...)
	}
	return m
}

func isSpecConstRef(x Expr) bool {
	r, ok := x.(*VarRef)
	return ok && r.Var.Storage == StorageSpecConst
}

func (c *checker) spirvStorageClass(q *syntax.Qualifier) *SpirvStorageClass {
	r, sc, rest, ok := c.spirvHead(q, "storage class")
	if !ok {
		return nil
	}
	if len(rest) > 0 {
		c.errorf(rest[0].Pos, q.Name, "expected one storage class")
		return nil
	}
	return &SpirvStorageClass{SpirvReqs: r, Class: sc}
}

// spirvQuals are the intrinsic qualifiers found on one declaration.
type spirvQuals struct {
	instruction  *SpirvInstruction
	decorations  []*SpirvDecoration
	execModes    []*SpirvExecutionMode
	storageClass *SpirvStorageClass
}

// intrinsics interprets the GL_EXT_spirv_intrinsics qualifiers of q. Each
// needs the extension; allowed names which kinds the declaration may carry
// (the rest are reported where they stand).
func (c *checker) intrinsics(q quals, allowed ...string) spirvQuals {
	var s spirvQuals
	for _, x := range q.spirv {
		if !c.requireExt(x.Pos, x.Name, spirvIntrinsicsExt) {
			continue
		}
		ok := false
		for _, a := range allowed {
			ok = ok || strings.HasPrefix(x.Name, a)
		}
		if !ok {
			c.errorf(x.Pos, x.Name, "qualifier not supported on this declaration")
			continue
		}
		switch x.Name {
		case "spirv_instruction":
			if s.instruction != nil {
				c.errorf(x.Pos, x.Name, "only one spirv_instruction per function")
				continue
			}
			s.instruction = c.spirvInstruction(x)
		case "spirv_decorate", "spirv_decorate_id", "spirv_decorate_string":
			if d := c.spirvDecoration(x); d != nil {
				s.decorations = append(s.decorations, d)
			}
		case "spirv_execution_mode", "spirv_execution_mode_id":
			if m := c.spirvExecutionMode(x); m != nil {
				s.execModes = append(s.execModes, m)
			}
		case "spirv_storage_class":
			s.storageClass = c.spirvStorageClass(x)
		}
	}
	for _, p := range [...]struct {
		on   bool
		name string
	}{{q.byRef, "spirv_by_reference"}, {q.literal, "spirv_literal"}} {
		if p.on {
			c.requireExt(q.pos, p.name, spirvIntrinsicsExt)
		}
	}
	return s
}

// memberDecorations returns the decorations allowed on a struct member:
// spirv_decorate_id has no member form.
func (s spirvQuals) memberDecorations(c *checker) []*SpirvDecoration {
	var out []*SpirvDecoration
	for _, d := range s.decorations {
		if d.Kind == SpirvDecorateID {
			c.errorf(d.Pos, "spirv_decorate_id", "not allowed on a structure member")
			continue
		}
		out = append(out, d)
	}
	return out
}
