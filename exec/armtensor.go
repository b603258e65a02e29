package exec

import (
	"fmt"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/spirv"
)

// Tensors (SPV_ARM_tensors). A tensor value, and the UniformConstant
// pointer a tensor variable or parameter is, hold one handle: region kind
// regTensor in the top byte and the index of the dispatch's bound tensor
// (dispatchRun.tensors) in the buffer-number bits, so a descriptor array's
// access chain picks a handle as it picks a buffer address, and loading a
// tensor copies the handle. A handle of 0 means no tensor is bound.

const regTensor = 5

// boundTensor is a tensor bound for one dispatch: its buffer's memory and
// its validated description.
type boundTensor struct {
	elem    *typ // the element type of the descriptor's tensor type
	buf     *buffer
	dims    []int64
	strides []int64
	es      int // element size in bytes
}

// declTensorARM builds OpTypeTensorARM: a scalar element type and a rank.
func (p *prog) declTensorARM(i int, t *typ, w []uint32) error {
	if len(w) < 2 {
		return p.errAt(i, "missing element type")
	}
	et, err := p.typeArg(i, w[1])
	if err != nil {
		return err
	}
	if !et.scalar() {
		return p.errAt(i, "tensor element type %%%d is not a scalar", w[1])
	}
	t.kind, t.elem, t.slots = kTensorARM, et, 1
	switch {
	case len(w) < 3:
		p.unsupport(i, "tensor without a rank")
	case len(w) > 3:
		p.unsupport(i, "tensor with a shape (graph constants)")
	default:
		r, ok := p.constU(w[2])
		if !ok || r < 1 || r > 64 {
			return p.errAt(i, "tensor rank %%%d is not a constant from 1 to 64", w[2])
		}
		t.count = int(r)
	}
	return nil
}

// tensorFormat is the format a tensor of element type et reads.
func tensorFormat(et *typ) backend.TensorFormat {
	switch et.kind {
	case kBool:
		return backend.TensorBool
	case kInt:
		f := map[int]backend.TensorFormat{8: backend.TensorInt8, 16: backend.TensorInt16, 32: backend.TensorInt32, 64: backend.TensorInt64}[et.width]
		if !et.signed {
			f++ // each unsigned format follows its signed one
		}
		return f
	}
	return map[ffmt]backend.TensorFormat{f16: backend.TensorFloat16, bf16: backend.TensorBFloat16, f32: backend.TensorFloat32,
		f64: backend.TensorFloat64, e4m3: backend.TensorFloatE4M3, e5m2: backend.TensorFloatE5M2}[et.ff]
}

// formatFits reports whether a tensor of element type et may be bound to
// elements of format f: the same format, or for an unsigned integer type
// also the signed one of its width (VK_ARM_tensors' compatibility table).
func formatFits(et *typ, f backend.TensorFormat) bool {
	want := tensorFormat(et)
	return f == want || et.kind == kInt && !et.signed && f == want-1
}

// tensorValue validates binding b of tensor descriptor dv and returns
// its handle.
func (x *dispatchRun) tensorValue(dv *descVar, b backend.Binding, bb *buffer) (uint64, error) {
	where := fmt.Sprintf("binding (set %d, binding %d)", b.Set, b.Binding)
	if b.Kind != backend.StorageTensor || b.Tensor == nil {
		return 0, fmt.Errorf("%s: the shader declares a tensor; bind it with Kind StorageTensor and a Tensor description", where)
	}
	d := b.Tensor
	if err := d.Validate(); err != nil {
		return 0, fmt.Errorf("%s: %v", where, err)
	}
	tt := dv.tensor
	if len(d.Dimensions) != tt.count {
		return 0, fmt.Errorf("%s: a tensor of %d dimensions bound to a tensor of rank %d", where, len(d.Dimensions), tt.count)
	}
	if !formatFits(tt.elem, d.Format) {
		return 0, fmt.Errorf("%s: %v elements bound to a tensor of %v", where, d.Format, tensorFormat(tt.elem))
	}
	if ext := d.Extent(); ext > int64(len(bb.data)) {
		return 0, fmt.Errorf("%s: the tensor needs %d bytes, its buffer has %d", where, ext, len(bb.data))
	}
	if len(x.tensors) >= 1<<16-1 {
		return 0, fmt.Errorf("%s: more than %d tensors", where, 1<<16-1)
	}
	x.tensors = append(x.tensors, boundTensor{elem: tt.elem, buf: bb, dims: d.Dimensions, strides: d.ByteStrides(), es: d.Format.Size()})
	return addrOf(regTensor, uint64(len(x.tensors)), 0), nil
}

