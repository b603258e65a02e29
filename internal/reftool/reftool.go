// Package reftool finds the optional reference tools (glslangValidator,
// spirv-val, spirv-as, spirv-dis) that tests compare against. They are
// never part of coop; tests skip when a tool is absent.
package reftool

import (
	"os"
	"os/exec"
	"path/filepath"
)

// Path returns the tool's path from $COOP_REF_BIN or $PATH, or "".
func Path(name string) string {
	if dir := os.Getenv("COOP_REF_BIN"); dir != "" {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	p, _ := exec.LookPath(name)
	return p
}
