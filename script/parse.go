// Package script parses and runs coop test scripts: a compute subset of
// Google's Amber format (the Vulkan CTS's), plus extensions for
// cooperative-matrix tests. A script is parsed once and runs on any
// backend.Device. docs/SCRIPT.md describes the format.
package script

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Script is a parsed test script.
type Script struct {
	Name      string
	Shaders   map[string]*Shader
	Buffers   []*Buffer
	Pipelines map[string]*Pipeline
	Commands  []Command // RUN and EXPECT, in file order
	Features  []string  // DEVICE_FEATURE names
}

// Shader is a SHADER block.
type Shader struct {
	Name   string
	Format string // GLSL, SPIRV-ASM or SPIRV-HEX
	Source []byte
	Path   string // file the source came from (for diagnostics and #include)
	Line   int
}

// Buffer is a BUFFER declaration with its initial contents.
type Buffer struct {
	Name   string
	Type   DataType
	Values []Value // scalar components
	Line   int
	// Address is set when some pipeline takes the buffer's device address.
	Address bool
}

// Bind attaches a buffer to a pipeline.
type Bind struct {
	Buffer  string
	As      string // storage, uniform or push_constant
	Set     uint32
	Binding uint32
	Line    int
}

// AddressBind writes the device address of Buffer into Into at Offset
// before each run (BIND BUFFER_ADDRESS).
type AddressBind struct {
	Buffer, Into string
	Offset       int
	Line         int
}

// Pipeline is a compute PIPELINE block.
type Pipeline struct {
	Name      string
	Shader    string
	Entry     string
	Spec      map[uint32][]byte
	Binds     []Bind
	Addresses []AddressBind
	Subgroup  uint32
	Line      int
}

// Command is a *RunCmd or an *Expect.
type Command interface{ line() int }

// RunCmd is RUN pipeline x y z.
type RunCmd struct {
	Pipeline string
	Groups   [3]uint32
	Line     int
}

// Expect is one EXPECT command.
type Expect struct {
	Line    int
	Text    string // the command as written
	Buffer  string
	Mode    string // IDX, EQ_BUFFER, RMSE_BUFFER, EQ_MATMUL
	Index   int
	Values  []string
	Other   string // EQ_BUFFER / RMSE_BUFFER
	A, B    string // EQ_MATMUL operands
	M, N, K int
	Sample  int // EQ_MATMUL checks only this many pseudo-random elements (0: all)
	Tol     Tolerance
}

// Tolerance is how far a value may be from the expected one: Abs (and/or
// Rel, a fraction of the expected value) or ULP units in the last place of
// the buffer's type. The zero Tolerance means exact.
type Tolerance struct {
	Abs, Rel float64
	ULP      int
	RMSE     float64
}

func (r *RunCmd) line() int { return r.Line }
func (e *Expect) line() int { return e.Line }

// parser walks the script line by line.
type parser struct {
	name  string
	dir   string
	lines []string
	i     int // index of the next line
	s     *Script
}

// Error is a script error at a line.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

