package exec

import (
	"encoding/binary"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/coopshader/coop/spirv"
	"github.com/coopshader/coop/validate"
)

// prog is a module prepared for one entry point, one set of specialization
// constants and one subgroup size.
type prog struct {
	m   *spirv.Module
	res *validate.Result // what validation established about m
	// idPos lists the word positions of each instruction's id operands,
	// instruction i's from idAt[i] to idAt[i+1] (idOperands).
	idPos  []uint16
	idAt   []int32
	sgSize int
	types  map[uint32]*typ
	slot   []int32 // value slot of each id, -1 when the id has no value
	tyOf   []*typ  // type of each id's value
	tmpl   []uint64
	// constEnd ends the slots of module-scope values: ids below it that
	// hold scalars are constants.
	constEnd int32
	// nInv counts the leader runs' records of module-scope values
	// (uop.inv).
	nInv int32
	// defined are the slot ranges of function instructions' results (while
	// compiling); reset the ranges a workgroup restores (resetSlots).
	defined, reset [][2]int32
	code           []instr
	fe             *fenv // float controls and device numerics; nil for the defaults
	entry          int32
	fnPC           map[uint32]int32
	params         map[uint32][]int32
	paramN         map[uint32][]int32 // slots of each parameter
	paramIDs       map[uint32][]uint32
	fnRet          map[uint32]*typ // each function's return type
	local          [3]uint32
	// localIDs are the LocalSizeId operands, resolved after globals.
	localIDs [3]uint32
	// wideColl: every collective is a barrier or a subgroup operation,
	// so a workgroup may run in lockstep as a whole (wgState.wide).
	wideColl bool
	// batch: workgroups may run several at once (batchable).
	batch bool
	// live caches liveAt's answers, by instruction (int32 to []uint64):
	// the dispatches' workers share them.
	live *sync.Map

	invMem  int
	invInit []byte
	wgMem   int
	wgInit  []byte
	// wgInitialized are the byte ranges of workgroup variables with an
	// initializer (Options.Check: reading them is defined).
	wgInitialized [][2]int
	inputs        []inputVar
	descs         []descVar
	// imgDescs are the image, sampler and sampled image descriptors.
	imgDescs []imgDesc
	strs     map[uint32]string
	extSets  map[uint32]string
	decos    map[uint32]*deco
	mdecos   map[[2]uint32]*deco
	spec     map[uint32][]byte

	unsupported []string
	// wgScopeLanes is the workgroup size Workgroup-scope cooperative
	// matrices were laid out for.
	wgScopeLanes int
	// derivQuads and derivLinear say how compute derivatives group
	// invocations into quads.
	derivQuads, derivLinear bool
	// callbacks are instructions that call functions (coopmat2), resolved
	// once every function is compiled; halt is the pc a callback returns to.
	callbacks []*coop2
	halt      int32
	// solo holds the solo runs of the blocks of divergent regions' sides,
	// by the pc starting them (solo.go); nil where no region has any.
	solo []*soloRun
	// ptrLay is the layout of pointers to matrices (or to columns of
	// row-major matrices) within explicitly laid-out memory.
	ptrLay map[uint32]matLayout
	// heap holds descriptor heap variables and id-decorated layouts.
	heap *heapInfo
}

type inputVar struct {
	off     int
	builtin spirv.BuiltIn
	t       *typ
}

type descVar struct {
	slot         int32
	set, binding uint32
	count        int // descriptors in an array of blocks; 0 for one
	id           uint32
	tensor       *typ // the tensor type of a tensor descriptor (or array of them)
	accel        bool // acceleration structures, not buffers
}

type deco struct {
	builtin  int64
	specID   int64
	set      int64
	binding  int64
	stride   int
	offset   int
	mstride  int
	rowMajor bool
	round    int
	sat      bool
}

func newDeco() *deco {
	return &deco{builtin: -1, specID: -1, set: -1, binding: -1, offset: -1, round: -1}
}

// prepError is a fault found while preparing a module.
type prepError struct {
	index int
	op    spirv.Op
	msg   string
}

func (e *prepError) Error() string {
	return fmt.Sprintf("error: instruction %d (%s): %s", e.index, e.op, e.msg)
}

func (p *prog) errAt(i int, format string, args ...any) error {
	return &prepError{i, p.m.Insts[i].Op, fmt.Sprintf(format, args...)}
}

