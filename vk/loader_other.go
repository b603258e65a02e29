//go:build !(linux || freebsd || netbsd || darwin)

package vk

import "errors"

var loaderNames = []string{"vulkan-1.dll"}

func openLoader(name string) (uintptr, error) {
	return 0, errors.New(name + ": loading the Vulkan loader at run time is not supported on this platform")
}
