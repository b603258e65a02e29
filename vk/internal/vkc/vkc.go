// Package vkc is the generated subset of the Vulkan C API that package vk
// calls: structures laid out exactly as C lays them out on 64-bit Linux,
// the enumerations and constants they use, and a wrapper for each command
// that calls the entry point through purego (no cgo).
//
// Pointers inside structures are unsafe.Pointer so the garbage collector
// keeps what they point to alive; callers pin every structure of a pNext
// chain (runtime.Pinner) for the duration of a call.
package vkc

//go:generate go run ../genvk -xml ../../../../shared/specs/vulkan/xml/vk.xml -name ../shared/specs/vulkan/xml/vk.xml -o vkc_gen.go -test layout_gen_test.go

import "strconv"

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// MakeVersion packs a Vulkan version number (VK_MAKE_API_VERSION, variant 0).
func MakeVersion(major, minor, patch uint32) uint32 { return major<<22 | minor<<12 | patch }

// VersionString formats a packed Vulkan version as major.minor.patch.
func VersionString(v uint32) string {
	return strconv.Itoa(int(v>>22&0x7F)) + "." + strconv.Itoa(int(v>>12&0x3FF)) + "." + strconv.Itoa(int(v&0xFFF))
}

// CString returns the text of a NUL-terminated fixed-size C char array.
func CString(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}
