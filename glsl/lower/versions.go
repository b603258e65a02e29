package lower

import (
	"strconv"

	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/spirv"
)

// at records the source position being lowered (zero positions, from
// compiler-made nodes, keep the last real one).
func (g *gen) at(p check.Pos) {
	if p.Line > 0 {
		g.pos = p
	}
}

// capKey is the key of a capability in gen.firstUse.
func capKey(c spirv.Capability) string { return "capability " + strconv.Itoa(int(c)) }

// versionNeeds are the features that need a newer SPIR-V than the target
// may have, as spirv-val requires them: extensions, and the Vulkan memory
// model's capability (a function: its capability key is computed, which
// package init would otherwise do for every start of coop).
func versionNeeds() []versionNeed {
	return []versionNeed{
		{capKey(spirv.CapabilityVulkanMemoryModel), "the Vulkan memory model", spirv.MakeVersion(1, 3)},
		{"SPV_QCOM_cooperative_matrix_conversion", "SPV_QCOM_cooperative_matrix_conversion", spirv.MakeVersion(1, 3)},
		{"SPV_KHR_workgroup_memory_explicit_layout", "SPV_KHR_workgroup_memory_explicit_layout", spirv.MakeVersion(1, 4)},
		{"SPV_KHR_opacity_micromap", "SPV_KHR_opacity_micromap", spirv.MakeVersion(1, 4)},
	}
}

type versionNeed struct {
	key, name string
	min       spirv.Version
}

// checkVersionNeeds refuses a module that uses a feature its target's
// SPIR-V version lacks, at the source of its first use, instead of
// writing SPIR-V a validator rejects.
func (g *gen) checkVersionNeeds() {
	for _, n := range versionNeeds() {
		if pos, used := g.firstUse[n.key]; used && g.ver < n.min {
			g.fail(pos, "%s needs SPIR-V %s or later; the target environment %s gives SPIR-V %s", n.name, n.min, g.opts.TargetEnv, g.ver)
		}
	}
}
