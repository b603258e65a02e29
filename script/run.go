package script

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/coopshader/coop/backend"
)

// Compilers turn shader sources into SPIR-V words; the caller supplies
// them so this package does not depend on the compiler.
type Compilers struct {
	GLSL     func(name string, src []byte, opts GLSLOptions) ([]uint32, error)
	SPIRVAsm func(name string, src []byte) ([]uint32, error)
}

// GLSLOptions are passed to Compilers.GLSL.
type GLSLOptions struct {
	TargetEnv string
	// FirstLine is the script line the shader text starts on, so
	// diagnostics of inline shaders can name script lines.
	FirstLine int
}

// RunOptions control a run.
type RunOptions struct {
	TargetEnv string   // for GLSL shaders (default vulkan1.3)
	Dump      []string // buffers whose contents are written to DumpTo after the run
	DumpTo    io.Writer
	Timed     bool // time each dispatch on the device
}

// Result is the outcome of one EXPECT (or, in Compare, one buffer).
type Result struct {
	Line int
	What string
	Pass bool
	Msg  string // why it failed
}

// Timing is one timed RUN. Flops is 2*M*N*K when an EQ_MATMUL checks a
// buffer the run wrote, else 0.
type Timing struct {
	Line     int
	Pipeline string
	Groups   [3]uint32
	Elapsed  time.Duration
	Flops    float64
}

// Report is what a run found.
type Report struct {
	Script  string
	Device  string
	Results []Result
	Timings []Timing
}

// Failed counts failing results.
func (r *Report) Failed() int {
	n := 0
	for _, x := range r.Results {
		if !x.Pass {
			n++
		}
	}
	return n
}

// Format writes one line per result and per timed run.
func (r *Report) Format(w io.Writer) {
	for _, x := range r.Results {
		status := "PASS"
		if !x.Pass {
			status = "FAIL"
		}
		fmt.Fprintf(w, "%s %s:%d %s", status, r.Script, x.Line, x.What)
		if x.Msg != "" {
			fmt.Fprintf(w, "\n    %s", strings.ReplaceAll(x.Msg, "\n", "\n    "))
		}
		fmt.Fprintln(w)
	}
	for _, t := range r.Timings {
		fmt.Fprintf(w, "TIME %s:%d RUN %s %dx%dx%d on %s: %.3f ms", r.Script, t.Line, t.Pipeline, t.Groups[0], t.Groups[1], t.Groups[2], r.Device, float64(t.Elapsed.Nanoseconds())/1e6)
		if t.Flops > 0 && t.Elapsed > 0 {
			fmt.Fprintf(w, ", %.2f TFLOPS", t.Flops/t.Elapsed.Seconds()/1e12)
		}
		fmt.Fprintln(w)
	}
}

// state is one execution of a script on a device.
type state struct {
	s      *Script
	dev    backend.Device
	c      Compilers
	opts   RunOptions
	bufs   map[string]backend.Buffer
	code   map[string][]uint32
	report *Report
}

// Run executes s on dev: buffers are created and filled, each RUN
// dispatches, and each EXPECT checks the buffers as they are at that point.
// The error reports a failure to run at all (a shader that does not
// compile, a dispatch the device refuses); failed expectations are in the
// report.
func Run(s *Script, dev backend.Device, c Compilers, opts RunOptions) (*Report, error) {
	st, err := start(s, dev, c, opts)
	if err != nil {
		return nil, err
	}
	defer st.release()
	for _, cmd := range s.Commands {
		switch cmd := cmd.(type) {
		case *RunCmd:
			if err := st.dispatch(cmd); err != nil {
				return st.report, err
			}
		case *Expect:
			st.report.Results = append(st.report.Results, st.check(cmd))
		}
	}
	return st.report, st.dump()
}

func start(s *Script, dev backend.Device, c Compilers, opts RunOptions) (*state, error) {
	if opts.TargetEnv == "" {
		opts.TargetEnv = "vulkan1.3"
	}
	st := &state{s: s, dev: dev, c: c, opts: opts, bufs: map[string]backend.Buffer{}, code: map[string][]uint32{},
		report: &Report{Script: s.Name, Device: dev.Name()}}
	for _, b := range s.Buffers {
		data := b.Type.encode(b.Values)
		usage := backend.UsageStorage
		if b.Address {
			usage |= backend.UsageAddress
		}
		// Devices want non-empty buffers with 4-byte multiples.
		size := (len(data) + 3) &^ 3
		if size == 0 {
			size = 4
		}
		buf, err := dev.NewBuffer(size, usage)
		if err != nil {
			st.release()
			return nil, &Error{File: s.Name, Line: b.Line, Msg: fmt.Sprintf("buffer %s: %v", b.Name, err)}
		}
		if err := buf.Write(0, data); err != nil {
			return nil, &Error{File: s.Name, Line: b.Line, Msg: fmt.Sprintf("buffer %s: %v", b.Name, err)}
		}
		st.bufs[b.Name] = buf
	}
	for name, sh := range s.Shaders {
		words, err := st.compile(sh)
		if err != nil {
			st.release()
			return nil, err
		}
		st.code[name] = words
	}
	return st, nil
}

