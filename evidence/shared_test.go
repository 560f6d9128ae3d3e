package evidence_test

import (
	"fmt"
	"github.com/premise-dev/premise/evidence"
	"maps"
	"path"
	"slices"
	"strings"
	"testing"
)

// coreBase is a package whose functions read module data, beside a
// constants module and an __init__ re-exporting them.
var coreBase = map[string]string{
	"mypkg/__init__.py": "from .core import clamp, label\n",
	"mypkg/consts.py":   "MAX_LEN = 10\n",
	"mypkg/core.py": "from .consts import MAX_LEN\n\nLIMITS = {\"low\": 0, \"high\": 10}\n\n\n" +
		"def clamp(x: int, lo: int, hi: int) -> int:\n    if x < lo:\n        return lo\n    if x > hi:\n        return hi\n    return x\n\n\n" +
		"def label(x: int) -> str:\n    if x >= LIMITS[\"high\"]:\n        return \"high\"\n    return \"low\"\n\n\n" +
		"def fits(name: str) -> bool:\n    return len(name) <= MAX_LEN\n",
}

// jsClamp is a function a patch may leave alone while its export changes.
const jsClamp = "function clamp(x, lo, hi) {\n  if (x < lo) return lo;\n  if (x > hi) return hi;\n  return x;\n}\n"

// jsBase is a CommonJS package whose function reads a constant another
// module exports.
var jsBase = map[string]string{
	"package.json":  `{"name": "lim", "main": "src/index.js"}`,
	"src/consts.js": "const LIMIT = 10;\nmodule.exports = { LIMIT };\n",
	"src/core.js":   "const { LIMIT } = require(\"./consts\");\n\nfunction big(x) {\n  return x >= LIMIT;\n}\n\nmodule.exports = { big };\n",
	"src/index.js":  "module.exports = require(\"./core\");\n",
}

// bagPy and durGo are a class and a type whose functions print or test
// their values: a special method added changes what they answer.
const (
	bagPy = "class Bag:\n    def __init__(self, items: list):\n        self.items = list(items)\n\n" +
		"    def describe(self) -> str:\n        if self:\n            return \"bag of %d\" % len(self.items)\n        return \"no bag\"\n"
	durGo = "package dur\n\nimport \"fmt\"\n\n// Span is a count of seconds.\ntype Span int\n\n" +
		"// Describe says how long s is.\nfunc Describe(s Span) string {\n\treturn fmt.Sprintf(\"lasts %v\", s)\n}\n"
)

// starBase is coreBase with an __init__ taking every name of core.
var starBase = func() map[string]string {
	m := maps.Clone(coreBase)
	m["mypkg/__init__.py"] = "from .core import *\n"
	return m
}()

// ptGo and ptPy build a type whose definition a patch changes (a struct
// tag, a dataclass field's default).
const (
	ptGo = "package pt\n\nimport \"encoding/json\"\n\n// Point is a place.\ntype Point struct {\n\tX int `json:\"x\"`\n\tY int `json:\"y\"`\n}\n\n" +
		"// Encode writes a point as JSON.\nfunc Encode(x, y int) string {\n\tb, _ := json.Marshal(Point{X: x, Y: y})\n\treturn string(b)\n}\n"
	ptPy = "import dataclasses\nimport json\n\n\n@dataclasses.dataclass\nclass Point:\n    x: int\n    y: int = 0\n\n\n" +
		"def encode(x: int) -> str:\n    return json.dumps(dataclasses.asdict(Point(x)))\n"
)

// strictJS is a script whose first function reads an argument its
// parameter aliases, as only sloppy mode lets it.
const strictJS = "function first(a, b) {\n  arguments[0] = b;\n  return a;\n}\n\nfunction label(name) {\n  return 'level ' + name;\n}\n\nmodule.exports = { first, label };\n"

// fitGo is a package whose init sets the limit its Fits reads.
const fitGo = "package fit\n\nvar limit int\n\nfunc init() {\n\tlimit = 10\n}\n\n" +
	"// Fits says s is short enough.\nfunc Fits(s string) bool {\n\treturn len(s) <= limit\n}\n\n" +
	"// Name names the package.\nfunc Name() string {\n\treturn \"fit\"\n}\n"

