package semver

import (
	"math"
	"strings"
	"testing"
)

func TestDirect(t *testing.T) {
	Compare("1.0.0", "1.0.1")
	Compare("1."+"2", basicJSON)
	Sum([]int{1, -2, 3})
	Lookup(map[string]int{"a": 1}, "a")
	Scale(2)
	Hash([]byte("xy"))
	Join(",", "a", "b")
	Join(";")
	Kind(KindDir)
	Apply(Options{Strict: true, Depth: 2}, `raw\n`)
	s := "local"
	Compare(s, s)
	Compare(runtimeValue(), "dropped")
	Sum([]int{math.MaxInt32, len("abc")})
	Compare(strings.Repeat("ab", 3), string([]byte("b")))
	First[int]([]int{7})
	if got := Scale(1.5); got != 3 {
		t.Fatal(got)
	}
}

func TestTable(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"1.0", "2.0", -1},
		{a: "3.0", b: "3.0"},
	}
	for _, tt := range tests {
		t.Run(tt.a, func(t *testing.T) {
			if got := Compare(tt.a, tt.b); got != tt.want {
				t.Errorf("got %d", got)
			}
		})
	}
}

func TestMapTable(t *testing.T) {
	for name, tc := range map[string]struct{ in []int }{
		"one": {[]int{1}},
		"two": {in: []int{1, 2}},
	} {
		t.Log(name)
		Sum(tc.in)
	}
}

func TestShared(t *testing.T) {
	for _, tt := range sharedTests {
		if Scale(float64(tt.want)) == 0 {
			t.Fatal(tt.in)
		}
	}
}

type namedCase struct {
	kind pathKind
	name string
}

func TestNamedTable(t *testing.T) {
	for _, tc := range []namedCase{{KindLink, "link"}, {kind: kindMask}} {
		if Kind(tc.kind) != tc.name {
			t.Log(tc.kind.String())
		}
	}
}

func TestMethods(t *testing.T) {
	v, err := NewVersion("1.2.3")
	if err != nil {
		t.Fatal(err)
	}
	w := MustParse("1.3.0")
	v.LessThan(w)
	MustParse("2.0.0").String()
	Version{Major: 1}.String()
	for _, tt := range []struct {
		v *Version
		s string
	}{
		{MustParse("0.1.0"), "x"},
	} {
		tt.v.String()
	}
}

func TestReassigned(t *testing.T) {
	x := "a"
	for i := 0; i < 2; i++ {
		x += "b"
	}
	Compare(x, "reassigned")
	y := "before"
	y = "after"
	Compare(y, "sequential")
}

func TestBranches(t *testing.T) {
	for _, tt := range []struct {
		skip bool
		in   string
	}{{true, "skipped"}, {false, "taken"}} {
		if tt.skip {
			continue
		}
		Never(tt.in)
	}
}

func check(t *testing.T, in string, want int) {
	t.Helper()
	if Compare(in, "0") != want {
		t.Error(in)
	}
}

func TestHelper(t *testing.T) {
	check(t, "9.9", 1)
	run := func(n int) { Sum([]int{n, n}) }
	run(4)
}

func FuzzCompare(f *testing.F) {
	f.Add("s1", "s2")
	for _, s := range []string{"s3"} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		Compare(a, b)
	})
}

func FuzzHash(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		Hash(data)
		Sum([]int{n})
	})
}

func TestPartialReceiver(t *testing.T) {
	Version{Major: 2, Pre: runtimeValue()}.String()
}

func runAll(t *testing.T, ins []string, f func(string) string) {
	for _, in := range ins {
		f(in)
	}
}

func TestFuncValue(t *testing.T) {
	runAll(t, []string{"fv1", "fv2"}, Never)
}
