package diffparse

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGoFrontEndMatchesReference replays this repository's own history:
// for every commit, the changed Go symbols Load reports must equal those of
// a reference written here from scratch with go/ast and `git diff -U0`
// (issue 2, "Checked on real code").
func TestGoFrontEndMatchesReference(t *testing.T) {
	t.Parallel()
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Fatalf("the test runs in premise's own git checkout: %v", err)
	}
	repo := strings.TrimSpace(string(top))
	out, err := exec.Command("git", "-C", repo, "rev-list", "--first-parent", "--max-count=150", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	commits := strings.Fields(string(out))
	// Each commit costs a few git processes on both sides; four at a time
	// keeps the check to seconds on a busy machine.
	var (
		mu                sync.Mutex
		compared, symbols int
		wg                sync.WaitGroup
		sem               = make(chan struct{}, 4)
	)
	for _, c := range commits {
		wg.Add(1)
		sem <- struct{}{}
		go func(c string) {
			defer func() { <-sem; wg.Done() }()
			parents, err := exec.Command("git", "-C", repo, "rev-list", "--parents", "-n", "1", c).Output()
			if err != nil {
				t.Error(err)
				return
			}
			ps := strings.Fields(string(parents))
			if len(ps) < 2 {
				return // the root commit has nothing to diff against
			}
			res, err := Load(context.Background(), Config{Repo: repo, Base: ps[1], Head: c})
			if err != nil {
				t.Errorf("%.12s: %v", c, err)
				return
			}
			var got []string
			for _, f := range res.Files {
				if f.Language != "go" {
					continue
				}
				for _, s := range f.Symbols {
					got = append(got, refKey(f.Path, s.Local, s.Kind, s.Change, s.Start, s.End, s.ChangedLines))
				}
			}
			want := goReference(t, repo, ps[1], c)
			sort.Strings(got)
			sort.Strings(want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("commit %.12s: changed Go symbols differ from the go/ast reference (-want +got):\n%s", c, diff)
			}
			mu.Lock()
			compared++
			symbols += len(got)
			mu.Unlock()
		}(c)
	}
	wg.Wait()
	t.Logf("%d commits compared, %d changed Go symbols", compared, symbols)
	if compared == 0 {
		t.Fatalf("no commit with a parent in %s; the check needs premise's history (clone without --depth 1)", repo)
	}
}

func refKey(path, local, kind, change string, start, end int, lines []int) string {
	return fmt.Sprintf("%s %s %s %s %d-%d %v", path, local, kind, change, start, end, lines)
}

// refDecl is the reference's own declaration type.
type refDecl struct {
	name, kind string
	start, end int
}

// refDecls lists a Go file's declarations with go/ast, written apart from
// the front end: receivers are printed and trimmed as text.
func refDecls(src []byte) ([]refDecl, bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	if err != nil {
		return nil, false
	}
	ln := func(p token.Pos) int { return fset.Position(p).Line }
	var out []refDecl
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			name, kind := fd.Name.Name, "function"
			if fd.Recv != nil {
				recv := types0(fd.Recv.List[0].Type)
				recv = strings.TrimLeft(recv, "*(")
				if i := strings.IndexAny(recv, "[)"); i >= 0 {
					recv = recv[:i]
				}
				if i := strings.LastIndexByte(recv, '.'); i >= 0 {
					recv = recv[i+1:]
				}
				name, kind = recv+"."+name, "method"
			}
			out = append(out, refDecl{name, kind, ln(fd.Type.Func), ln(fd.End())})
			continue
		}
		gd := d.(*ast.GenDecl)
		if gd.Tok != token.TYPE {
			continue
		}
		for _, s := range gd.Specs {
			ts := s.(*ast.TypeSpec)
			start, end := ln(ts.Name.Pos()), ln(ts.End())
			if gd.Lparen == token.NoPos {
				start, end = ln(gd.TokPos), ln(gd.End())
			}
			out = append(out, refDecl{ts.Name.Name, "type", start, end})
		}
	}
	return out, true
}

// types0 prints a type expression.
func types0(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.StarExpr:
		return "*" + types0(t.X)
	case *ast.ParenExpr:
		return "(" + types0(t.X) + ")"
	case *ast.IndexExpr:
		return types0(t.X) + "[" + "T" + "]"
	case *ast.IndexListExpr:
		return types0(t.X) + "[" + "T" + "]"
	case *ast.SelectorExpr:
		return types0(t.X) + "." + t.Sel.Name
	}
	return "?"
}

func refInnermost(ds []refDecl, line int, strictEnd bool) int {
	best := -1
	for i, d := range ds {
		if line < d.start || line > d.end || strictEnd && line == d.end {
			continue
		}
		if best < 0 || d.end-d.start < ds[best].end-ds[best].start {
			best = i
		}
	}
	return best
}

var (
	refHunk = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)
)

