package icd

import (
	"encoding/binary"
	"fmt"
	"sync"
	"unsafe"

	"github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/icd/vkt"
	"github.com/coopshader/coop/spirv"
	"github.com/coopshader/coop/validate"
)

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// --- descriptor sets ----------------------------------------------------

type DescriptorSetLayout struct {
	bindings map[uint32]layoutBinding
	push     bool
}

type layoutBinding struct {
	typ   int32
	count uint32
	// immutable are the binding's immutable samplers (sampler and
	// combined image sampler bindings), which writes do not change.
	immutable []*Sampler
}

// descriptor is one descriptor: a range of a buffer, an image view and/or
// a sampler, or a texel buffer view.
type descriptor struct {
	typ      int32
	buf      *Buffer
	off, rng uint64
	view     *ImageView
	smp      *Sampler
	texel    *BufferView
}

// bound reports whether the descriptor names a resource.
func (d *descriptor) bound() bool {
	return d.buf != nil || d.view != nil || d.smp != nil || d.texel != nil
}

type DescriptorSet struct {
	layout *DescriptorSetLayout
	mu     sync.Mutex
	descs  map[uint32][]descriptor
}

type DescriptorPool struct {
	maxSets uint32
	sets    map[uint64]*DescriptorSet
}

func CreateDescriptorSetLayout(device uintptr, pInfo, pAllocator, pLayout unsafe.Pointer) int32 {
	ci := (*vkt.DescriptorSetLayoutCreateInfo)(pInfo)
	if ci == nil || pLayout == nil {
		return errOutOfHostMemory
	}
	l := &DescriptorSetLayout{bindings: map[uint32]layoutBinding{},
		push: ci.Flags&vkt.DescriptorSetLayoutCreatePushDescriptorBit != 0}
	for _, b := range array[vkt.DescriptorSetLayoutBinding](ci.PBindings, ci.BindingCount) {
		lb := layoutBinding{typ: int32(b.DescriptorType), count: b.DescriptorCount}
		if b.DescriptorType == vkt.DescriptorTypeSampler || b.DescriptorType == vkt.DescriptorTypeCombinedImageSampler {
			for _, h := range array[uint64](b.PImmutableSamplers, b.DescriptorCount) {
				lb.immutable = append(lb.immutable, lookup[Sampler](h))
			}
		}
		l.bindings[b.Binding] = lb
	}
	put(pLayout, newHandle(l))
	return success
}

func DestroyDescriptorSetLayout(device uintptr, layout uint64, pAllocator unsafe.Pointer) {
	freeHandle(layout)
}

func GetDescriptorSetLayoutSupport(device uintptr, pInfo, pSupport unsafe.Pointer) {
	chain(pSupport, func(s vkt.StructureType, p unsafe.Pointer) {
		if s == vkt.StructureTypeDescriptorSetLayoutSupport {
			(*vkt.DescriptorSetLayoutSupport)(p).Supported = 1
		}
	})
}

func CreateDescriptorPool(device uintptr, pInfo, pAllocator, pPool unsafe.Pointer) int32 {
	ci := (*vkt.DescriptorPoolCreateInfo)(pInfo)
	if ci == nil || pPool == nil {
		return errOutOfHostMemory
	}
	put(pPool, newHandle(&DescriptorPool{maxSets: ci.MaxSets, sets: map[uint64]*DescriptorSet{}}))
	return success
}

func (p *DescriptorPool) reset() {
	objMu.Lock()
	for h := range p.sets {
		delete(handles, h)
	}
	objMu.Unlock()
	p.sets = map[uint64]*DescriptorSet{}
}

func DestroyDescriptorPool(device uintptr, pool uint64, pAllocator unsafe.Pointer) {
	if p := lookup[DescriptorPool](pool); p != nil {
		p.reset()
		freeHandle(pool)
	}
}

func ResetDescriptorPool(device uintptr, pool uint64, flags uint32) int32 {
	if p := lookup[DescriptorPool](pool); p != nil {
		p.reset()
	}
	return success
}