// TestModuleLevelChangesAreCompared: a module-level statement changes
// what functions of other files (or its own, untouched) answer, and
// premise compares them as changed functions: a constant lowered in a
// constants module, a function rebound by an import at the foot of its
// module or assigned from a new module __init__ loads, a Go constant in
// another file of the package and an init a new file adds, and a special
// method the patch adds (__bool__, String) to a class or type whose
// functions test or print its values. A new module a package's __init__
// now imports a function from, in place of the old one, is compared with
// the old one, as is a new module a manifest's entry point now names. A
// type or class whose definition changed (a struct tag, a dataclass
// field's default) makes the functions of its file using it targets. An
// init changed in place is never called itself: its readers are.
func TestModuleLevelChangesAreCompared(t *testing.T) {
	t.Parallel()
	goBase := map[string]string{
		"go.mod":        "module example.com/lim\n\ngo 1.22\n",
		"lim/consts.go": "package lim\n\n// MaxLen bounds a name.\nconst MaxLen = 10\n\nvar limits = map[string]int{\"low\": 0, \"high\": 10}\n",
		"lim/lim.go": "package lim\n\n// Fits says whether name fits.\nfunc Fits(name string) bool {\n\treturn len(name) <= MaxLen\n}\n\n" +
			"// Label says whether x is high.\nfunc Label(x int) string {\n\tif x >= limits[\"high\"] {\n\t\treturn \"high\"\n\t}\n\treturn \"low\"\n}\n",
	}
	for _, c := range []struct {
		name, symbol string
		base, head   map[string]string
	}{
		{"python constants module", "mypkg.core.fits", coreBase, map[string]string{"mypkg/consts.py": "MAX_LEN = 5\n"}},
		{"python import rebinding", "mypkg.core.clamp", coreBase, map[string]string{
			"mypkg/core.py":      coreBase["mypkg/core.py"] + "\n\ntry:\n    from ._speedups import clamp\nexcept ImportError:\n    pass\n",
			"mypkg/_speedups.py": "def clamp(x: int, lo: int, hi: int) -> int:\n    return min(x, hi)\n",
		}},
		{"python new module assigning into another", "mypkg.core.clamp", coreBase, map[string]string{
			"mypkg/_patch.py":   "from . import core\n\ncore.clamp = lambda x, lo, hi: min(x, hi)\n",
			"mypkg/__init__.py": "from .core import clamp, label\nfrom . import _patch\n",
		}},
		{"python re-export switched to a new module", "mypkg.fast.clamp", coreBase, map[string]string{
			"mypkg/fast.py":     "def clamp(x: int, lo: int, hi: int) -> int:\n    return min(x, hi)\n",
			"mypkg/__init__.py": "from .core import label\nfrom .fast import clamp\n",
		}},
		{"python star import switched to a new module", "mypkg.fast.clamp", starBase, map[string]string{
			"mypkg/fast.py":     "def clamp(x: int, lo: int, hi: int) -> int:\n    return min(x, hi)\n",
			"mypkg/__init__.py": "from .core import label\nfrom .fast import *\n",
		}},
		{"python class body assigning into another module", "mypkg.core.clamp", coreBase, map[string]string{
			"mypkg/__init__.py": "from .core import clamp, label\nfrom . import core as _core\n\n\nclass _Fast:\n    _core.clamp = min\n",
		}},
		{"python decorator assigning into another module's table", "mypkg.core.label", coreBase, map[string]string{
			"mypkg/__init__.py": "from .core import clamp, label\nfrom . import core as _core\n\n\ndef _tuned(f):\n    _core.LIMITS[\"high\"] = 5\n    return f\n\n\n@_tuned\ndef _helper():\n    return None\n",
		}},
		{"python function of the module called at load", "mypkg.core.label", coreBase, map[string]string{
			"mypkg/core.py": coreBase["mypkg/core.py"] + "\n\ndef _tune():\n    LIMITS[\"high\"] = 5\n\n\n_tune()\n",
		}},
		{"python table mutated from __init__", "mypkg.core.label", coreBase, map[string]string{
			"mypkg/__init__.py": "from .core import clamp, label\nfrom .core import LIMITS\n\nLIMITS[\"high\"] = 5\n",
		}},
		{"go constant in another file", "example.com/lim/lim.Fits", goBase, map[string]string{
			"lim/consts.go": strings.Replace(goBase["lim/consts.go"], "MaxLen = 10", "MaxLen = 5", 1),
		}},
		{"go init of a new file", "example.com/lim/lim.Label", goBase, map[string]string{
			"lim/tune.go": "package lim\n\nfunc init() {\n\tlimits[\"high\"] = 5\n}\n",
		}},
		// An init the patch changes in place, beside a function it
		// refactors: the harness cannot call it (once, naming it failed
		// every row of the package).
		{"go init changed in place", "example.com/fit.Fits", map[string]string{
			"go.mod": "module example.com/fit\n\ngo 1.22\n", "fit.go": fitGo,
		}, map[string]string{
			"fit.go": strings.NewReplacer("limit = 10", "limit = 5", `return "fit"`, `return "fi" + "t"`).Replace(fitGo),
		}},
		{"go var initialized by a function literal at load", "example.com/lim/lim.Label", goBase, map[string]string{
			"lim/tune.go": "package lim\n\nvar _ = func() int {\n\tlimits[\"high\"] = 5\n\treturn 0\n}()\n",
		}},
		{"python special method added", "bag.Bag.describe", map[string]string{"bag.py": bagPy}, map[string]string{
			"bag.py": bagPy + "\n    def __bool__(self):\n        return len(self.items) > 1\n",
		}},
		{"go String method added", "example.com/dur/dur.Describe", map[string]string{"go.mod": "module example.com/dur\n\ngo 1.22\n", "dur/dur.go": durGo},
			map[string]string{"dur/dur.go": durGo + "\n// String writes s in minutes.\nfunc (s Span) String() string {\n\treturn fmt.Sprintf(\"%dm\", int(s)/60)\n}\n"}},
		{"go struct tag", "example.com/pt/pt.Encode", map[string]string{"go.mod": "module example.com/pt\n\ngo 1.22\n", "pt/pt.go": ptGo},
			map[string]string{"pt/pt.go": strings.Replace(ptGo, `json:"y"`, `json:"y,omitempty"`, 1)}},
		{"python dataclass default", "pt.encode", map[string]string{"pt.py": ptPy},
			map[string]string{"pt.py": strings.Replace(ptPy, "y: int = 0", "y: int = 1", 1)}},
		{"javascript entry point moved to a new module", "src/fast.clamp", map[string]string{
			"package.json": `{"name": "lim", "main": "src/index.js"}`,
			"src/index.js": "function clamp(x, lo, hi) {\n  if (x < lo) return lo;\n  if (x > hi) return hi;\n  return x;\n}\n\nmodule.exports = { clamp };\n",
		}, map[string]string{
			"package.json": `{"name": "lim", "main": "src/fast.js"}`,
			"src/fast.js":  "function clamp(x, lo, hi) {\n  return Math.min(x, hi);\n}\n\nmodule.exports = { clamp };\n",
		}},
		{"javascript export rebound to a new function", "src/core.clamp", map[string]string{
			"package.json": `{"name": "lim", "main": "src/core.js"}`,
			"src/core.js":  jsClamp + "\nmodule.exports = { clamp };\n",
		}, map[string]string{
			"src/core.js": jsClamp + "\nfunction clampFast(x, lo, hi) {\n  return Math.min(x, hi);\n}\n\nmodule.exports = { clamp: clampFast };\n",
		}},
		// "use strict" at the top of a script changes every function in
		// it: arguments no longer alias the parameters.
		{"javascript use strict added", "lib.first", map[string]string{
			"package.json": `{"name": "s"}`,
			"lib.js":       strictJS,
		}, map[string]string{
			"lib.js": "'use strict';\n\n" + strings.Replace(strictJS, "'level ' + name", "'lev' + 'el ' + name", 1),
		}},
		{"javascript constants module", "src/core.big", jsBase, map[string]string{
			"src/consts.js": "const LIMIT = 0;\nmodule.exports = { LIMIT };\n",
		}},
		// A limit no pool holds: its old and new numbers are the
		// reader's edges.
		{"javascript constant moved between numbers no pool holds", "src/core.big", func() map[string]string {
			m := maps.Clone(jsBase)
			m["src/consts.js"] = "const LIMIT = 37;\nmodule.exports = { LIMIT };\n"
			return m
		}(), map[string]string{
			"src/consts.js": "const LIMIT = 45;\nmodule.exports = { LIMIT };\n",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rep := runCommits(t, c.base, c.head, nil)
			if !hasChange(rep, c.symbol, nil) {
				t.Errorf("%s reads what the patch's module-level change binds: no change; changes %+v, symbols %+v",
					c.symbol, append(rep.Changes, rep.Unexplained...), rep.Symbols)
			}
		})
	}
}

