package exec

import (
	"encoding/binary"
	"fmt"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/spirv"
)

// Descriptor heaps (SPV_EXT_descriptor_heap) and untyped pointers
// (SPV_KHR_untyped_pointers). The layout of descriptors in a heap is
// documented in doc.go.

const (
	// BufferDescriptorSize is the size (and alignment) of a uniform or
	// storage buffer descriptor in a heap, what OpConstantSizeOfEXT gives
	// for OpTypeBufferEXT.
	BufferDescriptorSize = 16
	// OpaqueDescriptorSize is the size (and alignment) of an image,
	// sampler, acceleration structure or tensor descriptor in a heap.
	OpaqueDescriptorSize = 32
)

// BufferDescriptor returns the heap descriptor of a buffer of this
// executor: its device address and its size, each a little-endian uint64.
// It returns nil for a buffer of another device.
func BufferDescriptor(b backend.Buffer) []byte {
	bb, ok := b.(*buffer)
	if !ok || bb == nil {
		return nil
	}
	d := make([]byte, BufferDescriptorSize)
	binary.LittleEndian.PutUint64(d, bb.addr)
	binary.LittleEndian.PutUint64(d[8:], uint64(len(bb.data)))
	return d
}

// heapInfo is what a prog knows about heaps and id-decorated layouts.
type heapInfo struct {
	// layoutIDs maps (type, 0) to its ArrayStrideIdEXT constant and
	// (struct, member+1) to the member's OffsetIdEXT constant.
	layoutIDs map[[2]uint32]uint32
	// descSize is the heap size of each descriptor type.
	descSize map[uint32]int
	// slots are the value slots of the ResourceHeapEXT and SamplerHeapEXT
	// variables (-1: not declared).
	slots [2]int32
}

func (p *prog) collectIDDecorations() {
	p.heap = &heapInfo{layoutIDs: map[[2]uint32]uint32{}, descSize: map[uint32]int{}, slots: [2]int32{-1, -1}}
	for i := range p.m.Insts {
		in := &p.m.Insts[i]
		w := in.Words
		switch {
		case in.Op == spirv.OpDecorateId && len(w) >= 3 && spirv.Decoration(w[1]) == spirv.DecorationArrayStrideIdEXT:
			p.heap.layoutIDs[[2]uint32{w[0], 0}] = w[2]
		case in.Op == spirv.OpMemberDecorateIdEXT && len(w) >= 4 && spirv.Decoration(w[2]) == spirv.DecorationOffsetIdEXT:
			p.heap.layoutIDs[[2]uint32{w[0], w[1] + 1}] = w[3]
		}
	}
}

// heapType completes a type declaration (before its layout is finished):
// untyped pointers, descriptor sizes, and strides and offsets given by
// constant ids.
func (p *prog) heapType(i int, t *typ) error {
	in := &p.m.Insts[i]
	switch in.Op {
	case spirv.OpTypeUntypedPointerKHR:
		if len(in.Words) < 2 {
			return p.errAt(i, "missing storage class")
		}
		t.kind, t.slots, t.sc, t.elem = kPointer, 1, spirv.StorageClass(in.Words[1]), nil
	case spirv.OpTypeBufferEXT:
		p.heap.descSize[t.id] = BufferDescriptorSize
	case spirv.OpTypeImage, spirv.OpTypeSampler, spirv.OpTypeAccelerationStructureKHR, spirv.OpTypeTensorARM:
		p.heap.descSize[t.id] = OpaqueDescriptorSize
	}
	if n := p.heap.descSize[t.id]; n > 0 && t.kind == kOpaque {
		t.size, t.align = n, n
	}
	layoutConst := func(id uint32, what string) (int, error) {
		v, ok := p.constU(id)
		if !ok {
			return 0, p.errAt(i, "%s %%%d is not a constant declared before the type", what, id)
		}
		if v >= 1<<31 {
			return 0, p.errAt(i, "%s %%%d is %d, too large", what, id, v)
		}
		return int(v), nil
	}
	if id, ok := p.heap.layoutIDs[[2]uint32{t.id, 0}]; ok && (t.kind == kArray || t.kind == kRuntimeArray) {
		s, err := layoutConst(id, "ArrayStrideIdEXT")
		if err != nil {
			return err
		}
		if s == 0 {
			return p.errAt(i, "ArrayStrideIdEXT is zero")
		}
		t.stride = s
	}
	if t.kind == kStruct {
		for k := range t.mem {
			if id, ok := p.heap.layoutIDs[[2]uint32{t.id, uint32(k + 1)}]; ok {
				off, err := layoutConst(id, "OffsetIdEXT")
				if err != nil {
					return err
				}
				t.offs[k] = off
			}
		}
	}
	return nil
}

