package script

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/devcheck"
	"github.com/coopshader/coop/internal/lazy"
	"github.com/coopshader/coop/spirv"
)

// Compilers turn shader sources into SPIR-V words. The caller supplies
// them so this package does not depend on the compiler; a nil function
// makes shaders of that format an error. SPIRV-HEX and SPIRV-BIN shaders
// need neither.
type Compilers struct {
	GLSL     func(name string, src []byte, opts CompileOptions) ([]uint32, error)
	SPIRVAsm func(name string, src []byte) ([]uint32, error)
}

// CompileOptions are passed to Compilers.GLSL.
type CompileOptions struct {
	TargetEnv   string   // the shader's TARGET_ENV, else RunOptions.TargetEnv
	Defines     []string // NAME or NAME=VALUE, from the shader's DEFINEs
	IncludeDirs []string // the directory of the shader's file
	Entry       string   // the entry point the pipeline runs
	// FirstLine is the script line an inline shader starts on (0 for a
	// shader file), so diagnostics can name script lines.
	FirstLine int
}

// RunOptions control a run.
type RunOptions struct {
	Compilers Compilers
	TargetEnv string   // for shaders without TARGET_ENV (default vulkan1.3)
	Dump      []string // buffers whose contents are written to DumpTo after the run
	DumpTo    io.Writer
	Timed     bool // time every RUN (RUN TIMED_EXECUTION times that one)
	MaxDiffs  int  // differing elements listed per failed EXPECT (default 8)
	// Progress, when set, is told how many workgroups of a RUN are done:
	// once with done 0 as the RUN starts, then as backend.Dispatch.Progress
	// is (from several goroutines at once; a GPU tells nothing more).
	Progress func(r *RunCmd, done, total uint64)
	// Validate, when set, checks each module once, after it is compiled
	// and before its first dispatch, for the shader's target environment;
	// an error stops the script (the CLI injects the validator, so this
	// package does not depend on it).
	Validate func(words []uint32, targetEnv string) error
}

// Result is the outcome of one EXPECT (or, in Compare, of one buffer).
type Result struct {
	Line   int
	What   string // the EXPECT as written, or the buffer compared
	Device string // the device it ran on (both, in Compare's buffer results)
	Pass   bool
	Msg    string // why it failed, with the first differing elements
	// Count is the number of values that failed of Total checked; Diffs
	// lists the first of them.
	Count, Total int
	Diffs        []Diff
}

// Diff is one differing value.
type Diff struct {
	Index int    // scalar component in the buffer
	Where string // e.g. "[7]", "[3][1]" (element, component) or "[5] (row 1, col 2)"
	Got   string
	Want  string
}

// Timing is one timed RUN.
type Timing struct {
	Line     int
	Pipeline string
	Groups   [3]uint32
	Device   string
	Elapsed  time.Duration
	// Flops is the work of the run when an EQ_MATMUL after it checks a
	// buffer its pipeline binds (2*M*N*K per matrix), else 0.
	Flops float64
}

// TFLOPS is the rate of the run in 10^12 operations per second, 0 when
// unknown.
func (t Timing) TFLOPS() float64 {
	if t.Flops == 0 || t.Elapsed <= 0 {
		return 0
	}
	return t.Flops / t.Elapsed.Seconds() / 1e12
}