// tensor resolves a handle.
func (l *lane) tensor(in *instr, h uint64) (*boundTensor, error) {
	k := (h >> offBits) & 0xffff
	if h>>56 != regTensor || k == 0 || int(k) > len(l.x.tensors) {
		return nil, l.fail(in, "no tensor is bound here (handle 0x%x)", h)
	}
	return &l.x.tensors[k-1], nil
}

func isTensorARMOp(op spirv.Op) bool {
	return op == spirv.OpTensorReadARM || op == spirv.OpTensorWriteARM || op == spirv.OpTensorQuerySizeARM
}

// tensorAccess is a decoded OpTensorReadARM or OpTensorWriteARM: in.a
// holds the tensor, the coordinates' first slot and, for a write, the
// object's first slot.
type tensorAccess struct {
	elem   *typ
	rank   int
	coordW int   // width of a coordinate
	signed bool  // the coordinates are signed
	n      int   // elements accessed
	oob    int32 // slot of the OutOfBoundsValueARM value, or -1
}

// compileTensorARM decodes the tensor instructions. The memory operands
// (MakeElementAvailable/Visible with their scopes, NonPrivateElement) and
// Nontemporal need nothing here: every access goes straight to memory.
func (p *prog) compileTensorARM(i int, ins *instr, ops []uint32) (*instr, error) {
	if len(ops) < 2 {
		return nil, p.errAt(i, "%s needs a tensor and %s", ins.op, map[bool]string{true: "a dimension", false: "coordinates"}[ins.op == spirv.OpTensorQuerySizeARM])
	}
	ts, tt := p.slotOf(ops[0])
	if ts < 0 || tt.kind != kTensorARM {
		return nil, p.errAt(i, "%%%d is not a tensor", ops[0])
	}
	if tt.count == 0 {
		return nil, nil // an unranked tensor type, already reported
	}
	if ins.op == spirv.OpTensorQuerySizeARM {
		d, ok := p.constU(ops[1])
		if !ok || d >= uint64(tt.count) {
			return nil, p.errAt(i, "dimension %%%d is not a constant below the rank %d", ops[1], tt.count)
		}
		if ins.t == nil || ins.t.kind != kInt {
			return nil, p.errAt(i, "the result is not an integer")
		}
		ins.a, ins.sub = []int32{ts}, uint32(d)
		return ins, nil
	}
	cs, ct := p.slotOf(ops[1])
	if cs < 0 || ct.kind != kArray || ct.elem.kind != kInt || ct.count != tt.count {
		return nil, p.errAt(i, "coordinates %%%d are not an array of %d integers", ops[1], tt.count)
	}
	ta := &tensorAccess{elem: tt.elem, rank: tt.count, coordW: ct.elem.width, signed: ct.elem.signed, oob: -1}
	ins.a = []int32{ts, cs}
	rest := ops[2:]
	vt := ins.t
	if ins.op == spirv.OpTensorWriteARM {
		if len(rest) == 0 {
			return nil, p.errAt(i, "missing object")
		}
		var os int32
		os, vt = p.slotOf(rest[0])
		if os < 0 {
			return nil, p.errAt(i, "object %%%d has no value", rest[0])
		}
		ins.a = append(ins.a, os)
		rest = rest[1:]
	}
	switch {
	case vt == nil:
		return nil, p.errAt(i, "missing result type")
	case vt == tt.elem:
		ta.n = 1
	case vt.kind == kArray && vt.elem == tt.elem:
		ta.n = vt.count
	default:
		return nil, p.errAt(i, "the data is not the tensor's element type or an array of it")
	}
	if len(rest) > 0 {
		mask := spirv.TensorOperands(rest[0])
		ids := rest[1:]
		next := func(what string) (uint32, error) {
			if len(ids) == 0 {
				return 0, p.errAt(i, "missing %s operand", what)
			}
			id := ids[0]
			ids = ids[1:]
			return id, nil
		}
		known := spirv.TensorOperandsNontemporalARM | spirv.TensorOperandsOutOfBoundsValueARM | spirv.TensorOperandsMakeElementAvailableARM |
			spirv.TensorOperandsMakeElementVisibleARM | spirv.TensorOperandsNonPrivateElementARM
		if mask&^known != 0 {
			return nil, p.errAt(i, "unknown tensor operands 0x%x", uint32(mask&^known))
		}
		if mask&spirv.TensorOperandsOutOfBoundsValueARM != 0 {
			id, err := next("OutOfBoundsValueARM")
			if err != nil {
				return nil, err
			}
			s, t := p.slotOf(id)
			if ins.op != spirv.OpTensorReadARM || s < 0 || s >= p.constEnd || t != tt.elem {
				return nil, p.errAt(i, "OutOfBoundsValueARM needs a read and a constant of the element type")
			}
			ta.oob = s
		}
		for _, m := range []spirv.TensorOperands{spirv.TensorOperandsMakeElementAvailableARM, spirv.TensorOperandsMakeElementVisibleARM} {
			if mask&m != 0 {
				if _, err := next("scope"); err != nil {
					return nil, err
				}
			}
		}
	}
	ins.aux = ta
	return ins, nil
}

