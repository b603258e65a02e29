package icd

import (
	"bytes"
	"reflect"
	"slices"
	"testing"
	"unsafe"

	"github.com/coopshader/coop/icd/vkt"
)

// sTypeVulkan14Features is VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_4_FEATURES:
// a structure of a version the driver does not report, which it must
// leave as it is.
const sTypeVulkan14Features = 55

// chainOf links a fresh, byte-filled instance of every structure of types
// (in sType order) into one pNext chain, an unknown structure in the
// middle; it returns the instances by Go type name and the unknown one.
func chainOf(types map[vkt.StructureType]reflect.Type, fill byte) (head unsafe.Pointer, by map[string]reflect.Value, unknown []byte) {
	sts := make([]vkt.StructureType, 0, len(types))
	for st := range types {
		sts = append(sts, st)
	}
	slices.Sort(sts)
	unknown = bytes.Repeat([]byte{0xAB}, 256)
	*(*vkt.StructureType)(unsafe.Pointer(&unknown[0])) = sTypeVulkan14Features
	by = map[string]reflect.Value{}
	var next unsafe.Pointer
	for i := len(sts) - 1; i >= 0; i-- {
		if i == len(sts)/2 {
			*(*unsafe.Pointer)(unsafe.Pointer(&unknown[8])) = next
			next = unsafe.Pointer(&unknown[0])
		}
		t := types[sts[i]]
		v := reflect.New(t)
		p := v.UnsafePointer()
		b := unsafe.Slice((*byte)(p), t.Size())
		for j := range b {
			b[j] = fill
		}
		base := (*vkt.BaseOutStructure)(p)
		base.SType = sts[i]
		base.PNext = next
		next = p
		by[t.Name()] = v.Elem()
	}
	return next, by, unknown
}

// members are a structure's members after its sType and pNext (not the
// padding between or after them).
func members(v reflect.Value) []any {
	var out []any
	for i := 2; i < v.NumField(); i++ {
		out = append(out, v.Field(i).Interface())
	}
	return out
}

// checkChain queries one chain of every known structure twice, over memory
// of zeros and of ones, and checks that the driver writes every member
// (both answers equal), that each VkPhysicalDeviceVulkan1x member agrees
// with the promoted structure's member it mirrors (vk.xml's aliases), and
// that the unknown structure is left alone.
func checkChain(t *testing.T, types map[vkt.StructureType]reflect.Type, query func(unsafe.Pointer)) map[string]reflect.Value {
	t.Helper()
	h0, zero, u0 := chainOf(types, 0)
	h1, ones, u1 := chainOf(types, 0xFF)
	query(h0)
	query(h1)
	for name, v := range zero {
		if a, b := members(v), members(ones[name]); !reflect.DeepEqual(a, b) {
			t.Errorf("%s is not fully written: %v, then %v", name, a, b)
		}
	}
	for _, u := range [][]byte{u0, u1} {
		if !bytes.Equal(u[16:], bytes.Repeat([]byte{0xAB}, len(u)-16)) {
			t.Errorf("the unknown structure was written: %x", u[16:])
		}
	}
	n := 0
	for _, p := range vkt.Promotions {
		core, ok := zero[p.Core]
		if !ok {
			continue // the other chain's
		}
		s, ok := zero[p.Struct]
		if !ok {
			t.Errorf("%s.%s mirrors %s.%s, which the driver does not fill", p.Core, p.CoreMember, p.Struct, p.Member)
			continue
		}
		n++
		a, b := core.FieldByName(p.CoreMember), s.FieldByName(p.Member)
		if !a.IsValid() || !b.IsValid() {
			t.Errorf("%s.%s or %s.%s has no field", p.Core, p.CoreMember, p.Struct, p.Member)
			continue
		}
		if !reflect.DeepEqual(a.Interface(), b.Interface()) {
			t.Errorf("%s.%s = %v but %s.%s = %v", p.Core, p.CoreMember, a.Interface(), p.Struct, p.Member, b.Interface())
		}
	}
	if n == 0 {
		t.Errorf("no promoted member checked")
	}
	return zero
}