// release frees the script's buffers: device memory (a GPU's host-visible
// device-local heap above all) is not left to the next script.
func (st *state) release() {
	for _, b := range st.bufs {
		b.Release()
	}
}

func (st *state) compile(sh *Shader) ([]uint32, error) {
	fail := func(err error) error {
		return &Error{File: st.s.Name, Line: sh.Line, Msg: fmt.Sprintf("shader %s:\n%v", sh.Name, err)}
	}
	switch sh.Format {
	case "GLSL":
		if st.c.GLSL == nil {
			return nil, fail(fmt.Errorf("no GLSL compiler available"))
		}
		w, err := st.c.GLSL(sh.Path, sh.Source, GLSLOptions{TargetEnv: st.opts.TargetEnv, FirstLine: sh.Line})
		if err != nil {
			return nil, fail(err)
		}
		return w, nil
	case "SPIRV-ASM":
		if st.c.SPIRVAsm == nil {
			return nil, fail(fmt.Errorf("no SPIR-V assembler available"))
		}
		w, err := st.c.SPIRVAsm(sh.Path, sh.Source)
		if err != nil {
			return nil, fail(err)
		}
		return w, nil
	}
	// SPIRV-HEX: bytes in hex, whitespace ignored, little-endian words.
	h := strings.Join(strings.Fields(string(sh.Source)), "")
	b, err := hex.DecodeString(h)
	if err != nil || len(b)%4 != 0 {
		return nil, fail(fmt.Errorf("SPIRV-HEX must be whole 32-bit words of hexadecimal bytes"))
	}
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return w, nil
}

func (st *state) dispatch(r *RunCmd) error {
	pl := st.s.Pipelines[r.Pipeline]
	d := &backend.Dispatch{Code: st.code[pl.Shader], Entry: pl.Entry, Groups: r.Groups, Spec: pl.Spec,
		SubgroupSize: pl.Subgroup, Timed: st.opts.Timed}
	for _, a := range pl.Addresses {
		var addr [8]byte
		binary.LittleEndian.PutUint64(addr[:], st.bufs[a.Buffer].Address())
		if err := st.bufs[a.Into].Write(a.Offset, addr[:]); err != nil {
			return &Error{File: st.s.Name, Line: a.Line, Msg: err.Error()}
		}
	}
	for _, b := range pl.Binds {
		buf := st.bufs[b.Buffer]
		switch b.As {
		case "push_constant":
			pc := make([]byte, buf.Size())
			if err := buf.Read(0, pc); err != nil {
				return &Error{File: st.s.Name, Line: b.Line, Msg: err.Error()}
			}
			d.PushConstants = pc
		default:
			kind := backend.StorageBuffer
			if b.As == "uniform" {
				kind = backend.UniformBuffer
			}
			d.Bindings = append(d.Bindings, backend.Binding{Set: b.Set, Binding: b.Binding, Kind: kind, Buffer: buf})
		}
	}
	res, err := st.dev.Dispatch(d)
	if err != nil {
		return &Error{File: st.s.Name, Line: r.Line, Msg: fmt.Sprintf("RUN %s on %s: %v", r.Pipeline, st.dev.Name(), err)}
	}
	if st.opts.Timed {
		st.report.Timings = append(st.report.Timings, Timing{Line: r.Line, Pipeline: r.Pipeline, Groups: r.Groups, Elapsed: res.Elapsed, Flops: st.flops(pl)})
	}
	return nil
}

// flops is 2*M*N*K for the first EQ_MATMUL on a buffer the pipeline binds.
func (st *state) flops(pl *Pipeline) float64 {
	for _, c := range st.s.Commands {
		e, ok := c.(*Expect)
		if !ok || e.Mode != "EQ_MATMUL" {
			continue
		}
		for _, b := range pl.Binds {
			if b.Buffer == e.Buffer {
				return 2 * float64(e.M) * float64(e.N) * float64(e.K)
			}
		}
	}
	return 0
}

