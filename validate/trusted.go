package validate

import (
	"sync"

	"github.com/coopshader/coop/spirv"
)

// Trusted remembers modules a caller has validated, by their words, so a
// later stage given the same words (a backend's dispatch) reuses the
// decoded module and the Result instead of decoding and validating again:
// validate once, then trust. The zero value is ready to use and safe for
// concurrent use.
type Trusted struct {
	mu sync.Mutex
	// m is keyed by the words' bytes: exact, and cheaper than hashing
	// them with a cryptographic hash.
	m map[string]trustedModule
}

type trustedModule struct {
	mod *spirv.Module
	res *Result
}

// Add records that words, decoded as m, validated with result res.
func (t *Trusted) Add(words []uint32, m *spirv.Module, res *Result) {
	k := string(spirv.AppendWords(nil, words))
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = map[string]trustedModule{}
	}
	t.m[k] = trustedModule{m, res}
}

// Lookup returns the module and result Add recorded for words, or nils.
func (t *Trusted) Lookup(words []uint32) (*spirv.Module, *Result) {
	k := spirv.AppendWords(nil, words)
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.m[string(k)]
	return e.mod, e.res
}
