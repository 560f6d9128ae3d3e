package gate

import (
	"context"
	"sort"
	"sync"

	"github.com/premise-dev/premise/validate"
)

// AdapterFunc starts the worker of one language rooted at dir, for the
// targets of t.
type AdapterFunc func(ctx context.Context, cfg Config, dir string, t *validate.Table) (Adapter, error)

// The adapters by language: the one place a table's language picks its
// worker, for the gate, the evidence rows, the fixtures and the
// must-reject corpus alike. A language premise adds registers here.
var (
	adaptersMu sync.RWMutex
	adapters   = map[string]AdapterFunc{
		validate.LangPython: func(_ context.Context, cfg Config, dir string, _ *validate.Table) (Adapter, error) {
			return cfg.pythonAdapter(dir)
		},
		validate.LangGo: goAdapter,
		"exec": func(_ context.Context, cfg Config, dir string, _ *validate.Table) (Adapter, error) {
			return NewExecAdapter(ExecConfig{Command: cfg.Exec, Dir: dir, Timeout: cfg.Timeout, Grace: cfg.Grace, MemoryLimit: cfg.MemoryLimit})
		},
	}
)

// RegisterAdapter makes rows of lang run through start; a second
// registration of the same language replaces the first.
func RegisterAdapter(lang string, start AdapterFunc) {
	adaptersMu.Lock()
	defer adaptersMu.Unlock()
	adapters[lang] = start
}

// AdapterLanguages are the languages an adapter is registered for, sorted.
func AdapterLanguages() []string {
	adaptersMu.RLock()
	defer adaptersMu.RUnlock()
	out := make([]string, 0, len(adapters))
	for l := range adapters {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

func adapterFor(lang string) AdapterFunc {
	adaptersMu.RLock()
	defer adaptersMu.RUnlock()
	return adapters[lang]
}
