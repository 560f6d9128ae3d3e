package holdout

import (
	"sort"
	"strings"

	"github.com/premise-dev/premise/gate/junit"
	"github.com/premise-dev/premise/gate/ledger"
)

// Bucket is one of seed 002's four kinds of holdout failure.
type Bucket string

// The buckets, each with the seed's action (Actions).
const (
	Contamination  Bucket = "contamination"
	RealRegression Bucket = "real_regression"
	SpecDrift      Bucket = "spec_drift"
	Flake          Bucket = "flake"
)

// Actions are seed 002's table: what to do with a failure of each bucket.
var Actions = map[Bucket]string{
	Contamination:  "reject the patch; restore the public test",
	RealRegression: "reject; file the row that shrunk the failure",
	SpecDrift:      "update the holdout in a human review, never in the agent loop",
	Flake:          "do not skip; record it (premise ledger record)",
}

// Failure is one relation that failed, sorted into its bucket. It names
// the relation (the test without its row's parameter) and how many rows
// of it failed; it never holds a row or a failure message.
type Failure struct {
	Relation string `json:"relation"`
	Rows     int    `json:"rows"`
	Bucket   Bucket `json:"bucket"`
	Action   string `json:"action"`
	Signal   string `json:"signal"`
}

// ClassifyReport is one premise holdout classify.
type ClassifyReport struct {
	Failures []Failure `json:"failures"`
	// Counts are the failures per bucket, every bucket present.
	Counts map[Bucket]int `json:"counts"`
	// PublicFailing counts the public tests that failed: a typo the
	// cheap suite already caught.
	PublicFailing int `json:"public_failing"`
	// PropertiesFailing are the property relations that failed.
	PropertiesFailing []string `json:"properties_failing"`
	Exit              int      `json:"exit"`
}

// ClassifyOptions are one premise holdout classify.
type ClassifyOptions struct {
	Config Config
	// Public is the public suite's results; Holdout the blind job's (the
	// holdout and the properties, as pytest -m "holdout or property"
	// writes them).
	Public, Holdout *junit.Report
	// Ledger is the flake ledger, nil when there is none.
	Ledger *ledger.Ledger
	// Rewritten are the public tests the patch rewrote (Check), nil when
	// unknown.
	Rewritten []Change
}

// Relation is the test a case belongs to, without the row: pytest's
// parameter id, a Go subtest's name, are the row.
func Relation(id string) string {
	start := strings.LastIndex(id, "::") + 2
	if start < 2 {
		start = 0
	}
	if i := strings.IndexByte(id[start:], '['); i > 0 && strings.HasSuffix(id, "]") {
		return id[:start+i]
	}
	if i := strings.IndexByte(id[start:], '/'); i > 0 {
		return id[:start+i]
	}
	return id
}

// Classify sorts every failing holdout relation into a bucket, in the
// order the signals are trusted: a flake (its attempts disagreed, or the
// ledger holds it frozen or watched) before contamination (the patch
// rewrote a public test) before a real regression (a property fails too)
// before spec drift (only the holdout disagrees with the patch). Exit is
// 1 when a holdout relation or a property failed.
func Classify(o ClassifyOptions) *ClassifyReport {
	rep := &ClassifyReport{Failures: []Failure{}, Counts: map[Bucket]int{Contamination: 0, RealRegression: 0, SpecDrift: 0, Flake: 0}, PropertiesFailing: []string{}}
	if o.Public != nil {
		for _, c := range o.Public.Cases {
			if c.Failing() {
				rep.PublicFailing++
			}
		}
	}
	type group struct {
		rows  int
		flaky bool
	}
	groups := map[string]*group{}
	props := map[string]bool{}
	for _, c := range o.Holdout.Cases {
		if !c.Failing() {
			continue
		}
		rel := Relation(c.ID)
		if under(c.ID, o.Config.Properties) {
			props[rel] = true
			continue
		}
		g := groups[rel]
		if g == nil {
			g = &group{}
			groups[rel] = g
		}
		g.rows++
		if c.Outcome() == junit.Flaky {
			g.flaky = true
		}
		if o.Ledger != nil {
			if r := o.Ledger.Tests[c.ID]; r != nil && (r.State == ledger.Frozen || r.State == ledger.Watch) {
				g.flaky = true
			}
		}
	}
	for p := range props {
		rep.PropertiesFailing = append(rep.PropertiesFailing, p)
	}
	sort.Strings(rep.PropertiesFailing)
	var rels []string
	for r := range groups {
		rels = append(rels, r)
	}
	sort.Strings(rels)
	for _, rel := range rels {
		g := groups[rel]
		f := Failure{Relation: rel, Rows: g.rows}
		switch {
		case g.flaky:
			f.Bucket, f.Signal = Flake, "same seed, same diff, pass and fail across reruns"
		case len(o.Rewritten) > 0:
			f.Bucket, f.Signal = Contamination, "the patch rewrote public tests ("+paths(o.Rewritten)+") and the holdout still fails"
		case len(props) > 0:
			f.Bucket, f.Signal = RealRegression, "the holdout and the properties fail ("+strings.Join(rep.PropertiesFailing, ", ")+")"
		default:
			f.Bucket, f.Signal = SpecDrift, "only the holdout fails: it may expect the old policy; a documented change updates it, an undocumented one is a regression the properties missed"
		}
		f.Action = Actions[f.Bucket]
		rep.Counts[f.Bucket]++
		rep.Failures = append(rep.Failures, f)
	}
	if len(rep.Failures) > 0 || len(rep.PropertiesFailing) > 0 {
		rep.Exit = 1
	}
	return rep
}

func paths(cs []Change) string {
	var ps []string
	for _, c := range cs {
		ps = append(ps, c.Path)
	}
	return strings.Join(ps, ", ")
}
