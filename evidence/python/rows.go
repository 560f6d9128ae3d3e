package python

import (
	"fmt"
	"math"
	"math/rand"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/evidence/pysource"
	"github.com/premise-dev/premise/validate"
)

// pyParamPools builds each parameter's pool: harvested values first, then
// values around the function's constants, then the type's own pool (or the
// mixed pool when the type stays unknown). A parameter is never left
// without values: one unknown parameter no longer cancels the others' rows
// (issue 13, part 2).
func pyParamPools(sig *lang.Signature, info *pyInfo, harvested [][]any, lits []string) ([][]any, []string) {
	n := len(sig.Params)
	pools := make([][]any, n)
	froms := make([]string, n)
	nums, strs, lens := constantValues(info.consts)
	// The numbers of the changed data it reads (a class's LIMIT before
	// and after) are edges as its own constants are.
	nums = append(nums, dataNumbers(info.data)...)
	// Numbers of the function's own arithmetic: each decimal place zero or
	// not where it takes a number apart, and whole numbers in another type
	// where it converts them (int(n), Decimal(n)): dropping the
	// conversion shows there.
	moreNums := lang.DigitShapes(info.text)
	if convertsRe.MatchString(info.text) {
		moreNums = append(moreNums, otherNumbers()...)
	}
	for i, p := range sig.Params {
		var base []any
		t := inferPython(p)
		g, hasGuess := info.guesses[p.Name]
		guessed := false // the pool is the guess's own (guessPool)
		// An annotation premise reads itself is trusted most; a guess
		// from the docstring, a stub or the body and a name on premise's
		// list both speak, so both pools are taken, the list's first.
		switch {
		case t.Kind == lang.KindTime && t.From == "annotation":
			base, froms[i] = timePool(t), "annotation"
		case t.Known() && t.From == "annotation":
			base, froms[i] = lang.Pool(t, lits), "annotation"
		case hasGuess && g.Known() && t.Known():
			base, froms[i] = lang.Interleave([][]any{lang.Pool(t, lits), guessPool(g, lits)}), t.From+"+"+g.From
			guessed = true
		case hasGuess && g.Known():
			base, froms[i] = guessPool(g, lits), g.From
			guessed = true
		case t.Known():
			base, froms[i] = lang.Pool(t, lits), t.From
		case t.Kind == lang.KindTime:
			base, froms[i] = timePool(t), t.From
		}
		if hasGuess && g.Kind == pysource.KindDict && !guessed {
			// Number keys (dict[int, int]) premise's own reading of the
			// annotation leaves out: a JSON object's keys are strings.
			if kd := keyedDicts(g, lits); kd != nil {
				base = append(kd, base...)
			}
		}
		if objs := info.classValues[p.Name]; len(objs) > 0 && !t.Known() {
			// Objects of the module's own class the annotation names.
			base, froms[i] = objs, "annotation"
			if t.Nullable || p.Default == "None" {
				base = append(base, nil)
			}
		}
		if objs := info.duckValues[p.Name]; len(objs) > 0 {
			// Objects of the module's class its use fits, or lists of
			// them, before what its guess or nothing at all builds.
			if len(base) == 0 {
				base, froms[i] = mixedPool(), "body"
			}
			base = append(append([]any{}, objs...), base...)
		}
		if len(base) == 0 {
			base, froms[i] = mixedPool(), "unknown"
		}
		var vals []any
		vals = append(vals, harvested[i]...)
		// A default is the value most callers pass.
		if p.Default != "" {
			if v, ok := pyDefaultValue(p.Default); ok {
				vals = append(vals, v)
			} else if v, ok := info.namedDefaults[p.Name]; ok {
				vals = append(vals, v)
			}
		}
		// Classes it compares the parameter with by identity (valtype is
		// int) come first: nothing else reaches those branches.
		vals = append(vals, comparedTypes(p.Name, info.text)...)
		vals = append(vals, testedInstances(p.Name, info.text)...)
		vals = append(vals, scaledDurations(p.Name, info.text, t, nums)...)
		vals = append(vals, exactTypeInstances(p.Name, info.text)...)
		vals = append(vals, magicBytes(p.Name, info.text)...)
		if t.Kind == lang.KindDict || !(t.Known() && t.From == "annotation") {
			vals = append(vals, keyedReads(info.keys[p.Name], info, lits)...)
		}
		kind := poolKind(base)
		if froms[i] != "annotation" || kind["str"] {
			// The changed data's words are what reach the changed
			// entries of what the function reads (a key guessed an
			// index from its use may well be one of them).
			for _, w := range info.data[:min(len(info.data), maxDataValues)] {
				vals = append(vals, w)
			}
		}
		vals = append(vals, base[0])
		if kind["num"] {
			vals = append(vals, nums...)
			vals = append(vals, moreNums...)
		}
		if kind["str"] {
			vals = append(vals, strs...)
		}
		if l, ok := lens[p.Name]; ok {
			vals = append(vals, sized(base, l)...)
		}
		vals = append(vals, base[1:]...)
		if kind["str"] {
			vals = append(vals, lang.PathShapes(info.text)...)
		}
		if kind["num"] && (t.Kind == lang.KindFloat || specialFloatRe.MatchString(info.text)) {
			// Infinities and NaN, which JSON cannot carry, for a float
			// parameter or a number of a function that speaks of them
			// (PyMySQL's escape_float refused 'inf' and 'nan' by their
			// repr, and wrote -inf as '-infe0').
			vals = append(vals, specialFloats()...)
		}
		if kind["str"] && bytesRe.MatchString(info.text) {
			// A function that speaks of bytes takes them where it takes
			// text: ASCII, and a byte no text encoding agrees on.
			vals = append(vals, map[string]any{lang.ExprKey: "b'abc'"}, map[string]any{lang.ExprKey: `b'\xe4'`})
		}
		pools[i] = lang.DedupeValues(vals)
	}
	return pools, froms
}

