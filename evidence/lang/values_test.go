package lang

import (
	"regexp"
	"testing"
)

// A text parameter of code that handles paths is handed paths as both
// systems write them: a check that one platform's rules apply on another
// (an absolute Windows path judged on Linux, pathvalidate's
// validate_abspath) is reached only by text with a drive or a share,
// which neither the function's literals nor the string pool hold. Code
// that does not handle paths gets none (each value is a row of every
// text parameter, and the rows have a budget).
func TestPathShapesForCodeThatHandlesPaths(t *testing.T) {
	shapes := map[string]*regexp.Regexp{
		"a POSIX absolute path": regexp.MustCompile(`^/[^/]+/`),
		"a Windows drive path":  regexp.MustCompile(`^[A-Za-z]:\\`),
		"a Windows share":       regexp.MustCompile(`^\\\\[^\\]+\\`),
	}
	for _, src := range []string{"if ntpath.isabs(value):", "return filepath.IsAbs(p)", "os.path.join(root, name)"} {
		got := PathShapes(src)
		for what, re := range shapes {
			found := false
			for _, v := range got {
				if s, ok := v.(string); ok && re.MatchString(s) {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: no path shape is %s (%q)", src, what, got)
			}
		}
	}
	for _, src := range []string{"return a + b", "xpath = path_of(x)", "return s.split('/')"} {
		if got := PathShapes(src); got != nil {
			t.Errorf("%s: path shapes %q for code that does not handle paths", src, got)
		}
	}
	for _, v := range Pool(Type{Kind: KindStr}, nil) {
		if s, _ := v.(string); s == `C:\a` {
			t.Errorf("the string pool holds %q for every function; want it only where the code handles paths", s)
		}
	}
}
