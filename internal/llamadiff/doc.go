// Package llamadiff runs llama.cpp's Vulkan shaders (ggml-vulkan, every
// variant its generator builds, listed in ../shared/corpus/ggml-vulkan/
// variants.tsv) on the reference executor with realistic inputs: ggml's
// specialization constants, push constants and dispatch sizes for the
// shader's family, and buffers filled with random values of each member's
// own type. The test compiles each variant with coop and, when the
// reference compiler is present, with glslangValidator, runs both modules
// on the same inputs and requires every buffer to be identical; where a
// plain Go reference is cheap (float matrix and matrix-vector products,
// attention, soft_max and the norms, rope, dequantization of q4_0 and
// q8_0, q8_1 quantization, argsort, im2col and the convolutions, the GLU
// and copy operations) the result is also checked against it.
//
// Each family (families.go and the files by kind of operation) sets a
// variant up as ggml-vulkan.cpp does: push-constant members by name,
// specialization constants by id, dispatch sizes from ggml's element
// counts and workgroup denominators, small odd shapes so that partial
// tiles and bounds checks run. Variants that need what one dispatch on
// the executor cannot give (buffer device addresses, fused rms_norm+rope)
// return no job and are reported as not run.
//
// The harness is test support only; nothing outside tests imports it
// (icd's tests take ggml's specialization constants from SpecFor).
package llamadiff
