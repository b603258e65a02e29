package lower

import (
	"fmt"
	"strings"

	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/spirv"
)

// lval is an addressable location: a pointer in a storage class, the type
// it points to and the packing of that memory, plus an optional swizzle
// applied on top (stores then write single components).
type lval struct {
	ptr   uint32
	sc    spirv.StorageClass
	t     *check.Type
	pk    check.Packing
	align uint32 // PhysicalStorageBuffer accesses need an alignment
	comps []int
	// heap is an access into a descriptor heap not emitted yet (ptr is
	// then 0): see heap.go.
	heap *heapPath
	// mem are the memory qualifiers gathered down the access path, which
	// the Vulkan memory model turns into memory operands (coherent.go).
	mem check.MemoryQual
	// nonUniform: the path indexes an array of blocks with a non-uniform
	// index, so its pointers and loads are decorated NonUniform.
	nonUniform bool
}

func (g *gen) u32(v uint32) uint32 { return g.b.ConstUint32(g.scalarType(check.Uint32), v) }
func (g *gen) i32(v int32) uint32  { return g.b.ConstUint32(g.scalarType(check.Int32), uint32(v)) }

// addressable reports whether e names memory (so loads go through access
// chains rather than whole-value loads).
func (g *gen) addressable(e check.Expr) bool {
	switch e := e.(type) {
	case *check.VarRef:
		v := e.Var
		if vi := g.vars[v]; vi != nil && vi.value {
			return false
		}
		return v.Storage != check.StorageConst && v.Storage != check.StorageSpecConst && v.Builtin != check.BuiltinWorkGroupSize
	case *check.Field:
		return e.X.Type().Kind == check.KReference || g.addressable(e.X)
	case *check.Index:
		return g.addressable(e.X)
	case *check.Swizzle:
		return g.addressable(e.X)
	}
	return false
}

func (g *gen) lvalue(e check.Expr) *lval {
	g.at(e.Position())
	switch e := e.(type) {
	case *check.VarRef:
		vi := g.vars[e.Var]
		if vi == nil {
			g.fail(e.Pos, "variable %s is not available here", e.Var.Name)
		}
		if vi.heap != nil {
			return g.heapLval(vi)
		}
		if vi.value {
			// A by-value parameter has no address: read it through a copy.
			tmp := g.b.LocalVariable(g.ptrType(spirv.StorageClassFunction, vi.t, check.PackNone))
			g.b.Emit(spirv.OpStore, tmp, vi.id)
			return &lval{ptr: tmp, sc: spirv.StorageClassFunction, t: vi.t}
		}
		return &lval{ptr: vi.id, sc: vi.sc, t: vi.t, pk: vi.pk, mem: g.memoryOf(e)}
	case *check.Field:
		var base *lval
		if e.X.Type().Kind == check.KReference {
			st := e.X.Type().Struct
			pk := st.Packing
			if pk == check.PackNone {
				pk = check.PackStd430
			}
			g.refPointer(e.X.Type())
			// A reference's memory qualifiers apply to what it points to.
			base = &lval{ptr: g.rvalue(e.X), sc: spirv.StorageClassPhysicalStorageBuffer, t: &check.Type{Kind: check.KStruct, Struct: st}, pk: pk, mem: g.memoryOf(e.X)}
		} else {
			base = g.lvalue(e.X)
		}
		l := g.chain(base, e.T, g.i32(int32(e.Index)))
		if st := e.X.Type().Struct; st != nil && e.Index < len(st.Fields) {
			l.mem |= st.Fields[e.Index].Memory
		}
		return l
	case *check.Index:
		base := g.lvalue(e.X)
		if len(base.comps) > 0 {
			g.fail(e.Pos, "indexing a swizzle is not supported by the code generator")
		}
		idx := g.rvalue(e.Index)
		g.tensorIndex(e.X.Type(), idx)
		if g.p.PromoteUint32Indices && e.X.Type().Kind != check.KVector && check.Identical(e.Index.Type(), check.TUint) {
			idx = g.promoteIndex(e.Index, idx)
		}
		l := g.chain(base, e.T, idx)
		if b := e.T; l.heap == nil && !l.nonUniform && b.Kind == check.KStruct && b.Struct.Block && g.nonUniform(e.Index) {
			l.nonUniform = true
			g.decorateNonUniform(l.ptr)
			uniform := false
			if v := rootVar(e.X); v != nil {
				uniform = v.Storage == check.StorageUniform
			}
			g.b.Capability(pick(uniform, spirv.CapabilityUniformBufferArrayNonUniformIndexing, spirv.CapabilityStorageBufferArrayNonUniformIndexing))
		}
		return l
	case *check.Swizzle:
		base := g.lvalue(e.X)
		if len(base.comps) > 0 {
			comps := make([]int, len(e.Comps))
			for i, c := range e.Comps {
				comps[i] = base.comps[c]
			}
			base.comps = comps
			return base
		}
		if e.X.Type().Kind == check.KScalar {
			return base
		}
		if len(e.Comps) == 1 {
			return g.chain(base, e.T, g.i32(int32(e.Comps[0])))
		}
		base.comps = e.Comps
		return base
	}
	g.fail(e.Position(), "expression is not an l-value")
	return nil
}

// chain steps into base with one access-chain index.
// promoteIndex widens a uint index to 64 bits, as glslang's
// "#pragma promote_uint32_indices" asks (constants become int64 constants).
func (g *gen) promoteIndex(e check.Expr, idx uint32) uint32 {
	if c, ok := e.(*check.Const); ok {
		return g.b.ConstUint64(g.scalarType(check.Int64), c.Val.Uint())
	}
	return g.b.EmitResult(spirv.OpUConvert, g.scalarType(check.Uint64), idx)
}

func (g *gen) chain(base *lval, t *check.Type, idx uint32) *lval {
	if base.heap != nil {
		return g.heapChain(base, t, idx)
	}
	ptr := g.b.EmitResult(spirv.OpAccessChain, g.ptrType(base.sc, t, base.pk), base.ptr, idx)
	l := &lval{ptr: ptr, sc: base.sc, t: t, pk: base.pk, mem: base.mem, nonUniform: base.nonUniform}
	if l.nonUniform {
		g.decorateNonUniform(ptr)
	}
	if base.sc == spirv.StorageClassPhysicalStorageBuffer {
		_, a := check.SizeAlign(t, base.pk, false)
		l.align = uint32(a)
	}
	return l
}