// sizeOf is the value of OpConstantSizeOfEXT of type id.
func (p *prog) sizeOf(i int, id uint32) (uint64, error) {
	if n, ok := p.heap.descSize[id]; ok {
		return uint64(n), nil
	}
	return 0, p.errAt(i, "OpConstantSizeOfEXT of %%%d, not a descriptor type", id)
}

// untypedVar reads an OpUntypedVariableKHR: the data type and initializer
// of an ordinary variable, or, for the heap built-ins, nothing to allocate
// (handled: the slot is filled per dispatch).
func (p *prog) untypedVar(i int, pt *typ) (t *typ, init []uint32, handled bool, err error) {
	w := p.m.Insts[i].Words
	if d := p.deco(w[1]); d.builtin == int64(spirv.BuiltInResourceHeapEXT) || d.builtin == int64(spirv.BuiltInSamplerHeapEXT) {
		s, err := p.newSlots(i, w[1], pt)
		if err != nil {
			return nil, nil, false, err
		}
		p.heap.slots[heapIndex(spirv.BuiltIn(d.builtin))] = s
		return nil, nil, true, nil
	}
	if len(w) < 4 {
		return nil, nil, false, p.errAt(i, "untyped variable without a data type")
	}
	if t, err = p.typeArg(i, w[3]); err != nil {
		return nil, nil, false, err
	}
	return t, w[4:], false, nil
}

func heapIndex(b spirv.BuiltIn) int {
	if b == spirv.BuiltInSamplerHeapEXT {
		return 1
	}
	return 0
}

// isUntypedChain reports the untyped access chain instructions.
func isUntypedChain(op spirv.Op) bool {
	switch op {
	case spirv.OpUntypedAccessChainKHR, spirv.OpUntypedInBoundsAccessChainKHR,
		spirv.OpUntypedPtrAccessChainKHR, spirv.OpUntypedInBoundsPtrAccessChainKHR:
		return true
	}
	return false
}

// isChain reports every access chain instruction, typed or untyped.
func isChain(op spirv.Op) bool {
	switch op {
	case spirv.OpAccessChain, spirv.OpInBoundsAccessChain, spirv.OpPtrAccessChain, spirv.OpInBoundsPtrAccessChain:
		return true
	}
	return isUntypedChain(op)
}

// compileUntypedChain decodes an untyped access chain: the Base Type
// operand says what Base points to. The element of a pointer access chain
// steps by the ArrayStride of Base's pointer type, else the size of Base
// Type.
func (p *prog) compileUntypedChain(i int, ins *instr, ops []uint32) error {
	if len(ops) < 2 {
		return p.errAt(i, "%s needs a base type and a base", ins.op)
	}
	t, err := p.typeArg(i, ops[0])
	if err != nil {
		return err
	}
	bs, bt := p.slotOf(ops[1])
	if bs < 0 || bt.kind != kPointer {
		return p.errAt(i, "base %%%d is not a pointer", ops[1])
	}
	stride := 0
	ptrChain := ins.op == spirv.OpUntypedPtrAccessChainKHR || ins.op == spirv.OpUntypedInBoundsPtrAccessChainKHR
	if ptrChain {
		if stride = p.deco(bt.id).stride; stride == 0 {
			stride = roundUp(t.size, t.align)
		}
	}
	return p.chainFrom(i, ins, ops[1], bt, t, ptrChain, stride, ops[2:])
}

