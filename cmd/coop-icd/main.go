// Command coop-icd is coop's Vulkan installable client driver: built with
//
//	go build -buildmode=c-shared -o libcoop_icd.so ./cmd/coop-icd
//
// it is a shared library the Vulkan loader opens through an ICD manifest
// (see docs/ICD.md). This package is the only one in coop that uses cgo:
// the loader-facing entry points (entry.c), the generated command table
// (procs_gen.c) and C-callable wrappers (exports_gen.go) around package
// icd, which holds all the logic.
package main

/*
#include <stdint.h>
void coop_call_messenger(uintptr_t fn, uint32_t severity, uint32_t types, void *data, void *user);
*/
import "C"

import (
	"unsafe"

	"github.com/coopshader/coop/icd"
)

func init() {
	icd.CallMessenger = func(fn uintptr, severity, types uint32, data, user unsafe.Pointer) {
		C.coop_call_messenger(C.uintptr_t(fn), C.uint32_t(severity), C.uint32_t(types), data, user)
	}
}

func main() {}
