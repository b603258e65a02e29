package validate

import "github.com/coopshader/coop/spirv"

// SPV_NV_cooperative_matrix_decode_vector: the DecodeVectorFunc tensor
// addressing operand of OpCooperativeMatrixLoadTensorNV.

// checkDecodeVector: "DecodeFunc must also be present in the same 'Tensor
// Addressing Operands'. The 'Result Type' of DecodeVectorFunc's function
// must be a vector of the 'Component Type' of 'Result Type' with 2, 4, or
// 8 components. DecodeVectorFunc's function is subject to the same
// parameter type requirements as DecodeFunc." Where the layout's
// blockSize[LDim-1] is a constant set by OpTensorLayoutSetBlockSizeNV, it
// "must be a multiple of V".
func (s *state) checkDecodeVector(i int, decode, decodeVec uint32, mt, lt *Type, layout uint32) {
	if decode == 0 {
		s.fail(i, "decode-vector.scalar", "OpCooperativeMatrixLoadTensorNV: DecodeFunc must also be present when DecodeVectorFunc is (SPV_NV_cooperative_matrix_decode_vector).")
		return
	}
	var v uint64
	ret := func(rt *Type) bool {
		if !rt.is(spirv.OpTypeVector) || rt.Elem != mt.Elem {
			return false
		}
		v = rt.Count
		return v == 2 || v == 4 || v == 8
	}
	if s.checkDecodeFunc(i, decodeVec, "DecodeVectorFunc", lt, ret,
		"must be a vector of the Component Type of Result Type with 2, 4, or 8 components (SPV_NV_cooperative_matrix_decode_vector)"); s.err != nil {
		return
	}
	if bs, ok := s.lastBlockSize(layout); ok && bs%v != 0 {
		s.fail(i, "decode-vector.block-size", "OpCooperativeMatrixLoadTensorNV: blockSize[LDim-1] (%d) must be a multiple of V (%d), the component count of DecodeVectorFunc's return type (SPV_NV_cooperative_matrix_decode_vector).", bs, v)
	}
}

// lastBlockSize follows a tensor layout value back through the layout
// instructions to the OpTensorLayoutSetBlockSizeNV that set it; ok is
// false when that is not found or its last block size is not constant.
// OpCreateTensorLayoutNV initializes the block sizes to one.
func (s *state) lastBlockSize(layout uint32) (uint64, bool) {
	for steps := 0; steps < 1000; steps++ {
		in := s.defInst(layout)
		if in == nil {
			return 0, false
		}
		switch in.Op {
		case spirv.OpTensorLayoutSetBlockSizeNV:
			return s.constValue(in.Words[len(in.Words)-1])
		case spirv.OpCreateTensorLayoutNV:
			return 1, true
		case spirv.OpTensorLayoutSetDimensionNV, spirv.OpTensorLayoutSetStrideNV, spirv.OpTensorLayoutSliceNV,
			spirv.OpTensorLayoutSetClampValueNV:
			layout = in.Words[2]
		default:
			return 0, false
		}
	}
	return 0, false
}
