package check

import (
	"testing"

	"github.com/coopshader/coop/glsl/diag"
)

func TestTypeParams(t *testing.T) {
	c := testChecker("GL_KHR_cooperative_matrix", "GL_KHR_memory_scope_semantics", "GL_EXT_shader_explicit_arithmetic_types", "GL_NV_cooperative_matrix", "GL_NV_cooperative_vector", "GL_EXT_long_vector")
	arg := func(e Expr) typeArg { return typeArg{e: e} }
	cm := c.paramType("coopmat", []typeArg{{t: TFloat16}, arg(ic(3)), arg(ic(16)), arg(ic(8)), arg(ic(0))}, true, "m", Pos{})
	if cm == nil || cm.Kind != KCoopMat || cm.Params[1].Val != 16 || cm.String() != "coopmat<float16_t, 3, 16, 8, 0>" {
		t.Fatalf("coopmat = %v", cm)
	}
	spec := &Var{Name: "N", Type: TInt, Storage: StorageSpecConst, SpecID: 0, Value: IntConst(Int32, 32)}
	sref := &VarRef{exprBase: exprBase{T: TInt}, Var: spec}
	cv := c.paramType("coopvecNV", []typeArg{{t: TFloat16}, arg(c.binary(Mul, sref, ic(2), Pos{}))}, true, "v", Pos{})
	if cv == nil || cv.Params[0].Spec == nil || cv.Params[0].Val != 64 {
		t.Fatalf("coopvecNV<float16_t, N*2> = %+v", cv)
	}
	nv := c.paramType("fcoopmatNV", []typeArg{arg(ic(16)), arg(ic(3)), arg(ic(8)), arg(ic(8))}, true, "n", Pos{})
	if nv == nil || nv.Scalar != Float16 {
		t.Fatalf("fcoopmatNV<16,...> = %v", nv)
	}
	lv := c.paramType("vector", []typeArg{{t: TFloat}, arg(ic(7))}, true, "v", Pos{})
	if lv == nil || lv.Kind != KVector || lv.N != 7 || lv.String() != "vector<float, 7>" {
		t.Fatalf("vector<float, 7> = %v", lv)
	}
	noErr(t, c)
	c.paramType("coopmat", nil, false, "fnoparams", Pos{Line: 10})
	wantErr(t, c, "0:10: '' : coopmat missing type parameters")
	c.paramType("coopmat", []typeArg{{t: TFloat16}, arg(ic(3))}, true, "x", Pos{Line: 11})
	wantErr(t, c, "0:11: '' : coopmat incorrect number of type parameters")
	c.paramType("fcoopmatNV", []typeArg{arg(ic(8)), arg(ic(3)), arg(ic(8)), arg(ic(8))}, true, "fbadbits", Pos{Line: 12})
	wantErr(t, c, "0:12: 'fbadbits' : expected 16, 32, or 64 bits for first type parameter")
	c.paramType("coopmat", []typeArg{{t: TFloat16}, arg(ic(3)), arg(ref("x", TInt, StorageFunction)), arg(ic(8)), arg(ic(0))}, true, "x", Pos{Line: 13})
	wantErr(t, c, "type parameter must be a constant integer expression")

	c2 := testChecker()
	c2.paramType("coopmat", []typeArg{{t: TFloat}, arg(ic(3)), arg(ic(8)), arg(ic(8)), arg(ic(0))}, true, "m", Pos{Line: 4})
	wantErr(t, c2, "0:4: 'coopmat' : required extension not requested: GL_KHR_cooperative_matrix")
}

func TestDeclarations(t *testing.T) {
	c := testChecker("GL_KHR_cooperative_matrix", "GL_KHR_memory_scope_semantics")
	q := quals{storage: "const", layout: []layoutItem{{name: "constant_id", val: ic(3)}}}
	v, _ := c.declareVar(q, TInt, "SC", ic(4), Pos{Line: 1}, true)
	if v.Storage != StorageSpecConst || v.SpecID != 3 || v.Value.Int() != 4 {
		t.Fatalf("spec const = %+v", v)
	}
	// const Z = SC * 2 stays symbolic; its default value is 8.
	z, _ := c.declareVar(quals{storage: "const"}, TInt, "Z", c.binary(Mul, c.ident("SC", Pos{}), ic(2), Pos{}), Pos{Line: 2}, true)
	if z.Init == nil || !IsSpecConst(z.Init) || z.Value.Int() != 8 {
		t.Fatalf("spec expression const = %+v", z)
	}
	arr := c.applyArrays(TFloat, []Expr{c.ident("Z", Pos{})}, Pos{})
	if arr.SpecLen == nil || arr.N != 8 {
		t.Errorf("spec-sized array %+v", arr)
	}
	noErr(t, c)
	c.declareVar(quals{storage: "const", layout: []layoutItem{{name: "constant_id", val: ic(1)}}}, VectorType(Float32, 2), "bad", nil, Pos{Line: 20}, true)
	wantErr(t, c, "0:20: 'constant_id' : can only be applied to 'const'-qualified scalar")
	cm := &Type{Kind: KCoopMat, Scalar: Float32, Params: []Dim{{Val: 3}, {Val: 8}, {Val: 8}, {Val: 2}}}
	c.declareVar(quals{storage: "shared"}, cm, "sharedmat", nil, Pos{Line: 21}, true)
	wantErr(t, c, "0:21: 'Cooperative matrix types must not be used in shared memory' : qualifier")
	c.declareBlock(quals{storage: "buffer"}, "B", []blockMember{{t: cm, name: "bufmat", pos: Pos{Line: 22}}}, "", nil, false, Pos{Line: 22})
	wantErr(t, c, "0:22: 'bufmat' : member of block cannot be or contain a cooperative matrix type")
	c.parseLayout([]layoutItem{{name: "bogus", pos: Pos{Line: 23}}})
	wantErr(t, c, "0:23: 'bogus' : unrecognized layout identifier")
	c.declareVar(quals{}, TFloat, "SC", nil, Pos{Line: 24}, true)
	wantErr(t, c, "0:24: 'SC' : redefinition")
}

