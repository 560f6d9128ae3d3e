package validate

import (
	"fmt"
	"sort"
	"strings"
)

// CheckInput is what the CI register check reads: the register, the
// partition table and the frozen rows, each already loaded.
type CheckInput struct {
	Register     *Register
	RegisterFile string
	Table        *Table
	TableFile    string
	// Frozen are the entries of .gate/frozen_rows.json (seed 004, Step 6).
	Frozen      []FrozenRow
	FrozenFile  string
	CurrentHead string // the commit being checked, "" when unknown
	// CurrentMergeBase is the merge-base of the change being checked, ""
	// when unknown; DescendsFrom reports whether the commit being checked
	// is the register's head commit or a descendant of it (nil: unknown).
	CurrentMergeBase string
	DescendsFrom     func(commit string) bool
	// ChangeUnknown says why the change being checked could not be
	// identified ("" when it was, or when nobody asked).
	ChangeUnknown string
}

// FrozenRow is what the check needs of one freeze: seed 004's {hash:
// {row_id, reason, replacement_row}} plus the commit it was recorded at.
type FrozenRow struct {
	Hash         string
	RowID        string
	Reason       string
	Replacement  *string // nil while no deterministic row replaces it
	FrozenCommit string  // "" when the freeze does not say
}

// Finding is one reason the check fails.
type Finding struct {
	Check string `json:"check"` // the CheckRule's Name
	File  string `json:"file"`
	Line  int    `json:"line,omitempty"`
	ID    string `json:"id,omitempty"` // the assumption, row or hash concerned
	Msg   string `json:"message"`
}

// String formats the finding as file:line: message.
func (f Finding) String() string {
	return Problem{File: f.File, Line: f.Line, Msg: f.Msg}.String()
}

// CheckRule is one check of premise check, as a value so every finding
// names the rule that produced it.
type CheckRule struct {
	Name string
	Doc  string
	Run  func(in *CheckInput) []Finding
}

// CheckRules are the checks of premise check, in the order they report
// (issue 4, "premise check").
var CheckRules = []CheckRule{
	{
		Name: "this-change",
		Doc:  "the register was drafted for the change being checked: its merge-base is this change's, and its head is the checked commit or an ancestor of it",
		Run:  checkThisChange,
	},
	{
		Name: "reviewed",
		Doc:  "no assumption or behaviour change is still proposed (a change an accepted assumption's rows found is explained by it): silence is not assent",
		Run:  checkReviewed,
	},
	{
		Name: "covered",
		Doc:  "every accepted assumption appears in at least one boundary or invalid row, else the register is decorative; every rejected one in a row that violates it; every decided change has a row that keeps its decision",
		Run:  checkCovered,
	},
	{
		Name: "known-ids",
		Doc:  "every row cites assumptions the register holds",
		Run:  checkKnownIDs,
	},
	{
		Name: CheckNoTodo,
		Doc:  "no row is still a template's todo: a row nobody filled in tests nothing, and the decision it is for is not checked until someone does (not an invalid register: premise says how to fill it)",
		Run:  checkNoTodo,
	},
	{
		Name: "contract-can-fail",
		Doc:  "every row's contract rejects some wrong result: one that holds for every value premise can think of checks nothing (premise gate --self-check probes with the subject's real results)",
		Run:  checkContractsCanFail,
	},
	{
		Name: "freeze-replaced",
		Doc:  "a frozen row has a replacement_row after one accepted patch cycle",
		Run:  checkFreezes,
	},
}

