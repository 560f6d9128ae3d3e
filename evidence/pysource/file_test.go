package pysource

import (
	"fmt"
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

// TestClassMethods: the alternative constructors of a class are its
// @classmethod methods, not its static methods or plain ones.
func TestClassMethods(t *testing.T) {
	f := mustParse(t, "r.py", `
class Range:
    def __new__(cls, *args):
        raise TypeError("use Range.empty()")

    @classmethod
    def empty(cls):
        return object.__new__(cls)

    @staticmethod
    def helper(x):
        return x

    @classmethod
    def of(cls, lo, hi=None):
        return cls.empty()

    def plain(self):
        pass
`)
	if got, want := f.ClassMethods("Range"), []string{"empty", "of"}; !slices.Equal(got, want) {
		t.Errorf("ClassMethods(Range) = %q, want %q", got, want)
	}
}

// TestDataclassFields: a dataclass's fields are its annotated names in
// order, with their defaults, a ClassVar left out; a plain class has none.
func TestDataclassFields(t *testing.T) {
	f, err := Parse("shop.py", []byte(`import dataclasses
from typing import ClassVar

@dataclasses.dataclass(frozen=True)
class Cart:
    prices: list
    discount: float = 0.0
    currency: ClassVar[str] = "EUR"
    note = "not a field"

class Plain:
    prices: list
`))
	if err != nil {
		t.Fatal(err)
	}
	got, ok := f.DataclassFields("Cart")
	want := []Field{{Name: "prices", Type: "list"}, {Name: "discount", Type: "float", Default: "0.0"}}
	if !ok || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("DataclassFields(Cart) = %v, %v; want %v", got, ok, want)
	}
	if _, ok := f.DataclassFields("Plain"); ok {
		t.Error("a plain class is a dataclass")
	}
}
