package exec

import (
	"encoding/binary"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/glsl/compile"
)

// Ray queries compiled from GLSL by coop, run against scenes built with
// NewAccelerationStructure; expected numbers are worked out here from the
// geometry, independently of the executor's intersection code.

// probeSrc traces one ray described by the push constants, records every
// candidate the traversal reports (up to 16) and the committed
// intersection, and follows a policy: bit 0 confirms triangle candidates,
// bit 1 generates an intersection at genT for AABB candidates, bit 2
// terminates after the first candidate.
const probeSrc = `#version 460
#extension GL_EXT_ray_query : require
#extension GL_EXT_ray_flags_primitive_culling : require
#extension GL_EXT_ray_tracing_position_fetch : require
layout(local_size_x = 1) in;
layout(binding = 0) uniform accelerationStructureEXT tlas;
layout(push_constant) uniform P {
	vec4 origin; vec4 dir;
	float tmin, tmax; uint flags, mask; uint policy; float genT;
	uvec2 addr; uint useAddr;
} pc;
layout(binding = 1, std430) buffer Out { uint w[]; } o;
rayQueryEXT q;

void putv(uint at, vec3 v) { o.w[at] = floatBitsToUint(v.x); o.w[at + 1u] = floatBitsToUint(v.y); o.w[at + 2u] = floatBitsToUint(v.z); }

void recordCandidate(rayQueryEXT r, uint b) {
	o.w[b] = rayQueryGetIntersectionTypeEXT(r, false);
	o.w[b + 1u] = uint(rayQueryGetIntersectionInstanceIdEXT(r, false));
	o.w[b + 2u] = uint(rayQueryGetIntersectionInstanceCustomIndexEXT(r, false));
	o.w[b + 3u] = rayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetEXT(r, false);
	o.w[b + 4u] = uint(rayQueryGetIntersectionGeometryIndexEXT(r, false));
	o.w[b + 5u] = uint(rayQueryGetIntersectionPrimitiveIndexEXT(r, false));
	o.w[b + 6u] = floatBitsToUint(rayQueryGetIntersectionTEXT(r, false));
	vec2 bc = rayQueryGetIntersectionBarycentricsEXT(r, false);
	o.w[b + 7u] = floatBitsToUint(bc.x);
	o.w[b + 8u] = floatBitsToUint(bc.y);
	o.w[b + 9u] = rayQueryGetIntersectionFrontFaceEXT(r, false) ? 1u : 0u;
	o.w[b + 10u] = rayQueryGetIntersectionCandidateAABBOpaqueEXT(r) ? 1u : 0u;
	putv(b + 11u, rayQueryGetIntersectionObjectRayOriginEXT(r, false));
	putv(b + 14u, rayQueryGetIntersectionObjectRayDirectionEXT(r, false));
}

void recordCommitted(rayQueryEXT r, uint b) {
	o.w[b] = rayQueryGetIntersectionTypeEXT(r, true);
	o.w[b + 1u] = uint(rayQueryGetIntersectionInstanceIdEXT(r, true));
	o.w[b + 2u] = uint(rayQueryGetIntersectionInstanceCustomIndexEXT(r, true));
	o.w[b + 3u] = rayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetEXT(r, true);
	o.w[b + 4u] = uint(rayQueryGetIntersectionGeometryIndexEXT(r, true));
	o.w[b + 5u] = uint(rayQueryGetIntersectionPrimitiveIndexEXT(r, true));
	o.w[b + 6u] = floatBitsToUint(rayQueryGetIntersectionTEXT(r, true));
	vec2 bc = rayQueryGetIntersectionBarycentricsEXT(r, true);
	o.w[b + 7u] = floatBitsToUint(bc.x);
	o.w[b + 8u] = floatBitsToUint(bc.y);
	o.w[b + 9u] = rayQueryGetIntersectionFrontFaceEXT(r, true) ? 1u : 0u;
	putv(b + 11u, rayQueryGetIntersectionObjectRayOriginEXT(r, true));
	putv(b + 14u, rayQueryGetIntersectionObjectRayDirectionEXT(r, true));
}

void main() {
	if (pc.useAddr != 0u)
		rayQueryInitializeEXT(q, accelerationStructureEXT(pc.addr), pc.flags, pc.mask, pc.origin.xyz, pc.tmin, pc.dir.xyz, pc.tmax);
	else
		rayQueryInitializeEXT(q, tlas, pc.flags, pc.mask, pc.origin.xyz, pc.tmin, pc.dir.xyz, pc.tmax);
	uint n = 0u;
	while (rayQueryProceedEXT(q)) {
		if (n < 16u)
			recordCandidate(q, 4u + 20u * n);
		n++;
		if (rayQueryGetIntersectionTypeEXT(q, false) == gl_RayQueryCandidateIntersectionTriangleEXT) {
			if ((pc.policy & 1u) != 0u)
				rayQueryConfirmIntersectionEXT(q);
		} else if ((pc.policy & 2u) != 0u) {
			rayQueryGenerateIntersectionEXT(q, pc.genT);
		}
		if ((pc.policy & 4u) != 0u)
			rayQueryTerminateEXT(q);
	}
	o.w[0] = n;
	o.w[1] = rayQueryProceedEXT(q) ? 1u : 0u;
	recordCommitted(q, 324u);
	mat4x3 m = rayQueryGetIntersectionObjectToWorldEXT(q, true);
	mat4x3 mi = rayQueryGetIntersectionWorldToObjectEXT(q, true);
	for (int c = 0; c < 4; c++) {
		putv(344u + 3u * uint(c), m[c]);
		putv(356u + 3u * uint(c), mi[c]);
	}
	vec3 pos[3];
	rayQueryGetIntersectionTriangleVertexPositionsEXT(q, true, pos);
	for (int i = 0; i < 3; i++)
		putv(368u + 3u * uint(i), pos[i]);
	putv(377u, rayQueryGetWorldRayOriginEXT(q));
	putv(380u, rayQueryGetWorldRayDirectionEXT(q));
	o.w[383] = floatBitsToUint(rayQueryGetRayTMinEXT(q));
	o.w[384] = rayQueryGetRayFlagsEXT(q);
}
`

