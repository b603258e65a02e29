//go:build unix

package cli

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// TestInterrupt: Ctrl-C (SIGINT) cancels the run's context, which the
// dispatch stops on, and the run exits 130.
func TestInterrupt(t *testing.T) {
	ctx, cancel := runContext(0)
	defer cancel()
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Skip(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("SIGINT did not cancel the context")
	}
	if msg, status, ok := stopped(ctx, 0); !ok || status != 130 || msg != "interrupted" {
		t.Fatalf("%q %d %v", msg, status, ok)
	}
}
