package gate

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/premise-dev/premise/diffparse"
)

// A Go test's variants are the Python ones' (base_tests.py variants_of)
// for Go: the test compiled again from the merge-base's source under a
// name of its own, with one literal of its body replaced. Table-driven
// tests write their inputs as literals (args := []string{"-a", "val"});
// a variant runs the same code on an input the test did not write, and a
// variant that ends one way on the base and another on the head is a
// change, as a row's input is.

// A GoVariant is one variant of a Go test.
type GoVariant struct {
	// ID is the variant as a test row names it: "TestX[variant 2]".
	ID string
	// Test is the test it varies; Func the name of its function in the
	// varied file.
	Test, Func string
	// What says which literal became what: `"-a" as ""`.
	What string
	// first and last are the varied file's lines its function spans,
	// origin the line of the test's own function it is made from.
	first, last, origin int
}

// maxGoVariantSites bounds the literals of one test that are replaced.
const maxGoVariantSites = 12

// GoVariants returns src, a Go test file of the merge-base, with the
// variants of tests (its top-level TestX(t *testing.T) functions) added
// at its end, at most max per test, and the variants in order. Those of
// skip (by ID: ones that did not compile) are left out; the others keep
// their numbers. The literals replaced are those of the test's body that
// are inputs (diffparse.GoTestLiterals).
func GoVariants(src []byte, tests []string, max int, skip map[string]bool) ([]byte, []GoVariant, error) {
	fns, err := diffparse.GoTestLiterals(src)
	if err != nil {
		return nil, nil, err
	}
	taken := map[string]bool{}
	for _, fn := range fns {
		taken[fn.Name] = true
	}
	out := bytes.NewBuffer(append([]byte{}, src...))
	if !bytes.HasSuffix(src, []byte("\n")) {
		out.WriteByte('\n')
	}
	var vs []GoVariant
	for _, tf := range fns {
		if !slices.Contains(tests, tf.Name) {
			continue
		}
		sites := make([]goSite, 0, len(tf.Literals))
		for _, l := range tf.Literals {
			if s, ok := siteOf(l); ok {
				sites = append(sites, s)
			}
		}
		name := tf.NameAt - tf.Start
		for n, s := range variantSteps(sites, max) {
			id := fmt.Sprintf("%s%s%d]", tf.Name, VariantMark, n)
			if skip[id] {
				continue
			}
			fn := fmt.Sprintf("%s__%d", tf.Name, n)
			for taken[fn] {
				fn += "_"
			}
			text := string(src[tf.Start:tf.End])
			lo, hi := s.from-tf.Start, s.to-tf.Start
			text = text[:name] + fn + text[name+len(tf.Name):lo] + s.with + text[hi:]
			first := bytes.Count(out.Bytes(), []byte("\n")) + 2 // after a blank line
			fmt.Fprintf(out, "\n%s\n", text)
			vs = append(vs, GoVariant{ID: id, Test: tf.Name, Func: fn, What: s.what, first: first, last: first + strings.Count(text, "\n"), origin: tf.Line})
		}
	}
	return out.Bytes(), vs, nil
}

// goSite is one literal of a test's body and what it may become.
type goSite struct {
	from, to int      // its bytes in the source
	text     string   // as written
	with     []string // its replacements, as written
}

// goStep is one replacement of one site.
type goStep struct {
	from, to   int
	with, what string
}

// siteOf is a literal's replacements: a text emptied, a markup text
// without its first element's first attribute, cut to its first
// character, its numbers 0 and 1, its quotes the other kind, its spaces
// doubled; a number 0, 1, -1; a slice empty, without its last or first
// item, its last twice.
func siteOf(l diffparse.GoLiteral) (goSite, bool) {
	s := goSite{from: l.From, to: l.To, text: l.Text}
	switch l.Kind {
	case "string":
		v := l.Value
		add := func(w string) {
			if w != v && !slices.Contains(s.with, strconv.Quote(w)) {
				s.with = append(s.with, strconv.Quote(w))
			}
		}
		add("")
		if m := markupAttribute.FindStringSubmatchIndex(v); m != nil {
			add(v[:m[3]] + v[m[1]:]) // its first element's first attribute gone
		}
		if r := []rune(v); len(r) > 1 {
			add(string(r[0]))
		}
		if digits.MatchString(v) {
			add(digits.ReplaceAllString(v, "0"))
			add(digits.ReplaceAllString(v, "1"))
		}
		if strings.Contains(v, "'") != strings.Contains(v, `"`) {
			add(strings.NewReplacer("'", `"`, `"`, "'").Replace(v))
		}
		add(strings.ReplaceAll(v, " ", "  "))
	case "number":
		for _, w := range []string{"0", "1", "-1"} {
			if w != l.Text {
				s.with = append(s.with, w)
			}
		}
	case "slice":
		items := l.Items
		lists := [][]string{nil, items[:len(items)-1], items[1:], append(append([]string{}, items...), items[len(items)-1])}
		if len(items) == 1 {
			lists = [][]string{nil, append(append([]string{}, items...), items[0])}
		}
		for _, it := range lists {
			s.with = append(s.with, l.Type+"{"+strings.Join(it, ", ")+"}")
		}
	}
	return s, len(s.with) > 0
}

