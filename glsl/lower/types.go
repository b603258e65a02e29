package lower

import (
	"fmt"
	"math"
	"strconv"

	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/spirv"
)

// scalarType returns the id of a scalar type, declaring the capability
// its arithmetic needs for 64-bit and encoded float types (8- and 16-bit
// types get theirs from how they are used: see narrowCaps).
func (g *gen) scalarType(s check.Scalar) uint32 {
	switch s {
	case check.Bool:
		return g.b.TypeBool()
	case check.Int64, check.Uint64:
		g.b.Capability(spirv.CapabilityInt64)
	case check.Float64:
		g.b.Capability(spirv.CapabilityFloat64)
	case check.BFloat16:
		g.b.Capability(spirv.CapabilityBFloat16TypeKHR)
		g.b.Extension("SPV_KHR_bfloat16")
		return g.b.TypeFloatEncoded(16, spirv.FPEncodingBFloat16KHR)
	case check.E2M1, check.E2M3, check.E3M2, check.MXInt8, check.UE8M0:
		// SPV_EXT_ocp_microscaling_types: values of these types only
		// convert, move and get reinterpreted.
		g.b.Extension("SPV_EXT_ocp_microscaling_types")
		switch s {
		case check.E2M1:
			g.b.Capability(spirv.CapabilityFloat4EXT)
			return g.b.TypeFloatEncoded(4, spirv.FPEncodingFloat4E2M1EXT)
		case check.E2M3:
			g.b.Capability(spirv.CapabilityFloat6EXT)
			return g.b.TypeFloatEncoded(6, spirv.FPEncodingFloat6E2M3EXT)
		case check.E3M2:
			g.b.Capability(spirv.CapabilityFloat6EXT)
			return g.b.TypeFloatEncoded(6, spirv.FPEncodingFloat6E3M2EXT)
		}
		if s == check.UE8M0 {
			g.b.Capability(spirv.CapabilityFloat8UnsignedE8M0EXT)
			return g.b.TypeFloatEncoded(8, spirv.FPEncodingFloat8UnsignedE8M0EXT)
		}
		g.b.Capability(spirv.CapabilityMXInt8EXT)
		return g.b.TypeFloatEncoded(8, spirv.FPEncodingMXInt8EXT)
	case check.E4M3, check.E5M2:
		g.b.Capability(spirv.CapabilityFloat8EXT)
		g.b.Extension("SPV_EXT_float8")
		if s == check.E4M3 {
			return g.b.TypeFloatEncoded(8, spirv.FPEncodingFloat8E4M3EXT)
		}
		return g.b.TypeFloatEncoded(8, spirv.FPEncodingFloat8E5M2EXT)
	}
	if s.IsInt() {
		return g.b.TypeInt(uint32(s.Bits()), s.IsSigned())
	}
	return g.b.TypeFloat(uint32(s.Bits()))
}

