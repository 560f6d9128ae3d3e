package evidence_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/premise-dev/premise/evidence"
)

// newFindings are the findings on functions the head adds.
func newFindings(rep *evidence.Report) []evidence.Change {
	var out []evidence.Change
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.New {
			panic("a new function's finding filed as a behaviour change: " + c.Symbol)
		}
	}
	for _, c := range rep.NewFunctions {
		if c.New {
			out = append(out, c)
		}
	}
	return out
}

// TestNewPythonFunctionIsJudged: a function the head adds has no base, but
// its rows run on the head, and an IndexError it raises on a list the
// function should take (the empty one) is a finding; a new function that
// only refuses None, or raises nothing, is not.
func TestNewPythonFunctionIsJudged(t *testing.T) {
	t.Parallel()
	base := "def keep(x):\n    return x\n"
	head := base + `

def first_word(words):
    return words[0].lower()


def safe_first(words):
    if not words:
        return ""
    return words[0].lower()


def count(words):
    return len(words)
`
	rep := runPatch(t, base, head)
	found := newFindings(rep)
	if len(found) == 0 {
		t.Fatalf("no finding on the new first_word; symbols %+v, unexplained %+v", rep.Symbols, rep.Unexplained)
	}
	for _, c := range found {
		if c.Symbol != "words.first_word" {
			t.Errorf("a finding on %s, which raises no bug: %+v", c.Symbol, c)
		}
		if !strings.HasPrefix(c.Head, "raised IndexError") || c.Base != "did not exist (new on the head)" {
			t.Errorf("finding reads base %q, head %q", c.Base, c.Head)
		}
		if c.Input != "([])" && c.Input != "('')" {
			t.Errorf("the finding's input is %s, want the smallest, ([]) or ('')", c.Input)
		}
	}
	for _, s := range rep.Symbols {
		if strings.HasSuffix(s.Symbol, "first_word") && s.Rows == 0 {
			t.Errorf("the new function got no rows: %s", s.Why)
		}
	}
}

// TestNewGoFunctionIsJudged: a Go function the head adds in a new file
// panics with an index out of range on a slice it takes: a finding, with
// the panic's own words.
func TestNewGoFunctionIsJudged(t *testing.T) {
	t.Parallel()
	rep := runGoPatch(t,
		map[string]string{"nc/keep.go": "package nc\n\n// Keep returns x.\nfunc Keep(x int) int { return x }\n"},
		map[string]string{"nc/last.go": "package nc\n\n// Last is the last item.\nfunc Last(xs []int) int { return xs[len(xs)-1] }\n"})
	found := newFindings(rep)
	if len(found) == 0 {
		t.Fatalf("no finding on the new Last; symbols %+v, skipped %v", rep.Symbols, rep.Skipped)
	}
	if c := found[0]; c.Symbol != "example.com/nc/nc.Last" || !strings.Contains(c.Head, "index out of range") || c.Input != "([])" {
		t.Errorf("finding: %+v", c)
	}
}

// runGoPatch commits a module example.com/nc with the base's files, then
// the head's over them, and runs the evidence stage on the change.
func runGoPatch(t *testing.T, base, head map[string]string) *evidence.Report {
	t.Helper()
	withMod := map[string]string{"go.mod": "module example.com/nc\n\ngo 1.22\n"}
	for rel, text := range base {
		withMod[rel] = text
	}
	return runCommits(t, withMod, head, nil)
}

// TestGoNilReceiver: a pointer method whose head dropped its nil check
// differs on a nil receiver, which every pointer method's rows try.
func TestGoNilReceiver(t *testing.T) {
	t.Parallel()
	const decl = "package nc\n\n// V holds n.\ntype V struct{ n int }\n\n// NewV makes a V.\nfunc NewV(n int) *V { return &V{n} }\n\n"
	rep := runGoPatch(t,
		map[string]string{"nc/v.go": decl + "// Get is n, or -1 on nil.\nfunc (v *V) Get() int {\n\tif v == nil {\n\t\treturn -1\n\t}\n\treturn v.n\n}\n"},
		map[string]string{"nc/v.go": decl + "// Get is n, or -1 on nil.\nfunc (v *V) Get() int {\n\treturn v.n\n}\n"})
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "example.com/nc/nc.V.Get" && strings.Contains(c.Input, "nil") && c.Base == "returned -1" {
			return
		}
	}
	t.Fatalf("no change on a nil receiver: changes %+v, unexplained %+v, symbols %+v", rep.Changes, rep.Unexplained, rep.Symbols)
}

