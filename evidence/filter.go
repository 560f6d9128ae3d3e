package evidence

import (
	"errors"
	"fmt"
	"strings"

	"github.com/premise-dev/premise/validate"
)

// Dropped is a generated row that was not kept, and why.
type Dropped struct {
	Row    validate.Row `json:"row"`
	Reason string       `json:"reason"`
}

// FilterRows keeps the rows a generator may add to a table about target:
// each must cite only accepted assumptions and pass the table schema
// (kind, relation, a contract that compiles as CEL, ...). A model back end
// runs its replies through it, as assumptions go through validate's
// filter (issue 4: "the replies filtered like assumptions are"); the
// templates' rows pass it by construction.
func FilterRows(target string, rows []validate.Row, reg *validate.Register) (kept []validate.Row, dropped []Dropped) {
	accepted := map[string]bool{}
	for _, it := range reg.Items {
		if it.Status == validate.StatusAccepted {
			accepted[it.ID] = true
		}
	}
	for _, r := range rows {
		if reason := rowProblem(target, r, accepted); reason != "" {
			dropped = append(dropped, Dropped{Row: r, Reason: reason})
			continue
		}
		kept = append(kept, r)
	}
	return kept, dropped
}

func rowProblem(target string, r validate.Row, accepted map[string]bool) string {
	var not []string
	for _, id := range r.AssumptionIDs {
		if !accepted[id] {
			not = append(not, id)
		}
	}
	if len(not) > 0 {
		return fmt.Sprintf("cites %s, not an accepted assumption", strings.Join(not, ", "))
	}
	// The schema is the table's own: write the row alone into a table and
	// load it back.
	if r.ID == "" {
		r.ID = "P001"
	}
	one := &validate.Table{Version: validate.FormatVersion, Target: target, Rows: []validate.Row{r}}
	data, err := one.Marshal()
	if err != nil {
		return err.Error()
	}
	if _, err := validate.ParseTable("row", data); err != nil {
		var le *validate.LoadError
		if errors.As(err, &le) {
			msgs := make([]string, len(le.Problems))
			for i, p := range le.Problems {
				msgs[i] = p.Msg
			}
			return strings.Join(msgs, "; ")
		}
		return err.Error()
	}
	return ""
}