// specialFloatRe finds a function that speaks of infinities or NaN.
var specialFloatRe = regexp.MustCompile(`(?i)\b(inf|infinity|nan|isinf|isnan|isfinite)\b`)

// specialFloats are infinity each way and NaN, as expressions the worker
// evaluates.
func specialFloats() []any {
	return []any{map[string]any{lang.ExprKey: "float('inf')"}, map[string]any{lang.ExprKey: "float('-inf')"}, map[string]any{lang.ExprKey: "float('nan')"}}
}

// maxDataValues bounds the words of changed data a parameter of unknown
// type is given.
const maxDataValues = 8

// timePool is the values of a Python date or time parameter, as
// expressions the worker evaluates (JSON has no datetime): naive and aware
// datetimes side by side (comparing them raises), two zones for one
// instant, a day's and a year's edges, a leap day; dates, times and
// durations around zero for those types. A parameter only its name calls
// a time (created_at) also takes timestamps as text.
func timePool(t lang.Type) []any {
	var srcs []string
	text := t.Text
	switch {
	case strings.Contains(text, "timedelta"):
		srcs = []string{"datetime.timedelta(0)", "datetime.timedelta(seconds=1)", "datetime.timedelta(seconds=-1)",
			"datetime.timedelta(days=1)", "datetime.timedelta(hours=1, minutes=30)", "datetime.timedelta(microseconds=1)"}
	case strings.Contains(text, "date") && !strings.Contains(text, "datetime"):
		srcs = []string{"datetime.date(2024, 3, 1)", "datetime.date(2024, 2, 29)", "datetime.date(2023, 12, 31)", "datetime.date(2024, 1, 1)"}
	case strings.Contains(text, "time") && !strings.Contains(text, "datetime"):
		srcs = []string{"datetime.time(0, 0)", "datetime.time(23, 59, 59)", "datetime.time(12, 0, tzinfo=datetime.timezone.utc)"}
	default:
		srcs = []string{"datetime.datetime(2024, 3, 1, 0, 0)", "datetime.datetime(2024, 3, 1, 1, 30, tzinfo=datetime.timezone.utc)",
			"datetime.datetime(2024, 3, 1, 2, 30, tzinfo=datetime.timezone(datetime.timedelta(hours=1)))",
			"datetime.datetime(2024, 3, 1, 0, 1)", "datetime.datetime(2024, 3, 1, 0, 0, tzinfo=datetime.timezone.utc)",
			"datetime.datetime(2023, 12, 31, 23, 59, 59)", "datetime.datetime(2024, 2, 29, 12, 0)"}
	}
	var out []any
	for _, src := range srcs {
		out = append(out, map[string]any{lang.ExprKey: src, lang.ImportsKey: []any{"import datetime"}})
	}
	if t.From == "name" {
		out = append(out, "2024-03-01T00:00:00", "2024-03-01T01:30:00+00:00", 0, 1709251200)
	}
	if t.Nullable {
		out = append(out, nil)
	}
	return out
}

// convertsRe finds a function that converts a number to another type.
var convertsRe = regexp.MustCompile(`\b(int|float|Decimal|Fraction|round)\(`)

// otherNumbers are whole numbers in the other types a number comes in.
func otherNumbers() []any {
	out := []any{1.0, 5.0, 21.0}
	for _, d := range []string{"1", "5", "21", "2.50"} {
		out = append(out, map[string]any{lang.ExprKey: "decimal.Decimal(" + strconv.Quote(d) + ")", lang.ImportsKey: []any{"import decimal"}})
	}
	return out
}

// bytesRe finds a function that speaks of bytes.
var bytesRe = regexp.MustCompile(`\bbytes\b|\.decode\(|\bbytearray\b|\b_?binary_type\b`)

// builtinTypes are the classes a parameter compared by identity takes, as
// the worker names them.
var builtinTypes = map[string]string{"int": "int", "float": "float", "str": "str", "bytes": "bytes", "bool": "bool",
	"list": "list", "dict": "dict", "tuple": "tuple", "set": "set", "type(None)": "type(None)", "NoneType": "type(None)"}

