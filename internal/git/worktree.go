package git

import (
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

func isObjectID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// IsBlob reports whether data is the contents of the blob whose object id
// is id: a SHA-1 id of 40 hex digits or a SHA-256 one of 64. git names a
// blob by the hash of a "blob <size>\x00" header and the contents, so a
// match means the bytes are the blob's own.
func IsBlob(data []byte, id string) bool {
	var h hash.Hash
	switch len(id) {
	case 40:
		h = sha1.New()
	case 64:
		h = sha256.New()
	default:
		return false
	}
	var hdr [32]byte
	h.Write(strconv.AppendInt(append(hdr[:0], "blob "...), int64(len(data)), 10))
	h.Write([]byte{0})
	h.Write(data)
	var sum [sha256.Size]byte
	return hex.EncodeToString(h.Sum(sum[:0])) == strings.ToLower(id)
}

// WorkTreeBlob reads path (slash-separated, relative to the work tree's top
// directory) from the work tree when the file there holds exactly the blob
// id, which spares cat-file inflating it again. It reports false for
// anything else: a missing file, a symbolic link, a file edited or
// converted on checkout (line endings, filters), a path that would leave
// the work tree.
func WorkTreeBlob(top, path, id string) ([]byte, bool) {
	p := filepath.FromSlash(path)
	if top == "" || id == "" || !filepath.IsLocal(p) {
		return nil, false
	}
	data, ok := readRegular(filepath.Join(top, p))
	if !ok || !IsBlob(data, id) {
		return nil, false
	}
	return data, true
}

// readRegular reads a regular file, not through a symbolic link, in four
// system calls (os.ReadFile after an Lstat takes seven, and a long range
// reads hundreds of files): the hash check after it catches a file that
// changes meanwhile.
func readRegular(path string) ([]byte, bool) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, false
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, false
	}
	data := make([]byte, st.Size+1) // a byte more: a file that grew is refused
	n := 0
	for n < int(st.Size) {
		m, err := unix.Read(fd, data[n:])
		if err == unix.EINTR {
			continue
		}
		if err != nil || m == 0 {
			return nil, false
		}
		n += m
	}
	if n != int(st.Size) {
		return nil, false
	}
	return data[:n], true
}

// Resolved is what a diff needs to know of its revisions.
type Resolved struct {
	Base, Head, MergeBase string // commits
	// Top and CheckedOut are the work tree's top directory and the commit
	// its HEAD names; "" outside a work tree and before the first commit.
	Top, CheckedOut string
}

// Resolve resolves base and head to commits, finds their merge-base and
// the work tree's commit, all in one git process: on a busy machine each
// process costs as much as a small diff. ok is false when anything failed
// or is unusual (a bad name, unrelated histories, no commit checked out);
// RevParse, MergeBase and CheckedOut then tell which and why.
func (r *Repo) Resolve(ctx context.Context, base, head string) (res Resolved, ok bool) {
	if strings.HasPrefix(base, "-") || strings.HasPrefix(head, "-") || base == "" || head == "" {
		return Resolved{}, false
	}
	b, h := base+"^{commit}", head+"^{commit}"
	out, err := r.run(ctx, "rev-parse", "--is-inside-work-tree", "--show-cdup", b, h, b+"..."+h, "HEAD")
	if err != nil {
		return Resolved{}, false
	}
	// "true" and the way up to the top ("" at the top), or "false"; the
	// two commits; the range's two ends and its merge-bases, negated; the
	// work tree's commit.
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	top := ""
	switch {
	case len(lines) > 0 && lines[0] == "true" && len(lines) > 1:
		top, lines = filepath.Join(r.Dir, lines[1]), lines[2:]
	case len(lines) > 0 && lines[0] == "false":
		lines = lines[1:]
	default:
		return Resolved{}, false
	}
	if len(lines) < 6 || !strings.HasPrefix(lines[4], "^") || strings.HasPrefix(lines[len(lines)-1], "^") {
		return Resolved{}, false // no merge-base, or not what rev-parse writes
	}
	res = Resolved{Base: lines[0], Head: lines[1], MergeBase: lines[4][1:], CheckedOut: lines[len(lines)-1]}
	for _, id := range []string{res.Base, res.Head, res.MergeBase, res.CheckedOut} {
		if !isObjectID(id) {
			return Resolved{}, false
		}
	}
	if top != "" {
		res.Top = top
	} else {
		res.CheckedOut = ""
	}
	return res, true
}
