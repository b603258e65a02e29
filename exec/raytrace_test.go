package exec

import (
	"math"
	"math/rand"
	"testing"
)

// TestWatertightFan casts rays at the shared vertex and through the shared
// edges of a flat closed fan of triangles, from many origins off its
// plane: each ray hits exactly one triangle, whatever the windings (half
// the triangles are listed clockwise).
func TestWatertightFan(t *testing.T) {
	const n = 7
	center := vec3{0.5, -0.25, 2}
	var rim [n]vec3
	for k := range rim {
		a := 2 * math.Pi * float64(k) / n
		rim[k] = vec3{center[0] + float32(math.Cos(a)), center[1] + float32(math.Sin(a)), center[2]}
	}
	var tris [n][3]vec3
	for k := range tris {
		tris[k] = [3]vec3{center, rim[k], rim[(k+1)%n]}
		if k%2 == 1 {
			tris[k][1], tris[k][2] = tris[k][2], tris[k][1]
		}
	}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 2000; i++ {
		o := vec3{float32(r.Float64()*8 - 4), float32(r.Float64()*8 - 4), float32(r.Float64()*6 - 6)}
		// Aim at the center or at a point of a shared edge.
		target := center
		if i%2 == 1 {
			k := r.Intn(n)
			f := float32(r.Float64())
			for c := range 3 {
				target[c] = center[c] + f*(rim[k][c]-center[c])
			}
		}
		d := vec3{target[0] - o[0], target[1] - o[1], target[2] - o[2]}
		hits := 0
		for k := range tris {
			if h, ok := intersectTriangle(o, d, &tris[k]); ok && h.t > 0 {
				hits++
			}
		}
		if hits != 1 {
			t.Fatalf("ray %d from %v along %v: %d hits", i, o, d, hits)
		}
	}
}

// TestIntersectTriangleExact checks exact results for axis-aligned rays and
// the misses: parallel rays, zero directions, NaN (inactive) vertices.
func TestIntersectTriangleExact(t *testing.T) {
	tri := [3]vec3{{0, 0, 4}, {2, 0, 4}, {0, 2, 4}}
	h, ok := intersectTriangle(vec3{0.5, 0.25, 0}, vec3{0, 0, 2}, &tri)
	if !ok || h != (triHit{t: 2, u: 0.25, v: 0.125, ccw: false}) {
		t.Errorf("got %+v %v", h, ok)
	}
	h, ok = intersectTriangle(vec3{0.5, 0.25, 8}, vec3{0, 0, -1}, &tri)
	if !ok || h != (triHit{t: 4, u: 0.25, v: 0.125, ccw: true}) {
		t.Errorf("from above: got %+v %v", h, ok)
	}
	nan := float32(math.NaN())
	for _, c := range []struct {
		o, d vec3
		p    [3]vec3
	}{
		{vec3{0, 0, 0}, vec3{1, 0, 0}, tri},
		{vec3{0.5, 0.25, 0}, vec3{}, tri},
		{vec3{3, 3, 0}, vec3{0, 0, 1}, tri},
		{vec3{0.5, 0.25, 0}, vec3{0, 0, 1}, [3]vec3{{nan, 0, 4}, {nan, 0, 4}, {nan, 2, 4}}},
	} {
		if h, ok := intersectTriangle(c.o, c.d, &c.p); ok {
			t.Errorf("%v %v: hit %+v", c.o, c.d, h)
		}
	}
}
