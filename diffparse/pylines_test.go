package diffparse

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// pyLogicalLinesRef is the byte-at-a-time scanner pyLogicalLines replaced:
// the reference its skipping must agree with.
func pyLogicalLinesRef(src []byte, visit func(i, line int)) {
	var (
		line    = 1
		atStart = true
		inStr   bool
		quote   byte
		triple  bool
		depth   int
		cont    bool
	)
	for i := 0; i < len(src); {
		if atStart {
			atStart = false
			if !inStr && depth == 0 && !cont {
				visit(i, line)
			}
			cont = false
		}
		c := src[i]
		if inStr {
			switch {
			case c == '\\':
				if i+1 < len(src) && src[i+1] == '\n' {
					line++
					atStart = true
				}
				i += 2
				continue
			case c == quote && !triple:
				inStr = false
			case c == quote && triple && bytes.HasPrefix(src[i:], []byte{quote, quote, quote}):
				inStr = false
				i += 3
				continue
			case c == '\n':
				line++
				atStart = true
				if !triple {
					inStr = false // an unterminated string: the parse will tell
				}
			}
			i++
			continue
		}
		switch c {
		case '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case '"', '\'':
			inStr, quote = true, c
			triple = bytes.HasPrefix(src[i:], []byte{c, c, c})
			if triple {
				i += 3
				continue
			}
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth > 0 {
				depth--
			}
		case '\\':
			if i+1 < len(src) && (src[i+1] == '\n' || src[i+1] == '\r') {
				cont = true
			}
		case '\n':
			line++
			atStart = true
		}
		i++
	}
}

type visitAt struct{ i, line int }

func visits(scan func([]byte, func(int, int)), src []byte) []visitAt {
	var out []visitAt
	scan(src, func(i, line int) { out = append(out, visitAt{i, line}) })
	return out
}

// TestPyLogicalLinesMatchesReference: on every module of the installed
// Python standard library, the skipping scanner visits the same lines as
// the byte-at-a-time one.
func TestPyLogicalLinesMatchesReference(t *testing.T) {
	files, _ := filepath.Glob("/usr/lib/python3*/*.py")
	if len(files) == 0 {
		t.Fatal("no Python standard library under /usr/lib/python3*")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := visits(pyLogicalLines, src), visits(pyLogicalLinesRef, src); !slices.Equal(got, want) {
			t.Errorf("%s: the scanners disagree", f)
		}
	}
}

// FuzzPyLogicalLines: on any bytes, the two scanners agree.
func FuzzPyLogicalLines(f *testing.F) {
	for _, s := range []string{
		"def f(x):\n    return (x +\n  1)\n",
		"s = \"\"\"a\n\\\"\"\"\nb\"\"\"\nx = 'it\\'s' # c\ny = \\\n  2\n",
		"'unterminated\nz = '''\\\n''' + \"\\\n\"\n",
		"x = \\\r'a'\ny = 1\n", // a continuation before \r carries over a string
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if got, want := visits(pyLogicalLines, src), visits(pyLogicalLinesRef, src); !slices.Equal(got, want) {
			t.Fatalf("%q: visits %v, reference %v", src, got, want)
		}
	})
}
