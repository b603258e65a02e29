package spirv

import (
	"encoding/binary"
	"math"
	"slices"
)

// Builder assembles a module section by section, so a compiler can emit
// declarations, annotations and code in whatever order it discovers them.
// Types and constants are deduplicated; ids are allocated densely from 1.
type Builder struct {
	version   Version
	generator uint32
	next      uint32
	sections  [numSections][]Inst
	caps      map[Capability]bool
	exts      map[string]bool
	imports   map[string]uint32
	dedup     map[string]uint32
	keyBuf    []byte
	fnStart   int // index of the open function's OpFunction, or -1
	locals    []Inst
	consts    map[uint32]bool
	label     uint32
	// Added, when set, hears of each capability (extension "") and
	// extension the first time it is declared.
	Added func(c Capability, extension string)
	// BeforeEmit, when set, is called before each instruction Emit,
	// EmitResult or Label appends to the current function (debug line
	// information is written from it).
	BeforeEmit func(op Op)
	// Replicate writes composites whose constituents are all one id in
	// the SPV_EXT_replicated_composites forms (glslang's
	// "#pragma use_replicated_composites").
	Replicate bool
}

// NewBuilder starts a module of the given SPIR-V version. generator is the
// header's generator word.
func NewBuilder(version Version, generator uint32) *Builder {
	return &Builder{
		version:   version,
		generator: generator,
		next:      1,
		caps:      map[Capability]bool{},
		exts:      map[string]bool{},
		imports:   map[string]uint32{},
		dedup:     map[string]uint32{},
		consts:    map[uint32]bool{},
		fnStart:   -1,
	}
}

// Version returns the module's SPIR-V version.
func (b *Builder) Version() Version { return b.version }

// ID allocates a fresh id.
func (b *Builder) ID() uint32 {
	id := b.next
	b.next++
	return id
}

// Bound is one more than the largest id allocated so far.
func (b *Builder) Bound() uint32 { return b.next }

// replicated turns a composite of one repeated constituent into its
// replicated form when Replicate is set.
func (b *Builder) replicated(op Op, words []uint32) (Op, []uint32) {
	var rep Op
	switch op {
	case OpConstantComposite:
		rep = OpConstantCompositeReplicateEXT
	case OpCompositeConstruct:
		rep = OpCompositeConstructReplicateEXT
	case OpSpecConstantComposite:
		rep = OpSpecConstantCompositeReplicateEXT
	default:
		return op, words
	}
	if !b.Replicate || len(words) == 0 {
		return op, words
	}
	for _, w := range words[1:] {
		if w != words[0] {
			return op, words
		}
	}
	b.Capability(CapabilityReplicatedCompositesEXT)
	b.Extension("SPV_EXT_replicated_composites")
	return rep, words[:1]
}

// Add appends an instruction to a section outside functions.
func (b *Builder) Add(s Section, op Op, words ...uint32) {
	if op == OpSpecConstantComposite && len(words) > 2 {
		var parts []uint32
		op, parts = b.replicated(op, words[2:])
		words = append(words[:2:2], parts...)
	}
	b.sections[s] = append(b.sections[s], Inst{Op: op, Words: slices.Clone(words)})
}

// Capability declares a capability once.
func (b *Builder) Capability(c Capability) {
	if !b.caps[c] {
		b.caps[c] = true
		b.Add(SecCapability, OpCapability, uint32(c))
		if b.Added != nil {
			b.Added(c, "")
		}
	}
}

// HasCapability reports whether c was declared.
func (b *Builder) HasCapability(c Capability) bool { return b.caps[c] }

// Extension declares an extension once.
func (b *Builder) Extension(name string) {
	if !b.exts[name] {
		b.exts[name] = true
		b.Add(SecExtension, OpExtension, AppendString(nil, name)...)
		if b.Added != nil {
			b.Added(0, name)
		}
	}
}

// ExtInstImport imports an extended instruction set once and returns its id.
func (b *Builder) ExtInstImport(name string) uint32 {
	if id, ok := b.imports[name]; ok {
		return id
	}
	id := b.ID()
	b.imports[name] = id
	b.Add(SecExtInstImport, OpExtInstImport, AppendString([]uint32{id}, name)...)
	return id
}

// MemoryModel sets the module's addressing and memory model.
func (b *Builder) MemoryModel(a AddressingModel, m MemoryModel) {
	b.sections[SecMemoryModel] = []Inst{{Op: OpMemoryModel, Words: []uint32{uint32(a), uint32(m)}}}
}

// EntryPoint declares an entry point.
func (b *Builder) EntryPoint(model ExecutionModel, fn uint32, name string, interfaces ...uint32) {
	w := AppendString([]uint32{uint32(model), fn}, name)
	b.Add(SecEntryPoint, OpEntryPoint, append(w, interfaces...)...)
}

