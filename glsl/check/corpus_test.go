package check

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/coopshader/coop/glsl/diag"
)

// corpusDir finds ../shared/corpus/glslang above the package, or "".
func corpusDir() string {
	dir, err := filepath.Abs(".")
	if err != nil {
		return ""
	}
	for ; ; dir = filepath.Dir(dir) {
		p := filepath.Join(dir, "shared", "corpus", "glslang")
		if _, err := os.Stat(filepath.Join(p, "MANIFEST.tsv")); err == nil {
			return p
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}

type corpusEntry struct {
	name string
	pos  bool
	src  []byte
}

// corpus loads the compute shaders of the glslang corpus, skipping the
// test when the corpus is absent.
func corpus(tb testing.TB) (string, []corpusEntry) {
	dir := corpusDir()
	if dir == "" {
		tb.Skip("corpus not found (../shared/corpus/glslang)")
	}
	man, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		tb.Skip(err)
	}
	var out []corpusEntry
	for _, line := range strings.Split(string(man), "\n") {
		f := strings.Split(strings.TrimSpace(line), "\t")
		if len(f) != 2 || !strings.HasSuffix(f[0], ".comp") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, f[0]))
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, corpusEntry{name: f[0], pos: f[1] == "pos", src: src})
	}
	return dir, out
}

var outErrLine = regexp.MustCompile(`(?m)^ERROR: [^:]*:(\d+):`)

// TestCorpus runs the front end over the glslang corpus: every pos shader
// must check cleanly, every neg shader must draw an error on a line that
// glslang's expected output also flags.
func TestCorpus(t *testing.T) {
	dir, entries := corpus(t)
	var pos, posOK, neg, negAgree, negRejected int
	for _, e := range entries {
		_, d := frontEnd(e.name, e.src)
		if e.pos {
			pos++
			if d.HasErrors() {
				t.Errorf("%s: unexpected errors:\n%s", e.name, firstLines(d.Error(), 6))
				continue
			}
			posOK++
			continue
		}
		neg++
		if !d.HasErrors() {
			t.Errorf("%s: accepted, glslang rejects it", e.name)
			continue
		}
		negRejected++
		want := map[int]bool{}
		out, _ := os.ReadFile(filepath.Join(dir, e.name+".out"))
		for _, m := range outErrLine.FindAllStringSubmatch(string(out), -1) {
			n, _ := strconv.Atoi(m[1])
			want[n] = true
		}
		agree := false
		for _, g := range d.Diags {
			if g.Sev == diag.Error && want[g.Pos.Line] {
				agree = true
				break
			}
		}
		if agree {
			negAgree++
		} else {
			t.Errorf("%s: no error on a line glslang flags; got:\n%s", e.name, firstLines(d.Error(), 6))
		}
	}
	t.Logf("pos: %d/%d check cleanly; neg: %d/%d rejected, %d/%d on a line glslang flags (%.0f%%)",
		posOK, pos, negRejected, neg, negAgree, neg, 100*float64(negAgree)/float64(max(neg, 1)))
}

func firstLines(s string, n int) string {
	ls := strings.SplitN(s, "\n", n+1)
	if len(ls) > n {
		ls = ls[:n]
	}
	return strings.Join(ls, "\n")
}

// TestExamples checks the project's example shaders.
func TestExamples(t *testing.T) {
	files, _ := filepath.Glob("../../examples/shaders/*.comp")
	if len(files) == 0 {
		t.Fatal("no example shaders found")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		prog, d := frontEnd(f, src)
		if d.HasErrors() {
			t.Errorf("%s:\n%s", f, d.Error())
			continue
		}
		if prog.Main == nil {
			t.Errorf("%s: no main", f)
		}
	}
}

// BenchmarkFrontEnd measures preprocessing, parsing and checking: one
// sub-benchmark per corpus shader and one for the whole corpus.
func BenchmarkFrontEnd(b *testing.B) {
	_, entries := corpus(b)
	b.Run("corpus", func(b *testing.B) {
		var bytes int64
		for _, e := range entries {
			bytes += int64(len(e.src))
		}
		b.SetBytes(bytes)
		for b.Loop() {
			for _, e := range entries {
				frontEnd(e.name, e.src)
			}
		}
	})
	for _, e := range entries {
		b.Run(strings.TrimSuffix(e.name, ".comp"), func(b *testing.B) {
			b.SetBytes(int64(len(e.src)))
			for b.Loop() {
				frontEnd(e.name, e.src)
			}
		})
	}
}
