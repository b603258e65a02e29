package validate

import (
	"slices"
	"strings"

	"github.com/coopshader/coop/internal/lazy"
	"github.com/coopshader/coop/spirv"
)

// opCheck is one rule of an instruction family: the check of an opcode.
type opCheck struct {
	op spirv.Op
	f  func(*state, int)
}

// A family's rules are a static list, or, for a family checking many
// opcodes alike (from the grammar's lists or a table of its own), a
// function that adds each.
type family struct {
	list []opCheck
	each func(add func(spirv.Op, func(*state, int)))
}

// families are the instruction families, in the order of their files:
// families sharing an opcode run in this order. The list is static data
// (so are most families' rules): every command of coop pays for package
// init, and only validation needs the families, which instChecks reads on
// the first Validate of a process without building a map.
var families = [...]family{
	{each: arithEach},        // arith.go
	{list: armTensorChecks},  // armtensor.go
	{each: atomicEach},       // atomic.go
	{list: bfloat16Checks},   // bfloat16.go
	{list: builtinChecks},    // builtin.go
	{list: coopMatChecks},    // coopmat.go
	{list: coopVecChecks},    // coopvec.go
	{list: execModelChecks},  // execmodel.go
	{list: extInstChecks},    // extinst.go
	{each: groupEach},        // group.go
	{list: imageChecks},      // image.go
	{each: samplingEach},     // image.go
	{list: logicalChecks},    // logical.go
	{each: memoryEach},       // memory.go
	{list: meshChecks},       // mesh.go
	{list: productsChecks},   // products.go
	{list: qcomChecks},       // qcom.go
	{each: rayQueryEach},     // rayquery.go
	{list: rayTracingChecks}, // raytracing.go
	{list: replicateChecks},  // replicate.go
	{each: scopeEach},        // scopes.go
	{each: smallTypesEach},   // smalltypes.go
	{list: storageChecks},    // storage.go
	{list: tensorChecks},     // tensor.go
	{list: untypedChecks},    // untyped.go
}

// instChecks merges the families' tables on first use into a slice
// indexed by the opcode's place in the grammar (spirv.Op.Index): a few
// hundred stores, where a merged map cost a fresh process more than
// validating a small module, and a lookup per instruction that hashes
// nothing. Families sharing an opcode (a conversion of scalars and of
// cooperative matrices) each add theirs: they run in the order the
// families registered, until one fails.
func instChecks() *[spirv.NumOps]func(*state, int) { return instChecksLazy.Get() }

var instChecksLazy = lazy.Value[*[spirv.NumOps]func(*state, int)]{F: func() *[spirv.NumOps]func(*state, int) {
	all := new([spirv.NumOps]func(*state, int))
	add := func(op spirv.Op, f func(*state, int)) {
		k := op.Index()
		if k < 0 {
			panic("validate: a family checks " + op.String() + ", which the grammar does not know")
		}
		if g := all[k]; g != nil {
			h := f
			f = func(s *state, i int) {
				if g(s, i); s.err == nil {
					h(s, i)
				}
			}
		}
		all[k] = f
	}
	for _, fam := range families {
		if fam.each != nil {
			fam.each(add)
			continue
		}
		for _, c := range fam.list {
			add(c.op, c.f)
		}
	}
	return all
}}

// runChecks runs the family checks of instruction i.
func (s *state) runChecks(i int) {
	if k := s.m.Insts[i].Op.Index(); k >= 0 {
		if h := instChecks()[k]; h != nil {
			h(s, i)
		}
	}
}

// checkCore runs the core rules every consumer relies on (result types
// are types, operands are values, extended instructions name a set,
// calls match their functions) on every instruction of every function.
func (s *state) checkCore() {
	for _, f := range s.funcs {
		for i := f.Index + 1; i < f.End; i++ {
			if s.checkCoreInst(i); s.err != nil {
				return
			}
		}
	}
}

// checkInstructions runs the per-instruction rules on every instruction
// of every function.
func (s *state) checkInstructions() {
	for _, f := range s.funcs {
		for i := f.Index + 1; i < f.End; i++ {
			if s.checkInst(f, i); s.err != nil {
				return
			}
		}
	}
	// Global instructions with family rules (types, constants).
	end := len(s.m.Insts)
	if len(s.funcs) > 0 {
		end = s.funcs[0].Index
	}
	for i := 0; i < end; i++ {
		if s.runChecks(i); s.err != nil {
			return
		}
	}
}

