package icd_test

import (
	"bufio"
	"bytes"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/coopshader/coop/icd/vkt"
)

// vulkaninfo's text output: a structure's name alone on a line, then its
// members indented as "name = value" (flags and arrays take several
// lines, which this reading skips).
var (
	viStruct = regexp.MustCompile(`^(VkPhysicalDevice\w+?)(KHR|EXT|NV)?:\s*$`)
	viMember = regexp.MustCompile(`^\s+(\w+)\s*=\s*(.*?)\s*$`)
)

// Through the loader, vulkaninfo (Debian's vulkan-tools) shows the
// Vulkan 1.x views and the promoted structures agreeing member by member.
func TestVulkaninfoConsistent(t *testing.T) {
	needDriver(t)
	vi, err := exec.LookPath("vulkaninfo")
	if err != nil {
		t.Skip("no vulkaninfo")
	}
	out, err := exec.Command(vi).Output()
	if err != nil {
		t.Skipf("vulkaninfo: %v (no loader?)", err)
	}
	if !bytes.Contains(out, []byte("coop (CPU reference)")) {
		t.Fatalf("vulkaninfo does not list the driver's device:\n%s", out)
	}
	structs := map[string]map[string]string{}
	var cur map[string]string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if m := viStruct.FindStringSubmatch(sc.Text()); m != nil {
			cur = map[string]string{}
			structs[m[1]] = cur
		} else if m := viMember.FindStringSubmatch(sc.Text()); m != nil && cur != nil {
			cur[m[1]] = m[2]
		}
	}
	lower := func(s string) string { return strings.ToLower(s[:1]) + s[1:] }
	checked := 0
	for _, p := range vkt.Promotions {
		core, s := structs["Vk"+p.Core], structs["Vk"+p.Struct]
		if core == nil {
			continue // a vulkaninfo too old to print it
		}
		if s == nil {
			t.Errorf("vulkaninfo shows Vk%s but not Vk%s", p.Core, p.Struct)
			continue
		}
		a, ok1 := core[lower(p.CoreMember)]
		b, ok2 := s[lower(p.Member)]
		if !ok1 || !ok2 {
			continue // printed over several lines
		}
		checked++
		if a != b {
			t.Errorf("Vk%s.%s = %s but Vk%s.%s = %s", p.Core, lower(p.CoreMember), a, p.Struct, lower(p.Member), b)
		}
	}
	if checked < 100 {
		t.Errorf("only %d promoted members compared", checked)
	}
}
