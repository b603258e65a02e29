package exec

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/spirv"
)

// TestGLSLVecMatchesEval checks the vector handlers of the component-wise
// GLSL.std.450 instructions against the general path (glsl), bit for
// bit, for every float format and integer width they take, scalars and
// vectors.
func TestGLSLVecMatchesEval(t *testing.T) {
	loadF16Table()
	flt := func(w int, ff ffmt) *typ { return &typ{kind: kFloat, width: w, ff: ff, slots: 1} }
	vec := func(e *typ, n int) *typ { return &typ{kind: kVector, elem: e, count: n, slots: n} }
	rng := rand.New(rand.NewPCG(14, 4))
	covered := 0
	ints := []*typ{{kind: kInt, width: 8, slots: 1}, {kind: kInt, width: 16, slots: 1}, {kind: kInt, width: 32, slots: 1}, {kind: kInt, width: 64, slots: 1}}
	for sub := uint32(1); sub <= 81; sub++ {
		args := 0
		types := []*typ{flt(32, f32), flt(16, f16), flt(64, f64), flt(16, bf16)}
		switch {
		case sub == spirv.GLSLstd450FAbs || glslF1(sub) != nil:
			args = 1
		case glslF2(sub) != nil:
			args = 2
		case glslF3(sub) != nil:
			args = 3
		default:
			if _, args = glslInt(sub, 32); args == 0 {
				continue
			}
			types = ints
		}
		for _, ct := range types {
			for _, rt := range []*typ{ct, vec(ct, 3)} {
				n := int32(rt.slots)
				in := &instr{op: spirv.OpExtInst, sub: sub, t: rt, at: rt, lk: lkPure}
				var tys []*typ
				for k := 0; k < args; k++ {
					in.a = append(in.a, n*int32(k+1))
					tys = append(tys, rt)
				}
				in.aux = tys
				if in.vec = pickVec(in); in.vec == nil {
					t.Fatalf("GLSL.std.450 %d on %v: no vector handler", sub, rt.kind)
				}
				covered++
				for trial := 0; trial < 300; trial++ {
					var sg, ref []*lane
					for range 4 {
						regs := make([]uint64, int(n)*(args+1))
						for s := int(n); s < len(regs); s++ {
							v := simdValue(rng)
							switch {
							case ct.kind == kInt:
								v &= mask(ct.width)
							case ct.ff == f16 || ct.ff == bf16:
								v &= 0xffff
							case ct.ff == f32:
								v &= 0xffffffff
							}
							regs[s] = v
						}
						sg = append(sg, &lane{regs: regs})
						ref = append(ref, &lane{regs: append([]uint64(nil), regs...)})
					}
					in.vec(sg, in)
					for k := range sg {
						if err := ref[k].eval(in); err != nil {
							t.Fatal(err)
						}
						for s := int32(0); s < n; s++ {
							if sg[k].regs[s] != ref[k].regs[s] {
								t.Fatalf("GLSL.std.450 %d (%d-bit) on %x: vector %#x, general %#x", sub, ct.width, ref[k].regs[n:], sg[k].regs[s], ref[k].regs[s])
							}
						}
					}
				}
			}
		}
	}
	if covered == 0 {
		t.Fatal("no GLSL.std.450 instruction covered")
	}
}

// TestRowClamp checks the float32 clamp made of the max and min row
// loops (kernels where there are some) against glsl's function.
func TestRowClamp(t *testing.T) {
	f := glslF3(spirv.GLSLstd450FClamp)
	max := withTailOr(vF32Max, glslF32(spirv.GLSLstd450FMax))
	min := withTailOr(vF32Min, glslF32(spirv.GLSLstd450FMin))
	rng := rand.New(rand.NewPCG(14, 5))
	for n := 0; n <= 200; n++ {
		a, lo, hi := make([]uint64, n), make([]uint64, n), make([]uint64, n)
		for i := range a {
			a[i], lo[i], hi[i] = simdValue(rng), simdValue(rng), simdValue(rng)
		}
		d := make([]uint64, n)
		max(d, a, lo, 0)
		min(d, d, hi, 0)
		for i := range d {
			want := fround(f(toF64(a[i], f32), toF64(lo[i], f32), toF64(hi[i], f32)), f32)
			if d[i] != want {
				t.Fatalf("clamp(%#x, %#x, %#x): got %#x, want %#x", a[i], lo[i], hi[i], d[i], want)
			}
		}
	}
}