// TestGoReceiversFromEveryConstructor: the tests build every receiver
// with New(n), all empty, and the change shows only on a set with a bit
// set, which another constructor, From(words), builds. The constructors
// take turns, so From's receivers are among the first (found on
// bits-and-blooms/bitset's ShiftRight).
func TestGoReceiversFromEveryConstructor(t *testing.T) {
	t.Parallel()
	const decl = "package nc\n\n// Set is a set of bits.\ntype Set struct{ words []uint64 }\n\n" +
		"// New is an empty set of n bits.\nfunc New(n uint) *Set { return &Set{words: make([]uint64, (n+63)/64)} }\n\n" +
		"// From is the set of words' bits.\nfunc From(words []uint64) *Set { return &Set{words: words} }\n\n"
	var tests strings.Builder
	tests.WriteString("package nc\n\nimport \"testing\"\n\nfunc TestNew(t *testing.T) {\n")
	for n := 1; n <= 40; n++ {
		fmt.Fprintf(&tests, "\tif New(%d).Top() != -1 {\n\t\tt.Fatal(%d)\n\t}\n", n*7, n)
	}
	tests.WriteString("}\n")
	top := func(cmp string) string {
		return "// Top is the highest bit set, -1 when none is; past the words it is -2.\nfunc (s *Set) Top() int {\n\ttop := -1\n" +
			"\tfor i, w := range s.words {\n\t\tfor b := 0; b < 64; b++ {\n\t\t\tif w&(1<<b) != 0 {\n\t\t\t\ttop = i*64 + b\n\t\t\t}\n\t\t}\n\t}\n" +
			"\tif top " + cmp + " 1 {\n\t\treturn top + 100\n\t}\n\treturn top\n}\n"
	}
	rep := runGoPatch(t,
		map[string]string{"nc/set.go": decl + top(">"), "nc/set_test.go": tests.String()},
		map[string]string{"nc/set.go": decl + top(">=")})
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "example.com/nc/nc.Set.Top" && strings.Contains(c.Input, "From(") {
			return
		}
	}
	t.Fatalf("no change on a receiver From builds: changes %+v, unexplained %+v, symbols %+v", rep.Changes, rep.Unexplained, rep.Symbols)
}

// TestGoNilReceiverTakesNilArguments: a pointer method comparing two
// sets answered (nil).Equal(nil) true on the base and false on the head:
// the nil receiver takes the calls with a nil argument too (found on
// bits-and-blooms/bitset's Equal).
func TestGoNilReceiverTakesNilArguments(t *testing.T) {
	t.Parallel()
	const decl = "package nc\n\n// V holds n.\ntype V struct{ n int }\n\n// NewV makes a V.\nfunc NewV(n int) *V { return &V{n} }\n\n"
	eq := func(check string) string {
		return "// Equal says v and w hold the same.\nfunc (v *V) Equal(w *V) bool {\n" + check + "\treturn v.n == w.n\n}\n"
	}
	rep := runGoPatch(t,
		map[string]string{"nc/v.go": decl + eq("\tif v == nil || w == nil {\n\t\treturn v == w\n\t}\n")},
		map[string]string{"nc/v.go": decl + eq("\tif w == nil {\n\t\treturn false\n\t}\n\tif v == nil {\n\t\treturn w == nil\n\t}\n")})
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "example.com/nc/nc.V.Equal" && c.Input == "(nil, nil)" && c.Base == "returned true" {
			return
		}
	}
	t.Fatalf("no change on (nil).Equal(nil): changes %+v, unexplained %+v", rep.Changes, rep.Unexplained)
}

