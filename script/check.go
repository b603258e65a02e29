package script

import (
	"bytes"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"
)

// mismatch collects the failures of one check.
type mismatch struct {
	max   int
	count int
	diffs []Diff
}

func (m *mismatch) add(i int, where, got, want string) {
	m.count++
	if len(m.diffs) < m.max {
		m.diffs = append(m.diffs, Diff{Index: i, Where: where, Got: got, Want: want})
	}
}

func (m *mismatch) result(line int, what string, total int) Result {
	r := Result{Line: line, What: what, Pass: m.count == 0, Count: m.count, Total: total, Diffs: m.diffs}
	if m.count > 0 {
		var b strings.Builder
		fmt.Fprintf(&b, "%d of %d values differ:", m.count, total)
		for _, d := range m.diffs {
			fmt.Fprintf(&b, "\n%s got %s, want %s", d.Where, d.Got, d.Want)
		}
		if m.count > len(m.diffs) {
			fmt.Fprintf(&b, "\n...")
		}
		r.Msg = b.String()
	}
	return r
}

// where names scalar component i of a buffer of type t.
func where(t DataType, i int) string {
	if n := t.Comps(); n > 1 {
		return fmt.Sprintf("[%d][%d]", i/n, i%n)
	}
	return fmt.Sprintf("[%d]", i)
}

func failed(e *Expect, err error) Result {
	return Result{Line: e.Line, What: e.Text, Msg: err.Error()}
}

// check evaluates one EXPECT on the state's device.
func (st *state) check(e *Expect) Result {
	if e.Probe != nil {
		r := st.checkProbe(e)
		r.Device = st.dev.Name()
		return r
	}
	t := st.s.Buffer(e.Buffer).Type
	var r Result
	switch {
	case e.Mode == "IDX":
		got, err := st.readPart(e.Buffer, e.Start, e.Start+len(e.Values))
		if err != nil {
			return failed(e, err)
		}
		r = st.checkIdx(e, t, got)
	case e.Matmul != nil:
		got, err := st.read(e.Buffer)
		if err != nil {
			return failed(e, err)
		}
		r = st.checkMatmul(e, t, got)
	default:
		r = st.checkBuffer(e, t)
	}
	r.Device = st.dev.Name()
	return r
}

// scanPair calls fn with components [i0, i1) of buffer a on sa and of
// buffer b on sb (n components each), a chunk of whole elements at a
// time, so comparing two large buffers read through a device's Read
// copies a chunk of each, never a whole buffer.
func scanPair(sa *state, a string, sb *state, b string, n int, fn func(va, vb values, i0, i1 int)) error {
	// Whole elements of both types, and whole bytes of 4-bit types.
	unit := sa.s.Buffer(a).Type.Comps() * sb.s.Buffer(b).Type.Comps() * 2
	step := max(1, chunkBytes/8/unit) * unit
	for i0 := 0; i0 < n; i0 += step {
		i1 := min(i0+step, n)
		va, err := sa.readPart(a, i0, i1)
		if err != nil {
			return err
		}
		vb, err := sb.readPart(b, i0, i1)
		if err != nil {
			return err
		}
		fn(va, vb, i0, i1)
	}
	return nil
}

func (st *state) checkIdx(e *Expect, t DataType, got values) Result {
	m := mismatch{max: st.opts.MaxDiffs}
	for k, want := range e.Values {
		i := e.Start + k
		g := got.at(i)
		var ok bool
		switch e.Op {
		case "EQ":
			ok = within(t, g, want, tolFor(e.Tol, i%t.Comps()))
		case "NE":
			ok = !within(t, g, want, nil)
		default:
			c := order(t, g, want)
			ok = c != 2 && (e.Op == "LT" && c < 0 || e.Op == "LE" && c <= 0 || e.Op == "GT" && c > 0 || e.Op == "GE" && c >= 0)
		}
		if !ok {
			w := t.String(want)
			if e.Op != "EQ" {
				w = strings.ToLower(e.Op) + " " + w
			}
			m.add(i, where(t, i), t.String(g), w)
		}
	}
	return m.result(e.Line, e.Text, len(e.Values))
}

// order compares two values of t: -1, 0 or 1, and 2 when unordered (NaN).
func order(t DataType, a, b Value) int {
	switch t.Kind {
	case Float:
		switch {
		case a.F < b.F:
			return -1
		case a.F > b.F:
			return 1
		case a.F == b.F:
			return 0
		}
		return 2
	case Int:
		x, y := int64(a.I), int64(b.I)
		if x < y {
			return -1
		} else if x > y {
			return 1
		}
		return 0
	}
	if a.I < b.I {
		return -1
	} else if a.I > b.I {
		return 1
	}
	return 0
}

