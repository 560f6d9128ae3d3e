package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeExamples runs the command lines of the README's Use section, in
// order, on the bundled example from a subdirectory of it, so the README
// stays true: each must parse with today's flags and premise must be able
// to do its job (exit 0, 1 or 2: a verdict, never 3, could not run, or 4,
// nothing checked).
func TestReadmeExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs the README's commands on the example, seconds; CI and go test ./... run it")
	}
	lines := readmeUseLines(t)
	if len(lines) < 10 {
		t.Fatalf("found %d command lines in the README's Use section; the section moved?", len(lines))
	}
	dir := t.TempDir()
	t.Setenv("PREMISE_CACHE_DIR", filepath.Join(dir, ".cache"))
	code, out, errOut := runPremise(t, "example", "intervals", "--dir", dir, "--json")
	if code != 0 {
		t.Fatalf("example: %s", errOut)
	}
	var ex struct{ Repo string }
	if err := json.Unmarshal([]byte(out), &ex); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(ex.Repo, "intervals"))
	for _, line := range lines {
		args := shellSplit(t, strings.TrimPrefix(line, "premise "))
		for i, a := range args {
			if a == "/tmp/x" {
				args[i] = filepath.Join(dir, "x") // the README's scratch directory
			}
		}
		code, _, errOut := runPremise(t, args...)
		if code > exitBlocked {
			t.Errorf("README: %s\nexit %d: %s", line, code, errOut)
		}
	}
	for _, f := range []string{"assumptions.yaml", "partitions.yaml", "gate.xml", "gate.json", "must_reject.lock.json"} {
		if _, err := os.Stat(filepath.Join(ex.Repo, f)); err != nil {
			t.Errorf("after the README's commands, %s is not at the repository's top level: %v", f, err)
		}
	}
}

// readmeUseLines returns the premise command lines of the README's Use
// section, comments dropped.
func readmeUseLines(t *testing.T) []string {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i := strings.Index(s, "\n## Use\n")
	if i < 0 {
		t.Fatal("README has no Use section")
	}
	s = s[i+len("\n## Use\n"):]
	if j := regexp.MustCompile(`\n#{2,4} `).FindStringIndex(s); j != nil {
		s = s[:j[0]]
	}
	comment := regexp.MustCompile(`\s{2,}#.*$`)
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "    premise ") {
			out = append(out, comment.ReplaceAllString(strings.TrimSpace(l), ""))
		}
	}
	return out
}

// shellSplit splits a command line as a POSIX shell does for the quoting
// the README uses: words, "double" and 'single' quotes.
func shellSplit(t *testing.T, s string) []string {
	var out []string
	var cur strings.Builder
	quote, have := rune(0), false
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, have = r, true
		case r == ' ':
			if have {
				out = append(out, cur.String())
				cur.Reset()
				have = false
			}
		default:
			cur.WriteRune(r)
			have = true
		}
	}
	if quote != 0 {
		t.Fatalf("unbalanced quote in %q", s)
	}
	if have {
		out = append(out, cur.String())
	}
	return out
}
