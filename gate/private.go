package gate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	igit "github.com/premise-dev/premise/internal/git"
	"github.com/premise-dev/premise/validate"
)

// PrivateTree returns a private copy of dir for the code under review to
// run in, and a cleanup that removes it: the tree of the commit checked
// out there (HEAD) written as plain files with no link back to the
// repository (Checkout) when dir is in a git work tree, else a copy of the
// directory without its .git. What a subject writes then cannot reach the user's
// checkout, where the register, the table, the freezes and the corpus live,
// nor the next run's workers (DESIGN.md, "Trust").
func PrivateTree(ctx context.Context, dir string) (string, func(), error) {
	if dir == "" {
		dir = "."
	}
	if repo, err := igit.Open(ctx, dir); err == nil && !repo.Bare {
		if _, err := repo.RevParse(ctx, "HEAD^{commit}"); err == nil {
			return Checkout(ctx, dir, "HEAD")
		}
	}
	tmp, err := os.MkdirTemp("", "")
	if err != nil {
		return "", nil, fmt.Errorf("private copy of %s: %w", dir, err)
	}
	cleanup := func() { os.RemoveAll(tmp) }
	dst := filepath.Join(tmp, filepath.Base(absOr(dir)))
	if err := copyTree(dir, dst, tmp); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("private copy of %s: %w", dir, err)
	}
	return dst, cleanup, nil
}

// copyTree copies the directory src to dst: directories, regular files
// (with their modes) and symbolic links as links. skip, a directory that
// may lie inside src (the temporary directory the copy is made in), is
// left out.
func copyTree(src, dst, skip string) error {
	src, err := filepath.Abs(src)
	if err != nil {
		return err
	}
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if path == skip {
			return filepath.SkipDir
		}
		if d.Name() == ".git" { // a repository's door back (issue 26, item 3)
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.MkdirAll(to, info.Mode().Perm()|0o700)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(link, to)
		case d.Type().IsRegular():
			return copyRegular(path, to, info.Mode().Perm())
		}
		return nil // sockets, devices, pipes: not part of a source tree
	})
}

func copyRegular(from, to string, perm fs.FileMode) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// absOr is dir made absolute, or dir itself.
func absOr(dir string) string {
	if a, err := filepath.Abs(dir); err == nil {
		return a
	}
	return dir
}

// ErrOutside means a file premise judges by resolves, through a symbolic
// link, outside the repository.
var ErrOutside = errors.New("resolves outside the repository; premise does not read it")

// Inside returns an error wrapping ErrOutside, naming path, when path
// resolves (through symbolic links) outside root, without reading it: a
// patch that makes partitions.yaml a link to a secret must not have
// premise read the secret, nor quote it in an error (issue 26, item 6). A
// path that does not exist is left to its reader.
func Inside(path, root string) error {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil
	}
	top, err := filepath.EvalSymlinks(root)
	if err != nil {
		top = root
	}
	if real, err = filepath.Abs(real); err != nil {
		return nil
	}
	if top, err = filepath.Abs(top); err != nil {
		return nil
	}
	rel, err := filepath.Rel(top, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%s: %w", path, ErrOutside)
	}
	return nil
}

// RepoTop is the top of the work tree holding dir, or dir itself when it
// is in none.
func RepoTop(ctx context.Context, dir string) string {
	if r, err := igit.Open(ctx, dir); err == nil {
		if top, err := r.Top(ctx); err == nil {
			return top
		}
	}
	return dir
}

// judgedHead is what a gate run on a user's checkout judged: the commit
// PrivateTree checks out, the tracked edits it leaves behind, and the base
// RunFile found itself.
type judgedHead struct {
	commit      string
	uncommitted []string
	base        string
}

// JudgedHead names the commit PrivateTree checks out of dir (HEAD) and
// the tracked files whose uncommitted edits it leaves behind; both empty
// outside a git work tree, where PrivateTree copies the directory as it is.
func JudgedHead(ctx context.Context, dir string) (commit string, uncommitted []string) {
	h := headOf(ctx, dir)
	return h.commit, h.uncommitted
}

// headOf names dir's HEAD commit and the uncommitted edits of its work
// tree; nothing outside a git work tree (PrivateTree then copies the
// directory as it is).
func headOf(ctx context.Context, dir string) judgedHead {
	repo, err := igit.Open(ctx, dir)
	if err != nil || repo.Bare {
		return judgedHead{}
	}
	shas, err := repo.RevParse(ctx, "HEAD")
	if err != nil {
		return judgedHead{}
	}
	dirty, _ := repo.Uncommitted(ctx)
	return judgedHead{commit: shas[0], uncommitted: dirty}
}

// needsBase reports whether a row of t compares with the base revision
// or runs one of its tests.
func needsBase(t *validate.Table) bool {
	for _, r := range t.Rows {
		if r.SameAsBase || r.Test != "" {
			return true // a test row runs the base's test file
		}
	}
	return false
}

// defaultMergeBase is the base premise run compares HEAD with when no
// --base is given: the merge-base of the default branch (origin/HEAD, main,
// master) and HEAD.
func defaultMergeBase(ctx context.Context, dir string) (string, error) {
	repo, err := igit.Open(ctx, dir)
	if err != nil {
		return "", err
	}
	base, err := repo.DefaultBase(ctx)
	if err != nil {
		return "", err
	}
	return repo.MergeBase(ctx, base, "HEAD")
}
