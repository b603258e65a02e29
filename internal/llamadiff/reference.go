package llamadiff

import (
	"fmt"
	"math"
	"strings"
)

// decoder reads element i of a buffer holding a float type named as the
// variant's defines name it.
type decoder func(b []byte, i int) float64

func decoderFor(typ string, isBF16 bool) decoder {
	switch {
	case isBF16 || strings.Contains(typ, "bf16") || strings.HasPrefix(typ, "bfloat16"):
		return bf16
	case strings.Contains(typ, "16"):
		return f16
	}
	return f32
}

// checkProduct compares D (N columns of M) with the product of A (M rows
// of K) and B (N rows of K) computed in float64, with a tolerance that
// covers fp16 inputs and accumulators.
func checkProduct(v *Variant, a, b, d []byte, M, N, K int) error {
	da := decoderFor(firstDef(v, "DATA_A_"), v.Has("DATA_A_BF16"))
	if v.Has("DATA_A_F32") {
		da = f32
	}
	bt := firstOf(v, "B_TYPE_SCALAR", "B_TYPE")
	db := decoderFor(bt, v.Has("DATA_B_BF16"))
	dd := decoderFor(firstOf(v, "D_TYPE"), false)
	for n := 0; n < N; n++ {
		for m := 0; m < M; m++ {
			var sum, mag float64
			for k := 0; k < K; k++ {
				p := da(a, m*K+k) * db(b, n*K+k)
				sum += p
				mag += math.Abs(p)
			}
			got := dd(d, n*M+m)
			if math.IsNaN(got) || math.Abs(got-sum) > 1e-2*mag+1e-3 {
				return fmt.Errorf("D[%d][%d] = %g, want %g (Go reference)", n, m, got, sum)
			}
		}
	}
	return nil
}

func firstOf(v *Variant, names ...string) string {
	for _, n := range names {
		if s, ok := v.Def(n); ok {
			return s
		}
	}
	return ""
}

// firstDef returns the suffix of the first define starting with prefix
// (DATA_A_F16 gives "F16").
func firstDef(v *Variant, prefix string) string {
	for _, d := range v.Defines {
		if s, ok := strings.CutPrefix(d.Name, prefix); ok {
			return strings.ToLower(s)
		}
	}
	return ""
}

// elemSize is the byte size of one element of the variant's A, B or D
// float type.
func elemSize(v *Variant, which string) int {
	var t string
	switch which {
	case "A":
		t = firstDef(v, "DATA_A_")
	case "B":
		t = firstOf(v, "B_TYPE_SCALAR", "B_TYPE")
		if v.Has("DATA_B_BF16") {
			t = "bf16"
		}
	default:
		t = firstOf(v, "D_TYPE")
	}
	if strings.Contains(t, "16") {
		return 2
	}
	return 4
}

// checkAttention compares O with softmax(scale·QKᵀ + mask)·V per head in
// float64 (the layouts of flashAttn).
func checkAttention(b map[uint32][]byte, isBF16 bool) error {
	kv := decoder(f16)
	if isBF16 {
		kv = bf16
	}
	for h := range faHeads {
		for n := range faN {
			s := make([]float64, faKV)
			top := math.Inf(-1)
			for k := range faKV {
				var dot float64
				for d := range faD {
					dot += f32(b[0], (h*faN+n)*faD+d) * kv(b[1], (h*faKV+k)*faD+d)
				}
				s[k] = 0.125*dot + f16(b[3], n*faKV+k)
				top = max(top, s[k])
			}
			var sum float64
			for k := range s {
				s[k] = math.Exp(s[k] - top)
				sum += s[k]
			}
			for d := range faD {
				var o float64
				for k := range faKV {
					o += s[k] * kv(b[2], (h*faKV+k)*faD+d)
				}
				o /= sum
				got := f32(b[5], (n*faHeads+h)*faD+d)
				if math.IsNaN(got) || math.Abs(got-o) > 2e-2 {
					return fmt.Errorf("O[row %d][head %d][%d] = %g, want %g (Go reference)", n, h, d, got, o)
				}
			}
		}
	}
	return nil
}
