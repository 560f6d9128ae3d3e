package evidence

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/validate"
)

// Generator drafts partition rows for accepted assumptions. Templates is
// the offline one; a model back end implements the same interface.
//
// Generate returns an error only when it could not run at all; a row it
// cannot fill is a row with Todo set, not an error.
type Generator interface {
	Generate(ctx context.Context, req Request) ([]validate.Row, error)
}

// Request is one target and the accepted assumptions about it.
type Request struct {
	Target string
	// Sig is the target's signature; nil when its source could not be
	// read, in which case every row is a todo.
	Sig         *Signature
	Assumptions []validate.Item
	// Decided asks for the partition table's rows, each assumption's as
	// its decision means (issue 25): an accepted one gets rows where it
	// still holds, pinning the base's outcome (and rows violating it that
	// must raise, when its precondition or the reviewer's note names the
	// exception); a rejected one gets rows that violate it, pinning the
	// base's outcome, so a patch relying on it fails. Without it (the
	// evidence run) every class is tried, whatever the decision.
	Decided bool
	// Method says the target is a method called on a receiver: its rows
	// get the receiver in front of the arguments they vary (Extend), and
	// a method of no other parameter has its receiver to vary.
	Method bool
	// Types are the parameters' types as the language read them from the
	// function (docstring, how the body uses each), one per parameter; a
	// parameter the signature alone does not type takes its type from
	// here. Nil: the signature alone.
	Types []Type
	// Receivers are what a method is called on (Extend reads them as the
	// evidence does): a method of no other parameter varies over them.
	Receivers []any
	// Typical are values the evidence ran each parameter with (a change
	// item's witness, the receiver left out), nil where it has none: a
	// parameter no template can build a value for takes its value here
	// while another varies.
	Typical []any
}

// Category is a kind of precondition, recognised from its words, with the
// classes that bound it. Categories are values, so every generated row can
// say which one produced it.
type Category struct {
	Name string
	Doc  string
	// Match reports whether a precondition is of this category.
	Match *lang.LazyRE
	// Classes are tried in order on the parameter the precondition is
	// about; those its type does not offer are left out.
	Classes []string
	// Pair names a combination across two parameters: "length" (an int
	// and a sibling list) or "same-length" (two lists).
	Pair string
	// Todo, when set, is why no template can build rows for this
	// category: a human writes them.
	Todo string
	// Violated are the classes on which the precondition does not hold:
	// the inputs a patch relying on it may treat otherwise than the base
	// did. Held are the classes on which it still holds, its edge. A class
	// in neither is not told apart. A category with neither (general)
	// takes a representative class as held, an invalid one as violated,
	// and a boundary one as possibly violated.
	Violated, Held []string
}

