package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/internal/git"
	"github.com/premise-dev/premise/internal/settings"
	"github.com/premise-dev/premise/propose"
	"github.com/premise-dev/premise/validate"
)

// evidenceKey names the evidence of this run by everything it depends on
// (evidence/cache.go): a second run of the same commits with the same
// premise, register, settings, model, interpreters and installed packages
// reads the first run's report. "" (no cache) where premise cannot name
// all of it, or where the box is not sealed read-only: a subject that can
// write outside its copy could write the cache the next run believes.
func (p *run) evidenceKey(ctx context.Context, ev settings.Evidence) string {
	if p.cfg.CacheDir == "" || p.res.MergeBase == "" || p.res.Head == "" || !gate.Sealed() {
		return ""
	}
	self, err := os.Executable()
	if err != nil {
		return ""
	}
	out, err := git.At(p.repoDir()).Run(ctx, "rev-parse", p.res.MergeBase+"^{tree}", p.res.Head+"^{tree}")
	trees := strings.Fields(string(out))
	if err != nil || len(trees) != 2 {
		return ""
	}
	tools, ok := p.tools(ctx)
	if !ok {
		return ""
	}
	var decided []validate.Item
	for _, it := range p.reg.Items {
		if !validate.IsChange(it.ID) && !it.Stale && it.Status != validate.StatusRejected {
			decided = append(decided, it)
		}
	}
	key := map[string]any{
		"premise":  fileStamp(self),
		"trees":    trees,
		"diff":     p.res,
		"register": decided,
		"evidence": ev,
		"gate":     []any{p.cfg.Python, p.cfg.Timeout, p.reruns(), p.budget(), p.cfg.Seed},
		"model":    modelName(p.cfg.Proposer),
		"tools":    tools,
		"env":      toolEnv(os.Environ()),
	}
	spec, err := json.Marshal(key)
	if err != nil {
		return ""
	}
	h := sha256.New()
	h.Write(spec)
	for _, f := range p.res.Files {
		// The diff's JSON leaves the sources out; the trees hold them,
		// and a diff read with other options holds other symbols.
		fmt.Fprintf(h, "\x00%s\x00%x\x00%x", f.Path, sha256.Sum256(f.BaseSrc), sha256.Sum256(f.HeadSrc))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// fileStamp names a file by its path, size and time of change: a premise
// built again, an interpreter upgraded, a package installed into a
// directory are other stamps.
func fileStamp(path string) string {
	fi, err := os.Stat(path)
	if err != nil {
		return path + " missing"
	}
	return fmt.Sprintf("%s %d %d", path, fi.Size(), fi.ModTime().UnixNano())
}

// tools stamps the interpreters and toolchains the rows run under, and
// where their installed packages live: Python's import path (each
// directory's time changes when a package is added or removed there), the
// repository's node_modules; Go's modules are named by go.sum, in the
// tree.
// It is false where the import path cannot be read: nothing then says a
// package was installed since.
func (p *run) tools(ctx context.Context) ([]string, bool) {
	python := p.cfg.Python
	if python == "" {
		python = "python3"
	}
	if p.touches(".py") {
		// the interpreter behind a version manager's shim, whose file
		// says nothing of the version it runs
		if real, err := gate.ResolvePython(python); err == nil {
			python = real
		}
	}
	var out []string
	for _, name := range []string{python, "node", "go"} {
		path, err := exec.LookPath(name)
		if err != nil {
			out = append(out, name+" missing")
			continue
		}
		if real, err := filepath.EvalSymlinks(path); err == nil {
			path = real
		}
		out = append(out, fileStamp(path))
	}
	if p.touches(".py") {
		// Isolated (-I) and away from the work tree, which is the head's:
		// the workers read no PYTHONPATH and no user site either.
		cmd := exec.CommandContext(ctx, python, "-I", "-c", "import sys; print('\\n'.join(sys.path))")
		cmd.Dir = os.TempDir()
		b, err := cmd.Output()
		if err != nil {
			return nil, false
		}
		for _, d := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if d != "" {
				out = append(out, fileStamp(d))
			}
		}
	}
	for _, rel := range []string{"node_modules", "node_modules/.package-lock.json"} {
		out = append(out, fileStamp(filepath.Join(p.repoDir(), rel)))
	}
	return out, true
}

// touches says the diff changes a file ending in ext.
func (p *run) touches(ext string) bool {
	for _, f := range p.res.Files {
		if strings.HasSuffix(f.Path, ext) {
			return true
		}
	}
	return false
}

// toolEnv are the variables the toolchains and the workers read, sorted.
func toolEnv(env []string) []string {
	var out []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(name, "GO"), strings.HasPrefix(name, "CGO_"), strings.HasPrefix(name, "PYTHON"),
			strings.HasPrefix(name, "NODE_"), strings.HasPrefix(name, "LC_"),
			slices.Contains([]string{"PATH", "LANG", "LANGUAGE", "TZ", "LD_LIBRARY_PATH", "VIRTUAL_ENV"}, name):
			out = append(out, kv)
		}
	}
	slices.Sort(out)
	return out
}

// modelName names the model that proposes inputs, "" for none.
func modelName(pr propose.Proposer) string {
	o, ok := pr.(*propose.OpenAI)
	if !ok {
		return ""
	}
	return strings.TrimRight(o.Config.Endpoint, "/") + " " + o.Config.Model + " " + o.Prompt.SHA256
}
