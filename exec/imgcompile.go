package exec

import (
	"fmt"

	"github.com/coopshader/coop/spirv"
)

// imgOp is a decoded image instruction: value slots of its operands (-1
// when absent) and what the instruction does with them.
type imgOp struct {
	it      *imgType
	img     int32 // image handle, or image and sampler handles of a sampled image
	ptr     int32 // (Untyped)ImageTexelPointer: pointer to the image descriptor
	coord   int32
	coordT  *typ
	dref    int32
	drefT   *typ
	comp    int32 // OpImageGather component
	texel   int32 // OpImageWrite texel
	texT    *typ
	lod     int32 // Lod, or the lod of OpImageQuerySizeLod
	lodT    *typ
	bias    int32
	biasT   *typ
	minLod  int32
	minLodT *typ
	gradX   int32
	gradY   int32
	gradT   *typ
	off     int32 // Offset or ConstOffset
	offT    *typ
	offs    int32 // ConstOffsets / Offsets: four offsets
	offsT   *typ
	sample  int32
	sext    bool
	zext    bool
	proj    bool
	sparse  bool
	// res is the result texel's type (the second member of a sparse
	// result); resOff its first slot within the result.
	res    *typ
	resOff int32
}

// isImageOp reports the image instructions the executor implements.
func isImageOp(op spirv.Op) bool {
	switch op {
	case spirv.OpImageSampleImplicitLod, spirv.OpImageSampleExplicitLod, spirv.OpImageSampleDrefImplicitLod,
		spirv.OpImageSampleDrefExplicitLod, spirv.OpImageSampleProjImplicitLod, spirv.OpImageSampleProjExplicitLod,
		spirv.OpImageSampleProjDrefImplicitLod, spirv.OpImageSampleProjDrefExplicitLod,
		spirv.OpImageFetch, spirv.OpImageGather, spirv.OpImageDrefGather, spirv.OpImageRead, spirv.OpImageWrite,
		spirv.OpImageQuerySizeLod, spirv.OpImageQuerySize, spirv.OpImageQueryLod, spirv.OpImageQueryLevels,
		spirv.OpImageQuerySamples, spirv.OpImageTexelPointer, spirv.OpUntypedImageTexelPointerEXT,
		spirv.OpImageSparseSampleImplicitLod, spirv.OpImageSparseSampleExplicitLod,
		spirv.OpImageSparseSampleDrefImplicitLod, spirv.OpImageSparseSampleDrefExplicitLod,
		spirv.OpImageSparseFetch, spirv.OpImageSparseGather, spirv.OpImageSparseDrefGather,
		spirv.OpImageSparseRead, spirv.OpImageSparseTexelsResident:
		return true
	}
	return false
}

// implicitLod reports the instructions that take their level of detail
// from derivatives.
func implicitLod(op spirv.Op) bool {
	switch op {
	case spirv.OpImageSampleImplicitLod, spirv.OpImageSampleDrefImplicitLod, spirv.OpImageSampleProjImplicitLod,
		spirv.OpImageSampleProjDrefImplicitLod, spirv.OpImageQueryLod,
		spirv.OpImageSparseSampleImplicitLod, spirv.OpImageSparseSampleDrefImplicitLod:
		return true
	}
	return false
}