// Categories are tried in order; the first that matches wins.
var Categories = []Category{
	{Name: "timezone", Doc: "datetimes share one zone, or are all naive",
		Match: lang.Lazy(`(?i)time ?zone|naive|aware|\butc\b|location|datetime`),
		// The language builds the times (lang.TimeClasser): a parameter
		// of another type, or a language with no times, gets a todo.
		Classes: []string{"naive", "aware_utc", "aware_offset", "naive_list", "aware_list", "mixed_naive_aware", "two_zones"},
		// A time at an offset breaks code that takes every time as naive
		// or as UTC, whichever of the two the patch assumed.
		Violated: []string{"aware_offset", "mixed_naive_aware", "two_zones"}, Held: []string{"naive", "aware_utc", "naive_list", "aware_list"}},
	{Name: "error-accepted", Doc: "inputs the base refused are now accepted",
		Match: lang.Lazy(`(?i)now accepted|no longer an error|base refused|error is discarded|does not fail`),
		Todo:  "the inputs the base refused depend on the code; write a row that the base refuses and say what the head must do"},
	{Name: "none-as-empty", Doc: "None means the same as an empty value",
		Match:    lang.Lazy(`(?i)none means the same as empty|nil means the same as empty|of none means`),
		Classes:  []string{"null", "empty", "single"},
		Violated: []string{"null"}, Held: []string{"empty", "single"}},
	{Name: "same-length", Doc: "two sequences have the same length",
		Match: lang.Lazy(`(?i)same length|equal length|as long as`), Pair: "same-length",
		Violated: []string{"longer", "empty"}, Held: []string{"same_length", "both_empty"}},
	{Name: "boundary", Doc: "values equal at a boundary take a given branch",
		Match: lang.Lazy(`(?i)boundary|equal bounds|touching|half-open|inclusive|exclusive|end >= start|other branch|equality`),
		Classes: []string{"touching", "touching_unsorted", "nested", "overlap", "empty_range", "duplicate", "all_same",
			"zero", "one", "negative", "inverted", "null"},
		Violated: []string{"touching", "touching_unsorted", "empty_range", "duplicate", "all_same", "zero", "inverted"},
		Held:     []string{"overlap", "nested", "one", "disjoint_sorted"}},
	{Name: "length", Doc: "an index or count stays within a sequence's length",
		Match: lang.Lazy(`(?i)longer than|len\(|within|bounds|in range|index`), Pair: "length",
		Classes:  []string{"empty", "single", "zero", "negative", "one"},
		Violated: []string{"len_plus_one", "negative"}, Held: []string{"len_minus_one", "zero"}},
	{Name: "numeric-string", Doc: "a string parses as a number",
		Match:    lang.Lazy(`(?i)numeric string|parses as a number|is a number|digits|integer string`),
		Classes:  []string{"numeric", "negative_numeric", "decimal", "padded", "non_numeric", "empty", "non_ascii_digits", "null"},
		Violated: []string{"non_numeric", "empty", "null"}, Held: []string{"numeric", "negative_numeric"}},
	{Name: "sorted", Doc: "input arrives sorted",
		Match: lang.Lazy(`(?i)\bsorted\b|\border(ed)?\b|ascending|descending|monoton`),
		Classes: []string{"empty", "single", "sorted", "disjoint_sorted", "unsorted", "disjoint_unsorted", "reversed",
			"touching", "touching_unsorted", "overlap_unsorted", "nested_unsorted", "same_start", "duplicate",
			"inverted", "mixed_types", "null", "text_sorted", "text_unsorted", "text_reversed"},
		Violated: []string{"unsorted", "disjoint_unsorted", "reversed", "touching_unsorted", "overlap_unsorted", "nested_unsorted", "mixed_types"},
		Held:     []string{"empty", "single", "sorted", "disjoint_sorted", "touching", "same_start"}},
	{Name: "unique", Doc: "keys or items are unique",
		Match:    lang.Lazy(`(?i)unique|distinct|duplicate|repeated|overwrit`),
		Classes:  []string{"empty", "single", "many", "disjoint_sorted", "duplicate", "all_same", "case_variants", "same_start", "non_ascii", "null", "text_duplicate", "text_all_same"},
		Violated: []string{"duplicate", "all_same"}, Held: []string{"empty", "single", "many", "disjoint_sorted"}},
	{Name: "non-empty", Doc: "a sequence or string is non-empty",
		Match:    lang.Lazy(`(?i)non-?empty|not empty|at least one`),
		Classes:  []string{"empty", "single", "many", "disjoint_sorted", "empty_range", "empty_string", "whitespace", "null"},
		Violated: []string{"empty"}, Held: []string{"single", "many", "disjoint_sorted"}},
	{Name: "non-nil", Doc: "a value is not None/nil",
		Match:    lang.Lazy(`(?i)not none|not nil|non-?nil|is required|never none`),
		Classes:  []string{"null", "empty", "single", "many"},
		Violated: []string{"null"}, Held: []string{"empty", "single", "many"}},
	{Name: "non-negative", Doc: "a number is not negative",
		Match:    lang.Lazy(`(?i)non-?negative|not negative|never negative|>= ?0\b`),
		Classes:  []string{"zero", "one", "many", "negative", "null"},
		Violated: []string{"negative"}, Held: []string{"zero", "one", "many"}},
	{Name: "non-zero", Doc: "a number is not zero",
		Match:    lang.Lazy(`(?i)non-?zero|not zero|!= ?0|divis`),
		Classes:  []string{"zero", "one", "negative", "tiny", "null"},
		Violated: []string{"zero"}, Held: []string{"one", "negative", "tiny"}},
	{Name: "general", Doc: "anything else: the type's own boundaries",
		Match: lang.Lazy(``),
		Classes: []string{"empty", "single", "many", "disjoint_sorted", "unsorted", "duplicate", "touching", "nested",
			"zero", "negative", "empty_string", "non_ascii", "inverted", "null"}},
}

