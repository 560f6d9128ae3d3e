package propose

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./propose -update)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", name, diff)
	}
}

// TestCorpus runs the static proposer over every case of the evaluation
// corpus (examples/patches) in one repository and compares what it keeps
// with a golden file: a rule change shows up as a reviewed diff of drafts.
func TestCorpus(t *testing.T) {
	dirs, err := filepath.Glob("../examples/patches/[0-9]*-*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no corpus cases: %v", err)
	}
	base, head := map[string]string{}, map[string]string{}
	for _, d := range dirs {
		name := filepath.Base(d)
		for p, c := range readTree(t, filepath.Join(d, "base")) {
			base[name+"/"+p] = c
		}
		for p, c := range readTree(t, filepath.Join(d, "head")) {
			head[name+"/"+p] = c
		}
	}
	res := loadRepo(t, repoWith(t, base, head))
	r, err := Draft(context.Background(), NewStatic(), res)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, k := range r.Kept {
		lines = append(lines, fmt.Sprintf("%s:%d %s [%s]\n    %s\n    evidence: %s", k.File, k.Line, k.Symbol, k.Source, k.Precondition, k.Evidence))
	}
	for _, d := range r.Dropped {
		lines = append(lines, fmt.Sprintf("DROPPED %s %s: %s", d.Reason, d.Source, d.Detail))
	}
	sort.Strings(lines)
	golden(t, "corpus.golden", strings.Join(lines, "\n")+"\n")
}

// BenchmarkStaticCorpus runs every static rule over the whole evaluation
// corpus (one diff of every case).
func BenchmarkStaticCorpus(b *testing.B) {
	dirs, _ := filepath.Glob("../examples/patches/[0-9]*-*")
	base, head := map[string]string{}, map[string]string{}
	for _, d := range dirs {
		name := filepath.Base(d)
		for p, c := range readTree(b, filepath.Join(d, "base")) {
			base[name+"/"+p] = c
		}
		for p, c := range readTree(b, filepath.Join(d, "head")) {
			head[name+"/"+p] = c
		}
	}
	res := loadRepo(b, repoWith(b, base, head))
	s := NewStatic()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Candidates(context.Background(), res); err != nil {
			b.Fatal(err)
		}
	}
}
