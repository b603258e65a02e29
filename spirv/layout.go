package spirv

import "fmt"

// Section is one part of the logical layout of a module (SPIR-V spec 2.4).
type Section int

const (
	SecCapability Section = iota
	SecExtension
	SecExtInstImport
	SecMemoryModel
	SecEntryPoint
	SecExecutionMode
	SecDebugString // OpString, OpSource, OpSourceExtension, OpSourceContinued
	SecDebugName   // OpName, OpMemberName
	SecDebugModule // OpModuleProcessed
	SecAnnotation
	SecGlobal // types, constants, global variables, OpUndef
	SecFunction
	numSections
)

var sectionNames = [numSections]string{
	"capability", "extension", "extended instruction import", "memory model",
	"entry point", "execution mode", "debug (string/source)", "debug (name)",
	"debug (module processed)", "annotation", "type/constant/global variable",
	"function",
}

func (s Section) String() string { return sectionNames[s] }

// SectionOf returns the section an instruction belongs to outside of a
// function. OpLine, OpNoLine and OpExtInst may appear in several sections
// and return -1, as do unknown opcodes.
func SectionOf(op Op) Section {
	switch op {
	case OpCapability:
		return SecCapability
	case OpExtension:
		return SecExtension
	case OpExtInstImport:
		return SecExtInstImport
	case OpMemoryModel:
		return SecMemoryModel
	case OpEntryPoint:
		return SecEntryPoint
	case OpExecutionMode, OpExecutionModeId:
		return SecExecutionMode
	case OpString, OpSource, OpSourceExtension, OpSourceContinued:
		return SecDebugString
	case OpName, OpMemberName:
		return SecDebugName
	case OpModuleProcessed:
		return SecDebugModule
	case OpFunction:
		return SecFunction
	case OpLine, OpNoLine, OpExtInst, OpExtInstWithForwardRefsKHR:
		return -1
	}
	if d := op.Desc(); d != nil {
		switch d.Class {
		case "Type-Declaration", "Constant-Creation":
			return SecGlobal
		case "Annotation":
			return SecAnnotation
		}
	}
	switch op {
	case OpVariable, OpUntypedVariableKHR, OpUndef, OpTypeForwardPointer:
		return SecGlobal
	}
	return -1
}

// IsTerminator reports whether op ends a block.
func IsTerminator(op Op) bool {
	switch op {
	case OpBranch, OpBranchConditional, OpSwitch, OpReturn, OpReturnValue,
		OpKill, OpUnreachable, OpTerminateInvocation, OpIgnoreIntersectionKHR,
		OpTerminateRayKHR, OpEmitMeshTasksEXT, OpAbortKHR:
		return true
	}
	return false
}

// Layout is a module's instructions grouped by section. The slices share
// the module's instructions.
type Layout struct {
	Capabilities   []Inst
	Extensions     []Inst
	ExtInstImports []Inst
	MemoryModel    *Inst
	EntryPoints    []Inst
	ExecutionModes []Inst
	// Debug holds OpString, OpSource*, OpName, OpMemberName and
	// OpModuleProcessed, in order.
	Debug       []Inst
	Annotations []Inst
	// Globals holds types, constants, global variables, OpUndef, and the
	// OpLine/OpNoLine/OpExtInst instructions among them.
	Globals   []Inst
	Functions []Function
}

// Function is one function: its instructions from OpFunction to
// OpFunctionEnd, its parameters and its blocks.
type Function struct {
	Insts  []Inst
	Params []Inst
	Blocks []Block
}

// Def returns the OpFunction instruction.
func (f *Function) Def() *Inst { return &f.Insts[0] }

// Block is a basic block: OpLabel first, its terminator last.
type Block struct {
	Insts []Inst
}

// Label returns the id of the block's OpLabel.
func (b *Block) Label() uint32 { return b.Insts[0].Words[0] }

// LayoutError reports an instruction out of the logical order.
type LayoutError struct {
	Index int // instruction index in Module.Insts
	Op    Op
	Msg   string
}

func (e *LayoutError) Error() string {
	return fmt.Sprintf("instruction %d (%s): %s", e.Index, e.Op, e.Msg)
}

