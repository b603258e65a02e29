package exec

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/coopshader/coop/internal/lazy"
	"github.com/coopshader/coop/spirv"
)

// Ray queries (SPV_KHR_ray_query). A ray query variable holds in its 8
// bytes of invocation memory the number (from 1) of its state in the
// invocation's list of ray queries; OpRayQueryInitializeKHR gives it one
// the first time. Traversal visits the instances in order, within an
// instance its geometries in order, within a geometry its primitives in
// order, and stops at each candidate the shader must decide on.

// Ray flags (SPIR-V RayFlagsMask).
const (
	rfOpaque          = 0x1
	rfNoOpaque        = 0x2
	rfTerminateOnHit  = 0x4
	rfCullBack        = 0x10
	rfCullFront       = 0x20
	rfCullOpaque      = 0x40
	rfCullNoOpaque    = 0x80
	rfSkipTriangles   = 0x100
	rfSkipAABBs       = 0x200
	rayQueryStateSize = 8
)

// rqHit is a candidate or committed intersection.
type rqHit struct {
	valid           bool
	aabb, generated bool
	t               float32
	inst, geom      int
	prim            int
	u, v            float32
	front, opaque   bool
	objO, objD      vec3
}

// rayQuery is the state of one ray query object.
type rayQuery struct {
	as          *accelData // nil: an empty scene
	flags, mask uint32
	o, d        vec3
	tmin, tmax  float32 // tmax drops to each committed t
	done        bool
	// The traversal position: instance, geometry and primitive to visit
	// next; entered says the instance's object-space ray is in objO/objD.
	ci, cg, cp int
	entered    bool
	objO, objD vec3
	cand, comm rqHit
}

// rayOpShape gives each instruction's number of value operands and of
// result slots (-1: no result).
func rayOpShape() map[spirv.Op][2]int { return rayOpShapeLazy.Get() }

var rayOpShapeLazy = lazy.Value[map[spirv.Op][2]int]{F: func() map[spirv.Op][2]int {
	return map[spirv.Op][2]int{
		spirv.OpRayQueryInitializeKHR:                                            {8, -1},
		spirv.OpRayQueryTerminateKHR:                                             {1, -1},
		spirv.OpRayQueryConfirmIntersectionKHR:                                   {1, -1},
		spirv.OpRayQueryGenerateIntersectionKHR:                                  {2, -1},
		spirv.OpRayQueryProceedKHR:                                               {1, 1},
		spirv.OpRayQueryGetIntersectionTypeKHR:                                   {2, 1},
		spirv.OpRayQueryGetRayTMinKHR:                                            {1, 1},
		spirv.OpRayQueryGetRayFlagsKHR:                                           {1, 1},
		spirv.OpRayQueryGetWorldRayOriginKHR:                                     {1, 3},
		spirv.OpRayQueryGetWorldRayDirectionKHR:                                  {1, 3},
		spirv.OpRayQueryGetIntersectionCandidateAABBOpaqueKHR:                    {1, 1},
		spirv.OpRayQueryGetIntersectionTKHR:                                      {2, 1},
		spirv.OpRayQueryGetIntersectionInstanceCustomIndexKHR:                    {2, 1},
		spirv.OpRayQueryGetIntersectionInstanceIdKHR:                             {2, 1},
		spirv.OpRayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR: {2, 1},
		spirv.OpRayQueryGetIntersectionGeometryIndexKHR:                          {2, 1},
		spirv.OpRayQueryGetIntersectionPrimitiveIndexKHR:                         {2, 1},
		spirv.OpRayQueryGetIntersectionBarycentricsKHR:                           {2, 2},
		spirv.OpRayQueryGetIntersectionFrontFaceKHR:                              {2, 1},
		spirv.OpRayQueryGetIntersectionObjectRayDirectionKHR:                     {2, 3},
		spirv.OpRayQueryGetIntersectionObjectRayOriginKHR:                        {2, 3},
		spirv.OpRayQueryGetIntersectionObjectToWorldKHR:                          {2, 12},
		spirv.OpRayQueryGetIntersectionWorldToObjectKHR:                          {2, 12},
		spirv.OpRayQueryGetIntersectionTriangleVertexPositionsKHR:                {2, 9},
		spirv.OpConvertUToAccelerationStructureKHR:                               {1, 1},
		spirv.OpFetchMicroTriangleVertexPositionNV:                               {5, 3},
		spirv.OpFetchMicroTriangleVertexBarycentricNV:                            {5, 2},
	}
}}

func isRayOp(op spirv.Op) bool {
	_, ok := rayOpShape()[op]
	return ok
}

// isRayStateOp reports the ray-query instructions that read or change a
// ray query's state (run per invocation in lockstep).
func isRayStateOp(op spirv.Op) bool {
	return isRayOp(op) && op != spirv.OpConvertUToAccelerationStructureKHR
}

