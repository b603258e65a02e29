package main

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/coopshader/coop/internal/vkxml"
)

// The heads of the query chains the driver fills, and the Vulkan 1.x
// structures that gather the members promoted into each core version.
const (
	featuresHead   = "VkPhysicalDeviceFeatures2"
	propertiesHead = "VkPhysicalDeviceProperties2"
)

var coreViews = []string{
	"VkPhysicalDeviceVulkan11Features", "VkPhysicalDeviceVulkan12Features", "VkPhysicalDeviceVulkan13Features",
	"VkPhysicalDeviceVulkan11Properties", "VkPhysicalDeviceVulkan12Properties", "VkPhysicalDeviceVulkan13Properties",
}

// chainStructs lists the structures that may extend head in Vulkan 1.1 to
// 1.3 or in an advertised device extension (each by its own name, not an
// alias's), sorted, head first.
func (g *gen) chainStructs(r *vkxml.Registry, head string) ([]string, error) {
	set := map[string]bool{}
	add := func(rq vkxml.Require) {
		if !vkxml.ForVulkan(rq.API) {
			return
		}
		for _, ty := range rq.Types {
			n := ty.Name
			t, ok := g.Types[n]
			if ok && t.Alias != "" {
				n, t = t.Alias, g.Types[t.Alias]
			}
			if t != nil && t.Category == "struct" && slices.Contains(strings.Split(t.Extends, ","), head) {
				set[n] = true
			}
		}
	}
	for _, f := range r.Features {
		v, err := strconv.ParseFloat(f.Number, 64)
		if !vkxml.ForVulkan(f.API) || err != nil || v < 1.1 || v > 1.3 {
			continue
		}
		for _, rq := range f.Requires {
			add(rq)
		}
	}
	for _, x := range r.Extensions {
		if slices.Contains(deviceExtensions, x.Name) {
			for _, rq := range x.Requires {
				add(rq)
			}
		}
	}
	out := []string{head}
	for n := range set {
		out = append(out, n)
	}
	slices.Sort(out[1:])
	if len(out) == 1 {
		return nil, fmt.Errorf("no structure extends %s", head)
	}
	return out, nil
}

// memberAlias reads vk.xml's <name alias="VkStruct::member">: a member of a
// Vulkan 1.x structure that the named member of a promoted structure
// duplicates.
var memberAlias = regexp.MustCompile(`<name alias="(\w+)::(\w+)">(\w+)</name>`)

// chains finds and declares the structures of both chains (before the
// structure-type enumeration and constants are written, as declaring them
// collects their sType values and array sizes).
type chains struct{ features, properties []string }

func (g *gen) chains(r *vkxml.Registry) (*chains, error) {
	var c chains
	var err error
	if c.features, err = g.chainStructs(r, featuresHead); err != nil {
		return nil, err
	}
	if c.properties, err = g.chainStructs(r, propertiesHead); err != nil {
		return nil, err
	}
	for _, s := range append(slices.Clone(c.features), c.properties...) {
		if err := g.AddStruct(s); err != nil {
			return nil, err
		}
	}
	return &c, nil
}

// tables writes the structures of both chains, and which member of a
// promoted structure each Vulkan 1.x member mirrors, as Go tables. A
// Vulkan 1.x member mirroring a structure outside the chains is an error:
// the driver would leave that structure unfilled.
func (g *gen) tables(c *chains, b *bytes.Buffer) error {
	known := map[string]bool{}
	for _, tbl := range []struct {
		head, name, doc string
		list            []string
	}{
		{featuresHead, "FeatureStructs", "the features structures the driver fills", c.features},
		{propertiesHead, "PropertyStructs", "the properties structures the driver fills", c.properties},
	} {
		fmt.Fprintf(b, "// %s are %s,\n// by sType: %s and every structure that may extend it in\n// Vulkan 1.1 to 1.3 or in an advertised device extension.\nvar %s = map[StructureType]reflect.Type{\n",
			tbl.name, tbl.doc, tbl.head, tbl.name)
		for _, s := range tbl.list {
			known[s] = true
			st := ""
			for _, m := range g.Types[s].Members {
				if m.Values != "" && strings.Contains(m.Inner, "<name>sType</name>") {
					st = m.Values
				}
			}
			if st == "" {
				return fmt.Errorf("%s has no sType value", s)
			}
			fmt.Fprintf(b, "\t%s: reflect.TypeFor[%s](),\n", g.ConstName(st), vkxml.GoName(s))
		}
		fmt.Fprintf(b, "}\n\n")
	}
	fmt.Fprintf(b, "// Promotion pairs a member of a Vulkan 1.x structure (Core.CoreMember)\n// with the member of a promoted structure it mirrors (Struct.Member):\n// both must always hold the same value.\n")
	fmt.Fprintf(b, "type Promotion struct{ Core, CoreMember, Struct, Member string }\n\n")
	fmt.Fprintf(b, "// Promotions are vk.xml's member aliases of the Vulkan 1.1 to 1.3 structures.\nvar Promotions = []Promotion{\n")
	for _, core := range coreViews {
		for _, m := range g.Types[core].Members {
			a := memberAlias.FindStringSubmatch(m.Inner)
			if a == nil || !vkxml.ForVulkan(m.API) {
				continue
			}
			if !known[a[1]] {
				return fmt.Errorf("%s.%s mirrors %s.%s, which is in neither chain", core, a[3], a[1], a[2])
			}
			fmt.Fprintf(b, "\t{%q, %q, %q, %q},\n", vkxml.GoName(core), vkxml.FieldName(a[3]), vkxml.GoName(a[1]), vkxml.FieldName(a[2]))
		}
	}
	fmt.Fprintf(b, "}\n\n")
	return nil
}
