package python

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/diffparse/difftest"
)

// changedFile is a Python file of path whose base and head differ by
// the lines a line diff of the two gives.
func changedFile(path, base, head string) diffparse.File {
	return difftest.File("python", path, base, head)
}

// TestModuleChangesReadWhatStatementsBind: the module-level statements a
// patch changes are read for the names they bind (their readers are
// compared), the modules they assign into, and what cannot be followed;
// a keyword argument of a call spanning lines, a dunder and an unchanged
// import bind nothing.
func TestModuleChangesReadWhatStatementsBind(t *testing.T) {
	const core = "from .consts import MAX_LEN\n\n\ndef clamp(x, lo, hi):\n    return max(lo, min(x, hi))\n"
	for _, c := range []struct {
		name, path, base, head string
		names, into            []string
		unfollowed             bool
	}{
		{name: "import rebinding a def", path: "mypkg/core.py", base: core,
			head: core + "\n\ntry:\n    from ._speedups import clamp\nexcept ImportError:\n    pass\n", names: []string{"clamp"}},
		{name: "assignment in a module-level if", path: "mypkg/core.py", base: core,
			head: core + "\n\nif True:\n    clamp = min\n", names: []string{"clamp"}},
		{name: "keyword argument on a continuation line", path: "setup.py", base: "setup(\n    name=\"a\",\n)\n",
			head: "setup(\n    name=\"b\",\n)\n"},
		{name: "a dunder", path: "mypkg/__init__.py", base: "__version__ = '1'\n", head: "__version__ = '2'\n"},
		{name: "a line of a template string", path: "mypkg/core.py", base: "HELP = \"\"\"Usage:\n  clamp X\n\"\"\"\n",
			head: "HELP = \"\"\"Usage:\n  clamp X LO HI\n\"\"\"\n", names: []string{"HELP"}},
		{name: "a line of the module's docstring", path: "mypkg/core.py", base: "\"\"\"Clamps.\n\nx = clamp(1, 2, 3)\n\"\"\"\n\nLIMIT = 1\n",
			head: "\"\"\"Clamps.\n\ny = clamp(1, 2, 3)\n\"\"\"\n\nLIMIT = 1\n"},
		{name: "into a submodule's function and table", path: "mypkg/__init__.py", base: "from . import core as _core\n",
			head: "from . import core as _core\n\n_core.clamp = min\n_core.LIMITS['high'] = 5\n", into: []string{"mypkg.core.LIMITS", "mypkg.core.clamp"}},
		{name: "into a name imported from a module", path: "mypkg/__init__.py", base: "from .core import LIMITS\n",
			head: "from .core import LIMITS\n\nLIMITS.update(high=5)\n", into: []string{"mypkg.core.LIMITS"}},
		{name: "into the standard library", path: "mypkg/__init__.py", base: "import json\n",
			head: "import json\n\njson.dumps = repr\n", into: []string{"json.dumps"}},
		{name: "sys.modules", path: "mypkg/__init__.py", base: "import sys\n",
			head: "import sys\n\nsys.modules['mypkg.core'] = sys.modules[__name__]\n", unfollowed: true},
		{name: "inside a function: into an imported module, and sys.modules", path: "mypkg/__init__.py", base: "from . import core\nimport sys\n\n\ndef f(self):\n    return 1\n",
			head: "from . import core\nimport sys\n\n\ndef f(self):\n    self.x = 1\n    core.clamp = min\n    sys.modules['x'] = core\n    return 1\n", into: []string{"mypkg.core.clamp"}, unfollowed: true},
		{name: "a function of the module called at load", path: "mypkg/core.py", base: "LIMITS = {'high': 10}\n",
			head: "LIMITS = {'high': 10}\n\n\ndef _tune():\n    LIMITS['high'] = 5\n\n\n_tune()\n", names: []string{"LIMITS"}},
		{name: "inside a function: a table imported from another module", path: "mypkg/_patch.py", base: "from .core import LIMITS\n",
			head: "from .core import LIMITS\n\n\ndef apply():\n    LIMITS['high'] = 5\n", into: []string{"mypkg.core.LIMITS"}},
		{name: "a pure library call at load", path: "mypkg/core.py", base: "import re\nimport collections\n",
			head: "import re\nimport collections\n\n_RE = re.compile(r'a;b')  # a ';' in a string\nPoint = collections.namedtuple('Point', 'x y')\n", names: []string{"Point", "_RE"}},
		{name: "a state call in an assignment's value", path: "mypkg/core.py", base: "import decimal\n",
			head: "import decimal\n\n_ctx = decimal.setcontext(decimal.Context(prec=6))\n", names: []string{"_ctx"}, unfollowed: true},
		{name: "a second statement after a semicolon", path: "mypkg/core.py", base: core,
			head: core + "\nx = 1; clamp = min\n", names: []string{"x"}, unfollowed: true},
		{name: "a one-line for", path: "mypkg/core.py", base: core,
			head: core + "\nfor _ in [0]: clamp = min\n", unfollowed: true},
		{name: "a class body writing the module's names", path: "mypkg/core.py", base: core,
			head: core + "\n\nclass _Tidy:\n    globals()['clamp'] = min\n", unfollowed: true},
		{name: "a default argument calling into the library", path: "mypkg/core.py", base: "import locale\n",
			head: "import locale\n\n\ndef f(x=locale.setlocale(locale.LC_ALL, 'C')):\n    return x\n", unfollowed: true},
		{name: "a function reading globals() when called", path: "mypkg/core.py", base: "def f():\n    return 1\n",
			head: "def f():\n    return len(globals())\n"},
		{name: "a name imported where a star import bound it", path: "mypkg/__init__.py", base: "from .a import *\n",
			head: "from .a import *\nfrom .b import clamp\n", names: []string{"clamp"}},
		{name: "__all__ exporting a name the module had", path: "mypkg/b.py",
			base: "__all__ = ['double']\n\n\ndef double(n):\n    return n * 2\n\n\ndef clamp(n):\n    return n\n",
			head: "__all__ = ['double', 'clamp']\n\n\ndef double(n):\n    return n * 2\n\n\ndef clamp(n):\n    return n\n", unfollowed: true},
		{name: "__all__ exporting a function the patch adds", path: "mypkg/b.py",
			base: "__all__ = ['double']\n\n\ndef double(n):\n    return n * 2\n",
			head: "__all__ = ['double', 'triple']\n\n\ndef double(n):\n    return n * 2\n\n\ndef triple(n):\n    return n * 3\n"},
		{name: "a binding changed inside a parenthesized import", path: "mypkg/core.py",
			base: "from math import (\n    floor,\n    ceil,\n)\n\n\ndef down(x):\n    return floor(x)\n",
			head: "from math import (\n    ceil,\n)\nfrom .mymath import (\n    floor,\n)\n\n\ndef down(x):\n    return floor(x)\n", names: []string{"floor"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			mc := moduleChanges(changedFile(c.path, c.base, c.head))
			var names, into []string
			for n := range mc.names {
				names = append(names, n)
			}
			for _, r := range mc.into {
				if r.attr != "" {
					into = append(into, r.module+"."+r.name+"."+r.attr)
				} else {
					into = append(into, r.module+"."+r.name)
				}
			}
			sort.Strings(names)
			sort.Strings(into)
			if !slices.Equal(names, c.names) || !slices.Equal(into, c.into) || (len(mc.unfollowed) > 0) != c.unfollowed {
				t.Errorf("names %v, into %v, unfollowed %v; want %v, %v, unfollowed %v", names, into, mc.unfollowed, c.names, c.into, c.unfollowed)
			}
		})
	}
}

