// Package settings reads .premise.yaml, the repository's settings file: one
// schema for every stage, unknown keys refused with the file and line, each
// stage taking its own section.
package settings

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// File is the settings file's name at the top of a repository.
const File = ".premise.yaml"

// ModelKeys are the top-level keys that configure the proposer. Their
// values are kept as written (Value) and parsed by propose, which shares the
// parsing with the PREMISE_* environment variables.
var ModelKeys = []string{
	"endpoint", "model", "api_key_env", "timeout", "max_attempts", "concurrency",
	"cache_dir", "no_cache", "no_repair", "token_budget", "max_output_tokens", "seed",
}

// rejectKeys are the keys of the reject: section.
var rejectKeys = []string{"lock", "corpus", "environmental", "protected", "signers", "require_signed", "allowed_signers"}

// Value is one scalar setting as written, with where it was written.
type Value struct {
	Text string
	Line int
}

// Settings is a whole .premise.yaml. The zero value is a repository without
// one.
type Settings struct {
	// Name is the file the settings were read from ("" when there was none),
	// for errors that stages raise about a value.
	Name string
	// Model holds the proposer's settings by key (see ModelKeys).
	Model map[string]Value
	// Exclude are path globs whose files get no symbols (diffparse).
	Exclude []string
	// Reject is the must-reject corpus's section.
	Reject Reject
	// Rules is the static proposer's section.
	Rules Rules
	// Freeze is the freeze registry's section (seed 001, layer 3).
	Freeze Freeze
	// Ledger is the flake ledger's section (seed 002).
	Ledger Ledger
	// Holdout is the holdout split's section (seed 002).
	Holdout Holdout
	// Evidence is the evidence stage's section (issue 13, part 11).
	Evidence Evidence
}

// Evidence is the evidence: section: how many base-against-head rows the
// evidence stage runs for one changed function and for the whole run.
// Every field is optional; zero keeps premise's default.
//
//	evidence:
//	  max_rows_per_function: 300
//	  max_rows: 4000
//	  trace_seconds: 20    # the traced run of the base's tests; 0 turns it off
//	  row_seconds: 40      # the rows' run on base and head, every table
//	  function_seconds: 10 # one function's calls on base and head together
//	  search_seconds: 4    # the differential search, each table and side (the
//	                       # coverage search 1.5 times it); 0 turns both off
type Evidence struct {
	MaxRowsPerFunction int  `yaml:"max_rows_per_function"`
	MaxRows            int  `yaml:"max_rows"`
	TraceSeconds       *int `yaml:"trace_seconds"`
	RowSeconds         int  `yaml:"row_seconds"`
	FunctionSeconds    int  `yaml:"function_seconds"`
	SearchSeconds      *int `yaml:"search_seconds"`
}

// evidenceKeys are the keys of the evidence: section.
var evidenceKeys = []string{"max_rows_per_function", "max_rows", "trace_seconds", "row_seconds", "function_seconds", "search_seconds"}

// Freeze is the freeze: section: where the registry of frozen tests lives
// and how much of the gate it may hide. Every field is optional.
//
//	freeze:
//	  registry: gate/frozen.json
//	  max_entries: 20      # a freeze past the cap is refused; a registry over it blocks
//	  warn_days: 7         # warn this many days before an expiry
//	  max_days: 90         # no expiry further ahead than this
//	  expired_action: fail # or warn
type Freeze struct {
	Registry      string `yaml:"registry"`
	MaxEntries    int    `yaml:"max_entries"`
	WarnDays      int    `yaml:"warn_days"`
	MaxDays       int    `yaml:"max_days"`
	ExpiredAction string `yaml:"expired_action"`
}

// freezeKeys are the keys of the freeze: section.
var freezeKeys = []string{"registry", "max_entries", "warn_days", "max_days", "expired_action"}

