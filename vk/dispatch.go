package vk

import (
	"fmt"
	"runtime"
	"slices"
	"time"
	"unsafe"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/vk/internal/vkc"
)

// DispatchTimeout bounds the wait for one dispatch; a shader that loops
// forever then fails instead of hanging the caller.
var DispatchTimeout = 2 * time.Minute

// objects collects what one dispatch creates so that every exit path
// destroys it.
type objects struct {
	d        *Device
	module   vkc.ShaderModule
	layouts  []vkc.DescriptorSetLayout
	plLayout vkc.PipelineLayout
	pipe     vkc.Pipeline
	pool     vkc.DescriptorPool
	query    vkc.QueryPool
	views    []vkc.BufferView
}

func (o *objects) destroy() {
	p, dev := &o.d.in.p, o.d.dev
	for _, v := range o.views {
		p.DestroyBufferView(dev, v, nil)
	}
	if o.query != 0 {
		p.DestroyQueryPool(dev, o.query, nil)
	}
	if o.pool != 0 {
		p.DestroyDescriptorPool(dev, o.pool, nil)
	}
	if o.pipe != 0 {
		p.DestroyPipeline(dev, o.pipe, nil)
	}
	if o.plLayout != 0 {
		p.DestroyPipelineLayout(dev, o.plLayout, nil)
	}
	for _, l := range o.layouts {
		p.DestroyDescriptorSetLayout(dev, l, nil)
	}
	if o.module != 0 {
		p.DestroyShaderModule(dev, o.module, nil)
	}
}

// setBinding is one binding of a descriptor set layout.
type setBinding struct {
	kind  backend.DescriptorKind
	count uint32
	elems []uint32 // the array elements bound
}

func descriptorType(k backend.DescriptorKind) vkc.DescriptorType {
	switch k {
	case backend.UniformBuffer:
		return vkc.DescriptorTypeUniformBuffer
	case backend.StorageImage:
		return vkc.DescriptorTypeStorageImage
	case backend.SampledImage:
		return vkc.DescriptorTypeSampledImage
	case backend.CombinedImageSampler:
		return vkc.DescriptorTypeCombinedImageSampler
	case backend.SeparateSampler:
		return vkc.DescriptorTypeSampler
	case backend.UniformTexelBuffer:
		return vkc.DescriptorTypeUniformTexelBuffer
	case backend.StorageTexelBuffer:
		return vkc.DescriptorTypeStorageTexelBuffer
	}
	return vkc.DescriptorTypeStorageBuffer
}

// checkResource checks that binding b's resources belong to this device.
func (d *Device) checkResource(i int, b backend.Binding) error {
	at := fmt.Sprintf("vk: binding %d (set %d, binding %d, %v)", i, b.Set, b.Binding, b.Kind)
	switch b.Kind {
	case backend.StorageBuffer, backend.UniformBuffer, backend.UniformTexelBuffer, backend.StorageTexelBuffer:
		if vb, ok := b.Buffer.(*buffer); !ok || vb.d != d || vb.closed {
			return fmt.Errorf("%s is not a live buffer of this device", at)
		}
	case backend.StorageImage, backend.SampledImage, backend.CombinedImageSampler:
		if im, ok := b.Image.(*image); !ok || im.d != d || im.closed {
			return fmt.Errorf("%s is not a live image of this device", at)
		}
	}
	switch b.Kind {
	case backend.CombinedImageSampler, backend.SeparateSampler:
		if s, ok := b.Sampler.(*sampler); !ok || s.d != d || s.closed {
			return fmt.Errorf("%s has no live sampler of this device", at)
		}
	case backend.StorageBuffer, backend.UniformBuffer, backend.UniformTexelBuffer, backend.StorageTexelBuffer,
		backend.StorageImage, backend.SampledImage:
	default:
		return fmt.Errorf("%s: this descriptor kind is not supported by the Vulkan backend", at)
	}
	return nil
}

