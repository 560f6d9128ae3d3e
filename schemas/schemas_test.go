package schemas_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"

	"github.com/premise-dev/premise/gate/reject"
	"github.com/premise-dev/premise/schemas"
	"github.com/premise-dev/premise/validate"
)

// compile compiles the schema called name against the draft 2020-12
// meta-schema; a schema that is not valid JSON Schema fails here.
func compile(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	b, ok := schemas.Lookup(name)
	if !ok {
		t.Fatalf("no schema %s", name)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemas.URL(name), doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(schemas.URL(name))
	if err != nil {
		t.Fatalf("compile %s: %v", name, err)
	}
	return s
}

// Check validates a file's bytes against the schema called name, YAML read
// as an editor's language server reads it: 5 is a number, null is null.
func Check(t *testing.T, name string, data []byte) error {
	t.Helper()
	var v any
	if strings.HasSuffix(fileOf(name), ".json") {
		if err := json.Unmarshal(data, &v); err != nil {
			return err
		}
	} else if err := yaml.Unmarshal(data, &v); err != nil {
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
	return compile(t, name).Validate(inst)
}

func fileOf(name string) string {
	for _, s := range schemas.All() {
		if s.Name == name {
			return s.File
		}
	}
	return ""
}

// read is premise's own reader of the format called name.
func read(name string, data []byte) error {
	var err error
	switch name {
	case "assumptions":
		_, err = validate.ParseRegister("assumptions.yaml", data)
	case "partitions":
		_, err = validate.ParseTable("partitions.yaml", data)
	case "freezes":
		_, err = validate.ParseFreezes("frozen_rows.json", data)
	case "lockfile":
		_, err = reject.ParseLock("must_reject.lock.json", data)
	}
	return err
}

func TestSchemasCompile(t *testing.T) {
	for _, s := range schemas.All() {
		compile(t, s.Name)
		b, _ := schemas.Lookup(s.Name)
		var doc struct {
			ID string `json:"$id"`
		}
		if err := json.Unmarshal(b, &doc); err != nil || doc.ID != schemas.URL(s.Name) {
			t.Errorf("%s: $id %q, want %q (the URL the files' first line names)", s.Name, doc.ID, schemas.URL(s.Name))
		}
	}
}

const register = `version: 1
patch_ref: main...HEAD
items:
  - id: A001
    symbol: intervals.merge_ranges
    precondition: ranges arrive sorted by start
    evidence: 'for start, end in ranges:'
    status: accepted
    note: callers sort
    file: intervals/__init__.py
    line: 5
`

const table = `version: 1
rows:
  - id: P001
    target: intervals.merge_ranges
    cls: empty
    kind: boundary
    inp: []
    relation: empty input yields empty output
    assumption_ids: [A001]
    contract: result == []
  - id: P002
    target: intervals.merge_ranges
    cls: invalid_none
    kind: invalid
    inp: null
    relation: None is refused with a TypeError
    assumption_ids: [A001]
    raises: TypeError
`

const freezes = `{"0123456789abcdef": {"row_id": "P004", "reason": "order of input", "replacement_row": null}}`

const lock = `{"version": 1, "entries": [{"id": "inverted", "target": "intervals.merge_ranges",
 "input_sha256": "aa", "input_path": "corpus/must_reject/inverted.json", "must": {"kind": "exception", "class": "ValueError"}}]}`

// TestSchemaAgreesWithReader: the schemas and premise's strict readers agree
// on what a file may hold. Every case is a small change to a valid file;
// where the schema refuses it, the reader refuses it too, so an editor's
// squiggle never marks a file premise would run, and a file the editor
// passes fails premise only for what a schema cannot say (wantReaderOnly).
func TestSchemaAgreesWithReader(t *testing.T) {
	tests := []struct {
		name, schema, data string
		valid              bool
		readerOnly         bool // the schema cannot say it: the reader alone refuses
		reason             string
	}{
		{"register", "assumptions", register, true, false, "the shape premise writes"},
		{"register empty", "assumptions", "version: 1\nitems: []\n", true, false, "a register with nothing yet"},
		{"register null note", "assumptions", strings.Replace(register, "note: callers sort", "note: null", 1), true, false, "null is an absent optional field"},
		{"register v2", "assumptions", strings.Replace(register, "version: 1", "version: 2", 1), false, false, "only version 1 is read"},
		{"register no items", "assumptions", "version: 1\n", false, false, "items is required"},
		{"register unknown field", "assumptions", register + "    reviewer: rita\n", false, false, "unknown fields are refused, never ignored"},
		{"register bad id", "assumptions", strings.Replace(register, "A001", "B1", 1), false, false, "ids are A and three digits"},
		{"register bad status", "assumptions", strings.Replace(register, "status: accepted", "status: approved", 1), false, false, "three statuses"},
		{"register blank symbol", "assumptions", strings.Replace(register, "symbol: intervals.merge_ranges", "symbol: ' '", 1), false, false, "a symbol is required"},
		{"register numeric symbol", "assumptions", strings.Replace(register, "symbol: intervals.merge_ranges", "symbol: 5", 1), false, false, "text fields hold text, as the editor reads them"},
		{"register negative line", "assumptions", strings.Replace(register, "line: 5", "line: -1", 1), false, false, "lines count from 1"},
		{"register stale yes", "assumptions", register + "    stale: yes\n", false, false, "stale is true or false"},
		{"register duplicate id", "assumptions", register + strings.SplitN(register, "items:\n", 2)[1], false, true, "uniqueness across items is beyond a schema"},

		{"table", "partitions", table, true, false, "rows naming their targets"},
		{"table old target", "partitions", "version: 1\ntarget: intervals.merge_ranges\nrows:\n  - id: P001\n    cls: empty\n    kind: boundary\n    inp: []\n    relation: empty input yields empty output\n    assumption_ids: [A001]\n", true, false, "an older table's one target still loads"},
		{"table no target", "partitions", strings.Replace(table, "    target: intervals.merge_ranges\n", "", 1), false, false, "a row with no target and no table target calls nothing"},
		{"table short relation", "partitions", strings.Replace(table, "empty input yields empty output", "empty", 1), false, false, "a relation says what must hold"},
		{"table no assumptions", "partitions", strings.Replace(table, "assumption_ids: [A001]", "assumption_ids: []", 1), false, false, "an untethered row is refused"},
		{"table bad kind", "partitions", strings.Replace(table, "kind: boundary", "kind: edge", 1), false, false, "three kinds"},
		{"table no input", "partitions", strings.Replace(table, "    inp: []\n", "", 1), false, false, "a row states its input"},
		{"table inp and args", "partitions", strings.Replace(table, "    inp: []\n", "    inp: []\n    args: [1]\n", 1), false, false, "one way to give the input"},
		{"table raises on boundary", "partitions", strings.Replace(table, "    contract: result == []\n", "    raises: ValueError\n", 1), false, false, "raises belongs to invalid rows"},
		{"table contract and same_as_base", "partitions", strings.Replace(table, "    contract: result == []\n", "    contract: result == []\n    same_as_base: true\n", 1), false, false, "the base is the contract"},
		{"table bad metamorphic", "partitions", strings.Replace(table, "    contract: result == []\n", "    metamorphic: [reversal]\n", 1), false, false, "two relations"},
		{"table unknown field", "partitions", table + "    weight: 3\n", false, false, "unknown fields are refused"},
		{"table empty todo", "partitions", strings.Replace(table, "    contract: result == []\n", "    todo: ''\n", 1), false, false, "a todo says what is missing"},
		{"table contract does not compile", "partitions", strings.Replace(table, "result == []", "result ==", 1), false, true, "CEL is compiled by premise, not by a schema"},

		{"freezes", "freezes", freezes, true, false, "what premise gate freeze writes"},
		{"freezes empty", "freezes", "{}", true, false, "no freezes"},
		{"freezes bad hash", "freezes", strings.Replace(freezes, "0123456789abcdef", "P004", 1), false, false, "keys are row hashes"},
		{"freezes no reason", "freezes", strings.Replace(freezes, `"reason": "order of input", `, "", 1), false, false, "a freeze says why"},
		{"freezes unknown field", "freezes", strings.Replace(freezes, `"replacement_row": null`, `"replacement_row": null, "owner": "rita"`, 1), false, false, "unknown fields are refused"},

		{"lockfile", "lockfile", lock, true, false, "what premise reject add writes"},
		{"lockfile v2", "lockfile", strings.Replace(lock, `"version": 1`, `"version": 2`, 1), false, false, "only version 1"},
		{"lockfile bad kind", "lockfile", strings.Replace(lock, `"kind": "exception"`, `"kind": "panic"`, 1), false, false, "two kinds"},
		{"lockfile exception without class", "lockfile", strings.Replace(lock, `, "class": "ValueError"`, "", 1), false, false, "an exception entry names its class"},
		{"lockfile http 200", "lockfile", strings.Replace(strings.Replace(lock, `"kind": "exception", "class": "ValueError"`, `"kind": "http", "status": 200`, 1), "intervals.merge_ranges", "POST /x", 1), false, false, "a success is not a rejection"},
		{"lockfile bad id", "lockfile", strings.Replace(lock, `"id": "inverted"`, `"id": "two words"`, 1), false, false, "ids are one word"},
		{"lockfile not hex", "lockfile", strings.Replace(lock, `"input_sha256": "aa"`, `"input_sha256": "zz"`, 1), false, false, "a hash is hex"},
		{"lockfile unknown field", "lockfile", strings.Replace(lock, `"input_path"`, `"owner": "rita", "input_path"`, 1), false, false, "unknown fields are refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sErr := Check(t, tt.schema, []byte(tt.data))
			rErr := read(tt.schema, []byte(tt.data))
			wantSchemaOK := tt.valid || tt.readerOnly
			if (sErr == nil) != wantSchemaOK {
				t.Errorf("schema: %v, want valid=%v (%s)", sErr, wantSchemaOK, tt.reason)
			}
			if (rErr == nil) != tt.valid {
				t.Errorf("reader: %v, want valid=%v (%s)", rErr, tt.valid, tt.reason)
			}
			if sErr != nil && rErr == nil {
				t.Errorf("the schema refuses what premise accepts (%s): %v", tt.reason, sErr)
			}
		})
	}
}

// TestShippedFilesMatchSchemas: the files in this repository that stand for
// what users keep (the bundled Go example's table, the readers' fixtures)
// pass their schemas. cmd/premise checks the files premise writes on the
// bundled example.
func TestShippedFilesMatchSchemas(t *testing.T) {
	files := map[string]string{
		"../examples/intervals_go/partitions.yaml":      "partitions",
		"../validate/testdata/premise_assumptions.yaml": "assumptions",
	}
	seed, _ := filepath.Glob("../validate/testdata/seed*.yaml")
	for _, f := range seed {
		if strings.Contains(f, "partition") || strings.Contains(f, "fixture") {
			files[f] = "partitions"
		} else {
			files[f] = "assumptions"
		}
	}
	for f, name := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if read(name, data) != nil {
			continue // a fixture of a bad file
		}
		if err := Check(t, name, data); err != nil {
			t.Errorf("%s: premise reads it, its schema refuses it: %v", f, err)
		}
	}
}
