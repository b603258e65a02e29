package exec_test

import (
	"testing"

	"github.com/coopshader/coop/exec"
)

// TestLlamaBatch runs llama.cpp's variants (matrix-vector products,
// reductions through shared memory and subgroup operations, softmax,
// norms, ...) with the harness's realistic inputs with their workgroups
// in batches (exec.Batched: batchSize in dispatches of any size) and one
// workgroup at a time, and requires the same buffers, or the same fault:
// a batch must give each workgroup its own ids, shared memory and
// barriers. A sample of one variant in eight (32 with -short);
// -llama.all or -llama.every runs them all.
func TestLlamaBatch(t *testing.T) {
	all := func(string) bool { return true }
	compareLlama(t, all, 1, exec.New(exec.Batched(exec.Options{})), "batched",
		exec.New(exec.Options{}), "one by one")
}
