// Package check type-checks a parsed GLSL compute shader and produces a fully
// typed tree for lowering to SPIR-V.
//
// Check(src, file, opts, diags) returns a *Program and adds its diagnostics
// to diags. When the checker reported no error the Program obeys these
// invariants, which glsl/lower may rely on:
//
//   - Every Expr has a non-nil Type (void only for calls of void functions).
//   - Implicit conversions are explicit *Convert nodes: operands of Binary
//     have the same component type; a scalar operand may stand beside a
//     vector, matrix or cooperative matrix/vector operand (lowering splats it
//     or uses the *TimesScalar instruction). Shifts keep each operand's own
//     integer type. Comparisons yield bool (or bvecN for the vector
//     relational built-ins).
//   - Buffer reference arithmetic (GL_EXT_buffer_reference2) is a Binary
//     with a reference operand: Add or Sub of a reference and an int64_t
//     (the reference's type; the int64_t may come first for Add), or Sub of
//     two references (int64_t). RefStride gives the step.
//   - Constant expressions are folded to *Const nodes. Expressions over
//     specialization constants stay as Unary/Binary/Convert/Cond/Construct
//     nodes whose leaves are *Const or *VarRef of a Var with SpecID >= 0 or a
//     const Var whose Init is itself such an expression; IsSpecConst reports
//     them, and lowering emits OpSpecConstantOp for them.
//   - Calls are *Call (user function) or *BuiltinCall (enum Builtin plus the
//     overload's parameter types); arguments are already converted to the
//     parameter types except out/inout parameters, which are l-values of the
//     exact type.
//   - Constructors are *Construct. Each argument is converted to the
//     constructed type's component type (keeping its own shape), so a vector
//     constructor's arguments are scalars and vectors of its component type.
//     A single scalar argument to a vector or cooperative type means
//     "replicate"; to a matrix it means "diagonal"; a single matrix argument
//     to a matrix means "resize". Struct and array constructors have one
//     argument per member/element, each of the exact type. Conversions of
//     whole values (e.g. vec3(ivec3), coopmat<float16_t,...>(coopmat<float,
//     ...>)) are *Convert nodes, never Construct.
//   - Texture sampling, fetch and gather calls have Roles naming each
//     argument (TexRole). Their texel offsets are constant except for
//     textureGatherOffset's, and a gather's component is a constant.
//   - nonuniformEXT(x) is the BuiltinCall BNonuniformEXT of type x's.
//   - String literals appear only as the first argument of the BuiltinCalls
//     BDebugPrintfEXT and BAbortEXT, as *StringConst (type KString). The
//     remaining arguments of those calls are scalars or vectors, unconverted
//     (Params holds their own types). abortEXT may also have no arguments.
//   - Anonymous block members are *Field of a *VarRef to the block Var.
//   - Local variables are declared by *DeclStmt; globals are in
//     Program.Globals (including built-in variables that are used).
package check

import "github.com/coopshader/coop/glsl/token"

// Pos is a source position (file, 1-based line and column).
type Pos = token.Pos

