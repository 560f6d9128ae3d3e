package gate

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

//go:embed harness/node_tests.mjs
var nodeTestsScript string

// NodeTestRun is node_tests.mjs's account of a side's run of the base's
// JavaScript and TypeScript tests: each test's outcome ("passed",
// "skipped", "failed: how", "not made: why") and the watched lines it
// ran, the test files that did not load and why; Err says why nothing
// ran.
type NodeTestRun struct {
	Order []string
	Tests map[string]NodeTest
	Files map[string]string
	// StoodIn are the packages the clone lacks that a test file imports,
	// by file: it loaded with premise's stand-ins for them.
	StoodIn map[string][]string
	Stopped bool
	Err     string
}

// NodeTest is one test's outcome and the watched lines it ran.
type NodeTest struct {
	Outcome string           `json:"outcome"`
	Lines   map[string][]int `json:"lines,omitempty"`
}

// NodeTests is a run of the merge-base's JavaScript and TypeScript test
// files on one side.
type NodeTests struct {
	Node string
	// Dir is the side's tree, BaseDir the merge-base's: the test files
	// (and every file of Overlay) are laid from BaseDir over a private
	// copy of Dir, so a head that edits, deletes or adds beside them
	// changes nothing of what runs.
	Dir, BaseDir string
	// Tests are the test files to run, relative to BaseDir; Overlay the
	// base's files laid over the copy besides them (their helpers and
	// fixtures).
	Tests, Overlay []string
	// Only, when set, names the tests to run.
	Only []string
	// Watch is the spans whose lines each test's record names, by file
	// under Dir.
	Watch Watch
	// Seconds bounds the run; each test has perTestSeconds.
	Seconds int
}

