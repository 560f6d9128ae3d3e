package ledger

import "github.com/premise-dev/premise/gate/junit"

// GateResult is one failing test as the ledger gate judged it.
type GateResult struct {
	ID      string        `json:"id"`
	Outcome junit.Outcome `json:"outcome"`
	State   State         `json:"state"`
	Message string        `json:"message,omitempty"`
}

// GateReport is one premise ledger gate: failures of tests that are not
// frozen block; frozen failures are counted as their own figure (seed
// 002: fail the job only for active tests; print frozen counts as a
// separate metric).
type GateReport struct {
	Ledger   string       `json:"ledger"`
	Tests    int          `json:"tests"`
	Blocking []GateResult `json:"blocking"`
	Frozen   []GateResult `json:"frozen"`
	// FrozenRan counts every frozen test the results hold, failing or not.
	FrozenRan int `json:"frozen_ran"`
	Exit      int `json:"exit"`
}

// Gate judges the results by the ledger at path. A test the ledger does
// not know is active.
func Gate(path string, reports []*junit.Report) (*GateReport, error) {
	l, err := Load(path)
	if err != nil {
		return nil, err
	}
	rep := &GateReport{Ledger: path, Blocking: []GateResult{}, Frozen: []GateResult{}}
	for _, jr := range reports {
		for _, c := range jr.Cases {
			rep.Tests++
			st := Active
			if r := l.Tests[c.ID]; r != nil {
				st = r.State
			}
			if st == Frozen {
				rep.FrozenRan++
			}
			if !c.Failing() {
				continue
			}
			g := GateResult{ID: c.ID, Outcome: c.Outcome(), State: st, Message: c.Message()}
			if st == Frozen {
				rep.Frozen = append(rep.Frozen, g)
			} else {
				rep.Blocking = append(rep.Blocking, g)
			}
		}
	}
	if len(rep.Blocking) > 0 {
		rep.Exit = 1
	}
	return rep, nil
}
