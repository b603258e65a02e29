package exec

// CPUTime is cpuTime for the external tests' benchmarks.
var CPUTime = cpuTime

// NoLockstep returns o with lockstep execution off (invocations run on
// their own), for the external tests' differential runs.
func NoLockstep(o Options) Options {
	o.noLockstep = true
	return o
}

// Batched returns o with workgroups run in batches in dispatches of any
// size (in order, unless o is Parallel), for the external tests'
// differential runs.
func Batched(o Options) Options {
	o.batchAll = true
	return o
}
