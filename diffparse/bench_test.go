package diffparse

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// BenchmarkLoad measures Load on a synthetic diff of about 50,000 lines
// over 50 Python and Go files (issue 2, "Speed"): git diff, one cat-file
// process for both sides of every file, both front ends, the mapping.
//
//	go test ./diffparse -run '^$' -bench BenchmarkLoad -benchtime 10x
func BenchmarkLoad(b *testing.B) {
	r := newTestRepo(b)
	base, head := map[string]string{}, map[string]string{}
	for i := 0; i < 25; i++ {
		base[fmt.Sprintf("py/mod%02d.py", i)], head[fmt.Sprintf("py/mod%02d.py", i)] = synthPython(i)
		base[fmt.Sprintf("go/p%02d/f.go", i)], head[fmt.Sprintf("go/p%02d/f.go", i)] = synthGo(i)
	}
	base["go.mod"] = "module example.com/bench\n"
	r.write(base)
	r.commit("base")
	r.write(head)
	r.commit("head")
	cfg := Config{Repo: r.dir, Base: "HEAD~1", Head: "HEAD"}
	res, err := Load(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	lines, syms := 0, 0
	for _, f := range res.Files {
		for _, h := range f.Hunks {
			lines += len(h.Lines) + 1
		}
		syms += len(f.Symbols)
	}
	if lines < 50000 {
		b.Fatalf("synthetic diff has %d lines, want 50,000 or more", lines)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Load(context.Background(), cfg); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(lines), "difflines")
	b.ReportMetric(float64(syms), "symbols")
}

// synthPython returns a 50-function module and a version with every
// function's body rewritten.
func synthPython(seed int) (string, string) {
	var base, head strings.Builder
	base.WriteString("import os\n\n\n")
	head.WriteString("import os\n\n\n")
	for f := 0; f < 25; f++ {
		fmt.Fprintf(&base, "class C%d:\n    def m%d(self, x):\n", f, f)
		fmt.Fprintf(&head, "class C%d:\n    def m%d(self, x):\n", f, f)
		for l := 0; l < 8; l++ {
			fmt.Fprintf(&base, "        x = x + %d  # %d\n", l, seed)
			fmt.Fprintf(&head, "        x = x * %d  # %d\n", l+1, seed)
		}
		base.WriteString("        return x\n\n\n")
		head.WriteString("        return x\n\n\n")
		fmt.Fprintf(&base, "def f%d(a):\n", f)
		fmt.Fprintf(&head, "def f%d(a):\n", f)
		for l := 0; l < 8; l++ {
			fmt.Fprintf(&base, "    a = a - %d\n", l)
			fmt.Fprintf(&head, "    a = a // %d\n", l+1)
		}
		base.WriteString("    return a\n\n\n")
		head.WriteString("    return a\n\n\n")
	}
	return base.String(), head.String()
}

// synthGo returns a Go file of 25 functions and 25 methods and a version
// with every body rewritten.
func synthGo(seed int) (string, string) {
	var base, head strings.Builder
	fmt.Fprintf(&base, "package p%d\n\ntype T struct{ n int }\n\n", seed)
	fmt.Fprintf(&head, "package p%d\n\ntype T struct{ n int }\n\n", seed)
	for f := 0; f < 25; f++ {
		fmt.Fprintf(&base, "func F%d(a int) int {\n", f)
		fmt.Fprintf(&head, "func F%d(a int) int {\n", f)
		for l := 0; l < 8; l++ {
			fmt.Fprintf(&base, "\ta += %d\n", l)
			fmt.Fprintf(&head, "\ta *= %d\n", l+1)
		}
		base.WriteString("\treturn a\n}\n\n")
		head.WriteString("\treturn a\n}\n\n")
		fmt.Fprintf(&base, "func (t *T) M%d() int {\n", f)
		fmt.Fprintf(&head, "func (t *T) M%d() int {\n", f)
		for l := 0; l < 8; l++ {
			fmt.Fprintf(&base, "\tt.n -= %d\n", l)
			fmt.Fprintf(&head, "\tt.n /= %d\n", l+1)
		}
		base.WriteString("\treturn t.n\n}\n\n")
		head.WriteString("\treturn t.n\n}\n\n")
	}
	return base.String(), head.String()
}
