package lower_test

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/coopshader/coop/backend"
	cpu "github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/spirv"
)

// Arrays sized by different specialization-constant expressions are
// different types even when their default lengths agree, and neither is
// the constant-sized array of that length.
const specLens = `#version 450
layout(constant_id = 0) const uint BM = 4;
layout(constant_id = 1) const uint BN = 4;
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Buf { uint v[]; };
shared uint fixed16[16];
shared uint a[BM * 4];
shared uint b[BN * 4];

void main() {
	for (uint i = 0; i < a.length(); i++) a[i] = 1;
	for (uint i = 0; i < b.length(); i++) b[i] = 2;
	for (uint i = 0; i < 16; i++) fixed16[i] = 3;
	uint s = 0;
	for (uint i = 0; i < a.length(); i++) s += a[i];
	for (uint i = 0; i < b.length(); i++) s += b[i];
	v[0] = a.length();
	v[1] = b.length();
	v[2] = s + fixed16[15];
}
`

func runSpec(t *testing.T, m *spirv.Module, spec map[uint32]uint32) []uint32 {
	t.Helper()
	words, err := m.Words()
	if err != nil {
		t.Fatal(err)
	}
	dev := cpu.New(cpu.Options{})
	buf, _ := dev.NewBuffer(12, backend.UsageStorage)
	sp := map[uint32][]byte{}
	for id, v := range spec {
		sp[id] = binary.LittleEndian.AppendUint32(nil, v)
	}
	if _, err := dev.Dispatch(&backend.Dispatch{Code: words, Entry: "main", Groups: [3]uint32{1, 1, 1}, Spec: sp,
		Bindings: []backend.Binding{{Binding: 0, Buffer: buf}}}); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 12)
	buf.Read(0, b)
	return []uint32{binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:]), binary.LittleEndian.Uint32(b[8:])}
}

func TestSpecLengthArraysDistinct(t *testing.T) {
	env := "vulkan1.2"
	m := compileSrc(t, "speclen.comp", []byte(specLens), env)
	validate(t, m, env)
	spec := map[uint32]uint32{0: 8, 1: 2}
	want := []uint32{32, 8, 32*1 + 8*2 + 3}
	if got := runSpec(t, m, spec); !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if ref := glslang(t, "speclen.comp", []byte(specLens), env); ref != nil {
		if got := runSpec(t, ref, spec); !slices.Equal(got, want) {
			t.Errorf("glslang's module: got %v, want %v", got, want)
		}
	}
}
