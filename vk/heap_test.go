package vk

import (
	"errors"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
)

// heapBuffer stands in for a buffer: the heap check rejects any.
type heapBuffer struct{ backend.Buffer }

func TestDispatchRejectsHeaps(t *testing.T) {
	d := fakeDevice()
	plain := doubleAddModule()
	if _, err := d.Dispatch(&backend.Dispatch{Code: plain, Entry: "main", ResourceHeap: heapBuffer{}}); err == nil || !strings.Contains(err.Error(), "descriptor heaps") {
		t.Errorf("resource heap: %v", err)
	}
	if _, err := d.Dispatch(&backend.Dispatch{Code: plain, Entry: "main", SamplerHeap: heapBuffer{}}); err == nil || !strings.Contains(err.Error(), "descriptor heaps") {
		t.Errorf("sampler heap: %v", err)
	}
	var w words
	w = append(w, spirvMagic, 0x00010600, 0, 10, 0)
	w.op(sOpCapability, capShader)
	w.op(sOpCapability, 4473) // UntypedPointersKHR
	w.op(sOpCapability, capDescriptorHeap)
	w.op(sOpMemoryModel, 0, 1)
	w.op(sOpEntryPoint, append([]uint32{5, 1}, str("main")...)...)
	if _, err := d.Dispatch(&backend.Dispatch{Code: w, Entry: "main"}); err == nil || !strings.Contains(err.Error(), "DescriptorHeapEXT") ||
		!errors.Is(err, backend.ErrNoDeviceSupport) {
		t.Errorf("heap module: %v", err)
	}
	// CheckModule refuses it too, so --backend both runs it on the executor alone.
	if err := d.CheckModule(w); !errors.Is(err, backend.ErrNoDeviceSupport) || !strings.Contains(err.Error(), "does not offer VK_EXT_descriptor_heap") {
		t.Errorf("CheckModule: %v", err)
	}
}
