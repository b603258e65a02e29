package num

import (
	"math"
	"math/rand"
	"testing"
)

// NaN constants encode as quiet NaNs, not as a finite neighbour.
func TestEncodeNaNAndInfinity(t *testing.T) {
	tests := []struct {
		f        float64
		exp, man int
		ieee     bool
		want     uint64
	}{
		{math.NaN(), 5, 10, true, 0x7e00},
		{math.Inf(1), 5, 10, true, 0x7c00},
		{math.Inf(-1), 5, 2, true, 0xfc},
		{math.NaN(), 4, 3, false, 0x7f},
		{math.Inf(1), 4, 3, false, 0x7f},
		{448, 4, 3, false, 0x7e},
	}
	for _, tc := range tests {
		if got := Encode(tc.f, tc.exp, tc.man, tc.ieee); got != tc.want {
			t.Errorf("Encode(%v, %d, %d) = %#x, want %#x", tc.f, tc.exp, tc.man, got, tc.want)
		}
	}
}

var allFormats = map[string]Format{
	"float16": Float16, "bfloat16": BFloat16, "e5m2": E5M2, "e4m3": E4M3,
	"e3m2": E3M2, "e2m3": E2M3, "e2m1": E2M1,
}

// The OCP microscaling formats' values, from the tables of the OCP
// Microscaling Formats specification (positive half; the sign bit is the
// top bit and negates).
func TestMicroscalingValues(t *testing.T) {
	e2m1 := []float64{0, 0.5, 1, 1.5, 2, 3, 4, 6}
	for b, want := range e2m1 {
		if got := E2M1.Decode(uint64(b)); got != want {
			t.Errorf("E2M1 %#x = %v, want %v", b, got, want)
		}
		if got := E2M1.Decode(uint64(b) | 8); got != -want || !math.Signbit(got) {
			t.Errorf("E2M1 %#x = %v, want %v", b|8, got, -want)
		}
	}
	// E2M3: bias 1, 3 fraction bits: subnormals k/8, then 1+k/8, 2+k/4, 4+k/2.
	// E3M2: bias 3, 2 fraction bits: subnormals k/16, then (1+k/4)*2^(e-3).
	for b := 0; b < 32; b++ {
		e, m := b>>3, float64(b&7)
		want := m / 8
		if e > 0 {
			want = (1 + m/8) * float64(int(1)<<e) / 2
		}
		if got := E2M3.Decode(uint64(b)); got != want {
			t.Errorf("E2M3 %#x = %v, want %v", b, got, want)
		}
		e, m = b>>2, float64(b&3)
		want = m / 16
		if e > 0 {
			want = (1 + m/4) * float64(int(1)<<e) / 8
		}
		if got := E3M2.Decode(uint64(b)); got != want {
			t.Errorf("E3M2 %#x = %v, want %v", b, got, want)
		}
	}
	for name, tc := range map[string]struct {
		f   Format
		max float64
	}{"e2m1": {E2M1, 6}, "e2m3": {E2M3, 7.5}, "e3m2": {E3M2, 28}, "e4m3": {E4M3, 448}, "e5m2": {E5M2, 57344}, "float16": {Float16, 65504}} {
		if got := tc.f.Max(); got != tc.max {
			t.Errorf("%s max = %v, want %v", name, got, tc.max)
		}
	}
}

// Every bit pattern of every narrow format decodes to a value that
// encodes back to the same pattern (NaNs to a NaN), in every rounding mode.
func TestEveryPatternRoundTrips(t *testing.T) {
	for name, f := range allFormats {
		for b := uint64(0); b < 1<<f.Bits(); b++ {
			v := f.Decode(b)
			for rm := NearestEven; rm <= TowardNegative; rm++ {
				for _, sat := range []bool{false, true} {
					got := f.Encode(v, rm, sat)
					if v != v {
						if !math.IsNaN(f.Decode(got)) {
							t.Fatalf("%s: NaN %#x encodes to %#x", name, b, got)
						}
						continue
					}
					if math.IsInf(v, 0) && sat {
						if got != b&f.signBit()|f.MaxBits() {
							t.Fatalf("%s: saturated %v encodes to %#x", name, v, got)
						}
						continue
					}
					if got != b {
						t.Fatalf("%s: %#x (%v) encodes back to %#x (mode %d, sat %v)", name, b, v, got, rm, sat)
					}
				}
			}
		}
	}
}

