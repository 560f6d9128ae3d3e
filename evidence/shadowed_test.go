package evidence_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/premise-dev/premise/evidence"
)

// TestAddedFileShadowingAModule: a file the patch adds can take the
// import name of one both sides keep. app/clamp/__init__.py beside
// app/clamp.py is what `from app.clamp import clamp` loads: the narrowed
// clamp is compared with the base's under that name, and caught. Where
// rows name a function by its path (JavaScript: lib/clamp.js before
// lib/clamp/index.js for require("./lib/clamp")), the importers are
// the added file's readers, and compared.
func TestAddedFileShadowingAModule(t *testing.T) {
	t.Parallel()
	t.Run("python package over module", func(t *testing.T) {
		t.Parallel()
		base := map[string]string{
			"app/__init__.py": "",
			"app/clamp.py":    "def clamp(n, lo, hi):\n    return max(lo, min(n, hi))\n",
			"app/level.py":    "from app.clamp import clamp\n\n\ndef level(score: int) -> int:\n    return clamp(score // 10, 0, 10)\n\n\ndef label(name: str) -> str:\n    return 'level ' + name\n",
		}
		head := map[string]string{
			"app/clamp/__init__.py": "def clamp(n, lo, hi):\n    return max(lo, min(n, hi - 1))\n",
			"app/level.py":          strings.Replace(base["app/level.py"], "'level ' + name", "''.join(['level ', name])", 1),
		}
		rep := runCommits(t, base, head, nil)
		if !hasChange(rep, "app.clamp.clamp", nil) {
			t.Errorf("app.clamp now loads the added package's narrower clamp: no change; symbols %+v", rep.Symbols)
		}
	})
	// premise transpiles a TypeScript file over the JavaScript of its
	// name (a committed build beside its source): a head that narrows
	// the JavaScript and adds a TypeScript twin of the old code leaves
	// the JavaScript unchecked, never passed.
	t.Run("typescript twin of a narrowed javascript file", func(t *testing.T) {
		t.Parallel()
		base := map[string]string{
			"package.json": `{"name": "app"}`,
			"lib/clamp.js": "function clamp(n, lo, hi) {\n  return Math.max(lo, Math.min(n, hi));\n}\n\nmodule.exports = { clamp };\n",
		}
		head := map[string]string{
			"lib/clamp.js": strings.Replace(base["lib/clamp.js"], "Math.min(n, hi)", "Math.min(n, hi - 1)", 1),
			"lib/clamp.ts": "export function clamp(n: number, lo: number, hi: number): number {\n  return Math.max(lo, Math.min(n, hi));\n}\n",
		}
		rep := runCommits(t, base, head, nil)
		if !slices.ContainsFunc(rep.Symbols, func(s evidence.SymbolRows) bool { return s.Symbol == "lib/clamp.clamp in lib/clamp.js" && s.Unchecked }) {
			t.Errorf("the narrowed lib/clamp.js runs as its TypeScript twin under premise: want it unchecked; symbols %+v", rep.Symbols)
		}
	})
	t.Run("javascript file over a directory's index", func(t *testing.T) {
		t.Parallel()
		base := map[string]string{
			"package.json":       `{"name": "app"}`,
			"lib/clamp/index.js": "function clamp(n, lo, hi) {\n  return Math.max(lo, Math.min(n, hi));\n}\nmodule.exports = { clamp };\n",
			"src/level.js":       "const { clamp } = require('../lib/clamp');\n\nfunction level(score) {\n  return clamp(Math.floor(score / 10), 0, 10);\n}\nmodule.exports = { level };\n",
		}
		head := map[string]string{
			"lib/clamp.js": "function clamp(n, lo, hi) {\n  return Math.max(lo, Math.min(n, hi - 1));\n}\nmodule.exports = { clamp };\n",
		}
		rep := runCommits(t, base, head, nil)
		if !hasChange(rep, "src/level.level", nil) {
			t.Errorf("lib/clamp.js is what require('../lib/clamp') loads now: level, its reader, no change; symbols %+v", rep.Symbols)
		}
	})
}