// CategoryOf returns the category of a precondition.
func CategoryOf(precondition string) Category {
	for _, c := range Categories {
		if c.Match.MatchString(precondition) {
			return c
		}
	}
	return Categories[len(Categories)-1]
}

// Templates generates rows offline from categories and signatures.
type Templates struct{}

var (
	backticked = lang.Lazy("`([^`]+)`")
	excClass   = lang.Lazy(`\b([A-Z][A-Za-z0-9]*(?:Error|Exception))\b`)
	wordRe     = lang.Lazy(`[A-Za-z_][A-Za-z0-9_]*`)
)

// Generate drafts rows for every assumption of req. Rows have no ids yet;
// Merge numbers them.
func (Templates) Generate(ctx context.Context, req Request) ([]validate.Row, error) {
	var rows []validate.Row
	for _, it := range req.Assumptions {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rows = append(rows, forAssumption(req, it)...)
	}
	return rows, nil
}

// todoRow is a row no template can fill.
func todoRow(it validate.Item, cls, why string) validate.Row {
	return validate.Row{
		Cls: cls, Kind: validate.KindBoundary,
		Relation:      fmt.Sprintf("a boundary of %s: %s", it.ID, it.Precondition),
		AssumptionIDs: []string{it.ID},
		Todo:          why,
	}
}

func forAssumption(req Request, it validate.Item) []validate.Row {
	rows := classRows(req, it)
	if !req.Decided || (it.Status != validate.StatusAccepted && it.Status != validate.StatusRejected) {
		return rows
	}
	return decidedRows(req, it, rows)
}

// classRows are the rows of every class the assumption's category tries.
func classRows(req Request, it validate.Item) []validate.Row {
	cat := CategoryOf(it.Precondition)
	if cat.Todo != "" {
		return []validate.Row{todoRow(it, cat.Name, cat.Todo)}
	}
	if req.Sig == nil {
		return []validate.Row{todoRow(it, cat.Name, fmt.Sprintf("the signature of %s could not be read; write the rows by hand", req.Target))}
	}
	sig := req.Sig
	if len(sig.Params) == 0 && req.Method && len(req.Receivers) > 0 {
		return receiverRows(req, it)
	}
	if len(sig.Params) == 0 && req.Method {
		return []validate.Row{todoRow(it, cat.Name, fmt.Sprintf("the method %s varies only in its receiver, which no template builds; write rows whose first argument is a receiver (as its witnesses are written)", req.Target))}
	}
	if len(sig.Params) == 0 {
		return []validate.Row{todoRow(it, cat.Name, fmt.Sprintf("%s takes no parameters; a template has nothing to vary", req.Target))}
	}
	types := make([]Type, len(sig.Params))
	for i, p := range sig.Params {
		types[i] = lang.Infer(sig.Language, p)
		if !types[i].Known() && i < len(req.Types) && req.Types[i].Known() {
			types[i] = req.Types[i]
		}
	}
	focus := focusParam(sig, types, it)
	if cat.Name == "timezone" && len(timeClasses(types[focus], sig.Language)) == 0 {
		// A zone is a property of a time: the first parameter holding
		// times, when the precondition named none.
		for i, t := range types {
			if len(timeClasses(t, sig.Language)) > 0 {
				focus = i
				break
			}
		}
	}
	raises := ""
	if m := excClass.FindStringSubmatch(it.Precondition); m != nil {
		raises = m[1]
	}
	b := &builder{req: req, item: it, types: types, raises: raises}
	switch cat.Pair {
	case "same-length":
		if i, j, ok := twoLists(types, focus); ok {
			b.sameLength(i, j)
			return b.rows
		}
	case "length":
		if i, j, ok := intAndList(types); ok {
			b.lengthOf(i, j)
		}
	}
	t := types[focus]
	times := timeClasses(t, sig.Language)
	if !t.Known() && len(times) == 0 {
		what := t.Text
		if what == "" {
			what = "no annotation, and its name says nothing"
		}
		if t.Kind == kindTime {
			what = "a date or time, which a JSON row cannot carry"
		}
		b.rows = append(b.rows, todoRow(it, cat.Name, fmt.Sprintf("no boundary values for parameter %s (%s); write the rows by hand", sig.Params[focus].Name, what)))
		return b.rows
	}
	cl := catalog(t, sig.Language)
	for _, c := range times {
		cl[c.Name] = class{Name: c.Name, Kind: c.Kind, Value: c.Value, Relation: c.Relation}
	}
	for _, name := range cat.Classes {
		c, ok := cl[name]
		if !ok {
			continue
		}
		b.vary(focus, c)
	}
	if len(b.rows) == 0 {
		b.rows = append(b.rows, todoRow(it, cat.Name, fmt.Sprintf("no %s class fits parameter %s (%s); write the rows by hand", cat.Name, sig.Params[focus].Name, t.Kind)))
	}
	return b.rows
}

