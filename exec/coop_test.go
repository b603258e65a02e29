package exec

import (
	"encoding/binary"
	"fmt"

	"math/rand"
	"os"
	"testing"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/spirv"
)

// matmulKernel builds a tiled C = A*B (row-major, M x K times K x N) with
// KHR cooperative matrices of T x T x T: one subgroup of 32 per workgroup,
// workgroup (x, y) computing the tile at rows Ty, columns Tx.
func matmulKernel(t *testing.T, M, N, K, T uint32, int8mode bool) []uint32 {
	b := spirv.NewBuilder(spirv.MakeVersion(1, 6), 0)
	b.Capability(spirv.CapabilityShader)
	b.Capability(spirv.CapabilityCooperativeMatrixKHR)
	b.Extension("SPV_KHR_cooperative_matrix")
	b.MemoryModel(spirv.AddressingModelLogical, spirv.MemoryModelGLSL450)
	void := b.TypeVoid()
	boo := b.TypeBool()
	u32 := b.TypeInt(32, false)
	c := func(v uint32) uint32 { return b.ConstUint32(u32, v) }
	var ein, eacc uint32
	var sin, sacc uint32
	if int8mode {
		b.Capability(spirv.CapabilityInt8)
		ein, eacc, sin, sacc = b.TypeInt(8, true), b.TypeInt(32, true), 1, 4
	} else {
		b.Capability(spirv.CapabilityFloat16)
		ein, eacc, sin, sacc = b.TypeFloat(16), b.TypeFloat(32), 2, 4
	}
	sub := c(uint32(spirv.ScopeSubgroup))
	ta := b.Type(spirv.OpTypeCooperativeMatrixKHR, ein, sub, c(T), c(T), c(0))
	tb := b.Type(spirv.OpTypeCooperativeMatrixKHR, ein, sub, c(T), c(T), c(1))
	tc := b.Type(spirv.OpTypeCooperativeMatrixKHR, eacc, sub, c(T), c(T), c(2))
	buf := func(binding, elem, stride uint32) uint32 {
		ra := b.NewType(spirv.OpTypeRuntimeArray, elem)
		b.Decorate(ra, spirv.DecorationArrayStride, stride)
		st := b.NewType(spirv.OpTypeStruct, ra)
		b.Decorate(st, spirv.DecorationBlock)
		b.MemberDecorate(st, 0, spirv.DecorationOffset, 0)
		v := b.Variable(b.TypePointer(spirv.StorageClassStorageBuffer, st), spirv.StorageClassStorageBuffer)
		b.Decorate(v, spirv.DecorationDescriptorSet, 0)
		b.Decorate(v, spirv.DecorationBinding, binding)
		return v
	}
	bufA, bufB, bufC := buf(0, ein, sin), buf(1, ein, sin), buf(2, eacc, sacc)
	v3 := b.TypeVector(u32, 3)
	wid := b.Variable(b.TypePointer(spirv.StorageClassInput, v3), spirv.StorageClassInput)
	b.Decorate(wid, spirv.DecorationBuiltIn, uint32(spirv.BuiltInWorkgroupId))
	zero := b.Const(spirv.OpConstantNull, eacc)
	fn := b.BeginFunction(void, 0, b.TypeFunction(void))
	entry, header, body, merge := b.ID(), b.ID(), b.ID(), b.ID()
	b.Label(entry)
	w := b.EmitResult(spirv.OpLoad, v3, wid)
	tx := b.EmitResult(spirv.OpCompositeExtract, u32, w, 0)
	ty := b.EmitResult(spirv.OpCompositeExtract, u32, w, 1)
	row := b.EmitResult(spirv.OpIMul, u32, ty, c(T))
	col := b.EmitResult(spirv.OpIMul, u32, tx, c(T))
	acc0 := b.EmitResult(spirv.OpCompositeConstruct, tc, zero)
	b.Emit(spirv.OpBranch, header)
	b.Label(header)
	acc, k := b.ID(), b.ID()
	acc2, k2 := b.ID(), b.ID()
	b.Emit(spirv.OpPhi, tc, acc, acc0, entry, acc2, body)
	b.Emit(spirv.OpPhi, u32, k, c(0), entry, k2, body)
	cond := b.EmitResult(spirv.OpULessThan, boo, k, c(K))
	b.Emit(spirv.OpLoopMerge, merge, body, 0)
	b.Emit(spirv.OpBranchConditional, cond, body, merge)
	b.Label(body)
	pin := b.TypePointer(spirv.StorageClassStorageBuffer, ein)
	aIdx := b.EmitResult(spirv.OpIAdd, u32, b.EmitResult(spirv.OpIMul, u32, row, c(K)), k)
	pa := b.EmitResult(spirv.OpAccessChain, pin, bufA, c(0), aIdx)
	ma := b.EmitResult(spirv.OpCooperativeMatrixLoadKHR, ta, pa, c(0), c(K))
	bIdx := b.EmitResult(spirv.OpIAdd, u32, b.EmitResult(spirv.OpIMul, u32, k, c(N)), col)
	pb := b.EmitResult(spirv.OpAccessChain, pin, bufB, c(0), bIdx)
	mb := b.EmitResult(spirv.OpCooperativeMatrixLoadKHR, tb, pb, c(0), c(N))
	ops := []uint32{ma, mb, acc}
	if int8mode {
		ops = append(ops, uint32(spirv.CooperativeMatrixOperandsMatrixASignedComponentsKHR|
			spirv.CooperativeMatrixOperandsMatrixBSignedComponentsKHR|spirv.CooperativeMatrixOperandsMatrixCSignedComponentsKHR|
			spirv.CooperativeMatrixOperandsMatrixResultSignedComponentsKHR))
	}
	b.Emit(spirv.OpCooperativeMatrixMulAddKHR, append([]uint32{tc, acc2}, ops...)...)
	b.Emit(spirv.OpIAdd, u32, k2, k, c(T))
	b.Emit(spirv.OpBranch, header)
	b.Label(merge)
	cIdx := b.EmitResult(spirv.OpIAdd, u32, b.EmitResult(spirv.OpIMul, u32, row, c(N)), col)
	pc := b.EmitResult(spirv.OpAccessChain, b.TypePointer(spirv.StorageClassStorageBuffer, eacc), bufC, c(0), cIdx)
	b.Emit(spirv.OpCooperativeMatrixStoreKHR, pc, acc, c(0), c(N))
	b.Emit(spirv.OpReturn)
	b.EndFunction()
	b.EntryPoint(spirv.ExecutionModelGLCompute, fn, "main", wid, bufA, bufB, bufC)
	b.ExecutionMode(fn, spirv.ExecutionModeLocalSize, 32, 1, 1)
	words, err := b.Module().Words()
	if err != nil {
		t.Fatal(err)
	}
	return words
}

