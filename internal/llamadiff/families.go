package llamadiff

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// job is one dispatch of a variant, set up as ggml-vulkan sets it up.
type job struct {
	spec   map[uint32]uint32 // by SpecId
	push   map[string]uint32 // push-constant members by name (floats as bits)
	groups [3]uint32
	// elems is the logical element count of each binding; a buffer gets
	// 4 bytes per element (enough for every ggml type, quantized blocks
	// included) plus slack.
	elems map[uint32]int
	// outputs are bindings the shader writes; they start filled with 0xa5.
	outputs []uint32
	// bf16 bindings hold bfloat16 values in 16-bit integer members.
	bf16 map[uint32]bool
	// masks restrict integer members by name (see filler.masks).
	masks map[string]uint64
	// ints fills a binding with integers in [0, n) instead of random bits
	// (indices).
	ints map[uint32]int
	// as fills a binding with values of this scalar type whatever the
	// shader declares (flash attention reads bytes and decodes them).
	as map[uint32]*typ
	// data gives a binding's exact contents (expert ids and counts).
	data map[uint32][]byte
	// addrs puts the device address of a binding into a 64-bit push
	// constant (buffer-device-address variants write through it).
	addrs map[string]uint32
	// check compares the result with a Go reference; nil when none is cheap.
	check func(bufs map[uint32][]byte) error
}

// family sets up a job for a variant, or returns nil when the harness
// does not know how to give the variant realistic inputs.
type family func(v *Variant) *job

var families = map[string]family{
	"mul_mm.comp":                 matmul,
	"mul_mm_cm2.comp":             matmul,
	"mul_mmq.comp":                matmul,
	"unary.comp":                  unary,
	"copy.comp":                   unary,
	"add.comp":                    binaryOp,
	"sub.comp":                    binaryOp,
	"mul.comp":                    binaryOp,
	"div.comp":                    binaryOp,
	"get_rows.comp":               getRows,
	"get_rows_quant.comp":         getRows,
	"copy_to_quant.comp":          copyToQuant,
	"flash_attn.comp":             flashAttn,
	"flash_attn_cm1.comp":         flashAttn,
	"flash_attn_cm2.comp":         flashAttn,
	"soft_max.comp":               softMax,
	"norm.comp":                   norm,
	"l2_norm.comp":                l2Norm,
	"rms_norm.comp":               rmsNorm,
	"group_norm.comp":             groupNorm,
	"sum_rows.comp":               sumRows,
	"copy_from_quant.comp":        copyFromQuant,
	"rope_norm.comp":              rope,
	"rope_neox.comp":              rope,
	"rope_multi.comp":             rope,
	"rope_vision.comp":            rope,
	"swiglu.comp":                 glu,
	"swiglu_oai.comp":             glu,
	"geglu.comp":                  glu,
	"geglu_erf.comp":              glu,
	"geglu_quick.comp":            glu,
	"reglu.comp":                  glu,
	"concat.comp":                 concat,
	"repeat.comp":                 repeat,
	"scale.comp":                  scale,
	"log.comp":                    unary,
	"add1.comp":                   binaryOp,
	"silu_back.comp":              siluBack,
	"argsort.comp":                argsort,
	"quantize_q8_1.comp":          quantizeQ81,
	"mul_mat_vec_nc.comp":         matvecNC,
	"mul_mat_vec_p021.comp":       matvecP021,
	"soft_max_large1.comp":        softMaxLarge,
	"soft_max_large2.comp":        softMaxLarge,
	"soft_max_large3.comp":        softMaxLarge,
	"im2col.comp":                 im2col,
	"conv2d_mm.comp":              conv2d,
	"conv2d_dw.comp":              conv2dDW,
	"argmax.comp":                 argmax,
	"cumsum.comp":                 cumsum,
	"fill.comp":                   fill,
	"contig_copy.comp":            contigCopy,
	"tri.comp":                    tri,
	"diag.comp":                   diag,
	"copy_transpose.comp":         copyTranspose,
	"pad.comp":                    pad,
	"roll.comp":                   roll,
	"conv3d_mm.comp":              conv3d,
	"add_id.comp":                 addID,
	"arange.comp":                 arange,
	"acc.comp":                    acc,
	"count_equal.comp":            countEqual,
	"diag_mask_inf.comp":          diagMaskInf,
	"opt_step_sgd.comp":           optStepSGD,
	"opt_step_adamw.comp":         optStepAdamW,
	"timestep_embedding.comp":     timestepEmbedding,
	"mul_mat_split_k_reduce.comp": splitKReduce,
	"snake.comp":                  snake,
	"repeat_back.comp":            repeatBack,
	"get_rows_back.comp":          getRowsBack,
	"soft_max_back.comp":          softMaxBack,
	"rms_norm_back.comp":          rmsNormBack,
	"pool2d.comp":                 pool2d,
	"pool1d.comp":                 pool1d,
	"out_prod.comp":               outProd,
	"upscale.comp":                upscale,
	"im2col_3d.comp":              im2col3d,
	"multi_add.comp":              multiAdd,
	"count_experts.comp":          countExperts,
	"ssm_conv.comp":               ssmConv,
	"copy_transpose_02.comp":      copyTranspose02,
	"fwht.comp":                   fwht,
	"col2im_1d.comp":              col2im1d,
	"conv_transpose_1d.comp":      convTranspose1d,
	"solve_tri.comp":              solveTri,
}

