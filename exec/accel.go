package exec

import (
	"fmt"
	"math"

	"github.com/coopshader/coop/backend"
)

// Acceleration structures. A GPU's acceleration-structure format is its
// own; the executor's is the host-side description below, kept exactly as
// given (no bounding-volume hierarchy: traversal visits every primitive,
// see raytrace.go and the package documentation).

// Instance is one instance of a top-level acceleration structure, as
// VkAccelerationStructureInstanceKHR describes it, with its bottom-level
// geometries in place of a reference to a bottom-level structure.
type Instance struct {
	// Transform is the object-to-world matrix: three rows of four, the
	// last column the translation (VkTransformMatrixKHR). It must be
	// invertible.
	Transform [3][4]float32
	// CustomIndex and SBTOffset are 24-bit values.
	CustomIndex uint32
	Mask        uint8
	SBTOffset   uint32
	Flags       InstanceFlags
	Geometries  []Geometry
}

// InstanceFlags are VkGeometryInstanceFlagBitsKHR.
type InstanceFlags uint32

// Instance flags, with Vulkan's values.
const (
	InstanceTriangleFacingCullDisable InstanceFlags = 1
	InstanceTriangleFlipFacing        InstanceFlags = 2
	InstanceForceOpaque               InstanceFlags = 4
	InstanceForceNoOpaque             InstanceFlags = 8
)

// Geometry is one geometry of an instance: triangles or AABBs, never
// both. Its index in Instance.Geometries is its geometry index.
type Geometry struct {
	// Opaque is VK_GEOMETRY_OPAQUE_BIT_KHR.
	Opaque bool
	// Vertices are triangle vertex positions. Triangle i has vertices
	// Indices[3i..3i+2], or Vertices[3i..3i+2] when Indices is nil.
	Vertices [][3]float32
	Indices  []uint32
	// AABBs are axis-aligned boxes (VkAabbPositionsKHR).
	AABBs []AABB
}

// AABB is an axis-aligned box.
type AABB struct{ Min, Max [3]float32 }

// AccelerationStructure is a top-level acceleration structure of a
// Device; it implements backend.AccelerationStructure.
type AccelerationStructure struct {
	d    *Device
	idx  int
	data *accelData
}

var _ backend.AccelerationStructure = (*AccelerationStructure)(nil)

// Address is the structure's 64-bit address: region kind 5, its number.
func (a *AccelerationStructure) Address() uint64 { return addrOf(regAccel, uint64(a.idx), 0) }

// Release frees the structure; dispatches binding it fail afterwards and
// its address no longer names an acceleration structure.
func (a *AccelerationStructure) Release() {
	a.d.mu.Lock()
	defer a.d.mu.Unlock()
	if a.idx < len(a.d.accels) {
		a.d.accels[a.idx] = nil
	}
	a.data = nil
}

// accelData is a validated copy of a description.
type accelData struct {
	insts []accelInst
}

type accelInst struct {
	custom, sbt uint32
	mask        uint8
	flags       InstanceFlags
	o2w, w2o    [3][4]float32
	geoms       []accelGeom
}

type accelGeom struct {
	opaque bool
	tris   [][3][3]float32 // vertex positions, resolved through the indices
	aabbs  []AABB
}

// maxPrimitives bounds the primitives of one acceleration structure.
const maxPrimitives = 1 << 24

// NewAccelerationStructure builds a top-level acceleration structure from
// instances (copied: later changes to them do not affect it).
func (d *Device) NewAccelerationStructure(instances []Instance) (*AccelerationStructure, error) {
	data := &accelData{}
	total := 0
	for i, in := range instances {
		if in.Flags&InstanceForceOpaque != 0 && in.Flags&InstanceForceNoOpaque != 0 {
			return nil, fmt.Errorf("instance %d: ForceOpaque and ForceNoOpaque are mutually exclusive", i)
		}
		if in.CustomIndex >= 1<<24 || in.SBTOffset >= 1<<24 {
			return nil, fmt.Errorf("instance %d: custom index %d or SBT offset %d does not fit in 24 bits", i, in.CustomIndex, in.SBTOffset)
		}
		w2o, ok := invert(in.Transform)
		if !ok {
			return nil, fmt.Errorf("instance %d: the transform is not an invertible matrix of finite values", i)
		}
		ai := accelInst{custom: in.CustomIndex, sbt: in.SBTOffset, mask: in.Mask, flags: in.Flags, o2w: in.Transform, w2o: w2o}
		for g, geo := range in.Geometries {
			ag, err := buildGeometry(geo)
			if err != nil {
				return nil, fmt.Errorf("instance %d, geometry %d: %v", i, g, err)
			}
			total += len(ag.tris) + len(ag.aabbs)
			if total > maxPrimitives {
				return nil, fmt.Errorf("more than %d primitives", maxPrimitives)
			}
			ai.geoms = append(ai.geoms, ag)
		}
		data.insts = append(data.insts, ai)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.accels) >= 1<<16 {
		return nil, fmt.Errorf("too many acceleration structures (at most %d per device)", 1<<16-1)
	}
	a := &AccelerationStructure{d: d, idx: len(d.accels), data: data}
	d.accels = append(d.accels, data)
	return a, nil
}

