//go:build !unix

package exec

// cpuTime reports that the process's CPU time is not known here (-1):
// benchmarks then give wall time only.
func cpuTime() int64 { return -1 }
