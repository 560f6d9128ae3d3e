package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/premise-dev/premise/propose"
	"github.com/premise-dev/premise/validate"
)

// TestJSONEverywhere runs every command with --json on the bundled example,
// successes and failures alike, and holds the JSON a bot reads to one shape:
// one JSON document on stdout whatever the exit status, keys in snake_case,
// and no null where a list belongs (an empty list is []). Its steps write
// every file premise keeps (the register with every item decided, the table
// with witness rows, a freeze, a must-reject entry), so it then checks each
// against its schema (checkWrittenFiles) rather than running the pipeline on
// the example a second time for that.
func TestJSONEverywhere(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs the whole pipeline on the example, seconds; CI and go test ./... run it")
	}
	dir := t.TempDir()
	t.Setenv("PREMISE_CACHE_DIR", filepath.Join(dir, ".cache"))
	code, out, errOut := runPremise(t, "example", "intervals", "--dir", dir, "--json")
	if code != 0 {
		t.Fatalf("example: exit %d: %s", code, errOut)
	}
	var ex struct{ Repo string }
	if err := json.Unmarshal([]byte(out), &ex); err != nil {
		t.Fatalf("example --json: %v\n%s", err, out)
	}
	repo := ex.Repo
	steps := [][]string{
		{"version"},
		{"rules"},
		{"diff", "--repo", repo},
		{"run", "--repo", repo},
		{"propose", "--repo", repo},
		{"review", "--repo", repo},
		{"check", "--repo", repo},
		{"accept", "A001", "--repo", repo, "--note", "callers pass any order"},
		{"reject", "A002", "--repo", repo, "--note", "touching ranges stay apart"},
		{"reject", "C001", "C002", "--repo", repo, "--note", "regressions: the merger must sort"},
		{"partitions", "--repo", repo},
		{"check", "--repo", repo},
		{"gate", "--repo", repo, "--base", "main"},
		{"gate", "--repo", repo, "--self-check"},
		{"gate", "freeze", "P001", "--repo", repo, "--reason", "a test freeze"},
		{"guard", "--repo", repo, "--base", "main"},
		{"reject", "add", "--repo", repo, "--id", "inverted", "--target", "intervals.merge_ranges", "--fixture", `{"ranges": [[5, 1]]}`, "--must-class", "ValueError"},
		{"reject", "run", "--repo", repo},
		{"run", "--repo", repo},
		{"schema"},
		// Failures: the error is JSON too.
		{"gate", "--repo", repo, "--partitions", "missing.yaml"},
		{"accept", "A999", "--repo", repo},
		{"diff", "--repo", filepath.Join(dir, "nowhere")},
		{"run", "--repo", filepath.Join(dir, "nowhere")},
		{"model", "check", "--repo", repo},
		{"check", "--repo", repo, "--no-such-flag"},
	}
	for _, args := range steps {
		args := append(args, "--json")
		code, out, errOut := runPremise(t, args...)
		name := strings.Join(args, " ")
		var v any
		dec := json.NewDecoder(strings.NewReader(out))
		if err := dec.Decode(&v); err != nil {
			t.Errorf("%s: exit %d, stdout is not JSON: %v\n%s\nstderr: %s", name, code, err, out, errOut)
			continue
		}
		if dec.More() {
			t.Errorf("%s: stdout holds more than one JSON document:\n%s", name, out)
		}
		for _, p := range jsonProblems("", v) {
			t.Errorf("%s: %s", name, p)
		}
		if m, ok := v.(map[string]any); ok && code != 0 && m["error"] != nil && m["exit"] != float64(code) {
			t.Errorf("%s: exit %d, but the JSON says %v", name, code, m["exit"])
		}
	}
	checkWrittenFiles(t, repo)
}

var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// nullable are the keys whose null is a value of the format, not a missing
// list: a row's inp of None, a freeze not yet replaced, a result, an
// exception's code of None.
var nullable = map[string]bool{"code": true, "inp": true, "replacement_row": true, "result": true, "value": true, "base": true, "head": true, "signature": true}

