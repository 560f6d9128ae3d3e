package gate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"

	"reflect"

	"github.com/premise-dev/premise/validate"
)

// Probe is one deliberately wrong result fed to a contract.
type Probe struct {
	Name     string `json:"name"` // empty, echo, perturbed
	Value    any    `json:"value"`
	Accepted bool   `json:"accepted"`
}

// SelfCheckRow is what one row's contract did with the probes.
type SelfCheckRow struct {
	ID       string  `json:"id"`
	Target   string  `json:"target"`
	Contract string  `json:"contract,omitempty"`
	Result   any     `json:"result,omitempty"` // what the subject returned, the base of "perturbed"
	Probes   []Probe `json:"probes,omitempty"`
	// Vacuous: the contract accepted every wrong result it was fed.
	Vacuous bool `json:"vacuous"`
	// Skipped says why the row was not probed (an invalid row; no contract).
	Skipped string `json:"skipped,omitempty"`
}

// TargetCheck says whether a target has at least one row whose contract is
// shown to reject a wrong result (issue 5: a contract that holds for
// anything is no check).
type TargetCheck struct {
	Target    string   `json:"target"`
	Rejecting []string `json:"rejecting_rows"`
	OK        bool     `json:"ok"`
}

// SelfCheckReport is the result of SelfCheck.
type SelfCheckReport struct {
	Rows    []SelfCheckRow `json:"rows"`
	Targets []TargetCheck  `json:"targets"`
	Exit    int            `json:"exit"` // 1 when a contract is vacuous or a target has no rejecting row
}

// SelfCheck feeds every contract deliberately wrong results: the empty
// value, the input echoed back and a perturbed copy of what the subject
// really returns (one call per row, through a). A probe equal to the real
// result is not wrong and is not fed. A contract that accepts every probe is
// vacuous.
func SelfCheck(ctx context.Context, a Adapter, t *validate.Table) (*SelfCheckReport, error) {
	rep := &SelfCheckReport{}
	byTarget := map[string]*TargetCheck{}
	for _, r := range t.Rows {
		target := t.TargetOf(r)
		tc := byTarget[target]
		if tc == nil {
			tc = &TargetCheck{Target: target, Rejecting: []string{}}
			byTarget[target] = tc
		}
		row := SelfCheckRow{ID: r.ID, Target: target, Contract: r.Contract}
		if r.Kind == validate.KindProperty {
			row.Skipped = "a property row: its inputs are generated, and its check is its property"
			rep.Rows = append(rep.Rows, row)
			continue
		}
		if r.Kind == validate.KindInvalid {
			row.Skipped = "an invalid row: it is checked by raising"
			rep.Rows = append(rep.Rows, row)
			continue
		}
		if r.Contract == "" {
			row.Skipped = "no contract"
			rep.Rows = append(rep.Rows, row)
			continue
		}
		c, err := validate.CompileContract(r.Contract)
		if err != nil {
			return nil, fmt.Errorf("row %s: %w", r.ID, err)
		}
		args, kwargs := r.CallArgs()
		reply, err := a.Call(ctx, Call{ID: r.ID, Target: target, Args: args, Kwargs: kwargs})
		var ie *InfraError
		if errors.As(err, &ie) {
			return nil, err
		}
		if err != nil {
			return nil, err
		}
		var real any
		hasReal := reply.Outcome == OutcomeReturned
		if hasReal {
			real = validate.Normalize(reply.Value)
			row.Result = real
		}
		var echo any
		if len(args) > 0 {
			echo = args[0]
		}
		cands := []Probe{{Name: "empty", Value: emptyLike(real)}, {Name: "echo", Value: echo}}
		if hasReal {
			cands = append(cands, Probe{Name: "perturbed", Value: perturb(real)})
		} else {
			cands = append(cands, Probe{Name: "null", Value: nil})
		}
		accepted := 0
		for _, p := range cands {
			if hasReal && reflect.DeepEqual(validate.Normalize(p.Value), real) {
				continue // not a wrong result
			}
			ok, err := c.Eval(p.Value, r.Inp, args, kwargs)
			p.Accepted = ok && err == nil
			if p.Accepted {
				accepted++
			}
			row.Probes = append(row.Probes, p)
		}
		row.Vacuous = len(row.Probes) > 0 && accepted == len(row.Probes)
		if len(row.Probes) > accepted {
			tc.Rejecting = append(tc.Rejecting, r.ID)
		}
		if row.Vacuous {
			rep.Exit = 1
		}
		rep.Rows = append(rep.Rows, row)
	}
	for _, tc := range byTarget {
		tc.OK = len(tc.Rejecting) > 0
		if !tc.OK {
			rep.Exit = 1
		}
		rep.Targets = append(rep.Targets, *tc)
	}
	sort.Slice(rep.Targets, func(i, j int) bool { return rep.Targets[i].Target < rep.Targets[j].Target })
	return rep, nil
}

// emptyLike is the empty value of v's kind.
func emptyLike(v any) any {
	switch v.(type) {
	case map[string]any:
		return map[string]any{}
	case string:
		return ""
	case int64, float64:
		return int64(0)
	case bool:
		return false
	}
	return []any{}
}

// perturb returns a copy of v that differs from it.
func perturb(v any) any {
	switch x := v.(type) {
	case []any:
		if len(x) == 0 {
			return []any{int64(0)}
		}
		return append([]any(nil), x[:len(x)-1]...)
	case map[string]any:
		out := map[string]any{"premise_perturbed": true}
		for k, e := range x {
			out[k] = e
		}
		return out
	case string:
		return x + "x"
	case int64:
		return x + 1
	case float64:
		return x + 1
	case bool:
		return !x
	}
	return int64(0)
}

// WriteSelfCheckText writes one line per vacuous contract and per target.
func WriteSelfCheckText(w io.Writer, rep *SelfCheckReport) error {
	ew := &errWriter{w: w}
	for _, r := range rep.Rows {
		if r.Vacuous {
			var names []string
			for _, p := range r.Probes {
				names = append(names, fmt.Sprintf("%s %s", p.Name, short(p.Value)))
			}
			ew.printf("VACUOUS %s  contract %s accepts every wrong result: %v\n", r.ID, r.Contract, names)
		}
	}
	for _, t := range rep.Targets {
		if t.OK {
			ew.printf("ok      %s  rows whose contract rejects a wrong result: %v\n", t.Target, t.Rejecting)
		} else {
			ew.printf("NO CHECK %s  no row's contract rejects a wrong result\n", t.Target)
		}
	}
	if rep.Exit == 0 {
		ew.printf("every contract can fail\n")
	} else {
		ew.printf("self-check failed (exit 1)\n")
	}
	return ew.err
}

// WriteSelfCheckJSON writes the self-check report as JSON.
func WriteSelfCheckJSON(w io.Writer, rep *SelfCheckReport) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}
