package exec_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/glsl/compile"
	"github.com/coopshader/coop/script"
)

// BenchmarkScripts runs the workloads of bench/ (the 4096³ ones aside) on
// the executor with all cores and reports the time of their RUN commands
// per iteration (ms/run) and the process's CPU time during their
// dispatches (cpu-ms/run, which other processes sharing the machine do
// not inflate); expectations are checked every time. Compare with
// lavapipe through `coop bench --compare cpu,vulkan bench/`.
func BenchmarkScripts(b *testing.B) {
	paths, _ := filepath.Glob("../bench/*.amber")
	if len(paths) == 0 {
		b.Skip("no bench/ scripts")
	}
	compilers := script.Compilers{GLSL: func(name string, src []byte, o script.CompileOptions) ([]uint32, error) {
		return compile.Words(name, src, compile.Options{TargetEnv: "vulkan1.3", IncludeDirs: o.IncludeDirs})
	}}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".amber")
		if strings.Contains(name, "4096") {
			continue
		}
		b.Run(name, func(b *testing.B) {
			s, err := script.ParseFile(path)
			if err != nil {
				b.Fatal(err)
			}
			dev := &cpuTimed{Device: exec.New(exec.Options{Parallel: true})}
			var run time.Duration
			for range b.N {
				rep, err := script.Run(context.Background(), s, dev, script.RunOptions{Compilers: compilers, Timed: true})
				if err != nil {
					b.Fatal(err)
				}
				if rep.Failed() > 0 {
					rep.Format(os.Stderr)
					b.Fatal("expectations failed")
				}
				for _, t := range rep.Timings {
					run += t.Elapsed
				}
			}
			b.ReportMetric(float64(run.Microseconds())/1e3/float64(b.N), "ms/run")
			if dev.cpu >= 0 {
				b.ReportMetric(float64(dev.cpu)/1e6/float64(b.N), "cpu-ms/run")
			}
		})
	}
}

// cpuTimed adds up the process's CPU time spent in the device's
// dispatches.
type cpuTimed struct {
	*exec.Device
	cpu int64
}

func (d *cpuTimed) Dispatch(x *backend.Dispatch) (backend.Result, error) {
	c0 := exec.CPUTime()
	r, err := d.Device.Dispatch(x)
	if c0 >= 0 && d.cpu >= 0 {
		d.cpu += exec.CPUTime() - c0
	} else {
		d.cpu = -1
	}
	return r, err
}
