// Package exec is coop's reference executor: it runs SPIR-V compute shaders
// on the CPU, exactly where the specifications are exact, and implements
// backend.Device.
//
// # Use
//
//	dev := exec.New(exec.Options{})            // subgroup size 32, all cores
//	buf, _ := dev.NewBuffer(1024, backend.UsageStorage|backend.UsageAddress)
//	_, err := dev.Dispatch(&backend.Dispatch{Code: words, Entry: "main",
//		Groups: [3]uint32{4, 1, 1}, Bindings: []backend.Binding{{Binding: 0, Buffer: buf}}})
//
// Load prepares a module without running it and reports every instruction
// the executor does not implement (errors.Is(err, ErrUnsupported)).
// Dispatch caches prepared programs by the code, entry point,
// specialization constants and subgroup size.
//
// # Execution model
//
// Load turns a module into a flat list of decoded instructions whose
// operands are slots in a register file of 64-bit words: every scalar
// component of a value takes one slot (a vec3 takes three, a struct the sum
// of its members), so composite access is slot arithmetic. Each invocation
// is a resumable interpreter (program counter, call stack, registers, its
// own Private and Function memory; recursion is not allowed in shaders, so
// every function's variables have fixed places).
//
// Function variables used only by whole OpLoad and OpStore live in value
// slots too, so those become slot copies.
//
// Workgroups run in parallel on a pool of workers (Options.Workers), each
// workgroup on one worker. Within a workgroup, invocations are split into
// subgroups of Options.SubgroupSize (or Dispatch.SubgroupSize) in
// LocalInvocationIndex order. While the invocations of a subgroup are
// converged, it runs in lockstep: each instruction for all of them before
// the next, control flow decided once, and an instruction whose operands
// are the same in every invocation (a per-slot uniformity state: constants,
// push constants, subgroup-uniform built-ins and what is computed from
// them) computed once. This is one valid interleaving of the invocations
// (DebugPrintf lines and racing accesses may come in another order than
// one by one); it ends at a branch they do not agree on. Otherwise the
// scheduler runs each invocation of a subgroup until it finishes or
// reaches a collective instruction (a subgroup operation, a cooperative
// matrix load, store or multiply-add, a control barrier). It then performs the collective for the invocations
// waiting at the same dynamic instance of an instruction (same call stack
// and same iteration of every enclosing loop, tracked through OpLoopMerge
// headers, back-edges and merge blocks), choosing the earliest such point
// first (outer frames, then loop iterations, then program order); this
// re-converges invocations that diverged, as structured control flow does
// on GPUs; when the whole subgroup meets there, it runs in lockstep again.
// Non-uniform subgroup operations act on the
// invocations that arrived together; cooperative matrix instructions need
// the whole (full) subgroup, and a subgroup barrier all its live
// invocations, or the dispatch fails naming the instruction. A workgroup
// barrier releases when every invocation of the workgroup waits at it; an
// invocation that finished or waits elsewhere is reported as barrier
// divergence.
//
// # Memory
//
// Pointers are 64-bit addresses: the top byte is a region kind (1 device
// buffer, 2 workgroup memory, 3 the invocation's own memory, 4 push
// constants), the next 16 bits a buffer number, the low 40 bits a byte
// offset. A buffer's Address is such a value (buffer n starts at
// 0x01<<56 | n<<40), so PhysicalStorageBuffer pointers, OpConvertUToPtr
// and OpConvertPtrToU work on real addresses; an address outside every
// buffer faults. Explicit layouts (Offset, ArrayStride, MatrixStride,
// RowMajor) are honoured for every load, store and access chain, including
// columns of row-major matrices. Types without explicit layout (Function,
// Private, Workgroup without explicit layout) are packed: scalars aligned
// to their size, bool as 4 bytes. Workgroup memory starts zeroed, as do
// uninitialized Private and Function variables. Atomics hold a mutex per
// 8-byte stripe of addresses, so they are atomic across workgroups running
// in parallel; plain loads and stores are not synchronized.
//
// # Descriptor heaps and untyped pointers
//
// A module using SPV_EXT_descriptor_heap reads its resources from the
// dispatch's heaps (backend.Dispatch.ResourceHeap and SamplerHeap, run with
// Device.RunDispatch): the variables decorated ResourceHeapEXT and
// SamplerHeapEXT hold the address of the first byte of those buffers, and a
// dispatch of a module that reads a heap it was not given fails. The host
// writes descriptors into a heap at the byte offsets the shader computes:
//
//   - A uniform or storage buffer descriptor (OpTypeBufferEXT) is
//     BufferDescriptorSize (16) bytes: the buffer's device address and its
//     size in bytes, each a little-endian uint64, as BufferDescriptor
//     writes them. OpBufferPointerEXT faults on a null descriptor, on an
//     address in no buffer and on a size that runs past the buffer; the
//     size bounds nothing else (accesses are checked against the whole
//     buffer).
//   - Image, sampler, acceleration structure and tensor descriptors are
//     OpaqueDescriptorSize (32) bytes; their contents are defined with the
//     executor's support for those types (loading one gives its first 8
//     bytes).
//
// OpConstantSizeOfEXT gives these sizes, and descriptors are aligned to
// their size in the layouts compilers compute from them (the executor reads
// a descriptor at any offset). OffsetIdEXT and ArrayStrideIdEXT take the
// values of their constants, which must be declared before the type they
// decorate.
//
// Untyped pointers (SPV_KHR_untyped_pointers) are addresses like typed
// ones. An untyped access chain walks its Base Type operand; the Element of
// OpUntypedPtrAccessChainKHR steps by the ArrayStride of Base's pointer
// type, or else by the size of Base Type. Loads, stores and atomics through an
// untyped pointer use the type of the value (the result type of a load or
// atomic, the stored value's type) with its own explicit layout; a matrix
// member's layout comes from the struct member the chain ends at.
// OpCopyMemory takes the type of its typed operand. OpUntypedVariableKHR
// declares an ordinary variable of its Data Type.
//
// # Implementation-defined choices
//
//   - Floating point: add, sub, mul, div, sqrt and conversions are
//     correctly rounded for every type (fp16, bf16 and fp8 are computed in
//     float64 and rounded once); denormals are preserved; NaN results of
//     arithmetic are the positive quiet NaN (0x7e00, 0x7fc0, 0x7fc00000,
//     0x7ff8000000000000, E5M2 0x7e, E4M3 0x7f), while OpFNegate, FAbs,
//     copies and bitcasts keep the bits. GLSL.std.450 functions are
//     computed in float64 and rounded once (more accurate than required).
//     Fma of float32 is a float64 fused multiply-add rounded to float32.
//   - Float to integer conversions out of range saturate; NaN converts to 0.
//   - Integer division by zero gives all ones (UDiv), -1 (SDiv) and 0
//     (remainders); shifts use the amount modulo the width.
//   - Out-of-range OpVectorExtractDynamic gives 0; out-of-range dynamic
//     indices in access chains and out-of-bounds memory accesses fault.
//   - Reductions and scans (subgroup arithmetic, OpDot, matrix products)
//     accumulate in increasing lane or index order, rounding after each
//     step. Subgroup shuffles and broadcasts from an inactive lane give 0.
//     Subgroup sizes are powers of two up to 64.
//   - Cooperative matrices (Subgroup scope): each invocation holds
//     n = ceil(R*C/S) elements (OpCooperativeMatrixLength) of an R x C
//     matrix; element (r, c), at row-major index e = r*C + c, belongs to
//     the invocation with subgroup lane floor(e / n) at position e mod n
//     of its value, so every invocation holds a run of consecutive
//     elements. The layout depends only on the shape, so conversions keep
//     elements in place. A constant element index beyond an invocation's
//     share reads 0 and writes nothing.
//   - OpCooperativeMatrixMulAdd forms every product exactly and adds it to
//     the accumulator in increasing k, starting from C, rounding to the
//     result type after each addition (with 16-bit or narrower float inputs
//     and a float32 result this is float32 arithmetic). Integer products
//     and sums wrap at the result width; with SaturatingAccumulation the
//     sum of products is exact and its addition to C saturates.
//   - There is no "optimal" cooperative matrix layout: only RowMajor and
//     ColumnMajor are accepted.
//   - Workgroup-scope cooperative matrices (SPV_NV_cooperative_matrix2)
//     spread elements over the whole workgroup the same way, with S the
//     workgroup size and LocalInvocationIndex the lane. Reductions call
//     the module's combine function left to right: along a row in
//     increasing column, along a column in increasing row, over a whole
//     matrix in row-major order, over a 2x2 block in the order the
//     specification lists. Per-element and decode functions are called once
//     per element on the invocation that owns it. Tensor layouts and views
//     follow the specification's addressing functions exactly; an element
//     outside the tensor in clamp mode Undefined is addressed as computed
//     (and faults if that is outside the buffer).
//   - Cooperative vectors (SPV_NV_cooperative_vector) are per-invocation
//     vectors. Matrix-vector products start from the bias (or zero) and add
//     each exactly formed product in increasing k, rounding to the result
//     type after each addition; integer results wrap. The optimal matrix
//     layouts are row-major with tightly packed rows (a transposed matrix
//     is stored K x M); MatrixStride applies to RowMajor and ColumnMajor
//     only. Input conversions saturate and round to nearest even.
//   - Compute derivatives (DerivativeGroupQuads/Linear) gather the whole
//     workgroup, so here they need workgroup-uniform control flow; the
//     unsuffixed derivatives are the coarse ones.
//   - A split barrier's OpControlBarrierArriveEXT does nothing and its
//     OpControlBarrierWaitEXT acts as a whole control barrier (every
//     invocation that waits has arrived before). OpAbortKHR is a fault
//     naming the invocation, with its message formatted as DebugPrintf
//     formats.
//   - DebugPrintf output is one line per call prefixed by the global
//     invocation id; lines of different workgroups interleave in no fixed
//     order.
//
// # Faults
//
// Faults are *Error values naming the instruction (index in the module,
// opcode, result id, and its text when Options.Describe is set), the
// invocation's global id and, for memory faults, the address. Nothing a
// shader does can crash or hang the host: a step budget per invocation
// (Options.StepBudget) stops runaway loops, and a panic inside the
// executor becomes an internal Error naming the instruction.
package exec
