package validate

import "github.com/coopshader/coop/spirv"

// The non-uniform group instructions (SPIR-V 3.56.24): the Value an
// operation combines or moves has the Result Type, the kind of which the
// operation names; ClusterSize and the partitioned operations' Ballot
// have their types; a Predicate is a Boolean scalar. The Execution Scope
// is checked with the other scopes (memory.go).

// groupArith are the reductions and scans, by the component kind they
// take ("Result Type must be a scalar or vector of integer type").
var groupArith = [...]opValue[spirv.Op]{
	{spirv.OpGroupNonUniformIAdd, spirv.OpTypeInt}, {spirv.OpGroupNonUniformIMul, spirv.OpTypeInt},
	{spirv.OpGroupNonUniformSMin, spirv.OpTypeInt}, {spirv.OpGroupNonUniformUMin, spirv.OpTypeInt},
	{spirv.OpGroupNonUniformSMax, spirv.OpTypeInt}, {spirv.OpGroupNonUniformUMax, spirv.OpTypeInt},
	{spirv.OpGroupNonUniformBitwiseAnd, spirv.OpTypeInt}, {spirv.OpGroupNonUniformBitwiseOr, spirv.OpTypeInt},
	{spirv.OpGroupNonUniformBitwiseXor, spirv.OpTypeInt}, {spirv.OpGroupNonUniformFAdd, spirv.OpTypeFloat},
	{spirv.OpGroupNonUniformFMul, spirv.OpTypeFloat}, {spirv.OpGroupNonUniformFMin, spirv.OpTypeFloat},
	{spirv.OpGroupNonUniformFMax, spirv.OpTypeFloat}, {spirv.OpGroupNonUniformLogicalAnd, spirv.OpTypeBool},
	{spirv.OpGroupNonUniformLogicalOr, spirv.OpTypeBool}, {spirv.OpGroupNonUniformLogicalXor, spirv.OpTypeBool},
}

// checkGroupArith: "Result Type must be a scalar or vector of <kind>
// type. ... The type of Value must be the same as Result Type.
// ClusterSize ... must be a scalar of integer type, whose Signedness
// operand is 0." The partitioned operations (SPV_NV_shader_subgroup_partitioned)
// take a Ballot: "a vector of four components of integer type scalar".
func (s *state) checkGroupArith(i int) {
	in := &s.m.Insts[i]
	w := in.Words
	if len(w) < 5 {
		return
	}
	r, ok, coop := s.numOf(w[0])
	if coop {
		return
	}
	kind, _ := lookup(groupArith[:], in.Op)
	if !ok || !r.is(kind) {
		s.fail(i, "group.result", "%s: Result Type must be a scalar or vector of %s type", in.Op, kindName(kind))
		return
	}
	if s.typeOf(w[4]) != w[0] {
		s.fail(i, "group.value", "The type of Value must match the Result type")
		return
	}
	if len(w) < 6 {
		// The operations that need an operand: "ClusterSize ... only
		// valid with ClusteredReduce" and required by it; "Ballot ...
		// must be present" with the partitioned operations
		// (SPV_NV_shader_subgroup_partitioned; paraphrased, no local copy).
		switch spirv.GroupOperation(w[3]) {
		case spirv.GroupOperationClusteredReduce:
			s.fail(i, "group.cluster-size", "ClusterSize must be present when Operation is ClusteredReduce")
		case spirv.GroupOperationPartitionedReduceEXT, spirv.GroupOperationPartitionedInclusiveScanEXT,
			spirv.GroupOperationPartitionedExclusiveScanEXT:
			s.fail(i, "group.ballot", "Ballot must be present when Operation is PartitionedReduceNV, PartitionedInclusiveScanNV, or PartitionedExclusiveScanNV")
		}
		return
	}
	v, ok, _ := s.numOf(s.typeOf(w[5]))
	switch spirv.GroupOperation(w[3]) {
	case spirv.GroupOperationClusteredReduce:
		if !ok || v.vec || !v.is(spirv.OpTypeInt) || v.t.Signed {
			s.fail(i, "group.cluster-size", "ClusterSize must be an unsigned integer scalar")
		} else if !s.isConst(w[5]) {
			// "ClusterSize ... must come from a constant instruction"
			s.fail(i, "group.cluster-size", "ClusterSize must be a constant instruction")
		}
	case spirv.GroupOperationPartitionedReduceEXT, spirv.GroupOperationPartitionedInclusiveScanEXT,
		spirv.GroupOperationPartitionedExclusiveScanEXT:
		if !ok || !v.vec || !v.is(spirv.OpTypeInt) || !v.known || v.n != 4 {
			s.fail(i, "group.ballot", "Ballot must be a 4-component integer vector")
		}
	}
}

