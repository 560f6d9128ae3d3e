package validate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Outcomes of a call, as a change item and a witness row keep them. A
// call whose value JSON cannot carry (a NaN), whose worker died, or that
// passed its time is one of those too: a change to or from one is
// decided like any other (issue 25), not left where no decision reaches.
const (
	OutcomeReturned    = "returned"
	OutcomeRaised      = "raised"
	OutcomeUnencodable = "unencodable"
	OutcomeCrashed     = "crashed"
	OutcomeTimeout     = "timeout"
	// OutcomePassed and OutcomeFailed are what one of the merge-base's
	// tests did on a side: a witness whose Call names the Test.
	OutcomePassed = "passed"
	OutcomeFailed = "failed"
)

// knownOutcome reports whether o names an outcome a witness can pin.
func knownOutcome(o string) bool {
	switch o {
	case OutcomeReturned, OutcomeRaised, OutcomeUnencodable, OutcomeCrashed, OutcomeTimeout:
		return true
	}
	return false
}

// Call is one call of a target as the gate replays it: the row protocol's
// target, positional and keyword arguments (a receiver first for a
// method; $expr, $new and the other keys of the protocol as the evidence
// built them).
type Call struct {
	Language string         `yaml:"language,omitempty" json:"language,omitempty"` // python or go
	Target   string         `yaml:"target" json:"target"`
	Args     []any          `yaml:"args,omitempty" json:"args,omitempty"`
	Kwargs   map[string]any `yaml:"kwargs,omitempty" json:"kwargs,omitempty"`
	// Test names one of the merge-base's tests (file: name) that passed
	// on the base's code and failed on the head's, filed under Target
	// (evidence/basetests.go): premise run runs it again; no table row
	// replays it.
	Test string `yaml:"test,omitempty" json:"test,omitempty"`
}

// Outcome is what one side did on a call: returned a value, or raised an
// exception of a class (never its message, which the gate does not
// compare).
type Outcome struct {
	Outcome string `yaml:"outcome" json:"outcome"` // returned, raised, unencodable, crashed or timeout; passed or failed for a test
	Value   any    `yaml:"value,omitempty" json:"value,omitempty"`
	Class   string `yaml:"class,omitempty" json:"class,omitempty"`
	// Varies says the side returned another value each time it was run
	// on the input (a random draw, a clock) where the other side answered
	// the same every time: the outcome is pinned, not one run's value.
	Varies bool `yaml:"varies,omitempty" json:"varies,omitempty"`
}

// String is the outcome as premise prints it.
func (o *Outcome) String() string {
	if o == nil {
		return "nothing"
	}
	switch o.Outcome {
	case OutcomeRaised:
		return "raised " + o.Class
	case OutcomeReturned:
		if o.Varies {
			return "returned a value that varies from run to run"
		}
		return "returned " + DisplayJSON(o.Value)
	case OutcomeFailed:
		if s, ok := o.Value.(string); ok && s != "" {
			return "failed: " + s // how the test failed, for the reviewer
		}
	}
	return o.Outcome
}

// Matches reports whether a reply (returned and its value, or raised and
// its class) is this outcome.
func (o *Outcome) Matches(outcome string, value any, class string) bool {
	if o.Outcome != outcome {
		return false
	}
	switch o.Outcome {
	case OutcomeRaised:
		return o.Class == class
	case OutcomeReturned:
		// Numbers exactly (ExactNumbers): a witness pinning 0 is not met
		// by 0.0, nor one digit of a large integer by another.
		return o.Varies || reflect.DeepEqual(ExactNumbers(o.Value), ExactNumbers(value))
	}
	return true // unencodable, crashed, timeout: the outcome alone
}

// Witness is one input on which base and head differ, kept in a change
// item so the partition stage can write it as a row: the call, and what
// each side did.
type Witness struct {
	Input string   `yaml:"input" json:"input"` // in the subject's syntax: merge_ranges([[4, 6], [0, 1]])
	Call  Call     `yaml:"call" json:"call"`
	Base  *Outcome `yaml:"base" json:"base"`
	Head  *Outcome `yaml:"head" json:"head"`
}

// IsChange reports whether an id names a change item (C001) rather than an
// assumption (A001).
func IsChange(id string) bool { return strings.HasPrefix(id, "C") }

