package script

import (
	"math/bits"
	"math/rand/v2"
	"sync"
)

// chunkBytes is about how much of a generated buffer is computed at once
// when it is written to a device.
const chunkBytes = 1 << 20

// maxBufferBytes bounds a buffer's size, checked in 64 bits when it is
// declared, so a short script cannot ask for absurd memory.
const maxBufferBytes = 1 << 32

// generator computes FILL, SERIES_FROM and RANDOM contents in component
// order.
type generator struct {
	kind string // FILL, SERIES_FROM or RANDOM
	v    Value  // FILL's value; SERIES_FROM's start for integer types
	// SERIES_FROM of a float type: start + i*inc, computed in float64;
	// of an integer type: v + i*step, wrapping.
	start, inc float64
	step       uint64
	// RANDOM: lo + k*q for k drawn uniformly from [0, steps).
	seed    uint64
	lo, q   float64
	steps   uint64
	isFloat bool
}

// values returns a function giving component 0, 1, 2, ... of the
// contents on successive calls.
func (g *generator) values(t DataType) func() Value {
	i := 0
	switch g.kind {
	case "FILL":
		return func() Value { return g.v }
	case "SERIES_FROM":
		if g.isFloat {
			return func() Value { i++; return t.fromFloat(g.start + float64(float64(i-1)*g.inc)) }
		}
		return func() Value { i++; return t.wrap(g.v.I + uint64(i-1)*g.step) }
	}
	rng := rand.NewPCG(g.seed, 0x636f6f70) // "coop"
	return func() Value {
		// Lemire's multiply-shift maps 64 random bits to [0, steps); its
		// bias is below 2^-2 for steps < 2^62 and irrelevant for tests.
		k, _ := bits.Mul64(rng.Uint64(), g.steps)
		return t.fromFloat(g.lo + float64(float64(k)*g.q))
	}
}

// contents calls fn with the buffer's initial contents in order, as
// byte ranges at offsets, a chunk at a time for generated contents (so
// memory stays near chunkBytes whatever the buffer's size).
func (b *Buffer) contents(fn func(off int, p []byte) error) error {
	if b.gen == nil && b.data != nil {
		return fn(0, b.data)
	}
	t := b.Type
	step := 2 * chunkBytes // components per chunk: whole elements (bytes for 4-bit types)
	if t.Bits != 4 {
		step = max(1, chunkBytes/t.Stride()) * t.Comps()
	}
	chunk := make([]byte, t.byteSize(min(step, b.N)))
	var next func() Value
	if b.gen != nil {
		next = b.gen.values(t)
	}
	if b.gen != nil && b.gen.kind == "FILL" {
		// Every chunk is the same: compute it once.
		t.fill(chunk, min(step, b.N), func() Value { return b.gen.v })
		next = nil
	}
	for i0 := 0; i0 < b.N; i0 += step {
		k := min(step, b.N-i0)
		p := chunk[:t.byteSize(k)]
		if next != nil {
			clear(p) // padding
			t.fill(p, k, next)
		}
		if err := fn(t.byteSize(i0), p); err != nil {
			return err
		}
	}
	return nil
}

// Bytes returns the buffer's initial contents as laid out in memory.
func (b *Buffer) Bytes() []byte {
	out := make([]byte, b.Size())
	b.contents(func(off int, p []byte) error { copy(out[off:], p); return nil })
	return out
}

// Values returns the buffer's initial contents as scalar components in
// element order.
func (b *Buffer) Values() []Value { return b.Type.decode(b.Bytes(), b.N) }

// values is a buffer's contents read back from a device, decoded a
// component at a time.
type values struct {
	t    DataType
	data []byte
	n    int
	// first is the component data starts with (a whole element, a whole
	// byte of a 4-bit type), when only part of a buffer was read.
	first int
	tab   []float64 // the value of each encoding of a narrow float type
}

func newValues(t DataType, data []byte, n, first int) values {
	v := values{t: t, data: data, n: n, first: first}
	if t.Kind == Float && t.Bits <= 16 {
		v.tab = narrowTable(t)
	}
	return v
}

func (v values) at(i int) Value {
	i -= v.first
	if v.tab != nil {
		return Value{F: v.tab[v.t.raw(v.data, i)]}
	}
	return v.t.get(v.data, i)
}

func (v values) float(i int) float64 { return v.t.Float(v.at(i)) }

// narrowTables caches narrowTable's tables by format.
var narrowTables sync.Map

// narrowTable gives the value of every encoding of a float type of at
// most 16 bits, so reading a large fp16 buffer does not decode each
// value bit by bit.
func narrowTable(t DataType) []float64 {
	key := [3]int{t.Bits, t.Exp, t.Man}
	if tab, ok := narrowTables.Load(key); ok {
		return tab.([]float64)
	}
	tab := make([]float64, 1<<t.Bits)
	for b := range tab {
		tab[b] = t.fromBits(uint64(b)).F
	}
	narrowTables.Store(key, tab)
	return tab
}