// Program is a checked compute shader.
type Program struct {
	Version    int  // #version number, e.g. 450
	ES         bool // "es" profile
	Extensions []string
	// LocalSize is the workgroup size (1 where not declared). LocalSizeSpec
	// holds the specialization constant ID given by local_size_*_id, or -1.
	LocalSize     [3]int
	LocalSizeSpec [3]int
	// DerivativeGroup is the compute-derivative layout
	// ("derivative_group_quadskhr", "derivative_group_linearnv", ...), or "".
	DerivativeGroup string
	// TileShadingRate is layout(shading_rate_*QCOM) of GL_QCOM_tile_shading
	// (all 0 where not declared).
	TileShadingRate [3]int
	// OpacityMicromap is gl_EnableOpacityMicromapEXT when the shader enables
	// GL_EXT_opacity_micromap_ray_query_mode (nil otherwise): a bool const
	// (false unless redeclared) or specialization constant, the operand of
	// the OpacityMicromapIdKHR execution mode. It is also in Globals.
	OpacityMicromap *Var
	// SpirvExecutionModes are spirv_execution_mode(_id) declarations.
	SpirvExecutionModes []*SpirvExecutionMode
	// OpacityMicromap2State: the shader names
	// gl_RayFlagsForceOpacityMicromap2StateEXT (GL_EXT_opacity_micromap),
	// whose ray flag needs the RayTracingOpacityMicromapEXT capability.
	OpacityMicromap2State bool
	// PrimitiveCulling: "layout(primitive_culling);" of
	// GL_EXT_ray_flags_primitive_culling.
	PrimitiveCulling bool
	// VulkanMemoryModel and StorageBuffer are "#pragma
	// use_vulkan_memory_model" and "#pragma use_storage_buffer".
	VulkanMemoryModel bool
	StorageBuffer     bool
	// VariablePointers, ReplicatedComposites, PromoteUint32Indices and
	// Shader64BitIndexing are "#pragma use_variable_pointers",
	// "use_replicated_composites", "promote_uint32_indices" and
	// "shader_64bit_indexing".
	VariablePointers, ReplicatedComposites, PromoteUint32Indices, Shader64BitIndexing bool
	// PragmaPos is where each of those pragmas stands.
	PragmaPos map[string]Pos
	Globals   []*Var  // global variables, constants and used built-ins, in order
	Funcs     []*Func // defined functions in definition order
	Main      *Func
}

// HasExtension reports whether the shader enabled (or required) ext.
func (p *Program) HasExtension(ext string) bool {
	for _, e := range p.Extensions {
		if e == ext {
			return true
		}
	}
	return false
}

// Storage is where a variable lives.
type Storage uint8

// Storage classes.
const (
	StorageFunction     Storage = iota // local variable
	StoragePrivate                     // global without qualifier
	StorageConst                       // const (folded or spec-constant expression)
	StorageSpecConst                   // layout(constant_id = N) const
	StorageIn                          // built-in inputs
	StorageUniform                     // uniform block, or opaque uniform
	StorageBuffer                      // buffer block
	StorageShared                      // shared
	StoragePushConstant                // layout(push_constant) uniform block
	StorageParam                       // function parameter
	// Structured descriptor heaps (GL_EXT_structured_descriptor_heap):
	// resourceheap and samplerheap blocks. Their Var.Layout.HeapOffset is
	// the heap_offset expression.
	StorageResourceHeap
	StorageSamplerHeap
)

var storageNames = [...]string{"temp", "global", "const", "specialization-constant", "in", "uniform", "buffer", "shared", "push_constant", "param", "resourceheap", "samplerheap"}

func (s Storage) String() string { return storageNames[s] }

// MemoryQual is a set of memory qualifiers.
type MemoryQual uint16

// Memory qualifiers.
const (
	Coherent MemoryQual = 1 << iota
	Volatile
	Restrict
	ReadOnly
	WriteOnly
	DeviceCoherent      // GL_KHR_memory_scope_semantics
	QueueFamilyCoherent // GL_KHR_memory_scope_semantics
	WorkgroupCoherent   // GL_KHR_memory_scope_semantics
	SubgroupCoherent    // GL_KHR_memory_scope_semantics
	NonPrivate          // GL_KHR_memory_scope_semantics
)

// ParamDir is a function parameter's direction.
type ParamDir uint8

// Parameter directions.
const (
	DirIn ParamDir = iota
	DirOut
	DirInOut
)

// Layout holds a variable's layout qualifiers (-1 where absent).
type Layout struct {
	Set, Binding, Location int
	Packing                Packing
	PushConstant           bool
	RowMajor               bool
	Format                 string // image format qualifier, e.g. "rgba8"
	// TileAttachment is layout(tile_attachmentQCOM) of an image: a tile
	// attachment of GL_QCOM_tile_shading.
	TileAttachment bool
	// HeapOffset is the heap_offset of a descriptor heap block: a constant,
	// a specialization-constant expression or any uint/int expression over
	// uniforms (nil: 0).
	HeapOffset Expr
	// DescriptorHeap is layout(descriptor_heap) on an array of buffer
	// blocks or opaque uniforms without set or binding: it is laid over the
	// resource (or, for samplers, sampler) heap (GL_EXT_descriptor_heap).
	// DescriptorStride is its descriptor_stride (0: the descriptor size).
	DescriptorHeap   bool
	DescriptorStride int
}

