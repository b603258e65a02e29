package icd

import (
	"encoding/binary"
	"sync"
	"time"
	"unsafe"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/icd/vkt"
)

type CommandPool struct {
	mu   sync.Mutex
	bufs map[*CommandBuffer]bool
}

// CommandBuffer is a VkCommandBuffer: recorded commands are closures run
// in order when a submission reaches the queue.
type CommandBuffer struct {
	dispatchable
	dev  *Device
	cmds []func(st *replayState) error
	mu   sync.Mutex
	// Recording state: what vkCmdDispatch captures.
	pipeline *Pipeline
	sets     [8]*boundSet
	pushSets [8]*boundSet
	push     [maxPushConst]byte
}

type boundSet struct {
	set     *DescriptorSet
	dynamic []uint32
	// descs holds the descriptors of a push descriptor set.
	descs map[uint32][]descriptor
}

// replayState is what one replay of a command buffer needs.
type replayState struct {
	dev *Device
}

func CreateCommandPool(device uintptr, pInfo, pAllocator, pPool unsafe.Pointer) int32 {
	put(pPool, newHandle(&CommandPool{bufs: map[*CommandBuffer]bool{}}))
	return success
}

func DestroyCommandPool(device uintptr, pool uint64, pAllocator unsafe.Pointer) {
	p := lookup[CommandPool](pool)
	if p == nil {
		return
	}
	p.mu.Lock()
	for cb := range p.bufs {
		freeDispatchable(&cb.dispatchable)
	}
	p.bufs = nil
	p.mu.Unlock()
	freeHandle(pool)
}

func ResetCommandPool(device uintptr, pool uint64, flags uint32) int32 {
	if p := lookup[CommandPool](pool); p != nil {
		p.mu.Lock()
		for cb := range p.bufs {
			cb.reset()
		}
		p.mu.Unlock()
	}
	return success
}

func TrimCommandPool(device uintptr, pool uint64, flags uint32) {}

func AllocateCommandBuffers(device uintptr, pInfo, pBuffers unsafe.Pointer) int32 {
	d := lookupD[Device](device)
	ai := (*vkt.CommandBufferAllocateInfo)(pInfo)
	if d == nil || ai == nil {
		return errOutOfHostMemory
	}
	p := lookup[CommandPool](uint64(ai.CommandPool))
	if p == nil {
		return errOutOfHostMemory
	}
	out := array[uintptr](pBuffers, ai.CommandBufferCount)
	for i := range out {
		cb := &CommandBuffer{dev: d}
		out[i] = newDispatchable(&cb.dispatchable, cb)
		p.mu.Lock()
		p.bufs[cb] = true
		p.mu.Unlock()
	}
	return success
}

func FreeCommandBuffers(device uintptr, pool uint64, count uint32, pBuffers unsafe.Pointer) {
	p := lookup[CommandPool](pool)
	for _, h := range array[uintptr](pBuffers, count) {
		cb := lookupD[CommandBuffer](h)
		if cb == nil {
			continue
		}
		if p != nil {
			p.mu.Lock()
			delete(p.bufs, cb)
			p.mu.Unlock()
		}
		freeDispatchable(&cb.dispatchable)
	}
}

func (cb *CommandBuffer) reset() {
	cb.mu.Lock()
	defer cb.mu.Unlock()
	cb.cmds = nil
	cb.pipeline = nil
	cb.sets, cb.pushSets = [8]*boundSet{}, [8]*boundSet{}
	cb.push = [maxPushConst]byte{}
}

func BeginCommandBuffer(commandBuffer uintptr, pInfo unsafe.Pointer) int32 {
	cb := lookupD[CommandBuffer](commandBuffer)
	if cb == nil {
		return errOutOfHostMemory
	}
	cb.reset()
	return success
}

func EndCommandBuffer(commandBuffer uintptr) int32 { return success }

func ResetCommandBuffer(commandBuffer uintptr, flags uint32) int32 {
	if cb := lookupD[CommandBuffer](commandBuffer); cb != nil {
		cb.reset()
	}
	return success
}

