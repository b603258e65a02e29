package exec

import (
	"fmt"
	"math/bits"
)

// DefaultWorkBudget is the number of instructions all invocations of one
// dispatch may execute together unless Options.WorkBudget or
// backend.Dispatch.WorkBudget says otherwise: about a minute or two of
// the executor's time, far more than the examples and benchmarks need,
// so a dispatch sized by mistake (65535 x 65535 x 64 workgroups) fails
// at once or soon, naming the budget, instead of running for a day.
const DefaultWorkBudget = 1 << 36

// workBudget picks the dispatch's budget over the device's.
func workBudget(dev, dispatch int64) int64 {
	switch {
	case dispatch != 0:
		return dispatch
	case dev != 0:
		return dev
	}
	return DefaultWorkBudget
}

// checkCounts returns the number of workgroups of the dispatch, checked
// in 64 bits, and refuses a dispatch whose invocations alone exceed the
// work budget (each executes at least one instruction).
func (x *dispatchRun) checkCounts() (uint64, error) {
	g, l := x.groups, x.p.local
	hi, total := bits.Mul64(uint64(g[0])*uint64(g[1]), uint64(g[2]))
	if hi != 0 {
		return 0, fmt.Errorf("dispatch of %d x %d x %d workgroups: the workgroup count does not fit in 64 bits", g[0], g[1], g[2])
	}
	hi, inv := bits.Mul64(total, uint64(l[0])*uint64(l[1])*uint64(l[2]))
	if x.work >= 0 && (hi != 0 || inv > uint64(x.work)) {
		what := fmt.Sprint(inv)
		if hi != 0 {
			what = "more than 2^64"
		}
		return 0, fmt.Errorf("dispatch of %d x %d x %d workgroups of %d x %d x %d invocations (%s invocations) exceeds the work budget of %d instructions per dispatch (exec.Options.WorkBudget, backend.Dispatch.WorkBudget)",
			g[0], g[1], g[2], l[0], l[1], l[2], what, x.work)
	}
	return total, nil
}

// spend charges the instructions the workgroup just run executed to the
// dispatch's work budget; done workgroups had finished before it.
func (x *dispatchRun) spend(wg *wgState, done, total uint64) error {
	if x.work < 0 {
		return nil
	}
	var n int64
	for _, l := range wg.lanes {
		n += x.budget - l.steps
	}
	if used := x.worked.Add(n); used > x.work {
		return fmt.Errorf("dispatch stopped after about %d of %d workgroups: the work budget of %d instructions per dispatch is spent (exec.Options.WorkBudget, backend.Dispatch.WorkBudget)",
			done+1, total, x.work)
	}
	return nil
}
