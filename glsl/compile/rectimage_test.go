package compile

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/coopshader/coop/backend"
	cpu "github.com/coopshader/coop/exec"
)

// TestRectImageRuns: Vulkan has no ImageRect, but a rectangle image's
// integer coordinates address texels as a 2D image's do, so coop declares
// image2DRect as a 2D image (glslang emits Dim Rect, which spirv-val
// rejects for Vulkan). Loads, stores, sizes and atomics, float ones
// included (glslang's spv.atomicFloat.comp uses them), run on the executor.
func TestRectImageRuns(t *testing.T) {
	src := `#version 450
#extension GL_EXT_shader_atomic_float : require
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 4, local_size_y = 2) in;
layout(binding = 0, r32f) coherent uniform image2DRect f;
layout(binding = 1, r32ui) uniform uimage2DRect u;
layout(binding = 2) buffer B { uint n[]; };
void main() {
	ivec2 c = ivec2(gl_LocalInvocationID.xy);
	imageAtomicAdd(f, ivec2(0, 0), 1.5);
	imageAtomicAdd(f, ivec2(1, 1), 2.0, gl_ScopeDevice, gl_StorageSemanticsImage, gl_SemanticsAcquireRelease);
	if (c.y == 1) {
		imageStore(u, c, uvec4(imageLoad(u, c).x * 10u + uint(c.x)));
	}
	uint old = imageAtomicMax(u, ivec2(3, 0), 100u + gl_LocalInvocationIndex);
	ivec2 s = imageSize(f);
	n[gl_LocalInvocationIndex] = uint(s.x * 100 + s.y);
}
`
	words := vulkanWords(t, "rect.comp", src)
	dev := cpu.New(cpu.Options{})
	fi, err := dev.NewImage(backend.ImageDesc{Format: backend.FormatR32f, Dim: backend.Image2D, Width: 4, Height: 2})
	if err != nil {
		t.Fatal(err)
	}
	ui, err := dev.NewImage(backend.ImageDesc{Format: backend.FormatR32ui, Dim: backend.Image2D, Width: 4, Height: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		binary.LittleEndian.PutUint32(cpu.ImageBytes(ui)[4*i:], uint32(i+1))
	}
	buf, err := dev.NewBuffer(32, backend.UsageStorage)
	if err != nil {
		t.Fatal(err)
	}
	_, err = dev.Dispatch(&backend.Dispatch{Code: words, Entry: "main", Groups: [3]uint32{1, 1, 1}, Bindings: []backend.Binding{
		{Binding: 0, Kind: backend.StorageImage, Image: fi},
		{Binding: 1, Kind: backend.StorageImage, Image: ui},
		{Binding: 2, Buffer: buf},
	}})
	if err != nil {
		t.Fatal(err)
	}
	fb, ub := cpu.ImageBytes(fi), cpu.ImageBytes(ui)
	texel := func(b []byte, x, y int) uint32 { return binary.LittleEndian.Uint32(b[4*(y*4+x):]) }
	if a, b := math.Float32frombits(texel(fb, 0, 0)), math.Float32frombits(texel(fb, 1, 1)); a != 12 || b != 16 {
		t.Errorf("float atomics left %v and %v, want 12 and 16", a, b)
	}
	for y := range 2 {
		for x := range 4 {
			want := uint32(4*y+x+1)*10 + uint32(x)
			switch {
			case x == 3 && y == 0:
				want = 107
			case y == 0:
				want = uint32(x + 1)
			}
			if got := texel(ub, x, y); got != want {
				t.Errorf("texel (%d, %d) = %d, want %d", x, y, got, want)
			}
		}
	}
	b := make([]byte, 32)
	buf.Read(0, b)
	for i := range 8 {
		if got := binary.LittleEndian.Uint32(b[4*i:]); got != 402 {
			t.Errorf("imageSize in invocation %d: %d, want 402", i, got)
		}
	}
}