// Every features and properties structure of Vulkan 1.1 to 1.3 and of the
// advertised extensions is filled, the Vulkan 1.x views agree with the
// promoted structures, and unknown structures stay untouched.
func TestFeatureAndPropertyChains(t *testing.T) {
	feats := checkChain(t, vkt.FeatureStructs, func(p unsafe.Pointer) { GetPhysicalDeviceFeatures2(0, p) })
	for name, v := range feats {
		for i := range v.NumField() {
			if f := v.Field(i); f.Type() == reflect.TypeFor[vkt.Bool32]() && f.Uint() > 1 {
				t.Errorf("%s.%s = %d", name, v.Type().Field(i).Name, f.Uint())
			}
		}
	}
	// Members the previous hand-written list missed.
	for _, c := range []struct {
		s, m string
		want uint64
	}{
		{"PhysicalDeviceImageRobustnessFeatures", "RobustImageAccess", 1},
		{"PhysicalDeviceUniformBufferStandardLayoutFeatures", "UniformBufferStandardLayout", 1},
		{"PhysicalDeviceVariablePointersFeatures", "VariablePointers", 0},
		{"PhysicalDeviceDescriptorIndexingFeatures", "RuntimeDescriptorArray", 0},
	} {
		if got := feats[c.s].FieldByName(c.m).Uint(); got != c.want {
			t.Errorf("%s.%s = %d, want %d", c.s, c.m, got, c.want)
		}
	}
	props := checkChain(t, vkt.PropertyStructs, func(p unsafe.Pointer) { GetPhysicalDeviceProperties2(0, p) })
	sp := props["PhysicalDeviceSubgroupProperties"].Interface().(vkt.PhysicalDeviceSubgroupProperties)
	if sp.SubgroupSize != defaultSubgroup || sp.SupportedStages == 0 || sp.SupportedOperations == 0 {
		t.Errorf("subgroup properties %+v", sp)
	}
	tb := props["PhysicalDeviceTexelBufferAlignmentProperties"].Interface().(vkt.PhysicalDeviceTexelBufferAlignmentProperties)
	if tb.StorageTexelBufferOffsetAlignmentBytes != bufferAlignment || tb.UniformTexelBufferOffsetAlignmentBytes != bufferAlignment {
		t.Errorf("texel buffer alignment %+v", tb)
	}
}

// vkCreateDevice refuses every feature reported false, in whichever
// structure it is asked for, and accepts all those reported true at once.
func TestCreateDeviceFeatures(t *testing.T) {
	var inst, pd uintptr
	if r := CreateInstance(unsafe.Pointer(&vkt.InstanceCreateInfo{SType: vkt.StructureTypeInstanceCreateInfo}), nil, unsafe.Pointer(&inst)); r != success {
		t.Fatalf("vkCreateInstance: %d", r)
	}
	defer DestroyInstance(inst, nil)
	n := uint32(1)
	if r := EnumeratePhysicalDevices(inst, unsafe.Pointer(&n), unsafe.Pointer(&pd)); r != success {
		t.Fatalf("vkEnumeratePhysicalDevices: %d", r)
	}
	create := func(ci *vkt.DeviceCreateInfo) int32 {
		ci.SType = vkt.StructureTypeDeviceCreateInfo
		var dev uintptr
		r := CreateDevice(pd, unsafe.Pointer(ci), nil, unsafe.Pointer(&dev))
		if r == success {
			DestroyDevice(dev, nil)
		}
		return r
	}
	head, reported, _ := chainOf(vkt.FeatureStructs, 0)
	GetPhysicalDeviceFeatures2(pd, head)
	// bools lists the VkBool32 members of a structure (nested ones too).
	var bools func(v reflect.Value, path string, f func(reflect.Value, string))
	bools = func(v reflect.Value, path string, f func(reflect.Value, string)) {
		for i := range v.NumField() {
			switch fv, name := v.Field(i), v.Type().Field(i).Name; {
			case fv.Kind() == reflect.Struct:
				bools(fv, path+name+".", f)
			case fv.Type() == reflect.TypeFor[vkt.Bool32]():
				f(fv, path+name)
			}
		}
	}
	refused := 0
	for _, st := range slices.Sorted(func(yield func(vkt.StructureType) bool) {
		for st := range vkt.FeatureStructs {
			if !yield(st) {
				return
			}
		}
	}) {
		typ := vkt.FeatureStructs[st]
		bools(reported[typ.Name()], "", func(rv reflect.Value, name string) {
			if rv.Uint() != 0 {
				return
			}
			ask := reflect.New(typ)
			(*vkt.BaseOutStructure)(ask.UnsafePointer()).SType = st
			bools(ask.Elem(), "", func(av reflect.Value, an string) {
				if an == name {
					av.SetUint(1)
				}
			})
			if r := create(&vkt.DeviceCreateInfo{PNext: ask.UnsafePointer()}); r != errFeatureNotPresent {
				t.Errorf("enabling %s.%s, reported false: vkCreateDevice gives %d", typ.Name(), name, r)
			}
			refused++
			if typ.Name() == "PhysicalDeviceFeatures2" {
				f := ask.Elem().FieldByName("Features")
				if r := create(&vkt.DeviceCreateInfo{PEnabledFeatures: f.Addr().UnsafePointer()}); r != errFeatureNotPresent {
					t.Errorf("enabling %s in pEnabledFeatures, reported false: vkCreateDevice gives %d", name, r)
				}
			}
		})
	}
	if refused == 0 {
		t.Errorf("no feature reported false")
	}
	// Everything reported, as reported, is accepted.
	if r := create(&vkt.DeviceCreateInfo{PNext: head}); r != success {
		t.Errorf("enabling every feature reported true: vkCreateDevice gives %d", r)
	}
}
