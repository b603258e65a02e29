package spirv

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/coopshader/coop/internal/fuzzwatch"
)

// buildCopyShader builds a small compute module: out[i] = in[i] + 1.
func buildCopyShader() *Module {
	b := NewBuilder(MakeVersion(1, 3), 0)
	b.Capability(CapabilityShader)
	glsl := b.ExtInstImport("GLSL.std.450")
	b.MemoryModel(AddressingModelLogical, MemoryModelGLSL450)
	void := b.TypeVoid()
	u32 := b.TypeInt(32, false)
	v3 := b.TypeVector(u32, 3)
	rt := b.NewType(OpTypeRuntimeArray, u32)
	st := b.NewType(OpTypeStruct, rt)
	pst := b.TypePointer(StorageClassStorageBuffer, st)
	buf := b.Variable(pst, StorageClassStorageBuffer)
	pin := b.TypePointer(StorageClassInput, v3)
	gid := b.Variable(pin, StorageClassInput)
	fnty := b.TypeFunction(void)
	b.Decorate(rt, DecorationArrayStride, 4)
	b.Decorate(st, DecorationBlock)
	b.MemberDecorate(st, 0, DecorationOffset, 0)
	b.Decorate(buf, DecorationDescriptorSet, 0)
	b.Decorate(buf, DecorationBinding, 0)
	b.Decorate(gid, DecorationBuiltIn, uint32(BuiltInGlobalInvocationId))
	fn := b.BeginFunction(void, FunctionControlNone, fnty)
	b.EntryPoint(ExecutionModelGLCompute, fn, "main", buf, gid)
	b.ExecutionMode(fn, ExecutionModeLocalSize, 64, 1, 1)
	b.Name(fn, "main")
	b.Label(b.ID())
	pu := b.TypePointer(StorageClassStorageBuffer, u32)
	pf := b.TypePointer(StorageClassFunction, u32)
	tmp := b.LocalVariable(pf)
	g := b.EmitResult(OpLoad, v3, gid)
	x := b.EmitResult(OpCompositeExtract, u32, g, 0)
	zero := b.ConstUint32(u32, 0)
	one := b.ConstUint32(u32, 1)
	p := b.EmitResult(OpAccessChain, pu, buf, zero, x)
	v := b.EmitResult(OpLoad, u32, p)
	s := b.EmitResult(OpIAdd, u32, v, one)
	m := b.EmitResult(OpExtInst, u32, glsl, GLSLstd450UMax, s, one)
	b.Emit(OpStore, tmp, m)
	b.Emit(OpStore, p, m)
	b.Emit(OpReturn)
	b.EndFunction()
	return b.Module()
}

func TestBuilderRoundTrip(t *testing.T) {
	m := buildCopyShader()
	bin, err := m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	m2, err := Decode(bin)
	if err != nil {
		t.Fatal(err)
	}
	bin2, _ := m2.Encode()
	if !bytes.Equal(bin, bin2) {
		t.Fatal("binary round trip differs")
	}
	l, err := m2.Layout()
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Capabilities) != 1 || len(l.Functions) != 1 || len(l.Functions[0].Blocks) != 1 || l.MemoryModel == nil {
		t.Fatalf("bad layout: %+v", l)
	}
	blk := l.Functions[0].Blocks[0]
	if blk.Insts[1].Op != OpVariable {
		t.Fatalf("local variable not first in block: %v", blk.Insts[1].Op)
	}
	if got := len(l.Annotations); got != 6 {
		t.Fatalf("annotations = %d", got)
	}
	// The uint32 type must be shared, not redeclared.
	n := 0
	for _, in := range l.Globals {
		if in.Op == OpTypeInt {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d OpTypeInt declarations", n)
	}
}

func TestBigEndianRoundTrip(t *testing.T) {
	bin, _ := buildCopyShader().Encode()
	be := make([]byte, len(bin))
	for i := 0; i < len(bin); i += 4 {
		binary.BigEndian.PutUint32(be[i:], binary.LittleEndian.Uint32(bin[i:]))
	}
	m, err := Decode(be)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := m.Encode()
	if !bytes.Equal(out, be) {
		t.Fatal("big-endian module not reproduced")
	}
}