func (g *gen) memAccess(l *lval) []uint32 {
	if l.sc == spirv.StorageClassPhysicalStorageBuffer {
		a := l.align
		if a == 0 {
			a = 16
		}
		return []uint32{uint32(spirv.MemoryAccessAligned), a}
	}
	return nil
}

// load reads an l-value as a plain value.
func (g *gen) load(l *lval) uint32 {
	if l.heap != nil {
		return g.heapLoad(l)
	}
	if l.t.Contains((*check.Type).IsUnsizedArray) {
		g.fail(g.pos, "a runtime-sized array cannot be loaded, copied or compared as a whole (SPIR-V has no such load); index its elements")
	}
	v := g.b.EmitResult(spirv.OpLoad, g.typeID(l.t, l.pk), append([]uint32{l.ptr}, g.accessOperands(l, false)...)...)
	if l.nonUniform {
		g.decorateNonUniform(v)
	}
	v = g.fromMemory(v, l.t, l.pk)
	if len(l.comps) > 0 {
		return g.swizzle(v, l.t, l.comps)
	}
	return v
}

// store writes a plain value of type t to an l-value.
func (g *gen) store(vi *varInfo, l *lval, val uint32, t *check.Type) {
	if l == nil {
		l = &lval{ptr: vi.id, sc: vi.sc, t: vi.t, pk: vi.pk}
	}
	if len(l.comps) > 0 {
		// Write components: load the vector, shuffle the new ones in.
		full := g.b.EmitResult(spirv.OpLoad, g.typeID(l.t, l.pk), append([]uint32{l.ptr}, g.accessOperands(l, false)...)...)
		n := uint32(l.t.N)
		sel := make([]uint32, n)
		for i := range sel {
			sel[i] = uint32(i)
		}
		for i, c := range l.comps {
			sel[c] = n + uint32(i)
		}
		if len(l.comps) == 1 {
			val = g.b.EmitResult(spirv.OpCompositeInsert, g.typeID(l.t, l.pk), g.toMemory(val, t, l.pk), full, uint32(l.comps[0]))
		} else {
			val = g.b.EmitResult(spirv.OpVectorShuffle, g.typeID(l.t, l.pk), append([]uint32{full, g.toMemory(val, t, l.pk)}, sel...)...)
		}
		g.b.Emit(spirv.OpStore, append([]uint32{l.ptr, val}, g.accessOperands(l, true)...)...)
		return
	}
	g.b.Emit(spirv.OpStore, append([]uint32{l.ptr, g.toMemory(val, t, l.pk)}, g.accessOperands(l, true)...)...)
}

// needsConversion reports whether values of t differ between plain and
// laid-out form.
func needsConversion(t *check.Type, pk check.Packing) bool {
	if pk == check.PackNone {
		return false
	}
	return t.Kind == check.KArray || t.Kind == check.KStruct || t.Scalar == check.Bool && (t.Kind == check.KScalar || t.Kind == check.KVector)
}

// fromMemory turns a value loaded from laid-out memory into a plain value.
func (g *gen) fromMemory(v uint32, t *check.Type, pk check.Packing) uint32 {
	if !needsConversion(t, pk) {
		return v
	}
	switch t.Kind {
	case check.KScalar, check.KVector:
		return g.b.EmitResult(spirv.OpINotEqual, g.typeID(t, check.PackNone), v, g.zero(t.WithScalar(check.Uint32)))
	}
	return g.relayout(v, t, pk, check.PackNone)
}

// toMemory turns a plain value into its laid-out form.
func (g *gen) toMemory(v uint32, t *check.Type, pk check.Packing) uint32 {
	if !needsConversion(t, pk) {
		return v
	}
	switch t.Kind {
	case check.KScalar, check.KVector:
		u := t.WithScalar(check.Uint32)
		return g.b.EmitResult(spirv.OpSelect, g.typeID(u, check.PackNone), v, g.one(u), g.zero(u))
	}
	return g.relayout(v, t, check.PackNone, pk)
}

// relayout rebuilds an aggregate member by member for another layout.
func (g *gen) relayout(v uint32, t *check.Type, from, to check.Packing) uint32 {
	var parts []uint32
	conv := func(x uint32, et *check.Type) uint32 {
		if from == check.PackNone {
			return g.toMemory(x, et, to)
		}
		return g.fromMemory(x, et, from)
	}
	switch t.Kind {
	case check.KArray:
		for i := 0; i < t.N; i++ {
			x := g.b.EmitResult(spirv.OpCompositeExtract, g.typeID(t.Elem, from), v, uint32(i))
			parts = append(parts, conv(x, t.Elem))
		}
	case check.KStruct:
		for i, f := range t.Struct.Fields {
			x := g.b.EmitResult(spirv.OpCompositeExtract, g.typeID(f.Type, from), v, uint32(i))
			parts = append(parts, conv(x, f.Type))
		}
	}
	return g.b.EmitResult(spirv.OpCompositeConstruct, g.typeID(t, to), parts...)
}

func (g *gen) swizzle(v uint32, t *check.Type, comps []int) uint32 {
	if len(comps) == 1 {
		return g.b.EmitResult(spirv.OpCompositeExtract, g.scalarType(t.Scalar), v, uint32(comps[0]))
	}
	words := []uint32{v, v}
	for _, c := range comps {
		words = append(words, uint32(c))
	}
	return g.b.EmitResult(spirv.OpVectorShuffle, g.typeID(check.VectorType(t.Scalar, len(comps)), check.PackNone), words...)
}

