package evidence_test

import (
	"strings"
	"testing"
)

// TestEntryPointReachesAStepOfAnotherFile: the patch changes a parser's
// step, which takes the parser's state; its file's own callers are steps
// too. Decode, in another file of the package, is what users call and
// what the tests call with whole documents: it becomes a target, and the
// change shows on it, naming the step it reaches.
func TestEntryPointReachesAStepOfAnotherFile(t *testing.T) {
	t.Parallel()
	parse := `package kv

import "strings"

type parser struct {
	out map[string]string
}

func (p *parser) line(l string) {
	k, v, ok := strings.Cut(l, "=")
	if !ok {
		return
	}
	p.set(strings.TrimSpace(k), strings.TrimSpace(v))
}

func (p *parser) set(k, v string) {
	if _, dup := p.out[k]; dup {
		return
	}
	p.out[k] = v
}

func run(doc string) map[string]string {
	p := &parser{out: map[string]string{}}
	for _, l := range strings.Split(doc, "\n") {
		p.line(l)
	}
	return p.out
}
`
	decode := `package kv

// Decode reads a document of key = value lines; the first value of a key
// wins.
func Decode(doc string) map[string]string {
	return run(doc)
}
`
	test := `package kv

import "testing"

func TestDecode(t *testing.T) {
	got := Decode("a = 1\nb = 2\na = 3")
	if got["a"] != "1" {
		t.Fatal(got)
	}
}
`
	head := strings.Replace(parse, "\tif _, dup := p.out[k]; dup {\n\t\treturn\n\t}\n", "", 1)
	mod := "module example.com/kv\n\ngo 1.21\n"
	rep := runCommits(t, map[string]string{"go.mod": mod, "parse.go": parse, "decode.go": decode, "decode_test.go": test},
		map[string]string{"parse.go": head}, nil)
	var shown bool
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "example.com/kv.Decode" && strings.Contains(strings.Join(c.Cause, " "), "set") {
			shown = true
		}
	}
	if !shown {
		t.Errorf("no change on Decode naming the step it reaches: %+v", append(rep.Changes, rep.Unexplained...))
	}
	d := symbolRows(t, rep, "example.com/kv.Decode")
	if d.Rows == 0 || d.Unchecked {
		t.Errorf("Decode: %d rows, unchecked %v (%s)", d.Rows, d.Unchecked, d.Why)
	}
}
