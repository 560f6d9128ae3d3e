package reject

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/premise-dev/premise/internal/atomicfile"
)

// ErrExists is returned by Add for an id the lockfile already holds or a
// fixture file already on disk: a human edits an existing entry by hand.
var ErrExists = errors.New("already exists")

// NewEntry is what Add needs to record one forbidden input.
type NewEntry struct {
	ID          string
	Target      string
	Fixture     []byte // any JSON; written in canonical form
	Must        Must
	FlakePolicy string
}

// Add writes the entry's fixture as canonical JSON under the corpus
// directory, hashes it, and appends the lockfile row (seed 000, Step 1). The
// lockfile is created when it does not exist. Add refuses an id that exists
// and never overwrites a fixture; both files are written atomically, the
// fixture first, and the fixture is removed again if the lockfile cannot be
// written.
func Add(lockPath, corpusDir string, ne NewEntry) (Entry, error) {
	lock := &Lock{Version: 1, Entries: []Entry{}}
	data, err := os.ReadFile(lockPath)
	switch {
	case err == nil:
		if lock, err = ParseLock(lockPath, data); err != nil {
			return Entry{}, err
		}
	case errors.Is(err, fs.ErrNotExist):
	default:
		return Entry{}, fmt.Errorf("read lockfile: %w", err)
	}
	for _, e := range lock.Entries {
		if e.ID == ne.ID {
			return Entry{}, fmt.Errorf("entry %s: %w in %s (line %d); edit it by hand", ne.ID, ErrExists, lockPath, e.Line)
		}
	}
	canon, err := Canonical(ne.Fixture)
	if err != nil {
		return Entry{}, fmt.Errorf("fixture for %s: %w", ne.ID, err)
	}
	dir := filepath.ToSlash(filepath.Clean(corpusDir))
	if filepath.IsAbs(corpusDir) || dir == ".." || strings.HasPrefix(dir, "../") {
		return Entry{}, fmt.Errorf("corpus directory %s must be inside the lockfile's directory", corpusDir)
	}
	sum := sha256.Sum256(canon)
	e := Entry{
		ID:          ne.ID,
		Target:      ne.Target,
		InputSHA256: hex.EncodeToString(sum[:]),
		InputPath:   path.Join(dir, ne.ID+".json"),
		Must:        ne.Must,
		FlakePolicy: ne.FlakePolicy,
	}
	lock.Entries = append(lock.Entries, e)
	// The new lockfile must pass the same strict reading as any other.
	out, err := lock.Encode()
	if err != nil {
		return Entry{}, err
	}
	checked, err := ParseLock(lockPath, out)
	if err != nil {
		return Entry{}, err
	}
	e = checked.Entries[len(checked.Entries)-1]
	fixture := filepath.Join(filepath.Dir(lockPath), filepath.FromSlash(e.InputPath))
	if _, err := os.Lstat(fixture); err == nil {
		return Entry{}, fmt.Errorf("fixture %s: %w; remove it or choose another id", fixture, ErrExists)
	}
	if err := atomicfile.WriteFile(fixture, canon, 0o644); err != nil {
		return Entry{}, err
	}
	if err := atomicfile.WriteFile(lockPath, out, 0o644); err != nil {
		os.Remove(fixture)
		return Entry{}, err
	}
	return e, nil
}
