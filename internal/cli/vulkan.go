package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/profile"
)

// Vulkan is the Vulkan backend as the commands use it. cmd/coop-vulkan
// sets it; cmd/coop does not, so purego is not linked in and coop starts
// as a static binary: a runtime started in cgo mode costs about a
// millisecond a process, which `coop val` in a build would pay per module.
// Without it, a command that needs Vulkan hands its command line to
// coop-vulkan (handOff).
type Vulkan interface {
	// Open opens device index, as Devices lists them.
	Open(index int, o OpenOptions) (GPU, error)
	// Devices writes the listing of `coop devices`, or returns an error
	// (wrapping backend.ErrUnavailable where there is no Vulkan) having
	// written nothing.
	Devices(w io.Writer) error
	// Profiles returns each device's profile, named name (the device's
	// own name when name is empty).
	Profiles(name string) ([]*profile.Profile, error)
}

// OpenOptions are the choices of Vulkan.Open.
type OpenOptions struct {
	// Robust enables robust buffer access, for untrusted shaders.
	Robust bool
	// DispatchTimeout bounds each dispatch; 0 keeps the backend's.
	DispatchTimeout time.Duration
}

// GPU is an opened Vulkan device.
type GPU interface {
	backend.Device
	Close() error
	// Profile is the device as the driver describes it.
	Profile() *profile.Profile
	SubgroupSize() int
}

var vulkan Vulkan

// SetVulkan registers the Vulkan backend; cmd/coop-vulkan calls it before
// Main.
func SetVulkan(v Vulkan) { vulkan = v }

// VulkanBinary is the program that runs the commands needing Vulkan for a
// coop binary without it.
const VulkanBinary = "coop-vulkan"

// handedOff is set in the environment of coop-vulkan when coop starts it,
// so a program under that name that hands the command back (a copy of
// coop) is an error, not a loop.
const handedOff = "COOP_HANDED_OFF"

// startVulkan runs args (a command line without the program name) with
// coop-vulkan and returns its exit status, or an error when coop-vulkan
// cannot be found or started. On unix it replaces this process, so it
// returns only with an error. Tests stand in for it.
var startVulkan = func(args []string) (int, error) {
	if os.Getenv(handedOff) != "" {
		return 0, fmt.Errorf("%s handed the command back: the program by that name is not coop's Vulkan build", VulkanBinary)
	}
	path, err := findVulkan()
	if err != nil {
		return 0, err
	}
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, handedOff+"=") })
	return execVulkan(path, args, append(env, handedOff+"=1"))
}

// findVulkan looks for coop-vulkan next to this program (where go install
// puts both), then on PATH.
func findVulkan() (string, error) {
	name := VulkanBinary
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	self, err := os.Executable()
	if err == nil {
		p := filepath.Join(filepath.Dir(self), name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	where := "not on PATH"
	if self != "" {
		where = "neither next to " + self + " nor on PATH"
	}
	return "", errors.New(VulkanBinary + " (coop's commands with the Vulkan backend) is " + where +
		"; install it with `go install github.com/coopshader/coop/cmd/coop-vulkan@latest`, or with `go install ./cmd/coop-vulkan` from a checkout")
}

// handOff runs command cmd with args on coop-vulkan, reporting on stderr
// when it cannot.
func handOff(cmd string, args []string, stderr io.Writer) int {
	status, err := startVulkan(append([]string{cmd}, args...))
	if err != nil {
		fmt.Fprintf(stderr, "coop %s: this needs Vulkan: %v\n", cmd, err)
		return 1
	}
	return status
}