// TestUnfollowedModuleStateIsUnchecked: an assignment into a module
// outside the tree (json.dumps) changes what any function may answer,
// and premise cannot find its readers: the statement is not checked,
// named by its line. Imports and a logger the patch adds are not.
func TestUnfollowedModuleStateIsUnchecked(t *testing.T) {
	t.Parallel()
	head := maps.Clone(coreBase)
	head["mypkg/__init__.py"] = "from .core import clamp, label\nimport json\n\njson.dumps = lambda *a, **k: \"{}\"\n"
	rep := runCommits(t, coreBase, head, nil)
	i := slices.IndexFunc(rep.Symbols, func(s evidence.SymbolRows) bool { return strings.Contains(s.Symbol, "json.dumps") })
	if i < 0 || !rep.Symbols[i].Unchecked || !strings.Contains(rep.Symbols[i].Symbol, "mypkg/__init__.py line 4") {
		t.Errorf("json.dumps assigned at import: want an unchecked entry naming mypkg/__init__.py line 4; symbols %+v", rep.Symbols)
	}

	// JavaScript: premise calls src/core.big without loading the index
	// that assigns into it.
	for _, index := range []string{
		"const core = require(\"./core\");\ncore.big = (x) => true;\nmodule.exports = core;\n",
		"const core = require(\"./core\");\n\nfunction tune() {\n  core.big = (x) => true;\n}\ntune();\n\nmodule.exports = core;\n",
	} {
		rep = runCommits(t, jsBase, map[string]string{"src/index.js": index}, nil)
		if i := slices.IndexFunc(rep.Symbols, func(s evidence.SymbolRows) bool { return strings.Contains(s.Symbol, "core.big = ") }); i < 0 || !rep.Symbols[i].Unchecked {
			t.Errorf("core.big assigned from the index (%q): want an unchecked entry naming its line; symbols %+v", index, rep.Symbols)
		}
	}

	// A function bound to a name rather than declared (a lambda, a Go
	// var holding a function literal) is what callers call, and premise
	// cannot call it by a signature: changed, it is not checked.
	for _, c := range []struct {
		name, want string
		base, head map[string]string
	}{
		{"python lambda", "mypkg/core.py line", map[string]string{"mypkg/__init__.py": "", "mypkg/core.py": "scale = lambda x: x * 2\n"},
			map[string]string{"mypkg/core.py": "scale = lambda x: x * 3\n"}},
		{"go blank var calling a function at load", "lim/tune.go line 3 `var _ = tune()`", map[string]string{"go.mod": "module example.com/lim\n\ngo 1.22\n",
			"lim/lim.go": "package lim\n\nvar limits = map[string]int{\"high\": 10}\n\n// High says whether x is high.\nfunc High(x int) bool {\n\treturn x >= limits[\"high\"]\n}\n"},
			map[string]string{"lim/tune.go": "package lim\n\nvar _ = tune()\n\nfunc tune() int {\n\tlimits[\"high\"] = 5\n\treturn 0\n}\n"}},
		// A module the patch adds at the top of the tree in a standard
		// module's name runs under premise alone: an installed package
		// imports the real one.
		{"python module shadowing the standard library", "colorsys.py (added at the top of the tree", coreBase, map[string]string{
			"mypkg/core.py": coreBase["mypkg/core.py"] + "\n\nimport colorsys  # noqa: E402\n",
			"colorsys.py":   "import mypkg.core as _c\n\n\ndef _clamp(x, lo, hi):\n    return max(lo, min(x, hi))\n\n\n_c.clamp = _clamp\n",
		}},
		// The interpreter's state, set at import through a standard
		// module: every Decimal division of the process is rounded to
		// six digits, and no function names the change.
		{"python decimal context set at import", "mypkg/__init__.py line 4 `decimal.getcontext().prec = 6`", coreBase, map[string]string{
			"mypkg/__init__.py": "from .core import clamp, label\nimport decimal\n\ndecimal.getcontext().prec = 6\n",
		}},
		{"python locale set at import", "mypkg/__init__.py line 4 `locale.setlocale(", coreBase, map[string]string{
			"mypkg/__init__.py": "from .core import clamp, label\nimport locale\n\nlocale.setlocale(locale.LC_ALL, \"C\")\n",
		}},
		{"go function var", "lim/lim.go line 4 `var Clamp = func", map[string]string{"go.mod": "module example.com/lim\n\ngo 1.22\n",
			"lim/lim.go": "package lim\n\n// Clamp clamps x.\nvar Clamp = func(x, hi int) int {\n\tif x > hi {\n\t\treturn hi\n\t}\n\treturn x\n}\n"},
			map[string]string{"lim/lim.go": "package lim\n\n// Clamp clamps x.\nvar Clamp = func(x, hi int) int {\n\treturn x\n}\n"}},
	} {
		rep := runCommits(t, c.base, c.head, nil)
		if i := slices.IndexFunc(rep.Symbols, func(s evidence.SymbolRows) bool { return strings.Contains(s.Symbol, c.want) }); i < 0 || !rep.Symbols[i].Unchecked {
			t.Errorf("%s changed: want an unchecked entry naming %q; symbols %+v", c.name, c.want, rep.Symbols)
		}
	}

	benign := maps.Clone(coreBase)
	benign["mypkg/core.py"] = "import logging\nimport re\n\n" + coreBase["mypkg/core.py"] + "\n\nlog = logging.getLogger(__name__)\n"
	rep = runCommits(t, coreBase, benign, nil)
	for _, s := range rep.Symbols {
		if s.Unchecked {
			t.Errorf("imports and a logger added: %s left unchecked (%s)", s.Symbol, s.Why)
		}
	}
	if n := len(rep.Changes) + len(rep.Unexplained); n != 0 {
		t.Errorf("imports and a logger added: %d changes, want none: %+v", n, rep.Changes)
	}

	// A Go constant named Contains is not what strings.Contains reads.
	goMod := "module example.com/tb\n\ngo 1.22\n"
	render := "package tb\n\nimport \"strings\"\n\n// Has says whether s holds sub.\nfunc Has(s, sub string, out *strings.Builder) bool {\n\treturn strings.Contains(s, sub)\n}\n"
	rep = runCommits(t, map[string]string{"go.mod": goMod, "tb/render.go": render, "tb/op.go": "package tb\n\n// Op is a filter.\ntype Op int\n\n// Contains matches a part.\nconst Contains Op = 1\n"},
		map[string]string{"tb/op.go": "package tb\n\n// Op is a filter.\ntype Op int\n\n// Contains matches a part.\nconst Contains Op = 2\n"}, nil)
	for _, s := range rep.Symbols {
		if strings.HasSuffix(s.Symbol, "tb.Has") {
			t.Errorf("Has calls strings.Contains, not the package's Contains: compared all the same (%s, unchecked %v)", s.Why, s.Unchecked)
		}
	}
}