func (cb *CommandBuffer) replay() error {
	cb.mu.Lock()
	cmds := cb.cmds
	cb.mu.Unlock()
	st := &replayState{dev: cb.dev}
	for _, c := range cmds {
		if err := c(st); err != nil {
			return err
		}
	}
	return nil
}

// record appends a command; it is a no-op for an unknown handle.
func record(commandBuffer uintptr, f func(cb *CommandBuffer) func(st *replayState) error) {
	cb := lookupD[CommandBuffer](commandBuffer)
	if cb == nil {
		return
	}
	if c := f(cb); c != nil {
		cb.mu.Lock()
		cb.cmds = append(cb.cmds, c)
		cb.mu.Unlock()
	}
}

const bindPointCompute = 1

func CmdBindPipeline(commandBuffer uintptr, bindPoint int32, pipeline uint64) {
	record(commandBuffer, func(cb *CommandBuffer) func(*replayState) error {
		if bindPoint == bindPointCompute {
			cb.pipeline = lookup[Pipeline](pipeline)
		}
		return nil
	})
}

func CmdBindDescriptorSets(commandBuffer uintptr, bindPoint int32, layout uint64, firstSet, count uint32, pSets unsafe.Pointer, dynCount uint32, pDyn unsafe.Pointer) {
	record(commandBuffer, func(cb *CommandBuffer) func(*replayState) error {
		if bindPoint != bindPointCompute {
			return nil
		}
		dyn := array[uint32](pDyn, dynCount)
		for i, h := range array[uint64](pSets, count) {
			n := int(firstSet) + i
			if n >= len(cb.sets) {
				break
			}
			s := lookup[DescriptorSet](h)
			bs := &boundSet{set: s}
			if s != nil {
				// Dynamic offsets go to the set's dynamic descriptors in
				// binding order.
				nd := 0
				for _, b := range sortedBindings(s.layout) {
					lb := s.layout.bindings[b]
					if lb.typ == int32(vkt.DescriptorTypeStorageBufferDynamic) || lb.typ == int32(vkt.DescriptorTypeUniformBufferDynamic) {
						nd += int(lb.count)
					}
				}
				if nd <= len(dyn) {
					bs.dynamic = append([]uint32(nil), dyn[:nd]...)
					dyn = dyn[nd:]
				}
			}
			cb.sets[n] = bs
		}
		return nil
	})
}

func CmdBindDescriptorSets2(commandBuffer uintptr, pInfo unsafe.Pointer) {
	bi := (*vkt.BindDescriptorSetsInfo)(pInfo)
	if bi != nil && bi.StageFlags&vkt.ShaderStageComputeBit != 0 {
		CmdBindDescriptorSets(commandBuffer, bindPointCompute, uint64(bi.Layout), bi.FirstSet, bi.DescriptorSetCount, bi.PDescriptorSets, bi.DynamicOffsetCount, bi.PDynamicOffsets)
	}
}

func CmdPushDescriptorSet(commandBuffer uintptr, bindPoint int32, layout uint64, set uint32, count uint32, pWrites unsafe.Pointer) {
	pushDescriptors(commandBuffer, bindPoint, layout, set, func(ds *DescriptorSet) {
		ws := array[vkt.WriteDescriptorSet](pWrites, count)
		for i := range ws {
			ds.write(&ws[i])
		}
	})
}

func CmdPushDescriptorSetWithTemplate(commandBuffer uintptr, template uint64, layout uint64, set uint32, pData unsafe.Pointer) {
	t := lookup[DescriptorUpdateTemplate](template)
	if t == nil {
		return
	}
	pushDescriptors(commandBuffer, bindPointCompute, layout, set, func(ds *DescriptorSet) { t.apply(ds, pData) })
}

