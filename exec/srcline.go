package exec

import (
	"strconv"

	"github.com/coopshader/coop/spirv"
)

// sourceLine is "file:line" of the line in effect at instruction index of
// m, or "" where none is. Compilers write lines with -g (OpLine) or -gV
// (NonSemantic.Shader.DebugInfo.100's DebugLine, whose operands are ids of
// a DebugSource and of integer constants). A line holds until the next
// line, OpNoLine or DebugNoLine, or the end of its block.
func sourceLine(m *spirv.Module, index int) string {
	if index < 0 || index >= len(m.Insts) {
		return ""
	}
	strs := map[uint32]string{}   // OpString, and DebugSource by its file's
	consts := map[uint32]uint32{} // 32-bit integer constants
	debugSets := map[uint32]bool{}
	file, line := "", uint32(0)
	for _, in := range m.Insts[:index+1] {
		w := in.Words
		switch in.Op {
		case spirv.OpString:
			if s, _, ok := in.String(1); ok && len(w) > 0 {
				strs[w[0]] = s
			}
		case spirv.OpExtInstImport:
			if s, _, ok := in.String(1); ok && len(w) > 0 && (s == "NonSemantic.Shader.DebugInfo.100" || s == "NonSemantic.Shader.DebugInfo.101") {
				debugSets[w[0]] = true
			}
		case spirv.OpConstant:
			if len(w) == 3 {
				consts[w[1]] = w[2]
			}
		case spirv.OpExtInst:
			if len(w) < 4 || !debugSets[w[2]] {
				break
			}
			switch ops := w[4:]; w[3] {
			case spirv.ShaderDebugInfoDebugSource:
				if len(ops) > 0 {
					if s, ok := strs[ops[0]]; ok {
						strs[w[1]] = s
					}
				}
			case spirv.ShaderDebugInfoDebugLine:
				if len(ops) >= 2 {
					file, line = strs[ops[0]], consts[ops[1]]
				}
			case spirv.ShaderDebugInfoDebugNoLine:
				file, line = "", 0
			}
		case spirv.OpLine:
			if len(w) >= 2 {
				file, line = strs[w[0]], w[1]
			}
		case spirv.OpNoLine, spirv.OpLabel, spirv.OpFunctionEnd:
			file, line = "", 0
		}
	}
	if file == "" {
		return ""
	}
	return file + ":" + strconv.FormatUint(uint64(line), 10)
}
