package text

import (
	"strconv"
	"strings"

	"github.com/coopshader/coop/spirv"
)

// maxNameLen is the longest debug name used as a friendly name; longer
// ones fall back to the id number, as spirv-dis does.
const maxNameLen = 256

// namer assigns spirv-dis's friendly names.
type namer struct {
	names map[uint32]string
	used  map[string]bool
}

// FriendlyNames returns the names spirv-dis would print for m's ids: debug
// names (sanitised to [A-Za-z0-9_] and made unique with _0, _1, ...),
// gl_ names of built-ins, names derived from types (%uint, %v4float,
// %_ptr_StorageBuffer_float, %_arr_float_uint_4) and from scalar constants
// (%uint_0, %float_0_5, %int_n1), and the id number for everything else.
func FriendlyNames(m *spirv.Module) map[uint32]string {
	n := &namer{names: map[uint32]string{}, used: map[string]bool{}}
	types := spirv.NewTypes()
	var ops []spirv.Operand
	for i := range m.Insts {
		in := &m.Insts[i]
		n.inst(in, types, &ops)
		types.Record(in)
	}
	return n.names
}

func sanitize(s string) string {
	if s == "" {
		return "_"
	}
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			b[i] = '_'
		}
	}
	return string(b)
}

func (n *namer) save(id uint32, suggested string) {
	if _, ok := n.names[id]; ok {
		return
	}
	base := sanitize(suggested)
	if len(suggested) > maxNameLen {
		base = strconv.FormatUint(uint64(id), 10)
	}
	name := base
	for i := 0; n.used[name]; i++ {
		name = base + "_" + strconv.Itoa(i)
	}
	n.used[name] = true
	n.names[id] = name
}

func (n *namer) nameOf(id uint32) string {
	if s, ok := n.names[id]; ok {
		return s
	}
	return strconv.FormatUint(uint64(id), 10)
}

var builtinNames = map[spirv.BuiltIn]string{
	spirv.BuiltInPosition: "gl_Position", spirv.BuiltInPointSize: "gl_PointSize", spirv.BuiltInClipDistance: "gl_ClipDistance",
	spirv.BuiltInCullDistance: "gl_CullDistance", spirv.BuiltInVertexId: "gl_VertexID", spirv.BuiltInInstanceId: "gl_InstanceID",
	spirv.BuiltInPrimitiveId: "gl_PrimitiveID", spirv.BuiltInInvocationId: "gl_InvocationID", spirv.BuiltInLayer: "gl_Layer",
	spirv.BuiltInViewportIndex: "gl_ViewportIndex", spirv.BuiltInTessLevelOuter: "gl_TessLevelOuter",
	spirv.BuiltInTessLevelInner: "gl_TessLevelInner", spirv.BuiltInTessCoord: "gl_TessCoord", spirv.BuiltInPatchVertices: "gl_PatchVertices",
	spirv.BuiltInFragCoord: "gl_FragCoord", spirv.BuiltInPointCoord: "gl_PointCoord", spirv.BuiltInFrontFacing: "gl_FrontFacing",
	spirv.BuiltInSampleId: "gl_SampleID", spirv.BuiltInSamplePosition: "gl_SamplePosition", spirv.BuiltInSampleMask: "gl_SampleMask",
	spirv.BuiltInFragDepth: "gl_FragDepth", spirv.BuiltInHelperInvocation: "gl_HelperInvocation",
	spirv.BuiltInNumWorkgroups: "gl_NumWorkGroups", spirv.BuiltInWorkgroupSize: "gl_WorkGroupSize",
	spirv.BuiltInWorkgroupId: "gl_WorkGroupID", spirv.BuiltInLocalInvocationId: "gl_LocalInvocationID",
	spirv.BuiltInGlobalInvocationId: "gl_GlobalInvocationID", spirv.BuiltInLocalInvocationIndex: "gl_LocalInvocationIndex",
	spirv.BuiltInWorkDim: "WorkDim", spirv.BuiltInGlobalSize: "GlobalSize", spirv.BuiltInEnqueuedWorkgroupSize: "EnqueuedWorkgroupSize",
	spirv.BuiltInGlobalOffset: "GlobalOffset", spirv.BuiltInGlobalLinearId: "GlobalLinearId", spirv.BuiltInSubgroupSize: "SubgroupSize",
	spirv.BuiltInSubgroupMaxSize: "SubgroupMaxSize", spirv.BuiltInNumSubgroups: "NumSubgroups",
	spirv.BuiltInNumEnqueuedSubgroups: "NumEnqueuedSubgroups", spirv.BuiltInSubgroupId: "SubgroupId",
	spirv.BuiltInSubgroupLocalInvocationId: "SubgroupLocalInvocationId", spirv.BuiltInVertexIndex: "gl_VertexIndex",
	spirv.BuiltInInstanceIndex: "gl_InstanceIndex", spirv.BuiltInBaseInstance: "gl_BaseInstance",
	spirv.BuiltInSubgroupEqMask: "SubgroupEqMaskKHR", spirv.BuiltInSubgroupGeMask: "SubgroupGeMaskKHR",
	spirv.BuiltInSubgroupGtMask: "SubgroupGtMaskKHR", spirv.BuiltInSubgroupLeMask: "SubgroupLeMaskKHR",
	spirv.BuiltInSubgroupLtMask: "SubgroupLtMaskKHR",
}

