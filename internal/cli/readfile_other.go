//go:build !unix

package cli

import "os"

// readFile reads a whole file (readfile_unix.go says why unix systems
// do it without os).
func readFile(name string) ([]byte, error) { return os.ReadFile(name) }
