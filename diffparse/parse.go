package diffparse

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sourcegraph/go-diff/diff"
)

// maxRange bounds a hunk's line numbers: go-diff stores them as int32, and
// no real file comes near.
const maxRange = 1 << 30

// Parse reads a unified diff, git's extended format or a plain `diff -u`,
// and returns its files with their paths, status, modes, line counts and
// hunks. Symbols need the files' sources and are filled by Load. name is the
// diff's name for errors ("<stdin>", a patch file's path). An empty diff has
// no files; input that holds no diff at all is an *Error.
//
// The headers are split and the hunk counts checked here, and each file's
// headers and hunks are then parsed by sourcegraph/go-diff behind a guard:
// go-diff has been seen to panic on a malformed `diff --git` header and to
// accept a negative hunk range (`@@ -0 +-1 @@`), so a panic becomes an *Error
// naming the file and line, and negative ranges are rejected (issue 2).
func Parse(data []byte, name string) ([]File, error) {
	chunks, lines, err := split(data, name)
	if err != nil {
		return nil, err
	}
	files := make([]File, 0, len(chunks))
	for _, c := range chunks {
		f, err := c.file(lines, name)
		if err != nil {
			return nil, err
		}
		for _, p := range []string{f.Path, f.OldPath} {
			if unprintable(p) {
				// A path is the patch's text, and premise prints it
				// (symbols are named after it): an escape sequence in
				// it would reach the reviewer's terminal and report.
				return nil, &Error{File: name, Line: c.start + 1, Path: strconv.Quote(p),
					Err: errors.New("the path holds a control or format character, which premise will not print; rename the file")}
			}
		}
		files = append(files, f)
	}
	return files, nil
}

// unprintable says a path holds a control character other than a tab, a
// format character (a bidirectional override) or bytes that are not
// UTF-8.
func unprintable(p string) bool {
	if !utf8.ValidString(p) {
		return true
	}
	for _, r := range p {
		// A tab prints as itself; an escape, a newline or a
		// bidirectional override does not.
		if r != '\t' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r)) {
			return true
		}
	}
	return false
}

// hunkHeader is a hunk header as read by the splitter.
type hunkHeader struct {
	line                 int // index into lines
	oldStart, oldLines   int
	newStart, newLines   int
	bodyStart, bodyEnd   int // lines of the body, [bodyStart, bodyEnd)
	added, deleted       int
	oldNoEOL, newNoEOL   bool
	sawBackslashInMiddle bool
}

// chunk is one file's part of a diff: lines [start, end).
type chunk struct {
	start, end int
	git        bool // begins with "diff --git"
	fileHdr    int  // index of the "--- " line, -1 when none
	hunks      []hunkHeader
}