func (s *state) checkCoreInst(i int) {
	in := &s.m.Insts[i]
	if rt := in.TypeID(); rt != 0 && s.types[rt] == nil {
		s.fail(i, "result-type", "%s Result Type <id> '%d' is not a type.", in.Op, rt)
		return
	}
	if !s.takesType(in.Op) {
		if rt := in.TypeID(); s.types[rt].is(spirv.OpTypeFunction) {
			s.fail(i, "type.function.use", "Invalid use of function type result id '%d'.", rt)
			return
		}
		// The value instructions' operands are values: each has a type
		// (not a label, string or decoration group).
		cls := in.Op.Desc().Class
		values := cls == "Atomic" || slices.Contains(pointerFreeClasses, cls)
		for _, o := range s.operands(i) {
			if o.Kind != spirv.KindIdRef && o.Kind != spirv.KindIdScope && o.Kind != spirv.KindIdMemorySemantics {
				continue
			}
			d := s.defInst(in.Words[o.Offset])
			switch {
			case d == nil:
			case d.Op.Desc().Class == "Type-Declaration":
				s.fail(i, "operand.type", "Operand '%d' cannot be a type", in.Words[o.Offset])
				return
			case values && d.TypeID() == 0 && d.Op != spirv.OpExtInstImport: // an import's the families name
				s.fail(i, "operand.value", "Operand '%d' requires a type", in.Words[o.Offset])
				return
			}
		}
	} else if in.Op != spirv.OpFunction && in.Op != spirv.OpExtInst && in.Op != spirv.OpExtInstWithForwardRefsKHR {
		s.checkFunctionTypeUses(i)
	}
	w := in.Words
	switch in.Op {
	case spirv.OpExtInst, spirv.OpExtInstWithForwardRefsKHR:
		// OpExtInst: "'Set' must be the result of an OpExtInstImport
		// instruction."
		if d := s.defInst(w[2]); d == nil || d.Op != spirv.OpExtInstImport {
			s.fail(i, "extinst.set", "%s set Id %d does not reference an OpExtInstImport result Id", in.Op, w[2])
		}
	case spirv.OpFunctionCall:
		s.checkCall(i)
	}
}

func (s *state) checkInst(f *Func, i int) {
	in := &s.m.Insts[i]
	w := in.Words
	switch in.Op {
	case spirv.OpReturn:
		if rt := s.types[s.types[f.Type].Elem]; !rt.is(spirv.OpTypeVoid) {
			s.fail(i, "function.return", "OpReturn can only be called from a function with void return type.")
		}
	case spirv.OpReturnValue:
		rt := s.types[s.types[f.Type].Elem]
		if rt.is(spirv.OpTypeVoid) {
			s.fail(i, "function.return", "OpReturnValue value's type <id> '%d' is void.", s.typeOf(w[0]))
		} else if s.typeOf(w[0]) != rt.ID {
			s.fail(i, "function.return", "OpReturnValue Value <id> '%d's type does not match OpFunction's return type.", w[0])
		}
	case spirv.OpBranchConditional:
		if !s.types[s.typeOf(w[0])].is(spirv.OpTypeBool) {
			s.fail(i, "cfg.condition", "Condition operand for OpBranchConditional must be of boolean type")
		} else if s.m.Version >= spirv.MakeVersion(1, 6) && len(w) > 2 && w[1] == w[2] {
			// OpBranchConditional: "Starting with version 1.6, True Label
			// and False Label must not be the same <id>" (no local copy).
			s.fail(i, "cfg.branch-labels", "In SPIR-V 1.6 or later, True Label and False Label must be different labels")
		}
	case spirv.OpLoad:
		pt := s.valueType(w[2])
		if pt == nil || (pt.Op != spirv.OpTypePointer && pt.Op != spirv.OpTypeUntypedPointerKHR) {
			s.fail(i, "memory.load", "OpLoad Pointer <id> '%d' is not a logical pointer.", w[2])
		} else if pt.Op == spirv.OpTypePointer && pt.Elem != w[0] {
			s.fail(i, "memory.load", "OpLoad Result Type <id> '%d' does not match Pointer <id> '%d's type.", w[0], w[2])
		}
	case spirv.OpStore:
		pt := s.valueType(w[0])
		if pt == nil || (pt.Op != spirv.OpTypePointer && pt.Op != spirv.OpTypeUntypedPointerKHR) {
			s.fail(i, "memory.store", "OpStore Pointer <id> '%d' is not a logical pointer.", w[0])
		} else if pt.Op == spirv.OpTypePointer && pt.Elem != s.typeOf(w[1]) {
			s.fail(i, "memory.store", "OpStore Pointer <id> '%d's type does not match Object <id> '%d's type.", w[0], w[1])
		}
	case spirv.OpVariable:
		s.checkFunctionVariable(f, i)
	case spirv.OpAccessChain, spirv.OpInBoundsAccessChain, spirv.OpPtrAccessChain, spirv.OpInBoundsPtrAccessChain:
		s.checkAccessChain(i)
	case spirv.OpCompositeConstruct:
		if rt := s.types[w[0]]; rt != nil {
			s.checkComposite(i, in.Op, rt, w[2:], false)
		}
	}
	if s.err == nil {
		s.runChecks(i)
	}
}

