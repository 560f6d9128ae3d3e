package diffparse

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/premise-dev/premise/internal/git"
)

// gitDiffFiles diffs two contents with git diff --no-index and the options
// premise's own diff uses, and parses the result.
func gitDiffFiles(t *testing.T, dir string, base, head []byte) File {
	t.Helper()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(a, base, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, head, 0o644); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"-c", "core.quotePath=true"}, git.DiffArgs...)
	cmd := exec.Command("git", append(args, "--no-index", "a", "b")...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); err != nil && !(ok && ee.ExitCode() == 1) {
		t.Fatalf("git diff --no-index: %v", err)
	}
	files, err := Parse(out, "diff")
	if err != nil {
		t.Fatalf("parse %q: %v", out, err)
	}
	if len(files) != 1 {
		t.Fatalf("git diff gave %d files for different contents:\n%s", len(files), out)
	}
	return files[0]
}

// checkUnapply checks that undoing git's hunks on head gives base, byte for
// byte, and that the base blob id of the index line confirms it.
func checkUnapply(t *testing.T, dir string, base, head []byte) {
	t.Helper()
	f := gitDiffFiles(t, dir, base, head)
	got, ok := unapply(head, f.Hunks)
	if !ok || !bytes.Equal(got, base) {
		t.Errorf("unapply(head %q) = %q, %v; want base %q", head, got, ok, base)
		return
	}
	if f.OldBlob == "" || !git.IsBlob(got, f.OldBlob) {
		t.Errorf("base %q does not hash to the index line's id %q", base, f.OldBlob)
	}
}

// TestUnapply checks that a file's base side is rebuilt exactly from its
// head side and git's hunks, in the shapes a diff's ends take: CRLF lines,
// a missing final newline on either side or both, changes at the first and
// last lines, an emptied or a filled file, bytes that are not UTF-8.
func TestUnapply(t *testing.T) {
	t.Parallel()
	lines := func(n int, format string) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, format, i)
		}
		return b.String()
	}
	long := lines(40, "line %d\n")
	cases := []struct{ name, base, head string }{
		{"middle", long, strings.Replace(long, "line 20\n", "line twenty\n", 1)},
		{"first line", long, "first\n" + long[len("line 1\n"):]},
		{"last line", long, strings.TrimSuffix(long, "line 40\n") + "forty\n"},
		{"insert at top", long, "new\n" + long},
		{"append", long, long + "more\nlines\n"},
		{"delete at top", long, long[len("line 1\nline 2\n"):]},
		{"delete at end", long, strings.TrimSuffix(long, "line 39\nline 40\n")},
		{"far apart", long, strings.NewReplacer("line 3\n", "3\n", "line 35\n", "").Replace(long)},
		{"crlf", lines(30, "row %d\r\n"), strings.Replace(lines(30, "row %d\r\n"), "row 9\r\n", "row nine\r\n", 1)},
		{"base lacks final newline", strings.TrimSuffix(long, "\n"), long},
		{"head lacks final newline", long, strings.TrimSuffix(long, "\n")},
		{"both lack it, last line changed", strings.TrimSuffix(long, "\n"), strings.TrimSuffix(long, "40\n") + "40!"},
		{"both lack it, change before the end", strings.TrimSuffix(long, "\n"), strings.TrimSuffix(strings.Replace(long, "line 38\n", "x\n", 1), "\n")},
		{"base lacks it, lines deleted at end", strings.TrimSuffix(long, "\n") + "\ntail", strings.TrimSuffix(long, "line 40\n")},
		{"emptied", long, ""},
		{"filled", "", long},
		{"one line no newline", "a", "b"},
		{"not utf-8", "\xff\xfe\n" + long, "\xff\xfd\n" + long},
		{"blank lines", "\n\n\n" + long + "\n\n", "\n\n" + long + "\n\n\n"},
		{"long stretches between hunks", lines(20000, "%d\n"), strings.NewReplacer("\n7\n", "\nseven\n", "\n9000\n", "\n", "\n19999\n", "\n19999\nmore\n").Replace(lines(20000, "%d\n"))},
		// 4096-byte stretches of 7-byte lines end inside line 586, where
		// the hunk around line 589 starts.
		{"a stretch ending inside a hunk's first line", lines(20000, "%06d\n"), strings.Replace(lines(20000, "%06d\n"), "000589\n", "changed\n", 1)},
		{"long lines, long stretches", lines(3000, strings.Repeat("x", 300)+"%d\r\n"), strings.Replace(lines(3000, strings.Repeat("x", 300)+"%d\r\n"), "x2500\r\n", "y\r\n", 1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkUnapply(t, t.TempDir(), []byte(c.base), []byte(c.head))
		})
	}
}

// TestUnapplyRandom edits random files the way patches do, many hunks
// each, with and without CRLF and final newlines.
func TestUnapplyRandom(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(7))
	dir := t.TempDir()
	for i := 0; i < 150; i++ {
		eol := "\n"
		if rng.Intn(4) == 0 {
			eol = "\r\n"
		}
		var base []string
		n := rng.Intn(60)
		if i%3 == 0 {
			n = rng.Intn(5000) // long stretches between hunks
		}
		for j := n; j > 0; j-- {
			base = append(base, fmt.Sprintf("l%d", rng.Intn(8))+strings.Repeat("x", rng.Intn(12))+eol) // repeats make git's alignment work
		}
		head := append([]string(nil), base...)
		for e := rng.Intn(6) + len(base)/300; e > 0; e-- {
			at := rng.Intn(len(head) + 1)
			switch rng.Intn(3) {
			case 0:
				head = append(head[:at], append([]string{fmt.Sprintf("new%d", rng.Intn(100)) + eol}, head[at:]...)...)
			case 1:
				if at < len(head) {
					head = append(head[:at], head[at+1:]...)
				}
			default:
				if at < len(head) {
					head[at] = "changed" + eol
				}
			}
		}
		b, h := []byte(strings.Join(base, "")), []byte(strings.Join(head, ""))
		if rng.Intn(3) == 0 {
			b = bytes.TrimSuffix(b, []byte(eol))
		}
		if rng.Intn(3) == 0 {
			h = bytes.TrimSuffix(h, []byte(eol))
		}
		if bytes.Equal(b, h) {
			continue
		}
		checkUnapply(t, filepath.Join(dir, fmt.Sprint(i)), b, h)
	}
}

// TestUnapplyRefusesShortHead checks that hunks running past head are
// refused rather than read out of bounds.
func TestUnapplyRefusesShortHead(t *testing.T) {
	t.Parallel()
	f := gitDiffFiles(t, t.TempDir(), []byte("a\nb\nc\nd\n"), []byte("a\nb\nC\nd\n"))
	for _, head := range []string{"", "a\n", "a\nb\n"} {
		if got, ok := unapply([]byte(head), f.Hunks); ok {
			t.Errorf("unapply(%q) = %q, true; want false", head, got)
		}
	}
}

// TestLoadSourcesAreTheBlobs checks both sides of every file Load reads
// against git's own blobs, byte for byte, whether the head comes from the
// work tree (checked out, clean or edited) or from cat-file (another commit
// checked out), in the shapes where a base rebuilt from the head could go
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
