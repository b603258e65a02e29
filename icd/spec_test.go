package icd

import (
	"encoding/binary"
	"os"
	"strings"
	"testing"

	"github.com/coopshader/coop/glsl/compile"
)

// TestSpecializedDeviceRule creates a pipeline of testdata/shape.comp
// whose default specialization fits the device and one whose
// specialization breaks a device rule, which is refused with the rule
// named.
func TestSpecializedDeviceRule(t *testing.T) {
	src, err := os.ReadFile("testdata/shape.comp")
	if err != nil {
		t.Fatal(err)
	}
	words, err := compile.Words("shape.comp", src, compile.Options{TargetEnv: "vulkan1.3"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := prepare(words, "main", nil, defaultSubgroup); err != nil {
		t.Fatalf("default specialization refused: %v", err)
	}
	spec := map[uint32][]byte{7: binary.LittleEndian.AppendUint32(nil, 8)}
	_, err = prepare(words, "main", spec, defaultSubgroup)
	if err == nil {
		t.Fatal("an 8x8x8 float16 multiply-add was accepted")
	}
	t.Log(err)
	if !strings.Contains(err.Error(), "VUID-RuntimeSpirv-") {
		t.Errorf("error %q names no rule", err)
	}
}
