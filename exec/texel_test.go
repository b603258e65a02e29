package exec

import (
	"encoding/binary"
	"math"
	"math/rand"
	"testing"

	"github.com/coopshader/coop/backend"
)

// specialFloats are values that exercise rounding, clamping and the
// special cases of every float conversion.
var specialFloats = []float32{0, float32(math.Copysign(0, -1)), 1, -1, 0.5, -0.5, 2, -2, 1e-8, -1e-8,
	float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 65504, 65519.99, 65520, 70000, 65024, 65025,
	64512, 64513, 1.0 / 3, 2.0 / 3, 127.5 / 255, 0.25, 5.9604645e-08, 6.1035156e-05, 1e10, -1e10, 0.75, 1.5e-5}

// allFormats lists every format the backend names.
func allFormats() []backend.Format {
	var fs []backend.Format
	for f := backend.Format(1); f.Info() != nil; f++ {
		fs = append(fs, f)
	}
	return fs
}

// TestTexelFormats checks decodeTexel and encodeTexel for every format
// against the reference conversions: random stored bytes decoded, and
// special and random values encoded.
func TestTexelFormats(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for _, f := range allFormats() {
		fi := f.Info()
		buf := make([]byte, fi.Size)
		for n := 0; n < 500; n++ {
			r.Read(buf)
			got := decodeTexel(fi, buf)
			wf, wu := refDecode(fi, buf)
			for k := 0; k < 4; k++ {
				if fi.IsFloat() && !sameF32(got.f[k], wf[k]) || !fi.IsFloat() && got.u[k] != wu[k] {
					t.Fatalf("%v: decode % x: component %d: got %v/%#x, want %v/%#x", f, buf, k, got.f[k], got.u[k], wf[k], wu[k])
				}
			}
		}
		for n := 0; n < 150; n++ {
			var tx texel
			for k := range tx.f {
				switch {
				case n < len(specialFloats):
					tx.f[k] = specialFloats[(n+k)%len(specialFloats)]
				case n%2 == 0:
					tx.f[k] = float32(r.NormFloat64())
				default:
					tx.f[k] = float32(r.Float64()*2.5 - 0.75)
				}
				tx.u[k] = r.Uint64() >> uint(r.Intn(64))
			}
			encodeTexel(fi, buf, tx)
			want := refEncode(fi, tx.f, tx.u)
			if string(buf) != string(want) {
				t.Fatalf("%v: encode %v / %#x: got % x, want % x", f, tx.f, tx.u, buf, want)
			}
		}
	}
}

const rwKernel = `
OpCapability Shader
OpCapability Int64
OpCapability StorageImageReadWithoutFormat
OpCapability StorageImageWriteWithoutFormat
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid
OpExecutionMode %main LocalSize 16 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %src DescriptorSet 0
OpDecorate %src Binding 0
OpDecorate %dst DescriptorSet 0
OpDecorate %dst Binding 3
OpDecorate %ra ArrayStride {{STRIDE}}
OpDecorate %Buf Block
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %in DescriptorSet 0
OpDecorate %in Binding 1
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 2
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%T = {{T}}
%v2i = OpTypeVector %int 2
%v3u = OpTypeVector %uint 3
%v4 = OpTypeVector %T 4
%img = OpTypeImage %T 2D 0 0 0 2 Unknown
%pimg = OpTypePointer UniformConstant %img
%src = OpVariable %pimg UniformConstant
%dst = OpVariable %pimg UniformConstant
%ra = OpTypeRuntimeArray %v4
%Buf = OpTypeStruct %ra
%pBuf = OpTypePointer StorageBuffer %Buf
%in = OpVariable %pBuf StorageBuffer
%out = OpVariable %pBuf StorageBuffer
%pv4 = OpTypePointer StorageBuffer %v4
%pgid = OpTypePointer Input %v3u
%gid = OpVariable %pgid Input
%int_0 = OpConstant %int 0
%main = OpFunction %void None %fn
%lbl = OpLabel
%g = OpLoad %v3u %gid
%x = OpCompositeExtract %uint %g 0
%xi = OpBitcast %int %x
%c = OpCompositeConstruct %v2i %xi %int_0
%im = OpLoad %img %src
%r = OpImageRead %v4 %im %c
%po = OpAccessChain %pv4 %out %int_0 %x
OpStore %po %r
%pi = OpAccessChain %pv4 %in %int_0 %x
%w = OpLoad %v4 %pi
%im2 = OpLoad %img %dst
OpImageWrite %im2 %c %w
OpReturn
OpFunctionEnd
`

