// The Builtin enum: one constant per built-in function name of builtins.go,
// then the built-ins checked by hand (coop.go, opaque.go), then later
// additions of both kinds (extcalls.go, tensor.go and table entries), kept
// at the end so that earlier values do not move. call dispatches a name
// from BCoopMatLoad on to its checker unless the tables define it.

package check

// Builtin identifies a built-in function (its GLSL name is Builtin.String()).
type Builtin uint16

// Built-in functions.
const (
	BNone Builtin = iota
	BNames
	BRadians
	BDegrees
	BSin
	BCos
	BTan
	BAsin
	BAcos
	BSinh
	BCosh
	BTanh
	BAsinh
	BAcosh
	BAtanh
	BAtan
	BPow
	BExp
	BLog
	BExp2
	BLog2
	BSqrt
	BInversesqrt
	BAbs
	BSign
	BFloor
	BTrunc
	BRound
	BRoundEven
	BCeil
	BFract
	BMod
	BModf
	BMin
	BMax
	BClamp
	BMix
	BStep
	BSmoothstep
	BIsnan
	BIsinf
	BFloatBitsToInt
	BFloatBitsToUint
	BIntBitsToFloat
	BUintBitsToFloat
	BHalfBitsToInt16
	BFloat16BitsToInt16
	BHalfBitsToUint16
	BFloat16BitsToUint16
	BInt16BitsToHalf
	BInt16BitsToFloat16
	BUint16BitsToHalf
	BUint16BitsToFloat16
	BDoubleBitsToInt64
	BDoubleBitsToUint64
	BInt64BitsToDouble
	BUint64BitsToDouble
	BBfloat16BitsToIntEXT
	BBfloat16BitsToUintEXT
	BIntBitsToBFloat16EXT
	BUintBitsToBFloat16EXT
	BFloate5m2BitsToIntEXT
	BFloate5m2BitsToUintEXT
	BIntBitsToFloate5m2EXT
	BUintBitsToFloate5m2EXT
	BFloate4m3BitsToIntEXT
	BFloate4m3BitsToUintEXT
	BIntBitsToFloate4m3EXT
	BUintBitsToFloate4m3EXT
	BFma
	BFrexp
	BLdexp
	BPackUnorm2x16
	BPackSnorm2x16
	BPackHalf2x16
	BPackUnorm4x8
	BPackSnorm4x8
	BUnpackUnorm2x16
	BUnpackSnorm2x16
	BUnpackHalf2x16
	BUnpackUnorm4x8
	BUnpackSnorm4x8
	BPackDouble2x32
	BUnpackDouble2x32
	BPackInt2x32
	BPack64
	BPackUint2x32
	BUnpackInt2x32
	BUnpack32
	BUnpackUint2x32
	BPackInt4x16
	BPackUint4x16
	BPack32
	BPackInt2x16
	BPackUint2x16
	BPack16
	BUnpack16
	BUnpackInt4x16
	BUnpackUint4x16
	BUnpackInt2x16
	BUnpackUint2x16
	BUnpack8
	BPackFloat2x16
	BUnpackFloat2x16
	BLength
	BDistance
	BDot
	BCross
	BNormalize
	BFaceforward
	BReflect
	BRefract
	BMatrixCompMult
	BOuterProduct
	BTranspose
	BDeterminant
	BInverse
	BLessThan
	BLessThanEqual
	BGreaterThan
	BGreaterThanEqual
	BEqual
	BNotEqual
	BAny
	BAll
	BNot
	BUaddCarry
	BUsubBorrow
	BUmulExtended
	BImulExtended
	BBitfieldExtract
	BBitfieldInsert
	BBitfieldReverse
	BBitCount
	BFindLSB
	BFindMSB
	BAtomicAdd
	BAtomicMin
	BAtomicMax
	BAtomicExchange
	BAtomicAnd
	BAtomicOr
	BAtomicXor
	BAtomicCompSwap
	BAtomicLoad
	BAtomicStore
	BBarrier
	BMemoryBarrier
	BMemoryBarrierAtomicCounter
	BMemoryBarrierBuffer
	BMemoryBarrierShared
	BMemoryBarrierImage
	BGroupMemoryBarrier
	BControlBarrier
	BSubgroupBarrier
	BSubgroupMemoryBarrier
	BSubgroupMemoryBarrierBuffer
	BSubgroupMemoryBarrierShared
	BSubgroupMemoryBarrierImage
	BSubgroupElect
	BSubgroupAll
	BSubgroupAny
	BSubgroupAllEqual
	BSubgroupBroadcast
	BSubgroupBroadcastFirst
	BSubgroupBallot
	BSubgroupInverseBallot
	BSubgroupBallotBitExtract
	BSubgroupBallotBitCount
	BSubgroupBallotInclusiveBitCount
	BSubgroupBallotExclusiveBitCount
	BSubgroupBallotFindLSB
	BSubgroupBallotFindMSB
	BSubgroupShuffle
	BSubgroupShuffleXor
	BSubgroupShuffleUp
	BSubgroupShuffleDown
	BSubgroupRotate
	BSubgroupClusteredRotate
	BSubgroupPartitionNV
	BSubgroupQuadBroadcast
	BSubgroupQuadSwapHorizontal
	BSubgroupQuadSwapVertical
	BSubgroupQuadSwapDiagonal
	BSubgroupQuadAll
	BSubgroupQuadAny
	BBallotARB
	BReadInvocationARB
	BReadFirstInvocationARB
	BAnyInvocationARB
	BAllInvocationsARB
	BAllInvocationsEqualARB
	BAnyInvocation
	BAllInvocations
	BAllInvocationsEqual
	BControlBarrierArrive
	BControlBarrierWait
	BExpectEXT
	BAssumeEXT
	BClockARB
	BClock2x32ARB
	BClockRealtimeEXT
	BClockRealtime2x32EXT
	BDFdx
	BDFdy
	BFwidth
	BDFdxFine
	BDFdyFine
	BFwidthFine
	BDFdxCoarse
	BDFdyCoarse
	BFwidthCoarse
	BSaturatedConvertEXT
	BMinInvocationsAMD
	BMinInvocationsNonUniformAMD
	BMinInvocationsInclusiveScanAMD
	BMinInvocationsInclusiveScanNonUniformAMD
	BMinInvocationsExclusiveScanAMD
	BMinInvocationsExclusiveScanNonUniformAMD
	BMaxInvocationsAMD
	BMaxInvocationsNonUniformAMD
	BMaxInvocationsInclusiveScanAMD
	BMaxInvocationsInclusiveScanNonUniformAMD
	BMaxInvocationsExclusiveScanAMD
	BMaxInvocationsExclusiveScanNonUniformAMD
	BAddInvocationsAMD
	BAddInvocationsNonUniformAMD
	BAddInvocationsInclusiveScanAMD
	BAddInvocationsInclusiveScanNonUniformAMD
	BAddInvocationsExclusiveScanAMD
	BAddInvocationsExclusiveScanNonUniformAMD
	BSwizzleInvocationsAMD
	BSwizzleInvocationsMaskedAMD
	BWriteInvocationAMD
	BMbcntAMD
	BSubgroupAdd
	BSubgroupInclusiveAdd
	BSubgroupExclusiveAdd
	BSubgroupClusteredAdd
	BSubgroupPartitionedAddNV
	BSubgroupPartitionedInclusiveAddNV
	BSubgroupPartitionedExclusiveAddNV
	BSubgroupMul
	BSubgroupInclusiveMul
	BSubgroupExclusiveMul
	BSubgroupClusteredMul
	BSubgroupPartitionedMulNV
	BSubgroupPartitionedInclusiveMulNV
	BSubgroupPartitionedExclusiveMulNV
	BSubgroupMin
	BSubgroupInclusiveMin
	BSubgroupExclusiveMin
	BSubgroupClusteredMin
	BSubgroupPartitionedMinNV
	BSubgroupPartitionedInclusiveMinNV
	BSubgroupPartitionedExclusiveMinNV
	BSubgroupMax
	BSubgroupInclusiveMax
	BSubgroupExclusiveMax
	BSubgroupClusteredMax
	BSubgroupPartitionedMaxNV
	BSubgroupPartitionedInclusiveMaxNV
	BSubgroupPartitionedExclusiveMaxNV
	BSubgroupAnd
	BSubgroupInclusiveAnd
	BSubgroupExclusiveAnd
	BSubgroupClusteredAnd
	BSubgroupPartitionedAndNV
	BSubgroupPartitionedInclusiveAndNV
	BSubgroupPartitionedExclusiveAndNV
	BSubgroupOr
	BSubgroupInclusiveOr
	BSubgroupExclusiveOr
	BSubgroupClusteredOr
	BSubgroupPartitionedOrNV
	BSubgroupPartitionedInclusiveOrNV
	BSubgroupPartitionedExclusiveOrNV
	BSubgroupXor
	BSubgroupInclusiveXor
	BSubgroupExclusiveXor
	BSubgroupClusteredXor
	BSubgroupPartitionedXorNV
	BSubgroupPartitionedInclusiveXorNV
	BSubgroupPartitionedExclusiveXorNV
	BRayQueryInitializeEXT
	BRayQueryProceedEXT
	BRayQueryTerminateEXT
	BRayQueryGenerateIntersectionEXT
	BRayQueryConfirmIntersectionEXT
	BRayQueryGetIntersectionTypeEXT
	BRayQueryGetRayTMinEXT
	BRayQueryGetRayFlagsEXT
	BRayQueryGetWorldRayOriginEXT
	BRayQueryGetWorldRayDirectionEXT
	BRayQueryGetIntersectionTEXT
	BRayQueryGetIntersectionInstanceCustomIndexEXT
	BRayQueryGetIntersectionInstanceIdEXT
	BRayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetEXT
	BRayQueryGetIntersectionGeometryIndexEXT
	BRayQueryGetIntersectionPrimitiveIndexEXT
	BRayQueryGetIntersectionBarycentricsEXT
	BRayQueryGetIntersectionFrontFaceEXT
	BRayQueryGetIntersectionCandidateAABBOpaqueEXT
	BRayQueryGetIntersectionObjectRayDirectionEXT
	BRayQueryGetIntersectionObjectRayOriginEXT
	BRayQueryGetIntersectionObjectToWorldEXT
	BRayQueryGetIntersectionWorldToObjectEXT
	BRayQueryGetIntersectionTriangleVertexPositionsEXT
	BCoopMatLoad
	BCoopMatStore
	BCoopMatMulAdd
	BCoopMatLoadNV
	BCoopMatStoreNV
	BCoopMatMulAddNV
	BCoopMatLoadTensorNV
	BCoopMatStoreTensorNV
	BCoopMatReduceNV
	BCoopMatPerElementNV
	BCoopMatTransposeNV
	BCreateTensorLayoutNV
	BSetTensorLayoutBlockSizeNV
	BSetTensorLayoutDimensionNV
	BSetTensorLayoutStrideNV
	BSliceTensorLayoutNV
	BSetTensorLayoutClampValueNV
	BCreateTensorViewNV
	BSetTensorViewDimensionsNV
	BSetTensorViewStrideNV
	BSetTensorViewClipNV
	BCoopVecMatMulNV
	BCoopVecMatMulAddNV
	BCoopVecOuterProductAccumulateNV
	BCoopVecReduceSumAccumulateNV
	BCoopVecLoadNV
	BCoopVecStoreNV
	BImageSize
	BImageSamples
	BImageLoad
	BImageStore
	BImageAtomicAdd
	BImageAtomicMin
	BImageAtomicMax
	BImageAtomicAnd
	BImageAtomicOr
	BImageAtomicXor
	BImageAtomicExchange
	BImageAtomicCompSwap
	BImageAtomicLoad
	BImageAtomicStore
	BTexture
	BTextureLod
	BTextureQueryLod
	BTexelFetch
	BTextureSize
	// Built-ins with their own rules, dispatched by extCall (extcalls.go).
	BDebugPrintfEXT
	BAbortEXT
	// Table built-ins added after the hand-checked ones so that earlier
	// values keep their numbers: the microscaling floats.
	BPackFloat2xfe2m1EXT
	BUnpackFloat2xfe2m1EXT
	BPackFloat4xfe2m1EXT
	BUnpackFloat4xfe2m1EXT
	BPackFloat8xfe2m1EXT
	BUnpackFloat8xfe2m1EXT
	BPackFloat16xfe2m1EXT
	BUnpackFloat16xfe2m1EXT
	BBitcastExtractfe2m1EXT
	BPackFloat4xfe2m3EXT
	BUnpackFloat4xfe2m3EXT
	BPackFloat8xfe2m3EXT
	BUnpackFloat8xfe2m3EXT
	BPackFloat16xfe2m3EXT
	BUnpackFloat16xfe2m3EXT
	BBitcastExtractfe2m3EXT
	BPackFloat4xfe3m2EXT
	BUnpackFloat4xfe3m2EXT
	BPackFloat8xfe3m2EXT
	BUnpackFloat8xfe3m2EXT
	BPackFloat16xfe3m2EXT
	BUnpackFloat16xfe3m2EXT
	BBitcastExtractfe3m2EXT
	BFloatmxint8BitsToIntEXT
	BFloatmxint8BitsToUintEXT
	BIntBitsToFloatmxint8EXT
	BUintBitsToFloatmxint8EXT
	// GL_QCOM_cooperative_matrix_conversion (extcalls.go).
	BBitcastQCOM
	BExtractSubArrayQCOM
	BVectorToCoopmatQCOM
	BCoopmatToVectorQCOM
	// GL_ARM_tensors (tensor.go).
	BTensorReadARM
	BTensorWriteARM
	BTensorSizeARM
	// GL_NV_displacement_micromap (table built-ins).
	BFetchMicroTriangleVertexPositionNV
	BFetchMicroTriangleVertexBarycentricNV
	// GL_EXT_integer_dot_product (table built-ins).
	BDotPacked4x8EXT
	BDotPacked4x8AccSatEXT
	// The texture built-ins beyond the first few (texcall.go), and
	// nonuniformEXT (GL_EXT_nonuniform_qualifier).
	BTextureProj
	BTextureOffset
	BTextureProjOffset
	BTextureLodOffset
	BTextureProjLod
	BTextureProjLodOffset
	BTexelFetchOffset
	BTextureGrad
	BTextureGradOffset
	BTextureProjGrad
	BTextureProjGradOffset
	BTextureGather
	BTextureGatherOffset
	BTextureGatherOffsets
	BTextureQueryLevels
	BTextureSamples
	BNonuniformEXT
	// Sparse residency and level-of-detail clamps (GL_ARB_sparse_texture2,
	// GL_ARB_sparse_texture_clamp).
	BSparseTextureARB
	BSparseTextureLodARB
	BSparseTextureOffsetARB
	BSparseTexelFetchARB
	BSparseTexelFetchOffsetARB
	BSparseTextureLodOffsetARB
	BSparseTextureGradARB
	BSparseTextureGradOffsetARB
	BSparseTextureGatherARB
	BSparseTextureGatherOffsetARB
	BSparseTextureGatherOffsetsARB
	BSparseTextureClampARB
	BSparseTextureOffsetClampARB
	BSparseTextureGradClampARB
	BSparseTextureGradOffsetClampARB
	BTextureClampARB
	BTextureOffsetClampARB
	BTextureGradClampARB
	BTextureGradOffsetClampARB
	BSparseImageLoadARB
	BSparseTexelsResidentARB
	// GL_EXT_float_ue8m0.
	BFloatue8m0BitsToIntEXT
	BFloatue8m0BitsToUintEXT
	BIntBitsToFloatue8m0EXT
	BUintBitsToFloatue8m0EXT
)

