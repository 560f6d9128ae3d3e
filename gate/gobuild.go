package gate

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
)

// The Go harness is built from the head's own tree, and a build is the
// head acting (issue 26, the box): cgo runs the C compiler on a preamble
// the head wrote, which reads any file it names (#include, .incbin) and
// quotes it in its errors; go.mod's go and toolchain lines pick the
// toolchain, which the go command would fetch from the network and run; a
// go.work above the copy, or the user's GOFLAGS and GOPROXY, would steer
// what is built. So premise's go commands on a tree it judges run as a
// worker does, in the sealed box (sandbox.go): no network, the
// repository's git directories empty, every file but the copy, the
// harness's own directory and the build cache read-only, an allow-listed
// environment with no secret in it. The go command is pinned to itself
// (GOTOOLCHAIN=local), fetches nothing (GOPROXY=off: a module the base
// needs must be in the module cache, `go mod download`), and reads no
// go.work but one inside the copy.

// goBuildVars are the go command's settings premise takes from the user's
// own (`go env`, which reads the user's go env file too): where its caches
// are, and how the user builds C and Go.
var goBuildVars = []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOFLAGS", "CGO_ENABLED", "CC", "CXX", "CGO_CFLAGS", "CGO_CPPFLAGS", "CGO_CXXFLAGS", "CGO_LDFLAGS", "GOEXPERIMENT", "GOAMD64", "GOARM64"}

// goPinned are the settings premise imposes on every go command it runs
// over a tree it judges, whatever the user's environment says.
var goPinned = []string{
	"GOTOOLCHAIN=local", // go.mod's go and toolchain lines switch nothing
	"GOPROXY=off",       // no module is fetched
	"GOENV=off",         // no go env file is read in the box
	"GOTELEMETRY=off",
	"LC_ALL=C", // compilers quote in ASCII quotes, which buildErrors cuts
}

var goEnvs sync.Map // go command and environment -> map[string]string

// GoRoot is where the go command on PATH keeps the standard library's
// source, asked once; "" without a go command. The evidence reads the
// standard packages' types there (a url.URL a parameter embeds).
var GoRoot = sync.OnceValue(func() string {
	goPath, err := exec.LookPath("go")
	if err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, goPath, "env", "GOROOT")
	cmd.Dir = "/"
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOWORK=off", "GOFLAGS=")
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
})

// goEnv is the go command's own view of the user's settings named in
// goBuildVars, asked once per go command and environment, outside any
// module (so no go.mod of the tree is read, nor a toolchain switched to).
func goEnv(ctx context.Context, goPath string, env []string) (map[string]string, error) {
	if env == nil {
		env = os.Environ()
	}
	key := goPath + "\x00" + strings.Join(env, "\x00")
	if v, ok := goEnvs.Load(key); ok {
		return v.(map[string]string), nil
	}
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, goPath, append([]string{"env", "-json"}, goBuildVars...)...)
	cmd.Dir = "/"
	cmd.Env = append(append([]string(nil), env...), "GOTOOLCHAIN=local", "GOWORK=off", "GOFLAGS=")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go env: %w", err)
	}
	vars := map[string]string{}
	if err := json.Unmarshal(out, &vars); err != nil {
		return nil, fmt.Errorf("go env: %w", err)
	}
	// GOFLAGS was cleared above so that a bad one cannot fail go env;
	// the user's own is the environment's or the go env file's.
	vars["GOFLAGS"] = lookupEnv(env, "GOFLAGS")
	if vars["GOFLAGS"] == "" {
		vars["GOFLAGS"] = goEnvFileFlags(ctx, goPath, env)
	}
	if vars["GOCACHE"] == "" || vars["GOCACHE"] == "off" {
		return nil, fmt.Errorf("go env: no build cache (GOCACHE=%q)", vars["GOCACHE"])
	}
	goEnvs.Store(key, vars)
	return vars, nil
}

// goEnvFileFlags is GOFLAGS as the go command reads it with none in the
// environment (the user's go env file, GOROOT's go.env).
func goEnvFileFlags(ctx context.Context, goPath string, env []string) string {
	var keep []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "GOFLAGS=") {
			keep = append(keep, kv)
		}
	}
	cmd := exec.CommandContext(ctx, goPath, "env", "GOFLAGS")
	cmd.Dir = "/"
	cmd.Env = append(keep, "GOTOOLCHAIN=local", "GOWORK=off")
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func lookupEnv(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == name {
			v = val // the last one wins, as exec.Cmd's does
		}
	}
	return v
}

// boxGo prepares cmd, a go command over the harness's tree, to run in the
// sealed box, and returns a cleanup to call once it has run. Besides the
// copy the command may write the harness's own directory (the binary, the
// instrumented files) and the build cache.
func (h *harness) boxGo(ctx context.Context, cmd *exec.Cmd) (func(), error) {
	return h.box(ctx, cmd, true)
}

