package diffparse

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/premise-dev/premise/internal/git"
	"github.com/premise-dev/premise/internal/settings"
)

// SettingsFile is the repository file whose exclude list Load reads.
const SettingsFile = settings.File

// vendorDirs are directories of code a patch's author did not write
// (issue 2): symbols are never proposed on them.
var vendorDirs = []string{"vendor", "third_party", "node_modules"}

// excluder decides which files get no symbols, by path. Go's generated
// header is checked on the source by the front end.
type excluder struct {
	cat   *git.Catter
	rev   string
	globs []string
	attrs map[string][]attrRule // directory -> rules of its .gitattributes
}

// attrRule is one line of a .gitattributes file, for the linguist
// attributes only.
type attrRule struct {
	pattern string
	attr    string // linguist-generated or linguist-vendored
	set     bool
}

// newExcluder reads the exclude globs of .premise.yaml at rev. Only the
// `exclude` key belongs to this stage; other keys are other stages' and are
// checked by them.
func newExcluder(cat *git.Catter, rev string, extra []string) (*excluder, error) {
	ex := &excluder{cat: cat, rev: rev, attrs: map[string][]attrRule{}}
	data, err := cat.Blob(rev, SettingsFile)
	if err != nil && !errors.Is(err, git.ErrNotFound) {
		return nil, err
	}
	if err == nil {
		globs, err := ParseExclude(data)
		if err != nil {
			return nil, fmt.Errorf("%s at %.12s: %w", SettingsFile, rev, err)
		}
		ex.globs = globs
	}
	for _, g := range extra {
		if _, err := path.Match(strings.ReplaceAll(g, "**", "*"), ""); err != nil {
			return nil, fmt.Errorf("exclude glob %q: %w", g, err)
		}
	}
	ex.globs = append(ex.globs, extra...)
	return ex, nil
}

// ParseExclude returns the `exclude` globs of a .premise.yaml file, read
// by the one settings reader (internal/settings): unknown keys and bad
// globs are errors.
func ParseExclude(data []byte) ([]string, error) {
	s, err := settings.Parse(SettingsFile, data)
	if err != nil {
		return nil, err
	}
	return s.Exclude, nil
}

// pathReason says why a path gets no symbols, or "".
func (ex *excluder) pathReason(p string) string {
	segs := strings.Split(path.Dir(p), "/")
	for i, seg := range segs {
		for _, v := range vendorDirs {
			// A vendor directory is one the merge-base has: a patch
			// that creates vendor/ to put its own code in is judged
			// (issue 26, item 1).
			if seg == v && ex.hasDir(strings.Join(segs[:i+1], "/")) {
				return "vendored: " + v + "/"
			}
		}
	}
	for _, g := range ex.globs {
		if matchGlob(g, p) {
			return "excluded by " + SettingsFile + ": " + g
		}
	}
	if a := ex.linguist(p); a != "" {
		return strings.TrimPrefix(a, "linguist-") + ": .gitattributes " + a
	}
	return ""
}

// linguist returns the linguist attribute set on p by the .gitattributes
// files of rev (the root's and those of p's directories), the deeper file
// and the later line winning as in git.
func (ex *excluder) linguist(p string) string {
	dirs := []string{"."}
	if d := path.Dir(p); d != "." {
		parts := strings.Split(d, "/")
		for i := range parts {
			dirs = append(dirs, strings.Join(parts[:i+1], "/"))
		}
	}
	ex.readRules(dirs)
	state := map[string]bool{}
	for _, d := range dirs {
		rel := p
		if d != "." {
			rel = strings.TrimPrefix(p, d+"/")
		}
		for _, r := range ex.attrs[d] {
			if attrMatch(r.pattern, rel) {
				state[r.attr] = r.set
			}
		}
	}
	for _, a := range []string{"linguist-generated", "linguist-vendored"} {
		if state[a] {
			return a
		}
	}
	return ""
}

// readRules reads and caches the .gitattributes of those of dirs not read
// yet.
func (ex *excluder) readRules(dirs []string) {
	for _, d := range dirs {
		if _, ok := ex.attrs[d]; ok {
			continue
		}
		name := ".gitattributes"
		if d != "." {
			name = d + "/.gitattributes"
		}
		var rules []attrRule
		if data, err := ex.cat.Blob(ex.rev, name); err == nil {
			rules = parseAttributes(data)
		}
		ex.attrs[d] = rules
	}
}

// parseAttributes keeps the linguist-generated and linguist-vendored
// settings of a .gitattributes file.
func parseAttributes(data []byte) []attrRule {
	var out []attrRule
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Fields(strings.TrimSpace(l))
		if len(f) < 2 || strings.HasPrefix(f[0], "#") {
			continue
		}
		pat := unquote(f[0])
		for _, a := range f[1:] {
			name, val, hasVal := strings.Cut(a, "=")
			set := true
			switch {
			case strings.HasPrefix(name, "-") || strings.HasPrefix(name, "!"):
				name, set = name[1:], false
			case hasVal:
				set = val == "true" || val == "1"
			}
			if name == "linguist-generated" || name == "linguist-vendored" {
				out = append(out, attrRule{pattern: pat, attr: name, set: set})
			}
		}
	}
	return out
}

// attrMatch matches a .gitattributes pattern against a path relative to the
// attributes file's directory: a pattern without a slash matches the base
// name at any depth; otherwise it is anchored.
func attrMatch(pat, rel string) bool {
	pat = strings.TrimPrefix(pat, "/")
	if !strings.Contains(pat, "/") {
		return matchSegs([]string{pat}, []string{path.Base(rel)})
	}
	return matchGlob(pat, rel)
}

// matchGlob matches a slash-separated glob where `**` stands for any number
// of directories. A pattern without a slash matches the base name or any
// leading directory; a pattern ending in / matches a directory prefix.
func matchGlob(pat, p string) bool {
	if strings.HasSuffix(pat, "/") {
		pat += "**"
	}
	if !strings.Contains(pat, "/") {
		for _, seg := range strings.Split(p, "/") {
			if ok, _ := path.Match(pat, seg); ok {
				return true
			}
		}
		return false
	}
	return matchSegs(strings.Split(strings.TrimPrefix(pat, "/"), "/"), strings.Split(p, "/"))
}

func matchSegs(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			if len(pat) == 1 {
				return true
			}
			for i := 0; i <= len(segs); i++ {
				if matchSegs(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], segs[0]); !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// hasDir reports whether dir is a directory at the excluder's revision.
func (ex *excluder) hasDir(dir string) bool {
	if ex.cat == nil {
		return true
	}
	typ, _, err := ex.cat.Object(ex.rev + ":" + dir)
	return err == nil && typ == "tree"
}