// FuzzModuleChanges: whatever two versions of a file hold, reading their
// module-level changes and class bodies ends without a panic.
func FuzzModuleChanges(f *testing.F) {
	f.Add("LIMITS = {'high': 10}\n", "from . import core as _c\n_c.LIMITS['high'] = 5\n")
	f.Add("class A:\n    X = 1\n    def m(self):\n        return self.X\n", "class A:\n    \"\"\"doc\n    x = 1\n    \"\"\"\n    X = 2\n")
	f.Add("def f():\n    pass\n", "def f():\n    pass\n\n\nf()\nfrom x import (\n  a,\n")
	f.Fuzz(func(t *testing.T, base, head string) {
		file := changedFile("mypkg/core.py", base, head)
		moduleChanges(file)
		hd, err1 := diffparse.Decls("python", file.HeadSrc)
		bd, err2 := diffparse.Decls("python", file.BaseSrc)
		if err1 == nil && err2 == nil {
			classReaders(file, hd, bd)
		}
		(&pythonLang{}).SharedUsers(file, []string{"mypkg/core.py", "mypkg/other.py"}, func(string) []byte { return []byte(head) })
	})
}

// TestReadOtherwise: a module the interpreter reads otherwise than
// premise (another encoding declared, a carriage return alone) is said so;
// UTF-8, Latin-1 and CRLF line ends are read alike.
func TestReadOtherwise(t *testing.T) {
	for _, c := range []struct {
		src  string
		want string
	}{
		{"def f():\n    return 1\n", ""},
		{"# -*- coding: utf-8 -*-\ndef f():\n    return 1\n", ""},
		{"#!/usr/bin/env python\n# vim: set fileencoding=latin-1 :\nx = 1\n", ""},
		{"def f():\r\n    return 1\r\n", ""},
		{"# -*- coding: unicode_escape -*-\nx = 1 # \\u000ay = 2\n", "a coding declaration of unicode_escape"},
		{"x = 1\n# coding: utf-7\n", "a coding declaration of utf-7"},
		{"x = 1\n# note\ry = 2\n", "a carriage return alone, which ends a line for the interpreter only"},
		{"x = 1\n\n\n# coding: utf-7\n", ""},
	} {
		if got := readOtherwise([]byte(c.src)); got != c.want {
			t.Errorf("readOtherwise(%q) = %q, want %q", c.src, got, c.want)
		}
	}
}

// TestRunnerTells: a line the patch adds asking whether pytest runs the
// code is named; the same in a test file, or a line merely mentioning
// sys.modules, is not.
func TestRunnerTells(t *testing.T) {
	base := "def clamp(n):\n    return max(n, 0)\n"
	head := "import sys\n\n\ndef clamp(n):\n    if 'pytest' in sys.modules:\n        return max(n, 0)\n    return n\n"
	got := (&pythonLang{}).RunnerTells(changedFile("m.py", base, head))
	if len(got) != 1 || !strings.Contains(got[0], "line 5") {
		t.Errorf("RunnerTells(m.py) = %q; want line 5", got)
	}
	if got := (&pythonLang{}).RunnerTells(changedFile("tests/test_m.py", base, head)); got != nil {
		t.Errorf("RunnerTells(a test file) = %q; want none", got)
	}
	if got := (&pythonLang{}).RunnerTells(changedFile("m.py", base, "import sys\n\n\ndef clamp(n):\n    return sys.modules and max(n, 0)\n")); got != nil {
		t.Errorf("RunnerTells(sys.modules alone) = %q; want none", got)
	}
}
