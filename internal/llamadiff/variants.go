package llamadiff

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/coopshader/coop/glsl/pp"
)

// Variant is one line of variants.tsv: a shader source compiled with a set
// of defines for a target environment.
type Variant struct {
	Name, Source, Env string
	Defines           []pp.Define
}

// Def returns the value of define name and whether it is set.
func (v *Variant) Def(name string) (string, bool) {
	for _, d := range v.Defines {
		if d.Name == name {
			return d.Value, true
		}
	}
	return "", false
}

// Has reports whether define name is set.
func (v *Variant) Has(name string) bool { _, ok := v.Def(name); return ok }

// ReadVariants reads dir/variants.tsv.
func ReadVariants(dir string) ([]Variant, error) {
	f, err := os.Open(filepath.Join(dir, "variants.tsv"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var vs []Variant
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	line := 0
	for sc.Scan() {
		line++
		t := sc.Text()
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		fs := strings.Split(t, "\t")
		if len(fs) < 3 {
			return nil, fmt.Errorf("variants.tsv:%d: want name, source, target_env and defines", line)
		}
		v := Variant{Name: fs[0], Source: fs[1], Env: fs[2]}
		if len(fs) > 3 {
			for _, d := range strings.Fields(fs[3]) {
				name, val, _ := strings.Cut(d, "=")
				v.Defines = append(v.Defines, pp.Define{Name: name, Value: val})
			}
		}
		vs = append(vs, v)
	}
	return vs, sc.Err()
}
