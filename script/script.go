// Package script parses and runs coop test scripts: the compute subset of
// Google's Amber format (the Vulkan CTS's), plus extensions for
// cooperative-matrix tests. A script is parsed once and runs on any
// backend.Device, or on two devices whose buffers are then compared.
// docs/SCRIPT.md describes the format and each difference from Amber.
package script

import (
	"fmt"

	"github.com/coopshader/coop/backend"
)

// Script is a parsed test script.
type Script struct {
	Name       string
	Shaders    map[string]*Shader
	Buffers    []*Buffer
	Pipelines  map[string]*Pipeline
	Samplers   []*Sampler
	Commands   []Command // RUN, COPY and EXPECT in execution order (REPEAT unrolled)
	Features   []string  // DEVICE_FEATURE names
	Extensions []string  // DEVICE_EXTENSION and INSTANCE_EXTENSION names
}

// Buffer returns the buffer called name, or nil.
func (s *Script) Buffer(name string) *Buffer {
	for _, b := range s.Buffers {
		if b.Name == name {
			return b
		}
	}
	return nil
}

// Sampler returns the sampler called name, or nil.
func (s *Script) Sampler(name string) *Sampler {
	for _, m := range s.Samplers {
		if m.Name == name {
			return m
		}
	}
	return nil
}

// Sampler is a SAMPLER command.
type Sampler struct {
	Name string
	Desc backend.SamplerDesc
	Line int
}

// Shader is a SHADER command.
type Shader struct {
	Name   string
	Format string // GLSL, SPIRV-ASM, SPIRV-HEX or SPIRV-BIN
	Source []byte // GLSL or SPIR-V assembly text
	Words  []uint32
	Path   string // file the source came from: the script for inline shaders
	Line   int    // line of the SHADER command
	// FirstLine is the script line an inline source starts on (0 for a
	// FILE), so a compiler can report script lines.
	FirstLine int
	TargetEnv string   // TARGET_ENV, empty for the caller's default
	Defines   []string // DEFINE NAME[=VALUE] (extension)
}

// Buffer is a BUFFER command with its initial contents.
type Buffer struct {
	Name string
	Type DataType
	// N is the number of scalar components.
	N    int
	Line int
	// data holds the initial contents of DATA and FILE buffers as laid
	// out in memory; gen computes FILL, SERIES_FROM and RANDOM contents
	// when they are written to a device, so a large buffer costs the
	// script no memory. With neither, the buffer starts zeroed.
	data []byte
	gen  *generator
	// Address is set when some pipeline takes the buffer's device address.
	Address bool
	// Host (BUFFER ... HOST) asks for memory the host maps
	// (backend.UsageHost): on a GPU, host-visible memory the shader
	// reaches over the bus, instead of device-local memory with staging
	// copies.
	Host bool
	// Image describes an IMAGE (nil for a buffer): its values are its
	// texels in the image's memory order (backend.ImageDesc).
	Image *backend.ImageDesc
}

// Size is the buffer's size in bytes.
func (b *Buffer) Size() int { return b.Type.byteSize(b.N) }

// Bind attaches a buffer, an image or a sampler to a pipeline.
type Bind struct {
	Buffer string
	// As is storage, uniform, push_constant, storage_image,
	// sampled_image, combined_image_sampler, uniform_texel_buffer,
	// storage_texel_buffer, or sampler (BIND SAMPLER, Buffer empty).
	As           string
	Sampler      string // combined_image_sampler and sampler
	Set, Binding uint32
	ArrayElement uint32 // index in a BUFFER_ARRAY or SAMPLER_ARRAY
	BaseLevel    uint32 // BASE_MIP_LEVEL of an image
	Line         int
}

// AddressBind writes the 64-bit device address of Buffer into Into at
// byte Offset before each RUN (BIND BUFFER_ADDRESS, an extension).
type AddressBind struct {
	Buffer, Into string
	Offset       int
	Line         int
}

// Pipeline is a compute PIPELINE (or DERIVE_PIPELINE) block.
type Pipeline struct {
	Name      string
	Shader    string
	Entry     string
	Spec      map[uint32][]byte // SPECIALIZE values by SpecId, encoded
	Binds     []Bind
	Addresses []AddressBind
	Subgroup  uint32 // required subgroup size, 0 for the device default
	Line      int
}

