package vkxml

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// WriteConsts writes a const block of the API constants arrays are sized
// by and the wanted ones, sorted by name; special gives the Go line of a
// constant the registry writes as a C expression.
func (e *Emitter) WriteConsts(b *bytes.Buffer, want []string, special map[string]string) error {
	var names []string
	for c := range e.arrConsts {
		names = append(names, c)
	}
	names = append(names, want...)
	sort.Strings(names)
	fmt.Fprintf(b, "const (\n")
	for _, c := range names {
		if line, ok := special[c]; ok {
			fmt.Fprintf(b, "\t%s\n", line)
			continue
		}
		k, ok := e.Consts[c]
		if !ok {
			return fmt.Errorf("constant %s not found", c)
		}
		v := k.Value
		switch v {
		case "(~0U)":
			v = "0xFFFFFFFF"
		case "(~0ULL)":
			v = "0xFFFFFFFFFFFFFFFF"
		}
		fmt.Fprintf(b, "\t%s = %s\n", e.ConstName(c), v)
	}
	fmt.Fprintf(b, ")\n\n")
	return nil
}

// EnumValueName is an enumerant that is not an alias, with its value.
type EnumValueName struct {
	Name  string
	Value int64
}

// WriteEnum writes the values of enumeration set as constants of its Go
// type (a FlagBits set's are of its Flags type); VkStructureType is
// limited to the sType values of the declared structures. It returns the
// values that are not aliases, and whether set is a FlagBits set.
func (e *Emitter) WriteEnum(b *bytes.Buffer, set string) ([]EnumValueName, bool, error) {
	ty, isFlags := set, false
	if f, ok := e.FlagsOf[set]; ok {
		if _, err := e.TypeOf(f); err != nil {
			return nil, false, err
		}
		ty, isFlags = f, true
	} else {
		e.AddNamed(set, "int32")
	}
	vals, byName := e.Enumerants(set)
	if len(vals) == 0 {
		return nil, false, fmt.Errorf("enum %s not found", set)
	}
	keep := map[string]bool{}
	for _, s := range e.sTypes {
		keep[s] = true
	}
	var out []EnumValueName
	fmt.Fprintf(b, "// Values of %s.\nconst (\n", set)
	for _, v := range vals {
		if set == "VkStructureType" && !keep[v.Name] || strings.HasSuffix(v.Name, "_MAX_ENUM") {
			continue
		}
		n, err := EnumValue(v, byName)
		if err != nil {
			return nil, false, err
		}
		fmt.Fprintf(b, "\t%s %s = %d\n", e.ConstName(v.Name), GoName(ty), n)
		if v.Alias == "" {
			out = append(out, EnumValueName{v.Name, n})
		}
	}
	fmt.Fprintf(b, ")\n\n")
	return out, isFlags, nil
}

// WriteStructs declares the collected structures in b and writes their C
// layouts, as the generated layout test's cLayouts table, to test.
func (e *Emitter) WriteStructs(b, test *bytes.Buffer) error {
	fmt.Fprintf(test, "// cLayouts holds each structure's size and member offsets as computed\n// from the registry by C rules for 64-bit Linux.\nvar cLayouts = []cLayout{\n")
	for _, s := range e.structs {
		fs, size, align, err := e.Fields(s)
		if err != nil {
			return err
		}
		fmt.Fprintf(b, "// %s mirrors %s (C size %d, alignment %d).\ntype %s struct {\n", GoName(s), s, size, align, GoName(s))
		var offs []string
		for _, f := range fs {
			fmt.Fprintf(b, "\t%s %s // offset %d\n", f.Name, f.GoT, f.Offset)
			offs = append(offs, fmt.Sprintf("{%q, %d, unsafe.Offsetof(%s{}.%s)}", f.Name, f.Offset, GoName(s), f.Name))
		}
		fmt.Fprintf(b, "}\n\n")
		fmt.Fprintf(test, "\t{%q, %d, unsafe.Sizeof(%s{}), []fieldOffset{%s}},\n", s, size, GoName(s), strings.Join(offs, ", "))
	}
	fmt.Fprintf(test, "}\n")
	return nil
}

// WriteNamed declares the named scalar types, sorted by name.
func (e *Emitter) WriteNamed(b *bytes.Buffer) {
	names := append([]string(nil), e.namedList...)
	sort.Strings(names)
	fmt.Fprintf(b, "type (\n")
	for _, n := range names {
		fmt.Fprintf(b, "\t%s %s\n", GoName(n), e.named[n])
	}
	fmt.Fprintf(b, ")\n\n")
}
