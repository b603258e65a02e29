package icd

import (
	"fmt"
	"os"
	"runtime/debug"
	"unsafe"
)

// ZeroCount reports zero items through a count out-parameter (a uint32_t*
// or, when sizeT, a size_t*) for commands the driver has nothing to list.
func ZeroCount(p unsafe.Pointer, sizeT bool) {
	if p == nil {
		return
	}
	if sizeT {
		*(*uintptr)(p) = 0
	} else {
		*(*uint32)(p) = 0
	}
}

// Unsupported tells the debug messengers of every instance that the
// application called a command the driver does not implement.
func Unsupported(cmd string) {
	objMu.Lock()
	var ins []*Instance
	for _, o := range dispatchables {
		if in, ok := o.(*Instance); ok {
			ins = append(ins, in)
		}
	}
	objMu.Unlock()
	for _, in := range ins {
		in.report(severityWarning, "%s is not supported by coop's driver (compute only; see docs/ICD.md)", cmd)
	}
}

// Guard runs at the start of every command: a fault reading a bad
// application pointer becomes a panic (not a crash), and the function it
// returns, deferred, turns any panic into VK_ERROR_UNKNOWN (or nothing for
// a command without a result) and a message to standard error, so no call
// crashes the application.
func Guard(cmd string, r *int32) func() {
	old := debug.SetPanicOnFault(true)
	return func() {
		debug.SetPanicOnFault(old)
		if e := recover(); e != nil {
			fmt.Fprintf(os.Stderr, "coop-icd: %s: internal error: %v\n", cmd, e)
			if r != nil {
				*r = errUnknown
			}
		}
	}
}