// jsonProblems lists the keys of v that are not snake_case and the values
// that are null where they need not be.
func jsonProblems(path string, v any) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			p := path + "." + k
			// Maps keyed by data (hashes, symbols, reasons) are not keys of
			// the format.
			if !snakeCase.MatchString(k) && !dataKey(path, k) {
				out = append(out, fmt.Sprintf("key %s is not snake_case", p))
			}
			if e == nil && !nullable[k] && !strings.Contains(p, ".call.") && !strings.Contains(p, ".value") {
				out = append(out, fmt.Sprintf("%s is null; an empty list is []", p))
			}
			out = append(out, jsonProblems(p, e)...)
		}
	case []any:
		for i, e := range x {
			out = append(out, jsonProblems(fmt.Sprintf("%s[%d]", path, i), e)...)
		}
	}
	return out
}

// dataKey reports whether k is data rather than a field name: a hash, an
// id, a symbol or a path.
func dataKey(path, k string) bool {
	return regexp.MustCompile(`^[0-9a-f]{16,}$|^[AP][0-9]{3,}$|[./]`).MatchString(k) ||
		strings.HasSuffix(path, ".dropped") ||
		// a change item's witness: a call in the row protocol ($observe,
		// a Go package variable) and the values each side returned
		strings.Contains(path, ".call.") || strings.Contains(path, ".value")
}

// TestHelpListsOwnExitCodes: each command's help lists the exit codes it
// can return, not a block shared by all; diff never "holds a gate".
func TestHelpListsOwnExitCodes(t *testing.T) {
	t.Parallel()
	root := newRootCmd(Streams{In: strings.NewReader(""), Out: os.Stdout, Err: os.Stderr})
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if sub.Hidden || sub.Name() == "help" || sub.Name() == "completion" {
				continue
			}
			if sub.Runnable() && sub.Annotations[exitsAnnotation] == "" {
				t.Errorf("%s: declare its exit codes with exits(c, ...)", sub.CommandPath())
			}
			if n := strings.Count(sub.Long, "EXIT STATUS"); sub.Runnable() && n != 1 {
				t.Errorf("%s: help has %d EXIT STATUS sections, want 1", sub.CommandPath(), n)
			}
			walk(sub)
		}
	}
	walk(root)
	diff, _, _ := root.Find([]string{"diff"})
	if got := exitCodes(diff); fmt.Sprint(got) != "[0 3]" {
		t.Errorf("diff lists exit codes %v, want [0 3]", got)
	}
	if strings.Contains(diff.Long, "gate holds") {
		t.Errorf("diff's help speaks of the gate holding:\n%s", diff.Long)
	}
	gate, _, _ := root.Find([]string{"gate"})
	if got := exitCodes(gate); fmt.Sprint(got) != "[0 1 2 3 4 130]" {
		t.Errorf("gate lists exit codes %v, want [0 1 2 3 4 130]", got)
	}
}

// TestNoInternalReferences: help texts speak of premise and its files, not
// of the design documents premise was built from.
func TestNoInternalReferences(t *testing.T) {
	t.Parallel()
	root := newRootCmd(Streams{In: strings.NewReader(""), Out: os.Stdout, Err: os.Stderr})
	internal := regexp.MustCompile(`(?i)\bseed 0\d\d\b|\bstep \d\b|\bissue \d+\b`)
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		texts := []string{c.Short, c.Long, c.Use}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) { texts = append(texts, f.Usage) })
		for _, s := range texts {
			if m := internal.FindString(s); m != "" {
				t.Errorf("%s: help cites %q, which means nothing to a user", c.CommandPath(), m)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	for _, r := range propose.AllRules() {
		if m := internal.FindString(r.Doc + " " + r.Example); m != "" {
			t.Errorf("rule %s: its doc cites %q", r.Name, m)
		}
	}
	for _, r := range validate.CheckRules {
		if m := internal.FindString(r.Doc); m != "" {
			t.Errorf("check %s: its doc cites %q", r.Name, m)
		}
	}
}