// checkThisChange fails a register another change's review produced: its
// accepted decisions are about other code.
func checkThisChange(in *CheckInput) []Finding {
	p := in.Register.Provenance
	if p == nil {
		return nil
	}
	switch {
	case in.ChangeUnknown != "" && p.MergeBase != "":
		// premise cannot tell whose register this is: it does not pass.
		return []Finding{{File: in.RegisterFile, Msg: fmt.Sprintf("cannot tell whether the register (merge-base %.12s, head %.12s) belongs to the change being checked: %s; pass --base", p.MergeBase, p.Head, in.ChangeUnknown)}}
	case in.CurrentMergeBase != "" && p.MergeBase != "" && p.MergeBase != in.CurrentMergeBase:
		return []Finding{{File: in.RegisterFile, Msg: fmt.Sprintf("the register was drafted for another change (merge-base %.12s, head %.12s); this change's merge-base is %.12s: draft it for this change with premise propose", p.MergeBase, p.Head, in.CurrentMergeBase)}}
	case in.DescendsFrom != nil && p.Head != "" && !in.DescendsFrom(p.Head):
		return []Finding{{File: in.RegisterFile, Msg: fmt.Sprintf("the register was drafted for head %.12s, which the commit being checked does not descend from: draft it for this change with premise propose", p.Head)}}
	}
	return nil
}

// checkReviewed asks for a decision on the change's own assumptions. A
// stale proposed one was drafted for code this change no longer touches:
// it is listed for cleanup (CheckReport.Stale), not held against the
// change.
func checkReviewed(in *CheckInput) []Finding {
	var out []Finding
	awaiting := map[string]bool{}
	for _, id := range in.Register.Awaiting() {
		awaiting[id] = true
	}
	for _, it := range in.Register.Items {
		switch {
		case !awaiting[it.ID]:
		case IsChange(it.ID):
			out = append(out, Finding{File: in.RegisterFile, Line: it.SrcLine, ID: it.ID,
				Msg: fmt.Sprintf("%s is still proposed (%s %s: %s); accept it if the change is intended, reject it if it is a regression: premise review", it.ID, it.Symbol, it.Way, it.Evidence)})
		default:
			out = append(out, Finding{File: in.RegisterFile, Line: it.SrcLine, ID: it.ID,
				Msg: fmt.Sprintf("%s is still proposed (%s: %s); accept or reject it: premise review", it.ID, it.Symbol, it.Precondition)})
		}
	}
	return out
}

func checkCovered(in *CheckInput) []Finding {
	edge := map[string]bool{}
	any := map[string][]string{}
	for _, r := range in.Table.Rows {
		for _, id := range r.AssumptionIDs {
			if r.Kind == KindBoundary || r.Kind == KindInvalid || r.Kind == KindProperty { // a property row spends many inputs on the edges
				edge[id] = true
			}
			any[id] = append(any[id], r.ID)
		}
	}
	var out []Finding
	for _, it := range in.Register.Items {
		if IsChange(it.ID) {
			if (it.Status == StatusAccepted || it.Status == StatusRejected) && !it.Stale && len(any[it.ID]) == 0 {
				out = append(out, Finding{File: in.RegisterFile, Line: it.SrcLine, ID: it.ID,
					Msg: fmt.Sprintf("%s is %s but no row keeps the decision (%s %s); write its witness rows: premise partitions", it.ID, it.Status, it.Symbol, it.Way)})
			}
			continue
		}
		if it.Status == StatusRejected && !it.Stale && len(any[it.ID]) == 0 {
			out = append(out, Finding{File: in.RegisterFile, Line: it.SrcLine, ID: it.ID,
				Msg: fmt.Sprintf("%s is rejected but no row violates it (%s), so nothing fails a patch relying on it; write its rows: premise partitions", it.ID, it.Precondition)})
			continue
		}
		if it.Status != StatusAccepted || edge[it.ID] {
			continue
		}
		msg := fmt.Sprintf("%s is accepted but no boundary or invalid row tests it (%s); add one: premise partitions", it.ID, it.Precondition)
		if rows := any[it.ID]; len(rows) > 0 {
			msg = fmt.Sprintf("%s is accepted but only representative rows (%s) test it (%s); add a boundary or invalid row", it.ID, strings.Join(rows, ", "), it.Precondition)
		}
		out = append(out, Finding{File: in.RegisterFile, Line: it.SrcLine, ID: it.ID, Msg: msg})
	}
	return out
}

