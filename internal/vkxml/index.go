package vkxml

import (
	"fmt"
	"strconv"
	"strings"
)

// Index is the registry looked up by name, for plain Vulkan (Vulkan SC
// variants left out), with the enumerants that features and enabled
// extensions add to their enumerations.
type Index struct {
	Types    map[string]*Type
	EnumSets map[string]*Enums
	Extra    map[string][]Enum // enumerants added by features and extensions, by enumeration
	Consts   map[string]Enum   // API constants
	Commands map[string]*Command
	FlagsOf  map[string]string // FlagBits enumeration -> its Flags type
	Tags     []string          // author tags (KHR, EXT, NV, ...)
}

// NewIndex indexes r.
func NewIndex(r *Registry) *Index {
	x := &Index{
		Types: map[string]*Type{}, EnumSets: map[string]*Enums{}, Extra: map[string][]Enum{},
		Consts: map[string]Enum{}, Commands: map[string]*Command{}, FlagsOf: map[string]string{},
	}
	for i := range r.Types {
		t := &r.Types[i]
		if !ForVulkan(t.API) || t.TypeName() == "" {
			continue
		}
		x.Types[t.TypeName()] = t
	}
	for i := range r.Enums {
		e := &r.Enums[i]
		if e.Name == "API Constants" {
			for _, c := range e.Enums {
				x.Consts[c.Name] = c
			}
			continue
		}
		x.EnumSets[e.Name] = e
	}
	add := func(reqs []Require, extnum string) {
		for _, rq := range reqs {
			if !ForVulkan(rq.API) {
				continue
			}
			for _, e := range rq.Enums {
				if e.Extends == "" || !ForVulkan(e.API) {
					continue
				}
				if e.Offset != "" && e.Extnumber == "" {
					e.Extnumber = extnum
				}
				x.Extra[e.Extends] = append(x.Extra[e.Extends], e)
			}
		}
	}
	for _, f := range r.Features {
		if ForVulkan(f.API) {
			add(f.Requires, "")
		}
	}
	for _, ext := range r.Extensions {
		if ext.Supported == "disabled" {
			continue
		}
		add(ext.Requires, ext.Number)
	}
	for i := range r.Commands {
		c := &r.Commands[i]
		if !ForVulkan(c.API) {
			continue
		}
		name := c.Name
		if name == "" {
			d, err := ParseDecl(c.Proto.Inner)
			if err != nil {
				continue
			}
			name = d.Name
		}
		x.Commands[name] = c
	}
	for name, t := range x.Types {
		if t.Category == "bitmask" {
			if t.Requires != "" {
				x.FlagsOf[t.Requires] = name
			}
			if t.BitVals != "" {
				x.FlagsOf[t.BitVals] = name
			}
		}
	}
	for _, t := range r.Tags {
		x.Tags = append(x.Tags, t.Name)
	}
	return x
}

// GoName turns a Vk type name into its Go name.
func GoName(vk string) string { return strings.TrimPrefix(vk, "Vk") }

// FieldName turns a C member name into an exported Go field name.
func FieldName(c string) string { return strings.ToUpper(c[:1]) + c[1:] }

// ConstName turns VK_SOME_NAME_KHR into SomeNameKHR (author tags stay in
// capitals).
func (x *Index) ConstName(c string) string {
	var b strings.Builder
	for _, w := range strings.Split(strings.TrimPrefix(c, "VK_"), "_") {
		isTag := false
		for _, t := range x.Tags {
			if w == t {
				isTag = true
			}
		}
		if isTag || w == "" {
			b.WriteString(w)
			continue
		}
		b.WriteString(w[:1] + strings.ToLower(w[1:]))
	}
	return b.String()
}

// EnumValue computes an enumerant's value, following aliases within the
// enumeration byName indexes.
func EnumValue(e Enum, byName map[string]Enum) (int64, error) {
	switch {
	case e.Alias != "":
		a, ok := byName[e.Alias]
		if !ok {
			return 0, fmt.Errorf("alias %s of %s not found", e.Alias, e.Name)
		}
		return EnumValue(a, byName)
	case e.Bitpos != "":
		b, err := strconv.Atoi(e.Bitpos)
		return int64(1) << b, err
	case e.Offset != "":
		n, err1 := strconv.ParseInt(e.Extnumber, 10, 64)
		o, err2 := strconv.ParseInt(e.Offset, 10, 64)
		if err1 != nil || err2 != nil {
			return 0, fmt.Errorf("bad offset enum %s", e.Name)
		}
		v := 1000000000 + (n-1)*1000 + o
		if e.Dir == "-" {
			v = -v
		}
		return v, nil
	}
	return strconv.ParseInt(e.Value, 0, 64)
}

// Enumerants returns an enumeration's values, core first, deduplicated by
// name, and the same values by name.
func (x *Index) Enumerants(set string) ([]Enum, map[string]Enum) {
	var all []Enum
	if s, ok := x.EnumSets[set]; ok {
		for _, e := range s.Enums {
			if ForVulkan(e.API) {
				all = append(all, e)
			}
		}
	}
	all = append(all, x.Extra[set]...)
	byName := map[string]Enum{}
	var out []Enum
	for _, e := range all {
		if _, dup := byName[e.Name]; dup {
			continue
		}
		byName[e.Name] = e
		out = append(out, e)
	}
	return out, byName
}