func kindName(op spirv.Op) string {
	switch op {
	case spirv.OpTypeInt:
		return "integer"
	case spirv.OpTypeFloat:
		return "floating-point"
	}
	return "Boolean"
}

// checkGroupValue (broadcasts, shuffles, quad operations, rotates): "The
// type of Value must be the same as Result Type." OpGroupNonUniformShuffleUp,
// ShuffleDown and RotateKHR add: "Delta must be a scalar of integer type,
// whose Signedness operand is 0."
func (s *state) checkGroupValue(i int) {
	in := &s.m.Insts[i]
	w := in.Words
	if len(w) > 3 && s.typeOf(w[3]) != w[0] {
		s.fail(i, "group.value", "The type of Value must match the Result type")
		return
	}
	// Broadcast, Shuffle: "Id must be a scalar of integer type, whose
	// Signedness operand is 0"; ShuffleXor's Mask, QuadBroadcast's Index
	// and QuadSwap's Direction the same; Direction "must come from a
	// constant instruction", and so must Id and Index before SPIR-V 1.5
	// (SPIR-V 3.56.24, paraphrased, no local copy).
	if name := groupIndexName(in.Op); name != "" && len(w) > 4 {
		if d, ok, _ := s.numOf(s.typeOf(w[4])); !ok || d.vec || !d.is(spirv.OpTypeInt) || d.t.Signed {
			s.fail(i, "group.index", "%s must be an unsigned integer scalar", name)
			return
		}
		constant := in.Op == spirv.OpGroupNonUniformQuadSwap || s.m.Version < spirv.MakeVersion(1, 5) &&
			(in.Op == spirv.OpGroupNonUniformBroadcast || in.Op == spirv.OpGroupNonUniformQuadBroadcast)
		if constant && !s.isConst(w[4]) {
			s.fail(i, "group.index", "In SPIR-V 1.4 or earlier, %s must be a constant instruction", name)
			return
		}
	}
	switch in.Op {
	case spirv.OpGroupNonUniformShuffleUp, spirv.OpGroupNonUniformShuffleDown, spirv.OpGroupNonUniformRotateKHR:
		if len(w) > 4 {
			if d, ok, _ := s.numOf(s.typeOf(w[4])); !ok || d.vec || !d.is(spirv.OpTypeInt) || d.t.Signed {
				s.fail(i, "group.delta", "Delta must be a scalar of integer type, whose Signedness operand is 0.")
				return
			}
		}
		// RotateKHR (SPV_KHR_subgroup_rotate): "ClusterSize is the size of
		// cluster to use. ClusterSize must be a scalar of integer type,
		// whose Signedness operand is 0. ClusterSize must come from a
		// constant instruction."
		if in.Op == spirv.OpGroupNonUniformRotateKHR && len(w) > 5 {
			if c, ok, _ := s.numOf(s.typeOf(w[5])); !ok || c.vec || !c.is(spirv.OpTypeInt) || c.t.Signed {
				s.fail(i, "group.cluster-size", "ClusterSize must be a scalar of integer type, whose Signedness operand is 0.")
			} else if !s.isConst(w[5]) {
				s.fail(i, "group.cluster-size", "ClusterSize must be a constant instruction")
			}
		}
	}
}

