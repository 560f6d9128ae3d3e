package evidence

import (
	"regexp"
	"sync"
)

// lazyRE is a regular expression compiled on first use. The package's
// two dozen expressions cost two milliseconds to compile, which every
// premise command paid at start, though only proposing uses them.
type lazyRE struct {
	expr string
	re   func() *regexp.Regexp
}

func lazy(expr string) *lazyRE {
	return &lazyRE{expr: expr, re: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })}
}

func (l *lazyRE) MatchString(s string) bool            { return l.re().MatchString(s) }
func (l *lazyRE) FindString(s string) string           { return l.re().FindString(s) }
func (l *lazyRE) FindStringSubmatch(s string) []string { return l.re().FindStringSubmatch(s) }
func (l *lazyRE) FindAllString(s string, n int) []string {
	return l.re().FindAllString(s, n)
}
func (l *lazyRE) FindAllStringSubmatch(s string, n int) [][]string {
	return l.re().FindAllStringSubmatch(s, n)
}
