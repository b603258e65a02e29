// Package spirv is coop's hub: the in-memory SPIR-V module that the compiler
// produces, the assembler and binary reader build, and the validator,
// disassembler, executor and Vulkan backend consume.
//
// A Module is a header plus a flat list of instructions in binary order, so
// any module, valid or not, round-trips byte for byte. Layout groups those
// instructions into the logical sections of the specification (and
// functions into blocks) for the consumers that need them. Builder is the
// append-only API the compiler writes modules with.
//
// The opcode, operand-kind and enumerant tables come from the SPIR-V grammar
// and are generated (see grammar_gen.go).
package spirv

//go:generate go run ./internal/gengrammar -grammar ../../shared/specs/spirv/grammar -out .

import "fmt"

// MagicNumber is the first word of every SPIR-V module.
const MagicNumber = 0x07230203

// Op is an instruction opcode.
type Op uint16

// Version is a SPIR-V version as the header encodes it: major<<16 | minor<<8.
// Zero in a grammar table means "only through an extension".
type Version uint32

// MakeVersion builds a Version from its parts.
func MakeVersion(major, minor int) Version { return Version(major<<16 | minor<<8) }

// Major and Minor split a Version.
func (v Version) Major() int { return int(v>>16) & 0xff }
func (v Version) Minor() int { return int(v>>8) & 0xff }

func (v Version) String() string { return fmt.Sprintf("%d.%d", v.Major(), v.Minor()) }

// OperandKind names a kind of operand in the grammar (IdRef, LiteralString,
// StorageClass, ...). The Kind* constants are generated.
type OperandKind uint8

// Quantifier says how many times an operand may appear.
type Quantifier uint8

const (
	QuantOne      Quantifier = iota // exactly once
	QuantOptional                   // "?": zero or one time
	QuantMany                       // "*": zero or more times
)

// Category is the grammar's category of an operand kind.
type Category uint8

const (
	CategoryBitEnum Category = iota
	CategoryValueEnum
	CategoryId
	CategoryLiteral
	CategoryComposite
)

// OperandDesc describes one operand of an instruction or an enumerant
// parameter.
type OperandDesc struct {
	Kind  OperandKind
	Quant Quantifier
	Name  string
}

// InstDesc describes one opcode of the core grammar.
type InstDesc struct {
	Name         string
	Op           Op
	Class        string
	Operands     []OperandDesc
	Capabilities []Capability
	Extensions   []string
	Version      Version
	LastVersion  Version
	Aliases      []string
}

// HasType reports whether the instruction's first operand is a result type.
func (d *InstDesc) HasType() bool {
	return len(d.Operands) > 0 && d.Operands[0].Kind == KindIdResultType
}

// HasResult reports whether the instruction defines a result id.
func (d *InstDesc) HasResult() bool {
	for i := 0; i < len(d.Operands) && i < 2; i++ {
		if d.Operands[i].Kind == KindIdResult {
			return true
		}
	}
	return false
}

// Enumerant is one named value of a ValueEnum or BitEnum operand kind.
type Enumerant struct {
	Name         string
	Value        uint32
	Params       []OperandDesc
	Capabilities []Capability
	Extensions   []string
	Version      Version
	LastVersion  Version
	Aliases      []string
}

// OperandKindDesc describes an operand kind.
type OperandKindDesc struct {
	Name       string
	Category   Category
	Enumerants []Enumerant // sorted by value
	Bases      []OperandKind
}

// opIndex (generated, static so that no program linking spirv pays to
// build it) holds, by opcode, 1 + the index of its description in
// instDescs, 0 for an opcode the grammar does not know.

// Ops yields every opcode the grammar knows (range over it), sparing
// callers a walk over all 65536 opcode values.
func Ops(yield func(Op) bool) {
	for i := range instDescs {
		if !yield(instDescs[i].Op) {
			return
		}
	}
}

// OpsOfClass returns the opcodes of an instruction class of the grammar
// ("Arithmetic", "Constant-Creation", ...) in opcode order, from a
// generated table: no walk over the grammar. Callers must not modify the
// slice.
func OpsOfClass(class string) []Op {
	for i := range classOps {
		if classOps[i].class == class {
			return classOps[i].ops
		}
	}
	return nil
}

// OpsWithOperand returns the opcodes with at least one operand of kind k
// in opcode order, from a generated table. Callers must not modify the
// slice.
func OpsWithOperand(k OperandKind) []Op {
	if int(k) >= len(kindOps) {
		return nil
	}
	return kindOps[k]
}

