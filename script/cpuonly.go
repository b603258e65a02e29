package script

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/coopshader/coop/backend"
)

// refusedModule returns the refusal of the first module (by pipeline
// name) that device d says no device of its backend can run.
func refusedModule(d backend.Device, code map[string][]uint32) error {
	mc, ok := d.(backend.ModuleChecker)
	if !ok {
		return nil
	}
	names := make([]string, 0, len(code))
	for n := range code {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if err := mc.CheckModule(code[n]); errors.Is(err, backend.ErrNoDeviceSupport) {
			return fmt.Errorf("pipeline %s: %w", n, err)
		}
	}
	return nil
}

// compareOrRunOne runs s on the other device alone when one of the two
// can never run its modules (4-bit integers on Vulkan), with a note
// saying so; one is false when both can run it.
func compareOrRunOne(ctx context.Context, s *Script, a, b backend.Device, code map[string][]uint32, opts RunOptions) (rep *Report, one bool, err error) {
	for _, p := range [][2]backend.Device{{b, a}, {a, b}} {
		why := refusedModule(p[0], code)
		if why == nil {
			continue
		}
		rep, err = Run(ctx, s, p[1], opts)
		if rep != nil {
			rep.Notes = append(rep.Notes, fmt.Sprintf("runs on %s only, not on %s: %v", p[1].Name(), p[0].Name(), why))
		}
		return rep, true, err
	}
	return nil, false, nil
}