// timeClasses are the classes of times the language builds for a
// parameter of type t (lang.TimeClasser); none for another type.
func timeClasses(t Type, langName string) []lang.TimeClass {
	if tc, ok := lang.StaticLanguages()[langName].(lang.TimeClasser); ok {
		return tc.TimeClasses(t)
	}
	return nil
}

// receiverCls is the class of a row that varies a method's receiver: its
// receiver is its first argument already.
const receiverCls = "receiver"

// receiverRows vary a method of no other parameter over the receivers
// the evidence builds for it: which of them violate the precondition is
// not known, so they are its edge (boundary rows) for a rejected or
// undecided assumption and where it holds (representative rows) for an
// accepted one.
func receiverRows(req Request, it validate.Item) []validate.Row {
	kind := validate.KindBoundary
	if it.Status == validate.StatusAccepted {
		kind = validate.KindRepresentative
	}
	var rows []validate.Row
	for _, recv := range req.Receivers[:min(len(req.Receivers), maxReceiverRows)] {
		rows = append(rows, validate.Row{
			Cls: receiverCls, Kind: kind, Args: []any{recv}, SameAsBase: true,
			Relation:      fmt.Sprintf("on a receiver built as the repository's code builds one: %s", it.Precondition),
			AssumptionIDs: []string{it.ID},
		})
	}
	return rows
}

// maxReceiverRows bounds the rows a method of no other parameter gets.
const maxReceiverRows = 8

// focusParam picks the parameter a precondition is about: one it quotes
// in backticks, else one it names, else one the evidence names, else the
// first.
func focusParam(sig *Signature, types []Type, it validate.Item) int {
	idx := map[string]int{}
	for i, p := range sig.Params {
		idx[p.Name] = i
	}
	for _, m := range backticked.FindAllStringSubmatch(it.Precondition, -1) {
		for _, w := range wordRe.FindAllString(m[1], -1) {
			if i, ok := idx[w]; ok {
				return i
			}
		}
	}
	for _, text := range []string{it.Precondition, it.Evidence} {
		for _, w := range wordRe.FindAllString(text, -1) {
			if i, ok := idx[w]; ok {
				return i
			}
		}
	}
	return 0
}

func twoLists(types []Type, focus int) (int, int, bool) {
	var ls []int
	for i, t := range types {
		if (t.Kind == kindList || t.Kind == kindIntervals) && t.Known() {
			ls = append(ls, i)
		}
	}
	if len(ls) < 2 {
		return 0, 0, false
	}
	return ls[0], ls[1], true
}

func intAndList(types []Type) (int, int, bool) {
	in, li := -1, -1
	for i, t := range types {
		if t.Kind == kindInt && in < 0 {
			in = i
		}
		if (t.Kind == kindList || t.Kind == kindIntervals) && t.Known() && li < 0 {
			li = i
		}
	}
	return in, li, in >= 0 && li >= 0
}

// builder accumulates the rows of one assumption.
type builder struct {
	req    Request
	item   validate.Item
	types  []Type
	raises string
	rows   []validate.Row
}

