package freeze

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/premise-dev/premise/internal/atomicfile"
	"github.com/premise-dev/premise/internal/filelock"
	"github.com/premise-dev/premise/internal/settings"
)

// DefaultRegistry is the registry's path from the repository's top level
// (seed 001).
const DefaultRegistry = "gate/frozen.json"

// Defaults of the freeze: settings.
const (
	DefaultMaxEntries = 20
	DefaultWarnDays   = 7
	DefaultMaxDays    = 90
)

// DateLayout is how expiries are written: an ISO date, as seed 001's
// date.fromisoformat reads it.
const DateLayout = "2006-01-02"

// Entry is one frozen test.
type Entry struct {
	// Test is the test's node id (tests/x.py::test_y, example.com/m::TestA)
	// or its bare name, which matches every test of that name.
	Test   string `json:"test"`
	Reason string `json:"reason"`
	Owner  string `json:"owner,omitempty"`
	// Flakes and Runs are the evidence the freeze was made on: how many
	// of how many runs flaked.
	Flakes  int    `json:"flakes,omitempty"`
	Runs    int    `json:"runs,omitempty"`
	Expires string `json:"expires"`
	// Added is the day premise recorded the entry.
	Added string `json:"added,omitempty"`
}

// expiry is the entry's last frozen day.
func (e Entry) expiry() time.Time {
	t, _ := time.Parse(DateLayout, e.Expires)
	return t
}

// Registry is the registry file's contents.
type Registry struct {
	Frozen []Entry `json:"frozen"`
}

// Config is the freeze: section with its defaults filled in.
type Config struct {
	Registry      string
	MaxEntries    int
	WarnDays      int
	MaxDays       int
	ExpiredAction string // "fail" or "warn"
}

// ConfigFrom fills in the defaults for what s leaves out.
func ConfigFrom(s settings.Freeze) Config {
	c := Config{Registry: s.Registry, MaxEntries: s.MaxEntries, WarnDays: s.WarnDays, MaxDays: s.MaxDays, ExpiredAction: s.ExpiredAction}
	if c.Registry == "" {
		c.Registry = DefaultRegistry
	}
	if c.MaxEntries <= 0 {
		c.MaxEntries = DefaultMaxEntries
	}
	if c.WarnDays <= 0 {
		c.WarnDays = DefaultWarnDays
	}
	if c.MaxDays <= 0 {
		c.MaxDays = DefaultMaxDays
	}
	if c.ExpiredAction == "" {
		c.ExpiredAction = "fail"
	}
	return c
}

// LoadConfig reads the freeze: section of repo's settings: the merge-base's
// with base when base is given (CI: a patch cannot raise its own cap), else
// the work tree's.
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
	c := ConfigFrom(s.Freeze)
	if c.ExpiredAction != "fail" && c.ExpiredAction != "warn" {
		return Config{}, fmt.Errorf("%s: freeze: expired_action %q: want fail or warn", s.Name, c.ExpiredAction)
	}
	return c, nil
}

// Load reads and checks the registry at path. A missing file is an empty
// registry; anything else that is not a valid registry is an error naming
// the file and the entry.
func Load(path string) (*Registry, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Registry{Frozen: []Entry{}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return Parse(path, data)
}

// Parse reads a registry from data; name is used in errors.
func Parse(name string, data []byte) (*Registry, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var r Registry
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("%s: not a freeze registry: %v", name, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%s: not a freeze registry: more than one JSON value", name)
	}
	if r.Frozen == nil {
		return nil, fmt.Errorf(`%s: not a freeze registry: want {"frozen": [...]}`, name)
	}
	seen := map[string]bool{}
	for i, e := range r.Frozen {
		if err := e.valid(); err != nil {
			return nil, fmt.Errorf("%s: frozen[%d] (%s): %v", name, i, e.Test, err)
		}
		if seen[e.Test] {
			return nil, fmt.Errorf("%s: frozen[%d]: %s is frozen twice; keep one entry", name, i, e.Test)
		}
		seen[e.Test] = true
	}
	return &r, nil
}

// valid holds seed 001's rule: no entry without a reason and an expiry.
func (e Entry) valid() error {
	switch {
	case strings.TrimSpace(e.Test) == "":
		return errors.New("no test")
	case strings.TrimSpace(e.Reason) == "":
		return errors.New("no reason: say why the test is frozen")
	case e.Expires == "":
		return errors.New("no expires: a permanent freeze is a permanent hole in the gate")
	case e.Flakes < 0 || e.Runs < 0 || e.Flakes > e.Runs:
		return fmt.Errorf("flakes %d of runs %d: want 0 <= flakes <= runs", e.Flakes, e.Runs)
	}
	if _, err := time.Parse(DateLayout, e.Expires); err != nil {
		return fmt.Errorf("expires %q: want a date YYYY-MM-DD", e.Expires)
	}
	if e.Added != "" {
		if _, err := time.Parse(DateLayout, e.Added); err != nil {
			return fmt.Errorf("added %q: want a date YYYY-MM-DD", e.Added)
		}
	}
	return nil
}

// save writes the registry atomically.
func (r *Registry) save(path string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, append(b, '\n'), 0o644)
}

// CapError is an add refused because the registry is at its cap: a
// policy, not bad input.
type CapError struct {
	Registry string
	Max      int
}

func (e *CapError) Error() string {
	return fmt.Sprintf("%s already holds %d frozen tests, the cap (freeze: max_entries in %s): fix or unfreeze one first", e.Registry, e.Max, settings.File)
}

// AddOptions are one premise freeze add.
type AddOptions struct {
	Path   string // the registry file
	Config Config
	Entry  Entry
	Now    time.Time
}

// Add records a new freeze under the registry's lock. It refuses an entry
// without a reason or a valid expiry, an expiry already past or beyond
// Config.MaxDays, a test already frozen (a human's entry is never
// overwritten), and, with a *CapError, an entry past the cap.
func Add(ctx context.Context, o AddOptions) (*Entry, error) {
	e := o.Entry
	e.Test, e.Reason, e.Owner = strings.TrimSpace(e.Test), strings.TrimSpace(e.Reason), strings.TrimSpace(e.Owner)
	today := day(o.Now)
	e.Added = today.Format(DateLayout)
	if err := e.valid(); err != nil {
		return nil, fmt.Errorf("freeze %s: %v", e.Test, err)
	}
	exp := e.expiry()
	if exp.Before(today) {
		return nil, fmt.Errorf("freeze %s: expires %s is already past (today is %s)", e.Test, e.Expires, e.Added)
	}
	if limit := today.AddDate(0, 0, o.Config.MaxDays); exp.After(limit) {
		return nil, fmt.Errorf("freeze %s: expires %s is more than %d days ahead (freeze: max_days); pick a date by %s", e.Test, e.Expires, o.Config.MaxDays, limit.Format(DateLayout))
	}
	lock, err := filelock.Acquire(ctx, o.Path, 0)
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	r, err := Load(o.Path)
	if err != nil {
		return nil, err
	}
	for _, old := range r.Frozen {
		if old.Test == e.Test {
			return nil, fmt.Errorf("freeze %s: already frozen until %s (%s); edit %s to change a reviewer's entry", e.Test, old.Expires, old.Reason, o.Path)
		}
	}
	if len(r.Frozen) >= o.Config.MaxEntries {
		return nil, &CapError{Registry: o.Path, Max: o.Config.MaxEntries}
	}
	r.Frozen = append(r.Frozen, e)
	if err := r.save(o.Path); err != nil {
		return nil, err
	}
	return &e, nil
}

// day is t's calendar date, at midnight UTC, so dates compare as dates.
func day(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