// goReference computes the changed Go symbols of base..head from `git diff`
// and git show, with none of diffparse's code. It reads the diff with the
// same context premise diff does: git aligns a long change differently
// under -U0 than under its default three lines.
func goReference(t *testing.T, repo, base, head string) []string {
	t.Helper()
	out, err := exec.Command("git", "-C", repo, "-c", "core.quotePath=false", "diff", "--no-color", "--no-ext-diff",
		"--find-renames", "--find-copies", "--src-prefix=a/", "--dst-prefix=b/", base, head).Output()
	if err != nil {
		t.Error(err)
		return nil
	}
	type fileChange struct {
		oldPath, newPath string
		added            []int
		deletions        [][2]int // pure deletions: the head anchor, the first base line
		deleted          []int    // base lines
	}
	var files []*fileChange
	var cur *fileChange
	oldLine, newLine := 0, 0 // the last line of each side passed in the hunk
	inBlock, blockAdds, blockOld := false, false, 0
	endBlock := func() {
		if inBlock && !blockAdds {
			cur.deletions = append(cur.deletions, [2]int{newLine, blockOld}) // a pure deletion's anchor
		}
		inBlock, blockAdds, blockOld = false, false, 0
	}
	for _, l := range strings.Split(string(out), "\n") {
		if cur != nil && oldLine >= 0 && len(l) > 0 && (l[0] == ' ' || l[0] == '+' || l[0] == '-') &&
			!strings.HasPrefix(l, "--- ") && !strings.HasPrefix(l, "+++ ") {
			switch l[0] {
			case ' ':
				endBlock()
				oldLine++
				newLine++
			case '+':
				inBlock, blockAdds = true, true
				newLine++
				cur.added = append(cur.added, newLine)
			case '-':
				inBlock = true
				oldLine++
				if blockOld == 0 {
					blockOld = oldLine
				}
				cur.deleted = append(cur.deleted, oldLine)
			}
			continue
		}
		if len(l) > 0 && l[0] == '\\' {
			continue // \ No newline at end of file
		}
		if cur != nil {
			endBlock()
		}
		oldLine = -1
		switch {
		case strings.HasPrefix(l, "diff --git "):
			cur = &fileChange{}
			files = append(files, cur)
		case cur == nil:
		case strings.HasPrefix(l, "--- "):
			cur.oldPath = strings.TrimPrefix(strings.TrimPrefix(l, "--- "), "a/")
		case strings.HasPrefix(l, "+++ "):
			cur.newPath = strings.TrimPrefix(strings.TrimPrefix(l, "+++ "), "b/")
		case strings.HasPrefix(l, "rename from "), strings.HasPrefix(l, "copy from "):
			cur.oldPath = l[strings.Index(l, "from ")+5:]
		case strings.HasPrefix(l, "rename to "), strings.HasPrefix(l, "copy to "):
			cur.newPath = l[strings.Index(l, "to ")+3:]
		default:
			m := refHunk.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			num := func(s string, def int) int {
				if s == "" {
					return def
				}
				n, _ := strconv.Atoi(s)
				return n
			}
			a, b, c, d := num(m[1], 0), num(m[2], 1), num(m[3], 0), num(m[4], 1)
			// A range of length 0 starts at the line before it.
			if b == 0 {
				a++
			}
			if d == 0 {
				c++
			}
			oldLine, newLine = a-1, c-1
		}
	}
	show := func(rev, path string) ([]byte, bool) {
		if path == "" || path == "/dev/null" {
			return nil, false
		}
		b, err := exec.Command("git", "-C", repo, "show", rev+":"+path).Output()
		return b, err == nil
	}
	var keys []string
	for _, fc := range files {
		p := fc.newPath
		if p == "/dev/null" || p == "" {
			p = fc.oldPath
		}
		if !strings.HasSuffix(p, ".go") {
			continue
		}
		headSrc, hasHead := show(head, fc.newPath)
		baseSrc, hasBase := show(base, fc.oldPath)
		var hd, bd []refDecl
		if hasHead {
			var ok bool
			if hd, ok = refDecls(headSrc); !ok {
				continue // listed with a parse error, no symbols
			}
		}
		if hasBase {
			bd, _ = refDecls(baseSrc)
		}
		inBase, inHead := map[string]bool{}, map[string]bool{}
		for _, d := range bd {
			inBase[d.name] = true
		}
		for _, d := range hd {
			inHead[d.name] = true
		}
		lines := map[int][]int{}
		for _, n := range fc.added {
			if i := refInnermost(hd, n, false); i >= 0 {
				lines[i] = append(lines[i], n)
			}
		}
		firstHead := map[string]int{}
		for i, d := range hd {
			if _, ok := firstHead[d.name]; !ok {
				firstHead[d.name] = i
			}
		}
		for _, del := range fc.deletions {
			c := del[0]
			// Lines deleted from a base declaration the head still has
			// change it, wherever the anchor falls.
			if j := refInnermost(bd, del[1], false); j >= 0 && inHead[bd[j].name] {
				i := firstHead[bd[j].name]
				lines[i] = append(lines[i], min(max(c, hd[i].start), hd[i].end))
				continue
			}
			if i := refInnermost(hd, c, true); i >= 0 {
				lines[i] = append(lines[i], c)
			}
		}
		for i, ls := range lines {
			d := hd[i]
			change := "modified"
			if !hasBase || !inBase[d.name] {
				change = "added"
			}
			sort.Ints(ls)
			keys = append(keys, refKey(p, d.name, d.kind, change, d.start, d.end, uniq(ls)))
		}
		gone := map[int][]int{}
		for _, o := range fc.deleted {
			if i := refInnermost(bd, o, false); i >= 0 && !inHead[bd[i].name] {
				gone[i] = append(gone[i], o)
			}
		}
		for i, ls := range gone {
			d := bd[i]
			keys = append(keys, refKey(p, d.name, d.kind, "deleted", d.start, d.end, uniq(ls)))
		}
	}
	return keys
}

func uniq(s []int) []int {
	var out []int
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}
