package validate

import (
	"fmt"
	"strings"

	"github.com/coopshader/coop/spirv"
)

// Type is one declared type, with its operands decoded.
type Type struct {
	ID uint32
	Op spirv.Op
	// Width, Signed and Encoding describe OpTypeInt and OpTypeFloat
	// (Encoding is -1 for IEEE floats).
	Width    uint32
	Signed   bool
	Encoding int32
	// Elem is the component, column, element, pointee or return type.
	Elem uint32
	// Count is a vector's component count, a matrix's column count or an
	// array's length; CountKnown is false for a length that is a
	// specialization constant or for a runtime array.
	Count      uint64
	CountKnown bool
	// Storage is a pointer's storage class.
	Storage spirv.StorageClass
	// Members are a struct's member types or a function type's parameters.
	Members []uint32
	// Scope, Rows, Cols and Use are a cooperative matrix type's constant
	// operands (their ids), NV matrices have no Use.
	Scope, Rows, Cols, Use uint32
}

// Func is one function and its control-flow graph.
type Func struct {
	ID     uint32
	Type   uint32 // the OpTypeFunction
	Index  int    // OpFunction's index in Module.Insts
	End    int    // OpFunctionEnd's index
	Params []uint32
	Blocks []*Block
	// callees caches state.callees (several passes walk the call tree).
	callees      []*Func
	calleesKnown bool
}

// Block is one basic block.
type Block struct {
	Label uint32
	First int // OpLabel's index in Module.Insts
	Last  int // the terminator's index
	Succs []*Block
	Preds []*Block
	// Idom is the immediate dominator (nil for the entry block and for
	// unreachable blocks); Reachable says whether the entry reaches it.
	Idom      *Block
	Reachable bool
	// Merge and Continue are the ids named by the block's OpSelectionMerge
	// or OpLoopMerge (0 when absent); Loop is true for OpLoopMerge.
	Merge, Continue uint32
	Loop            bool
	order           int // reverse postorder number
}

// Dominates reports whether a dominates b (both reachable).
func (a *Block) Dominates(b *Block) bool {
	for ; b != nil; b = b.Idom {
		if b == a {
			return true
		}
	}
	return false
}

// constant is what is known about a constant id.
type constant struct {
	value uint64 // for scalar integer and boolean OpConstant*
	known bool   // value is a fixed OpConstant (not a specialization)
	spec  bool
}

type state struct {
	m    *spirv.Module
	opts Options
	env  env
	err  *Error

	// ops holds the parsed operands of every instruction, opStart[i] the
	// start of instruction i's.
	ops     []spirv.Operand
	opStart []int32
	layout  *spirv.Layout

	// def maps an id to the index of its defining instruction (-1 none).
	def        []int32
	defMap     map[uint32]int32
	types      map[uint32]*Type
	typeKeys   map[string]uint32 // non-aggregate types by opcode and operands
	specIDs    map[uint32]uint32 // SpecId by constant, with Options.Spec
	consts     map[uint32]constant
	caps       map[spirv.Capability]bool
	exts       map[string]bool
	fwdPtr     map[uint32]bool
	funcs      []*Func
	funcOf     map[uint32]*Func
	blockOf    []*Block // by instruction index within functions; nil outside
	entry      []uint32
	globals    map[uint32][]uint32 // globalsUsed by function id
	decor      map[uint32][]decoration
	memberDec  map[uint32][]memberDecoration
	addressing spirv.AddressingModel
	memModel   spirv.MemoryModel

	// typeTaking is takesType by the opcode's place in the grammar: 0
	// not asked yet, 1 no, 2 yes.
	typeTaking [spirv.NumOps]uint8
}

type decoration struct {
	dec  spirv.Decoration
	args []uint32
	inst int
}

type memberDecoration struct {
	member uint32
	dec    spirv.Decoration
	args   []uint32
	inst   int
}

// env describes the target environment.
type env struct {
	name    string
	vulkan  bool
	version spirv.Version // the highest SPIR-V version the environment takes
	vkMinor int
}

func parseEnv(name string) (env, bool) {
	if name == "" {
		name = "vulkan1.3"
	}
	e := env{name: name}
	switch {
	case strings.HasPrefix(name, "vulkan1."):
		e.vulkan = true
		switch name {
		case "vulkan1.0":
			e.version, e.vkMinor = spirv.MakeVersion(1, 0), 0
		case "vulkan1.1":
			e.version, e.vkMinor = spirv.MakeVersion(1, 3), 1
		case "vulkan1.1spv1.4":
			e.version, e.vkMinor = spirv.MakeVersion(1, 4), 1
		case "vulkan1.2":
			e.version, e.vkMinor = spirv.MakeVersion(1, 5), 2
		case "vulkan1.3":
			e.version, e.vkMinor = spirv.MakeVersion(1, 6), 3
		case "vulkan1.4":
			e.version, e.vkMinor = spirv.MakeVersion(1, 6), 4
		default:
			return e, false
		}
	default:
		v := name
		for _, p := range []string{"spirv", "spv", "universal"} {
			v = strings.TrimPrefix(v, p)
		}
		var minor int
		if _, err := fmt.Sscanf(v, "1.%d", &minor); err != nil || minor > 6 || fmt.Sprintf("1.%d", minor) != v {
			return e, false
		}
		e.version = spirv.MakeVersion(1, minor)
	}
	return e, true
}