// split cuts the diff into per-file chunks and checks every hunk's counts
// against its body, so trailing text (a format-patch signature, a mail
// footer) is left out and a truncated hunk is an error with its line.
func split(data []byte, name string) ([]*chunk, []string, error) {
	lines := strings.Split(string(data), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var (
		chunks []*chunk
		cur    *chunk
		closed bool
	)
	start := func(i int, git bool, fileHdr int) {
		if cur != nil && !closed {
			cur.end = i
		}
		cur = &chunk{start: i, git: git, fileHdr: fileHdr}
		chunks = append(chunks, cur)
		closed = false
	}
	for i := 0; i < len(lines); {
		l := strings.TrimSuffix(lines[i], "\r")
		switch {
		case strings.HasPrefix(l, "diff --git "):
			start(i, true, -1)
			i++
		case strings.HasPrefix(l, "--- ") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "+++ "):
			if cur == nil || closed || cur.fileHdr >= 0 || len(cur.hunks) > 0 {
				start(i, false, i)
			} else {
				cur.fileHdr = i
			}
			i += 2
		case strings.HasPrefix(l, "@@ ") || l == "@@":
			if cur == nil || closed || cur.fileHdr < 0 {
				return nil, nil, &Error{File: name, Line: i + 1, Err: errors.New("hunk without a file header (--- a/PATH, +++ b/PATH)")}
			}
			cur.end = i // for cur.path in errors; set for good when the chunk ends
			h, err := parseHunkHeader(l)
			if err != nil {
				return nil, nil, &Error{File: name, Line: i + 1, Path: cur.path(lines), Err: err}
			}
			h.line = i
			j, err := h.walk(lines, i+1)
			if err != nil {
				var e *Error
				if errors.As(err, &e) {
					e.File, e.Path = name, cur.path(lines)
				}
				return nil, nil, err
			}
			cur.hunks = append(cur.hunks, h)
			i = j
		default:
			if cur != nil && !closed && cur.git && cur.fileHdr < 0 && len(cur.hunks) == 0 {
				i++ // an extended header line, or binary patch data
				continue
			}
			if cur != nil && !closed {
				cur.end = i
				closed = true
			}
			i++
		}
	}
	if cur != nil && !closed {
		cur.end = len(lines)
	}
	if len(chunks) == 0 && len(bytes.TrimSpace(data)) > 0 {
		return nil, nil, &Error{File: name, Line: 1, Err: errors.New("not a unified diff: no `diff --git` line and no `---`/`+++` file header")}
	}
	return chunks, lines, nil
}

// parseHunkHeader reads "@@ -a[,b] +c[,d] @@ section". Negative or absurd
// numbers are rejected: go-diff would accept `@@ -0 +-1 @@`.
func parseHunkHeader(l string) (hunkHeader, error) {
	var h hunkHeader
	bad := func(why string) (hunkHeader, error) {
		return h, fmt.Errorf("bad hunk header %q: %s", l, why)
	}
	f := strings.SplitN(l, " ", 5)
	if len(f) < 4 || f[0] != "@@" || f[3] != "@@" {
		return bad("want @@ -OLD[,N] +NEW[,N] @@")
	}
	if !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return bad("want @@ -OLD[,N] +NEW[,N] @@")
	}
	var err error
	if h.oldStart, h.oldLines, err = parseRange(f[1][1:]); err != nil {
		return bad(err.Error())
	}
	if h.newStart, h.newLines, err = parseRange(f[2][1:]); err != nil {
		return bad(err.Error())
	}
	if h.oldLines > 0 && h.oldStart == 0 || h.newLines > 0 && h.newStart == 0 {
		return bad("a range with lines starts at line 1 or later")
	}
	return h, nil
}

func parseRange(s string) (start, n int, err error) {
	a, b, found := strings.Cut(s, ",")
	start, err = parseCount(a)
	if err != nil {
		return 0, 0, err
	}
	n = 1
	if found {
		if n, err = parseCount(b); err != nil {
			return 0, 0, err
		}
	}
	return start, n, nil
}

