package lower

import (
	"math"
	"strconv"

	"github.com/coopshader/coop/internal/lazy"
	"github.com/coopshader/coop/num"

	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/spirv"
)

var builtinIDs = lazy.Value[map[check.BuiltinVar]spirv.BuiltIn]{F: func() map[check.BuiltinVar]spirv.BuiltIn {
	return map[check.BuiltinVar]spirv.BuiltIn{
		check.BuiltinNumWorkGroups:         spirv.BuiltInNumWorkgroups,
		check.BuiltinWorkGroupID:           spirv.BuiltInWorkgroupId,
		check.BuiltinLocalInvocationID:     spirv.BuiltInLocalInvocationId,
		check.BuiltinGlobalInvocationID:    spirv.BuiltInGlobalInvocationId,
		check.BuiltinLocalInvocationIndex:  spirv.BuiltInLocalInvocationIndex,
		check.BuiltinSubgroupSize:          spirv.BuiltInSubgroupSize,
		check.BuiltinSubgroupInvocationID:  spirv.BuiltInSubgroupLocalInvocationId,
		check.BuiltinSubgroupID:            spirv.BuiltInSubgroupId,
		check.BuiltinNumSubgroups:          spirv.BuiltInNumSubgroups,
		check.BuiltinSubgroupEqMask:        spirv.BuiltInSubgroupEqMask,
		check.BuiltinSubgroupGeMask:        spirv.BuiltInSubgroupGeMask,
		check.BuiltinSubgroupGtMask:        spirv.BuiltInSubgroupGtMask,
		check.BuiltinSubgroupLeMask:        spirv.BuiltInSubgroupLeMask,
		check.BuiltinSubgroupLtMask:        spirv.BuiltInSubgroupLtMask,
		check.BuiltinDeviceIndex:           spirv.BuiltInDeviceIndex,
		check.BuiltinSubGroupSizeARB:       spirv.BuiltInSubgroupSize,
		check.BuiltinSubGroupInvocationARB: spirv.BuiltInSubgroupLocalInvocationId,
		check.BuiltinSubGroupEqMaskARB:     spirv.BuiltInSubgroupEqMask,
		check.BuiltinSubGroupGeMaskARB:     spirv.BuiltInSubgroupGeMask,
		check.BuiltinSubGroupGtMaskARB:     spirv.BuiltInSubgroupGtMask,
		check.BuiltinSubGroupLeMaskARB:     spirv.BuiltInSubgroupLeMask,
		check.BuiltinSubGroupLtMaskARB:     spirv.BuiltInSubgroupLtMask,
		check.BuiltinTileOffsetQCOM:        spirv.BuiltInTileOffsetQCOM,
		check.BuiltinTileDimensionQCOM:     spirv.BuiltInTileDimensionQCOM,
		check.BuiltinTileApronSizeQCOM:     spirv.BuiltInTileApronSizeQCOM,
	}
}}

