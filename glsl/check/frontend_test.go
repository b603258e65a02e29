package check

import (
	"github.com/coopshader/coop/glsl/diag"
	"github.com/coopshader/coop/glsl/pp"
	"github.com/coopshader/coop/glsl/syntax"
)

// frontEnd runs the preprocessor, parser and checker over src as glslang
// -V does.
func frontEnd(name string, src []byte) (*Program, *diag.List) {
	d := &diag.List{MaxErrors: 200}
	pre := pp.Preprocess(name, src, pp.Options{Vulkan: true}, d)
	if d.HasErrors() {
		return nil, d
	}
	f := syntax.Parse(pre.Tokens, d)
	if d.HasErrors() {
		return nil, d
	}
	return Check(pre, f, Options{Vulkan: true, TargetEnv: "vulkan1.3", AutoMapBindings: true}, d), d
}
