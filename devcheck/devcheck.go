// Package devcheck checks a SPIR-V module against one device's profile:
// the Vulkan runtime rules (appendix "Vulkan Environment for SPIR-V",
// VUID-RuntimeSpirv-*) whose answer depends on what the device reports —
// cooperative-matrix shapes and types, flexible dimensions and workgroup
// scope, cooperative-vector type combinations, component limits and
// training accumulation. Each rule lives in one place here; the Vulkan
// backend runs Check before a dispatch, the CPU executor runs it when
// asked to behave as a device (coop run --profile), and the validator
// (coop val --device) can call it for the device part of its checks.
//
// Check reads only what it needs: types, constants (spec constants at
// their default values unless Options.Spec overrides them), the entry
// point's local size and the instructions the rules name.
package devcheck

import (
	"fmt"
	"slices"
	"strings"

	"github.com/coopshader/coop/profile"
	"github.com/coopshader/coop/spirv"
)

// Error is one broken rule at one instruction.
type Error struct {
	Inst int    // index of the instruction in the module
	Op   string // the instruction's name, e.g. "OpCooperativeVectorMatrixMulNV"
	ID   uint32 // its result id, 0 when it has none
	VUID string // the rule, e.g. "VUID-RuntimeSpirv-OpCooperativeVectorMatrixMulNV-10089"
	Msg  string
}

func (e *Error) Error() string {
	at := e.Op
	if e.ID != 0 {
		at += fmt.Sprintf(" %%%d", e.ID)
	}
	return fmt.Sprintf("error: instruction %d: %s: %s (%s)", e.Inst, at, e.Msg, e.VUID)
}

// Errors is every broken rule, in module order.
type Errors []*Error