func TestDecodeErrors(t *testing.T) {
	good, _ := buildCopyShader().Encode()
	patch := func(word int, v uint32) []byte {
		b := bytes.Clone(good)
		binary.LittleEndian.PutUint32(b[4*word:], v)
		return b
	}
	cases := []struct {
		name string
		in   []byte
		want string
	}{
		{"odd length", good[:len(good)-2], "not a whole number of words"},
		{"short", good[:12], "shorter than the 5-word header"},
		{"magic", patch(0, 0xdeadbeef), "word 0: invalid SPIR-V magic number 0xdeadbeef"},
		{"zero count", patch(5, 17), "word 5: instruction OpCapability has a word count of 0"},
		{"past end", patch(5, 0xffff0011), "runs past the end"},
		{"bad enum", patch(6, 0x7fffffff), "invalid Capability value"},
		{"truncated", good[:4*9], "word 7: instruction OpExtInstImport of 6 words runs past the end"},
	}
	for _, c := range cases {
		_, err := Decode(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
		// DecodeRaw checks everything but the operands.
		m, err := DecodeRaw(c.in)
		if c.name == "bad enum" {
			if err != nil || m.Insts[0].Words[0] != 0x7fffffff {
				t.Errorf("DecodeRaw %s: %v", c.name, err)
			}
		} else if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("DecodeRaw %s: got %v, want %q", c.name, err, c.want)
		}
	}
}

// TestDecodeRaw: DecodeRaw reads a valid module, in either byte order, as
// Decode does.
func TestDecodeRaw(t *testing.T) {
	m := buildCopyShader()
	le, _ := m.Encode()
	m.BigEndian = true
	be, _ := m.Encode()
	for _, b := range [][]byte{le, be} {
		want, err := Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeRaw(b)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("DecodeRaw = %+v, %v; Decode = %+v", got, err, want)
		}
	}
}

func TestUnknownOpcodeKept(t *testing.T) {
	m := buildCopyShader()
	m.Insts = append(m.Insts[:1], append([]Inst{{Op: 4000, Words: []uint32{1, 2}}}, m.Insts[1:]...)...)
	bin, _ := m.Encode()
	var warns []string
	m2, err := DecodeWarn(bin, func(w *Warning) { warns = append(warns, w.Error()) })
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], "unknown opcode 4000") {
		t.Fatalf("warnings = %v", warns)
	}
	if !reflect.DeepEqual(m2.Insts[1], Inst{Op: 4000, Words: []uint32{1, 2}}) {
		t.Fatalf("raw instruction lost: %+v", m2.Insts[1])
	}
}

func TestLayoutErrors(t *testing.T) {
	m := buildCopyShader()
	// Move the capability after the memory model.
	bad := &Module{Insts: append([]Inst{m.Insts[1], m.Insts[2]}, m.Insts[0])}
	if _, err := bad.Layout(); err == nil || !strings.Contains(err.Error(), "capability instruction after") {
		t.Fatalf("got %v", err)
	}
	// Drop the terminator.
	var insts []Inst
	for _, in := range m.Insts {
		if in.Op != OpReturn {
			insts = append(insts, in)
		}
	}
	if _, err := (&Module{Insts: insts}).Layout(); err == nil || !strings.Contains(err.Error(), "no terminator") {
		t.Fatalf("got %v", err)
	}
}

// OpLine before a function (between functions, as -g writes it) is part
// of no function and does not break the layout.
func TestLayoutLineBetweenFunctions(t *testing.T) {
	m := buildCopyShader()
	var insts []Inst
	for _, in := range m.Insts {
		if in.Op == OpFunction {
			insts = append(insts, Inst{Op: OpNoLine})
		}
		insts = append(insts, in)
	}
	l, err := (&Module{Insts: insts}).Layout()
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Functions) != 1 {
		t.Fatalf("%d functions", len(l.Functions))
	}
}

