package script

import (
	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/internal/lazy"

	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// maxCommands bounds REPEAT unrolling, so a short script cannot exhaust
// memory.
const maxCommands = 1 << 20

type parser struct {
	name   string
	dir    string
	lines  []string
	i      int // index of the next line
	s      *Script
	vfiles map[string][]byte
}

func (p *parser) errf(line int, format string, args ...any) error {
	return &Error{File: p.name, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// expected reports "expected what, got <word>" for the words left at w.
func (p *parser) expected(line int, what string, w []string) error {
	if len(w) == 0 {
		return p.errf(line, "expected %s, got end of line", what)
	}
	return p.errf(line, "expected %s, got %q", what, w[0])
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
	p := &parser{name: name, dir: filepath.Dir(name),
		lines:  strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n"),
		s:      &Script{Name: name, Shaders: map[string]*Shader{}, Pipelines: map[string]*Pipeline{}},
		vfiles: map[string][]byte{}}
	cmds, err := p.block(0)
	if err != nil {
		return nil, err
	}
	p.s.Commands = cmds
	return p.s, nil
}

// fields splits a line into words, dropping a # comment.
func fields(line string) []string {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	return strings.Fields(line)
}

// next returns the words of the next non-empty line and its number.
func (p *parser) next() ([]string, int, bool) {
	for p.i < len(p.lines) {
		p.i++
		if w := fields(p.lines[p.i-1]); len(w) > 0 {
			return w, p.i, true
		}
	}
	return nil, p.i, false
}

// block parses top-level commands (repeat 0), or those of a REPEAT body
// starting on line repeat, up to its END.
func (p *parser) block(repeat int) ([]Command, error) {
	var cmds []Command
	inRepeat := repeat > 0
	for {
		f, ln, ok := p.next()
		if !ok {
			if inRepeat {
				return nil, p.errf(repeat, "expected END for REPEAT, got end of file")
			}
			return cmds, nil
		}
		var err error
		switch f[0] {
		case "END":
			if inRepeat {
				if len(f) > 1 {
					return nil, p.expected(ln, "end of line after END", f[1:])
				}
				return cmds, nil
			}
			err = p.errf(ln, "expected a command, got END without a block")
		case "RUN":
			var r *RunCmd
			if r, err = p.run(ln, f); err == nil {
				cmds = append(cmds, r)
			}
		case "EXPECT":
			var e *Expect
			if e, err = p.expect(ln, f); err == nil {
				cmds = append(cmds, e)
			}
		case "CONVERT_MATRIX":
			var c *ConvertMatrix
			if c, err = p.convertMatrix(ln, f); err == nil {
				cmds = append(cmds, c)
			}
		case "COPY":
			var c *Copy
			if c, err = p.copyCmd(ln, f); err == nil {
				cmds = append(cmds, c)
			}
		case "REPEAT":
			n, convErr := strconv.Atoi(at(f, 1))
			if convErr != nil || n < 0 || len(f) != 2 {
				return nil, p.expected(ln, "REPEAT <count>", f[1:])
			}
			body, err := p.block(ln)
			if err != nil {
				return nil, err
			}
			if len(body) == 0 {
				continue
			}
			if n > (maxCommands-len(cmds))/len(body) {
				return nil, p.errf(ln, "expected at most %d commands after unrolling REPEAT, got %d repeats of %d", maxCommands, n, len(body))
			}
			for range n {
				cmds = append(cmds, body...)
			}
		default:
			if inRepeat {
				err = p.expected(ln, "RUN, COPY, EXPECT or END in REPEAT", f)
				break
			}
			err = p.declaration(ln, f)
		}
		if err != nil {
			return nil, err
		}
	}
}

// at is w[i], or "" past the end.
func at(w []string, i int) string {
	if i < len(w) {
		return w[i]
	}
	return ""
}

func (p *parser) declaration(ln int, f []string) error {
	switch f[0] {
	case "SET":
		// Engine data (fence timeouts) means nothing to our backends.
		if at(f, 1) != "ENGINE_DATA" {
			return p.expected(ln, "ENGINE_DATA after SET", f[1:])
		}
		return nil
	case "DEVICE_FEATURE", "DEVICE_EXTENSION", "INSTANCE_EXTENSION", "DEVICE_PROPERTY":
		if len(f) < 2 {
			return p.expected(ln, "a name after "+f[0], nil)
		}
		if f[0] == "DEVICE_FEATURE" {
			p.s.Features = append(p.s.Features, f[1])
		} else if f[0] != "DEVICE_PROPERTY" {
			p.s.Extensions = append(p.s.Extensions, f[1])
		}
		return nil
	case "VIRTUAL_FILE":
		if len(f) != 2 {
			return p.expected(ln, "VIRTUAL_FILE <path>", f[1:])
		}
		body, err := p.raw(ln, "VIRTUAL_FILE "+f[1])
		if err != nil {
			return err
		}
		p.vfiles[f[1]] = body
		return nil
	case "SHADER":
		return p.shader(ln, f)
	case "BUFFER":
		return p.buffer(ln, f)
	case "PIPELINE", "DERIVE_PIPELINE":
		return p.pipeline(ln, f)
	case "IMAGE":
		return p.image(ln, f)
	case "SAMPLER":
		return p.sampler(ln, f)
	case "ACCELERATION_STRUCTURE", "CLEAR", "CLEAR_COLOR", "CLEAR_DEPTH", "CLEAR_STENCIL", "DEBUG":
		return p.errf(ln, "expected a compute command, got %q (graphics, ray tracing and debugging are not supported)", f[0])
	}
	return p.expected(ln, "a command (SHADER, BUFFER, PIPELINE, RUN, EXPECT, COPY, REPEAT)", f)
}

// raw returns the lines up to one whose first word is END, verbatim.
func (p *parser) raw(ln int, what string) ([]byte, error) {
	var body []string
	for {
		if p.i >= len(p.lines) {
			return nil, p.errf(ln, "expected END for %s, got end of file", what)
		}
		l := p.lines[p.i]
		p.i++
		if w := fields(l); len(w) > 0 && w[0] == "END" {
			break
		}
		body = append(body, l)
	}
	return []byte(strings.Join(body, "\n") + "\n"), nil
}

func (p *parser) path(rel string) string {
	if filepath.IsAbs(rel) {
		return rel
	}
	return filepath.Join(p.dir, rel)
}

func (p *parser) shader(ln int, f []string) error {
	if at(f, 1) != "compute" {
		return p.expected(ln, "shader type compute", f[1:])
	}
	if len(f) < 4 {
		return p.expected(ln, "SHADER compute <name> GLSL|SPIRV-ASM|SPIRV-HEX|SPIRV-BIN", f[min(len(f), 3):])
	}
	sh := &Shader{Name: f[2], Format: f[3], Line: ln, Path: p.name}
	switch sh.Format {
	case "GLSL", "SPIRV-ASM", "SPIRV-HEX", "SPIRV-BIN":
	default:
		return p.expected(ln, "a shader format (GLSL, SPIRV-ASM, SPIRV-HEX, SPIRV-BIN)", f[3:])
	}
	if _, dup := p.s.Shaders[sh.Name]; dup {
		return p.errf(ln, "expected a new shader name, got %q (already defined)", sh.Name)
	}
	rest := f[4:]
	inline := true
	for len(rest) > 0 {
		switch rest[0] {
		case "TARGET_ENV", "DEFINE", "FILE", "VIRTUAL_FILE":
			if len(rest) < 2 {
				return p.expected(ln, "a value after "+rest[0], nil)
			}
		default:
			return p.expected(ln, "TARGET_ENV, DEFINE, FILE, VIRTUAL_FILE or end of line", rest)
		}
		v := rest[1]
		switch rest[0] {
		case "TARGET_ENV":
			sh.TargetEnv = v
		case "DEFINE":
			sh.Defines = append(sh.Defines, v)
		case "FILE":
			path := p.path(v)
			src, err := os.ReadFile(path)
			if err != nil {
				return p.errf(ln, "expected a readable shader file, got %v", err)
			}
			sh.Source, sh.Path, inline = src, path, false
		case "VIRTUAL_FILE":
			src, ok := p.vfiles[v]
			if !ok {
				return p.errf(ln, "expected a VIRTUAL_FILE declared earlier, got %q", v)
			}
			sh.Source, inline = src, false
		}
		rest = rest[2:]
	}
	if inline {
		if sh.Format == "SPIRV-BIN" {
			return p.errf(ln, "expected FILE <path> for SPIRV-BIN, got end of line")
		}
		src, err := p.raw(ln, "SHADER "+sh.Name)
		if err != nil {
			return err
		}
		sh.Source, sh.FirstLine = src, ln+1
	}
	switch sh.Format {
	case "SPIRV-HEX":
		w, err := decodeHex(sh.Source)
		if err != nil {
			return p.errf(ln, "expected SPIR-V as hexadecimal bytes, got %v", err)
		}
		sh.Words = w
	case "SPIRV-BIN":
		if len(sh.Source)%4 != 0 || len(sh.Source) == 0 {
			return p.errf(ln, "expected a SPIR-V binary of whole words, got %d bytes", len(sh.Source))
		}
		sh.Words = bytesToWords(sh.Source)
	}
	p.s.Shaders[sh.Name] = sh
	return nil
}

// decodeHex reads SPIRV-HEX text: whitespace-separated hexadecimal bytes
// in memory order (optionally 0x-prefixed; a longer token is several
// bytes), forming little-endian words.
func decodeHex(src []byte) ([]uint32, error) {
	var b []byte
	for _, tok := range strings.Fields(string(src)) {
		h := strings.TrimPrefix(strings.TrimPrefix(tok, "0x"), "0X")
		if len(h)%2 == 1 {
			h = "0" + h
		}
		if h == "" {
			return nil, fmt.Errorf("%q", tok)
		}
		for i := 0; i < len(h); i += 2 {
			v, err := strconv.ParseUint(h[i:i+2], 16, 8)
			if err != nil {
				return nil, fmt.Errorf("%q", tok)
			}
			b = append(b, byte(v))
		}
	}
	if len(b) == 0 || len(b)%4 != 0 {
		return nil, fmt.Errorf("%d bytes (not whole 32-bit words)", len(b))
	}
	return bytesToWords(b), nil
}

func bytesToWords(b []byte) []uint32 {
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return w
}

// tokens gathers the words after DATA (starting with rest, on line ln) up
// to END, across lines, with the line of each word.
func (p *parser) tokens(ln int, rest []string, what string) ([]string, []int, error) {
	var words []string
	var lines []int
	l := ln
	for {
		for i, w := range rest {
			if w == "END" {
				if i+1 < len(rest) {
					return nil, nil, p.expected(l, "end of line after END", rest[i+1:])
				}
				return words, lines, nil
			}
			words = append(words, w)
			lines = append(lines, l)
		}
		var ok bool
		if rest, l, ok = p.next(); !ok {
			return nil, nil, p.errf(ln, "expected END for %s, got end of file", what)
		}
	}
}

func (p *parser) buffer(ln int, f []string) error {
	if len(f) < 4 || f[2] != "DATA_TYPE" && f[2] != "FORMAT" {
		return p.expected(ln, "BUFFER <name> DATA_TYPE <type> or BUFFER <name> FORMAT <format>", f[min(len(f), 2):])
	}
	if p.s.Buffer(f[1]) != nil {
		return p.errf(ln, "expected a new buffer name, got %q (already defined)", f[1])
	}
	dt, err := ParseDataType(f[3])
	if f[2] == "FORMAT" && (err != nil || !dt.Packed) {
		return p.errf(ln, "expected a format such as R32G32B32A32_SFLOAT (one component type; _UINT, _SINT or _SFLOAT), got %q", f[3])
	}
	if err != nil {
		return p.errf(ln, "%v", err)
	}
	rest := f[4:]
	if len(rest) > 0 && (rest[0] == "STD140" || rest[0] == "STD430") {
		dt.Std140 = rest[0] == "STD140"
		rest = rest[1:]
	}
	b := &Buffer{Name: f[1], Type: dt, Line: ln}
	if at(rest, 0) == "HOST" {
		b.Host, rest = true, rest[1:]
	}
	if err := p.initBuffer(ln, b, rest); err != nil {
		return err
	}
	p.s.Buffers = append(p.s.Buffers, b)
	return nil
}

// number parses a float literal (decimal, hexadecimal integer or float).
func number(s string) (float64, bool) {
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		return v, true
	}
	if v, err := strconv.ParseInt(s, 0, 64); err == nil {
		return float64(v), true
	}
	return 0, false
}

func (p *parser) initBuffer(ln int, b *Buffer, rest []string) error {
	dt := b.Type
	const inits = "DATA, SIZE <n> or FILE BINARY|TEXT <path>"
	switch at(rest, 0) {
	case "DATA":
		words, lines, err := p.tokens(ln, rest[1:], "BUFFER "+b.Name+" DATA")
		if err != nil {
			return err
		}
		if err := p.allocate(ln, b, int64(len(words))); err != nil {
			return err
		}
		for i, w := range words {
			v, err := dt.parseValue(w)
			if err != nil {
				return p.errf(lines[i], "%v", err)
			}
			dt.put(b.data, i, v)
		}
		return nil
	case "FILE":
		return p.fileData(ln, b, rest[1:], -1)
	case "WIDTH":
		// Amber's deprecated form: WIDTH w HEIGHT h is SIZE w*h.
		w, err1 := strconv.ParseInt(at(rest, 1), 0, 64)
		h, err2 := strconv.ParseInt(at(rest, 3), 0, 64)
		if err1 != nil || err2 != nil || at(rest, 2) != "HEIGHT" || w <= 0 || h <= 0 {
			return p.expected(ln, "WIDTH <w> HEIGHT <h>", rest[1:])
		}
		if hi, lo := bits.Mul64(uint64(w), uint64(h)); hi != 0 || lo > maxBufferBytes {
			return p.errf(ln, "expected a buffer of at most %d bytes, got WIDTH %d HEIGHT %d", maxBufferBytes, w, h)
		}
		rest = append([]string{"SIZE", strconv.FormatInt(w*h, 10)}, rest[min(len(rest), 4):]...)
	case "SIZE":
	default:
		return p.expected(ln, inits, rest)
	}
	n, err := strconv.ParseInt(at(rest, 1), 0, 64)
	if err != nil || n <= 0 {
		return p.expected(ln, "a positive element count after SIZE", rest[1:])
	}
	if n > maxBufferBytes*2 || dt.byteSize64(n) > maxBufferBytes {
		return p.errf(ln, "expected a buffer of at most %d bytes, got SIZE %d of %s", maxBufferBytes, n, dt.Name)
	}
	count := int(n) * dt.Comps()
	b.N = count
	init := rest[2:]
	switch at(init, 0) {
	case "":
	case "FILL":
		if len(init) != 2 {
			return p.expected(ln, "FILL <value>", init[1:])
		}
		v, err := dt.parseValue(init[1])
		if err != nil {
			return p.errf(ln, "%v", err)
		}
		b.gen = &generator{kind: "FILL", v: v}
	case "SERIES_FROM":
		if len(init) != 4 || init[2] != "INC_BY" {
			return p.expected(ln, "SERIES_FROM <start> INC_BY <step>", init[min(len(init), 2):])
		}
		g := &generator{kind: "SERIES_FROM", isFloat: dt.Kind == Float}
		if g.isFloat {
			var ok1, ok2 bool
			g.start, ok1 = number(init[1])
			g.inc, ok2 = number(init[3])
			if !ok1 || !ok2 {
				return p.expected(ln, "numbers after SERIES_FROM and INC_BY", init[1:])
			}
		} else {
			start, err1 := dt.parseValue(init[1])
			inc, err2 := strconv.ParseInt(init[3], 0, 64)
			if err1 != nil || err2 != nil {
				return p.expected(ln, "integers after SERIES_FROM and INC_BY", init[1:])
			}
			g.v, g.step = start, uint64(inc)
		}
		b.gen = g
	case "RANDOM":
		return p.random(ln, b, init)
	case "FILE":
		return p.fileData(ln, b, init[1:], count)
	default:
		return p.expected(ln, "FILL, SERIES_FROM, RANDOM, FILE or end of line after SIZE <n>", init)
	}
	return nil
}

// allocate gives b room for n scalar components, checking the size in
// 64 bits.
func (p *parser) allocate(ln int, b *Buffer, n int64) error {
	comps := int64(b.Type.Comps())
	if size := b.Type.byteSize64((n + comps - 1) / comps); size > maxBufferBytes {
		return p.errf(ln, "expected a buffer of at most %d bytes, got %d values of %s", maxBufferBytes, n, b.Type.Name)
	}
	b.N = int(n)
	b.data = make([]byte, b.Type.byteSize(b.N))
	return nil
}

// random reads RANDOM SEED s MIN a MAX b [STEP q]: multiples of STEP
// above MIN, drawn uniformly with a PCG generator seeded by s.
func (p *parser) random(ln int, b *Buffer, w []string) error {
	const form = "RANDOM SEED <s> MIN <a> MAX <b> [STEP <q>]"
	if len(w) != 7 && len(w) != 9 || w[1] != "SEED" || w[3] != "MIN" || w[5] != "MAX" || len(w) == 9 && w[7] != "STEP" {
		return p.expected(ln, form, w[1:])
	}
	seed, err := strconv.ParseUint(w[2], 0, 64)
	if err != nil {
		return p.expected(ln, "an unsigned integer seed", w[2:])
	}
	lo, ok1 := number(w[4])
	hi, ok2 := number(w[6])
	if !ok1 || !ok2 || math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return p.expected(ln, "finite numbers after MIN and MAX", w[4:])
	}
	if hi < lo {
		return p.errf(ln, "expected MAX at least MIN, got MIN %v MAX %v", lo, hi)
	}
	step := 1.0
	if b.Type.Kind == Float {
		step = 1.0 / 16
	}
	if len(w) == 9 {
		if step, ok1 = number(w[8]); !ok1 || !(step > 0) {
			return p.expected(ln, "a positive STEP", w[8:])
		}
	}
	steps := math.Floor((hi-lo)/step) + 1
	if steps > 1<<62 {
		return p.errf(ln, "expected at most 2^62 steps between MIN and MAX, got %g", steps)
	}
	b.gen = &generator{kind: "RANDOM", seed: seed, lo: lo, q: step, steps: uint64(steps)}
	return nil
}

// fileData reads FILE BINARY|TEXT <path>; count < 0 takes the whole file.
func (p *parser) fileData(ln int, b *Buffer, w []string, count int) error {
	if len(w) != 2 || w[0] != "BINARY" && w[0] != "TEXT" {
		return p.expected(ln, "FILE BINARY|TEXT <path>", w)
	}
	path := p.path(w[1])
	data, err := os.ReadFile(path)
	if err != nil {
		return p.errf(ln, "expected a readable buffer file, got %v", err)
	}
	dt := b.Type
	if w[0] == "BINARY" {
		n := count
		if n < 0 {
			if dt.Bits == 4 {
				n = 2 * len(data)
			} else {
				n = len(data) / dt.Stride() * dt.Comps()
			}
		}
		if dt.byteSize(n) > len(data) {
			return p.errf(ln, "expected at least %d bytes in %s, got %d", dt.byteSize(n), path, len(data))
		}
		if err := p.allocate(ln, b, int64(n)); err != nil {
			return err
		}
		// Padding bytes of the file are not the buffer's: they stay zero.
		for i := range n {
			dt.put(b.data, i, dt.get(data, i))
		}
		return nil
	}
	fields := strings.Fields(string(data))
	n := len(fields)
	if count >= 0 {
		if n < count {
			return p.errf(ln, "expected %d values in %s, got %d", count, path, n)
		}
		n = count
	}
	if err := p.allocate(ln, b, int64(n)); err != nil {
		return err
	}
	for i, s := range fields[:n] {
		v, err := dt.parseValue(s)
		if err != nil {
			return p.errf(ln, "%s: %v", path, err)
		}
		dt.put(b.data, i, v)
	}
	return nil
}

func (p *parser) pipeline(ln int, f []string) error {
	var pl *Pipeline
	if f[0] == "DERIVE_PIPELINE" {
		if len(f) != 4 || f[2] != "FROM" {
			return p.expected(ln, "DERIVE_PIPELINE <name> FROM <pipeline>", f[min(len(f), 1):])
		}
		parent := p.s.Pipelines[f[3]]
		if parent == nil {
			return p.errf(ln, "expected a pipeline declared earlier, got %q", f[3])
		}
		cp := *parent
		cp.Spec = map[uint32][]byte{}
		for k, v := range parent.Spec {
			cp.Spec[k] = v
		}
		cp.Binds = append([]Bind(nil), parent.Binds...)
		cp.Addresses = append([]AddressBind(nil), parent.Addresses...)
		pl = &cp
	} else {
		if at(f, 1) != "compute" {
			return p.expected(ln, "pipeline type compute", f[1:])
		}
		if len(f) != 3 {
			return p.expected(ln, "PIPELINE compute <name>", f[min(len(f), 3):])
		}
		pl = &Pipeline{Spec: map[uint32][]byte{}}
	}
	pl.Name, pl.Line = f[1], ln
	if f[0] == "PIPELINE" {
		pl.Name = f[2]
	}
	if _, dup := p.s.Pipelines[pl.Name]; dup {
		return p.errf(ln, "expected a new pipeline name, got %q (already defined)", pl.Name)
	}
	attached := false
	for {
		w, l, ok := p.next()
		if !ok {
			return p.errf(ln, "expected END for PIPELINE %s, got end of file", pl.Name)
		}
		var err error
		switch w[0] {
		case "END":
			if pl.Shader == "" {
				return p.errf(l, "expected ATTACH <shader> in PIPELINE %s, got END", pl.Name)
			}
			p.s.Pipelines[pl.Name] = pl
			return nil
		case "ATTACH":
			if attached {
				return p.errf(l, "expected one ATTACH in a compute pipeline, got a second")
			}
			attached = true
			err = p.attach(l, pl, w)
		case "BIND":
			err = p.bind(l, pl, w)
		case "SUBGROUP_SIZE":
			n, convErr := strconv.ParseUint(at(w, 1), 0, 32)
			if convErr != nil || len(w) != 2 || n == 0 || n&(n-1) != 0 {
				return p.expected(l, "SUBGROUP_SIZE <power of two>", w[1:])
			}
			pl.Subgroup = uint32(n)
		case "SUBGROUP":
			err = p.subgroup(l, pl, w)
		case "SHADER_OPTIMIZATION", "COMPILE_OPTIONS":
			// Optimizer passes and OpenCL options do not apply; the
			// block is skipped.
			_, _, err = p.tokens(l, nil, w[0])
		default:
			err = p.expected(l, "ATTACH, BIND, SUBGROUP, SUBGROUP_SIZE or END in a compute PIPELINE", w)
		}
		if err != nil {
			return err
		}
	}
}

func (p *parser) attach(l int, pl *Pipeline, w []string) error {
	if len(w) < 2 {
		return p.expected(l, "ATTACH <shader>", nil)
	}
	if p.s.Shaders[w[1]] == nil {
		return p.errf(l, "expected a shader declared earlier, got %q", w[1])
	}
	pl.Shader, pl.Entry = w[1], "main"
	for j := 2; j < len(w); {
		switch w[j] {
		case "TYPE":
			if at(w, j+1) != "compute" {
				return p.expected(l, "TYPE compute", w[j+1:])
			}
			j += 2
		case "ENTRY_POINT":
			if j+1 >= len(w) {
				return p.expected(l, "an entry point name", nil)
			}
			pl.Entry = w[j+1]
			j += 2
		case "SPECIALIZE":
			if at(w, j+2) != "AS" || j+4 >= len(w) {
				return p.expected(l, "SPECIALIZE <id> AS <type> <value>", w[j+1:])
			}
			id, err := strconv.ParseUint(w[j+1], 0, 32)
			if err != nil {
				return p.expected(l, "a specialization constant id", w[j+1:])
			}
			b, err := specBytes(w[j+3], w[j+4])
			if err != nil {
				return p.errf(l, "%v", err)
			}
			pl.Spec[uint32(id)] = b
			j += 5
		default:
			return p.expected(l, "TYPE, ENTRY_POINT, SPECIALIZE or end of line", w[j:])
		}
	}
	return nil
}

// specBytes encodes a SPECIALIZE value as the backend wants it.
func specBytes(typ, val string) ([]byte, error) {
	if typ == "bool" {
		switch val {
		case "true", "1":
			return []byte{1, 0, 0, 0}, nil
		case "false", "0":
			return []byte{0, 0, 0, 0}, nil
		}
		return nil, fmt.Errorf("expected true or false, got %q", val)
	}
	dt, ok := scalarType(typ)
	if !ok || dt.Bits < 8 || dt.Bits == 8 && dt.Kind == Float {
		return nil, fmt.Errorf("expected a specialization type (bool, int8 to int64, uint8 to uint64, float16, float, double), got %q", typ)
	}
	v, err := dt.parseValue(val)
	if err != nil {
		return nil, err
	}
	return dt.encode([]Value{v}), nil
}

func (p *parser) subgroup(l int, pl *Pipeline, w []string) error {
	if len(w) != 2 || p.s.Shaders[w[1]] == nil {
		return p.expected(l, "SUBGROUP <shader>", w[1:])
	}
	words, lines, err := p.tokens(l, nil, "SUBGROUP")
	if err != nil {
		return err
	}
	for i := 0; i < len(words); i += 2 {
		v := at(words, i+1)
		switch words[i] {
		case "FULLY_POPULATED", "VARYING_SIZE":
			// Our devices launch full subgroups of one size anyway.
			if v != "on" && v != "off" {
				return p.expected(lines[i], "on or off", words[i+1:])
			}
		case "REQUIRED_SIZE":
			n, err := strconv.ParseUint(v, 0, 32)
			if err != nil || n == 0 || n&(n-1) != 0 {
				return p.expected(lines[i], "a power-of-two REQUIRED_SIZE (MIN and MAX are not supported)", words[i+1:])
			}
			pl.Subgroup = uint32(n)
		default:
			return p.expected(lines[i], "FULLY_POPULATED, VARYING_SIZE or REQUIRED_SIZE", words[i:])
		}
	}
	return nil
}

func (p *parser) bind(l int, pl *Pipeline, w []string) error {
	switch at(w, 1) {
	case "BUFFER_ADDRESS":
		// BIND BUFFER_ADDRESS <buf> INTO <buf> OFFSET <bytes>
		if len(w) != 7 || w[3] != "INTO" || w[5] != "OFFSET" {
			return p.expected(l, "BIND BUFFER_ADDRESS <buffer> INTO <buffer> OFFSET <bytes>", w[2:])
		}
		src, dst := p.s.Buffer(w[2]), p.s.Buffer(w[4])
		if src == nil || dst == nil || src.Image != nil || dst.Image != nil {
			return p.errf(l, "expected buffers (not images) declared earlier, got %q and %q", w[2], w[4])
		}
		off, err := strconv.Atoi(w[6])
		if err != nil || off < 0 || off%8 != 0 || off+8 > dst.Size() {
			return p.errf(l, "expected an 8-byte aligned OFFSET inside %s (%d bytes), got %q", dst.Name, dst.Size(), w[6])
		}
		src.Address = true
		pl.Addresses = append(pl.Addresses, AddressBind{Buffer: src.Name, Into: dst.Name, Offset: off, Line: l})
		return nil
	case "SAMPLER", "SAMPLER_ARRAY":
		return p.bindSampler(l, pl, w)
	case "BUFFER", "BUFFER_ARRAY":
	default:
		return p.expected(l, "BIND BUFFER, BUFFER_ARRAY, BUFFER_ADDRESS, SAMPLER or SAMPLER_ARRAY", w[1:])
	}
	j := 2
	var names []string
	for j < len(w) && w[j] != "AS" {
		if p.s.Buffer(w[j]) == nil {
			return p.errf(l, "expected a buffer declared earlier, got %q", w[j])
		}
		names = append(names, w[j])
		j++
	}
	if len(names) == 0 || len(names) > 1 && w[1] == "BUFFER" {
		return p.expected(l, "one buffer name after BIND BUFFER", w[2:])
	}
	if j+1 >= len(w) {
		return p.expected(l, "AS storage|uniform|push_constant|storage_image|sampled_image|combined_image_sampler|uniform_texel_buffer|storage_texel_buffer", w[j:])
	}
	as := w[j+1]
	rest := w[j+2:]
	if err := p.checkBindKind(l, as, names); err != nil {
		return err
	}
	smp := ""
	if as == "combined_image_sampler" {
		if at(rest, 0) != "SAMPLER" || p.s.Sampler(at(rest, 1)) == nil {
			return p.expected(l, "SAMPLER <a sampler declared earlier> after AS combined_image_sampler", rest)
		}
		smp, rest = rest[1], rest[2:]
	}
	switch as {
	case "push_constant":
		if len(rest) > 0 || len(names) > 1 {
			return p.expected(l, "end of line after AS push_constant", rest)
		}
		for _, b := range pl.Binds {
			if b.As == "push_constant" {
				return p.errf(l, "expected one push_constant buffer per pipeline, got a second")
			}
		}
		pl.Binds = append(pl.Binds, Bind{Buffer: names[0], As: as, Line: l})
		return nil
	case "storage", "uniform", "storage_image", "sampled_image", "combined_image_sampler", "uniform_texel_buffer", "storage_texel_buffer":
	default:
		return p.expected(l, "storage, uniform, push_constant, storage_image, sampled_image, combined_image_sampler, uniform_texel_buffer or storage_texel_buffer", w[j+1:])
	}
	var set, binding, base uint32
	hasBinding := false
	for k := 0; k < len(rest); k += 2 {
		key, v := rest[k], at(rest, k+1)
		n, err := strconv.ParseInt(v, 0, 64)
		if err != nil {
			return p.expected(l, "a number after "+key, rest[k+1:])
		}
		switch key {
		case "DESCRIPTOR_SET":
			set = uint32(n)
		case "BINDING":
			binding, hasBinding = uint32(n), true
		case "DESCRIPTOR_OFFSET":
			if n != 0 {
				return p.errf(l, "expected DESCRIPTOR_OFFSET 0 (descriptor offsets are not supported), got %d", n)
			}
		case "DESCRIPTOR_RANGE":
			// The whole buffer is bound; a range covering it is harmless
			// and a shorter one only narrows what the shader may touch.
		case "BASE_MIP_LEVEL":
			if !strings.HasSuffix(as, "_image") && as != "combined_image_sampler" {
				return p.errf(l, "expected BASE_MIP_LEVEL only for images, got it for %s", as)
			}
			base = uint32(n)
			for _, name := range names {
				if im := p.s.Buffer(name).Image; n < 0 || int(n) >= im.Levels {
					return p.errf(l, "expected a BASE_MIP_LEVEL below the %d levels of %s, got %d", im.Levels, name, n)
				}
			}
		default:
			return p.expected(l, "DESCRIPTOR_SET, BINDING, DESCRIPTOR_OFFSET, DESCRIPTOR_RANGE or BASE_MIP_LEVEL", rest[k:])
		}
	}
	if !hasBinding {
		return p.expected(l, "BINDING <n>", nil)
	}
	for i, name := range names {
		pl.Binds = append(pl.Binds, Bind{Buffer: name, As: as, Sampler: smp, Set: set, Binding: binding, ArrayElement: uint32(i), BaseLevel: base, Line: l})
	}
	return nil
}

func (p *parser) run(ln int, f []string) (*RunCmd, error) {
	r := &RunCmd{Line: ln}
	w := f[1:]
	if at(w, 0) == "TIMED_EXECUTION" {
		r.Timed, w = true, w[1:]
	}
	if len(w) == 0 || p.s.Pipelines[w[0]] == nil {
		return nil, p.expected(ln, "a pipeline declared earlier", w)
	}
	r.Pipeline = w[0]
	if len(w) != 4 {
		return nil, p.expected(ln, "RUN <pipeline> <x> <y> <z> (compute pipelines only)", w[min(len(w), 1):])
	}
	for i := range 3 {
		n, err := strconv.ParseUint(w[1+i], 0, 32)
		if err != nil || n == 0 {
			return nil, p.expected(ln, "a positive workgroup count", w[1+i:])
		}
		r.Groups[i] = uint32(n)
	}
	return r, nil
}

func (p *parser) copyCmd(ln int, f []string) (*Copy, error) {
	if len(f) != 4 || f[2] != "TO" {
		return nil, p.expected(ln, "COPY <from> TO <to>", f[1:])
	}
	a, b := p.s.Buffer(f[1]), p.s.Buffer(f[3])
	if a == nil || b == nil {
		return nil, p.errf(ln, "expected buffers declared earlier, got %q and %q", f[1], f[3])
	}
	if a.Type.Name != b.Type.Name || a.Type.Std140 != b.Type.Std140 || a.N != b.N {
		return nil, p.errf(ln, "expected buffers of one type and size, got %s (%s, %d values) and %s (%s, %d values)",
			a.Name, a.Type.Name, a.N, b.Name, b.Type.Name, b.N)
	}
	return &Copy{From: f[1], To: f[3], Line: ln}, nil
}

// matrixTypes names the component types of the scalar buffer types.
var matrixTypes = lazy.Value[map[string]string]{F: func() map[string]string {
	return map[string]string{"float16": "float16", "float": "float32", "double": "float64", "int8": "sint8", "uint8": "uint8",
		"int16": "sint16", "uint16": "uint16", "int32": "sint32", "uint32": "uint32"}
}}

// convertMatrix parses CONVERT_MATRIX <from> TO <to> ROWS <r> COLS <c>
// SRC_LAYOUT <layout> [SRC_STRIDE <bytes>] DST_LAYOUT <layout>
// [DST_STRIDE <bytes>] [TYPE <component type>].
func (p *parser) convertMatrix(ln int, f []string) (*ConvertMatrix, error) {
	form := "CONVERT_MATRIX <from> TO <to> ROWS <r> COLS <c> SRC_LAYOUT <layout> [SRC_STRIDE <n>] DST_LAYOUT <layout> [DST_STRIDE <n>] [TYPE <type>]"
	if len(f) < 4 || f[2] != "TO" {
		return nil, p.expected(ln, form, f[1:])
	}
	a, b := p.s.Buffer(f[1]), p.s.Buffer(f[3])
	if a == nil || b == nil || a.Image != nil || b.Image != nil {
		return nil, p.errf(ln, "expected buffers declared earlier, got %q and %q", f[1], f[3])
	}
	c := &ConvertMatrix{From: f[1], To: f[3], Line: ln, Type: matrixTypes.Get()[a.Type.Name], SrcLayout: -1, DstLayout: -1}
	for w := f[4:]; len(w) > 0; w = w[2:] {
		if len(w) < 2 {
			return nil, p.expected(ln, form, w)
		}
		n, nerr := strconv.Atoi(w[1])
		var ok bool
		switch w[0] {
		case "ROWS":
			c.Rows, ok = n, nerr == nil && n > 0
		case "COLS":
			c.Cols, ok = n, nerr == nil && n > 0
		case "SRC_STRIDE":
			c.SrcStride, ok = n, nerr == nil && n >= 0
		case "DST_STRIDE":
			c.DstStride, ok = n, nerr == nil && n >= 0
		case "SRC_LAYOUT":
			c.SrcLayout, ok = backend.ParseMatrixLayout(w[1])
		case "DST_LAYOUT":
			c.DstLayout, ok = backend.ParseMatrixLayout(w[1])
		case "TYPE":
			c.Type, ok = w[1], w[1] != ""
		}
		if !ok {
			return nil, p.expected(ln, form, w)
		}
	}
	if c.Rows == 0 || c.Cols == 0 || c.SrcLayout < 0 || c.DstLayout < 0 || c.Type == "" {
		return nil, p.errf(ln, "expected ROWS, COLS, SRC_LAYOUT, DST_LAYOUT (row_major, column_major, inferencing_optimal, training_optimal) and a TYPE where %s's type %s names none", a.Name, a.Type.Name)
	}
	return c, nil
}

// tolerances parses [TOLERANCE t[%]...] [ULP n] in any order at the start
// of w and returns the rest.
func (p *parser) tolerances(ln int, e *Expect, w []string) ([]string, error) {
	for len(w) > 0 {
		switch w[0] {
		case "TOLERANCE":
			w = w[1:]
			var tols []Tolerance
			for len(w) > 0 {
				s, pct := strings.CutSuffix(w[0], "%")
				v, ok := number(s)
				if !ok {
					break
				}
				if !(v >= 0) || math.IsInf(v, 0) {
					return nil, p.expected(ln, "a non-negative tolerance", w)
				}
				t := Tolerance{Abs: v}
				if pct {
					t = Tolerance{Rel: v / 100}
				}
				tols, w = append(tols, t), w[1:]
			}
			if len(tols) == 0 || len(tols) > 4 {
				return nil, p.expected(ln, "one to four tolerance values after TOLERANCE", w)
			}
			ulp := 0
			if len(e.Tol) > 0 {
				ulp = e.Tol[0].ULP
			}
			for i := range tols {
				tols[i].ULP = ulp
			}
			e.Tol = tols
		case "ULP":
			n, err := strconv.Atoi(at(w, 1))
			if err != nil || n < 0 {
				return nil, p.expected(ln, "a ULP count", w[1:])
			}
			if len(e.Tol) == 0 {
				e.Tol = []Tolerance{{}}
			}
			for i := range e.Tol {
				e.Tol[i].ULP = n
			}
			w = w[2:]
		default:
			return w, nil
		}
	}
	return w, nil
}

func (p *parser) expect(ln int, f []string) (*Expect, error) {
	e := &Expect{Line: ln, Text: strings.Join(f, " ")}
	if len(f) < 3 {
		return nil, p.expected(ln, "EXPECT <buffer> IDX|EQ_BUFFER|RMSE_BUFFER|EQ_MATMUL ...", f[1:])
	}
	e.Buffer, e.Mode = f[1], f[2]
	buf := p.s.Buffer(e.Buffer)
	if buf == nil {
		return nil, p.errf(ln, "expected a buffer declared earlier, got %q", e.Buffer)
	}
	rest := f[3:]
	var err error
	switch e.Mode {
	case "IDX":
		err = p.expectIdx(ln, e, buf, rest)
	case "EQ_BUFFER", "RMSE_BUFFER":
		err = p.expectBuffer(ln, e, buf, rest)
	case "EQ_MATMUL":
		err = p.expectMatmul(ln, e, buf, rest)
	case "EQ_HISTOGRAM_EMD_BUFFER":
		err = p.errf(ln, "expected IDX, EQ_BUFFER, RMSE_BUFFER or EQ_MATMUL, got %q (image histograms are not supported)", e.Mode)
	default:
		err = p.expected(ln, "IDX, EQ_BUFFER, RMSE_BUFFER or EQ_MATMUL", f[2:])
	}
	if err != nil {
		return nil, err
	}
	return e, nil
}

func (p *parser) expectIdx(ln int, e *Expect, buf *Buffer, w []string) error {
	off, err := strconv.ParseInt(at(w, 0), 0, 64)
	if err != nil || off < 0 {
		return p.expected(ln, "a byte offset after IDX", w)
	}
	if len(w) > 1 {
		if _, err := strconv.ParseInt(w[1], 0, 64); err == nil {
			return p.probe(ln, e, buf, w)
		}
	}
	dt := buf.Type
	if off >= int64(buf.Size()) {
		return p.errf(ln, "expected a byte offset inside %s (%d bytes), got %d", buf.Name, buf.Size(), off)
	}
	e.Offset = int(off)
	if dt.Bits == 4 {
		e.Start = 2 * e.Offset
	} else {
		if e.Offset%dt.Stride() != 0 {
			return p.errf(ln, "expected a byte offset that is a multiple of the element size %d of %s, got %d", dt.Stride(), buf.Name, e.Offset)
		}
		e.Start = e.Offset / dt.Stride() * dt.Comps()
	}
	w, err = p.tolerances(ln, e, w[1:])
	if err != nil {
		return err
	}
	switch at(w, 0) {
	case "EQ", "NE", "LT", "LE", "GT", "GE":
		e.Op = w[0]
	default:
		return p.expected(ln, "a comparator (EQ, NE, LT, LE, GT, GE) or TOLERANCE", w)
	}
	if len(e.Tol) > 0 && e.Op != "EQ" {
		return p.errf(ln, "expected EQ with TOLERANCE or ULP, got %s", e.Op)
	}
	if len(w) < 2 {
		return p.expected(ln, "values after "+e.Op, nil)
	}
	for _, s := range w[1:] {
		v, err := dt.parseValue(s)
		if err != nil {
			return p.errf(ln, "%v", err)
		}
		e.Values = append(e.Values, v)
	}
	if e.Start+len(e.Values) > buf.N {
		return p.errf(ln, "expected values inside %s (%d bytes), got %d values from byte %d", buf.Name, buf.Size(), len(e.Values), e.Offset)
	}
	return nil
}

func (p *parser) expectBuffer(ln int, e *Expect, buf *Buffer, w []string) error {
	o := p.s.Buffer(at(w, 0))
	if o == nil {
		return p.expected(ln, "a buffer declared earlier after "+e.Mode, w)
	}
	e.Other = o.Name
	w = w[1:]
	if e.Mode == "RMSE_BUFFER" {
		v, ok := number(at(w, 1))
		if at(w, 0) != "TOLERANCE" || !ok || !(v >= 0) || len(w) != 2 {
			return p.expected(ln, "TOLERANCE <rmse> after RMSE_BUFFER <buffer>", w)
		}
		e.RMSE = v
		w = nil
	}
	w, err := p.tolerances(ln, e, w)
	if err != nil {
		return err
	}
	if len(w) > 0 {
		return p.expected(ln, "TOLERANCE, ULP or end of line", w)
	}
	if o.N != buf.N {
		return p.errf(ln, "expected buffers with as many values, got %s with %d and %s with %d", buf.Name, buf.N, o.Name, o.N)
	}
	return nil
}

func (p *parser) expectMatmul(ln int, e *Expect, c *Buffer, w []string) error {
	const form = "EQ_MATMUL <A> <B> M <m> N <n> K <k>"
	m := &Matmul{Batch: 1}
	e.Matmul = m
	if len(w) < 2 {
		return p.expected(ln, form, w)
	}
	m.A, m.B = w[0], w[1]
	a, b := p.s.Buffer(m.A), p.s.Buffer(m.B)
	if a == nil || b == nil {
		return p.errf(ln, "expected buffers declared earlier after EQ_MATMUL, got %q and %q", m.A, m.B)
	}
	w = w[2:]
	var add *Buffer
	for len(w) > 0 {
		key := w[0]
		if key == "TOLERANCE" || key == "ULP" {
			var err error
			if w, err = p.tolerances(ln, e, w); err != nil {
				return err
			}
			continue
		}
		switch key {
		case "SATURATE":
			m.Saturate, w = true, w[1:]
			continue
		case "TRANSPOSE":
			switch at(w, 1) {
			case "A":
				m.TransA = true
			case "B":
				m.TransB = true
			case "C":
				m.TransC = true
			default:
				return p.expected(ln, "A, B or C (the operand, not a buffer name) after TRANSPOSE", w[1:])
			}
			w = w[2:]
			continue
		case "ADD":
			if add = p.s.Buffer(at(w, 1)); add == nil {
				return p.expected(ln, "a buffer declared earlier after ADD", w[1:])
			}
			m.Add, w = add.Name, w[2:]
			continue
		case "STRIDE":
			n, err := strconv.Atoi(at(w, 2))
			if err != nil || n <= 0 {
				return p.expected(ln, "STRIDE A|B|C <elements>", w[1:])
			}
			switch at(w, 1) {
			case "A":
				m.StrideA = n
			case "B":
				m.StrideB = n
			case "C":
				m.StrideC = n
			default:
				return p.expected(ln, "A, B or C after STRIDE", w[1:])
			}
			w = w[3:]
			continue
		}
		var dst *int
		switch key {
		case "M":
			dst = &m.M
		case "N":
			dst = &m.N
		case "K":
			dst = &m.K
		case "BATCH":
			dst = &m.Batch
		case "SAMPLE":
			dst = &m.Sample
		default:
			return p.expected(ln, "M, N, K, TRANSPOSE, STRIDE, BATCH, ADD, SATURATE, SAMPLE, TOLERANCE, ULP or end of line", w)
		}
		n, err := strconv.Atoi(at(w, 1))
		if err != nil || n <= 0 || n > 1<<24 {
			return p.expected(ln, "a positive number after "+key, w[1:])
		}
		*dst, w = n, w[2:]
	}
	if m.M == 0 || m.N == 0 || m.K == 0 {
		return p.errf(ln, "expected M, N and K in %s", form)
	}
	check := func(buf *Buffer, role string, rows, cols int, trans bool, stride *int) error {
		if trans {
			rows, cols = cols, rows
		}
		if *stride == 0 {
			*stride = cols
		}
		if *stride < cols {
			return p.errf(ln, "expected STRIDE %s at least %d, got %d", role, cols, *stride)
		}
		// In float64, so huge dimensions cannot overflow the check.
		need := float64(float64(m.Batch*rows-1)*float64(*stride)) + float64(cols)
		if float64(buf.N) < need {
			return p.errf(ln, "expected %s (%s) to hold %.0f values for M=%d N=%d K=%d, got %d", role, buf.Name, need, m.M, m.N, m.K, buf.N)
		}
		return nil
	}
	if err := check(a, "A", m.M, m.K, m.TransA, &m.StrideA); err != nil {
		return err
	}
	if err := check(b, "B", m.K, m.N, m.TransB, &m.StrideB); err != nil {
		return err
	}
	if err := check(c, "C", m.M, m.N, m.TransC, &m.StrideC); err != nil {
		return err
	}
	if add != nil {
		s := m.StrideC
		return check(add, "ADD", m.M, m.N, m.TransC, &s)
	}
	return nil
}
