package evidence

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The cache does not grow without end: a report nobody wrote or read for
// cacheDays is removed when another is kept; one read since stays.
func TestCachePrunesWhatNobodyRead(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{CacheDir: dir}
	old := time.Now().Add(-(cacheDays + 1) * 24 * time.Hour)
	for _, key := range []string{"stale", "read"} {
		cfg.CacheKey = key
		keep(cfg, &Report{Seed: 1})
		p := cachePath(cfg)
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	cfg.CacheKey = "read"
	if _, ok := Cached(cfg); !ok {
		t.Fatal("a kept report was not read back")
	}
	cfg.CacheKey = "new"
	keep(cfg, &Report{Seed: 2})
	for key, want := range map[string]bool{"stale": false, "read": true, "new": true} {
		_, err := os.Stat(filepath.Join(dir, "evidence", key+".json"))
		if got := err == nil; got != want {
			t.Errorf("%s: kept %v, want %v", key, got, want)
		}
	}
}
