package vk

import (
	"errors"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
)

// A module declaring SPV_INTEL_int4's capabilities is refused before any
// device is asked: no Vulkan feature exposes 4-bit integers.
func TestInt4Refused(t *testing.T) {
	for _, c := range []uint32{5112, 5114} {
		var w words
		w = append(w, spirvMagic, 0x00010600, 0, 10, 0)
		w.op(sOpCapability, 1)
		w.op(sOpCapability, c)
		m, err := scanModule(w)
		if err != nil {
			t.Fatal(err)
		}
		err = noVulkanFeature(m)
		if !errors.Is(err, backend.ErrNoDeviceSupport) || !strings.Contains(err.Error(), "SPV_INTEL_int4") {
			t.Errorf("capability %d: %v", c, err)
		}
	}
	m, _ := scanModule(doubleAddModule())
	if err := noVulkanFeature(m); err != nil {
		t.Error(err)
	}
}
