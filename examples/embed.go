package examples

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"time"

	"github.com/premise-dev/premise/internal/git"
)

// intervals is seed 004's range merger: base/ is the good library, head/
// the files an agent's patch changes (it drops the sort and merges touching
// ranges).
//
//go:embed all:intervals
var intervals embed.FS

// rangesTS is the same merger in TypeScript, for premise's Node worker:
// the agent's patch drops the sort and merges touching ranges.
//
//go:embed all:ranges_ts
var rangesTS embed.FS

// Example is a bundled example: a base tree and the head tree of a patch.
type Example struct {
	Name string
	// Doc says what the example shows.
	Doc string
	// Branch holds the patch; the base commit is on main.
	Branch string
	// BaseMessage and HeadMessage are the two commits' messages.
	BaseMessage, HeadMessage string

	files fs.FS // with base/ and head/ directories
}

// All lists the bundled examples.
func All() []Example {
	return []Example{{
		Name:        "intervals",
		Doc:         "a range merger; the agent's patch drops the sort and merges touching ranges",
		Branch:      "agent/single-pass",
		BaseMessage: "intervals: merge half-open ranges, sorting first",
		HeadMessage: "intervals: merge ranges in a single pass\n\nFaster: no sort, and overlapping ranges are merged as they come.",
		files:       mustSub(intervals, "intervals"),
	}, {
		Name:        "ranges-ts",
		Doc:         "the range merger in TypeScript; the same patch, judged through the Node worker",
		Branch:      "agent/single-pass",
		BaseMessage: "ranges: merge half-open ranges, sorting first",
		HeadMessage: "ranges: merge ranges in a single pass\n\nFaster: no sort, and overlapping ranges are merged as they come.",
		files:       mustSub(rangesTS, "ranges_ts"),
	}}
}

// Lookup returns the example called name.
func Lookup(name string) (Example, bool) {
	for _, e := range All() {
		if e.Name == name {
			return e, true
		}
	}
	return Example{}, false
}

func mustSub(f fs.FS, dir string) fs.FS {
	s, err := fs.Sub(f, dir)
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return s
}

// exampleIdentity makes the example's commits identical on every machine.
var exampleIdentity = git.Identity{
	Name: "premise example", Email: "example@premise.invalid",
	When: time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC),
}

// Materialize writes the example as a git repository in dir/<name> (which
// must not exist or be empty): main holds the base commit, Branch the
// patch's commit and is checked out. It returns the repository's absolute
// path.
func (e Example) Materialize(ctx context.Context, dir string) (string, error) {
	repoDir, err := filepath.Abs(filepath.Join(dir, e.Name))
	if err != nil {
		return "", err
	}
	if ents, err := os.ReadDir(repoDir); err == nil && len(ents) > 0 {
		return "", fmt.Errorf("write example %s: %s exists and is not empty", e.Name, repoDir)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("write example %s: %w", e.Name, err)
	}
	repo, err := git.Init(ctx, repoDir, "main")
	if err != nil {
		return "", err
	}
	if err := copyTree(e.files, "base", repoDir); err != nil {
		return "", fmt.Errorf("write example %s: %w", e.Name, err)
	}
	if _, err := repo.CommitAll(ctx, e.BaseMessage, exampleIdentity); err != nil {
		return "", err
	}
	if _, err := repo.Run(ctx, "checkout", "--quiet", "-b", e.Branch); err != nil {
		return "", err
	}
	if err := copyTree(e.files, "head", repoDir); err != nil {
		return "", fmt.Errorf("write example %s: %w", e.Name, err)
	}
	who := exampleIdentity
	who.When = who.When.Add(time.Hour)
	if _, err := repo.CommitAll(ctx, e.HeadMessage, who); err != nil {
		return "", err
	}
	return repoDir, nil
}

// copyTree writes the files under root of src into dir, overwriting.
func copyTree(src fs.FS, root, dir string) error {
	var paths []string
	err := fs.WalkDir(src, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(paths)
	for _, p := range paths {
		data, err := fs.ReadFile(src, p)
		if err != nil {
			return err
		}
		rel := path.Clean(p[len(root)+1:])
		dst := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