func familyOf(v *Variant) family {
	if f, ok := families[v.Source]; ok {
		return f
	}
	if strings.HasPrefix(v.Source, "dequant_") && v.Source != "dequant_funcs.comp" {
		return dequant
	}
	if strings.HasPrefix(v.Source, "mul_mat_vec") {
		return matvec
	}
	return nil
}

// SpecFor returns the specialization constants (by SpecId) ggml-vulkan
// gives variant v, and false when the harness does not set v up.
func SpecFor(v *Variant) (map[uint32]uint32, bool) {
	f := familyOf(v)
	if f == nil {
		return nil, false
	}
	j := f(v)
	if j == nil {
		return nil, false
	}
	return j.spec, true
}

func f32bits(x float32) uint32 { return math.Float32bits(x) }

// quantK returns the number of values in one block of the variant's A type
// (1 for float types).
func quantK(v *Variant) int {
	for _, d := range v.Defines {
		t, ok := strings.CutPrefix(d.Name, "DATA_A_")
		if !ok {
			continue
		}
		switch {
		case t == "F32" || t == "F16" || t == "BF16":
			return 1
		case strings.HasSuffix(t, "_K") || strings.HasPrefix(t, "IQ") && t != "IQ4_NL":
			return 256
		case t == "NVFP4" || t == "Q2_0":
			return 64
		case t == "Q1_0":
			return 128
		default:
			return 32
		}
	}
	return 1
}

func floatA(v *Variant) bool { return quantK(v) == 1 }

