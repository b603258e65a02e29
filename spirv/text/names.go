package text

import (
	"strconv"

	"github.com/coopshader/coop/internal/lazy"

	"github.com/coopshader/coop/spirv"
)

// maxNameLen is the longest suggested name spirv-dis uses; a longer one
// falls back to the id number.
const maxNameLen = 256

// denseLimit bounds the id-indexed tables; larger ids (only in odd
// modules) go to maps, so a huge bound cannot make us allocate much.
const denseLimit = 1 << 20

// nameTable holds the friendly name of each id, and which decimal names
// are taken. Ids named by their own number (most of them) are only marked,
// not stored, so naming them costs no allocation.
type nameTable struct {
	dense      []string
	sparse     map[uint32]string
	numbered   []uint64 // bit set: id has its own number as its name
	numberedHi map[uint32]bool
	// used holds every name given except canonical decimal ones, which
	// live in digits.
	used   map[string]struct{}
	digits map[uint32]bool // canonical decimal names given to some other id
}

func newNameTable(bound uint32) *nameTable {
	n := min(bound, denseLimit)
	return &nameTable{dense: make([]string, n), numbered: make([]uint64, (n+63)/64), used: map[string]struct{}{}}
}

// name returns id's name, or "" when it is printed as its number.
func (t *nameTable) name(id uint32) string {
	if id < uint32(len(t.dense)) {
		return t.dense[id]
	}
	return t.sparse[id]
}

func (t *nameTable) named(id uint32) bool {
	if id < uint32(len(t.dense)) {
		return t.dense[id] != "" || t.numbered[id/64]&(1<<(id%64)) != 0
	}
	if _, ok := t.sparse[id]; ok {
		return true
	}
	return t.numberedHi[id]
}

func (t *nameTable) setNumbered(id uint32) {
	if id < uint32(len(t.dense)) {
		t.numbered[id/64] |= 1 << (id % 64)
		return
	}
	if t.numberedHi == nil {
		t.numberedHi = map[uint32]bool{}
	}
	t.numberedHi[id] = true
}

// isUsed reports whether name has been given to an id.
func (t *nameTable) isUsed(name string) bool {
	if v, ok := canonicalDecimal(name); ok {
		if t.digits[v] {
			return true
		}
		if v < uint32(len(t.dense)) {
			return t.numbered[v/64]&(1<<(v%64)) != 0
		}
		return t.numberedHi[v]
	}
	_, ok := t.used[name]
	return ok
}

func (t *nameTable) markUsed(name string) {
	if v, ok := canonicalDecimal(name); ok {
		if t.digits == nil {
			t.digits = map[uint32]bool{}
		}
		t.digits[v] = true
		return
	}
	t.used[name] = struct{}{}
}

// canonicalDecimal parses s when it is how strconv prints a uint32.
func canonicalDecimal(s string) (uint32, bool) {
	if len(s) == 0 || len(s) > 10 || s[0] == '0' && len(s) > 1 {
		return 0, false
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
	}
	return uint32(v), v <= 0xffffffff
}

// save gives id a name derived from suggested, as spirv-dis's
// FriendlyNameMapper does: the first suggestion wins; characters outside
// [A-Za-z0-9_] become '_'; a taken name gets _0, _1, ... appended.
func (t *nameTable) save(id uint32, suggested string) {
	if t.named(id) {
		return
	}
	var base string
	if len(suggested) > maxNameLen {
		base = strconv.FormatUint(uint64(id), 10)
	} else {
		base = sanitize(suggested)
	}
	t.give(id, base)
}

// saveNumber names id by its own number, without allocating when the
// number is free.
func (t *nameTable) saveNumber(id uint32) {
	if t.named(id) {
		return
	}
	if !t.digits[id] {
		t.setNumbered(id)
		return
	}
	t.give(id, strconv.FormatUint(uint64(id), 10))
}

func (t *nameTable) give(id uint32, base string) {
	name := base
	for i := 0; t.isUsed(name); i++ {
		name = base + "_" + strconv.Itoa(i)
	}
	if v, ok := canonicalDecimal(name); ok && v == id {
		t.setNumbered(id)
		return
	}
	t.markUsed(name)
	if id < uint32(len(t.dense)) {
		t.dense[id] = name
		return
	}
	if t.sparse == nil {
		t.sparse = map[uint32]string{}
	}
	t.sparse[id] = name
}

