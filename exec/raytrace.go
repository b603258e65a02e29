package exec

import "math"

// Ray/primitive intersection, exactly as the package documentation
// describes it. Every float32 operation is written with an explicit
// conversion so that no compiler may fuse a multiply and an add: the
// results are the same on every machine.

type vec3 = [3]float32

// transformPoint applies a 3x4 affine transform to p (w = 1) or, without
// the translation, to a direction (w = 0): each component a float64 sum
// of exact products, rounded once to float32.
func transformPoint(m *[3][4]float32, p vec3, w float64) vec3 {
	var out vec3
	for r := range 3 {
		s := float64(float64(m[r][0])*float64(p[0])) + float64(float64(m[r][1])*float64(p[1])) + float64(float64(m[r][2])*float64(p[2])) + float64(float64(m[r][3])*w)
		out[r] = float32(s)
	}
	return out
}

// triHit is a ray/triangle intersection: t, the barycentrics of vertices
// 1 and 2, and whether the triangle's vertices appear counterclockwise
// from the ray (its front face before the instance's flip flag).
type triHit struct {
	t, u, v float32
	ccw     bool
}

func sub32(a, b float32) float32 { return float32(a - b) }
func mul32(a, b float32) float32 { return float32(a * b) }

// edgeFn is a 2D cross product ax*by - ay*bx in float32, recomputed exactly
// (float64 products of float32 values are exact, so the sign is exact)
// when float32 gives zero, so that rays through shared edges hit exactly
// one of the triangles (the watertight test of Woop, Benthin and Wald).
func edgeFn(ax, ay, bx, by float32) float32 {
	e := sub32(mul32(ax, by), mul32(ay, bx))
	if e == 0 {
		e = float32(float64(float64(ax)*float64(by)) - float64(float64(ay)*float64(bx)))
	}
	return e
}

// intersectTriangle is the watertight ray/triangle test in float32 for
// the ray o + t d against vertices p[0..2]. ok is false when the ray
// misses the triangle or its plane is parallel to the ray (or d is zero).
func intersectTriangle(o, d vec3, p *[3]vec3) (triHit, bool) {
	// kz is the axis of the direction's largest magnitude (the first of
	// equals); kx, ky follow it cyclically and swap when d[kz] < 0 so the
	// winding is kept.
	kz := 0
	for k := 1; k < 3; k++ {
		if absf32(d[k]) > absf32(d[kz]) {
			kz = k
		}
	}
	if d[kz] == 0 {
		return triHit{}, false
	}
	kx, ky := (kz+1)%3, (kz+2)%3
	if d[kz] < 0 {
		kx, ky = ky, kx
	}
	sx := float32(d[kx] / d[kz])
	sy := float32(d[ky] / d[kz])
	sz := float32(1 / d[kz])
	var x, y, z [3]float32
	for i := range 3 {
		ax, ay, az := sub32(p[i][kx], o[kx]), sub32(p[i][ky], o[ky]), sub32(p[i][kz], o[kz])
		x[i] = sub32(ax, mul32(sx, az))
		y[i] = sub32(ay, mul32(sy, az))
		z[i] = mul32(sz, az)
	}
	// U, V, W weigh vertices 0, 1 and 2.
	u := edgeFn(x[2], y[2], x[1], y[1])
	v := edgeFn(x[0], y[0], x[2], y[2])
	w := edgeFn(x[1], y[1], x[0], y[0])
	if (u < 0 || v < 0 || w < 0) && (u > 0 || v > 0 || w > 0) {
		return triHit{}, false
	}
	det := float32(float32(u+v) + w)
	if det == 0 || det != det {
		return triHit{}, false
	}
	if (u == 0 || v == 0 || w == 0) && !ownsEdges(&x, &y, u, v, w, det) {
		return triHit{}, false
	}
	tt := float32(float32(mul32(u, z[0])+mul32(v, z[1])) + mul32(w, z[2]))
	return triHit{t: float32(tt / det), u: float32(v / det), v: float32(w / det), ccw: det > 0}, true
}

func absf32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }

// intersectAABB is the slab test in float64 for the ray o + t d against
// box b: the interval of t inside the box (on an axis where d is zero the
// ray is inside the slab for all t or for none). ok is false when the
// interval is empty or meets no t in [tmin, tmax], when d is zero, and for
// an inactive box (minimum x NaN).
func intersectAABB(o, d vec3, b *AABB, tmin, tmax float32) (enter float32, ok bool) {
	if b.Min[0] != b.Min[0] || d == (vec3{}) {
		return 0, false
	}
	lo, hi := math.Inf(-1), math.Inf(1)
	for k := range 3 {
		mn, mx, ov := float64(b.Min[k]), float64(b.Max[k]), float64(o[k])
		if d[k] == 0 {
			if ov < mn || ov > mx {
				return 0, false
			}
			continue
		}
		t0, t1 := (mn-ov)/float64(d[k]), (mx-ov)/float64(d[k])
		if t0 > t1 {
			t0, t1 = t1, t0
		}
		lo, hi = math.Max(lo, t0), math.Min(hi, t1)
	}
	lo, hi = math.Max(lo, float64(tmin)), math.Min(hi, float64(tmax))
	if !(lo <= hi) {
		return 0, false
	}
	return float32(lo), true
}

// ownsEdges breaks the tie when the ray passes exactly through an edge
// (or a vertex) of the triangle in the sheared 2D space: the triangle
// takes the point only if it owns every edge the point lies on. An edge,
// directed as the triangle's winding runs and reversed when the triangle
// is clockwise there (det < 0), is owned when it points up (+y), or
// along -x when horizontal. The two triangles on either side of a shared
// edge run it in opposite directions once so normalized, so exactly one
// owns it: a ray through a shared edge hits exactly one of them. The
// differences are exact in float64.
func ownsEdges(x, y *[3]float32, u, v, w, det float32) bool {
	own := func(a, b int) bool {
		ex, ey := float64(x[b])-float64(x[a]), float64(y[b])-float64(y[a])
		if det < 0 {
			ex, ey = -ex, -ey
		}
		return ey > 0 || ey == 0 && ex < 0
	}
	return (u != 0 || own(1, 2)) && (v != 0 || own(2, 0)) && (w != 0 || own(0, 1))
}