// groupIndexName names the operand choosing another invocation's value,
// for the instructions whose rule groupValue checks here.
func groupIndexName(op spirv.Op) string {
	switch op {
	case spirv.OpGroupNonUniformBroadcast, spirv.OpGroupNonUniformShuffle:
		return "Id"
	case spirv.OpGroupNonUniformShuffleXor:
		return "Mask"
	case spirv.OpGroupNonUniformQuadBroadcast:
		return "Index"
	case spirv.OpGroupNonUniformQuadSwap:
		return "Direction"
	}
	return ""
}

// checkGroupPredicate (OpGroupNonUniformBallot, All, Any): "Predicate
// must be a Boolean type."
func (s *state) checkGroupPredicate(i int) {
	w := s.m.Insts[i].Words
	if len(w) > 3 {
		if v, ok, _ := s.numOf(s.typeOf(w[3])); !ok || v.vec || !v.is(spirv.OpTypeBool) {
			s.fail(i, "group.predicate", "Predicate must be a boolean scalar")
		}
	}
}

// checkGroupAllEqual (OpGroupNonUniformAllEqual): "Result Type must be a
// Boolean type. Value must be a scalar or vector of floating-point type,
// integer type, or Boolean type."
func (s *state) checkGroupAllEqual(i int) {
	w := s.m.Insts[i].Words
	if r := s.types[w[0]]; !r.is(spirv.OpTypeBool) {
		s.fail(i, "group.result", "Result Type must be a boolean scalar type")
		return
	}
	if len(w) > 3 {
		if _, ok, _ := s.numOf(s.typeOf(w[3])); !ok {
			s.fail(i, "group.value", "Value must be a scalar or vector of integer, floating-point, or boolean type")
		}
	}
}

// checkBallotBitExtract (OpGroupNonUniformBallotBitExtract): "Result Type
// must be a Boolean type. Value must be a vector of four components of
// integer type scalar, whose Width operand is 32 and whose Signedness
// operand is 0. Index must be a scalar of integer type, whose Signedness
// operand is 0."
func (s *state) checkBallotBitExtract(i int) {
	w := s.m.Insts[i].Words
	if len(w) < 5 {
		return
	}
	if r := s.types[w[0]]; !r.is(spirv.OpTypeBool) {
		s.fail(i, "group.result", "Result Type must be a boolean scalar type")
		return
	}
	if v, ok, _ := s.numOf(s.typeOf(w[3])); !ok || !v.vec || !v.is(spirv.OpTypeInt) || v.t.Width != 32 || v.t.Signed || v.known && v.n != 4 {
		s.fail(i, "group.ballot", "Expected Value to be a vector of four components of integer type scalar")
		return
	}
	if d, ok, _ := s.numOf(s.typeOf(w[4])); !ok || d.vec || !d.is(spirv.OpTypeInt) || d.t.Signed {
		s.fail(i, "group.index", "Id must be an unsigned integer scalar")
	}
}