type matmulSetup struct {
	dev     *Device
	code    []uint32
	a, b, c backend.Buffer
	M, N, K int
	T       int
	fa, fb  []float32
	ia, ib  []int8
}

func newMatmul(t testing.TB, M, N, K, T int, int8mode bool, opts Options) *matmulSetup {
	tt, _ := t.(*testing.T)
	s := &matmulSetup{dev: New(opts), M: M, N: N, K: K, T: T}
	s.code = matmulKernel(tt, uint32(M), uint32(N), uint32(K), uint32(T), int8mode)
	rng := rand.New(rand.NewSource(1))
	es := 2
	if int8mode {
		es = 1
	}
	s.a, _ = s.dev.NewBuffer(M*K*es, backend.UsageStorage)
	s.b, _ = s.dev.NewBuffer(K*N*es, backend.UsageStorage)
	s.c, _ = s.dev.NewBuffer(M*N*4, backend.UsageStorage)
	fill := func(buf backend.Buffer, n int) ([]float32, []int8) {
		fs := make([]float32, n)
		is := make([]int8, n)
		for i := range n {
			if int8mode {
				is[i] = int8(rng.Intn(256) - 128)
				Bytes(buf)[i] = byte(is[i])
			} else {
				h := fromF64(rng.Float64()*4-2, f16, rne, false)
				fs[i] = float32(toF64(h, f16))
				binary.LittleEndian.PutUint16(Bytes(buf)[2*i:], uint16(h))
			}
		}
		return fs, is
	}
	s.fa, s.ia = fill(s.a, M*K)
	s.fb, s.ib = fill(s.b, K*N)
	return s
}