func (p *parser) errf(line int, format string, args ...any) error {
	return &Error{File: p.name, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// ParseFile reads and parses a script file.
func ParseFile(path string) (*Script, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, src)
}

// Parse parses a script. name is used in errors and to resolve FILE paths
// (relative to its directory).
func Parse(name string, src []byte) (*Script, error) {
	p := &parser{name: name, dir: filepath.Dir(name), lines: strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n"),
		s: &Script{Name: name, Shaders: map[string]*Shader{}, Pipelines: map[string]*Pipeline{}}}
	for p.i < len(p.lines) {
		ln := p.i + 1
		f := fields(p.lines[p.i])
		p.i++
		if len(f) == 0 {
			continue
		}
		var err error
		switch f[0] {
		case "#!amber", "SET":
		case "DEVICE_FEATURE", "DEVICE_EXTENSION", "INSTANCE_EXTENSION":
			if len(f) != 2 {
				err = p.errf(ln, "expected %s <name>", f[0])
			} else {
				p.s.Features = append(p.s.Features, f[1])
			}
		case "SHADER":
			err = p.shader(ln, f)
		case "BUFFER":
			err = p.buffer(ln, f)
		case "PIPELINE":
			err = p.pipeline(ln, f)
		case "RUN":
			err = p.run(ln, f)
		case "EXPECT":
			err = p.expect(ln, f)
		default:
			err = p.errf(ln, "expected a command (SHADER, BUFFER, PIPELINE, RUN, EXPECT), got %q", f[0])
		}
		if err != nil {
			return nil, err
		}
	}
	return p.s, nil
}

// fields splits a line into words, dropping a # comment.
func fields(line string) []string {
	if i := strings.IndexByte(line, '#'); i >= 0 && !strings.HasPrefix(strings.TrimSpace(line), "#!") {
		line = line[:i]
	}
	return strings.Fields(line)
}

func (p *parser) shader(ln int, f []string) error {
	if len(f) < 4 || f[1] != "compute" {
		return p.errf(ln, "expected SHADER compute <name> GLSL|SPIRV-ASM|SPIRV-HEX [FILE <path>]")
	}
	sh := &Shader{Name: f[2], Format: f[3], Line: ln, Path: p.name}
	switch sh.Format {
	case "GLSL", "SPIRV-ASM", "SPIRV-HEX":
	default:
		return p.errf(ln, "expected a shader format GLSL, SPIRV-ASM or SPIRV-HEX, got %q", sh.Format)
	}
	if _, dup := p.s.Shaders[sh.Name]; dup {
		return p.errf(ln, "shader %q is already defined", sh.Name)
	}
	switch {
	case len(f) == 6 && f[4] == "FILE":
		path := f[5]
		if !filepath.IsAbs(path) {
			path = filepath.Join(p.dir, path)
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return p.errf(ln, "cannot read shader file: %v", err)
		}
		sh.Source, sh.Path = src, path
	case len(f) == 4:
		var body []string
		for {
			if p.i >= len(p.lines) {
				return p.errf(ln, "expected END for SHADER %s, got end of file", sh.Name)
			}
			l := p.lines[p.i]
			p.i++
			if strings.TrimSpace(l) == "END" {
				break
			}
			body = append(body, l)
		}
		// Keep line numbers of inline GLSL matching the script: the
		// shader text starts on the line after SHADER.
		sh.Source = []byte(strings.Join(body, "\n") + "\n")
		sh.Line = ln + 1
	default:
		return p.errf(ln, "expected end of line or FILE <path> after the shader format, got %q", f[4])
	}
	p.s.Shaders[sh.Name] = sh
	return nil
}

func (p *parser) findBuffer(name string) *Buffer {
	for _, b := range p.s.Buffers {
		if b.Name == name {
			return b
		}
	}
	return nil
}

func (p *parser) buffer(ln int, f []string) error {
	if len(f) < 4 || f[2] != "DATA_TYPE" {
		return p.errf(ln, "expected BUFFER <name> DATA_TYPE <type> ...")
	}
	if p.findBuffer(f[1]) != nil {
		return p.errf(ln, "buffer %q is already defined", f[1])
	}
	dt, err := ParseDataType(f[3])
	if err != nil {
		return p.errf(ln, "%v", err)
	}
	b := &Buffer{Name: f[1], Type: dt, Line: ln}
	rest := f[4:]
	num := func(s string) (float64, error) {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return 0, p.errf(ln, "expected a number, got %q", s)
		}
		return v, nil
	}
	switch {
	case len(rest) >= 1 && rest[0] == "DATA":
		if len(rest) > 1 {
			return p.errf(ln, "expected end of line after DATA, got %q", rest[1])
		}
		for {
			if p.i >= len(p.lines) {
				return p.errf(ln, "expected END for BUFFER %s DATA, got end of file", b.Name)
			}
			dl := p.i + 1
			words := fields(p.lines[p.i])
			p.i++
			if len(words) == 1 && words[0] == "END" {
				break
			}
			for _, w := range words {
				v, err := dt.parseValue(w)
				if err != nil {
					return p.errf(dl, "%v", err)
				}
				b.Values = append(b.Values, v)
			}
		}
	case len(rest) >= 2 && rest[0] == "SIZE":
		n, err := strconv.Atoi(rest[1])
		if err != nil || n <= 0 || n > 1<<28 {
			return p.errf(ln, "expected a positive element count after SIZE, got %q", rest[1])
		}
		n *= dt.Comps
		init := rest[2:]
		switch {
		case len(init) == 2 && init[0] == "FILL":
			v, err := dt.parseValue(init[1])
			if err != nil {
				return p.errf(ln, "%v", err)
			}
			b.Values = make([]Value, n)
			for i := range b.Values {
				b.Values[i] = v
			}
		case len(init) == 4 && init[0] == "SERIES_FROM" && init[2] == "INC_BY":
			start, err := num(init[1])
			if err != nil {
				return err
			}
			inc, err := num(init[3])
			if err != nil {
				return err
			}
			b.Values = make([]Value, n)
			for i := range b.Values {
				b.Values[i] = dt.fromFloat(start + float64(i)*inc)
			}
		case len(init) >= 7 && init[0] == "RANDOM" && init[1] == "SEED" && init[3] == "MIN" && init[5] == "MAX":
			seed, err := strconv.ParseUint(init[2], 0, 64)
			if err != nil {
				return p.errf(ln, "expected an integer seed, got %q", init[2])
			}
			lo, err := num(init[4])
			if err != nil {
				return err
			}
			hi, err := num(init[6])
			if err != nil {
				return err
			}
			step := 1.0
			if dt.Kind == Float {
				step = 1.0 / 16
			}
			if len(init) == 9 && init[7] == "STEP" {
				if step, err = num(init[8]); err != nil || step <= 0 {
					return p.errf(ln, "expected a positive STEP, got %q", init[8])
				}
			} else if len(init) != 7 {
				return p.errf(ln, "expected end of line or STEP <value> after MAX, got %q", init[7])
			}
			if hi < lo {
				return p.errf(ln, "MAX %v is below MIN %v", hi, lo)
			}
			rng := rand.New(rand.NewPCG(seed, 0x636f6f70))
			steps := int64((hi-lo)/step) + 1
			b.Values = make([]Value, n)
			for i := range b.Values {
				b.Values[i] = dt.fromFloat(lo + float64(rng.Int64N(steps))*step)
			}
		case len(init) == 0:
			b.Values = make([]Value, n)
		default:
			return p.errf(ln, "expected FILL <v>, SERIES_FROM <a> INC_BY <b> or RANDOM SEED <s> MIN <a> MAX <b> after SIZE, got %q", strings.Join(init, " "))
		}
	case len(rest) == 3 && rest[0] == "FILE" && (rest[1] == "BINARY" || rest[1] == "TEXT"):
		path := rest[2]
		if !filepath.IsAbs(path) {
			path = filepath.Join(p.dir, path)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return p.errf(ln, "cannot read buffer file: %v", err)
		}
		if rest[1] == "BINARY" {
			n := len(data) * 8 / dt.Bits
			b.Values = dt.decode(data, n)
		} else {
			for _, w := range strings.Fields(string(data)) {
				v, err := dt.parseValue(w)
				if err != nil {
					return p.errf(ln, "%s: %v", path, err)
				}
				b.Values = append(b.Values, v)
			}
		}
	default:
		return p.errf(ln, "expected DATA, SIZE <n> ... or FILE BINARY|TEXT <path> after the data type")
	}
	p.s.Buffers = append(p.s.Buffers, b)
	return nil
}

