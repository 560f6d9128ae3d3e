package python

import (
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
)

// ManifestChanges names the entry points and distribution name a patch
// changes in the top pyproject.toml: code that finds its plug-ins or its
// own metadata through importlib.metadata reads the merge-base's in
// premise's copies, the head's where it is installed, so premise cannot
// compare what the change does.
func (*pythonLang) ManifestChanges(f diffparse.File, base, head []byte) []string {
	if compiledModule(f.Path) {
		return []string{"(a compiled module Python imports before a source module of its name: premise does not read it)"}
	}
	if f.Path != "pyproject.toml" {
		return nil
	}
	b, okB := pyprojectFields(base)
	h, okH := pyprojectFields(head)
	if !okB || !okH {
		return nil
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(h)) {
		if b[k] != h[k] {
			out = append(out, lang.LineText(tomlLine(head, k), k+" = "+h[k]))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(b)) {
		if _, ok := h[k]; !ok {
			out = append(out, lang.LineText(tomlLine(base, k), k+" = "+b[k])+" (removed)")
		}
	}
	return out
}

// compiledModule says Python imports the file as code premise cannot
// read: an extension module (.so, .pyd), which the import system finds
// before a .py of the same name; a .pyc outside __pycache__, which it
// loads where no .py stands beside it; and one inside, which it runs in
// place of its source when the source's stamp matches it or, an
// unchecked hash-based .pyc (PEP 552), without looking at the source at
// all.
func compiledModule(p string) bool {
	switch path.Ext(p) {
	case ".so", ".pyd", ".pyc", ".pyo":
		return true
	}
	return false
}

// pyprojectFields keys what premise installs of a pyproject.toml
// (gate.PythonDistribution) by name, "name" and each entry point by its
// group and name ("markdown.extensions toc"); none for an absent file,
// false for one that does not parse.
func pyprojectFields(data []byte) (map[string]string, bool) {
	out := map[string]string{}
	if data == nil {
		return out, true
	}
	name, _, groups, ok := gate.PythonDistribution(data)
	if !ok {
		return nil, false
	}
	if name != "" {
		out["name"] = strconv.Quote(name)
	}
	for g, eps := range groups {
		for n, target := range eps {
			out[g+" "+n] = target
		}
	}
	return out, true
}

// tomlLine is the first line of data that names key's last word (an
// entry point's name, "name"), or 0.
func tomlLine(data []byte, key string) int {
	word := key[strings.LastIndex(key, " ")+1:]
	for i, line := range strings.Split(string(data), "\n") {
		if l := strings.TrimSpace(line); strings.HasPrefix(l, word) || strings.HasPrefix(l, `"`+word+`"`) {
			return i + 1
		}
	}
	return 0
}

// Shadows says a package's __init__.py takes the import name of the
// module.py beside its directory: Python finds the package first.
func (*pythonLang) Shadows(rel string) []string {
	if path.Base(rel) != "__init__.py" || path.Dir(rel) == "." {
		return nil
	}
	return []string{path.Dir(rel) + ".py"}
}

// pyRunnerRe asks whether the code runs under a test runner: pytest or
// unittest among the loaded modules, PYTEST_CURRENT_TEST, sys.argv[0]'s
// name.
var pyRunnerRe = regexp.MustCompile(`["'](?:pytest|_pytest|unittest)["']\s+(?:not\s+)?in\s+sys\.modules|sys\.modules(?:\.get)?\s*[\[(]\s*["'](?:pytest|_pytest|unittest)|PYTEST_CURRENT_TEST|PYTEST_VERSION|sys\.argv\[0\][^\n]*(?:pytest|unittest)`)

func (*pythonLang) RunnerTells(f diffparse.File) []string {
	if f.Language != "python" || isPyTestCode(f.Path) {
		return nil
	}
	return lang.AddedLinesMatching(f, pyRunnerRe)
}
