package validate

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/coopshader/coop/profile"
	"github.com/coopshader/coop/spirv"
	"github.com/coopshader/coop/spirv/text"
)

// A test case is a SPIR-V text file in testdata/ whose comments say what
// validating it must give:
//
//	; ERROR: <regexp>    the message (without "error: line N: ") must match
//	; RULE: <name>       the Error.Rule reported (optional)
//	; VALID              the module must validate
//	; ENV: <env>         the target environment (default vulkan1.3)
//	; PROFILE: <name>    a device profile: a built-in name or a .json file
//	                     relative to testdata/
//	; SPEC: <text>       the specification text the rule comes from
//	; FLAGS: <flags>     spirv-val flags (--scalar-block-layout, ...)
//	; VERSION: <1.x>     the module's SPIR-V version (default: the env's)
//	; SPECIALIZE: <SpecId>=<value> ...
//	                     validate as specialized (Options.Spec; 32-bit
//	                     values); spirv-val is not asked

// With spirv-val present the test also runs it on each module and reports
// which rules coop checks that spirv-val does not.
type testCase struct {
	path, env, rule, spec, profile, version string
	flags                                   []string
	specialize                              map[uint32][]byte
	errRx                                   *regexp.Regexp
	valid                                   bool
}

func parseCase(t *testing.T, path string, src []byte) testCase {
	c := testCase{path: path, env: "vulkan1.3"}
	for _, l := range strings.Split(string(src), "\n") {
		l = strings.TrimSpace(l)
		key, val, ok := strings.Cut(strings.TrimPrefix(l, ";"), ":")
		if !strings.HasPrefix(l, ";") {
			continue
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		switch {
		case key == "VALID" && !ok:
			c.valid = true
		case !ok:
		case key == "ERROR":
			c.errRx = regexp.MustCompile(val)
		case key == "RULE":
			c.rule = val
		case key == "ENV":
			c.env = val
		case key == "SPEC":
			c.spec = val
		case key == "PROFILE":
			c.profile = val
		case key == "VERSION":
			c.version = val
		case key == "FLAGS":
			c.flags = strings.Fields(val)
		case key == "SPECIALIZE":
			c.specialize = map[uint32][]byte{}
			for _, f := range strings.Fields(val) {
				var id, v uint32
				if _, err := fmt.Sscanf(f, "%d=%d", &id, &v); err != nil {
					t.Fatalf("%s: bad SPECIALIZE %s", path, f)
				}
				c.specialize[id] = []byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)}
			}
		}
	}
	if c.errRx == nil && !c.valid {
		t.Fatalf("%s: no ; ERROR: or ; VALID line", path)
	}
	if c.errRx != nil && c.spec == "" {
		t.Errorf("%s: a negative test cites its rule's specification text (; SPEC:)", path)
	}
	return c
}

func (c testCase) options(t *testing.T) Options {
	o := Options{TargetEnv: c.env, Spec: c.specialize}
	for _, f := range c.flags {
		switch f {
		case "--scalar-block-layout":
			o.ScalarBlockLayout = true
		case "--relax-block-layout":
			o.RelaxBlockLayout = true
		case "--uniform-buffer-standard-layout":
			o.UniformBufferStandardLayout = true
		default:
			t.Fatalf("%s: unknown flag %s", c.path, f)
		}
	}
	if c.profile != "" {
		name := c.profile
		if strings.HasSuffix(name, ".json") {
			name = filepath.Join("testdata", name)
		}
		p, err := profile.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		o.Profile = p
	}
	return o
}

func assembleCase(t *testing.T, c testCase, src []byte) *spirv.Module {
	e, ok := parseEnv(c.env)
	if !ok {
		t.Fatalf("%s: bad ENV %s", c.path, c.env)
	}
	v := e.version
	if c.version != "" {
		var minor int
		if _, err := fmt.Sscanf(c.version, "1.%d", &minor); err != nil {
			t.Fatalf("%s: bad VERSION %s", c.path, c.version)
		}
		v = spirv.MakeVersion(1, minor)
	}
	m, err := text.AssembleOptions(src, c.path, text.AsmOptions{Version: v})
	if err != nil {
		t.Fatalf("%s: %v", c.path, err)
	}
	return m
}

// TestRules runs every testdata/*.spvasm case.
func TestRules(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.spvasm"))
	if err != nil || len(files) == 0 {
		t.Fatal("no test cases")
	}
	var onlyCoop, both, refPresent int
	rules := map[string]bool{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c := parseCase(t, f, src)
		t.Run(filepath.Base(f), func(t *testing.T) {
			m := assembleCase(t, c, src)
			_, err := Validate(m, c.options(t))
			if c.valid {
				if err != nil {
					t.Fatalf("want valid, got %v", err)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("want an *Error matching %q, got %v", c.errRx, err)
			}
			if !c.errRx.MatchString(e.Msg) {
				t.Errorf("message %q does not match %q", e.Msg, c.errRx)
			}
			if c.rule != "" && e.Rule != c.rule {
				t.Errorf("rule %q, want %q", e.Rule, c.rule)
			}
			if e.Inst == "" && e.Index >= 0 {
				t.Errorf("no disassembly of the offending instruction")
			}
			rules[e.Rule] = true
			if c.profile != "" || c.specialize != nil {
				return // spirv-val knows no devices, and does not specialize
			}
			ok, out, present := refVal(t, m, c.env, c.flags...)
			if !present {
				return
			}
			refPresent++
			if ok {
				onlyCoop++
				t.Logf("spirv-val accepts it: coop checks %s, spirv-val does not", e.Rule)
			} else {
				both++
				t.Logf("spirv-val rejects it too: %s", firstLine(out))
			}
		})
	}
	t.Logf("%d negative rules tested; with spirv-val: %d rejected by both, %d only by coop (of %d compared)", len(rules), both, onlyCoop, refPresent)
}

// TestErrorFormat: messages print as spirv-val's, with the 1-based
// instruction number and the offending instruction's disassembly.
func TestErrorFormat(t *testing.T) {
	src := []byte(`OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%c = OpConstant %int 1
%main = OpFunction %void None %fn
%l = OpLabel
%a = OpFAdd %float %c %c
OpReturn
OpFunctionEnd
`)
	m, err := text.Assemble(src, "t")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Validate(m, Options{})
	want := "error: line 12: Expected arithmetic operands to be of Result Type: FAdd operand index 2\n  %8 = OpFAdd %float %int_1 %int_1"
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
	// A literal string with newlines before it does not shift the line shown.
	src2 := spirv.Inst{Op: spirv.OpSourceExtension, Words: spirv.AppendString(nil, "a\nb\nc")}
	m.Insts = append(m.Insts[:4], append([]spirv.Inst{src2}, m.Insts[4:]...)...)
	_, err = Validate(m, Options{})
	if want := strings.Replace(want, "line 12", "line 13", 1); err == nil || err.Error() != want {
		t.Errorf("after a multi-line OpSourceExtension: got\n%v\nwant\n%s", err, want)
	}
}