func AllocateDescriptorSets(device uintptr, pInfo, pSets unsafe.Pointer) int32 {
	ai := (*vkt.DescriptorSetAllocateInfo)(pInfo)
	if ai == nil {
		return errOutOfHostMemory
	}
	pool := lookup[DescriptorPool](uint64(ai.DescriptorPool))
	if pool == nil {
		return errOutOfPoolMemory
	}
	out := array[uint64](pSets, ai.DescriptorSetCount)
	if uint64(len(pool.sets))+uint64(len(out)) > uint64(pool.maxSets) {
		clear(out)
		return errOutOfPoolMemory
	}
	for i, lh := range array[uint64](ai.PSetLayouts, ai.DescriptorSetCount) {
		l := lookup[DescriptorSetLayout](lh)
		if l == nil {
			clear(out)
			return errOutOfPoolMemory
		}
		s := &DescriptorSet{layout: l, descs: map[uint32][]descriptor{}}
		out[i] = newHandle(s)
		pool.sets[out[i]] = s
	}
	return success
}

func FreeDescriptorSets(device uintptr, pool uint64, count uint32, pSets unsafe.Pointer) int32 {
	p := lookup[DescriptorPool](pool)
	for _, h := range array[uint64](pSets, count) {
		if p != nil {
			delete(p.sets, h)
		}
		freeHandle(h)
	}
	return success
}

// Which VkDescriptorInfo a descriptor type takes; the driver binds these
// types only (not inline uniform blocks or acceleration structures).
const (
	infoNone = iota
	infoBuffer
	infoImage
	infoTexel
)

func infoKind(t int32) int {
	switch vkt.DescriptorType(t) {
	case vkt.DescriptorTypeStorageBuffer, vkt.DescriptorTypeUniformBuffer,
		vkt.DescriptorTypeStorageBufferDynamic, vkt.DescriptorTypeUniformBufferDynamic:
		return infoBuffer
	case vkt.DescriptorTypeSampler, vkt.DescriptorTypeCombinedImageSampler, vkt.DescriptorTypeSampledImage, vkt.DescriptorTypeStorageImage:
		return infoImage
	case vkt.DescriptorTypeUniformTexelBuffer, vkt.DescriptorTypeStorageTexelBuffer:
		return infoTexel
	}
	return infoNone
}

// descriptorAt reads the i'th descriptor of type typ from an application
// array of VkDescriptorBufferInfo, VkDescriptorImageInfo or VkBufferView
// at p with the given stride.
func descriptorAt(typ int32, p unsafe.Pointer, i int, stride uintptr) descriptor {
	d := descriptor{typ: typ}
	at := unsafe.Add(p, uintptr(i)*stride)
	switch infoKind(typ) {
	case infoBuffer:
		bi := (*vkt.DescriptorBufferInfo)(at)
		d.buf, d.off, d.rng = lookup[Buffer](uint64(bi.Buffer)), uint64(bi.Offset), uint64(bi.Range)
	case infoImage:
		ii := (*vkt.DescriptorImageInfo)(at)
		if vkt.DescriptorType(typ) != vkt.DescriptorTypeSampler {
			d.view = lookup[ImageView](uint64(ii.ImageView))
		}
		if vkt.DescriptorType(typ) == vkt.DescriptorTypeSampler || vkt.DescriptorType(typ) == vkt.DescriptorTypeCombinedImageSampler {
			d.smp = lookup[Sampler](uint64(ii.Sampler))
		}
	case infoTexel:
		d.texel = lookup[BufferView](*(*uint64)(at))
	}
	return d
}

