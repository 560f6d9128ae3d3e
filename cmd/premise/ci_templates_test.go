package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestCITemplates keeps the action, the GitLab template, the example
// workflow and the pre-commit hook honest: every premise command in them
// parses with today's flags, and each names the commands of its use.
func TestCITemplates(t *testing.T) {
	t.Parallel()
	cases := []struct {
		file string
		want []string // commands that must appear, in this order
	}{
		{"../../action.yml", []string{"premise run", "premise comment", "premise guard", "premise check", "premise reject run", "premise gate", "premise batch", "premise batch merge"}},
		{"../../examples/ci/gitlab-ci.yml", []string{"premise run", "premise comment", "premise guard", "premise check", "premise reject run", "premise gate", "premise batch", "premise batch merge"}},
		{"../../.pre-commit-hooks.yaml", []string{"premise run"}},
	}
	for _, c := range cases {
		data, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		var order []string
		for _, line := range premiseLines(doc) {
			args := shellFields(t, strings.TrimPrefix(line, "premise "))
			root := newRootCmd(Streams{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &bytes.Buffer{}})
			cmd, rest, err := root.Find(args)
			if err == nil {
				err = cmd.ParseFlags(rest)
			}
			if err != nil {
				t.Errorf("%s: %q: %v", c.file, line, err)
				continue
			}
			order = append(order, cmd.CommandPath())
		}
		if strings.Join(order, ",") != strings.Join(c.want, ",") {
			t.Errorf("%s: commands %q, want %q", c.file, order, c.want)
		}
	}
	// The example workflow runs the action in each of its modes.
	data, err := os.ReadFile("../../examples/ci/github-premise.yml")
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"draft", "gate", "batch", "batch-merge"} {
		if !regexp.MustCompile(`(?m)^\s+mode: ` + mode + `$`).Match(data) {
			t.Errorf("github-premise.yml runs no job with mode: %s", mode)
		}
	}
}

// premiseLines finds the premise commands in every string of a YAML
// document: a line's command from "premise " to a shell operator, with
// ${{ }} expressions and $VARIABLES as 1.
func premiseLines(doc any) []string {
	// Expressions and variables stand for values; 1 parses as any flag's.
	expr := regexp.MustCompile(`\$\{\{[^}]*\}\}|\$[A-Z_]+`)
	cmd := regexp.MustCompile(`(?:^|[;&|]\s*|then\s+|^\s*-?\s*)(premise [^;&|>]*)`)
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			for _, line := range strings.Split(x, "\n") {
				line = expr.ReplaceAllString(strings.TrimSpace(line), "1")
				if m := cmd.FindStringSubmatch(line); m != nil && !strings.HasPrefix(line, "#") {
					out = append(out, strings.TrimSpace(m[1]))
				}
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			// Keys in the order the file runs them: an action's steps, a
			// hook's entry, the GitLab template's jobs and their scripts.
			for _, k := range []string{"runs", "steps", "run", "entry", "premise-draft", "premise-gate", "premise-batch", "premise-summary", "script"} {
				if e, ok := x[k]; ok {
					walk(e)
				}
			}
		}
	}
	walk(doc)
	return out
}
