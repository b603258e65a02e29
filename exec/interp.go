package exec

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/coopshader/coop/spirv"
)

// ErrUnsupported is wrapped by the error Load and Dispatch return for a
// module that uses instructions the executor does not implement.
var ErrUnsupported = errors.New("unsupported SPIR-V")

// Error is a fault while running a shader: the instruction, the invocation
// and, for memory faults, the address.
type Error struct {
	Index      int // instruction index in the module
	Op         spirv.Op
	ResultID   uint32
	Text       string // the instruction's disassembly when Options.Describe is set
	Invocation [3]uint32
	Addr       uint64
	HasAddr    bool
	Msg        string
	Internal   bool // a bug in the executor, not in the shader
	// Source is "file:line" of the shader source the instruction came
	// from, when the module has OpLine information (glslang's and coop's
	// -g); "" otherwise.
	Source string
}

func (e *Error) Error() string {
	s := "error: "
	if e.Source != "" {
		s += e.Source + ": "
	}
	s += fmt.Sprintf("instruction %d (", e.Index)
	if e.ResultID != 0 {
		s += fmt.Sprintf("%%%d = ", e.ResultID)
	}
	s += e.Op.String() + ")"
	if e.Text != "" {
		s += " `" + e.Text + "`"
	}
	s += fmt.Sprintf(": invocation (%d,%d,%d)", e.Invocation[0], e.Invocation[1], e.Invocation[2])
	if e.HasAddr {
		s += fmt.Sprintf(": address 0x%x", e.Addr)
	}
	if e.Internal {
		s += ": internal error"
	}
	return s + ": " + e.Msg
}

const (
	stRun = iota
	stBlocked
	stDone
)

type frame struct{ ret, res, n, loops int32 }

// loopIter is one loop a lane is inside and its iteration, so that
// collective instructions combine only lanes at the same dynamic instance.
type loopIter struct{ header, iter uint32 }

// lane is one invocation: a resumable interpreter state.
type lane struct {
	// The fields a workgroup's reset writes come first, together.
	pc    int32
	state uint8
	// memStale: mem has not been filled for this workgroup yet (fillMem).
	memStale bool
	steps    int64
	sgl      int // lane within the subgroup
	stack    []frame
	loops    []loopIter
	rqs      []rayQuery // the invocation's ray queries (rayquery.go)
	regs     []uint64
	p        *prog
	x        *dispatchRun
	wg       *wgState
	mem      []byte
	// gmem is its workgroup's memory (its part of wg.mem in a batch).
	gmem []byte
	// lxyz is the LocalInvocationId, in a batch of workgroups with the
	// workgroup's place in the batch as z (newWG: localID, groupID).
	lxyz [3]uint32
	// fixed holds the encoded built-in inputs that stay the same from one
	// workgroup to the next, in p.inputs order (wgState.reset).
	fixed []byte
	lid   int // local invocation index
	tmp   []uint64
	// nullTexel stands for texels outside an image (reads 0, drops writes).
	nullTexel [8]byte
	// self is the lane alone, for vector handlers (vec.go).
	self [1]*lane
	// listed: in wgState.tlist (touch).
	listed bool
	// halt, when not 0, is the pc of a block where run stops, back in
	// lockstep (region.go: a merge block, which never starts a function).
	halt int32
}

// globalID is the invocation's GlobalInvocationId (in 32 bits, wrapping).
func (l *lane) globalID() [3]uint32 {
	if l.wg == nil || l.p == nil {
		return [3]uint32{} // a lane evaluating constants at load time
	}
	id, loc, lx := l.groupID(), l.p.local, l.localID()
	return [3]uint32{id[0]*loc[0] + lx[0], id[1]*loc[1] + lx[1], id[2]*loc[2] + lx[2]}
}

func (l *lane) fail(in *instr, format string, args ...any) *Error {
	e := &Error{Index: int(in.idx), Op: in.op, ResultID: in.id, Invocation: l.globalID(), Msg: fmt.Sprintf(format, args...)}
	if in.op == opDebugPrintf {
		e.Op = spirv.OpExtInst
	}
	if l.p != nil && l.x != nil && l.x.describe != nil {
		e.Text = l.x.describe(l.p.m, e.Index)
	}
	return e
}

func (l *lane) failAddr(in *instr, addr uint64, format string, args ...any) *Error {
	e := l.fail(in, format, args...)
	e.Addr, e.HasAddr = addr, true
	return e
}

// region returns the n bytes at addr.
func (l *lane) region(in *instr, addr uint64, n int, write bool) ([]byte, error) {
	off := addr & (1<<offBits - 1)
	var b []byte
	switch addr >> 56 {
	case regBuf:
		idx := (addr >> offBits) & 0xffff
		if l.x == nil || idx >= uint64(len(l.x.bufs)) || l.x.bufs[idx] == nil {
			return nil, l.failAddr(in, addr, "address is in no buffer")
		}
		b = l.x.bufs[idx].data
	case regWG:
		if l.wg == nil {
			return nil, l.failAddr(in, addr, "no workgroup memory here")
		}
		b = l.gmem
	case regInv:
		if l.memStale {
			l.fillMem()
		}
		b = l.mem
	case regPush:
		if write {
			return nil, l.failAddr(in, addr, "store to push constants")
		}
		if l.x != nil {
			b = l.x.push
		}
	case regDesc, regImg, regHeapImg:
		return l.imageRegion(in, addr, n, write)
	default:
		if addr == 0 {
			return nil, l.failAddr(in, addr, "null pointer dereference")
		}
		return nil, l.failAddr(in, addr, "address is in no buffer")
	}
	if (addr>>offBits)&0xffff != 0 && addr>>56 != regBuf {
		return nil, l.failAddr(in, addr, "address is in no buffer")
	}
	if off > uint64(len(b)) || uint64(n) > uint64(len(b))-off {
		return nil, l.failAddr(in, addr, "out-of-bounds access of %d bytes (region of %d bytes)", n, len(b))
	}
	if l.x != nil && l.x.check != nil {
		if err := l.x.check.access(l, in, addr, n, write); err != nil {
			return nil, err
		}
	}
	return b[off : off+uint64(n)], nil
}

func extent(t *typ, ml matLayout) int {
	if ml.stride != 0 {
		if t.kind == kVector {
			return ml.stride*(t.count-1) + t.elem.size
		}
		return matSize(t, ml)
	}
	return t.size
}

func rdScalar(t *typ, b []byte) uint64 {
	switch t.kind {
	case kBool:
		if binary.LittleEndian.Uint32(b) != 0 {
			return 1
		}
		return 0
	case kPointer, kOpaque, kAccel, kRayQuery, kImage, kSampler:
		return binary.LittleEndian.Uint64(b)
	}
	switch {
	case t.width <= 8:
		return uint64(b[0]) & mask(t.width)
	case t.width == 16:
		return uint64(binary.LittleEndian.Uint16(b))
	case t.width == 32:
		return uint64(binary.LittleEndian.Uint32(b))
	}
	return binary.LittleEndian.Uint64(b)
}

func wrScalar(t *typ, b []byte, v uint64) {
	switch t.kind {
	case kBool:
		binary.LittleEndian.PutUint32(b, uint32(v&1))
		return
	case kPointer, kOpaque, kAccel, kRayQuery, kImage, kSampler:
		binary.LittleEndian.PutUint64(b, v)
		return
	}
	switch {
	case t.width <= 8:
		b[0] = byte(v & mask(t.width))
	case t.width == 16:
		binary.LittleEndian.PutUint16(b, uint16(v))
	case t.width == 32:
		binary.LittleEndian.PutUint32(b, uint32(v))
	default:
		binary.LittleEndian.PutUint64(b, v)
	}
}

// loadBytes decodes a value of type t laid out at b[off:].
func loadBytes(t *typ, b []byte, off int, dst []uint64, ml matLayout) {
	switch t.kind {
	case kVector, kCoopMat:
		if t.nibbles() {
			loadNibbles(b, off, t.count, dst)
			break
		}
		es := t.elem.size
		if ml.rowMajor && t.kind == kVector {
			es = ml.stride
		}
		for k := 0; k < t.count; k++ {
			dst[k] = rdScalar(t.elem, b[off+k*es:])
		}
	case kMatrix:
		col := t.elem
		es := col.elem.size
		cs := t.stride
		if ml.stride != 0 {
			cs = ml.stride
		}
		for c := 0; c < t.count; c++ {
			for r := 0; r < col.count; r++ {
				o := off + c*cs + r*es
				if ml.rowMajor {
					o = off + r*cs + c*es
				}
				dst[c*col.count+r] = rdScalar(col.elem, b[o:])
			}
		}
	case kArray:
		es := t.elem.slots
		for k := 0; k < t.count; k++ {
			loadBytes(t.elem, b, off+k*t.stride, dst[k*es:], ml)
		}
	case kStruct:
		for m, mt := range t.mem {
			loadBytes(mt, b, off+t.offs[m], dst[t.moff[m]:], t.mlay[m])
		}
	case kSampledImage:
		dst[0] = binary.LittleEndian.Uint64(b[off:])
		dst[1] = binary.LittleEndian.Uint64(b[off+8:])
	case kRuntimeArray, kVoid, kFunction:
	default:
		dst[0] = rdScalar(t, b[off:])
	}
}

// storeBytes encodes a value of type t at b[off:].
func storeBytes(t *typ, b []byte, off int, src []uint64, ml matLayout) error {
	if off+extent(t, ml) > len(b) || len(src) < t.slots {
		return fmt.Errorf("value of %d bytes does not fit", extent(t, ml))
	}
	storeRec(t, b, off, src, ml)
	return nil
}

func storeRec(t *typ, b []byte, off int, src []uint64, ml matLayout) {
	switch t.kind {
	case kVector, kCoopMat:
		if t.nibbles() {
			storeNibbles(b, off, t.count, src)
			break
		}
		es := t.elem.size
		if ml.rowMajor && t.kind == kVector {
			es = ml.stride
		}
		for k := 0; k < t.count; k++ {
			wrScalar(t.elem, b[off+k*es:], src[k])
		}
	case kMatrix:
		col := t.elem
		es := col.elem.size
		cs := t.stride
		if ml.stride != 0 {
			cs = ml.stride
		}
		for c := 0; c < t.count; c++ {
			for r := 0; r < col.count; r++ {
				o := off + c*cs + r*es
				if ml.rowMajor {
					o = off + r*cs + c*es
				}
				wrScalar(col.elem, b[o:], src[c*col.count+r])
			}
		}
	case kArray:
		es := t.elem.slots
		for k := 0; k < t.count; k++ {
			storeRec(t.elem, b, off+k*t.stride, src[k*es:], ml)
		}
	case kStruct:
		for m, mt := range t.mem {
			storeRec(mt, b, off+t.offs[m], src[t.moff[m]:], t.mlay[m])
		}
	case kSampledImage:
		binary.LittleEndian.PutUint64(b[off:], src[0])
		binary.LittleEndian.PutUint64(b[off+8:], src[1])
	case kRuntimeArray, kVoid, kFunction:
	default:
		wrScalar(t, b[off:], src[0])
	}
}

func (l *lane) take(e *edge) {
	l.follow(e)
	l.phis(e)
}

// follow does the loop bookkeeping of edge e and jumps to its target.
func (l *lane) follow(e *edge) {
	if e.exit != 0 || e.back != 0 {
		h := e.exit
		if h == 0 {
			h = e.back
		}
		for n := len(l.loops) - 1; n >= 0; n-- {
			if l.loops[n].header == h {
				if e.back != 0 {
					l.loops = l.loops[:n+1]
					l.loops[n].iter++
				} else {
					l.loops = l.loops[:n]
				}
				break
			}
		}
	}
	if e.enter != 0 {
		l.loops = append(l.loops, loopIter{e.enter, 0})
	}
	l.pc = e.pc
}

// phis performs the phi copies of edge e.
func (l *lane) phis(e *edge) { phiMoves(l, e.moves) }

// phiMoves performs phi copies: all are read before any is written.
func phiMoves(l *lane, moves []move) {
	switch len(moves) {
	case 0:
	case 1:
		m := moves[0]
		copy(l.regs[m.dst:m.dst+m.n], l.regs[m.src:m.src+m.n])
	default:
		l.tmp = l.tmp[:0]
		for _, m := range moves {
			l.tmp = append(l.tmp, l.regs[m.src:m.src+m.n]...)
		}
		k := int32(0)
		for _, m := range moves {
			copy(l.regs[m.dst:m.dst+m.n], l.tmp[k:k+m.n])
			k += m.n
		}
	}
}

// run executes the lane until it finishes, faults or reaches a collective
// instruction (left for the scheduler, with the lane blocked on it).
func (l *lane) run() error {
	code := l.p.code
	r := l.regs
	for {
		in := &code[l.pc]
		l.steps--
		if l.steps < 0 {
			return l.fail(in, "step budget exhausted (runaway loop?)")
		}
		if in.coll {
			l.state = stBlocked
			return nil
		}
		// For one invocation the inlined paths beat a vector handler's
		// call (a divergent region's loop runs here).
		if in.fast != fNoFast && l.fastOne(in) {
			l.pc++
			continue
		}
		if in.vec != nil && in.vec(l.self[:], in) {
			l.pc++
			continue
		}
		switch in.op {
		case spirv.OpBranch:
			l.take(in.e[0])
			if l.pc == l.halt {
				return nil
			}
		case spirv.OpBranchConditional:
			e := in.e
			if r[in.a[0]] != 0 {
				l.take(e[0])
			} else {
				l.take(e[1])
			}
			if l.pc == l.halt {
				return nil
			}
		case spirv.OpSwitch:
			l.take(in.sw.pick(r[in.a[0]]))
			if l.pc == l.halt {
				return nil
			}
		case spirv.OpReturn, spirv.OpReturnValue:
			if len(l.stack) == 0 {
				l.state = stDone
				return nil
			}
			f := l.stack[len(l.stack)-1]
			l.stack = l.stack[:len(l.stack)-1]
			l.loops = l.loops[:min(int(f.loops), len(l.loops))]
			if in.op == spirv.OpReturnValue {
				copy(r[f.res:f.res+f.n], r[in.a[0]:in.a[0]+f.n])
			}
			l.pc = f.ret
			if l.pc == l.halt {
				return nil // a region ending at its function's return
			}
		case spirv.OpFunctionCall:
			ct := in.call
			for k, s := range in.a {
				n := int32(in.lit[k])
				copy(r[ct.params[k]:ct.params[k]+n], r[s:s+n])
			}
			if len(l.stack) >= 64 {
				return l.fail(in, "call stack deeper than 64 (recursion is not allowed)")
			}
			l.stack = append(l.stack, frame{l.pc + 1, in.res, int32(in.t.slots), int32(len(l.loops))})
			l.pc = ct.pc
		case spirv.OpUnreachable:
			return l.fail(in, "OpUnreachable reached")
		case opHalt:
			return nil
		case spirv.OpKill, spirv.OpTerminateInvocation:
			l.state = stDone
			return nil
		default:
			if !l.evalFast(in) {
				if err := l.exec(in); err != nil {
					return err
				}
			}
			l.pc++
		}
	}
}

// intOp is the result of the integer instruction of inline kind k (fIAdd
// ... fIEq) on a and b: m is the mask of the result's width, for fSLT the
// width in bits.
func intOp(k uint8, m, a, b uint64) uint64 {
	var c bool
	switch k {
	case fIAdd:
		return (a + b) & m
	case fISub:
		return (a - b) & m
	case fIMul:
		return a * b & m
	case fAnd:
		return a & b
	case fULT:
		c = a < b
	case fSLT:
		// Both shifted to the top: compared as signed, as sign-extended.
		c = int64(a<<(64-m)) < int64(b<<(64-m))
	default: // fIEq
		c = a == b
	}
	return b2u(c)
}

// fastOne runs the inlined paths of the commonest instructions; it reports
// whether it handled in (a path may decline, e.g. an index out of range,
// leaving the general code to fault).
func (l *lane) fastOne(in *instr) bool {
	r := l.regs
	switch in.fast {
	case fIAdd, fISub, fIMul, fAnd, fULT, fSLT, fIEq:
		r[in.res] = intOp(in.fast, in.m, r[in.a[0]], r[in.a[1]])
		return true
	case fExtract:
		r[in.res] = r[in.a[0]+int32(in.sub)]
		return true
	case fCopy:
		if n := int32(in.m); n == 1 {
			r[in.res] = r[in.a[0]] // most are one slot: no call of memmove
		} else {
			copy(r[in.res:in.res+n], r[in.a[0]:in.a[0]+n])
		}
		return true
	case fChain:
		if addr, ok := chainAddr(r, in.a[0], in.ch); ok {
			r[in.res] = addr
			return true
		}
	case fLoad32, fStore32:
		addr := r[in.a[0]]
		if addr>>56 == regBuf {
			idx := (addr >> offBits) & 0xffff
			off := addr & (1<<offBits - 1)
			if idx < uint64(len(l.x.bufs)) && l.x.bufs[idx] != nil {
				if b := l.x.bufs[idx].data; off+4 <= uint64(len(b)) {
					if in.fast == fLoad32 {
						r[in.res] = uint64(binary.LittleEndian.Uint32(b[off:]))
					} else {
						binary.LittleEndian.PutUint32(b[off:], uint32(r[in.a[1]]))
					}
					return true
				}
			}
		}
	}
	return false
}

// one runs a non-control instruction.
func (l *lane) one(in *instr) error {
	if in.fast != fNoFast && l.fastOne(in) {
		return nil
	}
	if l.evalFast(in) {
		return nil
	}
	return l.exec(in)
}

