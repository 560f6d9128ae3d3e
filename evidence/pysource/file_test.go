package pysource

import (
	"slices"
	"testing"
)

// TestClassBases: a method of a str subclass is called on objects built
// from strings, so the bases must be read as written, nested classes too.
func TestClassBases(t *testing.T) {
	f := mustParse(t, "m.py", `
import typing as t

class Markup(str):
    class Inner(int, metaclass=type):
        pass

@t.final
class Plain:
    pass
`)
	for cls, want := range map[string][]string{
		"Markup":       {"str"},
		"Markup.Inner": {"int"},
		"Plain":        nil,
		"Missing":      nil,
	} {
		if got := f.ClassBases(cls); !slices.Equal(got, want) {
			t.Errorf("ClassBases(%s) = %q, want %q", cls, got, want)
		}
	}
}
