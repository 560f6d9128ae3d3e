package evidence_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/premise-dev/premise/evidence"
)

// A second run of the same commits reads the first run's report, and it is
// the report the first run used, byte for byte: its changes' calls and
// outcomes (which become the witness rows of the partition table), a
// symbol left unchecked (its changed line runs for no input), the values a JSON round trip could turn (a whole
// float, an integer past 2^53, a keyword argument).
func TestCachedReportIsTheFirstRunsReport(t *testing.T) {
	t.Parallel()
	base := `def scale(x: float, n: int, *, by: int = 1) -> list:
    return [x * by, n]


def same(x: int) -> int:
    if x != x:
        return 1
    return x
`
	head := `def scale(x: float, n: int, *, by: int = 1) -> list:
    if n > 9007199254740993:
        return [x, n]
    return [x * by + (1 if x == 2.0 else 0), n]


def same(x: int) -> int:
    if x != x:
        return 2
    return x
`
	dir := t.TempDir()
	var cfg evidence.Config
	rep := runCommits(t, map[string]string{"m.py": base}, map[string]string{"m.py": head}, func(c *evidence.Config) {
		c.CacheKey, c.CacheDir = "k1", dir
		cfg = *c
	})
	if len(rep.Changes)+len(rep.Unexplained) == 0 {
		t.Fatal("scale's change was not seen: nothing to compare")
	}
	got, ok := evidence.Cached(cfg)
	if !ok {
		t.Fatal("a run with nothing cut by the clock was not kept")
	}
	if !got.Cached || got.TracedSeconds != 0 {
		t.Errorf("a report read from the cache says Cached %v, traced for %gs", got.Cached, got.TracedSeconds)
	}
	got.Cached, got.TracedSeconds = rep.Cached, rep.TracedSeconds
	if !reflect.DeepEqual(got, rep) {
		t.Errorf("the cached report differs from the run's:\n got %+v\nwant %+v", got, rep)
	}
	for _, c := range append(got.Changes, got.Unexplained...) {
		if c.Call == nil || c.BaseOutcome == nil || c.HeadOutcome == nil {
			t.Errorf("a cached change lost its call or outcomes: %+v", c)
		}
	}
	unchecked := false
	for _, sr := range got.Symbols {
		unchecked = unchecked || sr.Symbol == "m.same" && sr.Unchecked
	}
	if !unchecked {
		t.Errorf("m.same, whose changed line no row can run, is not unchecked in the cached report: %+v", got.Symbols)
	}
	if _, ok := evidence.Cached(evidence.Config{CacheKey: "k2", CacheDir: dir}); ok {
		t.Error("a report was read under another key")
	}
}

// A run whose result depended on the clock (a call that timed out) is not
// kept: the next run tries again, on what may be a calmer machine.
func TestTimedOutRunIsNotCached(t *testing.T) {
	t.Parallel()
	base := `def wait(n: int) -> int:
    return n
`
	head := `def wait(n: int) -> int:
    while n == 0:
        pass
    return n
`
	dir := t.TempDir()
	var cfg evidence.Config
	rep := runCommits(t, map[string]string{"m.py": base}, map[string]string{"m.py": head}, func(c *evidence.Config) {
		c.CacheKey, c.CacheDir = "k1", dir
		c.Gate.Timeout = 300 * time.Millisecond
		cfg = *c
	})
	if len(rep.Changes)+len(rep.Unexplained) == 0 {
		t.Fatal("wait's loop on 0 was not seen")
	}
	if _, ok := evidence.Cached(cfg); ok {
		t.Error("a run with a call that timed out was kept for the next run")
	}
}

// A run whose model did not answer is not kept either: the endpoint may
// answer the next run, whose rows then differ.
func TestModelFailureIsNotCached(t *testing.T) {
	t.Parallel()
	base := "def twice(n: int) -> int:\n    return 2 * n\n"
	head := "def twice(n: int) -> int:\n    return n + n if n else 1\n"
	dir := t.TempDir()
	var cfg evidence.Config
	rep := runCommits(t, map[string]string{"m.py": base}, map[string]string{"m.py": head}, func(c *evidence.Config) {
		c.CacheKey, c.CacheDir = "k1", dir
		c.Inputs = func(context.Context, evidence.InputsQuestion) ([]evidence.ModelCall, error) {
			return nil, errors.New("the endpoint is down")
		}
		cfg = *c
	})
	if len(rep.Notes) == 0 {
		t.Fatal("a model that failed left no note")
	}
	if _, ok := evidence.Cached(cfg); ok {
		t.Error("a run whose model failed was kept for the next run")
	}
}
