package pp

import "sync"

// KnownExtensions lists the GLSL extensions coop recognises: "#extension"
// of any other name is an error with require and a warning otherwise.
// Most are also predefined as macros with the value 1, so shaders can test
// "#ifdef GL_KHR_cooperative_matrix"; the exceptions follow glslang (see
// notPredefined and from460).
var KnownExtensions = []string{
	"GL_AMD_gpu_shader_half_float",
	"GL_AMD_gpu_shader_int16",
	"GL_AMD_shader_ballot",
	"GL_ARB_compute_shader",
	"GL_ARB_gpu_shader_fp64",
	"GL_ARB_gpu_shader_int64",
	"GL_ARB_shader_ballot",
	"GL_ARB_shader_clock",
	"GL_ARB_shader_group_vote",
	"GL_ARB_shader_storage_buffer_object",
	"GL_ARB_sparse_texture2",
	"GL_ARB_sparse_texture_clamp",
	"GL_ARB_shading_language_include",
	"GL_ARM_cooperative_matrix_layouts",
	"GL_ARM_tensors",
	"GL_ARM_tensors_bfloat16",
	"GL_ARM_tensors_float_e4m3",
	"GL_ARM_tensors_float_e5m2",
	"GL_EXT_abort",
	"GL_EXT_bfloat16",
	"GL_EXT_buffer_reference",
	"GL_EXT_buffer_reference2",
	"GL_EXT_buffer_reference_uvec2",
	"GL_EXT_control_flow_attributes",
	"GL_EXT_control_flow_attributes2",
	"GL_EXT_debug_printf",
	"GL_EXT_demote_to_helper_invocation",
	"GL_EXT_descriptor_heap",
	"GL_EXT_device_group",
	"GL_EXT_expect_assume",
	"GL_EXT_float_e2m1",
	"GL_EXT_float_e2m3",
	"GL_EXT_float_e3m2",
	"GL_EXT_float_e4m3",
	"GL_EXT_integer_dot_product",
	"GL_EXT_float_e5m2",
	"GL_EXT_float_mxint8",
	"GL_EXT_long_vector",
	"GL_EXT_maximal_reconvergence",
	"GL_EXT_nonuniform_qualifier",
	"GL_EXT_null_initializer",
	"GL_EXT_opacity_micromap",
	"GL_EXT_opacity_micromap_ray_query_mode",
	"GL_EXT_ray_flags_primitive_culling",
	"GL_EXT_ray_query",
	"GL_EXT_ray_tracing_position_fetch",
	"GL_EXT_samplerless_texture_functions",
	"GL_EXT_scalar_block_layout",
	"GL_EXT_shader_16bit_storage",
	"GL_EXT_shader_64bit_indexing",
	"GL_EXT_shader_8bit_storage",
	"GL_EXT_shader_atomic_float",
	"GL_EXT_shader_atomic_float2",
	"GL_EXT_shader_atomic_int64",
	"GL_EXT_shader_explicit_arithmetic_types",
	"GL_EXT_shader_explicit_arithmetic_types_float16",
	"GL_EXT_shader_explicit_arithmetic_types_float32",
	"GL_EXT_shader_explicit_arithmetic_types_float64",
	"GL_EXT_shader_explicit_arithmetic_types_int16",
	"GL_EXT_shader_explicit_arithmetic_types_int32",
	"GL_EXT_shader_explicit_arithmetic_types_int64",
	"GL_EXT_shader_explicit_arithmetic_types_int8",
	"GL_EXT_shader_image_int64",
	"GL_EXT_shader_image_load_formatted",
	"GL_EXT_shader_implicit_conversions",
	"GL_EXT_shader_integer_mix",
	"GL_EXT_shader_realtime_clock",
	"GL_EXT_shader_subgroup_extended_types_float16",
	"GL_EXT_shader_subgroup_extended_types_int16",
	"GL_EXT_shader_subgroup_extended_types_int64",
	"GL_EXT_shader_subgroup_extended_types_int8",
	"GL_EXT_shared_memory_block",
	"GL_EXT_spec_constant_composites",
	"GL_EXT_spirv_intrinsics",
	"GL_EXT_split_barrier",
	"GL_EXT_structured_descriptor_heap",
	"GL_EXT_subgroup_uniform_control_flow",
	"GL_EXT_terminate_invocation",
	"GL_EXT_texture_shadow_lod",
	"GL_GOOGLE_cpp_style_line_directive",
	"GL_GOOGLE_include_directive",
	"GL_KHR_compute_shader_derivatives",
	"GL_KHR_cooperative_matrix",
	"GL_KHR_memory_scope_semantics",
	"GL_KHR_shader_subgroup_arithmetic",
	"GL_KHR_shader_subgroup_ballot",
	"GL_KHR_shader_subgroup_basic",
	"GL_KHR_shader_subgroup_clustered",
	"GL_KHR_shader_subgroup_quad",
	"GL_KHR_shader_subgroup_rotate",
	"GL_KHR_shader_subgroup_shuffle",
	"GL_KHR_shader_subgroup_shuffle_relative",
	"GL_KHR_shader_subgroup_vote",
	"GL_KHR_vulkan_glsl",
	"GL_NV_compute_shader_derivatives",
	"GL_NV_cooperative_matrix",
	"GL_NV_cooperative_matrix2",
	"GL_NV_cooperative_matrix_decode_vector",
	"GL_NV_cooperative_vector",
	"GL_NV_displacement_micromap",
	"GL_NV_gpu_shader5",
	"GL_NV_integer_cooperative_matrix",
	"GL_NV_shader_atomic_int64",
	"GL_NV_shader_subgroup_partitioned",
	"GL_QCOM_cooperative_matrix_conversion",
	"GL_QCOM_multiple_wait_queues",
	"GL_QCOM_tile_shading",
}

// notPredefined holds the known extensions that glslang (16.5) does not
// predefine as macros; defining them would make "#ifdef" take other
// branches than glslang does.
var notPredefined = map[string]bool{
	"GL_ARB_shader_clock":                    true,
	"GL_ARB_shading_language_include":        true,
	"GL_ARM_cooperative_matrix_layouts":      true,
	"GL_EXT_expect_assume":                   true,
	"GL_EXT_long_vector":                     true,
	"GL_EXT_opacity_micromap":                true,
	"GL_EXT_opacity_micromap_ray_query_mode": true,
	"GL_EXT_shader_implicit_conversions":     true,
	"GL_KHR_memory_scope_semantics":          true,
	"GL_KHR_shader_subgroup_rotate":          true,
	"GL_KHR_vulkan_glsl":                     true,
	"GL_NV_cooperative_vector":               true,
	"GL_NV_displacement_micromap":            true,
}

// from460 holds the extensions glslang predefines only for #version 460
// and later (desktop profiles).
var from460 = map[string]bool{
	"GL_ARM_tensors":            true,
	"GL_ARM_tensors_bfloat16":   true,
	"GL_ARM_tensors_float_e4m3": true,
	"GL_ARM_tensors_float_e5m2": true,
}

var knownSet = sync.OnceValue(func() map[string]bool {
	m := make(map[string]bool, len(KnownExtensions))
	for _, e := range KnownExtensions {
		m[e] = true
	}
	return m
})

func knownExtension(name string) bool { return knownSet()[name] }
