package llamadiff

import (
	"fmt"
	"slices"

	"github.com/coopshader/coop/spirv"
)

// kind is the shape of a reflected type.
type kind int

const (
	kFloat kind = iota
	kInt
	kBool
	kVector // also used for arrays with a stride
	kStruct
	kOther
)

// typ is a type with its explicit layout, enough to fill memory with
// values of each member's own type.
type typ struct {
	kind   kind
	width  int  // bits, scalars
	signed bool // kInt
	bf16   bool // kFloat with the BFloat16KHR encoding
	fp8    bool // kFloat with an fp8 encoding
	elem   *typ // kVector
	count  int  // kVector: 0 for a runtime array
	stride int  // kVector: bytes between elements
	fields []field
	size   int // bytes, including trailing padding where known
}

type field struct {
	name   string
	offset int
	t      *typ
}

// block is one storage-buffer declaration: the member name of its runtime
// array and the array's element type.
type block struct {
	member string
	elem   *typ
	stride int
	offset int // of the runtime array within the block
}

// iface is what a dispatch of a module needs from the host.
type iface struct {
	push     []field // push-constant block members
	pushSize int
	buffers  map[uint32][]block // by binding (set 0), in declaration order
	specs    map[uint32]*typ    // spec constants by SpecId
}

// reflect reads a module's interface: push constants, storage buffers and
// specialization constants.
func reflect(m *spirv.Module) (*iface, error) {
	defs := map[uint32]*spirv.Inst{}
	names := map[[2]uint32]string{}
	offsets := map[[2]uint32]int{}
	strides := map[uint32]int{}
	bindings := map[uint32]uint32{}
	specIDs := map[uint32]uint32{}
	var vars []*spirv.Inst
	for i := range m.Insts {
		in := &m.Insts[i]
		w := in.Words
		switch in.Op {
		case spirv.OpMemberName:
			s, _, _ := in.String(2)
			names[[2]uint32{w[0], w[1]}] = s
		case spirv.OpMemberDecorate:
			if spirv.Decoration(w[2]) == spirv.DecorationOffset {
				offsets[[2]uint32{w[0], w[1]}] = int(w[3])
			}
		case spirv.OpDecorate:
			switch spirv.Decoration(w[1]) {
			case spirv.DecorationArrayStride:
				strides[w[0]] = int(w[2])
			case spirv.DecorationBinding:
				bindings[w[0]] = w[2]
			case spirv.DecorationSpecId:
				specIDs[w[0]] = w[2]
			}
		case spirv.OpVariable:
			vars = append(vars, in)
		}
		if id := in.ResultID(); id != 0 {
			defs[id] = in
		}
	}
	r := &reflector{defs: defs, names: names, offsets: offsets, strides: strides, memo: map[uint32]*typ{}}
	f := &iface{buffers: map[uint32][]block{}, specs: map[uint32]*typ{}}
	for _, v := range vars {
		ptr := defs[v.Words[0]]
		if ptr == nil || ptr.Op != spirv.OpTypePointer {
			continue
		}
		sc := spirv.StorageClass(v.Words[2])
		st := ptr.Words[2]
		switch {
		case sc == spirv.StorageClassPushConstant:
			t, err := r.typ(st)
			if err != nil {
				return nil, err
			}
			if t.kind != kStruct {
				return nil, fmt.Errorf("push constants are not a block")
			}
			f.push, f.pushSize = t.fields, t.size
		case sc == spirv.StorageClassStorageBuffer || sc == spirv.StorageClassUniform:
			b, ok := bindings[v.Words[1]]
			if !ok {
				continue
			}
			t, err := r.typ(st)
			if err != nil {
				return nil, err
			}
			if t.kind != kStruct || len(t.fields) == 0 {
				continue
			}
			last := t.fields[len(t.fields)-1]
			blk := block{member: last.name, elem: last.t, offset: last.offset}
			if last.t.kind == kVector && last.t.count == 0 {
				blk.elem, blk.stride = last.t.elem, last.t.stride
			}
			f.buffers[b] = append(f.buffers[b], blk)
		}
	}
	for id, sid := range specIDs {
		if d := defs[id]; d != nil {
			t, err := r.typ(d.Words[0])
			if err != nil {
				return nil, err
			}
			f.specs[sid] = t
		}
	}
	return f, nil
}