// read returns a buffer's current values.
func (st *state) read(name string) ([]Value, *Buffer, error) {
	var b *Buffer
	for _, x := range st.s.Buffers {
		if x.Name == name {
			b = x
		}
	}
	data := make([]byte, b.Type.byteSize(len(b.Values)))
	if err := st.bufs[name].Read(0, data); err != nil {
		return nil, nil, err
	}
	return b.Type.decode(data, len(b.Values)), b, nil
}

func (st *state) dump() error {
	for _, name := range st.opts.Dump {
		vals, b, err := st.read(name)
		if b == nil || err != nil {
			return fmt.Errorf("--dump %s: no such buffer", name)
		}
		w := st.opts.DumpTo
		fmt.Fprintf(w, "BUFFER %s (%s, %d values)\n", name, b.Type.Name, len(vals))
		for i, v := range vals {
			sep := " "
			if (i+1)%8 == 0 || i == len(vals)-1 {
				sep = "\n"
			}
			fmt.Fprint(w, b.Type.String(v), sep)
		}
	}
	return nil
}

// mismatch collects the first differing elements of a comparison.
type mismatch struct {
	count int
	lines []string
}

func (m *mismatch) add(i int, got, want string) {
	m.count++
	if len(m.lines) < 8 {
		m.lines = append(m.lines, fmt.Sprintf("[%d] got %s, want %s", i, got, want))
	}
}

func (m *mismatch) result(line int, what string, total int) Result {
	if m.count == 0 {
		return Result{Line: line, What: what, Pass: true}
	}
	return Result{Line: line, What: what, Msg: fmt.Sprintf("%d of %d values differ:\n%s", m.count, total, strings.Join(m.lines, "\n"))}
}

func (st *state) check(e *Expect) Result {
	got, b, err := st.read(e.Buffer)
	if err != nil {
		return Result{Line: e.Line, What: e.Text, Msg: err.Error()}
	}
	t := b.Type
	var m mismatch
	switch e.Mode {
	case "IDX":
		for i, s := range e.Values {
			want, _ := t.parseValue(s)
			if !within(t, got[e.Index+i], want, e.Tol) {
				m.add(e.Index+i, t.String(got[e.Index+i]), t.String(want))
			}
		}
		return m.result(e.Line, e.Text, len(e.Values))
	case "EQ_BUFFER", "RMSE_BUFFER":
		other, ob, err := st.read(e.Other)
		if err != nil {
			return Result{Line: e.Line, What: e.Text, Msg: err.Error()}
		}
		if e.Mode == "RMSE_BUFFER" {
			sum := 0.0
			for i := range got {
				d := t.Float(got[i]) - ob.Type.Float(other[i])
				sum += d * d
			}
			rmse := math.Sqrt(sum / float64(len(got)))
			if rmse > e.Tol.RMSE {
				return Result{Line: e.Line, What: e.Text, Msg: fmt.Sprintf("RMSE %g exceeds %g", rmse, e.Tol.RMSE)}
			}
			return Result{Line: e.Line, What: e.Text, Pass: true}
		}
		for i := range got {
			want := other[i]
			if ob.Type.Kind != t.Kind || ob.Type.Bits != t.Bits {
				want = t.fromFloat(ob.Type.Float(want))
			}
			if !within(t, got[i], want, e.Tol) {
				m.add(i, t.String(got[i]), t.String(want))
			}
		}
		return m.result(e.Line, e.Text, len(got))
	}
	// EQ_MATMUL: C = A x B, all row-major, computed here independently.
	a, ab, err1 := st.read(e.A)
	bm, bb, err2 := st.read(e.B)
	if err1 != nil || err2 != nil {
		return Result{Line: e.Line, What: e.Text, Msg: "cannot read the operands"}
	}
	exactInt := t.Kind != Float && ab.Type.Kind != Float && bb.Type.Kind != Float
	cells := e.M * e.N
	n := cells
	if e.Sample > 0 && e.Sample < cells {
		n = e.Sample
	}
	for s := 0; s < n; s++ {
		idx := s
		if n < cells {
			// A fixed stride through the matrix, coprime-ish with its
			// width so samples fall in every row and column.
			idx = int((uint64(s)*2654435761 + 12345) % uint64(cells))
		}
		i, j := idx/e.N, idx%e.N
		var want Value
		if exactInt {
			var sum uint64
			for k := 0; k < e.K; k++ {
				sum += a[i*e.K+k].I * bm[k*e.N+j].I
			}
			want = t.wrap(sum)
		} else {
			sum := 0.0
			for k := 0; k < e.K; k++ {
				sum += ab.Type.Float(a[i*e.K+k]) * bb.Type.Float(bm[k*e.N+j])
			}
			want = Value{F: sum}
		}
		if !within(t, got[idx], want, e.Tol) {
			m.add(idx, t.String(got[idx]), t.String(want))
		}
	}
	return m.result(e.Line, e.Text, n)
}

