package check

import "github.com/coopshader/coop/internal/lazy"

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
	// GL_QCOM_tile_shading.
	BuiltinTileOffsetQCOM
	BuiltinTileDimensionQCOM
	BuiltinTileApronSizeQCOM
	// GL_EXT_opacity_micromap_ray_query_mode: a bool constant or
	// specialization constant (Program.OpacityMicromap).
	BuiltinEnableOpacityMicromapEXT
)

type builtinVarInfo struct {
	name string
	typ  *Type
	ext  []string // any one of these enables it (none: always)
	min  int      // minimum desktop version (0: any)
}

var subgroupExts = []string{"GL_KHR_shader_subgroup_basic"}
var ballotExts = []string{"GL_KHR_shader_subgroup_ballot"}

// uvec3 and uvec4 are VectorType's, spelt out so that they are static
// data rather than built at package init.
var uvec3 = &Type{Kind: KVector, Scalar: Uint32, N: 3}
var uvec4 = &Type{Kind: KVector, Scalar: Uint32, N: 4}

var builtinVars map[string]BuiltinVar // made by loadTables

var builtinVarTable = [...]builtinVarInfo{
	BuiltinNumWorkGroups:            {"gl_NumWorkGroups", uvec3, nil, 0},
	BuiltinWorkGroupSize:            {"gl_WorkGroupSize", uvec3, nil, 0},
	BuiltinWorkGroupID:              {"gl_WorkGroupID", uvec3, nil, 0},
	BuiltinLocalInvocationID:        {"gl_LocalInvocationID", uvec3, nil, 0},
	BuiltinGlobalInvocationID:       {"gl_GlobalInvocationID", uvec3, nil, 0},
	BuiltinLocalInvocationIndex:     {"gl_LocalInvocationIndex", TUint, nil, 0},
	BuiltinSubgroupSize:             {"gl_SubgroupSize", TUint, subgroupExts, 0},
	BuiltinSubgroupInvocationID:     {"gl_SubgroupInvocationID", TUint, subgroupExts, 0},
	BuiltinSubgroupID:               {"gl_SubgroupID", TUint, subgroupExts, 0},
	BuiltinNumSubgroups:             {"gl_NumSubgroups", TUint, subgroupExts, 0},
	BuiltinSubgroupEqMask:           {"gl_SubgroupEqMask", uvec4, ballotExts, 0},
	BuiltinSubgroupGeMask:           {"gl_SubgroupGeMask", uvec4, ballotExts, 0},
	BuiltinSubgroupGtMask:           {"gl_SubgroupGtMask", uvec4, ballotExts, 0},
	BuiltinSubgroupLeMask:           {"gl_SubgroupLeMask", uvec4, ballotExts, 0},
	BuiltinSubgroupLtMask:           {"gl_SubgroupLtMask", uvec4, ballotExts, 0},
	BuiltinDeviceIndex:              {"gl_DeviceIndex", TInt, []string{"GL_EXT_device_group"}, 0},
	BuiltinSubGroupSizeARB:          {"gl_SubGroupSizeARB", TUint, arbBallot, 0},
	BuiltinSubGroupInvocationARB:    {"gl_SubGroupInvocationARB", TUint, arbBallot, 0},
	BuiltinSubGroupEqMaskARB:        {"gl_SubGroupEqMaskARB", TUint64, arbBallot, 0},
	BuiltinSubGroupGeMaskARB:        {"gl_SubGroupGeMaskARB", TUint64, arbBallot, 0},
	BuiltinSubGroupGtMaskARB:        {"gl_SubGroupGtMaskARB", TUint64, arbBallot, 0},
	BuiltinSubGroupLeMaskARB:        {"gl_SubGroupLeMaskARB", TUint64, arbBallot, 0},
	BuiltinSubGroupLtMaskARB:        {"gl_SubGroupLtMaskARB", TUint64, arbBallot, 0},
	BuiltinTileOffsetQCOM:           {"gl_TileOffsetQCOM", &Type{Kind: KVector, Scalar: Uint32, N: 2}, tileShadingExt, 0},
	BuiltinTileDimensionQCOM:        {"gl_TileDimensionQCOM", uvec3, tileShadingExt, 0},
	BuiltinTileApronSizeQCOM:        {"gl_TileApronSizeQCOM", &Type{Kind: KVector, Scalar: Uint32, N: 2}, tileShadingExt, 0},
	BuiltinEnableOpacityMicromapEXT: {opacityMicromapName, TBool, []string{opacityMicromapExt}, 0},
}