// withTailOr is the row loop pickRowGLSL makes of kernel k and the
// twin f, f alone where there is no kernel.
func withTailOr(k int, f func(x, y uint64) uint64) rowBin {
	if binKerns[k] == nil {
		return elemBin(f)
	}
	return withTail(binKerns[k], 0, 0, 0, elemBin(f))
}

// TestGLSLRowsMatchOneByOne runs component-wise GLSL.std.450
// instructions (float32 min, max and clamp by the row kernels, with
// uniform and varying bounds, NaNs and signed zeros among the inputs;
// fma, exp, abs, floor, mix, step, smoothstep, vectors, halves; integer
// min, max, clamp, abs and sign) in
// lockstep and one invocation at a time, and requires identical bytes.
func TestGLSLRowsMatchOneByOne(t *testing.T) {
	src := `#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 70) in;
layout(set = 0, binding = 0) buffer F { float f[]; };
layout(set = 0, binding = 1) buffer H { float16_t h[]; };
layout(set = 0, binding = 2) buffer Out { uint o[]; };
layout(push_constant) uniform P { float lo; float hi; } p;
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = f[i], y = f[i + 80], z = f[i + 160];
    float r = max(x, y) + min(x, 0.5) + clamp(x, p.lo, p.hi) + clamp(x, y, z) + min(p.lo, y);
    r += fma(x, y, z) + exp(x * 0.001) + abs(y) + floor(z) + mix(x, y, 0.25) + step(x, y) + smoothstep(0.0, 1.0, z);
    vec3 v = max(vec3(x, y, z), vec3(z, x, y)) - clamp(vec3(y, z, x), vec3(-1.0), vec3(1.0));
    float16_t a = h[i], b = h[i + 80];
    float16_t hr = max(a, b) + min(a, float16_t(0.5)) + clamp(b, a, float16_t(2.0)) + abs(a) + fma(a, b, a);
    o[i] = floatBitsToUint(r);
    o[i + 80] = floatBitsToUint(v.x) ^ floatBitsToUint(v.y) ^ floatBitsToUint(v.z);
    o[i + 160] = uint(float16BitsToUint16(hr));
    o[i + 240] = floatBitsToUint(max(x, y)) ^ floatBitsToUint(clamp(x, y, z)) << 1;
    int si = int(floatBitsToUint(x)), sj = int(floatBitsToUint(y));
    o[i + 320] = uint(min(si, sj) + max(si, 7) + clamp(sj, -5, si) + abs(si) + sign(sj)) +
        min(uint(si), 9u) + clamp(uint(sj), 3u, uint(si));
}`
	code := glslWords(t, src)
	rng := rand.New(rand.NewPCG(14, 6))
	floats := make([]byte, 256*4)
	halves := make([]byte, 256*2)
	special := []uint32{0x7fc00000, 0x7f800001, 0xffc00001, 0x7f800000, 0xff800000, 0, 0x80000000, 1, 0x80000001, 0x3f800000}
	for k := 0; k < 256; k++ {
		v := math32(float32(rng.NormFloat64() * 4))
		if k%4 == 0 {
			v = special[k/4%len(special)]
		}
		binary.LittleEndian.PutUint32(floats[4*k:], v)
		binary.LittleEndian.PutUint16(halves[2*k:], uint16(simdValue(rng)))
	}
	run := func(noLock bool) [][]byte {
		dev := New(Options{noLockstep: noLock, SubgroupSize: 32})
		var binds []backend.Binding
		var bufs []backend.Buffer
		for k, init := range [][]byte{floats, halves, make([]byte, 400*4)} {
			b, _ := dev.NewBuffer(len(init), backend.UsageStorage)
			copy(Bytes(b), init)
			bufs = append(bufs, b)
			binds = append(binds, backend.Binding{Binding: uint32(k), Buffer: b})
		}
		push := binary.LittleEndian.AppendUint32(nil, math32(-1.5))
		push = binary.LittleEndian.AppendUint32(push, math32(2.5))
		if _, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{1, 1, 1}, PushConstants: push, Bindings: binds}); err != nil {
			t.Fatal(err)
		}
		var out [][]byte
		for _, b := range bufs {
			out = append(out, bytes.Clone(Bytes(b)))
		}
		return out
	}
	lock, one := run(false), run(true)
	for k := range lock {
		if !bytes.Equal(lock[k], one[k]) {
			t.Errorf("buffer %d differs between lockstep and one-by-one execution", k)
		}
	}
}

func math32(f float32) uint32 { return math.Float32bits(f) }