// Between two neighbouring values, each rounding mode picks the neighbour
// it must: nearest (ties to the even pattern), toward zero, toward
// positive and negative infinity.
func TestEveryIntervalRounds(t *testing.T) {
	for name, f := range allFormats {
		if f.Bits() > 16 {
			continue
		}
		for b := uint64(0); b < f.MaxBits(); b++ {
			lo, hi := f.Decode(b), f.Decode(b+1)
			for _, neg := range []bool{false, true} {
				s, sb := 1.0, uint64(0)
				if neg {
					s, sb = -1, f.signBit()
				}
				near, far := b|sb, (b+1)|sb
				even := near
				if b&1 != 0 {
					even = far
				}
				check := func(x float64, rm Rounding, want uint64) {
					t.Helper()
					if got := f.Encode(s*x, rm, false); got != want {
						t.Fatalf("%s: Encode(%v, mode %d) = %#x, want %#x", name, s*x, rm, got, want)
					}
				}
				q1, mid, q3 := lo+(hi-lo)/4, lo+(hi-lo)/2, lo+3*(hi-lo)/4
				check(q1, NearestEven, near)
				check(mid, NearestEven, even)
				check(q3, NearestEven, far)
				check(q3, TowardZero, near)
				up, down := far, near
				if neg {
					up, down = near, far
				}
				check(q1, TowardPositive, up)
				check(q1, TowardNegative, down)
			}
		}
	}
}

// Beyond the largest value: IEEE formats overflow to infinity, E4M3 to
// NaN, the microscaling formats saturate; saturation and rounding toward
// zero give the largest value.
func TestOverflow(t *testing.T) {
	for name, f := range allFormats {
		max := f.Max()
		ulp := max - f.Decode(f.MaxBits()-1)
		for _, x := range []float64{max + ulp/4, max + ulp/2, max * 4, math.Inf(1)} {
			for _, neg := range []bool{false, true} {
				v, sb := x, uint64(0)
				if neg {
					v, sb = -x, f.signBit()
				}
				got := f.Encode(v, NearestEven, false)
				want := sb | f.MaxBits()
				// A quarter ulp above rounds down; half an ulp above is a
				// tie that rounds up when the largest pattern is odd.
				if x != max+ulp/4 && (x != max+ulp/2 || f.MaxBits()&1 != 0) {
					switch f.Specials {
					case IEEE:
						want = sb | (1<<f.Exp-1)<<f.Man
					case NaNOnly:
						want = sb | (1<<f.Exp-1)<<f.Man | (1<<f.Man - 1)
					}
				}
				if got != want {
					t.Errorf("%s: Encode(%v) = %#x, want %#x", name, v, got, want)
				}
				if got := f.Encode(v, NearestEven, true); got != sb|f.MaxBits() {
					t.Errorf("%s: saturating Encode(%v) = %#x, want %#x", name, v, got, sb|f.MaxBits())
				}
				if !math.IsInf(x, 0) {
					if got := f.Encode(v, TowardZero, false); got != sb|f.MaxBits() {
						t.Errorf("%s: Encode(%v) toward zero = %#x, want %#x", name, v, got, sb|f.MaxBits())
					}
				}
			}
		}
	}
}

// NaN: quiet with its sign in IEEE formats, the NaN pattern in E4M3, +0 in
// the formats without NaN.
func TestNaN(t *testing.T) {
	neg := math.Copysign(math.NaN(), -1)
	for _, tc := range []struct {
		f        Format
		pos, neg uint64
	}{
		{Float16, 0x7e00, 0xfe00}, {BFloat16, 0x7fc0, 0xffc0}, {E5M2, 0x7e, 0xfe}, {E4M3, 0x7f, 0xff},
		{E3M2, 0, 0}, {E2M3, 0, 0}, {E2M1, 0, 0},
	} {
		if got := tc.f.Encode(math.NaN(), NearestEven, false); got != tc.pos {
			t.Errorf("%v: NaN = %#x, want %#x", tc.f, got, tc.pos)
		}
		if got := tc.f.Encode(neg, TowardZero, true); got != tc.neg {
			t.Errorf("%v: -NaN = %#x, want %#x", tc.f, got, tc.neg)
		}
	}
}

