package compile

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/coopshader/coop/spirv"
)

// TestCorpusDeterministic compiles every compute shader of the glslang corpus
// 20 times, in parallel, and wants the same bytes (or the same
// diagnostics) every time: no Go map order, goroutine schedule or shared
// state may reach a module.
func TestCorpusDeterministic(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "glslang")
	man, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Skip("corpus not present")
	}
	type job struct {
		name, env string
		src       []byte
	}
	var jobs []job
	for _, line := range strings.Split(string(man), "\n") {
		f := strings.Split(line, "\t")
		if len(f) < 2 || !strings.HasSuffix(f[0], ".comp") {
			continue
		}
		path := filepath.Join(dir, f[0])
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, job{path, corpusEnv(path + ".spvasm"), src})
	}
	const runs = 20
	out := make([][runs][]byte, len(jobs))
	work := make(chan [2]int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for w := range work {
				j := jobs[w[0]]
				m, d := Compile(j.name, j.src, Options{TargetEnv: j.env, AutoMapBindings: true})
				var b []byte
				if m != nil {
					b, _ = m.Encode()
				} else {
					b = []byte(d.Error())
				}
				out[w[0]][w[1]] = b
			}
		})
	}
	// Interleave shaders so the same shader compiles concurrently.
	for r := range runs {
		for i := range jobs {
			work <- [2]int{i, r}
		}
	}
	close(work)
	wg.Wait()
	for i, j := range jobs {
		for r := 1; r < runs; r++ {
			if !bytes.Equal(out[i][0], out[i][r]) {
				t.Errorf("%s: compile %d differs from compile 0", j.name, r)
				break
			}
		}
	}
	t.Logf("%d shaders compiled %d times each", len(jobs), runs)
}

// TestMulExtendedOrder: umulExtended's out arguments are stored low half
// first, then high half, as glslang does, so umulExtended(x, y, v, v)
// leaves the high half in v every time.
func TestMulExtendedOrder(t *testing.T) {
	for _, fn := range []string{"umulExtended", "imulExtended"} {
		typ := map[string]string{"umulExtended": "uint", "imulExtended": "int"}[fn]
		src := "#version 450\nlayout(binding=0) buffer B { " + typ + " x, y, v; };\nvoid main(){ " + fn + "(x, y, v, v); }\n"
		m, d := Compile("m.comp", []byte(src), Options{})
		if m == nil {
			t.Fatal(d)
		}
		var members []uint32
		for _, in := range m.Insts {
			if in.Op == spirv.OpCompositeExtract {
				members = append(members, in.Words[len(in.Words)-1])
			}
		}
		if !slices.Equal(members, []uint32{0, 1}) {
			t.Errorf("%s: members extracted in order %v, want [0 1]", fn, members)
		}
	}
}