func (p *parser) pipeline(ln int, f []string) error {
	if len(f) != 3 || f[1] != "compute" {
		return p.errf(ln, "expected PIPELINE compute <name>")
	}
	pl := &Pipeline{Name: f[2], Entry: "main", Spec: map[uint32][]byte{}, Line: ln}
	if _, dup := p.s.Pipelines[pl.Name]; dup {
		return p.errf(ln, "pipeline %q is already defined", pl.Name)
	}
	for {
		if p.i >= len(p.lines) {
			return p.errf(ln, "expected END for PIPELINE %s, got end of file", pl.Name)
		}
		l := p.i + 1
		w := fields(p.lines[p.i])
		p.i++
		if len(w) == 0 {
			continue
		}
		switch w[0] {
		case "END":
			if pl.Shader == "" {
				return p.errf(ln, "PIPELINE %s has no ATTACH", pl.Name)
			}
			p.s.Pipelines[pl.Name] = pl
			return nil
		case "ATTACH":
			if len(w) < 2 {
				return p.errf(l, "expected ATTACH <shader>")
			}
			if p.s.Shaders[w[1]] == nil {
				return p.errf(l, "unknown shader %q", w[1])
			}
			pl.Shader = w[1]
			for j := 2; j < len(w); j++ {
				switch {
				case w[j] == "ENTRY_POINT" && j+1 < len(w):
					pl.Entry = w[j+1]
					j++
				case w[j] == "SPECIALIZE" && j+3 < len(w) && w[j+2] == "AS":
					id, err := strconv.ParseUint(w[j+1], 0, 32)
					if err != nil {
						return p.errf(l, "expected a specialization constant id, got %q", w[j+1])
					}
					b, err := specBytes(w[j+3], w[j+4:])
					if err != nil {
						return p.errf(l, "%v", err)
					}
					pl.Spec[uint32(id)] = b
					j += 4
				default:
					return p.errf(l, "expected ENTRY_POINT <name> or SPECIALIZE <id> AS <type> <value>, got %q", w[j])
				}
			}
		case "SUBGROUP_SIZE":
			if len(w) != 2 {
				return p.errf(l, "expected SUBGROUP_SIZE <n>")
			}
			n, err := strconv.ParseUint(w[1], 0, 32)
			if err != nil {
				return p.errf(l, "expected a subgroup size, got %q", w[1])
			}
			pl.Subgroup = uint32(n)
		case "BIND":
			if err := p.bind(l, pl, w); err != nil {
				return err
			}
		default:
			return p.errf(l, "expected ATTACH, BIND, SUBGROUP_SIZE or END in PIPELINE, got %q", w[0])
		}
	}
}