// tolFor is the tolerance of component c, nil for exact.
func tolFor(tols []Tolerance, c int) *Tolerance {
	if len(tols) == 0 {
		return nil
	}
	return &tols[min(c, len(tols)-1)]
}

// within reports whether got matches want: exactly (NaN matches NaN) or
// within tol.
func within(t DataType, got, want Value, tol *Tolerance) bool {
	if t.Kind != Float {
		if got.I == want.I {
			return true
		}
		if tol == nil {
			return false
		}
	} else {
		g, w := got.F, want.F
		if math.IsNaN(g) || math.IsNaN(w) {
			return math.IsNaN(g) && math.IsNaN(w)
		}
		if g == w {
			return true
		}
		if tol == nil || math.IsInf(g, 0) || math.IsInf(w, 0) {
			return false
		}
	}
	g, w := t.Float(got), t.Float(want)
	d := math.Abs(g - w)
	return tol.Abs > 0 && d <= tol.Abs ||
		tol.Rel > 0 && d <= tol.Rel*math.Abs(w) ||
		tol.ULP > 0 && d <= float64(tol.ULP)*ulp(t, w)
}

func (st *state) checkBuffer(e *Expect, t DataType) Result {
	n := st.s.Buffer(e.Buffer).N
	ot := st.s.Buffer(e.Other).Type
	if e.Mode == "RMSE_BUFFER" {
		rmse, err := rmse(st, e.Buffer, st, e.Other, n)
		if err != nil {
			return failed(e, err)
		}
		if !(rmse <= e.RMSE) {
			return Result{Line: e.Line, What: e.Text, Count: 1, Total: n,
				Msg: fmt.Sprintf("RMSE %g exceeds %g", rmse, e.RMSE)}
		}
		return Result{Line: e.Line, What: e.Text, Pass: true, Total: n}
	}
	same := ot.Kind == t.Kind && ot.Bits == t.Bits && ot.Exp == t.Exp
	m := mismatch{max: st.opts.MaxDiffs}
	err := scanPair(st, e.Buffer, st, e.Other, n, func(got, other values, i0, i1 int) {
		for i := i0; i < i1; i++ {
			g, want := got.at(i), other.at(i)
			if !same {
				want = t.fromFloat(ot.Float(want))
			}
			if !within(t, g, want, tolFor(e.Tol, i%t.Comps())) {
				m.add(i, where(t, i), t.String(g), t.String(want))
			}
		}
	})
	if err != nil {
		return failed(e, err)
	}
	return m.result(e.Line, e.Text, n)
}

// rmse is the root-mean-square difference of the n components of buffer
// a on sa and buffer b on sb.
func rmse(sa *state, a string, sb *state, b string, n int) (float64, error) {
	if n == 0 {
		return 0, nil
	}
	sum := 0.0
	err := scanPair(sa, a, sb, b, n, func(va, vb values, i0, i1 int) {
		for i := i0; i < i1; i++ {
			d := va.float(i) - vb.float(i)
			sum += float64(d * d)
		}
	})
	return math.Sqrt(sum / float64(n)), err
}

// operand is a matrix in a buffer: element (r, c) of batch n is at
// n*batchSize + r*rs + c*cs. Values are decoded as the product reads
// them, so checking a large product costs no copy of its operands.
type operand struct {
	rs, cs, batchSize int
	v                 values
}

func newOperand(vals values, rows, cols int, trans bool, stride int) operand {
	o := operand{rs: stride, cs: 1, batchSize: rows * stride, v: vals}
	if trans {
		o.rs, o.cs, o.batchSize = 1, stride, cols*stride
	}
	return o
}

func (o *operand) int(n, r, c int) int64 { return int64(o.v.at(o.at(n, r, c)).I) }

func (o *operand) float(n, r, c int) float64 { return o.v.float(o.at(n, r, c)) }

func (o *operand) at(n, r, c int) int { return n*o.batchSize + r*o.rs + c*o.cs }