// Layout groups the module's instructions into sections, checking the
// logical layout rules of SPIR-V spec 2.4 (section order, one memory model,
// functions made of blocks that start with OpLabel and end with a
// terminator).
func (m *Module) Layout() (*Layout, error) {
	l := &Layout{}
	insts := m.Insts
	cur := SecCapability
	start := [numSections]int{}
	end := [numSections]int{}
	i := 0
	for ; i < len(insts); i++ {
		in := &insts[i]
		s := SectionOf(in.Op)
		if s == -1 {
			if in.Op == OpLine || in.Op == OpNoLine || in.Op == OpExtInst || in.Op == OpExtInstWithForwardRefsKHR {
				if cur < SecGlobal {
					cur = SecGlobal
					start[cur] = i
				}
				end[cur] = i + 1
				continue
			}
			if in.Op.Desc() == nil {
				end[cur] = i + 1
				continue
			}
			return nil, &LayoutError{i, in.Op, "not allowed outside a function"}
		}
		if s == SecFunction {
			break
		}
		if s < cur {
			return nil, &LayoutError{i, in.Op, fmt.Sprintf("%s instruction after the %s section", s, cur)}
		}
		if s > cur {
			cur = s
			start[s] = i
		}
		end[s] = i + 1
	}
	sec := func(s Section) []Inst {
		if end[s] == 0 {
			return nil
		}
		return insts[start[s]:end[s]:end[s]]
	}
	l.Capabilities = sec(SecCapability)
	l.Extensions = sec(SecExtension)
	l.ExtInstImports = sec(SecExtInstImport)
	if mm := sec(SecMemoryModel); len(mm) > 1 {
		return nil, &LayoutError{start[SecMemoryModel] + 1, OpMemoryModel, "more than one OpMemoryModel"}
	} else if len(mm) == 1 {
		l.MemoryModel = &mm[0]
	}
	l.EntryPoints = sec(SecEntryPoint)
	l.ExecutionModes = sec(SecExecutionMode)
	if end[SecDebugString]+end[SecDebugName]+end[SecDebugModule] > 0 {
		lo, hi := len(insts), 0
		for s := SecDebugString; s <= SecDebugModule; s++ {
			if end[s] > 0 {
				lo, hi = min(lo, start[s]), max(hi, end[s])
			}
		}
		l.Debug = insts[lo:hi:hi]
	}
	l.Annotations = sec(SecAnnotation)
	l.Globals = sec(SecGlobal)
	for i < len(insts) {
		if op := insts[i].Op; op == OpLine || op == OpNoLine {
			i++ // debug line information may precede a function
			continue
		}
		f, next, err := parseFunction(insts, i)
		if err != nil {
			return nil, err
		}
		l.Functions = append(l.Functions, f)
		i = next
	}
	return l, nil
}

func parseFunction(insts []Inst, i int) (Function, int, error) {
	var f Function
	first := i
	if insts[i].Op != OpFunction {
		return f, 0, &LayoutError{i, insts[i].Op, "expected OpFunction"}
	}
	i++
	pstart := i
	for i < len(insts) && (insts[i].Op == OpFunctionParameter || insts[i].Op == OpLine || insts[i].Op == OpNoLine) {
		i++
	}
	for k := pstart; k < i; k++ {
		if insts[k].Op == OpFunctionParameter {
			f.Params = append(f.Params, insts[k])
		}
	}
	blockStart := -1
	for ; i < len(insts); i++ {
		in := &insts[i]
		switch {
		case in.Op == OpFunctionEnd:
			if blockStart >= 0 {
				return f, 0, &LayoutError{i, in.Op, "block has no terminator before OpFunctionEnd"}
			}
			f.Insts = insts[first : i+1 : i+1]
			return f, i + 1, nil
		case in.Op == OpLabel:
			if blockStart >= 0 {
				return f, 0, &LayoutError{i, in.Op, "block has no terminator before the next OpLabel"}
			}
			blockStart = i
		case in.Op == OpFunction || in.Op == OpFunctionParameter:
			return f, 0, &LayoutError{i, in.Op, "not allowed inside a function body"}
		case blockStart < 0:
			if in.Op != OpLine && in.Op != OpNoLine {
				return f, 0, &LayoutError{i, in.Op, "instruction outside a block (expected OpLabel)"}
			}
		case IsTerminator(in.Op):
			f.Blocks = append(f.Blocks, Block{Insts: insts[blockStart : i+1 : i+1]})
			blockStart = -1
		}
	}
	return f, 0, &LayoutError{first, OpFunction, "function has no OpFunctionEnd"}
}
