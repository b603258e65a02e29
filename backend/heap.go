package backend

// Descriptor heaps (VK_EXT_descriptor_heap). A module compiled from
// GL_EXT_descriptor_heap or GL_EXT_structured_descriptor_heap reaches its
// resources through two heaps instead of bindings: the resource heap
// (buffers, images, acceleration structures, tensors) and the sampler heap.
// A dispatch hands them over as buffers (Dispatch.ResourceHeap and
// SamplerHeap) whose bytes the host fills with descriptors at the offsets
// the shader computes (heap_offset, descriptor sizes, descriptor_stride).
// The size and contents of a descriptor are the device's: the CPU executor
// documents its own and writes them with exec.BufferDescriptor,
// exec.ImageDescriptor, exec.TexelBufferDescriptor and
// exec.SamplerDescriptor. A backend that cannot run heaps fails the
// dispatch with a clear error.