// comparedTypes are the built-in classes the text compares name with by
// identity or equality (valtype is int, t == float, t in (int, float),
// issubclass(t, str)), as expressions the worker evaluates.
func comparedTypes(name, text string) []any {
	q := regexp.QuoteMeta(name)
	re := regexp.MustCompile(`\b` + q + `\s*(?:is\s+(?:not\s+)?|[!=]=\s*)(type\(None\)|[A-Za-z_]\w*)|\b` + q + `\s+(?:not\s+)?in\s+[(\[{]([^)\]}]*)|issubclass\(\s*` + q + `\s*,\s*\(?([^)]*)`)
	seen := map[string]bool{}
	var out []any
	for _, m := range re.FindAllStringSubmatch(text, 8) {
		for _, t := range strings.FieldsFunc(m[1]+","+m[2]+","+m[3], func(r rune) bool { return r == ',' || r == ' ' }) {
			if e, ok := builtinTypes[t]; ok && !seen[e] {
				seen[e] = true
				out = append(out, map[string]any{lang.ExprKey: e})
			}
		}
	}
	return out
}

// instanceOf is a value of each class a function commonly tests its
// argument against with isinstance, as an expression and the module it
// needs: abstract classes by a value of them that no narrower check (a
// dict, a list) admits; dict by a subclass of it, the value on which
// isinstance(o, dict) and type(o) is dict part (a defaultdict, an
// OrderedDict a caller passes), holding a list so that a converter's
// recursion into it shows.
var instanceOf = map[string]struct{ expr, module string }{
	"dict":            {"collections.OrderedDict([('a', [1]), ('b', 2)])", "collections"},
	"Mapping":         {"types.MappingProxyType({'a': 1})", "types"},
	"MutableMapping":  {"collections.UserDict({'a': 1})", "collections"},
	"Sequence":        {"(1, 2)", ""},
	"MutableSequence": {"collections.UserList([1, 2])", "collections"},
	"Set":             {"frozenset({1, 2})", ""},
	"Iterable":        {"iter([1, 2])", ""},
	"Iterator":        {"iter([1, 2])", ""},
	"Collection":      {"frozenset({1})", ""},
	"tuple":           {"(1, 2)", ""},
	"set":             {"{1, 2}", ""},
	"frozenset":       {"frozenset({1, 2})", ""},
	"bytes":           {"b'ab'", ""},
	"bytearray":       {"bytearray(b'ab')", ""},
	"list":            {"[1, 2]", ""},
	"str":             {"'ab'", ""},
	"int":             {"3", ""},
	"float":           {"1.5", ""},
	"bool":            {"False", ""},
	"complex":         {"1j", ""},
	"range":           {"range(3)", ""},
	"date":            {"datetime.date(2020, 1, 31)", "datetime"},
	"datetime":        {"datetime.datetime(2020, 1, 31, 12, 30)", "datetime"},
	"time":            {"datetime.time(12, 30)", "datetime"},
	"timedelta":       {"datetime.timedelta(days=1, seconds=30)", "datetime"},
	"PurePath":        {"pathlib.PurePosixPath('a/b.txt')", "pathlib"},
	"Path":            {"pathlib.Path('a/b.txt')", "pathlib"},
	"UUID":            {"uuid.UUID(int=1)", "uuid"},
	"Enum":            {"http.HTTPStatus.OK", "http"},
	"IntEnum":         {"http.HTTPStatus.OK", "http"},
	"Decimal":         {"decimal.Decimal('1.5')", "decimal"},
	"Fraction":        {"fractions.Fraction(1, 3)", "fractions"},
	"Number":          {"fractions.Fraction(1, 3)", "fractions"},
	"Integral":        {"True", ""},
}

// isinstanceRe finds isinstance(x..., T) and isinstance(x..., (T, U)).
var isinstanceRe = regexp.MustCompile(`isinstance\(\s*([A-Za-z_]\w*)[^,()]*(?:\([^()]*\))?[^,()]*,\s*\(?([\w., ]+)\)?\s*\)`)

// testedClasses are the classes the text tests name (or an element of
// it, dicts[0] for *dicts) against with isinstance, as written
// (datetime.timedelta).
func testedClasses(name, text string) []string {
	var out []string
	for _, m := range isinstanceRe.FindAllStringSubmatch(text, 12) {
		if m[1] == name || m[1] == name+"s" {
			out = append(out, strings.FieldsFunc(m[2], func(r rune) bool { return r == ',' || r == ' ' })...)
		}
	}
	return out
}

