package check

import "github.com/coopshader/coop/glsl/syntax"

// LoopHints are the GL_EXT_control_flow_attributes (and
// GL_QCOM_multiple_wait_queues) attributes of a loop, as glslang records
// them; the code generator turns them into loop controls.
type LoopHints struct {
	Unroll, DontUnroll bool
	// Dependency is 0 when absent, -1 for dependency_infinite, else the
	// dependency_length.
	Dependency int64
	// The SPIR-V 1.4 counts; each is ignored at its default (0, or
	// MaxIterations 0xFFFFFFFF and IterationMultiple 1).
	MinIterations, MaxIterations, IterationMultiple, PeelCount, PartialCount uint32
	// WaitQueues is multiple_wait_queuesQCOM's count, -1 when absent.
	WaitQueues int64
}

// SelectionHints are flatten and dont_flatten (branch) on an if or switch.
type SelectionHints struct {
	Flatten, DontFlatten bool
}

// attrInt is the integer constant argument of an attribute taking one.
func (c *checker) attrInt(a *syntax.Attribute) (int64, bool) {
	if len(a.Args) != 1 {
		return 0, false
	}
	e := c.expr(a.Args[0])
	v := constOf(e)
	if v == nil || e.Type().Kind != KScalar || !e.Type().Scalar.IsInt() {
		return 0, false
	}
	return v.Int(), true
}

// loopHints reads a loop's attributes with glslang's rules: unknown ones
// and wrong argument counts are warnings; a dependency length below 1 and
// an iteration multiple of 0 are errors.
func (c *checker) loopHints(attrs []*syntax.Attribute) *LoopHints {
	c.attributes(attrs)
	if len(attrs) == 0 {
		return nil
	}
	h := &LoopHints{MaxIterations: 0xFFFFFFFF, IterationMultiple: 1, WaitQueues: -1}
	for _, a := range attrs {
		noArgs := func() bool {
			if len(a.Args) > 0 {
				c.warnf(a.Pos, a.Name, "expected no arguments")
				return false
			}
			return true
		}
		count := func(set *uint32, min int64, msg string) {
			v, ok := c.attrInt(a)
			switch {
			case !ok:
				c.warnf(a.Pos, a.Name, "expected a single integer argument")
			case v < min:
				c.errorf(a.Pos, a.Name, "%s", msg)
			default:
				*set = uint32(v)
			}
		}
		switch a.Name {
		case "unroll":
			h.Unroll = noArgs() || h.Unroll
		case "loop", "dont_unroll":
			h.DontUnroll = noArgs() || h.DontUnroll
		case "dependency_infinite":
			if noArgs() {
				h.Dependency = -1
			}
		case "dependency_length":
			v, ok := c.attrInt(a)
			switch {
			case !ok:
				c.warnf(a.Pos, a.Name, "expected a single integer argument")
			case v <= 0:
				c.errorf(a.Pos, a.Name, "must be positive")
			default:
				h.Dependency = v
			}
		case "min_iterations":
			count(&h.MinIterations, -1<<31, "")
		case "max_iterations":
			count(&h.MaxIterations, -1<<31, "")
		case "iteration_multiple":
			count(&h.IterationMultiple, 1, "must be greater than or equal to 1")
		case "peel_count":
			count(&h.PeelCount, -1<<31, "")
		case "partial_count":
			count(&h.PartialCount, -1<<31, "")
		case "multiple_wait_queuesQCOM":
			if len(a.Args) == 0 {
				h.WaitQueues = 0
				break
			}
			v, ok := c.attrInt(a)
			switch {
			case !ok:
				c.warnf(a.Pos, a.Name, "expected a single integer argument")
			case v <= 0:
				c.errorf(a.Pos, a.Name, "must be positive")
			default:
				h.WaitQueues = v
			}
		default:
			c.warnf(a.Pos, "", "attribute does not apply to a loop")
		}
	}
	return h
}

// selectionHints reads the attributes of an if or a switch.
func (c *checker) selectionHints(attrs []*syntax.Attribute, what string) SelectionHints {
	c.attributes(attrs)
	var h SelectionHints
	for _, a := range attrs {
		if len(a.Args) > 0 {
			c.warnf(a.Pos, "", "attribute with arguments not recognized, skipping")
			continue
		}
		switch a.Name {
		case "flatten":
			h.Flatten = true
		case "branch", "dont_flatten":
			h.DontFlatten = true
		default:
			c.warnf(a.Pos, "", "attribute does not apply to a %s", what)
		}
	}
	return h
}
