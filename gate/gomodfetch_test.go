package gate

import (
	"archive/zip"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestGoHarnessFetchesTheMergeBasesModules: on a machine whose module
// cache lacks a module the code imports (a fresh CI runner), the harness's
// build in the box, which fetches nothing, failed, and no row of the
// package ran. premise fetches the merge-base's go.mod's modules once,
// outside the box, and builds again; without a merge-base to fetch for,
// the build still fails and says so.
func TestGoHarnessFetchesTheMergeBasesModules(t *testing.T) {
	proxy := t.TempDir()
	dep := filepath.Join(proxy, "example.com", "dep", "@v")
	writeFile(t, filepath.Join(dep, "list"), "v1.0.0\n")
	writeFile(t, filepath.Join(dep, "v1.0.0.info"), `{"Version":"v1.0.0","Time":"2024-01-01T00:00:00Z"}`)
	writeFile(t, filepath.Join(dep, "v1.0.0.mod"), "module example.com/dep\n\ngo 1.21\n")
	zf, err := os.Create(filepath.Join(dep, "v1.0.0.zip"))
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(zf)
	for name, text := range map[string]string{
		"example.com/dep@v1.0.0/go.mod": "module example.com/dep\n\ngo 1.21\n",
		"example.com/dep@v1.0.0/dep.go": "package dep\n\nfunc Twice(n int) int { return 2 * n }\n",
	} {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(text)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	zf.Close()

	mod := t.TempDir()
	writeFile(t, filepath.Join(mod, "go.mod"), "module example.com/app\n\ngo 1.21\n\nrequire example.com/dep v1.0.0\n")
	writeFile(t, filepath.Join(mod, "app.go"), "package app\n\nimport \"example.com/dep\"\n\nfunc Quad(n int) int { return dep.Twice(dep.Twice(n)) }\n")
	t.Setenv("GOPROXY", "file://"+filepath.ToSlash(proxy))
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GOFLAGS", "-modcacherw")
	// go.sum as the repository would commit it, written with a cache of
	// its own.
	t.Setenv("GOMODCACHE", t.TempDir())
	tidy := exec.Command("go", "mod", "tidy")
	tidy.Dir = mod
	if out, err := tidy.CombinedOutput(); err != nil {
		t.Fatalf("go mod tidy: %v\n%s", err, out)
	}
	const target = "example.com/app.Quad"
	for _, fetch := range []bool{false, true} {
		// The runner's cache: empty.
		t.Setenv("GOMODCACHE", t.TempDir())
		cfg := GoConfig{Dir: mod, Targets: []string{target}, Timeout: 5 * time.Second}
		if fetch {
			cfg.ModulesFrom = mod
		}
		a, err := NewGoAdapter(context.Background(), cfg)
		if !fetch {
			if err == nil {
				a.Close()
				t.Fatal("the harness built with nothing to fetch from and the module missing from the cache; the test does not test what it says")
			}
			continue
		}
		if err != nil {
			t.Fatalf("with the merge-base's modules to fetch: %v", err)
		}
		got, err := a.Call(context.Background(), Call{ID: "x", Target: target, Args: []any{3}})
		a.Close()
		if err != nil || got.Outcome != OutcomeReturned || fmt.Sprint(got.Value) != "12" {
			t.Errorf("Quad(3) = %+v, %v; want 12", got, err)
		}
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestGoHarnessCompletesGoSumFromTheCache: a module of before Go 1.16
// (cascadia's go.mod of 2018) requires a module but kept no go.sum; the
// go command refuses to build it ("missing go.sum entry") though the
// module cache holds the module, and no row of the package ran. The
// harness's build completes its copy's go.sum from the cache, fetching
// nothing, and builds.
func TestGoHarnessCompletesGoSumFromTheCache(t *testing.T) {
	proxy := t.TempDir()
	dep := filepath.Join(proxy, "example.com", "dep", "@v")
	writeFile(t, filepath.Join(dep, "list"), "v1.0.0\n")
	writeFile(t, filepath.Join(dep, "v1.0.0.info"), `{"Version":"v1.0.0","Time":"2024-01-01T00:00:00Z"}`)
	writeFile(t, filepath.Join(dep, "v1.0.0.mod"), "module example.com/dep\n\ngo 1.21\n")
	zf, err := os.Create(filepath.Join(dep, "v1.0.0.zip"))
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(zf)
	for name, text := range map[string]string{
		"example.com/dep@v1.0.0/go.mod": "module example.com/dep\n\ngo 1.21\n",
		"example.com/dep@v1.0.0/dep.go": "package dep\n\nfunc Twice(n int) int { return 2 * n }\n",
	} {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(text)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	zf.Close()

	mod := t.TempDir()
	writeFile(t, filepath.Join(mod, "go.mod"), "module example.com/app\n\ngo 1.21\n\nrequire example.com/dep v1.0.0\n")
	writeFile(t, filepath.Join(mod, "app.go"), "package app\n\nimport \"example.com/dep\"\n\nfunc Quad(n int) int { return dep.Twice(dep.Twice(n)) }\n")
	t.Setenv("GOPROXY", "file://"+filepath.ToSlash(proxy))
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GOFLAGS", "-modcacherw")
	// The user's cache holds the module; the repository has no go.sum.
	t.Setenv("GOMODCACHE", t.TempDir())
	dl := exec.Command("go", "mod", "download", "example.com/dep")
	dl.Dir = mod
	if out, err := dl.CombinedOutput(); err != nil {
		t.Fatalf("go mod download: %v\n%s", err, out)
	}
	os.Remove(filepath.Join(mod, "go.sum"))
	const target = "example.com/app.Quad"
	a, err := NewGoAdapter(context.Background(), GoConfig{Dir: mod, Targets: []string{target}, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("a module without go.sum, its requirement in the module cache: %v", err)
	}
	got, err := a.Call(context.Background(), Call{ID: "x", Target: target, Args: []any{3}})
	a.Close()
	if err != nil || got.Outcome != OutcomeReturned || fmt.Sprint(got.Value) != "12" {
		t.Errorf("Quad(3) = %+v, %v; want 12", got, err)
	}
}
