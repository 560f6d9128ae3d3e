package pipeline

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImportRule holds the one-way import graph of ARCHITECTURE.md:
// internal/ holds leaves only (it imports no stage), nothing imports the
// CLI, diffparse and prompts import no stage, and the driver reaches the
// must-reject stage through its package, never through the CLI's text.
func TestImportRule(t *testing.T) {
	const mod = "github.com/premise-dev/premise/"
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "../...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	stages := []string{"diffparse", "prompts", "propose", "evidence", "validate", "gate", "gate/reject",
		"gate/junit", "gate/freeze", "gate/ledger", "gate/holdout", "gate/fixtures", "pipeline", "batch", "comment", "cmd/premise"}
	isStage := func(p string) bool {
		for _, s := range stages {
			if p == mod+s {
				return true
			}
		}
		return false
	}
	// What each stage may import of premise's own packages, besides
	// internal/ leaves: the pipeline's order.
	allowed := map[string][]string{
		"diffparse":   {},
		"prompts":     {},
		"validate":    {"diffparse"},
		"propose":     {"diffparse", "prompts", "validate"},
		"gate":        {"diffparse", "validate"},
		"gate/reject": {"gate", "validate"},
		// The layers around the gate (issue 16) read the user's own suite
		// through junit and nothing of the row runner.
		"gate/junit":   {},
		"gate/freeze":  {"gate/junit"},
		"gate/ledger":  {"gate/junit"},
		"gate/holdout": {"gate/junit", "gate/ledger"},
		// Curated fixtures run like rows, through the gate's adapters.
		"gate/fixtures": {"gate", "validate"},
		"evidence":      {"diffparse", "gate", "validate"},
		"pipeline":      {"diffparse", "evidence", "gate", "gate/reject", "propose", "validate"},
		// batch runs the driver per pull request: it sits above pipeline,
		// and nothing but the CLI sits above it.
		"batch": {"gate", "pipeline", "propose", "validate"},
		// comment posts a draft's text: it needs no stage.
		"comment": {},
	}
	// The languages of the evidence engine, each in its own package.
	languagePkgs := map[string]bool{"evidence/python": true, "evidence/golang": true, "evidence/javascript": true}
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || !strings.HasPrefix(f[0], mod) {
			continue
		}
		imports[strings.TrimPrefix(f[0], mod)] = f[1:]
	}
	if len(imports) < 10 {
		t.Fatalf("go list saw %d packages; want the whole module", len(imports))
	}
	for pkg, imps := range imports {
		for _, imp := range imps {
			if imp == "go/parser" && pkg != "diffparse" && pkg != "evidence/gosource" {
				// Parse once: a changed Go file through diffparse, a
				// package directory through evidence/gosource.
				t.Errorf("%s imports go/parser: Go is read by diffparse and evidence/gosource alone", pkg)
			}
			if !strings.HasPrefix(imp, mod) {
				continue
			}
			dep := strings.TrimPrefix(imp, mod)
			switch {
			case dep == "cmd/premise":
				t.Errorf("%s imports the CLI", pkg)
			case pkg == "evidence/lang" && dep != "diffparse" && dep != "validate" && dep != "gate":
				t.Errorf("the language seam imports %s: it sits on the gate, below every other stage", dep)
			case languagePkgs[pkg] && (dep == "evidence" || languagePkgs[dep] || dep == "evidence/languages"):
				t.Errorf("the language %s imports %s: a language imports the seam and its own reader, never the engine or another language", pkg, dep)
			case pkg == "evidence" && (languagePkgs[dep] || dep == "evidence/languages"):
				t.Errorf("the engine imports %s: it reaches a language only through the seam's registry", dep)
			case dep == "batch" && pkg != "cmd/premise":
				t.Errorf("%s imports batch: only the CLI sits above it", pkg)
			case strings.HasPrefix(pkg, "internal/") && isStage(imp):
				t.Errorf("%s imports the stage %s: internal/ holds leaves only", pkg, dep)
			case allowed[pkg] != nil && isStage(imp) && !contains(allowed[pkg], dep):
				t.Errorf("%s imports %s, against the pipeline's order (allowed: %v)", pkg, dep, allowed[pkg])
			}
		}
	}
	if !contains(imports["pipeline"], mod+"gate/reject") {
		t.Errorf("the driver does not import the must-reject stage; it must call its entry point")
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
