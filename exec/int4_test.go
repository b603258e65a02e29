package exec

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/internal/reftool"
	"github.com/coopshader/coop/num"
	"github.com/coopshader/coop/spirv"
	"github.com/coopshader/coop/spirv/text"
	"github.com/coopshader/coop/validate"
)

// The expected values in these tests come from the specifications'
// formulas: SPV_INTEL_int4's memory layout (component 2k of a vector in
// bits 0-3 of byte k, component 2k+1 in bits 4-7), OpSConvert and
// OpUConvert as sign or zero extension and truncation to the low bits,
// conversions to floats as the exact value rounded once (num encodes it).

// int4Header declares what every test module here shares: the 4-bit types,
// a vector of two of them, the global invocation id and an entry point
// with LocalSize 8.
const int4Header = `
OpCapability Shader
OpCapability Int4TypeINTEL
OpCapability Int8
OpCapability Int16
OpCapability Int64
OpCapability Float16
OpCapability Float64
OpExtension "SPV_INTEL_int4"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid
OpExecutionMode %main LocalSize 8 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u32 = OpTypeInt 32 0
%v3u32 = OpTypeVector %u32 3
%pgid = OpTypePointer Input %v3u32
%gid = OpVariable %pgid Input
%i4 = OpTypeInt 4 1
%u4 = OpTypeInt 4 0
%v2i4 = OpTypeVector %i4 2
%v2u4 = OpTypeVector %u4 2
%c0 = OpConstant %u32 0
%c1 = OpConstant %u32 1
%c2 = OpConstant %u32 2
`

// int4Buffer declares storage buffer `name` at binding b: a block holding
// a runtime array of elem with the given stride.
func int4Buffer(name, elem string, stride, binding int) string {
	return fmt.Sprintf(`OpDecorate %%ra_%[1]s ArrayStride %[3]d
OpDecorate %%st_%[1]s Block
OpMemberDecorate %%st_%[1]s 0 Offset 0
OpDecorate %%%[1]s DescriptorSet 0
OpDecorate %%%[1]s Binding %[4]d
%%ra_%[1]s = OpTypeRuntimeArray %[2]s
%%st_%[1]s = OpTypeStruct %%ra_%[1]s
%%pst_%[1]s = OpTypePointer StorageBuffer %%st_%[1]s
%%%[1]s = OpVariable %%pst_%[1]s StorageBuffer
%%pe_%[1]s = OpTypePointer StorageBuffer %[2]s
`, name, elem, stride, binding)
}

// int4Module assembles header, declarations and a main body that starts
// with %x, the invocation's global x.
func int4Module(t *testing.T, decls, body string) []uint32 {
	t.Helper()
	return int4ModuleLocal(t, 8, decls, body)
}

