package diffparse

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/premise-dev/premise/internal/git"
)

// ErrNoSymbol is returned by FindSymbol when no file declares the symbol.
var ErrNoSymbol = errors.New("no such symbol")

// Found is where a symbol is declared.
type Found struct {
	Symbol   string // qualified, as diff names it
	Kind     string // function, method, class, type
	Language string
	File     string // relative to the repository's top level
	Line     int    // the declaration's first line
	Text     string // that line, trimmed
}

// FindSymbol finds the declaration of symbol, qualified as premise diff
// names symbols (intervals.merge_ranges, example.com/m/pkg.Type.Method), in
// the Go and Python files of the repository at dir as of rev ("" for HEAD).
// A symbol no file declares is an error wrapping ErrNoSymbol that names the
// nearest declarations, so a user can tell a typo from a missing function.
func FindSymbol(ctx context.Context, dir, rev, symbol string) (*Found, error) {
	if rev == "" {
		rev = "HEAD"
	}
	repo, err := git.Open(ctx, dir)
	if err != nil {
		return nil, err
	}
	out, err := repo.Run(ctx, "ls-tree", "-r", "-z", "--name-only", rev)
	if err != nil {
		return nil, fmt.Errorf("list files at %s: %w", rev, err)
	}
	cat, err := repo.Catter(ctx)
	if err != nil {
		return nil, err
	}
	defer cat.Close()
	l := &loader{cat: cat, head: rev}
	read := func(p string) ([]byte, bool) { return l.read(rev, p) }
	last := symbol[strings.LastIndexAny(symbol, "./")+1:]
	var near, seen []string
	for _, p := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		fe := frontEndForPath(p)
		if fe == nil {
			continue
		}
		q := fe.qualifier(p, read)
		if q != "" && q != "." && !strings.HasPrefix(symbol, q+".") {
			continue // its names all start with q: it cannot declare symbol
		}
		src, ok := read(p)
		if !ok {
			continue
		}
		decls, err := fe.decls(src)
		if err != nil {
			continue
		}
		name := qualifyWith(q)
		for _, d := range decls {
			if name(d.Local) == symbol {
				lines := strings.Split(string(src), "\n")
				text := ""
				if d.Start <= len(lines) {
					text = strings.TrimSpace(lines[d.Start-1])
				}
				return &Found{Symbol: symbol, Kind: d.Kind, Language: fe.language(), File: p, Line: d.Start, Text: text}, nil
			}
			if d.Local == last || strings.HasSuffix(d.Local, "."+last) {
				near = append(near, name(d.Local))
			}
			seen = append(seen, name(d.Local))
		}
	}
	if len(near) > 0 {
		sort.Strings(near)
		return nil, fmt.Errorf("%w: no Go, Python, JavaScript or TypeScript file at %s declares %s; did you mean %s?", ErrNoSymbol, rev, symbol, strings.Join(near, " or "))
	}
	if len(seen) > 0 {
		sort.Strings(seen)
		if len(seen) > 8 {
			seen = append(seen[:8], "...")
		}
		return nil, fmt.Errorf("%w: no Go, Python, JavaScript or TypeScript file at %s declares %s; its module declares %s", ErrNoSymbol, rev, symbol, strings.Join(seen, ", "))
	}
	return nil, fmt.Errorf("%w: no Go, Python, JavaScript or TypeScript file at %s declares %s (name it as premise diff does: a Python module path and name, intervals.merge_ranges, or a Go import path and name, example.com/m/pkg.Func)", ErrNoSymbol, rev, symbol)
}

func frontEndForPath(p string) frontEnd {
	for _, fe := range frontEnds {
		if fe.handles(p) {
			return fe
		}
	}
	return nil
}
