package validate

import "github.com/coopshader/coop/spirv"

// checkDecorations collects the decorations by target and checks their
// forms (SPIR-V 3.56.5 Annotation Instructions): OpMemberDecorate names a
// structure type and one of its members; Block and BufferBlock decorate
// structure types; decoration groups are expanded.
func (s *state) checkDecorations() {
	groups := map[uint32][]decoration{}
	for i := range s.m.Insts {
		in := &s.m.Insts[i]
		w := in.Words
		switch in.Op {
		case spirv.OpDecorate, spirv.OpDecorateId, spirv.OpDecorateString:
			d := decoration{dec: spirv.Decoration(w[1]), args: w[2:], inst: i}
			if g := s.defInst(w[0]); g != nil && g.Op == spirv.OpDecorationGroup {
				groups[w[0]] = append(groups[w[0]], d)
				continue
			}
			s.decor[w[0]] = append(s.decor[w[0]], d)
			switch d.dec {
			case spirv.DecorationBlock, spirv.DecorationBufferBlock:
				if !s.types[w[0]].is(spirv.OpTypeStruct) {
					s.fail(i, "decoration.block", "%s decoration on a non-struct type.", decName(d.dec))
					return
				}
			case spirv.DecorationSaturatedToLargestFloat8NormalConversionEXT:
				if s.checkSaturatedFP8(i, w[0]); s.err != nil {
					return
				}
			case spirv.DecorationArrayStride:
				t := s.types[w[0]]
				if t == nil || (t.Op != spirv.OpTypeArray && t.Op != spirv.OpTypeRuntimeArray && t.Op != spirv.OpTypePointer &&
					t.Op != spirv.OpTypeUntypedPointerKHR && t.Op != spirv.OpTypeNodePayloadArrayAMDX) {
					s.fail(i, "decoration.array-stride", "ArrayStride decoration on <id> '%d', which is not an array or pointer type.", w[0])
					return
				}
				if len(d.args) > 0 && d.args[0] == 0 {
					s.fail(i, "decoration.array-stride", "ArrayStride of <id> '%d' must be greater than 0.", w[0])
					return
				}
			}
		case spirv.OpMemberName:
			// OpMemberName: "'Type' is the <id> of an OpTypeStruct";
			// 'Member' is one of its members.
			t := s.types[w[0]]
			if !t.is(spirv.OpTypeStruct) {
				s.fail(i, "debug.member-name", "OpMemberName Type <id> '%d' is not a struct type.", w[0])
				return
			}
			if w[1] >= uint32(len(t.Members)) {
				s.fail(i, "debug.member-name", "OpMemberName Member <id> '%d' index is larger than Type <id> '%d's member count.", w[1], w[0])
				return
			}
		case spirv.OpMemberDecorate, spirv.OpMemberDecorateString:
			t := s.types[w[0]]
			if !t.is(spirv.OpTypeStruct) {
				s.fail(i, "decoration.member", "%s Structure type <id> '%d' is not a struct type.", in.Op, w[0])
				return
			}
			if w[1] >= uint32(len(t.Members)) {
				s.fail(i, "decoration.member", "Index %d provided in %s for struct <id> '%d' is out of bounds. The structure has %d members. Largest valid index is %d.",
					w[1], in.Op, w[0], len(t.Members), len(t.Members)-1)
				return
			}
			s.memberDec[w[0]] = append(s.memberDec[w[0]], memberDecoration{member: w[1], dec: spirv.Decoration(w[2]), args: w[3:], inst: i})
		case spirv.OpGroupDecorate:
			for _, t := range w[1:] {
				s.decor[t] = append(s.decor[t], groups[w[0]]...)
			}
		case spirv.OpGroupMemberDecorate:
			for k := 1; k+1 < len(w); k += 2 {
				for _, d := range groups[w[0]] {
					s.memberDec[w[k]] = append(s.memberDec[w[k]], memberDecoration{member: w[k+1], dec: d.dec, args: d.args, inst: i})
				}
			}
		}
	}
}

func decName(d spirv.Decoration) string {
	if e := spirv.KindDecoration.Enumerant(uint32(d)); e != nil {
		return e.Name
	}
	return "Decoration"
}

// hasDecoration reports whether id carries decoration d.
func (s *state) hasDecoration(id uint32, d spirv.Decoration) bool {
	for _, x := range s.decor[id] {
		if x.dec == d {
			return true
		}
	}
	return false
}

// decorationArg returns the first literal of decoration d on id.
func (s *state) decorationArg(id uint32, d spirv.Decoration) (uint32, bool) {
	for _, x := range s.decor[id] {
		if x.dec == d && len(x.args) > 0 {
			return x.args[0], true
		}
	}
	return 0, false
}

// memberDecorationArg returns the first literal of decoration d on member
// m of struct id.
func (s *state) memberDecorationArg(id, m uint32, d spirv.Decoration) (uint32, bool) {
	for _, x := range s.memberDec[id] {
		if x.member == m && x.dec == d && len(x.args) > 0 {
			return x.args[0], true
		}
	}
	return 0, false
}

func (s *state) memberHasDecoration(id, m uint32, d spirv.Decoration) bool {
	for _, x := range s.memberDec[id] {
		if x.member == m && x.dec == d {
			return true
		}
	}
	return false
}