// compileRay decodes a ray-query, acceleration-structure or micromap
// instruction, checking its operand and result shapes.
func (p *prog) compileRay(i int, ins *instr, ops []uint32) (*instr, error) {
	shape := rayOpShape()[ins.op]
	if len(ops) != shape[0] {
		return nil, p.errAt(i, "%s needs %d operands, has %d", ins.op, shape[0], len(ops))
	}
	var err error
	if ins.a, err = p.valSlots(i, ops); err != nil {
		return nil, err
	}
	ins.at = p.tyOf[ops[0]]
	switch {
	case shape[1] < 0 && ins.t != nil, shape[1] >= 0 && (ins.t == nil || ins.t.slots != shape[1]):
		return nil, p.errAt(i, "%s has the wrong result type", ins.op)
	}
	switch ins.op {
	case spirv.OpConvertUToAccelerationStructureKHR:
		if at := ins.at; !(at.kind == kInt && at.width == 64) && !(at.kind == kVector && at.count == 2 && at.elem.kind == kInt && at.elem.width == 32) {
			return nil, p.errAt(i, "the address must be a 64-bit integer or a vector of two 32-bit integers")
		}
		return ins, nil
	case spirv.OpFetchMicroTriangleVertexPositionNV, spirv.OpFetchMicroTriangleVertexBarycentricNV:
		return ins, nil
	}
	if ins.at.kind != kPointer || ins.at.elem == nil || ins.at.elem.kind != kRayQuery {
		return nil, p.errAt(i, "operand %%%d is not a pointer to a ray query", ops[0])
	}
	if ins.op == spirv.OpRayQueryInitializeKHR {
		want := []struct {
			k     kind
			slots int
		}{{kAccel, 1}, {kInt, 1}, {kInt, 1}, {kVector, 3}, {kFloat, 1}, {kVector, 3}, {kFloat, 1}}
		for k, w := range want {
			t := p.tyOf[ops[k+1]]
			if t.kind != w.k || t.slots != w.slots || t.kind == kFloat && t.width != 32 || t.kind == kVector && (t.elem.kind != kFloat || t.elem.width != 32) {
				return nil, p.errAt(i, "operand %d of %s has the wrong type", k+2, ins.op)
			}
		}
	}
	return ins, nil
}

// accelLoad makes a load of an acceleration structure from a descriptor
// (UniformConstant) a copy of the pointer: a descriptor's pointer slot
// holds the bound structure's address (0 when unbound).
func accelLoad(ins *instr) {
	if ins.t != nil && ins.t.kind == kAccel && ins.at != nil && ins.at.sc == spirv.StorageClassUniformConstant {
		ins.op, ins.aux = spirv.OpCopyObject, nil
	}
}

func f32of(v uint64) float32 { return math.Float32frombits(uint32(v)) }

func (l *lane) vecAt(s int32) vec3 {
	r := l.regs
	return vec3{f32of(r[s]), f32of(r[s+1]), f32of(r[s+2])}
}

// rayQueryAt finds the state of the ray query in.a[0] points to; a fresh
// one when init.
func (l *lane) rayQueryAt(in *instr, init bool) (*rayQuery, error) {
	addr := l.regs[in.a[0]]
	b, err := l.region(in, addr, rayQueryStateSize, init)
	if err != nil {
		return nil, err
	}
	n := binary.LittleEndian.Uint64(b)
	if n == 0 || n > uint64(len(l.rqs)) {
		if !init {
			return nil, l.fail(in, "the ray query is used before OpRayQueryInitializeKHR")
		}
		l.rqs = append(l.rqs, rayQuery{})
		n = uint64(len(l.rqs))
		binary.LittleEndian.PutUint64(b, n)
	}
	return &l.rqs[n-1], nil
}