// RunNodeTests runs the merge-base's test files on a side's copy, in the
// box the Node worker runs in (node_tests.mjs, evaluated source as the
// worker is, with premise's stand-ins for the test frameworks). A
// TypeScript test, like the code, is transpiled by esbuild first.
func RunNodeTests(ctx context.Context, spec NodeTests) NodeTestRun {
	var run NodeTestRun
	node, err := resolveNode(spec.Node)
	if err != nil {
		run.Err = err.Error()
		return run
	}
	top, err := filepath.Abs(spec.Dir)
	if err != nil {
		run.Err = err.Error()
		return run
	}
	scratch, err := os.MkdirTemp("", "")
	if err != nil {
		run.Err = err.Error()
		return run
	}
	defer removeAll(scratch)
	dir := filepath.Join(scratch, "tree", filepath.Base(top))
	if err := copyTree(top, dir, scratch); err != nil {
		run.Err = fmt.Sprintf("copy %s: %v", top, err)
		return run
	}
	for _, rel := range privateOutputs.in(top) {
		os.Remove(filepath.Join(dir, rel)) // premise's own output, not the side's
	}
	for _, rel := range append(append([]string{}, spec.Overlay...), spec.Tests...) {
		if err := layOver(spec.BaseDir, dir, rel); err != nil {
			run.Err = err.Error()
			return run
		}
	}
	if err := laySnapshots(spec.BaseDir, dir, spec.Tests); err != nil {
		run.Err = err.Error()
		return run
	}
	srcs, err := transpilable(dir)
	if err != nil {
		run.Err = err.Error()
		return run
	}
	laid := map[string]bool{}
	for _, rel := range append(append([]string{}, spec.Overlay...), spec.Tests...) {
		laid[filepath.Join(dir, filepath.FromSlash(rel))] = true
	}
	esm, kept, claimed, err := transpileTree(dir, srcs, watchedIn(spec.Watch, top, dir), laid)
	if err != nil {
		run.Err = err.Error()
		return run
	}
	files := []string{}
	names := map[string]string{}
	for _, rel := range spec.Tests {
		f := filepath.Join(dir, rel)
		if out, ok := transpiledExt[filepath.Ext(rel)]; ok {
			f = strings.TrimSuffix(f, filepath.Ext(rel)) + out
			if !claimed[f] && filepath.Ext(rel) != ".jsx" {
				// Its output is a JavaScript test the tree holds,
				// which runs as itself.
				continue
			}
		}
		files = append(files, f)
		names[f] = filepath.ToSlash(rel)
	}
	if len(files) == 0 {
		return run // every test named is a TypeScript twin of a JavaScript test, which runs as itself
	}
	out := filepath.Join(scratch, "out.json")
	args, _ := json.Marshal(map[string]any{"files": files, "names": names, "only": spec.Only,
		"watch": json.RawMessage(nodeWatch(spec.Watch, top, dir, kept, claimed)), "hook": esm,
		"seconds": spec.Seconds, "per_test": perTestSeconds})
	log, err := RunIsolated(ctx, IsolatedCommand{Path: node.path,
		Args: append(append([]string{}, node.flags...), "--input-type=module", "--eval", nodeTestsScript, string(args), out),
		Dir:  dir, Writable: []string{scratch}, Env: append(os.Environ(), "NODE_ENV=test"), Timeout: time.Duration(spec.Seconds+5) * time.Second})
	data, rerr := os.ReadFile(out)
	current, _ := os.ReadFile(out + ".current")
	killed := err != nil && (errors.Is(err, ErrTimedOut) || ctx.Err() != nil)
	if rerr != nil && len(current) == 0 {
		why := "they wrote nothing"
		if err != nil {
			why = err.Error()
		}
		run.Err = fmt.Sprintf("did not run (%s): %s", why, lastLogLine(log))
		return run
	}
	run.Tests, run.Files = map[string]NodeTest{}, map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		var o struct {
			NodeTest
			ID, File, Why, Error string
			StoodIn              []string `json:"stood_in"`
			Stopped              bool
		}
		if line == "" || json.Unmarshal([]byte(line), &o) != nil {
			continue
		}
		switch {
		case o.ID != "":
			if _, seen := run.Tests[o.ID]; !seen {
				run.Order = append(run.Order, o.ID)
			}
			run.Tests[o.ID] = o.NodeTest
		case o.File != "" && len(o.StoodIn) > 0:
			if run.StoodIn == nil {
				run.StoodIn = map[string][]string{}
			}
			run.StoodIn[o.File] = o.StoodIn
		case o.File != "":
			run.Files[o.File] = o.Why
		case o.Error != "":
			run.Err = o.Error
		}
		run.Stopped = run.Stopped || o.Stopped
	}
	if id := string(current); id != "" {
		// The run ended in the test it had started last: killed past its
		// time (a test that never yields), or the process ended by what
		// the test ran. Those after it did not run.
		run.Stopped = true
		how := "failed: timed out"
		if !killed {
			how = "failed: the test ended the run: " + lastLogLine(log)
		}
		if _, seen := run.Tests[id]; !seen {
			run.Order = append(run.Order, id)
			run.Tests[id] = NodeTest{Outcome: how}
		}
	}
	// A message names a file by the private copy's path: by the tree's
	// own, relative, as a reviewer reads it.
	rel := strings.NewReplacer(dir+string(filepath.Separator), "", dir, ".")
	for f, why := range run.Files {
		run.Files[f] = rel.Replace(why)
	}
	for id, t := range run.Tests {
		t.Outcome = rel.Replace(t.Outcome)
		run.Tests[id] = t
	}
	return run
}

// layOver copies the base's file rel over the side's copy at dir,
// replacing what the side has there, through an os.Root: a head whose
// test directory is a link out of its tree cannot have premise write
// where it points.
// laySnapshots lays the base's snapshot file of each test file
// (__snapshots__/NAME.snap beside it, where Jest and Vitest keep it) over
// the copy, and takes away one the base does not have: a test compares
// with the snapshots the base wrote, never with those the head did.
func laySnapshots(baseDir, dir string, tests []string) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	for _, rel := range tests {
		snap := filepath.Join(filepath.Dir(filepath.FromSlash(rel)), "__snapshots__", filepath.Base(rel)+".snap")
		if info, err := os.Lstat(filepath.Join(baseDir, snap)); err == nil && info.Mode().IsRegular() {
			if err := layOver(baseDir, dir, snap); err != nil {
				return err
			}
			continue
		}
		if err := root.Remove(snap); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("take the head's %s away: %w", snap, err)
		}
	}
	return nil
}

func layOver(baseDir, dir, rel string) error {
	from := filepath.Join(baseDir, rel)
	info, err := os.Lstat(from)
	if err != nil || !info.Mode().IsRegular() {
		return nil // a link or a directory of the base's is not laid over
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	if err := root.MkdirAll(filepath.Dir(rel), 0o755); err != nil {
		return fmt.Errorf("lay the base's %s over the side's: %w", rel, err)
	}
	_ = root.Remove(rel)
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := root.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL, info.Mode().Perm())
	if err != nil {
		return fmt.Errorf("lay the base's %s over the side's: %w", rel, err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