func TestGrammarTables(t *testing.T) {
	if OpCooperativeMatrixMulAddKHR.Desc().Name != "OpCooperativeMatrixMulAddKHR" {
		t.Fatal("coopmat muladd missing")
	}
	if op, ok := LookupOp("OpTypeCooperativeVectorNV"); !ok || op != OpTypeVectorIdEXT {
		t.Fatal("alias lookup failed")
	}
	for _, c := range []struct {
		k    OperandKind
		v    uint32
		name string
	}{
		{KindCapability, 5112, "Int4TypeINTEL"},
		{KindCapability, 5114, "Int4CooperativeMatrixINTEL"},
		{KindFPEncoding, 0, "BFloat16KHR"},
		{KindFPEncoding, 4214, "Float8E4M3EXT"},
		{KindTensorAddressingOperands, 2, "DecodeFunc"},
		{KindTensorAddressingOperands, 4, "DecodeVectorFunc"},
	} {
		e := c.k.Enumerant(c.v)
		if e == nil || e.Name != c.name {
			t.Errorf("%s %d = %v, want %s", c.k, c.v, e, c.name)
		}
	}
	if GLSLstd450Set.Lookup("FMix").Number != GLSLstd450FMix {
		t.Fatal("GLSL.std.450 table")
	}
	if v, tool, ok := GeneratorName(8 << 16); !ok || v != "Khronos" || tool != "Glslang Reference Front End" {
		t.Fatal("generator table")
	}
}

// TestOpLists: the generated opIndex, OpsOfClass and OpsWithOperand agree
// with the instruction descriptions.
func TestOpLists(t *testing.T) {
	for k := range instDescs {
		if d := &instDescs[k]; d.Op.Index() != k || d.Op.Desc() != d {
			t.Fatalf("%s: Index %d, want %d", d.Name, d.Op.Index(), k)
		}
	}
	known := 0
	for op := range maxOp + 2 {
		if Op(op).Index() >= 0 {
			known++
		}
	}
	if known != NumOps {
		t.Fatalf("%d opcodes have an index, want %d", known, NumOps)
	}
	classes, kinds := map[string][]Op{}, map[OperandKind][]Op{}
	for op := range Ops {
		d := op.Desc()
		classes[d.Class] = append(classes[d.Class], op)
		for k, o := range d.Operands {
			if !slices.ContainsFunc(d.Operands[:k], func(p OperandDesc) bool { return p.Kind == o.Kind }) {
				kinds[o.Kind] = append(kinds[o.Kind], op)
			}
		}
	}
	for c, ops := range classes {
		if !slices.Equal(OpsOfClass(c), ops) {
			t.Errorf("OpsOfClass(%q) = %v, want %v", c, OpsOfClass(c), ops)
		}
	}
	for k := range OperandKind(len(operandKinds)) {
		if !slices.Equal(OpsWithOperand(k), kinds[k]) {
			t.Errorf("OpsWithOperand(%s) = %v, want %v", k, OpsWithOperand(k), kinds[k])
		}
	}
	if OpsOfClass("no such class") != nil || OpsWithOperand(OperandKind(len(operandKinds))) != nil {
		t.Error("unknown class or kind has opcodes")
	}
}

func FuzzDecode(f *testing.F) {
	bin, _ := buildCopyShader().Encode()
	f.Add(bin)
	f.Fuzz(func(t *testing.T, data []byte) {
		defer fuzzwatch.Start()()
		m, err := Decode(data)
		if err != nil {
			return
		}
		out, err := m.Encode()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, data) {
			t.Fatal("round trip differs")
		}
		m.Layout()
	})
}

// bigModule repeats the body of the copy shader to make a module of about
// n bytes.
func bigModule(n int) []byte {
	m := buildCopyShader()
	l, _ := m.Layout()
	body := l.Functions[0].Blocks[0].Insts
	code := body[1 : len(body)-1]
	var insts []Inst
	i := 0
	for ; i < len(m.Insts) && m.Insts[i].Op != OpLabel; i++ {
	}
	insts = append(insts, m.Insts[:i+1]...)
	size := 0
	for size < n {
		for _, in := range code {
			insts = append(insts, in)
			size += 4 * (1 + len(in.Words))
		}
	}
	insts = append(insts, m.Insts[len(m.Insts)-2:]...)
	m.Insts = insts
	bin, _ := m.Encode()
	return bin
}

func BenchmarkDecode(b *testing.B) {
	bin := bigModule(8 << 20)
	b.SetBytes(int64(len(bin)))
	for b.Loop() {
		if _, err := Decode(bin); err != nil {
			b.Fatal(err)
		}
	}
}
