//go:build !amd64 || purego

package exec

// loadStrided is loadRun's own loops elsewhere: false, so that it runs them.
func loadStrided(d []uint64, b []byte, o, dx, n int64) bool { return false }
