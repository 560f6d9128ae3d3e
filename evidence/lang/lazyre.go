package lang

import (
	"regexp"
	"sync"
)

// LazyRE is a regular expression compiled on first use. The package's
// two dozen expressions cost two milliseconds to compile, which every
// premise command paid at start, though only proposing uses them.
type LazyRE struct {
	expr string
	re   func() *regexp.Regexp
}

func Lazy(expr string) *LazyRE {
	return &LazyRE{expr: expr, re: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })}
}

func (l *LazyRE) MatchString(s string) bool { return l.re().MatchString(s) }

func (l *LazyRE) FindString(s string) string { return l.re().FindString(s) }

func (l *LazyRE) FindStringSubmatch(s string) []string { return l.re().FindStringSubmatch(s) }

func (l *LazyRE) FindAllString(s string, n int) []string {
	return l.re().FindAllString(s, n)
}

func (l *LazyRE) FindAllStringSubmatch(s string, n int) [][]string {
	return l.re().FindAllStringSubmatch(s, n)
}