// prepare builds a prog. Every unsupported instruction is reported at once.
func prepare(m *spirv.Module, res *validate.Result, entry string, spec map[uint32][]byte, sgSize int) (*prog, error) {
	p := &prog{
		m: m, res: res, sgSize: sgSize, spec: spec,
		types: map[uint32]*typ{}, fnPC: map[uint32]int32{}, params: map[uint32][]int32{}, paramN: map[uint32][]int32{}, paramIDs: map[uint32][]uint32{}, fnRet: map[uint32]*typ{},
		strs: map[uint32]string{}, extSets: map[uint32]string{},
		decos: map[uint32]*deco{}, mdecos: map[[2]uint32]*deco{},
		ptrLay: map[uint32]matLayout{}, live: new(sync.Map),
	}
	// Validation keeps every result id below the bound.
	bound := m.Bound
	if bound > 1<<24 {
		return nil, fmt.Errorf("error: id bound %d is too large (the executor takes ids below 2^24)", bound)
	}
	p.slot = make([]int32, bound)
	for i := range p.slot {
		p.slot[i] = -1
	}
	p.tyOf = make([]*typ, bound)
	p.tmpl = make([]uint64, 1) // slot 0 is a scratch zero
	p.constEnd = 1 << 30
	if err := p.collectDecorations(); err != nil {
		return nil, err
	}
	p.collectIDDecorations()
	var entryFn uint32
	found := false
	firstFn := len(m.Insts)
	var fwdPtrs []*typ
	for i := range m.Insts {
		in := &m.Insts[i]
		if in.Op == spirv.OpFunction {
			firstFn = i
			break
		}
		w := in.Words
		switch in.Op {
		case spirv.OpEntryPoint:
			name, _, _ := spirv.DecodeString(w[2:])
			if (name == entry || entry == "") && !found && spirv.ExecutionModel(w[0]) == spirv.ExecutionModelGLCompute {
				entryFn, found = w[1], true
			}
		case spirv.OpString:
			s, _, _ := spirv.DecodeString(w[1:])
			p.strs[w[0]] = s
		case spirv.OpExtInstImport:
			s, _, _ := spirv.DecodeString(w[1:])
			p.extSets[w[0]] = s
		}
	}
	if !found {
		if entry == "" {
			return nil, fmt.Errorf("error: module has no GLCompute entry point")
		}
		return nil, fmt.Errorf("error: module has no GLCompute entry point named %q", entry)
	}
	for i := 0; i < firstFn; i++ {
		in := &m.Insts[i]
		var err error
		switch in.Op {
		case spirv.OpExecutionMode, spirv.OpExecutionModeId:
			if len(in.Words) >= 5 && in.Words[0] == entryFn {
				switch spirv.ExecutionMode(in.Words[1]) {
				case spirv.ExecutionModeLocalSize:
					p.local = [3]uint32{in.Words[2], in.Words[3], in.Words[4]}
				case spirv.ExecutionModeLocalSizeId:
					p.localIDs = [3]uint32{in.Words[2], in.Words[3], in.Words[4]}
				case spirv.ExecutionModeTileShadingRateQCOM:
					p.local = tileLocal([3]uint32{in.Words[2], in.Words[3], in.Words[4]})
				}
			}
			if len(in.Words) >= 2 && in.Words[0] == entryFn {
				switch spirv.ExecutionMode(in.Words[1]) {
				case spirv.ExecutionModeDerivativeGroupQuadsKHR:
					p.derivQuads = true
				case spirv.ExecutionModeDerivativeGroupLinearKHR:
					p.derivLinear = true
				}
			}
		default:
			if spirv.SectionOf(in.Op) != spirv.SecGlobal {
				break // debug, annotations, imports: nothing to run
			}
			switch d := in.Op.Desc(); {
			case d.Class == "Type-Declaration" || in.Op == spirv.OpTypeForwardPointer:
				var t *typ
				t, err = p.declType(i)
				if t != nil && t.kind == kPointer {
					fwdPtrs = append(fwdPtrs, t)
				}
			case d.Class == "Constant-Creation" || in.Op == spirv.OpUndef:
				err = p.declConst(i)
			case in.Op == spirv.OpVariable || in.Op == spirv.OpUntypedVariableKHR:
				err = p.declGlobal(i)
			default:
				p.unsupport(i, "")
			}
		}
		if err != nil {
			return nil, err
		}
	}
	for _, t := range fwdPtrs {
		if t.elem == nil {
			t.elem = p.types[uint32(t.count)]
		}
	}
	p.constEnd = int32(len(p.tmpl))
	if err := p.localSize(); err != nil {
		return nil, err
	}
	if err := p.compileFunctions(firstFn); err != nil {
		return nil, err
	}
	if len(p.unsupported) > 0 {
		return nil, fmt.Errorf("%w:\n%s", ErrUnsupported, strings.Join(p.unsupported, "\n"))
	}
	lanes := int64(p.local[0]) * int64(p.local[1]) * int64(p.local[2])
	if lanes*int64(len(p.tmpl)) > 1<<24 || lanes*int64(p.invMem) > 1<<27 || p.wgMem > 1<<26 {
		return nil, fmt.Errorf("%w: a workgroup needs %d value slots and %d bytes of memory per invocation, %d bytes shared (too large)",
			ErrUnsupported, len(p.tmpl), p.invMem, p.wgMem)
	}
	pc, ok := p.fnPC[entryFn]
	if !ok {
		return nil, fmt.Errorf("error: entry point function %%%d is not defined", entryFn)
	}
	p.entry = pc
	p.findReturnRegions()
	p.batch = p.batchable()
	return p, nil
}

