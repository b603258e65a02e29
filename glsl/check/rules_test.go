package check

import (
	"math"
	"strings"
	"testing"

	"github.com/coopshader/coop/glsl/diag"
)

// Rule tests on typed leaves, independent of the parser.

func testChecker(exts ...string) *checker {
	c := newChecker(450, false, nil)
	for _, e := range exts {
		c.enableExt(e)
	}
	return c
}

func ref(name string, t *Type, st Storage) Expr {
	return &VarRef{exprBase: exprBase{T: t}, Var: &Var{Name: name, Type: t, Storage: st, SpecID: -1}}
}

func ic(n int64) Expr   { return newConst(IntConst(Int32, n), Pos{}) }
func fc(f float64) Expr { return newConst(FloatConst(Float32, f), Pos{}) }

func wantErr(t *testing.T, c *checker, substr string) {
	t.Helper()
	for _, e := range c.d.Diags {
		if strings.Contains(e.Error(), substr) {
			return
		}
	}
	t.Errorf("want error containing %q, got %v", substr, c.d.Diags)
}

func noErr(t *testing.T, c *checker) {
	t.Helper()
	if len(c.d.Diags) > 0 {
		t.Errorf("unexpected errors: %v", c.d.Diags)
	}
}

func TestScalarRanks(t *testing.T) {
	cases := []struct {
		from, to Scalar
		rank     int
	}{
		{Int32, Int32, rankExact},
		{Int8, Int32, rankPromotion},
		{Uint16, Int32, rankPromotion},
		{Int8, Uint8, rankIntConv},
		{Uint8, Int16, rankIntConv},
		{Uint16, Int16, rankNone},
		{Int32, Int16, rankNone},
		{Int32, Uint32, rankIntConv},
		{Uint32, Int32, rankNone},
		{Int32, Float32, rankIntToFloat},
		{Int32, Float16, rankNone},
		{Int16, Float16, rankIntToFloat},
		{Int64, Float32, rankNone},
		{Int64, Float64, rankToDouble},
		{Float16, Float32, rankIntConv},
		{Float32, Float64, rankPromotion},
		{Float32, Float16, rankNone},
		{BFloat16, Float32, rankIntConv},
		{BFloat16, Float16, rankNone},
		{Float16, BFloat16, rankNone},
		{E5M2, Float16, rankIntConv},
		{E4M3, BFloat16, rankIntConv},
		{Int8, BFloat16, rankNone},
		{Bool, Int32, rankNone},
	}
	for _, tc := range cases {
		if got := scalarRank(tc.from, tc.to); got != tc.rank {
			t.Errorf("%v -> %v: rank %d, want %d", tc.from, tc.to, got, tc.rank)
		}
	}
}

func TestLayout(t *testing.T) {
	vec3 := VectorType(Float32, 3)
	cases := []struct {
		t           *Type
		p           Packing
		size, align int
	}{
		{TFloat, PackStd140, 4, 4},
		{vec3, PackStd430, 12, 16},
		{vec3, PackScalar, 12, 4},
		{ArrayType(TFloat, 4), PackStd140, 64, 16},
		{ArrayType(TFloat, 4), PackStd430, 16, 4},
		{MatrixType(Float32, 3, 3), PackStd430, 48, 16},
		{MatrixType(Float32, 2, 2), PackStd140, 32, 16},
		{MatrixType(Float32, 2, 2), PackStd430, 16, 8},
		{VectorType(Float16, 3), PackStd430, 6, 8},
		{&Type{Kind: KVector, Scalar: Float32, N: 5, Long: true}, PackStd430, 20, 16},
		{&Type{Kind: KReference}, PackStd430, 8, 8},
	}
	for _, tc := range cases {
		s, a := SizeAlign(tc.t, tc.p, false)
		if s != tc.size || a != tc.align {
			t.Errorf("%v under %d: size %d align %d, want %d %d", tc.t, tc.p, s, a, tc.size, tc.align)
		}
	}
	st := &Struct{Name: "S"}
	st.Fields = []*Member{
		{Name: "a", Type: TFloat, Offset: -1},
		{Name: "b", Type: vec3, Offset: -1},
		{Name: "c", Type: TFloat, Offset: -1},
		{Name: "d", Type: ArrayType(VectorType(Float32, 2), 0), Offset: -1},
	}
	if got := FieldOffsets(st, PackStd430); got[1] != 16 || got[2] != 28 || got[3] != 32 {
		t.Errorf("std430 offsets %v", got)
	}
	if got := FieldOffsets(st, PackScalar); got[1] != 4 || got[2] != 16 || got[3] != 20 {
		t.Errorf("scalar offsets %v", got)
	}
	if s := ArrayStride(ArrayType(VectorType(Float32, 2), 0), PackStd140, false); s != 16 {
		t.Errorf("std140 vec2 array stride %d", s)
	}
	if s := MatrixStride(MatrixType(Float32, 4, 3), PackStd430, true); s != 16 {
		t.Errorf("row-major mat4x3 stride %d", s)
	}
}