type reflector struct {
	defs    map[uint32]*spirv.Inst
	names   map[[2]uint32]string
	offsets map[[2]uint32]int
	strides map[uint32]int
	memo    map[uint32]*typ
}

func (r *reflector) typ(id uint32) (*typ, error) {
	if t, ok := r.memo[id]; ok {
		return t, nil
	}
	in := r.defs[id]
	if in == nil {
		return nil, fmt.Errorf("type %%%d not defined", id)
	}
	w := in.Words
	t := &typ{}
	switch in.Op {
	case spirv.OpTypeFloat:
		t.kind, t.width = kFloat, int(w[1])
		if len(w) > 2 {
			// FP encodings: BFloat16KHR is 0; the fp8 encodings follow.
			t.bf16 = w[2] == 0
			t.fp8 = w[2] != 0
		}
		t.size = t.width / 8
	case spirv.OpTypeInt:
		t.kind, t.width, t.signed = kInt, int(w[1]), w[2] != 0
		t.size = max(t.width/8, 1)
	case spirv.OpTypeBool:
		t.kind, t.width, t.size = kBool, 32, 4
	case spirv.OpTypeVector:
		e, err := r.typ(w[1])
		if err != nil {
			return nil, err
		}
		t.kind, t.elem, t.count, t.stride = kVector, e, int(w[2]), e.size
		t.size = e.size * t.count
	case spirv.OpTypeMatrix:
		// Columns are packed: ggml's matrix members (mat2x4) are never padded.
		e, err := r.typ(w[1])
		if err != nil {
			return nil, err
		}
		t.kind, t.elem, t.count, t.stride = kVector, e, int(w[2]), e.size
		t.size = e.size * t.count
	case spirv.OpTypeArray, spirv.OpTypeRuntimeArray:
		e, err := r.typ(w[1])
		if err != nil {
			return nil, err
		}
		t.kind, t.elem, t.stride = kVector, e, r.strides[id]
		if t.stride == 0 {
			t.stride = e.size
		}
		if in.Op == spirv.OpTypeArray {
			n := r.defs[w[2]]
			if n == nil || n.Op != spirv.OpConstant {
				return nil, fmt.Errorf("array %%%d has no constant length", id)
			}
			t.count = int(n.Words[2])
		}
		t.size = t.stride * t.count
	case spirv.OpTypeStruct:
		t.kind = kStruct
		for i, mt := range w[1:] {
			ft, err := r.typ(mt)
			if err != nil {
				return nil, err
			}
			key := [2]uint32{id, uint32(i)}
			t.fields = append(t.fields, field{name: r.names[key], offset: r.offsets[key], t: ft})
		}
		for _, fl := range t.fields {
			t.size = max(t.size, fl.offset+fl.t.size)
		}
		// Round to the largest scalar alignment so arrays of blocks tile.
		if a := align(t); a > 1 {
			t.size = (t.size + a - 1) / a * a
		}
	default:
		t.kind = kOther
	}
	r.memo[id] = t
	return t, nil
}

func align(t *typ) int {
	switch t.kind {
	case kStruct:
		a := 1
		for _, f := range t.fields {
			a = max(a, align(f.t))
		}
		return a
	case kVector:
		return align(t.elem)
	}
	return max(t.size, 1)
}

// pick chooses, among the declarations aliasing one binding, the one whose
// element type describes the data best: the plain name (data_a rather than
// data_a_packed16 or data_a_v4).
func pick(bs []block) block {
	return slices.MinFunc(bs, func(a, b block) int { return len(a.member) - len(b.member) })
}
