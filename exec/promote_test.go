package exec

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/spirv"
	"github.com/coopshader/coop/spirv/text"
)

// TestPromotedLoads checks loads of promoted variables whose result shares
// the variable's slots against those that may not: a value loaded before
// a store to its variable (j++), one used in a later block and across
// loop iterations, in lockstep and one invocation at a time.
func TestPromotedLoads(t *testing.T) {
	src := `#version 450
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint j = i;
    uint a = j++;
    uint s = 0u;
    for (uint k = 0u; k < 3u; k++) {
        uint b = j;
        j = j * 3u + k;
        if (b > 4u) {
            s += b;
        }
        s += j;
    }
    o[i] = a * 1000u + j * 10u + s;
}`
	code := glslWords(t, src)
	for _, noLock := range []bool{false, true} {
		dev := New(Options{noLockstep: noLock, SubgroupSize: 4})
		buf, _ := dev.NewBuffer(8*4, backend.UsageStorage)
		if _, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{1, 1, 1},
			Bindings: []backend.Binding{{Binding: 0, Buffer: buf}}}); err != nil {
			t.Fatal(err)
		}
		for i := uint32(0); i < 8; i++ {
			j, s := i+1, uint32(0)
			for k := uint32(0); k < 3; k++ {
				b := j
				j = j*3 + k
				if b > 4 {
					s += b
				}
				s += j
			}
			want := i*1000 + j*10 + s
			if got := binary.LittleEndian.Uint32(Bytes(buf)[4*i:]); got != want {
				t.Errorf("lockstep off %v, invocation %d: got %d, want %d", noLock, i, got, want)
			}
		}
	}
}

// TestPromoteIgnoresLiterals checks that promotion looks at id operands
// only: debug information whose line numbers equal a variable's id once
// kept the variable in invocation memory (a module compiled with -g ran
// twice as slow as without).
func TestPromoteIgnoresLiterals(t *testing.T) {
	src := `OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%file = OpString "t.comp"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%ptr = OpTypePointer Function %uint
%c7 = OpConstant %uint 7
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpVariable %ptr Function
OpLine %file LINE 0
OpStore %v %c7
%x = OpLoad %uint %v
OpReturn
OpFunctionEnd
`
	m, err := text.Assemble([]byte(strings.Replace(src, "LINE", "1", 1)), "t.spvasm")
	if err != nil {
		t.Fatal(err)
	}
	var id uint32
	for _, in := range m.Insts {
		if in.Op == spirv.OpVariable {
			id = in.Words[1]
		}
	}
	if m, err = text.Assemble([]byte(strings.Replace(src, "LINE", fmt.Sprint(id), 1)), "t.spvasm"); err != nil {
		t.Fatal(err)
	}
	prg, err := Load(m, "main", nil, 32)
	if err != nil {
		t.Fatal(err)
	}
	p := prg.p
	first := 0
	for i, in := range m.Insts {
		if in.Op == spirv.OpFunction {
			first = i
			break
		}
	}
	if !p.promotable(first)[id] {
		t.Errorf("variable %%%d, named as a line number by OpLine, is not promoted", id)
	}
}

// TestPromotedStores checks values computed straight into a promoted
// variable's slots (promotedStores): written in a masked branch from
// operands the same everywhere (the masked-out invocations keep their
// values), accumulated in place, loaded from memory, vectors, in
// lockstep and one invocation at a time.
func TestPromotedStores(t *testing.T) {
	src := `#version 450
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint u = gl_WorkGroupID.x + 9u;
    uint v = i;
    uvec2 p = uvec2(i, 1u);
    for (uint k = 0u; k < 3u; k++) {
        if (i % 3u == k) {
            v = u * 2u;
            p = uvec2(u, k) + p;
        }
        v = v + k;
        uint w = o[(i + k) % 8u];
        v ^= w;
        p = p * 3u;
    }
    barrier();
    o[i] = v * 7u + p.x * 5u + p.y;
}`
	code := glslWords(t, src)
	pr := loadWords(t, code, 4)
	n := 0
	for _, in := range pr.p.code {
		if in.vres {
			n++
		}
	}
	if n < 4 {
		t.Errorf("%d instructions compute into a variable's slots, want at least 4", n)
	}
	init := []uint32{3, 1, 4, 1, 5, 9, 2, 6}
	want := make([]uint32, 8)
	for i := range uint32(8) {
		u, v, p := uint32(9), i, [2]uint32{i, 1}
		for k := range uint32(3) {
			if i%3 == k {
				v = u * 2
				p = [2]uint32{u + p[0], k + p[1]}
			}
			v += k
			v ^= init[(i+k)%8]
			p = [2]uint32{p[0] * 3, p[1] * 3}
		}
		want[i] = v*7 + p[0]*5 + p[1]
	}
	for _, noLock := range []bool{false, true} {
		dev := New(Options{noLockstep: noLock, SubgroupSize: 4})
		buf := u32buf(t, dev, init)
		mustRun(t, dev, code, 1, buf)
		if got := u32s(buf); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("lockstep off %v: got %v, want %v", noLock, got, want)
		}
	}
}

// loadWords decodes and loads code's "main" for subgroups of sg
// invocations, so tests can look at how it was compiled.
func loadWords(t *testing.T, code []uint32, sg int) *Program {
	t.Helper()
	m, err := spirv.DecodeWords(code, nil)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := Load(m, "main", nil, sg)
	if err != nil {
		t.Fatal(err)
	}
	return pr
}