func TestRoundFloat(t *testing.T) {
	cases := []struct {
		s    Scalar
		in   float64
		want float64
	}{
		// 16-bit floats keep their value until the code generator
		// writes them, as in glslang.
		{Float16, 1.0 / 3, 1.0 / 3},
		{Float16, 65520, 65520},
		{BFloat16, 1.0 / 3, 1.0 / 3},
		{E5M2, 3.3, 3.5},
		{E5M2, 60000, 57344},
		{E4M3, 500, math.NaN()},
		{E4M3, 0.3, 0.3125},
	}
	for _, tc := range cases {
		got := roundFloat(tc.s, tc.in)
		if got != tc.want && !(math.IsNaN(got) && math.IsNaN(tc.want)) {
			t.Errorf("round %v(%v) = %v, want %v", tc.s, tc.in, got, tc.want)
		}
	}
}

func TestFoldIntegerWidths(t *testing.T) {
	c := testChecker("GL_EXT_shader_explicit_arithmetic_types")
	i8 := func(n int64) Expr { return newConst(IntConst(Int8, n), Pos{}) }
	u8 := func(n int64) Expr { return newConst(IntConst(Uint8, n), Pos{}) }
	if v := constOf(c.binary(Add, i8(127), i8(1), Pos{})); v == nil || v.Int() != -128 {
		t.Errorf("int8 127+1 = %v", v)
	}
	if v := constOf(c.binary(Sub, u8(0), u8(1), Pos{})); v == nil || v.Uint() != 255 {
		t.Errorf("uint8 0-1 = %v", v)
	}
	if v := constOf(c.binary(Div, ic(-7), ic(2), Pos{})); v == nil || v.Int() != -3 {
		t.Errorf("-7/2 = %v", v)
	}
	if v := constOf(c.binary(Shr, ic(-8), ic(1), Pos{})); v == nil || v.Int() != -4 {
		t.Errorf("-8>>1 = %v", v)
	}
	u := newConst(IntConst(Uint32, 0xffffffff), Pos{})
	if v := constOf(c.binary(Add, u, ic(1), Pos{})); v == nil || v.Uint() != 0 || v.Type.Scalar != Uint32 {
		t.Errorf("uint max + 1 = %v", v)
	}
	if e := c.binary(Div, ic(1), ic(0), Pos{}); constOf(e) != nil {
		t.Errorf("1/0 folded to %v", constOf(e))
	}
	noErr(t, c)
}

func TestBinaryTypes(t *testing.T) {
	c := testChecker("GL_EXT_shader_explicit_arithmetic_types")
	vec3 := VectorType(Float32, 3)
	m43 := MatrixType(Float32, 4, 3) // 4 columns, 3 rows
	e := c.binary(Mul, ref("m", m43, StoragePrivate), ref("v", VectorType(Float32, 4), StoragePrivate), Pos{})
	if !Identical(e.Type(), vec3) {
		t.Errorf("mat4x3 * vec4 = %v", e.Type())
	}
	e = c.binary(Add, ref("i", TInt, StoragePrivate), ref("f", vec3, StoragePrivate), Pos{})
	b, ok := e.(*Binary)
	if !ok || !Identical(e.Type(), vec3) {
		t.Fatalf("int + vec3 = %T %v", e, e.Type())
	}
	if cv, ok := b.X.(*Convert); !ok || !Identical(cv.T, TFloat) {
		t.Errorf("int operand not converted to float: %T", b.X)
	}
	e = c.binary(Add, ref("a", TInt64, StoragePrivate), ref("b", TUint, StoragePrivate), Pos{})
	if !Identical(e.Type(), TInt64) {
		t.Errorf("int64 + uint = %v", e.Type())
	}
	noErr(t, c)
	c.binary(Add, ref("h", TFloat16, StoragePrivate), ref("d", TFloat16.WithScalar(BFloat16), StoragePrivate), Pos{Line: 3})
	wantErr(t, c, "0:3: '+' :  wrong operand types")
}