func checkKnownIDs(in *CheckInput) []Finding {
	known := map[string]bool{}
	for _, it := range in.Register.Items {
		known[it.ID] = true
	}
	var out []Finding
	for _, r := range in.Table.Rows {
		for _, id := range r.AssumptionIDs {
			if !known[id] {
				out = append(out, Finding{File: in.TableFile, Line: r.SrcLine, ID: r.ID,
					Msg: fmt.Sprintf("%s cites %s, which %s does not hold", r.ID, id, in.RegisterFile)})
			}
		}
	}
	return out
}

// CheckNoTodo is the name of the check that lists the rows premise could
// not write (todo rows). Its findings do not make the register invalid:
// the decision such a row is for is not checked until a person fills it
// in (CheckReport.Unfilled), and premise says how.
const CheckNoTodo = "no-todo"

func checkNoTodo(in *CheckInput) []Finding {
	var out []Finding
	for _, r := range in.Table.Rows {
		if r.Todo != "" {
			out = append(out, Finding{File: in.TableFile, Line: r.SrcLine, ID: r.ID,
				Msg: todoMessage(in, r)})
		}
	}
	return out
}

// todoMessage says which decision a todo row leaves unchecked, why premise
// could not write it, and how a person fills it in: the input in the
// table language's syntax (a value JSON cannot hold included), the check
// the decision asks for, and the todo line removed.
func todoMessage(in *CheckInput, r Row) string {
	var items []string
	check := "same_as_base: true (the head must do what the base did)"
	input := "its input"
	for _, id := range r.AssumptionIDs {
		it := in.Register.Lookup(id)
		if it == nil {
			continue
		}
		switch {
		case IsChange(id):
			items = append(items, fmt.Sprintf("%s (a change %s)", id, decisionWord(it.Status)))
		case it.Status == StatusRejected:
			items = append(items, fmt.Sprintf("%s (rejected: the patch must not rely on %q)", id, it.Precondition))
			input = "an input that violates " + id
			check = "same_as_base: true (the head must do what the base did there)"
		case it.Status == StatusAccepted:
			items = append(items, fmt.Sprintf("%s (accepted: %q)", id, it.Precondition))
			input = "an input on the edge of " + id + ", where it still holds"
			check = "same_as_base: true (or, for an input that violates it, raises: the exception the code must raise)"
		default:
			items = append(items, id)
		}
	}
	if strings.Contains(r.Todo, NoBase) {
		check = "expect: what the head must do there (outcome: returned with its value, or outcome: raised with its class)"
	}
	what := "the row"
	if len(items) > 0 {
		what = strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s (%s) is a row premise could not write (%s); %s is not checked until it is filled in: replace its todo: line with %s (inp: for one argument, args: for several; %s) and %s",
		r.ID, r.Cls, strings.TrimRight(r.Todo, ". "), what, input, inputHint(in.Table.Language), check)
}

// NoBase is what the todo of a decided row about a function the head
// adds says: no base outcome can be deferred to, so the row needs expect.
const NoBase = "there is no base to do what the base did"

func decisionWord(status string) string {
	switch status {
	case StatusAccepted:
		return "accepted as intended"
	case StatusRejected:
		return "rejected as a regression"
	}
	return status
}

// inputHint says how a row of the language writes a value plain JSON
// cannot: a datetime, an object a constructor builds.
func inputHint(language string) string {
	switch language {
	case LangPython, "":
		return `a value JSON cannot hold is a Python expression, {$expr: "datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)", $imports: ["import datetime"]}`
	case LangGo:
		return `a time.Time is RFC 3339 text, "2024-01-01T00:00:00+05:30"; a value a constructor builds is {$new: "example.com/pkg.NewT", $args: [...]}`
	case LangExec:
		return "the value the command reads"
	}
	return `an object a class builds is {$new: "src/module.Class", $args: [...]}`
}

// wrongResults are the values checkContractsCanFail feeds a contract, one
// of each shape a result takes: a contract none of them falsifies cannot
// tell a wrong result from a right one.
var wrongResults = []any{
	nil, true, false, 0, -1, 1, 7, 2.5, "", "premise: a wrong result",
	[]any{}, []any{0}, []any{-1, 1}, []any{3, 1, 2}, []any{[]any{-1, 0}}, []any{[]any{1, 0}}, []any{"premise"},
	map[string]any{}, map[string]any{"premise": -1},
}

