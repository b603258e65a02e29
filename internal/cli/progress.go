package cli

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coopshader/coop/script"
)

// progress keeps one status line up to date on a terminal while long work
// runs: what runs, how much of it is done, the time it has taken and the
// rate. It draws nothing during the first second, so short work stays
// quiet, and a nil *progress (not a terminal) draws nothing at all.
type progress struct {
	w           io.Writer
	done, total atomic.Uint64
	mu          sync.Mutex
	label, unit string
	start       time.Time
	drawn       bool
	quit        chan struct{}
	stopped     sync.WaitGroup
}

// tick is how often the line is redrawn.
const tick = 250 * time.Millisecond

// newProgress returns a progress line on w, or nil when w is not a
// terminal.
func newProgress(w io.Writer) *progress {
	if !isTerminal(w) {
		return nil
	}
	p := &progress{w: w, quit: make(chan struct{})}
	p.stopped.Add(1)
	go func() {
		defer p.stopped.Done()
		t := time.NewTicker(tick)
		defer t.Stop()
		for {
			select {
			case <-p.quit:
				return
			case <-t.C:
				p.draw()
			}
		}
	}()
	return p
}

// begin starts counting a new piece of work of total units.
func (p *progress) begin(label, unit string, total uint64) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.label, p.unit, p.start = label, unit, time.Now()
	p.done.Store(0)
	p.total.Store(total)
	p.mu.Unlock()
}

// set records how much is done; it may be called from many goroutines.
func (p *progress) set(done uint64) {
	if p != nil {
		p.done.Store(done)
	}
}

func (p *progress) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	el := time.Since(p.start)
	if p.label == "" || el < time.Second {
		return
	}
	done, total := p.done.Load(), p.total.Load()
	line := fmt.Sprintf("%s: %d of %d %s (%.1f%%), %s, %s %s/s", p.label, done, total, p.unit,
		100*float64(done)/float64(max(total, 1)), el.Round(time.Second/10), si(float64(done)/el.Seconds()), p.unit)
	if done > 0 && done < total {
		if left := time.Duration(float64(el) * float64(total-done) / float64(done)); left >= time.Second {
			line += fmt.Sprintf(", about %s left", left.Round(time.Second))
		}
	}
	fmt.Fprintf(p.w, "\r%s\x1b[K", line)
	p.drawn = true
}

// si writes x with three significant digits and a k, M or G suffix.
func si(x float64) string {
	for _, u := range []struct {
		scale  float64
		suffix string
	}{{1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if x >= u.scale {
			return fmt.Sprintf("%.3g%s", x/u.scale, u.suffix)
		}
	}
	return fmt.Sprintf("%.3g", x)
}

// clear removes the line, so results print on a clean line.
func (p *progress) clear() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.drawn = false
	}
	p.label = ""
}

// close stops the line for good.
func (p *progress) close() {
	if p == nil {
		return
	}
	close(p.quit)
	p.stopped.Wait()
	p.clear()
}

// runProgress adapts a progress line to script.RunOptions.Progress: each
// RUN of a script (told with done 0) gets its own count of workgroups.
func (p *progress) runProgress(path string) func(r *script.RunCmd, done, total uint64) {
	if p == nil {
		return nil
	}
	return func(r *script.RunCmd, done, total uint64) {
		if done == 0 {
			p.begin(fmt.Sprintf("%s:%d RUN %s %dx%dx%d", path, r.Line, r.Pipeline, r.Groups[0], r.Groups[1], r.Groups[2]), "workgroups", total)
			return
		}
		p.set(done)
	}
}