// checkFunctionTypeUses: a function type describes OpFunction and
// nothing else: "The only valid uses of OpTypeFunction are in an
// OpFunction, debugging, or decoration instruction" (SPIR-V 3.56.6,
// paraphrased, no local copy; debug information's extended instructions
// are left alone). The instructions that take no type operand at all
// reject it as a type (checkCoreInst).
func (s *state) checkFunctionTypeUses(i int) {
	w := s.m.Insts[i].Words
	for _, o := range s.operands(i) {
		if o.Kind != spirv.KindIdRef && o.Kind != spirv.KindIdResultType {
			continue
		}
		if id := w[o.Offset]; s.types[id].is(spirv.OpTypeFunction) {
			s.fail(i, "type.function.use", "Invalid use of function type result id '%d'.", id)
			return
		}
	}
}

// takesType is the package's takesType, kept per opcode for the module
// (checkCore asks for every instruction).
func (s *state) takesType(op spirv.Op) bool {
	k := op.Index()
	if k < 0 {
		return takesType(op)
	}
	if s.typeTaking[k] == 0 {
		s.typeTaking[k] = 1
		if takesType(op) {
			s.typeTaking[k] = 2
		}
	}
	return s.typeTaking[k] == 2
}

// takesType reports whether an instruction may name a type as an operand:
// one of its <id> operands names a type (the grammar calls it "Type", "Base
// Type", "Pointee Type", ...), or it is an extended instruction (debug
// information names types). Every other instruction's <id> operands are
// values ("Operand cannot be a type", as spirv-val says). The grammar is
// read per call rather than tabled at start-up, which every run of coop
// would pay for; it is a few operands.
func takesType(op spirv.Op) bool {
	if op == spirv.OpExtInst || op == spirv.OpExtInstWithForwardRefsKHR {
		return true
	}
	if d := op.Desc(); d != nil {
		for _, od := range d.Operands {
			if od.Kind == spirv.KindIdRef && strings.Contains(od.Name, "Type") {
				return true
			}
		}
	}
	return false
}

// checkCall: OpFunctionCall names a function, passes one argument of the
// right type per parameter, and has the function's return type (SPIR-V
// 3.56.9).
func (s *state) checkCall(i int) {
	w := s.m.Insts[i].Words
	g := s.funcOf[w[2]]
	if g == nil {
		s.fail(i, "function.call", "OpFunctionCall Function <id> '%d' is not a function.", w[2])
		return
	}
	ft := s.types[g.Type]
	if ft.Elem != w[0] {
		s.fail(i, "function.call", "OpFunctionCall Result Type <id> '%d's type does not match Function <id> '%d's return type.", w[0], w[2])
		return
	}
	args := w[3:]
	if len(args) != len(ft.Members) {
		s.fail(i, "function.call", "OpFunctionCall Function <id>'s parameter count does not match the argument count.")
		return
	}
	for k, a := range args {
		if s.typeOf(a) != ft.Members[k] {
			s.fail(i, "function.call", "OpFunctionCall Argument <id> '%d's type does not match Function <id> '%d's parameter type.", a, w[2])
			return
		}
	}
}

