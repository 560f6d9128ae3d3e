package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"

	"github.com/premise-dev/premise/schemas"
)

// checkWrittenFiles checks each file premise keeps in repo against the
// schema premise schema prints and the file's first line names, and that
// each row of the table names its target. TestJSONEverywhere's steps write
// them.
func checkWrittenFiles(t *testing.T, repo string) {
	t.Helper()
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
		if !strings.HasSuffix(file, ".yaml") {
			continue
		}
		// The line an editor's YAML language server reads, spelled out:
		// schemas.Comment would agree with itself if the URL moved.
		first := "# yaml-language-server: $schema=https://raw.githubusercontent.com/premise-dev/premise/main/schemas/" + name + ".schema.json\n"
		if !bytes.HasPrefix(data, []byte(first)) || first != schemas.Comment(name) {
			t.Errorf("%s does not start with %q (schemas.Comment: %q), so an editor cannot check it", file, first, schemas.Comment(name))
		}
	}
	// Each row names its target; the table has no top-level one.
	table, err := os.ReadFile(filepath.Join(repo, "partitions.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if regexp.MustCompile(`(?m)^target:`).Match(table) || !regexp.MustCompile(`(?m)^    target: intervals\.merge_ranges$`).Match(table) {
		t.Errorf("partitions.yaml: want each row to name its target (    target: intervals.merge_ranges), none at the top level:\n%s", table)
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
