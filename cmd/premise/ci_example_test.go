package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestGitHubActionsExample keeps examples/ci/github-actions.yml honest: every
// premise command in it parses with today's flags, and the steps keep seed
// 000's CI order (guard, corpus, then the agent's rows and tests).
func TestGitHubActionsExample(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../examples/ci/github-actions.yml")
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		Jobs map[string]struct {
			Steps []struct {
				Name string `yaml:"name"`
				Run  string `yaml:"run"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatal(err)
	}
	expr := regexp.MustCompile(`\$\{\{[^}]*\}\}`)
	var order []string
	for _, job := range wf.Jobs {
		for _, st := range job.Steps {
			for _, line := range strings.Split(st.Run, "\n") {
				line = strings.TrimSpace(expr.ReplaceAllString(line, "X"))
				switch {
				case strings.HasPrefix(line, "premise "):
					args := shellFields(t, strings.TrimPrefix(line, "premise "))
					root := newRootCmd(Streams{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &bytes.Buffer{}})
					c, rest, err := root.Find(args)
					if err != nil {
						t.Errorf("%q: %v", line, err)
						continue
					}
					if err := c.ParseFlags(rest); err != nil {
						t.Errorf("%q: %v", line, err)
					}
					order = append(order, c.CommandPath())
				case strings.Contains(line, "pytest"):
					order = append(order, "pytest")
				}
			}
		}
	}
	want := []string{"premise reject guard", "premise reject run", "premise gate", "pytest"}
	if strings.Join(order, ",") != strings.Join(want, ",") {
		t.Errorf("commands in order %q, want %q", order, want)
	}
}

// shellFields splits a command line on spaces, honouring double quotes.
func shellFields(t *testing.T, s string) []string {
	var out []string
	var cur strings.Builder
	inQuote, have := false, false
	for _, r := range s {
		switch {
		case r == '"':
			inQuote, have = !inQuote, true
		case r == ' ' && !inQuote:
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
	if inQuote {
		t.Fatalf("unbalanced quote in %q", s)
	}
	if have {
		out = append(out, cur.String())
	}
	return out
}
