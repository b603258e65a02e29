package validate

import (
	"fmt"

	"github.com/coopshader/coop/spirv"
)

// SPV_EXT_mesh_shader's instructions: OpEmitMeshTasksEXT ends a task
// shader, OpSetMeshOutputsEXT sets a mesh shader's output counts. The
// extension's text is not among the local specifications; the rules are
// paraphrased from it.

// meshChecks are the family's rules (instructions.go lists the families).
var meshChecks = []opCheck{
	{spirv.OpEmitMeshTasksEXT, (*state).checkEmitMeshTasks},
	{spirv.OpSetMeshOutputsEXT, (*state).checkSetMeshOutputs},
}

// meshLimits are the family's execution-model limits (execmodel.go lists them).
func meshLimits() opLimits {
	return opLimits{
		// OpEmitMeshTasksEXT: "This instruction must be the last
		// instruction in a TaskEXT Execution Model".
		spirv.OpEmitMeshTasksEXT: func(_ *state, _ int, out []modelLimit) []modelLimit {
			return append(out, models("OpEmitMeshTasksEXT requires TaskEXT execution model", spirv.ExecutionModelTaskEXT))
		},
		spirv.OpSetMeshOutputsEXT: (*state).meshOutputLimits,
	}
}

// isUint32Value reports whether the value id is a 32-bit unsigned integer
// scalar.
func (s *state) isUint32Value(id uint32) bool { return s.isUint32(s.typeOf(id)) }

// checkEmitMeshTasks: "Group Count X, Y and Z must be 32-bit unsigned
// integer scalars"; "Payload ... must be the result of an OpVariable in
// the TaskPayloadWorkgroupEXT storage class".
func (s *state) checkEmitMeshTasks(i int) {
	w := s.m.Insts[i].Words
	for k, axis := range []string{"X", "Y", "Z"} {
		if !s.isUint32Value(w[k]) {
			s.fail(i, "mesh.operand", "Group Count %s must be a 32-bit unsigned int scalar", axis)
			return
		}
	}
	if len(w) < 4 {
		return
	}
	switch d := s.defInst(w[3]); {
	case d == nil || d.Op != spirv.OpVariable:
		s.fail(i, "mesh.operand", "Payload must be the result of a OpVariable")
	case spirv.StorageClass(d.Words[2]) != spirv.StorageClassTaskPayloadWorkgroupEXT:
		s.fail(i, "mesh.operand", "Payload OpVariable must have a storage class of TaskPayloadWorkgroupEXT")
	}
}

// checkSetMeshOutputs: "Vertex Count and Primitive Count must be 32-bit
// unsigned integer scalars".
func (s *state) checkSetMeshOutputs(i int) {
	w := s.m.Insts[i].Words
	switch {
	case !s.isUint32Value(w[0]):
		s.fail(i, "mesh.operand", "Vertex Count must be a 32-bit unsigned int scalar")
	case !s.isUint32Value(w[1]):
		s.fail(i, "mesh.operand", "Primitive Count must be a 32-bit unsigned int scalar")
	}
}

// meshOutputLimits: OpSetMeshOutputsEXT is a MeshEXT instruction, and its
// constant counts are at most the entry point's OutputVertices and
// OutputPrimitivesEXT: "Vertex Count ... must be less than or equal to the
// value specified by the OutputVertices Execution Mode", the same for
// Primitive Count and OutputPrimitivesEXT.
func (s *state) meshOutputLimits(i int, out []modelLimit) []modelLimit {
	out = append(out, models("OpSetMeshOutputsEXT requires MeshEXT execution model", spirv.ExecutionModelMeshEXT))
	w := s.m.Insts[i].Words
	for _, c := range []struct {
		id         uint32
		what, mode string
		m          spirv.ExecutionMode
	}{{w[0], "Vertex Count", "OutputVertices", spirv.ExecutionModeOutputVertices}, {w[1], "Primitive Count", "OutputPrimitivesEXT", spirv.ExecutionModeOutputPrimitivesEXT}} {
		v, ok := s.constValue(c.id)
		if !ok {
			continue
		}
		out = append(out, modelLimit{func(e entryPoint) bool {
			m, ok := s.modeArg(e.id, c.m)
			return !ok || v <= uint64(m)
		}, fmt.Sprintf("OpSetMeshOutputsEXT %s (%d) is larger than the %s in OpExecutionMode", c.what, v, c.mode)})
	}
	return out
}
