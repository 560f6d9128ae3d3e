package gate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuildErrorsQuoteNoSource: a harness build failure names the file and
// line, never the text the compiler quotes from it, nor any line about a
// file outside premise's copy (issue 26: a cgo #include of a secret, or a
// symlink in the tree to one, would print it into CI logs and the draft).
func TestBuildErrorsQuoteNoSource(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "credentials")
	if err := os.WriteFile(secret, []byte("AWS_SECRET=hunter2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	build := filepath.Join(root, "_1")
	for _, d := range []string{build, filepath.Join(root, "sign")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"a.go", "sign/c.go"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte("package a\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(secret, filepath.Join(root, "secret.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(root, "sign", "secret.h")); err != nil {
		t.Fatal(err)
	}
	out := strings.Join([]string{
		"# example.com/m",
		"../secret.go:1:1: expected 'package', found AWS_SECRET=hunter2",
		"../a.go:3:2: undefined: \"s3cr3t\"",
		"In file included from ../sign/c.go:3:",
		secret + ":1:1: warning: data definition has no type or storage class",
		"    1 | AWS_SECRET=hunter2",
		"      | ^~~~~~~~~~",
		secret + ":1:12: error: ‘hunter2’ undeclared here (not in a function)",
		"../sign/secret.h:1:12: error: 'hunter2' undeclared here",
		"go: go.mod requires go >= 1.99 (running go 1.26; GOTOOLCHAIN=local)",
	}, "\n")
	got := buildErrors(out, build, root)
	for _, leak := range []string{"hunter2", "s3cr3t", "AWS_SECRET", outside} {
		if strings.Contains(got, leak) {
			t.Errorf("buildErrors(...) = %q: still quotes %q", got, leak)
		}
	}
	for _, want := range []string{"../a.go:3:2: undefined", "In file included from ../sign/c.go:3", "go: go.mod requires go >= 1.99", "more lines not shown"} {
		if !strings.Contains(got, want) {
			t.Errorf("buildErrors(...) = %q: lost %q", got, want)
		}
	}
}

// TestGoWorkStaysInTheCopy: the harness's build reads a go.work only from
// premise's copy of the tree, never one above it (in the temporary
// directory, where anyone may write one that steers what is built).
func TestGoWorkStaysInTheCopy(t *testing.T) {
	tmp := t.TempDir()
	root := filepath.Join(tmp, "copy", "mod")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	above := filepath.Join(tmp, "go.work")
	if err := os.WriteFile(above, []byte("go 1.21\n\nuse ./copy/mod\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := &harness{root: root}
	if got := h.goWork(); got != "off" {
		t.Errorf("goWork() = %q with a go.work only above the copy; want off", got)
	}
	inside := filepath.Join(root, "go.work")
	if err := os.WriteFile(inside, []byte("go 1.21\n\nuse .\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := h.goWork(); got != inside {
		t.Errorf("goWork() = %q; want the copy's own %s", got, inside)
	}
}
