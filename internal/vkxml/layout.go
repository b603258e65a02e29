package vkxml

import (
	"fmt"
	"strconv"
	"strings"
)

// Scalar is a C scalar's Go type, size and alignment on 64-bit Linux.
type Scalar struct {
	GoT         string
	Size, Align int
}

// Scalars are the C scalar types the registry uses.
var Scalars = map[string]Scalar{
	"char": {"byte", 1, 1}, "uint8_t": {"uint8", 1, 1}, "int8_t": {"int8", 1, 1},
	"uint16_t": {"uint16", 2, 2}, "int16_t": {"int16", 2, 2},
	"uint32_t": {"uint32", 4, 4}, "int32_t": {"int32", 4, 4}, "int": {"int32", 4, 4}, "float": {"float32", 4, 4},
	"uint64_t": {"uint64", 8, 8}, "int64_t": {"int64", 8, 8}, "double": {"float64", 8, 8}, "size_t": {"uintptr", 8, 8},
}

// Layout is a Go type with the size and alignment of its C counterpart.
type Layout struct {
	GoT         string
	Size, Align int
}

// Field is a structure member as Go declares it, at its C offset.
type Field struct {
	Name   string
	GoT    string
	Offset int
	Size   int
}

// Emitter collects the types a generated file declares: structures in
// dependency order, the named scalar types they use, the sType values
// they carry and the API constants their arrays are sized by.
type Emitter struct {
	*Index
	// NamedUnions makes a union of one alignment unit (a device or host
	// address) a named integer type; otherwise a union is an array of its
	// alignment unit with its size, which readers reinterpret (Go has no
	// unions).
	NamedUnions bool

	structs   []string // structures to declare, in dependency order
	named     map[string]string
	namedList []string // Vk names of the named scalar types, in first-use order
	sTypes    []string // sType values of the structures
	arrConsts map[string]bool

	seen map[string]bool
}

// NewEmitter starts an empty set of declarations over x.
func NewEmitter(x *Index) *Emitter {
	return &Emitter{Index: x, named: map[string]string{}, arrConsts: map[string]bool{}, seen: map[string]bool{}}
}

// AddNamed declares Vk type vk as a Go type with underlying type under
// ("= T" makes an alias).
func (e *Emitter) AddNamed(vk, under string) {
	if _, ok := e.named[vk]; !ok {
		e.named[vk] = under
		e.namedList = append(e.namedList, vk)
	}
}

// TypeOf resolves a C base type (not a pointer), adding the declarations
// it needs.
func (e *Emitter) TypeOf(c string) (Layout, error) {
	if s, ok := Scalars[c]; ok {
		return Layout{s.GoT, s.Size, s.Align}, nil
	}
	// Function pointer types name themselves inside <proto>, so the index
	// does not hold them.
	if strings.HasPrefix(c, "PFN_") {
		return Layout{"uintptr", 8, 8}, nil
	}
	t, ok := e.Types[c]
	if !ok {
		return Layout{}, fmt.Errorf("unknown type %s", c)
	}
	if t.Alias != "" {
		return e.TypeOf(t.Alias)
	}
	switch t.Category {
	case "basetype":
		d := strings.TrimSpace(t.Type)
		s, ok := Scalars[d]
		if !ok {
			return Layout{}, fmt.Errorf("basetype %s of %s unsupported", d, c)
		}
		e.AddNamed(c, s.GoT)
		return Layout{GoName(c), s.Size, s.Align}, nil
	case "bitmask":
		l, err := e.TypeOf(t.Type)
		if err != nil {
			return l, err
		}
		e.AddNamed(c, l.GoT)
		return Layout{GoName(c), l.Size, l.Align}, nil
	case "enum":
		// A FlagBits enumeration is the same C-sized integer as its Flags
		// type; an alias lets a single bit go where the mask type is taken.
		if f, ok := e.FlagsOf[c]; ok {
			l, err := e.TypeOf(f)
			if err != nil {
				return l, err
			}
			e.AddNamed(c, "= "+GoName(f))
			return Layout{GoName(c), l.Size, l.Align}, nil
		}
		e.AddNamed(c, "int32")
		return Layout{GoName(c), 4, 4}, nil
	case "handle":
		if t.Type == "VK_DEFINE_HANDLE" {
			e.AddNamed(c, "uintptr")
		} else {
			e.AddNamed(c, "uint64")
		}
		return Layout{GoName(c), 8, 8}, nil
	case "funcpointer":
		return Layout{"uintptr", 8, 8}, nil
	case "union":
		_, sz, al, err := e.Fields(c)
		if err != nil {
			return Layout{}, err
		}
		unit := map[int]string{1: "uint8", 2: "uint16", 4: "uint32", 8: "uint64"}[al]
		if e.NamedUnions && sz == al {
			e.AddNamed(c, unit)
			return Layout{GoName(c), sz, al}, nil
		}
		return Layout{fmt.Sprintf("[%d]%s", sz/al, unit), sz, al}, nil
	case "struct":
		if err := e.AddStruct(c); err != nil {
			return Layout{}, err
		}
		_, sz, al, err := e.Fields(c)
		return Layout{GoName(c), sz, al}, err
	}
	return Layout{}, fmt.Errorf("type %s of category %q unsupported", c, t.Category)
}

