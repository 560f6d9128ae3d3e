package javascript

import (
	"testing"

	"github.com/premise-dev/premise/diffparse"
)

// FuzzManifestChanges: whatever two sides of a package.json or a
// tsconfig.json hold, reading what they change ends without a panic, and
// a file compared with itself changes nothing.
func FuzzManifestChanges(f *testing.F) {
	f.Add("package.json", `{"imports": {"#a": "./a.js"}, "type": "module"}`, `{"imports": {"#a": {"node": "./b.js"}}, "exports": "./i.js"}`)
	f.Add("tsconfig.json", "{\n  // c\n  \"compilerOptions\": {\"target\": \"ES5\",},\n}", `{"extends": ["./base.json"], "compilerOptions": {"useDefineForClassFields": true}}`)
	f.Fuzz(func(t *testing.T, name, base, head string) {
		if name != "package.json" {
			name = "tsconfig.json"
		}
		l := &jsLang{lang: "javascript"}
		l.ManifestChanges(diffparse.File{Path: name}, []byte(base), []byte(head))
		if got := l.ManifestChanges(diffparse.File{Path: name}, []byte(base), []byte(base)); len(got) > 0 {
			t.Errorf("%s compared with itself changes %q", name, got)
		}
	})
}
