package profile

import (
	"bytes"
	"testing"
)

func TestBuiltinsRoundTrip(t *testing.T) {
	if len(Names()) == 0 {
		t.Fatal("no built-in profiles")
	}
	for _, n := range Names() {
		p, err := Builtin(n)
		if err != nil {
			t.Fatal(err)
		}
		b, err := p.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		q, err := Parse(b)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		c, _ := q.Marshal()
		if !bytes.Equal(b, c) {
			t.Errorf("%s: does not round-trip", n)
		}
	}
}

func TestParseRejectsUnknownField(t *testing.T) {
	if _, err := Parse([]byte(`{"name":"x","extensionz":[]}`)); err == nil {
		t.Error("unknown field accepted")
	}
	if _, err := Builtin("no-such"); err == nil {
		t.Error("missing built-in accepted")
	}
}
