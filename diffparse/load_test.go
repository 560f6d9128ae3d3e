package diffparse

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/premise-dev/premise/internal/git"
)

const pyBase = `import os


def top(x):
    return x + 1


@decorator
@other(1)
def decorated(a):
    return a


class Outer:
    """An outer class."""

    attr = 1

    def method(self):
        def helper():
            return 1
        return helper()

    class Inner:
        def deep(self):
            return 2

    async def later(self):
        return 3


async def fetch():
    return None


def to_remove():
    x = 1
    y = 2
    return x + y
`

const goBase = `package shapes

import "fmt"

// List is a generic list.
type List[T any] struct {
	items []T
}

// Push appends v.
func (l *List[T]) Push(v T) {
	l.items = append(l.items, v)
}

type (
	A int
	B struct {
		x int
	}
)

// Hello greets.
func Hello(name string) string {
	return fmt.Sprintf("hello %s", name)
}

func (a A) String() string {
	return fmt.Sprint(int(a))
}
`

// TestLoadShapes builds a real repository for every shape of diff git emits
// and checks Load's JSON against golden files (issue 2, "Done means").
func TestLoadShapes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// base and head are applied in turn; extra runs after head's files
		// are written and before the head commit.
		base, head map[string]string
		extra      func(r *testRepo)
		reason     string
	}{
		{
			name: "python-symbols",
			base: map[string]string{"pkg/shapes.py": pyBase},
			head: map[string]string{"pkg/shapes.py": strings.NewReplacer(
				"return x + 1", "return x + 2", // top
				"    return a\n", "    return a * 2\n", // decorated: an added line inside, span from the first decorator
				"            return 1\n", "            return 10\n", // nested helper belongs to Outer.method
				"            return 2\n", "            return 20\n", // Outer.Inner.deep
				"        return 3\n", "        await x()\n        return 3\n", // async method
				"    y = 2\n", "", // a pure deletion inside to_remove
			).Replace(pyBase) + "\n\ndef brand_new():\n    pass\n"},
			reason: "innermost symbols only; decorated spans start at the first decorator; nested functions belong to their enclosing method; a pure deletion counts for the symbol around its anchor",
		},
		{
			name:   "python-src-layout-and-init",
			base:   map[string]string{"src/acme/__init__.py": "def f():\n    return 1\n", "src/acme/sub/mod.py": "def g():\n    return 1\n"},
			head:   map[string]string{"src/acme/__init__.py": "def f():\n    return 2\n", "src/acme/sub/mod.py": "def g():\n    return 2\n"},
			reason: "module paths drop src/, .py and /__init__",
		},
		{
			name:   "python-deleted-symbol",
			base:   map[string]string{"m.py": "def keep():\n    return 1\n\n\ndef gone():\n    a = 1\n    return a\n"},
			head:   map[string]string{"m.py": "def keep():\n    return 1\n"},
			reason: "a symbol absent from head is deleted and its lines refer to the base file",
		},
		{
			name: "go-symbols",
			base: map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "internal/shapes/shapes.go": goBase},
			head: map[string]string{"internal/shapes/shapes.go": strings.NewReplacer(
				"l.items = append(l.items, v)", "l.items = append([]T{v}, l.items...)",
				"\t\tx int\n", "\t\tx int\n\t\ty int\n",
				"return fmt.Sprint(int(a))", "return fmt.Sprintf(\"%d\", int(a))",
				"// Hello greets.", "// Hello greets warmly.",
			).Replace(goBase) + "\nfunc Added() {}\n"},
			reason: "Type.Method with pointer and generic receivers stripped; grouped type specs; a doc-comment change alone touches no symbol",
		},
		{
			name: "added-and-deleted-files",
			base: map[string]string{"old.py": "def old():\n    return 1\n", "keep.txt": "x\n"},
			head: map[string]string{"old.py": deleteMark, "new.py": "class New:\n    def m(self):\n        pass\n"},
		},
		{
			name:   "renamed-without-change",
			base:   map[string]string{"a/mod.py": "def f():\n    return 1\n" + strings.Repeat("# filler\n", 20)},
			extra:  func(r *testRepo) { mkdir(r, "b"); r.git("mv", "a/mod.py", "b/mod.py") },
			reason: "a pure rename has no hunks and so no symbols",
		},
		{
			name: "renamed-with-change",
			base: map[string]string{"a/mod.py": "def f():\n    return 1\n" + strings.Repeat("# filler\n", 20)},
			extra: func(r *testRepo) {
				mkdir(r, "b")
				r.git("mv", "a/mod.py", "b/mod.py")
				r.write(map[string]string{"b/mod.py": "def f():\n    return 2\n" + strings.Repeat("# filler\n", 20)})
			},
		},
		{
			name: "copied",
			base: map[string]string{"src.py": "def f():\n    return 1\n" + strings.Repeat("# filler line\n", 30)},
			head: map[string]string{
				"src.py":     "def f():\n    return 1\n" + strings.Repeat("# filler line\n", 30) + "# more\n",
				"copy.py":    "def f():\n    return 1\n" + strings.Repeat("# filler line\n", 30),
				"changed.py": "def f():\n    return 9\n" + strings.Repeat("# filler line\n", 30),
			},
			reason: "git reports copies of a file modified in the same diff, with and without a content change",
		},
		{
			name:  "mode-change",
			base:  map[string]string{"run.py": "def main():\n    pass\n"},
			extra: func(r *testRepo) { chmod(r, "run.py", 0o755) },
		},
		{
			name:  "mode-change-and-content",
			base:  map[string]string{"run.py": "def main():\n    pass\n"},
			head:  map[string]string{"run.py": "def main():\n    return 1\n"},
			extra: func(r *testRepo) { chmod(r, "run.py", 0o755) },
		},
		{
			name: "binary",
			base: map[string]string{"img.bin": "\x00\x01\x02binary\x00"},
			head: map[string]string{"img.bin": "\x00\x01\x03binary\x00", "new.bin": "\x00\xff"},
		},
		{
			name: "no-newline-at-eof",
			base: map[string]string{"m.py": "def f():\n    return 1", "n.py": "def g():\n    return 1\n"},
			head: map[string]string{"m.py": "def f():\n    return 2", "n.py": "def g():\n    return 2"},
		},
		{
			name: "crlf",
			base: map[string]string{"w.py": "def f():\r\n    return 1\r\n\r\n\r\ndef g():\r\n    return 1\r\n"},
			head: map[string]string{"w.py": "def f():\r\n    return 1\r\n\r\n\r\ndef g():\r\n    return 2\r\n"},
		},
		{
			name: "non-utf8",
			base: map[string]string{"latin.py": "# -*- coding: latin-1 -*-\ndef f():\n    return '\xe9'\n"},
			head: map[string]string{"latin.py": "# -*- coding: latin-1 -*-\ndef f():\n    return '\xe8\xff'\n"},
		},
		{
			name: "quoted-paths",
			base: map[string]string{"dir with space/m od.py": "def f():\n    return 1\n", "ünï/cödé.py": "def g():\n    return 1\n"},
			head: map[string]string{"dir with space/m od.py": "def f():\n    return 2\n", "ünï/cödé.py": "def g():\n    return 2\n", "tab\there.py": "def h():\n    pass\n"},
		},
		{
			name: "excluded",
			base: map[string]string{
				".gitattributes": "gen/** linguist-generated\n*.pb.py linguist-generated=true\nlib/x.py linguist-vendored\n",
				".premise.yaml":  "exclude:\n  - \"migrations/**\"\n  - \"*_pb2.py\"\nmodel: whatever-other-stages-read\n",
				"go.mod":         "module example.com/m\n",
				// A deeper file and a later line win, as in git.
				"lib/.gitattributes":      "y.py linguist-generated\n*.gen.py linguist-generated\n",
				"lib/deep/.gitattributes": "*.gen.py -linguist-generated\n",
				// Vendor directories the merge-base has (issue 26: one a
				// patch creates is not vendored).
				"vendor/modules.txt":           "# example.com/v\n",
				"third_party/README":           "vendored\n",
				"web/node_modules/m/README.md": "m\n",
			},
			head: map[string]string{
				"gen/a.py":                "def f():\n    pass\n",
				"api.pb.py":               "def f():\n    pass\n",
				"lib/x.py":                "def f():\n    pass\n",
				"vendor/v/v.go":           "package v\n\nfunc F() {}\n",
				"third_party/t.py":        "def f():\n    pass\n",
				"web/node_modules/m/i.py": "def f():\n    pass\n",
				"migrations/0001.py":      "def f():\n    pass\n",
				"proto/thing_pb2.py":      "def f():\n    pass\n",
				"zz_generated.go":         "// Code generated by stringer; DO NOT EDIT.\n\npackage m\n\nfunc G() {}\n",
				"kept.py":                 "def kept():\n    pass\n",
				"lib/y.py":                "def f():\n    pass\n",
				"lib/other.gen.py":        "def f():\n    pass\n",
				"lib/deep/kept.gen.py":    "def kept():\n    pass\n",
				"README.md":               "# hi\n",
			},
			reason: "generated and vendored files are listed with a reason and no symbols; other languages are listed with none",
		},
		{
			name:   "parse-error",
			base:   map[string]string{"bad.py": "def f():\n    return 1\n", "bad.go": "package m\n"},
			head:   map[string]string{"bad.py": "def f(:\n    return 1\n", "bad.go": "package m\n\nfunc {\n", "good.py": "def ok():\n    pass\n"},
			reason: "a file that does not parse is listed with parse_error; the run goes on",
		},
		{
			name:   "empty-diff",
			base:   map[string]string{"m.py": "def f():\n    pass\n"},
			reason: "no change: no files",
		},
		{
			name: "submodule",
			base: map[string]string{"m.py": "def f():\n    pass\n"},
			extra: func(r *testRepo) {
				sub := newTestRepo(r.t)
				sub.write(map[string]string{"s.py": "x = 1\n"})
				sub.commit("one")
				sub.write(map[string]string{"s.py": "x = 2\n"})
				second := sub.commit("two")
				r.git("-c", "protocol.file.allow=always", "submodule", "--quiet", "add", sub.dir, "deps/sub")
				r.git("-C", "deps/sub", "checkout", "--quiet", "HEAD~1")
				r.commit("add submodule at one")
				r.git("tag", "with-sub")
				r.git("-C", "deps/sub", "checkout", "--quiet", second)
			},
			reason: "a submodule pointer change is listed with no language and no symbols",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := newTestRepo(t)
			r.write(tt.base)
			base := r.commit("base")
			r.write(tt.head)
			if tt.extra != nil {
				tt.extra(r)
			}
			if tt.name == "submodule" {
				base = "with-sub"
			}
			head := r.commit("head")
			res := r.load(base, head)
			checkInvariants(t, res)
			golden(t, "load-"+tt.name, res)
		})
	}
}