// Command is a *RunCmd, a *Copy, a *ConvertMatrix or an *Expect.
type Command interface{ line() int }

// RunCmd is RUN [TIMED_EXECUTION] <pipeline> x y z.
type RunCmd struct {
	Pipeline string
	Groups   [3]uint32
	Timed    bool
	Line     int
}

// Copy is COPY <from> TO <to>.
type Copy struct {
	From, To string
	Line     int
}

// ConvertMatrix is a CONVERT_MATRIX command: a cooperative-vector matrix
// copied from one buffer to another, converted between layouts by the
// device (backend.MatrixConverter).
type ConvertMatrix struct {
	From, To             string
	Rows, Cols           int
	Type                 string // component type, profile spelling (float16, float32, sint8, ...)
	SrcLayout, DstLayout backend.MatrixLayout
	SrcStride, DstStride int
	Line                 int
}

// Opaque returns the last CONVERT_MATRIX that gives buffer name a matrix
// in a device's own optimal layout (DST_LAYOUT *_optimal), nil when none:
// such bytes mean something to that device only, so two devices' are
// compared after each converts them back to row-major.
func (s *Script) Opaque(name string) *ConvertMatrix {
	var last *ConvertMatrix
	for _, c := range s.Commands {
		if m, ok := c.(*ConvertMatrix); ok && m.To == name && m.DstLayout.Optimal() {
			last = m
		}
	}
	return last
}

// Expect is one EXPECT command.
type Expect struct {
	Line   int
	Text   string // the command as written
	Buffer string
	Mode   string // IDX, EQ_BUFFER, RMSE_BUFFER or EQ_MATMUL
	// IDX: the comparator (EQ, NE, LT, LE, GT, GE), the byte offset, the
	// first scalar component it names and the expected values.
	Op     string
	Offset int
	Start  int
	Values []Value
	Other  string // EQ_BUFFER and RMSE_BUFFER
	// Tol holds the tolerance for each component of an element (Amber's
	// TOLERANCE takes up to four values); the last one serves the rest.
	// Empty means exact.
	Tol    []Tolerance
	RMSE   float64
	Matmul *Matmul
	// Probe is an image probe: IDX x y [SIZE w h] EQ_RGB|EQ_RGBA.
	Probe *Probe
}

// Probe checks a rectangle of an image's level 0 (layer 0, sample 0)
// as Amber's image probes do: each component the format has (alpha only
// for EQ_RGBA), UNORM and SNORM ones normalized, must be within the
// tolerance (0.002 by default) of the expected value, given as 0-255 and
// divided by 255.
type Probe struct {
	X, Y, W, H int
	RGBA       bool
	Want       [4]float64
}

// Tolerance is how far a value may be from the expected one: Abs, Rel (a
// fraction of the expected value) or ULP units in the last place of the
// buffer's type. A value passes if any nonzero bound holds.
type Tolerance struct {
	Abs, Rel float64
	ULP      int
}

// Matmul describes EXPECT C EQ_MATMUL A B: C = A x B (+ Add) for M x K A,
// K x N B and M x N C, computed in float64 (int64 when every operand is an
// integer type).
type Matmul struct {
	A, B, Add string
	M, N, K   int
	Batch     int // matrices per buffer, consecutive (1 by default)
	// Trans* store an operand column-major (its transpose row-major);
	// Stride* are the distances between stored rows in elements, 0 for
	// tightly packed. The addend uses C's layout.
	TransA, TransB, TransC    bool
	StrideA, StrideB, StrideC int
	Saturate                  bool // integer results saturate instead of wrapping
	Sample                    int  // check this many spread elements (0: all)
}

// Flops is the number of floating-point (or integer) operations of the
// product, 2*M*N*K per matrix.
func (m *Matmul) Flops() float64 {
	return 2 * float64(m.M) * float64(m.N) * float64(m.K) * float64(m.Batch)
}

func (r *RunCmd) line() int        { return r.Line }
func (c *Copy) line() int          { return c.Line }
func (c *ConvertMatrix) line() int { return c.Line }
func (e *Expect) line() int        { return e.Line }

// Error is a script error at a line.
type Error struct {
	File string
	Line int
	Msg  string
	Err  error // the cause, when a device's error (a cancelled dispatch, say)
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

func (e *Error) Unwrap() error { return e.Err }
