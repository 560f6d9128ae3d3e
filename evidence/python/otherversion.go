package python

import (
	"os"
	"path/filepath"
	"regexp"

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
// for one of Python 2's builtins, and the module of tg names it at the
// base too (an identifier, not a word of a comment or string). The base
// is the merge-base's file, which the patch cannot move.
func (l *pythonLang) OtherVersion(tg lang.Target, exc *gate.Exc) string {
	if exc == nil || exc.Class != "NameError" || l.pf == nil || l.pf.baseDir == "" || tg.BaseFile == "" {
		return ""
	}
	m := undefinedNameRe.FindStringSubmatch(exc.Message)
	if m == nil || !python2Names[m[1]] {
		return ""
	}
	path := filepath.Join(l.pf.baseDir, filepath.FromSlash(tg.BaseFile))
	if gate.Inside(path, l.pf.baseDir) != nil {
		return ""
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	f, err := pysource.Parse(tg.BaseFile, src)
	if err != nil || f == nil || !f.Names(m[1]) {
		return ""
	}
	return "`" + m[1] + "` (Python 2's)"
}
