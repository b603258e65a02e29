//go:build !unix

package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
)

// execVulkan runs coop-vulkan as a child with this process's standard
// files and returns its exit status; where there is no exec, a child is
// the closest to handing the process over.
func execVulkan(path string, args, env []string) (int, error) {
	cmd := exec.Command(path, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr, cmd.Env = os.Stdin, os.Stdout, os.Stderr, env
	// Ctrl-C reaches the child, which stops its run and exits 130; this
	// process only waits for it.
	signal.Ignore(os.Interrupt)
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee) && ee.ExitCode() >= 0:
		return ee.ExitCode(), nil
	case err != nil:
		return 0, fmt.Errorf("running %s: %w", path, err)
	}
	return 0, nil
}