// testedInstances are values of the classes the function tests name (or
// an element of it: dicts[0] for *dicts) against with isinstance: the
// patch that narrows Mapping to dict is seen on a mapping that is not a
// dict (toolz' merge_with).
func testedInstances(name, text string) []any {
	var out []any
	seen := map[string]bool{}
	for _, t := range testedClasses(name, text) {
		e, ok := instanceOf[t[strings.LastIndex(t, ".")+1:]]
		if !ok || seen[e.expr] {
			continue
		}
		seen[e.expr] = true
		v := map[string]any{lang.ExprKey: e.expr}
		if e.module != "" {
			v[lang.ImportsKey] = []any{"import " + e.module}
		}
		out = append(out, v)
		for _, x := range moreInstances[t[strings.LastIndex(t, ".")+1:]] {
			out = append(out, map[string]any{lang.ExprKey: x})
		}
	}
	return out
}

// moreInstances are the further values of a class a function tests for
// (isinstance(s, float)): floats whose repr is in scientific notation,
// which text written for a format may not allow (gpxpy's make_str), and
// a negative zero.
var moreInstances = map[string][]string{"float": {"4e-05", "1e+16", "-0.0"}}

// scaledDurations are durations past the function's whole-number
// constants, for a parameter that takes a timedelta (its annotation, or an
// isinstance test): a day past each, and a second past each. A bound the
// function compares a duration's days or seconds with (xlsxwriter's
// leap-day correction past day 59) is crossed by none of the small
// durations of the type's own pool.
func scaledDurations(name, text string, t lang.Type, nums []any) []any {
	takes := t.Kind == lang.KindTime && strings.Contains(t.Text, "timedelta")
	takes = takes || slices.ContainsFunc(testedClasses(name, text), func(c string) bool { return strings.HasSuffix(c, "timedelta") })
	if !takes {
		return nil
	}
	var out []any
	seen := map[int]bool{}
	for _, n := range nums {
		c, ok := n.(int)
		if !ok || c < 2 || c > 1_000_000 || seen[c] || len(seen) >= maxScaledDurations {
			continue
		}
		seen[c] = true
		for _, unit := range []string{"days", "seconds"} {
			out = append(out, map[string]any{lang.ExprKey: fmt.Sprintf("datetime.timedelta(%s=%d)", unit, c+1), lang.ImportsKey: []any{"import datetime"}})
		}
	}
	return out
}

// maxScaledDurations bounds the constants scaledDurations steps past.
const maxScaledDurations = 4

// exactTypeInstances are values of subclasses of the built-in types for a
// parameter whose class the text compares exactly (type(value) in
// self.valid_types, type(x) is int, type(s) != str): a bool, an IntEnum
// member, a StrEnum member and an OrderedDict are the values on which that
// test and isinstance part, which a patch trading one for the other
// changes (bitmath's _norm refused a bool its isinstance took). The
// classes compared need not be literals: they are often a tuple the
// module keeps.
func exactTypeInstances(name, text string) []any {
	re := regexp.MustCompile(`\btype\(\s*` + regexp.QuoteMeta(name) + `\s*\)\s*(?:is\b|[!=]=|(?:not\s+)?in\b)`)
	if !re.MatchString(text) {
		return nil
	}
	return []any{
		true,
		map[string]any{lang.ExprKey: "http.HTTPStatus.OK", lang.ImportsKey: []any{"import http"}},
		map[string]any{lang.ExprKey: "http.HTTPMethod.GET", lang.ImportsKey: []any{"import http"}},
		map[string]any{lang.ExprKey: "collections.OrderedDict([('a', 1)])", lang.ImportsKey: []any{"import collections"}},
	}
}

// magicBytes are the buffers a function telling a format by its first
// bytes compares name's with (data[0] == 0x89 and on, lang.ByteSignatures),
// as bytes the worker builds.
func magicBytes(name, text string) []any {
	var out []any
	for _, b := range lang.ByteSignatures(name, text) {
		parts := make([]string, len(b))
		for i, v := range b {
			parts[i] = strconv.Itoa(v)
		}
		out = append(out, map[string]any{lang.ExprKey: "bytes([" + strings.Join(parts, ", ") + "])"})
	}
	return out
}

// poolKind says which shapes a pool holds: numbers, strings, lists.
func poolKind(vs []any) map[string]bool {
	k := map[string]bool{}
	for _, v := range vs {
		switch v.(type) {
		case int, float64:
			k["num"] = true
		case string:
			k["str"] = true
		case []any:
			k["list"] = true
		}
	}
	return k
}

// maxSized bounds a list or string built to a constant's length: a
// format's limits are often a few hundred (a 255-character header).
const maxSized = 1024

// dataNumbers are the numbers among the changed data's words, each with
// its neighbours.
func dataNumbers(words []string) []any {
	var out []any
	for _, w := range words {
		if i, err := strconv.Atoi(w); err == nil {
			out = append(out, i, i-1, i+1)
		} else if f, err := strconv.ParseFloat(w, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			out = append(out, f, f-0.1, f+0.1)
		}
	}
	return out
}

