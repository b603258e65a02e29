package main

// The registry model and the C layout rules, as genvk (vk/internal/genvk)
// reads them; the ICD needs more of the registry (feature and extension
// command lists, error codes), so it has its own copy.

import (
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"
)

// --- registry model -------------------------------------------------------

type registry struct {
	Types      []xType      `xml:"types>type"`
	Enums      []xEnums     `xml:"enums"`
	Commands   []xCommand   `xml:"commands>command"`
	Features   []xFeature   `xml:"feature"`
	Extensions []xExtension `xml:"extensions>extension"`
	Tags       []struct {
		Name string `xml:"name,attr"`
	} `xml:"tags>tag"`
}

type xType struct {
	Category string    `xml:"category,attr"`
	NameAttr string    `xml:"name,attr"`
	API      string    `xml:"api,attr"`
	Alias    string    `xml:"alias,attr"`
	Requires string    `xml:"requires,attr"`
	BitVals  string    `xml:"bitvalues,attr"`
	Name     string    `xml:"name"`
	Type     string    `xml:"type"`
	Inner    string    `xml:",innerxml"`
	Members  []xMember `xml:"member"`
}

func (t *xType) name() string {
	if t.NameAttr != "" {
		return t.NameAttr
	}
	return t.Name
}

type xMember struct {
	API    string `xml:"api,attr"`
	Values string `xml:"values,attr"`
	Inner  string `xml:",innerxml"`
}

type xEnum struct {
	Name      string `xml:"name,attr"`
	Value     string `xml:"value,attr"`
	Bitpos    string `xml:"bitpos,attr"`
	Alias     string `xml:"alias,attr"`
	Extends   string `xml:"extends,attr"`
	Offset    string `xml:"offset,attr"`
	Extnumber string `xml:"extnumber,attr"`
	Dir       string `xml:"dir,attr"`
	API       string `xml:"api,attr"`
}

type xEnums struct {
	Name  string  `xml:"name,attr"`
	Type  string  `xml:"type,attr"`
	Enums []xEnum `xml:"enum"`
}

type xCommand struct {
	API    string `xml:"api,attr"`
	Name   string `xml:"name,attr"`
	Alias  string `xml:"alias,attr"`
	Errors string `xml:"errorcodes,attr"`
	Proto  struct {
		Inner string `xml:",innerxml"`
	} `xml:"proto"`
	Params []struct {
		API   string `xml:"api,attr"`
		Inner string `xml:",innerxml"`
	} `xml:"param"`
}

type xRequire struct {
	API      string  `xml:"api,attr"`
	Depends  string  `xml:"depends,attr"`
	Enums    []xEnum `xml:"enum"`
	Commands []struct {
		Name string `xml:"name,attr"`
	} `xml:"command"`
}

type xFeature struct {
	API      string     `xml:"api,attr"`
	Name     string     `xml:"name,attr"`
	Number   string     `xml:"number,attr"`
	Requires []xRequire `xml:"require"`
}

type xExtension struct {
	Name      string     `xml:"name,attr"`
	Type      string     `xml:"type,attr"`
	Number    string     `xml:"number,attr"`
	Supported string     `xml:"supported,attr"`
	Requires  []xRequire `xml:"require"`
}

// forVulkan reports whether an api attribute (empty means every API)
// includes plain Vulkan rather than only Vulkan SC.
func forVulkan(api string) bool {
	if api == "" {
		return true
	}
	for _, a := range strings.Split(api, ",") {
		if a == "vulkan" {
			return true
		}
	}
	return false
}

// decl is a C declaration pulled out of a member or param: base type name,
// pointer depth, array dimension and the declared name.
type decl struct {
	typ   string
	ptr   int
	array string // "" or a literal / API constant name
	name  string
}

