// Package semver is a fixture: a small package in the shape of the version
// libraries premise's users gate patches on.
package semver

import (
	"errors"
	"strings"
)

// Version is a parsed version.
type Version struct {
	Major, Minor, Patch int
	Pre                 string
	raw                 string
}

type pathKind int

type level pathKind

// Kinds of path.
const (
	KindFile pathKind = iota
	KindDir
	_
	KindLink
	kindMask pathKind = 1 << 4
)

// Pre is a prerelease tag.
const Pre = "pre"

// Options tune Apply.
type Options struct {
	Strict bool
	Depth  int
}

// NewVersion parses s.
func NewVersion(s string) (*Version, error) {
	if s == "" {
		return nil, errors.New("empty")
	}
	return &Version{raw: s}, nil
}

// MustParse parses s or panics.
func MustParse(s string) *Version {
	v, err := NewVersion(s)
	if err != nil {
		panic(err)
	}
	return v
}

// LessThan compares.
func (v *Version) LessThan(o *Version) bool { return v.raw < o.raw }

// String formats v.
func (v Version) String() string { return v.raw }

// String names k.
func (k pathKind) String() string { return [...]string{"file", "dir", "", "link"}[k&3] }

// Compare compares two version strings.
func Compare(a, b string) int { return strings.Compare(a, b) }

// Join joins parts.
func Join(sep string, parts ...string) string { return strings.Join(parts, sep) }

// Kind names a kind.
func Kind(k pathKind) string { return k.String() }

// Sum adds.
func Sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// Lookup reads m.
func Lookup(m map[string]int, k string) int { return m[k] }

// Scale doubles.
func Scale(f float64) float64 { return 2 * f }

// Hash hashes.
func Hash(b []byte) int { return len(b) }

// Apply applies o.
func Apply(o Options, s string) string { return s }

// First returns the first element.
func First[T any](xs []T) T { return xs[0] }

// Never is called by no test.
func Never(s string) string { return s }

func runtimeValue() string { return "" }