// checkMatmul compares C with A x B (+ Add) computed here: in int64 when
// every operand is an integer type (wrapping, or saturating with
// SATURATE, to C's width), else in float64 rounded once to C's type.
func (st *state) checkMatmul(e *Expect, t DataType, got values) Result {
	mm := e.Matmul
	types := []DataType{t, st.s.Buffer(mm.A).Type, st.s.Buffer(mm.B).Type}
	names := []string{mm.A, mm.B}
	if mm.Add != "" {
		types = append(types, st.s.Buffer(mm.Add).Type)
		names = append(names, mm.Add)
	}
	exact := true
	for _, ty := range types {
		exact = exact && ty.Kind != Float
	}
	ops := make([]operand, len(names))
	shapes := [][2]int{{mm.M, mm.K}, {mm.K, mm.N}, {mm.M, mm.N}}
	trans := []bool{mm.TransA, mm.TransB, mm.TransC}
	strides := []int{mm.StrideA, mm.StrideB, mm.StrideC}
	for k, name := range names {
		vals, err := st.read(name)
		if err != nil {
			return failed(e, err)
		}
		ops[k] = newOperand(vals, shapes[k][0], shapes[k][1], trans[k], strides[k])
	}
	c := newOperand(got, mm.M, mm.N, mm.TransC, mm.StrideC)
	cells := mm.Batch * mm.M * mm.N
	n := cells
	if mm.Sample > 0 && mm.Sample < cells {
		n = mm.Sample
	}
	cell := func(s int) int {
		if n == cells {
			return s
		}
		// A multiplicative hash spreads the samples over every row,
		// column and batch.
		return int((uint64(s)*2654435761 + 12345) % uint64(cells))
	}
	want := make([]Value, n)
	workers := min(runtime.GOMAXPROCS(0), max(1, n*mm.K/(1<<16)))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := w; s < n; s += workers {
				idx := cell(s)
				b, i, j := idx/(mm.M*mm.N), idx/mm.N%mm.M, idx%mm.N
				want[s] = matmulCell(mm, t, ops, b, i, j, exact)
			}
		}()
	}
	wg.Wait()
	m := mismatch{max: st.opts.MaxDiffs}
	for s := range n {
		idx := cell(s)
		b, i, j := idx/(mm.M*mm.N), idx/mm.N%mm.M, idx%mm.N
		ci := c.at(b, i, j)
		if g := got.at(ci); !within(t, g, want[s], tolFor(e.Tol, 0)) {
			loc := fmt.Sprintf("[%d] (row %d, col %d)", ci, i, j)
			if mm.Batch > 1 {
				loc = fmt.Sprintf("[%d] (batch %d, row %d, col %d)", ci, b, i, j)
			}
			m.add(ci, loc, t.String(g), t.String(want[s]))
		}
	}
	return m.result(e.Line, e.Text, n)
}

func matmulCell(mm *Matmul, t DataType, ops []operand, b, i, j int, exact bool) Value {
	a, bm := &ops[0], &ops[1]
	if exact {
		var sum int64
		for k := range mm.K {
			sum += a.int(b, i, k) * bm.int(b, k, j)
		}
		if len(ops) > 2 {
			sum += ops[2].int(b, i, j)
		}
		if mm.Saturate {
			return saturate(t, sum)
		}
		return t.wrap(uint64(sum))
	}
	sum := 0.0
	for k := range mm.K {
		sum += float64(a.float(b, i, k) * bm.float(b, k, j))
	}
	if len(ops) > 2 {
		sum += ops[2].float(b, i, j)
	}
	if t.Kind != Float && mm.Saturate {
		return saturate(t, int64(math.Max(-1<<63, math.Min(sum, 1<<63-1))))
	}
	return t.fromFloat(sum)
}

// saturate clamps v to t's integer range.
func saturate(t DataType, v int64) Value {
	if t.Bits == 64 {
		if t.Kind == Uint && v < 0 {
			v = 0
		}
		return Value{I: uint64(v)}
	}
	lo, hi := int64(0), int64(1)<<t.Bits-1
	if t.Kind == Int {
		lo, hi = -(int64(1) << (t.Bits - 1)), int64(1)<<(t.Bits-1)-1
	}
	return t.wrap(uint64(min(max(v, lo), hi)))
}

// bufferTolerance merges the tolerances of the EXPECTs on a buffer (the
// largest of each kind per component) and the largest RMSE bound.
func bufferTolerance(s *Script, name string) ([]Tolerance, float64) {
	var tols []Tolerance
	rmse := 0.0
	for _, cmd := range s.Commands {
		e, ok := cmd.(*Expect)
		if !ok || e.Buffer != name {
			continue
		}
		rmse = math.Max(rmse, e.RMSE)
		for c, t := range e.Tol {
			for len(tols) <= c {
				if len(tols) > 0 {
					tols = append(tols, tols[len(tols)-1])
				} else {
					tols = append(tols, Tolerance{})
				}
			}
			tols[c].Abs = math.Max(tols[c].Abs, t.Abs)
			tols[c].Rel = math.Max(tols[c].Rel, t.Rel)
			tols[c].ULP = max(tols[c].ULP, t.ULP)
		}
	}
	return tols, rmse
}