func mkdir(r *testRepo, p string) {
	r.t.Helper()
	if err := os.MkdirAll(filepath.Join(r.dir, p), 0o755); err != nil {
		r.t.Fatal(err)
	}
}

func chmod(r *testRepo, p string, mode os.FileMode) {
	r.t.Helper()
	if err := os.Chmod(filepath.Join(r.dir, p), mode); err != nil {
		r.t.Fatal(err)
	}
}

// checkInvariants asserts what every Result promises: each symbol's changed
// lines lie in its span, and sources are present for parsed sides.
func checkInvariants(t *testing.T, res *Result) {
	t.Helper()
	for _, f := range res.Files {
		for _, s := range f.Symbols {
			for _, l := range s.ChangedLines {
				if l < s.Start || l > s.End {
					t.Errorf("%s: %s changed line %d outside its span %d-%d", f.Path, s.Name, l, s.Start, s.End)
				}
			}
			if src := f.SymbolSource(s); len(src) == 0 {
				t.Errorf("%s: %s has no source", f.Path, s.Name)
			}
		}
	}
}

// TestLoadDirtyAndBare checks that file contents come from git objects: a
// dirty work tree and a bare clone give the same answer as a clean one.
func TestLoadDirtyAndBare(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write(map[string]string{"m.py": "def f():\n    return 1\n"})
	base := r.commit("base")
	r.write(map[string]string{"m.py": "def f():\n    return 2\n\n\ndef g():\n    pass\n"})
	head := r.commit("head")
	clean := r.load(base, head)
	r.write(map[string]string{"m.py": "garbage(\n"})
	dirty := r.load(base, head)
	bare := filepath.Join(t.TempDir(), "bare.git")
	r.git("clone", "--quiet", "--bare", r.dir, bare)
	res, err := Load(context.Background(), Config{Repo: bare, Base: base, Head: head})
	if err != nil {
		t.Fatal(err)
	}
	want := jsonOf(t, clean)
	if got := jsonOf(t, dirty); got != want {
		t.Errorf("dirty work tree changed the answer:\n%s\nwant\n%s", got, want)
	}
	if got := jsonOf(t, res); got != want {
		t.Errorf("bare repository changed the answer:\n%s\nwant\n%s", got, want)
	}
}

