package exec

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
)

// TestRowsMatchOneByOne runs a shader made of the instructions row
// handlers cover (integer arithmetic and shifts of each width, float32
// arithmetic with NaNs and infinities among the inputs, comparisons,
// conversions, selects, vectors, 8/16/32/64-bit loads and stores,
// shared memory with barriers, a partial last subgroup) in lockstep and
// one invocation at a time, and requires identical bytes, then an index
// out of range to fault at the same instruction and invocation.
func TestRowsMatchOneByOne(t *testing.T) {
	src := `#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 48) in;
layout(set = 0, binding = 0) buffer In { uint u[]; };
layout(set = 0, binding = 1) buffer F { float f[]; };
layout(set = 0, binding = 2) buffer H { uint16_t h[]; };
layout(set = 0, binding = 3) buffer B8 { uint8_t b8[]; };
layout(set = 0, binding = 4) buffer L { uint64_t q[]; };
layout(set = 0, binding = 5) buffer Out { uint o[]; };
layout(push_constant) uniform P { uint k; int bad; } p;
shared float tile[48];
shared vec2 tile2[48];
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint a = u[i], b = u[i + 64];
    int sa = int(a), sb = int(b);
    uint r = a + b * 3u - (a & b) + (a | b) ^ (a >> (b & 31u)) ^ (a << (b % 7u));
    r += uint(sa >> (b & 31u)) + uint(sa < sb) + uint(a < b) + uint(a == b) * 5u;
    r += (b != 0u ? a / b : 0u) + (b != 0u ? a % b : 0u);
    float x = f[i], y = f[i + 64];
    float z = x * y + x - y / (y == 0.0 ? 1.0 : y);
    r ^= floatBitsToUint(z) + uint(x < y) + uint(x >= y) * 2u + uint(x != y) * 4u;
    r += floatBitsToUint(float(sa)) ^ floatBitsToUint(float(a));
    r += uint(int(clamp(x, -1000.0, 1000.0)));
    uint16_t hv = h[i] * uint16_t(3) + uint16_t(a);
    h[i + 64] = hv;
    int8_t bv = int8_t(b8[i]) >> 2;
    b8[i + 64] = uint8_t(bv) + uint8_t(7);
    uint64_t qv = q[i] * 0x9E3779B97F4A7C15ul + uint64_t(a);
    q[i + 64] = qv ^ (qv >> 29);
    uvec2 v2 = uvec2(a, b) * uvec2(3u, 5u) + uvec2(p.k);
    vec2 f2 = vec2(x, y) * vec2(2.0, 0.5);
    r += v2.x ^ v2.y ^ floatBitsToUint(f2.x + f2.y);
    u8vec4 p8 = unpack8(a);
    r += uint(p8.x) + uint(p8.w) * 7u;
    r ^= pack32(u8vec4(p8.y, p8.x, uint8_t(b), p8.z));
    u16vec2 p16 = unpack16(a ^ b);
    r += pack32(p16.yx);
    f16vec2 hh = unpackFloat2x16(b);
    r += packFloat2x16(hh * float16_t(2.0));
    r += packFloat2x16(hh * hh.y) + floatBitsToUint((vec3(x, y, z) * y).z);
    r ^= unpack32(pack64(uvec2(a, b)) ^ qv).y;
    r += uint(unpack8(b)[a & 3u]) + uvec4(a, b, r, 7u)[b % 5u];
    tile[gl_LocalInvocationID.x] = z;
    tile2[gl_LocalInvocationID.x] = vec2(x, y);
    barrier();
    vec2 t2 = tile2[(gl_LocalInvocationID.x + 5u) % 48u];
    r += floatBitsToUint(t2.x) ^ floatBitsToUint(t2.y) + gl_GlobalInvocationID.y;
    uvec4 c4 = uvec4(uvec2(a, r), b, p.k);
    r += c4.x * 3u + c4.y * 5u + c4.z * 7u + c4.w;
    float acc = 0.0;
    for (uint j = 0u; j < 48u; j++) {
        acc += tile[(gl_LocalInvocationID.x + j) % 48u] * float(j);
    }
    r += floatBitsToUint(acc) + uint(hv) + uint(bv);
    o[i] = r;
    if (p.bad != 0 && i == 37u) {
        o[i + uint(p.bad)] = 1u;
    }
}`
	code := glslWords(t, src)
	rng := rand.New(rand.NewSource(7))
	words := make([]byte, 256*4)
	for k := 0; k < 256; k++ {
		v := rng.Uint32()
		if k%5 == 0 {
			v %= 9
		}
		binary.LittleEndian.PutUint32(words[4*k:], v)
	}
	floats := make([]byte, 256*4)
	special := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0, float32(math.Copysign(0, -1)), 1e-40, 3e38}
	for k := 0; k < 256; k++ {
		v := float32(rng.NormFloat64() * 100)
		if k%6 == 0 {
			v = special[k/6%len(special)]
		}
		binary.LittleEndian.PutUint32(floats[4*k:], math.Float32bits(v))
	}
	small := make([]byte, 256*8)
	rng.Read(small)
	run := func(noLock bool, bad int32) ([][]byte, error) {
		dev := New(Options{noLockstep: noLock, SubgroupSize: 32})
		var binds []backend.Binding
		var bufs []backend.Buffer
		for k, init := range [][]byte{words, floats, small[:512], small[:256], small, make([]byte, 256*4)} {
			b, _ := dev.NewBuffer(len(init), backend.UsageStorage)
			copy(Bytes(b), init)
			bufs = append(bufs, b)
			binds = append(binds, backend.Binding{Binding: uint32(k), Buffer: b})
		}
		push := binary.LittleEndian.AppendUint32(nil, 11)
		push = binary.LittleEndian.AppendUint32(push, uint32(bad))
		_, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{1, 1, 1}, PushConstants: push, Bindings: binds})
		var out [][]byte
		for _, b := range bufs {
			out = append(out, bytes.Clone(Bytes(b)))
		}
		return out, err
	}
	lock, err := run(false, 0)
	if err != nil {
		t.Fatal(err)
	}
	one, err := run(true, 0)
	if err != nil {
		t.Fatal(err)
	}
	for k := range lock {
		if !bytes.Equal(lock[k], one[k]) {
			t.Errorf("buffer %d differs between lockstep and one-by-one execution", k)
		}
	}
	_, e1 := run(false, 1<<20)
	_, e2 := run(true, 1<<20)
	if e1 == nil || e2 == nil || e1.Error() != e2.Error() || !strings.Contains(e1.Error(), "invocation (37,0,0)") {
		t.Errorf("out-of-range store: lockstep %v; one by one %v", e1, e2)
	}
}

// TestNanF32 checks the row handlers' float32 NaN against the format's.
func TestNanF32(t *testing.T) {
	if fmtDescs[f32].nan != nanF32 {
		t.Errorf("nanF32 %#x, fmtDescs[f32].nan %#x", nanF32, fmtDescs[f32].nan)
	}
}
