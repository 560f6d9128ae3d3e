package jssource

import (
	"reflect"
	"testing"
)

// TestNewCalls: the objects a test builds apart from the call of a method
// say how to build one: each literal argument list of `new C(...)` once,
// a property constructor too; a call with a variable argument, or of
// another class, says nothing.
func TestNewCalls(t *testing.T) {
	src := `
const semver = require('../semver');
test('inc', () => {
  const s = new SemVer('1.2.3', { loose: true });
  s.inc('major');
  const again = new SemVer('1.2.3', { loose: true });
  const t = new semver.SemVer("0.0.1-rc.1");
  for (const v of versions) new SemVer(v);
  new Range('>=1.2.3');
  new SemVer();
});
`
	f, err := Parse("test/semver.test.js", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := NewCalls([]*File{f}, "SemVer", 10)
	want := [][]string{{"'1.2.3'", "{ loose: true }"}, {`"0.0.1-rc.1"`}, {}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("NewCalls(SemVer) = %q, want %q", got, want)
	}
	if got := NewCalls([]*File{f}, "SemVer", 1); len(got) != 1 {
		t.Errorf("limit 1: %q", got)
	}
}
