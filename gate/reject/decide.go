package reject

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/premise-dev/premise/gate"
)

// Reasons name why an entry held or broke. The first six are the rows of
// seed 000's decision table; the rest are the fail-closed cases of issue 6.
const (
	ReasonHeld             = "held"
	ReasonForbiddenSuccess = "forbidden success"
	ReasonClassMismatch    = "class mismatch"
	ReasonCodeMismatch     = "code mismatch"
	ReasonStatusMismatch   = "status mismatch"
	ReasonHashDrift        = "fixture hash drift"

	ReasonBeforeValidation = "rejected before validation" // 401/403/404 where the entry names another status
	ReasonNoReject         = "no reject"                  // timeout, crash or unreachable endpoint: no answer at all
	ReasonCouldNotCall     = "could not call"             // the adapter could not attempt the call
	ReasonBadHash          = "bad hash"                   // empty or not a sha256
	ReasonOutsideCorpus    = "outside corpus"             // input_path leaves the corpus directory
	ReasonMissingFixture   = "missing fixture"            // the entry's fixture is not on disk
	ReasonUntrustedFixture = "untrusted fixture"          // not valid JSON, a repeated key, wrong shape
	ReasonNoEntry          = "no lockfile entry"          // a fixture on disk that no entry locks
	ReasonExcused          = "excused"                    // no answer, excused as environmental until a date
)

// observation is what one attempt saw, for either kind of entry.
type observation struct {
	Outcome string // a gate.Outcome*, or "responded" for an HTTP answer, or "unreachable"
	Class   string
	Code    any
	Status  int
	Value   any
	Detail  string
}

const (
	outcomeResponded   = "responded"
	outcomeUnreachable = "unreachable"
)

// check is one row of the decision table as a value: Run returns a detail
// and true when the row applies. Checks run in order; the first that
// applies decides the attempt, and an attempt no check claims held.
type check struct {
	Name string
	Doc  string
	// Retry says an attempt this check claims may be retried under
	// freeze-class-only: it observed no answer, not a wrong one.
	Retry bool
	Run   func(m Must, o observation) (string, bool)
}

// checks is seed 000's decision table, in the order the seed's runner
// applies it, with issue 6's "rejected for the wrong reason" rows.
var checks = []check{
	{
		Name:  ReasonNoReject,
		Doc:   "the call timed out or crashed, or the endpoint did not answer: no reject was observed",
		Retry: true,
		Run: func(m Must, o observation) (string, bool) {
			switch o.Outcome {
			case gate.OutcomeTimeout, gate.OutcomeCrashed, outcomeUnreachable:
				return fmt.Sprintf("%s: %s", o.Outcome, o.Detail), true
			}
			return "", false
		},
	},
	{
		Name: ReasonForbiddenSuccess,
		Doc:  "the forbidden input now returns a value: the patch is rejected",
		Run: func(m Must, o observation) (string, bool) {
			switch {
			case o.Outcome == gate.OutcomeReturned:
				return "call returned " + short(o.Value), true
			case o.Outcome == gate.OutcomeUnencodable:
				// A value JSON cannot carry (an object, a NaN) is still a
				// value: the forbidden input succeeded.
				return "call returned a value JSON cannot carry (" + o.Detail + ")", true
			case o.Outcome == outcomeResponded && o.Status < 400:
				return fmt.Sprintf("status %d", o.Status), true
			}
			return "", false
		},
	},
	{
		Name: ReasonBeforeValidation,
		Doc:  "the endpoint refused the request for authentication, authorisation or routing before it validated the input: the entry proves nothing",
		Run: func(m Must, o observation) (string, bool) {
			if o.Outcome == outcomeResponded && o.Status != m.Status && (o.Status == 401 || o.Status == 403 || o.Status == 404) {
				return fmt.Sprintf("status %d before validation, want %d", o.Status, m.Status), true
			}
			return "", false
		},
	},
	{
		Name: ReasonClassMismatch,
		Doc:  "the exception class changed; a subclass does not match a class named exactly",
		Run: func(m Must, o observation) (string, bool) {
			if o.Outcome == gate.OutcomeRaised && !classMatches(m.Class, o.Class) {
				return fmt.Sprintf("%s != %s", o.Class, m.Class), true
			}
			return "", false
		},
	},
	{
		Name: ReasonStatusMismatch,
		Doc:  "the endpoint rejects with another status",
		Run: func(m Must, o observation) (string, bool) {
			if o.Outcome == outcomeResponded && o.Status != m.Status {
				return fmt.Sprintf("%d != %d", o.Status, m.Status), true
			}
			return "", false
		},
	},
	{
		Name: ReasonCodeMismatch,
		Doc:  "the error code changed while the class or status held: the patch is rejected unless a human edits the lockfile",
		Run: func(m Must, o observation) (string, bool) {
			if m.Code != nil && !codeEqual(m.Code, o.Code) {
				return fmt.Sprintf("%s != %s", short(o.Code), short(m.Code)), true
			}
			return "", false
		},
	},
}

// decide applies the decision table to one attempt.
func decide(m Must, o observation) (reason, detail string, retry bool) {
	for _, c := range checks {
		if d, ok := c.Run(m, o); ok {
			return c.Name, c.Name + ": " + d, c.Retry
		}
	}
	if o.Outcome == outcomeResponded {
		d := fmt.Sprintf("held: status %d", o.Status)
		if m.Code != nil {
			d += " code " + short(o.Code)
		}
		return ReasonHeld, d, false
	}
	d := "held: raised " + o.Class
	if m.Code != nil {
		d += " code " + short(o.Code)
	}
	return ReasonHeld, d, false
}

// classMatches compares exception classes exactly, by name: seed 000's
// runner checks type(exc).__name__, so a subclass of the named class is a
// mismatch. A name without a dot also matches a qualified class with that
// final name ("billing.errors.ValidationError", Go's "*billing.ValidationError").
func classMatches(want, got string) bool {
	if want == got {
		return true
	}
	if strings.ContainsAny(want, ".*") {
		return false
	}
	got = strings.TrimPrefix(got, "*")
	if i := strings.LastIndexByte(got, '.'); i >= 0 {
		got = got[i+1:]
	}
	return want == got
}

// codeEqual compares a lockfile code with an observed one: strings equal as
// strings, numbers by value; a string never equals a number.
func codeEqual(want, got any) bool {
	ws, wIsStr := want.(string)
	gs, gIsStr := got.(string)
	if wIsStr || gIsStr {
		return wIsStr && gIsStr && ws == gs
	}
	wf, wok := number(want)
	gf, gok := number(got)
	return wok && gok && wf == gf
}

func number(v any) (float64, bool) {
	switch v := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		return f, err == nil
	case float64:
		return v, true
	case int:
		return float64(v), true
	case int64:
		return float64(v), true
	}
	return 0, false
}

// short renders a value as JSON, cut to keep a report line readable.
func short(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	const max = 80
	if len(b) > max {
		return string(b[:max]) + "..."
	}
	return string(b)
}