// TestClassBodyChangeComparesItsMethods: a class attribute the patch
// changes (LIMIT = 10 -> 5; a JavaScript static field) changes what its
// methods answer, though none changed: the methods naming it are
// compared.
func TestClassBodyChangeComparesItsMethods(t *testing.T) {
	t.Parallel()
	base := map[string]string{"box.py": "class Box:\n    LIMIT = 10\n\n    def __init__(self, n: int):\n        self.n = n\n\n" +
		"    def big(self) -> bool:\n        return self.n >= self.LIMIT\n\n    def half(self) -> int:\n        return self.n // 2\n"}
	head := map[string]string{"box.py": strings.Replace(base["box.py"], "LIMIT = 10", "LIMIT = 5", 1)}
	rep := runCommits(t, base, head, nil)
	var got []string
	for _, s := range rep.Symbols {
		got = append(got, s.Symbol)
		if s.Symbol == "box.Box.big" && s.Rows == 0 {
			t.Errorf("Box.big reads the changed LIMIT: no rows (%s)", s.Why)
		}
		if s.Symbol == "box.Box.half" {
			t.Errorf("Box.half does not read LIMIT: compared all the same")
		}
	}
	if !slices.Contains(got, "box.Box.big") {
		t.Errorf("Box.big reads the changed LIMIT: not compared; symbols %v", got)
	}

	// The attribute's old and new numbers are the method's edges: no
	// pool holds 37 to 44.
	gauge := "class Gauge:\n    LIMIT = 37\n\n    def __init__(self, name: str):\n        self.name = name\n\n" +
		"    def big(self, n: int) -> bool:\n        return n >= self.LIMIT\n"
	rep = runCommits(t, map[string]string{"gauge.py": gauge}, map[string]string{"gauge.py": strings.Replace(gauge, "LIMIT = 37", "LIMIT = 45", 1)}, nil)
	if !hasChange(rep, "gauge.Gauge.big", nil) {
		t.Errorf("Gauge.big compares n with LIMIT, moved from 37 to 45: no change; symbols %+v", rep.Symbols)
	}

	// A docstring's lines say nothing: no method is compared for them.
	doc := strings.Replace(base["box.py"], "class Box:\n", "class Box:\n    \"\"\"A box.\n\n    It holds n.\n    \"\"\"\n\n", 1)
	rep = runCommits(t, map[string]string{"box.py": doc}, map[string]string{"box.py": strings.Replace(doc, "It holds n.", "It holds a count.", 1)}, nil)
	for _, s := range rep.Symbols {
		if strings.HasPrefix(s.Symbol, "box.Box.") {
			t.Errorf("only the docstring of Box changed: %s compared all the same", s.Symbol)
		}
	}

	// JavaScript: a static field, a receiver its tests build.
	jsBox := "class Box {\n  static LIMIT = 10;\n\n  constructor(n) {\n    this.n = n;\n  }\n\n  big() {\n    return this.n >= Box.LIMIT;\n  }\n}\n\nmodule.exports = { Box };\n"
	rep = runCommits(t, map[string]string{
		"package.json":     `{"name": "box", "main": "src/box.js"}`,
		"src/box.js":       jsBox,
		"test/box.test.js": "const assert = require(\"assert\");\nconst { Box } = require(\"../src/box\");\n\nit(\"small\", () => {\n  assert.strictEqual(new Box(3).big(), false);\n});\n",
	}, map[string]string{"src/box.js": strings.Replace(jsBox, "LIMIT = 10", "LIMIT = 0", 1)}, nil)
	if !hasChange(rep, "src/box.Box.big", nil) {
		t.Errorf("Box.big reads the changed static LIMIT: no change; symbols %+v", rep.Symbols)
	}

	// No test builds a Box: its constructor's typed parameters (or
	// defaults) build one, and the static's old and new numbers are
	// big's edges. A constructor saying nothing of what it takes builds
	// none: junk is no object a caller builds.
	for _, c := range []struct {
		name, path, ctor string
		built            bool
	}{
		{"typescript typed constructor", "src/box.ts", "constructor(private name: string) {}", true},
		{"javascript constructor with a default", "src/box.js", "constructor(name = \"box\") {\n    this.name = name;\n  }", true},
		{"javascript untyped constructor", "src/box.js", "constructor(name) {\n    this.name = name;\n  }", false},
	} {
		box := "export class Box {\n  static LIMIT = 37;\n\n  " + c.ctor + "\n\n  big(n) {\n    return n >= Box.LIMIT;\n  }\n}\n"
		rep = runCommits(t, map[string]string{"package.json": `{"name": "box", "type": "module"}`, c.path: box},
			map[string]string{c.path: strings.Replace(box, "LIMIT = 37", "LIMIT = 45", 1)}, nil)
		symbol := strings.TrimSuffix(c.path, path.Ext(c.path)) + ".Box.big"
		if got := hasChange(rep, symbol, nil); got != c.built {
			t.Errorf("%s, no test building a Box: a change on %s %v, want %v; symbols %+v", c.name, symbol, got, c.built, rep.Symbols)
		}
	}
}