// write applies one VkWriteDescriptorSet to a set's descriptors.
func (s *DescriptorSet) write(w *vkt.WriteDescriptorSet) {
	t := int32(w.DescriptorType)
	var p unsafe.Pointer
	var stride uintptr
	switch infoKind(t) {
	case infoBuffer:
		p, stride = w.PBufferInfo, unsafe.Sizeof(vkt.DescriptorBufferInfo{})
	case infoImage:
		p, stride = w.PImageInfo, unsafe.Sizeof(vkt.DescriptorImageInfo{})
	case infoTexel:
		p, stride = w.PTexelBufferView, 8
	}
	if p == nil {
		return
	}
	s.writeDescs(w.DstBinding, w.DstArrayElement, w.DescriptorCount, func(i int) descriptor { return descriptorAt(t, p, i, stride) })
}

// writeDescs sets n descriptors from (binding, elem) on; writes past a
// binding's count continue in the next binding, as Vulkan says.
func (s *DescriptorSet) writeDescs(binding, elem, n uint32, desc func(i int) descriptor) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := 0; i < int(n); i++ {
		lb, ok := s.layout.bindings[binding]
		for ok && elem >= lb.count {
			binding, elem = binding+1, 0
			lb, ok = s.layout.bindings[binding]
		}
		if !ok {
			return
		}
		ds := s.descs[binding]
		if len(ds) < int(lb.count) {
			ds = append(ds, make([]descriptor, int(lb.count)-len(ds))...)
		}
		ds[elem] = desc(i)
		s.descs[binding] = ds
		elem++
	}
}

func UpdateDescriptorSets(device uintptr, writeCount uint32, pWrites unsafe.Pointer, copyCount uint32, pCopies unsafe.Pointer) {
	for i := range array[vkt.WriteDescriptorSet](pWrites, writeCount) {
		w := &array[vkt.WriteDescriptorSet](pWrites, writeCount)[i]
		if s := lookup[DescriptorSet](uint64(w.DstSet)); s != nil {
			s.write(w)
		}
	}
	for _, c := range array[vkt.CopyDescriptorSet](pCopies, copyCount) {
		src, dst := lookup[DescriptorSet](uint64(c.SrcSet)), lookup[DescriptorSet](uint64(c.DstSet))
		if src == nil || dst == nil {
			continue
		}
		for i := uint32(0); i < c.DescriptorCount; i++ {
			src.mu.Lock()
			var d descriptor
			if ds := src.descs[c.SrcBinding]; int(c.SrcArrayElement+i) < len(ds) {
				d = ds[c.SrcArrayElement+i]
			}
			src.mu.Unlock()
			dst.mu.Lock()
			ds := dst.descs[c.DstBinding]
			if n := int(dst.layout.bindings[c.DstBinding].count); len(ds) < n {
				ds = append(ds, make([]descriptor, n-len(ds))...)
			}
			if int(c.DstArrayElement+i) < len(ds) {
				ds[c.DstArrayElement+i] = d
			}
			dst.descs[c.DstBinding] = ds
			dst.mu.Unlock()
		}
	}
}

// --- pipeline layouts, shader modules, pipelines ------------------------

type PipelineLayout struct {
	sets []*DescriptorSetLayout
}

func CreatePipelineLayout(device uintptr, pInfo, pAllocator, pLayout unsafe.Pointer) int32 {
	ci := (*vkt.PipelineLayoutCreateInfo)(pInfo)
	if ci == nil || pLayout == nil {
		return errOutOfHostMemory
	}
	l := &PipelineLayout{}
	for _, h := range array[uint64](ci.PSetLayouts, ci.SetLayoutCount) {
		l.sets = append(l.sets, lookup[DescriptorSetLayout](h))
	}
	for _, r := range array[vkt.PushConstantRange](ci.PPushConstantRanges, ci.PushConstantRangeCount) {
		if uint64(r.Offset)+uint64(r.Size) > maxPushConst {
			return errOutOfHostMemory
		}
	}
	put(pLayout, newHandle(l))
	return success
}

func DestroyPipelineLayout(device uintptr, layout uint64, pAllocator unsafe.Pointer) {
	freeHandle(layout)
}

type ShaderModule struct {
	code []uint32
}

