package icd

import (
	"unsafe"

	"github.com/coopshader/coop/icd/vkt"
)

// The executor multiplies cooperative matrices of any shape and types; the
// driver lists the shapes kernels commonly ask for (those of NVIDIA's
// tensor cores, which llama.cpp's and others' kernels are written for).
type matShape struct {
	m, n, k       uint32
	a, b, c, r    vkt.ComponentTypeKHR
	sat           bool
	workgroupSize uint32 // workgroup scope: invocations; 0 for subgroup scope
}

const (
	f16  = vkt.ComponentTypeFloat16KHR
	f32  = vkt.ComponentTypeFloat32KHR
	bf16 = vkt.ComponentTypeBfloat16KHR
	s8   = vkt.ComponentTypeSint8KHR
	u8   = vkt.ComponentTypeUint8KHR
	s32  = vkt.ComponentTypeSint32KHR
	u32  = vkt.ComponentTypeUint32KHR
	e4m3 = vkt.ComponentTypeFloat8E4m3EXT
	e5m2 = vkt.ComponentTypeFloat8E5m2EXT

	scopeSubgroup  = vkt.ScopeSubgroupKHR
	scopeWorkgroup = vkt.ScopeWorkgroupKHR
)

var matShapes = func() []matShape {
	var out []matShape
	add := func(a, c, r vkt.ComponentTypeKHR, mnk ...[3]uint32) {
		for _, s := range mnk {
			out = append(out, matShape{m: s[0], n: s[1], k: s[2], a: a, b: a, c: c, r: r})
		}
	}
	add(f16, f16, f16, [3]uint32{16, 16, 16}, [3]uint32{16, 8, 16}, [3]uint32{16, 8, 8})
	add(f16, f32, f32, [3]uint32{16, 16, 16}, [3]uint32{16, 8, 16}, [3]uint32{16, 8, 8})
	add(bf16, f32, f32, [3]uint32{16, 16, 16}, [3]uint32{16, 8, 16})
	add(f32, f32, f32, [3]uint32{16, 16, 8}, [3]uint32{16, 8, 8})
	add(s8, s32, s32, [3]uint32{16, 16, 32}, [3]uint32{16, 8, 32})
	add(u8, u32, u32, [3]uint32{16, 16, 32}, [3]uint32{16, 8, 32})
	add(e4m3, f32, f32, [3]uint32{16, 16, 32}, [3]uint32{16, 8, 32})
	add(e5m2, f32, f32, [3]uint32{16, 16, 32}, [3]uint32{16, 8, 32})
	add(e4m3, f16, f16, [3]uint32{16, 16, 32})
	return out
}()

// flexShapes are VK_NV_cooperative_matrix2's flexible dimensions: any
// multiple of 16 in M, N and K, at subgroup scope and at workgroup scope
// for workgroups of 128 and 256 invocations.
var flexShapes = func() []matShape {
	var out []matShape
	for _, t := range [][3]vkt.ComponentTypeKHR{{f16, f16, f16}, {f16, f32, f32}, {bf16, f16, f16}, {bf16, f32, f32}, {e4m3, f32, f32}, {s8, s32, s32}} {
		for _, wg := range []uint32{0, 128, 256} {
			out = append(out, matShape{m: 16, n: 16, k: 16, a: t[0], b: t[0], c: t[1], r: t[2], workgroupSize: wg})
		}
	}
	return out
}()

func GetPhysicalDeviceCooperativeMatrixPropertiesKHR(physicalDevice uintptr, pCount, pProps unsafe.Pointer) int32 {
	all := make([]vkt.CooperativeMatrixPropertiesKHR, len(matShapes))
	for i, s := range matShapes {
		all[i] = vkt.CooperativeMatrixPropertiesKHR{SType: vkt.StructureTypeCooperativeMatrixPropertiesKHR,
			MSize: s.m, NSize: s.n, KSize: s.k, AType: s.a, BType: s.b, CType: s.c, ResultType: s.r, Scope: scopeSubgroup}
	}
	return enumerateKeepNext(pCount, pProps, all, func(p *vkt.CooperativeMatrixPropertiesKHR) *unsafe.Pointer { return &p.PNext })
}

