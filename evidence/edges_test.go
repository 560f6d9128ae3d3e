package evidence_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/premise-dev/premise/evidence"
	"github.com/premise-dev/premise/evidence/lang"
)

// A binary decoder reads bytes no text holds: a reader of 0xff, 0xe0
// (MessagePack's negative fixints) reaches a branch UTF-8 text never
// does, and a patch that reads them unsigned is a change there.
func TestGoBinaryReaderReachesHighBytes(t *testing.T) {
	t.Parallel()
	mod := "module example.com/dec\n\ngo 1.21\n"
	base := `package dec

import (
	"errors"
	"io"
)

// Decoder reads small integers, one byte each.
type Decoder struct{ r io.Reader }

// NewDecoder reads from r.
func NewDecoder(r io.Reader) *Decoder { return &Decoder{r: r} }

// Next is the next integer: a byte below 0x80 is itself, one from 0xe0
// up a negative number; the others are tags it does not read.
func (d *Decoder) Next() (int, error) {
	var b [1]byte
	if _, err := io.ReadFull(d.r, b[:]); err != nil {
		return 0, err
	}
	switch c := b[0]; {
	case c < 0x80:
		return int(c), nil
	case c >= 0xe0:
		return int(int8(c)), nil
	}
	return 0, errors.New("not an integer")
}
`
	head := strings.Replace(base, "return int(int8(c)), nil", "return int(c), nil", 1)
	rep := runCommits(t, map[string]string{"go.mod": mod, "dec.go": base}, map[string]string{"dec.go": head}, nil)
	if c, ok := changeOn(t, rep, "example.com/dec.Decoder.Next", "negative integers read unsigned"); ok && !strings.Contains(c.Input, "bytes.NewReader") {
		t.Errorf("the change is shown on %s; want a reader of bytes", c.Input)
	}
}

// A function reading a line scanner or a buffered reader (a mail's
// headers up to the blank line, a header's first line) gets them over the
// same texts an io.Reader does: a patch that no longer stops at a blank
// line is a change there.
func TestGoScannerAndBufferedReaderParameters(t *testing.T) {
	t.Parallel()
	mod := "module example.com/mail\n\ngo 1.21\n"
	base := `package mail

import (
	"bufio"
	"strings"
)

// Headers are the lines s scans, up to a blank line.
func Headers(s *bufio.Scanner) string {
	var b []string
	for s.Scan() {
		if s.Text() == "" {
			break
		}
		b = append(b, s.Text())
	}
	return strings.Join(b, "|")
}

// First is the first line r holds, or (blank).
func First(r *bufio.Reader) string {
	line, _ := r.ReadString('\n')
	if strings.TrimSpace(line) == "" {
		return "(blank)"
	}
	return strings.TrimSpace(line)
}
`
	head := strings.Replace(base, "\t\tif s.Text() == \"\" {\n\t\t\tbreak\n\t\t}\n", "", 1)
	head = strings.Replace(head, "\tif strings.TrimSpace(line) == \"\" {\n\t\treturn \"(blank)\"\n\t}\n", "", 1)
	if strings.Count(head, "if ") != 0 {
		t.Fatal("the head keeps a check")
	}
	rep := runCommits(t, map[string]string{"go.mod": mod, "mail.go": base}, map[string]string{"mail.go": head}, nil)
	changeOn(t, rep, "example.com/mail.Headers", "a scanner's blank line no longer ends the headers")
	changeOn(t, rep, "example.com/mail.First", "a buffered reader's blank first line is no longer (blank)")
}

// A function that stops appending into its caller's buffer returns the
// same values, but the caller who kept the buffer sees its room left
// empty: a slice argument is given room past its length, and what the
// call wrote there is compared (paulmach/orb's InBoundMatching).
func TestGoCallersBufferAfterTheCall(t *testing.T) {
	t.Parallel()
	mod := "module example.com/buf\n\ngo 1.21\n"
	base := `package buf

// Evens appends the even numbers of xs to dst.
func Evens(dst []int, xs []int) []int {
	for _, x := range xs {
		if x%2 == 0 {
			dst = append(dst, x)
		}
	}
	return dst
}
`
	head := strings.Replace(base, `	for _, x := range xs {
		if x%2 == 0 {
			dst = append(dst, x)
		}
	}
	return dst`, `	var out []int
	for _, x := range xs {
		if x%2 == 0 {
			out = append(out, x)
		}
	}
	return append(dst[:len(dst):len(dst)], out...)`, 1)
	rep := runCommits(t, map[string]string{"go.mod": mod, "buf.go": base}, map[string]string{"buf.go": head}, nil)
	if c, ok := changeOn(t, rep, "example.com/buf.Evens", "the caller's buffer is no longer filled"); ok && !strings.Contains(c.Base, "arg1[") {
		t.Errorf("the change is %q against %q; want the base's buffer named", c.Base, c.Head)
	}
}