// exec runs one non-control instruction.
func (l *lane) exec(in *instr) error {
	if in.w > 0 {
		if err := l.charge(in); err != nil {
			return err
		}
	}
	r := l.regs
	switch in.op {
	case spirv.OpLoad:
		ml := in.ml
		addr := r[in.a[0]]
		b, err := l.region(in, addr, extent(in.t, ml), false)
		if err != nil {
			return err
		}
		loadBytes(in.t, b, 0, r[in.res:], ml)
		if addr>>56 == regBuf && isHandleType(in.t) {
			// An image or sampler descriptor in a descriptor heap.
			return l.heapDescriptor(in, addr, in.t, r[in.res:])
		}
	case spirv.OpStore:
		ml := in.ml
		addr := r[in.a[0]]
		b, err := l.region(in, addr, extent(in.at, ml), true)
		if err != nil {
			return err
		}
		storeRec(in.at, b, 0, r[in.a[1]:], ml)
	case spirv.OpCopyMemory:
		n := in.at.size
		src, err := l.region(in, r[in.a[1]], n, false)
		if err != nil {
			return err
		}
		dst, err := l.region(in, r[in.a[0]], n, true)
		if err != nil {
			return err
		}
		copy(dst, src)
	case spirv.OpAccessChain, spirv.OpInBoundsAccessChain, spirv.OpPtrAccessChain, spirv.OpInBoundsPtrAccessChain,
		spirv.OpUntypedAccessChainKHR, spirv.OpUntypedInBoundsAccessChainKHR, spirv.OpUntypedPtrAccessChainKHR, spirv.OpUntypedInBoundsPtrAccessChainKHR:
		c := in.ch
		addr := r[in.a[0]]
		if c.desc >= 0 {
			k := sext(r[c.descIdx], c.descW)
			if k < 0 || k >= int64(c.descN) {
				return l.fail(in, "descriptor index %d out of range for %d descriptors", k, c.descN)
			}
			addr = r[c.desc+int32(k)]
		}
		addr += uint64(c.off)
		for _, s := range c.steps {
			k := sext(r[s.slot], s.w)
			if s.bound > 0 && (k < 0 || k >= int64(s.bound)) {
				return l.fail(in, "index %d out of range for %d elements", k, s.bound)
			}
			addr += uint64(k * int64(s.stride))
		}
		r[in.res] = addr
	case spirv.OpArrayLength:
		v := in.alen
		addr := r[in.a[0]]
		if _, err := l.region(in, addr, 0, false); err != nil {
			return err
		}
		size, err := l.regionSize(in, addr)
		if err != nil {
			return err
		}
		n := (size - int(addr&(1<<offBits-1)) - v[0]) / max(v[1], 1)
		r[in.res] = uint64(max(n, 0))
	case opDebugPrintf:
		return l.printf(in)
	case opInt4Chain, opInt4Load, opInt4Store, opInt4Copy:
		return l.int4Mem(in)
	case spirv.OpAbortKHR:
		return l.fail(in, "the shader aborted: %q", l.abortMessage(in))
	case spirv.OpBufferPointerEXT:
		return l.bufferPointer(in)
	default:
		fam := in.fam
		if fam == famUnset {
			fam = family(in.op)
		}
		switch fam {
		case famAtomic:
			return l.atomic(in)
		case famImage:
			return l.imageExec(in)
		case famCvec:
			return l.cvec(in)
		case famPerElement:
			return l.perElement(in)
		case famTensor:
			l.tensorEval(in)
			return nil
		case famTensorARM:
			return l.armTensor(in)
		case famRay:
			return l.rayOp(in)
		}
		return l.eval(in)
	}
	return nil
}

// Families of the instructions exec hands on (instr.fam), chosen at load
// time so that running one walks no chain of tests.
const (
	famUnset uint8 = iota // not classified: family finds it
	famEval
	famAtomic
	famImage
	famCvec
	famPerElement
	famTensor
	famTensorARM
	famRay
)

// family finds the family of an instruction exec does not run itself.
func family(op spirv.Op) uint8 {
	switch {
	case isAtomic(op):
		return famAtomic
	case isImageOp(op):
		return famImage
	case isCvecOp(op):
		return famCvec
	case op == spirv.OpCooperativeMatrixPerElementOpNV:
		return famPerElement
	case isTensorOp(op):
		return famTensor
	case isTensorARMOp(op):
		return famTensorARM
	case isRayOp(op):
		return famRay
	}
	return famEval
}

func (l *lane) regionSize(in *instr, addr uint64) (int, error) {
	switch addr >> 56 {
	case regBuf:
		return len(l.x.bufs[(addr>>offBits)&0xffff].data), nil
	case regWG:
		return len(l.gmem), nil
	case regInv:
		return len(l.mem), nil
	case regPush:
		return len(l.x.push), nil
	}
	return 0, l.failAddr(in, addr, "address is in no buffer")
}
