package check

import "strings"

// GL_KHR_memory_scope_semantics' semantics bits (gl_Semantics*,
// gl_StorageSemantics*).
const (
	semAcquire        = 0x2
	semRelease        = 0x4
	semAcquireRelease = 0x8
	semMakeAvailable  = 0x2000
	semMakeVisible    = 0x4000
	semVolatile       = 0x8000
	semOrder          = semAcquire | semRelease | semAcquireRelease
	semAll            = semOrder | semMakeAvailable | semMakeVisible | semVolatile
	storageAll        = 0x40 | 0x100 | 0x800 | 0x1000 // buffer, shared, image, output
)

// memorySemantics applies glslang's rules to the constant storage-class
// semantics and semantics arguments of an atomic or barrier that takes
// them (sems: storage, semantics, and for a compare-exchange the unequal
// pair after), reporting each broken rule at pos under the function's
// name. It reports whether none was.
func (c *checker) memorySemantics(name string, sems []Expr, pos Pos) bool {
	val := func(e Expr) (uint32, bool) {
		v := constOf(e)
		if v == nil {
			return 0, false
		}
		return uint32(v.Bits), true
	}
	var st, sem, st2, sem2 uint32
	for i, p := range []*uint32{&st, &sem, &st2, &sem2}[:len(sems)] {
		v, ok := val(sems[i])
		if !ok {
			return true
		}
		*p = v
	}
	ok := true
	fail := func(msg string) {
		c.errorf(pos, name, "%s", msg)
		ok = false
	}
	pow2 := func(v uint32) bool { return v&(v-1) == 0 }
	if (sem|sem2)&^semAll != 0 {
		fail("Invalid semantics value")
	}
	if (st|st2)&^storageAll != 0 {
		fail("Invalid storage class semantics value")
	}
	if sem&semOrder != 0 && !pow2(sem&semOrder) || sem2&semOrder != 0 && !pow2(sem2&semOrder) {
		fail("Semantics must not include multiple of gl_SemanticsRelease, gl_SemanticsAcquire, or gl_SemanticsAcquireRelease")
	}
	if sem&semOrder != 0 && st == 0 || sem2&semOrder != 0 && st2 == 0 {
		fail("Storage class semantics must not be zero when used with gl_SemanticsRelease, gl_SemanticsAcquire, or gl_SemanticsAcquireRelease")
	}
	if st != 0 && sem&semOrder == 0 || st2 != 0 && sem2&semOrder == 0 {
		fail("Semantics must be gl_SemanticsRelease, gl_SemanticsAcquire, or gl_SemanticsAcquireRelease when used with non-zero storage class semantics")
	}
	arrive, wait := strings.HasPrefix(name, "controlBarrierArrive"), strings.HasPrefix(name, "controlBarrierWait")
	if st != 0 && arrive && sem&^semMakeAvailable != semRelease {
		fail("Semantics must be gl_SemanticsRelease (optionally with gl_SemanticsMakeAvailable) when used with non-zero storage class semantics")
	}
	if st != 0 && wait && sem&^semMakeVisible != semAcquire {
		fail("Semantics must be gl_SemanticsAcquire (optionally with gl_SemanticsMakeVisible) when used with non-zero storage class semantics")
	}
	if sem&semMakeAvailable != 0 && sem&(semRelease|semAcquireRelease) == 0 || sem2&semMakeAvailable != 0 && sem2&(semRelease|semAcquireRelease) == 0 {
		fail("gl_SemanticsMakeAvailable requires gl_SemanticsRelease or gl_SemanticsAcquireRelease")
	}
	if sem&semMakeVisible != 0 && sem&(semAcquire|semAcquireRelease) == 0 || sem2&semMakeVisible != 0 && sem2&(semAcquire|semAcquireRelease) == 0 {
		fail("gl_SemanticsMakeVisible requires gl_SemanticsAcquire or gl_SemanticsAcquireRelease")
	}
	store := name == "atomicStore" || name == "imageAtomicStore"
	load := name == "atomicLoad" || name == "imageAtomicLoad"
	if store && sem&semAcquire != 0 {
		fail("gl_SemanticsAcquire must not be used with (image) atomic store")
	}
	if load && sem&semRelease != 0 {
		fail("gl_SemanticsRelease must not be used with (image) atomic load")
	}
	if (store || load) && sem&semAcquireRelease != 0 {
		fail("gl_SemanticsAcquireRelease must not be used with (image) atomic load/store")
	}
	if name == "memoryBarrier" && sem&semOrder == 0 {
		fail("Semantics must include exactly one of gl_SemanticsRelease, gl_SemanticsAcquire, or gl_SemanticsAcquireRelease when used with memoryBarrier")
	}
	if (name == "memoryBarrier" || name == "controlBarrier") && sem&semVolatile != 0 {
		fail("gl_SemanticsVolatile must not be used with memoryBarrier or controlBarrier")
	}
	if arrive && sem&semVolatile != 0 {
		fail("gl_SemanticsVolatile must not be used with controlBarrierArrive")
	}
	if wait && sem&semVolatile != 0 {
		fail("gl_SemanticsVolatile must not be used with controlBarrierWait")
	}
	if len(sems) == 4 {
		if sem2&(semRelease|semAcquireRelease) != 0 {
			fail("semUnequal must not be gl_SemanticsRelease or gl_SemanticsAcquireRelease")
		}
		if sem2&semAcquire != 0 && sem&(semAcquire|semAcquireRelease) == 0 {
			fail("semUnequal must not be gl_SemanticsAcquire unless semEqual is gl_SemanticsAcquire or gl_SemanticsAcquireRelease")
		}
		if sem2&semMakeVisible != 0 && sem&semMakeVisible == 0 {
			fail("semUnequal must not include gl_SemanticsMakeVisible unless semEqual also includes gl_SemanticsMakeVisible")
		}
		if st2&^st != 0 {
			fail("semStorageUnequal must not include any option that is not present in semStorageEqual")
		}
		if (sem^sem2)&semVolatile != 0 {
			fail("semEqual and semUnequal must either both include gl_SemanticsVolatile or neither")
		}
	}
	return ok
}

// scopedSemantics picks the semantics arguments of a built-in call that
// takes GL_KHR_memory_scope_semantics' scope and semantics operands, or
// nil when the call has none.
func scopedSemantics(name string, args []Expr) []Expr {
	n := len(args)
	switch name {
	case "atomicCompSwap":
		if n == 8 {
			return args[4:8]
		}
	case "atomicLoad":
		return args[n-2:]
	case "atomicAdd", "atomicMin", "atomicMax", "atomicAnd", "atomicOr", "atomicXor", "atomicExchange", "atomicStore":
		if n == 5 {
			return args[3:5]
		}
	case "controlBarrier", "controlBarrierArrive", "controlBarrierWait", "memoryBarrier":
		if n > 0 {
			return args[n-2:]
		}
	}
	return nil
}
