package gate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	igit "github.com/premise-dev/premise/internal/git"
)

// PrivateTree returns a private copy of dir for the code under review to
// run in, and a cleanup that removes it: a git worktree of the commit
// checked out there (HEAD) when dir is in a git work tree, else a copy of
// the directory. What a subject writes then cannot reach the user's
// checkout, where the register, the table, the freezes and the corpus live,
// nor the next run's workers (DESIGN.md, "Trust").
func PrivateTree(ctx context.Context, dir string) (string, func(), error) {
	if dir == "" {
		dir = "."
	}
	if repo, err := igit.Open(ctx, dir); err == nil && !repo.Bare {
		if _, err := repo.RevParse(ctx, "HEAD^{commit}"); err == nil {
			return AddWorktree(ctx, dir, "HEAD")
		}
	}
	tmp, err := os.MkdirTemp("", "premise-tree-")
	if err != nil {
		return "", nil, fmt.Errorf("private copy of %s: %w", dir, err)
	}
	cleanup := func() { os.RemoveAll(tmp) }
	dst := filepath.Join(tmp, "tree")
	if err := os.CopyFS(dst, os.DirFS(dir)); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("private copy of %s: %w", dir, err)
	}
	return dst, cleanup, nil
}
