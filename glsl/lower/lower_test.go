package lower

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
	cpu "github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/internal/reftool"
	"github.com/coopshader/coop/spirv"
)

// Small constructors for hand-built checked trees.

var pos = check.Pos{File: "t.comp", Line: 1, Col: 1}

func cnst(v *check.Value) *check.Const {
	c := &check.Const{Val: v}
	c.T, c.Pos = v.Type, pos
	return c
}

func ui(x uint64) *check.Const { return cnst(check.IntConst(check.Uint32, int64(x))) }

func ref(v *check.Var) *check.VarRef {
	r := &check.VarRef{Var: v}
	r.T, r.Pos = v.Type, pos
	return r
}

func bin(op check.BinaryOp, x, y check.Expr) *check.Binary {
	b := &check.Binary{Op: op, X: x, Y: y}
	b.T, b.Pos = x.Type(), pos
	if op >= check.LogAnd {
		b.T = check.TBool
	}
	return b
}

func assign(op check.BinaryOp, l, r check.Expr) *check.ExprStmt {
	a := &check.Assign{Op: op, LHS: l, RHS: r}
	a.T, a.Pos = l.Type(), pos
	return &check.ExprStmt{X: a}
}

func field(x check.Expr, i int, t *check.Type) *check.Field {
	f := &check.Field{X: x, Index: i}
	f.T, f.Pos = t, pos
	return f
}

func index(x, i check.Expr) *check.Index {
	e := &check.Index{X: x, Index: i}
	e.T, e.Pos = x.Type().Elem, pos
	return e
}

func swz(x check.Expr, comps ...int) *check.Swizzle {
	s := &check.Swizzle{X: x, Comps: comps}
	s.T, s.Pos = check.VectorType(x.Type().Scalar, len(comps)), pos
	return s
}

func local(name string, t *check.Type) *check.Var {
	return &check.Var{Name: name, Type: t, Storage: check.StorageFunction, SpecID: -1, Pos: pos}
}

// bufferProgram is a shader with one std430 buffer block "B { uint v[]; }"
// at binding 0 and the given main body.
func bufferProgram(body func(v func(i check.Expr) check.Expr, gid check.Expr) []check.Stmt) *check.Program {
	arr := check.ArrayType(check.TUint, 0)
	blk := &check.Struct{Name: "B", Block: true, Fields: []*check.Member{{Name: "v", Type: arr, Offset: -1}}}
	bt := &check.Type{Kind: check.KStruct, Struct: blk}
	buf := &check.Var{Name: "buf", Type: bt, Storage: check.StorageBuffer, SpecID: -1, Pos: pos,
		Layout: check.Layout{Set: 0, Binding: 0, Location: -1, Packing: check.PackStd430}}
	gidVar := &check.Var{Name: "gl_GlobalInvocationID", Type: check.VectorType(check.Uint32, 3), Storage: check.StorageIn,
		SpecID: -1, Builtin: check.BuiltinGlobalInvocationID, Pos: pos}
	v := func(i check.Expr) check.Expr { return index(field(ref(buf), 0, arr), i) }
	main := &check.Func{Name: "main", Result: check.TVoid, Pos: pos}
	main.Body = &check.Block{Stmts: body(v, swz(ref(gidVar), 0))}
	return &check.Program{Version: 450, LocalSize: [3]int{4, 1, 1}, LocalSizeSpec: [3]int{-1, -1, -1},
		Globals: []*check.Var{buf, gidVar}, Funcs: []*check.Func{main}, Main: main}
}

// validate runs spirv-val on m when it is installed.
func validate(t *testing.T, m *spirv.Module, env string) {
	t.Helper()
	val := reftool.Path("spirv-val")
	if val == "" {
		return
	}
	b, err := m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "m.spv")
	if err := os.WriteFile(f, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(val, "--target-env", env, f).CombinedOutput(); err != nil {
		t.Errorf("spirv-val --target-env %s: %s", env, out)
	}
}