// pushDescriptors records a push descriptor set: a copy of the one pushed
// before (same layout) with write applied, so later pushes leave it as it
// was.
func pushDescriptors(commandBuffer uintptr, bindPoint int32, layout uint64, set uint32, write func(*DescriptorSet)) {
	record(commandBuffer, func(cb *CommandBuffer) func(*replayState) error {
		pl := lookup[PipelineLayout](layout)
		if bindPoint != bindPointCompute || pl == nil || int(set) >= len(pl.sets) || pl.sets[set] == nil || int(set) >= len(cb.pushSets) {
			return nil
		}
		ds := &DescriptorSet{layout: pl.sets[set], descs: map[uint32][]descriptor{}}
		if old := cb.pushSets[set]; old != nil && old.set != nil && old.set.layout == ds.layout {
			for b, d := range old.set.descs {
				ds.descs[b] = append([]descriptor(nil), d...)
			}
		}
		write(ds)
		cb.pushSets[set] = &boundSet{set: ds}
		return nil
	})
}

// CmdExecuteCommands runs secondary command buffers where the primary
// reaches the call; they are replayed as they are then.
func CmdExecuteCommands(commandBuffer uintptr, count uint32, pBuffers unsafe.Pointer) {
	record(commandBuffer, func(cb *CommandBuffer) func(*replayState) error {
		var secs []*CommandBuffer
		for _, h := range array[uintptr](pBuffers, count) {
			if s := lookupD[CommandBuffer](h); s != nil && s != cb {
				secs = append(secs, s)
			}
		}
		return func(*replayState) error {
			for _, s := range secs {
				if err := s.replay(); err != nil {
					return err
				}
			}
			return nil
		}
	})
}

func CmdPushDescriptorSet2(commandBuffer uintptr, pInfo unsafe.Pointer) {
	pi := (*vkt.PushDescriptorSetInfo)(pInfo)
	if pi != nil && pi.StageFlags&vkt.ShaderStageComputeBit != 0 {
		CmdPushDescriptorSet(commandBuffer, bindPointCompute, uint64(pi.Layout), pi.Set, pi.DescriptorWriteCount, pi.PDescriptorWrites)
	}
}

func CmdPushConstants(commandBuffer uintptr, layout uint64, stages uint32, offset, size uint32, pValues unsafe.Pointer) {
	record(commandBuffer, func(cb *CommandBuffer) func(*replayState) error {
		if uint64(offset)+uint64(size) <= maxPushConst && pValues != nil {
			copy(cb.push[offset:], unsafe.Slice((*byte)(pValues), size))
		}
		return nil
	})
}

func CmdPushConstants2(commandBuffer uintptr, pInfo unsafe.Pointer) {
	if pi := (*vkt.PushConstantsInfo)(pInfo); pi != nil {
		CmdPushConstants(commandBuffer, uint64(pi.Layout), uint32(pi.StageFlags), pi.Offset, pi.Size, pi.PValues)
	}
}