var fpEncodingNames = map[spirv.FPEncoding]string{
	spirv.FPEncodingBFloat16KHR: "bfloat16", spirv.FPEncodingFloat8E4M3EXT: "fp8e4m3", spirv.FPEncodingFloat8E5M2EXT: "fp8e5m2",
	spirv.FPEncodingFloat6E2M3EXT: "fp6e2m3", spirv.FPEncodingFloat6E3M2EXT: "fp6e3m2", spirv.FPEncodingFloat4E2M1EXT: "fp4e2m1",
	spirv.FPEncodingFloat8UnsignedE8M0EXT: "fp8e8m0", spirv.FPEncodingMXInt8EXT: "mxint8",
}

func (n *namer) inst(in *spirv.Inst, types *spirv.Types, ops *[]spirv.Operand) {
	w := in.Words
	desc := in.Op.Desc()
	if desc == nil {
		return
	}
	var result uint32
	switch {
	case desc.HasType() && len(w) >= 2:
		result = w[1]
	case desc.HasResult() && len(w) >= 1:
		result = w[0]
	}
	switch in.Op {
	case spirv.OpName:
		if len(w) >= 2 {
			s, _, _ := spirv.DecodeString(w[1:])
			n.save(w[0], s)
		}
		return
	case spirv.OpDecorate:
		if len(w) >= 3 && spirv.Decoration(w[1]) == spirv.DecorationBuiltIn {
			if s, ok := builtinNames[spirv.BuiltIn(w[2])]; ok {
				n.save(w[0], s)
			}
		}
		return
	}
	if result == 0 {
		return
	}
	switch in.Op {
	case spirv.OpTypeVoid:
		n.save(result, "void")
	case spirv.OpTypeBool:
		n.save(result, "bool")
	case spirv.OpTypeInt:
		if len(w) < 3 {
			return
		}
		sign, root := "", ""
		switch w[1] {
		case 8:
			root = "char"
		case 16:
			root = "short"
		case 32:
			root = "int"
		case 64:
			root = "long"
		default:
			root, sign = strconv.FormatUint(uint64(w[1]), 10), "i"
		}
		if w[2] == 0 {
			sign = "u"
		}
		n.save(result, sign+root)
	case spirv.OpTypeFloat:
		if len(w) >= 3 {
			if s, ok := fpEncodingNames[spirv.FPEncoding(w[2])]; ok {
				n.save(result, s)
				return
			}
		}
		switch w[1] {
		case 16:
			n.save(result, "half")
		case 32:
			n.save(result, "float")
		case 64:
			n.save(result, "double")
		default:
			n.save(result, "fp"+strconv.FormatUint(uint64(w[1]), 10))
		}
	case spirv.OpTypeVector:
		n.save(result, "v"+strconv.FormatUint(uint64(w[2]), 10)+n.nameOf(w[1]))
	case spirv.OpTypeMatrix:
		n.save(result, "mat"+strconv.FormatUint(uint64(w[2]), 10)+n.nameOf(w[1]))
	case spirv.OpTypeArray:
		n.save(result, "_arr_"+n.nameOf(w[1])+"_"+n.nameOf(w[2]))
	case spirv.OpTypeRuntimeArray:
		n.save(result, "_runtimearr_"+n.nameOf(w[1]))
	case spirv.OpTypePointer:
		n.save(result, "_ptr_"+enumName(spirv.KindStorageClass, w[1])+"_"+n.nameOf(w[2]))
	case spirv.OpTypeUntypedPointerKHR:
		n.save(result, "_ptr_"+enumName(spirv.KindStorageClass, w[1]))
	case spirv.OpTypeStruct:
		n.save(result, "_struct_"+strconv.FormatUint(uint64(result), 10))
	case spirv.OpConstantTrue:
		n.save(result, "true")
	case spirv.OpConstantFalse:
		n.save(result, "false")
	case spirv.OpConstant:
		o, err := types.Operands(in, (*ops)[:0])
		*ops = o
		if err != nil || len(o) < 3 {
			n.save(result, strconv.FormatUint(uint64(result), 10))
			return
		}
		v := formatNumber(w[o[2].Offset:o[2].Offset+o[2].Count], o[2].Num)
		n.save(result, n.nameOf(w[0])+"_"+strings.ReplaceAll(v, "-", "n"))
	default:
		n.save(result, strconv.FormatUint(uint64(result), 10))
	}
}

func enumName(k spirv.OperandKind, v uint32) string {
	if e := k.Enumerant(v); e != nil {
		return e.Name
	}
	return "StorageClass" + strconv.FormatUint(uint64(v), 10)
}