// constValue emits a constant.
func (g *gen) constValue(v *check.Value) uint32 {
	t := v.Type
	tid := g.typeID(t, check.PackNone)
	if v.Elems != nil && t.Kind == check.KCoopVec {
		return g.splat(g.constValue(v.Elems[0]), t)
	}
	if v.Elems != nil {
		parts := make([]uint32, len(v.Elems))
		for i, e := range v.Elems {
			parts[i] = g.constValue(e)
		}
		return g.b.Const(spirv.OpConstantComposite, tid, parts...)
	}
	if t.Kind != check.KScalar {
		g.fail(check.Pos{}, "constant of type %s is not supported by the code generator", t)
	}
	if t.Scalar == check.Bool {
		return g.b.ConstBool(tid, v.Bool())
	}
	return g.b.Const(spirv.OpConstant, tid, g.literalWords(v)...)
}

func (g *gen) scalarConst(t *check.Type, f float64, i uint64) uint32 {
	v := &check.Value{Type: check.ScalarType(t.Scalar), F: f, Bits: i}
	if t.Scalar == check.Bool {
		v.Bits = i
	}
	return g.splat(g.constValue(v), t)
}

func (g *gen) zero(t *check.Type) uint32 { return g.scalarConst(t, 0, 0) }
func (g *gen) one(t *check.Type) uint32  { return g.scalarConst(t, 1, 1) }

// splat widens a scalar constant or value to a vector (or cooperative
// matrix) type t; scalars are returned as they are.
func (g *gen) splat(s uint32, t *check.Type) uint32 {
	switch t.Kind {
	case check.KVector:
		parts := make([]uint32, t.N)
		for i := range parts {
			parts[i] = s
		}
		if g.isConst(s) {
			return g.b.Const(spirv.OpConstantComposite, g.typeID(t, check.PackNone), parts...)
		}
		return g.b.EmitResult(spirv.OpCompositeConstruct, g.typeID(t, check.PackNone), parts...)
	case check.KCoopMat, check.KCoopMatNV:
		if g.isConst(s) {
			return g.b.Const(spirv.OpConstantComposite, g.typeID(t, check.PackNone), s)
		}
		return g.b.EmitResult(spirv.OpCompositeConstruct, g.typeID(t, check.PackNone), s)
	case check.KCoopVec:
		// The length may be a specialization constant: replicate.
		g.replicateCaps()
		if g.isConst(s) {
			return g.b.Const(spirv.OpConstantCompositeReplicateEXT, g.typeID(t, check.PackNone), s)
		}
		return g.b.EmitResult(spirv.OpCompositeConstructReplicateEXT, g.typeID(t, check.PackNone), s)
	}
	return s
}

// isConst reports whether id was declared as a constant (ids of constants
// are tracked by the builder's deduplication).
func (g *gen) isConst(id uint32) bool { return g.b.IsConstant(id) }

// specValue emits a specialization-constant expression.
func (g *gen) specValue(e check.Expr) uint32 {
	switch e := e.(type) {
	case *check.Const:
		return g.constValue(e.Val)
	case *check.VarRef:
		v := e.Var
		switch {
		case v.Builtin == check.BuiltinWorkGroupSize:
			return g.workgroupSize(v)
		case v.Storage == check.StorageSpecConst:
			if g.vars[v] == nil {
				g.specConst(v)
			}
			return g.vars[v].id
		case v.Storage == check.StorageConst && v.Init != nil:
			if vi := g.vars[v]; vi != nil {
				return vi.id
			}
			id := g.specValue(v.Init)
			g.vars[v] = &varInfo{id: id, t: v.Type}
			g.b.Name(id, v.Name)
			return id
		case v.Storage == check.StorageConst && v.Value != nil:
			return g.constValue(v.Value)
		}
	case *check.Binary:
		// Both operands of a constant && || ^^ are constants, so nothing
		// is lost by not short-circuiting.
		switch e.Op {
		case check.LogAnd:
			return g.specOp(e.T, spirv.OpLogicalAnd, g.specValue(e.X), g.specValue(e.Y))
		case check.LogOr:
			return g.specOp(e.T, spirv.OpLogicalOr, g.specValue(e.X), g.specValue(e.Y))
		case check.LogXor:
			return g.specOp(e.T, spirv.OpLogicalNotEqual, g.specValue(e.X), g.specValue(e.Y))
		}
		op, ok := g.binaryOp(e.Op, e.X.Type(), e.Pos)
		if ok && (e.X.Type().Kind == check.KScalar) == (e.Y.Type().Kind == check.KScalar) {
			return g.specOp(e.T, op, g.specValue(e.X), g.specValue(e.Y))
		}
	case *check.Unary:
		switch e.Op {
		case check.Neg:
			if e.T.Scalar.IsInt() {
				return g.specOp(e.T, spirv.OpSNegate, g.specValue(e.X))
			}
		case check.Not:
			return g.specOp(e.T, spirv.OpLogicalNot, g.specValue(e.X))
		case check.BitNot:
			return g.specOp(e.T, spirv.OpNot, g.specValue(e.X))
		}
	case *check.Convert:
		from, to := e.X.Type().Scalar, e.T.Scalar
		x := g.specValue(e.X)
		switch {
		case from.IsInt() && to.IsInt() && from.Bits() == to.Bits():
			return g.specOp(e.T, spirv.OpIAdd, x, g.zero(e.T))
		case from.IsInt() && to.IsInt() && from.IsSigned():
			return g.specOp(e.T, spirv.OpSConvert, x)
		case from.IsInt() && to.IsInt():
			return g.specOp(e.T, spirv.OpUConvert, x)
		case from == check.Bool && to.IsInt():
			return g.specOp(e.T, spirv.OpSelect, x, g.one(e.T), g.zero(e.T))
		case from.IsInt() && to == check.Bool:
			return g.specOp(e.T, spirv.OpINotEqual, x, g.zero(e.X.Type()))
		case from.IsFloat() && to.IsFloat():
			return g.specOp(e.T, spirv.OpFConvert, x)
		}
	case *check.Swizzle:
		x := g.specValue(e.X)
		if len(e.Comps) == 1 {
			return g.specOp(e.T, spirv.OpCompositeExtract, x, uint32(e.Comps[0]))
		}
		words := []uint32{x, x}
		for _, c := range e.Comps {
			words = append(words, uint32(c))
		}
		return g.specOp(e.T, spirv.OpVectorShuffle, words...)
	case *check.Cond:
		// Operands in source order, as glslang emits them.
		c := g.specValue(e.C)
		x := g.specValue(e.X)
		return g.specOp(e.T, spirv.OpSelect, c, x, g.specValue(e.Y))
	case *check.Index:
		if k, ok := e.Index.(*check.Const); ok && k.Val.Type.Kind == check.KScalar && k.Val.Int() >= 0 {
			return g.specOp(e.T, spirv.OpCompositeExtract, g.specValue(e.X), uint32(k.Val.Int()))
		}
	case *check.Length:
		// A cooperative matrix's length depends only on its type; like
		// glslang, the uint result is made an int by adding int 0.
		if xt := e.X.Type(); xt.IsCoopMat() {
			op := spirv.OpCooperativeMatrixLengthKHR
			if xt.Kind == check.KCoopMatNV {
				op = spirv.OpCooperativeMatrixLengthNV
			}
			u := g.specOp(check.TUint, op, g.typeID(xt, check.PackNone))
			if e.T.Scalar == check.Uint32 {
				return u
			}
			return g.specOp(e.T, spirv.OpIAdd, u, g.zero(e.T))
		}
	case *check.Construct:
		parts := make([]uint32, len(e.Args))
		for i, a := range e.Args {
			parts[i] = g.specValue(a)
		}
		if e.T.Kind == check.KVector && len(parts) == 1 {
			for len(parts) < e.T.N {
				parts = append(parts, parts[0])
			}
		}
		id := g.b.ID()
		g.b.Add(spirv.SecGlobal, spirv.OpSpecConstantComposite, append([]uint32{g.typeID(e.T, check.PackNone), id}, parts...)...)
		return id
	}
	g.fail(e.Position(), "specialization-constant expression (%s) is not supported by the code generator", describeSpec(e))
	return 0
}

