package python

import (
	_ "embed"
	"path"
	"strings"

	"github.com/premise-dev/premise/diffparse"
)

// stdlibNames are the standard library's top-level module names, as
// Python 3.11's sys.stdlib_module_names gives them.
//
//go:generate sh -c "python3 -I -c 'import sys; print(chr(10).join(sorted(sys.stdlib_module_names)))' > stdlib_names.txt"
//go:embed stdlib_names.txt
var stdlibNames string

var stdlib = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(stdlibNames) {
		m[n] = true
	}
	return m
}()

// shadowed is the standard library module a file the patch adds (or
// moves) at the top of the tree (or of its src/ directory) takes the name of, "" for
// none. The worker puts the tree on the import path, so every import of
// that module, the standard library's own included, finds the head's
// file under premise, and the real module where the package is
// installed: code that runs only when premise judges it.
func shadowed(f diffparse.File) string {
	if f.Status != "added" && f.Status != "renamed" && f.Status != "copied" {
		return ""
	}
	p := strings.TrimPrefix(f.Path, "src/")
	name := strings.TrimSuffix(p, ".py")
	if dir, ok := strings.CutSuffix(p, "/__init__.py"); ok {
		name = dir
	}
	if strings.Contains(name, "/") || path.Ext(p) != ".py" || !stdlib[name] {
		return ""
	}
	return name
}
