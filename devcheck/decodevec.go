package devcheck

import (
	"math/bits"
	"slices"

	"github.com/coopshader/coop/spirv"
)

// DecodeVectorExtension is the device extension a module's DecodeVectorFunc
// operands need.
const DecodeVectorExtension = "VK_NV_cooperative_matrix_decode_vector"

// memoryOperandParams are the Memory Operands bits that carry one operand
// word each (Aligned, MakePointerAvailable, MakePointerVisible,
// AliasScopeINTELMask, NoAliasINTELMask).
const memoryOperandParams = 0x2 | 0x8 | 0x10 | 0x10000 | 0x20000

// StripDecodeVector returns m without SPV_NV_cooperative_matrix_decode_vector:
// every OpCooperativeMatrixLoadTensorNV loses its DecodeVectorFunc operand,
// and the CooperativeMatrixDecodeVectorNV capability and the extension go.
// The extension lets an implementation call either decode function (a
// vector function must agree with the scalar one it sits beside), so the
// stripped module computes the same values on a device without the
// extension. ok is false when m used none (m is then returned as is).
func StripDecodeVector(m *spirv.Module) (out *spirv.Module, ok bool) {
	var insts []spirv.Inst
	for i := range m.Insts {
		in := m.Insts[i]
		switch in.Op {
		case spirv.OpCapability:
			if len(in.Words) == 1 && in.Words[0] == uint32(spirv.CapabilityCooperativeMatrixDecodeVectorNV) {
				ok = true
				continue
			}
		case spirv.OpExtension:
			if s, _, _ := in.String(0); s == "SPV_NV_cooperative_matrix_decode_vector" {
				ok = true
				continue
			}
		case spirv.OpCooperativeMatrixLoadTensorNV:
			// Result type, result, pointer, object, tensor layout, memory
			// operand and its parameters, tensor addressing operands and
			// theirs (TensorView, DecodeFunc, DecodeVectorFunc in bit order).
			w := in.Words
			if len(w) < 7 {
				break
			}
			ta := 6 + bits.OnesCount32(w[5]&memoryOperandParams)
			if ta >= len(w) || w[ta]&uint32(spirv.TensorAddressingOperandsDecodeVectorFunc) == 0 {
				break
			}
			pos := ta + 1 + bits.OnesCount32(w[ta]&(uint32(spirv.TensorAddressingOperandsDecodeVectorFunc)-1))
			if pos >= len(w) {
				break
			}
			nw := slices.Clone(w)
			nw[ta] &^= uint32(spirv.TensorAddressingOperandsDecodeVectorFunc)
			in = spirv.Inst{Op: in.Op, Words: slices.Delete(nw, pos, pos+1)}
			ok = true
		}
		insts = append(insts, in)
	}
	if !ok {
		return m, false
	}
	c := *m
	c.Insts = insts
	return &c, true
}