func (g *gen) specOp(t *check.Type, op spirv.Op, args ...uint32) uint32 {
	id := g.b.ID()
	g.b.Add(spirv.SecGlobal, spirv.OpSpecConstantOp, append([]uint32{g.typeID(t, check.PackNone), id, uint32(op)}, args...)...)
	return id
}

// rvalue evaluates an expression to a value id (0 for void calls).
func (g *gen) rvalue(e check.Expr) uint32 {
	g.at(e.Position())
	if _, isLen := e.(*check.Length); !isLen && check.IsSpecConst(e) {
		return g.specValue(e)
	}
	if opaqueOf(e.Type()) != nil {
		v, _ := g.resourceValue(e)
		return v
	}
	switch e := e.(type) {
	case *check.Const:
		if id, ok := g.narrowConst(e.Val); ok {
			return id
		}
		return g.constValue(e.Val)
	case *check.VarRef:
		v := e.Var
		switch {
		case v.Builtin == check.BuiltinWorkGroupSize:
			return g.workgroupSize(v)
		case v.Storage == check.StorageConst && v.Value != nil:
			return g.constValue(v.Value)
		case v.Storage == check.StorageSpecConst:
			return g.specValue(e)
		case isARBMask(v.Builtin):
			return g.arbMask(v)
		}
		if vi := g.vars[v]; vi != nil && vi.value {
			return vi.id
		}
		return g.load(g.lvalue(e))
	case *check.Field:
		if g.addressable(e) {
			return g.load(g.lvalue(e))
		}
		x := g.rvalue(e.X)
		return g.b.EmitResult(spirv.OpCompositeExtract, g.typeID(e.T, check.PackNone), x, uint32(e.Index))
	case *check.Index:
		if g.addressable(e) {
			return g.load(g.lvalue(e))
		}
		x := g.rvalue(e.X)
		xt := e.X.Type()
		if c, ok := e.Index.(*check.Const); ok {
			return g.b.EmitResult(spirv.OpCompositeExtract, g.typeID(e.T, check.PackNone), x, uint32(c.Val.Bits))
		}
		if xt.Kind == check.KVector {
			return g.b.EmitResult(spirv.OpVectorExtractDynamic, g.typeID(e.T, check.PackNone), x, g.rvalue(e.Index))
		}
		// Dynamic index into a value: spill it to a variable.
		tmp := g.b.LocalVariable(g.ptrType(spirv.StorageClassFunction, xt, check.PackNone))
		g.b.Emit(spirv.OpStore, tmp, x)
		return g.load(g.chain(&lval{ptr: tmp, sc: spirv.StorageClassFunction, t: xt}, e.T, g.rvalue(e.Index)))
	case *check.Swizzle:
		if g.addressable(e) {
			return g.load(g.lvalue(e))
		}
		x := g.rvalue(e.X)
		if e.X.Type().Kind == check.KScalar {
			return g.splat(x, e.T)
		}
		return g.swizzle(x, e.X.Type(), e.Comps)
	case *check.Unary:
		return g.unary(e)
	case *check.Binary:
		return g.binary(e)
	case *check.Assign:
		l := g.lvalue(e.LHS)
		val := g.rvalue(e.RHS)
		switch {
		case e.Op != 0 && e.LHS.Type().Kind == check.KReference:
			val = g.refArith(e.Op, e.LHS, e.RHS, g.load(l), val, e.LHS.Type(), e.Pos)
		case e.Op != 0:
			val = g.arith(e.Op, e.LHS.Type(), e.RHS.Type(), e.LHS.Type(), g.load(l), val, e.Pos)
		}
		g.store(nil, l, val, e.LHS.Type())
		return val
	case *check.Cond:
		return g.cond(e)
	case *check.Call:
		return g.call(e)
	case *check.BuiltinCall:
		return g.builtin(e)
	case *check.Construct:
		return g.construct(e)
	case *check.Convert:
		return g.convert(g.rvalue(e.X), e.X.Type(), e.T, e.Pos)
	case *check.Length:
		return g.length(e)
	case *check.NullInit:
		return g.b.Const(spirv.OpConstantNull, g.typeID(e.T, check.PackNone))
	case *check.Sequence:
		var v uint32
		for _, x := range e.List {
			v = g.rvalue(x)
		}
		return v
	}
	g.fail(e.Position(), "expression %T is not supported by the code generator", e)
	return 0
}