// newImage makes an image or fails the test.
func newImage(t *testing.T, dev *Device, d backend.ImageDesc) backend.Image {
	t.Helper()
	img, err := dev.NewImage(d)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// TestImageReadWriteFormats runs OpImageRead and OpImageWrite on storage
// images of every format: what the shader reads must be the reference
// decoding of the stored bytes, what it writes the reference encoding.
func TestImageReadWriteFormats(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	dev := New(Options{})
	for _, f := range allFormats() {
		fi := f.Info()
		ty, size := "OpTypeFloat 32", 4
		switch {
		case fi.Bits[0] == 64:
			ty, size = "OpTypeInt 64 "+map[bool]string{true: "1", false: "0"}[fi.Kind == backend.SInt], 8
		case fi.Kind == backend.SInt:
			ty = "OpTypeInt 32 1"
		case fi.Kind == backend.UInt:
			ty = "OpTypeInt 32 0"
		}
		code := asm(t, rwKernel, "T", ty, "STRIDE", map[int]string{4: "16", 8: "32"}[size])
		src := newImage(t, dev, backend.ImageDesc{Format: f, Dim: backend.Image2D, Width: 16})
		dst := newImage(t, dev, backend.ImageDesc{Format: f, Dim: backend.Image2D, Width: 16})
		r.Read(ImageBytes(src))
		in, _ := dev.NewBuffer(16*4*size, backend.UsageStorage)
		out, _ := dev.NewBuffer(16*4*size, backend.UsageStorage)
		vals := make([][4]float32, 16)
		ivals := make([][4]uint64, 16)
		for x := range vals {
			for k := 0; k < 4; k++ {
				v := specialFloats[(x*4+k)%len(specialFloats)]
				if x >= 8 {
					v = float32(r.NormFloat64())
				}
				vals[x][k] = v
				ivals[x][k] = r.Uint64() >> uint(r.Intn(64))
				o := (x*4 + k) * size
				switch {
				case fi.IsFloat():
					binary.LittleEndian.PutUint32(Bytes(in)[o:], math.Float32bits(v))
				case size == 8:
					binary.LittleEndian.PutUint64(Bytes(in)[o:], ivals[x][k])
				default:
					binary.LittleEndian.PutUint32(Bytes(in)[o:], uint32(ivals[x][k]))
					if fi.Kind == backend.SInt {
						ivals[x][k] = uint64(int64(int32(ivals[x][k])))
					} else {
						ivals[x][k] = uint64(uint32(ivals[x][k]))
					}
				}
			}
		}
		_, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{1, 1, 1}, Bindings: []backend.Binding{
			{Binding: 0, Kind: backend.StorageImage, Image: src},
			{Binding: 1, Kind: backend.StorageBuffer, Buffer: in},
			{Binding: 2, Kind: backend.StorageBuffer, Buffer: out},
			{Binding: 3, Kind: backend.StorageImage, Image: dst},
		}})
		if err != nil {
			t.Fatalf("%v: %v", f, err)
		}
		for x := 0; x < 16; x++ {
			wf, wu := refDecode(fi, ImageBytes(src)[x*fi.Size:])
			for k := 0; k < 4; k++ {
				o := (x*4 + k) * size
				switch {
				case fi.IsFloat():
					if got := math.Float32frombits(binary.LittleEndian.Uint32(Bytes(out)[o:])); !sameF32(got, wf[k]) {
						t.Errorf("%v: read texel %d component %d: got %v, want %v", f, x, k, got, wf[k])
					}
				case size == 8:
					if got := binary.LittleEndian.Uint64(Bytes(out)[o:]); got != wu[k] {
						t.Errorf("%v: read texel %d component %d: got %#x, want %#x", f, x, k, got, wu[k])
					}
				default:
					if got := binary.LittleEndian.Uint32(Bytes(out)[o:]); got != uint32(wu[k]) {
						t.Errorf("%v: read texel %d component %d: got %#x, want %#x", f, x, k, got, uint32(wu[k]))
					}
				}
			}
			want := refEncode(fi, vals[x], ivals[x])
			if got := ImageBytes(dst)[x*fi.Size : (x+1)*fi.Size]; string(got) != string(want) {
				t.Errorf("%v: write texel %d (%v / %#x): got % x, want % x", f, x, vals[x], ivals[x], got, want)
			}
		}
	}
}
