package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name    string
		yaml    string
		want    *Settings
		wantErr string
		reason  string
	}{
		{name: "empty file", yaml: "", want: &Settings{Name: "f", Model: map[string]Value{}}},
		{name: "every section", yaml: "model: m\ntimeout: 30s\nexclude: [\"gen/**\"]\nreject:\n  lock: l.json\n  signers: [a@b]\n",
			want: &Settings{Name: "f", Model: map[string]Value{"model": {"m", 1}, "timeout": {"30s", 2}},
				Exclude: []string{"gen/**"}, Reject: Reject{Lock: "l.json", Signers: []string{"a@b"}}}},
		{name: "unknown top-level key", yaml: "model: m\nendpont: http://x\n", wantErr: `f:2: unknown setting "endpont"`,
			reason: "a misspelt setting is refused with its line, never ignored"},
		{name: "the layers' sections", yaml: "freeze:\n  registry: ci/frozen.json\n  max_entries: 3\n  warn_days: 2\nledger:\n  min_runs: 10\n  watch_rate: 0.2\nholdout:\n  dir: blind/\n",
			want: &Settings{Name: "f", Model: map[string]Value{}, Freeze: Freeze{Registry: "ci/frozen.json", MaxEntries: 3, WarnDays: 2},
				Ledger: Ledger{MinRuns: 10, WatchRate: 0.2}, Holdout: Holdout{Dir: "blind/"}}},
		{name: "evidence budgets", yaml: "evidence:\n  max_rows_per_function: 50\n  max_rows: 500\n",
			want: &Settings{Name: "f", Model: map[string]Value{}, Evidence: Evidence{MaxRowsPerFunction: 50, MaxRows: 500}}},
		{name: "a negative evidence budget", yaml: "evidence:\n  max_rows: -1\n", wantErr: "f:2: evidence: a row budget must not be negative",
			reason: "a budget below zero would read as the default, hiding a typo"},
		{name: "a negative evidence time", yaml: "evidence:\n  row_seconds: -5\n", wantErr: "f:2: evidence: row_seconds must not be negative (0 keeps the default, 40)",
			reason: "a time below zero would read as the default, hiding a typo"},
		{name: "a function's time", yaml: "evidence:\n  function_seconds: 3\n",
			want: &Settings{Name: "f", Model: map[string]Value{}, Evidence: Evidence{FunctionSeconds: 3}}},
		{name: "a negative function's time", yaml: "evidence:\n  function_seconds: -1\n", wantErr: "f:2: evidence: function_seconds must not be negative (0 keeps the default, 10)",
			reason: "a time below zero would read as the default, hiding a typo"},
		{name: "searches off", yaml: "evidence:\n  search_seconds: 0\n",
			want:   &Settings{Name: "f", Model: map[string]Value{}, Evidence: Evidence{SearchSeconds: new0()}},
			reason: "0 is said, not the default: it turns the searches off"},
		{name: "a negative search time", yaml: "evidence:\n  search_seconds: -2\n", wantErr: "f:2: evidence: search_seconds must not be negative (0 turns the searches off)"},
		{name: "unknown key in evidence", yaml: "evidence:\n  max_row: 5\n", wantErr: "f:2: evidence: field max_row not found"},
		{name: "unknown key in freeze", yaml: "freeze:\n  max_entry: 3\n", wantErr: "f:2: freeze: field max_entry not found",
			reason: "a misspelt cap must not leave the registry uncapped"},
		{name: "a cap that is not a number", yaml: "freeze:\n  max_entries: many\n", wantErr: "f:",
			reason: "the value is refused, never read as zero"},
		{name: "unknown key in reject", yaml: "reject:\n  lock: x\n  signer: [a@b]\n", wantErr: "f:3: reject: field signer not found",
			reason: "a misspelt allow-list must not be ignored; the line is the key's own"},
		{name: "a key twice", yaml: "model: a\nmodel: b\n", wantErr: `f:2: setting "model" given twice`},
		{name: "model value not a scalar", yaml: "model: [a, b]\n", wantErr: "f:1: model: want a single value"},
		{name: "bad glob", yaml: "exclude: [\"[\"]\n", wantErr: "f:1: exclude: bad glob"},
		{name: "exclude not a list", yaml: "exclude: gen/\n", wantErr: "want a list of path globs"},
		{name: "not a mapping", yaml: "- a\n", wantErr: "f:1: want a mapping"},
		{name: "bad yaml", yaml: "model: [\n", wantErr: "f: yaml:"},
		{name: "empty reject section", yaml: "reject:\n", want: &Settings{Name: "f", Model: map[string]Value{}}},
		{name: "rules section", yaml: "model: m\nrules:\n  disable: [py-attribute-not-none, go-error-discarded]\n",
			want: &Settings{Name: "f", Model: map[string]Value{"model": {"m", 1}},
				Rules: Rules{Disable: []string{"py-attribute-not-none", "go-error-discarded"}, Line: 2}}},
		{name: "unknown key in rules", yaml: "rules:\n  disabled: [x]\n", wantErr: "f:2: rules: field disabled not found",
			reason: "a misspelt rules: key would leave every rule on without a word"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse("f", []byte(tt.yaml))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Parse error = %v, want %q (%s)", err, tt.wantErr, tt.reason)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Parse (-want +got):\n%s\n%s", diff, tt.reason)
			}
		})
	}
}

func TestLoadMissingFile(t *testing.T) {
	s, err := Load(t.TempDir())
	if err != nil || s.Name != "" || len(s.Model) != 0 {
		t.Fatalf("Load of a directory without %s = %+v, %v; want the zero settings", File, s, err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, File), []byte("bogus: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), filepath.Join(dir, File)+":1:") {
		t.Fatalf("Load error = %v, want one naming the file and line", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "model: m\n", "reject:\n  lock: x\n", "exclude: [a, b]\n", "a: [\n", "- x\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := Parse("f", []byte(s))
		if err == nil && got == nil {
			t.Fatal("nil settings without an error")
		}
		if err != nil && !strings.HasPrefix(err.Error(), "f") {
			t.Fatalf("error %q does not name the file", err)
		}
	})
}

// new0 is a pointer to a setting of 0.
func new0() *int {
	n := 0
	return &n
}
