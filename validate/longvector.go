package validate

import "github.com/coopshader/coop/spirv"

// SPV_EXT_long_vector. The component counts of OpTypeVector and
// OpTypeVectorIdEXT are checked with the types (types.go), the matrix
// column rule in checkMatrixType.

// checkLongVectorStorage: "Vector types with more than four components (or
// types containing them) can only be allocated in Function, Private,
// Uniform, Workgroup, StorageBuffer, PhysicalStorageBuffer, PushConstant,
// ShaderRecordBufferKHR, CrossWorkgroup, and Generic storage classes."
func (s *state) checkLongVectorStorage(i int, sc spirv.StorageClass, t *Type) {
	switch sc {
	case spirv.StorageClassFunction, spirv.StorageClassPrivate, spirv.StorageClassUniform, spirv.StorageClassWorkgroup,
		spirv.StorageClassStorageBuffer, spirv.StorageClassPhysicalStorageBuffer, spirv.StorageClassPushConstant,
		spirv.StorageClassShaderRecordBufferKHR, spirv.StorageClassCrossWorkgroup, spirv.StorageClassGeneric:
		return
	}
	long := s.contains(t, func(t *Type) bool {
		return (t.Op == spirv.OpTypeVector || t.Op == spirv.OpTypeVectorIdEXT && !s.isCoopVec(t)) && (!t.CountKnown || t.Count > 4)
	})
	if long != nil {
		s.fail(i, "longvector.storage", "Vector types with more than four components (or types containing them) cannot be allocated in the %s storage class (SPV_EXT_long_vector Validation Rules)", scName(sc))
	}
}