// rayOp runs a ray-query, acceleration-structure or micromap instruction.
func (l *lane) rayOp(in *instr) error {
	r := l.regs
	switch in.op {
	case spirv.OpConvertUToAccelerationStructureKHR:
		v := r[in.a[0]]
		if in.at.kind == kVector {
			v = r[in.a[0]]&0xffffffff | r[in.a[0]+1]<<32
		}
		r[in.res] = v
		return nil
	case spirv.OpFetchMicroTriangleVertexPositionNV, spirv.OpFetchMicroTriangleVertexBarycentricNV:
		return l.fail(in, "%s is not supported: the executor's acceleration structures have no displacement micromaps", in.op)
	case spirv.OpRayQueryInitializeKHR:
		return l.rayInit(in)
	}
	q, err := l.rayQueryAt(in, false)
	if err != nil {
		return err
	}
	switch in.op {
	case spirv.OpRayQueryProceedKHR:
		r[in.res] = b2u(q.proceed())
	case spirv.OpRayQueryTerminateKHR:
		q.done = true
	case spirv.OpRayQueryConfirmIntersectionKHR:
		if !q.cand.valid || q.cand.aabb {
			return l.fail(in, "there is no candidate triangle intersection to confirm")
		}
		q.commit(q.cand)
	case spirv.OpRayQueryGenerateIntersectionKHR:
		t := f32of(r[in.a[1]])
		if !q.cand.valid || !q.cand.aabb {
			return l.fail(in, "there is no candidate AABB intersection to generate an intersection for")
		}
		if !(q.tmin <= t && t <= q.tmax) {
			return l.fail(in, "Hit T %g is outside [%g, %g] (the ray's t min and the committed t)", t, q.tmin, q.tmax)
		}
		h := q.cand
		h.aabb, h.generated, h.t = false, true, t
		q.commit(h)
	case spirv.OpRayQueryGetRayTMinKHR:
		r[in.res] = uint64(math.Float32bits(q.tmin))
	case spirv.OpRayQueryGetRayFlagsKHR:
		r[in.res] = uint64(q.flags)
	case spirv.OpRayQueryGetWorldRayOriginKHR:
		l.putVec(in.res, q.o[:])
	case spirv.OpRayQueryGetWorldRayDirectionKHR:
		l.putVec(in.res, q.d[:])
	case spirv.OpRayQueryGetIntersectionCandidateAABBOpaqueKHR:
		r[in.res] = b2u(q.cand.valid && q.cand.aabb && q.cand.opaque)
	default:
		l.rayGet(in, q)
	}
	return nil
}

func (l *lane) putVec(s int32, v []float32) {
	for k, x := range v {
		l.regs[s+int32(k)] = uint64(math.Float32bits(x))
	}
}

// rayInit is OpRayQueryInitializeKHR, checking what the Vulkan
// environment requires of its operands.
func (l *lane) rayInit(in *instr) error {
	r := l.regs
	as, ok := l.x.accelAt(r[in.a[1]])
	if !ok {
		return l.failAddr(in, r[in.a[1]], "the address is not an acceleration structure")
	}
	flags, mask := uint32(r[in.a[2]]), uint32(r[in.a[3]])&0xff
	o, tmin, d, tmax := l.vecAt(in.a[4]), f32of(r[in.a[5]]), l.vecAt(in.a[6]), f32of(r[in.a[7]])
	for _, c := range append(o[:], d[:]...) {
		if math.IsNaN(float64(c)) || math.IsInf(float64(c), 0) {
			return l.fail(in, "ray origin %v and direction %v must be finite", o, d)
		}
	}
	if !(tmin >= 0 && tmax >= 0 && tmin <= tmax) {
		return l.fail(in, "ray t min %g and t max %g must be non-negative with t min <= t max", tmin, tmax)
	}
	count := func(bits ...uint32) int {
		n := 0
		for _, b := range bits {
			if flags&b != 0 {
				n++
			}
		}
		return n
	}
	if count(rfSkipTriangles, rfSkipAABBs) > 1 || count(rfSkipTriangles, rfCullBack, rfCullFront) > 1 ||
		count(rfOpaque, rfNoOpaque, rfCullOpaque, rfCullNoOpaque) > 1 {
		return l.fail(in, "ray flags 0x%x combine mutually exclusive flags", flags)
	}
	q, err := l.rayQueryAt(in, true)
	if err != nil {
		return err
	}
	*q = rayQuery{as: as, flags: flags, mask: mask, o: o, d: d, tmin: tmin, tmax: tmax}
	return nil
}

// commit makes h the committed intersection; the ray's t max becomes its
// t, and TerminateOnFirstHit ends the traversal.
func (q *rayQuery) commit(h rqHit) {
	q.comm = h
	q.tmax = h.t
	if q.flags&rfTerminateOnHit != 0 {
		q.done = true
	}
}

