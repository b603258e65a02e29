package icd

import (
	"runtime/debug"
	"sync"
	"time"
	"unsafe"

	"github.com/coopshader/coop/icd/vkt"
)

// Queue is the device's one VkQueue. Submissions run in order on a worker
// goroutine, so a submission that waits on a semaphore the host signals
// later does not block the application.
type Queue struct {
	dispatchable
	dev     *Device
	mu      sync.Mutex
	cond    *sync.Cond
	pending []*submission
	busy    bool
	closed  bool
}

type semWait struct {
	sem   *Semaphore
	value uint64
}

type submission struct {
	waits   []semWait
	cmds    []*CommandBuffer
	signals []semWait
	fence   *Fence
}

func newQueue(d *Device) *Queue {
	q := &Queue{dev: d}
	q.cond = sync.NewCond(&q.mu)
	newDispatchable(&q.dispatchable, q)
	go q.run()
	return q
}

func (q *Queue) run() {
	q.mu.Lock()
	for {
		for len(q.pending) == 0 && !q.closed {
			q.cond.Wait()
		}
		if q.closed {
			q.mu.Unlock()
			return
		}
		s := q.pending[0]
		q.pending = q.pending[1:]
		q.busy = true
		q.mu.Unlock()
		q.execute(s)
		q.mu.Lock()
		q.busy = false
		q.cond.Broadcast()
	}
}

func (q *Queue) execute(s *submission) {
	for _, w := range s.waits {
		w.sem.wait(w.value, -1)
	}
	for _, cb := range s.cmds {
		if q.dev.lostErr() != nil {
			break
		}
		if err := cb.safeReplay(); err != nil {
			// Reported before the device is marked lost: an application
			// that sees the loss may exit at once.
			q.dev.inst.report(severityError, "device lost: %v", err)
			q.dev.mu.Lock()
			if q.dev.lost == nil {
				q.dev.lost = err
			}
			q.dev.mu.Unlock()
		}
	}
	for _, sg := range s.signals {
		sg.sem.signal(sg.value)
	}
	if s.fence != nil {
		s.fence.signal()
	}
}

// safeReplay replays a command buffer, a panic becoming an error that
// loses the device rather than ending the application; the error carries
// the stack, as a panic here is the driver's bug.
func (cb *CommandBuffer) safeReplay() (err error) {
	defer func() {
		if e := recover(); e != nil {
			err = errorf("internal error running a command buffer: %v\n%s", e, debug.Stack())
		}
	}()
	return cb.replay()
}

func (q *Queue) stop() {
	q.waitIdle()
	q.mu.Lock()
	q.closed = true
	q.cond.Broadcast()
	q.mu.Unlock()
}

func (q *Queue) submit(s *submission) int32 {
	if q.dev.lostErr() != nil {
		return errDeviceLost
	}
	q.mu.Lock()
	q.pending = append(q.pending, s)
	q.cond.Broadcast()
	q.mu.Unlock()
	return success
}

func (q *Queue) waitIdle() int32 {
	q.mu.Lock()
	for len(q.pending) > 0 || q.busy {
		q.cond.Wait()
	}
	q.mu.Unlock()
	if q.dev.lostErr() != nil {
		return errDeviceLost
	}
	return success
}

func (d *Device) lostErr() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.lost
}

func QueueWaitIdle(queue uintptr) int32 {
	q := lookupD[Queue](queue)
	if q == nil {
		return errDeviceLost
	}
	return q.waitIdle()
}