// global declares a global variable or constant.
func (g *gen) global(v *check.Var) {
	g.at(v.Pos)
	switch v.Storage {
	case check.StorageConst:
		return // constants are emitted where used
	case check.StorageSpecConst:
		g.specConst(v)
		return
	}
	if v.Builtin == check.BuiltinWorkGroupSize {
		return // a constant, emitted where used
	}
	if isHeapVar(v) {
		g.heapGlobal(v)
		return
	}
	if g.rayVar(v) {
		return
	}
	if v.Builtin != check.BuiltinNone {
		bi, ok := builtinIDs.Get()[v.Builtin]
		if !ok {
			g.fail(v.Pos, "built-in variable %s is not supported by the code generator", v.Name)
		}
		switch v.Builtin {
		case check.BuiltinSubgroupSize, check.BuiltinSubgroupInvocationID, check.BuiltinSubgroupEqMask, check.BuiltinSubgroupGeMask,
			check.BuiltinSubgroupGtMask, check.BuiltinSubgroupLeMask, check.BuiltinSubgroupLtMask:
			g.b.Capability(spirv.CapabilityGroupNonUniform)
			if v.Builtin >= check.BuiltinSubgroupEqMask {
				g.b.Capability(spirv.CapabilityGroupNonUniformBallot)
			}
		case check.BuiltinSubgroupID, check.BuiltinNumSubgroups:
			g.b.Capability(spirv.CapabilityGroupNonUniform)
		case check.BuiltinDeviceIndex:
			g.b.Capability(spirv.CapabilityDeviceGroup)
			if g.ver < 0x10300 {
				g.b.Extension("SPV_KHR_device_group")
			}
		case check.BuiltinSubGroupSizeARB, check.BuiltinSubGroupInvocationARB, check.BuiltinSubGroupEqMaskARB,
			check.BuiltinSubGroupGeMaskARB, check.BuiltinSubGroupGtMaskARB, check.BuiltinSubGroupLeMaskARB, check.BuiltinSubGroupLtMaskARB:
			g.shaderBallotCaps()
		case check.BuiltinTileOffsetQCOM, check.BuiltinTileDimensionQCOM, check.BuiltinTileApronSizeQCOM:
			g.b.Capability(spirv.CapabilityTileShadingQCOM)
			g.b.Extension("SPV_QCOM_tile_shading")
		}
		t := v.Type
		if isARBMask(v.Builtin) {
			t = maskType // read as uint64_t by arbMask
		}
		id := g.b.Variable(g.ptrType(spirv.StorageClassInput, t, check.PackNone), spirv.StorageClassInput)
		g.b.Decorate(id, spirv.DecorationBuiltIn, uint32(bi))
		g.b.Name(id, v.Name)
		g.vars[v] = &varInfo{id: id, sc: spirv.StorageClassInput, t: t}
		g.addInterface(id, spirv.StorageClassInput)
		return
	}
	var sc spirv.StorageClass
	pk := check.PackNone
	switch v.Storage {
	case check.StoragePrivate:
		sc = spirv.StorageClassPrivate
	case check.StorageShared:
		sc = spirv.StorageClassWorkgroup
		if v.Type.Kind == check.KStruct && v.Type.Struct.Block {
			// GL_EXT_shared_memory_block: an explicitly laid out block.
			pk = packingOf(v, check.PackStd430)
			g.b.Capability(spirv.CapabilityWorkgroupMemoryExplicitLayoutKHR)
			g.b.Extension("SPV_KHR_workgroup_memory_explicit_layout")
		}
	case check.StorageBuffer:
		sc = spirv.StorageClassStorageBuffer
		if !g.storageBuffer {
			sc = spirv.StorageClassUniform
		}
		pk = packingOf(v, check.PackStd430)
	case check.StorageUniform:
		if opaqueOf(v.Type) != nil {
			g.resourceVar(v)
			return
		}
		switch b := baseOfArrays(v.Type); b.Kind {
		case check.KStruct:
			sc = spirv.StorageClassUniform
			pk = packingOf(v, check.PackStd140)
		case check.KTensorARM:
			sc = spirv.StorageClassUniformConstant
		default:
			g.fail(v.Pos, "uniform %s of type %s is not supported by the code generator", v.Name, v.Type)
		}
	case check.StoragePushConstant:
		sc = spirv.StorageClassPushConstant
		pk = packingOf(v, check.PackStd430)
	default:
		g.fail(v.Pos, "variable %s with storage %s is not supported by the code generator", v.Name, v.Storage)
	}
	if c := v.SpirvStorageClass; c != nil {
		g.spirvReqs(c.SpirvReqs)
		sc = spirv.StorageClass(c.Class)
	}
	if pk == check.PackScalar {
		g.b.Capability(spirv.CapabilityShader)
	}
	if v.Type.Kind == check.KArray && v.Type.IsUnsizedArray() {
		// A runtime-sized array of descriptors (GL_EXT_nonuniform_qualifier).
		g.b.Capability(spirv.CapabilityRuntimeDescriptorArray)
		if g.ver < 0x10500 {
			g.b.Extension("SPV_EXT_descriptor_indexing")
		}
	}
	tid := g.typeID(v.Type, pk)
	if st := baseOfArrays(v.Type); st.Kind == check.KStruct && st.Struct.Block {
		sid := g.typeID(st, pk)
		if v.Storage == check.StorageBuffer && !g.storageBuffer {
			g.b.Decorate(sid, spirv.DecorationBufferBlock)
		} else {
			g.b.Decorate(sid, spirv.DecorationBlock)
		}
	}
	if sc == spirv.StorageClassStorageBuffer && g.ver < 0x10300 {
		g.b.Extension("SPV_KHR_storage_buffer_storage_class")
	}
	g.memoryCaps(v.Type, sc, v.Storage == check.StorageBuffer)
	var init []uint32
	if _, ok := v.Init.(*check.NullInit); ok {
		init = []uint32{g.b.Const(spirv.OpConstantNull, g.typeID(v.Type, pk))}
	} else if v.Init != nil && sc == spirv.StorageClassPrivate {
		if c, ok := v.Init.(*check.Const); ok {
			init = []uint32{g.constValue(c.Val)}
		}
	}
	id := g.b.Variable(g.b.TypePointer(sc, tid), sc, init...)
	if v.Anonymous {
		g.b.Name(id, "")
	} else {
		g.b.Name(id, v.Name)
	}
	if sc == spirv.StorageClassStorageBuffer || sc == spirv.StorageClassUniform || sc == spirv.StorageClassUniformConstant {
		set, binding := v.Layout.Set, v.Layout.Binding
		if set < 0 {
			set = 0
		}
		g.b.Decorate(id, spirv.DecorationDescriptorSet, uint32(set))
		// Tensors without a binding get binding 0, as in glslang
		// (unless bindings are mapped automatically).
		if binding < 0 && !g.opts.AutoMapBindings && !g.p.HasExtension("GL_EXT_descriptor_heap") && baseOfArrays(v.Type).Kind == check.KTensorARM {
			binding = 0
		}
		if binding >= 0 {
			g.b.Decorate(id, spirv.DecorationBinding, uint32(binding))
		}
	}
	if v.Storage == check.StorageBuffer || v.Storage == check.StorageUniform {
		g.varMemory(id, v.Memory)
	}
	g.vars[v] = &varInfo{id: id, sc: sc, pk: pk, t: v.Type, bool32: pk != check.PackNone}
	g.addInterface(id, sc)
	if v.Init != nil && init == nil && sc == spirv.StorageClassPrivate {
		g.privateInits = append(g.privateInits, v)
	}
}