var (
	compileOnce sync.Map // source -> []uint32
)

// glslWords compiles GLSL with coop's compiler (once per source).
func glslWords(t testing.TB, src string) []uint32 {
	t.Helper()
	if w, ok := compileOnce.Load(src); ok {
		return w.([]uint32)
	}
	m, d := compile.Compile("rq.comp", []byte(src), compile.Options{TargetEnv: "vulkan1.3"})
	if m == nil {
		t.Fatalf("compile:\n%v", d)
	}
	w, err := m.Words()
	if err != nil {
		t.Fatal(err)
	}
	compileOnce.Store(src, w)
	return w
}

// ray is what the probe traces and how it treats candidates.
type ray struct {
	o, d       vec3
	tmin, tmax float32
	flags      uint32
	mask       uint32
	policy     uint32
	genT       float32
	byAddr     bool
}

// hitRec is one recorded intersection.
type hitRec struct {
	typ, inst, custom, sbt, geom, prim uint32
	t, u, v                            float32
	front, aabbOpaque                  bool
	objO, objD                         vec3
}

type probeResult struct {
	cands     []hitRec
	n         uint32
	again     bool // Proceed after the loop
	comm      hitRec
	o2w, w2o  [12]float32
	pos       [9]float32
	wo, wd    vec3
	tmin      float32
	flagsBack uint32
}

func wf(w uint32) float32 { return math.Float32frombits(w) }

func readHit(w []uint32) hitRec {
	return hitRec{typ: w[0], inst: w[1], custom: w[2], sbt: w[3], geom: w[4], prim: w[5], t: wf(w[6]), u: wf(w[7]), v: wf(w[8]),
		front: w[9] != 0, aabbOpaque: w[10] != 0, objO: vec3{wf(w[11]), wf(w[12]), wf(w[13])}, objD: vec3{wf(w[14]), wf(w[15]), wf(w[16])}}
}

// probe runs probeSrc for r against as (nil: nothing bound).
func probe(t *testing.T, dev *Device, as *AccelerationStructure, r ray) (probeResult, error) {
	t.Helper()
	out, _ := dev.NewBuffer(512*4, backend.UsageStorage)
	binds := []backend.Binding{{Binding: 1, Buffer: out}}
	if as != nil && !r.byAddr {
		binds = append(binds, backend.Binding{Binding: 0, Kind: backend.AccelerationStructureKind, Accel: as})
	}
	_, err := dev.Dispatch(&backend.Dispatch{Code: glslWords(t, probeSrc), Entry: "main", Groups: [3]uint32{1, 1, 1}, Bindings: binds, PushConstants: probePush(r, as)})
	if err != nil {
		return probeResult{}, err
	}
	w := u32s(out)
	res := probeResult{n: w[0], again: w[1] != 0, comm: readHit(w[324:]), wo: vec3{wf(w[377]), wf(w[378]), wf(w[379])},
		wd: vec3{wf(w[380]), wf(w[381]), wf(w[382])}, tmin: wf(w[383]), flagsBack: w[384]}
	for k := 0; k < int(min(res.n, 16)); k++ {
		res.cands = append(res.cands, readHit(w[4+20*k:]))
	}
	for k := range 12 {
		res.o2w[k], res.w2o[k] = wf(w[344+k]), wf(w[356+k])
	}
	for k := range 9 {
		res.pos[k] = wf(w[368+k])
	}
	return res, nil
}

