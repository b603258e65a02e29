//go:build linux || freebsd || netbsd || darwin

package vk

import (
	"errors"

	"github.com/ebitengine/purego"
)

// loaderNames are tried in order; the versioned name is what distributions
// install without development packages.
var loaderNames = []string{"libvulkan.so.1", "libvulkan.so", "libvulkan.1.dylib"}

// openLoader opens a Vulkan loader library and returns its
// vkGetInstanceProcAddr, the one symbol looked up directly.
func openLoader(name string) (uintptr, error) {
	// dlerror's message already names the library.
	h, err := purego.Dlopen(name, purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		return 0, err
	}
	f, err := purego.Dlsym(h, "vkGetInstanceProcAddr")
	if err != nil {
		return 0, errors.New(name + ": " + err.Error())
	}
	return f, nil
}
