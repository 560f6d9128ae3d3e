package gate

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/premise-dev/premise/validate"
)

func gitRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		gitIn(t, dir, args...)
	}
	copyFile(t, "testdata/intervals/base/intervals.py", filepath.Join(dir, "intervals.py"))
	run("init", "-q", "-b", "main")
	run("add", ".")
	run("commit", "-qm", "base")
	// The agent's patch, which also starts coercing None to [].
	head, err := os.ReadFile("testdata/intervals/head/intervals.py")
	if err != nil {
		t.Fatal(err)
	}
	patched := strings.Replace(string(head), `raise TypeError("ranges is required")`, "return []", 1)
	if err := os.WriteFile(filepath.Join(dir, "intervals.py"), []byte(patched), 0o644); err != nil {
		t.Fatal(err)
	}
	run("commit", "-qam", "agent patch")
	return dir
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDifferential: rows run against base (a temporary git worktree) and
// head; an invalid input that used to raise and now returns is listed
// first; same_as_base rows pass exactly when head and base agree.
func TestDifferential(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t)
	tab := loadTable(t, "testdata/partitions.yaml")
	tab.Rows = append(tab.Rows,
		validate.Row{ID: "P010", Cls: "same", Kind: validate.KindRepresentative, Inp: []any{[]any{0, 4}, []any{3, 7}}, HasInp: true, Relation: "unchanged by the patch", SameAsBase: true},
		validate.Row{ID: "P011", Cls: "same", Kind: validate.KindRepresentative, Inp: []any{[]any{2, 3}, []any{0, 1}}, HasInp: true, Relation: "unchanged by the patch", SameAsBase: true},
	)
	rep, err := Differential(context.Background(), Config{Repo: repo, Base: "HEAD~1", Budget: DefaultBudget, Reruns: 2, Seed: 3}, tab)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"P008", "P004", "P005", "P011"}, rep.Changed); diff != "" {
		t.Errorf("changed rows, spec changes first (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"P004:fail", "P005:fail", "P008:fail", "P011:fail"}, failing(rep)); diff != "" {
		t.Errorf("failing rows (-want +got):\n%s", diff)
	}
	if !rep.row("P008").SpecChange {
		t.Error("P008 is not marked as a silent spec change")
	}
	out, _ := exec.Command("git", "-C", repo, "worktree", "list").Output()
	if n := strings.Count(string(out), "\n"); n != 1 {
		t.Errorf("the base worktree was not removed:\n%s", out)
	}
}

// TestDifferentialGo: the Go twin through a base worktree: the harness is
// built in each tree's own module, and P004 and P005 are the rows whose
// outcome the agent's patch changed.
func TestDifferentialGo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		gitIn(t, dir, args...)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/iv\n\ngo 1.21\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	copyFile(t, "../examples/intervals_go/intervals.go", filepath.Join(dir, "intervals.go"))
	run("init", "-q", "-b", "main")
	run("add", ".")
	run("commit", "-qm", "base")
	copyFile(t, "../examples/intervals_go/agentpatch/intervals.go", filepath.Join(dir, "intervals.go"))
	run("commit", "-qam", "agent patch")
	tab := loadTable(t, "../examples/intervals_go/partitions.yaml")
	tab.Target = "example.com/iv.MergeRanges"
	rep, err := Differential(context.Background(), Config{Repo: dir, Base: "HEAD~1", Budget: DefaultBudget, Reruns: 2, Seed: 1}, tab)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"P004", "P005"}, rep.Changed); diff != "" {
		t.Errorf("changed rows (-want +got):\n%s", diff)
	}
	if rep.Exit != 1 {
		t.Errorf("exit %d, want 1", rep.Exit)
	}
}

// A Go harness that cannot start (here: no module at the directory) is an
// error and no adapter at all: a caller that closes what it got, as every
// caller does, must not close a nil harness (the differential search
// crashed premise run that way, exit 3, on a package that did not build).
func TestNewAdapterThatFailsIsNil(t *testing.T) {
	t.Parallel()
	tab := &validate.Table{Language: "go", Target: "example.com/none.F", Rows: []validate.Row{{ID: "P001", Args: []any{1}}}}
	a, err := NewAdapter(context.Background(), Config{}, t.TempDir(), tab)
	if err == nil {
		t.Fatal("a harness started in a directory without a module")
	}
	if a != nil {
		t.Errorf("NewAdapter returned %#v beside its error %v, want a nil Adapter", a, err)
	}
}

