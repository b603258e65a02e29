package validate

import "github.com/coopshader/coop/spirv"

// What the storage classes allow instructions to do with their memory:
// the read-only ones take no store (SPIR-V 3.7 Storage Class:
// UniformConstant "read-only", Input, PushConstant "read-only";
// SPV_KHR_ray_tracing: ShaderRecordBufferKHR is read-only; paraphrased, no
// local copy).

func init() {
	addChecks(func() checks { return checks{spirv.OpStore: (*state).checkStoreStorage} })
}

func (s *state) checkStoreStorage(i int) {
	w := s.m.Insts[i].Words
	pt := s.valueType(w[0])
	if !pt.is(spirv.OpTypePointer) && !pt.is(spirv.OpTypeUntypedPointerKHR) {
		return
	}
	switch pt.Storage {
	case spirv.StorageClassUniformConstant, spirv.StorageClassInput, spirv.StorageClassPushConstant, spirv.StorageClassShaderRecordBufferKHR:
		s.fail(i, "memory.store.read-only", "OpStore Pointer <id> '%d' storage class is read-only", w[0])
	}
}
