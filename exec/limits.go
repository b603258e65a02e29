package exec

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"

	"github.com/coopshader/coop/spirv"
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

// wgSteps is what starting a workgroup costs, in budget steps, on top
// of its instructions (its invocations' registers and memory are reset):
// a dispatch of many tiny workgroups is bounded too.
const wgSteps = 256

// checkCounts returns the number of workgroups of the dispatch, checked
// in 64 bits, and refuses a dispatch whose invocations and workgroups
// alone exceed the work budget (each invocation executes at least one
// instruction, each workgroup costs wgSteps).
func (x *dispatchRun) checkCounts() (uint64, error) {
	g, l := x.groups, x.p.local
	hi, total := bits.Mul64(uint64(g[0])*uint64(g[1]), uint64(g[2]))
	if hi != 0 {
		return 0, fmt.Errorf("dispatch of %d x %d x %d workgroups: the workgroup count does not fit in 64 bits", g[0], g[1], g[2])
	}
	hi, inv := bits.Mul64(total, uint64(l[0])*uint64(l[1])*uint64(l[2]))
	hi2, start := bits.Mul64(total, wgSteps)
	cost, carry := bits.Add64(inv, start, 0)
	if x.work >= 0 && (hi != 0 || hi2 != 0 || carry != 0 || cost > uint64(x.work)) {
		what := fmt.Sprint(inv)
		if hi != 0 {
			what = "more than 2^64"
		}
		return 0, fmt.Errorf("dispatch of %d x %d x %d workgroups of %d x %d x %d invocations (%s invocations) exceeds the work budget of %d instructions per dispatch (an invocation costs at least 1, a workgroup %d; exec.Options.WorkBudget, backend.Dispatch.WorkBudget)",
			g[0], g[1], g[2], l[0], l[1], l[2], what, x.work, wgSteps)
	}
	// A workgroup's invocations may not together exceed the budget
	// either: each gets its share at most, so one workgroup, whatever
	// it runs, stops within the budget too (spend names the budget).
	if x.work >= 0 {
		n := int64(l[0]) * int64(l[1]) * int64(l[2])
		if share := (x.work + n - 1) / n; share < x.budget {
			x.budget, x.capped = share, true
		}
	}
	return total, nil
}

// spend charges the instructions the workgroup just run executed to the
// dispatch's work budget; done workgroups had finished before it. err is
// the workgroup's own outcome: a step budget cut down to the work budget's
// share (checkCounts) is reported as the work budget. The charge gathers
// in the worker's pend until flush (the last workgroup of its claim) or
// until it reaches a 64th of the budget: one shared addition per claim,
// not per workgroup, which the other workers would wait on.
func (x *dispatchRun) spend(wg *wgState, err error, pend *int64, flush bool, done, total uint64) error {
	if err != nil {
		// e is declared here so that it escapes (errors.As) only on this
		// path, not once per workgroup.
		var e *Error
		if x.capped && errors.As(err, &e) && strings.HasPrefix(e.Msg, "step budget exhausted") {
			e.Msg = fmt.Sprintf("dispatch stopped in about workgroup %d of %d: the work budget of %d instructions per dispatch is spent (exec.Options.WorkBudget, backend.Dispatch.WorkBudget)", done+1, total, x.work)
			return e
		}
		return err
	}
	if x.work < 0 {
		return nil
	}
	n := int64(wgSteps) * int64(wg.groups)
	if wg.fresh {
		n += wg.spent
	} else {
		for _, l := range wg.lanes {
			n += x.budget - l.steps
		}
	}
	// Subgroups that finished in lockstep left their steps unsettled.
	n += wg.wide.fin * int64(len(wg.wide.sg))
	for i := range wg.meta {
		if !wg.subs {
			break // all 0 (reset)
		}
		n += wg.meta[i].fin * int64(len(wg.meta[i].sg))
	}
	*pend += n
	if !flush && *pend < x.work>>6 {
		return nil
	}
	n, *pend = *pend, 0
	if used := x.worked.Add(n); used > x.work {
		return fmt.Errorf("dispatch stopped after about %d of %d workgroups: the work budget of %d instructions per dispatch is spent (exec.Options.WorkBudget, backend.Dispatch.WorkBudget)",
			done+1, total, x.work)
	}
	return nil
}

