package exec

import (
	"testing"

	"github.com/coopshader/coop/backend"
)

// Views made by NewBufferOver share the caller's memory, and released
// indices are reused by later buffers.
func TestNewBufferOverAndReuse(t *testing.T) {
	d := New(Options{})
	mem := make([]byte, 64)
	v, err := d.NewBufferOver(mem[16:32], backend.UsageAddress)
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Write(4, []byte{7}); err != nil || mem[20] != 7 {
		t.Fatalf("write through a view: %v, memory %v", err, mem[16:24])
	}
	if v.Size() != 16 {
		t.Fatalf("view size %d", v.Size())
	}
	addr := v.Address()
	v.Release()
	v.Release()
	w, err := d.NewBuffer(8, backend.UsageAddress)
	if err != nil {
		t.Fatal(err)
	}
	if w.Address() != addr {
		t.Fatalf("released index not reused: %#x then %#x", addr, w.Address())
	}
}