// proceed continues the traversal to the next candidate the shader must
// decide on (a non-opaque triangle or an AABB), committing opaque
// triangles on the way; false when the traversal is over.
func (q *rayQuery) proceed() bool {
	q.cand = rqHit{}
	if q.as == nil {
		q.done = true
	}
	for !q.done {
		if q.ci >= len(q.as.insts) {
			q.done = true
			break
		}
		in := &q.as.insts[q.ci]
		if !q.entered {
			if uint32(in.mask)&q.mask == 0 {
				q.ci++
				continue
			}
			q.objO, q.objD = transformPoint(&in.w2o, q.o, 1), transformPoint(&in.w2o, q.d, 0)
			q.entered, q.cg, q.cp = true, 0, 0
		}
		if q.cg >= len(in.geoms) {
			q.ci++
			q.entered = false
			continue
		}
		g := &in.geoms[q.cg]
		if q.cp >= len(g.tris)+len(g.aabbs) || len(g.tris) > 0 && q.flags&rfSkipTriangles != 0 || len(g.aabbs) > 0 && q.flags&rfSkipAABBs != 0 {
			q.cg++
			q.cp = 0
			continue
		}
		prim := q.cp
		q.cp++
		opaque := g.opaque
		switch {
		case q.flags&rfOpaque != 0:
			opaque = true
		case q.flags&rfNoOpaque != 0:
			opaque = false
		case in.flags&InstanceForceOpaque != 0:
			opaque = true
		case in.flags&InstanceForceNoOpaque != 0:
			opaque = false
		}
		if opaque && q.flags&rfCullOpaque != 0 || !opaque && q.flags&rfCullNoOpaque != 0 {
			continue
		}
		h := rqHit{valid: true, inst: q.ci, geom: q.cg, prim: prim, opaque: opaque, objO: q.objO, objD: q.objD}
		if len(g.aabbs) > 0 {
			t, ok := intersectAABB(q.objO, q.objD, &g.aabbs[prim], q.tmin, q.tmax)
			if !ok {
				continue
			}
			h.aabb, h.t = true, t
			q.cand = h
			return true
		}
		th, ok := intersectTriangle(q.objO, q.objD, &g.tris[prim])
		if !ok || !(q.tmin < th.t && th.t < q.tmax) {
			continue
		}
		h.t, h.u, h.v = th.t, th.u, th.v
		h.front = th.ccw != (in.flags&InstanceTriangleFlipFacing != 0)
		if in.flags&InstanceTriangleFacingCullDisable == 0 && (h.front && q.flags&rfCullFront != 0 || !h.front && q.flags&rfCullBack != 0) {
			continue
		}
		if opaque {
			q.commit(h)
			continue
		}
		q.cand = h
		return true
	}
	return false
}

// rayGet answers the queries about the candidate (Intersection 0) or
// committed (1) intersection; one that does not exist answers zeros.
func (l *lane) rayGet(in *instr, q *rayQuery) {
	r := l.regs
	committed := r[in.a[1]] != 0
	h := q.cand
	if committed {
		h = q.comm
	}
	n := int32(in.t.slots)
	for k := range n {
		r[in.res+k] = 0
	}
	if in.op == spirv.OpRayQueryGetIntersectionTypeKHR {
		switch {
		case committed && h.generated:
			r[in.res] = 2
		case committed && h.valid, !committed && h.aabb:
			r[in.res] = 1
		}
		return
	}
	if !h.valid {
		return
	}
	inst := &q.as.insts[h.inst]
	tri := !h.aabb && !h.generated
	switch in.op {
	case spirv.OpRayQueryGetIntersectionTKHR:
		r[in.res] = uint64(math.Float32bits(h.t))
	case spirv.OpRayQueryGetIntersectionInstanceCustomIndexKHR:
		r[in.res] = uint64(inst.custom)
	case spirv.OpRayQueryGetIntersectionInstanceIdKHR:
		r[in.res] = uint64(h.inst)
	case spirv.OpRayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR:
		r[in.res] = uint64(inst.sbt)
	case spirv.OpRayQueryGetIntersectionGeometryIndexKHR:
		r[in.res] = uint64(h.geom)
	case spirv.OpRayQueryGetIntersectionPrimitiveIndexKHR:
		r[in.res] = uint64(h.prim)
	case spirv.OpRayQueryGetIntersectionBarycentricsKHR:
		if tri {
			l.putVec(in.res, []float32{h.u, h.v})
		}
	case spirv.OpRayQueryGetIntersectionFrontFaceKHR:
		r[in.res] = b2u(tri && h.front)
	case spirv.OpRayQueryGetIntersectionObjectRayDirectionKHR:
		l.putVec(in.res, h.objD[:])
	case spirv.OpRayQueryGetIntersectionObjectRayOriginKHR:
		l.putVec(in.res, h.objO[:])
	case spirv.OpRayQueryGetIntersectionObjectToWorldKHR, spirv.OpRayQueryGetIntersectionWorldToObjectKHR:
		m := &inst.o2w
		if in.op == spirv.OpRayQueryGetIntersectionWorldToObjectKHR {
			m = &inst.w2o
		}
		// A mat4x3: four columns of three rows.
		for c := range 4 {
			for row := range 3 {
				r[in.res+int32(3*c+row)] = uint64(math.Float32bits(m[row][c]))
			}
		}
	case spirv.OpRayQueryGetIntersectionTriangleVertexPositionsKHR:
		if tri {
			for v, p := range inst.geoms[h.geom].tris[h.prim] {
				l.putVec(in.res+int32(3*v), p[:])
			}
		}
	default:
		panic(fmt.Sprintf("ray query instruction %s", in.op))
	}
}