// specBytes encodes a SPECIALIZE value; rest holds the value (first word).
func specBytes(typ string, rest []string) ([]byte, error) {
	if len(rest) == 0 {
		return nil, fmt.Errorf("expected a value after SPECIALIZE ... AS %s", typ)
	}
	var dt DataType
	switch typ {
	case "bool":
		v := uint32(0)
		if rest[0] == "true" || rest[0] == "1" {
			v = 1
		}
		return []byte{byte(v), 0, 0, 0}, nil
	case "uint32", "int32", "float", "int64", "uint64", "double", "int16", "uint16", "float16", "int8", "uint8":
		dt, _ = ParseDataType(typ)
	default:
		return nil, fmt.Errorf("expected a specialization type (bool, int32, uint32, float, ...), got %q", typ)
	}
	v, err := dt.parseValue(rest[0])
	if err != nil {
		return nil, err
	}
	return dt.encode([]Value{v}), nil
}

func (p *parser) bind(l int, pl *Pipeline, w []string) error {
	if len(w) >= 2 && w[1] == "BUFFER_ADDRESS" {
		// BIND BUFFER_ADDRESS <buf> INTO <buf> OFFSET <bytes>
		if len(w) != 7 || w[3] != "INTO" || w[5] != "OFFSET" {
			return p.errf(l, "expected BIND BUFFER_ADDRESS <buffer> INTO <buffer> OFFSET <bytes>")
		}
		src, dst := p.findBuffer(w[2]), p.findBuffer(w[4])
		if src == nil || dst == nil {
			return p.errf(l, "unknown buffer in BIND BUFFER_ADDRESS")
		}
		off, err := strconv.Atoi(w[6])
		if err != nil || off < 0 || off+8 > dst.Type.byteSize(len(dst.Values)) {
			return p.errf(l, "OFFSET %s does not leave room for an 8-byte address in %s", w[6], dst.Name)
		}
		src.Address = true
		pl.Addresses = append(pl.Addresses, AddressBind{Buffer: src.Name, Into: dst.Name, Offset: off, Line: l})
		return nil
	}
	if len(w) < 5 || w[1] != "BUFFER" || w[3] != "AS" {
		return p.errf(l, "expected BIND BUFFER <name> AS storage|uniform|push_constant ...")
	}
	if p.findBuffer(w[2]) == nil {
		return p.errf(l, "unknown buffer %q", w[2])
	}
	b := Bind{Buffer: w[2], As: w[4], Line: l}
	switch b.As {
	case "push_constant":
		if len(w) != 5 {
			return p.errf(l, "expected end of line after push_constant, got %q", w[5])
		}
	case "storage", "uniform":
		rest := w[5:]
		for j := 0; j+1 < len(rest); j += 2 {
			n, err := strconv.ParseUint(rest[j+1], 0, 32)
			if err != nil {
				return p.errf(l, "expected a number after %s, got %q", rest[j], rest[j+1])
			}
			switch rest[j] {
			case "DESCRIPTOR_SET":
				b.Set = uint32(n)
			case "BINDING":
				b.Binding = uint32(n)
			default:
				return p.errf(l, "expected DESCRIPTOR_SET or BINDING, got %q", rest[j])
			}
		}
		if len(rest)%2 != 0 || len(rest) == 0 {
			return p.errf(l, "expected DESCRIPTOR_SET <n> BINDING <n> after AS %s", b.As)
		}
	default:
		return p.errf(l, "expected storage, uniform or push_constant, got %q", b.As)
	}
	pl.Binds = append(pl.Binds, b)
	return nil
}

