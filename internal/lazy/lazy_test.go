package lazy

import "testing"

var calls int

var squares = Value[[]int]{F: func() []int {
	calls++
	return []int{0, 1, 4, 9}
}}

// TestValue: F runs once, on the first Get, and every Get returns its
// result.
func TestValue(t *testing.T) {
	if calls != 0 {
		t.Fatalf("F ran before the first Get")
	}
	for range 3 {
		if got := squares.Get(); len(got) != 4 || got[3] != 9 {
			t.Fatalf("Get = %v", got)
		}
	}
	if calls != 1 {
		t.Fatalf("F ran %d times, want 1", calls)
	}
}