var digits = regexp.MustCompile(`[0-9]+`)

// markupAttribute is an attribute of a markup element: <path d="M0,0"/>.
var markupAttribute = regexp.MustCompile(`(<[A-Za-z][^<>]*?)\s+[A-Za-z_][\w:.-]*\s*=\s*(?:"[^"]*"|'[^']*')`)

// variantSteps are the replacements of sites taken in turns (each site's
// first, then each one's second, ...), the first maxGoVariantSites sites,
// at most max.
func variantSteps(sites []goSite, max int) []goStep {
	if len(sites) > maxGoVariantSites {
		sites = sites[:maxGoVariantSites]
	}
	var out []goStep
	for round := 0; len(out) < max; round++ {
		more := false
		for _, s := range sites {
			if round < len(s.with) && len(out) < max {
				out = append(out, goStep{from: s.from, to: s.to, with: s.with[round], what: shortLit(s.text) + " as " + shortLit(s.with[round])})
				more = true
			}
		}
		if !more {
			break
		}
	}
	return out
}

// short is a literal in at most 60 characters, as a variant names it.
func shortLit(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:57]) + "..."
	}
	return s
}

// GoVariantsPerTest is how many variants of one Go test are made, the
// same in evidence and in the gate's test row, which numbers them alike.
const GoVariantsPerTest = 16

// GoVariantEnd is how the variant v ended in run (a verbose run): ""
// passed, else its deepest failing subtest's first message ("failed"
// when it said none), a line of the variant's function named as the
// test's own line; ran is false when run has no word of it (a variant
// before it panicked the test binary).
func GoVariantEnd(run GoTestRun, v GoVariant) (end string, ran bool) {
	fn := v.Func
	if run.Passed[fn] {
		return "", true
	}
	if _, failed := run.Failed[fn]; !failed {
		return "", false
	}
	leaf := fn
	for _, n := range run.Order {
		if strings.HasPrefix(n, fn+"/") && len(n) > len(leaf) {
			leaf = n
		}
	}
	how := run.Failed[leaf]
	if how == "" {
		how = run.Failed[fn]
	}
	if how == "" {
		how = "failed"
	}
	how = testLine.ReplaceAllStringFunc(how, func(at string) string {
		file, l, _ := strings.Cut(strings.TrimSuffix(at, ":"), ":")
		if n, err := strconv.Atoi(l); err == nil && n >= v.first && n <= v.last {
			return fmt.Sprintf("%s:%d:", file, n-v.first+v.origin)
		}
		return at
	})
	// A subtest's name is the test's own; the variant's function name
	// is premise's.
	return strings.ReplaceAll(how, fn, v.Test), true
}

// testLine is a place in a Go test file a message names.
var testLine = regexp.MustCompile(`\b[\w.-]+_test\.go:\d+:`)

// BuildErrorsIn are the variants of vs whose function holds one of
// errs (a failed build's places): those to leave out of the next build.
func BuildErrorsIn(errs []string, file string, vs []GoVariant) []string {
	var out []string
	for _, e := range errs {
		f, l, ok := strings.Cut(e, ":")
		n, err := strconv.Atoi(l)
		if !ok || err != nil || f != file {
			continue
		}
		for _, v := range vs {
			if n >= v.first && n <= v.last && !slices.Contains(out, v.ID) {
				out = append(out, v.ID)
			}
		}
	}
	return out
}
