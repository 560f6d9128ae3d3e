package gate

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Base and head run in two copies at two temporary paths. A function
// returning an absolute path under its tree answered differently on each
// side, and the evidence filed the two roots as a behaviour change (on a
// real refactor of a directory lister); each side's own root is TreeMark
// in its replies, and a path that only starts with the root's text is
// left as it is. A text the code itself returns holding the mark is
// never taken for it.
func TestRepliesWriteTheTreesRootAsOneMark(t *testing.T) {
	src := []byte("import os\n\ndef where(p):\n    return [os.path.abspath(p), os.getcwd() + '2/x']\n\n" +
		"def forged(p):\n    return '$TREE/' + p\n\n" +
		"def fail(p):\n    raise ValueError('no such file: ' + os.path.abspath(p))\n")
	for range 2 {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "paths.py"), src, 0o644); err != nil {
			t.Fatal(err)
		}
		a, err := NewPythonAdapter(PythonConfig{Dir: dir, Timeout: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		r, err := a.Call(context.Background(), Call{ID: "P1", Target: "paths.where", Args: []any{"tests/data"}})
		if err != nil {
			t.Fatal(err)
		}
		f, err := a.Call(context.Background(), Call{ID: "P3", Target: "paths.forged", Args: []any{"tests/data"}})
		if err != nil {
			t.Fatal(err)
		}
		if f.Value == r.Value.([]any)[0] {
			t.Errorf("forged() returned %#v, the mark of a real path: the code can pass for the base's path", f.Value)
		}
		e, err := a.Call(context.Background(), Call{ID: "P2", Target: "paths.fail", Args: []any{"x"}})
		a.Close()
		if err != nil {
			t.Fatal(err)
		}
		if l, ok := r.Value.([]any); !ok || len(l) != 2 || l[0] != TreeMark+"/tests/data" || l[1] == TreeMark+"2/x" {
			t.Errorf("where() in %s = %#v, want [%q, the root's text with 2 after it kept]", dir, r.Value, TreeMark+"/tests/data")
		}
		if e.Exc == nil || e.Exc.Message != "no such file: "+TreeMark+"/x" {
			t.Errorf("fail() in %s raised %+v, want its message with the root marked", dir, e.Exc)
		}
	}
}
