package python

import (
	"regexp"
	"strings"

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
// for one of Python 2's builtins, and the function of tg names it at the
// base too (an identifier, not a word of a comment or string): a function
// written for Python 2 already. The base is the merge-base's source, which
// the patch cannot move; a function that did not name it at the base had
// it put there by the patch, and its error is a change.
func (l *pythonLang) OtherVersion(tg lang.Target, exc *gate.Exc) string {
	if exc == nil || exc.Class != "NameError" || tg.BaseText == "" {
		return ""
	}
	m := undefinedNameRe.FindStringSubmatch(exc.Message)
	if m == nil || !python2Names[m[1]] {
		return ""
	}
	f, err := pysource.Parse(tg.BaseFile, []byte(dedent(tg.BaseText)))
	if err != nil || f == nil || !f.Names(m[1]) {
		return ""
	}
	return "`" + m[1] + "` (Python 2's)"
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
