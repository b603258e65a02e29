package exec

import (
	"slices"
	"testing"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/internal/reftool"
)

// TestRayQueryArrays indexes an array of acceleration-structure
// descriptors and an array of ray queries per invocation, passes a ray
// query to a function, and leaves one descriptor unbound (empty).
func TestRayQueryArrays(t *testing.T) {
	const src = `#version 460
#extension GL_EXT_ray_query : require
layout(local_size_x = 6) in;
layout(binding = 0) uniform accelerationStructureEXT scenes[3];
layout(binding = 1, std430) buffer Out { float t[6]; uint inst[6]; } o;
rayQueryEXT qs[2];
float trace(rayQueryEXT q) {
	while (rayQueryProceedEXT(q)) {}
	return rayQueryGetIntersectionTEXT(q, true);
}
void main() {
	uint i = gl_LocalInvocationID.x;
	uint k = i & 1u;
	rayQueryInitializeEXT(qs[k], scenes[i % 3u], gl_RayFlagsOpaqueEXT, 0xffu, vec3(0.25, 0.25, 0.0), 0.0, vec3(0.0, 0.0, 1.0), 100.0);
	while (rayQueryProceedEXT(qs[k])) {}
	o.t[i] = rayQueryGetIntersectionTEXT(qs[k], true);
	o.inst[i] = rayQueryGetIntersectionTypeEXT(qs[k], true) == gl_RayQueryCommittedIntersectionNoneEXT ? 99u : uint(rayQueryGetIntersectionInstanceIdEXT(qs[k], true));
}
`
	dev := New(Options{SubgroupSize: 4})
	near := newAS(t, dev, []Instance{{Transform: translate(0, 0, 2), Mask: 1, Geometries: []Geometry{{Vertices: unitTri}}}})
	far := newAS(t, dev, []Instance{
		{Transform: translate(0, 0, 9), Mask: 1, Geometries: []Geometry{{Vertices: unitTri}}},
		{Transform: translate(0, 0, 7), Mask: 1, Geometries: []Geometry{{Vertices: unitTri}}},
	})
	out, _ := dev.NewBuffer(48, backend.UsageStorage)
	_, err := dev.Dispatch(&backend.Dispatch{Code: glslWords(t, src), Entry: "main", Groups: [3]uint32{1, 1, 1}, Bindings: []backend.Binding{
		{Binding: 0, ArrayElement: 0, Kind: backend.AccelerationStructureKind, Accel: near},
		{Binding: 0, ArrayElement: 2, Kind: backend.AccelerationStructureKind, Accel: far},
		{Binding: 1, Buffer: out}}})
	if err != nil {
		t.Fatal(err)
	}
	w := u32s(out)
	wantT := []float32{2, 0, 7, 2, 0, 7}
	wantInst := []uint32{0, 99, 1, 0, 99, 1}
	for i := range 6 {
		if wf(w[i]) != wantT[i] || w[6+i] != wantInst[i] {
			t.Errorf("invocation %d: t %g instance %d, want %g %d", i, wf(w[i]), w[6+i], wantT[i], wantInst[i])
		}
	}
}

// TestRayQueryMatchesGlslang runs glslang's module of the probe shader
// beside coop's on the same scenes and requires the same buffers.
func TestRayQueryMatchesGlslang(t *testing.T) {
	ref, err := reftool.Glslang([]byte(probeSrc), "vulkan1.3")
	if err != nil {
		t.Fatal(err)
	}
	if ref == nil {
		t.Skip("glslangValidator not found (set COOP_REF_BIN)")
	}
	refWords, _ := ref.Words()
	dev := New(Options{})
	as := newAS(t, dev, []Instance{
		{Transform: [3][4]float32{{0, -1, 0, 0.5}, {1, 0, 0, -1}, {0, 0, 2, 7}}, CustomIndex: 5, Mask: 3, SBTOffset: 9, Geometries: []Geometry{
			{Vertices: [][3]float32{{1, -2, 3}, {4, 1, 2.5}, {-1, 3, 5}}},
			{Opaque: true, AABBs: []AABB{{Min: vec3{-3, -3, 0}, Max: vec3{3, 3, 1}}}},
		}},
		{Transform: translate(0, 0, 1), Mask: 1, Flags: InstanceTriangleFlipFacing, Geometries: []Geometry{{Opaque: true, Vertices: unitTri}}},
	})
	rays := []ray{
		{o: vec3{-3, 2, -4}, d: vec3{1.5, -1, 5.5}, tmax: 100, mask: 0xff},
		{o: vec3{-3, 2, -4}, d: vec3{1.5, -1, 5.5}, tmax: 100, mask: 0xff, policy: 1},
		{o: vec3{-3, 2, -4}, d: vec3{1.5, -1, 5.5}, tmax: 100, mask: 0xff, policy: 2, genT: 1},
		{o: vec3{0.25, 0.25, -1}, d: vec3{0, 0, 1}, tmax: 100, mask: 1, flags: rfCullBack},
		{o: vec3{0.25, 0.25, -1}, d: vec3{0, 0, 1}, tmin: 1.5, tmax: 100, mask: 2, flags: rfNoOpaque, policy: 5},
	}
	for i, r := range rays {
		var outs [2][]uint32
		for k, code := range [][]uint32{glslWords(t, probeSrc), refWords} {
			out, _ := dev.NewBuffer(512*4, backend.UsageStorage)
			if _, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{1, 1, 1}, PushConstants: probePush(r, as),
				Bindings: []backend.Binding{{Binding: 1, Buffer: out}, {Binding: 0, Kind: backend.AccelerationStructureKind, Accel: as}}}); err != nil {
				t.Fatalf("ray %d: %v", i, err)
			}
			outs[k] = u32s(out)
		}
		if !slices.Equal(outs[0], outs[1]) {
			t.Errorf("ray %d: coop's and glslang's modules differ", i)
		}
		if outs[0][324] == 0 && outs[0][0] == 0 {
			t.Errorf("ray %d hit nothing: the comparison is weak", i)
		}
	}
}
