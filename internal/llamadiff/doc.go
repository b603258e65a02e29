// Package llamadiff runs llama.cpp's Vulkan shaders (ggml-vulkan, every
// variant its generator builds, listed in ../shared/corpus/ggml-vulkan/
// variants.tsv) on the reference executor with realistic inputs: ggml's
// specialization constants, push constants and dispatch sizes for the
// shader's family, and buffers filled with random values of each member's
// own type. The test compiles each variant with coop and, when the
// reference compiler is present, with glslangValidator, runs both modules
// on the same inputs and requires every buffer to be identical; where a
// plain Go reference is cheap (float matrix products and matrix-vector
// products, element-wise operations) the result is also checked against it.
//
// The harness is test support only; nothing outside tests imports it.
package llamadiff