// checkContractsCanFail reports a row whose contract no wrong result
// falsifies: it holds (or cannot be evaluated) on every value of
// wrongResults, so a patch returning anything at all passes it. An
// evaluation error is no rejection: a result of the shape the contract
// expects would hold. Checked without running code, so premise check
// reports it, not only an opt-in premise gate --self-check.
func checkContractsCanFail(in *CheckInput) []Finding {
	var out []Finding
	for _, r := range in.Table.Rows {
		if r.Contract == "" || r.Kind == KindInvalid || r.Kind == KindProperty {
			continue
		}
		c, err := CompileContract(r.Contract)
		if err != nil {
			continue // the table's reader reports it
		}
		args, kwargs := r.CallArgs()
		held, rejected := 0, false
		for _, v := range wrongResults {
			ok, err := c.Eval(v, r.Inp, args, kwargs)
			switch {
			case err != nil:
			case ok:
				held++
			default:
				rejected = true
			}
			if rejected {
				break
			}
		}
		if !rejected && held > 0 {
			out = append(out, Finding{File: in.TableFile, Line: r.SrcLine, ID: r.ID,
				Msg: fmt.Sprintf("%s's contract %q holds for every result premise tried (null, numbers, text, lists, maps): no wrong result could fail it; state what the result must be (result == ..., or a property that can be false)", r.ID, r.Contract)})
		}
	}
	return out
}

// checkFreezes fails a freeze without a replacement once it has outlived
// the cycle it was made in: it was recorded at another commit than the one
// being checked, or it does not say where it was recorded (seed 004's bare
// shape), so nothing shows it is still within its first cycle.
func checkFreezes(in *CheckInput) []Finding {
	var out []Finding
	for _, f := range in.Frozen {
		if f.Replacement != nil {
			if in.Table.Lookup(*f.Replacement) == nil {
				out = append(out, Finding{File: in.FrozenFile, ID: f.Hash,
					Msg: fmt.Sprintf("freeze %s (%s) names replacement_row %s, which %s does not hold", f.Hash, f.RowID, *f.Replacement, in.TableFile)})
			}
			continue
		}
		if f.FrozenCommit != "" && f.FrozenCommit == in.CurrentHead {
			continue // frozen in this cycle: the debt is recorded, not yet due
		}
		when := "it does not say at which commit it was frozen"
		if f.FrozenCommit != "" {
			when = fmt.Sprintf("it was frozen at %s, an earlier cycle", short(f.FrozenCommit))
		}
		out = append(out, Finding{File: in.FrozenFile, ID: f.Hash,
			Msg: fmt.Sprintf("freeze %s (%s) still has replacement_row null and %s; add a deterministic row and name it", f.Hash, f.RowID, when)})
	}
	return out
}

// staleAdvice says what to do with a stale assumption of a status.
func staleAdvice(status string) string {
	switch status {
	case StatusAccepted:
		return "its rows keep running as the regression suite of its function; delete it, and its rows, only when the function is gone"
	case StatusRejected:
		return "kept as the record of a decision; delete it when nobody needs the record"
	}
	return "never reviewed, and the change it was drafted for no longer touches it: delete it, or review it"
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

// Coverage is how one accepted assumption is tested.
type Coverage struct {
	ID       string   `json:"id"`
	Symbol   string   `json:"symbol"`
	Rows     []string `json:"rows"`      // every row citing it
	EdgeRows []string `json:"edge_rows"` // the boundary and invalid ones
}

// TargetClasses lists the classes a target's rows hit.
type TargetClasses struct {
	Target  string   `json:"target"`
	Classes []string `json:"classes"`
	Rows    int      `json:"rows"`
}

// CheckReport is the result of Check. The check holds when Findings is
// empty.
type CheckReport struct {
	Findings []Finding       `json:"findings"`
	Targets  []TargetClasses `json:"targets"`
	Coverage []Coverage      `json:"coverage"`
	Counts   map[string]int  `json:"counts"` // items by status
	// Stale are the assumptions the current diff no longer supports,
	// listed for cleanup: an accepted one's rows keep running as the
	// regression suite of its function; a proposed or rejected one can be
	// deleted by hand.
	Stale []StaleItem `json:"stale"`
}

// StaleItem is one assumption listed for cleanup.
type StaleItem struct {
	ID     string `json:"id"`
	Symbol string `json:"symbol"`
	Status string `json:"status"`
	File   string `json:"file"`
	Line   int    `json:"line,omitempty"`
	Advice string `json:"advice"`
}

// OK reports whether every check passed.
func (r *CheckReport) OK() bool { return len(r.Findings) == 0 }

// Unfilled are the findings of rows premise could not write (todo rows):
// the register is sound, but the decisions they are for are not checked
// until a person fills them in.
func (r *CheckReport) Unfilled() []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if f.Check == CheckNoTodo {
			out = append(out, f)
		}
	}
	return out
}

