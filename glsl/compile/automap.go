package compile

import "github.com/coopshader/coop/spirv"

// AutoMapBindings gives every descriptor resource (a Uniform,
// UniformConstant or StorageBuffer variable) without a Binding decoration
// the lowest binding not yet used in its descriptor set, in declaration
// order, and descriptor set 0 when it has none — the effect of
// glslangValidator's --auto-map-bindings. As in glslang, only resources
// the code uses get a binding of their own; the others default to 0.
func AutoMapBindings(m *spirv.Module) {
	live := liveIDs(m)
	binding := map[uint32]uint32{}
	set := map[uint32]uint32{}
	hasSet := map[uint32]bool{}
	firstGlobal := -1
	for i := range m.Insts {
		in := &m.Insts[i]
		if in.Op == spirv.OpDecorate && len(in.Words) >= 3 {
			switch spirv.Decoration(in.Words[1]) {
			case spirv.DecorationBinding:
				binding[in.Words[0]] = in.Words[2]
			case spirv.DecorationDescriptorSet:
				set[in.Words[0]] = in.Words[2]
				hasSet[in.Words[0]] = true
			}
		}
		if firstGlobal < 0 && spirv.SectionOf(in.Op) == spirv.SecGlobal {
			firstGlobal = i
		}
	}
	used := map[[2]uint32]bool{}
	for id, b := range binding {
		used[[2]uint32{set[id], b}] = true
	}
	var added []spirv.Inst
	for i := range m.Insts {
		in := &m.Insts[i]
		if in.Op != spirv.OpVariable || len(in.Words) < 3 {
			continue
		}
		switch spirv.StorageClass(in.Words[2]) {
		case spirv.StorageClassUniform, spirv.StorageClassUniformConstant, spirv.StorageClassStorageBuffer:
		default:
			continue
		}
		id := in.Words[1]
		if _, ok := binding[id]; ok {
			continue
		}
		s := set[id]
		b := uint32(0)
		if live[id] {
			for used[[2]uint32{s, b}] {
				b++
			}
			used[[2]uint32{s, b}] = true
		}
		if !hasSet[id] {
			added = append(added, spirv.Inst{Op: spirv.OpDecorate, Words: []uint32{id, uint32(spirv.DecorationDescriptorSet), 0}})
		}
		added = append(added, spirv.Inst{Op: spirv.OpDecorate, Words: []uint32{id, uint32(spirv.DecorationBinding), b}})
	}
	if len(added) == 0 || firstGlobal < 0 {
		return
	}
	insts := make([]spirv.Inst, 0, len(m.Insts)+len(added))
	insts = append(insts, m.Insts[:firstGlobal]...)
	insts = append(insts, added...)
	m.Insts = append(insts, m.Insts[firstGlobal:]...)
}

// liveIDs are the ids that instructions in function bodies use.
func liveIDs(m *spirv.Module) map[uint32]bool {
	t := spirv.NewTypes()
	live := map[uint32]bool{}
	var ops []spirv.Operand
	inFunc := false
	for i := range m.Insts {
		in := &m.Insts[i]
		t.Record(in)
		if in.Op == spirv.OpFunction {
			inFunc = true
		}
		if !inFunc {
			continue
		}
		var err error
		if ops, err = t.Operands(in, ops[:0]); err != nil {
			continue
		}
		for _, o := range ops {
			if o.Kind == spirv.KindIdRef {
				for k := range o.Count {
					live[in.Words[o.Offset+k]] = true
				}
			}
		}
	}
	return live
}
