package gate

import (
	"context"
	"encoding/json"
	"fmt"
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// goCover is one watched file of the Go harness (GoConfig.Watch): compiled
// from the copy `go tool cover -mode=set` makes of it, whose block
// counters the worker reads after each call and clears.
type goCover struct {
	File   string   // the file as the watch names it
	Expr   string   // the counters' variable as the harness names it: t0.PremiseCover0
	Ranges [][2]int // the watched lines
	pkg    string
}

// instrument writes, for each watched file of a package the harness
// imports, its instrumented copy beside the harness's binary, and returns
// the build's -overlay file that compiles the copies in the files' place
// (the private tree itself is left as it is: the rest of the run reads
// it). A file `go tool cover` cannot instrument is left unwatched: its
// calls report no lines, which says nothing ran, never that it did.
func (h *harness) instrument(ctx context.Context) (overlay string, covers []goCover) {
	alias := map[string]string{}
	for _, im := range h.imports {
		alias[im.Path] = im.Alias
	}
	dir := filepath.Dir(h.bin)
	replace := map[string]string{}
	for _, file := range h.cfg.Watch.files() {
		if !strings.HasSuffix(file, ".go") || strings.HasSuffix(file, "_test.go") {
			continue
		}
		rel, err := filepath.Rel(h.root, file)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		pkg := h.modPath
		if d := filepath.ToSlash(filepath.Dir(rel)); d != "." {
			pkg += "/" + d
		}
		a, ok := alias[pkg]
		if !ok {
			continue // no target of the harness is in its package
		}
		if in, err := build.Default.MatchFile(filepath.Dir(file), filepath.Base(file)); err != nil || !in {
			// A file its build constraints leave out (//go:build
			// gofuzz, a _windows.go) is not in the package the harness
			// builds: its counters would name nothing.
			continue
		}
		name := fmt.Sprintf("PremiseCover%d", len(covers))
		out := filepath.Join(dir, fmt.Sprintf("cover%d.go", len(covers)))
		cmd := exec.CommandContext(ctx, h.goPath, "tool", "cover", "-mode=set", "-var="+name, "-o", out, file)
		cmd.Dir = h.root
		done, err := h.boxGo(ctx, cmd)
		if err != nil {
			continue
		}
		err = cmd.Run()
		done()
		if err != nil {
			continue
		}
		replace[file] = out
		c := goCover{File: file, Expr: a + "." + name, pkg: pkg}
		for _, r := range h.cfg.Watch[file] {
			c.Ranges = append(c.Ranges, [2]int{r.From, r.To})
		}
		covers = append(covers, c)
	}
	if len(replace) == 0 {
		return "", nil
	}
	b, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		return "", nil
	}
	overlay = filepath.Join(dir, "overlay.json")
	if os.WriteFile(overlay, b, 0o600) != nil {
		return "", nil
	}
	return overlay, covers
}