func (s *matmulSetup) dispatch() error {
	_, err := s.dev.Dispatch(&backend.Dispatch{
		Code: s.code, Entry: "main", Groups: [3]uint32{uint32(s.N / s.T), uint32(s.M / s.T), 1},
		Bindings: []backend.Binding{{Binding: 0, Buffer: s.a}, {Binding: 1, Buffer: s.b}, {Binding: 2, Buffer: s.c}},
	})
	return err
}

func TestCoopMatmulF16(t *testing.T) {
	s := newMatmul(t, 64, 48, 80, 16, false, Options{})
	if err := s.dispatch(); err != nil {
		t.Fatal(err)
	}
	got := f32s(s.c)
	for i := 0; i < s.M; i++ {
		for j := 0; j < s.N; j++ {
			var acc float32
			for k := 0; k < s.K; k++ {
				acc += s.fa[i*s.K+k] * s.fb[k*s.N+j]
			}
			if g := got[i*s.N+j]; g != acc {
				t.Fatalf("C[%d][%d] = %v, want %v", i, j, g, acc)
			}
		}
	}
}

func TestCoopMatmulInt8(t *testing.T) {
	s := newMatmul(t, 32, 32, 64, 16, true, Options{Parallel: true, Workers: 2})
	if err := s.dispatch(); err != nil {
		t.Fatal(err)
	}
	got := u32s(s.c)
	for i := 0; i < s.M; i++ {
		for j := 0; j < s.N; j++ {
			var acc int32
			for k := 0; k < s.K; k++ {
				acc += int32(s.ia[i*s.K+k]) * int32(s.ib[k*s.N+j])
			}
			if g := int32(got[i*s.N+j]); g != acc {
				t.Fatalf("C[%d][%d] = %v, want %v", i, j, g, acc)
			}
		}
	}
}

// TestCoopPartialSubgroup: a cooperative load in a workgroup smaller than a
// subgroup is an error naming the instruction.
func TestCoopPartialSubgroup(t *testing.T) {
	s := newMatmul(t, 16, 16, 16, 16, false, Options{SubgroupSize: 64})
	err := s.dispatch()
	if err == nil {
		t.Fatal("no error")
	}
	if e, ok := err.(*Error); !ok || e.Op != spirv.OpCooperativeMatrixLoadKHR {
		t.Fatalf("error %v does not name the load", err)
	}
}