func buildGeometry(geo Geometry) (accelGeom, error) {
	g := accelGeom{opaque: geo.Opaque}
	if len(geo.AABBs) > 0 {
		if len(geo.Vertices) > 0 || len(geo.Indices) > 0 {
			return g, fmt.Errorf("a geometry holds triangles or AABBs, not both")
		}
		for i, b := range geo.AABBs {
			if b.Min[0] != b.Min[0] {
				continue // inactive
			}
			for k := range 3 {
				if !(b.Min[k] <= b.Max[k]) {
					return g, fmt.Errorf("AABB %d: minimum %v is not at most maximum %v", i, b.Min, b.Max)
				}
			}
		}
		g.aabbs = append([]AABB(nil), geo.AABBs...)
		return g, nil
	}
	idx := geo.Indices
	if idx == nil {
		if len(geo.Vertices)%3 != 0 {
			return g, fmt.Errorf("%d vertices without indices are not whole triangles", len(geo.Vertices))
		}
		if len(geo.Vertices) > maxPrimitives {
			return g, fmt.Errorf("more than %d primitives", maxPrimitives)
		}
		for k := 0; k < len(geo.Vertices); k += 3 {
			g.tris = append(g.tris, [3][3]float32{geo.Vertices[k], geo.Vertices[k+1], geo.Vertices[k+2]})
		}
		return g, nil
	}
	if len(idx)%3 != 0 || len(idx) > 3*maxPrimitives {
		return g, fmt.Errorf("%d indices are not whole triangles", len(idx))
	}
	for k := 0; k < len(idx); k += 3 {
		var tri [3][3]float32
		for v := range 3 {
			if int64(idx[k+v]) >= int64(len(geo.Vertices)) {
				return g, fmt.Errorf("index %d (triangle %d) is beyond the %d vertices", idx[k+v], k/3, len(geo.Vertices))
			}
			tri[v] = geo.Vertices[idx[k+v]]
		}
		g.tris = append(g.tris, tri)
	}
	return g, nil
}

// invert returns the inverse of an affine 3x4 transform, computed in
// float64 and rounded to float32 once per element.
func invert(m [3][4]float32) ([3][4]float32, bool) {
	var a [3][4]float64
	for r := range 3 {
		for c := range 4 {
			a[r][c] = float64(m[r][c])
			if math.IsNaN(a[r][c]) || math.IsInf(a[r][c], 0) {
				return [3][4]float32{}, false
			}
		}
	}
	// Cofactors of the linear part.
	var co [3][3]float64
	for r := range 3 {
		for c := range 3 {
			r1, r2 := (r+1)%3, (r+2)%3
			c1, c2 := (c+1)%3, (c+2)%3
			co[r][c] = a[r1][c1]*a[r2][c2] - a[r1][c2]*a[r2][c1]
		}
	}
	det := a[0][0]*co[0][0] + a[0][1]*co[0][1] + a[0][2]*co[0][2]
	if det == 0 || math.IsNaN(det) || math.IsInf(det, 0) {
		return [3][4]float32{}, false
	}
	var inv [3][4]float64
	for r := range 3 {
		for c := range 3 {
			inv[r][c] = co[c][r] / det
		}
	}
	for r := range 3 {
		inv[r][3] = -(inv[r][0]*a[0][3] + inv[r][1]*a[1][3] + inv[r][2]*a[2][3])
	}
	var out [3][4]float32
	for r := range 3 {
		for c := range 4 {
			out[r][c] = float32(inv[r][c])
			if math.IsInf(float64(out[r][c]), 0) {
				return out, false
			}
		}
	}
	return out, true
}

// accelAt finds the acceleration structure at addr: nil for address 0
// (an empty scene), ok false for an address that names none.
func (x *dispatchRun) accelAt(addr uint64) (*accelData, bool) {
	if addr == 0 {
		return nil, true
	}
	idx := (addr >> offBits) & 0xffff
	if addr>>56 != regAccel || addr&(1<<offBits-1) != 0 || idx >= uint64(len(x.accels)) || x.accels[idx] == nil {
		return nil, false
	}
	return x.accels[idx], true
}