func parseCount(s string) (int, error) {
	if s == "" {
		return 0, errors.New("missing number")
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			if c == '-' {
				return 0, errors.New("negative range")
			}
			return 0, fmt.Errorf("%q is not a line number", s)
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil || n > maxRange {
		return 0, fmt.Errorf("%q is out of range", s)
	}
	return n, nil
}

// walk consumes the hunk's body from lines[i] and returns the index after it.
func (h *hunkHeader) walk(lines []string, i int) (int, error) {
	o, n := h.oldLines, h.newLines
	h.bodyStart = i
	last := byte(0)
	for o > 0 || n > 0 {
		if i >= len(lines) {
			return i, &Error{Line: h.line + 1, Err: fmt.Errorf("hunk ends early: %d old and %d new lines missing", o, n)}
		}
		b := lines[i]
		c := byte(' ')
		if len(b) > 0 && b != "\r" {
			c = b[0]
		}
		switch c {
		case ' ':
			o--
			n--
		case '-':
			o--
			h.deleted++
		case '+':
			n--
			h.added++
		case '\\':
			if last == '-' {
				h.oldNoEOL = true
			} else {
				h.newNoEOL, h.oldNoEOL = true, last == ' '
			}
		default:
			return i, &Error{Line: i + 1, Err: fmt.Errorf("hunk ends early: line %q is not part of a hunk (%d old and %d new lines missing)", truncate(b, 40), o, n)}
		}
		if o < 0 || n < 0 {
			return i, &Error{Line: i + 1, Err: errors.New("hunk body is longer than its header says")}
		}
		last = c
		i++
	}
	if i < len(lines) && strings.HasPrefix(lines[i], "\\") {
		if last == '-' {
			h.oldNoEOL = true
		} else {
			h.newNoEOL, h.oldNoEOL = true, last == ' '
		}
		i++
	}
	h.bodyEnd = i
	// A line that looks like more of the hunk means the header's counts are
	// wrong; only a format-patch signature ("-- ") or the next file's
	// ---/+++ header may follow.
	if i < len(lines) {
		b := strings.TrimSuffix(lines[i], "\r")
		next := ""
		if i+1 < len(lines) {
			next = lines[i+1]
		}
		header := strings.HasPrefix(b, "--- ") && strings.HasPrefix(next, "+++ ")
		if (strings.HasPrefix(b, "+") || strings.HasPrefix(b, "-")) && b != "-- " && b != "--" && !header {
			return i, &Error{Line: i + 1, Err: errors.New("hunk body is longer than its header says")}
		}
	}
	return i, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// path is the chunk's best-known path, for error messages only.
func (c *chunk) path(lines []string) string {
	h := c.headers(lines)
	if p := h.newPath(); p != "" {
		return p
	}
	return h.oldPath()
}

// gitHeaders holds what a chunk's header lines say.
type gitHeaders struct {
	git                      bool
	diffA, diffB             string // from the diff --git line
	minus, plus              string // from ---/+++, "" for /dev/null
	minusNull, plusNull      bool
	renameFrom, renameTo     string
	copyFrom, copyTo         string
	oldMode, newMode         string
	newFile, deletedFile     bool
	binary                   bool
	indexMode                string
	oldBlob, newBlob         string // full object ids from the index line
	sawMinusPlus, sawDiffGit bool
}

func (g *gitHeaders) oldPath() string {
	switch {
	case g.renameFrom != "":
		return g.renameFrom
	case g.copyFrom != "":
		return g.copyFrom
	case g.sawMinusPlus && !g.minusNull:
		return g.minus
	case g.sawMinusPlus && !g.plusNull:
		return g.plus
	case g.diffA != "":
		return g.diffA
	}
	return g.diffB
}

func (g *gitHeaders) newPath() string {
	switch {
	case g.renameTo != "":
		return g.renameTo
	case g.copyTo != "":
		return g.copyTo
	case g.sawMinusPlus && !g.plusNull:
		return g.plus
	case g.sawMinusPlus && !g.minusNull:
		return g.minus
	case g.diffB != "":
		return g.diffB
	}
	return g.diffA
}

// headers reads the chunk's header lines (before the first hunk).
func (c *chunk) headers(lines []string) gitHeaders {
	g := gitHeaders{git: c.git}
	end := c.end
	if len(c.hunks) > 0 {
		end = c.hunks[0].line
	}
	if c.fileHdr >= 0 && end < c.fileHdr+2 {
		end = c.fileHdr + 2
	}
	if end < c.start {
		end = c.start
	}
	for i := c.start; i < end && i < len(lines); i++ {
		l := strings.TrimSuffix(lines[i], "\r")
		switch {
		case i == c.start && c.git:
			g.sawDiffGit = true
			g.diffA, g.diffB = splitDiffGit(strings.TrimPrefix(l, "diff --git "))
		case i == c.fileHdr:
			g.sawMinusPlus = true
			g.minus, g.minusNull = headerPath(l[4:], "a/", c.git)
			if i+1 < len(lines) {
				g.plus, g.plusNull = headerPath(strings.TrimSuffix(lines[i+1], "\r")[4:], "b/", c.git)
			}
			i++
		case c.fileHdr >= 0 && i > c.fileHdr:
		case strings.HasPrefix(l, "old mode "):
			g.oldMode = strings.TrimPrefix(l, "old mode ")
		case strings.HasPrefix(l, "new mode "):
			g.newMode = strings.TrimPrefix(l, "new mode ")
		case strings.HasPrefix(l, "new file mode "):
			g.newFile = true
			g.newMode = strings.TrimPrefix(l, "new file mode ")
		case strings.HasPrefix(l, "deleted file mode "):
			g.deletedFile = true
			g.oldMode = strings.TrimPrefix(l, "deleted file mode ")
		case strings.HasPrefix(l, "rename from "):
			g.renameFrom = unquote(strings.TrimPrefix(l, "rename from "))
		case strings.HasPrefix(l, "rename to "):
			g.renameTo = unquote(strings.TrimPrefix(l, "rename to "))
		case strings.HasPrefix(l, "copy from "):
			g.copyFrom = unquote(strings.TrimPrefix(l, "copy from "))
		case strings.HasPrefix(l, "copy to "):
			g.copyTo = unquote(strings.TrimPrefix(l, "copy to "))
		case strings.HasPrefix(l, "index "):
			f := strings.Fields(l)
			if len(f) == 3 {
				g.indexMode = f[2]
			}
			if len(f) >= 2 {
				if o, n, ok := strings.Cut(f[1], ".."); ok {
					g.oldBlob, g.newBlob = blobID(o), blobID(n)
				}
			}
		case strings.HasPrefix(l, "Binary files ") || l == "GIT binary patch":
			g.binary = true
		}
	}
	return g
}

// headerPath reads the path of a ---/+++ line: quoted or not, with a
// trailing tab and timestamp (diff -u; git adds a tab after names with
// spaces) dropped, and the a/ or b/ prefix removed.
func headerPath(s, prefix string, git bool) (string, bool) {
	if strings.HasPrefix(s, `"`) {
		if v, rest, ok := cutQuoted(s); ok && (rest == "" || rest[0] == '\t') {
			s = v
		}
	} else if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	if s == "/dev/null" {
		return "", true
	}
	return stripPrefix(s, prefix, git), false
}

func stripPrefix(s, prefix string, git bool) string {
	if strings.HasPrefix(s, prefix) {
		return s[len(prefix):]
	}
	if git && len(s) > 2 && s[1] == '/' {
		// mnemonic prefixes (i/, w/, c/, o/) from a user's configuration
		return s[2:]
	}
	return s
}

// splitDiffGit splits the arguments of a `diff --git` line into the two
// paths. Unquoted paths containing spaces are ambiguous; git then names the
// same path twice, so the line is cut in the middle.
func splitDiffGit(args string) (string, string) {
	var a, b string
	if strings.HasPrefix(args, `"`) {
		v, rest, ok := cutQuoted(args)
		if !ok || !strings.HasPrefix(rest, " ") {
			return "", ""
		}
		a, rest = v, rest[1:]
		if strings.HasPrefix(rest, `"`) {
			v, _, ok := cutQuoted(rest)
			if !ok {
				return stripPrefix(a, "a/", true), ""
			}
			b = v
		} else {
			b = rest
		}
	} else if i := strings.Index(args, ` "`); i >= 0 && strings.HasSuffix(args, `"`) {
		a = args[:i]
		v, _, _ := cutQuoted(args[i+1:])
		b = v
	} else if n := len(args); n%2 == 1 && args[:n/2] != "" && strings.TrimPrefix(args[:n/2], "a/") == strings.TrimPrefix(args[n/2+1:], "b/") {
		a, b = args[:n/2], args[n/2+1:]
	} else if i := strings.Index(args, " b/"); i >= 0 {
		a, b = args[:i], args[i+1:]
	} else if i := strings.IndexByte(args, ' '); i >= 0 {
		a, b = args[:i], args[i+1:]
	} else {
		return "", ""
	}
	return stripPrefix(a, "a/", true), stripPrefix(b, "b/", true)
}

// cutQuoted reads a C-quoted string (git's core.quotePath form, octal
// escapes for bytes that are not printable ASCII) from the start of s.
func cutQuoted(s string) (value, rest string, ok bool) {
	if !strings.HasPrefix(s, `"`) {
		return "", s, false
	}
	esc := false
	for i := 1; i < len(s); i++ {
		switch {
		case esc:
			esc = false
		case s[i] == '\\':
			esc = true
		case s[i] == '"':
			v, err := strconv.Unquote(s[:i+1])
			if err != nil {
				return "", s, false
			}
			return v, s[i+1:], true
		}
	}
	return "", s, false
}

func unquote(s string) string {
	if v, rest, ok := cutQuoted(s); ok && rest == "" {
		return v
	}
	return s
}

// file builds the File of a chunk, parsing its hunks with go-diff.
func (c *chunk) file(lines []string, name string) (File, error) {
	g := c.headers(lines)
	f := File{
		Path:    g.newPath(),
		OldPath: g.oldPath(),
		Binary:  g.binary,
		OldMode: g.oldMode,
		NewMode: g.newMode,
		OldBlob: g.oldBlob,
		NewBlob: g.newBlob,
		Symbols: []Symbol{},
	}
	switch {
	case g.newFile || (g.sawMinusPlus && g.minusNull && !g.plusNull):
		f.Status, f.OldPath = "added", f.Path
	case g.deletedFile || (g.sawMinusPlus && g.plusNull && !g.minusNull):
		f.Status, f.Path = "deleted", f.OldPath
	case g.renameFrom != "" || g.renameTo != "":
		f.Status = "renamed"
	case g.copyFrom != "" || g.copyTo != "":
		f.Status = "copied"
	default:
		f.Status = "modified"
	}
	f.Submodule = g.indexMode == "160000" || g.oldMode == "160000" || g.newMode == "160000"
	if f.Path == "" && f.OldPath == "" {
		return File{}, &Error{File: name, Line: c.start + 1, Err: errors.New("cannot tell the file's path from its headers")}
	}
	if f.Path == "" {
		f.Path = f.OldPath
	}
	if f.OldPath == "" {
		f.OldPath = f.Path
	}
	f.Language = languageOf(f.Path)
	if f.Language == "" && f.Status == "renamed" {
		// Moved out of its language (m.py to m.txt): the module at the
		// old path is gone, and its functions with it (movedOut).
		f.Language = languageOf(f.OldPath)
	}
	if f.Submodule || f.Binary {
		f.Language = ""
	}
	if len(c.hunks) == 0 && c.fileHdr < 0 {
		return f, nil
	}
	end := c.end
	if len(c.hunks) > 0 {
		end = c.hunks[len(c.hunks)-1].bodyEnd
	}
	text := strings.Join(lines[c.start:end], "\n") + "\n"
	fd, err := goDiff([]byte(text))
	if err != nil {
		line := c.start + 1
		var pe *diff.ParseError
		if errors.As(err, &pe) {
			line = c.start + pe.Line
		}
		return File{}, &Error{File: name, Line: line, Path: f.Path, Err: err}
	}
	if len(fd.Hunks) != len(c.hunks) {
		return File{}, &Error{File: name, Line: c.start + 1, Path: f.Path, Err: fmt.Errorf("diff parser read %d hunks, the headers say %d", len(fd.Hunks), len(c.hunks))}
	}
	for i, dh := range fd.Hunks {
		want := c.hunks[i]
		if int(dh.OrigStartLine) != want.oldStart || int(dh.OrigLines) != want.oldLines ||
			int(dh.NewStartLine) != want.newStart || int(dh.NewLines) != want.newLines {
			return File{}, &Error{File: name, Line: want.line + 1, Path: f.Path, Err: errors.New("diff parser misread the hunk header")}
		}
		h, err := convertHunk(dh)
		if err != nil {
			return File{}, &Error{File: name, Line: want.line + 1, Path: f.Path, Err: err}
		}
		f.Added += want.added
		f.Deleted += want.deleted
		f.Hunks = append(f.Hunks, h)
	}
	return f, nil
}

// goDiff parses one file's diff with go-diff, turning a panic into an error.
func goDiff(b []byte) (fd *diff.FileDiff, err error) {
	defer func() {
		if r := recover(); r != nil {
			fd, err = nil, fmt.Errorf("diff parser panicked: %v", r)
		}
	}()
	fd, err = diff.ParseFileDiffOptions(b, diff.ParseOptions{KeepCR: true}) // convertHunk takes it off
	if err == nil && fd == nil {
		err = errors.New("diff parser returned nothing")
	}
	return fd, err
}

// convertHunk numbers a go-diff hunk's lines on both sides and checks the
// body against the header's counts.
func convertHunk(dh *diff.Hunk) (Hunk, error) {
	h := Hunk{
		OldStart: int(dh.OrigStartLine), OldLines: int(dh.OrigLines),
		NewStart: int(dh.NewStartLine), NewLines: int(dh.NewLines),
		OldNoEOL: dh.OrigNoNewlineAt > 0,
	}
	if h.OldStart < 0 || h.OldLines < 0 || h.NewStart < 0 || h.NewLines < 0 {
		return Hunk{}, errors.New("negative hunk range")
	}
	body := string(dh.Body)
	body = strings.TrimSuffix(body, "\n")
	old, nw := h.OldStart, h.NewStart
	nOld, nNew := 0, 0
	if body != "" || h.OldLines+h.NewLines > 0 {
		h.Lines = make([]Line, 0, h.OldLines+h.NewLines)
		for _, l := range strings.Split(body, "\n") {
			l, cr := strings.CutSuffix(l, "\r")
			kind, text := byte(' '), ""
			if l != "" {
				kind, text = l[0], l[1:]
			}
			switch kind {
			case ' ':
				h.Lines = append(h.Lines, Line{Kind: ' ', CR: cr, Old: old, New: nw, Text: text})
				old++
				nw++
				nOld++
				nNew++
			case '-':
				h.Lines = append(h.Lines, Line{Kind: '-', CR: cr, Old: old, Text: text})
				old++
				nOld++
			case '+':
				h.Lines = append(h.Lines, Line{Kind: '+', CR: cr, New: nw, Text: text})
				nw++
				nNew++
			default:
				return Hunk{}, fmt.Errorf("unexpected hunk line %q", truncate(l, 40))
			}
		}
	}
	if nOld != h.OldLines || nNew != h.NewLines {
		return Hunk{}, fmt.Errorf("hunk body has %d old and %d new lines, its header says %d and %d", nOld, nNew, h.OldLines, h.NewLines)
	}
	return h, nil
}

// languageOf names the front end for a path, "" when there is none.
func languageOf(path string) string {
	for _, fe := range frontEnds {
		if fe.handles(path) {
			return fe.language()
		}
	}
	return ""
}

// blobID returns id if it is a full object id, not all zeros; else "".
func blobID(id string) string {
	if len(id) != 40 && len(id) != 64 {
		return ""
	}
	zero := true
	for _, c := range []byte(id) {
		switch {
		case c == '0':
		case c >= '1' && c <= '9' || c >= 'a' && c <= 'f':
			zero = false
		default:
			return ""
		}
	}
	if zero {
		return ""
	}
	return id
}