// Fields computes every member's Go type and C offset, and the size and
// alignment of structure or union s.
func (e *Emitter) Fields(s string) ([]Field, int, int, error) {
	t := e.Types[s]
	var out []Field
	off, maxAlign := 0, 1
	for _, m := range t.Members {
		if !ForVulkan(m.API) {
			continue
		}
		d, err := ParseDecl(m.Inner)
		if err != nil {
			return nil, 0, 0, fmt.Errorf("%s: %v", s, err)
		}
		var l Layout
		if d.Ptr > 0 {
			l = Layout{"unsafe.Pointer", 8, 8}
		} else if l, err = e.TypeOf(d.Type); err != nil {
			return nil, 0, 0, fmt.Errorf("%s.%s: %v", s, d.Name, err)
		}
		if d.Array != "" {
			n, err := strconv.Atoi(d.Array)
			dim := d.Array
			if err != nil {
				c, ok := e.Consts[d.Array]
				if !ok {
					return nil, 0, 0, fmt.Errorf("%s.%s: unknown array size %s", s, d.Name, d.Array)
				}
				if n, err = strconv.Atoi(c.Value); err != nil {
					return nil, 0, 0, fmt.Errorf("%s.%s: array size %s=%q", s, d.Name, d.Array, c.Value)
				}
				e.arrConsts[d.Array] = true
				dim = e.ConstName(d.Array)
			}
			l = Layout{"[" + dim + "]" + l.GoT, l.Size * n, l.Align}
		}
		if t.Category == "union" {
			off = max(off, l.Size)
			maxAlign = max(maxAlign, l.Align)
			continue
		}
		off = (off + l.Align - 1) / l.Align * l.Align
		out = append(out, Field{FieldName(d.Name), l.GoT, off, l.Size})
		off += l.Size
		maxAlign = max(maxAlign, l.Align)
		if m.Values != "" && d.Name == "sType" {
			e.sTypes = append(e.sTypes, m.Values)
		}
	}
	size := (off + maxAlign - 1) / maxAlign * maxAlign
	return out, size, maxAlign, nil
}

// AddStruct declares structure s (an alias declares the structure it
// stands for) and the types it contains.
func (e *Emitter) AddStruct(s string) error {
	if e.seen[s] {
		return nil
	}
	e.seen[s] = true
	t, ok := e.Types[s]
	if !ok || t.Category != "struct" {
		return fmt.Errorf("%s is not a structure", s)
	}
	if t.Alias != "" {
		return e.AddStruct(t.Alias)
	}
	if _, _, _, err := e.Fields(s); err != nil {
		return err
	}
	e.structs = append(e.structs, s)
	return nil
}