// parseDecl reads "const <type>T</type>* <name>n</name>[<enum>E</enum>]".
func parseDecl(inner string) (decl, error) {
	var d decl
	dec := xml.NewDecoder(strings.NewReader("<x>" + inner + "</x>"))
	var cur string
	afterName := false
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			cur = t.Name.Local
		case xml.EndElement:
			if t.Name.Local == "name" {
				afterName = true
			}
			cur = ""
		case xml.CharData:
			s := string(t)
			switch cur {
			case "type":
				d.typ = s
			case "name":
				d.name = s
			case "enum":
				d.array = s
			case "comment":
			default:
				if strings.Contains(s, ":") {
					return d, fmt.Errorf("bit-field in %q is not supported", inner)
				}
				if !afterName {
					d.ptr += strings.Count(s, "*")
				} else if a := strings.Trim(strings.TrimSpace(s), "[]"); a != "" {
					if strings.Count(s, "[") > 1 {
						return d, fmt.Errorf("multi-dimensional array in %q is not supported", inner)
					}
					d.array = a
				}
			}
		}
	}
	if d.typ == "" || d.name == "" {
		return d, fmt.Errorf("cannot parse declaration %q", inner)
	}
	return d, nil
}

// --- generator ------------------------------------------------------------

type gen struct {
	types    map[string]*xType
	enumSets map[string]*xEnums
	extra    map[string][]xEnum // enum values added by features and extensions
	consts   map[string]xEnum
	commands map[string]*xCommand
	tags     []string

	structs   []string // emitted structures in dependency order
	seen      map[string]bool
	flagsOf   map[string]string // FlagBits enumeration -> its Flags type
	named     map[string]string // Vk type -> Go underlying type, for emitted named scalars
	namedList []string
	sTypes    []string
	arrConsts map[string]bool
}

func newGen(r *registry) *gen {
	g := &gen{
		types: map[string]*xType{}, enumSets: map[string]*xEnums{}, extra: map[string][]xEnum{},
		consts: map[string]xEnum{}, commands: map[string]*xCommand{}, seen: map[string]bool{},
		named: map[string]string{}, arrConsts: map[string]bool{},
	}
	for i := range r.Types {
		t := &r.Types[i]
		if !forVulkan(t.API) || t.name() == "" {
			continue
		}
		g.types[t.name()] = t
	}
	for i := range r.Enums {
		e := &r.Enums[i]
		if e.Name == "API Constants" {
			for _, c := range e.Enums {
				g.consts[c.Name] = c
			}
			continue
		}
		g.enumSets[e.Name] = e
	}
	add := func(reqs []xRequire, extnum string) {
		for _, rq := range reqs {
			if !forVulkan(rq.API) {
				continue
			}
			for _, e := range rq.Enums {
				if e.Extends == "" || !forVulkan(e.API) {
					continue
				}
				if e.Offset != "" && e.Extnumber == "" {
					e.Extnumber = extnum
				}
				g.extra[e.Extends] = append(g.extra[e.Extends], e)
			}
		}
	}
	for _, f := range r.Features {
		if forVulkan(f.API) {
			add(f.Requires, "")
		}
	}
	for _, x := range r.Extensions {
		if x.Supported == "disabled" {
			continue
		}
		add(x.Requires, x.Number)
	}
	for i := range r.Commands {
		c := &r.Commands[i]
		if !forVulkan(c.API) {
			continue
		}
		name := c.Name
		if name == "" {
			d, err := parseDecl(c.Proto.Inner)
			if err != nil {
				continue
			}
			name = d.name
		}
		g.commands[name] = c
	}
	g.flagsOf = map[string]string{}
	for name, t := range g.types {
		if t.Category == "bitmask" {
			if t.Requires != "" {
				g.flagsOf[t.Requires] = name
			}
			if t.BitVals != "" {
				g.flagsOf[t.BitVals] = name
			}
		}
	}
	for _, t := range r.Tags {
		g.tags = append(g.tags, t.Name)
	}
	return g
}

// goName turns a Vk type name into its Go name.
func goName(vk string) string { return strings.TrimPrefix(vk, "Vk") }

