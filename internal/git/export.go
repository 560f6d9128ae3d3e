package git

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
)

// ErrUnsafePath means a tree names a path premise will not write: absolute,
// climbing out with "..", or inside a ".git" directory (issue 26, item 3).
var ErrUnsafePath = errors.New("unsafe path in tree")

// Export writes the tree of commit rev into dst (made if missing) as plain
// files: no .git, no index, no hooks, no filters, no attributes applied,
// nothing that links the copy back to the repository (issue 26, item 3: a
// subject that runs in a git worktree shares the repository's writable
// .git, and what it plants there runs later outside the sandbox). Blobs are
// written byte for byte with their executable bit, symbolic links last (so
// no file is written through a link the tree made), submodules as empty
// directories. A path that is absolute, climbs with "..", or names a .git
// directory fails the export with ErrUnsafePath.
func (r *Repo) Export(ctx context.Context, rev, dst string) error {
	out, err := r.run(ctx, "ls-tree", "-r", "-z", "--full-tree", "--end-of-options", rev)
	if err != nil {
		return fmt.Errorf("export %s: %w", rev, err)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return fmt.Errorf("export %s: %w", rev, err)
	}
	cat, err := r.Catter(ctx)
	if err != nil {
		return fmt.Errorf("export %s: %w", rev, err)
	}
	defer cat.Close()
	type link struct{ at, to string }
	var links []link
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		meta, name, ok := strings.Cut(string(rec), "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 {
			return fmt.Errorf("export %s: unexpected ls-tree line %q", rev, meta)
		}
		mode, sha := f[0], f[2]
		if !safeTreePath(name) {
			return fmt.Errorf("export %s: %q: %w", rev, name, ErrUnsafePath)
		}
		to := filepath.Join(dst, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return fmt.Errorf("export %s: %w", rev, err)
		}
		switch mode {
		case "160000": // a submodule: its commit is not in this repository
			if err := os.MkdirAll(to, 0o755); err != nil {
				return fmt.Errorf("export %s: %w", rev, err)
			}
			continue
		}
		typ, data, err := cat.Object(sha)
		if err != nil || typ != "blob" {
			return fmt.Errorf("export %s: read %s: %v", rev, name, err)
		}
		switch mode {
		case "120000":
			links = append(links, link{to, string(data)})
		case "100755":
			err = writeNew(to, data, 0o755)
		default:
			err = writeNew(to, data, 0o644)
		}
		if err != nil {
			return fmt.Errorf("export %s: %w", rev, err)
		}
	}
	for _, l := range links {
		if err := os.Symlink(l.to, l.at); err != nil {
			return fmt.Errorf("export %s: %w", rev, err)
		}
	}
	return nil
}

// safeTreePath reports whether a tree's path stays inside the tree and out
// of any .git directory, as git's own checkout requires.
func safeTreePath(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || path.Clean(p) != p {
		return false
	}
	for _, part := range strings.Split(p, "/") {
		if part == ".." || part == "." || strings.EqualFold(strings.TrimRight(part, ". "), ".git") {
			return false
		}
	}
	return true
}

// writeNew creates a file that must not exist yet and never follows a link.
func writeNew(path string, data []byte, perm os.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, perm)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
