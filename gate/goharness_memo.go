package gate

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// The fast path of harness.build (BenchmarkGoAdapterAgain): one run of
// premise opens many Go adapters for the same targets on the same tree
// (the rows, the guide's rounds, the reruns of timeouts and noise, the
// shrinking), and each built the same harness again, a compile and a link
// of a second or more (18 builds in one run of a five-function patch, a
// third of them the same). A harness built in this process is kept, by
// everything its build reads from premise (the tree's directory, the
// targets, the exports, the watched lines, the build's flags), and an
// adapter that would build the same one links the kept binary instead.
// What the tree's files say is not in the key: a harness is built from
// the private copy as it was at the first build, which is what every
// later adapter of the run is meant to run (a subject that rewrites its
// own copy while it runs does not change the binary its later rows run).

// maxKeptHarnesses bounds the binaries kept.
const maxKeptHarnesses = 64

// keptHarness is a kept binary and the targets it was built for.
type keptHarness struct {
	key, path string
	funcs     map[string]memoFunc
}

// memoFunc is a target as its harness links it.
type memoFunc struct {
	Target, Expr, Pkg, Alias string
	Var                      bool
}

var kept struct {
	sync.Mutex
	dir  string        // where the kept binaries are, made on first use
	bins []keptHarness // oldest first
}

// memoKey is what h's build reads from premise apart from its targets,
// hashed ("" when it cannot be said), and its targets. A harness built
// for more targets of the same packages serves fewer: the program is the
// same but for the names its table holds (the same packages imported,
// so the same init).
func (h *harness) memoKey() (string, map[string]memoFunc) {
	funcs := map[string]memoFunc{}
	for _, f := range h.funcs {
		funcs[f.Target] = memoFunc{f.Target, f.Expr, f.pkg, f.alias, f.Var}
	}
	b, err := json.Marshal(struct {
		Root, ModPath, Go string
		Race, HTTP, Boxed bool
		FD, MaxFrame      int
		Memory            int64
		Imports           []goImport
		Watch             Watch
		ModulesFrom       string
	}{h.root, h.modPath, h.goPath, h.cfg.Race, h.cfg.HTTP, namespacesAllowed(), h.fd, h.maxFrame, h.memory,
		h.imports, h.cfg.Watch, h.cfg.ModulesFrom})
	if err != nil {
		return "", nil
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), funcs
}

// linkKept puts at bin a kept harness of key built for every one of
// funcs, and says whether it did.
func linkKept(key string, funcs map[string]memoFunc, bin string) bool {
	if key == "" {
		return false
	}
	kept.Lock()
	var src string
	for i := len(kept.bins) - 1; i >= 0 && src == ""; i-- {
		if k := kept.bins[i]; k.key == key && covers(k.funcs, funcs) {
			src = k.path
		}
	}
	kept.Unlock()
	return src != "" && os.Link(src, bin) == nil
}

// covers says have links every target of want as want names it.
func covers(have, want map[string]memoFunc) bool {
	for t, f := range want {
		if g, ok := have[t]; !ok || g != f {
			return false
		}
	}
	return true
}

// keep keeps the harness just built at bin under key.
func keep(key string, funcs map[string]memoFunc, bin string) {
	if key == "" {
		return
	}
	kept.Lock()
	defer kept.Unlock()
	if kept.dir == "" {
		// A name like go's own build directories: nothing of premise's.
		d, err := os.MkdirTemp("", "go-build")
		if err != nil {
			return
		}
		kept.dir = d
	}
	dst := filepath.Join(kept.dir, strconv.Itoa(keptSeq))
	keptSeq++
	if os.Link(bin, dst) != nil {
		return
	}
	kept.bins = append(kept.bins, keptHarness{key: key, path: dst, funcs: funcs})
	if len(kept.bins) > maxKeptHarnesses {
		os.Remove(kept.bins[0].path)
		kept.bins = kept.bins[1:]
	}
}

// keptSeq names the kept binaries; kept's lock guards it.
var keptSeq int

// ForgetHarnesses removes the harnesses this process kept: premise calls
// it as it exits.
func ForgetHarnesses() {
	kept.Lock()
	defer kept.Unlock()
	if kept.dir != "" {
		os.RemoveAll(kept.dir)
	}
	kept.dir, kept.bins = "", nil
}
