package exec

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/spirv"
)

// fuseSrc reads through address computations lockstep fuses into their
// loads (fuse.go): a llama.cpp-style dequantizing loop (16-bit loads of
// packed int8 pairs at blk*16+j, widened, unpacked by fused chains of
// shifts; float loads at ib*32+2j), a workgroup memory read, and a read
// whose index goes out of range where pc.bad says so.
const fuseSrc = `#version 450
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) readonly buffer Q { uint16_t qs[]; };
layout(set = 0, binding = 1) readonly buffer X { float x[]; };
layout(set = 0, binding = 2) buffer Y { float y[]; };
layout(push_constant) uniform P { uint n; uint bad; } pc;
shared float sh[64];
void main() {
    uint tid = gl_LocalInvocationID.x;
    uint row = gl_WorkGroupID.x;
    sh[tid * 2u] = float(tid);
    barrier();
    float acc = 0.0;
    for (uint ib = tid; ib < 32u; ib += 16u) {
        uint blk = row * 32u + ib;
        float s = 0.0;
        for (uint j = 0u; j < pc.n; j++) {
            uint w = uint(qs[blk * 16u + j]);
            int q0 = int(w << 24) >> 24;
            int q1 = int(w << 16) >> 24;
            s += float(q0) * x[ib * 32u + 2u * j] + float(q1) * x[ib * 32u + 2u * j + 1u];
            s += sh[tid * 3u + (j & 7u)];
        }
        acc += s + x[tid * 4u + pc.bad * 1000u];
    }
    y[row * 16u + tid] = acc;
}`

func fuseRun(t *testing.T, code []uint32, oneByOne bool, n, bad uint32, steps int64) ([]byte, error) {
	dev := New(Options{SubgroupSize: 8, StepBudget: steps, noLockstep: oneByOne})
	q, _ := dev.NewBuffer(4*32*16*2, backend.UsageStorage)
	x, _ := dev.NewBuffer(1024*4, backend.UsageStorage)
	y, _ := dev.NewBuffer(4*16*4, backend.UsageStorage)
	for i := range Bytes(q) {
		Bytes(q)[i] = byte(i*37 + i>>3)
	}
	for i := 0; i < 1024; i++ {
		binary.LittleEndian.PutUint32(Bytes(x)[4*i:], 0x3f800000+uint32(i*9973)&0x7fffff)
	}
	pcs := binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, n), bad)
	_, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{4, 1, 1}, PushConstants: pcs,
		Bindings: []backend.Binding{{Binding: 0, Buffer: q}, {Binding: 1, Buffer: x}, {Binding: 2, Buffer: y}}})
	return Bytes(y), err
}

// TestFusedLoadsMatchOneByOne checks the fused loads and chains against running the
// invocations one at a time: the same bytes, the same fault where an
// index goes out of range, and the same step-budget error at every
// budget, so also where it runs out inside a fused run.
func TestFusedLoadsMatchOneByOne(t *testing.T) {
	code := glslWords(t, fuseSrc)
	pr := loadWords(t, code, 8)
	runs, chains := 0, 0
	for _, in := range pr.p.code {
		if in.fu != nil {
			runs++
		}
		if in.fc != nil {
			chains++
		}
	}
	if runs < 4 || chains < 2 {
		t.Fatalf("%d fused loads and %d chains, want at least 4 and 2", runs, chains)
	}
	a, errA := fuseRun(t, code, false, 16, 0, 0)
	b, errB := fuseRun(t, code, true, 16, 0, 0)
	if errA != nil || errB != nil || !bytes.Equal(a, b) {
		t.Fatalf("lockstep %v, one by one %v: results differ", errA, errB)
	}
	_, errA = fuseRun(t, code, false, 16, 1, 0)
	_, errB = fuseRun(t, code, true, 16, 1, 0)
	if errA == nil || fmt.Sprint(errA) != fmt.Sprint(errB) {
		t.Errorf("out of range:\nlockstep   %v\none by one %v", errA, errB)
	}
	for steps := int64(30); steps < 700; steps++ {
		_, errA := fuseRun(t, code, false, 16, 0, steps)
		_, errB := fuseRun(t, code, true, 16, 0, steps)
		if fmt.Sprint(errA) != fmt.Sprint(errB) {
			t.Fatalf("step budget %d:\nlockstep   %v\none by one %v", steps, errA, errB)
		}
	}
}