// A parameter whose type another package of the module declares (a
// bound of two points, geo.Bound{Min, Max geo.Point} with Point a
// [2]float64) is built from that package's declaration, as one of the
// function's own package would be.
func TestGoTypeOfAnotherPackageOfTheModule(t *testing.T) {
	t.Parallel()
	mod := "module example.com/maps\n\ngo 1.21\n"
	geo := "package geo\n\n// Point is x and y.\ntype Point [2]float64\n\n// Bound is a rectangle.\ntype Bound struct {\n\tMin, Max Point\n}\n"
	index := func(cmp string) string {
		return `package index

import "example.com/maps/geo"

// Inside says p is in b, its edges included.
func Inside(b geo.Bound, p geo.Point) bool {
	return p[0] ` + cmp + ` b.Min[0] && p[0] <= b.Max[0] && p[1] >= b.Min[1] && p[1] <= b.Max[1]
}
`
	}
	rep := runCommits(t, map[string]string{"go.mod": mod, "geo/geo.go": geo, "index/index.go": index(">=")}, map[string]string{"index/index.go": index(">")}, nil)
	changeOn(t, rep, "example.com/maps/index.Inside", "a point on the bound's left edge is no longer inside")
}

// A slice of elements no value is built for (an interface of methods)
// is still given empty and nil: a patch that reads the one as the other
// is a change there (orb's InBoundMatching, `buf != nil` made
// `len(buf) > 0`).
func TestGoSliceOfUnbuildableElementsIsEmptyOrNil(t *testing.T) {
	t.Parallel()
	mod := "module example.com/names\n\ngo 1.21\n"
	src := func(test string) string {
		return `package names

import "fmt"

// Names is the names of xs; "none" when the caller passed no list.
func Names(xs []fmt.Stringer) []string {
	if ` + test + ` {
		return []string{"none"}
	}
	out := []string{}
	for _, x := range xs {
		out = append(out, x.String())
	}
	return out
}
`
	}
	rep := runCommits(t, map[string]string{"go.mod": mod, "names.go": src("xs == nil")}, map[string]string{"names.go": src("len(xs) == 0")}, nil)
	changeOn(t, rep, "example.com/names.Names", "an empty list is now read as none")
}

// A function the patch gave another parameter is called with the head's
// arguments, which the base's harness refuses (premise.ArityError): no
// row compared anything, so the symbol is unchecked, never "holds".
func TestGoRowsTheBaseRefusesLeaveTheSymbolUnchecked(t *testing.T) {
	t.Parallel()
	mod := "module example.com/twice\n\ngo 1.21\n"
	base := "package twice\n\n// Twice doubles x.\nfunc Twice(x int) int {\n\treturn 2 * x\n}\n"
	head := "package twice\n\n// Twice doubles x, and adds y.\nfunc Twice(x, y int) int {\n\treturn 2*x + y\n}\n"
	rep := runCommits(t, map[string]string{"go.mod": mod, "twice.go": base}, map[string]string{"twice.go": head}, nil)
	s := symbolRows(t, rep, "example.com/twice.Twice")
	if len(changesOf(rep, "example.com/twice.Twice")) == 0 && !s.Unchecked {
		t.Errorf("Twice: no change and not unchecked (%+v, coverage %+v): rows the base refused compared nothing", s, s.Coverage)
	}
}

// Two string parameters get the same text, case-flipped and a character
// longer, a text of multi-byte characters first: a common prefix counted
// in bytes where the base counts runes parts from the base only when both
// texts share characters of several bytes.
func TestGoSameTextsOfTwoStrings(t *testing.T) {
	t.Parallel()
	mod := "module example.com/pre\n\ngo 1.21\n"
	base := `package pre

// Common is the common prefix of a and b.
func Common(a, b string) string {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > len(rb) {
		ra, rb = rb, ra
	}
	n := 0
	for i, r := range ra {
		if r != rb[i] {
			break
		}
		n++
	}
	return string(rb[:n])
}
`
	head := strings.Replace(base, "for i, r := range ra {", "for i, r := range string(ra) {", 1)
	rep := runCommits(t, map[string]string{"go.mod": mod, "pre.go": base}, map[string]string{"pre.go": head}, nil)
	changeOn(t, rep, "example.com/pre.Common", "a byte offset indexes the runes of a shared multi-byte prefix")
}