func QueueSubmit(queue uintptr, count uint32, pSubmits unsafe.Pointer, fence uint64) int32 {
	q := lookupD[Queue](queue)
	if q == nil {
		return errDeviceLost
	}
	subs := array[vkt.SubmitInfo](pSubmits, count)
	for i, si := range subs {
		s := &submission{}
		var waitVals, sigVals []uint64
		chain(si.PNext, func(st vkt.StructureType, p unsafe.Pointer) {
			if st == vkt.StructureTypeTimelineSemaphoreSubmitInfo {
				t := (*vkt.TimelineSemaphoreSubmitInfo)(p)
				waitVals = array[uint64](t.PWaitSemaphoreValues, t.WaitSemaphoreValueCount)
				sigVals = array[uint64](t.PSignalSemaphoreValues, t.SignalSemaphoreValueCount)
			}
		})
		for j, h := range array[uint64](si.PWaitSemaphores, si.WaitSemaphoreCount) {
			if sem := lookup[Semaphore](h); sem != nil {
				s.waits = append(s.waits, semWait{sem, valueAt(waitVals, j)})
			}
		}
		for _, h := range array[uintptr](si.PCommandBuffers, si.CommandBufferCount) {
			if cb := lookupD[CommandBuffer](h); cb != nil {
				s.cmds = append(s.cmds, cb)
			}
		}
		for j, h := range array[uint64](si.PSignalSemaphores, si.SignalSemaphoreCount) {
			if sem := lookup[Semaphore](h); sem != nil {
				s.signals = append(s.signals, semWait{sem, valueAt(sigVals, j)})
			}
		}
		if i == len(subs)-1 {
			s.fence = lookup[Fence](fence)
		}
		if r := q.submit(s); r != success {
			return r
		}
	}
	if len(subs) == 0 && fence != 0 {
		return q.submit(&submission{fence: lookup[Fence](fence)})
	}
	return success
}

func QueueSubmit2(queue uintptr, count uint32, pSubmits unsafe.Pointer, fence uint64) int32 {
	q := lookupD[Queue](queue)
	if q == nil {
		return errDeviceLost
	}
	subs := array[vkt.SubmitInfo2](pSubmits, count)
	for i, si := range subs {
		s := &submission{}
		for _, w := range array[vkt.SemaphoreSubmitInfo](si.PWaitSemaphoreInfos, si.WaitSemaphoreInfoCount) {
			if sem := lookup[Semaphore](uint64(w.Semaphore)); sem != nil {
				s.waits = append(s.waits, semWait{sem, w.Value})
			}
		}
		for _, c := range array[vkt.CommandBufferSubmitInfo](si.PCommandBufferInfos, si.CommandBufferInfoCount) {
			if cb := lookupD[CommandBuffer](uintptr(c.CommandBuffer)); cb != nil {
				s.cmds = append(s.cmds, cb)
			}
		}
		for _, w := range array[vkt.SemaphoreSubmitInfo](si.PSignalSemaphoreInfos, si.SignalSemaphoreInfoCount) {
			if sem := lookup[Semaphore](uint64(w.Semaphore)); sem != nil {
				s.signals = append(s.signals, semWait{sem, w.Value})
			}
		}
		if i == len(subs)-1 {
			s.fence = lookup[Fence](fence)
		}
		if r := q.submit(s); r != success {
			return r
		}
	}
	if len(subs) == 0 && fence != 0 {
		return q.submit(&submission{fence: lookup[Fence](fence)})
	}
	return success
}

func valueAt(v []uint64, i int) uint64 {
	if i < len(v) {
		return v[i]
	}
	return 0
}

// --- fences, semaphores, events -----------------------------------------

type Fence struct {
	mu       sync.Mutex
	cond     *sync.Cond
	signaled bool
}

func CreateFence(device uintptr, pInfo, pAllocator, pFence unsafe.Pointer) int32 {
	ci := (*vkt.FenceCreateInfo)(pInfo)
	if ci == nil || pFence == nil {
		return errOutOfHostMemory
	}
	f := &Fence{signaled: ci.Flags&vkt.FenceCreateSignaledBit != 0}
	f.cond = sync.NewCond(&f.mu)
	put(pFence, newHandle(f))
	return success
}

func DestroyFence(device uintptr, fence uint64, pAllocator unsafe.Pointer) { freeHandle(fence) }

