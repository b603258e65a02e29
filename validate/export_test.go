package validate

import (
	"testing"

	"github.com/coopshader/coop/spirv"
	"github.com/coopshader/coop/spirv/text"
)

// SeedModule assembles the test case at path for the SPIR-V version of its
// ENV, for FuzzValidate's seeds: the fuzzer lives in package validate_test
// because it loads modules in exec, which may come to import validate.
func SeedModule(path string, src []byte) (*spirv.Module, error) {
	c := parseCase(&testing.T{}, path, src)
	e, _ := parseEnv(c.env)
	return text.AssembleOptions(src, path, text.AsmOptions{Version: e.version})
}
