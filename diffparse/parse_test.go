package diffparse

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name   string
		diff   string
		want   []File
		reason string
	}{
		{
			name: "plain unified diff",
			diff: "--- a/x.py\t2026-01-01 00:00:00\n+++ b/x.py\t2026-01-02 00:00:00\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n",
			want: []File{{Path: "x.py", OldPath: "x.py", Status: "modified", Language: "python", Added: 1, Deleted: 1, Symbols: []Symbol{},
				Hunks: []Hunk{{OldStart: 1, OldLines: 2, NewStart: 1, NewLines: 2, Lines: []Line{
					{Kind: ' ', Old: 1, New: 1, Text: "a"}, {Kind: '-', Old: 2, Text: "b"}, {Kind: '+', New: 2, Text: "c"}}}}}},
			reason: "diff -u output with timestamps after a tab",
		},
		{
			name: "format-patch mail around the diff",
			diff: "From 123 Mon Sep 17 00:00:00 2001\nSubject: [PATCH] x\n\n---\n x.go | 2 +-\n\ndiff --git a/x.go b/x.go\nindex 1..2 100644\n--- a/x.go\n+++ b/x.go\n@@ -1 +1 @@\n-a\n+b\n-- \n2.39.5\n\n",
			want: []File{{Path: "x.go", OldPath: "x.go", Status: "modified", Language: "go", Added: 1, Deleted: 1, Symbols: []Symbol{},
				Hunks: []Hunk{{OldStart: 1, OldLines: 1, NewStart: 1, NewLines: 1, Lines: []Line{{Kind: '-', Old: 1, Text: "a"}, {Kind: '+', New: 1, Text: "b"}}}}}},
			reason: "the mail header and the signature after the last hunk are not part of the diff",
		},
		{
			name: "crlf and no newline",
			diff: "diff --git a/w.txt b/w.txt\r\n--- a/w.txt\r\n+++ b/w.txt\r\n@@ -1 +1 @@\r\n-a\r\n\\ No newline at end of file\r\n+b\r\n",
			want: []File{{Path: "w.txt", OldPath: "w.txt", Status: "modified", Added: 1, Deleted: 1, Symbols: []Symbol{},
				Hunks: []Hunk{{OldStart: 1, OldLines: 1, NewStart: 1, NewLines: 1, OldNoEOL: true, Lines: []Line{{Kind: '-', CR: true, Old: 1, Text: "a"}, {Kind: '+', CR: true, New: 1, Text: "b"}}}}}},
			reason: "a diff saved with CRLF line ends still parses; line text drops the terminator, CR keeps that it was CR LF",
		},
		{
			name: "quoted paths with octal escapes",
			diff: "diff --git \"a/\\303\\274 x.py\" \"b/\\303\\274 y.py\"\nsimilarity index 100%\nrename from \"\\303\\274 x.py\"\nrename to \"\\303\\274 y.py\"\n",
			want: []File{{Path: "ü y.py", OldPath: "ü x.py", Status: "renamed", Language: "python", Symbols: []Symbol{}}},
		},
		{
			name:   "unquoted path with spaces, new empty file",
			diff:   "diff --git a/my file.py b/my file.py\nnew file mode 100644\nindex 0000000..e69de29\n",
			want:   []File{{Path: "my file.py", OldPath: "my file.py", Status: "added", Language: "python", NewMode: "100644", Symbols: []Symbol{}}},
			reason: "an empty new file has no ---/+++ lines; the name comes from the ambiguous diff --git line",
		},
		{
			name: "binary patch data",
			diff: "diff --git a/b.bin b/b.bin\nindex 1..2 100644\nGIT binary patch\nliteral 3\nKcmZQz00ICA\n\nliteral 0\nHcmV?d00001\n\ndiff --git a/c.py b/c.py\n--- a/c.py\n+++ b/c.py\n@@ -0,0 +1 @@\n+x\n",
			want: []File{
				{Path: "b.bin", OldPath: "b.bin", Status: "modified", Binary: true, Symbols: []Symbol{}},
				{Path: "c.py", OldPath: "c.py", Status: "modified", Language: "python", Added: 1, Symbols: []Symbol{},
					Hunks: []Hunk{{OldStart: 0, OldLines: 0, NewStart: 1, NewLines: 1, Lines: []Line{{Kind: '+', New: 1, Text: "x"}}}}},
			},
		},
		{
			name: "empty",
			diff: "",
			want: []File{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.diff), "t.diff")
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Parse mismatch (-want +got):\n%s\n%s", diff, tt.reason)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, diff string
		line       int
		want       string
		reason     string
	}{
		{"not a diff", "hello\n", 1, "not a unified diff", ""},
		{"negative range", "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -0 +-1 @@\n", 4, "negative range", "go-diff accepts it; premise must not"},
		{"hunk before header", "@@ -1 +1 @@\n-a\n+b\n", 1, "hunk without a file header", ""},
		{"truncated", "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n", 3, "hunk ends early", ""},
		{"too long", "--- a/x\n+++ b/x\n@@ -1 +1 @@\n a\n-b\n", 5, "longer than its header", ""},
		{"junk in hunk", "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n*b\n", 5, "not part of a hunk", ""},
		{"letters in range", "--- a/x\n+++ b/x\n@@ -a +1 @@\n", 3, "not a line number", ""},
		{"start zero with lines", "--- a/x\n+++ b/x\n@@ -0,1 +1 @@\n-a\n+b\n", 3, "starts at line 1", ""},
		{"huge range", "--- a/x\n+++ b/x\n@@ -1,99999999999 +1 @@\n", 3, "out of range", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.diff), "t.diff")
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v, want *Error", err)
			}
			if e.File != "t.diff" || e.Line != tt.line || !strings.Contains(e.Err.Error(), tt.want) {
				t.Errorf("err = %v (line %d), want line %d and %q %s", err, e.Line, tt.line, tt.want, tt.reason)
			}
		})
	}
}

