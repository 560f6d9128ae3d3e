package evidence_test

import (
	"strings"
	"testing"

	"github.com/premise-dev/premise/evidence"
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

// TestEntryPointIsTheAPIsSurface: a translator dispatches by name to many
// small methods, each taking the parsed selector, and the change is in
// one of them. Its nearest public callers take parsed objects too, more
// of them than premise takes; the method users call, with the
// selector's text, is the one no other function calls, and it is a
// target (cssselect's css_to_xpath was left out for xpath_negation and
// its like, and every intended change of an nth method was "not
// exercised").
func TestEntryPointIsTheAPIsSurface(t *testing.T) {
	t.Parallel()
	src := func(negative string) string {
		var b strings.Builder
		b.WriteString("import re\n\n\nclass Item:\n    def __init__(self, kind, arg, inner=None):\n        self.kind, self.arg, self.inner = kind, arg, inner\n\n\n")
		b.WriteString("def parse(text):\n    m = re.fullmatch(r\"(\\w+)\\((-?\\d+)\\)\", text.strip())\n    if not m:\n        raise ValueError(text)\n    return Item(m.group(1), int(m.group(2)))\n\n\n")
		b.WriteString("class Translator:\n    def to_xpath(self, css):\n        return \"//*\" + self._translate(parse(css))\n\n    def _translate(self, item):\n        return self.node(item)\n\n")
		b.WriteString("    def node(self, item):\n        return getattr(self, \"node_%s\" % item.kind)(item)\n\n")
		for _, k := range []string{"not", "is", "has", "even", "odd", "only", "empty", "root", "first", "target"} {
			b.WriteString("    def node_" + k + "(self, item):\n        return \"[" + k + "]\" + self.node(item.inner)\n\n")
		}
		b.WriteString("    def node_last(self, item):\n        return self.node_nth(item, last=True)\n\n")
		b.WriteString("    def node_nth(self, item, last=False):\n        n = item.arg\n        if n < 0:\n            " + negative + "\n        if last:\n            return \"[last() - %d]\" % n\n        return \"[%d]\" % n\n")
		return b.String()
	}
	rep := runCommits(t,
		map[string]string{"sel/__init__.py": "", "sel/xpath.py": src(`raise ValueError("negative position")`)},
		map[string]string{"sel/xpath.py": src("n = 0")}, func(c *evidence.Config) { c.TraceSeconds = -1 })
	if s := symbolOf(rep, "sel.xpath.Translator.to_xpath"); s.Rows == 0 {
		t.Errorf("to_xpath, the translator's surface, got no rows: %+v", rep.Symbols)
	}
}

// TestEntryPointThroughAParentConstructorsCall: the changed function is a
// handle built by a streamer whose subclass calls it the way classes were
// built before the class keyword (PapaParse: StringStreamer calls
// ChunkStreamer.call(this, config), which builds new ParserHandle(config));
// that call is a call, and the exported parse, three calls up, is a
// target showing the change.
func TestEntryPointThroughAParentConstructorsCall(t *testing.T) {
	t.Parallel()
	lib := func(split string) string {
		return `'use strict';

function Handle(config) {
  this.parse = function (s) {
    return ` + split + `;
  };
}

function Streamer(config) {
  this._handle = new Handle(config);
}
Streamer.prototype.run = function (s) {
  return this._handle.parse(s);
};

function StringStreamer(config) {
  Streamer.call(this, config);
}
StringStreamer.prototype = Object.create(Streamer.prototype);

function parse(s) {
  return new StringStreamer({sep: ','}).run(s);
}

module.exports.parse = parse;
`
	}
	rep := runCommits(t, map[string]string{"lib.js": lib("s.split(config.sep).filter(Boolean)")},
		map[string]string{"lib.js": lib("s.split(config.sep)")}, nil)
	if len(changesOf(rep, "lib.parse")) == 0 {
		t.Errorf("empty fields are kept again, yet no change on lib.parse: %+v; symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// TestEntryPointHandsTheChangedFunctionOn: a private function no one
// calls by name but that is handed on to be called (sorted's key=, as a
// validator is put in a config's table or passed to a helper) reaches its
// caller all the same: the public function handing it on is a target
// and shows the change.
func TestEntryPointHandsTheChangedFunctionOn(t *testing.T) {
	t.Parallel()
	lib := func(rank string) string {
		return "def _rank(word):\n    return " + rank + "\n\n\ndef ordered(words):\n    return sorted(words, key=_rank)\n"
	}
	rep := runCommits(t, map[string]string{"words.py": lib("(len(word), word)")},
		map[string]string{"words.py": lib("len(word)")}, func(c *evidence.Config) { c.TraceSeconds = -1 })
	if len(changesOf(rep, "words.ordered")) == 0 {
		t.Errorf("ties are no longer broken by the word, yet no change on words.ordered: %+v; symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}
