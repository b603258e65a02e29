package vk

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/internal/reftool"
	"github.com/coopshader/coop/vk/internal/vkc"
)

func moduleBytes(code []uint32) []byte {
	b := make([]byte, 4*len(code))
	for i, w := range code {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	return b
}

// TestModuleValid checks the hand-encoded test shader with spirv-val.
func TestModuleValid(t *testing.T) {
	val := reftool.Path("spirv-val")
	if val == "" {
		t.Skip("spirv-val not found (set COOP_REF_BIN)")
	}
	f := filepath.Join(t.TempDir(), "m.spv")
	if err := os.WriteFile(f, moduleBytes(doubleAddModule()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(val, "--target-env", "vulkan1.3", f).CombinedOutput()
	if err != nil {
		t.Fatalf("spirv-val: %v\n%s", err, out)
	}
}

func TestScanModule(t *testing.T) {
	m, err := scanModule(doubleAddModule())
	if err != nil {
		t.Fatal(err)
	}
	if len(m.caps) != 2 || m.caps[0] != capShader || m.caps[1] != capPhysical {
		t.Errorf("caps = %v", m.caps)
	}
	if len(m.entries) != 1 || m.entries[0] != "main" {
		t.Errorf("entries = %q", m.entries)
	}

	var w words
	w = append(w, spirvMagic, 0x00010600, 0, 10, 0)
	w.op(sOpCapability, 6022)
	w.op(sOpExtension, str("SPV_KHR_cooperative_matrix")...)
	m, err = scanModule(w)
	if err != nil || len(m.exts) != 1 || m.exts[0] != "SPV_KHR_cooperative_matrix" || m.caps[0] != 6022 {
		t.Errorf("got %+v, %v", m, err)
	}

	bad := map[string][]uint32{
		"short":        {spirvMagic, 0x10000},
		"magic":        {1, 0, 0, 0, 0},
		"zero count":   {spirvMagic, 0, 0, 1, 0, 0},
		"past end":     {spirvMagic, 0, 0, 1, 0, 5<<16 | sOpCapability, 1},
		"cap operands": {spirvMagic, 0, 0, 1, 0, 1<<16 | sOpCapability},
		"unterminated": {spirvMagic, 0, 0, 1, 0, 2<<16 | sOpExtension, 0x41414141},
	}
	for name, code := range bad {
		if _, err := scanModule(code); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// fakeDevice is a Device with nothing enabled, for the capability check.
func fakeDevice() *Device {
	return &Device{info: DeviceInfo{Name: "fake"}, en: new(features), has: map[string]bool{}}
}

func TestCheckNamesMissingFeature(t *testing.T) {
	d := fakeDevice()
	var w words
	w = append(w, spirvMagic, 0x00010600, 0, 10, 0)
	w.op(sOpCapability, capShader)
	w.op(sOpCapability, 5394) // CooperativeVectorNV
	m, err := scanModule(w)
	if err != nil {
		t.Fatal(err)
	}
	err = d.check(m)
	if err == nil || !strings.Contains(err.Error(), "CooperativeVectorNV") || !strings.Contains(err.Error(), "cooperativeVector of VK_NV_cooperative_vector") {
		t.Fatalf("error = %v", err)
	}
	d.en.cv.CooperativeVector = 1
	d.has["VK_NV_cooperative_vector"] = true
	if err := d.check(m); err != nil {
		t.Fatalf("enabled feature still rejected: %v", err)
	}

	w = w[:5]
	w.op(sOpExtension, str("SPV_NV_cooperative_matrix2")...)
	m, _ = scanModule(w)
	if err := d.check(m); err == nil || !strings.Contains(err.Error(), "VK_NV_cooperative_matrix2") {
		t.Fatalf("extension error = %v", err)
	}
}

// TestSPIRVEnvironment: extensions and capabilities outside Vulkan's
// SPIR-V environment, or allowed only by what the device did not enable,
// are refused before the driver sees them.
func TestSPIRVEnvironment(t *testing.T) {
	d := fakeDevice()
	for _, c := range []struct {
		caps []uint32
		ext  string
		want string // "" accepted
	}{
		{caps: []uint32{capShader}},
		{caps: []uint32{capShader, 4437}, ext: "SPV_KHR_device_group"}, // DeviceGroup: Vulkan 1.1
		{caps: []uint32{capShader, 5433 + 0}, ext: "", want: "capability CooperativeMatrixTensorAddressingNV"},
		{caps: []uint32{capShader}, ext: "SPV_EXT_long_vector", want: "SPIR-V extension SPV_EXT_long_vector, which needs device extension VK_EXT_shader_long_vector"},
		{caps: []uint32{capShader}, ext: "SPV_NOT_an_extension", want: "Vulkan does not allow"},
		{caps: []uint32{capShader, 5}, want: "capability Linkage, which Vulkan does not allow"},
		{caps: []uint32{capShader, 61}, want: "capability GroupNonUniform, which needs subgroupSupportedOperations VK_SUBGROUP_FEATURE_BASIC_BIT"},
		{caps: []uint32{capShader, 5297}, want: "capability GroupNonUniformPartitioned"},
	} {
		var w words
		w = append(w, spirvMagic, 0x00010600, 0, 10, 0)
		for _, cp := range c.caps {
			w.op(sOpCapability, cp)
		}
		if c.ext != "" {
			w.op(sOpExtension, str(c.ext)...)
		}
		m, err := scanModule(w)
		if err != nil {
			t.Fatal(err)
		}
		err = d.check(m)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v %s: %v", c.caps, c.ext, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%v %s: got %v, want %q", c.caps, c.ext, err, c.want)
		}
	}
	// CooperativeMatrixNV's feature is VK_NV_cooperative_matrix's, not
	// the KHR extension's feature of the same member name.
	d.has["VK_NV_cooperative_matrix"], d.has["VK_KHR_cooperative_matrix"] = true, true
	d.en.cmK.CooperativeMatrix = 1
	var nv words
	nv = append(nv, spirvMagic, 0x00010600, 0, 10, 0)
	nv.op(sOpCapability, 5357)
	mnv, _ := scanModule(nv)
	if err := d.spirvEnv(mnv); err == nil || !strings.Contains(err.Error(), "VkPhysicalDeviceCooperativeMatrixFeaturesNV") {
		t.Errorf("CooperativeMatrixNV with only the KHR feature: %v", err)
	}
	d.en.cmN.CooperativeMatrix = 1
	if err := d.spirvEnv(mnv); err != nil {
		t.Errorf("CooperativeMatrixNV: %v", err)
	}
	d.props = new(properties)
	d.props.v11.SubgroupSupportedOperations = vkc.SubgroupFeatureBasicBit
	d.props.v11.SubgroupSupportedStages = vkc.ShaderStageComputeBit
	var w words
	w = append(w, spirvMagic, 0x00010600, 0, 10, 0)
	w.op(sOpCapability, 61)
	m, _ := scanModule(w)
	if err := d.check(m); err != nil {
		t.Errorf("GroupNonUniform with the basic subgroup operations: %v", err)
	}
}

// TestTables keeps the capability and feature tables consistent.
func TestTables(t *testing.T) {
	keys := map[string]bool{}
	for _, b := range featureBits {
		if keys[b.key] {
			t.Errorf("feature key %s repeated", b.key)
		}
		keys[b.key] = true
		f := new(features)
		*b.field(f) = 1
		if b.ext == "" && strings.HasPrefix(b.owner, "VK_") {
			t.Errorf("%s: extension feature without extension", b.key)
		}
	}
	for c, cp := range capabilities() {
		for _, k := range cp.features {
			if !keys[k] {
				t.Errorf("capability %d (%s) needs unknown feature %s", c, cp.name, k)
			}
		}
	}
}

func TestFormatDevices(t *testing.T) {
	ds := []DeviceInfo{{
		Index: 0, Name: "Test GPU", Type: "discrete GPU", VendorID: 0x10de, APIVersion: "1.4.0",
		SubgroupSize: 32, MinSubgroupSize: 32, MaxSubgroupSize: 32,
		Extensions: []string{"VK_KHR_cooperative_matrix"},
		CoopMatKHR: []CoopMatShape{{M: 16, N: 16, K: 16, A: "float16", B: "float16", C: "float32", Result: "float32", Scope: "subgroup"}},
		CoopVec:    []CoopVecCombo{{InputType: "float16", InputInterpretation: "float16", MatrixInterpretation: "float16", BiasInterpretation: "float16", ResultType: "float16", Transpose: true}},
	}}
	var b bytes.Buffer
	if err := FormatDevices(&b, ds); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"device 0: Test GPU (discrete GPU, vendor 0x10de", "16  16  16  float16  float16  float32  float32  subgroup  no", "VK_KHR_cooperative_matrix"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if componentType(vkc.ComponentTypeFloat8E4m3EXT) != "float8_e4m3" || scope(vkc.ScopeWorkgroupKHR) != "workgroup" {
		t.Error("short names")
	}
	if driverVersion(0x10de, 580<<22|82<<14|7<<6) != "580.82.7.0" {
		t.Error(driverVersion(0x10de, 580<<22|82<<14|7<<6))
	}
}

// openOrSkip opens the default device, skipping when Vulkan is absent.
func openOrSkip(t *testing.T) *Device {
	t.Helper()
	d, err := Open(-1)
	if errors.Is(err, backend.ErrUnavailable) {
		t.Skipf("no Vulkan: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func TestUnavailable(t *testing.T) {
	if err := loadLibrary(); err == nil {
		t.Skip("a Vulkan loader is present")
	}
	_, err := Open(-1)
	if !errors.Is(err, backend.ErrUnavailable) || !strings.Contains(err.Error(), "Vulkan loader") {
		t.Fatalf("Open error = %v", err)
	}
	if _, err := Devices(); !errors.Is(err, backend.ErrUnavailable) {
		t.Fatalf("Devices error = %v", err)
	}
}

func TestDevices(t *testing.T) {
	ds, err := Devices()
	if errors.Is(err, backend.ErrUnavailable) {
		t.Skipf("no Vulkan: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := FormatDevices(&b, ds); err != nil {
		t.Fatal(err)
	}
	t.Logf("device listing:\n%s", b.String())
}

func u32s(vs ...uint32) []byte {
	b := make([]byte, 4*len(vs))
	for i, v := range vs {
		binary.LittleEndian.PutUint32(b[4*i:], v)
	}
	return b
}

func TestDispatch(t *testing.T) {
	d := openOrSkip(t)
	const n = 1024
	in, err := d.NewBuffer(4*n, backend.UsageStorage)
	if err != nil {
		t.Fatal(err)
	}
	out, err := d.NewBuffer(4*n, backend.UsageStorage)
	if err != nil {
		t.Fatal(err)
	}
	side, err := d.NewBuffer(4*(n+1), backend.UsageStorage|backend.UsageAddress)
	if err != nil {
		t.Fatal(err)
	}
	if side.Address() == 0 {
		t.Fatal("device address is 0")
	}
	t.Logf("buffers in device-local memory: %v", in.(*buffer).local)
	vals := make([]uint32, n)
	for i := range vals {
		vals[i] = uint32(i*7 + 1)
	}
	if err := in.Write(0, u32s(vals...)); err != nil {
		t.Fatal(err)
	}
	if err := side.Write(0, u32s(1000)); err != nil {
		t.Fatal(err)
	}
	pc := make([]byte, 16)
	binary.LittleEndian.PutUint32(pc, 5)
	binary.LittleEndian.PutUint64(pc[8:], side.Address())
	// Every subgroup size the device can require, asked of the device:
	// lavapipe has only 8, most GPUs 32 or 64.
	sizes := []uint32{0}
	if v13 := &d.props.v13; d.enabled("subgroupSizeControl") && v13.RequiredSubgroupSizeStages&vkc.ShaderStageComputeBit != 0 {
		for s := max(v13.MinSubgroupSize, 1); s <= v13.MaxSubgroupSize; s *= 2 {
			sizes = append(sizes, s)
		}
	}
	for _, sg := range sizes {
		res, err := d.Dispatch(&backend.Dispatch{
			Code: doubleAddModule(), Entry: "main", Groups: [3]uint32{n / 64, 1, 1},
			Bindings: []backend.Binding{
				{Set: 0, Binding: 0, Kind: backend.StorageBuffer, Buffer: in},
				{Set: 0, Binding: 1, Kind: backend.StorageBuffer, Buffer: out},
			},
			PushConstants: pc,
			Spec:          map[uint32][]byte{0: u32s(64)},
			SubgroupSize:  sg,
			Timed:         true,
		})
		if err != nil {
			t.Fatalf("subgroup size %d: %v", sg, err)
		}
		if res.Elapsed <= 0 {
			t.Errorf("elapsed %v", res.Elapsed)
		}
		t.Logf("subgroup size %d: GPU time %v", sg, res.Elapsed)
		got := make([]byte, 4*n)
		if err := out.Read(0, got); err != nil {
			t.Fatal(err)
		}
		sideGot := make([]byte, 4*(n+1))
		if err := side.Read(0, sideGot); err != nil {
			t.Fatal(err)
		}
		for i, v := range vals {
			if g := binary.LittleEndian.Uint32(got[4*i:]); g != v*2+5+1000 {
				t.Fatalf("out[%d] = %d, want %d", i, g, v*2+5+1000)
			}
			if g := binary.LittleEndian.Uint32(sideGot[4*(i+1):]); g != v {
				t.Fatalf("pointer write [%d] = %d, want %d", i+1, g, v)
			}
		}
	}
}

func TestDispatchErrors(t *testing.T) {
	d := openOrSkip(t)
	b, err := d.NewBuffer(16, backend.UsageStorage)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Write(12, make([]byte, 8)); err == nil {
		t.Error("write past the end accepted")
	}
	if err := b.Read(-1, make([]byte, 1)); err == nil {
		t.Error("negative offset accepted")
	}
	base := backend.Dispatch{Code: doubleAddModule(), Entry: "main", Groups: [3]uint32{1, 1, 1},
		Bindings: []backend.Binding{{Binding: 0, Buffer: b}, {Binding: 1, Buffer: b}}, PushConstants: make([]byte, 16)}
	cases := map[string]func(*backend.Dispatch){
		"entry":    func(ds *backend.Dispatch) { ds.Entry = "nope" },
		"subgroup": func(ds *backend.Dispatch) { ds.SubgroupSize = 7 },
		"spec":     func(ds *backend.Dispatch) { ds.Spec = map[uint32][]byte{0: {1, 2, 3}} },
		"kinds": func(ds *backend.Dispatch) {
			ds.Bindings = append(ds.Bindings, backend.Binding{Binding: 0, Kind: backend.UniformBuffer, Buffer: b})
		},
		"magic": func(ds *backend.Dispatch) { ds.Code = []uint32{1, 2, 3, 4, 5} },
		"twice": func(ds *backend.Dispatch) {
			ds.Bindings = append(ds.Bindings, backend.Binding{Binding: 1, Buffer: b})
		},
		"groups": func(ds *backend.Dispatch) { ds.Groups[1] = 1 << 20 },
	}
	for name, mod := range cases {
		ds := base
		ds.Bindings = append([]backend.Binding(nil), base.Bindings...)
		mod(&ds)
		if _, err := d.Dispatch(&ds); err == nil {
			t.Errorf("%s: no error", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
	// A power of two beyond the device's range is named as such.
	if v13 := &d.props.v13; d.enabled("subgroupSizeControl") && v13.RequiredSubgroupSizeStages&vkc.ShaderStageComputeBit != 0 {
		ds := base
		ds.SubgroupSize = v13.MaxSubgroupSize * 2
		if _, err := d.Dispatch(&ds); err == nil || !strings.Contains(err.Error(), "outside") {
			t.Errorf("subgroup size %d: %v", ds.SubgroupSize, err)
		}
		ds.SubgroupSize = 7
		if _, err := d.Dispatch(&ds); err == nil || !strings.Contains(err.Error(), "7 is not a power of two") {
			t.Errorf("subgroup size 7: %v", err)
		}
	}
}

// TestBandwidth times a large dispatch of the test shader, which reads 4
// and writes 8 bytes per element, and logs the memory throughput.
func TestBandwidth(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	d := openOrSkip(t)
	const n = 1 << 24
	in, err := d.NewBuffer(4*n, backend.UsageStorage)
	if err != nil {
		t.Fatal(err)
	}
	out, err := d.NewBuffer(4*n, backend.UsageStorage)
	if err != nil {
		t.Fatal(err)
	}
	side, err := d.NewBuffer(4*(n+1), backend.UsageStorage|backend.UsageAddress)
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]uint32, n)
	for i := range vals {
		vals[i] = uint32(i)
	}
	if err := in.Write(0, u32s(vals...)); err != nil {
		t.Fatal(err)
	}
	pc := make([]byte, 16)
	binary.LittleEndian.PutUint32(pc, 3)
	binary.LittleEndian.PutUint64(pc[8:], side.Address())
	ds := &backend.Dispatch{
		Code: doubleAddModule(), Entry: "main", Groups: [3]uint32{n / 512, 1, 1}, // within every device's 65535 groups
		Bindings:      []backend.Binding{{Binding: 0, Buffer: in}, {Binding: 1, Buffer: out}},
		PushConstants: pc, Spec: map[uint32][]byte{0: u32s(512)}, Timed: true,
	}
	best := time.Duration(1 << 62)
	for range 5 {
		res, err := d.Dispatch(ds)
		if err != nil {
			t.Fatal(err)
		}
		best = min(best, res.Elapsed)
	}
	t.Logf("%d elements: best GPU time %v, %.1f GB/s (device-local memory: %v)", n, best, 12*n/best.Seconds()/1e9, in.(*buffer).local)
	start := time.Now()
	buf := make([]byte, 4*n)
	if err := out.Read(0, buf); err != nil {
		t.Fatal(err)
	}
	t.Logf("host read-back of %d MiB: %v", 4*n>>20, time.Since(start))
	for i := range vals {
		if g := binary.LittleEndian.Uint32(buf[4*i:]); g != uint32(2*i+3) {
			t.Fatalf("out[%d] = %d, want %d", i, g, 2*i+3)
		}
	}
	part := make([]byte, 4*1000)
	if err := out.Read(4*(n-1000), part); err != nil || binary.LittleEndian.Uint32(part[4*999:]) != uint32(2*(n-1)+3) {
		t.Fatalf("small read at the end: %v", err)
	}
}

// TestBufferMemory: device-local buffers (staged) and host ones (mapped)
// start zeroed and keep what is written, at any offset and size.
func TestBufferMemory(t *testing.T) {
	d := openOrSkip(t)
	defer d.Close()
	for _, u := range []backend.BufferUsage{backend.UsageStorage, backend.UsageStorage | backend.UsageHost} {
		b, err := d.NewBuffer(300<<10, u)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]byte, 300<<10)
		if err := b.Read(0, got); err != nil {
			t.Fatal(err)
		}
		for i, v := range got {
			if v != 0 {
				t.Fatalf("usage %v: byte %d is %d, not zero", u, i, v)
			}
		}
		data := make([]byte, 100<<10)
		for i := range data {
			data[i] = byte(i * 7)
		}
		if err := b.Write(1001, data); err != nil {
			t.Fatal(err)
		}
		back := make([]byte, len(data)+2)
		if err := b.Read(1000, back); err != nil {
			t.Fatal(err)
		}
		if back[0] != 0 || back[len(back)-1] != 0 || string(back[1:len(back)-1]) != string(data) {
			t.Errorf("usage %v: read back differs", u)
		}
		if err := b.Write(300<<10-1, []byte{1, 2}); err == nil {
			t.Errorf("usage %v: write past the end accepted", u)
		}
		b.Release()
	}
}

// TestImageRoundTrip: an image starts zeroed and keeps what is written
// at any offset, through its staging copies; samplers are created from
// their descriptions.
func TestImageRoundTrip(t *testing.T) {
	d := openOrSkip(t)
	defer d.Close()
	im, err := d.NewImage(backend.ImageDesc{Format: backend.FormatRgba8, Dim: backend.Image2D, Width: 4, Height: 4, Levels: 2})
	if err != nil {
		t.Fatal(err)
	}
	size := im.Desc().Size()
	if size != (16+4)*4 {
		t.Fatalf("size %d", size)
	}
	data := []byte{1, 2, 3, 4, 5, 6, 7, 8}
	if err := im.Write(64+4, data); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, size)
	if err := im.Read(0, got); err != nil {
		t.Fatal(err)
	}
	for i, v := range got {
		want := byte(0)
		if i >= 68 && i < 76 {
			want = data[i-68]
		}
		if v != want {
			t.Fatalf("byte %d: %d, want %d", i, v, want)
		}
	}
	if err := im.Read(size-1, got[:2]); err == nil {
		t.Error("read past the end accepted")
	}
	s, err := d.NewSampler(backend.SamplerDesc{MagFilter: backend.FilterLinear, AddressU: backend.AddressClampToEdge})
	if err != nil {
		t.Fatal(err)
	}
	s.Release()
	im.Release()
	if err := im.Write(0, data); err == nil {
		t.Error("write to a released image accepted")
	}
}