// Work of the instructions that do more than an instruction's worth, in
// budget steps: a step is about one scalar instruction's time, so the
// budgets bound wall time whatever the instructions are. A cooperative
// matrix multiply costs a step per macsPerStep multiply-adds, a load,
// store, transpose or conversion a step per elemsPerStep elements, a
// value of many slots (an array, a large cooperative matrix's share) a
// step per slotsPerStep slots it makes or moves.
const (
	macsPerStep  = 8
	elemsPerStep = 4
	slotsPerStep = 64
)

// weigh sets instr.w: for a collective instruction the work of the whole
// scope, spread over its invocations when it runs (chargeColl); for any
// other the work beyond the one step each instruction costs.
func (p *prog) weigh() {
	for k := range p.code {
		in := &p.code[k]
		in.w = work(in)
	}
}

func slotsOf(t *typ) int64 {
	if t == nil {
		return 0
	}
	return int64(t.slots)
}

func work(in *instr) int64 {
	switch a := in.aux.(type) {
	case *coopMul:
		return int64(a.a.rows) * int64(a.a.cols) * int64(a.b.cols) / macsPerStep
	case *coopMem:
		return int64(a.mt.rows) * int64(a.mt.cols) / elemsPerStep
	case *tensorMem:
		return int64(a.mt.rows) * int64(a.mt.cols) / elemsPerStep
	case *cvecOp:
		// Per invocation: M x K products (matrix multiply, outer
		// product), each through a conversion.
		return int64(a.M) * int64(a.K)
	}
	if isCvecOp(in.op) {
		// At least 1, so charge sees it (and Options.Check its rules).
		return 1 + max(slotsOf(in.t), slotsOf(in.at))/slotsPerStep
	}
	if in.coll {
		// Transposes, reductions (their callbacks count as they run),
		// the QCOM conversions: every element of the matrix.
		var n int64
		for _, t := range [2]*typ{in.t, in.at} {
			if t != nil && t.kind == kCoopMat {
				n = max(n, int64(t.rows)*int64(t.cols))
			}
		}
		return n / elemsPerStep
	}
	n := max(slotsOf(in.t), slotsOf(in.at))
	if in.op == spirv.OpCopyMemory && in.at != nil {
		n = int64(in.at.size) / 8
	}
	return n / slotsPerStep
}

// charged wraps the vector handler of an instruction that has work of its
// own so that running it spends the work; a lane that overspends faults
// at its next instruction.
func charged(in *instr, v vecOp) vecOp {
	if v == nil || in.w <= 0 || in.coll {
		return v
	}
	w := in.w
	return func(sg []*lane, in *instr) bool {
		for _, l := range sg {
			l.steps -= w
		}
		return v(sg, in)
	}
}

// charge spends the work of a non-collective instruction on l (and
// checks the rules of a cooperative vector instruction, with
// Options.Check).
func (l *lane) charge(in *instr) error {
	if l.steps -= in.w; l.steps < 0 {
		return l.fail(in, "step budget exhausted by this instruction's work (%d steps; runaway loop?)", in.w)
	}
	if l.x != nil && l.x.check != nil && isCvecOp(in.op) {
		return l.x.check.cvec(in, l)
	}
	return nil
}

// chargeColl spends the work of a collective instruction on the
// invocations running it, an equal share each (in lockstep on counts
// settled before, sgMeta.settle).
func chargeColl(in *instr, act []*lane) error {
	if len(act) == 0 {
		return nil
	}
	if in.w > 0 {
		share := (in.w + int64(len(act)) - 1) / int64(len(act))
		for _, l := range act {
			if l.steps -= share; l.steps < 0 {
				return l.fail(in, "step budget exhausted by this instruction's work (%d steps for %d invocations; runaway loop?)", in.w, len(act))
			}
		}
	}
	if x := act[0].x; x != nil && x.check != nil {
		return x.check.coll(in, act)
	}
	return nil
}
