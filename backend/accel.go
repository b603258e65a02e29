package backend

// AccelerationStructureKind is the descriptor kind of a ray-tracing
// acceleration structure: the binding's Accel is bound, not its Buffer.
// It is numbered apart from the buffer and image kinds, which count up
// from zero.
const AccelerationStructureKind DescriptorKind = 64

// AccelerationStructure is a top-level acceleration structure a shader
// reaches through a descriptor or its 64-bit device address
// (OpConvertUToAccelerationStructureKHR). How one is built belongs to the
// backend: the CPU executor builds them from a host-side description.
type AccelerationStructure interface {
	// Address is the 64-bit device address of the acceleration structure.
	Address() uint64
	// Release frees it now rather than when the device closes;
	// afterwards dispatches that bind it fail.
	Release()
}