// constantValues reads the function's constants into numbers at and
// around each (k-1, k, k+1; 999.9 beside 1000 for a float), the string
// literals, and the lengths compared against per parameter (len(x) > 3).
func constantValues(cs []pysource.Constant) (nums, strs []any, lens map[string][]int) {
	lens = map[string][]int{}
	for _, c := range cs {
		v, ok := pyLiteral(c.Value)
		if !ok {
			continue
		}
		switch x := v.(type) {
		case int:
			nums = append(nums, x, x-1, x+1)
			if c.Operand != "" && strings.HasPrefix(c.Operand, "len(") && strings.HasSuffix(c.Operand, ")") {
				name := strings.TrimSpace(c.Operand[4 : len(c.Operand)-1])
				for _, l := range []int{x - 1, x, x + 1} {
					if l >= 0 && l <= maxSized {
						lens[name] = append(lens[name], l)
					}
				}
			}
		case float64:
			nums = append(nums, x, x-0.1, x+0.1)
			if x != math.Trunc(x) {
				nums = append(nums, math.Floor(x), math.Ceil(x))
			}
		case string:
			strs = append(strs, x)
			if len(x) <= 12 && x != "" {
				strs = append(strs, "a"+x+"1", x+x, strings.ToUpper(x))
			}
		}
	}
	return nums, strs, lens
}

// sized builds values of length l in the pool's shapes: a list of its
// typical list's first element, a string of its typical string's first
// character.
func sized(pool []any, ls []int) []any {
	var out []any
	var elem any = 1
	ch := "a"
	for _, v := range pool {
		if l, ok := v.([]any); ok && len(l) > 0 {
			elem = l[0]
			break
		}
	}
	for _, v := range pool {
		if s, ok := v.(string); ok && s != "" {
			ch = string([]rune(s)[0])
			break
		}
	}
	k := poolKind(pool)
	for _, l := range ls {
		if k["list"] || len(k) == 0 {
			lst := make([]any, l)
			for i := range lst {
				lst[i] = elem
				if n, ok := elem.(int); ok {
					lst[i] = n + i
				}
			}
			out = append(out, lst)
		}
		if k["str"] {
			out = append(out, strings.Repeat(ch, l))
		}
	}
	return out
}

// harvestedArgs converts the harvested inputs to rows, and gathers the
// values seen per parameter: a plain literal as its JSON value, anything
// else (iter('ab'), a lambda) as an expression the worker evaluates
// (issue 13, part 4). A method's input (with a receiver) is left for
// the methods' work.
func harvestedArgs(sig *lang.Signature, info *pyInfo) (rows []lang.SourcedRow, perParam [][]any) {
	n := len(sig.Params)
	perParam = make([][]any, n)
	var positional []int
	index := map[string]int{}
	for i, p := range sig.Params {
		index[p.Name] = i
		if !p.KeywordOnly {
			positional = append(positional, i)
		}
	}
	for _, in := range info.harvested {
		if in.Receiver != "" {
			// A method's call: methodRows makes its row, on its
			// receiver; its arguments lead their pools and are
			// mutated, as a function's are.
			for j, a := range in.Args {
				if j < len(positional) && !in.Raises {
					perParam[positional[j]] = append(perParam[positional[j]], pyArg(a, in.Imports))
				}
			}
			for k, a := range in.Kwargs {
				if i, known := index[k]; known && !in.Raises {
					perParam[i] = append(perParam[i], pyArg(a, in.Imports))
				}
			}
			continue
		}
		var args []any
		kwargs := map[string]any{}
		// A call a test expects to raise is a row of its own, and its
		// arguments no typical value: SettingsFrame(1), refused for
		// its stream, must not build every receiver that way.
		for j, a := range in.Args {
			v := pyArg(a, in.Imports)
			args = append(args, v)
			if j < len(positional) && !in.Raises {
				i := positional[j]
				perParam[i] = append(perParam[i], v)
			}
		}
		for k, a := range in.Kwargs {
			v := pyArg(a, in.Imports)
			kwargs[k] = v
			if i, known := index[k]; known && !in.Raises {
				perParam[i] = append(perParam[i], v)
			}
		}
		r := validate.Row{Cls: "harvested_" + in.Kind, Kind: validate.KindBoundary,
			Relation: "the head must behave as the base does", AssumptionIDs: []string{"S000"}}
		if len(kwargs) == 0 {
			kwargs = nil
		}
		if len(args) == 1 && kwargs == nil {
			r.Inp, r.HasInp = args[0], true
		} else {
			if args == nil {
				args = []any{}
			}
			r.Args, r.Kwargs = args, kwargs
		}
		rows = append(rows, lang.SourcedRow{Row: r, Source: in.Kind + " " + in.Pos})
	}
	return rows, perParam
}

// pyArg is a harvested argument as a row carries it: its JSON value when
// it is a plain literal, else {"$expr": source, "$imports": [...]}, which
// the worker evaluates afresh for each call.
func pyArg(src string, imports []string) any {
	if v, ok := pyLiteral(src); ok {
		return v
	}
	e := map[string]any{lang.ExprKey: src}
	if len(imports) > 0 {
		im := make([]any, len(imports))
		for i, s := range imports {
			im[i] = s
		}
		e[lang.ImportsKey] = im
	}
	return e
}