func GetPhysicalDeviceCooperativeMatrixPropertiesNV(physicalDevice uintptr, pCount, pProps unsafe.Pointer) int32 {
	var all []vkt.CooperativeMatrixPropertiesNV
	for _, s := range matShapes {
		if s.a == bf16 || s.a == e4m3 || s.a == e5m2 {
			continue // VK_NV_cooperative_matrix predates these types
		}
		all = append(all, vkt.CooperativeMatrixPropertiesNV{SType: vkt.StructureTypeCooperativeMatrixPropertiesNV,
			MSize: s.m, NSize: s.n, KSize: s.k, AType: s.a, BType: s.b, CType: s.c, DType: s.r, Scope: scopeSubgroup})
	}
	return enumerateKeepNext(pCount, pProps, all, func(p *vkt.CooperativeMatrixPropertiesNV) *unsafe.Pointer { return &p.PNext })
}

func GetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV(physicalDevice uintptr, pCount, pProps unsafe.Pointer) int32 {
	all := make([]vkt.CooperativeMatrixFlexibleDimensionsPropertiesNV, len(flexShapes))
	for i, s := range flexShapes {
		scope, inv := scopeSubgroup, uint32(defaultSubgroup)
		if s.workgroupSize != 0 {
			scope, inv = scopeWorkgroup, s.workgroupSize
		}
		all[i] = vkt.CooperativeMatrixFlexibleDimensionsPropertiesNV{SType: vkt.StructureTypeCooperativeMatrixFlexibleDimensionsPropertiesNV,
			MGranularity: s.m, NGranularity: s.n, KGranularity: s.k, AType: s.a, BType: s.b, CType: s.c, ResultType: s.r,
			Scope: scope, WorkgroupInvocations: inv}
	}
	return enumerateKeepNext(pCount, pProps, all, func(p *vkt.CooperativeMatrixFlexibleDimensionsPropertiesNV) *unsafe.Pointer { return &p.PNext })
}

// Cooperative-vector combinations: float16 inputs with float16 or float8
// matrices into float16 or float32, float32 throughout, and signed 8-bit
// (also packed) into sint32.
var vecCombos = [][5]vkt.ComponentTypeKHR{
	{f16, f16, f16, f16, f16},
	{f16, f16, f16, f32, f32},
	{f16, f16, f32, f32, f32},
	{f16, e4m3, e4m3, f16, f16},
	{f16, e5m2, e5m2, f16, f16},
	{f32, f32, f32, f32, f32},
	{f32, f16, f16, f16, f16},
	{f32, e4m3, e4m3, f16, f16},
	{s8, s8, s8, s32, s32},
	{vkt.ComponentTypeSint8PackedNV, s8, s8, s32, s32},
	{s32, s8, s8, s32, s32},
	{u32, s8, s8, s32, s32},
}

func GetPhysicalDeviceCooperativeVectorPropertiesNV(physicalDevice uintptr, pCount, pProps unsafe.Pointer) int32 {
	all := vecCombinations()
	return enumerateKeepNext(pCount, pProps, all, func(p *vkt.CooperativeVectorPropertiesNV) *unsafe.Pointer { return &p.PNext })
}

func vecCombinations() []vkt.CooperativeVectorPropertiesNV {
	var all []vkt.CooperativeVectorPropertiesNV
	for _, c := range vecCombos {
		for _, tr := range []uint32{0, 1} {
			if tr == 1 && c[2] != f16 && c[2] != f32 {
				continue // transposed matrices only for float16 and float32 (training)
			}
			all = append(all, vkt.CooperativeVectorPropertiesNV{SType: vkt.StructureTypeCooperativeVectorPropertiesNV,
				InputType: c[0], InputInterpretation: c[1], MatrixInterpretation: c[2], BiasInterpretation: c[3],
				ResultType: c[4], Transpose: vkt.Bool32(tr)})
		}
	}
	return all
}

// enumerateKeepNext is enumerate for structures with a pNext member, which
// stays the application's.
func enumerateKeepNext[T any](count, items unsafe.Pointer, all []T, next func(*T) *unsafe.Pointer) int32 {
	if items != nil && count != nil {
		dst := unsafe.Slice((*T)(items), min(int(*(*uint32)(count)), len(all)))
		for i := range dst {
			*next(&all[i]) = *next(&dst[i])
		}
	}
	return enumerate(count, items, all)
}