func (g *gen) unary(e *check.Unary) uint32 {
	t := e.T
	switch e.Op {
	case check.Neg:
		x := g.rvalue(e.X)
		if t.Scalar.IsFloat() {
			return g.b.EmitResult(spirv.OpFNegate, g.typeID(t, check.PackNone), x)
		}
		return g.b.EmitResult(spirv.OpSNegate, g.typeID(t, check.PackNone), x)
	case check.Not:
		return g.b.EmitResult(spirv.OpLogicalNot, g.typeID(t, check.PackNone), g.rvalue(e.X))
	case check.BitNot:
		return g.b.EmitResult(spirv.OpNot, g.typeID(t, check.PackNone), g.rvalue(e.X))
	}
	l := g.lvalue(e.X)
	old := g.load(l)
	op := check.Add
	if e.Op == check.PreDec || e.Op == check.PostDec {
		op = check.Sub
	}
	nv := g.arith(op, t, t, t, old, g.one(t), e.Pos)
	g.store(nil, l, nv, t)
	if e.Op == check.PostInc || e.Op == check.PostDec {
		return old
	}
	return nv
}

// binaryOp picks the instruction of a component-wise operator.
func (g *gen) binaryOp(op check.BinaryOp, t *check.Type, pos check.Pos) (spirv.Op, bool) {
	s := t.Scalar
	f, signed := s.IsFloat(), s.IsSigned()
	switch op {
	case check.Add:
		return pick(f, spirv.OpFAdd, spirv.OpIAdd), true
	case check.Sub:
		return pick(f, spirv.OpFSub, spirv.OpISub), true
	case check.Mul:
		return pick(f, spirv.OpFMul, spirv.OpIMul), true
	case check.Div:
		if f {
			return spirv.OpFDiv, true
		}
		return pick(signed, spirv.OpSDiv, spirv.OpUDiv), true
	case check.Mod:
		if f {
			return spirv.OpFMod, true
		}
		return pick(signed, spirv.OpSMod, spirv.OpUMod), true
	case check.Shl:
		return spirv.OpShiftLeftLogical, true
	case check.Shr:
		return pick(signed, spirv.OpShiftRightArithmetic, spirv.OpShiftRightLogical), true
	case check.BitAnd:
		return pick(s == check.Bool, spirv.OpLogicalAnd, spirv.OpBitwiseAnd), true
	case check.BitOr:
		return pick(s == check.Bool, spirv.OpLogicalOr, spirv.OpBitwiseOr), true
	case check.BitXor:
		return pick(s == check.Bool, spirv.OpLogicalNotEqual, spirv.OpBitwiseXor), true
	case check.LogXor:
		return spirv.OpLogicalNotEqual, true
	case check.Eq:
		switch {
		case f:
			return spirv.OpFOrdEqual, true
		case s == check.Bool:
			return spirv.OpLogicalEqual, true
		}
		return spirv.OpIEqual, true
	case check.Ne:
		switch {
		case f:
			return spirv.OpFUnordNotEqual, true
		case s == check.Bool:
			return spirv.OpLogicalNotEqual, true
		}
		return spirv.OpINotEqual, true
	case check.Lt:
		return cmpOp(f, signed, spirv.OpFOrdLessThan, spirv.OpSLessThan, spirv.OpULessThan), true
	case check.Gt:
		return cmpOp(f, signed, spirv.OpFOrdGreaterThan, spirv.OpSGreaterThan, spirv.OpUGreaterThan), true
	case check.Le:
		return cmpOp(f, signed, spirv.OpFOrdLessThanEqual, spirv.OpSLessThanEqual, spirv.OpULessThanEqual), true
	case check.Ge:
		return cmpOp(f, signed, spirv.OpFOrdGreaterThanEqual, spirv.OpSGreaterThanEqual, spirv.OpUGreaterThanEqual), true
	}
	return 0, false
}

func pick[T any](c bool, a, b T) T {
	if c {
		return a
	}
	return b
}

func cmpOp(f, signed bool, fo, so, uo spirv.Op) spirv.Op {
	switch {
	case f:
		return fo
	case signed:
		return so
	}
	return uo
}

func (g *gen) binary(e *check.Binary) uint32 {
	switch e.Op {
	case check.LogAnd, check.LogOr:
		return g.shortCircuit(e)
	}
	x, y := g.rvalue(e.X), g.rvalue(e.Y)
	if e.X.Type().Kind == check.KReference || e.Y.Type().Kind == check.KReference {
		return g.refArith(e.Op, e.X, e.Y, x, y, e.T, e.Pos)
	}
	return g.arith(e.Op, e.X.Type(), e.Y.Type(), e.T, x, y, e.Pos)
}

// refArith lowers buffer reference arithmetic as glslang does: through
// 64-bit addresses (OpConvertPtrToU, OpConvertUToPtr), the int64_t operand
// scaled by the stride (folded when constant) and bitcast to uint64_t, a
// difference of references divided by the stride. xe and ye are the
// operands x and y came from (only their types and constant values are
// used).
func (g *gen) refArith(op check.BinaryOp, xe, ye check.Expr, x, y uint32, rt *check.Type, pos check.Pos) uint32 {
	ref := xe.Type()
	if ref.Kind != check.KReference {
		ref = ye.Type()
	}
	stride, ok := check.RefStride(ref)
	if !ok {
		g.fail(pos, "buffer reference math on %s, whose size is not known here", ref)
		return 0
	}
	u64, i64 := g.scalarType(check.Uint64), g.scalarType(check.Int64)
	addr := func(v uint32) uint32 { return g.b.EmitResult(spirv.OpConvertPtrToU, u64, v) }
	if xe.Type().Kind == check.KReference && ye.Type().Kind == check.KReference {
		a := g.b.EmitResult(spirv.OpBitcast, i64, addr(x))
		b := g.b.EmitResult(spirv.OpBitcast, i64, addr(y))
		d := g.b.EmitResult(spirv.OpISub, i64, a, b)
		return g.b.EmitResult(spirv.OpSDiv, i64, d, g.b.ConstUint64(i64, uint64(stride)))
	}
	offset := func(e check.Expr, v uint32) uint32 {
		if k, ok := e.(*check.Const); ok {
			return g.b.ConstUint64(u64, uint64(k.Val.Int())*uint64(stride))
		}
		return g.b.EmitResult(spirv.OpIMul, u64, g.b.EmitResult(spirv.OpBitcast, u64, v), g.b.ConstUint64(u64, uint64(stride)))
	}
	opc := pick(op == check.Add, spirv.OpIAdd, spirv.OpISub)
	var sum uint32
	if xe.Type().Kind == check.KReference {
		sum = g.b.EmitResult(opc, u64, addr(x), offset(ye, y))
	} else {
		sum = g.b.EmitResult(opc, u64, offset(xe, x), addr(y))
	}
	return g.b.EmitResult(spirv.OpConvertUToPtr, g.typeID(rt, check.PackNone), sum)
}