func (f *Fence) signal() {
	f.mu.Lock()
	f.signaled = true
	f.cond.Broadcast()
	f.mu.Unlock()
}

func ResetFences(device uintptr, count uint32, pFences unsafe.Pointer) int32 {
	for _, h := range array[uint64](pFences, count) {
		if f := lookup[Fence](h); f != nil {
			f.mu.Lock()
			f.signaled = false
			f.mu.Unlock()
		}
	}
	return success
}

func GetFenceStatus(device uintptr, fence uint64) int32 {
	d := lookupD[Device](device)
	f := lookup[Fence](fence)
	if d == nil || f == nil {
		return errDeviceLost
	}
	if d.lostErr() != nil {
		return errDeviceLost
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	// The queue runs on the application's CPU, so an application that
	// polls in a loop (llama.cpp's backend spins on vkGetFenceStatus)
	// would take a core from the executor: a poll of an unsignaled fence
	// waits a little for it instead of answering at once.
	if waitUntil(f.cond, func() bool { return f.signaled }, uint64(fencePollWait)) {
		return success
	}
	return notReady
}

// fencePollWait is how long vkGetFenceStatus waits for an unsignaled fence.
const fencePollWait = time.Millisecond

// waitUntil waits on cond (whose lock is held) until done() or the
// deadline; it reports done().
func waitUntil(cond *sync.Cond, done func() bool, timeoutNs uint64) bool {
	if done() {
		return true
	}
	if timeoutNs == 0 {
		return false
	}
	var timer *time.Timer
	expired := false
	if timeoutNs < 1<<62 {
		timer = time.AfterFunc(time.Duration(timeoutNs), func() {
			cond.L.Lock()
			expired = true
			cond.Broadcast()
			cond.L.Unlock()
		})
		defer timer.Stop()
	}
	for !done() && !expired {
		cond.Wait()
	}
	return done()
}

func WaitForFences(device uintptr, count uint32, pFences unsafe.Pointer, waitAll uint32, timeoutNs uint64) int32 {
	d := lookupD[Device](device)
	if d == nil {
		return errDeviceLost
	}
	deadline := time.Now().Add(time.Duration(min(timeoutNs, 1<<62)))
	fences := array[uint64](pFences, count)
	for {
		any, all := false, true
		for _, h := range fences {
			f := lookup[Fence](h)
			if f == nil {
				continue
			}
			f.mu.Lock()
			s := f.signaled
			f.mu.Unlock()
			any, all = any || s, all && s
		}
		if d.lostErr() != nil {
			return errDeviceLost
		}
		if (waitAll != 0 && all) || (waitAll == 0 && any) || len(fences) == 0 {
			return success
		}
		left := time.Until(deadline)
		if timeoutNs == 0 || left <= 0 {
			return timeout
		}
		// Wait on the first unsignaled fence, then look again.
		for _, h := range fences {
			f := lookup[Fence](h)
			if f == nil {
				continue
			}
			f.mu.Lock()
			waitUntil(f.cond, func() bool { return f.signaled }, uint64(min(left, 10*time.Millisecond)))
			f.mu.Unlock()
			break
		}
	}
}

type Semaphore struct {
	mu       sync.Mutex
	cond     *sync.Cond
	timeline bool
	value    uint64 // timeline: the counter; binary: 1 when signaled
}

func CreateSemaphore(device uintptr, pInfo, pAllocator, pSem unsafe.Pointer) int32 {
	if pInfo == nil || pSem == nil {
		return errOutOfHostMemory
	}
	s := &Semaphore{}
	s.cond = sync.NewCond(&s.mu)
	chain(pInfo, func(st vkt.StructureType, p unsafe.Pointer) {
		if st == vkt.StructureTypeSemaphoreTypeCreateInfo {
			t := (*vkt.SemaphoreTypeCreateInfo)(p)
			s.timeline = t.SemaphoreType == vkt.SemaphoreTypeTimeline
			if s.timeline {
				s.value = t.InitialValue
			}
		}
	})
	put(pSem, newHandle(s))
	return success
}

func DestroySemaphore(device uintptr, sem uint64, pAllocator unsafe.Pointer) { freeHandle(sem) }

func (s *Semaphore) signal(v uint64) {
	s.mu.Lock()
	if s.timeline {
		s.value = max(s.value, v)
	} else {
		s.value = 1
	}
	s.cond.Broadcast()
	s.mu.Unlock()
}

// wait blocks until the semaphore reaches v (a binary one: is signaled,
// which it then unsignals); timeoutNs -1 waits forever.
func (s *Semaphore) wait(v uint64, timeoutNs int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	target := v
	if !s.timeline {
		target = 1
	}
	t := uint64(timeoutNs)
	if timeoutNs < 0 {
		t = 1 << 63
	}
	ok := waitUntil(s.cond, func() bool { return s.value >= target }, t)
	if ok && !s.timeline {
		s.value = 0
	}
	return ok
}

func GetSemaphoreCounterValue(device uintptr, sem uint64, pValue unsafe.Pointer) int32 {
	s := lookup[Semaphore](sem)
	if s == nil {
		return errDeviceLost
	}
	s.mu.Lock()
	put(pValue, s.value)
	s.mu.Unlock()
	return success
}

func SignalSemaphore(device uintptr, pInfo unsafe.Pointer) int32 {
	if pInfo == nil {
		return errOutOfHostMemory
	}
	si := (*vkt.SemaphoreSignalInfo)(pInfo)
	if s := lookup[Semaphore](uint64(si.Semaphore)); s != nil {
		s.signal(si.Value)
	}
	return success
}

func WaitSemaphores(device uintptr, pInfo unsafe.Pointer, timeoutNs uint64) int32 {
	d := lookupD[Device](device)
	if pInfo == nil || d == nil {
		return errDeviceLost
	}
	wi := (*vkt.SemaphoreWaitInfo)(pInfo)
	vals := array[uint64](wi.PValues, wi.SemaphoreCount)
	deadline := time.Now().Add(time.Duration(min(timeoutNs, 1<<62)))
	waitAny := wi.Flags&vkt.SemaphoreWaitAnyBit != 0
	for {
		any, all := false, true
		for i, h := range array[uint64](wi.PSemaphores, wi.SemaphoreCount) {
			s := lookup[Semaphore](h)
			if s == nil {
				continue
			}
			s.mu.Lock()
			ok := s.value >= vals[i]
			s.mu.Unlock()
			any, all = any || ok, all && ok
		}
		if (waitAny && any) || (!waitAny && all) {
			return success
		}
		if d.lostErr() != nil {
			return errDeviceLost
		}
		if timeoutNs == 0 || time.Until(deadline) <= 0 {
			return timeout
		}
		time.Sleep(min(time.Until(deadline), 50*time.Microsecond))
	}
}

type Event struct {
	mu  sync.Mutex
	set bool
}

func CreateEvent(device uintptr, pInfo, pAllocator, pEvent unsafe.Pointer) int32 {
	put(pEvent, newHandle(&Event{}))
	return success
}

func DestroyEvent(device uintptr, event uint64, pAllocator unsafe.Pointer) { freeHandle(event) }

func (e *Event) setTo(v bool) {
	e.mu.Lock()
	e.set = v
	e.mu.Unlock()
}

func GetEventStatus(device uintptr, event uint64) int32 {
	e := lookup[Event](event)
	if e == nil {
		return errDeviceLost
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.set {
		return eventSet
	}
	return eventReset
}

func SetEvent(device uintptr, event uint64) int32 {
	if e := lookup[Event](event); e != nil {
		e.setTo(true)
	}
	return success
}

func ResetEvent(device uintptr, event uint64) int32 {
	if e := lookup[Event](event); e != nil {
		e.setTo(false)
	}
	return success
}
