package evidence_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence"
	"github.com/premise-dev/premise/gate"
)

// tenFunctions is a module of ten small functions; the head changes each
// of them (issue 13, part 11: a PR that changes up to ten functions).
func tenFunctions(head bool) string {
	var b strings.Builder
	for i := 0; i < 10; i++ {
		op := ">="
		if head {
			op = ">"
		}
		fmt.Fprintf(&b, "def f%d(xs: list[int], n: int, sep: str) -> list[str]:\n", i)
		fmt.Fprintf(&b, "    out = []\n    for x in xs:\n        if x %s n + %d:\n            out.append(str(x) + sep)\n    return out\n\n\n", op, i)
	}
	return b.String()
}

func git(b testing.TB, dir string, args ...string) {
	b.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=premise", "GIT_AUTHOR_EMAIL=b@premise.invalid",
		"GIT_COMMITTER_NAME=premise", "GIT_COMMITTER_EMAIL=b@premise.invalid", "GIT_CONFIG_GLOBAL="+os.DevNull)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// BenchmarkEvidence10Functions is the evidence stage (evidence.Run, real
// Python workers on both sides, shrinking included) on a patch that
// changes ten functions; the bound is 20 s on two cores.
//
//	go test ./evidence -run '^$' -bench Evidence10Functions -benchtime 3x
func BenchmarkEvidence10Functions(b *testing.B) {
	dir := b.TempDir()
	git(b, dir, "init", "-q", "-b", "main")
	write := func(text string) {
		if err := os.WriteFile(filepath.Join(dir, "ten.py"), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	write(tenFunctions(false))
	git(b, dir, "add", "-A")
	git(b, dir, "commit", "-q", "-m", "base")
	write(tenFunctions(true))
	git(b, dir, "commit", "-q", "-am", "head")
	ctx := context.Background()
	res, err := diffparse.Load(ctx, diffparse.Config{Repo: dir, Base: "HEAD~1", Head: "HEAD"})
	if err != nil {
		b.Fatal(err)
	}
	headDir, cleanHead, err := gate.AddWorktree(ctx, dir, res.Head)
	if err != nil {
		b.Fatal(err)
	}
	defer cleanHead()
	baseDir, cleanBase, err := gate.AddWorktree(ctx, dir, res.MergeBase)
	if err != nil {
		b.Fatal(err)
	}
	defer cleanBase()
	py, err := exec.LookPath("python3")
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		rep, err := evidence.Run(ctx, evidence.Config{Diff: res, HeadDir: headDir, BaseDir: baseDir,
			Gate: gate.Config{Python: py, Reruns: 2, Seed: 1}})
		if err != nil {
			b.Fatal(err)
		}
		if len(rep.Unexplained) == 0 {
			b.Fatalf("no behaviour change found on ten changed comparisons (%d rows)", rep.Rows)
		}
		b.ReportMetric(float64(rep.Rows), "rows")
		b.ReportMetric(float64(rep.Reseeded), "reseeded")
		if d := time.Since(start); d > 20*time.Second {
			b.Errorf("the evidence stage took %s on ten functions; the bound is 20 s", d)
		}
	}
}