// ExecutionMode adds an execution mode with literal operands.
func (b *Builder) ExecutionMode(fn uint32, mode ExecutionMode, lits ...uint32) {
	b.Add(SecExecutionMode, OpExecutionMode, append([]uint32{fn, uint32(mode)}, lits...)...)
}

// ExecutionModeId adds an execution mode whose operands are ids.
func (b *Builder) ExecutionModeId(fn uint32, mode ExecutionMode, ids ...uint32) {
	b.Add(SecExecutionMode, OpExecutionModeId, append([]uint32{fn, uint32(mode)}, ids...)...)
}

// Name names an id for debuggers and disassemblers.
func (b *Builder) Name(id uint32, name string) {
	b.Add(SecDebugName, OpName, AppendString([]uint32{id}, name)...)
}

// MemberName names a structure member.
func (b *Builder) MemberName(id, member uint32, name string) {
	b.Add(SecDebugName, OpMemberName, AppendString([]uint32{id, member}, name)...)
}

// String adds an OpString and returns its id.
func (b *Builder) String(s string) uint32 {
	id := b.ID()
	b.Add(SecDebugString, OpString, AppendString([]uint32{id}, s)...)
	return id
}

// Decorate decorates an id.
func (b *Builder) Decorate(id uint32, d Decoration, lits ...uint32) {
	b.Add(SecAnnotation, OpDecorate, append([]uint32{id, uint32(d)}, lits...)...)
}

// DecorateId decorates an id with id operands.
func (b *Builder) DecorateId(id uint32, d Decoration, ids ...uint32) {
	b.Add(SecAnnotation, OpDecorateId, append([]uint32{id, uint32(d)}, ids...)...)
}

// MemberDecorate decorates a structure member.
func (b *Builder) MemberDecorate(id, member uint32, d Decoration, lits ...uint32) {
	b.Add(SecAnnotation, OpMemberDecorate, append([]uint32{id, member, uint32(d)}, lits...)...)
}

// Type returns the id of the type declared by op with operands words (the
// result id excluded), declaring it the first time. Use NewType for types
// that must stay distinct (structs, arrays that get different strides).
func (b *Builder) Type(op Op, words ...uint32) uint32 {
	return b.unique(op, 0, words, false)
}

// NewType always declares a new type.
func (b *Builder) NewType(op Op, words ...uint32) uint32 {
	id := b.ID()
	b.Add(SecGlobal, op, append([]uint32{id}, words...)...)
	return id
}

// Const returns the id of the constant made by op (OpConstant,
// OpConstantTrue, OpConstantComposite, OpConstantNull, ...) of type ty with
// operands words, declaring it the first time.
func (b *Builder) Const(op Op, ty uint32, words ...uint32) uint32 {
	op, words = b.replicated(op, words)
	id := b.unique(op, ty, words, true)
	b.consts[id] = true
	return id
}

// IsConstant reports whether id was made by Const.
func (b *Builder) IsConstant(id uint32) bool { return b.consts[id] }

// CurrentLabel is the label of the block being emitted in the open
// function (0 before its first OpLabel).
func (b *Builder) CurrentLabel() uint32 { return b.label }

func (b *Builder) unique(op Op, ty uint32, words []uint32, typed bool) uint32 {
	k := b.keyBuf[:0]
	k = binary.LittleEndian.AppendUint16(k, uint16(op))
	k = binary.LittleEndian.AppendUint32(k, ty)
	for _, w := range words {
		k = binary.LittleEndian.AppendUint32(k, w)
	}
	b.keyBuf = k
	if id, ok := b.dedup[string(k)]; ok {
		return id
	}
	id := b.ID()
	b.dedup[string(k)] = id
	if typed {
		b.Add(SecGlobal, op, append([]uint32{ty, id}, words...)...)
	} else {
		b.Add(SecGlobal, op, append([]uint32{id}, words...)...)
	}
	return id
}

// Common types.

func (b *Builder) TypeVoid() uint32 { return b.Type(OpTypeVoid) }
func (b *Builder) TypeBool() uint32 { return b.Type(OpTypeBool) }
func (b *Builder) TypeInt(width uint32, signed bool) uint32 {
	s := uint32(0)
	if signed {
		s = 1
	}
	return b.Type(OpTypeInt, width, s)
}
func (b *Builder) TypeFloat(width uint32) uint32 { return b.Type(OpTypeFloat, width) }

// TypeFloatEncoded declares a float type with an FPEncoding (bfloat16, fp8).
func (b *Builder) TypeFloatEncoded(width uint32, enc FPEncoding) uint32 {
	return b.Type(OpTypeFloat, width, uint32(enc))
}
func (b *Builder) TypeVector(elem, n uint32) uint32 { return b.Type(OpTypeVector, elem, n) }
func (b *Builder) TypeMatrix(col, n uint32) uint32  { return b.Type(OpTypeMatrix, col, n) }
func (b *Builder) TypePointer(sc StorageClass, elem uint32) uint32 {
	return b.Type(OpTypePointer, uint32(sc), elem)
}
func (b *Builder) TypeFunction(ret uint32, params ...uint32) uint32 {
	return b.Type(OpTypeFunction, append([]uint32{ret}, params...)...)
}

