package check

import (
	"strconv"
	"strings"
)

// candidate is one concrete signature under consideration for a call.
type candidate struct {
	ret    *Type
	params []*Type
	dirs   []ParamDir
	fn     Builtin
	user   *Func
	// generic marks a built-in's parameters of its component type (T, S).
	generic []bool
}

// argRanks ranks each argument against cand's parameters; ok is false when
// some argument does not fit (out/inout arguments must match exactly).
func (c *checker) argRanks(cand *candidate, args []Expr) ([]int, bool) {
	if len(cand.params) != len(args) {
		return nil, false
	}
	ranks := make([]int, len(args))
	for i, a := range args {
		at := a.Type()
		var r int
		if cand.dirs[i] != DirIn {
			r = rankNone
			if Identical(at, cand.params[i]) {
				r = rankExact
			}
		} else {
			r = c.implicitRank(at, cand.params[i])
		}
		if r == rankNone {
			return nil, false
		}
		ranks[i] = r
	}
	return ranks, true
}

// pickBest returns the unique best viable candidate: exact matches first,
// then the candidate no worse than every other in each argument. ambiguous
// is set when viable candidates exist but none is best.
func (c *checker) pickBest(cands []*candidate, args []Expr) (best *candidate, ambiguous bool) {
	type viable struct {
		cand  *candidate
		ranks []int
	}
	var vs []viable
	for _, cd := range cands {
		if r, ok := c.argRanks(cd, args); ok {
			exact := true
			for _, x := range r {
				exact = exact && x == rankExact
			}
			if exact {
				return cd, false
			}
			vs = append(vs, viable{cd, r})
		}
	}
	if len(vs) == 0 {
		return nil, false
	}
	if len(vs) == 1 {
		return vs[0].cand, false
	}
	better := func(a, b []int) bool { // a at least as good everywhere, better somewhere
		strict := false
		for i := range a {
			if a[i] > b[i] {
				return false
			}
			if a[i] < b[i] {
				strict = true
			}
		}
		return strict
	}
	var winners []viable
	for i, v := range vs {
		beaten := false
		for j, w := range vs {
			if i != j && better(w.ranks, v.ranks) {
				beaten = true
				break
			}
		}
		if !beaten {
			winners = append(winners, v)
		}
	}
	if len(winners) == 1 {
		return winners[0].cand, false
	}
	// Instantiations that coincide (the same concrete signature reached
	// from two table entries) are not ambiguous.
	for _, w := range winners[1:] {
		if !sameSig(w.cand, winners[0].cand) {
			return nil, true
		}
	}
	return winners[0].cand, false
}

func sameSig(a, b *candidate) bool {
	if len(a.params) != len(b.params) || !Identical(a.ret, b.ret) {
		return false
	}
	for i := range a.params {
		if !Identical(a.params[i], b.params[i]) {
			return false
		}
	}
	return true
}

// shape is a candidate size for the generic T: n components, with the
// spec-constant length of a long vector argument.
type shape struct {
	n    int
	spec Expr
	long bool
}

// builtinCandidates instantiates the table entries for name with the
// shapes and components the arguments suggest.
func (c *checker) builtinCandidates(name string, args []Expr) []*candidate {
	ovs := builtinTable[name]
	var shapes []shape
	var mats [][2]int
	addShape := func(s shape) {
		for _, x := range shapes {
			if x.n == s.n && x.long == s.long && sameSpec(x.spec, s.spec) {
				return
			}
		}
		shapes = append(shapes, s)
	}
	addShape(shape{n: 1})
	for _, a := range args {
		t := a.Type()
		switch t.Kind {
		case KVector:
			addShape(shape{n: t.N, spec: t.SpecLen, long: t.Long || t.N > 4 || t.SpecLen != nil})
		case KMatrix:
			mats = append(mats, [2]int{t.N, t.Rows}, [2]int{t.Rows, t.N})
		}
	}
	// outerProduct(c, r) builds a matrix from two vectors.
	if len(args) == 2 && args[0].Type().Kind == KVector && args[1].Type().Kind == KVector {
		mats = append(mats, [2]int{args[1].Type().N, args[0].Type().N})
	}
	var out []*candidate
	for _, ov := range ovs {
		if !c.extAnyOn(ov.ext) {
			continue
		}
		scalars := []Scalar{NoScalar}
		if ov.comps != 0 {
			scalars = scalars[:0]
			for s := Bool; s <= lastScalar; s++ {
				if ov.comps.has(s) {
					scalars = append(scalars, s)
				}
			}
		}
		usesMat := strings.Contains(ov.ret, "M")
		// The first argument passed as T or S must convert to the
		// component: instantiate only components it reaches.
		gen := -1
		for i, p := range ov.params {
			usesMat = usesMat || strings.HasPrefix(p.tok, "M")
			if gen < 0 && (p.tok == "T" || p.tok == "S") && i < len(args) {
				gen = i
			}
		}
		for _, s := range scalars {
			if gen >= 0 && scalarRank(args[gen].Type().Scalar, s) == rankNone {
				continue
			}
			if usesMat {
				for _, m := range mats {
					if cd := instantiate(ov, s, shape{n: 1}, m); cd != nil {
						out = append(out, cd)
					}
				}
				continue
			}
			for _, sh := range shapes {
				ok := ov.sizes&(1<<sh.n) != 0 && !sh.long && sh.n <= 4
				if sh.long {
					ok = ov.sizes&szLong != 0
				}
				if ov.sizes == 0 || ov.sizes == sz1 {
					ok = sh.n == 1
				}
				if !ok {
					continue
				}
				if cd := instantiate(ov, s, sh, [2]int{}); cd != nil {
					out = append(out, cd)
				}
			}
		}
	}
	return out
}