// bf16AB marks the A and B bindings of a matrix product whose 16-bit
// members hold bfloat16 values, so the filler writes finite bf16 numbers
// there (the ID variants included).
func bf16AB(v *Variant) map[uint32]bool {
	return map[uint32]bool{0: v.Has("DATA_A_BF16"), 1: v.Has("DATA_B_BF16")}
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// matmul: mul_mm (scalar, dot2 and coopmat1), mul_mm_cm2 and mul_mmq with
// ggml's small tile configuration ("s_warptile") for a 32-wide subgroup.
func matmul(v *Variant) *job {
	// Unaligned pipelines see a partial tile (N = 48); aligned ones, which
	// ggml picks only for whole tiles, do not.
	M, N, K := uint32(64), uint32(48), uint32(256)
	if aligned(v) == 1 {
		N = 64
	}
	j := &job{spec: map[uint32]uint32{}, push: map[string]uint32{}, bf16: bf16AB(v)}
	var bm, bn uint32
	switch {
	case v.Source == "mul_mm_cm2.comp":
		// {BLOCK_SIZE, BM, BN, BK, enable_smaller_matrices}, then ALIGNED.
		spec := []uint32{128, 64, 64, 64, 0}
		if !floatA(v) {
			spec = []uint32{256, 32, 64, 128, 0}
		}
		for i, s := range spec {
			j.spec[uint32(i)] = s
		}
		j.spec[5] = aligned(v)
		if v.Has("MUL_MAT_ID") {
			// ggml's s_warptile_mmqid for quantized A, with the subgroup size.
			if !floatA(v) {
				bk := uint32(32)
				if v.Has("GGML_VULKAN_COOPMAT2_DECODE_VECTOR") {
					bk = 64
				}
				spec = []uint32{256, 128, 64, bk, 0}
				for i, s := range spec {
					j.spec[uint32(i)] = s
				}
			}
			j.spec[6] = 32
		}
		bm, bn = spec[1], spec[2]
	default:
		// {BLOCK_SIZE, BM, BN, BK, WM, WN, WMITER, TM, TN, TK, WARP}, ALIGNED.
		spec := []uint32{32, 32, 32, 16, 32, 32, 2, 2, 2, 1, 32}
		if !floatA(v) || v.Source == "mul_mmq.comp" {
			spec[3] = 32
		}
		if v.Source == "mul_mmq.comp" {
			spec[8] = 1
		}
		if v.Has("COOPMAT") {
			spec[7], spec[8], spec[9] = 16, 16, 16
		}
		for i, s := range spec {
			j.spec[uint32(i)] = s
		}
		j.spec[11] = aligned(v)
		bm, bn = spec[1], spec[2]
	}
	if v.Has("MUL_MAT_ID") {
		matmulID(v, j, M, K, bm, bn)
		return j
	}
	for k, x := range map[string]uint32{"M": M, "N": N, "K": K, "stride_a": K, "stride_b": K, "stride_d": M,
		"batch_stride_a": M * K, "batch_stride_b": N * K, "batch_stride_d": M * N, "base_work_group_z": 0,
		"num_batches": 1, "k_split": K, "ne02": 1, "ne12": 1, "broadcast2": 1, "broadcast3": 1, "padded_N": N} {
		j.push[k] = x
	}
	j.groups = [3]uint32{(M + bm - 1) / bm, (N + bn - 1) / bn, 1}
	j.elems = map[uint32]int{0: int(M * K), 1: int(N * K), 2: int(M * N)}
	j.outputs = []uint32{2}
	// The coopmat2 shader loads A as the matrix's component type (fp16), so
	// ggml converts fp32 A before it; the raw fp32 data gives no product.
	cm2F32 := v.Source == "mul_mm_cm2.comp" && v.Has("DATA_A_F32")
	if floatA(v) && v.Source != "mul_mmq.comp" && !cm2F32 {
		j.check = func(b map[uint32][]byte) error {
			return checkProduct(v, b[0], b[1], b[2], int(M), int(N), int(K))
		}
	}
	return j
}

// Mixture-of-experts shapes: experts, experts used per token, tokens.
const moeExperts, moeUsed, moeTokens = 4, 2, 16

// moeIDs gives each token moeUsed distinct experts, and the count of
// rows each expert receives, as ggml's count_experts pass computes it.
func moeIDs() (ids, counts []byte, table [moeTokens][moeUsed]int) {
	var n [moeExperts]uint32
	for t := range moeTokens {
		for i := range moeUsed {
			e := (3*t + i) % moeExperts
			table[t][i] = e
			ids = binary.LittleEndian.AppendUint32(ids, uint32(e))
			n[e]++
		}
	}
	for _, c := range n {
		counts = binary.LittleEndian.AppendUint32(counts, c)
	}
	return ids, counts, table
}

// matmulID sets up a mul_mat_id dispatch (ggml_vk_matmul_id): every token
// multiplies its B rows by the A matrices of the experts it uses.
func matmulID(v *Variant, j *job, M, K, bm, bn uint32) {
	const ne11 = moeUsed
	N := uint32(moeUsed * moeTokens)
	for k, x := range map[string]uint32{"M": M, "N": N, "K": K, "stride_a": K, "stride_b": K, "stride_d": M,
		"batch_stride_a": M * K, "batch_stride_b": K * ne11, "batch_stride_d": M * moeUsed,
		"nei0": moeUsed, "nei1": moeTokens, "nbi1": moeUsed, "ne11": ne11, "padded_N": N} {
		j.push[k] = x
	}
	ids, counts, table := moeIDs()
	j.data = map[uint32][]byte{3: ids, 4: counts}
	j.groups = [3]uint32{(M + bm - 1) / bm, (moeTokens + bn - 1) / bn, moeExperts}
	j.elems = map[uint32]int{0: int(moeExperts * M * K), 1: int(moeTokens * ne11 * K), 2: int(M * N)}
	j.outputs = []uint32{2}
	cm2F32 := v.Source == "mul_mm_cm2.comp" && v.Has("DATA_A_F32")
	if floatA(v) && v.Source != "mul_mmq.comp" && !cm2F32 {
		j.check = func(b map[uint32][]byte) error {
			for t := range moeTokens {
				for i := range moeUsed {
					e, row := table[t][i], t*ne11+i%ne11
					at := b[0][e*int(M*K)*elemSize(v, "A"):]
					bt := b[1][row*int(K)*elemSize(v, "B"):]
					dt := b[2][(t*moeUsed+i)*int(M)*elemSize(v, "D"):]
					if err := checkProduct(v, at, bt, dt, int(M), 1, int(K)); err != nil {
						return fmt.Errorf("token %d, expert %d: %v", t, e, err)
					}
				}
			}
			return nil
		}
	}
}

// aligned gives the ALIGNED specialization constant ggml uses with the
// variant: its vector-loading ("aligned") pipelines set it.
func aligned(v *Variant) uint32 {
	if s, ok := v.Def("LOAD_VEC_B"); ok && atoi(s) > 1 {
		return 1
	}
	return 0
}

// matvec: mul_mat_vec* with ggml's row counts per workgroup, one column.
func matvec(v *Variant) *job {
	const M, K = 64, 512
	rows := uint32(2)
	switch {
	case v.Has("DATA_A_F32") || strings.Contains(v.Name, "q8_1"):
		rows = 1
	}
	j := &job{spec: map[uint32]uint32{0: 32, 1: rows, 2: 1}, push: map[string]uint32{}, bf16: bf16AB(v)}
	for k, x := range map[string]uint32{"ncols": K, "stride_a": K, "stride_b": K, "stride_d": M,
		"batch_stride_a": M * K, "batch_stride_b": K, "batch_stride_d": M, "fusion_flags": 0, "base_work_group_y": 0,
		"ne02": 1, "ne12": 1, "broadcast2": 1, "broadcast3": 1} {
		j.push[k] = x
	}
	j.groups = [3]uint32{(M + rows - 1) / rows, 1, 1}
	j.elems = map[uint32]int{0: M * K, 1: K, 2: M, 3: M, 4: M}
	j.outputs = []uint32{2}
	if v.Has("MUL_MAT_ID") {
		// One token (expert_i1 0) of a mul_mat_vec_id: workgroup y is the
		// expert slot, B broadcast over the slots (ne11 = 1).
		for k, x := range map[string]uint32{"batch_stride_a": M * K, "batch_stride_b": K, "batch_stride_d": M * moeUsed,
			"nei0": moeUsed, "ne11": 1, "expert_i1": 0, "nbi1": moeUsed} {
			j.push[k] = x
		}
		ids, _, table := moeIDs()
		j.data = map[uint32][]byte{5: ids}
		j.groups[1] = moeUsed
		j.elems[0] = moeExperts * M * K
		j.elems[2] = M * moeUsed
		if floatA(v) && !strings.Contains(v.Name, "q8_1") {
			j.check = func(b map[uint32][]byte) error {
				for i, e := range table[0] {
					a := b[0][e*M*K*elemSize(v, "A"):]
					if err := checkProduct(v, a, b[1], b[2][i*M*elemSize(v, "D"):], M, 1, K); err != nil {
						return fmt.Errorf("slot %d, expert %d: %v", i, e, err)
					}
				}
				return nil
			}
		}
		return j
	}
	if floatA(v) && !strings.Contains(v.Name, "q8_1") {
		j.check = func(b map[uint32][]byte) error {
			return checkProduct(v, b[0], b[1], b[2], M, 1, K)
		}
	}
	return j
}

// tensorPush fills the generic element-wise push constants for tensors of
// shape ne (contiguous), with ggml's fast-division constants.
func tensorPush(push map[string]uint32, ne [4]uint32, srcs ...string) {
	n := ne[0] * ne[1] * ne[2] * ne[3]
	push["ne"] = n
	for _, s := range srcs {
		stride := uint32(1)
		for i := range 4 {
			push["ne"+s+strconv.Itoa(i)] = ne[i]
			push["nb"+s+strconv.Itoa(i)] = stride
			stride *= ne[i]
		}
	}
	push["misalign_offsets"] = 0
	fd := func(prefix string, nes [4]uint32) {
		ds := []uint32{nes[2] * nes[1] * nes[0], nes[1] * nes[0], nes[0]}
		var L [3]uint32
		for i, d := range ds {
			var m uint32
			m, L[i] = fastDiv(d)
			push[prefix+[]string{"_012mp", "_01mp", "_0mp"}[i]] = m
		}
		push[prefix+"_Ls"] = L[0] | L[1]<<8 | L[2]<<16
	}
	for _, p := range []string{"ne0", "ne1", "ne2"} {
		fd(p, ne)
	}
}

var elementShape = [4]uint32{7, 5, 3, 2} // 210 elements, odd sizes on purpose

func unary(v *Variant) *job {
	j := &job{push: map[string]uint32{}, bf16: map[uint32]bool{}}
	tensorPush(j.push, elementShape, "0", "1")
	j.push["param1"], j.push["param2"] = f32bits(-0.5), f32bits(0.5)
	j.groups = [3]uint32{1, 1, 1}
	n := int(j.push["ne"])
	j.elems = map[uint32]int{0: n, 1: n}
	j.outputs = []uint32{1}
	return j
}

func binaryOp(v *Variant) *job {
	j := &job{push: map[string]uint32{}, bf16: map[uint32]bool{}}
	tensorPush(j.push, elementShape, "0", "1", "2")
	j.groups = [3]uint32{1, 1, 1}
	n := int(j.push["ne"])
	j.elems = map[uint32]int{0: n, 1: n, 2: n, 3: n}
	j.outputs = []uint32{2, 3}
	return j
}

// getRows: ggml_get_rows of 5 rows (indices into 8 rows of A) of 256
// values each, dispatched as {ne00, ne10, 1} over 512-wide workgroups.
func getRows(v *Variant) *job {
	const ne00, ne01, ne10 = 256, 8, 5
	qk := uint32(quantK(v))
	j := &job{push: map[string]uint32{}, bf16: map[uint32]bool{0: v.Has("DATA_A_BF16")}}
	for k, x := range map[string]uint32{"ne": ne00 * ne10,
		"ne00": ne00, "ne01": ne01, "ne02": 1, "ne03": 1, "nb00": 1, "nb01": ne00 / qk, "nb02": ne01 * ne00 / qk, "nb03": ne01 * ne00 / qk,
		"ne10": ne10, "ne11": 1, "ne12": 1, "ne13": 1, "nb10": 1, "nb11": ne10, "nb12": ne10, "nb13": ne10,
		"ne20": ne00, "ne21": ne10, "ne22": 1, "ne23": 1, "nb20": 1, "nb21": ne00, "nb22": ne00 * ne10, "nb23": ne00 * ne10} {
		j.push[k] = x
	}
	j.groups = [3]uint32{1, ne10, 1}
	j.elems = map[uint32]int{0: ne00 * ne01, 1: ne10, 2: ne00 * ne10}
	j.ints = map[uint32]int{1: ne01}
	j.outputs = []uint32{2}
	if qk == 1 && !v.Has("DATA_A_BF16") {
		j.check = func(b map[uint32][]byte) error {
			da := decoderFor(firstDef(v, "DATA_A_"), false)
			dd := decoderFor(firstOf(v, "D_TYPE"), false)
			for r := range ne10 {
				row := int(binary.LittleEndian.Uint32(b[1][4*r:]))
				for i := range ne00 {
					if got, want := dd(b[2], r*ne00+i), da(b[0], row*ne00+i); math.Abs(got-want) > 1e-3*math.Abs(want) {
						return fmt.Errorf("row %d (A row %d) element %d = %g, want %g", r, row, i, got, want)
					}
				}
			}
			return nil
		}
	}
	return j
}

// Flash attention shape: head size, query rows, keys, heads.
const faD, faN, faKV, faHeads = 64, 8, 128, 2

// flashAttn: ggml_vk_flash_attn with f16 (or bf16) K and V, a mask, no
// sinks and no split over KV, with the tuning ggml picks on a 32-wide
// subgroup NVIDIA device for each code path (scalar, coopmat1, coopmat2).
func flashAttn(v *Variant) *job {
	// {WorkGroupSize, Br, Bc, D_split, row_split}
	tune := [5]uint32{128, 4, 32, 8, 1} // scalar: 8 rows, short KV
	switch v.Source {
	case "flash_attn_cm1.comp":
		tune = [5]uint32{128, 16, 64, 8, 4}
	case "flash_attn_cm2.comp":
		tune = [5]uint32{256, 32, 32, 0, 0} // fewer than 32 rows
	}
	kvType, kvBytes := uint32(1), uint32(2) // GGML_TYPE_F16
	bf := v.Has("BFLOAT16")
	if bf {
		kvType = 30 // GGML_TYPE_BF16
	}
	j := &job{push: map[string]uint32{}, bf16: map[uint32]bool{}}
	j.spec = map[uint32]uint32{0: tune[0], 1: tune[1], 2: tune[2], 3: faD, 4: faD, 5: 0, 6: tune[3], 7: tune[4],
		8: 32, 9: 1, 10: 2 /* mask */, 11: 0, 12: kvType, 13: kvType, 14: kvBytes, 15: kvBytes}
	for k, x := range map[string]uint32{"N": faN, "KV": faKV, "ne1": faHeads, "ne2": faN, "ne3": 1,
		"neq2": faHeads, "neq3": 1, "nek2": faHeads, "nek3": 1, "nev2": faHeads, "nev3": 1, "nem1": faN, "nem2": 1, "nem3": 1,
		"nb01": faD, "nb02": faD * faN * 4, "nb03": faD * faN * faHeads * 4,
		"nb11": faD, "nb12": faD * faKV * kvBytes, "nb13": faD * faKV * faHeads * kvBytes,
		"nb21": faD, "nb22": faD * faKV * kvBytes, "nb23": faD * faKV * faHeads * kvBytes,
		"scale": f32bits(0.125), "max_bias": 0, "logit_softcap": 0, "mask_n_head_log2": 2,
		"m0": f32bits(1), "m1": f32bits(1), "gqa_ratio": 1, "split_kv": faKV, "k_num": 1} {
		j.push[k] = x
	}
	j.groups = [3]uint32{(faN + tune[1] - 1) / tune[1], faHeads, 1}
	j.elems = map[uint32]int{0: faD * faN * faHeads, 1: faD * faKV * faHeads, 2: faD * faKV * faHeads,
		3: faKV * faN, 4: faHeads, 5: faD * faN * faHeads, 6: 64}
	j.outputs = []uint32{5}
	kvT := &typ{kind: kFloat, width: 16, size: 2, bf16: bf}
	j.as = map[uint32]*typ{0: {kind: kFloat, width: 32, size: 4}, 1: kvT, 2: kvT, 3: {kind: kFloat, width: 16, size: 2}}
	j.check = func(b map[uint32][]byte) error { return checkAttention(b, bf) }
	return j
}

// copyToQuant: ggml_cpy to a quantized type (4 rows of 256 values) and,
// with SET_ROWS, ggml_set_rows of 3 rows into distinct rows of an 8-row
// destination (indices 1, 3, 5; 64-bit indices when B_SIZE is 64).
func copyToQuant(v *Variant) *job {
	const ne00, rows, dstRows = 256, 4, 8
	qk := uint32(quantK(v))
	j := &job{push: map[string]uint32{}, bf16: map[uint32]bool{}}
	set := v.Has("SET_ROWS")
	n := uint32(ne00 * rows)
	srcRows := uint32(rows)
	if set {
		srcRows = 3
		n = ne00 * srcRows
	}
	for k, x := range map[string]uint32{"ne": n,
		"ne00": ne00, "ne01": srcRows, "ne02": 1, "ne03": 1, "nb00": 1, "nb01": ne00, "nb02": ne00 * srcRows, "nb03": ne00 * srcRows} {
		j.push[k] = x
	}
	dst := "1"
	if set {
		dst = "2"
		for k, x := range map[string]uint32{"ne10": srcRows, "ne11": 1, "ne12": 1, "ne13": 1, "nb10": 1, "nb11": srcRows, "nb12": srcRows, "nb13": srcRows} {
			j.push[k] = x
		}
	}
	dr := uint32(rows)
	if set {
		dr = dstRows
	}
	for i, x := range []uint32{ne00, dr, 1, 1} {
		j.push["ne"+dst+strconv.Itoa(i)] = x
	}
	for i, x := range []uint32{1, ne00 / qk, ne00 / qk * dr, ne00 / qk * dr} {
		j.push["nb"+dst+strconv.Itoa(i)] = x
	}
	ls := map[string]uint32{}
	tensorPush(ls, [4]uint32{ne00, srcRows, 1, 1}, "0")
	for k, x := range ls {
		if strings.Contains(k, "mp") || strings.HasSuffix(k, "_Ls") {
			j.push[k] = x
		}
	}
	if set {
		// Only the divisors of the index tensor's shape differ from src0's.
		tensorPush(ls, [4]uint32{srcRows, 1, 1, 1}, "1")
		for _, k := range []string{"ne1_012mp", "ne1_01mp", "ne1_0mp", "ne1_Ls"} {
			j.push[k] = ls[k]
		}
	}
	block := uint32(32)
	if set && qk == 1 {
		block = 512
	}
	j.groups = [3]uint32{(n/qk + block - 1) / block, 1, 1}
	j.elems = map[uint32]int{0: int(n)}
	if set {
		var idx []byte
		for r := range srcRows {
			idx = binary.LittleEndian.AppendUint32(idx, 2*r+1)
			if firstOf(v, "B_SIZE") == "64" {
				idx = binary.LittleEndian.AppendUint32(idx, 0)
			}
		}
		j.data = map[uint32][]byte{1: idx}
		j.elems[2] = ne00 * dstRows
		j.outputs = []uint32{2}
	} else {
		j.elems[1] = int(n)
		j.outputs = []uint32{1}
	}
	return j
}