// TestPythonPrivateMethodIsCalled: a changed method whose name starts
// with two underscores is stored mangled (C.__join is C._C__join); its
// rows call it, and the class's other changed method is checked as well
// (found on num2words' Num2Word_RU.__chunk_ordinal_join, where the
// failed lookup left the whole module unchecked).
func TestPythonPrivateMethodIsCalled(t *testing.T) {
	t.Parallel()
	src := func(op string) string {
		return "class Words:\n    def __init__(self):\n        self.sep = ' '\n\n" +
			"    def __join(self, n):\n        if n " + op + " 1:\n            return 'one'\n        return 'many'\n\n" +
			"    def say(self, n):\n        return self.__join(n) + self.sep\n"
	}
	rep := runPatch(t, src(">="), src(">"))
	found := map[string]bool{}
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		found[c.Symbol] = true
	}
	if !found["words.Words.__join"] {
		t.Errorf("no change on the private method; changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// TestPythonPropertyIsCalled: a changed property's getter runs on its
// receivers (reading the property on the class gives the descriptor,
// which no row can call), so its change is found and its changed line
// reached; a functools.cached_property the same way (found on
// jsonpointer's JsonPointer.path, "not exercised" with 60 rows).
func TestPythonPropertyIsCalled(t *testing.T) {
	t.Parallel()
	src := func(root, decorator string) string {
		return "import functools\n\n\nclass Pointer:\n    def __init__(self, text):\n        self.parts = text.split('/')[1:] if text else []\n\n" +
			"    @" + decorator + "\n    def path(self):\n        if not self.parts:\n            return " + root + "\n        return '/' + '/'.join(self.parts)\n"
	}
	for _, decorator := range []string{"property", "functools.cached_property"} {
		rep := runPatch(t, src("'/'", decorator), src("''", decorator))
		found := false
		for _, c := range append(rep.Changes, rep.Unexplained...) {
			found = found || c.Symbol == "words.Pointer.path"
		}
		if !found {
			t.Errorf("%s: no change on the property; symbols %+v", decorator, rep.Symbols)
		}
		for _, s := range rep.Symbols {
			if s.Symbol == "words.Pointer.path" && (s.Coverage == nil || s.Coverage.Head.Reached == 0) {
				t.Errorf("%s: the getter's changed line never ran: %+v", decorator, s.Coverage)
			}
		}
	}
}

// TestPythonAsyncFunctionIsAwaited: an async function's rows run its
// coroutine to the end, so what it returns is compared and its changed
// line reached (every row had returned an un-run coroutine, the same
// repr on both sides: "not exercised").
func TestPythonAsyncFunctionIsAwaited(t *testing.T) {
	t.Parallel()
	src := func(op string) string {
		return "import asyncio\n\n\nasync def ready(n):\n    await asyncio.sleep(0)\n    return n " + op + " 1\n"
	}
	rep := runPatch(t, src(">="), src(">"))
	found := false
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		found = found || c.Symbol == "words.ready"
	}
	if !found {
		t.Errorf("no change on the async function; symbols %+v", rep.Symbols)
	}
}

// TestPythonTargetMissingFromItsModule: a changed function the module
// deletes again (del helper) is not in the module when it runs: that
// function is unchecked and says so, while the module's other changed
// function is still checked.
func TestPythonTargetMissingFromItsModule(t *testing.T) {
	t.Parallel()
	src := func(op string) string {
		return "def helper(n):\n    return n " + op + " 1\n\n\ndel helper\n\n\n" +
			"def first(xs):\n    if len(xs) " + op + " 1:\n        return xs[0]\n    return None\n"
	}
	rep := runPatch(t, src(">="), src(">"))
	var helper, first *evidence.SymbolRows
	for i, s := range rep.Symbols {
		switch s.Symbol {
		case "words.helper":
			helper = &rep.Symbols[i]
		case "words.first":
			first = &rep.Symbols[i]
		}
	}
	if helper == nil || !helper.Unchecked || !strings.Contains(helper.Why, "does not hold it") {
		t.Errorf("helper: %+v, want unchecked: its module does not hold it", helper)
	}
	if first == nil || first.Unchecked || first.Rows == 0 {
		t.Errorf("first: %+v, want checked with rows", first)
	}
	if !slices.ContainsFunc(append(rep.Changes, rep.Unexplained...), func(c evidence.Change) bool { return c.Symbol == "words.first" }) {
		t.Errorf("no change on first: %+v", append(rep.Changes, rep.Unexplained...))
	}
}

// TestPythonAbstractBaseMethodOnSubclasses: a method of a class meant only
// to be derived from (its setup raises NotImplementedError) runs on the
// objects of its subclasses, and a value whose class the text tests
// exactly is tried with a bool: the head's type(value) not in (...)
// refuses the True the base's isinstance took (found on bitmath's _norm).
func TestPythonAbstractBaseMethodOnSubclasses(t *testing.T) {
	t.Parallel()
	decl := `class Size(object):
    valid_types = (int, float)

    def __init__(self, value=0):
        self._unit = self._setup()
        self._norm(value)

    def _setup(self):
        raise NotImplementedError("Size is not used directly")

    def _norm(self, value):
%s

    def __repr__(self):
        return "%%s(%%r)" %% (type(self).__name__, self.value)


class Byte(Size):
    def _setup(self):
        return 1


class KiB(Byte):
    def _setup(self):
        return 1024
`
	base := fmt.Sprintf(decl, `        if isinstance(value, self.valid_types):
            self.value = value * self._unit
        else:
            raise ValueError("not a number: %r" % (value,))`)
	head := fmt.Sprintf(decl, `        if type(value) not in self.valid_types:
            raise ValueError("not a number: %r" % (value,))
        self.value = value * self._unit`)
	rep := runPatch(t, base, head)
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "words.Size._norm" && (strings.Contains(c.Input, "Byte(") || strings.Contains(c.Input, "KiB(")) {
			return
		}
	}
	t.Fatalf("no change of Size._norm on a subclass's object: changes %+v, unexplained %+v, symbols %+v", rep.Changes, rep.Unexplained, rep.Symbols)
}

