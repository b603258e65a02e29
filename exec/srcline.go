package exec

import (
	"strconv"

	"github.com/coopshader/coop/spirv"
)

// sourceLine is "file:line" of the OpLine in effect at instruction index
// of m (compilers write them with -g), or "" where none is. A line holds
// until the next OpLine or OpNoLine or the end of its block.
func sourceLine(m *spirv.Module, index int) string {
	if index < 0 || index >= len(m.Insts) {
		return ""
	}
	var files map[uint32]string
	file, line := "", uint32(0)
	for _, in := range m.Insts[:index+1] {
		switch in.Op {
		case spirv.OpString:
			if s, _, ok := in.String(1); ok && len(in.Words) > 0 {
				if files == nil {
					files = map[uint32]string{}
				}
				files[in.Words[0]] = s
			}
		case spirv.OpLine:
			if len(in.Words) >= 2 {
				file, line = files[in.Words[0]], in.Words[1]
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