// packingOf is a block's packing, def when the shader gives none.
func packingOf(v *check.Var, def check.Packing) check.Packing {
	if v.Layout.Packing != check.PackNone {
		return v.Layout.Packing
	}
	if v.Type.Struct != nil && v.Type.Struct.Packing != check.PackNone {
		return v.Type.Struct.Packing
	}
	return def
}

func (g *gen) varMemory(id uint32, m check.MemoryQual) {
	if m&check.ReadOnly != 0 {
		g.b.Decorate(id, spirv.DecorationNonWritable)
	}
	if m&check.WriteOnly != 0 {
		g.b.Decorate(id, spirv.DecorationNonReadable)
	}
	if m&check.Coherent != 0 && !g.usesVulkanMemoryModel() {
		g.b.Decorate(id, spirv.DecorationCoherent)
	}
	if m&check.Restrict != 0 {
		g.b.Decorate(id, spirv.DecorationRestrict)
	}
}

// addInterface lists a global in the entry point's interface: inputs and
// outputs always, every global from SPIR-V 1.4 on.
func (g *gen) addInterface(id uint32, sc spirv.StorageClass) {
	if g.ifaceOK[id] {
		return
	}
	if sc == spirv.StorageClassInput || sc == spirv.StorageClassOutput || g.ver >= 0x10400 {
		g.ifaceOK[id] = true
		g.iface = append(g.iface, id)
	}
}