// TestFusedChainsMatchOneByOne checks fused chains of every kind against
// running the invocations one at a time: on a promoted variable in place
// (v = (v << 3) >> 1), ending in one, of 64-bit values, after a varying
// operand (no chain across it), on a value the same everywhere (declined:
// it runs once), with shift counts from push constants.
func TestFusedChainsMatchOneByOne(t *testing.T) {
	src := `#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 24) in;
layout(set = 0, binding = 0) buffer O { uint o[]; };
layout(push_constant) uniform P { uint m; uint sh; } pc;
void main() {
    uint g = gl_GlobalInvocationID.x;
    uint v = g * 2654435761u;
    uint64_t q = uint64_t(g) * 0x9e3779b97f4a7c15ul;
    uint s = 0u;
    for (uint k = 0u; k < 5u; k++) {
        v = (v << 3u) >> 1u;
        v = v * pc.m + 5u;
        uint u = uint(int(v << 8) >> 20);
        uint w = ((v ^ g) << pc.sh) >> 2u;
        uint c = ((pc.m << 2u) + k) >> 1u;
        q = ((q << 7ul) + 3ul) >> 5ul;
        s += u + w + c + uint(q >> 32);
    }
    o[g] = s ^ v;
}`
	code := glslWords(t, src)
	pr := loadWords(t, code, 8)
	chains := 0
	for _, in := range pr.p.code {
		if in.fc != nil {
			chains++
		}
	}
	if chains < 4 {
		t.Errorf("%d fused chains, want at least 4", chains)
	}
	var out [2][]uint32
	for k, noLock := range []bool{false, true} {
		dev := New(Options{SubgroupSize: 8, noLockstep: noLock})
		buf := u32buf(t, dev, make([]uint32, 48))
		pcs := binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, 2246822519), 3)
		if _, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{2, 1, 1}, PushConstants: pcs,
			Bindings: []backend.Binding{{Binding: 0, Buffer: buf}}}); err != nil {
			t.Fatal(err)
		}
		out[k] = u32s(buf)
	}
	if fmt.Sprint(out[0]) != fmt.Sprint(out[1]) {
		t.Errorf("lockstep   %v\none by one %v", out[0], out[1])
	}
}

// TestFusedFloatChainsMatchOneByOne checks chains whose other operands
// vary (rows) against running the invocations one at a time, bit for bit:
// float products and sums on NaNs with payloads, infinities, zeros of
// both signs and subnormals, the previous result as the second operand of
// a commutative operation (taken first), a chain ending in the promoted
// variable it also reads (s += a*b + t), and integer chains with row
// operands.
func TestFusedFloatChainsMatchOneByOne(t *testing.T) {
	src := `#version 450
layout(local_size_x = 24) in;
layout(set = 0, binding = 0) readonly buffer I { float f[]; };
layout(set = 0, binding = 1) buffer O { uint o[]; };
void main() {
    uint g = gl_GlobalInvocationID.x;
    float s = 0.0, t = 1.0;
    uint v = g;
    for (uint k = 0u; k < 6u; k++) {
        float a = f[(g + k) % 48u];
        float b = f[(g * 7u + k * 5u) % 48u];
        s += a * b + t;
        t = b - a * s;
        v = (g ^ v) + v * 3u + g;
    }
    o[g] = floatBitsToUint(s);
    o[g + 48u] = floatBitsToUint(t);
    o[g + 96u] = v;
}`
	code := glslWords(t, src)
	pr := loadWords(t, code, 8)
	float := 0
	for _, in := range pr.p.code {
		if in.fc != nil && in.op == spirv.OpFMul {
			float++
		}
	}
	if float < 1 {
		t.Fatalf("no fused float chain")
	}
	specials := []uint32{0x7fc00001, 0xffc12345, 0x7f800000, 0xff800000, 0x80000000, 0, 0x00000003, 0x80400000,
		0x3f800000, 0xbf800000, 0x7f7fffff, 0x00800000}
	in := make([]uint32, 48)
	for i := range in {
		in[i] = specials[i%len(specials)] ^ uint32(i/len(specials))*0x00010001&0x007fffff
	}
	var out [2][]uint32
	for k, noLock := range []bool{false, true} {
		dev := New(Options{SubgroupSize: 8, noLockstep: noLock})
		ib := u32buf(t, dev, in)
		ob := u32buf(t, dev, make([]uint32, 144))
		if _, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{2, 1, 1},
			Bindings: []backend.Binding{{Binding: 0, Buffer: ib}, {Binding: 1, Buffer: ob}}}); err != nil {
			t.Fatal(err)
		}
		out[k] = u32s(ob)
	}
	if fmt.Sprint(out[0]) != fmt.Sprint(out[1]) {
		t.Errorf("lockstep   %x\none by one %x", out[0], out[1])
	}
}