// arith applies a binary operator to values of types xt and yt giving rt.
func (g *gen) arith(op check.BinaryOp, xt, yt, rt *check.Type, x, y uint32, pos check.Pos) uint32 {
	rid := g.typeID(rt, check.PackNone)
	if op == check.Mul {
		switch {
		case xt.Kind == check.KMatrix && yt.Kind == check.KMatrix:
			return g.b.EmitResult(spirv.OpMatrixTimesMatrix, rid, x, y)
		case xt.Kind == check.KMatrix && yt.Kind == check.KVector:
			return g.b.EmitResult(spirv.OpMatrixTimesVector, rid, x, y)
		case xt.Kind == check.KVector && yt.Kind == check.KMatrix:
			return g.b.EmitResult(spirv.OpVectorTimesMatrix, rid, x, y)
		// Cooperative matrices of any component type scale with
		// OpMatrixTimesScalar (their extensions allow integers there).
		case (xt.Kind == check.KMatrix || xt.IsCoopMat()) && yt.Kind == check.KScalar && (xt.Scalar.IsFloat() || xt.IsCoopMat()):
			return g.b.EmitResult(spirv.OpMatrixTimesScalar, rid, x, y)
		case xt.Kind == check.KScalar && (yt.Kind == check.KMatrix || yt.IsCoopMat()) && (yt.Scalar.IsFloat() || yt.IsCoopMat()):
			return g.b.EmitResult(spirv.OpMatrixTimesScalar, rid, y, x)
		case (xt.Kind == check.KVector || xt.Kind == check.KCoopVec) && yt.Kind == check.KScalar && xt.Scalar.IsFloat():
			return g.b.EmitResult(spirv.OpVectorTimesScalar, rid, x, y)
		case xt.Kind == check.KScalar && (yt.Kind == check.KVector || yt.Kind == check.KCoopVec) && yt.Scalar.IsFloat():
			return g.b.EmitResult(spirv.OpVectorTimesScalar, rid, y, x)
		}
	}
	opc, ok := g.binaryOp(op, xt, pos)
	if !ok {
		g.fail(pos, "operator %s is not supported by the code generator", op)
	}
	// Matrices operate column by column.
	if xt.Kind == check.KMatrix || yt.Kind == check.KMatrix {
		mt := xt
		if mt.Kind != check.KMatrix {
			mt = yt
		}
		col := mt.Column()
		cols := make([]uint32, mt.N)
		for i := range cols {
			cx, cy := x, y
			if xt.Kind == check.KMatrix {
				cx = g.b.EmitResult(spirv.OpCompositeExtract, g.typeID(col, check.PackNone), x, uint32(i))
			} else {
				cx = g.splat(x, col)
			}
			if yt.Kind == check.KMatrix {
				cy = g.b.EmitResult(spirv.OpCompositeExtract, g.typeID(col, check.PackNone), y, uint32(i))
			} else {
				cy = g.splat(y, col)
			}
			cols[i] = g.b.EmitResult(opc, g.typeID(col, check.PackNone), cx, cy)
		}
		return g.b.EmitResult(spirv.OpCompositeConstruct, rid, cols...)
	}
	// A scalar beside a vector is splatted (shifts keep their own types).
	if xt.Kind == check.KScalar && yt.Kind == check.KVector {
		x = g.splat(x, yt.WithScalar(xt.Scalar))
		xt = yt.WithScalar(xt.Scalar)
	}
	if yt.Kind == check.KScalar && xt.Kind == check.KVector {
		y = g.splat(y, xt.WithScalar(yt.Scalar))
		yt = xt.WithScalar(yt.Scalar)
	}
	if xt.IsCoop() && yt.Kind == check.KScalar {
		y = g.splat(y, xt.WithScalar(yt.Scalar))
	}
	if yt.IsCoop() && xt.Kind == check.KScalar {
		x = g.splat(x, yt.WithScalar(xt.Scalar))
	}
	if op >= check.Eq && xt.Kind == check.KVector && rt.Kind == check.KScalar {
		bv := g.typeID(check.VectorType(check.Bool, xt.N), check.PackNone)
		c := g.b.EmitResult(opc, bv, x, y)
		return g.b.EmitResult(pick(op == check.Eq, spirv.OpAll, spirv.OpAny), rid, c)
	}
	if op >= check.Eq && (xt.Kind == check.KStruct || xt.Kind == check.KArray) {
		g.fail(pos, "comparison of aggregates is not supported by the code generator")
	}
	return g.b.EmitResult(opc, rid, x, y)
}

// shortCircuit evaluates && and || with a branch and an OpPhi.
func (g *gen) shortCircuit(e *check.Binary) uint32 {
	x := g.rvalue(e.X)
	from := g.currentLabel()
	rhs, merge := g.b.ID(), g.b.ID()
	g.b.Emit(spirv.OpSelectionMerge, merge, uint32(spirv.SelectionControlNone))
	if e.Op == check.LogAnd {
		g.b.Emit(spirv.OpBranchConditional, x, rhs, merge)
	} else {
		g.b.Emit(spirv.OpBranchConditional, x, merge, rhs)
	}
	g.terminated = true
	g.label(rhs)
	y := g.rvalue(e.Y)
	yFrom := g.currentLabel()
	g.branch(merge)
	g.label(merge)
	return g.b.EmitResult(spirv.OpPhi, g.typeID(check.TBool, check.PackNone), x, from, y, yFrom)
}

// currentLabel is the label of the block being emitted.
func (g *gen) currentLabel() uint32 { return g.b.CurrentLabel() }

