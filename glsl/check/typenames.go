package check

import (
	"strconv"
)

// typeNames maps every built-in type keyword of scalars, vectors and
// matrices to its type.
var typeNames map[string]*Type // made by loadTables

// typeNameExt lists, for type keywords that need one, the extensions any of
// which enables them.
var typeNameExt map[string][]string // made by loadTables

var (
	extInt8  = []string{"GL_EXT_shader_explicit_arithmetic_types", "GL_EXT_shader_explicit_arithmetic_types_int8", "GL_EXT_shader_8bit_storage", "GL_EXT_shader_subgroup_extended_types_int8"}
	extInt16 = []string{"GL_EXT_shader_explicit_arithmetic_types", "GL_EXT_shader_explicit_arithmetic_types_int16", "GL_EXT_shader_16bit_storage", "GL_AMD_gpu_shader_int16", "GL_EXT_shader_subgroup_extended_types_int16"}
	extInt64 = []string{"GL_EXT_shader_explicit_arithmetic_types", "GL_EXT_shader_explicit_arithmetic_types_int64", "GL_ARB_gpu_shader_int64", "GL_EXT_shader_subgroup_extended_types_int64"}
	extF16   = []string{"GL_EXT_shader_explicit_arithmetic_types", "GL_EXT_shader_explicit_arithmetic_types_float16", "GL_EXT_shader_16bit_storage", "GL_AMD_gpu_shader_half_float", "GL_EXT_shader_subgroup_extended_types_float16"}
	extF32   = []string{"GL_EXT_shader_explicit_arithmetic_types", "GL_EXT_shader_explicit_arithmetic_types_float32"}
	extF64   = []string{"GL_EXT_shader_explicit_arithmetic_types", "GL_EXT_shader_explicit_arithmetic_types_float64"}
	extI32   = []string{"GL_EXT_shader_explicit_arithmetic_types", "GL_EXT_shader_explicit_arithmetic_types_int32"}

	extE2M1   = []string{"GL_EXT_float_e2m1"}
	extE2M3   = []string{"GL_EXT_float_e2m3"}
	extE3M2   = []string{"GL_EXT_float_e3m2"}
	extMXInt8 = []string{"GL_EXT_float_mxint8"}
	extUE8M0  = []string{"GL_EXT_float_ue8m0"}
)

func addScalarNames(s Scalar, scalar, vecPrefix string, ext []string) {
	typeNames[scalar] = ScalarType(s)
	if ext != nil {
		typeNameExt[scalar] = ext
	}
	if vecPrefix == "" {
		return
	}
	for n := 2; n <= 4; n++ {
		name := vecPrefix + "vec" + strconv.Itoa(n)
		typeNames[name] = VectorType(s, n)
		if ext != nil {
			typeNameExt[name] = ext
		}
	}
}

func addMatNames(s Scalar, prefix string, ext []string) {
	for c := 2; c <= 4; c++ {
		for r := 2; r <= 4; r++ {
			name := prefix + "mat" + strconv.Itoa(c) + "x" + strconv.Itoa(r)
			typeNames[name] = MatrixType(s, c, r)
			if ext != nil {
				typeNameExt[name] = ext
			}
			if c == r {
				name = prefix + "mat" + strconv.Itoa(c)
				typeNames[name] = MatrixType(s, c, r)
				if ext != nil {
					typeNameExt[name] = ext
				}
			}
		}
	}
}

func defineTypeNames() {
	typeNames["void"] = TVoid
	addScalarNames(Bool, "bool", "b", nil)
	addScalarNames(Int32, "int", "i", nil)
	addScalarNames(Uint32, "uint", "u", nil)
	addScalarNames(Float32, "float", "", nil)
	for n := 2; n <= 4; n++ {
		typeNames["vec"+strconv.Itoa(n)] = VectorType(Float32, n)
	}
	addScalarNames(Float64, "double", "d", nil)
	addMatNames(Float32, "", nil)
	addMatNames(Float64, "d", nil)
	addScalarNames(Int8, "int8_t", "i8", extInt8)
	addScalarNames(Uint8, "uint8_t", "u8", extInt8)
	addScalarNames(Int16, "int16_t", "i16", extInt16)
	addScalarNames(Uint16, "uint16_t", "u16", extInt16)
	addScalarNames(Int32, "int32_t", "i32", extI32)
	addScalarNames(Uint32, "uint32_t", "u32", extI32)
	addScalarNames(Int64, "int64_t", "i64", extInt64)
	addScalarNames(Uint64, "uint64_t", "u64", extInt64)
	addScalarNames(Float16, "float16_t", "f16", extF16)
	addScalarNames(Float32, "float32_t", "f32", extF32)
	addScalarNames(Float64, "float64_t", "f64", extF64)
	addMatNames(Float16, "f16", extF16)
	addMatNames(Float32, "f32", extF32)
	addMatNames(Float64, "f64", extF64)
	addScalarNames(BFloat16, "bfloat16_t", "bf16", []string{"GL_EXT_bfloat16"})
	addScalarNames(E5M2, "floate5m2_t", "fe5m2", []string{"GL_EXT_float_e5m2"})
	addScalarNames(E4M3, "floate4m3_t", "fe4m3", []string{"GL_EXT_float_e4m3"})
	addScalarNames(E2M1, "floate2m1_t", "fe2m1", extE2M1)
	addScalarNames(E2M3, "floate2m3_t", "fe2m3", extE2M3)
	addScalarNames(E3M2, "floate3m2_t", "fe3m2", extE3M2)
	addScalarNames(MXInt8, "floatmxint8_t", "fmxint8", extMXInt8)
	addScalarNames(UE8M0, "floatue8m0_t", "fue8m0", extUE8M0)
}