// typeID returns the id of t. pk is the packing of explicitly laid-out
// memory (PackNone for Function, Private and Workgroup memory and for
// values): laid-out arrays and structs are distinct types carrying
// ArrayStride and Offset decorations, and bools are stored as uint.
func (g *gen) typeID(t *check.Type, pk check.Packing) uint32 {
	if id, ok := g.rayType(t); ok {
		return id
	}
	switch t.Kind {
	case check.KVoid:
		return g.b.TypeVoid()
	case check.KScalar:
		if t.Scalar == check.Bool && pk != check.PackNone {
			return g.scalarType(check.Uint32)
		}
		return g.scalarType(t.Scalar)
	case check.KVector:
		s := t.Scalar
		if s == check.Bool && pk != check.PackNone {
			s = check.Uint32
		}
		if t.Long {
			g.elementCaps(s)
		}
		if t.N > 4 || t.Long {
			g.b.Capability(spirv.CapabilityLongVectorEXT)
			g.b.Extension("SPV_EXT_long_vector")
			if t.SpecLen != nil {
				return g.b.Type(spirv.OpTypeVectorIdEXT, g.scalarType(s), g.specLen(t.SpecLen))
			}
		}
		return g.b.TypeVector(g.scalarType(s), uint32(t.N))
	case check.KMatrix:
		return g.b.TypeMatrix(g.b.TypeVector(g.scalarType(t.Scalar), uint32(t.Rows)), uint32(t.N))
	case check.KCoopMat:
		g.b.Capability(spirv.CapabilityCooperativeMatrixKHR)
		g.b.Extension("SPV_KHR_cooperative_matrix")
		switch t.Scalar {
		case check.BFloat16:
			g.b.Capability(spirv.CapabilityBFloat16CooperativeMatrixKHR)
		case check.E4M3, check.E5M2:
			g.b.Capability(spirv.CapabilityFloat8CooperativeMatrixEXT)
		}
		return g.b.Type(spirv.OpTypeCooperativeMatrixKHR, g.coopMatComponent(t), g.dim(t.Params[0]), g.dim(t.Params[1]), g.dim(t.Params[2]), g.dim(t.Params[3]))
	case check.KCoopMatNV:
		g.b.Capability(spirv.CapabilityCooperativeMatrixNV)
		g.b.Extension("SPV_NV_cooperative_matrix")
		return g.b.Type(spirv.OpTypeCooperativeMatrixNV, g.scalarType(t.Scalar), g.dim(t.Params[0]), g.dim(t.Params[1]), g.dim(t.Params[2]))
	case check.KReference:
		return g.refPointer(t)
	case check.KCoopVec, check.KTensorLayout, check.KTensorView:
		return g.coop2Type(t)
	case check.KTensorARM:
		return g.tensorARMType(t)
	case check.KSpirv:
		return g.spirvType(t)
	case check.KOpaque:
		if opaqueOf(t) != nil {
			return g.resType(t, "", false)
		}
	}
	key := g.typeKey(t, pk)
	if id, ok := g.types[key]; ok {
		return id
	}
	switch t.Kind {
	case check.KArray:
		elem := g.typeID(t.Elem, pk)
		var id uint32
		switch {
		case t.IsUnsizedArray():
			id = g.newType(pk, spirv.OpTypeRuntimeArray, elem)
		case t.SpecLen != nil:
			id = g.newType(pk, spirv.OpTypeArray, elem, g.specLen(t.SpecLen))
		default:
			id = g.newType(pk, spirv.OpTypeArray, elem, g.b.ConstUint32(g.scalarType(check.Uint32), uint32(t.N)))
		}
		// Arrays of blocks (descriptor arrays) carry no stride.
		if eb := baseOfArrays(t.Elem); pk != check.PackNone && !(eb.Kind == check.KStruct && eb.Struct.Block) {
			g.b.Decorate(id, spirv.DecorationArrayStride, g.layoutLit(check.ArrayStride(t, pk, false), "array stride"))
		}
		g.types[key] = id
		return id
	case check.KStruct:
		return g.structType(t, pk, key)
	}
	g.fail(check.Pos{}, "type %s is not supported by the code generator", t)
	return 0
}

// specLen is the id of a specialization-constant length, emitted once per
// expression so every use of the type names the same constant.
func (g *gen) specLen(e check.Expr) uint32 {
	if id, ok := g.specLens[e]; ok {
		return id
	}
	id := g.specValue(e)
	g.specLens[e] = id
	return id
}

// newType declares a type that must stay distinct when laid out.
func (g *gen) newType(pk check.Packing, op spirv.Op, words ...uint32) uint32 {
	if pk != check.PackNone {
		return g.b.NewType(op, words...)
	}
	return g.b.Type(op, words...)
}

func (g *gen) typeKey(t *check.Type, pk check.Packing) string {
	s := strconv.Itoa(int(pk)) + ":" + t.String()
	// A length given by a specialization constant prints as its default:
	// the constant's id tells such arrays apart.
	for e := t; e != nil; e = e.Elem {
		if e.SpecLen != nil {
			s += "#" + strconv.Itoa(int(g.specLen(e.SpecLen)))
		}
	}
	if t.Struct != nil {
		s += fmt.Sprintf("@%p", t.Struct)
	}
	if t.Elem != nil {
		for e := t.Elem; e != nil; e = e.Elem {
			if e.Struct != nil {
				s += fmt.Sprintf("@%p", e.Struct)
			}
		}
	}
	return s
}