func TestCoopMatOps(t *testing.T) {
	c := testChecker("GL_KHR_cooperative_matrix", "GL_KHR_memory_scope_semantics", "GL_EXT_shader_explicit_arithmetic_types")
	cm := func(s Scalar, r, k, use int64) *Type {
		return &Type{Kind: KCoopMat, Scalar: s, Params: []Dim{{Val: 3}, {Val: r}, {Val: k}, {Val: use}}}
	}
	acc := cm(Float32, 16, 8, 2)
	m := ref("m", acc, StorageFunction)
	if e := c.binary(Mul, fc(2), m, Pos{}); !Identical(e.Type(), acc) {
		t.Errorf("2.0*m = %v", e.Type())
	}
	noErr(t, c)
	h := ref("h", cm(Float16, 16, 8, 2), StorageFunction)
	c.binary(Mul, h, fc(2), Pos{Line: 7})
	wantErr(t, c, "0:7: '*'")
	c.d = &diag.List{}
	c.assign(0, h, m, Pos{Line: 9}, "=")
	wantErr(t, c, "0:9: 'assign' :  cannot convert")
	c.d = &diag.List{}
	// Conversion constructor: element type may change, shape may not.
	if e := c.construct(cm(Float16, 16, 8, 2), []Expr{m}, Pos{}); isErr(e) {
		t.Errorf("coopmat f32 -> f16 conversion rejected: %v", c.d.Diags)
	}
	c.construct(cm(Float16, 8, 8, 2), []Expr{m}, Pos{Line: 12})
	wantErr(t, c, "0:12: 'constructor' :  Cooperative matrix type parameters mismatch")
	c.d = &diag.List{}
	a := ref("a", cm(Float16, 16, 8, 0), StorageFunction)
	b := ref("b", cm(Float16, 8, 8, 1), StorageFunction)
	if e := c.call("coopMatMulAdd", []Expr{a, b, m}, Pos{}); !Identical(e.Type(), acc) {
		t.Errorf("coopMatMulAdd result %v (%v)", e.Type(), c.d.Diags)
	}
	c.call("coopMatMulAdd", []Expr{a, a, m}, Pos{Line: 20})
	wantErr(t, c, "0:20: 'coopMatMulAdd'")
}

func TestOverloads(t *testing.T) {
	c := testChecker()
	e := c.call("max", []Expr{ref("i", TInt, StoragePrivate), fc(1)}, Pos{})
	if bc, ok := e.(*BuiltinCall); !ok || bc.Fn != BMax || !Identical(bc.T, TFloat) {
		t.Fatalf("max(int, float) = %T %v %v", e, e.Type(), c.d.Diags)
	}
	vec3 := VectorType(Float32, 3)
	e = c.call("clamp", []Expr{ref("v", vec3, StoragePrivate), fc(0), fc(1)}, Pos{})
	if bc, ok := e.(*BuiltinCall); !ok || !Identical(bc.Params[1], TFloat) {
		t.Errorf("clamp(vec3, float, float) picked %v", e)
	}
	e = c.call("dot", []Expr{ref("v", vec3, StoragePrivate), ref("w", vec3, StoragePrivate)}, Pos{})
	if !Identical(e.Type(), TFloat) {
		t.Errorf("dot = %v", e.Type())
	}
	if v := constOf(c.call("max", []Expr{ic(3), ic(5)}, Pos{})); v == nil || v.Int() != 5 {
		t.Errorf("max(3,5) not folded: %v", v)
	}
	noErr(t, c)
	c.call("subgroupAdd", []Expr{fc(1)}, Pos{Line: 4})
	wantErr(t, c, "0:4: 'subgroupAdd' : required extension not requested: GL_KHR_shader_subgroup_arithmetic")
	c.d = &diag.List{}
	c.call("transpose", []Expr{ref("v", vec3, StoragePrivate)}, Pos{Line: 5})
	wantErr(t, c, "0:5: 'transpose' :  no matching overloaded function found")
	c.d = &diag.List{}
	c.call("atomicAdd", []Expr{fc(1), ic(1)}, Pos{Line: 6})
	wantErr(t, c, "0:6: 'atomicAdd'")
}

func TestConstructors(t *testing.T) {
	c := testChecker()
	vec4 := VectorType(Float32, 4)
	e := c.construct(vec4, []Expr{VectorConst(Int32, 1, 2), fc(3), newConst(BoolConst(true), Pos{})}, Pos{})
	v := constOf(e)
	if v == nil || len(v.Elems) != 4 || v.Elems[1].F != 2 || v.Elems[3].F != 1 {
		t.Fatalf("vec4(ivec2, float, bool) = %v", e)
	}
	m := c.construct(MatrixType(Float32, 2, 2), []Expr{fc(3)}, Pos{})
	if mv := constOf(m); mv == nil || mv.Elems[0].Elems[0].F != 3 || mv.Elems[0].Elems[1].F != 0 {
		t.Errorf("mat2(3) = %v", m)
	}
	noErr(t, c)
	c.construct(VectorType(Float32, 2), []Expr{fc(1), fc(2), fc(3)}, Pos{Line: 2})
	wantErr(t, c, "0:2: 'constructor' :  too many arguments")
	c.d = &diag.List{}
	c.construct(TBool, []Expr{newConst(FloatConst(BFloat16, 1), Pos{})}, Pos{Line: 3})
	wantErr(t, c, "0:3: 'constructor' :  can't convert")
}

// VectorConst builds a constant vector for tests.
func VectorConst(s Scalar, xs ...int64) Expr {
	v := &Value{Type: VectorType(s, len(xs))}
	for _, x := range xs {
		v.Elems = append(v.Elems, IntConst(s, x))
	}
	return newConst(v, Pos{})
}
