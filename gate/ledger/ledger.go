package ledger

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"

	"github.com/premise-dev/premise/internal/atomicfile"
	"github.com/premise-dev/premise/internal/settings"
)

// DefaultFile is the ledger's path from the repository's top level.
const DefaultFile = "flake_ledger.json"

// State is where a test stands in the ledger.
type State string

// The states (seed 002, "Proposal for state transitions"), and broken: a
// test that failed every run is broken, not flaky, and is never frozen.
const (
	Active State = "active"
	Watch  State = "watch"
	Frozen State = "frozen"
	Broken State = "broken"
)

// Run is one attempt of a test as the ledger keeps it.
type Run struct {
	Seed int64  `json:"seed"`
	Diff string `json:"diff"`
	Fail bool   `json:"fail"`
}

// Probation is a human's unfreeze of a frozen test and the identical-seed
// reruns since (seed 002: active after zero fails in the last N
// identical-seed reruns following a human unfreeze).
type Probation struct {
	By   string `json:"by"`
	At   string `json:"at"`
	Seed *int64 `json:"seed"` // the seed of the first rerun after it
	Runs int    `json:"runs"`
}

// Row is one test's record. Seed, Runs, Fails, LastDiff and State are seed
// 002's fields; History (the latest runs) and Unfreeze are premise's.
type Row struct {
	Seed     int64      `json:"seed"`
	Runs     int        `json:"runs"`
	Fails    int        `json:"fails"`
	LastDiff string     `json:"last_diff"`
	State    State      `json:"state"`
	Why      string     `json:"why,omitempty"`
	History  []Run      `json:"history"`
	Unfreeze *Probation `json:"unfreeze,omitempty"`
}

// Infra is a run recorded as an infrastructure failure: most tests failed
// at once, so it says nothing about any one test and fed no row.
type Infra struct {
	Seed    int64  `json:"seed"`
	Diff    string `json:"diff"`
	Tests   int    `json:"tests"`
	Failing int    `json:"failing"`
	File    string `json:"file"`
}

// infraKey holds the infrastructure failures beside the rows; no runner
// writes a node id that starts with "$".
const infraKey = "$infrastructure"

// maxInfra bounds the infrastructure failures kept.
const maxInfra = 50

// Ledger is the whole file.
type Ledger struct {
	Tests map[string]*Row
	Infra []Infra
}

// Config is the ledger: section with its defaults filled in.
type Config struct {
	File         string
	MinRuns      int
	WatchRate    float64
	Window       int
	UnfreezeRuns int
	InfraRate    float64
}

// ConfigFrom fills in the defaults for what s leaves out.
func ConfigFrom(s settings.Ledger) Config {
	c := Config{File: s.File, MinRuns: s.MinRuns, WatchRate: s.WatchRate, Window: s.Window, UnfreezeRuns: s.UnfreezeRuns, InfraRate: s.InfraRate}
	if c.File == "" {
		c.File = DefaultFile
	}
	if c.MinRuns <= 0 {
		c.MinRuns = 5
	}
	if c.WatchRate <= 0 {
		c.WatchRate = 0.10
	}
	if c.Window <= 0 {
		c.Window = 50
	}
	if c.Window < c.MinRuns {
		c.Window = c.MinRuns
	}
	if c.UnfreezeRuns <= 0 {
		c.UnfreezeRuns = 5
	}
	if c.InfraRate <= 0 {
		c.InfraRate = 0.80
	}
	return c
}

// LoadConfig reads the ledger: section of repo's settings: the merge-base's
// with base when given, else the work tree's.
func LoadConfig(ctx context.Context, repo, base string) (Config, error) {
	var s *settings.Settings
	var err error
	if base != "" {
		s, _, err = settings.Trusted(ctx, repo, base, "")
	} else {
		s, err = settings.Load(repo)
	}
	if err != nil {
		return Config{}, err
	}
	c := ConfigFrom(s.Ledger)
	if c.WatchRate >= 1 || c.InfraRate > 1 {
		return Config{}, fmt.Errorf("%s: ledger: watch_rate and infra_rate are shares of runs: want them below 1", s.Name)
	}
	return c, nil
}

// Load reads the ledger at path; a missing file is an empty ledger.
func Load(path string) (*Ledger, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Ledger{Tests: map[string]*Row{}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return Parse(path, data)
}

// Parse reads a ledger from data; name is used in errors.
func Parse(name string, data []byte) (*Ledger, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("%s: not a flake ledger: %v", name, err)
	}
	l := &Ledger{Tests: map[string]*Row{}}
	for id, v := range raw {
		if id == infraKey {
			if err := strict(v, &l.Infra); err != nil {
				return nil, fmt.Errorf("%s: %s: %v", name, infraKey, err)
			}
			continue
		}
		if id == "" || strings.HasPrefix(id, "$") {
			return nil, fmt.Errorf("%s: %q is not a test's node id", name, id)
		}
		var r Row
		if err := strict(v, &r); err != nil {
			return nil, fmt.Errorf("%s: %s: %v", name, id, err)
		}
		switch r.State {
		case Active, Watch, Frozen, Broken:
		default:
			return nil, fmt.Errorf("%s: %s: state %q: want active, watch, frozen or broken", name, id, r.State)
		}
		if r.Fails < 0 || r.Fails > r.Runs {
			return nil, fmt.Errorf("%s: %s: fails %d of runs %d", name, id, r.Fails, r.Runs)
		}
		l.Tests[id] = &r
	}
	return l, nil
}

func strict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// IDs are the ledger's node ids, sorted.
func (l *Ledger) IDs() []string {
	ids := make([]string, 0, len(l.Tests))
	for id := range l.Tests {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// save writes the ledger atomically, keys sorted (encoding/json sorts map
// keys), so its diffs read well in review.
func (l *Ledger) save(path string) error {
	out := map[string]any{}
	for id, r := range l.Tests {
		if r.History == nil {
			r.History = []Run{}
		}
		out[id] = r
	}
	if len(l.Infra) > 0 {
		out[infraKey] = l.Infra
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, append(b, '\n'), 0o644)
}
