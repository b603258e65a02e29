// Command coop-vulkan is coop with the Vulkan backend (package vk, which
// loads the system's Vulkan loader through purego): the same commands,
// with --backend vulkan and both, --compare with vulkan, devices and
// gpucheck. coop hands such command lines to it; it can be run directly
// too. It never hands a command on.
package main

import (
	"io"
	"os"

	"github.com/coopshader/coop/internal/cli"
	"github.com/coopshader/coop/profile"
	"github.com/coopshader/coop/vk"
)

func main() {
	cli.SetVulkan(vulkan{})
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}

// vulkan is package vk as cli.Vulkan.
type vulkan struct{}

func (vulkan) Open(index int, o cli.OpenOptions) (cli.GPU, error) {
	if o.DispatchTimeout > 0 {
		vk.DispatchTimeout = o.DispatchTimeout
	}
	open := vk.Open
	if o.Robust {
		open = vk.OpenRobust
	}
	d, err := open(index)
	if err != nil {
		return nil, err
	}
	return gpu{d}, nil
}

func (vulkan) Devices(w io.Writer) error {
	ds, err := vk.Devices()
	if err != nil {
		return err
	}
	return vk.FormatDevices(w, ds)
}

func (vulkan) Profiles(name string) ([]*profile.Profile, error) {
	ds, err := vk.Devices()
	if err != nil {
		return nil, err
	}
	var ps []*profile.Profile
	for _, d := range ds {
		n := name
		if n == "" {
			n = d.Name
		}
		ps = append(ps, d.Profile(n))
	}
	return ps, nil
}

// gpu is a vk.Device as cli.GPU; embedding keeps the device's other
// methods (Trust, CheckModule, timing) visible to the packages that look
// for them.
type gpu struct{ *vk.Device }

func (g gpu) SubgroupSize() int { return int(g.Info().SubgroupSize) }
