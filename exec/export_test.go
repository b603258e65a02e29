package exec

// CPUTime is cpuTime for the external tests' benchmarks.
var CPUTime = cpuTime
