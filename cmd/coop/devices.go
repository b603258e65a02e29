package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/vk"
)

func init() {
	commands["devices"] = command{"list Vulkan devices with their cooperative-matrix and cooperative-vector support", runDevices}
}

func runDevices(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("coop devices", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: coop devices\n\nLists each Vulkan device with its cooperative-matrix shapes and types and\nits cooperative-vector properties. The CPU executor is always available.")
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	fmt.Fprintln(stdout, "cpu: coop reference executor (always available)")
	ds, err := vk.Devices()
	if errors.Is(err, backend.ErrUnavailable) {
		fmt.Fprintf(stdout, "vulkan: %v\n", err)
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "coop devices: %v\n", err)
		return 1
	}
	if err := vk.FormatDevices(stdout, ds); err != nil {
		fmt.Fprintf(stderr, "coop devices: %v\n", err)
		return 1
	}
	return 0
}
