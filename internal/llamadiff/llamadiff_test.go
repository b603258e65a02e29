package llamadiff

import (
	"bytes"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/internal/reftool"
)

var (
	all    = flag.Bool("llama.all", false, "run every llama.cpp variant (default: a sample of each family)")
	filter = flag.String("llama.run", "", "run only variants whose name contains this")
)

const corpus = "../../../shared/corpus/ggml-vulkan"

// TestLlamaDifferential compiles llama.cpp's Vulkan shader variants with
// coop, runs those the harness can give realistic inputs on the executor,
// and requires glslang's module (when the reference compiler is present)
// to produce identical buffers, and the result to match a Go reference
// where one exists. By default it runs a deterministic sample (every
// variant in -short mode is too slow for CI); -llama.all runs them all.
func TestLlamaDifferential(t *testing.T) {
	vs, err := ReadVariants(corpus)
	if err != nil {
		t.Skipf("ggml-vulkan corpus absent: %v", err)
	}
	dir := filepath.Join(corpus, "shaders")
	glslang := reftool.Path("glslangValidator")
	sample := 12
	if testing.Short() {
		sample = 60
	}
	type outcome struct {
		name, family, status, detail string
		elapsed                      time.Duration
	}
	var (
		mu       sync.Mutex
		outcomes []outcome
	)
	dev := exec.New(exec.Options{})
	start := time.Now()
	for i := range vs {
		v := &vs[i]
		if *filter != "" && !strings.Contains(v.Name, *filter) {
			continue
		}
		if !*all && *filter == "" && !sampled(v.Name, sample) {
			continue
		}
		t.Run(v.Name, func(t *testing.T) {
			t0 := time.Now()
			status, detail := runVariant(t, dev, glslang, dir, v)
			mu.Lock()
			outcomes = append(outcomes, outcome{v.Name, v.Source, status, detail, time.Since(t0)})
			mu.Unlock()
		})
	}
	counts := map[string]int{}
	for _, o := range outcomes {
		counts[o.status]++
	}
	var keys []string
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, counts[k]))
	}
	t.Logf("llama.cpp variants: %s (of %d in variants.tsv), %v", strings.Join(parts, ", "), len(vs), time.Since(start).Round(time.Millisecond))
	if testing.Verbose() {
		for _, o := range outcomes {
			if o.status != "identical" && o.status != "checked" {
				t.Logf("%-45s %-22s %s %s", o.name, o.family, o.status, o.detail)
			}
		}
	}
}

// sampled picks about one variant in n by a hash of its name, so the
// sample is stable and spreads over every family.
func sampled(name string, n int) bool {
	h := fnv.New32a()
	h.Write([]byte(name))
	return h.Sum32()%uint32(n) == 0
}

// runVariant returns how the variant fared:
//   - "identical": coop's and glslang's modules give the same buffers (and
//     the Go reference, where there is one, agrees);
//   - "checked": no reference compiler, the Go reference agrees;
//   - "ran": no reference compiler and no Go reference, coop's module ran;
//   - "fault in both" / "reference differs in both": both compilers' modules
//     fault alike or agree with each other but not with the Go reference;
//     the shader (or random data it was not written for) is at fault, not
//     coop, and the detail says how;
//   - "fault": no reference compiler, coop's module faulted;
//   - "not run": no realistic inputs known for the variant.
//
// Anything that puts coop's module apart from glslang's fails the test.
func runVariant(t *testing.T, dev *exec.Device, glslang, dir string, v *Variant) (string, string) {
	m, err := Compile(dir, v)
	if err != nil {
		t.Fatalf("%s does not compile: %v", v.Name, err)
	}
	fam := familyOf(v)
	if fam == nil {
		return "not run", "no realistic inputs for this family"
	}
	j := fam(v)
	if j == nil {
		return "not run", "no realistic inputs for this variant"
	}
	f, err := reflect(m)
	if err != nil {
		t.Fatal(err)
	}
	in := prepare(v, f, j, 1)
	got, runErr := dispatch(dev, m, f, j, in)
	if runErr == nil {
		// A dispatch that writes nothing means the inputs sent every
		// invocation home early: the harness, not the shader, is wrong.
		if err := wroteSomething(j, in, got); err != nil {
			t.Fatal(err)
		}
	}
	var refErr error
	if runErr == nil && j.check != nil {
		refErr = j.check(got)
	}
	if glslang == "" {
		// Without glslang's module to compare with, a fault cannot be told
		// apart from the shader's own (decode functions that disagree, data it
		// was not written for): it is reported, not failed.
		switch {
		case runErr != nil:
			return "fault", runErr.Error()
		case refErr != nil:
			t.Fatalf("coop's module: %v", refErr)
		case j.check != nil:
			return "checked", ""
		}
		return "ran", ""
	}
	g, err := Glslang(glslang, dir, v)
	if err != nil {
		t.Fatalf("%v", err)
	}
	gf, err := reflect(g)
	if err != nil {
		t.Fatal(err)
	}
	if err := samePush(f, gf); err != nil {
		t.Fatalf("coop's and glslang's modules: %v", err)
	}
	want, gErr := dispatch(dev, g, gf, j, in)
	switch {
	case runErr != nil && gErr != nil:
		return "fault in both", runErr.Error()
	case runErr != nil:
		t.Fatalf("coop's module faults where glslang's runs: %v", runErr)
	case gErr != nil:
		t.Fatalf("glslang's module faults where coop's runs: %v", gErr)
	}
	if d := firstDiff(got, want); d != "" {
		t.Errorf("coop's and glslang's modules differ: %s", d)
		return "differ", d
	}
	if refErr != nil {
		return "reference differs in both", refErr.Error()
	}
	return "identical", ""
}

func wroteSomething(j *job, in, out map[uint32][]byte) error {
	for _, b := range j.outputs {
		if !bytes.Equal(in[b], out[b]) {
			return nil
		}
	}
	return fmt.Errorf("the dispatch wrote none of its outputs %v", j.outputs)
}

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(m.Run())
}
