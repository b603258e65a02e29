// Package lazy holds values computed on first use. A package-level Value
// is static data (its zero sync.Once and a function), so unlike
// sync.OnceValue, which allocates its state when called, declaring one
// runs no code and allocates nothing at package init: every start of
// coop pays for init, and most commands never need the tables.
package lazy

import "sync"

// Value is the result of F, computed once, on the first Get.
type Value[T any] struct {
	F    func() T
	once sync.Once
	v    T
}

// Get returns F's result, calling F on the first call only.
func (l *Value[T]) Get() T {
	l.once.Do(l.init)
	return l.v
}

func (l *Value[T]) init() { l.v = l.F() }