func (g *gen) structType(t *check.Type, pk check.Packing, key string) uint32 {
	st := t.Struct
	mpk := pk
	members := make([]uint32, len(st.Fields))
	for i, f := range st.Fields {
		members[i] = g.typeID(f.Type, mpk)
	}
	id := g.b.NewType(spirv.OpTypeStruct, members...)
	g.types[key] = id
	if st.Name != "" {
		g.b.Name(id, st.Name)
		for i, f := range st.Fields {
			g.b.MemberName(id, uint32(i), f.Name)
		}
	}
	if pk != check.PackNone {
		offs := check.FieldOffsets(st, pk)
		for i, f := range st.Fields {
			g.b.MemberDecorate(id, uint32(i), spirv.DecorationOffset, g.layoutLit(offs[i], "offset of member '"+f.Name+"'"))
			if ft := baseOfArrays(f.Type); ft.Kind == check.KMatrix {
				if f.RowMajor {
					g.b.MemberDecorate(id, uint32(i), spirv.DecorationRowMajor)
				} else {
					g.b.MemberDecorate(id, uint32(i), spirv.DecorationColMajor)
				}
				g.b.MemberDecorate(id, uint32(i), spirv.DecorationMatrixStride, g.layoutLit(check.MatrixStride(f.Type, pk, f.RowMajor), "matrix stride"))
			}
			g.memberMemory(id, uint32(i), f.Memory)
		}
	}
	for i, f := range st.Fields {
		g.spirvMemberDecorate(id, i, f.Spirv)
	}
	return id
}

// layoutLit is a byte offset or stride as SPIR-V's 32-bit literal; a
// larger one is an error at the declaration being lowered (truncating it
// would silently alias the members).
func (g *gen) layoutLit(v int, what string) uint32 {
	if v < 0 || v > math.MaxUint32 {
		g.fail(g.pos, "%s is %d bytes, beyond the 4294967295 a SPIR-V layout decoration can hold", what, v)
	}
	return uint32(v)
}

func baseOfArrays(t *check.Type) *check.Type {
	for t.Kind == check.KArray {
		t = t.Elem
	}
	return t
}

// memberMemory decorates a block member with its memory qualifiers.
func (g *gen) memberMemory(id, i uint32, m check.MemoryQual) {
	if m&check.ReadOnly != 0 {
		g.b.MemberDecorate(id, i, spirv.DecorationNonWritable)
	}
	if m&check.WriteOnly != 0 {
		g.b.MemberDecorate(id, i, spirv.DecorationNonReadable)
	}
	if m&check.Coherent != 0 && !g.usesVulkanMemoryModel() {
		g.b.MemberDecorate(id, i, spirv.DecorationCoherent)
	}
	if m&check.Volatile != 0 && !g.usesVulkanMemoryModel() {
		g.b.MemberDecorate(id, i, spirv.DecorationVolatile)
	}
	if m&check.Restrict != 0 {
		g.b.MemberDecorate(id, i, spirv.DecorationRestrict)
	}
}

// refPointer is the PhysicalStorageBuffer pointer type of a buffer
// reference; its block is declared (forward pointer first, as references
// may be recursive).
func (g *gen) refPointer(t *check.Type) uint32 {
	key := fmt.Sprintf("ref@%p", t.Struct)
	if id, ok := g.types[key]; ok {
		return id
	}
	g.b.Capability(spirv.CapabilityPhysicalStorageBufferAddresses)
	if g.ver < 0x10500 {
		g.b.Extension("SPV_KHR_physical_storage_buffer")
	}
	ptr := g.b.ID()
	g.types[key] = ptr
	g.b.Add(spirv.SecGlobal, spirv.OpTypeForwardPointer, ptr, uint32(spirv.StorageClassPhysicalStorageBuffer))
	pk := t.Struct.Packing
	if pk == check.PackNone {
		pk = check.PackStd430
	}
	bt := &check.Type{Kind: check.KStruct, Struct: t.Struct}
	block := g.typeID(bt, pk)
	g.b.Decorate(block, spirv.DecorationBlock)
	g.storageCaps(bt, spirv.StorageClassPhysicalStorageBuffer)
	g.b.Add(spirv.SecGlobal, spirv.OpTypePointer, ptr, uint32(spirv.StorageClassPhysicalStorageBuffer), block)
	return ptr
}

// dim returns the id of a type parameter: a uint constant or the
// specialization constant expression.
func (g *gen) dim(d check.Dim) uint32 {
	if d.Spec != nil {
		return g.specValue(d.Spec)
	}
	return g.b.ConstUint32(g.scalarType(check.Uint32), uint32(d.Val))
}

