// Package vkxml reads the Vulkan registry (vk.xml) for coop's code
// generators: the registry's elements, the C declarations inside them, the
// 64-bit Linux C layout of structures, enumerant values and the Go names
// generated code gives them. vk/internal/genvk (package vk's bindings) and
// icd/internal/genicd (the driver's structures and entry points) share it,
// so both read the registry by the same rules.
package vkxml

import (
	"encoding/xml"
	"fmt"
	"os"
	"strings"
)

// Registry is the part of vk.xml the generators read.
type Registry struct {
	Types      []Type      `xml:"types>type"`
	Enums      []Enums     `xml:"enums"`
	Commands   []Command   `xml:"commands>command"`
	Features   []Feature   `xml:"feature"`
	Extensions []Extension `xml:"extensions>extension"`
	Tags       []struct {
		Name string `xml:"name,attr"`
	} `xml:"tags>tag"`
	SPIRVExtensions   []SPIRV `xml:"spirvextensions>spirvextension"`
	SPIRVCapabilities []SPIRV `xml:"spirvcapabilities>spirvcapability"`
}

// SPIRV is one row of the SPIR-V environment's tables (<spirvextension>,
// <spirvcapability>): a SPIR-V extension or capability and the conditions
// under which Vulkan allows it.
type SPIRV struct {
	Name    string `xml:"name,attr"`
	Enables []struct {
		Version   string `xml:"version,attr"`
		Extension string `xml:"extension,attr"`
		Struct    string `xml:"struct,attr"`
		Feature   string `xml:"feature,attr"`
		Property  string `xml:"property,attr"`
		Member    string `xml:"member,attr"`
		Value     string `xml:"value,attr"`
		Requires  string `xml:"requires,attr"`
	} `xml:"enable"`
}

// Type is a <type> element.
type Type struct {
	Category string   `xml:"category,attr"`
	NameAttr string   `xml:"name,attr"`
	API      string   `xml:"api,attr"`
	Alias    string   `xml:"alias,attr"`
	Requires string   `xml:"requires,attr"`
	BitVals  string   `xml:"bitvalues,attr"`
	Extends  string   `xml:"structextends,attr"` // structures whose pNext chains may hold this one
	Name     string   `xml:"name"`
	Type     string   `xml:"type"`
	Inner    string   `xml:",innerxml"`
	Members  []Member `xml:"member"`
}

// TypeName is the type's name, whichever way the element gives it.
func (t *Type) TypeName() string {
	if t.NameAttr != "" {
		return t.NameAttr
	}
	return t.Name
}

// Member is a structure or union member; Inner is its C declaration.
type Member struct {
	API    string `xml:"api,attr"`
	Values string `xml:"values,attr"`
	Inner  string `xml:",innerxml"`
}

// Enum is an <enum>: a value of an enumeration or an API constant.
type Enum struct {
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

// Enums is an <enums> block.
type Enums struct {
	Name  string `xml:"name,attr"`
	Type  string `xml:"type,attr"`
	Enums []Enum `xml:"enum"`
}

// Command is a <command>; an alias has Name and Alias only.
type Command struct {
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

// Require is a <require> block of a feature or extension.
type Require struct {
	API      string `xml:"api,attr"`
	Depends  string `xml:"depends,attr"`
	Enums    []Enum `xml:"enum"`
	Commands []struct {
		Name string `xml:"name,attr"`
	} `xml:"command"`
	Types []struct {
		Name string `xml:"name,attr"`
	} `xml:"type"`
}

// Feature is a core version (<feature>).
type Feature struct {
	API      string    `xml:"api,attr"`
	Name     string    `xml:"name,attr"`
	Number   string    `xml:"number,attr"`
	Requires []Require `xml:"require"`
}

// Extension is an <extension>.
type Extension struct {
	Name      string    `xml:"name,attr"`
	Type      string    `xml:"type,attr"`
	Number    string    `xml:"number,attr"`
	Supported string    `xml:"supported,attr"`
	Requires  []Require `xml:"require"`
}

// Load reads and parses a vk.xml file.
func Load(path string) (*Registry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Registry
	if err := xml.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return &r, nil
}

// ForVulkan reports whether an api attribute (empty means every API)
// includes plain Vulkan rather than only Vulkan SC.
func ForVulkan(api string) bool {
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

// Decl is a C declaration pulled out of a member, param or proto: base type
// name, pointer depth, array dimension and the declared name.
type Decl struct {
	Type  string
	Ptr   int
	Array string // "" or a literal / API constant name
	Name  string
}

// ParseDecl reads "const <type>T</type>* <name>n</name>[<enum>E</enum>]".
func ParseDecl(inner string) (Decl, error) {
	var d Decl
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
				d.Type = s
			case "name":
				d.Name = s
			case "enum":
				d.Array = s
			case "comment":
			default:
				if strings.Contains(s, ":") {
					return d, fmt.Errorf("bit-field in %q is not supported", inner)
				}
				if !afterName {
					d.Ptr += strings.Count(s, "*")
				} else if a := strings.Trim(strings.TrimSpace(s), "[]"); a != "" {
					if strings.Count(s, "[") > 1 {
						return d, fmt.Errorf("multi-dimensional array in %q is not supported", inner)
					}
					d.Array = a
				}
			}
		}
	}
	if d.Type == "" || d.Name == "" {
		return d, fmt.Errorf("cannot parse declaration %q", inner)
	}
	return d, nil
}