// Ledger is the ledger: section: the flake ledger's file and the
// thresholds that move a test between states. Every field is optional.
//
//	ledger:
//	  file: flake_ledger.json
//	  min_runs: 5          # no state change on fewer runs; a watched test leaves after this many clean runs
//	  watch_rate: 0.10     # watch up to this fail rate, frozen above it
//	  window: 50           # the rate is over this many latest runs
//	  unfreeze_runs: 5     # clean identical-seed reruns after a human's unfreeze
//	  infra_rate: 0.80     # a run with this share of tests failing is an infrastructure failure
type Ledger struct {
	File         string  `yaml:"file"`
	MinRuns      int     `yaml:"min_runs"`
	WatchRate    float64 `yaml:"watch_rate"`
	Window       int     `yaml:"window"`
	UnfreezeRuns int     `yaml:"unfreeze_runs"`
	InfraRate    float64 `yaml:"infra_rate"`
}

// ledgerKeys are the keys of the ledger: section.
var ledgerKeys = []string{"file", "min_runs", "watch_rate", "window", "unfreeze_runs", "infra_rate"}

// Holdout is the holdout: section: the tree the agent never reads, the
// public tests it may, and the properties (seed 002's three directories).
//
//	holdout:
//	  dir: tests/holdout/
//	  public: tests/public/
//	  properties: tests/properties/
type Holdout struct {
	Dir        string `yaml:"dir"`
	Public     string `yaml:"public"`
	Properties string `yaml:"properties"`
}

// holdoutKeys are the keys of the holdout: section.
var holdoutKeys = []string{"dir", "public", "properties"}

// Rules is the rules: section: static-proposer rules turned off, by name
// (`premise rules` lists them).
//
//	rules:
//	  disable: [py-attribute-not-none, go-error-discarded]
type Rules struct {
	Disable []string `yaml:"disable"`
	// Line is where the section starts, for errors about its names.
	Line int `yaml:"-"`
}

// rulesKeys are the keys of the rules: section.
var rulesKeys = []string{"disable"}

// Reject is the reject: section: where the must-reject corpus lives and who
// may sign changes to it. Every field is optional.
//
//	reject:
//	  lock: must_reject.lock.json
//	  corpus: corpus/must_reject
//	  environmental: must_reject.environmental.json
//	  protected: [corpus/must_reject/, must_reject.lock.json]
//	  signers: ["Rita Reviewer <rita@example.com>", lead@example.com]
type Reject struct {
	Lock          string   `yaml:"lock"`
	Corpus        string   `yaml:"corpus"`
	Environmental string   `yaml:"environmental"`
	Protected     []string `yaml:"protected"`
	Signers       []string `yaml:"signers"`
	// RequireSigned makes a commit that changes a protected path need a
	// signature git verify-commit accepts against AllowedSigners (an SSH
	// allowed-signers file in the repository, read from the merge-base),
	// besides the Signed-off-by trailer.
	RequireSigned  bool   `yaml:"require_signed"`
	AllowedSigners string `yaml:"allowed_signers"`
}

// Keys returns every top-level key the file may hold, sorted.
func Keys() []string {
	out := append([]string{"exclude", "reject", "rules", "freeze", "ledger", "holdout", "evidence"}, ModelKeys...)
	sort.Strings(out)
	return out
}

// Load reads dir/.premise.yaml. A missing file is the zero Settings.
func Load(dir string) (*Settings, error) {
	return LoadFile(filepath.Join(dir, File))
}