// TestSharedReadersPastTheBoundAreUnchecked: a constant read by more
// files than one run compares leaves the rest unchecked, never passed.
func TestSharedReadersPastTheBoundAreUnchecked(t *testing.T) {
	t.Parallel()
	base := map[string]string{"go.mod": "module example.com/lim\n\ngo 1.22\n", "lim/consts.go": "package lim\n\n// MaxLen bounds a name.\nconst MaxLen = 10\n"}
	for i := 0; i < 22; i++ {
		base[fmt.Sprintf("lim/f%02d.go", i)] = fmt.Sprintf("package lim\n\n// Fits%02d says whether s fits.\nfunc Fits%02d(s string) bool {\n\treturn len(s) <= MaxLen\n}\n", i, i)
	}
	rep := runCommits(t, base, map[string]string{"lim/consts.go": "package lim\n\n// MaxLen bounds a name.\nconst MaxLen = 10 // unchanged value, changed line\n"}, nil)
	if i := slices.IndexFunc(rep.Symbols, func(s evidence.SymbolRows) bool { return strings.Contains(s.Why, "past the 20") }); i < 0 || !rep.Symbols[i].Unchecked {
		t.Errorf("22 files read the changed MaxLen: want the ones past 20 unchecked; symbols %d", len(rep.Symbols))
	}
}