// Dispatch runs one compute dispatch and waits for it to finish.
func (d *Device) Dispatch(ds *backend.Dispatch) (backend.Result, error) {
	var res backend.Result
	mod, words, valid, err := d.prepare(ds)
	if err != nil {
		return res, err
	}
	m, err := scanModule(words)
	if err != nil {
		return res, err
	}
	if ds.Context != nil && ds.Context.Err() != nil {
		return res, ds.Context.Err()
	}
	if !slices.Contains(m.entries, ds.Entry) {
		return res, fmt.Errorf("vk: module has no GLCompute entry point %q", ds.Entry)
	}
	if err := noTensors(ds.Bindings); err != nil {
		return res, err
	}
	if err := checkHeaps(ds); err != nil {
		return res, err
	}
	if err := d.check(m); err != nil {
		return res, err
	}
	if valid != nil {
		if err := valid(); err != nil {
			return res, err
		}
	}
	if err := d.checkRules(mod, ds); err != nil {
		return res, err
	}
	if ds.SubgroupSize != 0 {
		v13 := &d.props.v13
		if !d.enabled("subgroupSizeControl") || v13.RequiredSubgroupSizeStages&vkc.ShaderStageComputeBit == 0 {
			return res, fmt.Errorf("vk: subgroup size %d requested, but %s cannot require a subgroup size for compute shaders", ds.SubgroupSize, d.info.Name)
		}
		if ds.SubgroupSize&(ds.SubgroupSize-1) != 0 {
			return res, fmt.Errorf("vk: subgroup size %d is not a power of two", ds.SubgroupSize)
		}
		if ds.SubgroupSize < v13.MinSubgroupSize || ds.SubgroupSize > v13.MaxSubgroupSize {
			return res, fmt.Errorf("vk: subgroup size %d is outside %s's range [%d, %d]", ds.SubgroupSize, d.info.Name, v13.MinSubgroupSize, v13.MaxSubgroupSize)
		}
	}

	// Descriptor sets from the bindings: sets 0..max, empty ones included,
	// each binding sized by the largest array element used.
	sets := map[uint32]map[uint32]*setBinding{}
	nsets := uint32(0)
	for i, b := range ds.Bindings {
		if b.Kind == backend.AccelerationStructureKind {
			return res, fmt.Errorf("vk: binding %d (set %d, binding %d): acceleration structures are not supported by the Vulkan backend", i, b.Set, b.Binding)
		}
		if err := d.checkResource(i, b); err != nil {
			return res, err
		}
		if sets[b.Set] == nil {
			sets[b.Set] = map[uint32]*setBinding{}
		}
		sb := sets[b.Set][b.Binding]
		if sb == nil {
			sb = &setBinding{kind: b.Kind}
			sets[b.Set][b.Binding] = sb
		} else if sb.kind != b.Kind {
			return res, fmt.Errorf("vk: set %d binding %d is bound both as %v and as %v", b.Set, b.Binding, sb.kind, b.Kind)
		}
		if slices.Contains(sb.elems, b.ArrayElement) {
			return res, fmt.Errorf("vk: binding %d: set %d binding %d element %d is bound twice (a descriptor holds one resource)", i, b.Set, b.Binding, b.ArrayElement)
		}
		sb.elems = append(sb.elems, b.ArrayElement)
		sb.count = max(sb.count, b.ArrayElement+1)
		nsets = max(nsets, b.Set+1)
	}

	o := &objects{d: d}
	defer o.destroy()
	p, dev := &d.in.p, d.dev
	var pin runtime.Pinner
	defer pin.Unpin()

	code := slices.Clone(words)
	pin.Pin(&code[0])
	smci := &vkc.ShaderModuleCreateInfo{SType: vkc.StructureTypeShaderModuleCreateInfo, CodeSize: uintptr(4 * len(code)), PCode: unsafe.Pointer(&code[0])}
	pin.Pin(smci)
	if r := p.CreateShaderModule(dev, smci, nil, &o.module); r != vkc.Success {
		return res, vkError("vkCreateShaderModule", r)
	}

	poolSizes := map[vkc.DescriptorType]uint32{}
	for s := uint32(0); s < nsets; s++ {
		var lbs []vkc.DescriptorSetLayoutBinding
		for _, bn := range sortedKeys(sets[s]) {
			sb := sets[s][bn]
			t := descriptorType(sb.kind)
			lbs = append(lbs, vkc.DescriptorSetLayoutBinding{Binding: bn, DescriptorType: t, DescriptorCount: sb.count, StageFlags: vkc.ShaderStageComputeBit})
			poolSizes[t] += sb.count
		}
		ci := &vkc.DescriptorSetLayoutCreateInfo{SType: vkc.StructureTypeDescriptorSetLayoutCreateInfo, BindingCount: uint32(len(lbs))}
		if len(lbs) > 0 {
			pin.Pin(&lbs[0])
			ci.PBindings = unsafe.Pointer(&lbs[0])
		}
		pin.Pin(ci)
		var l vkc.DescriptorSetLayout
		if r := p.CreateDescriptorSetLayout(dev, ci, nil, &l); r != vkc.Success {
			return res, vkError("vkCreateDescriptorSetLayout", r)
		}
		o.layouts = append(o.layouts, l)
	}

	pcSize := (len(ds.PushConstants) + 3) &^ 3
	pc := make([]byte, max(pcSize, 4))
	copy(pc, ds.PushConstants)
	pin.Pin(&pc[0])
	plci := &vkc.PipelineLayoutCreateInfo{SType: vkc.StructureTypePipelineLayoutCreateInfo, SetLayoutCount: uint32(len(o.layouts))}
	if len(o.layouts) > 0 {
		pin.Pin(&o.layouts[0])
		plci.PSetLayouts = unsafe.Pointer(&o.layouts[0])
	}
	if pcSize > 0 {
		rng := &vkc.PushConstantRange{StageFlags: vkc.ShaderStageComputeBit, Size: uint32(pcSize)}
		pin.Pin(rng)
		plci.PushConstantRangeCount, plci.PPushConstantRanges = 1, unsafe.Pointer(rng)
	}
	pin.Pin(plci)
	if r := p.CreatePipelineLayout(dev, plci, nil, &o.plLayout); r != vkc.Success {
		return res, vkError("vkCreatePipelineLayout", r)
	}

	stage := vkc.PipelineShaderStageCreateInfo{
		SType:  vkc.StructureTypePipelineShaderStageCreateInfo,
		Stage:  vkc.ShaderStageComputeBit,
		Module: o.module,
		PName:  cstr(&pin, ds.Entry),
	}
	if len(ds.Spec) > 0 {
		si, err := specInfo(&pin, ds.Spec)
		if err != nil {
			return res, err
		}
		stage.PSpecializationInfo = unsafe.Pointer(si)
	}
	if ds.SubgroupSize != 0 {
		rs := &vkc.PipelineShaderStageRequiredSubgroupSizeCreateInfo{SType: vkc.StructureTypePipelineShaderStageRequiredSubgroupSizeCreateInfo, RequiredSubgroupSize: ds.SubgroupSize}
		pin.Pin(rs)
		stage.PNext = unsafe.Pointer(rs)
	}
	cpci := &vkc.ComputePipelineCreateInfo{SType: vkc.StructureTypeComputePipelineCreateInfo, Stage: stage, Layout: o.plLayout}
	pin.Pin(cpci)
	if r := p.CreateComputePipelines(dev, 0, 1, cpci, nil, &o.pipe); r != vkc.Success {
		return res, fmt.Errorf("vk: the driver rejected the compute pipeline for entry point %q: %w", ds.Entry, vkError("vkCreateComputePipelines", r))
	}

	var descSets []vkc.DescriptorSet
	var written []*image // storage images the dispatch may write
	if nsets > 0 {
		var sizes []vkc.DescriptorPoolSize
		for _, t := range sortedKeys(poolSizes) {
			sizes = append(sizes, vkc.DescriptorPoolSize{Type: t, DescriptorCount: poolSizes[t]})
		}
		dpci := &vkc.DescriptorPoolCreateInfo{SType: vkc.StructureTypeDescriptorPoolCreateInfo, MaxSets: nsets, PoolSizeCount: uint32(len(sizes))}
		if len(sizes) > 0 {
			pin.Pin(&sizes[0])
			dpci.PPoolSizes = unsafe.Pointer(&sizes[0])
		}
		pin.Pin(dpci)
		if r := p.CreateDescriptorPool(dev, dpci, nil, &o.pool); r != vkc.Success {
			return res, vkError("vkCreateDescriptorPool", r)
		}
		descSets = make([]vkc.DescriptorSet, nsets)
		pin.Pin(&descSets[0])
		dsai := &vkc.DescriptorSetAllocateInfo{SType: vkc.StructureTypeDescriptorSetAllocateInfo, DescriptorPool: o.pool, DescriptorSetCount: nsets, PSetLayouts: unsafe.Pointer(&o.layouts[0])}
		pin.Pin(dsai)
		if r := p.AllocateDescriptorSets(dev, dsai, &descSets[0]); r != vkc.Success {
			return res, vkError("vkAllocateDescriptorSets", r)
		}
		infos := make([]vkc.DescriptorBufferInfo, len(ds.Bindings))
		iinfos := make([]vkc.DescriptorImageInfo, len(ds.Bindings))
		tviews := make([]vkc.BufferView, len(ds.Bindings))
		writes := make([]vkc.WriteDescriptorSet, len(ds.Bindings))
		pin.Pin(&infos[0])
		pin.Pin(&iinfos[0])
		pin.Pin(&tviews[0])
		pin.Pin(&writes[0])
		for i, b := range ds.Bindings {
			writes[i] = vkc.WriteDescriptorSet{
				SType: vkc.StructureTypeWriteDescriptorSet, DstSet: descSets[b.Set], DstBinding: b.Binding,
				DstArrayElement: b.ArrayElement, DescriptorCount: 1, DescriptorType: descriptorType(b.Kind),
			}
			switch b.Kind {
			case backend.StorageBuffer, backend.UniformBuffer:
				infos[i] = vkc.DescriptorBufferInfo{Buffer: b.Buffer.(*buffer).buf, Range: vkc.WholeSize}
				writes[i].PBufferInfo = unsafe.Pointer(&infos[i])
			case backend.UniformTexelBuffer, backend.StorageTexelBuffer:
				v, err := d.texelView(b.Buffer.(*buffer), b.Format)
				if err != nil {
					return res, err
				}
				o.views = append(o.views, v)
				tviews[i] = v
				writes[i].PTexelBufferView = unsafe.Pointer(&tviews[i])
			default:
				iinfos[i].ImageLayout = vkc.ImageLayoutGeneral
				if im, ok := b.Image.(*image); ok {
					v, err := im.view(b.BaseLevel)
					if err != nil {
						return res, err
					}
					iinfos[i].ImageView = v
					if b.Kind == backend.StorageImage {
						written = append(written, im)
					}
				}
				if s, ok := b.Sampler.(*sampler); ok {
					iinfos[i].Sampler = s.s
				}
				writes[i].PImageInfo = unsafe.Pointer(&iinfos[i])
			}
		}
		p.UpdateDescriptorSets(dev, uint32(len(writes)), &writes[0], 0, nil)
	}

	timed := ds.Timed && d.tsBits > 0
	if ds.Timed && !timed {
		return res, fmt.Errorf("vk: timing requested, but the compute queue of %s has no timestamps", d.info.Name)
	}
	if timed {
		qci := &vkc.QueryPoolCreateInfo{SType: vkc.StructureTypeQueryPoolCreateInfo, QueryType: vkc.QueryTypeTimestamp, QueryCount: 2}
		pin.Pin(qci)
		if r := p.CreateQueryPool(dev, qci, nil, &o.query); r != vkc.Success {
			return res, vkError("vkCreateQueryPool", r)
		}
	}

	cmd := d.cmd
	bi := &vkc.CommandBufferBeginInfo{SType: vkc.StructureTypeCommandBufferBeginInfo, Flags: vkc.CommandBufferUsageOneTimeSubmitBit}
	pin.Pin(bi)
	if r := p.BeginCommandBuffer(cmd, bi); r != vkc.Success {
		return res, vkError("vkBeginCommandBuffer", r)
	}
	// Host writes (coherent memory), copies and earlier dispatches' writes
	// must be visible to the shader's reads, uniform-buffer reads included
	// (an access type of their own), and the shader's writes to host reads
	// after the fence.
	before := &vkc.MemoryBarrier{SType: vkc.StructureTypeMemoryBarrier, SrcAccessMask: vkc.AccessHostWriteBit | vkc.AccessTransferWriteBit | vkc.AccessShaderWriteBit,
		DstAccessMask: vkc.AccessUniformReadBit | vkc.AccessShaderReadBit | vkc.AccessShaderWriteBit}
	after := &vkc.MemoryBarrier{SType: vkc.StructureTypeMemoryBarrier, SrcAccessMask: vkc.AccessShaderWriteBit, DstAccessMask: vkc.AccessHostReadBit | vkc.AccessTransferReadBit}
	pin.Pin(before)
	pin.Pin(after)
	p.CmdPipelineBarrier(cmd, vkc.PipelineStageHostBit|vkc.PipelineStageTransferBit|vkc.PipelineStageComputeShaderBit, vkc.PipelineStageComputeShaderBit, 0, 1, before, 0, nil, 0, nil)
	if timed {
		p.CmdResetQueryPool(cmd, o.query, 0, 2)
		p.CmdWriteTimestamp(cmd, vkc.PipelineStageTopOfPipeBit, o.query, 0)
	}
	p.CmdBindPipeline(cmd, vkc.PipelineBindPointCompute, o.pipe)
	if len(descSets) > 0 {
		p.CmdBindDescriptorSets(cmd, vkc.PipelineBindPointCompute, o.plLayout, 0, uint32(len(descSets)), &descSets[0], 0, nil)
	}
	if pcSize > 0 {
		p.CmdPushConstants(cmd, o.plLayout, vkc.ShaderStageComputeBit, 0, uint32(pcSize), unsafe.Pointer(&pc[0]))
	}
	p.CmdDispatch(cmd, ds.Groups[0], ds.Groups[1], ds.Groups[2])
	if timed {
		p.CmdWriteTimestamp(cmd, vkc.PipelineStageBottomOfPipeBit, o.query, 1)
	}
	p.CmdPipelineBarrier(cmd, vkc.PipelineStageComputeShaderBit, vkc.PipelineStageHostBit|vkc.PipelineStageTransferBit, 0, 1, after, 0, nil, 0, nil)
	if r := p.EndCommandBuffer(cmd); r != vkc.Success {
		return res, vkError("vkEndCommandBuffer", r)
	}

	if err := d.submitAndWait(fmt.Sprintf("dispatch of %q", ds.Entry)); err != nil {
		return res, err
	}
	for _, im := range written {
		im.stale = true
	}

	if timed {
		ts := make([]uint64, 2)
		pin.Pin(&ts[0])
		if r := p.GetQueryPoolResults(dev, o.query, 0, 2, 16, unsafe.Pointer(&ts[0]), 8, vkc.QueryResult64Bit|vkc.QueryResultWaitBit); r != vkc.Success {
			return res, vkError("vkGetQueryPoolResults", r)
		}
		mask := uint64(1)<<d.tsBits - 1
		if d.tsBits >= 64 {
			mask = ^uint64(0)
		}
		ticks := (ts[1] - ts[0]) & mask
		res.Elapsed = time.Duration(float64(ticks) * float64(d.props.p2.Properties.Limits.TimestampPeriod))
	}
	return res, nil
}

