package script

import (
	"github.com/coopshader/coop/num"
	"math"
	"strings"
	"testing"
)

// Every 16- and 8-bit pattern of each narrow float decodes and encodes back
// to itself (NaNs to a NaN).
func TestFloatFormatsRoundTrip(t *testing.T) {
	for _, name := range []string{"float16", "bfloat16", "float8_e4m3", "float8_e5m2"} {
		dt, _ := ParseDataType(name)
		for bits := uint64(0); bits < 1<<dt.Bits; bits++ {
			f := num.Decode(bits, dt.Exp, dt.Man, dt.IEEE)
			back := num.Encode(f, dt.Exp, dt.Man, dt.IEEE)
			if math.IsNaN(f) {
				if !math.IsNaN(num.Decode(back, dt.Exp, dt.Man, dt.IEEE)) {
					t.Fatalf("%s: NaN %#x encodes to %#x", name, bits, back)
				}
				continue
			}
			if back != bits {
				t.Fatalf("%s: %#x -> %v -> %#x", name, bits, f, back)
			}
		}
	}
}

func TestFloatRounding(t *testing.T) {
	f16, _ := ParseDataType("float16")
	tests := []struct{ in, want float64 }{
		{1 + 1.0/2048, 1},            // tie to even
		{1 + 3.0/2048, 1 + 2.0/1024}, // tie to even, up
		{65520, math.Inf(1)},         // rounds past the largest finite
		{65519, 65504},               // largest finite
		{math.Ldexp(1, -25), 0},      // half the smallest subnormal, ties to 0
		{math.Ldexp(1.5, -25), math.Ldexp(1, -24)},
	}
	for _, tc := range tests {
		if got := f16.round(tc.in); got != tc.want {
			t.Errorf("round(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
	e4, _ := ParseDataType("float8_e4m3")
	if got := e4.round(448); got != 448 {
		t.Errorf("e4m3 448 = %v", got)
	}
	if got := e4.round(1000); !math.IsNaN(got) {
		t.Errorf("e4m3 1000 = %v, want NaN", got)
	}
}

func TestInt4Packing(t *testing.T) {
	dt, _ := ParseDataType("int4")
	vals := []Value{dt.wrap(1), dt.wrap(uint64(0xffff_ffff_ffff_fffe)), dt.wrap(7)}
	b := dt.encode(vals)
	if len(b) != 2 || b[0] != 0xe1 || b[1] != 0x07 {
		t.Fatalf("packed %x", b)
	}
	back := dt.decode(b, 3)
	if int64(back[1].I) != -2 {
		t.Fatalf("decoded %v", back)
	}
}

// TestInt4Vectors: vectors of 4-bit integers are packed like scalars, so
// an int4 buffer can back them; odd counts and matrices are refused, as
// SPV_INTEL_int4 keeps them in memory only in even-count vectors.
func TestInt4Vectors(t *testing.T) {
	for _, bad := range []string{"vec3<int4>", "mat2x2<uint4>"} {
		if _, err := ParseDataType(bad); err == nil || !strings.Contains(err.Error(), "vec2 or vec4") {
			t.Errorf("%s: %v", bad, err)
		}
	}
	v4, _ := ParseDataType("vec4<int4>")
	if n := v4.byteSize64(3); n != 6 {
		t.Errorf("3 vec4<int4> take %d bytes, want 6", n)
	}
	s, err := Parse("t.amber", []byte("BUFFER v DATA_TYPE vec2<int4> SIZE 5 FILL -1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if b := s.Buffer("v"); b.N != 10 || b.Type.byteSize(b.N) != 5 {
		t.Errorf("5 vec2<int4>: %d components in %d bytes, want 10 in 5", b.N, b.Type.byteSize(b.N))
	}
}

// fill lays components out exactly as put does one at a time, for every
// shape and layout, including a last element cut short.
func TestFillMatchesPut(t *testing.T) {
	for _, name := range []string{"float", "int8", "float16", "int4", "vec3<float>", "vec2<int16>", "mat3x3<float>", "mat2x3<double>", "vec4<uint8>"} {
		for _, std140 := range []bool{false, true} {
			dt, err := ParseDataType(name)
			if err != nil {
				t.Fatal(err)
			}
			dt.Std140, dt.Array = std140, std140
			for _, k := range []int{0, 1, 5, 18, 37} {
				size := dt.byteSize(k + dt.Comps())
				want, got := make([]byte, size), make([]byte, size)
				for j := range k {
					dt.put(want, j, dt.fromFloat(float64(j%13)-6))
				}
				j := 0
				dt.fill(got, k, func() Value { j++; return dt.fromFloat(float64((j-1)%13) - 6) })
				if string(got) != string(want) {
					t.Errorf("%s std140=%v k=%d: fill % x, put % x", name, std140, k, got, want)
				}
			}
		}
	}
}