// TestGoTypesReadFromText: parameters of the standard library's types that
// read themselves from text (net.IP, netip.Prefix) are handed addresses and
// prefixes, where before no value could be built for them and nothing was
// checked (found on c-robinson/iplib's DecrementIP6WithinHostmask).
func TestGoTypesReadFromText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, base, head, sym string }{
		{"net.IP", "package nc\n\nimport \"net\"\n\n// IsV4 says ip is an IPv4 address.\nfunc IsV4(ip net.IP) bool {\n\treturn ip.To4() != nil\n}\n",
			"package nc\n\nimport \"net\"\n\n// IsV4 says ip is an IPv4 address.\nfunc IsV4(ip net.IP) bool {\n\treturn len(ip) == net.IPv4len\n}\n", "example.com/nc/nc.IsV4"},
		{"netip.Prefix", "package nc\n\nimport \"net/netip\"\n\n// Hosts is how many addresses p holds past its first, at most 1<<16.\nfunc Hosts(p netip.Prefix) int {\n\tn := p.Addr().BitLen() - p.Bits()\n\tif n > 16 {\n\t\tn = 16\n\t}\n\treturn 1<<n - 1\n}\n",
			"package nc\n\nimport \"net/netip\"\n\n// Hosts is how many addresses p holds past its first, at most 1<<16.\nfunc Hosts(p netip.Prefix) int {\n\tn := 32 - p.Bits()\n\tif n > 16 {\n\t\tn = 16\n\t}\n\treturn 1<<n - 1\n}\n", "example.com/nc/nc.Hosts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rep := runGoPatch(t, map[string]string{"nc/nc.go": tc.base}, map[string]string{"nc/nc.go": tc.head})
			for _, c := range append(rep.Changes, rep.Unexplained...) {
				if c.Symbol == tc.sym {
					return
				}
			}
			t.Fatalf("no change on %s: changes %+v, unexplained %+v, symbols %+v", tc.sym, rep.Changes, rep.Unexplained, rep.Symbols)
		})
	}
}

