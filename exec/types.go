package exec

import (
	"github.com/coopshader/coop/spirv"
)

type kind uint8

const (
	kVoid kind = iota
	kBool
	kInt
	kFloat
	kVector
	kMatrix
	kArray
	kRuntimeArray
	kStruct
	kPointer
	kFunction
	kCoopMat
	kTensorARM    // a tensor handle (armtensor.go); elem is the element type, count the rank
	kImage        // an image handle (OpTypeImage): one slot, 8 bytes
	kSampler      // a sampler handle: one slot, 8 bytes
	kSampledImage // an image and a sampler handle: two slots, 16 bytes
	kOpaque       // other handles we cannot run
	kAccel        // an acceleration structure: its 64-bit address
	kRayQuery     // a ray query object (only in memory: see rayquery.go)
)

// typ is a prepared SPIR-V type. Values are held flattened: every scalar
// component (and every pointer) takes one uint64 slot, so a composite is a
// run of slots and extraction is a slot offset.
type typ struct {
	id     uint32
	kind   kind
	width  int // bits of an int or float scalar
	signed bool
	ff     ffmt
	elem   *typ // vector, matrix, array and pointer element; coopmat component
	count  int  // vector components, matrix columns, array length, coopmat elements per invocation
	mem    []*typ
	moff   []int // slot offset of each member
	slots  int

	// Memory layout: explicit decorations when present, otherwise a packed
	// natural layout of our own (used for Function, Private, Workgroup).
	size   int
	align  int
	stride int         // array stride
	offs   []int       // member byte offsets
	mlay   []matLayout // member matrix layouts
	sc     spirv.StorageClass

	// Cooperative matrix.
	rows, cols int
	use        int
	nv         bool
	scope      uint32

	// tensor describes a tensor layout or view (held as a vector of words).
	tensor *tensorInfo
	// img describes an image type (of a sampled image too).
	img *imgType
}

type matLayout struct {
	stride   int
	rowMajor bool
}

// scalar reports whether t is a bool, int or float.
func (t *typ) scalar() bool { return t.kind == kBool || t.kind == kInt || t.kind == kFloat }

// comp is the scalar component type of a scalar, vector or coopmat.
func (t *typ) comp() *typ {
	if t.kind == kVector || t.kind == kCoopMat {
		return t.elem
	}
	if t.kind == kMatrix {
		return t.elem.elem
	}
	return t
}

// bytes is the memory size of one scalar.
func (t *typ) bytes() int {
	switch t.kind {
	case kBool:
		return 4
	case kPointer, kAccel, kRayQuery:
		return 8
	}
	return max(t.width/8, 1)
}

func mask(w int) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(w) - 1
}

// sext sign-extends the low w bits of v.
func sext(v uint64, w int) int64 {
	s := uint(64 - w)
	return int64(v<<s) >> s
}

func roundUp(n, a int) int {
	if a <= 1 {
		return n
	}
	return (n + a - 1) / a * a
}

// finishLayout completes a type's memory layout: explicit strides and
// offsets where decorations gave them, otherwise packed, scalars aligned to
// their size.
func (t *typ) finishLayout() {
	switch t.kind {
	case kBool, kInt, kFloat, kPointer, kAccel, kRayQuery:
		t.size = t.bytes()
		t.align = t.size
	case kVector:
		t.size = t.count * t.elem.size
		if t.nibbles() {
			t.size = (t.count + 1) / 2
		}
		t.align = t.elem.align
	case kMatrix:
		t.size = t.count * t.elem.size
		t.align = t.elem.align
		if t.stride == 0 {
			t.stride = t.elem.size
		}
	case kArray:
		if t.stride == 0 {
			t.stride = roundUp(t.elem.size, t.elem.align)
		}
		t.size = t.stride * t.count
		if t.count > 0 {
			t.size = max(t.size, t.stride*(t.count-1)+t.elem.size)
		}
		t.align = t.elem.align
	case kRuntimeArray:
		if t.stride == 0 {
			t.stride = roundUp(t.elem.size, t.elem.align)
		}
		t.align = t.elem.align
	case kCoopMat:
		t.size = t.count * t.elem.size
		if t.nibbles() {
			t.size = (t.count + 1) / 2
		}
		t.align = t.elem.align
	case kImage, kSampler, kSampledImage:
		t.size, t.align = 8*t.slots, 8
	case kStruct:
		off := 0
		t.align = 1
		for i, m := range t.mem {
			if t.offs[i] < 0 {
				t.offs[i] = roundUp(off, m.align)
			}
			sz := m.size
			if ml := t.mlay[i]; ml.stride != 0 {
				sz = matSize(m, ml)
			}
			off = max(off, t.offs[i]+sz)
			t.align = max(t.align, m.align)
		}
		t.size = roundUp(off, t.align)
	}
	if t.align == 0 {
		t.align = 1
	}
}

// matSize is the memory size of a matrix (or array of matrices) member
// laid out with ml.
func matSize(t *typ, ml matLayout) int {
	switch t.kind {
	case kMatrix:
		col := t.elem
		if ml.rowMajor {
			return ml.stride*(col.count-1) + t.count*col.elem.size
		}
		return ml.stride*(t.count-1) + col.size
	case kArray:
		return t.stride * t.count
	}
	return t.size
}