// checkFunctionVariable: a variable in a function has Function storage,
// is at the start of the first block, and its result type is a pointer of
// that storage class (SPIR-V 3.56.8 OpVariable).
func (s *state) checkFunctionVariable(f *Func, i int) {
	w := s.m.Insts[i].Words
	if spirv.StorageClass(w[2]) != spirv.StorageClassFunction {
		s.fail(i, "variable.storage", "Variables must have a function[7] storage class inside of a function")
		return
	}
	b := s.blockOf[i]
	if b != f.Blocks[0] {
		s.fail(i, "variable.position", "All OpVariable instructions in a function must be in the first block in the function.")
		return
	}
	for k := b.First + 1; k < i; k++ {
		if op := s.m.Insts[k].Op; op != spirv.OpVariable && op != spirv.OpLine && op != spirv.OpNoLine && op != spirv.OpExtInst {
			s.fail(i, "variable.position", "All OpVariable instructions in a function must be the first instructions in the first block.")
			return
		}
	}
	s.checkVariable(i)
}

// walkIndex steps from composite type t into index idx (a constant value
// when known); it returns nil for an index the type does not have. Only
// literal indices (bounded true) must be within a vector, matrix or array
// of known length: an access chain's constant index past the end is not a
// validation error (spirv-val agrees).
func (s *state) walkIndex(t *Type, idx uint64, known, bounded bool) (*Type, string) {
	switch {
	case t.is(spirv.OpTypeStruct):
		if !known {
			return nil, "struct indices must be constant integers"
		}
		if idx >= uint64(len(t.Members)) {
			return nil, "struct index out of range"
		}
		return s.types[t.Members[idx]], ""
	case t.is(spirv.OpTypeVector), t.is(spirv.OpTypeMatrix), t.is(spirv.OpTypeArray):
		if bounded && t.CountKnown && idx >= t.Count {
			return nil, "index out of range"
		}
		return s.types[t.Elem], ""
	case t.is(spirv.OpTypeRuntimeArray), t.is(spirv.OpTypeVectorIdEXT), isCoopMat(t):
		return s.types[t.Elem], ""
	}
	return nil, "reached non-composite type while indexes still remain to be traversed"
}

// checkAccessChain: the base is a pointer, the indices walk its pointee
// (struct indices are constants in range) and the result is a pointer of
// the same storage class to the type reached (SPIR-V 3.56.8).
func (s *state) checkAccessChain(i int) {
	in := &s.m.Insts[i]
	w := in.Words
	bt := s.valueType(w[2])
	if !bt.is(spirv.OpTypePointer) {
		// An untyped pointer (SPV_KHR_untyped_pointers) names no type to
		// walk: OpUntypedAccessChainKHR takes it, with a Base Type.
		s.fail(i, "access-chain.base", "The Base <id> '%d' in %s instruction must be a pointer.", w[2], in.Op)
		return
	}
	rt := s.types[w[0]]
	if !rt.is(spirv.OpTypePointer) {
		s.fail(i, "access-chain.result", "The Result Type of %s <id> '%d' must be OpTypePointer.", in.Op, w[1])
		return
	}
	if rt.Storage != bt.Storage {
		s.fail(i, "access-chain.storage", "The result pointer storage class and base pointer storage class in %s do not match.", in.Op)
		return
	}
	idx := w[3:]
	if in.Op == spirv.OpPtrAccessChain || in.Op == spirv.OpInBoundsPtrAccessChain {
		idx = idx[1:]
	}
	t := s.types[bt.Elem]
	for _, x := range idx {
		if !s.component(s.typeOf(x)).is(spirv.OpTypeInt) || s.types[s.typeOf(x)].is(spirv.OpTypeVector) {
			s.fail(i, "access-chain.index", "Indexes passed to %s must be of type integer.", in.Op)
			return
		}
		v, known := s.constValue(x)
		var why string
		if t, why = s.walkIndex(t, v, known, false); t == nil {
			s.fail(i, "access-chain.index", "%s: %s (index <id> '%d').", in.Op, why, x)
			return
		}
	}
	if t.ID != rt.Elem {
		s.fail(i, "access-chain.result", "%s result type (Op%s) does not match the type that results from indexing into the base <id> (Op%s).",
			in.Op, s.types[rt.Elem].Op.String()[2:], t.Op.String()[2:])
	}
}