// maxProbes bounds the calls a target's returned function takes beyond
// the worker's own.
const maxProbes = 12

// probesOf are the extra calls a function the target returns is probed
// with (issue 13, part 4): one argument each, from the target's own
// constants (a factory's nested function compares with them), and None,
// NaN and infinity, which JSON cannot carry. Nil for a target whose text
// defines no function and no lambda: it returns none to probe.
func probesOf(info *pyInfo) []any {
	if info == nil {
		return nil
	}
	body := info.text
	if i := strings.Index(body, "\n"); i >= 0 {
		body = body[i:]
	}
	if !strings.Contains(body, "def ") && !strings.Contains(body, "lambda") {
		return nil
	}
	nums, strs, _ := constantValues(info.consts)
	out := []any{[]any{nil}, []any{map[string]any{lang.ExprKey: "float('nan')"}}, []any{map[string]any{lang.ExprKey: "float('inf')"}}}
	seen := map[string]bool{}
	for _, v := range append(strs, nums...) {
		k := fmt.Sprint(v)
		if seen[k] || len(out) >= maxProbes {
			continue
		}
		seen[k] = true
		out = append(out, []any{v})
	}
	return out
}

// observeItems is how many items of a returned iterator are compared
// (issue 13, part 5).
const observeItems = 20

// observed turns a Python evidence row into the worker's evidence call:
// positional arguments and keyword arguments, with $observe set.
func observed(r validate.Row, probes []any) validate.Row {
	return lang.ObservedRow(r, observeItems, probes)
}

// pyOwnValues are, per parameter, the values of its pool the function's
// text names: its string literals and constants.
func pyOwnValues(info *pyInfo, pools [][]any, lits []string) [][]any {
	strs := append([]string(nil), lits...)
	var nums []float64
	if info != nil {
		ns, ss, _ := constantValues(info.consts)
		for _, v := range ns {
			if f, ok := lang.Number(v); ok {
				nums = append(nums, f)
			}
		}
		for _, v := range ss {
			if s, ok := v.(string); ok {
				strs = append(strs, s)
			}
		}
	}
	own := make([][]any, len(pools))
	for i, p := range pools {
		own[i] = lang.OwnValues(p, strs, nums)
	}
	return own
}

// pyValueRows builds a Python target's rows in order of value, at most
// budget of them: the harvested inputs as written, each parameter over its
// pool while the others keep their typical value, mutations of the
// harvested values, then pairwise combinations drawn with rng (issue 13,
// part 3).
func pyValueRows(sig *lang.Signature, info *pyInfo, lits []string, rng *rand.Rand, budget int) []lang.SourcedRow {
	rows, perParam := harvestedArgs(sig, info)
	pools, _ := pyParamPools(sig, info, perParam, lits)
	mk := func(cls, source string, vals []any) lang.SourcedRow {
		return lang.SourcedRow{Row: lang.SignatureRow(sig, cls, vals), Source: source}
	}
	typical := func() []any { return lang.TypicalValues(pools) }
	if info != nil {
		// The edges of the function's own comparisons between its
		// parameters come before the one-at-a-time rows, which a budget
		// may cut.
		for _, vals := range lang.RelationCalls(sig, info.text, pools, true) {
			rows = append(rows, mk("compared_edge", lang.SourceComparedEdge, vals))
		}
	}
	// A few same-text calls lead, before a wide function's one-at-a-time
	// rows spend the budget.
	for _, vals := range sameStrings(pools) {
		rows = append(rows, mk("same_text", lang.SourceSameText, vals))
	}
	lang.OneAtATime(sig, pools, func(cls string, vals []any) { rows = append(rows, mk(cls, lang.SourceOneAtATime, vals)) })
	// Mutations of each harvested value, in its own parameter.
	for i := range sig.Params {
		for _, v := range perParam[i] {
			for _, m := range append(lang.Mutate(v, lits), bytesMutants(v)...) {
				vals := typical()
				vals[i] = m
				rows = append(rows, mk(sig.Params[i].Name+"_mutated", lang.SourceMutation, vals))
			}
		}
	}
	// Pairwise: every pair of parameters over the head of their pools
	// and the values the function's own text names, the others drawn
	// from theirs.
	var pairs []lang.SourcedRow
	for _, p := range lang.Pairwise(sig, pools, pyOwnValues(info, pools, lits), rng) {
		pairs = append(pairs, mk(p.Cls, lang.SourcePairwise, p.Vals))
	}
	if sig.Varargs != nil {
		// *args: the typical call again with none, one, two and three
		// extra arguments, ahead of the pairs.
		rows = append(rows, varargsRows(sig, info, pools, lits)...)
	}
	if sig.Kwargs != nil && info != nil {
		// **kwargs: the keys the body reads, each given values of the
		// kind its name says.
		rows = append(rows, kwargsRows(sig, info, pools, lits)...)
	}
	rows = dedupePy(rows)
	// The pairs share the budget with what came before, but always get a
	// fair part of it: one-at-a-time rows alone never cross parameters.
	if reserve := min(len(pairs), budget/3); len(rows) > budget-reserve {
		rows = rows[:budget-reserve]
	}
	rows = dedupePy(append(rows, pairs...))
	if len(rows) > budget {
		rows = rows[:budget]
	}
	return rows
}

