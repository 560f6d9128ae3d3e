package evidence

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/internal/jsonvalue"
	"github.com/premise-dev/premise/validate"
)

// RowsFunc asks a model for partition rows of one target's accepted
// assumptions (issue 13, part 10). The rows are proposals: the partitions
// stage keeps one only when it is well formed and holds on the base.
type RowsFunc func(ctx context.Context, q RowsQuestion) ([]validate.Row, error)

// RowsQuestion is what the model is told of one target.
type RowsQuestion struct {
	Target, Language string
	Params           []string // as written: "ranges: list", "n int"
	Assumptions      []validate.Item
	Source           string   // the target's source, as the register's head has it
	Templates        []string // the template rows already written, one line each
	Max              int
}

// BaseCheck runs a table's rows on the base revision and says, by row id,
// why a row does not hold there; a row it does not name holds. The error
// means the rows could not be run at all.
type BaseCheck func(ctx context.Context, t *validate.Table) (map[string]string, error)

// DroppedRow is a model row the partitions stage did not keep, and why:
// the proposal filter's report, for rows.
type DroppedRow struct {
	Target string `json:"target"`
	Cls    string `json:"cls,omitempty"`
	Kind   string `json:"kind,omitempty"`
	Input  string `json:"input"`
	Reason string `json:"reason"`
}

// maxModelRows bounds the rows asked of a model per target.
const maxModelRows = 12

// modelCandidate is a well-formed model row waiting for its check on the
// base.
type modelCandidate struct {
	target string
	row    validate.Row
}

// askModelRows asks the model for rows of one target, given the template
// rows, and returns those well formed; the others are added to
// res.Dropped. A model that cannot answer leaves a note; after an endpoint
// failure it is not asked again.
func askModelRows(ctx context.Context, cfg *ExtendConfig, res *ExtendResult, sym, langName, source string, sig *Signature, items []validate.Item, templates []validate.Row) []modelCandidate {
	q := RowsQuestion{Target: sym, Language: langName, Assumptions: items, Source: source, Max: maxModelRows}
	for _, p := range sig.Params {
		q.Params = append(q.Params, lang.StaticLanguages()[langName].ParamText(p))
	}
	for _, r := range templates {
		if r.Todo == "" {
			q.Templates = append(q.Templates, rowLine(langName, sym, r))
		}
	}
	rows, err := cfg.ModelRows(ctx, q)
	if err != nil {
		res.Notes = append(res.Notes, fmt.Sprintf("no model rows for %s: %s", sym, lang.OneLine(err.Error())))
		if !errors.Is(err, context.Canceled) {
			cfg.ModelRows = nil // one failing endpoint fails every target alike
		}
		return nil
	}
	accepted := map[string]bool{}
	for _, it := range items {
		accepted[it.ID] = true
	}
	var out []modelCandidate
	for _, r := range rows {
		r.Target = sym
		why := wellFormed(langName, sym, r, accepted)
		if why == "" {
			why = fitsSignature(langName, sig, r)
		}
		if why != "" {
			res.Dropped = append(res.Dropped, dropped(langName, sym, r, why))
			continue
		}
		out = append(out, modelCandidate{target: sym, row: r})
	}
	return out
}

// wellFormed says why a model row cannot be a row of the table ("" when it
// can): it must cite the target's accepted assumptions, say what it checks,
// carry values only, and pass the table's own checks.
func wellFormed(langName, sym string, r validate.Row, accepted map[string]bool) string {
	switch r.Kind {
	case validate.KindBoundary, validate.KindInvalid, validate.KindRepresentative:
	default:
		return fmt.Sprintf("kind %q: a model row is boundary, invalid or representative", r.Kind)
	}
	if len(r.AssumptionIDs) == 0 {
		return "it cites no assumption"
	}
	for _, id := range r.AssumptionIDs {
		if !accepted[id] {
			return fmt.Sprintf("it cites %s, which is not an accepted assumption about %s", id, sym)
		}
	}
	if !r.SameAsBase && r.Contract == "" && r.Kind != validate.KindInvalid {
		return "it has neither a contract nor same_as_base: it would check nothing"
	}
	if jsonvalue.ProtocolKey(r.Args) || jsonvalue.ProtocolKey(r.Kwargs) {
		return "an argument holds a key starting with $, which the row protocol reads as code"
	}
	one := validate.Table{Version: validate.FormatVersion, Language: langName, Target: sym}
	r.ID = "P001"
	one.Rows = []validate.Row{r}
	data, err := one.Marshal()
	if err == nil {
		_, err = validate.ParseTable("model row", data)
	}
	if err != nil {
		var le *validate.LoadError
		if errors.As(err, &le) {
			msgs := make([]string, len(le.Problems))
			for i, p := range le.Problems {
				msgs[i] = strings.TrimPrefix(p.Msg, "row P001: ")
			}
			return strings.Join(msgs, "; ")
		}
		return lang.OneLine(err.Error())
	}
	return ""
}

// fitsSignature says why a row's call cannot bind to sig's parameters
// ("" when it can): too many positional arguments, or a parameter without
// a default left out. Such a call raises the same TypeError on both sides
// and tests nothing.
func fitsSignature(langName string, sig *Signature, r validate.Row) string {
	args, kwargs := r.CallArgs()
	return lang.StaticLanguages()[langName].Fits(sig, args, kwargs)
}