// compileImage decodes an image instruction (and OpSampledImage and
// OpImage, which become slot copies).
func (p *prog) compileImage(i int, ins *instr, ops []uint32) (*instr, error) {
	op := ins.op
	need := func(n int) error {
		if len(ops) < n {
			return p.errAt(i, "%s needs %d operands, has %d", op, n, len(ops))
		}
		return nil
	}
	slot := func(id uint32) (int32, *typ, error) {
		s, t := p.slotOf(id)
		if s < 0 {
			return 0, nil, p.errAt(i, "operand %%%d is not a value", id)
		}
		return s, t, nil
	}
	if op != spirv.OpImageWrite && (ins.t == nil || ins.res < 0) {
		return nil, p.errAt(i, "%s has no result type", op)
	}
	if op == spirv.OpImageSparseTexelsResident {
		if err := need(1); err != nil {
			return nil, err
		}
		s, _, err := slot(ops[0])
		if err != nil {
			return nil, err
		}
		ins.a = []int32{s}
		return ins, nil
	}
	if err := need(1); err != nil {
		return nil, err
	}
	o := &imgOp{dref: -1, comp: -1, texel: -1, lod: -1, bias: -1, minLod: -1, gradX: -1, gradY: -1, off: -1, offs: -1, sample: -1, ptr: -1, res: ins.t}
	ins.aux = o
	if op == spirv.OpUntypedImageTexelPointerEXT {
		return p.compileUntypedTexelPointer(i, ins, o, ops)
	}
	s, t, err := slot(ops[0])
	if err != nil {
		return nil, err
	}
	if op == spirv.OpImageTexelPointer {
		if t.kind != kPointer || t.elem == nil || t.elem.kind != kImage {
			return nil, p.errAt(i, "operand %%%d is not a pointer to an image", ops[0])
		}
		o.ptr, o.it = s, t.elem.img
	} else {
		if t.kind != kImage && t.kind != kSampledImage {
			return nil, p.errAt(i, "operand %%%d is not an image", ops[0])
		}
		o.img, o.it = s, t.img
	}
	switch op {
	case spirv.OpImageQuerySize, spirv.OpImageQueryLevels, spirv.OpImageQuerySamples:
		return ins, p.checkImageRes(i, o, false)
	case spirv.OpImageQuerySizeLod:
		if err := need(2); err != nil {
			return nil, err
		}
		if o.lod, o.lodT, err = slot(ops[1]); err != nil {
			return nil, err
		}
		return ins, p.checkImageRes(i, o, false)
	}
	if err := need(2); err != nil {
		return nil, err
	}
	if o.coord, o.coordT, err = slot(ops[1]); err != nil {
		return nil, err
	}
	rest := ops[2:]
	switch op {
	case spirv.OpImageTexelPointer:
		if err := need(3); err != nil {
			return nil, err
		}
		if o.sample, _, err = slot(ops[2]); err != nil {
			return nil, err
		}
		if ins.t.kind != kPointer || ins.t.elem == nil || !ins.t.elem.scalar() {
			return nil, p.errAt(i, "OpImageTexelPointer's result is not a pointer to a scalar")
		}
		o.texT = ins.t.elem
		return ins, p.checkTexelCoords(i, o)
	case spirv.OpImageSampleDrefImplicitLod, spirv.OpImageSampleDrefExplicitLod, spirv.OpImageSampleProjDrefImplicitLod,
		spirv.OpImageSampleProjDrefExplicitLod, spirv.OpImageDrefGather,
		spirv.OpImageSparseSampleDrefImplicitLod, spirv.OpImageSparseSampleDrefExplicitLod, spirv.OpImageSparseDrefGather:
		if err := need(3); err != nil {
			return nil, err
		}
		if o.dref, o.drefT, err = slot(ops[2]); err != nil {
			return nil, err
		}
		rest = ops[3:]
	case spirv.OpImageGather, spirv.OpImageSparseGather:
		if err := need(3); err != nil {
			return nil, err
		}
		if o.comp, _, err = slot(ops[2]); err != nil {
			return nil, err
		}
		rest = ops[3:]
	case spirv.OpImageWrite:
		if err := need(3); err != nil {
			return nil, err
		}
		if o.texel, o.texT, err = slot(ops[2]); err != nil {
			return nil, err
		}
		rest = ops[3:]
	}
	switch op {
	case spirv.OpImageSampleProjImplicitLod, spirv.OpImageSampleProjExplicitLod, spirv.OpImageSampleProjDrefImplicitLod,
		spirv.OpImageSampleProjDrefExplicitLod:
		o.proj = true
	}
	switch op {
	case spirv.OpImageSparseSampleImplicitLod, spirv.OpImageSparseSampleExplicitLod, spirv.OpImageSparseSampleDrefImplicitLod,
		spirv.OpImageSparseSampleDrefExplicitLod, spirv.OpImageSparseFetch, spirv.OpImageSparseGather,
		spirv.OpImageSparseDrefGather, spirv.OpImageSparseRead:
		o.sparse = true
		if ins.t.kind != kStruct || len(ins.t.mem) != 2 || ins.t.mem[0].kind != kInt {
			return nil, p.errAt(i, "a sparse image instruction's result is a struct of a residency code and a texel")
		}
		o.res, o.resOff = ins.t.mem[1], int32(ins.t.moff[1])
	}
	if err := p.imageOperands(i, o, rest); err != nil {
		return nil, err
	}
	if sampled := op != spirv.OpImageFetch && op != spirv.OpImageSparseFetch && op != spirv.OpImageRead &&
		op != spirv.OpImageSparseRead && op != spirv.OpImageWrite; sampled != (t.kind == kSampledImage) {
		return nil, p.errAt(i, "operand %%%d is not a%s", ops[0], map[bool]string{true: " sampled image", false: "n image"}[sampled])
	}
	if o.gradX >= 0 && o.gradT.slots < o.it.spatial() || o.off >= 0 && o.offT.slots < o.it.spatial() && o.it.dim != spirv.DimCube ||
		o.offs >= 0 && o.offsT.elem.slots < 2 {
		return nil, p.errAt(i, "gradients and offsets need a component per coordinate")
	}
	if implicitLod(op) {
		if !p.derivQuads && !p.derivLinear {
			p.unsupport(i, "implicit level of detail without a DerivativeGroup execution mode")
			return nil, nil
		}
		ins.coll, ins.wg = true, true
	}
	if n := o.it.spatial() + b2i(o.it.arrayed) + b2i(o.proj); o.coordT.comp().kind != kFloat && o.coordT.comp().kind != kInt || o.coordT.slots < n {
		return nil, p.errAt(i, "the coordinate needs %d components", n)
	}
	return ins, p.checkImageRes(i, o, op == spirv.OpImageWrite)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// checkImageRes checks that the result (or written texel) is a scalar or
// vector of numbers.
func (p *prog) checkImageRes(i int, o *imgOp, write bool) error {
	t := o.res
	if write {
		t = o.texT
	}
	if t == nil || (t.kind != kVector && !t.scalar()) || t.comp().kind == kBool {
		return p.errAt(i, "the texel is not a scalar or vector of numbers")
	}
	return nil
}

// imageOperands decodes the Image Operands mask and its operands.
func (p *prog) imageOperands(i int, o *imgOp, w []uint32) error {
	if len(w) == 0 {
		return nil
	}
	m := spirv.ImageOperands(w[0])
	w = w[1:]
	next := func() (int32, *typ, error) {
		if len(w) == 0 {
			return 0, nil, p.errAt(i, "missing image operand")
		}
		s, t := p.slotOf(w[0])
		w = w[1:]
		if s < 0 {
			return 0, nil, p.errAt(i, "image operand is not a value")
		}
		return s, t, nil
	}
	var err error
	for bit := spirv.ImageOperands(1); bit != 0 && bit <= m; bit <<= 1 {
		if m&bit == 0 {
			continue
		}
		switch bit {
		case spirv.ImageOperandsBias:
			o.bias, o.biasT, err = next()
		case spirv.ImageOperandsLod:
			o.lod, o.lodT, err = next()
		case spirv.ImageOperandsGrad:
			if o.gradX, o.gradT, err = next(); err == nil {
				o.gradY, _, err = next()
			}
		case spirv.ImageOperandsConstOffset, spirv.ImageOperandsOffset:
			o.off, o.offT, err = next()
		case spirv.ImageOperandsConstOffsets, spirv.ImageOperandsOffsets:
			o.offs, o.offsT, err = next()
			if err == nil && (o.offsT.kind != kArray || o.offsT.count != 4 || o.offsT.elem.comp().kind != kInt) {
				return p.errAt(i, "offsets must be an array of four integer vectors")
			}
		case spirv.ImageOperandsSample:
			o.sample, _, err = next()
		case spirv.ImageOperandsMinLod:
			o.minLod, o.minLodT, err = next()
		case spirv.ImageOperandsMakeTexelAvailable, spirv.ImageOperandsMakeTexelVisible:
			// Memory is coherent here: the scope operand changes nothing.
			_, _, err = next()
		case spirv.ImageOperandsNonPrivateTexel, spirv.ImageOperandsVolatileTexel, spirv.ImageOperandsNontemporal:
		case spirv.ImageOperandsSignExtend:
			o.sext = true
		case spirv.ImageOperandsZeroExtend:
			o.zext = true
		default:
			p.unsupport(i, fmt.Sprintf("image operand 0x%x", uint32(bit)))
		}
		if err != nil {
			return err
		}
	}
	if o.off >= 0 && o.offT.comp().kind != kInt {
		return p.errAt(i, "the offset is not an integer")
	}
	return nil
}

// compileUntypedTexelPointer decodes OpUntypedImageTexelPointerEXT: the
// Image operand points to the descriptor of an image of type Image Type
// (in a heap); atomics through the result read texels of its sampled type.
func (p *prog) compileUntypedTexelPointer(i int, ins *instr, o *imgOp, ops []uint32) (*instr, error) {
	if len(ops) < 4 {
		return nil, p.errAt(i, "OpUntypedImageTexelPointerEXT needs 4 operands, has %d", len(ops))
	}
	it, err := p.typeArg(i, ops[0])
	if err != nil {
		return nil, err
	}
	if it.kind != kImage || !it.img.sampled.scalar() {
		return nil, p.errAt(i, "image type %%%d is not an image of numbers", ops[0])
	}
	if ins.t.kind != kPointer || ins.t.elem != nil {
		return nil, p.errAt(i, "OpUntypedImageTexelPointerEXT's result is not an untyped pointer")
	}
	var t *typ
	for k, dst := range []*int32{&o.ptr, &o.coord, &o.sample} {
		s, st := p.slotOf(ops[k+1])
		if s < 0 {
			return nil, p.errAt(i, "operand %%%d is not a value", ops[k+1])
		}
		*dst = s
		if k == 0 {
			t = st
		} else if k == 1 {
			o.coordT = st
		}
	}
	if t.kind != kPointer {
		return nil, p.errAt(i, "operand %%%d is not a pointer to an image descriptor", ops[1])
	}
	o.it, o.texT = it.img, it.img.sampled
	return ins, p.checkTexelCoords(i, o)
}

// checkTexelCoords checks the integer coordinates of a texel pointer.
func (p *prog) checkTexelCoords(i int, o *imgOp) error {
	if n := coordCount(o.it); o.coordT.comp().kind != kInt || o.coordT.slots < n {
		return p.errAt(i, "the coordinates of a texel pointer are not %d integers", n)
	}
	return nil
}