// varargsRows call a function that takes *args with its other parameters
// at their typical values and none, one, two or three extra arguments from
// the pool of one argument of its kind: *iterables takes iterables, as an
// `iterable` parameter would, and *funcs functions.
func varargsRows(sig *lang.Signature, info *pyInfo, pools [][]any, lits []string) []lang.SourcedRow {
	one := lang.Param{Name: strings.TrimSuffix(sig.Varargs.Name, "s"), Type: sig.Varargs.Type}
	if one.Name == "arg" || one.Name == "" {
		one.Name = sig.Varargs.Name
	}
	elemPools, _ := pyParamPools(&lang.Signature{Language: "python", Params: []lang.Param{one}}, info, [][]any{nil}, lits)
	e := elemPools[0]
	if len(e) == 0 {
		return nil
	}
	at := func(i int) any { return e[min(i, len(e)-1)] }
	extras := [][]any{{}, {at(0)}, {at(0), at(1)}, {at(1), at(0)}, {at(0), at(0)}, {at(0), at(1), at(2)}}
	for i := 1; i < min(len(e), 12); i++ {
		extras = append(extras, []any{at(i)}, []any{at(0), at(i)})
	}
	typical := lang.TypicalValues(pools)
	var out []lang.SourcedRow
	for _, x := range extras {
		r := lang.SignatureRow(sig, "varargs", typical)
		args, kwargs := r.CallArgs()
		out = append(out, lang.SourcedRow{Row: methodRow("varargs", append(append([]any{}, args...), x...), kwargs), Source: lang.SourceVarargs})
	}
	return out
}

// keyedReads are dicts of the keys a function reads of a parameter (m[K],
// m.get(K), K in m): each key alone, with the values the body compares it
// with first and then values of the kind its name says; every key at
// once; and every key but one. A settings dict or an element's
// attributes reach the branches of each key only with that key present.
func keyedReads(keys []pysource.Key, info *pyInfo, lits []string) []any {
	if len(keys) == 0 {
		return nil
	}
	params := make([]lang.Param, len(keys))
	for i, k := range keys {
		params[i] = lang.Param{Name: keyName(k.Key)}
	}
	plain := *info
	plain.keys = nil // a key's values are not keyed dicts again
	kpools, _ := pyParamPools(&lang.Signature{Language: "python", Params: params}, &plain, make([][]any, len(keys)), lits)
	vals := make([][]string, len(keys))
	for i, k := range keys {
		vals[i] = append(vals[i], k.Compared...)
		for _, v := range kpools[i][:min(4, len(kpools[i]))] {
			if _, expr := v.(map[string]any); !expr && !slices.Contains(vals[i], pyRepr(v, 0)) {
				vals[i] = append(vals[i], pyRepr(v, 0))
			}
		}
	}
	dict := func(skip int, pick func(i int) (string, bool)) any {
		var parts []string
		for i, k := range keys {
			if v, ok := pick(i); ok && i != skip {
				parts = append(parts, k.Key+": "+v)
			}
		}
		return map[string]any{lang.ExprKey: "{" + strings.Join(parts, ", ") + "}"}
	}
	first := func(i int) (string, bool) {
		if len(vals[i]) == 0 {
			return "", false
		}
		return vals[i][0], true
	}
	var out []any
	for i := range keys {
		for _, v := range vals[i] {
			out = append(out, dict(-1, func(j int) (string, bool) { return v, j == i }))
		}
	}
	if len(keys) > 1 {
		out = append(out, dict(-1, first))
		for i := range keys {
			out = append(out, dict(i, first))
		}
	}
	return out
}

// keyName is a key's text as a name its values are guessed from:
// 'preserveAspectRatio' -> preserveAspectRatio.
func keyName(lit string) string {
	return strings.Trim(strings.TrimLeft(lit, "rRbBuU"), `"'`)
}

// maxKwargsKeys bounds the **kwargs keys a function's rows pass.
const maxKwargsKeys = 6