// TestLoadDefaultBase checks the default base: origin/HEAD, else main, else
// master (issue 2).
func TestLoadDefaultBase(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write(map[string]string{"m.py": "def f():\n    return 1\n"})
	mainSHA := r.commit("base")
	r.git("checkout", "--quiet", "-b", "feature")
	r.write(map[string]string{"m.py": "def f():\n    return 2\n"})
	r.commit("head")
	res, err := Load(context.Background(), Config{Repo: r.dir})
	if err != nil {
		t.Fatal(err)
	}
	if res.Base != mainSHA || res.MergeBase != mainSHA {
		t.Errorf("default base = %s (merge-base %s), want main %s", res.Base, res.MergeBase, mainSHA)
	}
	r.git("branch", "-m", "main", "master")
	if res, err = Load(context.Background(), Config{Repo: r.dir}); err != nil || res.Base != mainSHA {
		t.Errorf("with master only: base %v, err %v; want %s", res, err, mainSHA)
	}
	// origin/HEAD wins over main and master.
	r.git("checkout", "--quiet", "-b", "main", "feature")
	r.git("update-ref", "refs/remotes/origin/trunk", "feature~1")
	r.git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/trunk")
	if res, err = Load(context.Background(), Config{Repo: r.dir}); err != nil || res.Base != mainSHA {
		t.Errorf("with origin/HEAD: base %v, err %v; want %s", res, err, mainSHA)
	}
	r.git("checkout", "--quiet", "--orphan", "lonely")
	r.git("branch", "-D", "master", "main")
	r.git("update-ref", "-d", "refs/remotes/origin/HEAD")
	r.git("commit", "--quiet", "--allow-empty", "-m", "lonely")
	if _, err := Load(context.Background(), Config{Repo: r.dir}); !errors.Is(err, git.ErrNoDefaultBase) {
		t.Errorf("no default base: err %v, want ErrNoDefaultBase", err)
	}
}

