package gate

import (
	"bytes"
	"path/filepath"
)

// TreeMark stands in a reply for the root of the tree the worker runs in.
// Base and head run in two copies at two temporary paths, so a function
// returning an absolute path under its tree (os.path.abspath,
// filepath.Abs, path.resolve) answered differently on each side for no
// change of the code: each side's own root is written as TreeMark, and the
// two answers compare as the code made them.
const TreeMark = "$TREE"

// treeRoots are the forms of dir a worker can print: as given, and with
// its symbolic links resolved (a temporary directory under a linked
// /tmp). None for a worker of the user's own (dir "").
func treeRoots(dir string) [][]byte {
	if dir == "" || dir == "/" || !filepath.IsAbs(dir) {
		return nil
	}
	roots := [][]byte{[]byte(filepath.Clean(dir))}
	if real, err := filepath.EvalSymlinks(dir); err == nil && real != filepath.Clean(dir) {
		roots = append(roots, []byte(real))
	}
	return roots
}

// markTree writes TreeMark for each root in a reply's JSON value or
// message. A root is a path's whole first components: it is replaced only
// where the next byte ends the component (a slash, a quote, the text's end),
// so /tmp/1/repo2 is not /tmp/1/repo's.
//
// The mark is the worker's, never the code's: a reply that already holds
// it (a head returning "$TREE/x" to pass for the base's path) has each
// one written "$TREE$" first, and a mark premise writes is never followed
// by a "$", so two replies compare equal only when the code's answers did.
func markTree(b []byte, roots [][]byte) []byte {
	if len(roots) > 0 && bytes.Contains(b, []byte(TreeMark)) {
		b = bytes.ReplaceAll(b, []byte(TreeMark), []byte(TreeMark+"$"))
	}
	for _, root := range roots {
		if !bytes.Contains(b, root) {
			continue
		}
		var out []byte
		rest := b
		for {
			i := bytes.Index(rest, root)
			if i < 0 {
				break
			}
			end := i + len(root)
			if end < len(rest) && rest[end] != '/' && rest[end] != '"' && rest[end] != '\\' {
				out = append(out, rest[:end]...)
				rest = rest[end:]
				continue
			}
			out = append(append(out, rest[:i]...), TreeMark...)
			rest = rest[end:]
		}
		b = append(out, rest...)
	}
	return b
}