func (g *gen) cond(e *check.Cond) uint32 {
	c := g.rvalue(e.C)
	then, els, merge := g.b.ID(), g.b.ID(), g.b.ID()
	g.b.Emit(spirv.OpSelectionMerge, merge, uint32(spirv.SelectionControlNone))
	g.b.Emit(spirv.OpBranchConditional, c, then, els)
	g.terminated = true
	g.label(then)
	x := g.rvalue(e.X)
	xFrom := g.currentLabel()
	g.branch(merge)
	g.label(els)
	y := g.rvalue(e.Y)
	yFrom := g.currentLabel()
	g.branch(merge)
	g.label(merge)
	if e.T.IsVoid() {
		return 0
	}
	return g.b.EmitResult(spirv.OpPhi, g.typeID(e.T, check.PackNone), x, xFrom, y, yFrom)
}

// call calls a user function, copying arguments in and out through
// Function variables.
func (g *gen) call(e *check.Call) uint32 {
	f := e.Func
	if f.Intrinsic != nil {
		return g.intrinsicCall(e)
	}
	if g.callbacks[f] {
		vals := make([]uint32, len(e.Args))
		for i, a := range e.Args {
			vals[i] = g.rvalue(a)
		}
		return g.b.EmitResult(spirv.OpFunctionCall, g.typeID(f.Result, check.PackNone), append([]uint32{g.funcs[f]}, vals...)...)
	}
	ptrs := make([]uint32, len(e.Args))
	for i, a := range e.Args {
		p := f.Params[i]
		if isTensorARM(p.Type) {
			ptrs[i] = g.lvalue(a).ptr
			continue
		}
		if ptr, ok := g.rayArg(p, a); ok {
			ptrs[i] = ptr
			continue
		}
		if opaqueOf(p.Type) != nil {
			ptrs[i] = g.resourceArg(a)
			continue
		}
		ptrs[i] = g.b.LocalVariable(g.ptrType(spirv.StorageClassFunction, p.Type, check.PackNone))
		if p.Dir != check.DirOut {
			g.b.Emit(spirv.OpStore, ptrs[i], g.rvalue(a))
		}
	}
	r := g.b.EmitResult(spirv.OpFunctionCall, g.typeID(f.Result, check.PackNone), append([]uint32{g.funcs[f]}, ptrs...)...)
	for i, a := range e.Args {
		p := f.Params[i]
		if _, ray := rayClass(p.Type); p.Dir != check.DirIn && !ray && !isTensorARM(p.Type) && opaqueOf(p.Type) == nil {
			v := g.b.EmitResult(spirv.OpLoad, g.typeID(p.Type, check.PackNone), ptrs[i])
			g.store(nil, g.lvalue(a), v, p.Type)
		}
	}
	return r
}

func (g *gen) construct(e *check.Construct) uint32 {
	t := e.T
	tid := g.typeID(t, check.PackNone)
	args := make([]uint32, len(e.Args))
	for i, a := range e.Args {
		args[i] = g.rvalue(a)
	}
	switch t.Kind {
	case check.KScalar:
		return g.convert(args[0], e.Args[0].Type(), t, e.Pos)
	case check.KVector:
		if len(args) == 1 && e.Args[0].Type().Kind == check.KScalar {
			return g.splat(args[0], t)
		}
		if len(args) == 1 && e.Args[0].Type().Kind == check.KVector && e.Args[0].Type().N == t.N {
			return args[0]
		}
		var comps []uint32
		total := 0
		for i, a := range e.Args {
			total += a.Type().Components()
			_ = i
		}
		if total == t.N {
			return g.b.EmitResult(spirv.OpCompositeConstruct, tid, args...)
		}
		for i, a := range e.Args {
			at := a.Type()
			if at.Kind == check.KScalar {
				comps = append(comps, args[i])
				continue
			}
			for c := 0; c < at.Components() && len(comps) < t.N; c++ {
				comps = append(comps, g.b.EmitResult(spirv.OpCompositeExtract, g.scalarType(t.Scalar), args[i], uint32(c)))
			}
		}
		return g.b.EmitResult(spirv.OpCompositeConstruct, tid, comps[:t.N]...)
	case check.KMatrix:
		col := t.Column()
		if len(args) == 1 && e.Args[0].Type().Kind == check.KScalar {
			cols := make([]uint32, t.N)
			z := g.zero(check.ScalarType(t.Scalar))
			for c := range cols {
				parts := make([]uint32, t.Rows)
				for r := range parts {
					parts[r] = z
					if r == c {
						parts[r] = args[0]
					}
				}
				cols[c] = g.b.EmitResult(spirv.OpCompositeConstruct, g.typeID(col, check.PackNone), parts...)
			}
			return g.b.EmitResult(spirv.OpCompositeConstruct, tid, cols...)
		}
		if len(args) == t.N && e.Args[0].Type().Kind == check.KVector && e.Args[0].Type().N == t.Rows {
			return g.b.EmitResult(spirv.OpCompositeConstruct, tid, args...)
		}
		var scalars []uint32
		for i, a := range e.Args {
			at := a.Type()
			switch at.Kind {
			case check.KScalar:
				scalars = append(scalars, args[i])
			case check.KVector:
				for c := 0; c < at.N; c++ {
					scalars = append(scalars, g.b.EmitResult(spirv.OpCompositeExtract, g.scalarType(t.Scalar), args[i], uint32(c)))
				}
			default:
				g.fail(e.Pos, "matrix constructor from %s is not supported by the code generator", at)
			}
		}
		cols := make([]uint32, t.N)
		for c := range cols {
			cols[c] = g.b.EmitResult(spirv.OpCompositeConstruct, g.typeID(col, check.PackNone), scalars[c*t.Rows:(c+1)*t.Rows]...)
		}
		return g.b.EmitResult(spirv.OpCompositeConstruct, tid, cols...)
	case check.KCoopMat, check.KCoopMatNV:
		return g.b.EmitResult(spirv.OpCompositeConstruct, tid, args[0])
	case check.KCoopVec:
		return g.coopVecConstruct(e, args)
	case check.KArray, check.KStruct:
		return g.b.EmitResult(spirv.OpCompositeConstruct, tid, args...)
	}
	g.fail(e.Pos, "constructor of %s is not supported by the code generator", t)
	return 0
}