// TestFileReadersPastTheBoundAreUnchecked: a changed module constant read
// by more functions of its own file than one run compares leaves the
// rest unchecked, each named, never passed over.
func TestFileReadersPastTheBoundAreUnchecked(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("LIMIT = 10\n")
	for i := 0; i < 24; i++ {
		fmt.Fprintf(&b, "\n\ndef fits%02d(n: int) -> bool:\n    return n <= LIMIT\n", i)
	}
	base := map[string]string{"lim.py": b.String()}
	rep := runCommits(t, base, map[string]string{"lim.py": strings.Replace(b.String(), "LIMIT = 10", "LIMIT = 5", 1)}, nil)
	var compared, unchecked int
	for _, s := range rep.Symbols {
		if !strings.HasPrefix(s.Symbol, "lim.fits") {
			continue
		}
		switch {
		case s.Unchecked && strings.Contains(s.Why, "past the 20 readers"):
			unchecked++
		case s.Rows > 0:
			compared++
		}
	}
	if compared != 20 || unchecked != 4 {
		t.Errorf("24 functions read the changed LIMIT: %d compared, %d unchecked; want 20 and 4 (symbols %+v)", compared, unchecked, rep.Symbols)
	}
}

// TestStructFieldAddedReadsOnlyItsSelectors: a field added to a struct
// changes what the functions selecting it, or using a whole value of the
// type, answer, not every method of the type: none of the methods
// reading other fields is compared for it, and none is left unchecked
// past a bound; a method printing its receiver whole is compared.
func TestStructFieldAddedReadsOnlyItsSelectors(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("package box\n\n// Box holds items.\ntype Box struct {\n\titems []int\n}\n")
	for i := 0; i < 24; i++ {
		fmt.Fprintf(&b, "\n// Len%02d counts the items.\nfunc (b *Box) Len%02d() int {\n\treturn len(b.items)\n}\n", i, i)
	}
	b.WriteString("\n// New makes a box.\nfunc New(items []int) *Box {\n\treturn &Box{items: items}\n}\n")
	b.WriteString("\n// Dump prints the box whole.\nfunc (b *Box) Dump() string {\n\treturn fmt.Sprintf(\"%+v\", *b)\n}\n")
	src := strings.Replace(b.String(), "package box\n", "package box\n\nimport \"fmt\"\n", 1)
	head := strings.Replace(src, "\titems []int\n", "\titems []int\n\tlabel string\n", 1) +
		"\n// Label names the box.\nfunc (b *Box) Label() string {\n\treturn b.label\n}\n"
	rep := runCommits(t, map[string]string{"go.mod": "module example.com/box\n\ngo 1.22\n", "box/box.go": src},
		map[string]string{"box/box.go": head}, nil)
	for _, s := range rep.Symbols {
		if strings.Contains(s.Symbol, ".Len") {
			t.Errorf("a field added that Len never selects: %s taken as its reader (unchecked %v: %s)", s.Symbol, s.Unchecked, s.Why)
		}
	}
	// Dump prints the whole value, the new field with it.
	if !hasChange(rep, "example.com/box/box.Box.Dump", nil) {
		t.Errorf("Dump prints a Box whole and its field list grew: no change; changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}