// appendID appends %name (or %N) for id.
func (t *nameTable) appendID(dst []byte, id uint32) []byte {
	dst = append(dst, '%')
	if t != nil {
		if s := t.name(id); s != "" {
			return append(dst, s...)
		}
	}
	return strconv.AppendUint(dst, uint64(id), 10)
}

// idLen returns the length of id's name without the %.
func (t *nameTable) idLen(id uint32) int {
	if t != nil {
		if s := t.name(id); s != "" {
			return len(s)
		}
	}
	n := 1
	for id >= 10 {
		id /= 10
		n++
	}
	return n
}

func (t *nameTable) nameOf(id uint32) string {
	if s := t.name(id); s != "" {
		return s
	}
	return strconv.FormatUint(uint64(id), 10)
}

func sanitize(s string) string {
	if s == "" {
		return "_"
	}
	for i := 0; i < len(s); i++ {
		if !isIDChar(s[i]) {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if !isIDChar(b[j]) {
					b[j] = '_'
				}
			}
			return string(b)
		}
	}
	return s
}

func isIDChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// FriendlyNames returns the names spirv-dis prints for m's ids (without
// the %): debug names, gl_ names of built-ins, names derived from types
// (uint, v4float, _ptr_StorageBuffer_float, _arr_float_uint_4) and scalar
// constants (uint_0, float_0_5, int_n1), and the id number otherwise.
func FriendlyNames(m *spirv.Module) map[uint32]string {
	t := friendlyNames(m)
	out := map[uint32]string{}
	for i := range m.Insts {
		in := &m.Insts[i]
		if id := in.ResultID(); id != 0 {
			out[id] = t.nameOf(id)
		}
	}
	return out
}