// NumOps is how many opcodes the grammar knows.
const NumOps = len(instDescs)

// Index returns op's position among the opcodes the grammar knows, 0 to
// NumOps-1, or -1 for an opcode it does not know: a dense index for
// tables by opcode.
func (op Op) Index() int {
	if int(op) >= len(opIndex) {
		return -1
	}
	return int(opIndex[op]) - 1
}

// Desc returns the grammar's description of op, or nil for an opcode the
// grammar does not know.
func (op Op) Desc() *InstDesc {
	if int(op) >= len(opIndex) || opIndex[op] == 0 {
		return nil
	}
	return &instDescs[opIndex[op]-1]
}

func (op Op) String() string {
	if d := op.Desc(); d != nil {
		return d.Name
	}
	return fmt.Sprintf("Op(%d)", uint16(op))
}

var opNames map[string]Op

// LookupOp finds an opcode by name ("OpIAdd") or by one of its aliases.
func LookupOp(name string) (Op, bool) {
	if opNames == nil {
		m := make(map[string]Op, 2*len(instDescs))
		for i := range instDescs {
			d := &instDescs[i]
			m[d.Name] = d.Op
			for _, a := range d.Aliases {
				m[a] = d.Op
			}
		}
		opNames = m
	}
	op, ok := opNames[name]
	return op, ok
}

// Desc returns the description of an operand kind, or nil.
func (k OperandKind) Desc() *OperandKindDesc {
	if k == 0 || int(k) >= len(operandKinds) {
		return nil
	}
	return &operandKinds[k]
}

func (k OperandKind) String() string {
	if d := k.Desc(); d != nil {
		return d.Name
	}
	return fmt.Sprintf("OperandKind(%d)", uint8(k))
}

// Enumerant returns the enumerant of a ValueEnum kind with the given value,
// or for a BitEnum the enumerant of exactly that single bit (or of 0), or
// nil.
func (k OperandKind) Enumerant(v uint32) *Enumerant {
	d := k.Desc()
	if d == nil {
		return nil
	}
	ens := d.Enumerants
	lo, hi := 0, len(ens)
	for lo < hi {
		m := (lo + hi) / 2
		if ens[m].Value < v {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(ens) && ens[lo].Value == v {
		return &ens[lo]
	}
	return nil
}

// LookupEnumerant finds an enumerant of kind k by name or alias.
func (k OperandKind) LookupEnumerant(name string) *Enumerant {
	d := k.Desc()
	if d == nil {
		return nil
	}
	for i := range d.Enumerants {
		e := &d.Enumerants[i]
		if e.Name == name {
			return e
		}
		for _, a := range e.Aliases {
			if a == name {
				return e
			}
		}
	}
	return nil
}

// LookupKind finds an operand kind by its grammar name.
func LookupKind(name string) (OperandKind, bool) {
	for i := 1; i < len(operandKinds); i++ {
		if operandKinds[i].Name == name {
			return OperandKind(i), true
		}
	}
	return 0, false
}

// ExtInstDesc describes one instruction of an extended instruction set.
type ExtInstDesc struct {
	Name         string
	Number       uint32
	Operands     []OperandDesc
	Capabilities []Capability
}

// ExtInstSet is the grammar of an extended instruction set.
type ExtInstSet struct {
	Name  string
	Insts []ExtInstDesc // sorted by Number
}

// Inst returns the description of instruction number n, or nil.
func (s *ExtInstSet) Inst(n uint32) *ExtInstDesc {
	for i := range s.Insts {
		if s.Insts[i].Number == n {
			return &s.Insts[i]
		}
	}
	return nil
}

// Lookup finds an instruction of the set by name.
func (s *ExtInstSet) Lookup(name string) *ExtInstDesc {
	for i := range s.Insts {
		if s.Insts[i].Name == name {
			return &s.Insts[i]
		}
	}
	return nil
}

// LookupExtInstSet returns the grammar of a known extended instruction set
// by its import name ("GLSL.std.450"), or nil.
func LookupExtInstSet(name string) *ExtInstSet {
	for _, s := range extInstSets {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// GeneratorName returns the registered vendor and tool of a generator word
// (its high 16 bits), with ok false for an unregistered tool id.
func GeneratorName(generator uint32) (vendor, tool string, ok bool) {
	id := generator >> 16
	if id >= uint32(len(generatorTools)) || generatorTools[id][0] == "" {
		return "", "", false
	}
	return generatorTools[id][0], generatorTools[id][1], true
}
