package propose

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/premise-dev/premise/internal/jsonvalue"
	"github.com/premise-dev/premise/prompts"
	"github.com/premise-dev/premise/validate"
)

// RowsRequest is one target whose accepted assumptions the model writes
// partition rows for (issue 13, part 10).
type RowsRequest struct {
	Symbol, Language string
	Params           []string // as written
	Assumptions      []RowAssumption
	Source           string   // the target's head-side source
	Templates        []string // the template rows already written, one line each
	Max              int
}

// RowAssumption is one accepted assumption the rows are for.
type RowAssumption struct {
	ID, Precondition string
}

// Rows asks the model for up to req.Max partition rows of one target. The
// rows are proposals and nothing more: the caller checks each is well
// formed and holds on the base before keeping it. A reply that is not the
// JSON object asked for, after one repair round, is an error naming the
// target; an entry that is not a row object is dropped and counted.
func (o *OpenAI) Rows(ctx context.Context, req RowsRequest) ([]validate.Row, int, error) {
	p, err := prompts.Get("rows")
	if err != nil {
		return nil, 0, err
	}
	data := prompts.RowsData{Name: req.Symbol, Language: req.Language, Params: req.Params,
		Source: clip(req.Source), Templates: req.Templates, Max: req.Max}
	for _, a := range req.Assumptions {
		data.Assumptions = append(data.Assumptions, prompts.RowsAssumption{ID: a.ID, Precondition: a.Precondition})
	}
	msgs, err := p.Render(data)
	if err != nil {
		return nil, 0, err
	}
	var rows []validate.Row
	dropped := 0
	err = o.askList(ctx, msgs, "rows", "the rows for "+req.Symbol, func(reply string) (err error) {
		rows, dropped, err = parseRows(reply, req.Max)
		return err
	})
	return rows, dropped, err
}

// modelRow is a row as the rows prompt asks for it.
type modelRow struct {
	AssumptionIDs []string       `json:"assumption_ids"`
	Cls           string         `json:"cls"`
	Kind          string         `json:"kind"`
	Args          []any          `json:"args"`
	Kwargs        map[string]any `json:"kwargs"`
	Relation      string         `json:"relation"`
	SameAsBase    bool           `json:"same_as_base"`
	Contract      string         `json:"contract"`
	Raises        string         `json:"raises"`
}

// parseRows reads {"rows": [...]}, a fenced block or a bare list too. An
// entry that is not an object of the row's fields is dropped and counted;
// at most max are kept. Whether a row is well formed is the caller's
// judgement, which says why it drops one.
func parseRows(reply string, max int) ([]validate.Row, int, error) {
	list, err := replyList(reply, "rows")
	if err != nil {
		return nil, 0, err
	}
	var out []validate.Row
	dropped := 0
	for _, e := range list {
		var m modelRow
		d := json.NewDecoder(strings.NewReader(string(e)))
		d.UseNumber()
		if err := d.Decode(&m); err != nil || len(out) >= max {
			dropped++
			continue
		}
		r := validate.Row{AssumptionIDs: m.AssumptionIDs, Cls: m.Cls, Kind: m.Kind, Relation: m.Relation,
			SameAsBase: m.SameAsBase, Contract: m.Contract, Raises: m.Raises, Args: []any{}}
		if m.Args != nil {
			r.Args = jsonvalue.Numbers(m.Args).([]any)
		}
		r.Kwargs = kwNumbers(m.Kwargs)
		out = append(out, r)
	}
	return out, dropped, nil
}