// TestGoMagicBytes: a matcher that tells a format by its first bytes is
// handed buffers holding them, at the lengths it checks: the head that
// lowered the length it needs reads past a short buffer's end (found on
// h2non/filetype's Tiff).
func TestGoMagicBytes(t *testing.T) {
	t.Parallel()
	tiff := func(n int) string {
		return fmt.Sprintf("package nc\n\n// Tiff says buf starts a TIFF image, not a CR2 one.\nfunc Tiff(buf []byte) bool {\n\treturn len(buf) > %d &&\n"+
			"\t\t((buf[0] == 0x49 && buf[1] == 0x49 && buf[2] == 0x2A && buf[3] == 0x0) ||\n"+
			"\t\t\t(buf[0] == 0x4D && buf[1] == 0x4D && buf[2] == 0x0 && buf[3] == 0x2A)) &&\n"+
			"\t\t!(buf[8] == 0x43 && buf[9] == 0x52)\n}\n", n)
	}
	rep := runGoPatch(t, map[string]string{"nc/nc.go": tiff(9)}, map[string]string{"nc/nc.go": tiff(3)})
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "example.com/nc/nc.Tiff" && strings.Contains(c.Input, "0x49, 0x49, 0x2a") {
			return
		}
	}
	t.Fatalf("no change of Tiff on a buffer of its magic bytes: changes %+v, unexplained %+v, symbols %+v", rep.Changes, rep.Unexplained, rep.Symbols)
}

// TestGoReflectValueOfKindInterface: a reflect.Value parameter is handed
// values of kind Interface too (a struct's any field as reflection sees
// it): the head that dropped that case writes an empty cell (found on
// gocarina/gocsv's getFieldAsString).
func TestGoReflectValueOfKindInterface(t *testing.T) {
	t.Parallel()
	cell := func(iface string) string {
		return "package nc\n\nimport (\n\t\"fmt\"\n\t\"reflect\"\n)\n\nvar _ = fmt.Sprint\n\n// Cell is a field's value as a CSV cell.\nfunc Cell(field reflect.Value) string {\n\tswitch field.Kind() {\n\tcase reflect.String:\n\t\treturn field.String()\n" +
			iface + "\t}\n\treturn \"\"\n}\n"
	}
	rep := runGoPatch(t, map[string]string{"nc/nc.go": cell("\tcase reflect.Interface:\n\t\treturn fmt.Sprint(field.Interface())\n")},
		map[string]string{"nc/nc.go": cell("")})
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "example.com/nc/nc.Cell" {
			return
		}
	}
	t.Fatalf("no change of Cell: changes %+v, unexplained %+v, symbols %+v", rep.Changes, rep.Unexplained, rep.Symbols)
}