// int4ModuleLocal is int4Module with a workgroup of local invocations.
func int4ModuleLocal(t *testing.T, local int, decls, body string) []uint32 {
	t.Helper()
	w, err := int4Asm(t, local, decls, body).Words()
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func int4Asm(t *testing.T, local int, decls, body string) *spirv.Module {
	t.Helper()
	src := strings.Replace(int4Header, "LocalSize 8 1 1", fmt.Sprintf("LocalSize %d 1 1", local), 1) + decls + `
%main = OpFunction %void None %fn
%entry = OpLabel
%g = OpLoad %v3u32 %gid
%x = OpCompositeExtract %u32 %g 0
` + body + `
OpReturn
OpFunctionEnd
`
	// Decorations must precede types: move OpDecorate lines up front.
	var deco, rest []string
	for _, line := range strings.Split(src, "\n") {
		if s := strings.TrimSpace(line); strings.HasPrefix(s, "OpDecorate") || strings.HasPrefix(s, "OpMemberDecorate") {
			deco = append(deco, line)
		} else {
			rest = append(rest, line)
		}
	}
	at := 0
	for i, line := range rest {
		if strings.Contains(line, "OpExecutionMode") {
			at = i + 1
		}
	}
	lines := append(append(append([]string{}, rest[:at]...), deco...), rest[at:]...)
	m, err := text.Assemble([]byte(strings.Join(lines, "\n")), "int4.spvasm")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func bytesBuf(t *testing.T, dev *Device, data []byte) backend.Buffer {
	t.Helper()
	b, err := dev.NewBuffer(len(data), backend.UsageStorage)
	if err != nil {
		t.Fatal(err)
	}
	copy(Bytes(b), data)
	return b
}

// allPatterns holds the 16 four-bit patterns as 8 packed pairs: byte k is
// patterns 2k (low half) and 2k+1 (high half).
func allPatterns() []byte {
	b := make([]byte, 8)
	for k := range b {
		b[k] = byte(2*k) | byte(2*k+1)<<4
	}
	return b
}

// scalarType describes a conversion's other side.
type scalarType struct {
	name, decl string
	size       int
	width      int  // integer width, 0 for floats
	signed     bool // of an integer
	fmt        num.Format
	float      int // 16, 32, 64 for the IEEE formats; 0 for others
}

var int4Partners = []scalarType{
	{name: "i8", decl: "OpTypeInt 8 1", size: 1, width: 8, signed: true},
	{name: "u8", decl: "OpTypeInt 8 0", size: 1, width: 8},
	{name: "i16", decl: "OpTypeInt 16 1", size: 2, width: 16, signed: true},
	{name: "u16", decl: "OpTypeInt 16 0", size: 2, width: 16},
	{name: "i32", decl: "OpTypeInt 32 1", size: 4, width: 32, signed: true},
	{name: "u32x", decl: "OpTypeInt 32 0", size: 4, width: 32},
	{name: "i64", decl: "OpTypeInt 64 1", size: 8, width: 64, signed: true},
	{name: "u64", decl: "OpTypeInt 64 0", size: 8, width: 64},
	{name: "f16", decl: "OpTypeFloat 16", size: 2, fmt: num.Float16, float: 16},
	{name: "f32", decl: "OpTypeFloat 32", size: 4, float: 32},
	{name: "f64", decl: "OpTypeFloat 64", size: 8, float: 64},
	{name: "bf16", decl: "OpTypeFloat 16 BFloat16KHR", size: 2, fmt: num.BFloat16},
	{name: "e4m3", decl: "OpTypeFloat 8 Float8E4M3EXT", size: 1, fmt: num.E4M3},
	{name: "e5m2", decl: "OpTypeFloat 8 Float8E5M2EXT", size: 1, fmt: num.E5M2},
}

func (st scalarType) get(b []byte) uint64 {
	var w [8]byte
	copy(w[:], b[:st.size])
	return binary.LittleEndian.Uint64(w[:])
}

// encodeF is x (exact in float64) rounded once to the float type st.
func (st scalarType) encodeF(x float64) uint64 {
	switch st.float {
	case 32:
		return uint64(math.Float32bits(float32(x)))
	case 64:
		return math.Float64bits(x)
	}
	return st.fmt.Encode(x, num.NearestEven, false)
}

// TestInt4ConvertFrom converts every 4-bit pattern, as signed and as
// unsigned, to every integer width and float format.
func TestInt4ConvertFrom(t *testing.T) {
	dev := New(Options{})
	for _, st := range int4Partners {
		ops := []string{"OpSConvert", "OpUConvert"}
		if st.width == 0 {
			ops = []string{"OpConvertSToF", "OpConvertUToF"}
		}
		for _, op := range ops {
			for _, src := range []string{"v2i4", "v2u4"} {
				decls := "%T = " + st.decl + "\n" + int4Buffer("in", "%"+src, 1, 0) + int4Buffer("out", "%T", st.size, 1)
				body := fmt.Sprintf(`%%p = OpAccessChain %%pe_in %%in %%c0 %%x
%%v = OpLoad %%%[1]s %%p
%%e0 = OpCompositeExtract %%%[2]s %%v 0
%%e1 = OpCompositeExtract %%%[2]s %%v 1
%%r0 = %[3]s %%T %%e0
%%r1 = %[3]s %%T %%e1
%%x2 = OpIMul %%u32 %%x %%c2
%%x21 = OpIAdd %%u32 %%x2 %%c1
%%q0 = OpAccessChain %%pe_out %%out %%c0 %%x2
%%q1 = OpAccessChain %%pe_out %%out %%c0 %%x21
OpStore %%q0 %%r0
OpStore %%q1 %%r1
`, src, src[2:], op)
				code := int4Module(t, decls, body)
				in := bytesBuf(t, dev, allPatterns())
				out := bytesBuf(t, dev, make([]byte, 16*st.size))
				mustRun(t, dev, code, 1, in, out)
				for p := range 16 {
					v := int64(p) // zero extension
					if op == "OpSConvert" || op == "OpConvertSToF" {
						v = int64(p<<60) >> 60
					}
					var want uint64
					if st.width != 0 {
						want = uint64(v) & mask(st.width)
					} else {
						want = st.encodeF(float64(v))
					}
					if got := st.get(Bytes(out)[p*st.size:]); got != want {
						t.Errorf("%s %s %s of %#x = %#x, want %#x", op, src, st.name, p, got, want)
					}
				}
			}
		}
	}
}

// TestInt4ConvertTo converts values of every integer width to 4 bits
// (truncation), saturating conversions, and floats to 4-bit integers.
func TestInt4ConvertTo(t *testing.T) {
	dev := New(Options{})
	for _, st := range int4Partners {
		type conv struct {
			op   string
			dst  string
			want func(v uint64) uint64
		}
		var convs []conv
		var vals []uint64
		if st.width != 0 {
			trunc := func(v uint64) uint64 { return v & 0xf }
			convs = []conv{{"OpSConvert", "i4", trunc}, {"OpUConvert", "u4", trunc}}
			if st.signed {
				convs = append(convs, conv{"OpSatConvertSToU", "u4", func(v uint64) uint64 {
					s := sext(v, st.width)
					return uint64(min(max(s, 0), 15))
				}})
			} else {
				convs = append(convs, conv{"OpSatConvertUToS", "i4", func(v uint64) uint64 { return min(v&mask(st.width), 7) }})
			}
			// Every 4-bit pattern in the low bits, under several high parts.
			for _, hi := range []uint64{0, 0x10, 0xf0, 0xa5a5a5a5a5a5a5a0, ^uint64(0xf)} {
				for p := range uint64(16) {
					vals = append(vals, (hi|p)&mask(st.width))
				}
			}
		} else {
			sat := func(lo, hi float64) func(uint64) uint64 {
				return func(v uint64) uint64 {
					x := toF64(v, st.ff())
					switch {
					case x != x:
						return 0
					case x <= lo:
						return uint64(int64(lo)) & 0xf
					case x >= hi:
						return uint64(int64(hi)) & 0xf
					}
					return uint64(int64(math.Trunc(x))) & 0xf
				}
			}
			convs = []conv{{"OpConvertFToS", "i4", sat(-8, 7)}, {"OpConvertFToU", "u4", sat(0, 15)}}
			for _, x := range []float64{0, -0.5, 0.75, 1, 2.5, 3, -3.5, 6, 7, 7.9, 8, 12, 15, 15.5, 16, 100, -7, -8, -8.5, -9, -100, math.Inf(1), math.Inf(-1), math.NaN()} {
				vals = append(vals, st.encodeF(x))
			}
		}
		for _, c := range convs {
			decls := "%T = " + st.decl + "\n" + int4Buffer("in", "%T", st.size, 0) + int4Buffer("out", "%v2"+c.dst, 1, 1)
			body := fmt.Sprintf(`%%x2 = OpIMul %%u32 %%x %%c2
%%x21 = OpIAdd %%u32 %%x2 %%c1
%%p0 = OpAccessChain %%pe_in %%in %%c0 %%x2
%%p1 = OpAccessChain %%pe_in %%in %%c0 %%x21
%%a = OpLoad %%T %%p0
%%b = OpLoad %%T %%p1
%%r0 = %[1]s %%%[2]s %%a
%%r1 = %[1]s %%%[2]s %%b
%%v = OpCompositeConstruct %%v2%[2]s %%r0 %%r1
%%q = OpAccessChain %%pe_out %%out %%c0 %%x
OpStore %%q %%v
`, c.op, c.dst)
			code := int4Module(t, decls, body)
			n := (len(vals) + 15) / 16 * 16
			data := make([]byte, n*st.size)
			for k, v := range vals {
				var w [8]byte
				binary.LittleEndian.PutUint64(w[:], v)
				copy(data[k*st.size:], w[:st.size])
			}
			in := bytesBuf(t, dev, data)
			out := bytesBuf(t, dev, make([]byte, n/2))
			mustRun(t, dev, code, uint32(n/16), in, out)
			for k, v := range vals {
				got := uint64(Bytes(out)[k/2]>>(4*(k%2))) & 0xf
				if want := c.want(v); got != want {
					t.Errorf("%s %s %#x to %s = %#x, want %#x", c.op, st.name, v, c.dst, got, want)
				}
			}
		}
	}
}

// ff is the executor's float format of a float partner type.
func (st scalarType) ff() ffmt {
	switch {
	case st.float == 16:
		return f16
	case st.float == 32:
		return f32
	case st.float == 64:
		return f64
	case st.fmt == num.BFloat16:
		return bf16
	case st.fmt == num.E4M3:
		return e4m3
	}
	return e5m2
}

// TestInt4PackedPairs loads every byte as a pair of 4-bit integers and
// stores every pair back: component 0 is bits 0-3, component 1 bits 4-7.
func TestInt4PackedPairs(t *testing.T) {
	dev := New(Options{})
	decls := "%u8 = OpTypeInt 8 0\n%c255 = OpConstant %u32 255\n" + int4Buffer("in", "%v2i4", 1, 0) +
		int4Buffer("comp", "%u32", 4, 1) + int4Buffer("out", "%v2u4", 1, 2) + int4Buffer("cast", "%u8", 1, 3)
	body := `%p = OpAccessChain %pe_in %in %c0 %x
%v = OpLoad %v2i4 %p
%e0 = OpCompositeExtract %i4 %v 0
%e1 = OpCompositeExtract %i4 %v 1
%w0 = OpUConvert %u32 %e0
%w1 = OpUConvert %u32 %e1
%x2 = OpIMul %u32 %x %c2
%x21 = OpIAdd %u32 %x2 %c1
%q0 = OpAccessChain %pe_comp %comp %c0 %x2
%q1 = OpAccessChain %pe_comp %comp %c0 %x21
OpStore %q0 %w0
OpStore %q1 %w1
%n0 = OpUConvert %u4 %w0
%n1 = OpUConvert %u4 %w1
%nv = OpCompositeConstruct %v2u4 %n0 %n1
%rx = OpISub %u32 %c255 %x
%o = OpAccessChain %pe_out %out %c0 %rx
OpStore %o %nv
%bc = OpBitcast %u8 %v
%cp = OpAccessChain %pe_cast %cast %c0 %x
OpStore %cp %bc
`
	code := int4Module(t, decls, body)
	all := make([]byte, 256)
	for k := range all {
		all[k] = byte(k)
	}
	in := bytesBuf(t, dev, all)
	comp := bytesBuf(t, dev, make([]byte, 4*512))
	out := bytesBuf(t, dev, make([]byte, 256))
	cast := bytesBuf(t, dev, make([]byte, 256))
	mustRun(t, dev, code, 32, in, comp, out, cast)
	c := u32s(comp)
	for b := range 256 {
		if c[2*b] != uint32(b&0xf) || c[2*b+1] != uint32(b>>4) {
			t.Errorf("byte %#02x loads as (%#x, %#x), want (%#x, %#x)", b, c[2*b], c[2*b+1], b&0xf, b>>4)
		}
		if got := Bytes(out)[255-b]; got != byte(b) {
			t.Errorf("pair (%#x, %#x) stores as %#02x, want %#02x", b&0xf, b>>4, got, b)
		}
		if got := Bytes(cast)[b]; got != byte(b) {
			t.Errorf("bitcast of pair %#02x to uint8 = %#02x", b, got)
		}
	}
}

// TestInt4Memory covers wider vectors in a struct with explicit offsets
// (neighbouring bytes untouched, odd counts keep the last high half),
// bitcasts between vectors of 4-bit integers and wider integers and fp4,
// constants, OpSelect and Function variables.
func TestInt4Memory(t *testing.T) {
	dev := New(Options{})
	decls := `OpMemberDecorate %S 0 Offset 0
OpMemberDecorate %S 1 Offset 4
OpMemberDecorate %S 2 Offset 8
OpMemberDecorate %S 3 Offset 12
OpDecorate %S Block
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%bool = OpTypeBool
%u8 = OpTypeInt 8 0
%u16 = OpTypeInt 16 0
%fp4 = OpTypeFloat 4 Float4E2M1EXT
%v4i4 = OpTypeVector %i4 4
%v8i4 = OpTypeVector %i4 8
%v3i4 = OpTypeVector %i4 3
%S = OpTypeStruct %v8i4 %v4i4 %v3i4 %u32
%pS = OpTypePointer StorageBuffer %S
%buf = OpVariable %pS StorageBuffer
%pv8 = OpTypePointer StorageBuffer %v8i4
%pv4 = OpTypePointer StorageBuffer %v4i4
%pv3 = OpTypePointer StorageBuffer %v3i4
%pu32 = OpTypePointer StorageBuffer %u32
%c3 = OpConstant %u32 3
%im3 = OpConstant %i4 -3
%i7 = OpConstant %i4 7
%i5 = OpConstant %i4 5
%u9 = OpConstant %u4 9
%cv3 = OpConstantComposite %v3i4 %im3 %i7 %i5
%true = OpConstantTrue %bool
%false = OpConstantFalse %bool
%arr = OpTypeArray %i4 %c3
%parr = OpTypePointer Function %arr
%pfi4 = OpTypePointer Function %i4
`
	body := `%loc = OpVariable %parr Function
%p8 = OpAccessChain %pv8 %buf %c0
%v8 = OpLoad %v8i4 %p8
%w = OpBitcast %u32 %v8
%shuf = OpVectorShuffle %v8i4 %v8 %v8 7 6 5 4 3 2 1 0
OpStore %p8 %shuf
%p4 = OpAccessChain %pv4 %buf %c1
%v4 = OpLoad %v4i4 %p4
%h = OpBitcast %u16 %v4
%hv = OpBitcast %v4i4 %h
%sel = OpSelect %v4i4 %false %v4 %hv
%ins = OpCompositeInsert %v4i4 %im3 %sel 2
OpStore %p4 %ins
%p3 = OpAccessChain %pv3 %buf %c2
%old3 = OpLoad %v3i4 %p3
%e = OpCompositeExtract %i4 %old3 1
%f = OpBitcast %fp4 %e
%back = OpBitcast %i4 %f
%l0 = OpAccessChain %pfi4 %loc %c0
%l2 = OpAccessChain %pfi4 %loc %c2
OpStore %l0 %back
OpStore %l2 %im3
%xi = OpBitwiseAnd %u32 %w %c2
%ld = OpAccessChain %pfi4 %loc %xi
%got = OpLoad %i4 %ld
%nv3 = OpCompositeInsert %v3i4 %got %cv3 0
OpStore %p3 %nv3
%u = OpUConvert %u32 %u9
%wsum = OpIAdd %u32 %w %u
%p32 = OpAccessChain %pu32 %buf %c3
OpStore %p32 %wsum
`
	code := int4ModuleLocal(t, 1, decls, body)
	data := []byte{0x10, 0x32, 0x54, 0x76, 0xba, 0xdc, 0xee, 0xee, 0x21, 0xf3, 0xee, 0xee, 0, 0, 0, 0}
	buf := bytesBuf(t, dev, data)
	mustRun(t, dev, code, 1, buf)
	want := []byte{
		0x67, 0x45, 0x23, 0x01, // reversed components
		0xba, 0xd0 | 0xd, 0xee, 0xee, // component 2 set to -3 (0xd)
		// loc[w&2] = loc[0] = component 1 of the old vec3 (2), then 7, 5.
		0x72, 0xf5, 0xee, 0xee, // the high half of byte 9 kept
		0, 0, 0, 0,
	}
	binary.LittleEndian.PutUint32(want[12:], 0x76543210+9)
	if got := Bytes(buf); string(got) != string(want) {
		t.Errorf("memory % x\nwant   % x", got, want)
	}
}

// int4CoopAsm multiplies a 16x32 matrix A of 4-bit integers (row-major,
// 16 bytes a row) by a 32x16 matrix B (column-major, 16 bytes a column)
// into a zero 32-bit accumulator with the given MatrixOperands, and stores
// the result and A converted to 32 bits (SConvert, or UConvert when A is
// unsigned) row-major. It also stores A back, packed, at bytes 512-767,
// and A converted to 32 bits and back to 4, column-major (8 bytes a
// column), at bytes 768-1023.
const int4CoopAsm = `
OpCapability Shader
OpCapability Int8
OpCapability Int4TypeINTEL
OpCapability CooperativeMatrixKHR
OpCapability Int4CooperativeMatrixINTEL
OpCapability VulkanMemoryModel
OpExtension "SPV_INTEL_int4"
OpExtension "SPV_KHR_cooperative_matrix"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main" %in %out
OpExecutionMode %main LocalSize 32 1 1
OpDecorate %rau8 ArrayStride 1
OpDecorate %Sin Block
OpMemberDecorate %Sin 0 Offset 0
OpDecorate %in DescriptorSet 0
OpDecorate %in Binding 0
OpDecorate %rai32 ArrayStride 4
OpDecorate %Sout Block
OpMemberDecorate %Sout 0 Offset 0
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u32 = OpTypeInt 32 0
%i32 = OpTypeInt 32 1
%u8 = OpTypeInt 8 0
%i4 = OpTypeInt 4 1
%c0 = OpConstant %u32 0
%c1 = OpConstant %u32 1
%c2 = OpConstant %u32 2
%c3 = OpConstant %u32 3
%c16 = OpConstant %u32 16
%c32 = OpConstant %u32 32
%c256 = OpConstant %u32 256
%c512 = OpConstant %u32 512
%c768 = OpConstant %u32 768
%c8 = OpConstant %u32 8
%i0 = OpConstant %i32 0
%rau8 = OpTypeRuntimeArray %u8
%Sin = OpTypeStruct %rau8
%pSin = OpTypePointer StorageBuffer %Sin
%in = OpVariable %pSin StorageBuffer
%pu8 = OpTypePointer StorageBuffer %u8
%rai32 = OpTypeRuntimeArray %i32
%Sout = OpTypeStruct %rai32
%pSout = OpTypePointer StorageBuffer %Sout
%out = OpVariable %pSout StorageBuffer
%pi32 = OpTypePointer StorageBuffer %i32
%A = OpTypeCooperativeMatrixKHR %i4 %c3 %c16 %c32 %c0
%B = OpTypeCooperativeMatrixKHR %i4 %c3 %c32 %c16 %c1
%C = OpTypeCooperativeMatrixKHR %i32 %c3 %c16 %c16 %c2
%A32 = OpTypeCooperativeMatrixKHR %i32 %c3 %c16 %c32 %c0
%zero = OpConstantComposite %C %i0
%main = OpFunction %void None %fn
%entry = OpLabel
%pa = OpAccessChain %pu8 %in %c0 %c0
%a = OpCooperativeMatrixLoadKHR %A %pa %c0 %c16
%pb = OpAccessChain %pu8 %in %c0 %c256
%b = OpCooperativeMatrixLoadKHR %B %pb %c1 %c16
%d = OpCooperativeMatrixMulAddKHR %C %a %b %zero OPERANDS
%po = OpAccessChain %pi32 %out %c0 %c0
OpCooperativeMatrixStoreKHR %po %d %c0 %c16
%a32 = CONVERT %A32 %a
%pc = OpAccessChain %pi32 %out %c0 %c256
OpCooperativeMatrixStoreKHR %pc %a32 %c0 %c32
%pw = OpAccessChain %pu8 %in %c0 %c512
OpCooperativeMatrixStoreKHR %pw %a %c0 %c16
%back = CONVERT %A %a32
%pv = OpAccessChain %pu8 %in %c0 %c768
OpCooperativeMatrixStoreKHR %pv %back %c1 %c8
OpReturn
OpFunctionEnd
`

// TestInt4CoopMatMulAdd checks an int4 cooperative-matrix multiply-add of
// 16x16x32 tiles against a plain Go product for every signedness of A and
// B, and the packed loads, stores and conversions around it.
func TestInt4CoopMatMulAdd(t *testing.T) {
	dev := New(Options{})
	data := make([]byte, 1024)
	seed := uint32(12345)
	for k := range 512 {
		seed = seed*1664525 + 1013904223
		data[k] = byte(seed >> 24)
	}
	// Element (r, c) of A is nibble c of row r; element (k, j) of B is
	// nibble k of column j.
	nib := func(b []byte, i int) int64 { return int64(b[i/2]>>(4*(i%2))) & 0xf }
	ext := func(v int64, signed bool) int64 {
		if signed && v >= 8 {
			return v - 16
		}
		return v
	}
	for _, sa := range []bool{false, true} {
		for _, sb := range []bool{false, true} {
			ops := []string{"MatrixCSignedComponentsKHR", "MatrixResultSignedComponentsKHR"}
			if sa {
				ops = append(ops, "MatrixASignedComponentsKHR")
			}
			if sb {
				ops = append(ops, "MatrixBSignedComponentsKHR")
			}
			conv := "OpUConvert"
			if sa {
				conv = "OpSConvert"
			}
			asm := strings.NewReplacer("OPERANDS", strings.Join(ops, "|"), "CONVERT", conv).Replace(int4CoopAsm)
			m, err := text.Assemble([]byte(asm), "coop.spvasm")
			if err != nil {
				t.Fatal(err)
			}
			code, _ := m.Words()
			in := bytesBuf(t, dev, data)
			out := bytesBuf(t, dev, make([]byte, 4*(256+512)))
			mustRun(t, dev, code, 1, in, out)
			got := u32s(out)
			for i := range 16 {
				for j := range 16 {
					sum := int64(0)
					for k := range 32 {
						sum += ext(nib(data[16*i:], k), sa) * ext(nib(data[256+16*j:], k), sb)
					}
					if int32(got[16*i+j]) != int32(sum) {
						t.Errorf("signed A %v, B %v: D[%d][%d] = %d, want %d", sa, sb, i, j, int32(got[16*i+j]), sum)
					}
				}
				for c := range 32 {
					if want := ext(nib(data[16*i:], c), sa); int32(got[256+32*i+c]) != int32(want) {
						t.Errorf("signed %v: A[%d][%d] converts to %d, want %d", sa, i, c, int32(got[256+32*i+c]), want)
					}
				}
			}
			if back := Bytes(in)[512:768]; string(back) != string(data[:256]) {
				t.Errorf("A stored back as % x\nwant % x", back, data[:256])
			}
			col := Bytes(in)[768:]
			for i := range 16 {
				for c := range 32 {
					if got, want := nib(col[8*c:], i), nib(data[16*i:], c); got != want {
						t.Fatalf("A[%d][%d] converted twice and stored column-major = %#x, want %#x", i, c, got, want)
					}
				}
			}
		}
	}
}

// TestInt4Refused checks what SPV_INTEL_int4 forbids or the executor
// cannot address: arithmetic on 4-bit integers, and access chains to one
// component of a packed vector.
func TestInt4Refused(t *testing.T) {
	cases := []struct {
		decls, body, want string
		unsupported       bool
	}{
		{"%a = OpConstant %i4 3\n", "%s = OpIAdd %i4 %a %a\n", "OpIAdd cannot take 4-bit integers", false},
		{"%a = OpConstant %i4 3\n%bool = OpTypeBool\n", "%s = OpIEqual %bool %a %a\n", "OpIEqual cannot take 4-bit integers", false},
		{int4Buffer("buf", "%v2i4", 1, 0) + "%pi4 = OpTypePointer StorageBuffer %i4\n",
			"%p = OpAccessChain %pi4 %buf %c0 %x %c1\n%v = OpLoad %i4 %p\n", "a pair, packed in a byte, is the smallest addressable unit", false},
	}
	for _, c := range cases {
		m := int4Asm(t, 8, c.decls, c.body)
		_, err := Load(m, "main", nil, 32)
		if err == nil || !strings.Contains(err.Error(), c.want) || errors.Is(err, ErrUnsupported) != c.unsupported {
			t.Errorf("%q: error %v, want one saying %q (unsupported %v)", c.body, err, c.want, c.unsupported)
		}
	}
}

// int4Components declares what TestInt4ComponentPointers uses: vectors
// of eight 4-bit integers in a buffer and a Function variable, four in a
// Private one, pointers to one component of each.
var int4Components = `%u16 = OpTypeInt 16 0
%c3 = OpConstant %u32 3
%c7 = OpConstant %u32 7
%c8 = OpConstant %u32 8
%v8i4 = OpTypeVector %i4 8
%v4i4 = OpTypeVector %i4 4
%null4 = OpConstantNull %v4i4
%pfv8 = OpTypePointer Function %v8i4
%pfi4 = OpTypePointer Function %i4
%ppv4 = OpTypePointer Private %v4i4
%ppi4 = OpTypePointer Private %i4
%priv = OpVariable %ppv4 Private
` + int4Buffer("buf", "%v8i4", 4, 0) + int4Buffer("out", "%u32", 4, 1)

// TestInt4ComponentPointers: SPV_INTEL_int4 allows 4-bit scalars in
// Function and Private memory, so an access chain may select one
// component of a vector there (here by a run-time index); loads, stores
// and OpCopyMemory through it touch only that half of its byte.
func TestInt4ComponentPointers(t *testing.T) {
	body := `%fv = OpVariable %pfv8 Function
%pb = OpAccessChain %pe_buf %buf %c0 %x
%v = OpLoad %v8i4 %pb
OpStore %fv %v
%px = OpAccessChain %pfi4 %fv %x
%e = OpLoad %i4 %px
%y = OpISub %u32 %c7 %x
%py = OpInBoundsAccessChain %pfi4 %fv %y
%ey = OpLoad %i4 %py
OpStore %px %ey
OpStore %py %e
%x3 = OpBitwiseAnd %u32 %x %c3
%pp = OpAccessChain %ppi4 %priv %x3
OpStore %priv %null4
OpCopyMemory %pp %px
%pv4 = OpLoad %v4i4 %priv
%w = OpLoad %v8i4 %fv
OpStore %pb %w
%po = OpAccessChain %pe_out %out %c0 %x
%bits = OpBitcast %u16 %pv4
%b32 = OpUConvert %u32 %bits
OpStore %po %b32
`
	dev := New(Options{})
	in := make([]byte, 32)
	for i := range in {
		in[i] = byte(i*0x47 + 0x1d)
	}
	buf, out := bytesBuf(t, dev, in), bytesBuf(t, dev, make([]byte, 32))
	mustRun(t, dev, int4Module(t, int4Components, body), 1, buf, out)
	nib := func(b []byte, k int) byte { return b[k/2] >> (4 * (k % 2)) & 0xf }
	for x := range 8 {
		v := in[4*x:]
		want := make([]byte, 4)
		for k := range 8 {
			src := k
			if k == x || k == 7-x {
				src = 7 - k
			}
			want[k/2] |= nib(v, src) << (4 * (k % 2))
		}
		if got := Bytes(buf)[4*x:][:4]; !bytes.Equal(got, want) {
			t.Errorf("invocation %d: vector % x, want % x", x, got, want)
		}
		wp := uint32(nib(v, 7-x)) << (4 * (x & 3))
		if got := binary.LittleEndian.Uint32(Bytes(out)[4*x:]); got != wp {
			t.Errorf("invocation %d: Private vector %#04x, want %#04x", x, got, wp)
		}
	}
	bad := "%fv = OpVariable %pfv8 Function\n%p = OpAccessChain %pfi4 %fv %c8\n%e = OpLoad %i4 %p\n"
	err := run(t, dev, int4Module(t, int4Components, bad), 1, buf, out)
	if err == nil || !strings.Contains(err.Error(), "index 8 out of range for 8 elements") || !strings.Contains(err.Error(), "OpAccessChain") {
		t.Errorf("component 8 of 8: %v", err)
	}
}

// TestInt4HandWritten runs testdata/int4_pairs.spvasm, a hand-written
// module with 4-bit pairs in storage buffers, checks its results, and
// checks that it round-trips through coop's assembler and disassembler
// as through spirv-as and spirv-dis (compared when they are installed).
func TestInt4HandWritten(t *testing.T) {
	src, err := os.ReadFile("testdata/int4_pairs.spvasm")
	if err != nil {
		t.Fatal(err)
	}
	m, err := text.Assemble(src, "int4_pairs.spvasm")
	if err != nil {
		t.Fatal(err)
	}
	code, err := m.Words()
	if err != nil {
		t.Fatal(err)
	}
	// With scalar block layout: the validator's std430 rules give a
	// 4-bit scalar a byte's alignment, so a packed vec4 of them (2 bytes)
	// would need 4-byte alignment.
	for _, env := range []string{"spv1.6", "vulkan1.3"} {
		if _, err := validate.Validate(m, validate.Options{TargetEnv: env, ScalarBlockLayout: true}); err != nil {
			t.Errorf("coop's validator (%s): %v", env, err)
		}
	}
	dev := New(Options{})
	// Invocation x: data[x] is 4 components in 2 bytes, weights[x] 2 in
	// one byte.
	data := []byte{0x21, 0x43, 0x8f, 0x07, 0x7e, 0x9a, 0xff, 0xff}
	weights := []byte{0x53, 0xf1, 0x0f, 0xed}
	db := bytesBuf(t, dev, data)
	wb := bytesBuf(t, dev, weights)
	out := bytesBuf(t, dev, make([]byte, 16))
	mustRun(t, dev, code, 1, db, wb, out)
	s4 := func(v byte) int64 { return int64(int8(v<<4) >> 4) }
	for x := range 4 {
		lo, hi := data[2*x], data[2*x+1]
		d := []int64{s4(lo), s4(lo >> 4), s4(hi), s4(hi >> 4)}
		w := weights[x]
		want := d[0]*int64(w&0xf) + d[1]*int64(w>>4)
		if got := int32(u32s(out)[x]); int64(got) != want {
			t.Errorf("out[%d] = %d, want %d", x, got, want)
		}
		r := []int64{d[3], d[2], d[1], d[0]}
		if r[3] < 0 {
			r[3] = 0
		}
		wantLo := byte(r[0]&0xf) | byte(r[1]&0xf)<<4
		wantHi := byte(r[2]&0xf) | byte(r[3]&0xf)<<4
		if got := Bytes(db)[2*x : 2*x+2]; got[0] != wantLo || got[1] != wantHi {
			t.Errorf("data[%d] = % x, want %02x %02x", x, got, wantLo, wantHi)
		}
	}

	dis, err := text.Disassemble(m, text.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m2, err := text.Assemble(dis, "int4_pairs.dis")
	if err != nil {
		t.Fatal(err)
	}
	if code2, _ := m2.Words(); !slices.Equal(code, code2) {
		t.Error("the disassembly does not reassemble to the same module")
	}
	as, sdis := reftool.Path("spirv-as"), reftool.Path("spirv-dis")
	if as == "" || sdis == "" {
		t.Skip("spirv-as or spirv-dis not found (set COOP_REF_BIN)")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "ref.spv")
	if o, err := osexec.Command(as, "testdata/int4_pairs.spvasm", "-o", bin).CombinedOutput(); err != nil {
		t.Fatalf("spirv-as: %v\n%s", err, o)
	}
	ref, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	ours, _ := m.Encode()
	if !bytes.Equal(ref, ours) {
		t.Error("coop's assembly differs from spirv-as's")
	}
	if val := reftool.Path("spirv-val"); val != "" {
		if o, err := osexec.Command(val, bin).CombinedOutput(); err != nil {
			t.Errorf("spirv-val: %v\n%s", err, o)
		}
	}
	refDis, err := osexec.Command(sdis, bin).Output()
	if err != nil {
		t.Fatalf("spirv-dis: %v", err)
	}
	if !bytes.Equal(refDis, dis) {
		t.Errorf("coop's disassembly differs from spirv-dis's:\n%s\nwant\n%s", dis, refDis)
	}
}

// TestInt4Bitcast sends every 4-bit pattern through OpBitcast to FP4
// E2M1 (then OpFConvert to float32, decoded as the OCP format defines)
// and back, and every pair through a bitcast to uint8.
func TestInt4Bitcast(t *testing.T) {
	dev := New(Options{})
	decls := "%fp4 = OpTypeFloat 4 Float4E2M1EXT\n%f32 = OpTypeFloat 32\n%u8 = OpTypeInt 8 0\n" +
		int4Buffer("in", "%v2i4", 1, 0) + int4Buffer("out", "%f32", 4, 1) + int4Buffer("back", "%v2u4", 1, 2) + int4Buffer("bytes", "%u8", 1, 3)
	body := `%p = OpAccessChain %pe_in %in %c0 %x
%v = OpLoad %v2i4 %p
%e0 = OpCompositeExtract %i4 %v 0
%e1 = OpCompositeExtract %i4 %v 1
%f0 = OpBitcast %fp4 %e0
%f1 = OpBitcast %fp4 %e1
%w0 = OpFConvert %f32 %f0
%w1 = OpFConvert %f32 %f1
%x2 = OpIMul %u32 %x %c2
%x21 = OpIAdd %u32 %x2 %c1
%q0 = OpAccessChain %pe_out %out %c0 %x2
%q1 = OpAccessChain %pe_out %out %c0 %x21
OpStore %q0 %w0
OpStore %q1 %w1
%b0 = OpBitcast %u4 %f0
%b1 = OpBitcast %u4 %f1
%bv = OpCompositeConstruct %v2u4 %b0 %b1
%pb = OpAccessChain %pe_back %back %c0 %x
OpStore %pb %bv
%u = OpBitcast %u8 %v
%pu = OpAccessChain %pe_bytes %bytes %c0 %x
OpStore %pu %u
`
	in := bytesBuf(t, dev, allPatterns())
	out := bytesBuf(t, dev, make([]byte, 64))
	back := bytesBuf(t, dev, make([]byte, 8))
	raw := bytesBuf(t, dev, make([]byte, 8))
	mustRun(t, dev, int4Module(t, decls, body), 1, in, out, back, raw)
	f := f32s(out)
	for p := range 16 {
		if want := float32(num.E2M1.Decode(uint64(p))); f[p] != want || math.Signbit(float64(f[p])) != math.Signbit(float64(want)) {
			t.Errorf("pattern %#x as E2M1 = %v, want %v", p, f[p], want)
		}
	}
	if string(Bytes(back)) != string(allPatterns()) || string(Bytes(raw)) != string(allPatterns()) {
		t.Errorf("bitcasts back give % x and % x, want % x", Bytes(back), Bytes(raw), allPatterns())
	}
}
