package check

import (
	"strings"
	"testing"
)

func TestControlFlowHints(t *testing.T) {
	const h = "#version 450\n#extension GL_EXT_control_flow_attributes : require\nlayout(local_size_x = 1) in;\n"
	prog, out := checkSrc(t, h+"void main() { [[unroll, dependency_length(3), max_iterations(5)]] for (int i = 0; i < 4; i++) {}\n"+
		"[[dont_flatten]] switch (1) { default: break; } }")
	if out != "" {
		t.Fatal(out)
	}
	body := prog.Main.Body.Stmts
	f := body[0].(*For)
	if f.Hints == nil || !f.Hints.Unroll || f.Hints.Dependency != 3 || f.Hints.MaxIterations != 5 || f.Hints.MinIterations != 0 {
		t.Errorf("for hints %+v", f.Hints)
	}
	if sw := body[1].(*Switch); !sw.Hints.DontFlatten || sw.Hints.Flatten {
		t.Errorf("switch hints %+v", sw.Hints)
	}
	for _, tc := range []struct{ src, want string }{
		{"void main() { [[dependency_length(0)]] for (;;) {} }", "t.comp:4: 'dependency_length' : must be positive"},
		{"void main() { [[iteration_multiple(0)]] while (true) {} }", "t.comp:4: 'iteration_multiple' : must be greater than or equal to 1"},
		{"void main() { [[unroll(2)]] for (;;) {} }", "WARNING: t.comp:4: 'unroll' : expected no arguments"},
		{"void main() { [[unroll]] if (true) {} }", "WARNING: t.comp:4: '' : attribute does not apply to a selection"},
	} {
		if _, out := checkSrc(t, h+tc.src); !strings.Contains(out, tc.want) {
			t.Errorf("%s:\n%s\nwant %q", tc.src, out, tc.want)
		}
	}
}
