package spirv

// TargetVersion maps a target environment, as glslangValidator's
// --target-env names it (vulkan1.0 ... vulkan1.4, spirv1.0 ... spirv1.6),
// to the SPIR-V version a module for it has. "" is vulkan1.0.
func TargetVersion(env string) (Version, bool) {
	switch env {
	case "", "vulkan1.0", "spirv1.0":
		return MakeVersion(1, 0), true
	case "spirv1.1":
		return MakeVersion(1, 1), true
	case "spirv1.2":
		return MakeVersion(1, 2), true
	case "vulkan1.1", "spirv1.3":
		return MakeVersion(1, 3), true
	case "spirv1.4":
		return MakeVersion(1, 4), true
	case "vulkan1.2", "spirv1.5":
		return MakeVersion(1, 5), true
	case "vulkan1.3", "vulkan1.4", "spirv1.6":
		return MakeVersion(1, 6), true
	}
	return 0, false
}
