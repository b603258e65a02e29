package check

// BuiltinVar identifies a built-in variable of compute shaders.
type BuiltinVar uint8

// Built-in variables.
const (
	BuiltinNone BuiltinVar = iota
	BuiltinNumWorkGroups
	BuiltinWorkGroupSize
	BuiltinWorkGroupID
	BuiltinLocalInvocationID
	BuiltinGlobalInvocationID
	BuiltinLocalInvocationIndex
	BuiltinSubgroupSize
	BuiltinSubgroupInvocationID
	BuiltinSubgroupID
	BuiltinNumSubgroups
	BuiltinSubgroupEqMask
	BuiltinSubgroupGeMask
	BuiltinSubgroupGtMask
	BuiltinSubgroupLeMask
	BuiltinSubgroupLtMask
	BuiltinDeviceIndex
	// GL_ARB_shader_ballot: 64-bit masks.
	BuiltinSubGroupSizeARB
	BuiltinSubGroupInvocationARB
	BuiltinSubGroupEqMaskARB
	BuiltinSubGroupGeMaskARB
	BuiltinSubGroupGtMaskARB
	BuiltinSubGroupLeMaskARB
	BuiltinSubGroupLtMaskARB
)

type builtinVarInfo struct {
	name string
	typ  *Type
	ext  []string // any one of these enables it (none: always)
	min  int      // minimum desktop version (0: any)
}

var subgroupExts = []string{"GL_KHR_shader_subgroup_basic"}
var ballotExts = []string{"GL_KHR_shader_subgroup_ballot"}

var uvec3 = VectorType(Uint32, 3)
var uvec4 = VectorType(Uint32, 4)

var builtinVars = map[string]BuiltinVar{}

var builtinVarTable = [...]builtinVarInfo{
	BuiltinNumWorkGroups:         {"gl_NumWorkGroups", uvec3, nil, 0},
	BuiltinWorkGroupSize:         {"gl_WorkGroupSize", uvec3, nil, 0},
	BuiltinWorkGroupID:           {"gl_WorkGroupID", uvec3, nil, 0},
	BuiltinLocalInvocationID:     {"gl_LocalInvocationID", uvec3, nil, 0},
	BuiltinGlobalInvocationID:    {"gl_GlobalInvocationID", uvec3, nil, 0},
	BuiltinLocalInvocationIndex:  {"gl_LocalInvocationIndex", TUint, nil, 0},
	BuiltinSubgroupSize:          {"gl_SubgroupSize", TUint, subgroupExts, 0},
	BuiltinSubgroupInvocationID:  {"gl_SubgroupInvocationID", TUint, subgroupExts, 0},
	BuiltinSubgroupID:            {"gl_SubgroupID", TUint, subgroupExts, 0},
	BuiltinNumSubgroups:          {"gl_NumSubgroups", TUint, subgroupExts, 0},
	BuiltinSubgroupEqMask:        {"gl_SubgroupEqMask", uvec4, ballotExts, 0},
	BuiltinSubgroupGeMask:        {"gl_SubgroupGeMask", uvec4, ballotExts, 0},
	BuiltinSubgroupGtMask:        {"gl_SubgroupGtMask", uvec4, ballotExts, 0},
	BuiltinSubgroupLeMask:        {"gl_SubgroupLeMask", uvec4, ballotExts, 0},
	BuiltinSubgroupLtMask:        {"gl_SubgroupLtMask", uvec4, ballotExts, 0},
	BuiltinDeviceIndex:           {"gl_DeviceIndex", TInt, []string{"GL_EXT_device_group"}, 0},
	BuiltinSubGroupSizeARB:       {"gl_SubGroupSizeARB", TUint, arbBallot, 0},
	BuiltinSubGroupInvocationARB: {"gl_SubGroupInvocationARB", TUint, arbBallot, 0},
	BuiltinSubGroupEqMaskARB:     {"gl_SubGroupEqMaskARB", TUint64, arbBallot, 0},
	BuiltinSubGroupGeMaskARB:     {"gl_SubGroupGeMaskARB", TUint64, arbBallot, 0},
	BuiltinSubGroupGtMaskARB:     {"gl_SubGroupGtMaskARB", TUint64, arbBallot, 0},
	BuiltinSubGroupLeMaskARB:     {"gl_SubGroupLeMaskARB", TUint64, arbBallot, 0},
	BuiltinSubGroupLtMaskARB:     {"gl_SubGroupLtMaskARB", TUint64, arbBallot, 0},
}

var arbBallot = []string{"GL_ARB_shader_ballot"}

func (b BuiltinVar) String() string { return builtinVarTable[b].name }

func init() {
	for i, v := range builtinVarTable {
		if v.name != "" {
			builtinVars[v.name] = BuiltinVar(i)
		}
	}
}

// builtinConst is a predeclared integer constant.
type builtinConst struct {
	val int64
	ext []string // any one enables it
}

var memScopeExt = []string{"GL_KHR_memory_scope_semantics"}
var coopMatExt = []string{"GL_KHR_cooperative_matrix"}
var coopMat2Ext = []string{"GL_NV_cooperative_matrix2"}
var coopVecExt = []string{"GL_NV_cooperative_vector"}