// compareBuffer compares a buffer between the two devices of Compare.
func compareBuffer(sa, sb *state, buf *Buffer, skip []int) Result {
	what := fmt.Sprintf("BUFFER %s same on both devices", buf.Name)
	res := Result{Line: buf.Line, What: what, Device: sa.dev.Name() + " vs " + sb.dev.Name()}
	t := buf.Type
	tols, rmseBound := bufferTolerance(sa.s, buf.Name)
	if len(tols) == 0 && rmseBound > 0 {
		what += fmt.Sprintf(" (RMSE %g)", rmseBound)
		r, err := rmse(sa, buf.Name, sb, buf.Name, buf.N)
		if err != nil {
			res.Msg = err.Error()
			return res
		}
		if !(r <= rmseBound) {
			res.What, res.Count, res.Total = what, 1, buf.N
			res.Msg = fmt.Sprintf("RMSE between %s and %s is %g, above %g", sa.dev.Name(), sb.dev.Name(), r, rmseBound)
			return res
		}
		res.What, res.Pass, res.Total = what, true, buf.N
		return res
	}
	m := mismatch{max: sa.opts.MaxDiffs}
	n := 0
	err := scanPair(sa, buf.Name, sb, buf.Name, buf.N, func(va, vb values, i0, i1 int) {
		for i := i0; i < i1; i++ {
			if isAddress(t, i, skip) {
				continue
			}
			n++
			if a, b := va.at(i), vb.at(i); !within(t, a, b, tolFor(tols, i%t.Comps())) {
				m.add(i, where(t, i), t.String(a)+" on "+sa.dev.Name(), t.String(b)+" on "+sb.dev.Name())
			}
		}
	})
	if err != nil {
		res.Msg = err.Error()
		return res
	}
	r := m.result(buf.Line, what, n)
	r.Device = res.Device
	if !r.Pass {
		r.Msg = strings.Replace(r.Msg, "values differ:", "values differ between the devices:", 1)
	}
	return r
}

// compareOpaque compares a buffer holding a matrix in the devices'
// optimal layouts (cm put it there): each device converts its bytes back
// to row-major, and the two matrices are compared element by element,
// within the tolerance of the EXPECTs on the buffer, as values of the
// buffer's type when its elements are the matrix's, else bit for bit.
func compareOpaque(sa, sb *state, buf *Buffer, cm *ConvertMatrix) Result {
	what := fmt.Sprintf("BUFFER %s (a %d x %d %s matrix in each device's %v layout) same on both devices after converting it to row_major", buf.Name, cm.Rows, cm.Cols, cm.Type, cm.DstLayout)
	res := Result{Line: buf.Line, What: what, Device: sa.dev.Name() + " vs " + sb.dev.Name()}
	pa, err := sa.plainMatrix(buf.Name, cm)
	if err != nil {
		res.Msg = err.Error()
		return res
	}
	pb, err := sb.plainMatrix(buf.Name, cm)
	if err != nil {
		res.Msg = err.Error()
		return res
	}
	n := cm.Rows * cm.Cols
	if len(pa) != len(pb) || len(pa)%n != 0 {
		res.Msg = fmt.Sprintf("the row-major matrices take %d bytes on %s and %d on %s", len(pa), sa.dev.Name(), len(pb), sb.dev.Name())
		return res
	}
	t, es := buf.Type, len(pa)/n
	typed := t.Comps() == 1 && t.Bits == es*8
	tols, _ := bufferTolerance(sa.s, buf.Name)
	m := mismatch{max: sa.opts.MaxDiffs}
	va, vb := newValues(t, pa, n, 0), newValues(t, pb, n, 0)
	for i := range n {
		at := fmt.Sprintf("(%d, %d)", i/cm.Cols, i%cm.Cols)
		if typed {
			if a, b := va.at(i), vb.at(i); !within(t, a, b, tolFor(tols, 0)) {
				m.add(i, at, t.String(a)+" on "+sa.dev.Name(), t.String(b)+" on "+sb.dev.Name())
			}
		} else if x, y := pa[i*es:(i+1)*es], pb[i*es:(i+1)*es]; !bytes.Equal(x, y) {
			m.add(i, at, fmt.Sprintf("%x on %s", x, sa.dev.Name()), fmt.Sprintf("%x on %s", y, sb.dev.Name()))
		}
	}
	r := m.result(buf.Line, what, n)
	r.Device = res.Device
	if !r.Pass {
		r.Msg = strings.Replace(r.Msg, "values differ:", "values differ between the devices:", 1)
	}
	return r
}

// isAddress reports whether component i overlaps an 8-byte address slot.
func isAddress(t DataType, i int, slots []int) bool {
	if len(slots) == 0 || t.Bits == 4 {
		return false
	}
	o := t.offset(i)
	for _, s := range slots {
		if o < s+8 && o+t.scalarSize() > s {
			return true
		}
	}
	return false
}