// TestFusedLoadMemoMatchesOneByOne checks the fused loads' memos
// (fusedAgain) against running the invocations one at a time: addresses
// a loop counter moves, a value of the counter that is a coefficient
// (tid * (j & 7)) or a shift count, a 32-bit index that wraps past 2^31
// after the first iteration, a constant index past its array's bound, an
// index into an array in a struct that goes negative after some
// iterations while the address stays inside the buffer, and a loop that
// runs off its buffer's end: the same bytes, the same fault, the same
// step-budget error.
func TestFusedLoadMemoMatchesOneByOne(t *testing.T) {
	src := `#version 450
layout(local_size_x = 2, local_size_y = 8) in;
struct S { float a[8]; };
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };
layout(set = 0, binding = 2) readonly buffer Z { S z[]; };
layout(push_constant) uniform P { uint n; uint wrap; uint lim; uint m; } pc;
void main() {
    uint tid = gl_LocalInvocationIndex;
    uint lx = gl_LocalInvocationID.x;
    float s = 0.0;
    for (uint j = 0u; j < pc.n; j++) {
        s += x[tid * 2u + j * 3u];
        s += x[tid * (j & 7u) + 5u];
        s += x[(tid << (j & 3u)) + j];
        s += x[tid + j * pc.wrap];
        s += z[tid].a[j % pc.lim];
    }
    for (uint j = 0u; j < pc.m; j++) {
        s += z[tid + 1u].a[lx + 6u - j];
    }
    y[gl_WorkGroupID.x * 16u + tid] = s;
}`
	code := glslWords(t, src)
	run := func(noLock bool, n, wrap, lim, m uint32, steps int64) ([]byte, error) {
		dev := New(Options{SubgroupSize: 8, StepBudget: steps, noLockstep: noLock})
		x, _ := dev.NewBuffer(1024*4, backend.UsageStorage)
		y, _ := dev.NewBuffer(32*4, backend.UsageStorage)
		z, _ := dev.NewBuffer(16*8*4+64, backend.UsageStorage)
		for i := 0; i < 1024; i++ {
			binary.LittleEndian.PutUint32(Bytes(x)[4*i:], 0x3f800000+uint32(i*7919)&0x7fffff)
		}
		for i := 0; i < len(Bytes(z))/4; i++ {
			binary.LittleEndian.PutUint32(Bytes(z)[4*i:], 0x40000000+uint32(i*104729)&0x7fffff)
		}
		var pcs []byte
		for _, v := range []uint32{n, wrap, lim, m} {
			pcs = binary.LittleEndian.AppendUint32(pcs, v)
		}
		_, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{2, 1, 1}, PushConstants: pcs,
			Bindings: []backend.Binding{{Binding: 0, Buffer: x}, {Binding: 1, Buffer: y}, {Binding: 2, Buffer: z}}})
		return Bytes(y), err
	}
	for _, c := range []struct{ n, wrap, lim, m uint32 }{
		{16, 1, 8, 0}, {16, 0, 8, 0}, {40, 2, 8, 0}, {3, 0x80000000, 8, 0}, {3, 0x40000000, 8, 0}, {12, 1, 9, 0}, {12, 1, 11, 0},
		{4, 1, 8, 7}, {4, 1, 8, 8},
	} {
		a, errA := run(false, c.n, c.wrap, c.lim, c.m, 0)
		b, errB := run(true, c.n, c.wrap, c.lim, c.m, 0)
		if fmt.Sprint(errA) != fmt.Sprint(errB) || !bytes.Equal(a, b) {
			t.Errorf("%+v:\nlockstep   %v %x\none by one %v %x", c, errA, a, errB, b)
		}
	}
	// Off the buffer's end, lockstep faults in the first invocation of
	// the subgroup to go out of range in the first iteration that does
	// (tid 7, local id (1,3,0): x[tid * 2 + j * 3] at j = 337), one at a
	// time invocation 0 (at j = 342): the fault lockstep reported before
	// the memos.
	_, errA := run(false, 400, 1, 8, 0, 0)
	if want := "instruction 138 (%65 = OpLoad): invocation (1,3,0): address 0x100010000001004:"; !strings.Contains(fmt.Sprint(errA), want) {
		t.Errorf("off the end: lockstep %v, want %s", errA, want)
	}
	for steps := int64(40); steps < 400; steps += 7 {
		_, errA := run(false, 16, 1, 8, 7, steps)
		_, errB := run(true, 16, 1, 8, 7, steps)
		if fmt.Sprint(errA) != fmt.Sprint(errB) {
			t.Fatalf("step budget %d:\nlockstep   %v\none by one %v", steps, errA, errB)
		}
	}
}
