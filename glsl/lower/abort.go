package lower

import (
	"encoding/binary"
	"strings"

	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/spirv"
)

// abort lowers abortEXT(message, args...) as glslang does (SPV_KHR_abort,
// SPV_KHR_constant_data): the message is a NUL-terminated array of 8-bit
// chars padded to a multiple of 4 bytes, made by OpConstantDataKHR (by
// OpSpecConstantDataKHR, its length a specialization constant, when it
// holds a %d, %i, %f or %u); it and the arguments form a struct value,
// and OpAbortKHR names a twin struct type with explicit offsets
// (the message, then each argument tightly packed) as its layout. The
// block ends there.
func (g *gen) abort(e *check.BuiltinCall) {
	g.b.Capability(spirv.CapabilityAbortKHR)
	g.b.Capability(spirv.CapabilityConstantDataKHR)
	g.b.Capability(spirv.CapabilityInt8)
	g.b.Extension("SPV_KHR_constant_data")
	g.b.Extension("SPV_KHR_abort")
	text := ""
	args := e.Args
	if len(args) > 0 {
		text = args[0].(*check.StringConst).Text
		args = args[1:]
	}
	n := (len(text) + 1 + 3) &^ 3
	spec := false
	for _, f := range []string{"%d", "%i", "%f", "%u"} {
		spec = spec || strings.Contains(text, f)
	}
	u32 := g.scalarType(check.Uint32)
	length, dataOp := g.u32(uint32(n)), spirv.OpConstantDataKHR
	if spec {
		length, dataOp = g.b.ID(), spirv.OpSpecConstantDataKHR
		g.b.Add(spirv.SecGlobal, spirv.OpSpecConstant, u32, length, uint32(n))
	}
	char := g.scalarType(check.Int8)
	arr, loadArr := g.b.NewType(spirv.OpTypeArray, char, length), g.b.NewType(spirv.OpTypeArray, char, length)
	g.b.Decorate(arr, spirv.DecorationUTFEncodedKHR)
	g.b.Decorate(loadArr, spirv.DecorationUTFEncodedKHR)
	bytes := make([]byte, n)
	copy(bytes, text)
	words := make([]uint32, n/4)
	for i := range words {
		words[i] = binary.LittleEndian.Uint32(bytes[4*i:])
	}
	data := g.b.ID()
	g.b.Add(spirv.SecGlobal, dataOp, append([]uint32{arr, data}, words...)...)

	members, loadMembers, vals := []uint32{arr}, []uint32{loadArr}, []uint32{data}
	offsets := []uint32{0}
	off := uint32(n)
	for _, a := range args {
		t := a.Type()
		vals = append(vals, g.rvalue(a))
		tid := g.typeID(t, check.PackNone)
		members, loadMembers = append(members, tid), append(loadMembers, tid)
		offsets = append(offsets, off)
		off += uint32(t.Components() * max(t.Scalar.Bits()/8, 1))
	}
	loadSt := g.b.NewType(spirv.OpTypeStruct, loadMembers...)
	g.b.Name(loadSt, "abortMessageLoadType")
	for i, o := range offsets {
		g.b.MemberDecorate(loadSt, uint32(i), spirv.DecorationOffset, o)
	}
	st := g.b.NewType(spirv.OpTypeStruct, members...)
	g.b.Name(st, "abortMessage")
	msg := g.b.EmitResult(spirv.OpCompositeConstruct, st, vals...)
	g.b.Emit(spirv.OpAbortKHR, loadSt, msg)
	g.terminated = true
}