// LoadFile reads the settings file at name. A missing file is the zero
// Settings.
func LoadFile(name string) (*Settings, error) {
	data, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return &Settings{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	return Parse(name, data)
}

// Parse reads the settings in data; name is used in errors, which name the
// file and line.
func Parse(name string, data []byte) (*Settings, error) {
	s := &Settings{Name: name, Model: map[string]Value{}}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(doc.Content) == 0 {
		return s, nil
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s:%d: want a mapping of settings at the top level", name, top.Line)
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		if seen[k.Value] {
			return nil, fmt.Errorf("%s:%d: setting %q given twice", name, k.Line, k.Value)
		}
		seen[k.Value] = true
		switch {
		case k.Value == "exclude":
			globs, err := parseExclude(v)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: exclude: %v", name, k.Line, err)
			}
			s.Exclude = globs
		case k.Value == "reject":
			if err := decodeSection(v, rejectKeys, &s.Reject); err != nil {
				return nil, fmt.Errorf("%s:%v", name, strings.Replace(err.Error(), ": ", ": reject: ", 1))
			}
		case k.Value == "rules":
			if err := decodeSection(v, rulesKeys, &s.Rules); err != nil {
				return nil, fmt.Errorf("%s:%v", name, strings.Replace(err.Error(), ": ", ": rules: ", 1))
			}
			s.Rules.Line = k.Line
		case k.Value == "freeze":
			if err := decodeSection(v, freezeKeys, &s.Freeze); err != nil {
				return nil, fmt.Errorf("%s:%v", name, strings.Replace(err.Error(), ": ", ": freeze: ", 1))
			}
		case k.Value == "ledger":
			if err := decodeSection(v, ledgerKeys, &s.Ledger); err != nil {
				return nil, fmt.Errorf("%s:%v", name, strings.Replace(err.Error(), ": ", ": ledger: ", 1))
			}
		case k.Value == "holdout":
			if err := decodeSection(v, holdoutKeys, &s.Holdout); err != nil {
				return nil, fmt.Errorf("%s:%v", name, strings.Replace(err.Error(), ": ", ": holdout: ", 1))
			}
		case k.Value == "evidence":
			if err := decodeSection(v, evidenceKeys, &s.Evidence); err != nil {
				return nil, fmt.Errorf("%s:%v", name, strings.Replace(err.Error(), ": ", ": evidence: ", 1))
			}
			if s.Evidence.MaxRowsPerFunction < 0 || s.Evidence.MaxRows < 0 {
				return nil, fmt.Errorf("%s:%d: evidence: a row budget must not be negative", name, v.Line)
			}
			if s.Evidence.RowSeconds < 0 {
				return nil, fmt.Errorf("%s:%d: evidence: row_seconds must not be negative (0 keeps the default, %d)", name, v.Line, 40)
			}
			if s.Evidence.FunctionSeconds < 0 {
				return nil, fmt.Errorf("%s:%d: evidence: function_seconds must not be negative (0 keeps the default, %d)", name, v.Line, 10)
			}
			if t := s.Evidence.TraceSeconds; t != nil && *t < 0 {
				return nil, fmt.Errorf("%s:%d: evidence: trace_seconds must not be negative (0 turns the traced run off)", name, v.Line)
			}
			if t := s.Evidence.SearchSeconds; t != nil && *t < 0 {
				return nil, fmt.Errorf("%s:%d: evidence: search_seconds must not be negative (0 turns the searches off)", name, v.Line)
			}
		case contains(ModelKeys, k.Value):
			if v.Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("%s:%d: %s: want a single value", name, v.Line, k.Value)
			}
			s.Model[k.Value] = Value{Text: v.Value, Line: v.Line}
		default:
			return nil, fmt.Errorf("%s:%d: unknown setting %q (known: %s)", name, k.Line, k.Value, strings.Join(Keys(), ", "))
		}
	}
	return s, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// decodeSection decodes a mapping strictly into out, naming an unknown key
// by its line.
func decodeSection(v *yaml.Node, keys []string, out any) error {
	if v.Kind != yaml.MappingNode {
		if v.Tag == "!!null" {
			return nil
		}
		return fmt.Errorf("%d: want a mapping", v.Line)
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		if k := v.Content[i]; !contains(keys, k.Value) {
			return fmt.Errorf("%d: field %s not found (known: %s)", k.Line, k.Value, strings.Join(keys, ", "))
		}
	}
	var b bytes.Buffer
	if err := yaml.NewEncoder(&b).Encode(v); err != nil {
		return fmt.Errorf("%d: %v", v.Line, err)
	}
	dec := yaml.NewDecoder(&b)
	dec.KnownFields(true)
	if err := dec.Decode(out); err != nil {
		return fmt.Errorf("%d: %v", v.Line, err)
	}
	return nil
}

// parseExclude checks that the exclude: value is a list of valid globs.
func parseExclude(v *yaml.Node) ([]string, error) {
	if v.Kind != yaml.SequenceNode {
		return nil, errors.New("want a list of path globs")
	}
	var out []string
	for _, g := range v.Content {
		if g.Kind != yaml.ScalarNode || g.Tag != "!!str" && g.Tag != "" {
			return nil, fmt.Errorf("line %d: want a path glob", g.Line)
		}
		if _, err := path.Match(strings.ReplaceAll(g.Value, "**", "*"), ""); err != nil || g.Value == "" {
			return nil, fmt.Errorf("bad glob %q", g.Value)
		}
		out = append(out, g.Value)
	}
	return out, nil
}