// Var is a variable, constant, parameter or built-in variable.
type Var struct {
	Name    string
	Type    *Type
	Storage Storage
	Pos     Pos
	Layout  Layout
	Memory  MemoryQual
	Dir     ParamDir // parameters
	// ConstParam marks a "const in" parameter.
	ConstParam bool
	// Value is the folded value of a const or spec-constant (its default).
	Value *Value
	// Init is a global's initializer: for consts defined by a spec-constant
	// expression, that expression; for private globals, the initializer.
	Init Expr
	// SpecID is the constant_id of a specialization constant, else -1.
	SpecID int
	// Builtin names the built-in variable (BuiltinNone for user variables).
	Builtin BuiltinVar
	// Anonymous marks a block declared without an instance name.
	Anonymous bool
	// Precise records the precise qualifier.
	Precise bool
	// SpirvDecorations and SpirvStorageClass come from GL_EXT_spirv_intrinsics
	// qualifiers; ByReference and Literal mark spirv_by_reference and
	// spirv_literal parameters of a spirv_instruction function.
	SpirvDecorations     []*SpirvDecoration
	SpirvStorageClass    *SpirvStorageClass
	ByReference, Literal bool
	// NonUniform records the nonuniformEXT qualifier: the variable's value
	// may differ between invocations (GL_EXT_nonuniform_qualifier).
	NonUniform bool

	// anonBlock and anonIndex locate the member of an anonymous block that
	// a member name stands for.
	anonBlock *Var
	anonIndex int
}

// Func is a user-defined function.
type Func struct {
	Name   string
	Params []*Var
	Result *Type
	Body   *Block // nil for a prototype never defined
	Pos    Pos
	End    Pos // the body's closing brace
	// Intrinsic is set for a spirv_instruction declaration: a call emits
	// the instruction, and the function has no body.
	Intrinsic *SpirvInstruction
}

// Expr is a typed expression.
type Expr interface {
	Type() *Type
	Position() Pos
}

type exprBase struct {
	T   *Type
	Pos Pos
}

func (e *exprBase) Type() *Type   { return e.T }
func (e *exprBase) Position() Pos { return e.Pos }

// Const is a folded constant.
type Const struct {
	exprBase
	Val *Value
}

// StringConst is a string literal: the format argument of debugPrintfEXT
// (GL_EXT_debug_printf) and abortEXT (GL_EXT_abort), and nowhere else. Text
// has the escapes resolved; its type is TString.
type StringConst struct {
	exprBase
	Text string
}

// VarRef names a variable.
type VarRef struct {
	exprBase
	Var *Var
}

// FuncRef names a function passed as an argument (decode and combine
// callbacks of the cooperative matrix built-ins). Its type is KFunction.
type FuncRef struct {
	exprBase
	Func *Func
}

// Index is X[Index] on an array, vector, matrix (a column), or cooperative
// matrix/vector (an element).
type Index struct {
	exprBase
	X, Index Expr
}

// Field selects member Index of a struct, block or buffer reference.
type Field struct {
	exprBase
	X     Expr
	Index int
	Name  string
}

// Swizzle selects vector components (or one component of a scalar, v.x).
type Swizzle struct {
	exprBase
	X     Expr
	Comps []int
}

// UnaryOp is a unary operator.
type UnaryOp uint8

// Unary operators.
const (
	Neg    UnaryOp = iota
	Not            // !
	BitNot         // ~
	PreInc
	PreDec
	PostInc
	PostDec
)

// Unary applies Op to X. Increments have X as their l-value operand.
type Unary struct {
	exprBase
	Op UnaryOp
	X  Expr
}