func CreateShaderModule(device uintptr, pInfo, pAllocator, pModule unsafe.Pointer) int32 {
	ci := (*vkt.ShaderModuleCreateInfo)(pInfo)
	if ci == nil || pModule == nil || ci.CodeSize%4 != 0 || ci.PCode == nil {
		return errOutOfHostMemory
	}
	code := append([]uint32(nil), unsafe.Slice((*uint32)(ci.PCode), ci.CodeSize/4)...)
	put(pModule, newHandle(&ShaderModule{code: code}))
	return success
}

func DestroyShaderModule(device uintptr, module uint64, pAllocator unsafe.Pointer) {
	freeHandle(module)
}

type Pipeline struct {
	prog *exec.Program
}

func CreateComputePipelines(device uintptr, cache uint64, count uint32, pInfos, pAllocator, pPipelines unsafe.Pointer) int32 {
	d := lookupD[Device](device)
	out := array[uint64](pPipelines, count)
	result := int32(success)
	for i, ci := range array[vkt.ComputePipelineCreateInfo](pInfos, count) {
		out[i] = 0
		if ci.Flags&vkt.PipelineCreateFailOnPipelineCompileRequiredBit != 0 {
			// The driver's pipeline caches hold no pipelines, so every
			// creation compiles (pipelineCreationCacheControl).
			if result == success {
				result = int32(vkt.PipelineCompileRequired)
			}
		} else if p, err := d.newPipeline(&ci); err != nil {
			d.inst.report(severityError, "vkCreateComputePipelines: %v", err)
			result = errUnknown
		} else {
			out[i] = newHandle(p)
			continue
		}
		if ci.Flags&vkt.PipelineCreateEarlyReturnOnFailureBit != 0 {
			for j := i + 1; j < len(out); j++ {
				out[j] = 0
			}
			return result
		}
	}
	return result
}

func (d *Device) newPipeline(ci *vkt.ComputePipelineCreateInfo) (*Pipeline, error) {
	st := &ci.Stage
	mod := lookup[ShaderModule](uint64(st.Module))
	if mod == nil {
		return nil, errorf("no shader module")
	}
	sg := uint32(defaultSubgroup)
	chain(st.PNext, func(s vkt.StructureType, p unsafe.Pointer) {
		if s == vkt.StructureTypePipelineShaderStageRequiredSubgroupSizeCreateInfo {
			sg = (*vkt.PipelineShaderStageRequiredSubgroupSizeCreateInfo)(p).RequiredSubgroupSize
		}
	})
	if sg < minSubgroup || sg > maxSubgroup || sg&(sg-1) != 0 {
		return nil, errorf("required subgroup size %d is not a power of two from %d to %d", sg, minSubgroup, maxSubgroup)
	}
	spec := map[uint32][]byte{}
	if si := (*vkt.SpecializationInfo)(st.PSpecializationInfo); si != nil {
		data := unsafe.Slice((*byte)(si.PData), si.DataSize)
		for _, e := range array[vkt.SpecializationMapEntry](si.PMapEntries, si.MapEntryCount) {
			if uint64(e.Offset)+uint64(e.Size) > uint64(len(data)) {
				return nil, errorf("specialization constant %d lies outside the data", e.ConstantID)
			}
			spec[e.ConstantID] = append([]byte(nil), data[e.Offset:uint64(e.Offset)+uint64(e.Size)]...)
		}
	}
	prog, err := prepare(mod.code, cstring(st.PName), spec, sg)
	if err != nil {
		return nil, err
	}
	return &Pipeline{prog: prog}, nil
}

// prepare is what creating a pipeline does with its module.
func prepare(code []uint32, entry string, spec map[uint32][]byte, sg uint32) (*exec.Program, error) {
	m, err := spirv.DecodeWords(code, nil)
	if err != nil {
		return nil, err
	}
	// The module is validated for Vulkan 1.3 with this device's rules (it
	// has scalar block layout and standard uniform buffer layout) as the
	// pipeline specializes it and for the entry point it is made of:
	// llama.cpp sizes workgroups, tiles and arrays from the device's
	// properties through specialization constants, so their defaults
	// prove nothing.
	res, err := validate.Validate(m, validate.Options{TargetEnv: "vulkan1.3", Profile: Profile(),
		ScalarBlockLayout: true, UniformBufferStandardLayout: true, EntryPoint: entry, Spec: spec})
	if err != nil {
		return nil, err
	}
	prog, err := exec.LoadValidated(m, res, entry, spec, int(sg))
	if err != nil {
		return nil, fmt.Errorf("entry point %q: %w", entry, err)
	}
	return prog, nil
}

