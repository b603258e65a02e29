// Package syntax parses preprocessed GLSL tokens into a syntax tree with a
// position on every node. It knows the grammar, not the meaning: type
// checking, qualifier rules and extension gating belong to glsl/check.
package syntax

import "github.com/coopshader/coop/glsl/token"

// Pos is a source position.
type Pos = token.Pos

// File is a parsed translation unit.
type File struct {
	Decls []Decl
}

// Decl is a top-level declaration: *VarDecl, *BlockDecl, *FuncDecl,
// *QualDecl or *PrecisionDecl.
type Decl interface{ declNode() }

// Qualifier is one qualifier word as written: a storage, memory,
// precision, interpolation or invariance qualifier ("const", "in",
// "buffer", "shared", "coherent", "readonly", "highp", "precise",
// "nonuniformEXT", ...), or "layout" with its items. The argument lists
// of the GL_EXT_spirv_intrinsics qualifiers (spirv_decorate(...), ...) are
// held in Layout too: positional arguments with an empty Name, and
// "extensions = [...]" / "capabilities = [...]" as an *InitList.
type Qualifier struct {
	Pos    Pos
	Name   string
	Layout []*LayoutItem // for "layout"
}

// LayoutItem is one entry of a layout(...) list. Value is nil when the
// entry has no "= value" (e.g. std430, row_major).
type LayoutItem struct {
	Pos   Pos
	Name  string // as written; glslang compares most names case-insensitively
	Value Expr
}

// TypeSpec is a type as written, with the qualifiers that precede it.
// Name is a type keyword ("float", "vec4", "float16_t", "coopmat",
// "fcoopmatNV", "coopvecNV", "tensorLayoutNV", "tensorViewNV", "vector",
// "void", ...) or a user type name (struct or buffer_reference block), or
// empty when Struct holds an inline struct definition.
type TypeSpec struct {
	Pos    Pos
	Quals  []*Qualifier
	Name   string
	Params []*TypeArg  // type parameters written in <...>
	Struct *StructType // inline "struct [Name] { ... }"
	// Block is an inline block type of a structured descriptor heap member
	// ("layout(buffer_reference) buffer { ... } name;"); Name is its
	// block name, if any.
	Block      *BlockDecl
	ArraySizes []*ArraySize // arrays written after the type: float[4]
	// Spirv holds the arguments of a spirv_type(...) specifier (Name
	// "spirv_type").
	Spirv *SpirvType
}

// TypeArg is one type parameter: a type (coopmat's component type,
// vector<T, N>'s T) or a constant expression (sizes, scopes, uses, clamp
// modes). Exactly one of Type and Expr is set.
type TypeArg struct {
	Type *TypeSpec
	Expr Expr
}

// ArraySize is one [] dimension; Size is nil for an unsized array.
type ArraySize struct {
	Pos  Pos
	Size Expr
}

// StructType is a struct definition.
type StructType struct {
	Pos     Pos
	Name    string // empty for an anonymous struct
	Members []*Member
}

// Member is one member declaration of a struct or block: a type and one
// or more declarators (float a, b[2];).
type Member struct {
	Type  *TypeSpec
	Names []*Declarator
}

// Declarator is a declared name with its own array dimensions and an
// optional initializer.
type Declarator struct {
	Pos        Pos
	Name       string
	ArraySizes []*ArraySize
	Init       Expr // nil when absent; *InitList for {...}
}

// VarDecl declares variables (or only a struct type when Names is empty):
// "const float a = 1.0, b;", "struct S { ... };", "shared float s[64];".
type VarDecl struct {
	Type  *TypeSpec
	Names []*Declarator
}

// BlockDecl declares an interface block:
// quals BlockName { members } [InstanceName [arrays]];
// Its qualifiers include the storage ("uniform", "buffer", "in", "out")
// and any layout; a buffer_reference block's BlockName is a type name.
type BlockDecl struct {
	Pos        Pos
	Quals      []*Qualifier
	BlockName  string
	Members    []*Member
	Instance   string // empty for an anonymous block
	InstPos    Pos
	ArraySizes []*ArraySize
}

