package validate

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/coopshader/coop/internal/reftool"
	"github.com/coopshader/coop/spirv"
)

// corpusBinaries writes the glslang corpus modules as .spv files and
// returns their paths, bytes and target environments.
func corpusBinaries(b *testing.B) (paths []string, bins [][]byte, envs []string) {
	dir := b.TempDir()
	for _, f := range glslangCorpus(b) {
		m := loadSpvasm(b, f)
		env := envForVersion(m.Version)
		if _, err := Validate(m, Options{TargetEnv: env}); err != nil {
			continue // the few spirv-val rejects too
		}
		bin, err := m.Encode()
		if err != nil {
			b.Fatal(err)
		}
		p := filepath.Join(dir, filepath.Base(f)+".spv")
		if err := os.WriteFile(p, bin, 0o644); err != nil {
			b.Fatal(err)
		}
		paths, bins, envs = append(paths, p), append(bins, bin), append(envs, env)
	}
	return
}

// BenchmarkValidate validates the glslang corpus modules (decoding each
// binary first, as coop val does) in-process, with `coop val` as a process per module (the
// static cmd/coop binary), and with spirv-val as a process per module,
// side by side: ns/op is per corpus; process-ratio alternates the two
// tools module by module and reports coop/spirv-val, the ratio of their
// wall times, and cpu-coop/spirv-val, of their CPU times (user and
// system), which load from other processes disturbs less.
func BenchmarkValidate(b *testing.B) {
	paths, bins, envs := corpusBinaries(b)
	b.Run("in-process", func(b *testing.B) {
		for b.Loop() {
			for i, bin := range bins {
				m, err := spirv.DecodeRaw(bin) // as coop val does
				if err != nil {
					b.Fatal(err)
				}
				if _, err := Validate(m, Options{TargetEnv: envs[i]}); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(bins)), "ns/module")
	})
	coop := filepath.Join(b.TempDir(), "coop")
	if out, err := exec.Command("go", "build", "-o", coop, "../cmd/coop").CombinedOutput(); err != nil {
		b.Fatalf("building coop: %v\n%s", err, out)
	}
	// run runs tool on module i and returns the CPU time it took.
	run := func(b *testing.B, tool string, args []string, i int) time.Duration {
		cmd := exec.Command(tool, append(args, "--target-env", spirvValEnv(envs[i]), paths[i])...)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%s %s: %v\n%s", tool, paths[i], err, out)
		}
		return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	process := func(tool string, args ...string) func(b *testing.B) {
		return func(b *testing.B) {
			for b.Loop() {
				for i := range paths {
					run(b, tool, args, i)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(paths)), "ns/module")
		}
	}
	b.Run("coop-val-process", process(coop, "val"))
	val := reftool.Path("spirv-val")
	if val == "" {
		b.Log("spirv-val not present: no comparison")
		return
	}
	b.Run("spirv-val-process", process(val))
	// Both tools module by module, alternating, so load on the machine
	// falls on both alike: the ratio is coop val's time over spirv-val's.
	b.Run("process-ratio", func(b *testing.B) {
		var tc, tv, cc, cv time.Duration
		for b.Loop() {
			for i := range paths {
				t0 := time.Now()
				cc += run(b, coop, []string{"val"}, i)
				t1 := time.Now()
				cv += run(b, val, nil, i)
				tc, tv = tc+t1.Sub(t0), tv+time.Since(t1)
			}
		}
		n := float64(b.N * len(paths))
		b.ReportMetric(float64(tc.Nanoseconds())/n, "coop-ns/module")
		b.ReportMetric(float64(tv.Nanoseconds())/n, "spirv-val-ns/module")
		b.ReportMetric(float64(tc)/float64(tv), "coop/spirv-val")
		b.ReportMetric(float64(cc)/float64(cv), "cpu-coop/spirv-val")
	})
}
