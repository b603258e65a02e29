//go:build unix

package cli

import (
	"fmt"
	"syscall"
)

// execVulkan replaces this process with coop-vulkan, so its exit status,
// signals (Ctrl-C) and output are the command's own.
func execVulkan(path string, args, env []string) (int, error) {
	err := syscall.Exec(path, append([]string{path}, args...), env)
	return 0, fmt.Errorf("starting %s: %w", path, err)
}
