package validate

import (
	"errors"

	"github.com/coopshader/coop/spirv"
)

// checkHeader: the version must be one the target environment takes and
// the id bound must be positive (SPIR-V 2.3 Physical Layout).
func (s *state) checkHeader() {
	v := s.m.Version
	if v&0xff0000ff != 0 || v.Major() != 1 || v.Minor() > 6 {
		s.fail(-1, "header.version", "Invalid SPIR-V binary version %d.%d", v.Major(), v.Minor())
		return
	}
	if v > s.env.version {
		s.fail(-1, "header.version", "Invalid SPIR-V binary version %s for target environment %s.", v, s.env.name)
		return
	}
	if s.m.Bound == 0 {
		s.fail(-1, "header.bound", "Invalid SPIR-V header: the id bound is 0")
	}
}

// checkOperands parses every instruction against the grammar and checks
// that result ids are nonzero and below the bound.
func (s *state) checkOperands() {
	t := spirv.NewTypes()
	s.opStart = make([]int32, 0, len(s.m.Insts)+1)
	n := 0
	for i := range s.m.Insts {
		n += len(s.m.Insts[i].Words)
	}
	s.ops = make([]spirv.Operand, 0, n) // at most one operand per word
	for i := range s.m.Insts {
		in := &s.m.Insts[i]
		s.opStart = append(s.opStart, int32(len(s.ops)))
		if in.Op.Desc() == nil {
			s.fail(i, "grammar.opcode", "Invalid opcode: %d", uint16(in.Op))
			return
		}
		var err error
		if s.ops, err = t.Operands(in, s.ops); err != nil {
			var oe *spirv.OperandError
			if errors.As(err, &oe) {
				s.fail(i, "grammar.operands", "%s: %s", oe.Op, oe.Msg)
			} else {
				s.fail(i, "grammar.operands", "%s: %v", in.Op, err)
			}
			return
		}
		t.Record(in)
		if id := in.ResultID(); in.Op.Desc().HasResult() {
			if id == 0 {
				s.fail(i, "id.zero", "%s: result <id> is 0", in.Op)
				return
			}
			if id >= s.m.Bound {
				s.fail(i, "id.bound", "Result <id> '%d' is not less than the id bound %d.", id, s.m.Bound)
				return
			}
		}
	}
	s.opStart = append(s.opStart, int32(len(s.ops)))
}

// checkLayout checks the logical layout (SPIR-V 2.4) and keeps the
// sections.
func (s *state) checkLayout() {
	l, err := s.m.Layout()
	if err != nil {
		var le *spirv.LayoutError
		if errors.As(err, &le) {
			s.fail(le.Index, "layout", "%s %s", le.Op, le.Msg)
		} else {
			s.fail(-1, "layout", "%v", err)
		}
		return
	}
	if l.MemoryModel == nil {
		s.fail(-1, "layout.memory-model", "Missing required OpMemoryModel instruction.")
		return
	}
	s.layout = l
	for i := range s.m.Insts {
		in := &s.m.Insts[i]
		switch in.Op {
		case spirv.OpMemoryModel:
			s.addressing = spirv.AddressingModel(in.Words[0])
			s.memModel = spirv.MemoryModel(in.Words[1])
		case spirv.OpExtension:
			name, _, _ := in.String(0)
			s.exts[name] = true
		case spirv.OpCapability:
			s.addCap(spirv.Capability(in.Words[0]))
		}
	}
}

// addCap declares c and the capabilities it implicitly declares.
func (s *state) addCap(c spirv.Capability) {
	if s.caps[c] {
		return
	}
	s.caps[c] = true
	if e := spirv.KindCapability.Enumerant(uint32(c)); e != nil {
		for _, d := range e.Capabilities {
			s.addCap(d)
		}
	}
}

// isIDKind reports whether operands of kind k name ids.
func isIDKind(k spirv.OperandKind) bool {
	switch k {
	case spirv.KindIdRef, spirv.KindIdResultType, spirv.KindIdScope, spirv.KindIdMemorySemantics:
		return true
	}
	return false
}

// collectDefs checks that each id is defined once and that every id an
// instruction uses is defined, and before its use outside functions
// (SPIR-V 2.4: forward references only where the specification allows).
func (s *state) collectDefs() {
	// The dense table covers the ids a module of this size can define;
	// a corrupt bound cannot make it large.
	n := min(s.m.Bound, uint32(min(2*len(s.m.Insts)+1024, 1<<22)))
	s.def = make([]int32, n)
	for i := range s.def {
		s.def[i] = -1
	}
	for i := range s.m.Insts {
		in := &s.m.Insts[i]
		if !in.Op.Desc().HasResult() {
			continue
		}
		id := in.ResultID()
		if s.defIndex(id) >= 0 {
			s.fail(i, "id.unique", "ID '%d' has already been defined.", id)
			return
		}
		if id < n {
			s.def[id] = int32(i)
		} else {
			if s.defMap == nil { // only ids beyond the dense table
				s.defMap = map[uint32]int32{}
			}
			s.defMap[id] = int32(i)
		}
		if in.Op == spirv.OpTypeForwardPointer {
			continue
		}
	}
	for i := range s.m.Insts {
		if s.m.Insts[i].Op == spirv.OpTypeForwardPointer {
			s.fwdPtr[s.m.Insts[i].Words[0]] = true
		}
	}
	firstFunc := len(s.m.Insts)
	if len(s.layout.Functions) > 0 {
		for i := range s.m.Insts {
			if s.m.Insts[i].Op == spirv.OpFunction {
				firstFunc = i
				break
			}
		}
	}
	for i := range s.m.Insts {
		in := &s.m.Insts[i]
		for _, o := range s.operands(i) {
			if !isIDKind(o.Kind) {
				if o.Kind == spirv.KindPairIdRefIdRef || o.Kind == spirv.KindPairIdRefLiteralInteger || o.Kind == spirv.KindPairLiteralIntegerIdRef {
					continue // the parser splits pairs into their parts
				}
				continue
			}
			for k := 0; k < o.Count; k++ {
				id := in.Words[o.Offset+k]
				d := s.defIndex(id)
				if d < 0 {
					s.fail(i, "id.defined", "ID '%d' has not been defined", id)
					return
				}
				if i < firstFunc && d >= i && !forwardOK(in.Op, s.fwdPtr[id]) {
					s.fail(i, "id.forward", "Operand <id> '%d' of %s is used before it is defined", id, in.Op)
					return
				}
			}
		}
	}
}

// forwardOK reports whether a global instruction may name an id defined
// after it: debug and annotation instructions, entry points and execution
// modes, and types naming a forward-declared pointer.
func forwardOK(op spirv.Op, fwdPtr bool) bool {
	switch spirv.SectionOf(op) {
	case spirv.SecEntryPoint, spirv.SecExecutionMode, spirv.SecDebugString, spirv.SecDebugName,
		spirv.SecDebugModule, spirv.SecAnnotation:
		return true
	}
	switch op {
	case spirv.OpLine, spirv.OpExtInst, spirv.OpExtInstWithForwardRefsKHR:
		return true
	}
	return fwdPtr
}
