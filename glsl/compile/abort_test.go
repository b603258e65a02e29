package compile

import (
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
	cpu "github.com/coopshader/coop/exec"
)

// abortEXT compiles (validated by spirv-val) and aborts the dispatch on
// the executor with the formatted message of the invocation that reached
// it; code after it in the same block is unreachable.
func TestAbortRuns(t *testing.T) {
	for _, tc := range []struct{ call, want string }{
		{`abortEXT("stop at %u with %d", gl_GlobalInvocationID.x, -5);`, `"stop at 3 with -5"`},
		{`abortEXT("v=%v3u f=%f", uvec3(1, 2, 3), 0.5);`, `"v=1, 2, 3 f=0.500000"`},
		{`abortEXT("no format");`, `"no format"`},
		{`abortEXT();`, `""`},
	} {
		src := `#version 450
#extension GL_EXT_abort : require
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer B { uint v[]; };
void main() {
	v[gl_GlobalInvocationID.x] = 1u;
	if (gl_GlobalInvocationID.x == 3u) {
		` + tc.call + `
		v[gl_GlobalInvocationID.x] = 2u;
	}
}
`
		words := vulkanWords(t, "t.comp", src)
		dev := cpu.New(cpu.Options{})
		buf, _ := dev.NewBuffer(32, backend.UsageStorage)
		_, err := dev.Dispatch(&backend.Dispatch{Code: words, Entry: "main", Groups: [3]uint32{1, 1, 1},
			Bindings: []backend.Binding{{Binding: 0, Buffer: buf}}})
		if err == nil || !strings.Contains(err.Error(), "invocation (3,0,0)") || !strings.Contains(err.Error(), "the shader aborted: "+tc.want) {
			t.Errorf("%s: dispatch error %v, want an abort of invocation 3 with %s", tc.call, err, tc.want)
		}
	}
}
