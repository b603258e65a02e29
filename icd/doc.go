// Package icd is coop's Vulkan driver: the logic behind the installable
// client driver built from cmd/coop-icd. It keeps Vulkan's objects, reads
// the application's structures in place (layouts from package vkt), and
// runs recorded command buffers on the reference executor (package exec).
//
// Each exported function named after a Vulkan command without its "vk"
// prefix implements that command; genicd (go generate) writes the C entry
// points that call them, and makes every other command it exposes return
// the error the registry allows (see docs/ICD.md).
package icd