// boxBuilt prepares cmd, a program the go command built from the tree (a
// test binary), to run in the same box, with the go command's settings
// but for the build cache: the program is the tree's code acting, and the
// cache is the user's and what premise's next builds link from unchecked,
// so it may write the copy and the harness's directory only. A test that
// runs the go command itself builds in a cache of its own, thrown away.
func (h *harness) boxBuilt(ctx context.Context, cmd *exec.Cmd) (func(), error) {
	return h.box(ctx, cmd, false)
}

func (h *harness) box(ctx context.Context, cmd *exec.Cmd, writesCache bool) (func(), error) {
	vars, err := goEnv(ctx, h.goPath, h.cfg.Env)
	if err != nil {
		return nil, err
	}
	scratch, err := os.MkdirTemp("", "")
	if err != nil {
		return nil, err
	}
	done := func() { os.RemoveAll(scratch) }
	// The copy is premise's own, which the workers write too (a build
	// that updates go.sum under the user's -mod=mod).
	writable := []string{h.root, filepath.Dir(h.bin)}
	cache := vars["GOCACHE"]
	if writesCache {
		writable = append(writable, cache)
	} else {
		cache = filepath.Join(scratch, "gocache")
	}
	if err := os.MkdirAll(cache, 0o777); err != nil {
		done()
		return nil, err
	}
	env := h.cfg.Env
	if env == nil {
		env = os.Environ()
	}
	if err := sandbox(cmd, env, scratch, 0, writable...); err != nil {
		done()
		return nil, err
	}
	for _, k := range goBuildVars {
		if v := vars[k]; v != "" {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	cmd.Env = append(cmd.Env, goPinned...)
	cmd.Env = append(cmd.Env, "GOWORK="+h.goWork(), "GOCACHE="+cache)
	if h.sumFromCache {
		// go.sum lacks lines of modules the module cache holds: -mod=mod
		// writes them into premise's copy from the cache's own hashes
		// (GOPROXY stays off: nothing is fetched, and a module the cache
		// lacks still fails), with no checksum database to ask in the box.
		cmd.Env = append(cmd.Env, "GOFLAGS="+strings.TrimSpace(vars["GOFLAGS"]+" -mod=mod"), "GOSUMDB=off")
	}
	return done, nil
}

// goWork is the go.work the build reads: the first one from the module's
// root up to the top of premise's copy, or none ("off"). One above the
// copy (in the temporary directory, where anyone may write) is not the
// tree's.
func (h *harness) goWork() string {
	top := h.top()
	for d := h.root; ; d = filepath.Dir(d) {
		if st, err := os.Stat(filepath.Join(d, "go.work")); err == nil && st.Mode().IsRegular() && Inside(filepath.Join(d, "go.work"), top) == nil {
			return filepath.Join(d, "go.work")
		}
		if d == top || filepath.Dir(d) == d || !strings.HasPrefix(d, top) {
			return "off"
		}
	}
}

// top is the top of premise's copy holding the module: the tree Checkout
// wrote (in the temporary directory it made), or the module's root.
func (h *harness) top() string {
	tmp := sources.topOf(h.root)
	if tmp == "" {
		return h.root
	}
	rel, err := filepath.Rel(tmp, h.root)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return h.root
	}
	first, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
	return filepath.Join(tmp, first)
}

// located is a compiler message about a place in a file:
// "FILE:LINE[:COL]: message", or gcc's "In file included from FILE:LINE".
var located = regexp.MustCompile(`^(?:In file included from |\s*from )?([^\s:][^:]*):(\d+)(?::\d+)?[:,]\s*(.*)$`)

// buildErrors keeps what a harness build failure needs to be understood
// (each error's file, line and message, and the go command's own lines:
// "go: ...", and the "go mod tidy" it advises) and no text of a file outside premise's copy of the tree (root):
// a message about a file that resolves outside it (a cgo #include of a
// secret, a symlink to one) is left out whole, and so are the source
// lines compilers echo and the fragments they quote. dir is the directory
// the build ran in, which relative paths are relative to.
func buildErrors(out, dir, root string) string {
	var keep []string
	hidden := 0
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if m := located.FindStringSubmatch(l); m != nil {
			if !fileInside(m[1], dir, root) {
				hidden++
				continue
			}
			keep = append(keep, quoted.ReplaceAllString(l, "…"))
			continue
		}
		if strings.HasPrefix(l, "go: ") || strings.HasPrefix(l, "go mod ") || strings.HasPrefix(l, "go get ") || strings.HasPrefix(l, "note: ") {
			keep = append(keep, quoted.ReplaceAllString(l, "…"))
			continue
		}
		hidden++ // an echoed source line, a caret, a tool's own line
	}
	if hidden > 0 {
		keep = append(keep, fmt.Sprintf("(%d more lines not shown: they name a file outside premise's copy or quote source)", hidden))
	}
	return strings.Join(keep, "; ")
}

// fileInside reports whether the file a compiler message names, relative
// to dir, exists inside root once its symbolic links are followed.
func fileInside(name, dir, root string) bool {
	p := name
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	if _, err := os.Lstat(p); err != nil {
		return false
	}
	return Inside(p, root) == nil
}