func (p *prog) collectDecorations() error {
	get := func(id uint32) *deco {
		d := p.decos[id]
		if d == nil {
			d = newDeco()
			p.decos[id] = d
		}
		return d
	}
	getm := func(id, m uint32) *deco {
		k := [2]uint32{id, m}
		d := p.mdecos[k]
		if d == nil {
			d = newDeco()
			p.mdecos[k] = d
		}
		return d
	}
	for i := range p.m.Insts {
		in := &p.m.Insts[i]
		var d *deco
		var w []uint32
		switch in.Op {
		case spirv.OpDecorate:
			d, w = get(in.Words[0]), in.Words[1:]
		case spirv.OpMemberDecorate:
			d, w = getm(in.Words[0], in.Words[1]), in.Words[2:]
		default:
			continue
		}
		arg := func() int64 {
			if len(w) > 1 {
				return int64(w[1])
			}
			return 0
		}
		switch spirv.Decoration(w[0]) {
		case spirv.DecorationBuiltIn:
			d.builtin = arg()
		case spirv.DecorationSpecId:
			d.specID = arg()
		case spirv.DecorationDescriptorSet:
			d.set = arg()
		case spirv.DecorationBinding:
			d.binding = arg()
		case spirv.DecorationArrayStride:
			d.stride = int(arg())
		case spirv.DecorationOffset:
			d.offset = int(arg())
		case spirv.DecorationMatrixStride:
			d.mstride = int(arg())
		case spirv.DecorationRowMajor:
			d.rowMajor = true
		case spirv.DecorationFPRoundingMode:
			d.round = int(arg())
		case spirv.DecorationSaturatedToLargestFloat8NormalConversionEXT:
			d.sat = true
		}
	}
	return nil
}

// constU returns the value of a scalar constant id.
func (p *prog) constU(id uint32) (uint64, bool) {
	if int(id) >= len(p.slot) || p.slot[id] < 0 || p.slot[id] >= p.constEnd || p.tyOf[id] == nil || !p.tyOf[id].scalar() {
		return 0, false
	}
	return p.tmpl[p.slot[id]], true
}

// maxSlots bounds the register file of one invocation.
const maxSlots = 1 << 22

// maxMem bounds the Private and Function memory of one invocation and the
// shared memory of a workgroup.
const maxMem = 1 << 26

func (p *prog) newSlots(i int, id uint32, t *typ) (int32, error) {
	s := int32(len(p.tmpl))
	n := max(t.slots, 0)
	if len(p.tmpl)+n > maxSlots {
		return 0, fmt.Errorf("%w: instruction %d: values need more than %d slots per invocation", ErrUnsupported, i, maxSlots)
	}
	p.tmpl = append(p.tmpl, make([]uint64, n)...)
	p.slot[id] = s
	p.tyOf[id] = t
	return s, nil
}