// BinaryOp is a binary operator.
type BinaryOp uint8

// Binary operators. Mul covers all products: component-wise, scalar times
// anything, and the linear-algebra products of matrices and vectors
// (lowering picks the instruction from the operand types).
const (
	Add BinaryOp = iota + 1
	Sub
	Mul
	Div
	Mod
	Shl
	Shr
	BitAnd
	BitOr
	BitXor
	LogAnd
	LogOr
	LogXor
	Eq
	Ne
	Lt
	Gt
	Le
	Ge
)

var binaryNames = [...]string{"", "+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "&&", "||", "^^", "==", "!=", "<", ">", "<=", ">="}

func (o BinaryOp) String() string { return binaryNames[o] }

// Binary is X Op Y.
type Binary struct {
	exprBase
	Op   BinaryOp
	X, Y Expr
}

// Assign is LHS = RHS (Op == 0) or LHS Op= RHS. For a compound assignment,
// RHS is converted as the operand of LHS Op RHS would be.
type Assign struct {
	exprBase
	Op       BinaryOp
	LHS, RHS Expr
}

// Cond is C ? X : Y.
type Cond struct {
	exprBase
	C, X, Y Expr
}

// Call calls a user function.
type Call struct {
	exprBase
	Func *Func
	Args []Expr
}

// BuiltinCall calls a built-in function. Params are the chosen overload's
// parameter types. Roles, set for the texture sampling, fetch and gather
// built-ins only, says what each argument is.
type BuiltinCall struct {
	exprBase
	Fn     Builtin
	Params []*Type
	Args   []Expr
	Roles  []TexRole
}

// TexRole is what an argument of a texture built-in is.
type TexRole uint8

// Texture argument roles.
const (
	TexSampler TexRole = iota // the sampler or texture
	TexCoord                  // P; projective forms carry q last, shadow forms the reference in P
	TexCompare                // a depth reference given on its own (cube-array shadows, shadow gathers)
	TexLod
	TexBias
	TexGradX
	TexGradY
	TexOffset
	TexOffsets // textureGatherOffsets' ivec2[4]
	TexSample  // the sample of a multisampled fetch
	TexComp    // the component a gather reads
	TexMinLod  // the level-of-detail clamp (GL_ARB_sparse_texture_clamp)
	TexTexel   // a sparse lookup's out argument receiving the texel (an l-value)
)

// Construct builds a value of type T from Args (see the package comment).
type Construct struct {
	exprBase
	Args []Expr
}

// Convert converts X to type T: a numeric or boolean conversion of each
// component, or a cooperative matrix/vector element-type conversion. For KHR
// cooperative matrices differing only in use (Accumulator to A/B) it is the
// use conversion.
type Convert struct {
	exprBase
	X Expr
}

// Length is X.length() where the length is not a compile-time constant: an
// unsized buffer array (OpArrayLength) or a cooperative matrix
// (OpCooperativeMatrixLengthKHR/NV, whose uint result glslang bitcasts to
// int). Its type is int, or int64_t for length64(). A cooperative matrix's
// length depends only on the type, so it counts as a specialization
// constant (IsSpecConst) and may size arrays. Constant lengths fold to
// Const; lengths of spec-constant sized arrays are the size expression.
type Length struct {
	exprBase
	X Expr
}

// NullInit is the null initializer "{}" (GL_EXT_null_initializer): the
// zero value of T, for a variable's initializer only.
type NullInit struct {
	exprBase
}

// Sequence is the comma operator: the value of the last expression.
type Sequence struct {
	exprBase
	List []Expr
}

// Stmt is a statement.
type Stmt interface{ stmt() }

// Block is { Stmts }.
type Block struct{ Stmts []Stmt }

// DeclStmt declares a local variable with optional initializer.
type DeclStmt struct {
	Var  *Var
	Init Expr
}

// ExprStmt evaluates X.
type ExprStmt struct{ X Expr }

// If is if (Cond) Then else Else (Else may be nil).
type If struct {
	Cond       Expr
	Then, Else Stmt
	Hints      SelectionHints
}

// For is for (Init; Cond; Post) Body; any of Init, Cond, Post may be nil.
type For struct {
	Init  Stmt
	Cond  Expr
	Post  Expr
	Body  Stmt
	Hints *LoopHints // nil without attributes
}

// While is while (Cond) Body.
type While struct {
	Cond  Expr
	Body  Stmt
	Hints *LoopHints
}

// DoWhile is do Body while (Cond).
type DoWhile struct {
	Body  Stmt
	Cond  Expr
	Hints *LoopHints
}

// Switch is switch (X) { Cases }; control falls through between cases.
type Switch struct {
	X     Expr
	Cases []*Case
	Hints SelectionHints
}

// Case is a run of labels followed by statements. Default marks "default:".
type Case struct {
	Values  []int64
	Default bool
	Body    []Stmt
}

// Break, Continue and Return are jumps. Return.X may be nil.
type (
	Break    struct{}
	Continue struct{}
	Return   struct{ X Expr }
)

// Terminate is terminateInvocation (or discard; not valid in compute but
// kept for completeness of the tree).
type Terminate struct{}

func (*Block) stmt()     {}
func (*DeclStmt) stmt()  {}
func (*ExprStmt) stmt()  {}
func (*If) stmt()        {}
func (*For) stmt()       {}
func (*While) stmt()     {}
func (*DoWhile) stmt()   {}
func (*Switch) stmt()    {}
func (*Break) stmt()     {}
func (*Continue) stmt()  {}
func (*Return) stmt()    {}
func (*Terminate) stmt() {}

// IsSpecConst reports whether e is a specialization-constant expression:
// built only from constants, specialization constants and operators, with at
// least one specialization constant (lowering emits OpSpecConstantOp).
func IsSpecConst(e Expr) bool {
	spec, ok := constKind(e)
	return ok && spec
}

// kernelOnly drops spec-constant operations OpSpecConstantOp cannot
// express in a shader (float arithmetic and conversions between floats and
// integers need the Kernel capability): like glslang, those are computed
// at run time, and are not constant expressions.
func kernelOnly(spec, ok, float bool) (bool, bool) {
	if spec && float {
		return false, false
	}
	return spec, ok
}

// constKind reports whether e is constant (ok) and whether it depends on a
// specialization constant (spec).
func constKind(e Expr) (spec, ok bool) {
	both := func(es ...Expr) (bool, bool) {
		s := false
		for _, x := range es {
			xs, xok := constKind(x)
			if !xok {
				return false, false
			}
			s = s || xs
		}
		return s, true
	}
	switch e := e.(type) {
	case *Const:
		return false, true
	case *VarRef:
		v := e.Var
		if v.SpecID >= 0 && v.Storage == StorageSpecConst {
			return true, true
		}
		if v.Storage == StorageConst && v.Init != nil {
			return constKind(v.Init)
		}
		if v.Builtin == BuiltinWorkGroupSize {
			return true, true
		}
		return false, false
	case *Unary:
		if e.Op >= PreInc {
			return false, false
		}
		spec, ok := constKind(e.X)
		return kernelOnly(spec, ok, e.X.Type().Scalar.IsFloat())
	case *Binary:
		spec, ok := both(e.X, e.Y)
		return kernelOnly(spec, ok, e.X.Type().Scalar.IsFloat())
	case *Convert:
		spec, ok := constKind(e.X)
		return kernelOnly(spec, ok, e.X.Type().Scalar.IsFloat() != e.T.Scalar.IsFloat())
	case *Cond:
		return both(e.C, e.X, e.Y)
	case *Construct:
		return both(e.Args...)
	case *Swizzle:
		return constKind(e.X)
	case *Index:
		return both(e.X, e.Index)
	case *Field:
		return constKind(e.X)
	case *Length:
		// The length of a cooperative matrix depends only on its type
		// (OpSpecConstantOp CooperativeMatrixLength).
		if e.X.Type().IsCoopMat() {
			return true, true
		}
	}
	return false, false
}