func (g *gen) ptrType(sc spirv.StorageClass, t *check.Type, pk check.Packing) uint32 {
	return g.b.TypePointer(sc, g.typeID(t, pk))
}

// storageCaps declares the capabilities for 8- and 16-bit types held in
// memory of class sc.
func (g *gen) storageCaps(t *check.Type, sc spirv.StorageClass) { g.memoryCaps(t, sc, false) }

// memoryCaps is storageCaps where buffer marks a buffer block in the
// Uniform class (BufferBlock), whose 16-bit members the
// StorageBuffer16BitAccess capability covers.
func (g *gen) memoryCaps(t *check.Type, sc spirv.StorageClass, buffer bool) {
	has8, has16 := false, false
	t.Contains(func(e *check.Type) bool {
		// bfloat16 and fp8 values in memory need only their type's
		// capability.
		if (e.Kind == check.KScalar || e.Kind == check.KVector || e.Kind == check.KMatrix) && !e.Scalar.IsNarrowFloat() {
			switch e.Scalar.Bits() {
			case 8:
				has8 = true
			case 16:
				has16 = true
			}
		}
		return false
	})
	for _, n := range []narrowStorage{storage8, storage16} {
		if n.width == 8 && !has8 || n.width == 16 && !has16 {
			continue
		}
		switch sc {
		case spirv.StorageClassStorageBuffer, spirv.StorageClassPhysicalStorageBuffer:
			g.b.Capability(n.buffer)
		case spirv.StorageClassUniform:
			if buffer && n.width == 16 {
				g.b.Capability(n.buffer)
			} else {
				g.b.Capability(n.uniform)
			}
		case spirv.StorageClassPushConstant:
			g.b.Capability(n.push)
		case spirv.StorageClassWorkgroup:
			if t.Kind == check.KStruct && t.Struct.Block {
				g.b.Capability(n.shared)
			}
		}
		if sc != spirv.StorageClassWorkgroup && sc != spirv.StorageClassFunction && sc != spirv.StorageClassPrivate && g.ver < n.core {
			g.b.Extension(n.ext)
		}
	}
}

// narrowStorage names what holding 8- or 16-bit types in memory needs.
type narrowStorage struct {
	width                         int
	buffer, uniform, push, shared spirv.Capability
	ext                           string
	core                          spirv.Version // the SPIR-V version that made ext core
}

var (
	storage8 = narrowStorage{8, spirv.CapabilityStorageBuffer8BitAccess, spirv.CapabilityUniformAndStorageBuffer8BitAccess,
		spirv.CapabilityStoragePushConstant8, spirv.CapabilityWorkgroupMemoryExplicitLayout8BitAccessKHR, "SPV_KHR_8bit_storage", 0x10500}
	storage16 = narrowStorage{16, spirv.CapabilityStorageBuffer16BitAccess, spirv.CapabilityUniformAndStorageBuffer16BitAccess,
		spirv.CapabilityStoragePushConstant16, spirv.CapabilityWorkgroupMemoryExplicitLayout16BitAccessKHR, "SPV_KHR_16bit_storage", 0x10300}
)

// elementCaps declares the arithmetic capability of a long vector's fp16
// or 8-bit integer elements, as glslang does when it declares those types
// (narrowCaps does the same for cooperative types).
func (g *gen) elementCaps(s check.Scalar) {
	switch s {
	case check.Float16:
		g.b.Capability(spirv.CapabilityFloat16)
	case check.Int8, check.Uint8:
		g.b.Capability(spirv.CapabilityInt8)
	}
}

// valueCaps declares the arithmetic capabilities of the 8- and 16-bit types
// in t (function parameters and specialization constants hold them as
// values).
func (g *gen) valueCaps(t *check.Type) {
	t.Contains(func(e *check.Type) bool {
		if e.Kind == check.KScalar || e.Kind == check.KVector || e.Kind == check.KMatrix {
			g.arithCaps(e.Scalar)
		}
		return false
	})
}

// arithCaps declares the capability arithmetic on 8- and 16-bit scalars
// of type s needs.
func (g *gen) arithCaps(s check.Scalar) {
	switch s {
	case check.Int8, check.Uint8:
		g.b.Capability(spirv.CapabilityInt8)
	case check.Int16, check.Uint16:
		g.b.Capability(spirv.CapabilityInt16)
	case check.Float16:
		g.b.Capability(spirv.CapabilityFloat16)
	}
}
