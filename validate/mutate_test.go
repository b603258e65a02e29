package validate

import (
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/coopshader/coop/spirv"
)

// TestMutations compares coop with spirv-val on mutants of the corpus
// modules (one operand word changed; each mutant still fits the grammar):
// COOP_VAL_MUTATIONS=N makes N mutants. It logs the modules coop rejects
// and spirv-val accepts (to be read: a false error, or a rule spirv-val
// does not check), and the spirv-val messages of the modules only
// spirv-val rejects (the rules spirv-val checks that coop does not);
// COOP_VAL_MUTATIONS_VERBOSE=1 also logs each of those with spirv-val's
// whole message and the mutated instruction; COOP_VAL_MUTATIONS_SEED=S
// draws another sample (0, the default, is the one the figures in the
// notes use).
func TestMutations(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("COOP_VAL_MUTATIONS"))
	if n == 0 {
		t.Skip("set COOP_VAL_MUTATIONS=N to compare N mutants with spirv-val")
	}
	var mods []*spirv.Module
	for _, f := range glslangCorpus(t) {
		m := loadSpvasm(t, f)
		if _, err := Validate(m, Options{TargetEnv: envForVersion(m.Version)}); err == nil {
			mods = append(mods, m)
		}
	}
	verbose := os.Getenv("COOP_VAL_MUTATIONS_VERBOSE") != ""
	seed, _ := strconv.ParseUint(os.Getenv("COOP_VAL_MUTATIONS_SEED"), 10, 64)
	r := rand.New(rand.NewPCG(1+seed, 2))
	both, onlyRef, onlyCoop, neither := 0, 0, 0, 0
	missed := map[string]int{}
	digits := regexp.MustCompile(`[0-9]+|'[^']*'|%[A-Za-z0-9_]+`)
	for k := 0; k < n; k++ {
		m := mods[r.IntN(len(mods))]
		c := *m
		c.Insts = slices.Clone(m.Insts)
		i := r.IntN(len(c.Insts))
		if len(c.Insts[i].Words) == 0 {
			continue
		}
		w := slices.Clone(c.Insts[i].Words)
		j := r.IntN(len(w))
		switch r.IntN(3) {
		case 0:
			w[j] = uint32(r.IntN(8))
		case 1:
			w[j] = uint32(r.IntN(int(c.Bound)))
		default:
			w[j] ^= 1 << r.IntN(32)
		}
		c.Insts[i].Words = w
		b, err := c.Encode()
		if err != nil {
			continue
		}
		mc, err := spirv.Decode(b)
		if err != nil {
			continue
		}
		env := envForVersion(mc.Version)
		_, cerr := Validate(mc, Options{TargetEnv: env})
		ok, out, present := refVal(t, mc, env)
		if !present {
			t.Skip("spirv-val not present")
		}
		switch {
		case cerr != nil && !ok:
			both++
		case cerr == nil && ok:
			neither++
		case cerr == nil:
			onlyRef++
			missed[digits.ReplaceAllString(firstLine(out), "#")]++
			if verbose {
				t.Logf("spirv-val only: %s\n  mutated: %s", strings.TrimSpace(out), disassembleOne(mc, i))
			}
		default:
			onlyCoop++
			t.Logf("coop rejects, spirv-val accepts: %v", cerr)
		}
	}
	t.Logf("%d mutants: %d rejected by both, %d by neither, %d only by spirv-val, %d only by coop", both+neither+onlyRef+onlyCoop, both, neither, onlyRef, onlyCoop)
	keys := make([]string, 0, len(missed))
	for k := range missed {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		t.Logf("spirv-val only (%d): %s", missed[k], k)
	}
}