// TestLoadBadInput checks the errors a user sees for input premise cannot
// read (issue 2: one clear line, exit 3 in the CLI).
func TestLoadBadInput(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write(map[string]string{"m.py": "def f():\n    return 1\n"})
	r.commit("base")
	r.git("checkout", "--quiet", "--orphan", "lone")
	r.commit("unrelated")
	r.git("checkout", "--quiet", "main")
	isDiffError := func(err error) bool { var e *Error; return errors.As(err, &e) }
	tests := []struct {
		name string
		cfg  Config
		is   func(error) bool
		want string
	}{
		{"unknown revision", Config{Repo: r.dir, Base: "no-such-rev"}, is(git.ErrBadRev), `revision "no-such-rev"`},
		{"option-like revision", Config{Repo: r.dir, Base: "--all"}, is(git.ErrBadRev), `revision "--all"`},
		{"unrelated histories", Config{Repo: r.dir, Base: "main", Head: "lone"}, is(git.ErrNoMergeBase), "no merge-base"},
		{"unknown head", Config{Repo: r.dir, Base: "main", Head: "no-such-head"}, is(git.ErrBadRev), `revision "no-such-head"`},
		{"not a repository", Config{Repo: t.TempDir(), Base: "main"}, is(git.ErrNotRepo), "not a git repository"},
		{"missing directory", Config{Repo: filepath.Join(t.TempDir(), "nope")}, is(os.ErrNotExist), "nope"},
		{"patch that is not a diff", Config{Repo: r.dir, Patch: strings.NewReader("hello\nworld\n"), PatchName: "p.txt"}, isDiffError, "p.txt:1: not a unified diff"},
		{"truncated hunk", Config{Repo: r.dir, Patch: strings.NewReader("--- a/m.py\n+++ b/m.py\n@@ -1,3 +1,3 @@\n def f():\n"), PatchName: "p.diff"}, isDiffError, "p.diff:3: m.py: hunk ends early"},
		{"negative range", Config{Repo: r.dir, Patch: strings.NewReader("diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -0 +-1 @@\n"), PatchName: "p.diff"}, isDiffError, "p.diff:4: m.py: bad hunk header"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(context.Background(), tt.cfg)
			if err == nil {
				t.Fatal("Load succeeded, want an error")
			}
			if !tt.is(err) {
				t.Errorf("err = %v: wrong kind", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %q, want it to contain %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans several lines: %q", err)
			}
		})
	}
}