// A helper the patch deletes is run by nothing but its callers' rows, so
// its words lead their pools: a caller that no longer lower-cases the
// version of the one kind the helper named ("hf", like packageurl's
// typeAdjustVersion for huggingface) is shown.
func TestDeletedHelpersWordsReachItsCallers(t *testing.T) {
	t.Parallel()
	base := map[string]string{"purl.py": "def _adjust(kind, version):\n    if kind == 'hf':\n        return version.lower()\n    return version\n\n\ndef parse(kind, version):\n    return kind + '@' + _adjust(kind, version)\n"}
	head := map[string]string{"purl.py": "def parse(kind, version):\n    return kind + '@' + version\n"}
	rep := runCommits(t, base, head, nil)
	var hf bool
	for _, c := range changesOf(rep, "purl.parse") {
		hf = hf || strings.Contains(c.Input, "'hf'")
	}
	if !hf {
		t.Errorf("the hf kind's version is no longer lower-cased, yet no row of kind hf showed it: %+v; symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// A caller of a changed helper that also reaches another changed function
// through a file the patch did not touch names both as the change's
// cause: the reviewer is sent to the function that changed what it
// returns, not only to the helper it passed on the way.
func TestCallerNamesEveryChangedFunctionItReaches(t *testing.T) {
	t.Parallel()
	lex := func(strip string) string {
		return "from pkg.mid import walk\n\n\ndef skip(s):\n    return " + strip + "\n\n\ndef parse(doc):\n    return walk(skip(doc))\n"
	}
	mid := "from pkg.deep import outer\n\n\ndef walk(doc):\n    return [outer(w) for w in doc.split(',')]\n"
	deep := func(body string) string { return "def outer(word):\n    return " + body + "\n" }
	base := map[string]string{"pkg/__init__.py": "", "pkg/lex.py": lex("s.strip()"), "pkg/mid.py": mid, "pkg/deep.py": deep("word.upper()")}
	head := map[string]string{"pkg/lex.py": lex("str.strip(s)"), "pkg/deep.py": deep("word.lower()")}
	rep := runCommits(t, base, head, nil)
	if !hasChange(rep, "pkg.lex.parse", func(c evidence.Change) bool { return slices.Contains(c.Cause, "pkg.deep.outer") }) {
		t.Errorf("parse's answers change through outer, yet no change of parse names it: %+v; symbols %+v", changesOf(rep, "pkg.lex.parse"), rep.Symbols)
	}
}

// A doctest builds its argument from the module's own imports (a
// buffer class of another module of the project, binascii) and binds its
// name again for the next example: each call is read with the binding
// before it, and its input reaches the changed loop no generated buffer
// does.
func TestPythonDoctestAmongTheModulesNames(t *testing.T) {
	t.Parallel()
	buf := "class Buf:\n    def __init__(self, data=b''):\n        self.data = bytearray(data)\n        self.offset = 0\n\n" +
		"    def get(self, n):\n        out = self.data[self.offset:self.offset + n]\n        self.offset += n\n        return bytes(out)\n\n" +
		"    def remaining(self):\n        return len(self.data) - self.offset\n"
	rec := func(cond string) string {
		return "import binascii\nfrom pkg.buf import Buf\n\n\nclass Rec:\n    '''\n" +
			"    >>> raw = binascii.unhexlify(b\"02014100\")\n    >>> Rec.parse(Buf(raw), len(raw))\n    ['A', '']\n" +
			"    >>> raw = binascii.unhexlify(b\"0100\")\n    >>> Rec.parse(Buf(raw), len(raw))\n    ['']\n    '''\n\n" +
			"    @classmethod\n    def parse(cls, buf, length):\n        buf.get(1)\n        out = []\n        while " + cond + ":\n" +
			"            k = buf.get(1)[0]\n            out.append(buf.get(k).decode())\n        return out\n"
	}
	base := map[string]string{"pkg/__init__.py": "", "pkg/buf.py": buf, "pkg/rec.py": rec("buf.remaining() > 0")}
	head := map[string]string{"pkg/rec.py": rec("buf.remaining() > 1")}
	rep := runCommits(t, base, head, nil)
	if !hasChange(rep, "pkg.rec.Rec.parse", func(c evidence.Change) bool { return strings.Contains(c.Input, "unhexlify") }) {
		t.Errorf("parse drops a last empty item now, yet no row on the doctest's buffers showed it: %+v; symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// A changed line only a short buffer reaches (the parser's error path) is
// reached by the doctest's own buffer cut short: the coverage guide steps
// the literals inside a harvested argument's source too.
func TestPythonDoctestArgumentCutShortReachesTheErrorPath(t *testing.T) {
	t.Parallel()
	buf := "class Buf:\n    def __init__(self, data=b''):\n        self.data = bytes(data)\n        self.offset = 0\n\n" +
		"    def get(self, n):\n        out = self.data[self.offset:self.offset + n]\n        self.offset += n\n        return out\n"
	rec := func(handler string) string {
		return "import binascii\nfrom pkg.buf import Buf\n\n\nclass Rec:\n    '''\n" +
			"    >>> Rec.parse(Buf(binascii.unhexlify(b\"0003616263\")))\n    'abc'\n    '''\n\n" +
			"    @classmethod\n    def parse(cls, buf):\n        try:\n            n = buf.get(2)[1]\n            text = buf.get(n)\n" +
			"            if len(text) < n:\n                raise IndexError('short')\n            return text.decode()\n" +
			"        except IndexError as e:\n            " + handler + "\n"
	}
	base := map[string]string{"pkg/__init__.py": "", "pkg/buf.py": buf, "pkg/rec.py": rec("raise ValueError('short record: ' + str(e))")}
	head := map[string]string{"pkg/rec.py": rec("return None")}
	rep := runCommits(t, base, head, nil)
	if !hasChange(rep, "pkg.rec.Rec.parse", func(c evidence.Change) bool { return strings.Contains(c.Base, "ValueError") }) {
		t.Errorf("a short record returns None now, yet no row cut the doctest's record short: %+v; symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}
