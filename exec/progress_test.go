package exec

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/coopshader/coop/backend"
)

// TestProgressAndCancel checks the dispatch hooks the CLI uses: Progress
// counts every workgroup, and cancelling Context stops a dispatch early
// with an error wrapping the context's.
func TestProgressAndCancel(t *testing.T) {
	dev := New(Options{Parallel: true, Workers: 2})
	k := newKernel(t, 1)
	buf := k.buffer(0, k.u32, 4)
	k.store(buf, k.u32, k.x, k.x)
	code := k.words()
	const n = 4096
	out := u32buf(t, dev, make([]uint32, n))
	bind := []backend.Binding{{Binding: 0, Buffer: out}}
	var calls, last atomic.Uint64
	_, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{n, 1, 1}, Bindings: bind,
		Progress: func(done, total uint64) {
			calls.Add(1)
			if total != n {
				t.Errorf("total %d", total)
			}
			for {
				l := last.Load()
				if done <= l || last.CompareAndSwap(l, done) {
					break
				}
			}
		}})
	if err != nil || calls.Load() != n || last.Load() != n {
		t.Fatalf("err %v, %d calls, last %d", err, calls.Load(), last.Load())
	}
	ctx, cancel := context.WithCancel(context.Background())
	var seen atomic.Uint64
	_, err = dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{n, 1, 1}, Bindings: bind, Context: ctx,
		Progress: func(done, total uint64) {
			if seen.Add(1) == 10 {
				cancel()
			}
		}})
	if !errors.Is(err, context.Canceled) || seen.Load() >= n {
		t.Fatalf("cancelled dispatch: %v after %d workgroups", err, seen.Load())
	}
	if _, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{n, 1, 1}, Bindings: bind, Context: ctx}); !errors.Is(err, context.Canceled) {
		t.Fatalf("dispatch with a cancelled context: %v", err)
	}
}
