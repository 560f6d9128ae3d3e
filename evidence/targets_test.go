package evidence_test

import (
	"context"
	"strings"
	"testing"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence"
	"github.com/premise-dev/premise/internal/suitetest"
)

// commitDiff is the diff of two commits of a new repository: base's
// files, then head's written over them.
func commitDiff(t *testing.T, base, head map[string]string) *diffparse.Result {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	for i, files := range []map[string]string{base, head} {
		suitetest.WriteFiles(t, dir, files)
		git(t, dir, "add", "-A")
		git(t, dir, "commit", "-q", "-m", []string{"base", "head"}[i])
	}
	res, err := diffparse.Load(context.Background(), diffparse.Config{Repo: dir, Base: "HEAD~1", Head: "HEAD"})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestHasTargetsOfAPrivateStep: the patch changes only a module's
// private parser step, which no row can call, nor its callers in the
// file, which take the parser's state; the exported load reaches it
// three calls up, and the base's tests call load. Both need the checkouts, so the
// diff has targets. A patch changing only a test file has none.
func TestHasTargetsOfAPrivateStep(t *testing.T) {
	t.Parallel()
	loader := `'use strict';

function readPair(text) {
  var i = text.indexOf(':');
  return [text.slice(0, i), text.slice(i + 1)];
}

function readLine(state, line) {
  var p = readPair(line);
  state.out[p[0]] = p[1];
}

function readDocument(state) {
  state.text.split('\n').forEach(function (line) {
    readLine(state, line);
  });
}

function load(text) {
  var state = {text: text, out: {}};
  readDocument(state);
  return state.out;
}

module.exports.load = load;
`
	head := map[string]string{"lib/loader.js": strings.Replace(loader, "text.slice(i + 1)", "text.slice(i + 1).trim()", 1)}
	tests := []struct {
		name   string
		base   map[string]string
		head   map[string]string
		want   bool
		reason string
	}{
		{"a private step", map[string]string{"lib/loader.js": loader}, head, true,
			"readPair is not exported; load reaches it and the base's tests call load"},
		{"a test file only", map[string]string{"lib/loader.js": loader, "test/loader.test.js": "function check(x) { return x }\n"},
			map[string]string{"test/loader.test.js": "function check(x) { return !x }\n"}, false,
			"a test file's functions are the tests, not the code under review"},
	}
	for _, tc := range tests {
		if got := evidence.HasTargets(commitDiff(t, tc.base, tc.head)); got != tc.want {
			t.Errorf("%s: HasTargets = %v, want %v (%s)", tc.name, got, tc.want, tc.reason)
		}
	}
}