// builtinConsts are the gl_* integer constants of the supported extensions.
var builtinConsts = map[string]builtinConst{
	"gl_ScopeDevice":        {1, memScopeExt},
	"gl_ScopeWorkgroup":     {2, memScopeExt},
	"gl_ScopeSubgroup":      {3, memScopeExt},
	"gl_ScopeInvocation":    {4, memScopeExt},
	"gl_ScopeQueueFamily":   {5, memScopeExt},
	"gl_ScopeShaderCallEXT": {6, memScopeExt},

	"gl_SemanticsRelaxed":        {0, memScopeExt},
	"gl_SemanticsAcquire":        {2, memScopeExt},
	"gl_SemanticsRelease":        {4, memScopeExt},
	"gl_SemanticsAcquireRelease": {8, memScopeExt},
	"gl_SemanticsMakeAvailable":  {0x2000, memScopeExt},
	"gl_SemanticsMakeVisible":    {0x4000, memScopeExt},
	"gl_SemanticsVolatile":       {0x8000, memScopeExt},

	"gl_StorageSemanticsNone":   {0, memScopeExt},
	"gl_StorageSemanticsBuffer": {0x40, memScopeExt},
	"gl_StorageSemanticsShared": {0x100, memScopeExt},
	"gl_StorageSemanticsImage":  {0x800, memScopeExt},
	"gl_StorageSemanticsOutput": {0x1000, memScopeExt},

	"gl_MatrixUseA":                                         {0, coopMatExt},
	"gl_MatrixUseB":                                         {1, coopMatExt},
	"gl_MatrixUseAccumulator":                               {2, coopMatExt},
	"gl_CooperativeMatrixLayoutRowMajor":                    {0, coopMatExt},
	"gl_CooperativeMatrixLayoutColumnMajor":                 {1, coopMatExt},
	"gl_CooperativeMatrixLayoutRowBlockedInterleavedARM":    {4202, []string{"GL_ARM_cooperative_matrix_layouts"}},
	"gl_CooperativeMatrixLayoutColumnBlockedInterleavedARM": {4203, []string{"GL_ARM_cooperative_matrix_layouts"}},
	"gl_MatrixOperandsSaturatingAccumulation":               {0x10, coopMatExt},

	"gl_CooperativeMatrixClampModeUndefinedNV":    {0, coopMat2Ext},
	"gl_CooperativeMatrixClampModeConstantNV":     {1, coopMat2Ext},
	"gl_CooperativeMatrixClampModeClampToEdgeNV":  {2, coopMat2Ext},
	"gl_CooperativeMatrixClampModeRepeatNV":       {3, coopMat2Ext},
	"gl_CooperativeMatrixClampModeMirrorRepeatNV": {4, coopMat2Ext},
	"gl_CooperativeMatrixReduceRowNV":             {1, coopMat2Ext},
	"gl_CooperativeMatrixReduceColumnNV":          {2, coopMat2Ext},
	"gl_CooperativeMatrixReduceRowAndColumnNV":    {3, coopMat2Ext},
	"gl_CooperativeMatrixReduce2x2NV":             {4, coopMat2Ext},

	"gl_ComponentTypeFloat16NV":            {0, coopVecExt},
	"gl_ComponentTypeFloat32NV":            {1, coopVecExt},
	"gl_ComponentTypeFloat64NV":            {2, coopVecExt},
	"gl_ComponentTypeSignedInt8NV":         {3, coopVecExt},
	"gl_ComponentTypeSignedInt16NV":        {4, coopVecExt},
	"gl_ComponentTypeSignedInt32NV":        {5, coopVecExt},
	"gl_ComponentTypeSignedInt64NV":        {6, coopVecExt},
	"gl_ComponentTypeUnsignedInt8NV":       {7, coopVecExt},
	"gl_ComponentTypeUnsignedInt16NV":      {8, coopVecExt},
	"gl_ComponentTypeUnsignedInt32NV":      {9, coopVecExt},
	"gl_ComponentTypeUnsignedInt64NV":      {10, coopVecExt},
	"gl_ComponentTypeSignedInt8PackedNV":   {1000491000, coopVecExt},
	"gl_ComponentTypeUnsignedInt8PackedNV": {1000491001, coopVecExt},
	"gl_ComponentTypeFloatE4M3NV":          {1000491002, coopVecExt},
	"gl_ComponentTypeFloatE5M2NV":          {1000491003, coopVecExt},

	"gl_CooperativeVectorMatrixLayoutRowMajorNV":           {0, coopVecExt},
	"gl_CooperativeVectorMatrixLayoutColumnMajorNV":        {1, coopVecExt},
	"gl_CooperativeVectorMatrixLayoutInferencingOptimalNV": {2, coopVecExt},
	"gl_CooperativeVectorMatrixLayoutTrainingOptimalNV":    {3, coopVecExt},

	// Implementation limits of compute shaders (minimum maxima of the core
	// spec, as glslang's default resources give them).
	"gl_MaxComputeUniformComponents":    {1024, nil},
	"gl_MaxComputeTextureImageUnits":    {16, nil},
	"gl_MaxComputeImageUniforms":        {8, nil},
	"gl_MaxComputeAtomicCounters":       {8, nil},
	"gl_MaxComputeAtomicCounterBuffers": {1, nil},
}

// gl_MaxComputeWorkGroupCount and Size are ivec3 constants.
var builtinIVec3Consts = map[string][3]int64{
	"gl_MaxComputeWorkGroupCount": {65535, 65535, 65535},
	"gl_MaxComputeWorkGroupSize":  {1024, 1024, 64},
}
