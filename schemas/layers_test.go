package schemas_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/premise-dev/premise/gate/fixtures"
	"github.com/premise-dev/premise/gate/freeze"
	"github.com/premise-dev/premise/gate/junit"
	"github.com/premise-dev/premise/gate/ledger"
	"github.com/premise-dev/premise/internal/settings"
)

// layerSchema compiles one of the layers' schemas (issue 16) from this
// directory.
func layerSchema(t *testing.T, file string) *jsonschema.Schema {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	id, _ := doc.(map[string]any)["$id"].(string)
	if id != "https://raw.githubusercontent.com/premise-dev/premise/main/schemas/"+file {
		t.Errorf("%s: $id %q, want the published URL of the file", file, id)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(id, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(id)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return s
}

func validateFile(t *testing.T, s *jsonschema.Schema, path string) error {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return s.Validate(v)
}

// TestLayersSchemas: the seeds' own examples and the files premise writes
// pass their schemas; what premise refuses, the schema refuses too.
func TestLayersSchemas(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	now := time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)

	reg := filepath.Join(dir, "gate", "frozen.json")
	if _, err := freeze.Add(ctx, freeze.AddOptions{Path: reg, Config: freeze.ConfigFrom(settings.Freeze{}), Now: now,
		Entry: freeze.Entry{Test: "tests/x.py::test_y", Reason: "clock", Owner: "rita", Flakes: 1, Runs: 9, Expires: "2026-09-14"}}); err != nil {
		t.Fatal(err)
	}
	led := filepath.Join(dir, "flake_ledger.json")
	cfg := ledger.ConfigFrom(settings.Ledger{})
	for _, o := range []junit.Outcome{junit.Failed, junit.Passed, junit.Failed, junit.Passed, junit.Passed} {
		rep := &junit.Report{File: "r.xml", Cases: []junit.Case{{ID: "t", Attempts: []junit.Attempt{{Outcome: o}}}}}
		for _, id := range []string{"a", "b", "c", "d"} {
			rep.Cases = append(rep.Cases, junit.Case{ID: id, Attempts: []junit.Attempt{{Outcome: junit.Passed}}})
		}
		if _, err := ledger.Record(ctx, ledger.RecordOptions{Path: led, Config: cfg, Report: rep, Seed: 7, Diff: "d"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ledger.Unfreeze(ctx, ledger.UnfreezeOptions{Path: led, ID: "t", By: "rita", Now: now}); err != nil {
		t.Fatal(err)
	}
	infra := &junit.Report{File: "r.xml", Cases: []junit.Case{{ID: "a", Attempts: []junit.Attempt{{Outcome: junit.Errored}}}}}
	if _, err := ledger.Record(ctx, ledger.RecordOptions{Path: led, Config: cfg, Report: infra, Seed: 1, Diff: "d"}); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		schema string
		good   []string
		bad    []string // each refused by the schema
		load   func(path string) error
	}{
		{schema: "frozen.schema.json", good: []string{"testdata/frozen.json", reg},
			bad: []string{
				`{"frozen": [{"test": "t", "expires": "2026-09-14"}]}`,
				`{"frozen": [{"test": "t", "reason": "r"}]}`,
				`{"frozen": [{"test": "t", "reason": "r", "expires": "14/09/2026"}]}`,
				`{"frozen": [{"test": "t", "reason": "r", "expires": "2026-09-14", "expiry": "x"}]}`,
			},
			load: func(p string) error { _, err := freeze.Load(p); return err }},
		{schema: "flake_ledger.schema.json", good: []string{"testdata/flake_ledger.json", led},
			bad: []string{
				`{"t": {"seed": 1, "runs": 1, "fails": 0, "last_diff": "x", "state": "flaky"}}`,
				`{"t": {"seed": 1, "runs": 1, "fails": 0, "last_diff": "x", "state": "watch", "colour": 1}}`,
				`{"$x": {}}`,
			},
			load: func(p string) error { _, err := ledger.Load(p); return err }},
		{schema: "fixtures.schema.json", good: []string{"testdata/fixtures.json"},
			bad: []string{
				`{"fixtures": [{"input": "x", "expected": ["x"]}]}`,
				`{"fixtures": [{"name": "a", "expected": ["x"]}]}`,
				`{"fixtures": [{"name": "a", "input": "x"}]}`,
				`{"fixtures": [{"name": "a", "input": "x", "args": ["x"], "expected": 1}]}`,
				`{"fixtures": [{"name": "a", "input": "x", "expected": 1, "raises": "ValueError"}]}`,
				`{"fixtures": [{"name": "a", "input": "x", "expected": 1, "note": "x"}]}`,
			},
			load: func(p string) error { _, err := fixtures.Load(p); return err }},
	}
	for _, tt := range tests {
		s := layerSchema(t, tt.schema)
		for _, g := range tt.good {
			if err := validateFile(t, s, g); err != nil {
				t.Errorf("%s: %s does not validate: %v", tt.schema, g, err)
			}
			if err := tt.load(g); err != nil {
				t.Errorf("premise refuses %s: %v", g, err)
			}
		}
		for i, b := range tt.bad {
			p := filepath.Join(dir, "bad.json")
			if err := os.WriteFile(p, []byte(b), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := validateFile(t, s, p); err == nil {
				t.Errorf("%s: bad[%d] %s validates", tt.schema, i, b)
			}
			if err := tt.load(p); err == nil {
				t.Errorf("premise reads bad[%d] %s, which its schema refuses", i, b)
			}
		}
	}
	// The ledger premise wrote holds the unfreeze and the infrastructure
	// failure the schema describes.
	var raw map[string]json.RawMessage
	b, _ := os.ReadFile(led)
	if err := json.Unmarshal(b, &raw); err != nil || raw["$infrastructure"] == nil || !bytes.Contains(raw["t"], []byte(`"unfreeze"`)) {
		t.Errorf("the written ledger lacks what the test means to validate: %s", b)
	}
}