var tileShadingExt = []string{"GL_QCOM_tile_shading"}

var arbBallot = []string{"GL_ARB_shader_ballot"}

func (b BuiltinVar) String() string { return builtinVarTable[b].name }

func indexBuiltinVars() {
	for i, v := range builtinVarTable {
		if v.name != "" {
			builtinVars[v.name] = BuiltinVar(i)
		}
	}
}

// builtinConst is a predeclared integer constant.
type builtinConst struct {
	val      int64
	ext      []string // any one enables it
	unsigned bool     // a uint constant (int otherwise)
	min      int      // minimum desktop version, unknown in ES (0: any)
}

var memScopeExt = []string{"GL_KHR_memory_scope_semantics"}
var coopMatExt = []string{"GL_KHR_cooperative_matrix"}
var coopMat2Ext = []string{"GL_NV_cooperative_matrix2"}
var coopVecExt = []string{"GL_NV_cooperative_vector", "GL_EXT_long_vector"}

// builtinConsts are the gl_* integer constants of the supported extensions.
var builtinConsts map[string]builtinConst // filled by loadTables

// defineBuiltinConsts fills builtinConsts.
func defineBuiltinConsts() {
	builtinConsts = map[string]builtinConst{
		"gl_TensorOperandsNonTemporalARM":      {val: tensorNonTemporal, ext: tensorExt},
		"gl_TensorOperandsOutOfBoundsValueARM": {val: tensorOutOfBounds, ext: tensorExt},

		"gl_ScopeDevice":        {val: 1, ext: memScopeExt},
		"gl_ScopeWorkgroup":     {val: 2, ext: memScopeExt},
		"gl_ScopeSubgroup":      {val: 3, ext: memScopeExt},
		"gl_ScopeInvocation":    {val: 4, ext: memScopeExt},
		"gl_ScopeQueueFamily":   {val: 5, ext: memScopeExt},
		"gl_ScopeShaderCallEXT": {val: 6, ext: memScopeExt},

		"gl_SemanticsRelaxed":        {val: 0, ext: memScopeExt},
		"gl_SemanticsAcquire":        {val: 2, ext: memScopeExt},
		"gl_SemanticsRelease":        {val: 4, ext: memScopeExt},
		"gl_SemanticsAcquireRelease": {val: 8, ext: memScopeExt},
		"gl_SemanticsMakeAvailable":  {val: 0x2000, ext: memScopeExt},
		"gl_SemanticsMakeVisible":    {val: 0x4000, ext: memScopeExt},
		"gl_SemanticsVolatile":       {val: 0x8000, ext: memScopeExt},

		"gl_StorageSemanticsNone":   {val: 0, ext: memScopeExt},
		"gl_StorageSemanticsBuffer": {val: 0x40, ext: memScopeExt},
		"gl_StorageSemanticsShared": {val: 0x100, ext: memScopeExt},
		"gl_StorageSemanticsImage":  {val: 0x800, ext: memScopeExt},
		"gl_StorageSemanticsOutput": {val: 0x1000, ext: memScopeExt},

		"gl_MatrixUseA":                                         {val: 0, ext: coopMatExt},
		"gl_MatrixUseB":                                         {val: 1, ext: coopMatExt},
		"gl_MatrixUseAccumulator":                               {val: 2, ext: coopMatExt},
		"gl_CooperativeMatrixLayoutRowMajor":                    {val: 0, ext: coopMatExt},
		"gl_CooperativeMatrixLayoutColumnMajor":                 {val: 1, ext: coopMatExt},
		"gl_CooperativeMatrixLayoutRowBlockedInterleavedARM":    {val: 4202, ext: coopMatExt},
		"gl_CooperativeMatrixLayoutColumnBlockedInterleavedARM": {val: 4203, ext: coopMatExt},
		"gl_MatrixOperandsSaturatingAccumulation":               {val: 0x10, ext: coopMatExt},

		"gl_CooperativeMatrixClampModeUndefinedNV":    {val: 0, ext: coopMat2Ext},
		"gl_CooperativeMatrixClampModeConstantNV":     {val: 1, ext: coopMat2Ext},
		"gl_CooperativeMatrixClampModeClampToEdgeNV":  {val: 2, ext: coopMat2Ext},
		"gl_CooperativeMatrixClampModeRepeatNV":       {val: 3, ext: coopMat2Ext},
		"gl_CooperativeMatrixClampModeMirrorRepeatNV": {val: 4, ext: coopMat2Ext},
		"gl_CooperativeMatrixReduceRowNV":             {val: 1, ext: coopMat2Ext},
		"gl_CooperativeMatrixReduceColumnNV":          {val: 2, ext: coopMat2Ext},
		"gl_CooperativeMatrixReduceRowAndColumnNV":    {val: 3, ext: coopMat2Ext},
		"gl_CooperativeMatrixReduce2x2NV":             {val: 4, ext: coopMat2Ext},

		"gl_ComponentTypeFloat16NV":            {val: 0, ext: coopVecExt},
		"gl_ComponentTypeFloat32NV":            {val: 1, ext: coopVecExt},
		"gl_ComponentTypeFloat64NV":            {val: 2, ext: coopVecExt},
		"gl_ComponentTypeSignedInt8NV":         {val: 3, ext: coopVecExt},
		"gl_ComponentTypeSignedInt16NV":        {val: 4, ext: coopVecExt},
		"gl_ComponentTypeSignedInt32NV":        {val: 5, ext: coopVecExt},
		"gl_ComponentTypeSignedInt64NV":        {val: 6, ext: coopVecExt},
		"gl_ComponentTypeUnsignedInt8NV":       {val: 7, ext: coopVecExt},
		"gl_ComponentTypeUnsignedInt16NV":      {val: 8, ext: coopVecExt},
		"gl_ComponentTypeUnsignedInt32NV":      {val: 9, ext: coopVecExt},
		"gl_ComponentTypeUnsignedInt64NV":      {val: 10, ext: coopVecExt},
		"gl_ComponentTypeSignedInt8PackedNV":   {val: 1000491000, ext: coopVecExt},
		"gl_ComponentTypeUnsignedInt8PackedNV": {val: 1000491001, ext: coopVecExt},
		"gl_ComponentTypeFloatE4M3NV":          {val: 1000491002, ext: coopVecExt},
		"gl_ComponentTypeFloatE5M2NV":          {val: 1000491003, ext: coopVecExt},

		"gl_CooperativeVectorMatrixLayoutRowMajorNV":           {val: 0, ext: coopVecExt},
		"gl_CooperativeVectorMatrixLayoutColumnMajorNV":        {val: 1, ext: coopVecExt},
		"gl_CooperativeVectorMatrixLayoutInferencingOptimalNV": {val: 2, ext: coopVecExt},
		"gl_CooperativeVectorMatrixLayoutTrainingOptimalNV":    {val: 3, ext: coopVecExt},

		// Implementation limits of compute shaders (minimum maxima of the core
		// spec, as glslang's default resources give them).
		"gl_MaxComputeUniformComponents":    {val: 1024, ext: nil},
		"gl_MaxComputeTextureImageUnits":    {val: 16, ext: nil},
		"gl_MaxComputeImageUniforms":        {val: 8, ext: nil},
		"gl_MaxComputeAtomicCounters":       {val: 8, ext: nil},
		"gl_MaxComputeAtomicCounterBuffers": {val: 1, ext: nil},
	}
}

// gl_MaxComputeWorkGroupCount and Size are ivec3 constants.
var builtinIVec3Consts = lazy.Value[map[string][3]int64]{F: func() map[string][3]int64 {
	return map[string][3]int64{
		"gl_MaxComputeWorkGroupCount": {65535, 65535, 65535},
		"gl_MaxComputeWorkGroupSize":  {1024, 1024, 64},
	}
}}