func instantiate(ov *overload, s Scalar, sh shape, m [2]int) *candidate {
	cd := &candidate{fn: ov.fn, ret: tokType(ov.ret, s, sh, m)}
	if cd.ret == nil {
		return nil
	}
	for _, p := range ov.params {
		t := tokType(p.tok, s, sh, m)
		if t == nil {
			return nil
		}
		cd.params = append(cd.params, t)
		cd.dirs = append(cd.dirs, p.dir)
		cd.generic = append(cd.generic, p.tok == "T" || p.tok == "S")
	}
	return cd
}

func vecOf(s Scalar, sh shape) *Type {
	if sh.n == 1 && sh.spec == nil && !sh.long {
		return ScalarType(s)
	}
	return &Type{Kind: KVector, Scalar: s, N: sh.n, SpecLen: sh.spec, Long: sh.long}
}

func tokType(tok string, s Scalar, sh shape, m [2]int) *Type {
	switch tok {
	case "T":
		return vecOf(s, sh)
	case "S":
		return ScalarType(s)
	case "B":
		return vecOf(Bool, sh)
	case "I":
		return vecOf(Int32, sh)
	case "U":
		return vecOf(Uint32, sh)
	case "F":
		return vecOf(Float32, sh)
	case "Fh":
		return vecOf(Float16, sh)
	case "Fb":
		return vecOf(BFloat16, sh)
	case "Fd":
		return vecOf(Float64, sh)
	case "U8":
		return vecOf(Uint8, sh)
	case "Is":
		return vecOf(s.ToSigned().sameWidthInt(true), sh)
	case "Us":
		return vecOf(s.sameWidthInt(false), sh)
	case "M":
		return MatrixType(s, m[0], m[1])
	case "Mt":
		return MatrixType(s, m[1], m[0])
	case "Mc":
		return VectorType(s, m[1])
	case "Mr":
		return VectorType(s, m[0])
	}
	if t, ok := typeNames[tok]; ok {
		return t
	}
	if elem, n, ok := strings.Cut(strings.TrimSuffix(tok, "]"), "["); ok {
		// An array parameter, e.g. vec3[3].
		k, err := strconv.Atoi(n)
		if t := typeNames[elem]; t != nil && err == nil {
			return ArrayType(t, k)
		}
		return nil
	}
	if inner, ok := strings.CutPrefix(tok, "vector<"); ok {
		name, n, _ := strings.Cut(strings.TrimSuffix(inner, ">"), ",")
		k, err := strconv.Atoi(n)
		if t := typeNames[name]; t != nil && t.Kind == KScalar && err == nil {
			return &Type{Kind: KVector, Scalar: t.Scalar, N: k, Long: true}
		}
		return nil
	}
	return opaqueNames[tok]
}

// sameWidthInt is the signed or unsigned integer as wide as s.
func (s Scalar) sameWidthInt(signed bool) Scalar {
	var r Scalar
	switch s.Bits() {
	case 8:
		r = Uint8
	case 16:
		r = Uint16
	case 64:
		r = Uint64
	default:
		r = Uint32
	}
	if signed {
		return r.ToSigned()
	}
	return r
}