// probePush lays out probeSrc's push constants for r (as's address when
// r.byAddr).
func probePush(r ray, as *AccelerationStructure) []byte {
	push := make([]byte, 80)
	put := func(off int, v uint32) { binary.LittleEndian.PutUint32(push[off:], v) }
	for k := range 3 {
		put(4*k, math.Float32bits(r.o[k]))
		put(16+4*k, math.Float32bits(r.d[k]))
	}
	put(32, math.Float32bits(r.tmin))
	put(36, math.Float32bits(r.tmax))
	put(40, r.flags)
	put(44, r.mask)
	put(48, r.policy)
	put(52, math.Float32bits(r.genT))
	if as != nil && r.byAddr {
		binary.LittleEndian.PutUint64(push[56:], as.Address())
		put(64, 1)
	}
	return push
}

func mustProbe(t *testing.T, dev *Device, as *AccelerationStructure, r ray) probeResult {
	t.Helper()
	res, err := probe(t, dev, as, r)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Geometry used below: the unit right triangle in the plane z = 0 with
// vertices (0,0,0), (1,0,0), (0,1,0), counterclockwise seen from +z; a ray
// along +z therefore sees its back face, a ray along -z its front.
var unitTri = [][3]float32{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}

func translate(x, y, z float32) [3][4]float32 {
	return [3][4]float32{{1, 0, 0, x}, {0, 1, 0, y}, {0, 0, 1, z}}
}

func newAS(t *testing.T, dev *Device, insts []Instance) *AccelerationStructure {
	t.Helper()
	a, err := dev.NewAccelerationStructure(insts)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestRayQueryClosestOpaqueTriangle(t *testing.T) {
	dev := New(Options{})
	// Instance 0: the triangle at z = 5. Instance 1: scaled by 2 in x and
	// moved to z = 3, its second geometry's second triangle the one hit.
	scaled := [3][4]float32{{2, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 3}}
	far := [][3]float32{{10, 10, 0}, {11, 10, 0}, {10, 11, 0}}
	as := newAS(t, dev, []Instance{
		{Transform: translate(0, 0, 5), CustomIndex: 7, Mask: 0xff, SBTOffset: 3, Geometries: []Geometry{{Opaque: true, Vertices: unitTri}}},
		{Transform: scaled, CustomIndex: 0xabcdef, Mask: 0x01, SBTOffset: 0x123456, Geometries: []Geometry{
			{Opaque: true, Vertices: far},
			{Opaque: true, Vertices: append(append([][3]float32{}, far...), unitTri...)},
		}},
	})
	// The ray passes through world (0.5, 0.25): object (0.25, 0.25) in
	// instance 1, so barycentrics (0.25, 0.25).
	r := ray{o: vec3{0.5, 0.25, -1}, d: vec3{0, 0, 1}, tmin: 0, tmax: 100, mask: 0xff}
	for _, byAddr := range []bool{false, true} {
		r.byAddr = byAddr
		res := mustProbe(t, dev, as, r)
		if res.n != 0 || res.again {
			t.Fatalf("opaque triangles reported %d candidates (again %v)", res.n, res.again)
		}
		c := res.comm
		want := hitRec{typ: 1, inst: 1, custom: 0xabcdef, sbt: 0x123456, geom: 1, prim: 1, t: 4, u: 0.25, v: 0.25, front: false,
			objO: vec3{0.25, 0.25, -4}, objD: vec3{0, 0, 1}}
		if c != want {
			t.Errorf("byAddr %v: committed %+v\nwant %+v", byAddr, c, want)
		}
		if res.o2w != [12]float32{2, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 3} || res.w2o != [12]float32{0.5, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, -3} {
			t.Errorf("object-to-world %v, world-to-object %v", res.o2w, res.w2o)
		}
		if res.pos != [9]float32{0, 0, 0, 1, 0, 0, 0, 1, 0} {
			t.Errorf("vertex positions %v", res.pos)
		}
		if res.wo != r.o || res.wd != r.d || res.tmin != 0 || res.flagsBack != 0 {
			t.Errorf("ray read back as %v %v %g %#x", res.wo, res.wd, res.tmin, res.flagsBack)
		}
	}
	// A cull mask without instance 1's bit sees only the far triangle;
	// terminate-on-first-hit keeps the first hit in traversal order.
	for _, tc := range []struct {
		mask, flags uint32
		inst        uint32
		t           float32
	}{{0xfe, 0, 0, 6}, {0xff, rfTerminateOnHit, 0, 6}, {0x01, 0, 1, 4}, {0x00, 0, 0, 0}} {
		res := mustProbe(t, dev, as, ray{o: r.o, d: r.d, tmax: 100, mask: tc.mask, flags: tc.flags})
		wantType := uint32(1)
		if tc.mask == 0 {
			wantType = 0
		}
		if res.comm.typ != wantType || res.comm.inst != tc.inst || res.comm.t != tc.t {
			t.Errorf("mask %#x flags %#x: committed type %d instance %d t %g, want %d %d %g", tc.mask, tc.flags, res.comm.typ, res.comm.inst, res.comm.t, wantType, tc.inst, tc.t)
		}
	}
}

func TestRayQueryEmptyScene(t *testing.T) {
	dev := New(Options{})
	empty := newAS(t, dev, nil)
	for _, as := range []*AccelerationStructure{nil, empty} {
		for _, byAddr := range []bool{false, true} {
			res := mustProbe(t, dev, as, ray{o: vec3{0, 0, 0}, d: vec3{1, 0, 0}, tmax: 10, mask: 0xff, byAddr: byAddr})
			if res.n != 0 || res.comm != (hitRec{}) || res.pos != [9]float32{} {
				t.Errorf("empty scene (%v, %v): %+v", as != nil, byAddr, res)
			}
		}
	}
}

func TestRayQueryFacingCulling(t *testing.T) {
	dev := New(Options{})
	// Two instances of the unit triangle on the ray's path: the near one
	// (z = 1) as given, the far one (z = 2) with its winding reversed.
	rev := [][3]float32{unitTri[0], unitTri[2], unitTri[1]}
	mk := func(flags InstanceFlags) *AccelerationStructure {
		return newAS(t, dev, []Instance{
			{Transform: translate(0, 0, 1), Mask: 1, Flags: flags, Geometries: []Geometry{{Opaque: true, Vertices: unitTri}}},
			{Transform: translate(0, 0, 2), Mask: 1, Flags: flags, Geometries: []Geometry{{Opaque: true, Vertices: rev}}},
		})
	}
	up := ray{o: vec3{0.25, 0.25, 0}, d: vec3{0, 0, 1}, tmax: 10, mask: 1} // sees the near back face
	for _, tc := range []struct {
		name  string
		flags InstanceFlags
		ray   uint32
		inst  uint32
		front bool
		none  bool
	}{
		{"no culling", 0, 0, 0, false, false},
		{"cull back", 0, rfCullBack, 1, true, false},
		{"cull front", 0, rfCullFront, 0, false, false},
		{"flip facing, cull back", InstanceTriangleFlipFacing, rfCullBack, 0, true, false},
		{"flip facing, cull front", InstanceTriangleFlipFacing, rfCullFront, 1, false, false},
		{"culling disabled", InstanceTriangleFacingCullDisable, rfCullBack, 0, false, false},
		{"skip triangles", 0, rfSkipTriangles, 0, false, true},
	} {
		r := up
		r.flags = tc.ray
		res := mustProbe(t, dev, mk(tc.flags), r)
		if tc.none {
			if res.comm.typ != 0 {
				t.Errorf("%s: committed %+v, want none", tc.name, res.comm)
			}
			continue
		}
		if res.comm.typ != 1 || res.comm.inst != tc.inst || res.comm.front != tc.front || res.comm.t != float32(tc.inst+1) {
			t.Errorf("%s: committed instance %d front %v t %g, want %d %v %d", tc.name, res.comm.inst, res.comm.front, res.comm.t, tc.inst, tc.front, tc.inst+1)
		}
	}
}

func TestRayQueryCandidates(t *testing.T) {
	dev := New(Options{})
	// Along +x from the origin: triangles facing the ray at x = 2, 4, 6
	// (non-opaque, opaque, non-opaque) in one geometry, and AABBs spanning
	// x in [1,1.5], [3,3.5] and [8,9] in another.
	wall := func(x float32) [][3]float32 {
		return [][3]float32{{x, -1, -1}, {x, 1, -1}, {x, -1, 1}}
	}
	tris := append(append(wall(2), wall(4)...), wall(6)...)
	boxes := []AABB{{Min: vec3{1, -1, -1}, Max: vec3{1.5, 1, 1}}, {Min: vec3{3, -1, -1}, Max: vec3{3.5, 1, 1}}, {Min: vec3{8, -1, -1}, Max: vec3{9, 1, 1}}}
	as := newAS(t, dev, []Instance{{Transform: translate(0, 0, 0), Mask: 1, Geometries: []Geometry{
		{Opaque: false, Vertices: tris[:3]},
		{Opaque: true, Vertices: tris[3:6]},
		{Opaque: false, Vertices: tris[6:]},
		{Opaque: true, AABBs: boxes},
	}}})
	base := ray{o: vec3{0, -0.5, -0.25}, d: vec3{1, 0, 0}, tmax: 100, mask: 1}
	type cand struct {
		typ, geom, prim uint32
		t               float32
	}
	got := func(res probeResult) []cand {
		var out []cand
		for _, c := range res.cands {
			out = append(out, cand{c.typ, c.geom, c.prim, c.t})
		}
		return out
	}
	// Rejecting every candidate: the non-opaque triangles at 2 and (the
	// opaque one at 4 is committed on the way) 6 is beyond it; the AABBs
	// entered at 1 and 3 are reported, the one at 8 is beyond t = 4.
	res := mustProbe(t, dev, as, base)
	want := []cand{{0, 0, 0, 2}, {1, 3, 0, 1}, {1, 3, 1, 3}}
	if g := got(res); !equalCands(g, want) || res.comm.typ != 1 || res.comm.geom != 1 || res.comm.t != 4 {
		t.Errorf("reject all: candidates %v (want %v), committed %+v", g, want, res.comm)
	}
	for _, c := range res.cands {
		if c.typ == 1 && !c.aabbOpaque || c.typ == 0 && c.aabbOpaque {
			t.Errorf("candidate %+v: AABB opacity reported wrong", c)
		}
	}
	// Confirming triangles: the one at 2 is committed first, so the opaque
	// one at 4 and the AABB at 3 are beyond it.
	r := base
	r.policy = 1
	res = mustProbe(t, dev, as, r)
	want = []cand{{0, 0, 0, 2}, {1, 3, 0, 1}}
	if g := got(res); !equalCands(g, want) || res.comm.typ != 1 || res.comm.geom != 0 || res.comm.t != 2 {
		t.Errorf("confirm: candidates %v (want %v), committed %+v", g, want, res.comm)
	}
	// Generating at t = 1.25 inside the first AABB.
	r.policy, r.genT = 2, 1.25
	res = mustProbe(t, dev, as, r)
	want = []cand{{0, 0, 0, 2}, {1, 3, 0, 1}}
	if g := got(res); !equalCands(g, want) || res.comm.typ != 2 || res.comm.geom != 3 || res.comm.prim != 0 || res.comm.t != 1.25 || res.comm.u != 0 || res.comm.front {
		t.Errorf("generate: candidates %v (want %v), committed %+v", g, want, res.comm)
	}
	// Flags: forcing opacity commits every triangle; culling the
	// non-opaque leaves the opaque triangle and AABBs; skipping AABBs.
	for _, tc := range []struct {
		name  string
		flags uint32
		want  []cand
		t     float32
	}{
		{"opaque", rfOpaque, []cand{{1, 3, 0, 1}}, 2},
		{"no opaque", rfNoOpaque, []cand{{0, 0, 0, 2}, {0, 1, 0, 4}, {0, 2, 0, 6}, {1, 3, 0, 1}, {1, 3, 1, 3}, {1, 3, 2, 8}}, 0},
		{"cull no-opaque", rfCullNoOpaque, []cand{{1, 3, 0, 1}, {1, 3, 1, 3}}, 4},
		{"cull opaque", rfCullOpaque, []cand{{0, 0, 0, 2}, {0, 2, 0, 6}}, 0},
		{"skip AABBs", rfSkipAABBs, []cand{{0, 0, 0, 2}}, 4},
		{"terminate on first hit", rfTerminateOnHit, []cand{{0, 0, 0, 2}}, 4},
	} {
		r := base
		r.flags = tc.flags
		res := mustProbe(t, dev, as, r)
		if g := got(res); !equalCands(g, tc.want) || res.comm.t != tc.t || res.flagsBack != tc.flags {
			t.Errorf("%s: candidates %v (want %v), committed t %g (want %g)", tc.name, g, tc.want, res.comm.t, tc.t)
		}
	}
	// Terminating at the first candidate ends the traversal.
	r = base
	r.policy = 4
	res = mustProbe(t, dev, as, r)
	if res.n != 1 || res.again || res.comm.typ != 0 {
		t.Errorf("terminate: %d candidates, committed %+v", res.n, res.comm)
	}
}

func equalCands[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestRayQueryTriangleMath checks t and barycentrics of oblique rays
// against a float64 solution of o + t d = (1-u-v) p0 + u p1 + v p2.
func TestRayQueryTriangleMath(t *testing.T) {
	dev := New(Options{})
	tri := [][3]float32{{1, -2, 3}, {4, 1, 2.5}, {-1, 3, 5}}
	xf := [3][4]float32{{0, -1, 0, 0.5}, {1, 0, 0, -1}, {0, 0, 2, 7}} // rotate, scale z, move
	as := newAS(t, dev, []Instance{{Transform: xf, Mask: 1, Geometries: []Geometry{{Opaque: true, Vertices: tri}}}})
	world := func(p [3]float32) [3]float64 {
		var w [3]float64
		for r := range 3 {
			w[r] = float64(xf[r][0])*float64(p[0]) + float64(xf[r][1])*float64(p[1]) + float64(xf[r][2])*float64(p[2]) + float64(xf[r][3])
		}
		return w
	}
	p0, p1, p2 := world(tri[0]), world(tri[1]), world(tri[2])
	for _, bc := range [][2]float64{{0.2, 0.3}, {0.6, 0.1}, {0.05, 0.9}, {0.33, 0.33}} {
		// Aim from a fixed origin at the point with these barycentrics.
		var target, o, d [3]float64
		o = [3]float64{-3, 2, -4}
		for k := range 3 {
			target[k] = (1-bc[0]-bc[1])*p0[k] + bc[0]*p1[k] + bc[1]*p2[k]
			d[k] = (target[k] - o[k]) / 2 // so t = 2
		}
		r := ray{o: vec3{float32(o[0]), float32(o[1]), float32(o[2])}, d: vec3{float32(d[0]), float32(d[1]), float32(d[2])}, tmax: 100, mask: 1}
		res := mustProbe(t, dev, as, r)
		// Solve with the float32 ray actually traced, in float64.
		wt, wu, wv := solveRay(r, p0, p1, p2)
		c := res.comm
		if c.typ != 1 || math.Abs(float64(c.t)-wt) > 1e-5*wt || math.Abs(float64(c.u)-wu) > 1e-5 || math.Abs(float64(c.v)-wv) > 1e-5 {
			t.Errorf("barycentrics %v: t %g u %g v %g, want %g %g %g", bc, c.t, c.u, c.v, wt, wu, wv)
		}
		if math.Abs(wt-2) > 1e-5 {
			t.Fatalf("the test's own solution is off: t %g", wt)
		}
		// The triangle's normal (p1-p0)x(p2-p0) against the direction
		// decides the face: front when they point against each other.
		n := cross(sub(p1, p0), sub(p2, p0))
		if front := n[0]*d[0]+n[1]*d[1]+n[2]*d[2] < 0; c.front != front {
			t.Errorf("barycentrics %v: front %v, want %v", bc, c.front, front)
		}
	}
}

func sub(a, b [3]float64) [3]float64 { return [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func cross(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// solveRay solves o + t d = p0 + u (p1-p0) + v (p2-p0) by Cramer's rule.
func solveRay(r ray, p0, p1, p2 [3]float64) (t, u, v float64) {
	o := [3]float64{float64(r.o[0]), float64(r.o[1]), float64(r.o[2])}
	d := [3]float64{float64(r.d[0]), float64(r.d[1]), float64(r.d[2])}
	e1, e2, b := sub(p1, p0), sub(p2, p0), sub(o, p0)
	// [e1 e2 -d] (u v t) = b
	nd := [3]float64{-d[0], -d[1], -d[2]}
	det3 := func(a, b, c [3]float64) float64 {
		return a[0]*(b[1]*c[2]-b[2]*c[1]) - b[0]*(a[1]*c[2]-a[2]*c[1]) + c[0]*(a[1]*b[2]-a[2]*b[1])
	}
	den := det3(e1, e2, nd)
	return det3(e1, e2, b) / den, det3(b, e2, nd) / den, det3(e1, b, nd) / den
}

// TestRayQueryWatertight casts 17 rays, one per invocation, across a quad
// of two triangles sharing a diagonal; the ray through the diagonal hits
// exactly one of them, and lockstep and one-by-one execution agree.
func TestRayQueryWatertight(t *testing.T) {
	const src = `#version 460
#extension GL_EXT_ray_query : require
layout(local_size_x = 17) in;
layout(binding = 0) uniform accelerationStructureEXT tlas;
layout(binding = 1, std430) buffer Out { uint hits[17]; int prim[17]; float t[17]; } o;
void main() {
	uint i = gl_LocalInvocationID.x;
	rayQueryEXT q;
	rayQueryInitializeEXT(q, tlas, gl_RayFlagsNoneEXT, 0xffu, vec3(float(i) * 0.125, 0.25, 1.0), 0.0, vec3(0.0, 0.0, -1.0), 10.0);
	uint n = 0u;
	while (rayQueryProceedEXT(q)) {
		n++;
		o.prim[i] = rayQueryGetIntersectionPrimitiveIndexEXT(q, false);
		o.t[i] = rayQueryGetIntersectionTEXT(q, false);
	}
	o.hits[i] = n;
}
`
	// The quad x in [0,2], y in [0,1] at z = 0, split along (0,0)-(2,1):
	// the ray at x = 0.5 (y = 0.25) passes through the diagonal.
	quad := [][3]float32{{0, 0, 0}, {2, 0, 0}, {2, 1, 0}, {0, 1, 0}}
	var outs [2][]uint32
	for k, noLock := range []bool{false, true} {
		dev := New(Options{noLockstep: noLock, SubgroupSize: 8})
		as := newAS(t, dev, []Instance{{Transform: translate(0, 0, 0), Mask: 1, Geometries: []Geometry{
			{Vertices: quad, Indices: []uint32{0, 1, 2, 0, 2, 3}},
		}}})
		out, _ := dev.NewBuffer(17*3*4, backend.UsageStorage)
		if _, err := dev.Dispatch(&backend.Dispatch{Code: glslWords(t, src), Entry: "main", Groups: [3]uint32{1, 1, 1}, Bindings: []backend.Binding{
			{Binding: 0, Kind: backend.AccelerationStructureKind, Accel: as}, {Binding: 1, Buffer: out}}}); err != nil {
			t.Fatal(err)
		}
		outs[k] = u32s(out)
	}
	if !equalCands(outs[0], outs[1]) {
		t.Errorf("lockstep and one-by-one execution differ:\n%v\n%v", outs[0], outs[1])
	}
	w := outs[0]
	for i := range 17 {
		x := float64(i) * 0.125
		// The rays along the quad's outer edges (x = 0, x = 2) hit it
		// where the edge's owner rule says; every other ray exactly once.
		if x == 0 || x == 2 {
			if w[i] > 1 {
				t.Errorf("ray at x = %g: %d hits", x, w[i])
			}
			continue
		}
		if w[i] != 1 {
			t.Errorf("ray at x = %g: %d hits, want 1", x, w[i])
		}
		wantPrim := uint32(1) // above the diagonal y = x/2
		if 0.25 < x/2 {
			wantPrim = 0
		}
		if x != 0.5 && w[17+i] != wantPrim || wf(w[34+i]) != 1 {
			t.Errorf("ray at x = %g: primitive %d t %g, want %d, 1", x, w[17+i], wf(w[34+i]), wantPrim)
		}
	}
}

func TestRayQueryTRange(t *testing.T) {
	dev := New(Options{})
	as := newAS(t, dev, []Instance{
		{Transform: translate(0, 0, 2), Mask: 1, Geometries: []Geometry{{Opaque: true, Vertices: unitTri}}},
		{Transform: translate(0, 0, 0), Mask: 1, Geometries: []Geometry{{AABBs: []AABB{{Min: vec3{0, 0, 3}, Max: vec3{1, 1, 4}}}}}},
	})
	for _, tc := range []struct {
		tmin, tmax float32
		hit        bool
		aabbs      uint32
	}{
		{0, 10, true, 0}, // the AABB at 3 is beyond the committed t = 2
		{2, 10, false, 1},
		{0, 2, false, 0},
		{0, 3, true, 0},
		{2, 3, false, 1}, // AABB bounds are inclusive, triangle ones not
		{4, 4, false, 1},
		{4.5, 10, false, 0},
	} {
		res := mustProbe(t, dev, as, ray{o: vec3{0.25, 0.25, 0}, d: vec3{0, 0, 1}, tmin: tc.tmin, tmax: tc.tmax, mask: 1})
		if (res.comm.typ == 1) != tc.hit || res.n != tc.aabbs {
			t.Errorf("t in [%g, %g]: committed %d, %d AABB candidates; want hit %v, %d", tc.tmin, tc.tmax, res.comm.typ, res.n, tc.hit, tc.aabbs)
		}
	}
}

func TestRayQueryFaults(t *testing.T) {
	dev := New(Options{})
	as := newAS(t, dev, []Instance{{Transform: translate(0, 0, 0), Mask: 1, Geometries: []Geometry{
		{AABBs: []AABB{{Min: vec3{-1, -1, 1}, Max: vec3{1, 1, 2}}}},
	}}})
	ok := ray{o: vec3{0, 0, 0}, d: vec3{0, 0, 1}, tmax: 10, mask: 1}
	for _, tc := range []struct {
		name string
		r    func(r *ray)
		want string
	}{
		{"generate out of range", func(r *ray) { r.policy, r.genT = 2, 11 }, "Hit T 11 is outside [0, 10]"},
		{"infinite origin", func(r *ray) { r.o[1] = float32(math.Inf(1)) }, "must be finite"},
		{"negative tmin", func(r *ray) { r.tmin = -1 }, "must be non-negative"},
		{"tmin above tmax", func(r *ray) { r.tmin = 11 }, "t min <= t max"},
		{"exclusive flags", func(r *ray) { r.flags = rfOpaque | rfCullOpaque }, "mutually exclusive"},
		{"skip both", func(r *ray) { r.flags = rfSkipTriangles | rfSkipAABBs }, "mutually exclusive"},
	} {
		r := ok
		tc.r(&r)
		_, err := probe(t, dev, as, r)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	// Bindings of the wrong kind, released structures and bad builds.
	out, _ := dev.NewBuffer(2048, backend.UsageStorage)
	code := glslWords(t, probeSrc)
	for _, b := range [][]backend.Binding{
		{{Binding: 0, Buffer: out}, {Binding: 1, Buffer: out}},
		{{Binding: 0, Kind: backend.AccelerationStructureKind, Accel: as}, {Binding: 1, Kind: backend.AccelerationStructureKind, Accel: as}},
		{{Binding: 0, Kind: backend.AccelerationStructureKind, Accel: newAS(t, New(Options{}), nil)}, {Binding: 1, Buffer: out}},
	} {
		if _, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{1, 1, 1}, Bindings: b, PushConstants: make([]byte, 80)}); err == nil {
			t.Errorf("bindings %+v accepted", b)
		}
	}
	gone := newAS(t, dev, nil)
	addr := gone.Address()
	gone.Release()
	if _, err := probe(t, dev, gone, ok); err == nil || !strings.Contains(err.Error(), "released") {
		t.Errorf("released structure bound: %v", err)
	}
	r := ok
	r.byAddr = true
	push := make([]byte, 80)
	binary.LittleEndian.PutUint64(push[56:], addr)
	binary.LittleEndian.PutUint32(push[64:], 1)
	binary.LittleEndian.PutUint32(push[20:], math.Float32bits(1))
	binary.LittleEndian.PutUint32(push[36:], math.Float32bits(1))
	if _, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{1, 1, 1}, Bindings: []backend.Binding{{Binding: 1, Buffer: out}}, PushConstants: push}); err == nil ||
		!strings.Contains(err.Error(), "not an acceleration structure") {
		t.Errorf("released structure by address: %v", err)
	}
	for _, bad := range [][]Instance{
		{{Transform: [3][4]float32{{1, 0, 0, 0}, {2, 0, 0, 0}, {0, 0, 1, 0}}}},
		{{Transform: translate(0, 0, 0), CustomIndex: 1 << 24}},
		{{Transform: translate(0, 0, 0), Flags: InstanceForceOpaque | InstanceForceNoOpaque}},
		{{Transform: translate(0, 0, 0), Geometries: []Geometry{{Vertices: unitTri, Indices: []uint32{0, 1, 3}}}}},
		{{Transform: translate(0, 0, 0), Geometries: []Geometry{{Vertices: unitTri[:2]}}}},
		{{Transform: translate(0, 0, 0), Geometries: []Geometry{{Vertices: unitTri, AABBs: []AABB{{}}}}}},
		{{Transform: translate(0, 0, 0), Geometries: []Geometry{{AABBs: []AABB{{Min: vec3{1, 0, 0}}}}}}},
	} {
		if _, err := dev.NewAccelerationStructure(bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// TestRayQueryUninitialized: a query used before initialization faults.
func TestRayQueryUninitialized(t *testing.T) {
	const src = `#version 460
#extension GL_EXT_ray_query : require
layout(local_size_x = 1) in;
layout(binding = 1, std430) buffer Out { uint w; } o;
void main() {
	rayQueryEXT q;
	o.w = rayQueryProceedEXT(q) ? 1u : 0u;
}
`
	dev := New(Options{})
	out, _ := dev.NewBuffer(4, backend.UsageStorage)
	_, err := dev.Dispatch(&backend.Dispatch{Code: glslWords(t, src), Entry: "main", Groups: [3]uint32{1, 1, 1}, Bindings: []backend.Binding{{Binding: 1, Buffer: out}}})
	if err == nil || !strings.Contains(err.Error(), "before OpRayQueryInitializeKHR") {
		t.Errorf("got %v", err)
	}
}
