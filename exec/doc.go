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
// Acceleration structures for ray queries are built from a host-side
// description (see "Acceleration structures and ray queries" below):
//
//	as, _ := dev.NewAccelerationStructure([]exec.Instance{{Transform: ..., Mask: 0xff,
//		Geometries: []exec.Geometry{{Opaque: true, Vertices: tris}}}})
//	b := backend.Binding{Binding: 1, Kind: backend.AccelerationStructureKind, Accel: as}
//
// Load prepares a module without running it and reports every instruction
// the executor does not implement (errors.Is(err, ErrUnsupported)). It
// relies on the validator for the module's validity: Load runs the
// validator's structural passes (validate.Options.StructureOnly), the
// checks a malformed module would otherwise need inside the loader;
// LoadValidated takes a module the caller validated and reuses the
// validator's function and block structure; Device.Trust does the same
// for dispatches of words the caller validated. What stays in the loader
// are the executor's own limits (ids, slots, memory, sizes) and guards on
// the operand shapes of instructions, which the structural passes leave to
// the instruction families.
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
// By default workgroups run one after another in workgroup index order
// (x fastest, then y, then z), so a dispatch gives the same bytes every
// run even when its workgroups race with each other or add floats
// atomically: the deterministic mode, coop run's. With Options.Parallel
// (coop bench's) they run at once on a pool of workers (Options.Workers),
// each workgroup on one worker: faster, but such shaders may then give
// different bytes from run to run, and their plain accesses to shared
// memory race in the Go sense too (go test -race flags them), since only
// atomics are synchronized. A worker takes runs of consecutive workgroups,
// and where a subgroup cannot span two of them (local size (n, m, 1) of
// whole subgroups) and no collective gathers more than a subgroup (only
// barriers and subgroup operations) it runs up to 1024 invocations of
// consecutive workgroups of a row as one, each workgroup with its own ids,
// workgroup memory and barriers, which is one more valid interleaving of
// them (faults and budgets as running them one after another in that
// order finds them). Within a
// workgroup, invocations are split into
// subgroups of Options.SubgroupSize (or Dispatch.SubgroupSize) in
// LocalInvocationIndex order. While the invocations of a subgroup are
// converged, it runs in lockstep: each instruction for all of them before
// the next, control flow decided once, and an instruction whose operands
// are the same in every invocation (a per-slot uniformity state: constants,
// push constants, subgroup-uniform built-ins and what is computed from
// them) computed once. This is one valid interleaving of the invocations
// (DebugPrintf lines and racing accesses may come in another order than
// one by one). The commonest instructions have handlers chosen at load
// time that run them for all the invocations in one call; values that
// vary between the invocations live meanwhile in per-slot rows of the
// subgroup (rows.go), so such an instruction is one loop over contiguous
// memory; values affine in LocalInvocationId (the ids, what integer sums
// and products with uniform values make of them, the access chains they
// index) are kept as that function, so a load or store through them
// checks its range of addresses once and copies runs of invocations
// (affine.go); a run of such address computations, each used once,
// ending in a load runs as that one load (fuse.go). A branch they
// do not agree on whose two sides are straight-line code meeting in one
// block runs masked: each side for the invocations that take it, then all
// go on together. A selection they do not agree on whose sides hold more
// (loops, nested branches, calls) but no collective instruction and no
// way out other than its merge block runs as a divergent region: each
// invocation taking a side, in order, runs it on its own up to the merge
// block, then all go on together in lockstep from there (a fault on a
// side is the one running the invocations one at a time finds: those
// before it run on from the merge first). Any other such branch ends
// lockstep. Otherwise the
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
// divergence. A subgroup that reaches a workgroup barrier in lockstep
// waits there still in lockstep and goes on in lockstep after it.
//
// A workgroup of several subgroups whose only collective instructions are
// control barriers and subgroup operations starts in lockstep as a whole,
// one row per slot over all its invocations: a barrier passes at once, a
// subgroup operation is performed for each subgroup in turn, a masked
// branch runs subgroup by subgroup, or, where only the last instruction
// of its one side touches memory, each instruction for the invocations
// of every subgroup at once (a fault then lets the subgroups before the
// faulting one run the rest of the side first). Where that would diverge, each
// subgroup takes its share of the state (slot states, rows as views,
// the leader's values) and goes on in its own lockstep. A fault there is
// reported as running the subgroups one after another finds it: the
// subgroups before the faulting one first run on until they finish or
// wait at a barrier, and a fault of theirs comes first.
//
// # Memory
//
// Pointers are 64-bit addresses: the top byte is a region kind (1 device
// buffer, 2 workgroup memory, 3 the invocation's own memory, 4 push
// constants, 5 an acceleration structure, which is no memory, 6 image
// descriptor memory, 7 a texel of a bound image, 8 a texel of an image
// reached through a descriptor heap), the next
// 16 bits a buffer (or image) number, the low 40 bits a byte offset. A buffer's Address is such a value (buffer n starts at
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
//   - Image, texel buffer and sampler descriptors are
//     OpaqueDescriptorSize (32) bytes: a little-endian uint64 handle
//     naming an object of the device by the number it gave it at
//     creation, then zeros (which the executor does not read). An image
//     descriptor's handle is 0x81 in its top byte, the view's base level
//     in bits 32-55 and the image's number in bits 0-31
//     (ImageDescriptor); a texel buffer's is 0x82, the backend.Format of
//     the view and the buffer's number (TexelBufferDescriptor); a
//     sampler's is 0x83 and the sampler's number (SamplerDescriptor). One
//     image descriptor serves sampled and storage uses alike. Vulkan reads
//     images from the resource heap and samplers from the sampler heap;
//     the executor reads either from either. There are no sampled image
//     descriptors in heaps: shaders combine a loaded image and sampler
//     with OpSampledImage (a sampled image loaded from a heap would be an
//     image handle, then a sampler handle). Loading a descriptor from a
//     heap checks it as binding one checks a binding: a null descriptor,
//     a handle of another kind, one that names no live object or a view
//     that does not fit the type loaded (format unless Unknown,
//     dimensionality, multisampling, numeric type, texel buffer or not)
//     is a fault naming the descriptor's address; so is
//     OpUntypedImageTexelPointerEXT on one. A texel pointer into a heap
//     texel buffer is the buffer's address of the texel.
//   - Acceleration structure and tensor descriptors are also
//     OpaqueDescriptorSize bytes; their contents are defined with the
//     executor's support for those types in heaps (loading one gives its
//     first 8 bytes).
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
//     float64 and rounded once); by default denormals are preserved; NaN results of
//     arithmetic are the positive quiet NaN (0x7e00, 0x7fc0, 0x7fc00000,
//     0x7ff8000000000000, E5M2 0x7e, E4M3 0x7f), while OpFNegate, FAbs,
//     copies and bitcasts keep the bits. GLSL.std.450 functions are
//     computed in float64 and rounded once (more accurate than required).
//     Fma of float32 is a float64 fused multiply-add rounded to float32.
//     Go may fuse a*b+c into one instruction (arm64, GOAMD64=v3), which
//     would make results depend on the machine; every product that feeds
//     a sum is wrapped in an explicit conversion, which forbids that
//     (math.FMA is used where fusing is meant).
//   - Float controls (SPV_KHR_float_controls) are honoured exactly, per
//     width (fenv.go): RoundingModeRTZ makes OpFAdd, OpFSub, OpFMul and
//     OpFDiv round toward zero (correctly: the float64 result's error
//     decides the direction where that result is itself representable)
//     and sets the default rounding of conversions to that width;
//     RoundingModeRTE restores the defaults; an FPRoundingMode decoration
//     overrides both. DenormFlushToZero flushes denormal operands and
//     results (keeping the sign) of arithmetic, OpDot, the matrix and
//     vector products, GLSL.std.450 functions and OpFConvert;
//     DenormPreserve keeps them (the default); SignedZeroInfNanPreserve
//     needs nothing, as signed zeros, infinities and NaNs are always
//     preserved. Bit-preserving instructions (copies, OpFNegate, OpSelect,
//     OpBitcast, constants) never flush or rewrite NaNs.
//   - A device profile (Options.Profile, coop run --profile) replaces the
//     defaults where the specifications leave the choice to the device,
//     below the execution modes: profile.Numerics.NaN gives the pattern of
//     every NaN result of those instructions (the H100: 0x7fffffff fp32,
//     0x7fff fp16 and bf16, whatever the operands' payloads);
//     FlushDenormals flushes denormal operands and results of arithmetic
//     of those widths, not conversions (the H100 flushes fp32 and keeps
//     denormals through conversions); NarrowingRounding sets the rounding
//     of undecorated narrowing conversions: "rtz", or "trunc", toward zero
//     with NaNs keeping their top bits (the H100's fp32 to bf16: a NaN whose
//     payload lies in the low 16 bits becomes infinity). With these, the
//     executor reproduces the H100 bit for bit on scripts/numerics_probe*.amber
//     except sqrt and division, which the H100 computes within Vulkan's
//     ULP bounds but not correctly rounded, and round trips through a
//     narrower type, which its driver folds away (devcheck.Deviations;
//     `--backend both` names such instructions when buffers differ).
//     Cooperative-matrix and cooperative-vector arithmetic keeps the
//     executor's defaults.
//   - Cooperative-vector matrices in the optimal layouts (inferencing and
//     training) are, in this executor, row-major with rows packed tightly
//     (MatrixStride ignored; a transposed one is stored K x M the same
//     way); Device.ConvertMatrix (a script's CONVERT_MATRIX) converts
//     between that and the row- and column-major layouts.
//   - The OCP microscaling types (SPV_EXT_ocp_microscaling_types) are
//     exact as package num defines them: FP4 E2M1 and FP6 E2M3/E3M2 have
//     neither infinities nor NaNs, so conversions to them round (to
//     nearest even, or as FPRoundingMode says), saturate to the largest
//     value (infinities too) and take NaN to +0; MXINT8 is a two's
//     complement integer times 2^-6, conversions to it saturate to the
//     symmetric range ±127/64 and take NaN to 0 (0x80 still reads as -2).
//     Each value takes a slot; in Function and Private memory a 4- or
//     6-bit value takes a byte. OpBitcast to or from vectors of them treats
//     the components as one little-endian bit stream, component 0 in the
//     lowest bits. OpBitcastExtractEXT reads bits past the end of the base
//     component (undefined in the specification) as zeros.
//   - 4-bit integers (SPV_INTEL_int4) take a slot each like other
//     integers. In memory a vector or cooperative matrix of them is packed
//     two to a byte in every storage class (component 2k in bits 0-3 of
//     byte k, 2k+1 in bits 4-7; a vector of odd count leaves the last high
//     half as it was), and a scalar one takes a byte, its value in bits
//     0-3. An access chain to one component of such a vector is refused:
//     outside Function and Private memory as invalid (a pair is the
//     smallest addressable unit), in them as unsupported. Instructions the
//     extension does not list (arithmetic, comparisons, atomics...) are
//     refused on types that are or hold 4-bit integers. Cooperative
//     matrix loads and stores read each row (column, column-major) as a
//     packed run from a multiple of the stride; the ARM blocked layouts
//     are not supported for them. Conversions to 4 bits truncate
//     (OpSConvert, OpUConvert) or saturate (OpSatConvert*, and from floats
//     as below).
//   - Float to integer conversions out of range saturate; NaN converts to 0.
//   - Integer division by zero gives all ones (UDiv), -1 (SDiv) and 0
//     (remainders); shifts use the amount modulo the width.
//   - Out-of-range OpVectorExtractDynamic gives 0; out-of-range dynamic
//     indices in access chains and out-of-bounds memory accesses fault.
//   - Reductions and scans (subgroup arithmetic, OpDot, matrix products)
//     accumulate in increasing lane or index order, rounding after each
//     step. The mixed-precision dot products of
//     SPV_VALVE_mixed_float_dot_product (OpFDot2MixAcc32VALVE,
//     OpFDot2MixAcc16VALVE, OpFDot4MixAcc32VALVE) form each product of
//     16- or 8-bit floats exactly and add it to the accumulator in
//     increasing component order, rounding to the result type after each
//     addition. Subgroup shuffles and broadcasts from an inactive lane give 0,
//     as SPV_AMD_shader_ballot's swizzles do by definition. The OpGroup*
//     instructions of the Groups capability act on the invocations that
//     arrive together, as their NonUniformAMD forms do (inactive ones
//     counting as the identity). Subgroup sizes are powers of two up to 64.
//   - Cooperative matrices (Subgroup scope): each invocation holds
//     n = ceil(R*C/S) elements (OpCooperativeMatrixLength) of an R x C
//     matrix; element (r, c), at row-major index e = r*C + c, belongs to
//     the invocation with subgroup lane floor(e / n) at position e mod n
//     of its value, so every invocation holds a run of consecutive
//     elements. The layout depends only on the shape, so conversions keep
//     elements in place. A constant element index beyond an invocation's
//     share reads 0 and writes nothing.
//   - SPV_QCOM_cooperative_matrix_conversion: OpCompositeConstructCoopMatQCOM
//     and OpCompositeExtractCoopMatQCOM gather the full subgroup. Subgroup
//     lane i supplies or receives row i (MatrixA, Accumulator) or column i
//     (MatrixB) of the whole matrix, which the invocations then hold by
//     the rule above; rows or columns beyond the subgroup are zero, and
//     lanes beyond the rows or columns receive zeros (the specification's
//     undefined values). Arrays reinterpreted (those instructions with
//     uint32 arrays, OpBitCastArrayQCOM) are little-endian bit streams,
//     element 0 lowest; mismatched sizes take the leading bits and fill
//     with zeros, and OpExtractSubArrayQCOM reads zeros past the end.
//   - OpCooperativeMatrixMulAdd forms every product exactly and adds it to
//     the accumulator in increasing k, starting from C, rounding to the
//     result type after each addition (with 16-bit or narrower float inputs
//     and a float32 result this is float32 arithmetic). Integer products
//     and sums wrap at the result width; with SaturatingAccumulation the
//     sum of products is exact and its addition to C saturates.
//   - There is no "optimal" cooperative matrix layout: RowMajor,
//     ColumnMajor and the ARM blocked layouts (RowBlockedInterleavedARM,
//     ColumnBlockedInterleavedARM, addressed as
//     SPV_ARM_cooperative_matrix_layouts describes) are accepted.
//   - Tensors (SPV_ARM_tensors) are bound with backend.StorageTensor: a
//     buffer and a backend.TensorDescription (format, dimensions, byte
//     strides) that must fit the buffer and the tensor's type. Coordinates
//     are signed or unsigned as their type is. A read or write of n
//     elements covers the n innermost coordinates c, c+1, ... (computed
//     without wrapping); each element is in or out of bounds on its own
//     (no spill into the next row). Out-of-bounds reads give the
//     OutOfBoundsValueARM operand, or zero without it; out-of-bounds
//     writes are dropped (Vulkan's robust tensor access). A bool element
//     is one byte, nonzero for true, written as 0 or 1. Nontemporal and
//     the memory-model operands (MakeElementAvailable/Visible,
//     NonPrivateElement) change nothing: every access goes straight to
//     memory.
//   - Workgroup-scope cooperative matrices (SPV_NV_cooperative_matrix2)
//     spread elements over the whole workgroup the same way, with S the
//     workgroup size and LocalInvocationIndex the lane. Reductions call
//     the module's combine function left to right: along a row in
//     increasing column, along a column in increasing row, over a whole
//     matrix in row-major order, over a 2x2 block in the order the
//     specification lists. Per-element and decode functions are called once
//     per element on the invocation that owns it, each invocation's
//     elements in increasing order; a decode function without side
//     effects (one block, no stores but of whole Function variables
//     before their use, no atomics or output) may run for the elements
//     of different invocations interleaved, which nothing observes; a
//     fault is still the one the calls in element order meet first. A decode function's
//     pointer is the block's address, blocks being the size of the scalar
//     decode function's pointee. With a decode vector function
//     (SPV_NV_cooperative_matrix_decode_vector) of V components, every
//     group of V elements the specification lets it cover (same block,
//     same coordinates but in the last dimension, where they run over V
//     values from a multiple of V; the block size there a multiple of V;
//     no two elements clamped onto one) is decoded by it, once, on the
//     invocation owning the group's first element; the other elements by
//     the scalar function. Since a GPU may call either, the scalar
//     function is also called for every element a vector call covered,
//     and any difference (other than NaN against NaN) is a fault naming
//     the element: a shader whose two decode functions disagree has no
//     defined result. Tensor layouts and views
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
//     unsuffixed derivatives are the coarse ones. In a module with neither
//     execution mode (glslang's output for GL_NV_compute_shader_derivatives
//     without a derivative_group layout) every derivative is zero, as that
//     extension specifies.
//   - A split barrier's OpControlBarrierArriveEXT does nothing and its
//     OpControlBarrierWaitEXT acts as a whole control barrier (every
//     invocation that waits has arrived before). OpAbortKHR is a fault
//     naming the invocation, with its message formatted as DebugPrintf
//     formats.
//   - DebugPrintf output is one line per call prefixed by the global
//     invocation id; lines of different workgroups interleave in no fixed
//     order.
//
// # Acceleration structures and ray queries
//
// A GPU's acceleration-structure format is its own; here a top-level
// acceleration structure is the exact description Device.NewAccelerationStructure
// copies: a list of instances (a 3x4 object-to-world transform, which must be
// invertible, a 24-bit custom index, an 8-bit mask, a 24-bit SBT offset,
// VkGeometryInstanceFlagBitsKHR flags) each with geometries of triangles
// (vertex positions, optional indices, an opaque flag) or of AABBs. Its
// address (region kind 5, its number) reaches shaders through
// OpConvertUToAccelerationStructureKHR (a uint64, or a uvec2 low word
// first) or an acceleration-structure descriptor (Binding.Kind
// backend.AccelerationStructureKind). An unbound descriptor and the
// address 0 are an empty scene; any other address that names no live
// acceleration structure faults at OpRayQueryInitializeKHR.
//
// There is no hierarchy: OpRayQueryProceedKHR visits the instances in
// order (skipping those whose mask shares no bit with the ray's cull
// mask), within an instance its geometries in order, within a geometry
// its primitives in order. The ray is moved into the instance's space
// with the inverse transform (computed in float64 from the float32
// matrix, rounded once per element); each component of the object-space
// origin and direction is a float64 sum of exact products rounded once to
// float32. Opaque triangles are committed on the way when their t is below
// the current t max (which each commit lowers to its t; an equal t is
// dropped), non-opaque triangles and every AABB stop the traversal as the
// candidate (Proceed returns true). Opacity, facing, primitive and mask
// culling and TerminateOnFirstHit (the traversal ends at the first commit,
// automatic, confirmed or generated) follow the Vulkan ray traversal
// chapter.
//
// Triangles use the watertight test of Woop, Benthin and Wald (2013) in
// float32, every operation rounded (never fused): the axis kz of the
// direction's largest magnitude (the first of equals) and the two after it
// (swapped when d[kz] < 0), the shear Sx = d[kx]/d[kz], Sy = d[ky]/d[kz],
// Sz = 1/d[kz], the vertices relative to the origin sheared to (x, y, z),
// the edge functions U = x2*y1 - y2*x1, V = x0*y2 - y0*x2,
// W = x1*y0 - y1*x0 (recomputed exactly in float64 when float32 gives 0),
// a miss when they have mixed signs, det = (U+V)+W (a miss when 0),
// t = ((U*z0 + V*z1) + W*z2) / det and barycentrics (V/det, W/det). When
// the ray passes exactly through an edge (an edge function is 0) the
// triangle takes the hit only if it owns the edge: directed as its winding
// runs, reversed when det < 0, the edge points to +y, or to -x when
// horizontal in the sheared plane; so a ray through an edge or vertex
// shared within a closed fan hits exactly one triangle. A hit needs
// t min < t < t max. The intersection is front-facing when det > 0 (the
// vertices run counterclockwise seen from the ray), reversed by
// TriangleFlipFacing. Triangles with NaN coordinates never hit; nor does
// anything for a zero direction.
//
// AABBs use the slab test in float64 on the object-space ray: the entry t
// is the largest, the exit the smallest of the per-axis bounds (an axis
// where the direction is 0 admits every t or none); a candidate when
// [entry, exit] meets [t min, t max], bounds included. The t of an AABB
// candidate is that entry, raised to t min, rounded to float32. An AABB
// whose minimum x is NaN is inactive.
//
// A ray query variable's 8 bytes of memory hold the number of its state.
// Queries about an intersection that does not exist (no candidate,
// committed type None) give zeros; barycentrics and front face are zero
// for AABB candidates and generated intersections;
// OpRayQueryGetIntersectionCandidateAABBOpaqueKHR is false unless the
// candidate is an AABB. OpRayQueryGetIntersectionTriangleVertexPositionsKHR
// gives the object-space vertices as built. Confirming and generating
// still commit the last candidate after OpRayQueryTerminateKHR. These
// fault, naming the instruction: using a ray query before initializing it,
// OpRayQueryInitializeKHR with operands the Vulkan environment forbids
// (non-finite origin or direction, t min or t max negative or NaN,
// t min > t max, mutually exclusive ray flags), confirming without a
// triangle candidate, generating without an AABB candidate or with Hit T
// outside [t min, committed t]. There are no micromaps: the
// opacity-micromap ray flag and execution mode change nothing, and
// OpFetchMicroTriangleVertexPositionNV and
// OpFetchMicroTriangleVertexBarycentricNV fault as not supported.
//
// # Images
//
// Images (backend.ImageDesc) are host memory laid out tightly, level by
// level, layer by layer. Variables of image, sampler and sampled image
// type, and arrays and runtime arrays of them, in UniformConstant (or
// TileAttachmentQCOM) hold handles: loading one reads its element of the
// dispatch's descriptor memory, filled from the image, sampler and texel
// buffer bindings at its set and binding (bindings of buffer kinds there
// go to buffer variables). A binding whose kind, format (unless the shader
// says Unknown), dimensionality, multisampling or numeric type does not
// fit the variable's type is refused before the dispatch runs; using a
// descriptor that was not bound is a fault. A view shows the image from
// its BaseLevel on; a non-arrayed view shows layer 0 (a cube, layers 0-5).
//
// Choices where Vulkan leaves room:
//
//   - Out-of-bounds accesses behave as with robustImageAccess2: reads and
//     fetches (coordinates, level or sample outside the view) return a
//     zero texel converted as the format converts (so a format without
//     alpha reads alpha 1), writes are dropped, and OpImageTexelPointer
//     outside the image gives a pointer to a null texel: atomics there
//     return 0 and change nothing. OpImageQuerySizeLod of a level the view
//     lacks returns zeros.
//   - Format conversions are exact: UNORM and SNORM reads are
//     c/(2^b-1) and max(c/(2^(b-1)-1), -1) correctly rounded to float32;
//     writes clamp (NaN to 0), scale and round to nearest, ties to even.
//     16-bit floats round to nearest even; the unsigned 11- and 10-bit
//     floats take negatives to 0, finite values too large to the largest
//     finite one, and keep +inf and NaN. Integer writes keep the low bits
//     of each component.
//   - Sampling computes texel-space coordinates in float64 (exactly).
//     Linear filtering rounds each weight α to a multiple of 1/256 (8
//     subtexel bits, ties up), multiplies exactly, and sums the texels in
//     float64 in the order i, then j, then k fastest first, skipping zero
//     weights (so a texel that does not count cannot spread a NaN);
//     linear mipmapping blends two levels with the exact fraction δ; the
//     result is rounded to the result type once. maxSamplerLodBias is 16.
//     Integer formats are always filtered nearest from the nearest level.
//   - Cube maps pick the major axis z, then y, then x on ties, and clamp
//     linear footprints to the face's edge: there is no seamless
//     filtering across faces (Vulkan requires it; texels at face edges
//     differ from a GPU's).
//   - Implicit level of detail (and OpImageQueryLod) needs a
//     DerivativeGroupQuadsKHR or DerivativeGroupLinearKHR execution mode:
//     the derivatives are the coarse ones over the invocation's quad, so,
//     as for OpDPdx, the whole workgroup must reach the instruction
//     together. ρ is the larger of the x and y derivative lengths in texels
//     (isotropic). OpImageQueryLod returns (λ clamped to the view's levels,
//     λ' before the sampler's LOD clamps).
//   - Depth comparisons use the sampler's CompareOp (a sampler without
//     Compare is a fault) and clamp the reference to [0, 1] for UNORM
//     formats; with linear filtering the comparison results are filtered.
//     Gathers read the view's base level.
//   - Sparse instructions find every texel resident: the residency code is
//     0, and OpImageSparseTexelsResident is true for it.
//   - Memory is coherent, so MakeTexelAvailable, MakeTexelVisible,
//     NonPrivateTexel, VolatileTexel and Nontemporal change nothing.
//   - Tile shading (SPV_QCOM_tile_shading) has no render pass here: a
//     TileShadingRateQCOM shader runs as one per-tile dispatch over a
//     16x16 tile at offset (0, 0) without apron, its workgroup the tile
//     divided by the rate (rounded up, at least 1 per axis); the dispatch's
//     group counts still apply. TileOffsetQCOM is (0, 0),
//     TileDimensionQCOM (16, 16, 1), TileApronSizeQCOM (0, 0).
//
// # Checking for undefined behaviour
//
// With Options.Check (coop run --check) the executor reports, as faults
// naming both invocations and instructions, reads of workgroup memory no
// invocation of the workgroup wrote (and no initializer set) and data
// races: two invocations accessing a byte of workgroup or storage memory,
// one writing, with no control barrier between (invocations of different
// workgroups are never ordered). Atomics never race; cooperative matrix,
// vector and tensor loads and stores are not checked. It runs invocations
// one by one and workgroups in order, without the fast paths; storage
// memory is shadowed per byte touched. A decode function that writes
// workgroup or storage memory is reported too. The cooperative
// specifications' out-of-bounds load rules are not checked yet.
//
// # Faults
//
// Faults are *Error values naming the instruction (index in the module,
// opcode, result id, and its text when Options.Describe is set), the
// invocation's global id and, for memory faults, the address; and the
// shader source's file:line (Error.Source) where the module has OpLine
// information (coop compile -g, glslangValidator -g; coop run compiles
// GLSL with it). Nothing a
// shader does can crash or hang the host: a step budget per invocation
// (Options.StepBudget) stops runaway loops, a work budget per dispatch
// (DefaultWorkBudget instructions of all invocations together, replaced
// by Options.WorkBudget or backend.Dispatch.WorkBudget; negative for none)
// stops a dispatch sized by mistake, at once when its invocations alone
// exceed it, and a panic inside the executor becomes an internal Error
// naming the instruction. Lockstep charges both budgets as running the
// invocations one at a time does: each invocation spends a step for every
// instruction it runs and the work of that instruction (on a masked
// branch, those of its own side and the branch to where the sides meet),
// whether the instruction ran once, on rows or in each invocation. The
// steps spent alike are counted once and given to every invocation when
// lockstep ends or its invocations are charged unevenly (a masked
// branch, an instruction with work of its own, a collective's share);
// where an invocation would run out of steps in lockstep (before an
// instruction, a masked branch or an instruction's work), lockstep ends
// there and the invocations run on one at a time. So a runaway loop
// stops at the same instruction of the same invocation, and a dispatch
// spends the same work, in lockstep (of a subgroup or a whole workgroup)
// and one invocation at a time. Workgroup and invocation counts are multiplied
// in 64 bits: a count that does not fit is an error, never a wrapped
// (empty) dispatch. Dispatch.Context cancels a dispatch between
// instructions.
package exec