// ChangeFinding is one way a symbol's behaviour changed, as the evidence
// stage saw it: the register's change items are merged from these
// (MergeChanges).
type ChangeFinding struct {
	// Symbol is the changed function, or the helper an unchanged caller
	// reaches: one item per cause (issue 25).
	Symbol string
	// Way is how base and head differ ("returned -> raised ValueError"):
	// with Symbol the item's identity across runs.
	Way string
	// Callers are the unchanged callers the change was seen through.
	Callers []string
	// Assumptions are the register's assumptions whose rows found it.
	Assumptions []string
	Source      string
	// Witnesses are its inputs, the first the one shown.
	Witnesses []Witness
}

// MaxWitnesses bounds the inputs a change item keeps (and the rows its
// decision writes): the shown witness and the first others of the same way
// of differing.
const MaxWitnesses = 5

// changeKey identifies a change item across runs.
func changeKey(symbol, way string) string { return symbol + "\x00" + way }

// MergeChanges folds the changes an evidence run found into the register
// and returns the new register and the counts; existing is not modified.
// A change with the symbol and way of an existing item keeps its id,
// status and note (a human decision is never lost); a proposed one takes
// the fresh witnesses, a decided one keeps the witnesses its decision was
// made on. A new change gets the next free C-id and status proposed. An
// item the run no longer sees is marked stale, never deleted, and revived
// when it is seen again. Assumption items are kept as they are.
func MergeChanges(existing *Register, found []ChangeFinding) (*Register, MergeStats) {
	var st MergeStats
	out := &Register{Version: FormatVersion}
	if existing != nil {
		cp := *existing
		out = &cp
		out.Items = nil
	}
	fresh := map[string]ChangeFinding{}
	var order []string
	for _, f := range found {
		k := changeKey(f.Symbol, f.Way)
		if _, dup := fresh[k]; dup {
			continue
		}
		fresh[k] = f
		order = append(order, k)
	}
	next := 1
	used := map[string]bool{}
	if existing != nil {
		for _, it := range existing.Items {
			if n, ok := cNumber(it.ID); ok && n >= next {
				next = n + 1
			}
		}
		for _, it := range existing.Items {
			if !IsChange(it.ID) {
				out.Items = append(out.Items, it)
				continue
			}
			k := changeKey(it.Symbol, it.Way)
			if f, ok := fresh[k]; ok && !used[k] {
				used[k] = true
				it.Callers, it.Assumptions, it.Source = f.Callers, f.Assumptions, f.Source
				if it.Status == StatusProposed || len(it.Witnesses) == 0 {
					it.Witnesses = f.Witnesses
				}
				it.Evidence = witnessText(it.Witnesses)
				if it.Stale {
					st.Revived++
				} else {
					st.Kept++
				}
				it.Stale = false
			} else {
				if !it.Stale {
					st.Stale++
				}
				it.Stale = true
			}
			out.Items = append(out.Items, it)
		}
	}
	for _, k := range order {
		if used[k] {
			continue
		}
		f := fresh[k]
		out.Items = append(out.Items, Item{
			ID: formatC(next), Symbol: f.Symbol, Precondition: "behaviour changed: " + f.Way,
			Evidence: witnessText(f.Witnesses), Status: StatusProposed, Source: f.Source,
			Way: f.Way, Callers: f.Callers, Assumptions: f.Assumptions, Witnesses: f.Witnesses,
		})
		next++
		st.Added++
	}
	if out.Items == nil {
		out.Items = []Item{}
	}
	return out, st
}

// witnessText is a change item's evidence line: the shown witness and
// what each side did.
func witnessText(ws []Witness) string {
	if len(ws) == 0 {
		return "no witness"
	}
	w := ws[0]
	return fmt.Sprintf("%s: base %s, head %s", w.Input, w.Base, w.Head)
}

// WayOf names how two outcomes differ, the identity of a change item with
// its symbol: "returned -> returned" for another value, "raised ValueError
// -> returned" for a widening.
func WayOf(base, head *Outcome) string {
	kind := func(o *Outcome) string {
		switch {
		case o == nil:
			return "no outcome"
		case o.Outcome == OutcomeRaised:
			return "raised " + o.Class
		case o.Outcome != OutcomeReturned:
			return o.Outcome
		}
		return "returned"
	}
	b, h := kind(base), kind(head)
	if b == "returned" && h == "returned" {
		return "returns another value"
	}
	return b + " -> " + h
}

// cNumber parses a change id "C012" into 12.
func cNumber(id string) (int, bool) {
	if len(id) < 2 || id[0] != 'C' || strings.TrimLeft(id[1:], "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(id[1:])
	return n, err == nil
}

// formatC formats a change id: C001 ... C999, then C1000.
func formatC(n int) string { return fmt.Sprintf("C%03d", n) }

// Awaiting lists the ids of the items a reviewer has still to decide:
// proposed, not stale, and (for a change) not explained by an accepted
// assumption whose rows found it (issue 25: changes seen only where an
// accepted precondition is violated need no decision of their own).
func (r *Register) Awaiting() []string {
	accepted := map[string]bool{}
	for _, it := range r.Items {
		if !IsChange(it.ID) && it.Status == StatusAccepted && !it.Stale {
			accepted[it.ID] = true
		}
	}
	var out []string
	for _, it := range r.Items {
		if it.Status != StatusProposed || it.Stale || it.ExplainedBy(accepted) != "" {
			continue
		}
		out = append(out, it.ID)
	}
	sort.Strings(out)
	return out
}

// ExplainedBy names the accepted assumption that explains a change item,
// "" when none does (or the item is an assumption).
func (it Item) ExplainedBy(accepted map[string]bool) string {
	if !IsChange(it.ID) {
		return ""
	}
	for _, a := range it.Assumptions {
		if accepted[a] {
			return a
		}
	}
	return ""
}

// compactJSON is v as one line of JSON, <, > and & as themselves.
func compactJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSpace(b.String())
}

// DisplayJSON is a value as premise prints it: compact JSON, where a
// Python tuple, as the worker sends one where values are compared
// ({"$tuple": [0, 1]}), is written (0,1).
func DisplayJSON(v any) string {
	each := func(items []any) string {
		parts := make([]string, len(items))
		for i, e := range items {
			parts[i] = DisplayJSON(e)
		}
		return strings.Join(parts, ",")
	}
	switch x := v.(type) {
	case []any:
		return "[" + each(x) + "]"
	case map[string]any:
		if t, ok := x["$tuple"].([]any); ok && len(x) == 1 {
			if len(t) == 1 {
				return "(" + each(t) + ",)"
			}
			return "(" + each(t) + ")"
		}
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(x)) {
			parts = append(parts, compactJSON(k)+":"+DisplayJSON(x[k]))
		}
		return "{" + strings.Join(parts, ",") + "}"
	case float64:
		// A float is written as one: 0.0, never the int 0 it equals (a
		// witness pinning Python's 0.0 is not met by 0).
		if x == math.Trunc(x) && math.Abs(x) < 1e16 {
			return strconv.FormatFloat(x, 'f', 1, 64)
		}
	}
	return compactJSON(v)
}

// checkChangeItem holds a change item to its shape (and an assumption to
// having none of a change's fields): a way, at least one witness, and for
// each witness a target and both outcomes, returned or raised with a class.
func checkChangeItem(d *decoder, it *Item, what string, at func(string) int) {
	if !IsChange(it.ID) {
		if it.Way != "" || len(it.Witnesses) > 0 || len(it.Callers) > 0 {
			d.errf(at("witnesses"), "%s: way, callers and witnesses belong to change items (C001), not assumptions", what)
		}
		return
	}
	if strings.TrimSpace(it.Way) == "" {
		d.errf(at("way"), "%s: a change item needs its way of differing (way: returns another value)", what)
	}
	if len(it.Witnesses) == 0 {
		d.errf(at("witnesses"), "%s: a change item needs at least one witness", what)
	}
	for i, w := range it.Witnesses {
		if strings.TrimSpace(w.Call.Target) == "" {
			d.errf(at("witnesses"), "%s: witnesses[%d]: missing call.target", what, i)
		}
		for _, o := range []struct {
			side string
			o    *Outcome
		}{{"base", w.Base}, {"head", w.Head}} {
			switch {
			case o.o == nil:
				d.errf(at("witnesses"), "%s: witnesses[%d]: missing %s (outcome: returned or raised)", what, i, o.side)
			case o.o.Outcome == OutcomeRaised && o.o.Class == "":
				d.errf(at("witnesses"), "%s: witnesses[%d]: %s raised: missing class", what, i, o.side)
			case !knownOutcome(o.o.Outcome) && (w.Call.Test == "" || o.o.Outcome != OutcomePassed && o.o.Outcome != OutcomeFailed):
				d.errf(at("witnesses"), "%s: witnesses[%d]: %s outcome %q must be returned, raised, unencodable, crashed, timeout, passed or failed", what, i, o.side, o.o.Outcome)
			}
		}
	}
}