func (p *prog) typeArg(i int, id uint32) (*typ, error) {
	t := p.types[id]
	if t == nil {
		return nil, p.errAt(i, "%%%d is not a type declared before its use", id)
	}
	return t, nil
}

func (p *prog) declType(i int) (*typ, error) {
	in := &p.m.Insts[i]
	w := in.Words // complete: validation checked the operands
	if in.Op == spirv.OpTypeForwardPointer {
		// A placeholder the later OpTypePointer fills in place, so structs
		// declared in between can hold the pointer.
		t := &typ{id: w[0], kind: kPointer, slots: 1, sc: spirv.StorageClass(w[1])}
		t.finishLayout()
		p.types[w[0]] = t
		return t, nil
	}
	t := &typ{id: w[0]}
	if old := p.types[w[0]]; old != nil && in.Op == spirv.OpTypePointer && old.kind == kPointer {
		t = old
	}
	arg := func(k int) (*typ, error) { return p.typeArg(i, w[k]) }
	cnst := func(k int) (int, error) {
		v, ok := p.constU(w[k])
		if !ok {
			return 0, p.errAt(i, "%%%d is not a scalar constant", w[k])
		}
		return int(v), nil
	}
	var err error
	switch in.Op {
	case spirv.OpTypeVoid:
		t.kind = kVoid
	case spirv.OpTypeBool:
		t.kind, t.slots = kBool, 1
	case spirv.OpTypeInt:
		t.kind, t.width, t.signed, t.slots = kInt, int(w[1]), w[2] != 0, 1
		if t.width != 4 && t.width != 8 && t.width != 16 && t.width != 32 && t.width != 64 {
			p.unsupport(i, fmt.Sprintf("%d-bit integers", t.width))
			t.width = 32
		}
	case spirv.OpTypeFloat:
		t.kind, t.width, t.slots = kFloat, int(w[1]), 1
		switch {
		case len(w) >= 3 && spirv.FPEncoding(w[2]) == spirv.FPEncodingBFloat16KHR && t.width == 16:
			t.ff = bf16
		case len(w) >= 3 && spirv.FPEncoding(w[2]) == spirv.FPEncodingFloat8E4M3EXT && t.width == 8:
			t.ff = e4m3
		case len(w) >= 3 && spirv.FPEncoding(w[2]) == spirv.FPEncodingFloat8E5M2EXT && t.width == 8:
			t.ff = e5m2
		case len(w) >= 3 && spirv.FPEncoding(w[2]) == spirv.FPEncodingFloat6E3M2EXT && t.width == 6:
			t.ff = e3m2
		case len(w) >= 3 && spirv.FPEncoding(w[2]) == spirv.FPEncodingFloat6E2M3EXT && t.width == 6:
			t.ff = e2m3
		case len(w) >= 3 && spirv.FPEncoding(w[2]) == spirv.FPEncodingFloat4E2M1EXT && t.width == 4:
			t.ff = e2m1
		case len(w) >= 3 && spirv.FPEncoding(w[2]) == spirv.FPEncodingMXInt8EXT && t.width == 8:
			t.ff = mxint8
		case len(w) >= 3 && spirv.FPEncoding(w[2]) == spirv.FPEncodingFloat8UnsignedE8M0EXT && t.width == 8:
			t.ff = ue8m0
		case len(w) >= 3:
			p.unsupport(i, fmt.Sprintf("float encoding %d", w[2]))
			t.ff, t.width = f32, 32
		case t.width == 16:
			t.ff = f16
		case t.width == 32:
			t.ff = f32
		case t.width == 64:
			t.ff = f64
		default:
			p.unsupport(i, fmt.Sprintf("%d-bit floats", t.width))
			t.ff, t.width = f32, 32
		}
	case spirv.OpTypeVector, spirv.OpTypeVectorIdEXT:
		if t.elem, err = arg(1); err != nil {
			return nil, err
		}
		t.kind = kVector
		if in.Op == spirv.OpTypeVector {
			t.count = int(w[2])
		} else if t.count, err = cnst(2); err != nil {
			return nil, err
		}
		t.slots = t.count
	case spirv.OpTypeMatrix:
		if t.elem, err = arg(1); err != nil {
			return nil, err
		}
		t.kind, t.count = kMatrix, int(w[2])
		t.slots = t.count * t.elem.slots
	case spirv.OpTypeArray:
		if t.elem, err = arg(1); err != nil {
			return nil, err
		}
		if t.count, err = cnst(2); err != nil {
			return nil, err
		}
		if t.count < 0 || t.count > 1<<24 || int64(t.count)*int64(t.elem.slots) > 1<<24 || int64(t.count)*int64(t.elem.size) > 1<<28 {
			return nil, p.errAt(i, "array of %d elements is too large", t.count)
		}
		t.kind, t.slots = kArray, t.count*t.elem.slots
		t.stride = p.deco(w[0]).stride
	case spirv.OpTypeRuntimeArray:
		if t.elem, err = arg(1); err != nil {
			return nil, err
		}
		t.kind = kRuntimeArray
		t.stride = p.deco(w[0]).stride
	case spirv.OpTypeStruct:
		t.kind = kStruct
		for k := 1; k < len(w); k++ {
			m, err := arg(k)
			if err != nil {
				return nil, err
			}
			t.mem = append(t.mem, m)
			t.moff = append(t.moff, t.slots)
			t.slots += m.slots
			md := p.mdecos[[2]uint32{w[0], uint32(k - 1)}]
			off, ml := -1, matLayout{}
			if md != nil {
				off = md.offset
				ml = matLayout{md.mstride, md.rowMajor}
			}
			t.offs = append(t.offs, off)
			t.mlay = append(t.mlay, ml)
		}
	case spirv.OpTypePointer:
		t.kind, t.slots, t.sc = kPointer, 1, spirv.StorageClass(w[1])
		t.elem = p.types[w[2]]
		t.count = int(w[2]) // resolved after a forward declaration
	case spirv.OpTypeFunction:
		t.kind = kFunction
	case spirv.OpTypeTensorLayoutNV, spirv.OpTypeTensorViewNV:
		if err := p.declTensorType(i, t, w); err != nil {
			return nil, err
		}
	case spirv.OpTypeTensorARM:
		if err := p.declTensorARM(i, t, w); err != nil {
			return nil, err
		}
	case spirv.OpTypeCooperativeMatrixKHR, spirv.OpTypeCooperativeMatrixNV:
		if t.elem, err = arg(1); err != nil {
			return nil, err
		}
		sc, _ := p.constU(w[2])
		if t.rows, err = cnst(3); err != nil {
			return nil, err
		}
		if t.cols, err = cnst(4); err != nil {
			return nil, err
		}
		t.kind, t.scope = kCoopMat, uint32(sc)
		if in.Op == spirv.OpTypeCooperativeMatrixKHR {
			u, err := cnst(5)
			if err != nil {
				return nil, err
			}
			t.use = u
		} else {
			t.nv, t.use = true, int(spirv.CooperativeMatrixUseMatrixAccumulatorKHR)
		}
		if spirv.Scope(t.scope) != spirv.ScopeSubgroup && spirv.Scope(t.scope) != spirv.ScopeWorkgroup {
			p.unsupport(i, "cooperative matrices of a scope other than Subgroup or Workgroup")
		}
		// Each dimension is bounded first, so the product cannot wrap.
		if t.rows <= 0 || t.cols <= 0 || t.rows > 1<<20 || t.cols > 1<<20 || t.rows*t.cols > 1<<20 {
			return nil, p.errAt(i, "cooperative matrix of %d x %d elements: more than the executor's limit of 2^20 elements (or an empty one)", t.rows, t.cols)
		}
		switch spirv.Scope(t.scope) {
		case spirv.ScopeSubgroup:
			t.count = coopLen(t.rows, t.cols, p.sgSize)
		case spirv.ScopeWorkgroup:
			// Elements are spread over the whole workgroup.
			local, _ := p.resolveLocal()
			n := int(local[0] * local[1] * local[2])
			if n <= 0 || n > 1<<16 {
				p.unsupport(i, "Workgroup-scope cooperative matrix before the workgroup size is known")
				n = 1
			}
			p.wgScopeLanes = n
			t.count = coopLen(t.rows, t.cols, n)
		}
		t.slots = t.count
	case spirv.OpTypeAccelerationStructureKHR:
		t.kind, t.slots = kAccel, 1
	case spirv.OpTypeRayQueryKHR:
		t.kind, t.slots = kRayQuery, 1
	case spirv.OpTypeImage, spirv.OpTypeSampler, spirv.OpTypeSampledImage:
		if err := p.declImageType(i, t, w); err != nil {
			return nil, err
		}
	default:
		t.kind, t.slots = kOpaque, 1
	}
	if err := p.heapType(i, t); err != nil {
		return nil, err
	}
	t.finishLayout()
	p.types[w[0]] = t
	return t, nil
}

