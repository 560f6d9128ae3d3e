package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"

	"github.com/premise-dev/premise/schemas"
)

// TestWrittenFilesMatchSchemas runs premise on the bundled example until it
// has written every file it keeps (the register, the table, a freeze, a
// must-reject entry), and checks each against the schema premise schema
// prints and the file's first line names.
func TestWrittenFilesMatchSchemas(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs the pipeline on the example, seconds; CI and go test ./... run it")
	}
	dir := t.TempDir()
	t.Setenv("PREMISE_CACHE_DIR", filepath.Join(dir, ".cache"))
	repo := filepath.Join(dir, "intervals")
	for _, args := range [][]string{
		{"example", "intervals", "--dir", dir},
		{"run", "--repo", repo},
		{"accept", "A001", "--repo", repo, "--note", "callers pass any order"},
		{"reject", "A002", "--repo", repo, "--note", "touching ranges stay apart"},
		{"reject", "C001", "C002", "--repo", repo, "--note", "regressions: the merger must sort"},
		{"run", "--repo", repo},
		{"gate", "freeze", "P001", "--repo", repo, "--reason", "a freeze for the test"},
		{"reject", "add", "--repo", repo, "--id", "inverted", "--target", "intervals.merge_ranges", "--fixture", `{"ranges": [[5, 1]]}`, "--must-class", "ValueError"},
	} {
		if code, _, errOut := runPremise(t, args...); code > 1 {
			t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), code, errOut)
		}
	}
	for name, file := range map[string]string{
		"assumptions": "assumptions.yaml", "partitions": "partitions.yaml",
		"freezes": ".gate/frozen_rows.json", "lockfile": "must_reject.lock.json",
	} {
		data, err := os.ReadFile(filepath.Join(repo, file))
		if err != nil {
			t.Fatal(err)
		}
		if err := checkSchema(name, data); err != nil {
			t.Errorf("%s does not match its schema: %v", file, err)
		}
		if strings.HasSuffix(file, ".yaml") && !bytes.HasPrefix(data, []byte(schemas.Comment(name))) {
			t.Errorf("%s does not start with %q, so an editor cannot check it", file, schemas.Comment(name))
		}
	}
}

// checkSchema validates data, YAML or JSON, against the schema called name.
func checkSchema(name string, data []byte) error {
	b, _ := schemas.Lookup(name)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemas.URL(name), doc); err != nil {
		return err
	}
	s, err := c.Compile(schemas.URL(name))
	if err != nil {
		return err
	}
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil { // JSON is YAML
		return err
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return err
	}
	return s.Validate(inst)
}