func DestroyPipeline(device uintptr, pipeline uint64, pAllocator unsafe.Pointer) {
	freeHandle(pipeline)
}

// Pipeline caches hold nothing (modules are prepared when a pipeline is
// created); their data is the version-one header alone.
type PipelineCache struct{}

func CreatePipelineCache(device uintptr, pInfo, pAllocator, pCache unsafe.Pointer) int32 {
	put(pCache, newHandle(&PipelineCache{}))
	return success
}

func DestroyPipelineCache(device uintptr, cache uint64, pAllocator unsafe.Pointer) { freeHandle(cache) }

func GetPipelineCacheData(device uintptr, cache uint64, pSize, pData unsafe.Pointer) int32 {
	var hdr [32]byte
	binary.LittleEndian.PutUint32(hdr[0:], 32)
	binary.LittleEndian.PutUint32(hdr[4:], 1) // VK_PIPELINE_CACHE_HEADER_VERSION_ONE
	binary.LittleEndian.PutUint32(hdr[8:], vendorID)
	binary.LittleEndian.PutUint32(hdr[12:], deviceID)
	copy(hdr[16:], uuid[:])
	if pSize == nil {
		return errOutOfHostMemory
	}
	size := (*uintptr)(pSize)
	if pData == nil {
		*size = 32
		return success
	}
	if *size < 32 {
		*size = 0
		return incomplete
	}
	copy(unsafe.Slice((*byte)(pData), 32), hdr[:])
	*size = 32
	return success
}

func MergePipelineCaches(device uintptr, dst uint64, count uint32, pSrc unsafe.Pointer) int32 {
	return success
}

// DescriptorUpdateTemplate is a VkDescriptorUpdateTemplate: where in the
// application's data each run of buffer descriptors is.
type DescriptorUpdateTemplate struct {
	entries []vkt.DescriptorUpdateTemplateEntry
}

func CreateDescriptorUpdateTemplate(device uintptr, pInfo, pAllocator, pTemplate unsafe.Pointer) int32 {
	ci := (*vkt.DescriptorUpdateTemplateCreateInfo)(pInfo)
	if ci == nil || pTemplate == nil {
		return errOutOfHostMemory
	}
	t := &DescriptorUpdateTemplate{entries: append([]vkt.DescriptorUpdateTemplateEntry(nil),
		array[vkt.DescriptorUpdateTemplateEntry](ci.PDescriptorUpdateEntries, ci.DescriptorUpdateEntryCount)...)}
	put(pTemplate, newHandle(t))
	return success
}

func DestroyDescriptorUpdateTemplate(device uintptr, template uint64, pAllocator unsafe.Pointer) {
	freeHandle(template)
}

// apply writes the template's descriptors from data into s.
func (t *DescriptorUpdateTemplate) apply(s *DescriptorSet, data unsafe.Pointer) {
	if data == nil {
		return
	}
	for _, e := range t.entries {
		typ := int32(e.DescriptorType)
		if infoKind(typ) == infoNone {
			continue
		}
		at := unsafe.Add(data, e.Offset)
		s.writeDescs(e.DstBinding, e.DstArrayElement, e.DescriptorCount, func(i int) descriptor { return descriptorAt(typ, at, i, e.Stride) })
	}
}

func UpdateDescriptorSetWithTemplate(device uintptr, set, template uint64, pData unsafe.Pointer) {
	s, t := lookup[DescriptorSet](set), lookup[DescriptorUpdateTemplate](template)
	if s != nil && t != nil {
		t.apply(s, pData)
	}
}