// submitAndWait submits the device's command buffer and waits for it.
func (d *Device) submitAndWait(what string) error {
	p := &d.in.p
	var pin runtime.Pinner
	defer pin.Unpin()
	fci := &vkc.FenceCreateInfo{SType: vkc.StructureTypeFenceCreateInfo}
	pin.Pin(fci)
	fences := []vkc.Fence{0}
	pin.Pin(&fences[0])
	if r := p.CreateFence(d.dev, fci, nil, &fences[0]); r != vkc.Success {
		return vkError("vkCreateFence", r)
	}
	defer p.DestroyFence(d.dev, fences[0], nil)
	cmds := []vkc.CommandBuffer{d.cmd}
	pin.Pin(&cmds[0])
	si := &vkc.SubmitInfo{SType: vkc.StructureTypeSubmitInfo, CommandBufferCount: 1, PCommandBuffers: unsafe.Pointer(&cmds[0])}
	pin.Pin(si)
	if r := p.QueueSubmit(d.queue, 1, si, fences[0]); r != vkc.Success {
		return vkError("vkQueueSubmit", r)
	}
	switch r := p.WaitForFences(d.dev, 1, &fences[0], 1, uint64(DispatchTimeout.Nanoseconds())); r {
	case vkc.Success:
		return nil
	case vkc.Timeout:
		// The work is still in flight: wait it out so nothing it uses is
		// destroyed under it, then report.
		p.DeviceWaitIdle(d.dev)
		return fmt.Errorf("vk: %s did not finish within %v", what, DispatchTimeout)
	default:
		return vkError("vkWaitForFences", r)
	}
}

// specInfo builds VkSpecializationInfo with entries in SpecId order.
func specInfo(pin *runtime.Pinner, spec map[uint32][]byte) (*vkc.SpecializationInfo, error) {
	var entries []vkc.SpecializationMapEntry
	var data []byte
	for _, id := range sortedKeys(spec) {
		v := spec[id]
		switch len(v) {
		case 1, 2, 4, 8:
		default:
			return nil, fmt.Errorf("vk: specialization constant %d has %d bytes; want 1, 2, 4 or 8", id, len(v))
		}
		entries = append(entries, vkc.SpecializationMapEntry{ConstantID: id, Offset: uint32(len(data)), Size: uintptr(len(v))})
		data = append(data, v...)
	}
	pin.Pin(&entries[0])
	pin.Pin(&data[0])
	si := &vkc.SpecializationInfo{MapEntryCount: uint32(len(entries)), PMapEntries: unsafe.Pointer(&entries[0]), DataSize: uintptr(len(data)), PData: unsafe.Pointer(&data[0])}
	pin.Pin(si)
	return si, nil
}

func sortedKeys[K ~uint32 | ~int32, V any](m map[K]V) []K {
	ks := make([]K, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