// call builds the row's input from one value per parameter; a parameter
// without a value gets its typical one, and a row some parameter cannot be
// given a value for becomes a todo.
func (b *builder) call(cls, kind, relation string, vals map[int]any) {
	sig := b.req.Sig
	r := validate.Row{
		Cls: cls, Kind: kind,
		Relation:      relation,
		AssumptionIDs: []string{b.item.ID},
	}
	args := make([]any, 0, len(sig.Params))
	var kwargs map[string]any
	for i, p := range sig.Params {
		v, ok := vals[i]
		if !ok {
			if d, isLit := defaultValue(sig.Language, p); isLit {
				v, ok = d, true
			} else {
				v, ok = typical(b.types[i], sig.Language)
			}
		}
		if !ok && i < len(b.req.Typical) && b.req.Typical[i] != nil {
			v, ok = b.req.Typical[i], true
		}
		if !ok {
			r.Todo = fmt.Sprintf("no value for parameter %s (%s) while %s varies; fill it in", p.Name, orNone(p.Type), cls)
			b.rows = append(b.rows, r)
			return
		}
		if p.KeywordOnly {
			if kwargs == nil {
				kwargs = map[string]any{}
			}
			kwargs[p.Name] = v
			continue
		}
		args = append(args, v)
	}
	if len(args) == 1 && kwargs == nil {
		r.Inp, r.HasInp = args[0], true // seed 004's shape: the one argument
	} else {
		r.Args, r.Kwargs = args, kwargs
	}
	if kind == validate.KindInvalid && b.raises != "" {
		r.Raises = b.raises
		r.Relation += "; must raise " + b.raises
	} else {
		r.SameAsBase = true
	}
	b.rows = append(b.rows, r)
}

func orNone(s string) string {
	if s == "" {
		return "no annotation"
	}
	return s
}

func (b *builder) vary(i int, c class) {
	cls := c.Name
	// seed 004 names its invalid classes invalid_none, invalid_inverted.
	switch {
	case c.Name == "null" && c.Kind == inv:
		cls = "invalid_none"
	case c.Name == "null":
		cls = "none"
	case c.Kind == inv:
		cls = "invalid_" + c.Name
	}
	if len(b.req.Sig.Params) > 1 {
		cls = b.req.Sig.Params[i].Name + "_" + cls
	}
	vals := map[int]any{i: c.Value}
	for j, v := range b.companions(i, c.Name) {
		vals[j] = v
	}
	b.call(cls, c.Kind, c.Relation, vals)
}

// timeCompanion is the class the other times of a call take while one
// parameter's varies: the same convention where the timezone assumption
// holds (every time naive, or every time in UTC), UTC beside an offset or
// a mixed list, so that a row where it is violated is violated across the
// call, and one where it holds is not broken by a neighbour.
var timeCompanion = map[string]string{
	"naive": "naive", "aware_utc": "aware_utc", "aware_offset": "aware_utc",
	"naive_list": "naive", "aware_list": "aware_utc", "mixed_naive_aware": "aware_utc", "two_zones": "aware_utc",
}

// companions are the values of the other parameters holding times while
// parameter i takes the time class cls (timeCompanion): none for a class
// of another kind.
func (b *builder) companions(i int, cls string) map[int]any {
	want, ok := timeCompanion[cls]
	if !ok {
		return nil
	}
	out := map[int]any{}
	for j, t := range b.types {
		if j == i {
			continue
		}
		for _, tc := range timeClasses(t, b.req.Sig.Language) {
			if tc.Name == want || tc.Name == strings.TrimSuffix(want, "_utc")+"_list" {
				out[j] = tc.Value
			}
		}
	}
	return out
}

// lengthOf combines an int parameter with a sibling list's length: 0,
// len, len+1 and -1 (issue 4: "the length of a sibling argument").
func (b *builder) lengthOf(in, li int) {
	list, ok := typical(b.types[li], b.req.Sig.Language)
	if !ok {
		return
	}
	n := len(list.([]any))
	ps := b.req.Sig.Params
	for _, c := range []struct {
		name string
		v    int
		kind string
		rel  string
	}{
		{"len", n, bnd, fmt.Sprintf("%s equal to len(%s)", ps[in].Name, ps[li].Name)},
		{"len_plus_one", n + 1, bnd, fmt.Sprintf("%s one past len(%s)", ps[in].Name, ps[li].Name)},
		{"len_minus_one", n - 1, rep, fmt.Sprintf("%s one short of len(%s)", ps[in].Name, ps[li].Name)},
		{"zero", 0, bnd, fmt.Sprintf("%s zero with %s non-empty", ps[in].Name, ps[li].Name)},
		{"negative", -1, bnd, fmt.Sprintf("%s negative", ps[in].Name)},
	} {
		b.call(ps[in].Name+"_"+c.name, c.kind, c.rel, map[int]any{in: c.v, li: list})
	}
	b.call(ps[li].Name+"_empty", bnd, fmt.Sprintf("%s empty with %s zero", ps[li].Name, ps[in].Name), map[int]any{in: 0, li: []any{}})
}