func friendlyNames(m *spirv.Module) *nameTable {
	t := newNameTable(m.Bound)
	nums := map[uint32]spirv.NumType{}
	for i := range m.Insts {
		in := &m.Insts[i]
		d := in.Op.Desc()
		if d == nil {
			continue
		}
		w := in.Words
		if len(w) < 4 {
			// Short (invalid) instructions read as zero-padded; the
			// disassembler reports them.
			var pad [4]uint32
			copy(pad[:], w)
			w = pad[:]
		}
		switch in.Op {
		case spirv.OpName:
			s, _, _ := spirv.DecodeString(w[1:])
			t.save(w[0], s)
			continue
		case spirv.OpDecorate:
			if spirv.Decoration(w[1]) == spirv.DecorationBuiltIn {
				if s, ok := builtinNames.Get()[spirv.BuiltIn(w[2])]; ok {
					t.save(w[0], s)
				}
			}
			continue
		}
		if !d.HasResult() {
			continue
		}
		ri := 0
		if d.HasType() {
			ri = 1
		}
		id := w[ri]
		switch in.Op {
		case spirv.OpTypeInt:
			nums[id] = spirv.NumType{Width: w[1], Signed: w[2] != 0, Encoding: -1}
		case spirv.OpTypeFloat:
			n := spirv.NumType{Width: w[1], Float: true, Encoding: -1}
			if len(in.Words) >= 3 {
				n.Encoding = int32(w[2])
			}
			nums[id] = n
		}
		if t.named(id) {
			continue
		}
		switch in.Op {
		case spirv.OpTypeVoid:
			t.save(id, "void")
		case spirv.OpTypeBool:
			t.save(id, "bool")
		case spirv.OpTypeInt:
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
			t.save(id, sign+root)
		case spirv.OpTypeFloat:
			if len(in.Words) >= 3 {
				if s, ok := fpEncodingNames.Get()[spirv.FPEncoding(w[2])]; ok {
					t.save(id, s)
				}
			}
			switch w[1] {
			case 16:
				t.save(id, "half")
			case 32:
				t.save(id, "float")
			case 64:
				t.save(id, "double")
			default:
				t.save(id, "fp"+strconv.FormatUint(uint64(w[1]), 10))
			}
		case spirv.OpTypeVector:
			t.save(id, "v"+strconv.FormatUint(uint64(w[2]), 10)+t.nameOf(w[1]))
		case spirv.OpTypeMatrix:
			t.save(id, "mat"+strconv.FormatUint(uint64(w[2]), 10)+t.nameOf(w[1]))
		case spirv.OpTypeArray:
			t.save(id, "_arr_"+t.nameOf(w[1])+"_"+t.nameOf(w[2]))
		case spirv.OpTypeRuntimeArray:
			t.save(id, "_runtimearr_"+t.nameOf(w[1]))
		case spirv.OpTypeNodePayloadArrayAMDX:
			t.save(id, "_payloadarr_"+t.nameOf(w[1]))
		case spirv.OpTypePointer:
			t.save(id, "_ptr_"+enumName(spirv.KindStorageClass, w[1])+"_"+t.nameOf(w[2]))
		case spirv.OpTypeUntypedPointerKHR:
			t.save(id, "_ptr_"+enumName(spirv.KindStorageClass, w[1]))
		case spirv.OpTypePipe:
			t.save(id, "Pipe"+enumName(spirv.KindAccessQualifier, w[1]))
		case spirv.OpTypeEvent:
			t.save(id, "Event")
		case spirv.OpTypeDeviceEvent:
			t.save(id, "DeviceEvent")
		case spirv.OpTypeReserveId:
			t.save(id, "ReserveId")
		case spirv.OpTypeQueue:
			t.save(id, "Queue")
		case spirv.OpTypeOpaque:
			s, _, _ := spirv.DecodeString(w[1:])
			t.save(id, "Opaque_"+sanitize(s))
		case spirv.OpTypePipeStorage:
			t.save(id, "PipeStorage")
		case spirv.OpTypeNamedBarrier:
			t.save(id, "NamedBarrier")
		case spirv.OpTypeStruct:
			t.save(id, "_struct_"+strconv.FormatUint(uint64(id), 10))
		case spirv.OpConstantTrue:
			t.save(id, "true")
		case spirv.OpConstantFalse:
			t.save(id, "false")
		case spirv.OpConstant:
			n, ok := nums[w[0]]
			cnt := max(int(n.Width+31)/32, 1)
			if !ok || 2+cnt > len(w) {
				t.saveNumber(id)
				break
			}
			var buf [64]byte
			b := append(buf[:0], t.nameOf(w[0])...)
			b = append(b, '_')
			k := len(b)
			b = appendNumber(b, w[2:2+cnt], n)
			for ; k < len(b); k++ {
				if b[k] == '-' {
					b[k] = 'n'
				}
			}
			t.save(id, string(b))
		default:
			t.saveNumber(id)
		}
	}
	return t
}

var builtinNames = lazy.Value[map[spirv.BuiltIn]string]{F: func() map[spirv.BuiltIn]string {
	return map[spirv.BuiltIn]string{
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
}}

var fpEncodingNames = lazy.Value[map[spirv.FPEncoding]string]{F: func() map[spirv.FPEncoding]string {
	return map[spirv.FPEncoding]string{
		spirv.FPEncodingBFloat16KHR: "bfloat16", spirv.FPEncodingFloat8E4M3EXT: "fp8e4m3", spirv.FPEncodingFloat8E5M2EXT: "fp8e5m2",
		spirv.FPEncodingFloat6E2M3EXT: "fp6e2m3", spirv.FPEncodingFloat6E3M2EXT: "fp6e3m2", spirv.FPEncodingFloat4E2M1EXT: "fp4e2m1",
		spirv.FPEncodingFloat8UnsignedE8M0EXT: "fp8e8m0", spirv.FPEncodingMXInt8EXT: "mxint8",
	}
}}

// enumName is the enumerant's name, or what spirv-dis prints for an
// unknown value.
func enumName(k spirv.OperandKind, v uint32) string {
	if e := k.Enumerant(v); e != nil {
		return e.Name
	}
	return "StorageClass" + strconv.FormatUint(uint64(v), 10)
}
