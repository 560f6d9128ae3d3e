package gosource

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// stmtPkg is a package whose test functions each use one kind of
// statement around calls of F and G.
const stmtPkg = `package p

func F(s string) string { return s }
func G(n int) int       { return n }
func Pick(s string) bool { return s != "" }
`

const stmtTests = `package p

import "testing"

func TestExprStops(t *testing.T) {
	F("expr")
	t.Fatal("stop")
	F("after fatal")
}

func TestPanicStops(t *testing.T) {
	F("before panic")
	panic("x")
	F("after panic")
}

func TestAssign(t *testing.T) {
	x := F("rhs")
	m := map[string]string{}
	m[F("lhs index")] = x
	y := "assigned"
	F(y)
	y += "!"
	F(y)
}

func TestDecl(t *testing.T) {
	var v = "decl"
	F(v)
	const c = "const"
	F(c)
	type local string
	F(string(local("typed")))
}

func TestLoops(t *testing.T) {
	for _, s := range []string{"r1", "r2"} {
		F(s)
	}
	for i := 0; i < 1; i++ {
		F("for body")
	}
	s := "before"
	for s = "init"; Pick(F("cond")); s = F("post") {
	}
	F(s)
	n := 1
	for n < 3 {
		n = n + 1
	}
	G(n)
}

func TestIfKnown(t *testing.T) {
	if true {
		F("then taken")
		return
	}
	F("after return")
}

func TestIfFalse(t *testing.T) {
	if false {
		F("dead")
	} else {
		F("else taken")
	}
	const debug = false
	if debug {
		F("dead too")
	}
	if false {
		F("dead, no else")
	}
	F("after ifs")
}

func TestIfUnknown(t *testing.T) {
	if x := F("init"); Pick(x) {
		F("then")
		v := "in then"
		F(v)
	} else if Pick("c") {
		F("else if")
	} else {
		F("else")
	}
	w := "w"
	if Pick(w) {
		w = "changed"
	}
	F(w)
}

func TestSwitch(t *testing.T) {
	switch k := "a"; k {
	case "a":
		F("case a")
		break
		F("after break")
	case "b":
		F("case b")
	}
	F("after switch")
	switch {
	case Pick("x"):
		F("first")
		fallthrough
	default:
		F("default")
	}
	switch {
	default:
		return
	}
	F("after returning switch")
}

func TestTypeSwitch(t *testing.T) {
	var v any = 1
	switch x := v.(type) {
	case int:
		_ = x
		F("type case")
	default:
		F("type default")
	}
}

func TestSelect(t *testing.T) {
	ch := make(chan string, 1)
	select {
	case ch <- F("comm"):
		F("select body")
	default:
		F("select default")
	}
}

func TestBlockAndLabel(t *testing.T) {
	{
		F("block")
	}
outer:
	for {
		F("labeled")
		break outer
	}
	F("after labeled")
	{
		return
	}
	F("after returning block")
}

func TestGoDeferSend(t *testing.T) {
	defer F("defer")
	go F("go")
	ch := make(chan string, 1)
	ch <- F("send")
}

func TestReturn(t *testing.T) {
	return
	F("unreached")
}

func TestReturnCall(t *testing.T) {
	if Pick("r") {
		return
	}
	F("after a conditional return")
}

func TestIncDec(t *testing.T) {
	n := 1
	n++
	G(n)
	k := 2
	G(k)
}

func TestTable(t *testing.T) {
	for _, c := range []struct {
		s    string
		skip bool
	}{{"row1", false}, {"row2", true}, {"row3", false}} {
		if c.skip {
			continue
		}
		F(c.s)
	}
}

func TestGoto(t *testing.T) {
	goto end
	F("skipped by goto")
end:
	F("at label")
}

func TestKnownFallthrough(t *testing.T) {
	switch {
	case true:
		F("known case")
		fallthrough
	default:
		F("next clause")
	}
	F("after fallthrough")
}
`

// TestStatements pins what the walker does with each kind of statement:
// which calls it reaches, with which values bound, and where a branch,
// a return or a known condition stops it.
func TestStatements(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{"p.go": stmtPkg, "p_test.go": stmtTests, "go.mod": "module example.com/p\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	render := func(cs []Call) []string {
		var out []string
		for _, c := range cs {
			out = append(out, fmt.Sprintf("%s %s %v", c.Pos, c.Kind, c.Args))
		}
		return out
	}
	for _, c := range []struct {
		fn     string
		want   []string
		reason string
	}{{
		fn: "F",
		want: []string{
			"p_test.go:6 test_call [expr]",
			"p_test.go:12 test_call [before panic]",
			"p_test.go:18 test_call [rhs]",
			"p_test.go:20 test_call [lhs index]",
			"p_test.go:22 test_call [assigned]",
			"p_test.go:29 test_call [decl]",
			"p_test.go:31 test_call [const]",
			"p_test.go:33 test_call [typed]",
			"p_test.go:37 table [r1]",
			"p_test.go:37 table [r2]",
			"p_test.go:41 test_call [for body]",
			"p_test.go:44 test_call [post]",
			"p_test.go:44 test_call [cond]",
			"p_test.go:56 test_call [then taken]",
			"p_test.go:66 test_call [else taken]",
			"p_test.go:75 test_call [after ifs]",
			"p_test.go:79 test_call [init]",
			"p_test.go:80 test_call [then]",
			"p_test.go:82 test_call [in then]",
			"p_test.go:84 test_call [else if]",
			"p_test.go:86 test_call [else]",
			"p_test.go:98 test_call [case a]",
			"p_test.go:104 test_call [after switch]",
			"p_test.go:107 test_call [first]",
			"p_test.go:110 test_call [default]",
			"p_test.go:124 test_call [type case]",
			"p_test.go:126 test_call [type default]",
			"p_test.go:133 test_call [comm]",
			"p_test.go:134 test_call [select body]",
			"p_test.go:136 test_call [select default]",
			"p_test.go:142 test_call [block]",
			"p_test.go:146 test_call [labeled]",
			"p_test.go:149 test_call [after labeled]",
			"p_test.go:157 test_call [defer]",
			"p_test.go:158 test_call [go]",
			"p_test.go:160 test_call [send]",
			"p_test.go:172 test_call [after a conditional return]",
			"p_test.go:187 table [row1]",
			"p_test.go:187 table [row3]",
			"p_test.go:205 test_call [known case]",
			"p_test.go:210 test_call [after fallthrough]",
		},
		reason: "t.Fatal, panic, return, goto, a returning block or switch, and break end what follows; " +
			"a for loop's post statement is read before its condition; a known condition takes one branch, " +
			"a known switch tag one case; a name assigned with += or in a loop or branch is no longer known (F(y), F(s), F(w) are dropped); " +
			"a row whose skip is true continues before the call; " +
			"fallthrough goes on after the switch, though the clause it falls into is not walked",
	}, {
		fn:     "G",
		want:   []string{"p_test.go:180 test_call [2]"},
		reason: "n++ and n = n + 1 in a loop make n unknown; k is still 2",
	}} {
		if diff := cmp.Diff(c.want, render(p.Calls(c.fn))); diff != "" {
			t.Errorf("Calls(%s) (-want +got):\n%s\nreason: %s", c.fn, diff, c.reason)
		}
	}
}