func (p *prog) deco(id uint32) *deco {
	if d := p.decos[id]; d != nil {
		return d
	}
	return newDeco()
}

func (p *prog) unsupport(i int, what string) {
	in := &p.m.Insts[i]
	msg := fmt.Sprintf("instruction %d: %s", i, in.Op)
	if id := in.ResultID(); id != 0 {
		msg = fmt.Sprintf("instruction %d: %%%d = %s", i, id, in.Op)
	}
	if what != "" {
		msg += ": " + what
	}
	p.unsupported = append(p.unsupported, "unsupported "+msg)
}

func (p *prog) declConst(i int) error {
	in := &p.m.Insts[i]
	w := in.Words
	t, err := p.typeArg(i, w[0])
	if err != nil {
		return err
	}
	id := w[1]
	s, err := p.newSlots(i, id, t)
	if err != nil {
		return err
	}
	dst := p.tmpl[s : s+int32(t.slots)]
	specBytes, hasSpec := []byte(nil), false
	if d := p.decos[id]; d != nil && d.specID >= 0 {
		specBytes, hasSpec = p.spec[uint32(d.specID)]
	}
	switch in.Op {
	case spirv.OpConstant, spirv.OpSpecConstant:
		v := uint64(w[2])
		if len(w) > 3 {
			v |= uint64(w[3]) << 32
		}
		if hasSpec {
			var b [8]byte
			copy(b[:], specBytes)
			v = binary.LittleEndian.Uint64(b[:])
		}
		dst[0] = v & mask(t.width)
	case spirv.OpConstantTrue, spirv.OpConstantFalse, spirv.OpSpecConstantTrue, spirv.OpSpecConstantFalse:
		v := in.Op == spirv.OpConstantTrue || in.Op == spirv.OpSpecConstantTrue
		if hasSpec {
			v = false
			for _, c := range specBytes {
				v = v || c != 0
			}
		}
		if v {
			dst[0] = 1
		}
	case spirv.OpConstantNull, spirv.OpUndef:
	case spirv.OpConstantSizeOfEXT:
		if len(w) < 3 || t.kind != kInt {
			return p.errAt(i, "OpConstantSizeOfEXT needs an integer result and a type")
		}
		n, err := p.sizeOf(i, w[2])
		if err != nil {
			return err
		}
		dst[0] = n & mask(t.width)
	case spirv.OpConstantComposite, spirv.OpSpecConstantComposite:
		if t.kind == kCoopMat && len(w) == 3 {
			// A cooperative matrix constant has one constituent that
			// fills every element.
			cs, ct := p.slotOf(w[2])
			if cs < 0 || ct.slots != 1 {
				return p.errAt(i, "constituent %%%d is not a scalar constant", w[2])
			}
			for k := range dst {
				dst[k] = p.tmpl[cs]
			}
			break
		}
		k := 0
		for _, c := range w[2:] {
			cs, ct := p.slotOf(c)
			if cs < 0 || k+ct.slots > len(dst) {
				return p.errAt(i, "constituent %%%d is not a constant that fits", c)
			}
			copy(dst[k:], p.tmpl[cs:cs+int32(ct.slots)])
			k += ct.slots
		}
	case spirv.OpConstantDataKHR, spirv.OpSpecConstantDataKHR:
		// Packed little-endian elements of an array or vector of scalars.
		if (t.kind != kArray && t.kind != kVector) || t.elem == nil || !t.elem.scalar() || t.elem.slots != 1 || t.elem.width%8 != 0 {
			return p.errAt(i, "constant data needs an array or vector of scalars")
		}
		data := make([]byte, 4*len(w[2:]))
		for k, x := range w[2:] {
			binary.LittleEndian.PutUint32(data[4*k:], x)
		}
		if hasSpec {
			data = specBytes
		}
		es := t.elem.width / 8
		for k := range dst {
			var b [8]byte
			if (k+1)*es <= len(data) {
				copy(b[:], data[k*es:(k+1)*es])
			}
			dst[k] = binary.LittleEndian.Uint64(b[:])
		}
	case spirv.OpConstantCompositeReplicateEXT, spirv.OpSpecConstantCompositeReplicateEXT:
		if len(w) < 3 {
			return p.errAt(i, "missing constituent")
		}
		cs, ct := p.slotOf(w[2])
		if cs < 0 || ct.slots == 0 {
			return p.errAt(i, "constituent %%%d is not a constant", w[2])
		}
		for k := 0; k+ct.slots <= len(dst); k += ct.slots {
			copy(dst[k:], p.tmpl[cs:cs+int32(ct.slots)])
		}
	case spirv.OpSpecConstantOp:
		ins, err := p.compileOp(i, spirv.Op(w[2]), w[0], id, w[3:])
		if err != nil {
			return err
		}
		if ins == nil {
			return p.errAt(i, "opcode %s cannot be used in OpSpecConstantOp", spirv.Op(w[2]))
		}
		l := &lane{regs: p.tmpl, p: p}
		if err := l.eval(ins); err != nil {
			return err
		}
	default:
		p.unsupport(i, "")
	}
	return nil
}