// QualDecl is a declaration of qualifiers alone: default qualifiers
// ("layout(local_size_x = 32) in;", "layout(std430) buffer;"), qualifiers
// added to existing names ("invariant x;", "coherent buf;"), and forward
// declarations of buffer_reference blocks
// ("layout(buffer_reference) buffer Node;").
type QualDecl struct {
	Pos   Pos
	Quals []*Qualifier
	Names []*Ident
}

// PrecisionDecl is "precision highp float;".
type PrecisionDecl struct {
	Pos       Pos
	Precision string
	Type      *TypeSpec
}

// FuncDecl is a function prototype (Body nil) or definition.
type FuncDecl struct {
	Pos    Pos
	Result *TypeSpec // with its qualifiers
	Name   string
	Params []*Param
	Body   *BlockStmt
}

// Param is a function parameter. Name is empty for an unnamed parameter;
// "void" alone as a parameter list gives no Params.
type Param struct {
	Pos        Pos
	Type       *TypeSpec // its qualifiers hold in/out/inout/const and memory qualifiers
	Name       string
	ArraySizes []*ArraySize
}

func (*VarDecl) declNode()       {}
func (*BlockDecl) declNode()     {}
func (*QualDecl) declNode()      {}
func (*PrecisionDecl) declNode() {}
func (*FuncDecl) declNode()      {}

// Expr is an expression node.
type Expr interface{ Position() Pos }

// Ident is a name use.
type Ident struct {
	Pos  Pos
	Name string
}

// LitKind is the type a literal's spelling gives it.
type LitKind uint8

const (
	LitInt     LitKind = iota // 1, 0x1F, 017
	LitUint                   // 1u
	LitInt64                  // 1l, 1L
	LitUint64                 // 1ul, 1UL
	LitInt16                  // 1s
	LitUint16                 // 1us
	LitFloat                  // 1.0, 1.0f, 1e3
	LitDouble                 // 1.0lf, 1.0LF
	LitFloat16                // 1.0hf
	LitBool                   // true, false
)

// Lit is a literal. Int holds integer literals (the bit pattern, already
// checked to fit the literal's type), Float floating-point ones (as
// float64, rounded once from the decimal text), Bool booleans. Text is the
// spelling.
type Lit struct {
	Pos   Pos
	Kind  LitKind
	Text  string
	Int   uint64
	Float float64
	Bool  bool
	// Suffix is the literal's type suffix as written, lower-cased
	// ("u", "ul", "lf", "hf", "fe4m3", ...); empty when none.
	Suffix string
}

// StringLit is a string literal (debugPrintfEXT's format); Value has its
// escapes resolved.
type StringLit struct {
	Pos   Pos
	Value string
}

// Unary is a prefix or postfix operator: "-", "+", "!", "~", "++", "--".
type Unary struct {
	Pos     Pos
	Op      string
	Postfix bool // x++ / x--
	X       Expr
}

// Binary is a binary operator, "," (sequence) included:
// * / % + - << >> < > <= >= == != & ^ | && ^^ || ,
type Binary struct {
	Pos  Pos // the operator's position
	Op   string
	X, Y Expr
}

// Assign is "=" or a compound assignment ("+=", "<<=", ...).
type Assign struct {
	Pos  Pos // the operator's position
	Op   string
	L, R Expr
}

// Cond is c ? t : f.
type Cond struct {
	Pos     Pos
	C, T, F Expr
}

// Call is a function call or a constructor. For a call of a plain name,
// Func holds the name and Type is nil. When the callee is a type (a type
// keyword, a struct or buffer_reference name, a type with <...>
// parameters or [] dimensions), Type is set and Func is its Name.
type Call struct {
	Pos  Pos
	Func string
	Type *TypeSpec
	Args []Expr
}

// MethodCall is X.Name(Args), e.g. a.length().
type MethodCall struct {
	Pos  Pos
	X    Expr
	Name string
	Args []Expr
}

// Index is X[Index].
type Index struct {
	Pos      Pos
	X, Index Expr
}

// Field is X.Name: a member or a swizzle.
type Field struct {
	Pos  Pos // position of Name
	X    Expr
	Name string
}

// InitList is a braced initializer {a, b, ...}.
type InitList struct {
	Pos   Pos
	Elems []Expr
}

