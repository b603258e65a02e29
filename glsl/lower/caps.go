package lower

import (
	"slices"

	"github.com/coopshader/coop/spirv"
)

// narrowCaps adds the Int8, Int16 and Float16 capabilities where the module
// computes with 8- and 16-bit values, after code generation, as glslang
// decides them: declaring such a type needs no capability when it only
// lives in memory covered by an 8/16-bit storage capability and is only
// loaded, stored, addressed or converted there. Arithmetic, values in
// Function, Private or Workgroup memory, and conversions without a storage
// capability need the arithmetic capability. bfloat16 and fp8 types are
// OpTypeFloat with an encoding; they need only their own capabilities.
func narrowCaps(m *spirv.Module) {
	types := map[uint32]*spirv.Inst{}
	typeOf := map[uint32]uint32{}
	blocks := map[uint32]bool{}
	have := map[spirv.Capability]bool{}
	for i := range m.Insts {
		in := &m.Insts[i]
		switch in.Op {
		case spirv.OpCapability:
			have[spirv.Capability(in.Words[0])] = true
		case spirv.OpDecorate:
			if len(in.Words) > 1 && spirv.Decoration(in.Words[1]) == spirv.DecorationBlock {
				blocks[in.Words[0]] = true
			}
		}
		if d := in.Op.Desc(); d != nil && d.Class == "Type-Declaration" && in.ResultID() != 0 {
			types[in.ResultID()] = in
		} else if r, t := in.ResultID(), in.TypeID(); r != 0 && t != 0 {
			typeOf[r] = t
		}
	}
	// contains reports whether type id holds an int (float false) or IEEE
	// float (float true) of the given width.
	var contains func(id uint32, float bool, width uint32) bool
	contains = func(id uint32, float bool, width uint32) bool {
		t := types[id]
		if t == nil {
			return false
		}
		switch t.Op {
		case spirv.OpTypeInt:
			return !float && t.Words[1] == width
		case spirv.OpTypeFloat:
			return float && t.Words[1] == width && len(t.Words) == 2
		case spirv.OpTypeStruct:
			for _, f := range t.Words[1:] {
				if contains(f, float, width) {
					return true
				}
			}
		case spirv.OpTypeVector, spirv.OpTypeMatrix, spirv.OpTypeArray, spirv.OpTypeRuntimeArray,
			spirv.OpTypeCooperativeMatrixKHR, spirv.OpTypeCooperativeMatrixNV, spirv.OpTypeCooperativeVectorNV:
			return contains(t.Words[1], float, width)
		}
		return false
	}
	// basic is the scalar type under vectors, matrices, arrays and
	// pointers (cooperative types and structs are their own class).
	var basic func(id uint32) *spirv.Inst
	basic = func(id uint32) *spirv.Inst {
		t := types[id]
		if t == nil {
			return nil
		}
		switch t.Op {
		case spirv.OpTypeVector, spirv.OpTypeMatrix, spirv.OpTypeArray, spirv.OpTypeRuntimeArray:
			return basic(t.Words[1])
		case spirv.OpTypePointer:
			return basic(t.Words[2])
		}
		return t
	}
	// inMemory reports a pointer into memory that a storage capability
	// covers.
	inMemory := func(ptr uint32) bool {
		t := types[typeOf[ptr]]
		if t == nil || t.Op != spirv.OpTypePointer {
			return false
		}
		switch spirv.StorageClass(t.Words[1]) {
		case spirv.StorageClassPhysicalStorageBuffer, spirv.StorageClassUniform, spirv.StorageClassStorageBuffer,
			spirv.StorageClassPushConstant, spirv.StorageClassInput, spirv.StorageClassOutput:
			return true
		}
		return false
	}
	need := map[spirv.Capability]bool{}
	scalarCap := func(b *spirv.Inst) {
		switch {
		case b.Op == spirv.OpTypeInt && b.Words[1] == 8:
			need[spirv.CapabilityInt8] = true
		case b.Op == spirv.OpTypeInt && b.Words[1] == 16:
			need[spirv.CapabilityInt16] = true
		case b.Op == spirv.OpTypeFloat && b.Words[1] == 16 && len(b.Words) == 2:
			need[spirv.CapabilityFloat16] = true
		}
	}
	arith := func(tid uint32) {
		if b := basic(tid); b != nil {
			scalarCap(b)
		}
	}
	// value declares what holding a value of type tid needs: constants
	// and variables outside explicitly laid out memory, through structs,
	// arrays and cooperative types.
	var value func(tid uint32)
	value = func(tid uint32) {
		t := types[tid]
		if t == nil {
			return
		}
		switch t.Op {
		case spirv.OpTypeInt, spirv.OpTypeFloat:
			scalarCap(t)
		case spirv.OpTypeStruct:
			for _, f := range t.Words[1:] {
				value(f)
			}
		case spirv.OpTypePointer:
			// A buffer reference held as a value is an address: what it
			// points to is explicitly laid out memory.
			if spirv.StorageClass(t.Words[1]) != spirv.StorageClassPhysicalStorageBuffer {
				value(t.Words[2])
			}
		case spirv.OpTypeVector, spirv.OpTypeMatrix, spirv.OpTypeArray, spirv.OpTypeRuntimeArray,
			spirv.OpTypeCooperativeMatrixKHR, spirv.OpTypeCooperativeMatrixNV, spirv.OpTypeCooperativeVectorNV:
			value(t.Words[1])
		}
	}
	// Cooperative matrices and vectors of fp16 or 8-bit integers compute
	// with their elements wherever they live.
	for _, t := range types {
		switch t.Op {
		case spirv.OpTypeCooperativeMatrixKHR, spirv.OpTypeCooperativeMatrixNV, spirv.OpTypeCooperativeVectorNV:
			if e := types[t.Words[1]]; e != nil && (e.Op == spirv.OpTypeFloat && e.Words[1] == 16 || e.Op == spirv.OpTypeInt && e.Words[1] == 8) {
				scalarCap(e)
			}
		}
	}
	storage16 := have[spirv.CapabilityStorageInputOutput16] || have[spirv.CapabilityStoragePushConstant16] ||
		have[spirv.CapabilityStorageBuffer16BitAccess] || have[spirv.CapabilityUniformAndStorageBuffer16BitAccess]
	storage8 := have[spirv.CapabilityStoragePushConstant8] || have[spirv.CapabilityUniformAndStorageBuffer8BitAccess] ||
		have[spirv.CapabilityStorageBuffer8BitAccess]
	check := func(in *spirv.Inst, tid uint32) {
		switch in.Op {
		case spirv.OpLoad, spirv.OpStore:
			if t := types[tid]; t != nil && t.Op == spirv.OpTypeStruct {
				if contains(tid, false, 8) {
					need[spirv.CapabilityInt8] = true
				}
				if contains(tid, false, 16) {
					need[spirv.CapabilityInt16] = true
				}
				if contains(tid, true, 16) {
					need[spirv.CapabilityFloat16] = true
				}
				return
			}
			if !inMemory(in.Words[pointerOperand(in)]) {
				arith(tid)
			}
		case spirv.OpCopyObject:
		case spirv.OpFConvert, spirv.OpSConvert, spirv.OpUConvert:
			if !storage16 {
				if contains(tid, true, 16) {
					need[spirv.CapabilityFloat16] = true
				}
				if contains(tid, false, 16) {
					need[spirv.CapabilityInt16] = true
				}
			}
			if !storage8 && contains(tid, false, 8) {
				need[spirv.CapabilityInt8] = true
			}
		case spirv.OpAccessChain, spirv.OpInBoundsAccessChain, spirv.OpPtrAccessChain:
			if t := types[tid]; t != nil && t.Op == spirv.OpTypePointer {
				return
			}
			if b := basic(tid); b != nil && b.Op == spirv.OpTypeInt {
				arith(tid)
			}
		default:
			arith(tid)
		}
	}
	parsed := spirv.NewTypes()
	var ops []spirv.Operand
	inFunc := false
	for i := range m.Insts {
		in := &m.Insts[i]
		parsed.Record(in)
		switch in.Op {
		case spirv.OpFunction:
			inFunc = true
			continue
		case spirv.OpFunctionEnd:
			inFunc = false
			continue
		case spirv.OpVariable:
			// Function, Private and Workgroup memory without explicit
			// layout hold plain values.
			switch t := types[in.Words[0]]; spirv.StorageClass(in.Words[2]) {
			case spirv.StorageClassFunction, spirv.StorageClassPrivate:
				value(in.Words[0])
			case spirv.StorageClassWorkgroup:
				if t != nil && !blocks[t.Words[2]] {
					value(in.Words[0])
				}
			}
			if !inFunc {
				continue
			}
		}
		if d := in.Op.Desc(); d != nil && d.Class == "Constant-Creation" {
			value(in.TypeID())
		}
		if !inFunc {
			continue
		}
		if t := in.TypeID(); t != 0 {
			check(in, t)
		}
		var err error
		ops, err = parsed.Operands(in, ops[:0])
		if err != nil {
			continue
		}
		for _, op := range ops {
			if op.Kind != spirv.KindIdRef || op.Count != 1 {
				continue
			}
			if t := typeOf[in.Words[op.Offset]]; t != 0 {
				check(in, t)
			}
		}
	}
	var add []spirv.Capability
	for c := range need {
		if !have[c] {
			add = append(add, c)
		}
	}
	if len(add) == 0 {
		return
	}
	slices.Sort(add)
	at := 0
	for at < len(m.Insts) && m.Insts[at].Op == spirv.OpCapability {
		at++
	}
	caps := make([]spirv.Inst, len(add))
	for i, c := range add {
		caps[i] = spirv.Inst{Op: spirv.OpCapability, Words: []uint32{uint32(c)}}
	}
	m.Insts = slices.Insert(m.Insts, at, caps...)
}

// pointerOperand is the index of the pointer among a load's or store's
// words.
func pointerOperand(in *spirv.Inst) int {
	if in.Op == spirv.OpLoad {
		return 2
	}
	return 0
}