// A Python function that takes one of the project's objects gets the ones
// its tests build with the project's code: a graph setup_class fills
// edge by edge with the graph's own methods, where a change shows only on
// a graph with edges (networkx's functions take graphs; a bare Graph()
// and the literals premise makes show nothing).
func TestPythonArgumentBuiltByTheProjectsCode(t *testing.T) {
	t.Parallel()
	graph := "class Graph:\n    def __init__(self):\n        self.adj = {}\n\n" +
		"    def add_edge(self, u, v):\n        self.adj.setdefault(u, set()).add(v)\n        self.adj.setdefault(v, set()).add(u)\n\n" +
		"    def add_edges_from(self, edges):\n        for u, v in edges:\n            self.add_edge(u, v)\n\n" +
		"from graphs.degrees import degree_sum\n"
	base := map[string]string{
		"graphs/__init__.py": graph,
		"graphs/degrees.py":  "def degree_sum(G):\n    return sum(len(G.adj[n]) for n in G.adj)\n",
		"tests/test_degrees.py": "import graphs as gr\n\n\nclass TestDegrees:\n    @classmethod\n    def setup_class(cls):\n" +
			"        G = gr.Graph()\n        G.add_edges_from([(0, 1), (1, 2)])\n        cls.G = G\n\n" +
			"    def test_sum(self):\n        assert gr.degree_sum(self.G) == 4\n",
	}
	head := map[string]string{"graphs/degrees.py": "def degree_sum(G):\n    return len(G.adj)\n"}
	rep := runCommits(t, base, head, nil)
	for _, c := range append(rep.Changes, rep.Unexplained...) {
		if c.Symbol == "graphs.degrees.degree_sum" && strings.Contains(c.Input, "add_edges_from") {
			return
		}
	}
	t.Errorf("degree_sum: no change on the tests' graph: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
}

// Infinities and NaN, which JSON cannot carry, reach a number parameter of
// a function that speaks of them: PyMySQL's escape_float refused inf and
// nan by their repr, and a head that forgets -inf writes '-infe0'.
func TestPythonInfinitiesReachAFunctionThatNamesThem(t *testing.T) {
	t.Parallel()
	mod := func(refused string) string {
		return "def escape_float(value, mapping=None):\n    s = repr(value)\n    if s in (" + refused + "):\n        raise ValueError('%s can not be used with MySQL' % s)\n" +
			"    if 'e' not in s:\n        s += 'e0'\n    return s\n"
	}
	rep := runCommits(t, map[string]string{"conv.py": mod("'inf', '-inf', 'nan'")}, map[string]string{"conv.py": mod("'inf', 'nan'")}, nil)
	var neg bool
	for _, c := range changesOf(rep, "conv.escape_float") {
		neg = neg || strings.Contains(c.Input, "float('-inf')")
	}
	if !neg {
		t.Errorf("-inf is written as '-infe0' on the head, yet no row of -inf showed it: %+v; symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// A list whose elements may be missing (List[Optional[float]]) is handed
// lists with None among their values: a head that no longer leaves the
// missing ones out of its sums (gpxpy's calculate_uphill_downhill) fails
// on them.
func TestPythonListOfOptionalsGetsMissingElements(t *testing.T) {
	t.Parallel()
	mod := func(filter string) string {
		return "from typing import List, Optional\n\n\ndef climb(elevations: List[Optional[float]]) -> float:\n" + filter +
			"    total = 0.0\n    for a, b in zip(elevations, elevations[1:]):\n        if b > a:\n            total += b - a\n    return total\n"
	}
	rep := runCommits(t, map[string]string{"geo.py": mod("    elevations = [e for e in elevations if e is not None]\n")}, map[string]string{"geo.py": mod("")}, nil)
	if len(changesOf(rep, "geo.climb")) == 0 {
		t.Errorf("missing elevations now fail the sum, yet no change was shown: %+v; symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// Numbers joined by a function's separators, one inside the other's last
// piece: PyMySQL's convert_time splits a TIME at ':' and its seconds at
// '.', and a head that reads ".5" as five microseconds is shown on
// "1:2:3.5", though no test calls the function.
func TestPythonNumbersJoinedByTheFunctionsSeparators(t *testing.T) {
	t.Parallel()
	mod := func(micro string) string {
		return "import datetime\n\n\ndef convert_time(obj):\n    try:\n        microseconds = 0\n        if '.' in obj:\n            (obj, tail) = obj.split('.')\n" +
			"            microseconds = " + micro + "\n        hours, minutes, seconds = obj.split(':')\n" +
			"        return datetime.time(hour=int(hours), minute=int(minutes), second=int(seconds), microsecond=int(microseconds))\n    except ValueError:\n        return None\n"
	}
	rep := runCommits(t, map[string]string{"conv.py": mod("float('0.' + tail) * 1e6")}, map[string]string{"conv.py": mod("int(tail)")}, nil)
	if len(changesOf(rep, "conv.convert_time")) == 0 {
		t.Errorf("a fraction of a second is read as microseconds on the head, yet no change was shown: %+v; symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// A function that tests for a float is handed floats whose repr is in
// scientific notation: gpxpy's make_str wrote them in fixed notation, as
// GPX requires, and a head that drops that writes '4e-05'.
func TestPythonFloatInScientificNotation(t *testing.T) {
	t.Parallel()
	mod := func(fixed string) string {
		return "import sys\n\nPYTHON_VERSION = sys.version.split(' ')[0]\n\n\ndef make_str(s):\n    \"\"\" Convert a str or unicode or float object into a str type. \"\"\"\n" +
			"    if isinstance(s, float):\n        result = str(s)\n" + fixed + "        return result\n" +
			"    if PYTHON_VERSION[0] == '2':\n        if isinstance(s, unicode):\n            return s.encode('utf-8')\n    return str(s)\n"
	}
	rep := runCommits(t, map[string]string{"utils.py": mod("        if 'e' in result:\n            return '{:f}'.format(s).rstrip('0').rstrip('.')\n")}, map[string]string{"utils.py": mod("")}, nil)
	if len(changesOf(rep, "utils.make_str")) == 0 {
		t.Errorf("a float is written in scientific notation on the head, yet no change was shown: %+v; symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// A parameter whose default names one of the module's values (xlrd's
// cell_name_to_rowx_colx(cell_name, letter_value=_UPPERCASE_1_REL_INDEX))
// is handed that value, as callers do: a head that no longer upper-cases
// the name before looking its letters up in the table fails on a lower
// case letter.
func TestPythonDefaultNamingAModuleValue(t *testing.T) {
	t.Parallel()
	mod := func(upper string) string {
		return "_INDEX = {c: i + 1 for i, c in enumerate('ABCDEFGHIJKLMNOPQRSTUVWXYZ')}\n\n\ndef col(name, letter_value=_INDEX):\n" +
			"    n = 0\n    for c in name" + upper + ":\n        n = n * 26 + letter_value[c]\n    return n\n"
	}
	rep := runCommits(t, map[string]string{"cells.py": mod(".upper()")}, map[string]string{"cells.py": mod("")}, nil)
	var named bool
	for _, c := range changesOf(rep, "cells.col") {
		named = named || strings.Contains(c.Input, "cells._INDEX")
	}
	if !named {
		t.Errorf("lower-case names fail on the head, yet no row with the module's own table showed it: %+v; symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// A method's receivers include the objects its own module builds with
// literal arguments (PyMySQL's table of Charset(5, 'latin1', ...) rows):
// a head whose encoding no longer maps latin1 to cp1252 is shown on the
// module's own latin1 row, which no pool of the constructor makes.
func TestPythonReceiversTheModuleBuildsItself(t *testing.T) {
	t.Parallel()
	mod := func(mapped string) string {
		return "class Charset(object):\n    def __init__(self, id, name, collation, is_default):\n        self.id, self.name = id, name\n" +
			"        self.collation, self.is_default = collation, is_default == 'Yes'\n\n    @property\n    def encoding(self):\n        name = self.name\n" +
			"        if name in ('utf8mb4', 'utf8mb3'):\n            return 'utf8'\n" + mapped + "        return name\n\n\n" +
			"_charsets = [Charset(1, 'big5', 'big5_chinese_ci', 'Yes'), Charset(8, 'latin1', 'latin1_swedish_ci', 'Yes'), Charset(45, 'utf8mb4', 'utf8mb4_general_ci', 'Yes')]\n"
	}
	rep := runCommits(t, map[string]string{"charset.py": mod("        if name == 'latin1':\n            return 'cp1252'\n")}, map[string]string{"charset.py": mod("")}, nil)
	var latin bool
	for _, c := range changesOf(rep, "charset.Charset.encoding") {
		latin = latin || strings.Contains(c.Input, "'latin1'")
	}
	if !latin {
		t.Errorf("latin1 is no longer cp1252 on the head, yet no row on the module's latin1 charset showed it: %+v; symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// A segment's speed at its first point changes only on a segment holding
// timed points, which no constructor call builds: the tests fill one
// point by point (s.points.append(Point(...))) and never ask it for a
// speed. That segment, as the test filled it, is a receiver.
func TestPythonReceiversTheTestsFillPointByPoint(t *testing.T) {
	t.Parallel()
	mod := func(first string) string {
		return "class Point:\n    def __init__(self, lat, lon, time=None):\n        self.lat, self.lon, self.time = lat, lon, time\n\n\n" +
			"class Segment:\n    def __init__(self, points=None):\n        self.points = points if points else []\n\n" +
			"    def speed(self, i):\n        point, nxt = self.points[i], None\n        if " + first + " <= i < len(self.points) - 1:\n            nxt = self.points[i + 1]\n" +
			"        if nxt is None or nxt.time is None or point.time is None:\n            return None\n" +
			"        return abs(nxt.lat - point.lat) / (nxt.time - point.time).total_seconds()\n"
	}
	test := "import datetime\nfrom geo import Point, Segment\n\n\ndef test_points_kept():\n    s = Segment()\n" +
		"    s.points.append(Point(1, 2, datetime.datetime(2020, 1, 1)))\n    s.points.append(Point(3, 2, datetime.datetime(2020, 1, 2)))\n    assert len(s.points) == 2\n"
	rep := runCommits(t, map[string]string{"geo.py": mod("0"), "tests/test_geo.py": test}, map[string]string{"geo.py": mod("1")}, nil)
	var filled bool
	for _, c := range changesOf(rep, "geo.Segment.speed") {
		filled = filled || strings.Contains(c.Input, "points.append")
	}
	if !filled {
		t.Errorf("the head has no speed at a segment's first point, yet no row on the segment the test filled showed it: %+v; symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// A parameter annotated with a class of the module takes the objects of
// that class the tests build and fill, as it takes those its constructor
// builds: a span over a segment's points shows only on a segment with
// points in it.
func TestPythonClassParameterGetsTheObjectsTestsFill(t *testing.T) {
	t.Parallel()
	mod := func(from string) string {
		return "class Point:\n    def __init__(self, lat, lon):\n        self.lat, self.lon = lat, lon\n\n\n" +
			"class Segment:\n    def __init__(self, points=None):\n        self.points = points if points else []\n\n\n" +
			"def span(seg: Segment) -> float:\n    if len(seg.points) < 2:\n        return 0.0\n    return seg.points[-1].lat - seg.points[" + from + "].lat\n"
	}
	test := "from geo import Point, Segment\n\n\ndef test_points_kept():\n    s = Segment()\n" +
		"    s.points.append(Point(1, 2))\n    s.points.append(Point(3, 2))\n    assert len(s.points) == 2\n"
	rep := runCommits(t, map[string]string{"geo.py": mod("0"), "tests/test_geo.py": test}, map[string]string{"geo.py": mod("1")}, nil)
	var filled bool
	for _, c := range changesOf(rep, "geo.span") {
		filled = filled || strings.Contains(c.Input, "points.append")
	}
	if !filled {
		t.Errorf("the head measures the span from the second point, yet no row on the segment the test filled showed it: %+v; symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// A parameter nothing annotates, whose use reads the module's own class's
// fields off it (item.price) or off its items (for it in items:
// it.price), takes objects of that class and lists of them: on the ints
// and texts of its name's pool both sides fail alike and show nothing.
func TestPythonParameterUsedAsTheModulesObjects(t *testing.T) {
	t.Parallel()
	mod := func(upto, times string) string {
		return "class Item:\n    def __init__(self, price, qty=1):\n        self.price, self.qty = price, qty\n\n\n" +
			"def total(items, discount):\n    s = 0\n    for it in items[:" + upto + "]:\n        s += it.price * it.qty\n    return s - discount\n\n\n" +
			"def doubled(item):\n    return item.price * " + times + "\n"
	}
	rep := runCommits(t, map[string]string{"shop.py": mod("", "2")}, map[string]string{"shop.py": mod("2", "3")}, nil)
	for _, sym := range []string{"shop.total", "shop.doubled"} {
		var built bool
		for _, c := range changesOf(rep, sym) {
			built = built || strings.Contains(c.Input, "Item(")
		}
		if !built {
			t.Errorf("%s changed, yet no row on the module's Item objects showed it: %+v; symbols %+v", sym, changesOf(rep, sym), rep.Symbols)
		}
	}
}

// A document the tests pass, written the other way its format allows:
// its quotes the other kind, its spaces doubled. A parser that took only
// one way is a change that neither the tests' own document nor one
// broken by a character put in shows: both sides refuse a broken one.
func TestPythonTextWrittenTheOtherWay(t *testing.T) {
	t.Parallel()
	mod := func(ns, split string) string {
		return "import re\nimport xml.etree.ElementTree as ET\n\n\n" +
			"def waypoints(doc):\n    doc = re.sub(r'" + ns + "', '', doc, count=1)\n    return [w.get('name') for w in ET.fromstring(doc).iter('wpt')]\n\n\n" +
			"def schema_locations(doc):\n    return ET.fromstring(doc).get('schemaLocation', '')." + split + "\n"
	}
	test := "from geo import waypoints, schema_locations\n\nDOC = '<gpx xmlns=\"http://www.topografix.com/GPX/1/1\" schemaLocation=\"http://a.example/x http://a.example/x.xsd\"><wpt name=\"home\"/></gpx>'\n\n\n" +
		"def test_geo():\n    assert waypoints(DOC) == ['home']\n    assert len(schema_locations(DOC)) == 2\n"
	base := mod(`xmlns=["\'][^"\']*["\']`, "split()")
	head := mod(`xmlns="[^"]*"`, "split(' ')")
	rep := runCommits(t, map[string]string{"geo.py": base, "test_geo.py": test}, map[string]string{"geo.py": head}, nil)
	for _, sym := range []string{"geo.waypoints", "geo.schema_locations"} {
		if len(changesOf(rep, sym)) == 0 {
			t.Errorf("%s changed on a document written the other way, yet no row showed it; symbols %+v", sym, rep.Symbols)
		}
	}
}

// A text the tests pass at its degenerate numbers: every number 0, then
// 1. A count in a text of a set form ('3 days ago') is exactly one only
// where the text says 1, which no character put in or taken out of the
// tests' own texts makes, and no text of the pools has the form.
func TestPythonTextAtItsDegenerateNumbers(t *testing.T) {
	t.Parallel()
	mod := func(one string) string {
		return "import re\n\n\ndef days_ago(text):\n    m = re.fullmatch(r'(\\d+) days? ago', text)\n    if not m:\n        raise ValueError(text)\n    n = int(m.group(1))\n" + one + "    return f'{n} days back'\n"
	}
	test := "from words import days_ago\n\n\ndef test_days_ago():\n    assert days_ago('3 days ago') == '3 days back'\n    assert days_ago('12 days ago') == '12 days back'\n"
	base := mod("    if n == 1:\n        return 'yesterday'\n")
	rep := runCommits(t, map[string]string{"words.py": base, "test_words.py": test}, map[string]string{"words.py": mod("")}, nil)
	if len(changesOf(rep, "words.days_ago")) == 0 {
		t.Errorf("days_ago no longer says yesterday, yet no row showed it; symbols %+v", rep.Symbols)
	}
}

// A base's test that calls a changed method with an object no row can
// build (a reader from another module, unannotated, set up by a statement
// of the test's own that no harvested call repeats) runs again with each
// of its literals replaced: the text emptied, the base's parser answers
// None and fails the test's assertion, the head's raises IndexError. Two
// ends apart on the same test are a change, the literal named; the test
// as written passes on both sides.
func TestPythonBaseTestWithALiteralReplaced(t *testing.T) {
	t.Parallel()
	reader := "class Reader:\n    def __init__(self, text):\n        self.text, self.pos = text, 0\n\n" +
		"    def tokens(self):\n        out = []\n        while self.pos < len(self.text):\n            out.append(self.text[self.pos])\n            self.pos += 1\n        return out\n"
	parser := func(last string) string {
		return "class Parser:\n    def parse(self, reader):\n        nodes = reader.tokens()\n" + last
	}
	test := "from tokens import Reader\nfrom walker import Parser\n\n\ndef test_parse_last():\n    r = Reader('abc')\n    r.pos = 0\n    assert Parser().parse(r) == 'c'\n"
	rep := runCommits(t,
		map[string]string{"tokens.py": reader, "walker.py": parser("        if nodes:\n            return nodes[-1]\n        return None\n"), "test_walker.py": test},
		map[string]string{"walker.py": parser("        return nodes[-1]\n")}, nil)
	var shown *evidence.Change
	for _, c := range changesOf(rep, "walker.Parser.parse") {
		if c.Heuristic == lang.SourceTestVariant {
			shown = &c
		}
	}
	if shown == nil || !strings.Contains(shown.Input, "'abc' as ''") || !strings.HasPrefix(shown.Head, "failed: IndexError") || !strings.HasPrefix(shown.Base, "failed: AssertionError") {
		t.Fatalf("parse raises on no tokens on the head, and no variant of its test showed it: %+v; changes %+v; notes %q", shown, changesOf(rep, "walker.Parser.parse"), rep.Notes)
	}
	if shown.Call == nil || !strings.HasSuffix(shown.Call.Test, "test_parse_last[variant 0]") {
		t.Errorf("the change's call names %+v, want the variant of test_parse_last a test row replays", shown.Call)
	}
}

// A variant of a base's test on which both sides raise the same class of
// exception, reworded, is no change: rows compare exceptions by class,
// and so do variants.
func TestPythonVariantOfATestRewordedIsNoChange(t *testing.T) {
	t.Parallel()
	mod := func(msg string) string {
		return "def parse(text):\n    if not text:\n        raise ValueError(" + msg + ")\n    return text.split(',')\n"
	}
	test := "from csvish import parse\n\n\ndef test_parse():\n    assert parse('a,b') == ['a', 'b']\n"
	rep := runCommits(t, map[string]string{"csvish.py": mod("'empty text'"), "test_csvish.py": test}, map[string]string{"csvish.py": mod("'no text to parse: ' + repr(text)")}, nil)
	if cs := changesOf(rep, "csvish.parse"); len(cs) > 0 {
		t.Errorf("a message reworded is a change: %+v", cs)
	}
}

// A changed function its rows already showed a change on waits for a
// reviewer: the base's tests are not varied for it, which would only
// file the same change again under another name.
func TestPythonShownFunctionsTestsAreNotVaried(t *testing.T) {
	t.Parallel()
	test := "from seq import last\n\n\ndef test_last():\n    assert last('abc') == 'c'\n"
	rep := runCommits(t, map[string]string{"seq.py": "def last(s):\n    return s[-1] if s else None\n", "test_seq.py": test},
		map[string]string{"seq.py": "def last(s):\n    return s[-1]\n"}, nil)
	cs := changesOf(rep, "seq.last")
	if len(cs) == 0 {
		t.Fatalf("last raises on '' on the head and no row showed it; symbols %+v", rep.Symbols)
	}
	for _, c := range cs {
		if c.Heuristic == lang.SourceTestVariant {
			t.Errorf("a variant of test_last was filed though rows showed the change: %+v", c)
		}
	}
}

// A function handed an element's attributes as a dict reads them by keys
// the module names (ATTR_FIT = 'fit') and compares what one holds with
// another of its names: the head drops the value 'none' the base keeps.
// Only a dict holding that key with that value reaches the line; rows
// build the dicts of the keys the body reads, the values it compares
// them with first.
func TestPythonDictOfTheKeysTheBodyReads(t *testing.T) {
	t.Parallel()
	mod := func(fit string) string {
		return "ATTR_FIT = 'fit'\nATTR_WIDTH = 'width'\nVALUE_NONE = 'none'\n\n\n" +
			"class Picture:\n    def __init__(self):\n        self.fit = None\n        self.width = 0\n\n" +
			"    def take(self, values):\n        if ATTR_FIT in values:\n" + fit +
			"        self.width = int(values.get(ATTR_WIDTH, 0))\n        return self\n\n" +
			"    def __repr__(self):\n        return 'Picture(%r, %r)' % (self.fit, self.width)\n"
	}
	base := mod("            self.fit = values[ATTR_FIT]\n")
	head := mod("            if values[ATTR_FIT] == VALUE_NONE:\n                self.fit = None\n            else:\n                self.fit = values[ATTR_FIT]\n")
	rep := runCommits(t, map[string]string{"picture.py": base}, map[string]string{"picture.py": head}, nil)
	found := false
	for _, c := range changesOf(rep, "picture.Picture.take") {
		if strings.Contains(c.Input, "'fit': 'none'") {
			found = true
		}
	}
	if !found {
		t.Errorf("take forgets fit='none' on the head, and no row with that key showed it: %+v; symbols %+v", changesOf(rep, "picture.Picture.take"), rep.Symbols)
	}
}

// A base's test writes its document one way (double quotes); the head's
// parser reads only that way, the base's either. The variant with the
// test's quotes the other kind passes on the base and fails on the head.
func TestPythonBaseTestWithItsQuotesTheOtherKind(t *testing.T) {
	t.Parallel()
	parser := func(pattern string) string {
		return "import re\n\n\nclass Parser:\n    def parse(self, reader):\n        return dict(re.findall(r'''" + pattern + "''', reader.read()))\n"
	}
	test := "from reader import Reader\nfrom attrs import Parser\n\n\ndef test_parse():\n    assert Parser().parse(Reader('a=\"1\" b=\"2\"')) == {'a': '1', 'b': '2'}\n"
	rep := runCommits(t,
		map[string]string{"reader.py": pyTextReader, "attrs.py": parser(`(\w+)=["']([^"']*)["']`), "test_attrs.py": test},
		map[string]string{"attrs.py": parser(`(\w+)="([^"]*)"`)}, nil)
	found := false
	for _, c := range changesOf(rep, "attrs.Parser.parse") {
		if c.Heuristic == lang.SourceTestVariant && (strings.Contains(c.Input, `'a=\'1\' b=\'2\''`) || strings.Contains(c.Input, `"a='1' b='2'"`)) {
			found = true
		}
	}
	if !found {
		t.Errorf("the head's parser takes double quotes only, and no variant with the test's quotes swapped showed it: %+v; notes %q", changesOf(rep, "attrs.Parser.parse"), rep.Notes)
	}
}

// Of many base's tests that call a changed parser, the one whose document
// runs the changed line is varied first, and its markup comes back
// without its element's attribute: the base reads a <p/> with no d as
// empty, the head raises.
func TestPythonBaseTestWithoutAnAttribute(t *testing.T) {
	t.Parallel()
	parser := func(get string) string {
		return "import xml.etree.ElementTree as ET\n\n\nclass Doc:\n    def parse(self, reader):\n        out = []\n        for e in ET.fromstring(reader.read()).iter():\n" +
			"            if e.tag == 'p':\n                out.append(len(" + get + "))\n            else:\n                out.append(e.tag)\n        return out\n"
	}
	test := "from reader import Reader\nfrom doc import Doc\n\n\n"
	for i := 0; i < 12; i++ {
		test += fmt.Sprintf("def test_aa_%d():\n    assert Doc().parse(Reader('<svg><g/></svg>')) == ['svg', 'g']\n\n\n", i)
	}
	test += "def test_zz_path():\n    assert Doc().parse(Reader('<svg><p d=\"abc\"/></svg>')) == ['svg', 3]\n"
	rep := runCommits(t,
		map[string]string{"reader.py": pyTextReader, "doc.py": parser("e.get('d', '')"), "test_doc.py": test},
		map[string]string{"doc.py": parser("e.get('d')")}, nil)
	found := false
	for _, c := range changesOf(rep, "doc.Doc.parse") {
		if c.Heuristic == lang.SourceTestVariant && strings.Contains(c.Input, `as '<svg><p/></svg>'`) {
			found = true
		}
	}
	if !found {
		t.Errorf("the head's parser needs the d attribute, and no variant of test_zz_path without it showed it: %+v; notes %q", changesOf(rep, "doc.Doc.parse"), rep.Notes)
	}
}

// pyTextReader is a module of the tests' own, reader.py: a Reader that
// hands its text to whatever reads it, built by the base's tests and by
// no row.
const pyTextReader = "class Reader:\n    def __init__(self, text):\n        self.text = text\n\n    def read(self):\n        return self.text\n"
