package compile

import (
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
	cpu "github.com/coopshader/coop/exec"
)

// TestCheckUndefinedBehaviour: with exec.Options.Check, reads of
// workgroup memory never written and data races on workgroup and storage
// memory are faults naming both invocations; correct shaders (a barrier
// between, atomics, each invocation its own element) pass.
func TestCheckUndefinedBehaviour(t *testing.T) {
	head := "#version 450\nlayout(local_size_x = 4) in;\nlayout(binding = 0) buffer B { uint v[]; };\n"
	for _, c := range []struct {
		name, body string
		groups     uint32
		want       string
	}{
		{"shared write-write", "shared uint s;\nvoid main() {\n  s = gl_LocalInvocationIndex;\n  barrier();\n  v[gl_LocalInvocationIndex] = s;\n}\n", 1,
			"c.comp:5: instruction %d (OpStore): invocation (1,0,0): address 0x200000000000000: undefined behaviour (--check): data race on workgroup memory: this invocation writes a byte that invocation (0,0,0) wrote"},
		{"shared read-write", "shared uint s[4];\nvoid main() {\n  uint i = gl_LocalInvocationIndex;\n  s[i] = i;\n  if (i > 0u) v[i] = s[i - 1u];\n}\n", 1,
			"data race on workgroup memory: this invocation reads a byte that invocation (0,0,0) wrote"},
		{"never written", "shared uint s[4];\nvoid main() {\n  uint i = gl_LocalInvocationIndex;\n  v[i] = s[i];\n}\n", 1,
			"reads workgroup memory that no invocation of the workgroup wrote"},
		{"storage across workgroups", "void main() {\n  v[0] = gl_WorkGroupID.x;\n}\n", 2,
			"data race on storage memory: this invocation writes a byte that invocation (0,0,0) wrote"},
		{"storage read-write", "void main() {\n  uint i = gl_GlobalInvocationID.x;\n  v[i] = v[(i + 1u) % 8u];\n}\n", 2,
			"data race on storage memory"},
		{"barrier between", "shared uint s[4];\nvoid main() {\n  uint i = gl_LocalInvocationIndex;\n  s[i] = i;\n  barrier();\n  v[gl_GlobalInvocationID.x] = s[(i + 1u) % 4u];\n  barrier();\n  s[i] = 0u;\n}\n", 2, ""},
		{"atomics", "void main() {\n  atomicAdd(v[0], 1u);\n}\n", 4, ""},
		{"own elements", "void main() {\n  uint i = gl_GlobalInvocationID.x;\n  v[i] = v[i] + i;\n}\n", 2, ""},
	} {
		m, d := Compile("c.comp", []byte(head+c.body), Options{Debug: true})
		if m == nil {
			t.Fatalf("%s: %v", c.name, d)
		}
		words, _ := m.Words()
		for _, check := range []bool{false, true} {
			dev := cpu.New(cpu.Options{Check: check})
			buf, _ := dev.NewBuffer(64, backend.UsageStorage)
			_, err := dev.Dispatch(&backend.Dispatch{Code: words, Entry: "main", Groups: [3]uint32{c.groups, 1, 1},
				Bindings: []backend.Binding{{Binding: 0, Buffer: buf}}})
			want := c.want
			if !check {
				want = ""
			}
			if i := strings.Index(want, "%d"); i >= 0 {
				want = want[i+len("%d):"):]
			}
			if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
				t.Errorf("%s (check %v): got %v, want %q", c.name, check, err, want)
			}
		}
	}
}