// checkBallotCount (OpGroupNonUniformBallotBitCount,
// OpGroupNonUniformBallotFindLSB and -MSB): "Result Type must be a scalar
// of integer type, whose Signedness operand is 0"; "Value must be a vector
// of four components of integer type scalar, whose Width operand is 32
// and whose Signedness operand is 0" (SPIR-V 3.56.24, paraphrased, no
// local copy); in Vulkan a bit count's "group operation must be only:
// Reduce, InclusiveScan, or ExclusiveScan" (VUID-StandaloneSpirv-OpGroupNonUniformBallotBitCount-04685).
func (s *state) checkBallotCount(i int) {
	in := &s.m.Insts[i]
	w := in.Words
	value := 3
	if in.Op == spirv.OpGroupNonUniformBallotBitCount {
		value = 4
	}
	if len(w) <= value {
		return
	}
	if r, ok, _ := s.numOf(w[0]); !ok || r.vec || !r.is(spirv.OpTypeInt) || r.t.Signed {
		s.fail(i, "group.result", "Expected Result Type to be an unsigned integer type scalar.")
		return
	}
	if v, ok, _ := s.numOf(s.typeOf(w[value])); !ok || !v.vec || !v.is(spirv.OpTypeInt) || v.t.Width != 32 || v.t.Signed || v.known && v.n != 4 {
		s.fail(i, "group.ballot", "Expected Value to be a vector of four components of integer type scalar")
		return
	}
	if in.Op == spirv.OpGroupNonUniformBallotBitCount && s.env.vulkan {
		switch spirv.GroupOperation(w[3]) {
		case spirv.GroupOperationReduce, spirv.GroupOperationInclusiveScan, spirv.GroupOperationExclusiveScan:
		default:
			s.fail(i, "vulkan.group.ballot-bit-count", "[VUID-StandaloneSpirv-OpGroupNonUniformBallotBitCount-04685] In Vulkan: The OpGroupNonUniformBallotBitCount group operation must be only: Reduce, InclusiveScan, or ExclusiveScan.")
		}
	}
}

// checkGroupX (the Group and SPV_AMD_shader_ballot NonUniform reductions,
// OpGroupIAdd ... OpGroupSMaxNonUniformAMD): "The type of X must be the
// same as Result Type."
func (s *state) checkGroupX(i int) {
	w := s.m.Insts[i].Words
	if len(w) > 4 && s.typeOf(w[4]) != w[0] {
		s.fail(i, "group.value", "The type of X must match the Result type")
	}
}

// groupEach adds the family's rules (instructions.go lists the families).
func groupEach(add func(spirv.Op, func(*state, int))) {
	add(spirv.OpGroupNonUniformAllEqual, (*state).checkGroupAllEqual)
	add(spirv.OpGroupNonUniformBallotBitExtract, (*state).checkBallotBitExtract)
	add(spirv.OpGroupNonUniformBallotBitCount, (*state).checkBallotCount)
	add(spirv.OpGroupNonUniformBallotFindLSB, (*state).checkBallotCount)
	add(spirv.OpGroupNonUniformBallotFindMSB, (*state).checkBallotCount)
	for _, op := range [...]spirv.Op{spirv.OpGroupIAdd, spirv.OpGroupFAdd, spirv.OpGroupFMin, spirv.OpGroupUMin,
		spirv.OpGroupSMin, spirv.OpGroupFMax, spirv.OpGroupUMax, spirv.OpGroupSMax, spirv.OpGroupIAddNonUniformAMD,
		spirv.OpGroupFAddNonUniformAMD, spirv.OpGroupFMinNonUniformAMD, spirv.OpGroupUMinNonUniformAMD,
		spirv.OpGroupSMinNonUniformAMD, spirv.OpGroupFMaxNonUniformAMD, spirv.OpGroupUMaxNonUniformAMD,
		spirv.OpGroupSMaxNonUniformAMD} {
		add(op, (*state).checkGroupX)
	}
	for _, g := range groupArith {
		add(g.op, (*state).checkGroupArith)
	}
	for _, op := range [...]spirv.Op{spirv.OpGroupNonUniformBroadcast, spirv.OpGroupNonUniformBroadcastFirst,
		spirv.OpGroupNonUniformShuffle, spirv.OpGroupNonUniformShuffleXor, spirv.OpGroupNonUniformShuffleUp,
		spirv.OpGroupNonUniformShuffleDown, spirv.OpGroupNonUniformQuadBroadcast, spirv.OpGroupNonUniformQuadSwap,
		spirv.OpGroupNonUniformRotateKHR} {
		add(op, (*state).checkGroupValue)
	}
	for _, op := range [...]spirv.Op{spirv.OpGroupNonUniformBallot, spirv.OpGroupNonUniformAll, spirv.OpGroupNonUniformAny} {
		add(op, (*state).checkGroupPredicate)
	}
}