// compileBufferPointer decodes OpBufferPointerEXT.
func (p *prog) compileBufferPointer(i int, ins *instr, ops []uint32) (*instr, error) {
	if len(ops) < 1 || ins.t == nil || ins.t.kind != kPointer {
		return nil, p.errAt(i, "OpBufferPointerEXT needs a pointer result and a buffer descriptor")
	}
	s, t := p.slotOf(ops[0])
	if s < 0 || t.kind != kPointer {
		return nil, p.errAt(i, "%%%d is not a pointer to a buffer descriptor", ops[0])
	}
	ins.a, ins.at = []int32{s}, t
	return ins, nil
}

// bufferPointer runs OpBufferPointerEXT: the descriptor's address, once
// checked to name a live buffer of at least the descriptor's size.
func (l *lane) bufferPointer(in *instr) error {
	at := l.regs[in.a[0]]
	d, err := l.region(in, at, BufferDescriptorSize, false)
	if err != nil {
		return err
	}
	addr, size := binary.LittleEndian.Uint64(d), binary.LittleEndian.Uint64(d[8:])
	if addr == 0 {
		return l.failAddr(in, at, "null buffer descriptor")
	}
	idx := (addr >> offBits) & 0xffff
	off := addr & (1<<offBits - 1)
	if addr>>56 != regBuf || idx >= uint64(len(l.x.bufs)) || l.x.bufs[idx] == nil || l.x.bufs[idx].released {
		return l.failAddr(in, at, "buffer descriptor holds %#x, not the address of a buffer", addr)
	}
	if n := uint64(len(l.x.bufs[idx].data)); off > n || size > n-off {
		return l.failAddr(in, at, "buffer descriptor of %d bytes at %#x runs past its buffer of %d bytes", size, addr, n)
	}
	l.regs[in.res] = addr
	return nil
}

// Heaps reports which descriptor heaps the program reads.
func (pr *Program) Heaps() (resource, sampler bool) {
	return pr.p.heap.slots[0] >= 0, pr.p.heap.slots[1] >= 0
}

// setHeaps puts the dispatch's heaps in the heap variables.
func (p *prog) setHeaps(tmpl []uint64, dp *backend.Dispatch) error {
	for k, b := range []backend.Buffer{dp.ResourceHeap, dp.SamplerHeap} {
		s := p.heap.slots[k]
		if s < 0 {
			continue
		}
		name := [2]string{"resource", "sampler"}[k]
		if b == nil {
			return fmt.Errorf("the module reads the %s heap, but the dispatch gives no %s heap", name, name)
		}
		bb, ok := b.(*buffer)
		if !ok || bb == nil || bb.released {
			return fmt.Errorf("%s heap: not a live buffer of this device", name)
		}
		tmpl[s] = bb.addr
	}
	return nil
}

// localVar is the data type and initializer (0: none) of a function's
// OpVariable or OpUntypedVariableKHR of pointer type pt.
func (p *prog) localVar(i int, pt *typ) (*typ, uint32, error) {
	in := &p.m.Insts[i]
	w := in.Words
	t, init := pt.elem, w[3:]
	if in.Op == spirv.OpUntypedVariableKHR {
		if len(w) < 4 {
			return nil, 0, p.errAt(i, "untyped variable without a data type")
		}
		t, init = p.types[w[3]], w[4:]
	}
	if pt.kind != kPointer || t == nil {
		return nil, 0, p.errAt(i, "variable type is not a pointer")
	}
	if len(init) > 0 {
		return t, init[0], nil
	}
	return t, 0, nil
}