func (es Errors) Error() string {
	var b strings.Builder
	for i, e := range es {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Options says which entry point the module is dispatched with and how
// its specialization constants are set.
type Options struct {
	// Entry names the GLCompute entry point; "" takes the first.
	Entry string
	// Spec overrides specialization constants by SpecId (little-endian
	// bytes, as backend.Dispatch.Spec).
	Spec map[uint32][]byte
}

// Check returns the rules of profile p that module m breaks, nil when
// none. The device name in messages is p.Name.
func Check(m *spirv.Module, p *profile.Profile, opts Options) error {
	f := gather(m, opts)
	c := &checker{m: m, p: p, f: f}
	c.coopMat()
	c.coopVec()
	c.limits()
	if len(c.errs) == 0 {
		return nil
	}
	return c.errs
}

type checker struct {
	m    *spirv.Module
	p    *profile.Profile
	f    *facts
	errs Errors
}

func (c *checker) fail(i int, vuid, format string, args ...any) {
	in := &c.m.Insts[i]
	op := in.Op.String()
	if in.Op == spirv.OpTypeCooperativeVectorNV {
		op = "OpTypeCooperativeVectorNV" // the grammar's first name is SPV_EXT_long_vector's
	}
	c.errs = append(c.errs, &Error{Inst: i, Op: op, ID: in.ResultID(), VUID: "VUID-RuntimeSpirv-" + vuid,
		Msg: fmt.Sprintf(format, args...)})
}

// facts are what the rules need to know about the module.
type facts struct {
	defs     map[uint32]int    // result id -> instruction index
	consts   map[uint32]uint64 // scalar constants (spec constants at their value)
	specID   map[uint32]uint32 // id -> SpecId
	local    [3]uint64         // the entry point's local size; 0 when unknown
	hasLocal bool
	localAt  int // the instruction that sets the local size
}

func gather(m *spirv.Module, opts Options) *facts {
	f := &facts{defs: map[uint32]int{}, consts: map[uint32]uint64{}, specID: map[uint32]uint32{}}
	entry := uint32(0)
	var localIDs []uint32
	var wgSize uint32
	for i := range m.Insts {
		in := &m.Insts[i]
		if id := in.ResultID(); id != 0 {
			f.defs[id] = i
		}
		w := in.Words
		switch in.Op {
		case spirv.OpEntryPoint:
			if len(w) >= 3 && w[0] == uint32(spirv.ExecutionModelGLCompute) && entry == 0 {
				if name, _, _ := in.String(2); opts.Entry == "" || name == opts.Entry {
					entry = w[1]
				}
			}
		case spirv.OpDecorate:
			if len(w) >= 3 && w[1] == uint32(spirv.DecorationSpecId) {
				f.specID[w[0]] = w[2]
			}
			if len(w) >= 3 && w[1] == uint32(spirv.DecorationBuiltIn) && w[2] == uint32(spirv.BuiltInWorkgroupSize) {
				wgSize = w[0]
			}
		case spirv.OpExecutionMode:
			if len(w) >= 5 && w[0] == entry && w[1] == uint32(spirv.ExecutionModeLocalSize) {
				f.local, f.hasLocal, f.localAt = [3]uint64{uint64(w[2]), uint64(w[3]), uint64(w[4])}, true, i
			}
		case spirv.OpExecutionModeId:
			if len(w) >= 5 && w[0] == entry && w[1] == uint32(spirv.ExecutionModeLocalSizeId) {
				localIDs, f.localAt = w[2:5], i
			}
		case spirv.OpConstant, spirv.OpSpecConstant:
			if len(w) >= 3 {
				v := uint64(w[2])
				if len(w) >= 4 {
					v |= uint64(w[3]) << 32
				}
				if s, ok := f.specID[w[1]]; ok && in.Op == spirv.OpSpecConstant {
					if b, ok := opts.Spec[s]; ok {
						v = 0
						for k := len(b) - 1; k >= 0; k-- {
							v = v<<8 | uint64(b[k])
						}
					}
				}
				f.consts[w[1]] = v
			}
		case spirv.OpConstantTrue, spirv.OpSpecConstantTrue:
			f.consts[w[1]] = 1
		case spirv.OpConstantFalse, spirv.OpSpecConstantFalse:
			f.consts[w[1]] = 0
		}
	}
	if localIDs != nil {
		f.hasLocal = true
		for k, id := range localIDs {
			v, ok := f.consts[id]
			f.local[k] = v
			f.hasLocal = f.hasLocal && ok
		}
	}
	if wgSize != 0 {
		if i, ok := f.defs[wgSize]; ok && len(m.Insts[i].Words) == 5 {
			f.hasLocal, f.localAt = true, i
			for k, id := range m.Insts[i].Words[2:5] {
				v, ok := f.consts[id]
				f.local[k] = v
				f.hasLocal = f.hasLocal && ok
			}
		}
	}
	return f
}

// invocations is the entry point's workgroup size, ok false when unknown.
func (f *facts) invocations() (uint64, bool) {
	return f.local[0] * f.local[1] * f.local[2], f.hasLocal
}

// def returns the instruction defining id, or nil.
func (c *checker) def(id uint32) *spirv.Inst {
	if i, ok := c.f.defs[id]; ok {
		return &c.m.Insts[i]
	}
	return nil
}

// typeOf returns the defining instruction of id's result type.
func (c *checker) typeOf(id uint32) *spirv.Inst {
	if d := c.def(id); d != nil {
		return c.def(d.TypeID())
	}
	return nil
}

// scalarName names a scalar type as profiles do ("float16", "bfloat16",
// "sint8", "float8_e4m3"); signed picks the integer signedness where the
// instruction, not the type, decides it (KHR cooperative matrices).
func (c *checker) scalarName(t *spirv.Inst, signed *bool) string {
	if t == nil {
		return "?"
	}
	w := t.Words
	switch t.Op {
	case spirv.OpTypeFloat:
		if len(w) >= 3 {
			switch spirv.FPEncoding(w[2]) {
			case spirv.FPEncodingBFloat16KHR:
				return "bfloat16"
			case spirv.FPEncodingFloat8E4M3EXT:
				return "float8_e4m3"
			case spirv.FPEncodingFloat8E5M2EXT:
				return "float8_e5m2"
			}
		}
		return fmt.Sprintf("float%d", w[1])
	case spirv.OpTypeInt:
		s := len(w) >= 3 && w[2] == 1
		if signed != nil {
			s = *signed
		}
		if s {
			return fmt.Sprintf("sint%d", w[1])
		}
		return fmt.Sprintf("uint%d", w[1])
	}
	return t.Op.String()
}

// constant returns the value of a constant id.
func (c *checker) constant(id uint32) (uint64, bool) {
	v, ok := c.f.consts[id]
	return v, ok
}

// componentNames is SPIR-V's ComponentType enumeration (the values of
// VkComponentTypeKHR) in profile spelling: a static array, which package
// init does not build.
var componentNames = [...]struct {
	t    spirv.ComponentType
	name string
}{
	{spirv.ComponentTypeFloat16NV, "float16"}, {spirv.ComponentTypeFloat32NV, "float32"}, {spirv.ComponentTypeFloat64NV, "float64"},
	{spirv.ComponentTypeSignedInt8NV, "sint8"}, {spirv.ComponentTypeSignedInt16NV, "sint16"}, {spirv.ComponentTypeSignedInt32NV, "sint32"},
	{spirv.ComponentTypeSignedInt64NV, "sint64"}, {spirv.ComponentTypeUnsignedInt8NV, "uint8"}, {spirv.ComponentTypeUnsignedInt16NV, "uint16"},
	{spirv.ComponentTypeUnsignedInt32NV, "uint32"}, {spirv.ComponentTypeUnsignedInt64NV, "uint64"},
	{spirv.ComponentTypeSignedInt8PackedNV, "sint8_packed"}, {spirv.ComponentTypeUnsignedInt8PackedNV, "uint8_packed"},
	{spirv.ComponentTypeFloatE4M3NV, "float8_e4m3"}, {spirv.ComponentTypeFloatE5M2NV, "float8_e5m2"},
}

// interpretation names the ComponentType constant id; ok is false when the
// id is not a known constant.
func (c *checker) interpretation(id uint32) (string, bool) {
	v, ok := c.constant(id)
	if !ok {
		return "", false
	}
	for _, c := range componentNames {
		if c.t == spirv.ComponentType(v) {
			return c.name, true
		}
	}
	return fmt.Sprintf("ComponentType(%d)", v), true
}

func uniqueSorted(ss []string) []string {
	slices.Sort(ss)
	return slices.Compact(ss)
}
