package llamadiff

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coopshader/coop/exec"
)

// TestLlamaLockstep runs llama.cpp's cooperative-matrix variants (coopmat
// and coopmat2: tensor loads with decode functions, reductions, per-element
// functions, workgroup-scope matrices) with coop's module in lockstep and
// under Options.Check, which runs the invocations one at a time on the
// exact paths, and requires the same buffers: what lockstep holds in
// rows, as affine functions or in the leader alone must reach the
// collective paths as the invocations hold it. A variant whose checked
// run reports undefined behaviour is logged, not compared. By default a
// sample; -llama.all or -llama.run pick others.
func TestLlamaLockstep(t *testing.T) {
	vs, err := ReadVariants(corpus)
	if err != nil {
		t.Skipf("ggml-vulkan corpus absent: %v", err)
	}
	dir := filepath.Join(corpus, "shaders")
	sample := 4
	if testing.Short() {
		sample = 16
	}
	fast, exact := exec.New(exec.Options{}), exec.New(exec.Options{Check: true})
	for i := range vs {
		v := &vs[i]
		if !strings.Contains(v.Name, "_cm") && !strings.Contains(v.Name, "coopmat") {
			continue
		}
		if *filter != "" && !strings.Contains(v.Name, *filter) || !*all && *filter == "" && !sampled(v.Name, sample) {
			continue
		}
		t.Run(v.Name, func(t *testing.T) {
			m, err := Compile(dir, v)
			if err != nil {
				t.Fatalf("%s does not compile: %v", v.Name, err)
			}
			fam := familyOf(v)
			if fam == nil {
				t.Skip("no realistic inputs for this family")
			}
			j := fam(v)
			if j == nil {
				t.Skip("no realistic inputs for this variant")
			}
			f, err := reflect(m)
			if err != nil {
				t.Fatal(err)
			}
			in := prepare(v, f, j, 1)
			t0 := time.Now()
			want, werr := dispatch(exact, m, f, j, in)
			t1 := time.Now()
			if werr != nil && strings.Contains(werr.Error(), "undefined behaviour") {
				t.Logf("checked run: %v", werr)
				return
			}
			got, err := dispatch(fast, m, f, j, in)
			t.Logf("checked %v, lockstep %v", t1.Sub(t0).Round(time.Millisecond), time.Since(t1).Round(time.Millisecond))
			if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
				t.Fatalf("lockstep: %v; one at a time: %v", err, werr)
			}
			if d := firstDiff(got, want); d != "" {
				t.Fatalf("lockstep and one at a time differ: %s", d)
			}
		})
	}
}