// Failing are the findings that make the register check fail: every one
// but the rows premise could not write (Unfilled).
func (r *CheckReport) Failing() []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if f.Check != CheckNoTodo {
			out = append(out, f)
		}
	}
	return out
}

// Check runs every CheckRule and summarises classes hit per target and the
// coverage of each accepted assumption. Seed 004 counts classes, not
// statements: coverage of the table is not line coverage.
func Check(in *CheckInput) *CheckReport {
	rep := &CheckReport{Findings: []Finding{}, Counts: map[string]int{}}
	for _, rule := range CheckRules {
		for _, f := range rule.Run(in) {
			f.Check = rule.Name
			rep.Findings = append(rep.Findings, f)
		}
	}
	rep.Stale = []StaleItem{}
	for _, it := range in.Register.Items {
		rep.Counts[it.Status]++
		if it.Stale {
			rep.Stale = append(rep.Stale, StaleItem{ID: it.ID, Symbol: it.Symbol, Status: it.Status,
				File: in.RegisterFile, Line: it.SrcLine, Advice: staleAdvice(it.Status)})
		}
	}
	byTarget := map[string]map[string]bool{}
	rows := map[string]int{}
	cites := map[string]*Coverage{}
	for _, r := range in.Table.Rows {
		tg := in.Table.TargetOf(r)
		if byTarget[tg] == nil {
			byTarget[tg] = map[string]bool{}
		}
		byTarget[tg][r.Cls] = true
		rows[tg]++
		for _, id := range r.AssumptionIDs {
			c := cites[id]
			if c == nil {
				c = &Coverage{ID: id, Rows: []string{}, EdgeRows: []string{}}
				cites[id] = c
			}
			c.Rows = append(c.Rows, r.ID)
			if r.Kind == KindBoundary || r.Kind == KindInvalid || r.Kind == KindProperty { // a property row spends many inputs on the edges
				c.EdgeRows = append(c.EdgeRows, r.ID)
			}
		}
	}
	for tg, cls := range byTarget {
		tc := TargetClasses{Target: tg, Rows: rows[tg]}
		for c := range cls {
			tc.Classes = append(tc.Classes, c)
		}
		sort.Strings(tc.Classes)
		rep.Targets = append(rep.Targets, tc)
	}
	sort.Slice(rep.Targets, func(i, j int) bool { return rep.Targets[i].Target < rep.Targets[j].Target })
	for _, it := range in.Register.Items {
		if it.Status != StatusAccepted {
			continue
		}
		c := Coverage{ID: it.ID, Symbol: it.Symbol, Rows: []string{}, EdgeRows: []string{}}
		if got := cites[it.ID]; got != nil {
			c.Rows, c.EdgeRows = got.Rows, got.EdgeRows
		}
		rep.Coverage = append(rep.Coverage, c)
	}
	if rep.Targets == nil {
		rep.Targets = []TargetClasses{}
	}
	if rep.Coverage == nil {
		rep.Coverage = []Coverage{}
	}
	return rep
}