// Report is what a run found.
type Report struct {
	Script  string
	Device  string
	Results []Result
	Timings []Timing
	// Notes are lines about the run as a whole (a Compare that ran on one
	// device only), printed first.
	Notes []string
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

// Format writes one PASS or FAIL line per result (a failure followed by
// its indented details) and one TIME line per timed run.
func (r *Report) Format(w io.Writer) {
	for _, n := range r.Notes {
		fmt.Fprintf(w, "NOTE %s: %s\n", r.Script, n)
	}
	for _, x := range r.Results {
		status := "PASS"
		if !x.Pass {
			status = "FAIL"
		}
		fmt.Fprintf(w, "%s %s:%d %s", status, r.Script, x.Line, x.What)
		if x.Device != "" && x.Device != r.Device {
			fmt.Fprintf(w, " [%s]", x.Device)
		}
		if x.Msg != "" {
			fmt.Fprintf(w, "\n    %s", strings.ReplaceAll(x.Msg, "\n", "\n    "))
		}
		fmt.Fprintln(w)
	}
	for _, t := range r.Timings {
		fmt.Fprintf(w, "TIME %s:%d RUN %s %dx%dx%d on %s: %.3f ms", r.Script, t.Line, t.Pipeline,
			t.Groups[0], t.Groups[1], t.Groups[2], t.Device, float64(t.Elapsed.Nanoseconds())/1e6)
		switch tf := t.TFLOPS(); {
		case tf >= 1:
			fmt.Fprintf(w, ", %.2f TFLOPS", tf)
		case tf > 0:
			fmt.Fprintf(w, ", %.3f GFLOPS", tf*1e3)
		}
		fmt.Fprintln(w)
	}
}

// Compile compiles every pipeline's shader (once per shader and entry
// point) and returns the SPIR-V words by pipeline name. Run and Compare
// call it; it is exported for callers that only want the modules.
func Compile(s *Script, opts RunOptions) (map[string][]uint32, error) {
	env := opts.TargetEnv
	if env == "" {
		env = "vulkan1.3"
	}
	type key struct{ shader, entry string }
	done := map[key][]uint32{}
	out := map[string][]uint32{}
	for _, name := range slices.Sorted(maps.Keys(s.Pipelines)) {
		pl := s.Pipelines[name]
		sh := s.Shaders[pl.Shader]
		k := key{sh.Name, pl.Entry}
		if sh.Format != "GLSL" {
			k.entry = "" // one module serves every entry point
		}
		if w, ok := done[k]; ok {
			out[name] = w
			continue
		}
		w, err := compileShader(s, sh, pl.Entry, env, opts.Compilers)
		if err != nil {
			return nil, err
		}
		if opts.Validate != nil {
			shEnv := env
			if sh.TargetEnv != "" {
				shEnv = sh.TargetEnv
			}
			if err := opts.Validate(w, shEnv); err != nil {
				return nil, &Error{File: s.Name, Line: sh.Line, Msg: fmt.Sprintf("shader %s: invalid module:\n%v", sh.Name, err), Err: err}
			}
		}
		done[k], out[name] = w, w
	}
	return out, nil
}

func compileShader(s *Script, sh *Shader, entry, env string, c Compilers) ([]uint32, error) {
	fail := func(err error) error {
		return &Error{File: s.Name, Line: sh.Line, Msg: fmt.Sprintf("shader %s: %v", sh.Name, err)}
	}
	switch sh.Format {
	case "GLSL":
		if c.GLSL == nil {
			return nil, fail(fmt.Errorf("no GLSL compiler available"))
		}
		if sh.TargetEnv != "" {
			env = sh.TargetEnv
		}
		w, err := c.GLSL(sh.Path, sh.Source, CompileOptions{TargetEnv: env, Defines: sh.Defines,
			IncludeDirs: []string{filepath.Dir(sh.Path)}, Entry: entry, FirstLine: sh.FirstLine})
		if err != nil {
			return nil, fail(err)
		}
		return w, nil
	case "SPIRV-ASM":
		if c.SPIRVAsm == nil {
			return nil, fail(fmt.Errorf("no SPIR-V assembler available"))
		}
		w, err := c.SPIRVAsm(sh.Path, sh.Source)
		if err != nil {
			return nil, fail(err)
		}
		return w, nil
	}
	return sh.Words, nil
}

// state is one execution of a script on a device.
type state struct {
	s        *Script
	dev      backend.Device
	opts     RunOptions
	code     map[string][]uint32 // by pipeline
	bufs     map[string]memory   // buffers and images, by name
	samplers map[string]backend.Sampler
	report   *Report
}

// memory is what buffers and images share: bytes to write and read.
type memory interface {
	Write(offset int, data []byte) error
	Read(offset int, data []byte) error
	Release()
}

// Run executes s on dev: buffers are created and filled, shaders
// compiled, each RUN dispatches and each EXPECT checks the buffers as they
// are at that point. The error reports a failure to run at all (a shader
// that does not compile, a dispatch the device refuses, ctx cancelled);
// failed expectations are in the report, which is returned as far as it
// got even with an error.
func Run(ctx context.Context, s *Script, dev backend.Device, opts RunOptions) (*Report, error) {
	if err := checkStart(s, opts); err != nil {
		return nil, err
	}
	code, err := Compile(s, opts)
	if err != nil {
		return nil, err
	}
	st, err := start(s, dev, code, opts)
	if err != nil {
		return nil, err
	}
	defer st.release()
	for _, cmd := range s.Commands {
		if err := ctx.Err(); err != nil {
			return st.report, err
		}
		if e, ok := cmd.(*Expect); ok {
			r := st.check(e)
			st.report.Results = append(st.report.Results, r)
			continue
		}
		if err := st.exec(ctx, cmd); err != nil {
			return st.report, err
		}
	}
	return st.report, st.dump(opts.DumpTo, "")
}

// checkStart checks what Run and Compare need before they start: something
// to run, and the buffers RunOptions.Dump names.
func checkStart(s *Script, opts RunOptions) error {
	if len(s.Commands) == 0 {
		// An empty script (or one of declarations only) would pass
		// without testing anything.
		return &Error{File: s.Name, Line: 1, Msg: "expected RUN, COPY or EXPECT commands, got none: the script tests nothing"}
	}
	for _, name := range opts.Dump {
		if s.Buffer(name) == nil {
			return fmt.Errorf("%s: cannot dump %q: no such buffer", s.Name, name)
		}
	}
	if len(opts.Dump) > 0 && opts.DumpTo == nil {
		return fmt.Errorf("%s: RunOptions.Dump needs DumpTo", s.Name)
	}
	return nil
}

func start(s *Script, dev backend.Device, code map[string][]uint32, opts RunOptions) (*state, error) {
	if opts.MaxDiffs <= 0 {
		opts.MaxDiffs = 8
	}
	st := &state{s: s, dev: dev, opts: opts, code: code, bufs: map[string]memory{}, samplers: map[string]backend.Sampler{},
		report: &Report{Script: s.Name, Device: dev.Name()}}
	for _, b := range s.Buffers {
		var m memory
		var err error
		if b.Image != nil {
			var img backend.Image
			if img, err = dev.NewImage(*b.Image); err == nil {
				m = img
			}
		} else {
			usage := backend.UsageStorage
			if b.Address {
				usage |= backend.UsageAddress
			}
			if b.Host {
				usage |= backend.UsageHost
			}
			// Devices want non-empty buffers of whole words.
			size := max((b.Size()+3)&^3, 4)
			var buf backend.Buffer
			if buf, err = dev.NewBuffer(size, usage); err == nil {
				m = buf
			}
		}
		if m != nil {
			st.bufs[b.Name] = m
			err = b.contents(m.Write)
		}
		if err != nil {
			st.release()
			return nil, &Error{File: s.Name, Line: b.Line, Msg: fmt.Sprintf("buffer %s on %s: %v", b.Name, dev.Name(), err)}
		}
	}
	for _, sm := range s.Samplers {
		smp, err := dev.NewSampler(sm.Desc)
		if err != nil {
			st.release()
			return nil, &Error{File: s.Name, Line: sm.Line, Msg: fmt.Sprintf("sampler %s on %s: %v", sm.Name, dev.Name(), err)}
		}
		st.samplers[sm.Name] = smp
	}
	return st, nil
}

// release frees the script's buffers, so device memory (a GPU's
// device-local host-visible heap above all) is not left to the next script.
func (st *state) release() {
	for _, b := range st.bufs {
		b.Release()
	}
	for _, s := range st.samplers {
		s.Release()
	}
}

// exec performs a RUN or COPY.
func (st *state) exec(ctx context.Context, cmd Command) error {
	fail := func(line int, err error) error {
		return &Error{File: st.s.Name, Line: line, Msg: fmt.Sprintf("on %s: %v", st.dev.Name(), err), Err: err}
	}
	if c, ok := cmd.(*ConvertMatrix); ok {
		if err := st.convertMatrix(c); err != nil {
			return fail(c.Line, err)
		}
		return nil
	}
	if c, ok := cmd.(*Copy); ok {
		data, err := st.bytes(c.From, 0, st.s.Buffer(c.From).Size())
		if err != nil {
			return fail(c.Line, err)
		}
		if err := st.bufs[c.To].Write(0, data); err != nil {
			return fail(c.Line, err)
		}
		return nil
	}
	r := cmd.(*RunCmd)
	pl := st.s.Pipelines[r.Pipeline]
	timed := st.opts.Timed || r.Timed
	d := &backend.Dispatch{Code: st.code[r.Pipeline], Entry: pl.Entry, Groups: r.Groups, Spec: pl.Spec,
		SubgroupSize: pl.Subgroup, Timed: timed, Context: ctx}
	if p := st.opts.Progress; p != nil {
		p(r, 0, uint64(r.Groups[0])*uint64(r.Groups[1])*uint64(r.Groups[2]))
		d.Progress = func(done, total uint64) { p(r, done, total) }
	}
	for _, a := range pl.Addresses {
		var addr [8]byte
		binary.LittleEndian.PutUint64(addr[:], st.bufs[a.Buffer].(backend.Buffer).Address())
		if err := st.bufs[a.Into].Write(a.Offset, addr[:]); err != nil {
			return fail(a.Line, err)
		}
	}
	for _, b := range pl.Binds {
		buf := st.bufs[b.Buffer]
		switch b.As {
		case "push_constant":
			pc := make([]byte, st.s.Buffer(b.Buffer).Size())
			if err := buf.Read(0, pc); err != nil {
				return fail(b.Line, err)
			}
			d.PushConstants = pc
		default:
			d.Bindings = append(d.Bindings, st.binding(b))
		}
	}
	res, err := st.dev.Dispatch(d)
	if err != nil {
		return fail(r.Line, fmt.Errorf("RUN %s: %w", r.Pipeline, err))
	}
	if timed {
		st.report.Timings = append(st.report.Timings, Timing{Line: r.Line, Pipeline: r.Pipeline, Groups: r.Groups,
			Device: st.dev.Name(), Elapsed: res.Elapsed, Flops: st.flops(r)})
	}
	return nil
}

// bindKinds maps BIND ... AS names to descriptor kinds.
var bindKinds = lazy.Value[map[string]backend.DescriptorKind]{F: func() map[string]backend.DescriptorKind {
	return map[string]backend.DescriptorKind{
		"storage": backend.StorageBuffer, "uniform": backend.UniformBuffer,
		"storage_image": backend.StorageImage, "sampled_image": backend.SampledImage,
		"combined_image_sampler": backend.CombinedImageSampler, "sampler": backend.SeparateSampler,
		"uniform_texel_buffer": backend.UniformTexelBuffer, "storage_texel_buffer": backend.StorageTexelBuffer,
	}
}}

// binding is the descriptor binding of a BIND (other than push_constant).
func (st *state) binding(b Bind) backend.Binding {
	d := backend.Binding{Set: b.Set, Binding: b.Binding, ArrayElement: b.ArrayElement, Kind: bindKinds.Get()[b.As], BaseLevel: b.BaseLevel}
	switch m := st.bufs[b.Buffer].(type) {
	case backend.Image:
		d.Image = m
	case backend.Buffer:
		d.Buffer = m
		d.Format = st.s.Buffer(b.Buffer).Type.Format
	}
	if b.Sampler != "" {
		d.Sampler = st.samplers[b.Sampler]
	}
	return d
}

// flops is the work of the first EQ_MATMUL after r that checks a buffer
// r's pipeline binds.
func (st *state) flops(r *RunCmd) float64 {
	pl := st.s.Pipelines[r.Pipeline]
	after := false
	for _, c := range st.s.Commands {
		if c == Command(r) {
			after = true
			continue
		}
		e, ok := c.(*Expect)
		if !after || !ok || e.Matmul == nil {
			continue
		}
		for _, b := range pl.Binds {
			if b.Buffer == e.Buffer {
				return e.Matmul.Flops()
			}
		}
	}
	return 0
}

// read returns a buffer's current contents.
func (st *state) read(name string) (values, error) {
	return st.readPart(name, 0, st.s.Buffer(name).N)
}

// readPart reads the elements holding components [from, to) of a
// buffer, so an EXPECT of a few values does not copy a large buffer.
func (st *state) readPart(name string, from, to int) (values, error) {
	b := st.s.Buffer(name)
	t := b.Type
	first := from - from%t.Comps()
	if t.Bits == 4 {
		first = from &^ 1
	}
	off := t.byteSize(first)
	data, err := st.bytes(name, off, t.byteSize(to)-off)
	if err != nil {
		return values{}, fmt.Errorf("reading %s on %s: %w", name, st.dev.Name(), err)
	}
	return newValues(t, data, b.N, first), nil
}

// bytes returns n bytes of buffer name at offset off: the device's own
// memory where it lets the host read it in place (backend.HostView), so
// checking a large result on the CPU executor holds it once; else a copy.
// Callers only read the bytes, and before the next dispatch.
func (st *state) bytes(name string, off, n int) ([]byte, error) {
	m := st.bufs[name]
	if v, ok := m.(backend.HostView); ok {
		if p := v.View(); off >= 0 && n >= 0 && off <= len(p) && n <= len(p)-off {
			return p[off : off+n : off+n], nil
		}
	}
	data := make([]byte, n)
	if err := m.Read(off, data); err != nil {
		return nil, err
	}
	return data, nil
}

// dump writes the buffers named in RunOptions.Dump.
func (st *state) dump(w io.Writer, label string) error {
	for _, name := range st.opts.Dump {
		vals, err := st.read(name)
		if err != nil {
			return err
		}
		b := st.s.Buffer(name)
		fmt.Fprintf(w, "BUFFER %s (%s, %d values)%s\n", name, b.Type.Name, vals.n, label)
		per := 8
		if n := b.Type.Comps(); n > 1 {
			per = n * max(1, 8/n)
		}
		for i := range vals.n {
			sep := " "
			if (i+1)%per == 0 || i == vals.n-1 {
				sep = "\n"
			}
			fmt.Fprint(w, b.Type.String(vals.at(i)), sep)
		}
	}
	return nil
}

// Compare runs s on devices a and b in lockstep: every EXPECT is checked
// on both, and afterwards every buffer is compared between them, within
// the tolerance of the EXPECTs on that buffer (exact when there are none;
// by RMSE when only RMSE_BUFFER checks it). Device addresses written by
// BIND BUFFER_ADDRESS differ by nature and are skipped.
func Compare(ctx context.Context, s *Script, a, b backend.Device, opts RunOptions) (*Report, error) {
	if err := checkStart(s, opts); err != nil {
		return nil, err
	}
	code, err := Compile(s, opts)
	if err != nil {
		return nil, err
	}
	if rep, one, err := compareOrRunOne(ctx, s, a, b, code, opts); one {
		return rep, err
	}
	sa, err := start(s, a, code, opts)
	if err != nil {
		return nil, err
	}
	defer sa.release()
	sb, err := start(s, b, code, opts)
	if err != nil {
		return nil, err
	}
	defer sb.release()
	rep := sa.report
	rep.Device = a.Name() + " vs " + b.Name()
	for _, cmd := range s.Commands {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		if e, ok := cmd.(*Expect); ok {
			ra, rb := sa.check(e), sb.check(e)
			ra.Device, rb.Device = a.Name(), b.Name()
			rep.Results = append(rep.Results, ra, rb)
			continue
		}
		if err := sa.exec(ctx, cmd); err != nil {
			return rep, err
		}
		if err := sb.exec(ctx, cmd); err != nil {
			rep.Timings = append(rep.Timings, sb.report.Timings...)
			return rep, err
		}
	}
	rep.Timings = append(rep.Timings, sb.report.Timings...)
	skip := addressSlots(s)
	var notes string
	for _, buf := range s.Buffers {
		var r Result
		if cm := s.Opaque(buf.Name); cm != nil {
			r = compareOpaque(sa, sb, buf, cm)
		} else {
			r = compareBuffer(sa, sb, buf, skip[buf.Name])
		}
		if !r.Pass {
			if notes == "" {
				notes = deviations(s, code)
			}
			r.Msg += notes
		}
		rep.Results = append(rep.Results, r)
	}
	if len(opts.Dump) > 0 {
		if err := sa.dump(opts.DumpTo, " on "+a.Name()); err != nil {
			return rep, err
		}
		return rep, sb.dump(opts.DumpTo, " on "+b.Name())
	}
	return rep, nil
}

// addressSlots lists, per buffer, the byte offsets that receive device
// addresses.
func addressSlots(s *Script) map[string][]int {
	out := map[string][]int{}
	for _, name := range slices.Sorted(maps.Keys(s.Pipelines)) {
		for _, a := range s.Pipelines[name].Addresses {
			out[a.Into] = append(out[a.Into], a.Offset)
		}
	}
	return out
}

// deviations lists, for a failed comparison, the places in the script's
// modules where drivers are known to depart from SPIR-V (package
// devcheck), so a difference there reads as the device's, with the
// instruction named ("" when there are none).
func deviations(s *Script, code map[string][]uint32) string {
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(code)) {
		m, err := spirv.DecodeWords(code[name], nil)
		if err != nil {
			continue
		}
		for _, d := range devcheck.Deviations(m) {
			fmt.Fprintf(&b, "\npossible device deviation in pipeline %s, %s", name, d)
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return b.String()
}

// plainMatrix reads the matrix a CONVERT_MATRIX put into buffer name in
// an optimal layout and has the device convert it back to tightly packed
// row-major.
func (st *state) plainMatrix(name string, cm *ConvertMatrix) ([]byte, error) {
	mc, ok := st.dev.(backend.MatrixConverter)
	if !ok {
		return nil, fmt.Errorf("%s cannot convert cooperative-vector matrices", st.dev.Name())
	}
	src, err := st.bytes(name, 0, st.s.Buffer(name).Size())
	if err != nil {
		return nil, err
	}
	conv := &backend.MatrixConversion{Src: src, Rows: cm.Rows, Cols: cm.Cols, Type: cm.Type, SrcLayout: cm.DstLayout, DstLayout: backend.RowMajor}
	n, err := mc.ConvertMatrix(conv)
	if err != nil {
		return nil, err
	}
	conv.Dst = make([]byte, n)
	if _, err := mc.ConvertMatrix(conv); err != nil {
		return nil, err
	}
	return conv.Dst, nil
}

// convertMatrix runs a CONVERT_MATRIX: the source's bytes converted by
// the device into the destination.
func (st *state) convertMatrix(c *ConvertMatrix) error {
	mc, ok := st.dev.(backend.MatrixConverter)
	if !ok {
		return fmt.Errorf("the device cannot convert cooperative-vector matrices")
	}
	src, err := st.bytes(c.From, 0, st.s.Buffer(c.From).Size())
	if err != nil {
		return err
	}
	conv := &backend.MatrixConversion{Src: src, Rows: c.Rows, Cols: c.Cols, Type: c.Type,
		SrcLayout: c.SrcLayout, DstLayout: c.DstLayout, SrcStride: c.SrcStride, DstStride: c.DstStride}
	n, err := mc.ConvertMatrix(conv)
	if err != nil {
		return err
	}
	if size := st.s.Buffer(c.To).Size(); n > size {
		return fmt.Errorf("CONVERT_MATRIX: the %v matrix takes %d bytes, buffer %s has %d", c.DstLayout, n, c.To, size)
	}
	conv.Dst = make([]byte, n)
	if _, err := mc.ConvertMatrix(conv); err != nil {
		return err
	}
	return st.bufs[c.To].Write(0, conv.Dst)
}