// checkModelRows runs the well-formed model rows on the base and returns
// those that hold there; the rest are added to res.Dropped. Without a base
// check every row is dropped: a row premise cannot check is not kept.
func checkModelRows(ctx context.Context, cfg *ExtendConfig, res *ExtendResult, langName string, cands []modelCandidate) []validate.Row {
	if len(cands) == 0 {
		return nil
	}
	if cfg.CheckOnBase == nil {
		for _, c := range cands {
			res.Dropped = append(res.Dropped, dropped(langName, c.target, c.row, "no base revision to run it on: the register names no merge-base"))
		}
		return nil
	}
	t := &validate.Table{Version: validate.FormatVersion, Language: langName}
	for i, c := range cands {
		r := c.row
		r.ID = fmt.Sprintf("P%03d", i+1)
		t.Rows = append(t.Rows, r)
	}
	t.Target = t.Rows[0].Target
	why, err := cfg.CheckOnBase(ctx, t)
	if err != nil {
		for _, c := range cands {
			res.Dropped = append(res.Dropped, dropped(langName, c.target, c.row, "it could not be run on the base: "+lang.OneLine(err.Error())))
		}
		return nil
	}
	var keep []validate.Row
	for i, c := range cands {
		if w := why[t.Rows[i].ID]; w != "" {
			res.Dropped = append(res.Dropped, dropped(langName, c.target, c.row, w))
			continue
		}
		keep = append(keep, c.row)
	}
	return keep
}

func dropped(langName, sym string, r validate.Row, why string) DroppedRow {
	return DroppedRow{Target: sym, Cls: r.Cls, Kind: r.Kind, Input: rowCall(langName, sym, r), Reason: why}
}

// rowCall is a row's call as its language writes it: merge_ranges([[4, 6]]).
func rowCall(langName, sym string, r validate.Row) string {
	name := sym[strings.LastIndexAny(sym, "./")+1:]
	args, kwargs := r.CallArgs()
	if l := lang.StaticLanguages()[langName]; l != nil {
		return name + l.CallText(args, kwargs)
	}
	return name + lang.CallText(args, kwargs)
}

// rowLine is a row in one line, as the rows prompt lists the template
// rows: "boundary unsorted: merge_ranges([[4, 6], [0, 1]]) same_as_base".
func rowLine(langName, sym string, r validate.Row) string {
	check := "same_as_base"
	switch {
	case r.Contract != "":
		check = "contract " + r.Contract
	case r.Raises != "":
		check = "raises " + r.Raises
	case r.Kind == validate.KindInvalid:
		check = "raises"
	}
	return fmt.Sprintf("%s %s: %s %s", r.Kind, r.Cls, rowCall(langName, sym, r), check)
}

// CheckOnBase is the BaseCheck that runs rows in dir, a checkout of the
// base, with cfg's worker settings. A contract row holds when its
// contract holds there and an invalid row when the base raises as it
// says; a same_as_base row holds when the base runs it to a value or a
// raise, so the head has something to be compared with. A row the worker
// cannot run at all (a target the base lacks, an argument it cannot
// decode) is dropped with the worker's reason, the others still checked.
func CheckOnBase(cfg gate.Config, dir string) BaseCheck {
	return func(ctx context.Context, t *validate.Table) (map[string]string, error) {
		probe := *t
		probe.Rows = make([]validate.Row, len(t.Rows))
		same := map[string]bool{}
		for i, r := range t.Rows {
			if r.SameAsBase {
				same[r.ID] = true
				r.SameAsBase = false
			}
			probe.Rows[i] = r
		}
		cfg.Repo, cfg.Base, cfg.BaseDir, cfg.Lang = dir, "", "", t.Language
		cfg.Private, cfg.Reruns, cfg.Freezes, cfg.Progress, cfg.Target = true, 1, nil, nil, ""
		cfg.Budget = len(probe.Rows)
		if cfg.Timeout == 0 || cfg.Timeout > callTimeout {
			cfg.Timeout = callTimeout
		}
		why := map[string]string{}
		rep, err := gate.Run(ctx, cfg, &probe)
		var infra *gate.InfraError
		switch {
		case errors.As(err, &infra) && len(probe.Rows) > 1 && len(probe.Rows) <= maxModelRows*4:
			// One row the worker cannot run must not take the others
			// with it: each runs alone.
			for _, r := range probe.Rows {
				one := probe
				one.Rows, one.Target = []validate.Row{r}, r.Target
				cfg.Budget = 1
				rep1, err := gate.Run(ctx, cfg, &one)
				switch {
				case errors.As(err, &infra):
					why[r.ID] = "the base cannot run it: " + lang.OneLine(infra.Error())
				case err != nil:
					return nil, err
				default:
					judgeOnBase(rep1, same, why)
				}
			}
			return why, nil
		case err != nil:
			return nil, err
		}
		judgeOnBase(rep, same, why)
		return why, nil
	}
}

// judgeOnBase records why each row of rep does not hold on the base.
func judgeOnBase(rep *gate.Report, same map[string]bool, why map[string]string) {
	for _, rr := range rep.Rows {
		if len(rr.Attempts) == 0 {
			why[rr.ID] = "it did not run on the base"
			continue
		}
		a := rr.Attempts[0]
		if e := a.Reply.Exc; gate.HarnessRefused(a.Reply) && e != nil {
			// The harness's own refusal (an argument that does not
			// decode into its parameter's type), not the code's.
			why[rr.ID] = "the base cannot run it: " + lang.OneLine(e.Message)
			continue
		}
		if same[rr.ID] {
			switch a.Reply.Outcome {
			case gate.OutcomeReturned, gate.OutcomeRaised:
			case gate.OutcomeUnencodable:
				why[rr.ID] = "the base's result has no JSON form, so same_as_base could not compare the head with it"
			default:
				why[rr.ID] = fmt.Sprintf("on the base it %s: %s", a.Reply.Outcome, lang.OneLine(a.Reply.Detail))
			}
			continue
		}
		if a.Status != gate.StatusPass {
			why[rr.ID] = fmt.Sprintf("it does not hold on the base (%s): %s", a.Status, lang.OneLine(a.Why))
		}
	}
}