// within reports whether got matches want within tol.
func within(t DataType, got, want Value, tol Tolerance) bool {
	if t.Kind != Float {
		if tol.Abs == 0 && tol.Rel == 0 {
			return got.I == want.I
		}
		d := math.Abs(t.Float(got) - t.Float(want))
		return d <= tol.Abs || d <= tol.Rel*math.Abs(t.Float(want))
	}
	g, w := got.F, want.F
	if math.IsNaN(g) || math.IsNaN(w) {
		return math.IsNaN(g) && math.IsNaN(w)
	}
	if g == w {
		return true
	}
	d := math.Abs(g - w)
	if tol.Abs > 0 && d <= tol.Abs || tol.Rel > 0 && d <= tol.Rel*math.Abs(w) {
		return true
	}
	if tol.ULP > 0 {
		return d <= float64(tol.ULP)*ulp(t, w)
	}
	return false
}

// ulp is the distance between w and the next value of t's format away
// from zero.
func ulp(t DataType, w float64) float64 {
	w = math.Abs(w)
	bias := 1<<(t.Exp-1) - 1
	_, e := math.Frexp(w)
	exp := e - 1
	if exp < 1-bias || w == 0 {
		exp = 1 - bias
	}
	return math.Ldexp(1, exp-t.Man)
}

// Compare runs s on two devices and compares every buffer afterwards,
// within the tolerance of an EXPECT on that buffer (exact otherwise);
// buffers that BIND BUFFER_ADDRESS writes device addresses into are left
// out. The report holds both runs' expectations, then one result per
// compared buffer.
func Compare(s *Script, a, b backend.Device, c Compilers, opts RunOptions) (*Report, error) {
	sa, err := start(s, a, c, opts)
	if err != nil {
		return nil, err
	}
	defer sa.release()
	sb, err := start(s, b, c, opts)
	if err != nil {
		return nil, err
	}
	defer sb.release()
	for _, cmd := range s.Commands {
		switch cmd := cmd.(type) {
		case *RunCmd:
			if err := sa.dispatch(cmd); err != nil {
				return sa.report, err
			}
			if err := sb.dispatch(cmd); err != nil {
				return sb.report, err
			}
		case *Expect:
			ra, rb := sa.check(cmd), sb.check(cmd)
			ra.What += " [" + a.Name() + "]"
			rb.What += " [" + b.Name() + "]"
			sa.report.Results = append(sa.report.Results, ra, rb)
		}
	}
	rep := sa.report
	rep.Device = a.Name() + " vs " + b.Name()
	rep.Timings = append(rep.Timings, sb.report.Timings...)
	// Buffers that receive device addresses differ between devices by
	// design; they are not compared.
	addrs := map[string]bool{}
	for _, pl := range s.Pipelines {
		for _, a := range pl.Addresses {
			addrs[a.Into] = true
		}
	}
	for _, buf := range s.Buffers {
		if addrs[buf.Name] {
			continue
		}
		tol := Tolerance{}
		for _, cmd := range s.Commands {
			if e, ok := cmd.(*Expect); ok && e.Buffer == buf.Name {
				tol.Abs = math.Max(tol.Abs, e.Tol.Abs)
				tol.Rel = math.Max(tol.Rel, e.Tol.Rel)
				tol.ULP = max(tol.ULP, e.Tol.ULP)
			}
		}
		va, _, err1 := sa.read(buf.Name)
		vb, _, err2 := sb.read(buf.Name)
		what := fmt.Sprintf("BUFFER %s same on %s and %s", buf.Name, a.Name(), b.Name())
		if err1 != nil || err2 != nil {
			rep.Results = append(rep.Results, Result{Line: buf.Line, What: what, Msg: "cannot read the buffer back"})
			continue
		}
		var m mismatch
		for i := range va {
			if !within(buf.Type, va[i], vb[i], tol) {
				m.add(i, buf.Type.String(va[i]), buf.Type.String(vb[i]))
			}
		}
		rep.Results = append(rep.Results, m.result(buf.Line, what, len(va)))
	}
	return rep, sa.dump()
}