func (e *Ident) Position() Pos      { return e.Pos }
func (e *Lit) Position() Pos        { return e.Pos }
func (e *StringLit) Position() Pos  { return e.Pos }
func (e *Unary) Position() Pos      { return e.Pos }
func (e *Binary) Position() Pos     { return e.Pos }
func (e *Assign) Position() Pos     { return e.Pos }
func (e *Cond) Position() Pos       { return e.Pos }
func (e *Call) Position() Pos       { return e.Pos }
func (e *MethodCall) Position() Pos { return e.Pos }
func (e *Index) Position() Pos      { return e.Pos }
func (e *Field) Position() Pos      { return e.Pos }
func (e *InitList) Position() Pos   { return e.Pos }

// Stmt is a statement node.
type Stmt interface{ stmtNode() }

// Attribute is one [[name(args)]] of GL_EXT_control_flow_attributes.
type Attribute struct {
	Pos  Pos
	Name string
	Args []Expr
}

// BlockStmt is { Stmts }.
type BlockStmt struct {
	Pos   Pos
	Stmts []Stmt
	End   Pos // the closing brace (debug lines of a function's implicit return)
}

// DeclStmt is a local declaration.
type DeclStmt struct {
	Decl *VarDecl
}

// ExprStmt is an expression followed by ';'.
type ExprStmt struct {
	X Expr
}

// EmptyStmt is a lone ';'.
type EmptyStmt struct {
	Pos Pos
}

// IfStmt is if (Cond) Then [else Else].
type IfStmt struct {
	Pos   Pos
	Attrs []*Attribute
	Cond  Expr
	Then  Stmt
	Else  Stmt // nil when absent
}

// ForStmt is for (Init; Cond; Post) Body. Init is a *DeclStmt, an
// *ExprStmt or an *EmptyStmt; Cond and Post may be nil. CondDecl holds a
// condition written as a declaration ("int i = f()"), with Cond nil.
type ForStmt struct {
	Pos      Pos
	Attrs    []*Attribute
	Init     Stmt
	Cond     Expr
	CondDecl *VarDecl
	Post     Expr
	Body     Stmt
}

// WhileStmt is while (Cond) Body; CondDecl as in ForStmt.
type WhileStmt struct {
	Pos      Pos
	Attrs    []*Attribute
	Cond     Expr
	CondDecl *VarDecl
	Body     Stmt
}

// DoStmt is do Body while (Cond);.
type DoStmt struct {
	Pos   Pos
	Attrs []*Attribute
	Body  Stmt
	Cond  Expr
}

// SwitchStmt is switch (X) { Body }. Body holds the statements in order,
// with *CaseLabel statements marking "case e:" and "default:".
type SwitchStmt struct {
	Pos   Pos
	Attrs []*Attribute
	X     Expr
	Body  []Stmt
}

// CaseLabel is "case X:" or, with X nil, "default:".
type CaseLabel struct {
	Pos Pos
	X   Expr
}

// BranchStmt is break, continue, discard, terminateInvocation,
// demote or terminateRayEXT/ignoreIntersectionEXT-style jump keywords.
type BranchStmt struct {
	Pos  Pos
	Kind string
}

// PrecisionStmt is a default precision declaration inside a function
// body ("precision mediump float;"), which holds to the end of its block.
type PrecisionStmt struct {
	Decl *PrecisionDecl
}

// ReturnStmt is return [X];.
type ReturnStmt struct {
	Pos Pos
	X   Expr // nil for a bare return
}

func (*BlockStmt) stmtNode()     {}
func (*DeclStmt) stmtNode()      {}
func (*ExprStmt) stmtNode()      {}
func (*EmptyStmt) stmtNode()     {}
func (*IfStmt) stmtNode()        {}
func (*ForStmt) stmtNode()       {}
func (*WhileStmt) stmtNode()     {}
func (*DoStmt) stmtNode()        {}
func (*SwitchStmt) stmtNode()    {}
func (*CaseLabel) stmtNode()     {}
func (*BranchStmt) stmtNode()    {}
func (*ReturnStmt) stmtNode()    {}
func (*PrecisionStmt) stmtNode() {}
