package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/coopshader/coop/backend"
)

func runDevices(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("coop devices", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "write each device's profile (package profile, the format of profile/data/*.json) instead of the listing")
	name := fs.String("name", "", "with --json: the profile's name (default: the device's name)")
	const help = "usage: coop devices [--json [--name NAME]]\n\nLists each Vulkan device with its cooperative-matrix shapes and types and\nits cooperative-vector properties. The CPU executor is always available.\nWith --json, writes one device profile (JSON) per device instead.\n\nflags:"
	rest, status, ok := parseFlags(fs, args, help, stdout, stderr)
	if !ok {
		return status
	}
	if len(rest) > 0 {
		return usageError(stderr, fs.Name(), help, "unexpected argument %q", rest[0])
	}
	if vulkan == nil {
		status, err := startVulkan(append([]string{"devices"}, args...))
		if err == nil {
			return status
		}
		if *asJSON {
			fmt.Fprintf(stderr, "coop devices: %v\n", err)
			return 1
		}
		// The listing's promise holds: the CPU is there, Vulkan is not.
		fmt.Fprintln(stdout, "cpu: coop reference executor (always available)")
		fmt.Fprintf(stdout, "vulkan: %v\n", err)
		return 0
	}
	if *asJSON {
		return devicesJSON(*name, stdout, stderr)
	}
	fmt.Fprintln(stdout, "cpu: coop reference executor (always available)")
	err := vulkan.Devices(stdout)
	if errors.Is(err, backend.ErrUnavailable) {
		fmt.Fprintf(stdout, "vulkan: %v\n", err)
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "coop devices: %v\n", err)
		return 1
	}
	return 0
}

// devicesJSON writes a profile per Vulkan device, one JSON document each;
// with one device the output is a profile file as profile.Open reads it.
func devicesJSON(name string, stdout, stderr io.Writer) int {
	ps, err := vulkan.Profiles(name)
	if err != nil {
		fmt.Fprintf(stderr, "coop devices: %v\n", err)
		return 1
	}
	for _, p := range ps {
		b, err := p.Marshal()
		if err != nil {
			fmt.Fprintf(stderr, "coop devices: %v\n", err)
			return 1
		}
		stdout.Write(b)
	}
	return 0
}