func is(target error) func(error) bool {
	return func(err error) bool { return errors.Is(err, target) }
}

// TestIndexBlobs: Parse keeps the blob ids of git's index line, by which
// premise diff asks cat-file for a file's sides, and leaves them empty
// wherever the line names no blob (no line, a side that does not exist,
// an abbreviated id), where commit:path is asked instead.
func TestIndexBlobs(t *testing.T) {
	a, b := strings.Repeat("a", 40), strings.Repeat("b", 40)
	zero := strings.Repeat("0", 40)
	tests := []struct {
		name, diff string
		old, new   string
	}{
		{"modified", "diff --git a/x b/x\nindex " + a + ".." + b + " 100644\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", a, b},
		{"added", "diff --git a/x b/x\nnew file mode 100644\nindex " + zero + ".." + b + "\n--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+b\n", "", b},
		{"deleted", "diff --git a/x b/x\ndeleted file mode 100644\nindex " + a + ".." + zero + "\n--- a/x\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n", a, ""},
		{"renamed unchanged", "diff --git a/x b/y\nsimilarity index 100%\nrename from x\nrename to y\n", "", ""},
		{"abbreviated", "diff --git a/x b/x\nindex 1234567..89abcde 100644\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", "", ""},
		{"sha256", "diff --git a/x b/x\nindex " + strings.Repeat("c", 64) + ".." + strings.Repeat("d", 64) + " 100644\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", strings.Repeat("c", 64), strings.Repeat("d", 64)},
		{"index in a hunk", "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-index " + a + ".." + b + "\n+b\n", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs, err := Parse([]byte(tc.diff), "d")
			if err != nil || len(fs) != 1 {
				t.Fatalf("Parse: %d files, %v", len(fs), err)
			}
			if fs[0].OldBlob != tc.old || fs[0].NewBlob != tc.new {
				t.Errorf("blobs %q, %q; want %q, %q", fs[0].OldBlob, fs[0].NewBlob, tc.old, tc.new)
			}
		})
	}
}

