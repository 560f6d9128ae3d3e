package holdout

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/premise-dev/premise/gate/junit"
	"github.com/premise-dev/premise/gate/ledger"
	"github.com/premise-dev/premise/internal/settings"
)

func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x.invalid", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@x.invalid", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// repo is a repository with seed 002's three directories on main.
func repo(t *testing.T) string {
	dir := t.TempDir()
	run(t, dir, "init", "-q", "-b", "main")
	write(t, dir, map[string]string{
		"reserve.py":                            "def apply_reserve(): pass\n",
		"tests/public/test_reserve_examples.py": "def test_simple_reserve(): pass\n",
		"tests/public/test_other.py":            "def test_other(): pass\n",
		"tests/holdout/rows.jsonl":              `{"request_id":"h-1","expect":"ok"}` + "\n",
		"tests/holdout/test_blind_rows.py":      "def test_holdout_row(): pass\n",
		"tests/properties/test_props.py":        "def test_prop(): pass\n",
	})
	run(t, dir, "add", ".")
	run(t, dir, "commit", "-q", "-m", "base")
	run(t, dir, "checkout", "-q", "-b", "agent")
	return dir
}

func TestCheck(t *testing.T) {
	ctx := context.Background()
	dir := repo(t)
	write(t, dir, map[string]string{"reserve.py": "def apply_reserve(): return 1\n"})
	run(t, dir, "commit", "-q", "-am", "code only")
	rep, err := Check(ctx, CheckOptions{Repo: dir, Base: "main"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Exit != 0 || len(rep.Touched)+len(rep.Rewritten) != 0 {
		t.Errorf("a code-only patch: %+v, want exit 0 and nothing listed", rep)
	}

	// The agent rewrites a public test, adds one, renames another, and
	// edits a holdout row; then tries to move the holdout elsewhere in
	// the settings.
	write(t, dir, map[string]string{
		"tests/public/test_reserve_examples.py": "def test_simple_reserve(): assert True\n",
		"tests/public/test_new.py":              "def test_new(): pass\n",
		"tests/holdout/rows.jsonl":              `{"request_id":"h-1","expect":"idempotent"}` + "\n",
		settings.File:                           "holdout:\n  dir: elsewhere/\n",
	})
	run(t, dir, "mv", "tests/public/test_other.py", "tests/public/test_other2.py")
	run(t, dir, "add", ".")
	run(t, dir, "commit", "-q", "-m", "make it pass")
	rep, err = Check(ctx, CheckOptions{Repo: dir, Base: "main"})
	if err != nil {
		t.Fatal(err)
	}
	want := &CheckReport{Base: "main", Head: "HEAD", MergeBase: rep.MergeBase, Holdout: "tests/holdout/",
		Touched: []Change{{Path: "tests/holdout/rows.jsonl", Status: "modified"}},
		Rewritten: []Change{
			{Path: "tests/public/test_other2.py", Status: "renamed", From: "tests/public/test_other.py"},
			{Path: "tests/public/test_reserve_examples.py", Status: "modified"},
		}, Exit: 2}
	if diff := cmp.Diff(want, rep); diff != "" {
		t.Errorf("report (-want +got):\n%s\nreason: the holdout is the merge-base's tests/holdout/, whatever the patch's settings say; an added public test is no rewrite", diff)
	}
}

// TestSparse applies the patterns with git itself: the workspace has
// everything but the holdout.
func TestSparse(t *testing.T) {
	dir := repo(t)
	run(t, dir, "sparse-checkout", "set", "--no-cone", Sparse(ConfigFrom(settings.Holdout{}))[0], Sparse(ConfigFrom(settings.Holdout{}))[1])
	for _, p := range []string{"reserve.py", "tests/public/test_other.py", "tests/properties/test_props.py"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Errorf("%s is missing from the sparse workspace: %v", p, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "tests/holdout")); err == nil {
		t.Errorf("tests/holdout is in the sparse workspace")
	}
	if got := Sparse(ConfigFrom(settings.Holdout{Dir: "./blind"})); got[1] != "!/blind/" {
		t.Errorf("Sparse for dir ./blind = %v", got)
	}
}

func rep(ids ...string) *junit.Report {
	r := &junit.Report{}
	for _, id := range ids {
		var as []junit.Attempt
		switch {
		case strings.HasSuffix(id, "!"):
			id, as = strings.TrimSuffix(id, "!"), []junit.Attempt{{Outcome: junit.Failed, Message: `{"request_id":"h-2"}`}}
		case strings.HasSuffix(id, "~"):
			id, as = strings.TrimSuffix(id, "~"), []junit.Attempt{{Outcome: junit.Failed}, {Outcome: junit.Passed}}
		default:
			as = []junit.Attempt{{Outcome: junit.Passed}}
		}
		r.Cases = append(r.Cases, junit.Case{ID: id, Name: id, Attempts: as})
	}
	return r
}

func TestClassify(t *testing.T) {
	cfg := ConfigFrom(settings.Holdout{})
	row := "tests/holdout/test_blind_rows.py::test_holdout_row"
	prop := "tests/properties/test_reserve_props.py::test_same_request_id_is_idempotent"
	frozen := &ledger.Ledger{Tests: map[string]*ledger.Row{row + "[h-3]": {State: ledger.Frozen}}}
	tests := []struct {
		name      string
		holdout   *junit.Report
		rewritten []Change
		ledger    *ledger.Ledger
		want      Bucket
		reason    string
	}{
		{"only the holdout fails", rep(row+"[h-1]", row+"[h-2]!"), nil, nil, SpecDrift, ""},
		{"holdout and a property fail", rep(row+"[h-2]!", prop+"!"), nil, nil, RealRegression, "the seed: holdout and properties fail on the same relation"},
		{"public test rewritten", rep(row+"[h-2]!", prop+"!"), []Change{{Path: "tests/public/test_reserve_examples.py", Status: "modified"}}, nil,
			Contamination, "a rewritten public test outranks the property: reject and restore it"},
		{"attempts disagree", rep(row+"[h-2]~", prop+"!"), nil, nil, Flake, "a flake is recorded, not judged"},
		{"the ledger holds it frozen", rep(row + "[h-3]!"), nil, frozen, Flake, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Classify(ClassifyOptions{Config: cfg, Public: rep("tests/public/test_a.py::test_a"), Holdout: tt.holdout, Ledger: tt.ledger, Rewritten: tt.rewritten})
			if len(got.Failures) != 1 || got.Failures[0].Bucket != tt.want || got.Exit != 1 {
				t.Fatalf("failures %+v exit %d, want one %s (%s)", got.Failures, got.Exit, tt.want, tt.reason)
			}
			f := got.Failures[0]
			if f.Relation != row || f.Action != Actions[tt.want] {
				t.Errorf("failure %+v: want the relation %s and the seed's action", f, row)
			}
			if strings.Contains(f.Relation+f.Signal, "h-") {
				t.Errorf("failure %+v names a row: paste the relation, not the row", f)
			}
		})
	}
	if got := Classify(ClassifyOptions{Config: cfg, Holdout: rep(row + "[h-1]")}); got.Exit != 0 || len(got.Failures) != 0 {
		t.Errorf("a passing holdout: %+v", got)
	}
}

func TestRelation(t *testing.T) {
	for id, want := range map[string]string{
		"tests/holdout/test_rows.py::test_row[h-1]":         "tests/holdout/test_rows.py::test_row",
		"tests/holdout/test_rows.py::TestK::test_row[a[b]]": "tests/holdout/test_rows.py::TestK::test_row",
		"example.com/m/holdout::TestRows/h-1":               "example.com/m/holdout::TestRows",
		"tests/holdout/test_rows.py::test_plain":            "tests/holdout/test_rows.py::test_plain",
	} {
		if got := Relation(id); got != want {
			t.Errorf("Relation(%s) = %s, want %s", id, got, want)
		}
	}
}