// armTensor runs a tensor instruction for one invocation.
func (l *lane) armTensor(in *instr) error {
	r := l.regs
	bt, err := l.tensor(in, r[in.a[0]])
	if err != nil {
		return err
	}
	if in.op == spirv.OpTensorQuerySizeARM {
		if int(in.sub) >= len(bt.dims) {
			return l.fail(in, "dimension %d of a tensor of rank %d", in.sub, len(bt.dims))
		}
		r[in.res] = uint64(bt.dims[in.sub]) & mask(in.t.width)
		return nil
	}
	ta := in.aux.(*tensorAccess)
	if bt.elem != ta.elem || len(bt.dims) != ta.rank {
		return l.fail(in, "the tensor bound here is not of the instruction's tensor type")
	}
	// A coordinate is signed or unsigned as its type is; element j of the
	// access is at the mathematical coordinate inner+j of the innermost
	// dimension, and each element is in or out of bounds on its own.
	coord := func(v uint64) int64 {
		if ta.signed {
			return sext(v, ta.coordW)
		}
		if v &= mask(ta.coordW); v > 1<<62 {
			return -1 // beyond any dimension
		}
		return int64(v)
	}
	coords := r[in.a[1] : in.a[1]+int32(ta.rank)]
	base := int64(0)
	outer := true // the outer coordinates are within the tensor
	for k, v := range coords[:ta.rank-1] {
		c := coord(v)
		if c < 0 || c >= bt.dims[k] {
			outer = false
			break
		}
		base += c * bt.strides[k]
	}
	inner := coord(coords[ta.rank-1])
	last, dimIn := bt.strides[ta.rank-1], bt.dims[ta.rank-1]
	// at is the byte offset of element j, ok whether it is in bounds.
	at := func(j int) (off int64, ok bool) {
		c := inner + int64(j)
		return base + c*last, outer && c >= 0 && c < dimIn
	}
	data := bt.buf.data
	es := int64(bt.es)
	if in.op == spirv.OpTensorWriteARM {
		for j, v := range r[in.a[2] : in.a[2]+int32(ta.n)] {
			if off, ok := at(j); ok { // writes outside the tensor are dropped
				wrTensorElem(ta.elem, data[off:off+es], v)
			}
		}
		return nil
	}
	dst := r[in.res : in.res+int32(ta.n)]
	for j := range dst {
		off, ok := at(j)
		switch {
		case ok:
			dst[j] = rdTensorElem(ta.elem, data[off:off+es])
		case ta.oob >= 0:
			dst[j] = r[ta.oob]
		default:
			dst[j] = 0
		}
	}
	return nil
}

// A bool element is one byte (VK_FORMAT_R8_BOOL_ARM), nonzero for true.
func rdTensorElem(t *typ, b []byte) uint64 {
	if t.kind == kBool {
		if b[0] != 0 {
			return 1
		}
		return 0
	}
	return rdScalar(t, b)
}

func wrTensorElem(t *typ, b []byte, v uint64) {
	if t.kind == kBool {
		b[0] = byte(v & 1)
		return
	}
	wrScalar(t, b, v)
}
