package gate

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// WarmGo fills the build cache for what every harness imports: a standard
// package the template imports and WarmGo leaves out is compiled again
// inside the evidence's time on a fresh machine.
func TestWarmGoCoversTheHarnessImports(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("harness", "go_worker.go.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile(`(?s)\nimport \((.*?)\n\)`).FindSubmatch(src)
	if block == nil {
		t.Fatal("the template has no import block")
	}
	var std []string
	for _, m := range regexp.MustCompile(`(?m)^\s*"([^"]+)"`).FindAllSubmatch(block[1], -1) {
		std = append(std, string(m[1]))
	}
	if len(std) < 10 {
		t.Fatalf("read %d imports from the template: %v", len(std), std)
	}
	for _, p := range std {
		if !slices.Contains(harnessStd, p) {
			t.Errorf("the harness imports %q, which WarmGo does not build", p)
		}
	}
}

// WarmGo builds with the harness's flags and pinned settings, in the
// user's build cache: a build with other flags or settings would fill
// other cache entries and warm nothing.
func TestWarmGoBuildsAsTheHarnessDoes(t *testing.T) {
	real, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache")
	// A go that answers go env as the real one does and writes what a
	// build was asked into the cache, the one place a box build may write.
	fake := "#!/bin/sh\nif [ \"$1\" = build ]; then\n  { echo \"$@\"; env; } > \"$GOCACHE/build.log\"\n  exit 0\nfi\nexec " + real + " \"$@\"\n"
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("GOCACHE", cache)
	t.Setenv("GOFLAGS", "-tags=premisewarm")
	if err := WarmGo(t.Context(), false); err != nil {
		t.Fatal(err)
	}
	log, err := os.ReadFile(filepath.Join(cache, "build.log"))
	if err != nil {
		t.Fatalf("no build ran in the user's cache: %v", err)
	}
	lines := strings.Split(string(log), "\n")
	if want := "build -trimpath " + strings.Join(harnessStd, " "); lines[0] != want {
		t.Errorf("ran %q, want %q", lines[0], want)
	}
	for _, kv := range append([]string{"GOCACHE=" + cache, "GOFLAGS=-tags=premisewarm", "GOWORK=off"}, goPinned...) {
		if !slices.Contains(lines, kv) {
			t.Errorf("the build's environment lacks %s", kv)
		}
	}
}