// TestLoadNoSources: premise diff drops the sources once symbols are
// mapped; the answer is the one that keeps them, and the sources are gone.
func TestLoadNoSources(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	// Large modules, whose base is read only when their changes need it:
	// one changed inside bodies, one with a function added and one
	// renamed, one whose change hides a def in a body.
	big := func(extra string) string {
		var b strings.Builder
		for i := 0; i < 12; i++ {
			fmt.Fprintf(&b, "def f%d(x):\n    y = x + %d\n    return y\n\n\n", i, i)
		}
		return b.String() + extra
	}
	r.write(map[string]string{"m.py": "def f():\n    return 1\n", "go.mod": "module example.com/m\n", "p/p.go": "package p\n\nfunc F() int { return 1 }\n",
		"inside.py": big(""), "added.py": big(""), "renamed.py": big(""), "hidden.py": big("def g():\n    pass\n"),
		"p/q.go": "package p\n\nfunc A() int {\n\tx := 1\n\treturn x\n}\n\nfunc B() {}\n", "p/r.go": "package p\n\nfunc C() {\n\tc()\n}\n"})
	base := r.commit("base")
	r.write(map[string]string{"m.py": "def f():\n    return 2\n\n\ndef g():\n    pass\n", "p/p.go": "package p\n\nfunc F() int { return 2 }\n\ntype T struct{}\n",
		"inside.py":  strings.Replace(strings.Replace(big(""), "x + 3\n", "x - 3\n", 1), "x + 9\n", "x + 9\n    y *= 2\n", 1),
		"added.py":   big("def h():\n    return 0\n"),
		"renamed.py": strings.Replace(big(""), "def f4(", "def f4_renamed(", 1),
		"hidden.py":  big("    def g():\n        pass\n"),
		"p/q.go":     "package p\n\nfunc A() int {\n\tx := 2\n\treturn x\n}\n\nfunc B() {}\n",
		"p/r.go":     "package p\n\nfunc C() {\n\tc()\n}\n\nfunc D() {}\n"})
	head := r.commit("head")
	keep := r.load(base, head)
	res, err := Load(context.Background(), Config{Repo: r.dir, Base: base, Head: head, NoSources: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := jsonOf(t, res), jsonOf(t, keep); got != want {
		t.Errorf("without sources:\n%s\nwant\n%s", got, want)
	}
	var got []string
	for _, f := range res.Files {
		for _, s := range f.Symbols {
			if f.Path != "m.py" && f.Path != "p/p.go" {
				got = append(got, f.Path+" "+s.Local+" "+s.Change)
			}
		}
	}
	want := []string{
		"added.py h added",
		"hidden.py f11 modified", "hidden.py g deleted",
		"inside.py f3 modified", "inside.py f9 modified",
		"p/q.go A modified", "p/r.go D added",
		"renamed.py f4_renamed added", "renamed.py f4 deleted",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("symbols of the large modules (-want +got):\n%s", diff)
	}
	for _, f := range res.Files {
		if f.HeadSrc != nil || f.BaseSrc != nil {
			t.Errorf("%s keeps its sources", f.Path)
		}
	}
	if len(keep.Files) == 0 || keep.Files[0].HeadSrc == nil {
		t.Error("by default the sources are kept")
	}
}

// TestLoadSourcesAreTheBlobs checks both sides of every file Load reads
// against git's own blobs, byte for byte, with the head checked out (clean
// or edited) or another commit checked out, in shapes that are easy to get
// wrong: CRLF lines, missing final newlines, renames with and without
// changes, mode changes, deleted and added files.
func TestLoadSourcesAreTheBlobs(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	body := func(n int, eol string) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "def f%d():%s    return %d%s%s", i, eol, i, eol, eol)
		}
		return b.String()
	}
	r.write(map[string]string{
		"crlf.py":    body(30, "\r\n"),
		"noeol.py":   strings.TrimSuffix(body(30, "\n"), "\n"),
		"moved.py":   body(30, "\n"),
		"renamed.py": body(20, "\n"),
		"mode.py":    body(5, "\n"),
		"gone.py":    body(5, "\n"),
		"main.go":    "package main\n\nfunc main() {\n\tprintln(1)\n}\n",
	})
	base := r.commit("base")
	r.git("mv", "renamed.py", "renamed_to.py")
	r.git("mv", "moved.py", "moved_to.py")
	if err := os.Chmod(filepath.Join(r.dir, "mode.py"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.write(map[string]string{
		"crlf.py":     strings.Replace(body(30, "\r\n"), "return 7\r\n", "return 70\r\n    pass\r\n", 1),
		"noeol.py":    strings.Replace(body(30, "\n"), "return 30", "return 300", 1),
		"moved_to.py": strings.Replace(body(30, "\n"), "return 2\n", "return 20\n", 1),
		"gone.py":     deleteMark,
		"new.py":      "class New:\n    x = 1\n",
		"main.go":     "package main\n\nfunc main() {\n\tprintln(2)\n}",
	})
	head := r.commit("head")
	blob := func(rev, path string) []byte {
		return []byte(r.git("cat-file", "blob", rev+":"+path))
	}
	check := func(how string) string {
		t.Helper()
		res := r.load(base, head)
		if len(res.Files) != 8 {
			t.Fatalf("%s: %d files, want 8:\n%s", how, len(res.Files), jsonOf(t, res))
		}
		for _, f := range res.Files {
			if f.ParseError != "" {
				t.Errorf("%s: %s: %s", how, f.Path, f.ParseError)
			}
			if f.Status != "deleted" && !bytes.Equal(f.HeadSrc, blob(head, f.Path)) {
				t.Errorf("%s: %s: head side is not the head blob:\n%q", how, f.Path, f.HeadSrc)
			}
			if f.Status != "added" && !bytes.Equal(f.BaseSrc, blob(base, f.OldPath)) {
				t.Errorf("%s: %s: base side is not the base blob:\n%q", how, f.Path, f.BaseSrc)
			}
		}
		return jsonOf(t, res)
	}
	want := check("head checked out")
	r.write(map[string]string{"crlf.py": "garbage(\n", "noeol.py": deleteMark})
	if got := check("edited work tree"); got != want {
		t.Errorf("an edited work tree changed the answer:\n%s\nwant\n%s", got, want)
	}
	r.git("checkout", "--quiet", "--force", base)
	if got := check("base checked out"); got != want {
		t.Errorf("another checkout changed the answer:\n%s\nwant\n%s", got, want)
	}
}

// TestTrailingLinesRemovedChangeTheirFunction: a patch that removes the
// last lines of a function or method (a check at its end) leaves git's
// anchor after the function's head span, on the blank line before the
// next declaration or in the class around it; the change is the
// function's, not nobody's and not the class's (a held-out parso fix whose
// revert dropped a method's last `if` went unjudged).
func TestTrailingLinesRemovedChangeTheirFunction(t *testing.T) {
	t.Parallel()
	base := "class Rule:\n    def is_issue(self, node):\n        if node == 1:\n            return True\n\n        if node == 2:\n            return True\n\n\n    def other(self):\n        return 0\n\n\ndef check(x):\n    y = x + 1\n    if y > 3:\n        raise ValueError(y)\n\n\ndef after():\n    return 1\n"
	head := strings.NewReplacer(
		"\n        if node == 2:\n            return True\n", "",
		"    if y > 3:\n        raise ValueError(y)\n", "",
	).Replace(base)
	r := newTestRepo(t)
	r.write(map[string]string{"m.py": base})
	b := r.commit("base")
	r.write(map[string]string{"m.py": head})
	h := r.commit("head")
	var got []string
	for _, f := range r.load(b, h).Files {
		for _, s := range f.Symbols {
			got = append(got, s.Local+" "+s.Change)
		}
	}
	want := []string{"Rule.is_issue modified", "check modified"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("changed symbols (-want +got):\n%s", diff)
	}
}
