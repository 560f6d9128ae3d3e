package lang

import (
	"context"
	"math"
	"regexp"
	"strings"
	"unicode"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/validate"
)

// SourcedRow is an evidence row and where its values came from.
type SourcedRow struct {
	Row    validate.Row
	Source string // "doctest more.py:120", "constant", "generated"
}

// The keys of the worker's evidence protocol (gate/harness/python_worker.py).
const (
	ExprKey       = "$expr"
	ImportsKey    = "$imports"
	ObserveKey    = "$observe"
	ReturnedKey   = "$returned"
	ArgsAfterKey  = "$args_after"
	AliasedKey    = "$aliased"
	FirstItemsKey = "$first"
	ReprKey       = "$repr"
	FieldsKey     = "$fields"
	CallsKey      = "$calls"
	ProbesKey     = "$probes"
	// A probe of a returned object's method, {"$call": name, "$args":
	// [...]}, and the object's answers to them beside it, {"$returned":
	// V, "$methods": [...]} (the Node worker).
	MethodCallKey = "$call"
	MethodArgsKey = "$args"
	MethodsKey    = "$methods"
)

// Mutate returns variants of a harvested value (issue 13, part 3):
// shorter, longer, empty, one element, repeated, reversed; for a string
// also case-flipped, non-ASCII, with a trailing newline or a leading
// space (where a regular expression's $ and a strip differ), and with a
// separator from the function's literals inserted; for a number its
// neighbours.
func Mutate(v any, lits []string) []any {
	var out []any
	switch x := v.(type) {
	case []any:
		if len(x) > 0 {
			out = append(out, x[:len(x)-1], []any{}, []any{x[0]}, reversed(x))
		}
		if len(x) > 0 && len(x)*2 <= maxMutated {
			out = append(out, append(append([]any{}, x...), x...), append(append([]any{}, x...), x[len(x)-1]))
		}
	case string:
		r := []rune(x)
		if len(r) > 0 {
			out = append(out, string(r[:len(r)-1]), "", string(r[0]), reverseString(x), FlipCase(x), titleCase(r), x+"é", x+"\n", " "+x)
		}
		if len(x) > 0 && len(x)*2 <= maxMutated {
			out = append(out, x+x, x+string(r[len(r)-1]))
		}
		for _, l := range lits {
			if len(l) == 1 && len(r) > 1 && !strings.Contains(x, l) {
				out = append(out, string(r[:len(r)/2])+l+string(r[len(r)/2:]))
			}
		}
		out = append(out, SegmentMutations(x)...)
		out = append(out, textMutations(x)...)
	case int:
		out = append(out, x-1, x+1, 0, -x)
	case float64:
		out = append(out, x-0.1, x+0.1, math.Round(x), -x)
	}
	return out
}

// textMutations change how a text writes what it says, where a format
// allows either way and a parser may take only one: each quote the other
// kind (xmlns='...' for xmlns="..."), every space doubled and the first
// between words a tab (a split on one space, a pattern of one, against
// any run of whitespace; a document keeps its meaning to its parser);
// and the same text at its degenerate numbers.
func textMutations(s string) []any {
	var out []any
	if strings.Contains(s, `"`) && !strings.Contains(s, "'") {
		out = append(out, strings.ReplaceAll(s, `"`, "'"))
	}
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		out = append(out, strings.ReplaceAll(s, "'", `"`))
	}
	// the first space between words, not one that leads or ends the text
	lead := len(s) - len(strings.TrimLeft(s, " "))
	if i := strings.Index(strings.TrimRight(s[lead:], " "), " "); i > 0 && len(s) < maxMutated {
		i += lead
		out = append(out, strings.ReplaceAll(s, " ", "  "), s[:i]+"\t"+s[i+1:])
	}
	// every number it writes 0, then 1: a path from a point to itself
	// ('M 0 0 L 0 0', of length zero), a span of nothing, exactly one
	// ('1 seconds')
	if digits.MatchString(s) && len(s) < maxMutated {
		for _, n := range []string{"0", "1"} {
			if m := digits.ReplaceAllString(s, n); m != s {
				out = append(out, m)
			}
		}
	}
	return out
}

// digits is a run of decimal digits.
var digits = regexp.MustCompile(`[0-9]+`)

// maxMutated bounds a mutated value's length.
const maxMutated = 256

// SegmentMutations change a string's structure where a separator leads
// its last segment (this/thing.ext): that segment repeated (.ext.ext.ext)
// and lengthened (.extension), where code counts suffixes or bounds their
// length.
func SegmentMutations(s string) []any {
	i := strings.LastIndexAny(s, "./-_:")
	if i < 0 || i == len(s)-1 || len(s)*4 > maxMutated {
		return nil
	}
	seg := s[i:]
	return []any{s + seg + seg, s[:i] + seg + "ension", s[:i] + seg + seg[1:] + seg[1:]}
}

