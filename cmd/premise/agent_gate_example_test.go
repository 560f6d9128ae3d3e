package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestAgentGateExample keeps examples/ci/agent-gate.yml honest: every
// premise command in it parses with today's flags, each job runs its
// steps in the seeds' order, and the generate job's sparse checkout is
// the one premise holdout sparse prints.
func TestAgentGateExample(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../examples/ci/agent-gate.yml")
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		Jobs map[string]struct {
			Steps []struct {
				Run  string            `yaml:"run"`
				With map[string]string `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatal(err)
	}
	expr := regexp.MustCompile(`\$\{\{[^}]*\}\}`)
	want := map[string][]string{
		"generate": {"pytest"},
		"verify": {"premise holdout check", "pytest", "pytest", "pytest", "premise junit gate", "premise freeze check",
			"pytest", "premise holdout classify", "premise ledger record", "premise ledger gate"},
	}
	for name, job := range wf.Jobs {
		var order []string
		for _, st := range job.Steps {
			if sc := st.With["sparse-checkout"]; sc != "" {
				var out bytes.Buffer
				if code := run(t.Context(), []string{"holdout", "sparse", "--repo", t.TempDir()}, Streams{In: strings.NewReader(""), Out: &out, Err: &out}); code != 0 {
					t.Fatalf("premise holdout sparse: exit %d: %s", code, out.String())
				}
				if sc != out.String() {
					t.Errorf("%s: sparse-checkout %q, want what premise holdout sparse prints, %q", name, sc, out.String())
				}
			}
			for _, line := range strings.Split(st.Run, "\n") {
				line = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(expr.ReplaceAllString(line, "X")), "|| true"))
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
				case strings.Contains(line, "-m pytest"):
					order = append(order, "pytest")
				}
			}
		}
		if strings.Join(order, ",") != strings.Join(want[name], ",") {
			t.Errorf("job %s: commands in order %q, want %q", name, order, want[name])
		}
	}
	if len(wf.Jobs) != len(want) {
		t.Errorf("jobs %d, want %d", len(wf.Jobs), len(want))
	}
}