func (p *parser) run(ln int, f []string) error {
	if len(f) != 5 {
		return p.errf(ln, "expected RUN <pipeline> <x> <y> <z>")
	}
	if p.s.Pipelines[f[1]] == nil {
		return p.errf(ln, "unknown pipeline %q", f[1])
	}
	r := &RunCmd{Pipeline: f[1], Line: ln}
	for i := 0; i < 3; i++ {
		n, err := strconv.ParseUint(f[2+i], 0, 32)
		if err != nil || n == 0 {
			return p.errf(ln, "expected a positive workgroup count, got %q", f[2+i])
		}
		r.Groups[i] = uint32(n)
	}
	p.s.Commands = append(p.s.Commands, r)
	return nil
}

func (p *parser) expect(ln int, f []string) error {
	e := &Expect{Line: ln, Text: strings.Join(f, " ")}
	if len(f) < 3 {
		return p.errf(ln, "expected EXPECT <buffer> IDX|EQ_BUFFER|RMSE_BUFFER|EQ_MATMUL ...")
	}
	e.Buffer = f[1]
	buf := p.findBuffer(e.Buffer)
	if buf == nil {
		return p.errf(ln, "unknown buffer %q", e.Buffer)
	}
	e.Mode = f[2]
	rest := f[3:]
	// tolerance parses TOLERANCE t[%] / ULP n at the start of rest.
	tolerance := func() error {
		for len(rest) >= 2 {
			switch rest[0] {
			case "TOLERANCE":
				s := rest[1]
				rel := strings.HasSuffix(s, "%")
				v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
				if err != nil || v < 0 {
					return p.errf(ln, "expected a tolerance, got %q", s)
				}
				if rel {
					e.Tol.Rel = v / 100
				} else {
					e.Tol.Abs = v
				}
			case "ULP":
				n, err := strconv.Atoi(rest[1])
				if err != nil || n < 0 {
					return p.errf(ln, "expected a ULP count, got %q", rest[1])
				}
				e.Tol.ULP = n
			default:
				return nil
			}
			rest = rest[2:]
		}
		return nil
	}
	switch e.Mode {
	case "IDX":
		if len(rest) < 1 {
			return p.errf(ln, "expected an index after IDX")
		}
		idx, err := strconv.Atoi(rest[0])
		if err != nil || idx < 0 {
			return p.errf(ln, "expected an index after IDX, got %q", rest[0])
		}
		e.Index = idx
		rest = rest[1:]
		if err := tolerance(); err != nil {
			return err
		}
		if len(rest) < 2 || rest[0] != "EQ" {
			return p.errf(ln, "expected EQ <values...> after the index")
		}
		for _, v := range rest[1:] {
			if _, err := buf.Type.parseValue(v); err != nil {
				return p.errf(ln, "%v", err)
			}
		}
		e.Values, rest = rest[1:], nil
		if e.Index+len(e.Values) > len(buf.Values) {
			return p.errf(ln, "EXPECT reads past the end of %s (%d values)", buf.Name, len(buf.Values))
		}
	case "EQ_BUFFER", "RMSE_BUFFER":
		e.Other = rest[0]
		o := p.findBuffer(e.Other)
		if o == nil {
			return p.errf(ln, "unknown buffer %q", e.Other)
		}
		rest = rest[1:]
		if e.Mode == "RMSE_BUFFER" {
			if len(rest) != 2 || rest[0] != "TOLERANCE" {
				return p.errf(ln, "expected TOLERANCE <t> after RMSE_BUFFER <buffer>")
			}
			v, err := strconv.ParseFloat(rest[1], 64)
			if err != nil {
				return p.errf(ln, "expected a tolerance, got %q", rest[1])
			}
			e.Tol.RMSE = v
			rest = nil
		}
		if err := tolerance(); err != nil {
			return err
		}
		if len(o.Values) != len(buf.Values) {
			return p.errf(ln, "buffers %s and %s differ in size (%d and %d values)", buf.Name, o.Name, len(buf.Values), len(o.Values))
		}
	case "EQ_MATMUL":
		// EXPECT C EQ_MATMUL A B M m N n K k [SAMPLE s] [TOLERANCE t[%]] [ULP n]
		if len(rest) < 8 || rest[2] != "M" || rest[4] != "N" || rest[6] != "K" {
			return p.errf(ln, "expected EQ_MATMUL <A> <B> M <m> N <n> K <k>")
		}
		e.A, e.B = rest[0], rest[1]
		dims := [3]*int{&e.M, &e.N, &e.K}
		for i := range dims {
			v, err := strconv.Atoi(rest[3+2*i])
			if err != nil || v <= 0 {
				return p.errf(ln, "expected a positive dimension after %s, got %q", rest[2+2*i], rest[3+2*i])
			}
			*dims[i] = v
		}
		rest = rest[8:]
		if len(rest) >= 2 && rest[0] == "SAMPLE" {
			n, err := strconv.Atoi(rest[1])
			if err != nil || n <= 0 {
				return p.errf(ln, "expected a positive sample count, got %q", rest[1])
			}
			e.Sample, rest = n, rest[2:]
		}
		if err := tolerance(); err != nil {
			return err
		}
		a, b := p.findBuffer(e.A), p.findBuffer(e.B)
		if a == nil || b == nil {
			return p.errf(ln, "unknown buffer in EQ_MATMUL")
		}
		if len(a.Values) < e.M*e.K || len(b.Values) < e.K*e.N || len(buf.Values) < e.M*e.N {
			return p.errf(ln, "EQ_MATMUL: buffers too small for M=%d N=%d K=%d", e.M, e.N, e.K)
		}
	default:
		return p.errf(ln, "expected IDX, EQ_BUFFER, RMSE_BUFFER or EQ_MATMUL, got %q", e.Mode)
	}
	if len(rest) > 0 {
		return p.errf(ln, "expected end of line, got %q", rest[0])
	}
	p.s.Commands = append(p.s.Commands, e)
	return nil
}
