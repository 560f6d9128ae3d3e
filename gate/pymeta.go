package gate

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// A project whose code asks for its own installed metadata (its version
// through importlib.metadata at import, its plug-ins through entry points:
// Markdown's extensions by name) fails in a source tree that was never
// installed, on both sides alike, and its functions and tests then tell
// nothing. premise's copy of the tree is given the metadata an installed
// copy would have, as pip writes it: NAME-VERSION.dist-info at the top,
// which the tree's directory on sys.path makes importlib.metadata find.

// pyProject is what premise reads of a pyproject.toml: the distribution's
// name, version and entry points (PEP 621's [project], or Poetry's).
type pyProject struct {
	Project struct {
		Name        string                       `toml:"name"`
		Version     string                       `toml:"version"`
		EntryPoints map[string]map[string]string `toml:"entry-points"`
		Scripts     map[string]string            `toml:"scripts"`
		GUIScripts  map[string]string            `toml:"gui-scripts"`
	} `toml:"project"`
	Tool struct {
		Poetry struct {
			Name    string                       `toml:"name"`
			Version string                       `toml:"version"`
			Plugins map[string]map[string]string `toml:"plugins"`
		} `toml:"poetry"`
	} `toml:"tool"`
}

// PythonDistribution is what premise installs of a pyproject.toml into
// its copies of a tree: the distribution's name and version and its entry
// points by group (PEP 621's [project], else Poetry's). ok is false for a
// file that does not parse.
func PythonDistribution(data []byte) (name, version string, groups map[string]map[string]string, ok bool) {
	var p pyProject
	if _, err := toml.Decode(string(data), &p); err != nil {
		return "", "", nil, false
	}
	name, version = p.Project.Name, p.Project.Version
	groups = map[string]map[string]string{}
	for g, eps := range p.Project.EntryPoints {
		groups[g] = eps
	}
	if len(p.Project.Scripts) > 0 {
		groups["console_scripts"] = p.Project.Scripts
	}
	if len(p.Project.GUIScripts) > 0 {
		groups["gui_scripts"] = p.Project.GUIScripts
	}
	if name == "" {
		name, version = p.Tool.Poetry.Name, p.Tool.Poetry.Version
		for g, eps := range p.Tool.Poetry.Plugins {
			groups[g] = eps
		}
	}
	return name, version, groups, true
}

// distName is a distribution's name as a .dist-info directory spells it
// (PEP 427: runs of -_. as one underscore).
var distName = regexp.MustCompile(`[-_.]+`)

// installPythonMeta writes into dir, premise's own copy of a tree, the
// .dist-info of the distribution the pyproject.toml at the top of from
// declares (the merge-base's, as every setting premise reads), unless the
// copy holds it already. Nothing is written when from declares none.
func installPythonMeta(dir, from string) error {
	data, err := os.ReadFile(filepath.Join(from, "pyproject.toml"))
	if err != nil {
		return nil // no pyproject.toml: nothing declared
	}
	name, version, groups, ok := PythonDistribution(data)
	if !ok {
		// Not premise's file to judge: a tree whose pyproject.toml this
		// reader refuses runs as it did before, uninstalled.
		return nil
	}
	if name == "" || strings.ContainsAny(name, `/\`) {
		return nil
	}
	if version == "" || strings.ContainsAny(version, `/\`) {
		version = "0" // a dynamic version, which only a build computes
	}
	plain := func(s string) bool { return s != "" && !strings.ContainsAny(s, "\r\n[]=") }
	if !plain(name) || !plain(version) {
		return nil
	}
	info := filepath.Join(dir, distName.ReplaceAllString(name, "_")+"-"+strings.ReplaceAll(version, "-", "_")+".dist-info")
	if _, err := os.Lstat(info); err == nil {
		// The copy holds it already, or something of that name the tree
		// put there (a link the head added): nothing is written through
		// it.
		return nil
	}
	if err := os.Mkdir(info, 0o755); err != nil {
		return err
	}
	meta := fmt.Sprintf("Metadata-Version: 2.1\nName: %s\nVersion: %s\n", name, version)
	if err := os.WriteFile(filepath.Join(info, "METADATA"), []byte(meta), 0o644); err != nil {
		return err
	}
	// One line each: a name or value holding a line break or a bracket
	// would write entries of its own (plain).
	var eps strings.Builder
	for _, g := range slices.Sorted(maps.Keys(groups)) {
		if !plain(g) {
			continue
		}
		fmt.Fprintf(&eps, "[%s]\n", g)
		for _, k := range slices.Sorted(maps.Keys(groups[g])) {
			if v := groups[g][k]; plain(k) && !strings.ContainsAny(v, "\r\n") {
				fmt.Fprintf(&eps, "%s = %s\n", k, v)
			}
		}
		eps.WriteString("\n")
	}
	return os.WriteFile(filepath.Join(info, "entry_points.txt"), []byte(eps.String()), 0o644)
}