func reversed(x []any) []any {
	out := make([]any, len(x))
	for i, v := range x {
		out[len(x)-1-i] = v
	}
	return out
}

func reverseString(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

// titleCase is the text with its first letter's case flipped: person to
// Person, as a word starts a sentence or a name.
func titleCase(r []rune) string {
	out := append([]rune{}, r...)
	if unicode.IsLower(out[0]) {
		out[0] = unicode.ToUpper(out[0])
	} else {
		out[0] = unicode.ToLower(out[0])
	}
	return string(out)
}

func FlipCase(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsUpper(r) {
			return unicode.ToLower(r)
		}
		return unicode.ToUpper(r)
	}, s)
}

func PositionalRow(cls string, args []any) validate.Row {
	r := validate.Row{Cls: cls, Kind: validate.KindBoundary, Relation: "the head must behave as the base does", AssumptionIDs: []string{"S000"}}
	if len(args) == 1 {
		r.Inp, r.HasInp = args[0], true
		return r
	}
	if args == nil {
		args = []any{}
	}
	r.Args = args
	return r
}

// Bounds on reading a repository's tests: a monorepo's thousands of test
// files are not all read for one patch.
const (
	MaxTestFiles     = 400
	MaxTestFileBytes = 1 << 20
	MaxHarvest       = 64 // inputs harvested per function
)

// Interleave takes one value of each pool in turn, so a union's parts all
// come before any budget cuts.
func Interleave(pools [][]any) []any {
	var out []any
	for i := 0; ; i++ {
		more := false
		for _, p := range pools {
			if i < len(p) {
				out = append(out, p[i])
				more = true
			}
		}
		if !more {
			return out
		}
	}
}

// DedupeValues drops repeated values, keeping the first.
func DedupeValues(vs []any) []any {
	seen := map[string]bool{}
	out := vs[:0:0]
	for _, v := range vs {
		k := valueKey(v)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, v)
	}
	return out
}

// typeTag tells 1 from 1.0 apart, which JSON text alone does not.
func typeTag(v any) string {
	switch v.(type) {
	case float64:
		return "f"
	case int:
		return "i"
	}
	return ""
}

// MaxReceivers is the fewest distinct objects a method's rows are called
// on; maxVariedReceivers the most, taken when its own parameters give few
// rows (a method of no parameters on a str subclass, whose object is its
// whole input). Each receiver takes the typical call; the argument rows go
// to the first receivers while the budget lasts.
const MaxReceivers = 3

func CutLast(s, sep string) (string, string, bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

// TimedOut says a side of the attempt timed out. Such a row is not shrunk:
// every smaller input that still hangs would cost a whole call timeout (a
// timeout is a finding, not a pace: issue 28), and a shorter limit could
// not tell a hang from a slow answer.
func TimedOut(a gate.Attempt) bool {
	return a.Reply.Outcome == gate.OutcomeTimeout || a.Base != nil && a.Base.Outcome == gate.OutcomeTimeout
}

// DropFailing is dropModule for a worker whose error named name: a
// module that does not import, or the target it was importing for, whose
// module's rows are left out; or, byTarget, a target its module does not
// hold, whose own rows alone are left out.
func DropFailing(ctx context.Context, cfg gate.Config, t *validate.Table, modules map[string]string, name string, byTarget bool, err error) (*validate.Table, ModuleFailure, bool) {
	mod := name
	if owner, ok := modules[mod]; ok && !byTarget {
		mod = owner
	}
	rest, cut := *t, *t
	rest.Rows, cut.Rows = nil, nil
	for _, r := range t.Rows {
		if byTarget && t.TargetOf(r) == mod || !byTarget && modules[t.TargetOf(r)] == mod {
			cut.Rows = append(cut.Rows, r)
		} else {
			rest.Rows = append(rest.Rows, r)
		}
	}
	if len(cut.Rows) == 0 || len(rest.Rows) == 0 {
		return nil, ModuleFailure{}, false
	}
	rest.Target = rest.Rows[0].Target
	why := ModuleFailure{Module: mod, Target: byTarget, Text: t.Language + " rows: " + OneLine(err.Error())}
	why.HeadOnly = BaseLoads(ctx, cfg, &cut)
	return &rest, why, true
}

func BareName(local string) string {
	if i := strings.LastIndex(local, "."); i >= 0 {
		return local[i+1:]
	}
	return local
}

// RemovedLines are the base's lines of f's hunks that the patch removed
// or replaced within sym: those between two of the head's lines of its
// span.
func RemovedLines(f diffparse.File, sym diffparse.Symbol) []int {
	var out []int
	for _, h := range f.Hunks {
		at := h.NewStart - 1 // the head's last line seen
		for _, ln := range h.Lines {
			switch ln.Kind {
			case '-':
				if sym.Start <= at+1 && at < sym.End {
					out = append(out, ln.Old)
				}
			default:
				at = ln.New
			}
		}
	}
	return out
}
