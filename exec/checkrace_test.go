package exec_test

import (
	"strings"
	"testing"

	"github.com/coopshader/coop/exec"
)

// checkTile: every element of sh is read by several invocations between
// two barriers, then rewritten in the next iteration (a shared-memory
// tile's life in a tiled matmul); RACE, where set, drops the second
// barrier, so the rewrite races with the reads.
const checkTile = staleHeader + `layout(local_size_x = 16, local_size_y = 4) in;
shared uint sh[64];
void main() {
	uint li = gl_LocalInvocationIndex;
	uint acc = li;
	for (uint k = 0u; k < 4u; k++) {
		sh[li] = acc;
		barrier();
		acc += sh[63u - li] + sh[(li * 5u + k) & 63u] + sh[k];
		BARRIER
	}
	u[gl_WorkGroupID.x * 64u + li] = acc;
}
`

// TestCheckSeveralReadersThenBarrier: Options.Check accepts a write after
// a workgroup barrier to a byte several invocations read before it, and
// reports it without the barrier, one at a time and in lockstep.
func TestCheckSeveralReadersThenBarrier(t *testing.T) {
	for _, sgs := range []int{16, 64} {
		for _, o := range []exec.Options{{SubgroupSize: sgs, Check: true}, exec.NoLockstep(exec.Options{SubgroupSize: sgs, Check: true})} {
			if _, err := runStale(t, strings.ReplaceAll(checkTile, "BARRIER", "barrier();"), [3]uint32{2, 1, 1}, o); err != nil {
				t.Errorf("%+v: %v", o, err)
			}
			_, err := runStale(t, strings.ReplaceAll(checkTile, "BARRIER", ""), [3]uint32{2, 1, 1}, o)
			if err == nil || !strings.Contains(err.Error(), "data race on workgroup memory") {
				t.Errorf("%+v without the barrier: %v, want a data race", o, err)
			}
		}
	}
}