// kwargsKeys are the keys a function reads of its **kwargs, name, in its
// text: kwargs.get("k"), kwargs.pop("k"), kwargs["k"], "k" in kwargs.
func kwargsKeys(name, text string) []string {
	q := regexp.QuoteMeta(name)
	re := regexp.MustCompile(`\b` + q + `\s*(?:\.\s*(?:get|pop|setdefault)\s*\(\s*|\[\s*)['"]([A-Za-z_]\w*)['"]|['"]([A-Za-z_]\w*)['"]\s+(?:not\s+)?in\s+` + q + `\b`)
	seen := map[string]bool{}
	var out []string
	for _, m := range re.FindAllStringSubmatch(text, -1) {
		k := m[1] + m[2]
		if !seen[k] && len(out) < maxKwargsKeys {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// kwargsRows call a function that takes **kwargs with its other
// parameters at their typical values and each key its body reads set to
// values of the kind the key's name says (iteratee takes functions), then
// every key at once.
func kwargsRows(sig *lang.Signature, info *pyInfo, pools [][]any, lits []string) []lang.SourcedRow {
	keys := kwargsKeys(sig.Kwargs.Name, info.text)
	if len(keys) == 0 {
		return nil
	}
	params := make([]lang.Param, len(keys))
	for i, k := range keys {
		params[i] = lang.Param{Name: k}
	}
	kpools, _ := pyParamPools(&lang.Signature{Language: "python", Params: params}, info, make([][]any, len(keys)), lits)
	// The other parameters at their typical values, then each at its
	// next two: a key's effect may need more than the typical input (a
	// separator, two words).
	bases := [][]any{lang.TypicalValues(pools)}
	for i, p := range pools {
		for _, v := range p[1:min(3, len(p))] {
			vals := lang.TypicalValues(pools)
			vals[i] = v
			bases = append(bases, vals)
		}
	}
	call := func(typical []any, extra map[string]any) lang.SourcedRow {
		r := lang.SignatureRow(sig, "kwargs", typical)
		args, kwargs := r.CallArgs()
		kw := map[string]any{}
		for k, v := range kwargs {
			kw[k] = v
		}
		for k, v := range extra {
			kw[k] = v
		}
		return lang.SourcedRow{Row: methodRow("kwargs", append([]any{}, args...), kw), Source: lang.SourceKwargs}
	}
	var out []lang.SourcedRow
	all := map[string]any{}
	for i, k := range keys {
		for _, v := range kpools[i][:min(8, len(kpools[i]))] {
			for _, b := range bases {
				out = append(out, call(b, map[string]any{k: v}))
			}
		}
		if len(kpools[i]) > 0 {
			all[k] = kpools[i][0]
		}
	}
	if len(all) > 1 {
		for _, b := range bases {
			out = append(out, call(b, all))
		}
	}
	return out
}

// dedupePy drops rows whose call repeats an earlier one.
func dedupePy(rows []lang.SourcedRow) []lang.SourcedRow {
	seen := map[string]bool{}
	out := rows[:0:0]
	for _, r := range rows {
		args, kwargs := r.Row.CallArgs()
		k := lang.CallKey(args, kwargs)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, r)
	}
	return out
}

// sameStrings are lang.SameTexts, each again with the flags flipped:
// parse(format, string) does most where the two agree, and a
// case-sensitivity flag only matters there. A Python text indexes code
// points, so no character is wide.
func sameStrings(pools [][]any) [][]any {
	var out [][]any
	for _, vals := range lang.SameTexts(pools, nil, 3, nil) {
		out = append(out, vals)
		if flipped, ok := flagsFlipped(pools, vals); ok {
			out = append(out, flipped)
		}
	}
	return out
}

// flagsFlipped is vals with every flag parameter's value flipped; false
// when the function has no flag.
func flagsFlipped(pools [][]any, vals []any) ([]any, bool) {
	out := append([]any{}, vals...)
	has := false
	for k, p := range pools {
		if b, ok := out[k].(bool); ok && lang.IsFlagPool(p) {
			out[k], has = !b, true
		}
	}
	return out, has
}

// pyLiterals are the string literals of a Python target's two versions:
// pysource's constants (any length, none from error messages), else the
// regular expression's short ones.
func pyLiterals(tg lang.Target) []string {
	// The changed data's literals come first: what the patch changed is
	// what the strings built from patterns must reach.
	var out []string
	seen := map[string]bool{}
	for _, l := range tg.DataLits {
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	info := pyOf(tg)
	own := 0
	for _, c := range info.consts {
		if c.Kind != "str" {
			continue
		}
		v, ok := pyLiteral(c.Value)
		s, isStr := v.(string)
		if !ok || !isStr || s == "" || seen[s] || own >= 12 {
			continue
		}
		seen[s] = true
		own++
		out = append(out, s)
	}
	if strings.Contains(info.text, "getattr(") || strings.Contains(info.text, "hasattr(") || strings.Contains(info.text, "attrgetter(") {
		// A function that looks names up as attributes is reached by the
		// names the values in its pools have: a list's count, a str's
		// upper, a dict's keys, every object's __class__.
		for _, l := range attributeNames {
			if !seen[l] {
				seen[l] = true
				out = append(out, l)
			}
		}
	}
	if own == 0 && info.consts == nil {
		for _, l := range lang.Literals(tg.BaseText, tg.HeadText) {
			if !seen[l] {
				seen[l] = true
				out = append(out, l)
			}
		}
	}
	return lang.WithSeparators(out)
}

// attributeNames are names of attributes the values of a pool have.
var attributeNames = []string{"count", "upper", "keys", "__class__", "real"}