// sameLength combines two lists: equal lengths, either longer, both empty.
func (b *builder) sameLength(i, j int) {
	langName := b.req.Sig.Language
	ci, cj := catalog(b.types[i], langName), catalog(b.types[j], langName)
	ps := b.req.Sig.Params
	one := func(c map[string]class, name string) any { return c[name].Value }
	b.call("same_length", rep, fmt.Sprintf("%s and %s of equal length", ps[i].Name, ps[j].Name), map[int]any{i: one(ci, "many"), j: one(cj, "many")})
	b.call(ps[i].Name+"_longer", bnd, fmt.Sprintf("%s longer than %s", ps[i].Name, ps[j].Name), map[int]any{i: one(ci, "many"), j: one(cj, "single")})
	b.call(ps[j].Name+"_longer", bnd, fmt.Sprintf("%s longer than %s", ps[j].Name, ps[i].Name), map[int]any{i: one(ci, "single"), j: one(cj, "many")})
	b.call("both_empty", bnd, fmt.Sprintf("%s and %s both empty", ps[i].Name, ps[j].Name), map[int]any{i: []any{}, j: []any{}})
	b.call(ps[i].Name+"_empty", bnd, fmt.Sprintf("%s empty, %s not", ps[i].Name, ps[j].Name), map[int]any{i: []any{}, j: one(cj, "single")})
}

// Merge adds generated rows to a table: existing rows are kept as they
// are, a generated row the table already holds for the same assumption
// (same target, class and input) is left out, a generated row equal to one
// added by this same call joins it by citing its assumption too (one row,
// run once, covers both), and new rows get the next free ids. It returns
// the rows added, as they end up in the table.
func Merge(t *validate.Table, rows []validate.Row) []validate.Row {
	next := 1
	seen := map[string]bool{}
	for _, r := range t.Rows {
		if n, err := strconv.Atoi(strings.TrimPrefix(r.ID, "P")); err == nil && n >= next {
			next = n + 1
		}
		for _, a := range r.AssumptionIDs {
			seen[rowKey(t, r, a)] = true
		}
	}
	first := len(t.Rows)
	fresh := map[string]int{} // input key -> index in t.Rows of a row added here
	for _, r := range rows {
		if len(r.AssumptionIDs) == 0 {
			continue
		}
		k := rowKey(t, r, r.AssumptionIDs[0])
		if seen[k] {
			continue
		}
		seen[k] = true
		same := rowKey(t, r, "")
		if i, ok := fresh[same]; ok && r.Todo == "" && t.Rows[i].Kind == r.Kind && t.Rows[i].Decision == r.Decision {
			t.Rows[i].AssumptionIDs = append(t.Rows[i].AssumptionIDs, r.AssumptionIDs...)
			continue
		}
		r.ID = fmt.Sprintf("P%03d", next)
		next++
		t.Rows = append(t.Rows, r)
		fresh[same] = len(t.Rows) - 1
	}
	return append([]validate.Row(nil), t.Rows[first:]...)
}

// rowKey identifies a row by what it tests, not by its id.
func rowKey(t *validate.Table, r validate.Row, assumption string) string {
	in := any(r.Inp)
	if !r.HasInp {
		in = map[string]any{"args": r.Args, "kwargs": r.Kwargs}
	}
	canon, err := validate.CanonicalJSON(in)
	if err != nil {
		canon = []byte(fmt.Sprintf("%#v", in))
	}
	return strings.Join([]string{t.TargetOf(r), assumption, r.Cls, string(canon), r.Todo}, "\x00")
}
