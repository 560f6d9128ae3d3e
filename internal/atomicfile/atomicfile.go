// Package atomicfile writes files so that a reader sees either the old
// contents or the new, never half of either: a temporary file in the same
// directory, synced, then renamed over the target.
//
// A path that is a symbolic link is written through the link: the file it
// points to is replaced, in its own directory, and the link stays a link
// (issue 14, part 6: a symlinked register was replaced by a plain file).
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxLinks bounds how many links Resolve follows, as the kernel's ELOOP does.
const maxLinks = 40

// Resolve returns the file path names once every symbolic link in its last
// element is followed: the file a write through path must replace. A path
// that is not a link is returned as it is, whether it exists or not; a link
// to nothing resolves to the missing file it names.
func Resolve(path string) (string, error) {
	for i := 0; i < maxLinks; i++ {
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		to, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(path), to)
		}
		path = to
	}
	return "", fmt.Errorf("%s: more than %d symbolic links in a row", path, maxLinks)
}

// Target returns the file a write to path replaces: path itself, or the
// existing file a symbolic link at path points to. A link to nothing is an
// error naming both, since writing would create a file wherever the link
// points.
func Target(path string) (string, error) {
	target, err := Resolve(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if target != path {
		if _, err := os.Stat(target); err != nil {
			return "", fmt.Errorf("%s: it is a symbolic link to %s, which does not exist; point the link at an existing file or remove it", path, target)
		}
	}
	if top, ok := outside(path, target); ok {
		return "", fmt.Errorf("%s: it leads to %s, outside %s: premise writes through a symbolic link only to a file inside the repository (a link a patch committed could aim its writes at any file)", path, target, top)
	}
	return target, nil
}

// outside reports whether target, the file a write to path replaces
// (every link of its directories followed too), lies outside the work
// tree holding path (the nearest directory above it with a .git), or,
// where no work tree holds it, outside path's own directory; it returns
// that directory. A repository's files are the patch's, and a link among
// them, or a directory that is one, must not carry premise's writes out.
func outside(path, target string) (string, bool) {
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return "", false
	}
	top := dir
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			top = d
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	realTop, err := filepath.EvalSymlinks(top)
	if err != nil {
		return "", false
	}
	absTarget, err := filepath.Abs(target)
	if err != nil {
		return "", false
	}
	realDir, err := filepath.EvalSymlinks(filepath.Dir(absTarget))
	if err != nil {
		return "", false // a directory still to be made: made where it is named
	}
	real := filepath.Join(realDir, filepath.Base(target))
	if real == realTop || strings.HasPrefix(real, realTop+string(filepath.Separator)) {
		return "", false
	}
	return top, true
}

// WriteFile writes data to path atomically. The file keeps its existing mode
// when it exists; otherwise it gets perm. When path is a symbolic link the
// file it points to is replaced and the link kept; a link to a file that
// does not exist is refused, since a write would create a file wherever the
// link points.
func WriteFile(path string, data []byte, perm os.FileMode) (err error) {
	target, err := Target(path)
	if err != nil {
		return fmt.Errorf("write %w", err)
	}
	dir := filepath.Dir(target)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if fi, err := os.Stat(target); err == nil {
		perm = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = f.Chmod(perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = os.Rename(tmp, target); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
