//go:build unix

package exec

import "syscall"

// cpuTime is the process's CPU time in nanoseconds: benchmarks report it
// beside wall time, which other processes sharing the machine inflate.
func cpuTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return -1
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
