package pysource

import "testing"

// TestBinds: a module still binds a name its patch deleted the def of
// when an import, an assignment or another def binds it at the top level;
// a name bound only inside a function, or only as an attribute, is not.
func TestBinds(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"from .impl import clamp\n", true},
		{"from .impl import (\n    other,\n    clamp,\n)\n", true},
		{"from .impl import fast_clamp as clamp\n", true},
		{"import numpy as clamp\n", true},
		{"import clamp.sub\n", true},
		{"clamp = _clamp\n", true},
		{"clamp: Callable = _clamp\n", true},
		{"a = clamp = _clamp\n", true},
		{"try:\n    from ._fast import clamp\nexcept ImportError:\n    pass\n", true},
		{"@cache\ndef clamp(x):\n    return x\n", true},
		{"class clamp:\n    pass\n", true},
		{"def other():\n    from .impl import clamp\n    return clamp\n", false},
		{"obj.clamp = _clamp\n", false},
		{"from .impl import clamp_low\n", false},
		{"import impl\n", false},
		{"clamped = 1\n", false},
	} {
		f, err := Parse("m.py", []byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Binds("clamp"); got != tc.want {
			t.Errorf("Binds(clamp) = %v, want %v in:\n%s", got, tc.want, tc.src)
		}
		f.Close()
	}
}