// run dispatches m on the CPU executor with one storage buffer of uint32
// words at binding 0 and returns the words afterwards.
func run(t *testing.T, m *spirv.Module, groups uint32, in []uint32) []uint32 {
	t.Helper()
	words, err := m.Words()
	if err != nil {
		t.Fatal(err)
	}
	dev := cpu.New(cpu.Options{})
	buf, err := dev.NewBuffer(len(in)*4, backend.UsageStorage)
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, len(in)*4)
	for i, w := range in {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	buf.Write(0, b)
	if _, err := dev.Dispatch(&backend.Dispatch{Code: words, Entry: "main", Groups: [3]uint32{groups, 1, 1},
		Bindings: []backend.Binding{{Binding: 0, Buffer: buf}}}); err != nil {
		t.Fatal(err)
	}
	buf.Read(0, b)
	out := make([]uint32, len(in))
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

// loopProgram: v[i] = sum of k*k for k < v[i], skipping k == 2 and
// stopping at k == 6; odd results get 1000 added.
func loopProgram() *check.Program {
	return bufferProgram(func(v func(check.Expr) check.Expr, gid check.Expr) []check.Stmt {
		i, k, s := local("i", check.TUint), local("k", check.TUint), local("s", check.TUint)
		inc := &check.Unary{Op: check.PreInc, X: ref(k)}
		inc.T, inc.Pos = check.TUint, pos
		return []check.Stmt{
			&check.DeclStmt{Var: i, Init: gid},
			&check.DeclStmt{Var: s, Init: ui(0)},
			&check.For{
				Init: &check.DeclStmt{Var: k, Init: ui(0)},
				Cond: bin(check.Lt, ref(k), v(ref(i))),
				Post: inc,
				Body: &check.Block{Stmts: []check.Stmt{
					&check.If{Cond: bin(check.Eq, ref(k), ui(2)), Then: &check.Continue{}},
					&check.If{Cond: bin(check.Eq, ref(k), ui(6)), Then: &check.Break{}},
					assign(check.Add, ref(s), bin(check.Mul, ref(k), ref(k))),
				}},
			},
			&check.If{
				Cond: bin(check.Eq, bin(check.BitAnd, ref(s), ui(1)), ui(1)),
				Then: assign(0, v(ref(i)), bin(check.Add, ref(s), ui(1000))),
				Else: assign(0, v(ref(i)), ref(s)),
			},
		}
	})
}

func TestHandBuiltLoop(t *testing.T) {
	want := func(n uint32) uint32 {
		s := uint32(0)
		for k := uint32(0); k < n; k++ {
			if k == 2 {
				continue
			}
			if k == 6 {
				break
			}
			s += k * k
		}
		if s&1 == 1 {
			return s + 1000
		}
		return s
	}
	for _, env := range []string{"vulkan1.0", "vulkan1.1", "vulkan1.2", "vulkan1.3", "vulkan1.4"} {
		m, err := Lower(loopProgram(), Options{TargetEnv: env})
		if err != nil {
			t.Fatalf("%s: %v", env, err)
		}
		validate(t, m, env)
		in := []uint32{0, 1, 2, 3, 4, 5, 9, 100}
		out := run(t, m, 2, in)
		for i, n := range in {
			if out[i] != want(n) {
				t.Errorf("%s: v[%d] = %d, want %d", env, i, out[i], want(n))
			}
		}
	}
}

func TestStorageClassByVersion(t *testing.T) {
	for _, c := range []struct {
		env   string
		sc    spirv.StorageClass
		ext   bool // SPV_KHR_storage_buffer_storage_class
		block spirv.Decoration
	}{
		{"vulkan1.0", spirv.StorageClassUniform, false, spirv.DecorationBufferBlock},
		{"vulkan1.1", spirv.StorageClassStorageBuffer, false, spirv.DecorationBlock},
		{"vulkan1.3", spirv.StorageClassStorageBuffer, false, spirv.DecorationBlock},
	} {
		m, err := Lower(loopProgram(), Options{TargetEnv: c.env})
		if err != nil {
			t.Fatal(err)
		}
		var sc []spirv.StorageClass
		var decs []spirv.Decoration
		ext := false
		for _, in := range m.Insts {
			switch in.Op {
			case spirv.OpVariable:
				if s := spirv.StorageClass(in.Words[2]); s != spirv.StorageClassInput && s != spirv.StorageClassFunction {
					sc = append(sc, s)
				}
			case spirv.OpDecorate:
				if d := spirv.Decoration(in.Words[1]); d == spirv.DecorationBlock || d == spirv.DecorationBufferBlock {
					decs = append(decs, d)
				}
			case spirv.OpExtension:
				s, _, _ := in.String(0)
				ext = ext || s == "SPV_KHR_storage_buffer_storage_class"
			}
		}
		if len(sc) != 1 || sc[0] != c.sc || len(decs) != 1 || decs[0] != c.block || ext != c.ext {
			t.Errorf("%s: storage %v, decorations %v, extension %v", c.env, sc, decs, ext)
		}
	}
}

func TestDeterministic(t *testing.T) {
	var first []byte
	for i := 0; i < 3; i++ {
		m, err := Lower(loopProgram(), Options{TargetEnv: "vulkan1.3", Debug: true, SourceFile: "t.comp", Source: "void main() {}"})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := m.Encode()
		if first == nil {
			first = b
		} else if !bytes.Equal(first, b) {
			t.Fatal("two lowerings of the same tree differ")
		}
	}
}

func TestUnsupportedIsError(t *testing.T) {
	p := loopProgram()
	img := &check.Var{Name: "img", Type: &check.Type{Kind: check.KOpaque, Name: "image2D"}, Storage: check.StorageUniform,
		SpecID: -1, Pos: check.Pos{File: "t.comp", Line: 7, Col: 3}, Layout: check.Layout{Set: 0, Binding: 1, Location: -1}}
	p.Globals = append(p.Globals, img)
	_, err := Lower(p, Options{})
	if err == nil || !strings.Contains(err.Error(), "t.comp:7") {
		t.Fatalf("got %v, want an error at t.comp:7", err)
	}
	if _, err := Lower(loopProgram(), Options{TargetEnv: "vulkan9"}); err == nil {
		t.Fatal("unknown target environment accepted")
	}
	q := loopProgram()
	q.Main = nil
	if _, err := Lower(q, Options{}); err == nil {
		t.Fatal("program without main accepted")
	}
}

// TestNarrowCaps checks that 8- and 16-bit types that only live in
// buffers need no arithmetic capability, and that arithmetic on them does.
func TestNarrowCaps(t *testing.T) {
	mk := func(arith bool) *check.Program {
		i8 := check.ScalarType(check.Int8)
		arr := check.ArrayType(i8, 0)
		blk := &check.Struct{Name: "B", Block: true, Fields: []*check.Member{{Name: "v", Type: arr, Offset: -1}}}
		buf := &check.Var{Name: "buf", Type: &check.Type{Kind: check.KStruct, Struct: blk}, Storage: check.StorageBuffer,
			SpecID: -1, Pos: pos, Layout: check.Layout{Binding: 0, Location: -1, Packing: check.PackStd430}}
		v := func(i uint64) check.Expr { return index(field(ref(buf), 0, arr), ui(i)) }
		var rhs check.Expr = v(1)
		if arith {
			rhs = bin(check.Add, v(1), v(2))
		}
		main := &check.Func{Name: "main", Result: check.TVoid, Pos: pos,
			Body: &check.Block{Stmts: []check.Stmt{assign(0, v(0), rhs)}}}
		return &check.Program{Version: 450, LocalSize: [3]int{1, 1, 1}, LocalSizeSpec: [3]int{-1, -1, -1},
			Globals: []*check.Var{buf}, Funcs: []*check.Func{main}, Main: main}
	}
	for _, arith := range []bool{false, true} {
		m, err := Lower(mk(arith), Options{TargetEnv: "vulkan1.3"})
		if err != nil {
			t.Fatal(err)
		}
		validate(t, m, "vulkan1.3")
		caps := capsOf(m)
		if !caps[spirv.CapabilityStorageBuffer8BitAccess] || caps[spirv.CapabilityInt8] != arith {
			t.Errorf("arithmetic %v: capabilities %v", arith, caps)
		}
	}
}

func capsOf(m *spirv.Module) map[spirv.Capability]bool {
	caps := map[spirv.Capability]bool{}
	for _, in := range m.Insts {
		if in.Op == spirv.OpCapability {
			caps[spirv.Capability(in.Words[0])] = true
		}
	}
	return caps
}