// bfloat16 against the bit-level rounding of float32 (round to nearest
// even on the low 16 bits), for random float32 values.
func TestBFloat16AgainstBits(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 200000; i++ {
		u := r.Uint32()
		x := math.Float32frombits(u)
		if x != x || math.IsInf(float64(x), 0) {
			continue
		}
		want := uint64((u + 0x7fff + (u >> 16 & 1)) >> 16)
		if got := BFloat16.Encode(float64(x), NearestEven, false); got != want {
			t.Fatalf("bfloat16(%v = %#x) = %#x, want %#x", x, u, got, want)
		}
		if got := BFloat16.Encode(float64(x), TowardZero, false); got != uint64(u>>16) {
			t.Fatalf("bfloat16 toward zero (%#x) = %#x, want %#x", u, got, u>>16)
		}
	}
}

func TestMXInt8(t *testing.T) {
	for b := uint64(0); b < 256; b++ {
		v := DecodeMXInt8(b)
		if want := float64(int8(b)) / 64; v != want {
			t.Fatalf("MXINT8 %#x = %v, want %v", b, v, want)
		}
		want := b
		if b == 0x80 {
			want = 0x81 // -2 saturates to the symmetric range
		}
		for rm := NearestEven; rm <= TowardNegative; rm++ {
			if got := EncodeMXInt8(v, rm); got != want {
				t.Fatalf("EncodeMXInt8(%v, %d) = %#x, want %#x", v, rm, got, want)
			}
		}
	}
	for _, tc := range []struct {
		x    float64
		rm   Rounding
		want uint64
	}{
		{0.5 / 64, NearestEven, 0}, {1.5 / 64, NearestEven, 2}, {-1.5 / 64, NearestEven, 0xfe},
		{0.25 / 64, TowardPositive, 1}, {-0.25 / 64, TowardNegative, 0xff}, {-0.75 / 64, TowardZero, 0},
		{100, NearestEven, 0x7f}, {-100, NearestEven, 0x81}, {math.Inf(1), NearestEven, 0x7f},
		{math.Inf(-1), TowardZero, 0x81}, {math.NaN(), NearestEven, 0}, {math.Copysign(0, -1), NearestEven, 0},
	} {
		if got := EncodeMXInt8(tc.x, tc.rm); got != tc.want {
			t.Errorf("EncodeMXInt8(%v, %d) = %#x, want %#x", tc.x, tc.rm, got, tc.want)
		}
	}
}

// TestE8M0: every encoding decodes to 2^(e-127) (0xff NaN) and encodes
// back; other values go toward zero to a power of two, as glslang folds.
func TestE8M0(t *testing.T) {
	for e := range uint64(255) {
		v := DecodeE8M0(e)
		if v != math.Ldexp(1, int(e)-127) || EncodeE8M0(v) != e {
			t.Fatalf("encoding %#x: %v, back %#x", e, v, EncodeE8M0(v))
		}
	}
	if !math.IsNaN(DecodeE8M0(0xff)) {
		t.Error("0xff is not NaN")
	}
	for _, c := range []struct {
		x    float64
		want uint64
	}{{3, 128}, {0.75, 126}, {0, 0}, {-5, 0}, {1e-40, 0}, {math.Inf(1), 0xff}, {math.NaN(), 0xff}, {1e39, 0xff}, {math.Ldexp(1, 127) * 1.99, 254}} {
		if got := EncodeE8M0(c.x); got != c.want {
			t.Errorf("EncodeE8M0(%v) = %#x, want %#x", c.x, got, c.want)
		}
	}
}