// specConst declares a specialization constant.
func (g *gen) specConst(v *check.Var) {
	g.valueCaps(v.Type)
	tid := g.typeID(v.Type, check.PackNone)
	// Keyed by type too: an int constant_id that also sizes the workgroup
	// needs a second, uint, spec constant with the same SpecId.
	key := "spec" + strconv.Itoa(v.SpecID) + "/" + strconv.Itoa(int(tid))
	if id, ok := g.types[key]; ok {
		g.vars[v] = &varInfo{id: id, t: v.Type}
		return
	}
	id := g.b.ID()
	val := v.Value
	switch {
	case v.Type.Scalar == check.Bool:
		op := spirv.OpSpecConstantFalse
		if val != nil && val.Bool() {
			op = spirv.OpSpecConstantTrue
		}
		g.b.Add(spirv.SecGlobal, op, tid, id)
	default:
		g.b.Add(spirv.SecGlobal, spirv.OpSpecConstant, append([]uint32{tid, id}, g.literalWords(val)...)...)
	}
	g.b.Decorate(id, spirv.DecorationSpecId, uint32(v.SpecID))
	g.b.Name(id, v.Name)
	g.types[key] = id
	g.vars[v] = &varInfo{id: id, t: v.Type}
}

// literalWords encodes a scalar value as the literal words of OpConstant.
func (g *gen) literalWords(v *check.Value) []uint32 {
	s := v.Type.Scalar
	var bits uint64
	switch {
	case s.IsInt() || s == check.Bool:
		bits = v.Bits
	case s == check.Float32:
		bits = uint64(math.Float32bits(float32(v.F)))
	case s == check.Float64:
		bits = math.Float64bits(v.F)
	case s == check.Float16:
		bits = glslangHalf(v.F)
	case s == check.BFloat16:
		// As glslang: the float32 value's high half (toward zero).
		bits = uint64(math.Float32bits(float32(v.F)) >> 16)
	case s == check.E5M2:
		bits = num.Encode(v.F, 5, 2, true)
	case s == check.E4M3:
		bits = num.Encode(v.F, 4, 3, false)
	case s == check.E3M2:
		bits = num.E3M2.Encode(v.F, num.NearestEven, false)
	case s == check.E2M3:
		bits = num.E2M3.Encode(v.F, num.NearestEven, false)
	case s == check.E2M1:
		bits = num.E2M1.Encode(v.F, num.NearestEven, false)
	case s == check.MXInt8:
		bits = num.EncodeMXInt8(v.F, num.NearestEven)
	case s == check.UE8M0:
		bits = num.EncodeE8M0(v.F)
	}
	switch s.Bits() {
	case 64:
		return []uint32{uint32(bits), uint32(bits >> 32)}
	case 32:
		return []uint32{uint32(bits)}
	case 16:
		if s.IsSigned() {
			return []uint32{uint32(int32(int16(bits)))}
		}
		return []uint32{uint32(bits & 0xffff)}
	}
	if s.IsSigned() {
		return []uint32{uint32(int32(int8(bits)))}
	}
	return []uint32{uint32(bits & 0xff)}
}

// glslangHalf is the fp16 encoding glslang gives a constant: the value
// rounded to float32, then toward zero to fp16; magnitudes from 2^16 up
// become infinities and NaNs the quiet NaN, keeping their sign.
func glslangHalf(f float64) uint64 {
	x := float64(float32(f))
	sign := uint64(0)
	if math.Signbit(x) {
		sign = 0x8000
	}
	switch {
	case math.IsNaN(x):
		return sign | 0x7e00
	case math.Abs(x) >= 65536:
		return sign | 0x7c00
	}
	return num.Float16.Encode(x, num.TowardZero, false)
}