// TargetEnvs lists the environments Options.TargetEnv accepts.
var TargetEnvs = []string{"vulkan1.0", "vulkan1.1", "vulkan1.1spv1.4", "vulkan1.2", "vulkan1.3", "vulkan1.4",
	"spv1.0", "spv1.1", "spv1.2", "spv1.3", "spv1.4", "spv1.5", "spv1.6",
	"universal1.0", "universal1.1", "universal1.2", "universal1.3", "universal1.4", "universal1.5", "universal1.6"}

func newState(m *spirv.Module, opts Options) (*state, error) {
	if opts.StructureOnly {
		opts.TargetEnv, opts.Profile = "universal1.6", nil
	}
	e, ok := parseEnv(opts.TargetEnv)
	if !ok {
		return nil, fmt.Errorf("unknown target environment %q; expected one of %s", opts.TargetEnv, strings.Join(TargetEnvs, ", "))
	}
	return &state{m: m, opts: opts, env: e,
		types: map[uint32]*Type{}, consts: map[uint32]constant{},
		caps: map[spirv.Capability]bool{}, exts: map[string]bool{}, fwdPtr: map[uint32]bool{},
		funcOf: map[uint32]*Func{}, decor: map[uint32][]decoration{}, memberDec: map[uint32][]memberDecoration{},
	}, nil
}

// fail records the first broken rule; later calls are ignored so a pass
// may keep going without checking.
func (s *state) fail(i int, rule, format string, args ...any) {
	if s.err == nil {
		s.err = &Error{Index: i, Rule: rule, Msg: fmt.Sprintf(format, args...)}
	}
}

func (s *state) result() *Result {
	return &Result{Layout: s.layout, Types: s.types, Funcs: s.funcs, EntryPoints: s.entry}
}

// operands returns instruction i's parsed operands.
func (s *state) operands(i int) []spirv.Operand {
	return s.ops[s.opStart[i]:s.opStart[i+1]]
}

// defIndex returns the index of the instruction defining id, or -1.
func (s *state) defIndex(id uint32) int {
	if id < uint32(len(s.def)) {
		return int(s.def[id])
	}
	if i, ok := s.defMap[id]; ok {
		return int(i)
	}
	return -1
}

// defInst returns the instruction defining id, or nil.
func (s *state) defInst(id uint32) *spirv.Inst {
	if i := s.defIndex(id); i >= 0 {
		return &s.m.Insts[i]
	}
	return nil
}

// typeOf returns the result type id of the value id (0 for none).
func (s *state) typeOf(id uint32) uint32 {
	if in := s.defInst(id); in != nil {
		return in.TypeID()
	}
	return 0
}

// valueType returns the type of the value id, or nil.
func (s *state) valueType(id uint32) *Type { return s.types[s.typeOf(id)] }

// isConstInst reports whether op is a constant instruction (core or
// specialization).
func isConstInst(op spirv.Op) bool {
	if d := op.Desc(); d != nil && d.Class == "Constant-Creation" {
		return true
	}
	return false
}

// constValue returns the value of a scalar integer or boolean constant id:
// known is false for specialization constants and for non-constants.
func (s *state) constValue(id uint32) (uint64, bool) {
	c, ok := s.consts[id]
	return c.value, ok && c.known
}

// isConst reports whether id is the result of a constant instruction.
func (s *state) isConst(id uint32) bool {
	in := s.defInst(id)
	return in != nil && isConstInst(in.Op)
}

// name describes an id as spirv-val does: "<id> '5[%uint]'".
func (s *state) name(id uint32) string { return fmt.Sprintf("<id> '%d'", id) }

// Type predicates.
func (t *Type) is(op spirv.Op) bool { return t != nil && t.Op == op }

func (s *state) scalar(id uint32) *Type {
	t := s.types[id]
	if t == nil {
		return nil
	}
	switch t.Op {
	case spirv.OpTypeInt, spirv.OpTypeFloat, spirv.OpTypeBool:
		return t
	}
	return nil
}

// component returns the scalar type of a scalar or vector type.
func (s *state) component(id uint32) *Type {
	t := s.types[id]
	if t.is(spirv.OpTypeVector) || t.is(spirv.OpTypeVectorIdEXT) {
		return s.types[t.Elem]
	}
	if t != nil && (t.Op == spirv.OpTypeInt || t.Op == spirv.OpTypeFloat || t.Op == spirv.OpTypeBool) {
		return t
	}
	return nil
}

func (s *state) isInt32Scalar(id uint32) bool {
	t := s.types[id]
	return t.is(spirv.OpTypeInt) && t.Width == 32
}

func isCoopMat(t *Type) bool {
	return t != nil && (t.Op == spirv.OpTypeCooperativeMatrixKHR || t.Op == spirv.OpTypeCooperativeMatrixNV)
}

// envRules reports whether the rules that depend on capabilities,
// extensions and the environment apply (not with Options.StructureOnly).
func (s *state) envRules() bool { return !s.opts.StructureOnly }

// hasCap reports whether the module declares c (directly or implied).
func (s *state) hasCap(c spirv.Capability) bool { return s.caps[c] }