var builtinNames = [...]string{
	BNames:                           "names",
	BRadians:                         "radians",
	BDegrees:                         "degrees",
	BSin:                             "sin",
	BCos:                             "cos",
	BTan:                             "tan",
	BAsin:                            "asin",
	BAcos:                            "acos",
	BSinh:                            "sinh",
	BCosh:                            "cosh",
	BTanh:                            "tanh",
	BAsinh:                           "asinh",
	BAcosh:                           "acosh",
	BAtanh:                           "atanh",
	BAtan:                            "atan",
	BPow:                             "pow",
	BExp:                             "exp",
	BLog:                             "log",
	BExp2:                            "exp2",
	BLog2:                            "log2",
	BSqrt:                            "sqrt",
	BInversesqrt:                     "inversesqrt",
	BAbs:                             "abs",
	BSign:                            "sign",
	BFloor:                           "floor",
	BTrunc:                           "trunc",
	BRound:                           "round",
	BRoundEven:                       "roundEven",
	BCeil:                            "ceil",
	BFract:                           "fract",
	BMod:                             "mod",
	BModf:                            "modf",
	BMin:                             "min",
	BMax:                             "max",
	BClamp:                           "clamp",
	BMix:                             "mix",
	BStep:                            "step",
	BSmoothstep:                      "smoothstep",
	BIsnan:                           "isnan",
	BIsinf:                           "isinf",
	BFloatBitsToInt:                  "floatBitsToInt",
	BFloatBitsToUint:                 "floatBitsToUint",
	BIntBitsToFloat:                  "intBitsToFloat",
	BUintBitsToFloat:                 "uintBitsToFloat",
	BHalfBitsToInt16:                 "halfBitsToInt16",
	BFloat16BitsToInt16:              "float16BitsToInt16",
	BHalfBitsToUint16:                "halfBitsToUint16",
	BFloat16BitsToUint16:             "float16BitsToUint16",
	BInt16BitsToHalf:                 "int16BitsToHalf",
	BInt16BitsToFloat16:              "int16BitsToFloat16",
	BUint16BitsToHalf:                "uint16BitsToHalf",
	BUint16BitsToFloat16:             "uint16BitsToFloat16",
	BDoubleBitsToInt64:               "doubleBitsToInt64",
	BDoubleBitsToUint64:              "doubleBitsToUint64",
	BInt64BitsToDouble:               "int64BitsToDouble",
	BUint64BitsToDouble:              "uint64BitsToDouble",
	BBfloat16BitsToIntEXT:            "bfloat16BitsToIntEXT",
	BBfloat16BitsToUintEXT:           "bfloat16BitsToUintEXT",
	BIntBitsToBFloat16EXT:            "intBitsToBFloat16EXT",
	BUintBitsToBFloat16EXT:           "uintBitsToBFloat16EXT",
	BFloate5m2BitsToIntEXT:           "floate5m2BitsToIntEXT",
	BFloate5m2BitsToUintEXT:          "floate5m2BitsToUintEXT",
	BIntBitsToFloate5m2EXT:           "intBitsToFloate5m2EXT",
	BUintBitsToFloate5m2EXT:          "uintBitsToFloate5m2EXT",
	BFloate4m3BitsToIntEXT:           "floate4m3BitsToIntEXT",
	BFloate4m3BitsToUintEXT:          "floate4m3BitsToUintEXT",
	BIntBitsToFloate4m3EXT:           "intBitsToFloate4m3EXT",
	BUintBitsToFloate4m3EXT:          "uintBitsToFloate4m3EXT",
	BFma:                             "fma",
	BFrexp:                           "frexp",
	BLdexp:                           "ldexp",
	BPackUnorm2x16:                   "packUnorm2x16",
	BPackSnorm2x16:                   "packSnorm2x16",
	BPackHalf2x16:                    "packHalf2x16",
	BPackUnorm4x8:                    "packUnorm4x8",
	BPackSnorm4x8:                    "packSnorm4x8",
	BUnpackUnorm2x16:                 "unpackUnorm2x16",
	BUnpackSnorm2x16:                 "unpackSnorm2x16",
	BUnpackHalf2x16:                  "unpackHalf2x16",
	BUnpackUnorm4x8:                  "unpackUnorm4x8",
	BUnpackSnorm4x8:                  "unpackSnorm4x8",
	BPackDouble2x32:                  "packDouble2x32",
	BUnpackDouble2x32:                "unpackDouble2x32",
	BPackInt2x32:                     "packInt2x32",
	BPack64:                          "pack64",
	BPackUint2x32:                    "packUint2x32",
	BUnpackInt2x32:                   "unpackInt2x32",
	BUnpack32:                        "unpack32",
	BUnpackUint2x32:                  "unpackUint2x32",
	BPackInt4x16:                     "packInt4x16",
	BPackUint4x16:                    "packUint4x16",
	BPack32:                          "pack32",
	BPackInt2x16:                     "packInt2x16",
	BPackUint2x16:                    "packUint2x16",
	BPack16:                          "pack16",
	BUnpack16:                        "unpack16",
	BUnpackInt4x16:                   "unpackInt4x16",
	BUnpackUint4x16:                  "unpackUint4x16",
	BUnpackInt2x16:                   "unpackInt2x16",
	BUnpackUint2x16:                  "unpackUint2x16",
	BUnpack8:                         "unpack8",
	BPackFloat2x16:                   "packFloat2x16",
	BUnpackFloat2x16:                 "unpackFloat2x16",
	BLength:                          "length",
	BDistance:                        "distance",
	BDot:                             "dot",
	BCross:                           "cross",
	BNormalize:                       "normalize",
	BFaceforward:                     "faceforward",
	BReflect:                         "reflect",
	BRefract:                         "refract",
	BMatrixCompMult:                  "matrixCompMult",
	BOuterProduct:                    "outerProduct",
	BTranspose:                       "transpose",
	BDeterminant:                     "determinant",
	BInverse:                         "inverse",
	BLessThan:                        "lessThan",
	BLessThanEqual:                   "lessThanEqual",
	BGreaterThan:                     "greaterThan",
	BGreaterThanEqual:                "greaterThanEqual",
	BEqual:                           "equal",
	BNotEqual:                        "notEqual",
	BAny:                             "any",
	BAll:                             "all",
	BNot:                             "not",
	BUaddCarry:                       "uaddCarry",
	BUsubBorrow:                      "usubBorrow",
	BUmulExtended:                    "umulExtended",
	BImulExtended:                    "imulExtended",
	BBitfieldExtract:                 "bitfieldExtract",
	BBitfieldInsert:                  "bitfieldInsert",
	BBitfieldReverse:                 "bitfieldReverse",
	BBitCount:                        "bitCount",
	BFindLSB:                         "findLSB",
	BFindMSB:                         "findMSB",
	BAtomicAdd:                       "atomicAdd",
	BAtomicMin:                       "atomicMin",
	BAtomicMax:                       "atomicMax",
	BAtomicExchange:                  "atomicExchange",
	BAtomicAnd:                       "atomicAnd",
	BAtomicOr:                        "atomicOr",
	BAtomicXor:                       "atomicXor",
	BAtomicCompSwap:                  "atomicCompSwap",
	BAtomicLoad:                      "atomicLoad",
	BAtomicStore:                     "atomicStore",
	BBarrier:                         "barrier",
	BMemoryBarrier:                   "memoryBarrier",
	BMemoryBarrierAtomicCounter:      "memoryBarrierAtomicCounter",
	BMemoryBarrierBuffer:             "memoryBarrierBuffer",
	BMemoryBarrierShared:             "memoryBarrierShared",
	BMemoryBarrierImage:              "memoryBarrierImage",
	BGroupMemoryBarrier:              "groupMemoryBarrier",
	BControlBarrier:                  "controlBarrier",
	BSubgroupBarrier:                 "subgroupBarrier",
	BSubgroupMemoryBarrier:           "subgroupMemoryBarrier",
	BSubgroupMemoryBarrierBuffer:     "subgroupMemoryBarrierBuffer",
	BSubgroupMemoryBarrierShared:     "subgroupMemoryBarrierShared",
	BSubgroupMemoryBarrierImage:      "subgroupMemoryBarrierImage",
	BSubgroupElect:                   "subgroupElect",
	BSubgroupAll:                     "subgroupAll",
	BSubgroupAny:                     "subgroupAny",
	BSubgroupAllEqual:                "subgroupAllEqual",
	BSubgroupBroadcast:               "subgroupBroadcast",
	BSubgroupBroadcastFirst:          "subgroupBroadcastFirst",
	BSubgroupBallot:                  "subgroupBallot",
	BSubgroupInverseBallot:           "subgroupInverseBallot",
	BSubgroupBallotBitExtract:        "subgroupBallotBitExtract",
	BSubgroupBallotBitCount:          "subgroupBallotBitCount",
	BSubgroupBallotInclusiveBitCount: "subgroupBallotInclusiveBitCount",
	BSubgroupBallotExclusiveBitCount: "subgroupBallotExclusiveBitCount",
	BSubgroupBallotFindLSB:           "subgroupBallotFindLSB",
	BSubgroupBallotFindMSB:           "subgroupBallotFindMSB",
	BSubgroupShuffle:                 "subgroupShuffle",
	BSubgroupShuffleXor:              "subgroupShuffleXor",
	BSubgroupShuffleUp:               "subgroupShuffleUp",
	BSubgroupShuffleDown:             "subgroupShuffleDown",
	BSubgroupRotate:                  "subgroupRotate",
	BSubgroupClusteredRotate:         "subgroupClusteredRotate",
	BSubgroupPartitionNV:             "subgroupPartitionNV",
	BSubgroupQuadBroadcast:           "subgroupQuadBroadcast",
	BSubgroupQuadSwapHorizontal:      "subgroupQuadSwapHorizontal",
	BSubgroupQuadSwapVertical:        "subgroupQuadSwapVertical",
	BSubgroupQuadSwapDiagonal:        "subgroupQuadSwapDiagonal",
	BSubgroupQuadAll:                 "subgroupQuadAll",
	BSubgroupQuadAny:                 "subgroupQuadAny",
	BBallotARB:                       "ballotARB",
	BReadInvocationARB:               "readInvocationARB",
	BReadFirstInvocationARB:          "readFirstInvocationARB",
	BAnyInvocationARB:                "anyInvocationARB",
	BAllInvocationsARB:               "allInvocationsARB",
	BAllInvocationsEqualARB:          "allInvocationsEqualARB",
	BAnyInvocation:                   "anyInvocation",
	BAllInvocations:                  "allInvocations",
	BAllInvocationsEqual:             "allInvocationsEqual",
	BControlBarrierArrive:            "controlBarrierArrive",
	BControlBarrierWait:              "controlBarrierWait",
	BExpectEXT:                       "expectEXT",
	BAssumeEXT:                       "assumeEXT",
	BClockARB:                        "clockARB",
	BClock2x32ARB:                    "clock2x32ARB",
	BClockRealtimeEXT:                "clockRealtimeEXT",
	BClockRealtime2x32EXT:            "clockRealtime2x32EXT",
	BDFdx:                            "dFdx",
	BDFdy:                            "dFdy",
	BFwidth:                          "fwidth",
	BDFdxFine:                        "dFdxFine",
	BDFdyFine:                        "dFdyFine",
	BFwidthFine:                      "fwidthFine",
	BDFdxCoarse:                      "dFdxCoarse",
	BDFdyCoarse:                      "dFdyCoarse",
	BFwidthCoarse:                    "fwidthCoarse",
	BSaturatedConvertEXT:             "saturatedConvertEXT",
	BMinInvocationsAMD:               "minInvocationsAMD",
	BMinInvocationsNonUniformAMD:     "minInvocationsNonUniformAMD",
	BMinInvocationsInclusiveScanAMD:  "minInvocationsInclusiveScanAMD",
	BMinInvocationsInclusiveScanNonUniformAMD:      "minInvocationsInclusiveScanNonUniformAMD",
	BMinInvocationsExclusiveScanAMD:                "minInvocationsExclusiveScanAMD",
	BMinInvocationsExclusiveScanNonUniformAMD:      "minInvocationsExclusiveScanNonUniformAMD",
	BMaxInvocationsAMD:                             "maxInvocationsAMD",
	BMaxInvocationsNonUniformAMD:                   "maxInvocationsNonUniformAMD",
	BMaxInvocationsInclusiveScanAMD:                "maxInvocationsInclusiveScanAMD",
	BMaxInvocationsInclusiveScanNonUniformAMD:      "maxInvocationsInclusiveScanNonUniformAMD",
	BMaxInvocationsExclusiveScanAMD:                "maxInvocationsExclusiveScanAMD",
	BMaxInvocationsExclusiveScanNonUniformAMD:      "maxInvocationsExclusiveScanNonUniformAMD",
	BAddInvocationsAMD:                             "addInvocationsAMD",
	BAddInvocationsNonUniformAMD:                   "addInvocationsNonUniformAMD",
	BAddInvocationsInclusiveScanAMD:                "addInvocationsInclusiveScanAMD",
	BAddInvocationsInclusiveScanNonUniformAMD:      "addInvocationsInclusiveScanNonUniformAMD",
	BAddInvocationsExclusiveScanAMD:                "addInvocationsExclusiveScanAMD",
	BAddInvocationsExclusiveScanNonUniformAMD:      "addInvocationsExclusiveScanNonUniformAMD",
	BSwizzleInvocationsAMD:                         "swizzleInvocationsAMD",
	BSwizzleInvocationsMaskedAMD:                   "swizzleInvocationsMaskedAMD",
	BWriteInvocationAMD:                            "writeInvocationAMD",
	BMbcntAMD:                                      "mbcntAMD",
	BSubgroupAdd:                                   "subgroupAdd",
	BSubgroupInclusiveAdd:                          "subgroupInclusiveAdd",
	BSubgroupExclusiveAdd:                          "subgroupExclusiveAdd",
	BSubgroupClusteredAdd:                          "subgroupClusteredAdd",
	BSubgroupPartitionedAddNV:                      "subgroupPartitionedAddNV",
	BSubgroupPartitionedInclusiveAddNV:             "subgroupPartitionedInclusiveAddNV",
	BSubgroupPartitionedExclusiveAddNV:             "subgroupPartitionedExclusiveAddNV",
	BSubgroupMul:                                   "subgroupMul",
	BSubgroupInclusiveMul:                          "subgroupInclusiveMul",
	BSubgroupExclusiveMul:                          "subgroupExclusiveMul",
	BSubgroupClusteredMul:                          "subgroupClusteredMul",
	BSubgroupPartitionedMulNV:                      "subgroupPartitionedMulNV",
	BSubgroupPartitionedInclusiveMulNV:             "subgroupPartitionedInclusiveMulNV",
	BSubgroupPartitionedExclusiveMulNV:             "subgroupPartitionedExclusiveMulNV",
	BSubgroupMin:                                   "subgroupMin",
	BSubgroupInclusiveMin:                          "subgroupInclusiveMin",
	BSubgroupExclusiveMin:                          "subgroupExclusiveMin",
	BSubgroupClusteredMin:                          "subgroupClusteredMin",
	BSubgroupPartitionedMinNV:                      "subgroupPartitionedMinNV",
	BSubgroupPartitionedInclusiveMinNV:             "subgroupPartitionedInclusiveMinNV",
	BSubgroupPartitionedExclusiveMinNV:             "subgroupPartitionedExclusiveMinNV",
	BSubgroupMax:                                   "subgroupMax",
	BSubgroupInclusiveMax:                          "subgroupInclusiveMax",
	BSubgroupExclusiveMax:                          "subgroupExclusiveMax",
	BSubgroupClusteredMax:                          "subgroupClusteredMax",
	BSubgroupPartitionedMaxNV:                      "subgroupPartitionedMaxNV",
	BSubgroupPartitionedInclusiveMaxNV:             "subgroupPartitionedInclusiveMaxNV",
	BSubgroupPartitionedExclusiveMaxNV:             "subgroupPartitionedExclusiveMaxNV",
	BSubgroupAnd:                                   "subgroupAnd",
	BSubgroupInclusiveAnd:                          "subgroupInclusiveAnd",
	BSubgroupExclusiveAnd:                          "subgroupExclusiveAnd",
	BSubgroupClusteredAnd:                          "subgroupClusteredAnd",
	BSubgroupPartitionedAndNV:                      "subgroupPartitionedAndNV",
	BSubgroupPartitionedInclusiveAndNV:             "subgroupPartitionedInclusiveAndNV",
	BSubgroupPartitionedExclusiveAndNV:             "subgroupPartitionedExclusiveAndNV",
	BSubgroupOr:                                    "subgroupOr",
	BSubgroupInclusiveOr:                           "subgroupInclusiveOr",
	BSubgroupExclusiveOr:                           "subgroupExclusiveOr",
	BSubgroupClusteredOr:                           "subgroupClusteredOr",
	BSubgroupPartitionedOrNV:                       "subgroupPartitionedOrNV",
	BSubgroupPartitionedInclusiveOrNV:              "subgroupPartitionedInclusiveOrNV",
	BSubgroupPartitionedExclusiveOrNV:              "subgroupPartitionedExclusiveOrNV",
	BSubgroupXor:                                   "subgroupXor",
	BSubgroupInclusiveXor:                          "subgroupInclusiveXor",
	BSubgroupExclusiveXor:                          "subgroupExclusiveXor",
	BSubgroupClusteredXor:                          "subgroupClusteredXor",
	BSubgroupPartitionedXorNV:                      "subgroupPartitionedXorNV",
	BSubgroupPartitionedInclusiveXorNV:             "subgroupPartitionedInclusiveXorNV",
	BSubgroupPartitionedExclusiveXorNV:             "subgroupPartitionedExclusiveXorNV",
	BRayQueryInitializeEXT:                         "rayQueryInitializeEXT",
	BRayQueryProceedEXT:                            "rayQueryProceedEXT",
	BRayQueryTerminateEXT:                          "rayQueryTerminateEXT",
	BRayQueryGenerateIntersectionEXT:               "rayQueryGenerateIntersectionEXT",
	BRayQueryConfirmIntersectionEXT:                "rayQueryConfirmIntersectionEXT",
	BRayQueryGetIntersectionTypeEXT:                "rayQueryGetIntersectionTypeEXT",
	BRayQueryGetRayTMinEXT:                         "rayQueryGetRayTMinEXT",
	BRayQueryGetRayFlagsEXT:                        "rayQueryGetRayFlagsEXT",
	BRayQueryGetWorldRayOriginEXT:                  "rayQueryGetWorldRayOriginEXT",
	BRayQueryGetWorldRayDirectionEXT:               "rayQueryGetWorldRayDirectionEXT",
	BRayQueryGetIntersectionTEXT:                   "rayQueryGetIntersectionTEXT",
	BRayQueryGetIntersectionInstanceCustomIndexEXT: "rayQueryGetIntersectionInstanceCustomIndexEXT",
	BRayQueryGetIntersectionInstanceIdEXT:          "rayQueryGetIntersectionInstanceIdEXT",
	BRayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetEXT: "rayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetEXT",
	BRayQueryGetIntersectionGeometryIndexEXT:                          "rayQueryGetIntersectionGeometryIndexEXT",
	BRayQueryGetIntersectionPrimitiveIndexEXT:                         "rayQueryGetIntersectionPrimitiveIndexEXT",
	BRayQueryGetIntersectionBarycentricsEXT:                           "rayQueryGetIntersectionBarycentricsEXT",
	BRayQueryGetIntersectionFrontFaceEXT:                              "rayQueryGetIntersectionFrontFaceEXT",
	BRayQueryGetIntersectionCandidateAABBOpaqueEXT:                    "rayQueryGetIntersectionCandidateAABBOpaqueEXT",
	BRayQueryGetIntersectionObjectRayDirectionEXT:                     "rayQueryGetIntersectionObjectRayDirectionEXT",
	BRayQueryGetIntersectionObjectRayOriginEXT:                        "rayQueryGetIntersectionObjectRayOriginEXT",
	BRayQueryGetIntersectionObjectToWorldEXT:                          "rayQueryGetIntersectionObjectToWorldEXT",
	BRayQueryGetIntersectionWorldToObjectEXT:                          "rayQueryGetIntersectionWorldToObjectEXT",
	BCoopMatLoad:                                                      "coopMatLoad",
	BCoopMatStore:                                                     "coopMatStore",
	BCoopMatMulAdd:                                                    "coopMatMulAdd",
	BCoopMatLoadNV:                                                    "coopMatLoadNV",
	BCoopMatStoreNV:                                                   "coopMatStoreNV",
	BCoopMatMulAddNV:                                                  "coopMatMulAddNV",
	BCoopMatLoadTensorNV:                                              "coopMatLoadTensorNV",
	BCoopMatStoreTensorNV:                                             "coopMatStoreTensorNV",
	BCoopMatReduceNV:                                                  "coopMatReduceNV",
	BCoopMatPerElementNV:                                              "coopMatPerElementNV",
	BCoopMatTransposeNV:                                               "coopMatTransposeNV",
	BCreateTensorLayoutNV:                                             "createTensorLayoutNV",
	BSetTensorLayoutBlockSizeNV:                                       "setTensorLayoutBlockSizeNV",
	BSetTensorLayoutDimensionNV:                                       "setTensorLayoutDimensionNV",
	BSetTensorLayoutStrideNV:                                          "setTensorLayoutStrideNV",
	BSliceTensorLayoutNV:                                              "sliceTensorLayoutNV",
	BSetTensorLayoutClampValueNV:                                      "setTensorLayoutClampValueNV",
	BCreateTensorViewNV:                                               "createTensorViewNV",
	BSetTensorViewDimensionsNV:                                        "setTensorViewDimensionsNV",
	BSetTensorViewStrideNV:                                            "setTensorViewStrideNV",
	BSetTensorViewClipNV:                                              "setTensorViewClipNV",
	BCoopVecMatMulNV:                                                  "coopVecMatMulNV",
	BCoopVecMatMulAddNV:                                               "coopVecMatMulAddNV",
	BCoopVecOuterProductAccumulateNV:                                  "coopVecOuterProductAccumulateNV",
	BCoopVecReduceSumAccumulateNV:                                     "coopVecReduceSumAccumulateNV",
	BCoopVecLoadNV:                                                    "coopVecLoadNV",
	BCoopVecStoreNV:                                                   "coopVecStoreNV",
	BImageSize:                                                        "imageSize",
	BImageSamples:                                                     "imageSamples",
	BImageLoad:                                                        "imageLoad",
	BImageStore:                                                       "imageStore",
	BImageAtomicAdd:                                                   "imageAtomicAdd",
	BImageAtomicMin:                                                   "imageAtomicMin",
	BImageAtomicMax:                                                   "imageAtomicMax",
	BImageAtomicAnd:                                                   "imageAtomicAnd",
	BImageAtomicOr:                                                    "imageAtomicOr",
	BImageAtomicXor:                                                   "imageAtomicXor",
	BImageAtomicExchange:                                              "imageAtomicExchange",
	BImageAtomicCompSwap:                                              "imageAtomicCompSwap",
	BImageAtomicLoad:                                                  "imageAtomicLoad",
	BImageAtomicStore:                                                 "imageAtomicStore",
	BTexture:                                                          "texture",
	BTextureLod:                                                       "textureLod",
	BTextureQueryLod:                                                  "textureQueryLod",
	BTexelFetch:                                                       "texelFetch",
	BTextureSize:                                                      "textureSize",
	BDebugPrintfEXT:                                                   "debugPrintfEXT",
	BAbortEXT:                                                         "abortEXT",
	BPackFloat2xfe2m1EXT:                                              "packFloat2xfe2m1EXT",
	BUnpackFloat2xfe2m1EXT:                                            "unpackFloat2xfe2m1EXT",
	BPackFloat4xfe2m1EXT:                                              "packFloat4xfe2m1EXT",
	BUnpackFloat4xfe2m1EXT:                                            "unpackFloat4xfe2m1EXT",
	BPackFloat8xfe2m1EXT:                                              "packFloat8xfe2m1EXT",
	BUnpackFloat8xfe2m1EXT:                                            "unpackFloat8xfe2m1EXT",
	BPackFloat16xfe2m1EXT:                                             "packFloat16xfe2m1EXT",
	BUnpackFloat16xfe2m1EXT:                                           "unpackFloat16xfe2m1EXT",
	BBitcastExtractfe2m1EXT:                                           "bitcastExtractfe2m1EXT",
	BPackFloat4xfe2m3EXT:                                              "packFloat4xfe2m3EXT",
	BUnpackFloat4xfe2m3EXT:                                            "unpackFloat4xfe2m3EXT",
	BPackFloat8xfe2m3EXT:                                              "packFloat8xfe2m3EXT",
	BUnpackFloat8xfe2m3EXT:                                            "unpackFloat8xfe2m3EXT",
	BPackFloat16xfe2m3EXT:                                             "packFloat16xfe2m3EXT",
	BUnpackFloat16xfe2m3EXT:                                           "unpackFloat16xfe2m3EXT",
	BBitcastExtractfe2m3EXT:                                           "bitcastExtractfe2m3EXT",
	BPackFloat4xfe3m2EXT:                                              "packFloat4xfe3m2EXT",
	BUnpackFloat4xfe3m2EXT:                                            "unpackFloat4xfe3m2EXT",
	BPackFloat8xfe3m2EXT:                                              "packFloat8xfe3m2EXT",
	BUnpackFloat8xfe3m2EXT:                                            "unpackFloat8xfe3m2EXT",
	BPackFloat16xfe3m2EXT:                                             "packFloat16xfe3m2EXT",
	BUnpackFloat16xfe3m2EXT:                                           "unpackFloat16xfe3m2EXT",
	BBitcastExtractfe3m2EXT:                                           "bitcastExtractfe3m2EXT",
	BFloatmxint8BitsToIntEXT:                                          "floatmxint8BitsToIntEXT",
	BFloatmxint8BitsToUintEXT:                                         "floatmxint8BitsToUintEXT",
	BIntBitsToFloatmxint8EXT:                                          "intBitsToFloatmxint8EXT",
	BUintBitsToFloatmxint8EXT:                                         "uintBitsToFloatmxint8EXT",
	BBitcastQCOM:                                                      "bitcastQCOM",
	BExtractSubArrayQCOM:                                              "extractSubArrayQCOM",
	BVectorToCoopmatQCOM:                                              "vectorToCoopmatQCOM",
	BCoopmatToVectorQCOM:                                              "coopmatToVectorQCOM",
	BTensorReadARM:                                                    "tensorReadARM",
	BTensorWriteARM:                                                   "tensorWriteARM",
	BTensorSizeARM:                                                    "tensorSizeARM",
	BFetchMicroTriangleVertexPositionNV:                               "fetchMicroTriangleVertexPositionNV",
	BFetchMicroTriangleVertexBarycentricNV:                            "fetchMicroTriangleVertexBarycentricNV",
	BDotPacked4x8EXT:                                                  "dotPacked4x8EXT",
	BDotPacked4x8AccSatEXT:                                            "dotPacked4x8AccSatEXT",
	BRayQueryGetIntersectionTriangleVertexPositionsEXT:                "rayQueryGetIntersectionTriangleVertexPositionsEXT",
	BTextureProj:                                                      "textureProj",
	BTextureOffset:                                                    "textureOffset",
	BTextureProjOffset:                                                "textureProjOffset",
	BTextureLodOffset:                                                 "textureLodOffset",
	BTextureProjLod:                                                   "textureProjLod",
	BTextureProjLodOffset:                                             "textureProjLodOffset",
	BTexelFetchOffset:                                                 "texelFetchOffset",
	BTextureGrad:                                                      "textureGrad",
	BTextureGradOffset:                                                "textureGradOffset",
	BTextureProjGrad:                                                  "textureProjGrad",
	BTextureProjGradOffset:                                            "textureProjGradOffset",
	BTextureGather:                                                    "textureGather",
	BTextureGatherOffset:                                              "textureGatherOffset",
	BTextureGatherOffsets:                                             "textureGatherOffsets",
	BTextureQueryLevels:                                               "textureQueryLevels",
	BTextureSamples:                                                   "textureSamples",
	BNonuniformEXT:                                                    "nonuniformEXT",
	BSparseTextureARB:                                                 "sparseTextureARB",
	BSparseTextureLodARB:                                              "sparseTextureLodARB",
	BSparseTextureOffsetARB:                                           "sparseTextureOffsetARB",
	BSparseTexelFetchARB:                                              "sparseTexelFetchARB",
	BSparseTexelFetchOffsetARB:                                        "sparseTexelFetchOffsetARB",
	BSparseTextureLodOffsetARB:                                        "sparseTextureLodOffsetARB",
	BSparseTextureGradARB:                                             "sparseTextureGradARB",
	BSparseTextureGradOffsetARB:                                       "sparseTextureGradOffsetARB",
	BSparseTextureGatherARB:                                           "sparseTextureGatherARB",
	BSparseTextureGatherOffsetARB:                                     "sparseTextureGatherOffsetARB",
	BSparseTextureGatherOffsetsARB:                                    "sparseTextureGatherOffsetsARB",
	BSparseTextureClampARB:                                            "sparseTextureClampARB",
	BSparseTextureOffsetClampARB:                                      "sparseTextureOffsetClampARB",
	BSparseTextureGradClampARB:                                        "sparseTextureGradClampARB",
	BSparseTextureGradOffsetClampARB:                                  "sparseTextureGradOffsetClampARB",
	BTextureClampARB:                                                  "textureClampARB",
	BTextureOffsetClampARB:                                            "textureOffsetClampARB",
	BTextureGradClampARB:                                              "textureGradClampARB",
	BTextureGradOffsetClampARB:                                        "textureGradOffsetClampARB",
	BSparseImageLoadARB:                                               "sparseImageLoadARB",
	BSparseTexelsResidentARB:                                          "sparseTexelsResidentARB",
	BFloatue8m0BitsToIntEXT:                                           "floatue8m0BitsToIntEXT",
	BFloatue8m0BitsToUintEXT:                                          "floatue8m0BitsToUintEXT",
	BIntBitsToFloatue8m0EXT:                                           "intBitsToFloatue8m0EXT",
	BUintBitsToFloatue8m0EXT:                                          "uintBitsToFloatue8m0EXT",
}

func (b Builtin) String() string { return builtinNames[b] }

// builtinByName is filled with the other name tables (tables.go).
var builtinByName map[string]Builtin

func indexBuiltinNames() {
	builtinByName = make(map[string]Builtin, len(builtinNames))
	for i, n := range builtinNames {
		if n != "" {
			builtinByName[n] = Builtin(i)
		}
	}
}