func sortedBindings(l *DescriptorSetLayout) []uint32 {
	var out []uint32
	for b := range l.bindings {
		out = append(out, b)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// capture takes, at record time, the descriptors a dispatch uses: which
// buffer ranges, image views, samplers and texel buffer views; the
// executor's buffer views are made when it runs.
type capturedBinding struct {
	set, binding, elem uint32
	d                  descriptor
}

func (cb *CommandBuffer) capture() []capturedBinding {
	var out []capturedBinding
	for _, group := range [][8]*boundSet{cb.sets, cb.pushSets} {
		for n, bs := range group {
			if bs == nil || bs.set == nil {
				continue
			}
			s := bs.set
			s.mu.Lock()
			nd := 0
			for _, b := range sortedBindings(s.layout) {
				lb := s.layout.bindings[b]
				dyn := lb.typ == int32(vkt.DescriptorTypeStorageBufferDynamic) || lb.typ == int32(vkt.DescriptorTypeUniformBufferDynamic)
				ds := s.descs[b]
				for e := 0; e < int(lb.count); e++ {
					var d descriptor
					if e < len(ds) {
						d = ds[e]
					}
					d.typ = lb.typ
					if e < len(lb.immutable) {
						d.smp = lb.immutable[e]
					}
					if dyn {
						if nd < len(bs.dynamic) {
							d.off += uint64(bs.dynamic[nd])
						}
						nd++
					}
					if d.bound() {
						out = append(out, capturedBinding{uint32(n), b, uint32(e), d})
					}
				}
			}
			s.mu.Unlock()
		}
	}
	return out
}

func (cb *CommandBuffer) recordDispatch(base, groups [3]uint32, indirect *Buffer, indirectOff uint64) func(*replayState) error {
	p := cb.pipeline
	binds := cb.capture()
	push := append([]byte(nil), cb.push[:]...)
	return func(st *replayState) error {
		if p == nil {
			return errorf("vkCmdDispatch: no compute pipeline bound")
		}
		if indirect != nil {
			v, err := indirect.view(indirectOff, 12)
			if err != nil {
				return errorf("vkCmdDispatchIndirect: %v", err)
			}
			var b [12]byte
			if err := v.Read(0, b[:]); err != nil {
				return err
			}
			for i := range groups {
				groups[i] = binary.LittleEndian.Uint32(b[4*i:])
			}
		}
		dp := &backend.Dispatch{Groups: groups, Base: base, PushConstants: push}
		for _, b := range binds {
			bb, err := b.d.binding()
			if err == errDestroyed || err == errIncomplete {
				// A set may keep descriptors of destroyed buffers (or
				// views), or half-written ones, in bindings the pipeline
				// does not use (llama.cpp reuses its sets so); Vulkan
				// allows that, so the binding is left unbound, and a
				// shader that does read it faults there.
				continue
			}
			if err != nil {
				return errorf("descriptor (set %d, binding %d, element %d): %v", b.set, b.binding, b.elem, err)
			}
			bb.Set, bb.Binding, bb.ArrayElement = b.set, b.binding, b.elem
			dp.Bindings = append(dp.Bindings, bb)
		}
		return st.dev.exec.RunDispatch(p.prog, dp)
	}
}

func CmdDispatch(commandBuffer uintptr, x, y, z uint32) {
	record(commandBuffer, func(cb *CommandBuffer) func(*replayState) error {
		return cb.recordDispatch([3]uint32{}, [3]uint32{x, y, z}, nil, 0)
	})
}

func CmdDispatchBase(commandBuffer uintptr, bx, by, bz, x, y, z uint32) {
	record(commandBuffer, func(cb *CommandBuffer) func(*replayState) error {
		return cb.recordDispatch([3]uint32{bx, by, bz}, [3]uint32{x, y, z}, nil, 0)
	})
}

func CmdDispatchIndirect(commandBuffer uintptr, buffer uint64, offset uint64) {
	record(commandBuffer, func(cb *CommandBuffer) func(*replayState) error {
		b := lookup[Buffer](buffer)
		if b == nil {
			return func(*replayState) error { return errorf("vkCmdDispatchIndirect: not a buffer") }
		}
		return cb.recordDispatch([3]uint32{}, [3]uint32{}, b, offset)
	})
}

// bytesOf is the memory of bytes [off, off+size) of a bound buffer.
func (b *Buffer) bytesOf(off, size uint64) ([]byte, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.mem == nil {
		return nil, errorf("the buffer is not bound to memory")
	}
	if off > b.size || size > b.size-off {
		return nil, errorf("range of %d bytes at %d is outside the buffer's %d bytes", size, off, b.size)
	}
	return b.mem.data[b.offset+off : b.offset+off+size], nil
}

func copyRegions(src, dst *Buffer, regions [][3]uint64) func(*replayState) error {
	return func(*replayState) error {
		if src == nil || dst == nil {
			return errorf("vkCmdCopyBuffer: not a buffer")
		}
		for _, r := range regions {
			s, err := src.bytesOf(r[0], r[2])
			if err != nil {
				return errorf("vkCmdCopyBuffer source: %v", err)
			}
			d, err := dst.bytesOf(r[1], r[2])
			if err != nil {
				return errorf("vkCmdCopyBuffer destination: %v", err)
			}
			copy(d, s)
		}
		return nil
	}
}

func CmdCopyBuffer(commandBuffer uintptr, src, dst uint64, count uint32, pRegions unsafe.Pointer) {
	record(commandBuffer, func(cb *CommandBuffer) func(*replayState) error {
		var rs [][3]uint64
		for _, r := range array[vkt.BufferCopy](pRegions, count) {
			rs = append(rs, [3]uint64{uint64(r.SrcOffset), uint64(r.DstOffset), uint64(r.Size)})
		}
		return copyRegions(lookup[Buffer](src), lookup[Buffer](dst), rs)
	})
}

func CmdCopyBuffer2(commandBuffer uintptr, pInfo unsafe.Pointer) {
	ci := (*vkt.CopyBufferInfo2)(pInfo)
	if ci == nil {
		return
	}
	record(commandBuffer, func(cb *CommandBuffer) func(*replayState) error {
		var rs [][3]uint64
		for _, r := range array[vkt.BufferCopy2](ci.PRegions, ci.RegionCount) {
			rs = append(rs, [3]uint64{uint64(r.SrcOffset), uint64(r.DstOffset), uint64(r.Size)})
		}
		return copyRegions(lookup[Buffer](uint64(ci.SrcBuffer)), lookup[Buffer](uint64(ci.DstBuffer)), rs)
	})
}

func CmdFillBuffer(commandBuffer uintptr, buffer uint64, offset, size uint64, data uint32) {
	record(commandBuffer, func(cb *CommandBuffer) func(*replayState) error {
		b := lookup[Buffer](buffer)
		return func(*replayState) error {
			if b == nil {
				return errorf("vkCmdFillBuffer: not a buffer")
			}
			n := size
			if n == vkt.WholeSize {
				if offset > b.size {
					return errorf("vkCmdFillBuffer: offset %d beyond the buffer", offset)
				}
				n = (b.size - offset) &^ 3
			}
			m, err := b.bytesOf(offset, n)
			if err != nil {
				return errorf("vkCmdFillBuffer: %v", err)
			}
			for i := 0; i+4 <= len(m); i += 4 {
				binary.LittleEndian.PutUint32(m[i:], data)
			}
			return nil
		}
	})
}

func CmdUpdateBuffer(commandBuffer uintptr, buffer uint64, offset, size uint64, pData unsafe.Pointer) {
	record(commandBuffer, func(cb *CommandBuffer) func(*replayState) error {
		b := lookup[Buffer](buffer)
		if size > 65536 || pData == nil {
			return func(*replayState) error { return errorf("vkCmdUpdateBuffer: %d bytes (at most 65536)", size) }
		}
		data := append([]byte(nil), unsafe.Slice((*byte)(pData), size)...)
		return func(*replayState) error {
			if b == nil {
				return errorf("vkCmdUpdateBuffer: not a buffer")
			}
			m, err := b.bytesOf(offset, size)
			if err != nil {
				return errorf("vkCmdUpdateBuffer: %v", err)
			}
			copy(m, data)
			return nil
		}
	})
}

// Commands run one after another and memory is coherent, so barriers
// order nothing that is not already ordered.
func CmdPipelineBarrier(commandBuffer uintptr, srcStage, dstStage, deps uint32, nMem uint32, pMem unsafe.Pointer, nBuf uint32, pBuf unsafe.Pointer, nImg uint32, pImg unsafe.Pointer) {
}

func CmdPipelineBarrier2(commandBuffer uintptr, pInfo unsafe.Pointer) {}

func CmdSetEvent(commandBuffer uintptr, event uint64, stages uint32) {
	record(commandBuffer, func(cb *CommandBuffer) func(*replayState) error {
		e := lookup[Event](event)
		return func(*replayState) error {
			if e != nil {
				e.setTo(true)
			}
			return nil
		}
	})
}

func CmdSetEvent2(commandBuffer uintptr, event uint64, pInfo unsafe.Pointer) {
	CmdSetEvent(commandBuffer, event, 0)
}

func CmdResetEvent(commandBuffer uintptr, event uint64, stages uint32) {
	record(commandBuffer, func(cb *CommandBuffer) func(*replayState) error {
		e := lookup[Event](event)
		return func(*replayState) error {
			if e != nil {
				e.setTo(false)
			}
			return nil
		}
	})
}

func CmdResetEvent2(commandBuffer uintptr, event uint64, stages uint64) {
	CmdResetEvent(commandBuffer, event, 0)
}

// Events are waited on where the queue reaches the wait: one set on the
// host or earlier in the queue has been set by then; one never set is an
// application error, reported and skipped rather than waited for forever.
func CmdWaitEvents(commandBuffer uintptr, count uint32, pEvents unsafe.Pointer, srcStage, dstStage uint32, nMem uint32, pMem unsafe.Pointer, nBuf uint32, pBuf unsafe.Pointer, nImg uint32, pImg unsafe.Pointer) {
	record(commandBuffer, func(cb *CommandBuffer) func(*replayState) error {
		var evs []*Event
		for _, h := range array[uint64](pEvents, count) {
			evs = append(evs, lookup[Event](h))
		}
		return func(st *replayState) error {
			for _, e := range evs {
				if e == nil {
					continue
				}
				deadline := time.Now().Add(time.Second)
				for {
					e.mu.Lock()
					set := e.set
					e.mu.Unlock()
					if set {
						break
					}
					if time.Now().After(deadline) {
						st.dev.inst.report(severityWarning, "vkCmdWaitEvents: an event was not set within a second; continuing")
						break
					}
					time.Sleep(100 * time.Microsecond)
				}
			}
			return nil
		}
	})
}

func CmdWaitEvents2(commandBuffer uintptr, count uint32, pEvents unsafe.Pointer, pInfos unsafe.Pointer) {
	CmdWaitEvents(commandBuffer, count, pEvents, 0, 0, 0, nil, 0, nil, 0, nil)
}

// --- query pools ----------------------------------------------------------

type QueryPool struct {
	mu    sync.Mutex
	vals  []uint64
	avail []bool
}

var epoch = time.Now()

func CreateQueryPool(device uintptr, pInfo, pAllocator, pPool unsafe.Pointer) int32 {
	ci := (*vkt.QueryPoolCreateInfo)(pInfo)
	if ci == nil || pPool == nil {
		return errOutOfHostMemory
	}
	if ci.QueryType != vkt.QueryTypeTimestamp {
		return errFeatureNotPresent
	}
	if ci.QueryCount > 1<<20 {
		return errOutOfHostMemory
	}
	put(pPool, newHandle(&QueryPool{vals: make([]uint64, ci.QueryCount), avail: make([]bool, ci.QueryCount)}))
	return success
}

func DestroyQueryPool(device uintptr, pool uint64, pAllocator unsafe.Pointer) { freeHandle(pool) }

func (q *QueryPool) reset(first, count uint32) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for i := uint64(first); i < uint64(first)+uint64(count) && i < uint64(len(q.vals)); i++ {
		q.vals[i], q.avail[i] = 0, false
	}
}

func ResetQueryPool(device uintptr, pool uint64, first, count uint32) {
	if q := lookup[QueryPool](pool); q != nil {
		q.reset(first, count)
	}
}

func CmdResetQueryPool(commandBuffer uintptr, pool uint64, first, count uint32) {
	record(commandBuffer, func(cb *CommandBuffer) func(*replayState) error {
		q := lookup[QueryPool](pool)
		return func(*replayState) error {
			if q != nil {
				q.reset(first, count)
			}
			return nil
		}
	})
}

func CmdWriteTimestamp(commandBuffer uintptr, stage uint32, pool uint64, query uint32) {
	record(commandBuffer, func(cb *CommandBuffer) func(*replayState) error {
		q := lookup[QueryPool](pool)
		return func(*replayState) error {
			if q == nil {
				return nil
			}
			q.mu.Lock()
			if int(query) < len(q.vals) {
				q.vals[query], q.avail[query] = uint64(time.Since(epoch).Nanoseconds()), true
			}
			q.mu.Unlock()
			return nil
		}
	})
}

func CmdWriteTimestamp2(commandBuffer uintptr, stage uint64, pool uint64, query uint32) {
	CmdWriteTimestamp(commandBuffer, 0, pool, query)
}

func GetQueryPoolResults(device uintptr, pool uint64, first, count uint32, dataSize uintptr, pData unsafe.Pointer, stride uint64, flags uint32) int32 {
	q := lookup[QueryPool](pool)
	if q == nil || pData == nil {
		return errDeviceLost
	}
	is64 := vkt.QueryResultFlags(flags)&vkt.QueryResult64Bit != 0
	wait := vkt.QueryResultFlags(flags)&vkt.QueryResultWaitBit != 0
	withAvail := vkt.QueryResultFlags(flags)&vkt.QueryResultWithAvailabilityBit != 0
	partial := vkt.QueryResultFlags(flags)&vkt.QueryResultPartialBit != 0
	deadline := time.Now().Add(10 * time.Second)
	result := int32(success)
	out := unsafe.Slice((*byte)(pData), dataSize)
	for i := uint32(0); i < count; i++ {
		qi := uint64(first) + uint64(i)
		for {
			q.mu.Lock()
			ok := qi < uint64(len(q.vals)) && q.avail[qi]
			q.mu.Unlock()
			if ok || !wait || time.Now().After(deadline) {
				break
			}
			time.Sleep(50 * time.Microsecond)
		}
		q.mu.Lock()
		var v uint64
		avail := false
		if qi < uint64(len(q.vals)) {
			v, avail = q.vals[qi], q.avail[qi]
		}
		q.mu.Unlock()
		if !avail {
			result = notReady
		}
		off := uint64(i) * stride
		write := func(k int, x uint64) {
			if is64 {
				if o := off + uint64(k)*8; o+8 <= uint64(len(out)) {
					binary.LittleEndian.PutUint64(out[o:], x)
				}
			} else if o := off + uint64(k)*4; o+4 <= uint64(len(out)) {
				binary.LittleEndian.PutUint32(out[o:], uint32(x))
			}
		}
		if avail || partial {
			write(0, v)
		}
		if withAvail {
			write(1, boolU(avail))
		}
	}
	return result
}

// descriptorKinds are the executor's descriptor kinds of the Vulkan types.
var descriptorKinds = map[vkt.DescriptorType]backend.DescriptorKind{
	vkt.DescriptorTypeStorageBuffer: backend.StorageBuffer, vkt.DescriptorTypeStorageBufferDynamic: backend.StorageBuffer,
	vkt.DescriptorTypeUniformBuffer: backend.UniformBuffer, vkt.DescriptorTypeUniformBufferDynamic: backend.UniformBuffer,
	vkt.DescriptorTypeStorageImage: backend.StorageImage, vkt.DescriptorTypeSampledImage: backend.SampledImage,
	vkt.DescriptorTypeCombinedImageSampler: backend.CombinedImageSampler, vkt.DescriptorTypeSampler: backend.SeparateSampler,
	vkt.DescriptorTypeUniformTexelBuffer: backend.UniformTexelBuffer, vkt.DescriptorTypeStorageTexelBuffer: backend.StorageTexelBuffer,
}

// errIncomplete is binding's error for a descriptor that lacks part of
// its resource (a combined image sampler written without a sampler).
var errIncomplete = errorf("the descriptor is incomplete")

// binding is the executor binding of a descriptor (its set, binding and
// element left zero); errDestroyed when its resource was destroyed.
func (d *descriptor) binding() (backend.Binding, error) {
	b := backend.Binding{Kind: descriptorKinds[vkt.DescriptorType(d.typ)]}
	var err error
	switch infoKind(d.typ) {
	case infoBuffer:
		if d.buf == nil {
			return b, errIncomplete
		}
		b.Buffer, err = d.buf.view(d.off, d.rng)
	case infoImage:
		if d.typ != int32(vkt.DescriptorTypeSampler) {
			if d.view == nil {
				return b, errIncomplete
			}
			if b.Image = d.view.image(); b.Image == nil {
				return b, errDestroyed
			}
		}
		if d.typ == int32(vkt.DescriptorTypeSampler) || d.typ == int32(vkt.DescriptorTypeCombinedImageSampler) {
			if d.smp == nil {
				return b, errIncomplete
			}
			b.Sampler = d.smp.ex
		}
	case infoTexel:
		if d.texel == nil {
			return b, errIncomplete
		}
		b.Format = d.texel.format
		b.Buffer, err = d.texel.buf.view(d.texel.off, d.texel.rng)
	default:
		return b, errorf("descriptor type %d is not supported", d.typ)
	}
	return b, err
}
