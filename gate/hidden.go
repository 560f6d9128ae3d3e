package gate

import (
	"context"
	"path/filepath"
	"strings"
	"sync"

	igit "github.com/premise-dev/premise/internal/git"
)

// sources remembers, for each copy Checkout wrote, the git directories of
// the repository it came from, so that a worker started in the copy finds
// them empty (issue 26, doors back to the repository). The box keeps every
// file but the copy read-only, not unreadable: a head that knows the CI
// layout would read .git/config, where a CI checkout keeps its token
// (actions/checkout's http.extraheader), and return it for premise's
// report to print. The table holds facts about directories premise made,
// not a dependency: tests running in parallel each see their own copies.
var sources = &copySources{dirs: map[string][]string{}}

type copySources struct {
	mu   sync.Mutex
	dirs map[string][]string // a copy's temporary directory -> git directories
}

// add records the git directories (the work tree's own and the common
// one of a linked worktree) of repo for the copy in tmp.
func (s *copySources) add(ctx context.Context, tmp string, repo *igit.Repo) {
	out, err := repo.Run(ctx, "rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir")
	if err != nil {
		return
	}
	var dirs []string
	for _, d := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if d == "" {
			continue
		}
		if real, err := filepath.EvalSymlinks(d); err == nil {
			d = real
		}
		dirs = append(dirs, d)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dirs[tmp] = dirs
}

func (s *copySources) forget(tmp string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.dirs, tmp)
}

// of returns the git directories to hide from a worker running in dir.
func (s *copySources) of(dir string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for tmp, dirs := range s.dirs {
		if dir == tmp || strings.HasPrefix(dir, tmp+string(filepath.Separator)) {
			return dirs
		}
	}
	return nil
}

// topOf returns the temporary directory of the copy Checkout wrote that
// holds dir, or "" when dir is in none.
func (s *copySources) topOf(dir string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for tmp := range s.dirs {
		if dir == tmp || strings.HasPrefix(dir, tmp+string(filepath.Separator)) {
			return tmp
		}
	}
	return ""
}