// refConvert converts between buffer references, uint64_t and uvec2
// (GL_EXT_buffer_reference2, GL_EXT_buffer_reference_uvec2).
func (g *gen) refConvert(v uint32, from, to *check.Type, pos check.Pos) uint32 {
	if check.Identical(from, to) {
		return v
	}
	tid := g.typeID(to, check.PackNone)
	switch {
	case from.Kind == check.KScalar && from.Scalar.Bits() == 64:
		return g.b.EmitResult(spirv.OpConvertUToPtr, tid, v)
	case to.Kind == check.KScalar && to.Scalar.Bits() == 64:
		return g.b.EmitResult(spirv.OpConvertPtrToU, tid, v)
	case from.Kind == check.KReference && to.Kind == check.KReference,
		from.Kind == check.KVector && from.N == 2 && from.Scalar.Bits() == 32,
		to.Kind == check.KVector && to.N == 2 && to.Scalar.Bits() == 32:
		return g.b.EmitResult(spirv.OpBitcast, tid, v)
	}
	g.fail(pos, "conversion from %s to %s is not supported by the code generator", from, to)
	return 0
}

// convert converts value v of type from to type to.
func (g *gen) convert(v uint32, from, to *check.Type, pos check.Pos) uint32 {
	if r, ok := g.coopConvert(v, from, to, pos); ok {
		return r
	}
	if from.Kind == check.KReference || to.Kind == check.KReference {
		return g.refConvert(v, from, to, pos)
	}
	if r, ok := g.rayConvert(v, to); ok {
		return r
	}
	fs, ts := from.Scalar, to.Scalar
	if fs == ts && from.Kind == to.Kind {
		return v
	}
	tid := g.typeID(to, check.PackNone)
	if from.Kind == check.KMatrix {
		cols := make([]uint32, to.N)
		for i := range cols {
			c := g.b.EmitResult(spirv.OpCompositeExtract, g.typeID(from.Column(), check.PackNone), v, uint32(i))
			cols[i] = g.convert(c, from.Column(), to.Column(), pos)
		}
		return g.b.EmitResult(spirv.OpCompositeConstruct, tid, cols...)
	}
	switch {
	case fs == check.Bool:
		return g.b.EmitResult(spirv.OpSelect, tid, v, g.one(to), g.zero(to))
	case ts == check.Bool && fs.IsFloat():
		return g.b.EmitResult(spirv.OpFUnordNotEqual, tid, v, g.zero(from))
	case ts == check.Bool:
		return g.b.EmitResult(spirv.OpINotEqual, tid, v, g.zero(from))
	case fs.IsFloat() && ts.IsFloat():
		return g.b.EmitResult(spirv.OpFConvert, tid, v)
	case fs.IsInt() && ts.IsFloat():
		return g.b.EmitResult(pick(fs.IsSigned(), spirv.OpConvertSToF, spirv.OpConvertUToF), tid, v)
	case fs.IsFloat() && ts.IsInt():
		return g.b.EmitResult(pick(ts.IsSigned(), spirv.OpConvertFToS, spirv.OpConvertFToU), tid, v)
	case fs.IsInt() && ts.IsInt():
		if fs.Bits() == ts.Bits() {
			return g.b.EmitResult(spirv.OpBitcast, tid, v)
		}
		if fs.IsSigned() {
			return g.b.EmitResult(spirv.OpSConvert, tid, v)
		}
		mid := to.WithScalar(ts.ToUnsigned())
		u := g.b.EmitResult(spirv.OpUConvert, g.typeID(mid, check.PackNone), v)
		if ts.IsSigned() {
			return g.b.EmitResult(spirv.OpBitcast, tid, u)
		}
		return u
	}
	g.fail(pos, "conversion from %s to %s is not supported by the code generator", from, to)
	return 0
}

func (g *gen) length(e *check.Length) uint32 {
	xt := e.X.Type()
	var u uint32
	switch {
	case xt.IsCoopMat():
		op := spirv.OpCooperativeMatrixLengthKHR
		if xt.Kind == check.KCoopMatNV {
			op = spirv.OpCooperativeMatrixLengthNV
		}
		u = g.b.EmitResult(op, g.scalarType(check.Uint32), g.typeID(xt, check.PackNone))
	case xt.Kind == check.KCoopVec:
		u = g.dim(xt.Params[0])
	case xt.Kind == check.KArray:
		f, ok := e.X.(*check.Field)
		if !ok {
			g.fail(e.Pos, "length() of this array is not supported by the code generator")
		}
		var base *lval
		if f.X.Type().Kind == check.KReference {
			base = &lval{ptr: g.rvalue(f.X)}
		} else {
			base = g.lvalue(f.X)
		}
		if base.heap != nil {
			g.fail(e.Pos, "length() of an array in a descriptor heap is not supported by the code generator")
		}
		ut := g.scalarType(check.Uint32)
		if e.T.Scalar.Bits() == 64 {
			// length64() (GL_EXT_shader_64bit_indexing) asks for a 64-bit length.
			g.b.Capability(spirv.CapabilityShader64BitIndexingEXT)
			g.b.Extension("SPV_EXT_shader_64bit_indexing")
			ut = g.scalarType(check.Uint64)
		}
		u = g.b.EmitResult(spirv.OpArrayLength, ut, base.ptr, uint32(f.Index))
	default:
		g.fail(e.Pos, "length() of %s is not supported by the code generator", xt)
	}
	return g.b.EmitResult(spirv.OpBitcast, g.typeID(e.T, check.PackNone), u)
}

// describeSpec names a spec-constant expression node for error messages.
func describeSpec(e check.Expr) string {
	switch e := e.(type) {
	case *check.Binary:
		return "operator " + e.Op.String() + " on " + e.X.Type().String()
	case *check.Unary:
		return "unary operator on " + e.X.Type().String()
	case *check.Convert:
		return "conversion from " + e.X.Type().String() + " to " + e.T.String()
	}
	return strings.TrimPrefix(fmt.Sprintf("%T", e), "*check.")
}