func (p *prog) slotOf(id uint32) (int32, *typ) {
	if int(id) >= len(p.slot) || p.slot[id] < 0 {
		return -1, nil
	}
	return p.slot[id], p.tyOf[id]
}

// Address encoding: region kind in the top byte, a region index in the
// next 16 bits, the byte offset in the low 40 bits.
const (
	regBuf  = 1
	regWG   = 2
	regInv  = 3
	regPush = 4
	// regAccel: acceleration structures (never memory; accel.go).
	regAccel = 5
	// regDesc addresses image descriptor memory (index: the imgDesc);
	// regImg a texel of a bound image (index: the view's handle; index 0
	// is the null texel that out-of-bounds texel pointers reach);
	// regHeapImg a texel of an image reached through a descriptor heap
	// (index: the image's number).
	regDesc    = 6
	regImg     = 7
	regHeapImg = 8
	offBits    = 40
)

func addrOf(kind, index uint64, off int) uint64 {
	return kind<<56 | index<<offBits | uint64(off)
}

func (p *prog) declGlobal(i int) error {
	w := p.m.Insts[i].Words
	pt, err := p.typeArg(i, w[0])
	if err != nil {
		return err
	}
	t, initID := pt.elem, w[3:]
	if p.m.Insts[i].Op == spirv.OpUntypedVariableKHR && pt.kind == kPointer {
		var handled bool
		if t, initID, handled, err = p.untypedVar(i, pt); handled || err != nil {
			return err
		}
	}
	if pt.kind != kPointer || t == nil {
		return p.errAt(i, "variable type %%%d is not a pointer", w[0])
	}
	id := w[1]
	s, err := p.newSlots(i, id, pt)
	if err != nil {
		return err
	}
	sc := spirv.StorageClass(w[2])
	d := p.deco(id)
	var init []byte
	if len(initID) > 0 {
		cs, ct := p.slotOf(initID[0])
		if cs < 0 {
			return p.errAt(i, "initializer %%%d is not a constant", initID[0])
		}
		init = make([]byte, t.size)
		if err := storeBytes(ct, init, 0, p.tmpl[cs:], matLayout{}); err != nil {
			return p.errAt(i, "initializer: %v", err)
		}
	}
	switch sc {
	case spirv.StorageClassPrivate, spirv.StorageClassInput, spirv.StorageClassOutput, spirv.StorageClassFunction:
		off := roundUp(p.invMem, 8)
		p.invMem = off + t.size
		if p.invMem > maxMem {
			return fmt.Errorf("%w: instruction %d: more than %d bytes of memory per invocation", ErrUnsupported, i, maxMem)
		}
		p.invInit = append(p.invInit, make([]byte, p.invMem-len(p.invInit))...)
		copy(p.invInit[off:], init)
		p.tmpl[s] = addrOf(regInv, 0, off)
		if sc == spirv.StorageClassInput {
			if d.builtin < 0 || !knownBuiltin(spirv.BuiltIn(d.builtin)) {
				p.unsupport(i, fmt.Sprintf("Input variable with built-in %d", d.builtin))
			}
			p.inputs = append(p.inputs, inputVar{off, spirv.BuiltIn(d.builtin), t})
		}
	case spirv.StorageClassWorkgroup:
		off := roundUp(p.wgMem, 8)
		p.wgMem = off + t.size
		if p.wgMem > maxMem {
			return fmt.Errorf("%w: instruction %d: more than %d bytes of workgroup memory", ErrUnsupported, i, maxMem)
		}
		p.wgInit = append(p.wgInit, make([]byte, p.wgMem-len(p.wgInit))...)
		copy(p.wgInit[off:], init)
		if init != nil {
			p.wgInitialized = append(p.wgInitialized, [2]int{off, off + t.size})
		}
		p.tmpl[s] = addrOf(regWG, 0, off)
	case spirv.StorageClassPushConstant:
		p.tmpl[s] = addrOf(regPush, 0, 0)
	case spirv.StorageClassUniformConstant, spirv.StorageClassTileAttachmentQCOM:
		if _, _, ok := imageElem(t); ok {
			return p.declImageVar(i, s, id, t, d)
		}
		if sc == spirv.StorageClassTileAttachmentQCOM {
			p.unsupport(i, "a TileAttachmentQCOM variable that is not an image")
			return nil
		}
		fallthrough
	case spirv.StorageClassStorageBuffer, spirv.StorageClassUniform:
		if d.set < 0 || d.binding < 0 {
			if sc == spirv.StorageClassUniformConstant {
				return nil // an opaque handle we never dereference
			}
			return p.errAt(i, "buffer variable %%%d has no DescriptorSet/Binding", id)
		}
		dv := descVar{slot: s, set: uint32(d.set), binding: uint32(d.binding), id: id, accel: t.kind == kAccel}
		if bt := t; bt.kind == kTensorARM || (bt.kind == kArray || bt.kind == kRuntimeArray) && bt.elem.kind == kTensorARM {
			if bt.kind != kTensorARM {
				bt = bt.elem
			}
			dv.tensor = bt
		}
		if t.kind == kArray || t.kind == kRuntimeArray {
			dv.accel = t.elem.kind == kAccel
			dv.count = max(t.count, 1)
			if t.kind == kRuntimeArray {
				dv.count = 1 << 10
			}
			p.tmpl = append(p.tmpl, make([]uint64, dv.count)...)
		}
		p.descs = append(p.descs, dv)
	default:
		p.unsupport(i, fmt.Sprintf("variables in storage class %d", sc))
	}
	return nil
}