func TestAnonymousBlock(t *testing.T) {
	c := testChecker()
	c.declareBlock(quals{storage: "buffer", memory: ReadOnly}, "Buf", []blockMember{{t: ArrayType(TFloat, 0), name: "data"}}, "", nil, false, Pos{})
	e := c.ident("data", Pos{})
	f, ok := e.(*Field)
	if !ok || f.Index != 0 || f.X.(*VarRef).Var.Storage != StorageBuffer {
		t.Fatalf("anonymous member = %#v", e)
	}
	if l := c.prog.Globals[0].Type.Struct.Packing; l != PackStd430 {
		t.Errorf("buffer default packing %v", l)
	}
	noErr(t, c)
	c.assign(0, c.index(e, ic(0), Pos{}), fc(1), Pos{Line: 5}, "=")
	wantErr(t, c, "0:5: '=' :  l-value required (can't modify a readonly buffer)")
}

func TestCallbacks(t *testing.T) {
	c := testChecker("GL_NV_cooperative_matrix2", "GL_KHR_memory_scope_semantics", "GL_EXT_shader_explicit_arithmetic_types", "GL_EXT_buffer_reference")
	acc := &Type{Kind: KCoopMat, Scalar: Float16, Params: []Dim{{Val: 3}, {Val: 16}, {Val: 16}, {Val: 2}}}
	m := ref("m", acc, StorageFunction)
	param := func(t *Type, constIn bool) *Var { return &Var{Type: t, ConstParam: constIn, SpecID: -1} }
	h := ScalarType(Float16)
	good := &Func{Name: "combine", Params: []*Var{param(h, true), param(h, true)}, Result: h}
	fr := func(f *Func) Expr { return &FuncRef{exprBase: exprBase{T: tFunction}, Func: f} }
	c.call("coopMatReduceNV", []Expr{m, m, ic(1), fr(good)}, Pos{})
	noErr(t, c)
	notConst := &Func{Name: "combineSum2", Params: []*Var{param(h, false), param(h, true)}, Result: h}
	c.call("coopMatReduceNV", []Expr{m, m, ic(1), fr(notConst)}, Pos{Line: 67})
	wantErr(t, c, "0:67: 'combineSum2(f161;f161;' : function parameters must all be qualified 'const in'")
	wrong := &Func{Name: "combineSum", Params: []*Var{param(TFloat, true), param(TFloat, true)}, Result: TFloat}
	c.call("coopMatReduceNV", []Expr{m, m, ic(1), fr(wrong)}, Pos{Line: 68})
	wantErr(t, c, "0:68: 'combineSum(f1;f1;' : return type must match cooperative matrix component type")
	c.d = &diag.List{}

	layout := &Type{Kind: KTensorLayout, Params: []Dim{{Val: 2}, {Val: 0}}}
	refT := c.refType("Blk")
	coord := ArrayType(TUint, 2)
	dec := &Func{Name: "decode", Params: []*Var{param(refT, true), param(coord, true), param(coord, true)}, Result: h}
	buf := ref("buf", ArrayType(TUint, 0), StorageBuffer)
	c.call("coopMatLoadTensorNV", []Expr{m, buf, ic(0), ref("t", layout, StorageFunction), fr(dec)}, Pos{})
	noErr(t, c)
	badDec := &Func{Name: "decode11", Params: []*Var{param(refT, true), param(TUint, true), param(TUint, true)}, Result: h}
	c.call("coopMatLoadTensorNV", []Expr{m, buf, ic(0), ref("t", layout, StorageFunction), fr(badDec)}, Pos{Line: 62})
	wantErr(t, c, "0:62: 'decode11(1;u1;u1;' : coordinate parameters must be uint32_t")
	c.call("coopMatLoadTensorNV", []Expr{m, ref("local", ArrayType(TUint, 4), StorageFunction), ic(0), ref("t", layout, StorageFunction)}, Pos{Line: 81})
	wantErr(t, c, "0:81: 'coopMatLoadTensorNV' :  Only l-values corresponding to storage block or shared variables")
}

func TestWorkGroupSizeSpec(t *testing.T) {
	c := testChecker()
	c.declareLayoutIn(quals{storage: "in", layout: []layoutItem{{name: "local_size_x", val: ic(64)}, {name: "local_size_y_id", val: ic(1)}}})
	if c.prog.LocalSize != [3]int{64, 1, 1} || c.prog.LocalSizeSpec != [3]int{-1, 1, -1} {
		t.Fatalf("local size %v spec %v", c.prog.LocalSize, c.prog.LocalSizeSpec)
	}
	e := c.ident("gl_WorkGroupSize", Pos{})
	if !IsSpecConst(e) {
		t.Errorf("gl_WorkGroupSize with local_size_y_id is not a spec constant")
	}
	x := c.swizzle(e, "x", Pos{})
	if !IsSpecConst(x) {
		t.Errorf("gl_WorkGroupSize.x not spec-constant")
	}
	noErr(t, c)
}
