package script

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"testing"

	"github.com/coopshader/coop/backend"
	cpu "github.com/coopshader/coop/exec"
)

// TestExpectReadsInPlace guards issue 17's memory bound: on the CPU
// executor, whose buffers are host memory (backend.HostView), checking
// large buffers (16 and 64 MiB) allocates nothing near their size, so a
// run holds each buffer once.
func TestExpectReadsInPlace(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 96 MiB of buffers")
	}
	s := mustParse(t, `BUFFER a DATA_TYPE float SIZE 4194304 FILL 1
BUFFER b DATA_TYPE float SIZE 4194304 FILL 1
BUFFER h DATA_TYPE float16 SIZE 33554432 FILL 1
EXPECT a EQ_BUFFER b
EXPECT a RMSE_BUFFER b TOLERANCE 0
EXPECT h IDX 0 EQ 1 1 1 1
EXPECT h EQ_MATMUL h h M 4096 N 4096 K 4096 SAMPLE 1
`)
	st, err := start(s, cpu.New(cpu.Options{}), nil, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.release()
	const limit = 1 << 20
	for _, cmd := range s.Commands {
		e := cmd.(*Expect)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		r := st.check(e)
		runtime.ReadMemStats(&after)
		if want := e.Line != 7; r.Pass != want {
			t.Errorf("line %d: pass %v, want %v: %s", e.Line, r.Pass, want, r.Msg)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > limit {
			t.Errorf("line %d (%s) allocated %d bytes checking large buffers, want at most %d", e.Line, e.Text, n, limit)
		}
	}
}

// TestExpectSameInPlace checks that reading buffers in place (the CPU
// executor) and through copies (a device without backend.HostView) give
// the same results and messages.
func TestExpectSameInPlace(t *testing.T) {
	s := mustParse(t, `BUFFER a DATA_TYPE float DATA 1 2 3 4 END
BUFFER b DATA_TYPE float DATA 1 2 3 4.5 END
BUFFER h DATA_TYPE float16 DATA 1 2 3 4 END
BUFFER v DATA_TYPE vec2<float> DATA 1 100 2 200 END
BUFFER q DATA_TYPE int4 DATA 1 -2 3 -4 5 END
BUFFER c DATA_TYPE float SIZE 4 FILL 0
EXPECT a EQ_BUFFER h
EXPECT a EQ_BUFFER b
EXPECT a RMSE_BUFFER b TOLERANCE 0.2
EXPECT v IDX 8 TOLERANCE 0.1 5 EQ 2.05 206
EXPECT q IDX 1 EQ -2 3 -5
COPY b TO c
EXPECT c EQ_BUFFER b
EXPECT a EQ_MATMUL h h M 2 N 2 K 2
`)
	var msgs [2][]string
	for k, dev := range []backend.Device{&fakeDevice{name: "fake"}, cpu.New(cpu.Options{})} {
		rep, err := Run(context.Background(), s, dev, RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rep.Results {
			msgs[k] = append(msgs[k], r.What+": "+r.Msg)
		}
	}
	if !slices.Equal(msgs[0], msgs[1]) {
		t.Errorf("copies give\n%q\nin place\n%q", msgs[0], msgs[1])
	}
	if len(msgs[0]) != 7 {
		t.Errorf("%d results: %q", len(msgs[0]), msgs[0])
	}
}

// TestExpectChunks checks EQ_BUFFER and RMSE_BUFFER on buffers of several
// chunks, read through copies and in place, against the whole buffers
// compared at once.
func TestExpectChunks(t *testing.T) {
	s := mustParse(t, `BUFFER a DATA_TYPE vec3<float> SIZE 100001 SERIES_FROM 0 INC_BY 1
BUFFER b DATA_TYPE vec3<float> SIZE 100001 SERIES_FROM 0 INC_BY 1.0000001
BUFFER c DATA_TYPE vec3<float> SIZE 100001 SERIES_FROM 0 INC_BY 1.0000001
EXPECT a EQ_BUFFER b TOLERANCE 0.01
EXPECT a RMSE_BUFFER b TOLERANCE 0
EXPECT b EQ_BUFFER c
`)
	a, b := s.Buffer("a").Values(), s.Buffer("b").Values()
	ty, tol := s.Buffer("a").Type, &Tolerance{Abs: 0.01}
	count, sum := 0, 0.0
	for i := range a {
		if !within(ty, a[i], b[i], tol) {
			count++
		}
		d := a[i].F - b[i].F
		sum += float64(d * d)
	}
	if count == 0 {
		t.Fatal("the buffers do not differ")
	}
	wantRMSE := fmt.Sprintf("RMSE %g exceeds 0", math.Sqrt(sum/float64(len(a))))
	for _, dev := range []backend.Device{&fakeDevice{name: "fake"}, cpu.New(cpu.Options{})} {
		rep, err := Run(context.Background(), s, dev, RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		r := rep.Results
		if r[0].Count != count || r[0].Total != len(a) || r[1].Msg != wantRMSE || !r[2].Pass {
			t.Errorf("%s: got %d of %d differing, %q, %v; want %d of %d, %q",
				dev.Name(), r[0].Count, r[0].Total, r[1].Msg, r[2].Pass, count, len(a), wantRMSE)
		}
	}
}