// resolveLocal works out the local size from what is declared so far:
// the LocalSize or LocalSizeId execution mode, overridden by the
// WorkgroupSize built-in constant.
func (p *prog) resolveLocal() ([3]uint32, error) {
	local := p.local
	for k := range 3 {
		if id := p.localIDs[k]; id != 0 {
			v, ok := p.constU(id)
			if !ok {
				return local, fmt.Errorf("error: LocalSizeId operand %%%d is not a constant", id)
			}
			local[k] = uint32(v)
		}
	}
	ids := make([]uint32, 0, 1)
	for id, d := range p.decos {
		if d.builtin == int64(spirv.BuiltInWorkgroupSize) {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(a, b int) bool { return ids[a] < ids[b] })
	for _, id := range ids {
		s, t := p.slotOf(id)
		if s >= 0 && t.kind == kVector && t.count == 3 {
			for k := range 3 {
				local[k] = uint32(p.tmpl[s+int32(k)])
			}
		}
	}
	return local, nil
}

func (p *prog) localSize() error {
	var err error
	if p.local, err = p.resolveLocal(); err != nil {
		return err
	}
	if p.wgScopeLanes != 0 && uint64(p.wgScopeLanes) != uint64(p.local[0])*uint64(p.local[1])*uint64(p.local[2]) {
		return fmt.Errorf("%w: a Workgroup-scope cooperative matrix is declared before the workgroup size is known", ErrUnsupported)
	}
	n := uint64(p.local[0]) * uint64(p.local[1]) * uint64(p.local[2])
	if n == 0 || n > 1<<16 {
		return fmt.Errorf("%w: workgroup size %dx%dx%d", ErrUnsupported, p.local[0], p.local[1], p.local[2])
	}
	return nil
}
