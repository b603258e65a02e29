package vk

import (
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
)

func TestNoTensors(t *testing.T) {
	if err := noTensors([]backend.Binding{{Binding: 0}, {Binding: 1, Kind: backend.UniformBuffer}}); err != nil {
		t.Fatal(err)
	}
	err := noTensors([]backend.Binding{{Binding: 0}, {Set: 1, Binding: 3, Kind: backend.StorageTensor}})
	if err == nil || !strings.Contains(err.Error(), "binding 1 (set 1, binding 3) is a tensor") {
		t.Fatalf("got %v", err)
	}
}
