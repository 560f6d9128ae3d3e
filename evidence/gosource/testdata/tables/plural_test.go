package tables

import "testing"

type tt struct{ in, out string }

var cases = []tt{
	{"car", "cars"},
	{"boy", "boys"},
}

var replaced = []tt{{"x", "xs"}}

func init() {
	cases = append(cases, tt{computed(), "ys"})
	replaced = []tt{{"y", "ys"}}
}

func computed() string { return "y" }

func TestPlural(t *testing.T) {
	for _, c := range cases {
		if Plural(c.in) != c.out {
			t.Error(c.in)
		}
	}
	for _, c := range replaced {
		if Plural(c.in) != c.out {
			t.Error(c.in)
		}
	}
}
