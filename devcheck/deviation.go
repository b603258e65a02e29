package devcheck

import (
	"fmt"

	"github.com/coopshader/coop/spirv"
)

// Deviation is a place in a module where a known driver departs from
// SPIR-V's semantics, so results may differ from the executor's for a
// reason that is the driver's, not a choice the specifications leave open.
type Deviation struct {
	Inst int    // instruction index
	ID   uint32 // its result id
	Msg  string
}

func (d Deviation) String() string {
	return fmt.Sprintf("instruction %d (%%%d): %s", d.Inst, d.ID, d.Msg)
}

// Deviations finds the round trips through a narrower float type
// (OpFConvert to fp16 or bf16 and back, as GLSL's float(float16_t(x))
// writes): measured on the H100 (driver 580), the driver folds them away,
// so a value that overflows fp16 stays finite and one that fp16 would
// round keeps its bits. SPIR-V's OpFConvert must round to the narrower
// type (and overflow to infinity, as Vulkan's conversion rules say), so
// the executor's result is the specified one.
func Deviations(m *spirv.Module) []Deviation {
	def := map[uint32]*spirv.Inst{}
	types := map[uint32]*spirv.Inst{}
	var out []Deviation
	width := func(t uint32) (uint32, bool) {
		ti := types[t]
		for ti != nil && ti.Op == spirv.OpTypeVector && len(ti.Words) >= 2 {
			ti = types[ti.Words[1]]
		}
		if ti == nil || ti.Op != spirv.OpTypeFloat || len(ti.Words) < 2 {
			return 0, false
		}
		return ti.Words[1], true
	}
	for i := range m.Insts {
		in := &m.Insts[i]
		if id := in.ResultID(); id != 0 {
			def[id] = in
			if in.Op == spirv.OpTypeFloat || in.Op == spirv.OpTypeVector {
				types[id] = in
			}
		}
		if in.Op != spirv.OpFConvert || len(in.Words) < 3 {
			continue
		}
		inner := def[in.Words[2]]
		if inner == nil || inner.Op != spirv.OpFConvert || len(inner.Words) < 3 {
			continue
		}
		src := def[inner.Words[2]]
		if src == nil {
			continue
		}
		wOut, ok1 := width(in.Words[0])
		wMid, ok2 := width(inner.Words[0])
		wSrc, ok3 := width(src.TypeID())
		if ok1 && ok2 && ok3 && wMid < wSrc && wOut >= wSrc {
			out = append(out, Deviation{Inst: i, ID: in.Words[1], Msg: fmt.Sprintf(
				"OpFConvert of %%%d, itself a conversion of a %d-bit float to %d bits: drivers (the H100's, measured) fold the round trip away, while SPIR-V requires the %d-bit rounding (and overflow to infinity); a device deviation, not an implementation-defined choice",
				inner.Words[1], wSrc, wMid, wMid)})
		}
	}
	return out
}