// BenchmarkCoopMatmul512 runs a 512x512x512 fp16 matmul (fp32
// accumulation): glslang's and coop's modules of
// examples/shaders/matmul_khr_f16.comp (16x16x16 tiles, values through
// Function variables; coop's is what coop bench runs) and a hand-built
// kernel with 16x16x16 and 32x32x32 tiles (values in SSA phis), on one
// worker and on all cores; it reports GFLOPS and the process's CPU time
// per dispatch (cpu-ms/op), which other processes sharing the machine do
// not inflate as they do the wall time.
func BenchmarkCoopMatmul512(b *testing.B) {
	// timeIt runs b.N dispatches and reports their figures.
	timeIt := func(b *testing.B, dispatch func() error) {
		b.ResetTimer()
		cpu0 := cpuTime()
		for range b.N {
			if err := dispatch(); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(2.0*512*512*512*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
		if cpu0 >= 0 {
			b.ReportMetric(float64(cpuTime()-cpu0)/1e6/float64(b.N), "cpu-ms/op")
		}
	}
	cores := func(workers int) string {
		if workers == 0 {
			return "allcores"
		}
		return "1core"
	}
	src, err := os.ReadFile("../examples/shaders/matmul_khr_f16.comp")
	if err != nil {
		b.Fatal(err)
	}
	ours := glslWords(b, string(src))
	for _, module := range []string{"glslang", "coop"} {
		for _, workers := range []int{1, 0} {
			b.Run(module+"/"+cores(workers), func(b *testing.B) {
				s := newGlslRun(b, glslMatmuls[0], 512, 512, 512, true, Options{Parallel: true, Workers: workers})
				if module == "coop" {
					s.code = ours
				}
				timeIt(b, s.dispatch)
			})
		}
	}
	for _, tile := range []int{16, 32} {
		for _, workers := range []int{1, 0} {
			b.Run(fmt.Sprintf("tile%d/%s", tile, cores(workers)), func(b *testing.B) {
				s := newMatmul(b, 512, 512, 512, tile, false, Options{Parallel: true, Workers: workers})
				timeIt(b, s.dispatch)
			})
		}
	}
}

func TestCoopMatmulTile32(t *testing.T) {
	s := newMatmul(t, 64, 32, 64, 32, false, Options{})
	if err := s.dispatch(); err != nil {
		t.Fatal(err)
	}
	got := f32s(s.c)
	for i := 0; i < s.M; i++ {
		for j := 0; j < s.N; j++ {
			var acc float32
			for k := 0; k < s.K; k++ {
				acc += s.fa[i*s.K+k] * s.fb[k*s.N+j]
			}
			if g := got[i*s.N+j]; g != acc {
				t.Fatalf("C[%d][%d] = %v, want %v", i, j, g, acc)
			}
		}
	}
}

// TestCoopElementwise: scalar multiply, FConvert, FAdd, the length, and an
// element written through an access chain into a Function variable, on
// KHR accumulators; then the same load and store through the NV ops.
func TestCoopElementwise(t *testing.T) {
	b := spirv.NewBuilder(spirv.MakeVersion(1, 6), 0)
	b.Capability(spirv.CapabilityShader)
	b.Capability(spirv.CapabilityFloat16)
	b.Capability(spirv.CapabilityCooperativeMatrixKHR)
	b.Capability(spirv.CapabilityCooperativeMatrixNV)
	b.MemoryModel(spirv.AddressingModelLogical, spirv.MemoryModelGLSL450)
	void := b.TypeVoid()
	u32 := b.TypeInt(32, false)
	h := b.TypeFloat(16)
	f := b.TypeFloat(32)
	c := func(v uint32) uint32 { return b.ConstUint32(u32, v) }
	sub := c(uint32(spirv.ScopeSubgroup))
	th := b.Type(spirv.OpTypeCooperativeMatrixKHR, h, sub, c(16), c(16), c(2))
	tf := b.Type(spirv.OpTypeCooperativeMatrixKHR, f, sub, c(16), c(16), c(2))
	tnv := b.Type(spirv.OpTypeCooperativeMatrixNV, f, sub, c(16), c(16))
	buf := func(binding, elem, stride uint32) uint32 {
		ra := b.NewType(spirv.OpTypeRuntimeArray, elem)
		b.Decorate(ra, spirv.DecorationArrayStride, stride)
		st := b.NewType(spirv.OpTypeStruct, ra)
		b.Decorate(st, spirv.DecorationBlock)
		b.MemberDecorate(st, 0, spirv.DecorationOffset, 0)
		v := b.Variable(b.TypePointer(spirv.StorageClassStorageBuffer, st), spirv.StorageClassStorageBuffer)
		b.Decorate(v, spirv.DecorationDescriptorSet, 0)
		b.Decorate(v, spirv.DecorationBinding, binding)
		return v
	}
	in, out, out2, lens := buf(0, h, 2), buf(1, f, 4), buf(2, f, 4), buf(3, u32, 4)
	lidV := b.Variable(b.TypePointer(spirv.StorageClassInput, u32), spirv.StorageClassInput)
	b.Decorate(lidV, spirv.DecorationBuiltIn, uint32(spirv.BuiltInSubgroupLocalInvocationId))
	fn := b.BeginFunction(void, 0, b.TypeFunction(void))
	b.Label(b.ID())
	fv := b.LocalVariable(b.TypePointer(spirv.StorageClassFunction, tf))
	ph := b.TypePointer(spirv.StorageClassStorageBuffer, h)
	pf := b.TypePointer(spirv.StorageClassStorageBuffer, f)
	m := b.EmitResult(spirv.OpCooperativeMatrixLoadKHR, th, b.EmitResult(spirv.OpAccessChain, ph, in, c(0), c(0)), c(1), c(16))
	m2 := b.EmitResult(spirv.OpMatrixTimesScalar, th, m, b.Const(spirv.OpConstant, h, 0x4000))
	mf := b.EmitResult(spirv.OpFConvert, tf, m2)
	sum := b.EmitResult(spirv.OpFAdd, tf, mf, mf)
	b.Emit(spirv.OpStore, fv, sum)
	pe := b.EmitResult(spirv.OpAccessChain, b.TypePointer(spirv.StorageClassFunction, f), fv, c(0))
	b.Emit(spirv.OpStore, pe, b.EmitResult(spirv.OpFAdd, f, b.EmitResult(spirv.OpLoad, f, pe), b.ConstFloat32(f, 1)))
	res := b.EmitResult(spirv.OpLoad, tf, fv)
	b.Emit(spirv.OpCooperativeMatrixStoreKHR, b.EmitResult(spirv.OpAccessChain, pf, out, c(0), c(0)), res, c(0), c(16))
	n := b.EmitResult(spirv.OpCooperativeMatrixLengthKHR, u32, tf)
	lid := b.EmitResult(spirv.OpLoad, u32, lidV)
	b.Emit(spirv.OpStore, b.EmitResult(spirv.OpAccessChain, b.TypePointer(spirv.StorageClassStorageBuffer, u32), lens, c(0), lid), n)
	boo := b.TypeBool()
	mnv := b.EmitResult(spirv.OpCooperativeMatrixLoadNV, tnv, b.EmitResult(spirv.OpAccessChain, pf, out, c(0), c(0)), c(16), b.ConstBool(boo, false))
	b.Emit(spirv.OpCooperativeMatrixStoreNV, b.EmitResult(spirv.OpAccessChain, pf, out2, c(0), c(0)), mnv, c(16), b.ConstBool(boo, true))
	b.Emit(spirv.OpReturn)
	b.EndFunction()
	b.EntryPoint(spirv.ExecutionModelGLCompute, fn, "main", in, out, out2, lens, lidV)
	b.ExecutionMode(fn, spirv.ExecutionModeLocalSize, 32, 1, 1)
	code, _ := b.Module().Words()
	dev := New(Options{})
	bin, _ := dev.NewBuffer(512, backend.UsageStorage)
	vals := make([]float32, 256)
	for i := range vals {
		vals[i] = float32(i%50) / 4
		binary.LittleEndian.PutUint16(Bytes(bin)[2*i:], uint16(fromF64(float64(vals[i]), f16, rne, false)))
	}
	bout, _ := dev.NewBuffer(1024, backend.UsageStorage)
	bout2, _ := dev.NewBuffer(1024, backend.UsageStorage)
	blen, _ := dev.NewBuffer(128, backend.UsageStorage)
	_, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{1, 1, 1},
		Bindings: []backend.Binding{{Binding: 0, Buffer: bin}, {Binding: 1, Buffer: bout}, {Binding: 2, Buffer: bout2}, {Binding: 3, Buffer: blen}}})
	if err != nil {
		t.Fatal(err)
	}
	got, got2 := f32s(bout), f32s(bout2)
	for r := 0; r < 16; r++ {
		for cc := 0; cc < 16; cc++ {
			// Loaded column-major: element (r, cc) is in[cc*16 + r].
			want := 4 * vals[cc*16+r]
			if (r*16+cc)%8 == 0 {
				want++ // position 0 of every lane: row-major indices 0, 8, 16, ...
			}
			if g := got[r*16+cc]; g != want {
				t.Fatalf("out(%d,%d) = %v, want %v", r, cc, g, want)
			}
			if g := got2[cc*16+r]; g != got[r*16+cc] {
				t.Fatalf("NV round trip (%d,%d) = %v, want %v", r, cc, g, got[r*16+cc])
			}
		}
	}
	for i, n := range u32s(blen) {
		if n != 8 {
			t.Fatalf("length in lane %d = %d, want 8", i, n)
		}
	}
}