// TestParseGoDiffCrashers keeps the inputs that made go-diff panic or
// accept nonsense: Parse must return without a panic.
func TestParseGoDiffCrashers(t *testing.T) {
	for _, in := range []string{
		"diff --git x  \n",
		"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -0 +-1 @@\n",
		"diff --git \"\n",
		"diff --git a/\" b/\"\n--- a/x\n+++ b/x\n",
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("Parse(%q) panicked: %v", in, r)
				}
			}()
			Parse([]byte(in), "t.diff")
		}()
	}
}

// TestPathsArePrintable: a path is the patch's text, and premise names
// symbols after it: one holding an escape sequence, a bidirectional
// override or bytes that are not UTF-8 is refused, quoted, never passed
// on to be printed.
func TestPathsArePrintable(t *testing.T) {
	for _, p := range []string{"pkg/x\x1b[31mred.py", "pkg/a\u202ecod.py", "pkg/\xff.py"} {
		diff := "diff --git a/" + p + " b/" + p + "\n--- a/" + p + "\n+++ b/" + p + "\n@@ -1 +1 @@\n-a = 1\n+a = 2\n"
		_, err := Parse([]byte(diff), "x.diff")
		if err == nil || !strings.Contains(err.Error(), strconv.Quote(p)) || strings.ContainsAny(err.Error(), "\x1b\u202e") {
			t.Errorf("path %q: err = %v, want a refusal quoting it", p, err)
		}
	}
	if _, err := Parse([]byte("diff --git a/pkg/ok é.py b/pkg/ok é.py\n--- a/pkg/ok é.py\n+++ b/pkg/ok é.py\n@@ -1 +1 @@\n-a = 1\n+a = 2\n"), "x.diff"); err != nil {
		t.Errorf("a printable path with a space and an accent: %v", err)
	}
}
