// Package validate checks SPIR-V modules against the rules of the SPIR-V
// specification, the Vulkan environment and the cooperative matrix, vector
// and tensor extensions coop implements, optionally against what one device
// supports (a profile.Profile).
//
// Validate runs structural passes first (header, operand forms, logical
// layout, ids, types, constants, decorations, functions and blocks, SSA
// dominance, structured control flow), which build one shared state; then
// one pass per instruction family (coopmat.go, coopvec.go, tensor.go, ...)
// reads that state. Each rule lives in one place. Like spirv-val, Validate
// stops at the first broken rule; later passes rely on what earlier ones
// established, so a module that passes them cannot make them fail
// internally.
package validate

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/coopshader/coop/profile"
	"github.com/coopshader/coop/spirv"
	"github.com/coopshader/coop/spirv/text"
)

// Options select the environment a module is checked for.
type Options struct {
	// TargetEnv is spirv-val's --target-env: "vulkan1.0" ... "vulkan1.4",
	// "spv1.0" ... "spv1.6" (also spelt "spirv1.X"), or "universal1.X".
	// "" is vulkan1.3.
	TargetEnv string
	// Profile, when set, adds the rules of the Vulkan runtime that depend
	// on the device: cooperative matrix shapes, cooperative vector
	// combinations, features and extensions.
	Profile *profile.Profile
	// ScalarBlockLayout, RelaxBlockLayout and UniformBufferStandardLayout
	// are spirv-val's flags of the same names. Vulkan 1.1 and later relax
	// the block layout by default, as spirv-val does.
	ScalarBlockLayout           bool
	RelaxBlockLayout            bool
	UniformBufferStandardLayout bool
	// BeforeHLSLLegalization is accepted for spirv-val compatibility; it
	// relaxes nothing coop checks.
	BeforeHLSLLegalization bool
	// EntryPoint names the GLCompute entry point a pipeline is made of:
	// the device rules (Profile) check its workgroup size. "" takes the
	// module's first.
	EntryPoint string
	// Spec, when not nil, validates the module as a pipeline specializes
	// it: each specialization constant has the value Spec gives its SpecId
	// (little-endian bytes, as backend.Dispatch.Spec) or else its default,
	// so the rules reading constants (workgroup size, cooperative matrix
	// and vector dimensions, array lengths, scopes) and the device rules
	// see those values, OpSpecConstantOp's integer and Boolean results
	// included. With Spec nil a specialization constant matches any value.
	Spec map[uint32][]byte
	// StructureOnly runs only the structural passes: header, operand
	// forms, logical layout, ids defined once and before use, types and
	// constants, functions, their blocks and CFG (merge instructions
	// where they belong), SSA dominance and OpPhi, and the core
	// instruction rules (result types are types, operands values, calls
	// match their functions).
	// It skips every rule that depends on the declared capabilities and
	// extensions or on the target environment (TargetEnv and Profile are
	// ignored; any SPIR-V 1.x version is taken), and the uniqueness of
	// non-aggregate types, which no consumer depends on. A module that passes can
	// be walked safely; the executor's Load runs this much on every
	// module it is not given a Result for.
	StructureOnly bool
}

// Error is one broken rule.
type Error struct {
	// Index is the instruction's index in Module.Insts, or -1 for the
	// header.
	Index int
	// Rule names the rule briefly ("coopmat.mul-add.shape").
	Rule string
	// Msg is the sentence spirv-val would print after "line N: ".
	Msg string
	// Inst is the disassembly of the offending instruction ("" for the
	// header).
	Inst string
}

// Error prints the message as spirv-val does: the line is the
// instruction's 1-based position in the module.
func (e *Error) Error() string {
	s := fmt.Sprintf("error: line %d: %s", e.Index+1, e.Msg)
	if e.Inst != "" {
		s += "\n  " + e.Inst
	}
	return s
}

// Result is what validation established, for later stages to reuse.
type Result struct {
	Layout *spirv.Layout
	// Types holds every type declared in the module, by id.
	Types map[uint32]*Type
	// Funcs holds the functions in module order.
	Funcs []*Func
	// EntryPoints are the OpEntryPoint instructions' function ids.
	EntryPoints []uint32
}

// Validate checks m. It returns the facts it established, or the first
// broken rule as an *Error.
func Validate(m *spirv.Module, opts Options) (*Result, error) {
	s, err := newState(m, opts)
	if err != nil {
		return nil, err
	}
	for _, p := range passes {
		if s.opts.StructureOnly && !p.structural {
			continue
		}
		if p.run(s); s.err != nil {
			return nil, s.finish()
		}
	}
	return s.result(), nil
}

// passes run in order; each reads what the earlier ones established.
// The structural ones are those Options.StructureOnly keeps.
var passes = []struct {
	run        func(*state)
	structural bool
}{
	{(*state).checkHeader, true},
	{(*state).checkOperands, true},
	{(*state).checkLayout, true},
	{(*state).collectDefs, true},
	{(*state).checkCapabilities, false},
	{(*state).collectSpecIDs, true},
	{(*state).checkTypes, true},
	{(*state).checkConstants, true},
	{(*state).checkDecorations, false},
	{(*state).buildFunctions, true},
	{(*state).checkCFG, true},
	{(*state).checkSSA, true},
	{(*state).checkCore, true},
	{(*state).checkStructured, false},
	{(*state).checkEntryPoints, false},
	{(*state).checkExecutionModes, false},
	{(*state).checkInstructions, false},
	{(*state).checkMemory, false},
	{(*state).checkBlockLayouts, false},
	{(*state).checkInt4, false},
	{(*state).checkProfile, false},
}

// finish fills in the disassembly of the offending instruction.
func (s *state) finish() error {
	e := s.err
	if e.Index >= 0 && e.Index < len(s.m.Insts) {
		e.Inst = disassembleOne(s.m, e.Index)
	}
	return e
}

// disassembleOne prints instruction i with the friendly names the whole
// module gives it, as spirv-val does. Literal strings may hold newlines,
// so the instruction's first line is found by counting them.
func disassembleOne(m *spirv.Module, i int) string {
	b, err := text.Disassemble(m, text.Options{NoHeader: true, NoIndent: true})
	if err != nil {
		part := &spirv.Module{Version: m.Version, Bound: m.Bound, Insts: m.Insts[:i+1]}
		if b, err = text.Disassemble(part, text.Options{NoHeader: true, NoIndent: true}); err != nil {
			return fmt.Sprintf("%s (%d operand words)", m.Insts[i].Op, len(m.Insts[i].Words))
		}
	}
	line := 0
	t := spirv.NewTypes()
	var ops []spirv.Operand
	for k := 0; k < i; k++ {
		in := &m.Insts[k]
		line++
		if ops, err = t.Operands(in, ops[:0]); err == nil {
			for _, o := range ops {
				if o.Kind == spirv.KindLiteralString {
					str, _, _ := spirv.DecodeString(in.Words[o.Offset : o.Offset+o.Count])
					line += strings.Count(str, "\n")
				}
			}
		}
		t.Record(in)
	}
	lines := bytes.SplitN(b, []byte("\n"), line+2)
	if line < len(lines) {
		return string(lines[line])
	}
	return m.Insts[i].Op.String()
}
