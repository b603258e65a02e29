package script

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/num"
)

// probeTolerance is Amber's default tolerance of image probes.
const probeTolerance = 0.002

// probe parses the rest of EXPECT <image> IDX x y [SIZE w h] [TOLERANCE
// t...] EQ_RGB r g b | EQ_RGBA r g b a.
func (p *parser) probe(ln int, e *Expect, buf *Buffer, w []string) error {
	if buf.Image == nil {
		return p.errf(ln, "expected an IMAGE for a probe IDX x y, got buffer %s", buf.Name)
	}
	pr := &Probe{W: 1, H: 1}
	e.Probe = pr
	pr.X, _ = strconv.Atoi(w[0])
	pr.Y, _ = strconv.Atoi(w[1])
	w = w[2:]
	if at(w, 0) == "SIZE" {
		var err1, err2 error
		pr.W, err1 = strconv.Atoi(at(w, 1))
		pr.H, err2 = strconv.Atoi(at(w, 2))
		if err1 != nil || err2 != nil || pr.W <= 0 || pr.H <= 0 {
			return p.expected(ln, "SIZE <width> <height>", w[1:])
		}
		w = w[3:]
	}
	d := buf.Image
	if pr.X < 0 || pr.Y < 0 || pr.X+pr.W > d.Width || pr.Y+pr.H > d.Height {
		return p.errf(ln, "expected a rectangle inside the %dx%d image %s, got %dx%d at (%d, %d)", d.Width, d.Height, buf.Name, pr.W, pr.H, pr.X, pr.Y)
	}
	w, err := p.tolerances(ln, e, w)
	if err != nil {
		return err
	}
	for _, t := range e.Tol {
		if t.ULP != 0 {
			return p.errf(ln, "expected TOLERANCE, not ULP, for an image probe")
		}
	}
	n := 3
	switch at(w, 0) {
	case "EQ_RGB":
	case "EQ_RGBA":
		n, pr.RGBA = 4, true
	default:
		return p.expected(ln, "EQ_RGB or EQ_RGBA after IDX x y [SIZE w h]", w)
	}
	if len(w) != n+1 {
		return p.expected(ln, fmt.Sprintf("%d values from 0 to 255 after %s", n, w[0]), w[min(len(w), n+1):])
	}
	for k := 0; k < n; k++ {
		v, ok := number(w[1+k])
		if !ok {
			return p.expected(ln, "a number from 0 to 255", w[1+k:])
		}
		pr.Want[k] = v / 255
	}
	e.Op = w[0]
	return nil
}

// texelValues reads the components of a stored texel as Amber's probes
// see them: UNORM and SNORM normalized, floats and integers as they are.
func texelValues(fi *backend.FormatInfo, b []byte) (v [4]float64) {
	var raw [4]uint64
	if fi.Packed {
		word := uint64(binary.LittleEndian.Uint32(b))
		for k, n := range fi.Bits {
			raw[k] = word & (1<<n - 1)
			word >>= n
		}
	} else {
		off := 0
		for k, n := range fi.Bits {
			for j := 0; j < int(n)/8; j++ {
				raw[k] |= uint64(b[off+j]) << (8 * j)
			}
			off += int(n) / 8
		}
	}
	for k, n := range fi.Bits {
		c, bits := raw[k], int(n)
		signed := float64(int64(c<<(64-bits)) >> (64 - bits))
		switch fi.Kind {
		case backend.SFloat:
			if bits == 16 {
				v[k] = num.Decode(c, 5, 10, true)
			} else {
				v[k] = float64(math.Float32frombits(uint32(c)))
			}
		case backend.UFloat:
			v[k] = num.Decode(c, 5, bits-5, true)
		case backend.UNorm:
			v[k] = float64(c) / float64(uint64(1)<<bits-1)
		case backend.SNorm:
			v[k] = signed / float64(uint64(1)<<(bits-1)-1)
		case backend.UInt:
			v[k] = float64(c)
		case backend.SInt:
			v[k] = signed
		}
	}
	return v
}

// checkProbe checks an image probe.
func (st *state) checkProbe(e *Expect) Result {
	b := st.s.Buffer(e.Buffer)
	d, pr := b.Image, e.Probe
	fi := d.Format.Info()
	data := make([]byte, d.LevelSize(0))
	if err := st.bufs[e.Buffer].Read(0, data); err != nil {
		return failed(e, err)
	}
	m := mismatch{max: st.opts.MaxDiffs}
	scale := 1.0
	if fi.Kind == backend.UNorm || fi.Kind == backend.SNorm {
		scale = 255
	}
	for y := pr.Y; y < pr.Y+pr.H; y++ {
		for x := pr.X; x < pr.X+pr.W; x++ {
			v := texelValues(fi, data[(y*d.Width+x)*d.Samples*fi.Size:])
			for k, n := range fi.Bits {
				if n == 0 || k == 3 && !pr.RGBA {
					continue
				}
				t := Tolerance{Abs: probeTolerance}
				if len(e.Tol) > 0 {
					t = e.Tol[min(k, len(e.Tol)-1)]
				}
				diff := math.Abs(v[k] - pr.Want[k])
				if !(t.Abs > 0 && diff <= t.Abs || t.Rel > 0 && diff <= t.Rel*math.Abs(pr.Want[k]) || diff == 0) {
					m.add(y*d.Width+x, fmt.Sprintf("(%d, %d) %c", x, y, "RGBA"[k]),
						strconv.FormatFloat(v[k]*scale, 'g', 6, 64), strconv.FormatFloat(pr.Want[k]*scale, 'g', 6, 64))
				}
			}
		}
	}
	comps := 0
	for k, n := range fi.Bits {
		if n != 0 && (k < 3 || pr.RGBA) {
			comps++
		}
	}
	return m.result(e.Line, e.Text, comps*pr.W*pr.H)
}
