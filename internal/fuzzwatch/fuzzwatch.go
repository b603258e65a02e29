// Package fuzzwatch turns a fuzz input that runs too long into a crash
// the fuzzer records. Go's fuzzing has no time limit per input: an input
// that hangs a target only stalls the run, and is never saved. Each fuzz
// function starts a watch; past the limit the watch panics, which ends
// the fuzzing worker, and the coordinator saves the input under
// testdata/fuzz like any crasher.
package fuzzwatch

import (
	"fmt"
	"time"
)

// Limit is far more than any input of the targets needs (they bound
// their work with small budgets), even on a loaded machine or under the
// race detector.
const Limit = 60 * time.Second

// Start watches one input; call the returned stop when it is done.
func Start() (stop func()) {
	t := time.AfterFunc(Limit, func() {
		panic(fmt.Sprintf("fuzzwatch: one input ran for more than %v (a hang)", Limit))
	})
	return func() { t.Stop() }
}
