package diffparse

import "fmt"

// Error is a diff that premise could not read: a malformed header, a hunk
// whose counts do not match its body, a negative range, or a panic inside
// the diff library. File is the diff's own name ("<stdin>", a patch file's
// path, or "git diff A..B"), Line the 1-based line in it, Path the file of
// the diff the problem belongs to ("" when unknown).
type Error struct {
	File string
	Line int
	Path string
	Err  error
}

// Error formats the problem as "file:line: path: what went wrong".
func (e *Error) Error() string {
	where := e.File
	if e.Line > 0 {
		where = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	if e.Path != "" {
		return fmt.Sprintf("%s: %s: %v", where, e.Path, e.Err)
	}
	return fmt.Sprintf("%s: %v", where, e.Err)
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }
