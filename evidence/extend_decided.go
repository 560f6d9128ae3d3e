package evidence

import (
	"fmt"
	"slices"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/validate"
)

// Sides of a precondition a class of inputs lies on.
const (
	sideHeld     = "held"     // the precondition holds
	sideViolated = "violated" // it does not
	sideMaybe    = "maybe"    // a boundary value of a category that names no sides
)

// side says on which side of the category's precondition a row's class
// lies: held, violated, maybe, or "" when the category does not tell. A
// class is matched by its longest known suffix, so a class named after
// its parameter (ranges_touching_unsorted) is the catalog's
// touching_unsorted, and seed 004's invalid_none is null.
func (c Category) side(cls, kind string) string {
	if len(c.Violated) == 0 && len(c.Held) == 0 {
		switch kind {
		case validate.KindRepresentative:
			return sideHeld
		case validate.KindInvalid:
			return sideViolated
		case validate.KindBoundary:
			return sideMaybe
		}
		return ""
	}
	parts := strings.Split(cls, "_")
	for i := range parts {
		name := strings.Join(parts[i:], "_")
		switch {
		case name == "none" || name == "invalid_none":
			name = "null"
		case strings.HasPrefix(name, "invalid_"):
			name = strings.TrimPrefix(name, "invalid_")
		}
		if slices.Contains(c.Violated, name) {
			return sideViolated
		}
		if slices.Contains(c.Held, name) {
			return sideHeld
		}
	}
	return ""
}

// Violates reports whether an input of class cls (as a template row names
// it) violates precondition: a behaviour change seen there is explained
// when the precondition is accepted (issue 25). Only a category that names
// its sides can say so; a class it does not name violates nothing.
func Violates(precondition, cls string) bool {
	return CategoryOf(precondition).side(cls, "") == sideViolated
}

// decidedRows keeps of an assumption's class rows those its decision asks
// for, and says in each what it pins (issue 25):
//
//   - accepted: the precondition is legitimate, so the rows test the edge
//     where it still holds (boundary rows pinning the base's outcome);
//     when the precondition or the reviewer's note names an exception,
//     the rows violating it must raise that exception.
//   - rejected: the patch must not rely on it, so the rows are inputs that
//     violate it, pinning the base's outcome: a patch that relies on it
//     behaves otherwise there and fails.
//
// A todo row stays a todo. Every kept row carries the decision, so a
// decision changed later replaces the rows it wrote.
func decidedRows(req Request, it validate.Item, rows []validate.Row) []validate.Row {
	cat := CategoryOf(it.Precondition)
	exc := ""
	for _, text := range []string{it.Note, it.Precondition} {
		if m := excClass.FindStringSubmatch(text); m != nil {
			exc = m[1]
			break
		}
	}
	var out []validate.Row
	for _, r := range rows {
		if r.Todo != "" {
			out = append(out, r)
			continue
		}
		side := cat.side(r.Cls, r.Kind)
		r.Decision = it.Status
		r.Contract, r.Metamorphic = "", nil
		switch {
		case it.Status == validate.StatusAccepted && side == sideHeld:
			r.Kind, r.Raises, r.SameAsBase = validate.KindBoundary, "", true
			r.Relation = fmt.Sprintf("%s holds here (%s): the head does what the base did", it.ID, r.Relation)
		case it.Status == validate.StatusAccepted && side == sideViolated && exc != "":
			r.Kind, r.Raises, r.SameAsBase = validate.KindInvalid, exc, false
			r.Relation = fmt.Sprintf("%s is violated here (%s): must raise %s", it.ID, r.Relation, exc)
		case it.Status == validate.StatusRejected && (side == sideViolated || side == sideMaybe):
			r.Raises, r.SameAsBase = "", true
			if r.Kind == validate.KindRepresentative {
				r.Kind = validate.KindBoundary
			}
			r.Relation = fmt.Sprintf("%s is violated here (%s): the patch must not rely on it, so the head does what the base did", it.ID, r.Relation)
		default:
			continue
		}
		out = append(out, r)
	}
	if len(out) > 0 {
		return out
	}
	what := "where it still holds, pinning the base's outcome"
	if it.Status == validate.StatusRejected {
		what = "that violates it, pinning the base's outcome"
	}
	param := "its parameter"
	if req.Sig != nil && len(req.Sig.Params) > 0 {
		param = "parameter " + req.Sig.Params[0].Name
	}
	t := todoRow(it, cat.Name, fmt.Sprintf("no %s class of %s is known to lie on that side of the precondition; write a row %s", cat.Name, param, what))
	t.Decision = it.Status
	return []validate.Row{t}
}

// acceptedOnly are the accepted items of items: a model is asked for rows
// of accepted assumptions only.
func acceptedOnly(items []validate.Item) []validate.Item {
	var out []validate.Item
	for _, it := range items {
		if it.Status == validate.StatusAccepted {
			out = append(out, it)
		}
	}
	return out
}

// redecided drops the rows premise wrote for an assumption under a
// decision the register no longer holds (accepted, then rejected), so the
// assumption's rows are written again as its decision now means. Rows a
// human wrote carry no decision and are kept.
func redecided(tb *validate.Table, bySymbol map[string][]validate.Item) {
	status := map[string]string{}
	for _, items := range bySymbol {
		for _, it := range items {
			status[it.ID] = it.Status
		}
	}
	kept := tb.Rows[:0]
	for _, r := range tb.Rows {
		if !redecidedRow(r, status) {
			kept = append(kept, r)
		}
	}
	tb.Rows = kept
}

// redecidedRow says r is an assumption row (one or more assumptions'
// rows on one input, merged) written for a decision one of its
// assumptions no longer has.
func redecidedRow(r validate.Row, status map[string]string) bool {
	if r.Decision == "" || len(r.AssumptionIDs) == 0 {
		return false
	}
	for _, id := range r.AssumptionIDs {
		if validate.IsChange(id) {
			return false // a witness row: its change's decision rewrites it
		}
	}
	for _, id := range r.AssumptionIDs {
		if s, ok := status[id]; ok && s != r.Decision {
			return true
		}
	}
	return false
}

// witnessInputs are the inputs (target and arguments) the witness rows of
// decided changes pin, each with its change's decision.
func witnessInputs(tb *validate.Table) map[string]string {
	out := map[string]string{}
	for _, r := range tb.Rows {
		if r.Decision != "" && len(r.AssumptionIDs) == 1 && validate.IsChange(r.AssumptionIDs[0]) {
			out[pinnedKey(tb, r)] = r.Decision
		}
	}
	return out
}

// pinnedKey identifies a row's call by its target and its arguments, the
// row protocol's own keys ($observe, $probes) left out.
func pinnedKey(tb *validate.Table, r validate.Row) string {
	args, kwargs := r.CallArgs()
	kw := map[string]any{}
	for k, v := range kwargs {
		if !strings.HasPrefix(k, "$") {
			kw[k] = v
		}
	}
	canon, err := validate.CanonicalJSON(map[string]any{"args": validate.Normalize(args), "kwargs": validate.Normalize(kw)})
	if err != nil {
		return ""
	}
	// A method is one target whether named as diff prints it (pkg.T.M)
	// or as its method expression (pkg.(*T).M).
	target := strings.NewReplacer("(*", "", ").", ".").Replace(tb.TargetOf(r))
	return target + "\x00" + string(canon)
}

// violations returns, for a change, the assumptions of reg its input
// violates: of those whose rows asked the input, the ones whose
// precondition the input's class violates (Violates). A shrunk witness is
// of the class of the row it was shrunk from when it differs in the same
// way; one that differs otherwise ([[]] shrunk from an unsorted list, now
// raising) is of no class.
func violations(cs []Change, reg *validate.Register) func(Change) []string {
	pre := map[string]string{}
	if reg != nil {
		for _, it := range reg.Items {
			if !validate.IsChange(it.ID) {
				pre[it.ID] = it.Precondition
			}
		}
	}
	classOf := map[string]string{}
	for _, c := range cs {
		if !c.Witness {
			classOf[c.Row+"\x00"+validate.WayOf(c.BaseOutcome, c.HeadOutcome)] = c.Class
		}
	}
	return func(c Change) []string {
		cls := c.Class
		if c.Witness {
			cls = classOf[c.Row+"\x00"+validate.WayOf(c.BaseOutcome, c.HeadOutcome)]
		}
		out := []string{}
		for _, a := range c.Assumptions {
			if p, ok := pre[a]; ok && cls != "" && Violates(p, cls) && !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
		return out
	}
}

// refusedRows fills an "error-accepted" assumption's todo from the
// evidence: the inputs of sym the base refused (raised) and the head
// accepts, or refuses otherwise, are the ones it is about. Rejected, they must still be refused
// (the base's outcome); accepted, the widening is legitimate and they
// keep the head's outcome. Nil when the evidence saw none.
//
// An input whose change the reviewer decided otherwise (the change
// accepted as intended, the assumption rejected, or the other way round)
// is left to the change: the decision on the input itself wins over the
// one on the class of inputs, as a template row's does (Extend), and the
// change ids are returned as conflicts so the todo can name them.
func refusedRows(reg *validate.Register, sym string, it validate.Item) (rows []validate.Row, conflicts []string) {
	for _, c := range reg.Items {
		if !validate.IsChange(c.ID) || c.Stale || c.Symbol != sym {
			continue
		}
		decided := c.Status == validate.StatusAccepted || c.Status == validate.StatusRejected
		for _, w := range c.Witnesses {
			// An input the base refused (it raised) that the head treats
			// otherwise: it returns, or refuses it another way.
			if w.Base == nil || w.Head == nil || w.Base.Outcome != validate.OutcomeRaised ||
				(w.Head.Outcome == validate.OutcomeRaised && w.Head.Class == w.Base.Class) {
				continue
			}
			if decided && c.Status != it.Status {
				if !slices.Contains(conflicts, c.ID) {
					conflicts = append(conflicts, c.ID)
				}
				continue
			}
			r := validate.Row{Cls: "refused_by_base", Kind: validate.KindBoundary, Target: w.Call.Target,
				Args: w.Call.Args, Kwargs: w.Call.Kwargs, AssumptionIDs: []string{it.ID}, Decision: it.Status}
			if r.Args == nil {
				r.Args = []any{}
			}
			if it.Status == validate.StatusRejected {
				r.Expect = w.Base
				r.Relation = fmt.Sprintf("%s is rejected: %s must still be refused (%s), as the base refused it", it.ID, w.Input, w.Base)
			} else {
				r.Expect = w.Head
				r.Relation = fmt.Sprintf("%s is accepted: %s, which the base refused, is accepted now (%s)", it.ID, w.Input, w.Head)
			}
			rows = append(rows, r)
		}
	}
	return rows, conflicts
}

// conflictTodo is what an "error-accepted" assumption's todo says when
// every input the evidence saw the base refuse belongs to a change the
// reviewer decided the other way: the two decisions disagree, and only a
// person can say which holds.
func conflictTodo(it validate.Item, conflicts []string) string {
	verb, other := "rejected", "accepted as intended"
	if it.Status == validate.StatusAccepted {
		verb, other = "accepted", "rejected as a regression"
	}
	return fmt.Sprintf("%s is %s, but every input the base refused that the evidence saw is a change %s (%s), whose rows keep that decision; decide %s again, or write a row that the base refuses and say what the head must do",
		it.ID, verb, other, strings.Join(conflicts, ", "), it.ID)
}

// AddedSymbols are the symbols the diff says the head adds; none without
// a diff.
func AddedSymbols(d *diffparse.Result) map[string]bool {
	out := map[string]bool{}
	if d == nil {
		return out
	}
	for _, f := range d.Files {
		for _, s := range f.Symbols {
			if s.Change == "added" {
				out[s.Name] = true
			}
		}
	}
	return out
}

// newOnHead rewrites the decided rows of a function the head adds: a row
// that defers to the base (same_as_base) has no base to run on, and would
// only ever error there. Each assumption with such rows gets one todo
// instead, saying what to write: what the head itself must do.
func newOnHead(sym string, items []validate.Item, rows []validate.Row) []validate.Row {
	var out []validate.Row
	done := map[string]bool{}
	for _, r := range rows {
		if !r.SameAsBase || r.Todo != "" {
			out = append(out, r)
			continue
		}
		it := itemCited(items, r.AssumptionIDs)
		if it == nil || done[it.ID] {
			continue
		}
		done[it.ID] = true
		where := "where " + it.ID + " still holds"
		if it.Status == validate.StatusRejected {
			where = "on an input that violates " + it.ID
		}
		t := todoRow(*it, r.Cls, fmt.Sprintf("%s is new on the head, so %s %s; write a row saying what the head must do there", sym, validate.NoBase, where))
		t.Target, t.Decision = sym, it.Status
		out = append(out, t)
	}
	return out
}

// itemCited finds the item of items a row cites first.
func itemCited(items []validate.Item, ids []string) *validate.Item {
	for i := range items {
		if len(ids) > 0 && items[i].ID == ids[0] {
			return &items[i]
		}
	}
	return nil
}
