package exec

import (
	"os"
	"testing"
)

// TestMain detects the processor's features first, as New and
// LoadValidated do: the kernel tests call kernels directly.
func TestMain(m *testing.M) {
	detectCPU()
	os.Exit(m.Run())
}
