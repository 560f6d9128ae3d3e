package freeze

import (
	"strings"
	"time"

	"github.com/premise-dev/premise/gate/junit"
)

// Verdict is what the gate makes of one test.
type Verdict string

// The verdicts: a failure that fails the gate, a frozen test's result (it
// ran; whatever it did, it does not gate), a pass.
const (
	Fail   Verdict = "fail"
	Frozen Verdict = "frozen"
	Pass   Verdict = "pass"
)

// Result is one test of the suite as the gate saw it.
type Result struct {
	ID      string        `json:"id"`
	Outcome junit.Outcome `json:"outcome"`
	Verdict Verdict       `json:"verdict"`
	Message string        `json:"message,omitempty"`
	// Freeze is the entry that matched, whether or not it still holds:
	// an expired freeze is shown beside the failure it no longer hides.
	Freeze *Standing `json:"freeze,omitempty"`
	File   string    `json:"file"`
}

// GateReport is one premise junit gate.
type GateReport struct {
	Registry string   `json:"registry"`
	Files    []string `json:"files"`
	Results  []Result `json:"results"`
	// Failed counts failures that gate; FrozenFailed failures of frozen
	// tests, counted apart (seed 002: print frozen counts as a separate
	// metric); FrozenRan every frozen test that ran.
	Tests        int `json:"tests"`
	Failed       int `json:"failed"`
	FrozenFailed int `json:"frozen_failed"`
	FrozenRan    int `json:"frozen_ran"`
	// NotRun are freezes no result matched: a frozen test must still run.
	NotRun []Standing `json:"not_run"`
	Exit   int        `json:"exit"`
}

// GateOptions are one premise junit gate.
type GateOptions struct {
	Registry string
	Config   Config
	Reports  []*junit.Report
	Now      time.Time
}

// Gate reads the suite's results against the registry: a failure (or
// flake) of a test frozen and unexpired on o.Now is counted, not gating;
// every other failure gates (exit 1). The error means the registry could
// not be read.
func Gate(o GateOptions) (*GateReport, error) {
	r, err := Load(o.Registry)
	if err != nil {
		return nil, err
	}
	today := day(o.Now)
	rep := &GateReport{Registry: o.Registry, Files: []string{}, Results: []Result{}, NotRun: []Standing{}}
	matched := make([]bool, len(r.Frozen))
	for _, jr := range o.Reports {
		rep.Files = append(rep.Files, jr.File)
		for _, c := range jr.Cases {
			res := Result{ID: c.ID, Outcome: c.Outcome(), Verdict: Pass, Message: c.Message(), File: jr.File}
			if i := match(r.Frozen, c); i >= 0 {
				matched[i] = true
				s := stand(r.Frozen[i], today, o.Config.WarnDays)
				res.Freeze = &s
			}
			holds := res.Freeze != nil && res.Freeze.Status != Expired
			switch {
			case holds:
				res.Verdict = Frozen
				rep.FrozenRan++
				if c.Failing() {
					rep.FrozenFailed++
				}
			case c.Failing():
				res.Verdict = Fail
				rep.Failed++
			}
			rep.Tests++
			rep.Results = append(rep.Results, res)
		}
	}
	for i, e := range r.Frozen {
		if !matched[i] {
			rep.NotRun = append(rep.NotRun, stand(e, today, o.Config.WarnDays))
		}
	}
	if rep.Failed > 0 {
		rep.Exit = 1
	}
	return rep, nil
}

// match returns the index of the entry that freezes c, or -1. An entry
// names a node id or a bare test name; without a [parameter] it also
// freezes every parameter of that test.
func match(entries []Entry, c junit.Case) int {
	id, name := c.ID, c.Name
	for i, e := range entries {
		if e.Test == id || e.Test == name || e.Test == stripParam(id) || e.Test == stripParam(name) {
			return i
		}
	}
	return -1
}

// stripParam drops a pytest parameter id: test_y[1] is test_y.
func stripParam(s string) string {
	start := strings.LastIndex(s, "::") + 1 // the test's own name
	if strings.HasSuffix(s, "]") {
		if i := strings.IndexByte(s[start:], '['); i > 0 {
			return s[:start+i]
		}
	}
	return s
}