// A target the base's code cannot compile (a method of a type the patch
// made generic, called as the head names it) is no change: the base's
// call is a harness error, the row is not compared, and the other rows
// run as ever. It was "crashed" against the head's answer, a false
// change.
func TestDifferentialGoTargetTheBaseCannotBuild(t *testing.T) {
	t.Parallel()
	dir := goCommits(t, "example.com/b",
		"package b\n\nfunc Twice(x int) int { return 2 * x }\n\ntype box struct{ v []interface{} }\n\nfunc (b *box) top() interface{} { return b.v[len(b.v)-1] }\n",
		"package b\n\nfunc Twice(x int) int { return 2 * x }\n\ntype box[E any] struct{ v []E }\n\nfunc (b *box[E]) top() E { return b.v[len(b.v)-1] }\n")
	tab := &validate.Table{Version: validate.FormatVersion, Language: "go", Rows: []validate.Row{
		{ID: "P001", Target: "example.com/b.Twice", Args: []any{1}, SameAsBase: true},
		{ID: "P002", Target: "example.com/b.Twice", Args: []any{2}, SameAsBase: true},
		{ID: "P003", Target: "example.com/b.(*box[int]).top", Args: []any{map[string]any{}}, SameAsBase: true},
	}}
	rep, err := Differential(context.Background(), Config{Repo: dir, Base: "HEAD~1", Budget: DefaultBudget, Reruns: 1, Seed: 1, Private: true}, tab)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Changed) != 0 {
		t.Errorf("changed rows %v, want none: the base cannot call top as the head names it", rep.Changed)
	}
	for _, r := range rep.Rows {
		if r.ID == "P003" && r.Status != StatusError {
			t.Errorf("P003: %s (%s), want an error: the base's harness left the target out", r.Status, r.Why)
		}
	}
}

// TestDifferentialHarnessRefusalIsNoChange: a row the harness refuses on
// one side (the patch added or removed a parameter the row passes: Go's
// harness raises premise.ArityError) is not compared: the difference is
// the harness's, and a reviewer who accepted it would pin a refusal the
// gate then cannot replay.
func TestDifferentialHarnessRefusalIsNoChange(t *testing.T) {
	t.Parallel()
	dir := goCommits(t, "example.com/m",
		"package m\n\nfunc Grow(x int) int { return x }\n\nfunc Shrink(x, y int) int { return x + y }\n\nfunc Same(x int) int { return x }\n",
		"package m\n\nfunc Grow(x, y int) int { return x + y }\n\nfunc Shrink(x int) int { return x }\n\nfunc Same(x int) int { return -x }\n")
	tab := &validate.Table{Version: validate.FormatVersion, Language: "go", Rows: []validate.Row{
		{ID: "P001", Target: "example.com/m.Grow", Args: []any{1, 2}},
		{ID: "P002", Target: "example.com/m.Shrink", Args: []any{1, 2}},
		{ID: "P003", Target: "example.com/m.Same", Args: []any{1}},
	}}
	rep, err := Differential(context.Background(), Config{Repo: dir, Base: "HEAD~1", Budget: DefaultBudget, Reruns: 1, Seed: 1, Private: true}, tab)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"P003"}, rep.Changed); diff != "" {
		t.Errorf("changed rows (-want +got): a row one side's harness refused (premise.ArityError) is not a change:\n%s", diff)
	}
}

// goCommits is a module's repository of two commits: base's one file
// (m.go), then head's.
func goCommits(t *testing.T, module, base, head string) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module "+module+"\n\ngo 1.21\n")
	write("m.go", base)
	gitIn(t, dir, "init", "-q", "-b", "main")
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-qm", "base")
	write("m.go", head)
	gitIn(t, dir, "commit", "-qam", "head")
	return dir
}

// TestNamesHTTPMiddleware: a row holding a middleware's next handler,
// {"$go": "http.Handler"}, builds net/http into the Go harness.
func TestNamesHTTPMiddleware(t *testing.T) {
	next := &validate.Table{Rows: []validate.Row{{ID: "R1", Args: []any{map[string]any{"$go": "http.Handler", "value": nil}}}}}
	if !namesHTTP(next) {
		t.Error("a row with an http.Handler argument does not build net/http in")
	}
	plain := &validate.Table{Rows: []validate.Row{{ID: "R1", Args: []any{"x"}}}}
	if namesHTTP(plain) {
		t.Error("a row of text builds net/http in")
	}
}
