package javascript

import (
	"strings"
	"testing"

	"github.com/premise-dev/premise/diffparse"
)

// FuzzModuleChanges: whatever two versions of a module hold (every line
// of each taken as changed), reading their module-level changes, class
// fields and the modules importing them ends without a panic.
func FuzzModuleChanges(f *testing.F) {
	f.Add("const LIMIT = 10;\nmodule.exports = { LIMIT };\n", "const LIMIT = 0;\nmodule.exports = { LIMIT };\n")
	f.Add("class Box {\n  static LIMIT = 10;\n  big() { return this.n >= Box.LIMIT; }\n}\n", "const core = require(\"./core\");\nfunction t() {\n  core.big = () => true;\n}\nmodule.exports = {\n  big: t,\n")
	f.Fuzz(func(t *testing.T, base, head string) {
		var h diffparse.Hunk
		for i, l := range strings.Split(base, "\n") {
			h.Lines = append(h.Lines, diffparse.Line{Kind: '-', Old: i + 1, Text: l})
		}
		for i, l := range strings.Split(head, "\n") {
			h.Lines = append(h.Lines, diffparse.Line{Kind: '+', New: i + 1, Text: l})
		}
		file := diffparse.File{Path: "src/core.js", Language: "javascript", BaseSrc: []byte(base), HeadSrc: []byte(head), Hunks: []diffparse.Hunk{h}}
		l := &jsLang{lang: "javascript"}
		l.ChangesShared(file)
		l.SharedUsers(file, []string{"src/core.js", "src/index.js"}, func(string) []byte { return []byte("const c = require(\"./core\");\n" + head) })
		l.DataReaders(file)
	})
}