// constName turns VK_SOME_NAME_KHR into SomeNameKHR.
func (g *gen) constName(c string) string {
	var b strings.Builder
	for _, w := range strings.Split(strings.TrimPrefix(c, "VK_"), "_") {
		isTag := false
		for _, t := range g.tags {
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

func fieldName(c string) string { return strings.ToUpper(c[:1]) + c[1:] }

// scalar reports the Go type, size and alignment of a C scalar.
var scalars = map[string]struct {
	goT         string
	size, align int
}{
	"char": {"byte", 1, 1}, "uint8_t": {"uint8", 1, 1}, "int8_t": {"int8", 1, 1},
	"uint16_t": {"uint16", 2, 2}, "int16_t": {"int16", 2, 2},
	"uint32_t": {"uint32", 4, 4}, "int32_t": {"int32", 4, 4}, "int": {"int32", 4, 4}, "float": {"float32", 4, 4},
	"uint64_t": {"uint64", 8, 8}, "int64_t": {"int64", 8, 8}, "double": {"float64", 8, 8}, "size_t": {"uintptr", 8, 8},
}

// layout is a Go type with the size and alignment of its C counterpart.
type layout struct {
	goT         string
	size, align int
}

// typeOf resolves a C base type (not a pointer), queuing the types it
// needs for emission.
func (g *gen) typeOf(c string) (layout, error) {
	if s, ok := scalars[c]; ok {
		return layout{s.goT, s.size, s.align}, nil
	}
	if strings.HasPrefix(c, "PFN_") {
		return layout{"uintptr", 8, 8}, nil
	}
	t, ok := g.types[c]
	if !ok {
		return layout{}, fmt.Errorf("unknown type %s", c)
	}
	if t.Alias != "" {
		return g.typeOf(t.Alias)
	}
	switch t.Category {
	case "basetype":
		d := strings.TrimSpace(t.Type)
		s, ok := scalars[d]
		if !ok {
			return layout{}, fmt.Errorf("basetype %s of %s unsupported", d, c)
		}
		g.addNamed(c, s.goT)
		return layout{goName(c), s.size, s.align}, nil
	case "bitmask":
		l, err := g.typeOf(t.Type)
		if err != nil {
			return l, err
		}
		g.addNamed(c, l.goT)
		return layout{goName(c), l.size, l.align}, nil
	case "enum":
		// A FlagBits enumeration is the same C-sized integer as its Flags
		// type; an alias lets a single bit go where the mask type is taken.
		if f, ok := g.flagsOf[c]; ok {
			l, err := g.typeOf(f)
			if err != nil {
				return l, err
			}
			g.addNamed(c, "= "+goName(f))
			return layout{goName(c), l.size, l.align}, nil
		}
		g.addNamed(c, "int32")
		return layout{goName(c), 4, 4}, nil
	case "handle":
		if t.Type == "VK_DEFINE_HANDLE" {
			g.addNamed(c, "uintptr")
		} else {
			g.addNamed(c, "uint64")
		}
		return layout{goName(c), 8, 8}, nil
	case "funcpointer":
		return layout{"uintptr", 8, 8}, nil
	case "union":
		// Go has no unions: an array of the union's alignment unit with
		// its size stands for it; readers reinterpret it.
		_, sz, al, err := g.fields(c)
		if err != nil {
			return layout{}, err
		}
		unit := map[int]string{1: "uint8", 2: "uint16", 4: "uint32", 8: "uint64"}[al]
		return layout{fmt.Sprintf("[%d]%s", sz/al, unit), sz, al}, nil
	case "struct":
		if err := g.addStruct(c); err != nil {
			return layout{}, err
		}
		sz, al, err := g.structLayout(c)
		return layout{goName(c), sz, al}, err
	}
	return layout{}, fmt.Errorf("type %s of category %q unsupported", c, t.Category)
}

func (g *gen) addNamed(vk, under string) {
	if _, ok := g.named[vk]; !ok {
		g.named[vk] = under
		g.namedList = append(g.namedList, vk)
	}
}

type field struct {
	name   string
	goT    string
	offset int
	size   int
}

// fields computes every member's Go type and C offset.
func (g *gen) fields(s string) ([]field, int, int, error) {
	t := g.types[s]
	var out []field
	off, maxAlign := 0, 1
	for _, m := range t.Members {
		if !forVulkan(m.API) {
			continue
		}
		d, err := parseDecl(m.Inner)
		if err != nil {
			return nil, 0, 0, fmt.Errorf("%s: %v", s, err)
		}
		var l layout
		if d.ptr > 0 {
			l = layout{"unsafe.Pointer", 8, 8}
		} else if l, err = g.typeOf(d.typ); err != nil {
			return nil, 0, 0, fmt.Errorf("%s.%s: %v", s, d.name, err)
		}
		if d.array != "" {
			n, err := strconv.Atoi(d.array)
			dim := d.array
			if err != nil {
				c, ok := g.consts[d.array]
				if !ok {
					return nil, 0, 0, fmt.Errorf("%s.%s: unknown array size %s", s, d.name, d.array)
				}
				if n, err = strconv.Atoi(c.Value); err != nil {
					return nil, 0, 0, fmt.Errorf("%s.%s: array size %s=%q", s, d.name, d.array, c.Value)
				}
				g.arrConsts[d.array] = true
				dim = g.constName(d.array)
			}
			l = layout{"[" + dim + "]" + l.goT, l.size * n, l.align}
		}
		if t.Category == "union" {
			off = max(off, l.size)
			maxAlign = max(maxAlign, l.align)
			continue
		}
		off = (off + l.align - 1) / l.align * l.align
		out = append(out, field{fieldName(d.name), l.goT, off, l.size})
		off += l.size
		maxAlign = max(maxAlign, l.align)
		if m.Values != "" && d.name == "sType" {
			g.sTypes = append(g.sTypes, m.Values)
		}
	}
	size := (off + maxAlign - 1) / maxAlign * maxAlign
	return out, size, maxAlign, nil
}

func (g *gen) structLayout(s string) (int, int, error) {
	_, sz, al, err := g.fields(s)
	return sz, al, err
}

func (g *gen) addStruct(s string) error {
	if g.seen[s] {
		return nil
	}
	g.seen[s] = true
	t, ok := g.types[s]
	if !ok || t.Category != "struct" {
		return fmt.Errorf("%s is not a structure", s)
	}
	if t.Alias != "" {
		return g.addStruct(t.Alias)
	}
	if _, _, _, err := g.fields(s); err != nil {
		return err
	}
	g.structs = append(g.structs, s)
	return nil
}

// enumValue computes an enumerant's value, following aliases within set.
func enumValue(e xEnum, byName map[string]xEnum) (int64, error) {
	switch {
	case e.Alias != "":
		a, ok := byName[e.Alias]
		if !ok {
			return 0, fmt.Errorf("alias %s of %s not found", e.Alias, e.Name)
		}
		return enumValue(a, byName)
	case e.Bitpos != "":
		b, err := strconv.Atoi(e.Bitpos)
		return int64(1) << b, err
	case e.Offset != "":
		x, err1 := strconv.ParseInt(e.Extnumber, 10, 64)
		o, err2 := strconv.ParseInt(e.Offset, 10, 64)
		if err1 != nil || err2 != nil {
			return 0, fmt.Errorf("bad offset enum %s", e.Name)
		}
		v := 1000000000 + (x-1)*1000 + o
		if e.Dir == "-" {
			v = -v
		}
		return v, nil
	}
	return strconv.ParseInt(e.Value, 0, 64)
}

// enumerants returns a set's values, core first, deduplicated by name.
func (g *gen) enumerants(set string) ([]xEnum, map[string]xEnum) {
	var all []xEnum
	if s, ok := g.enumSets[set]; ok {
		for _, e := range s.Enums {
			if forVulkan(e.API) {
				all = append(all, e)
			}
		}
	}
	all = append(all, g.extra[set]...)
	byName := map[string]xEnum{}
	var out []xEnum
	for _, e := range all {
		if _, dup := byName[e.Name]; dup {
			continue
		}
		byName[e.Name] = e
		out = append(out, e)
	}
	return out, byName
}
