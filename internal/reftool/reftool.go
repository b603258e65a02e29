// Package reftool finds the optional reference tools (glslangValidator,
// spirv-val, spirv-as, spirv-dis) that tests compare against. They are
// never part of coop; tests skip when a tool is absent.
package reftool

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/coopshader/coop/spirv"
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

// Glslang compiles the compute shader src with glslangValidator -V for
// env and decodes the module; it returns nil, nil when the tool is absent.
func Glslang(src []byte, env string) (*spirv.Module, error) {
	tool := Path("glslangValidator")
	if tool == "" {
		return nil, nil
	}
	dir, err := os.MkdirTemp("", "reftool")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	in, out := filepath.Join(dir, "shader.comp"), filepath.Join(dir, "shader.spv")
	if err := os.WriteFile(in, src, 0o644); err != nil {
		return nil, err
	}
	if o, err := exec.Command(tool, "-V", "--target-env", env, "-o", out, in).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("glslangValidator: %v\n%s", err, o)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		return nil, err
	}
	return spirv.Decode(b)
}
