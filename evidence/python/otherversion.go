package python

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/evidence/pysource"
	"github.com/premise-dev/premise/gate"
)

// python2Names are the builtins Python 2 has and Python 3 does not: a
// module written for both names them only in code its Python 2 branches
// run (`isinstance(obj, (int, long))` in a packer chosen by
// sys.version_info).
var python2Names = map[string]bool{
	"long": true, "unicode": true, "basestring": true, "xrange": true, "unichr": true,
	"raw_input": true, "buffer": true, "file": true, "cmp": true, "execfile": true,
	"reduce": true, "reload": true, "intern": true, "apply": true, "coerce": true,
	"StandardError": true,
}

var undefinedNameRe = regexp.MustCompile(`^name '(\w+)' is not defined`)

// OtherVersion is the Python side of lang.Versioned: exc is a NameError
// for one of Python 2's builtins, the module of tg names it at the base
// (an identifier, not a word of a comment or string), and the patch brought
// it into no function of the file that did not name it at the base: what
// raised is Python 2 code the base already had (a packer chosen by
// sys.version_info, reached here through its callers). A function the
// patch gave the name to runs it under Python 3 now, and its error is a
// change. Both files are read from premise's checkouts; the base is the
// merge-base's, which the patch cannot move.
func (l *pythonLang) OtherVersion(tg lang.Target, exc *gate.Exc) string {
	if exc == nil || exc.Class != "NameError" || l.pf == nil || l.pf.baseDir == "" || l.pf.headDir == "" || tg.BaseFile == "" {
		return ""
	}
	m := undefinedNameRe.FindStringSubmatch(exc.Message)
	if m == nil || !python2Names[m[1]] {
		return ""
	}
	name := m[1]
	base, okB := checkoutFile(l.pf.baseDir, tg.BaseFile)
	head, okH := checkoutFile(l.pf.headDir, tg.BaseFile)
	if !okB || !okH {
		return ""
	}
	if f, err := pysource.Parse(tg.BaseFile, base); err != nil || f == nil || !f.Names(name) {
		return ""
	}
	had := declsNaming(base, name)
	for local := range declsNaming(head, name) {
		if !had[local] {
			return ""
		}
	}
	return "`" + name + "` (Python 2's)"
}

// checkoutFile reads rel from the checkout at dir, never through a link
// out of it.
func checkoutFile(dir, rel string) ([]byte, bool) {
	path := filepath.Join(dir, filepath.FromSlash(rel))
	if gate.Inside(path, dir) != nil {
		return nil, false
	}
	src, err := os.ReadFile(path)
	return src, err == nil
}

// declsNaming are the declarations of a Python file whose source names
// name as an identifier.
func declsNaming(src []byte, name string) map[string]bool {
	out := map[string]bool{}
	decls, err := diffparse.Decls("python", src)
	if err != nil {
		return out
	}
	for _, d := range decls {
		if f, err := pysource.Parse("", []byte(dedent(lang.Span(src, d.Start, d.End)))); err == nil && f != nil && f.Names(name) {
			out[d.Local] = true
		}
	}
	return out
}

// dedent takes off every line the indentation of the first: a method's
// source as a module's.
func dedent(src string) string {
	first, _, _ := strings.Cut(src, "\n")
	indent := first[:len(first)-len(strings.TrimLeft(first, " \t"))]
	if indent == "" {
		return src
	}
	lines := strings.Split(src, "\n")
	for i, ln := range lines {
		lines[i] = strings.TrimPrefix(ln, indent)
	}
	return strings.Join(lines, "\n")
}
