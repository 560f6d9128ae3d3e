package jssource

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestInnerNames: the inner functions of a factory that hold a changed
// line are named; those that do not, and the factory itself, are not.
func TestInnerNames(t *testing.T) {
	f := parse(t, "src/locale.js", `export default function(locale) {
  function newFormat(specifier) {
    return specifier;
  }
  function formatPrefix(specifier, value) {
    var f = newFormat(specifier);
    return function(value) {
      return f(value);
    };
  }
  const trim = (s) => s.trim();
  return {format: newFormat, formatPrefix: formatPrefix, pad: (s) => {
    return " " + s;
  }};
}
`)
	got := InnerNames(f, 1, 15, []int{8, 13})
	if diff := cmp.Diff([]string{"formatPrefix", "pad"}, got); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
}