// Common constants.

// ConstUint32 returns a 32-bit integer constant of type ty.
func (b *Builder) ConstUint32(ty, v uint32) uint32 { return b.Const(OpConstant, ty, v) }

// ConstUint64 returns a 64-bit integer constant of type ty.
func (b *Builder) ConstUint64(ty uint32, v uint64) uint32 {
	return b.Const(OpConstant, ty, uint32(v), uint32(v>>32))
}

// ConstFloat32 returns a 32-bit float constant of type ty.
func (b *Builder) ConstFloat32(ty uint32, v float32) uint32 {
	return b.Const(OpConstant, ty, math.Float32bits(v))
}

// ConstBool returns true or false of type ty.
func (b *Builder) ConstBool(ty uint32, v bool) uint32 {
	if v {
		return b.Const(OpConstantTrue, ty)
	}
	return b.Const(OpConstantFalse, ty)
}

// Variable declares a global variable (not in a function) and returns its id.
func (b *Builder) Variable(ptrType uint32, sc StorageClass, init ...uint32) uint32 {
	id := b.ID()
	b.Add(SecGlobal, OpVariable, append([]uint32{ptrType, id, uint32(sc)}, init...)...)
	return id
}

// Functions. Code is appended to the function opened by BeginFunction
// until EndFunction.

// BeginFunction opens a function and returns its id.
func (b *Builder) BeginFunction(ret uint32, ctrl FunctionControl, fnType uint32) uint32 {
	id := b.ID()
	b.fnStart = len(b.sections[SecFunction])
	b.sections[SecFunction] = append(b.sections[SecFunction], Inst{Op: OpFunction, Words: []uint32{ret, id, uint32(ctrl), fnType}})
	return id
}

// BeginFunctionID opens a function whose id was allocated earlier (so
// calls can be emitted before the callee's definition).
func (b *Builder) BeginFunctionID(id, ret uint32, ctrl FunctionControl, fnType uint32) {
	b.fnStart = len(b.sections[SecFunction])
	b.sections[SecFunction] = append(b.sections[SecFunction], Inst{Op: OpFunction, Words: []uint32{ret, id, uint32(ctrl), fnType}})
}

// Emit appends an instruction to the current function.
func (b *Builder) Emit(op Op, words ...uint32) {
	if b.BeforeEmit != nil {
		b.BeforeEmit(op)
	}
	b.sections[SecFunction] = append(b.sections[SecFunction], Inst{Op: op, Words: slices.Clone(words)})
}

// LocalVariable declares a Function-storage variable of the current
// function. SPIR-V wants these at the start of the first block, so they are
// collected and placed there when the function ends.
func (b *Builder) LocalVariable(ptrType uint32, init ...uint32) uint32 {
	id := b.ID()
	b.locals = append(b.locals, Inst{Op: OpVariable, Words: append([]uint32{ptrType, id, uint32(StorageClassFunction)}, init...)})
	return id
}

// EmitResult appends an instruction with a result type and a fresh result
// id, and returns that id.
func (b *Builder) EmitResult(op Op, ty uint32, words ...uint32) uint32 {
	op, words = b.replicated(op, words)
	if b.BeforeEmit != nil {
		b.BeforeEmit(op)
	}
	id := b.ID()
	b.sections[SecFunction] = append(b.sections[SecFunction], Inst{Op: op, Words: append([]uint32{ty, id}, words...)})
	return id
}

// Label starts a block with the given label id.
func (b *Builder) Label(id uint32) {
	b.Emit(OpLabel, id)
	b.label = id
}

// EndFunction closes the current function, placing its local variables
// after its first OpLabel.
func (b *Builder) EndFunction() {
	b.Emit(OpFunctionEnd)
	if len(b.locals) > 0 {
		code := b.sections[SecFunction]
		at := b.fnStart
		for at < len(code) && code[at].Op != OpLabel {
			at++
		}
		b.sections[SecFunction] = slices.Insert(code, at+1, b.locals...)
		b.locals = nil
	}
	b.fnStart = -1
}

// Module returns the module built so far. The builder may go on being used;
// the module shares no memory with it.
func (b *Builder) Module() *Module {
	m := &Module{Version: b.version, Generator: b.generator, Bound: b.next}
	n := 0
	for _, s := range b.sections {
		n += len(s)
	}
	m.Insts = make([]Inst, 0, n)
	for _, s := range b.sections {
		for _, in := range s {
			m.Insts = append(m.Insts, Inst{Op: in.Op, Words: slices.Clone(in.Words)})
		}
	}
	return m
}
