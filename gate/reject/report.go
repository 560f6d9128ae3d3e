package reject

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// WriteText writes seed 000's report: one "HOLD id detail" or
// "BROKEN id detail" line per entry, then "held=N broken=M".
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, res := range r.Results {
		mark := "BROKEN"
		if res.Held {
			mark = "HOLD"
		}
		fmt.Fprintf(&b, "%s %s %s\n", mark, res.ID, oneLine(res.Detail))
	}
	fmt.Fprintf(&b, "held=%d broken=%d\n", r.Held, r.Broken)
	_, err := io.WriteString(w, b.String())
	return err
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// jsonReport is the wire form of a Report; it changes only by adding fields.
type jsonReport struct {
	Held    int          `json:"held"`
	Broken  int          `json:"broken"`
	Holds   bool         `json:"holds"`
	Entries []jsonResult `json:"entries"`
}

type jsonResult struct {
	ID       string        `json:"id"`
	Status   string        `json:"status"` // HOLD or BROKEN
	Reason   string        `json:"reason"`
	Detail   string        `json:"detail"`
	Policy   string        `json:"flake_policy,omitempty"`
	Path     string        `json:"input_path,omitempty"`
	Attempts []jsonAttempt `json:"attempts"`
}

type jsonAttempt struct {
	Reason  string `json:"reason"`
	Detail  string `json:"detail"`
	Outcome string `json:"outcome,omitempty"`
	Class   string `json:"class,omitempty"`
	Code    any    `json:"code,omitempty"`
	Status  int    `json:"status,omitempty"`
}

// WriteJSON writes the report as one JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	out := jsonReport{Held: r.Held, Broken: r.Broken, Holds: r.Holds(), Entries: []jsonResult{}}
	for _, res := range r.Results {
		jr := jsonResult{ID: res.ID, Status: "BROKEN", Reason: res.Reason, Detail: res.Detail,
			Policy: res.Policy, Path: res.Path, Attempts: []jsonAttempt{}}
		if res.Held {
			jr.Status = "HOLD"
		}
		for _, a := range res.Attempts {
			ja := jsonAttempt{Reason: a.Reason, Detail: a.Detail, Status: a.Status}
			if a.Reply != nil {
				ja.Outcome = a.Reply.Outcome
				if a.Reply.Exc != nil {
					ja.Class, ja.Code = a.Reply.Exc.Class, a.Reply.Exc.Code
				}
			}
			jr.Attempts = append(jr.Attempts, ja)
		}
		out.Entries = append(out.Entries, jr)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// JUnit XML, the shape Jenkins, GitLab and GitHub test reporters read.
type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Tests   int          `xml:"tests,attr"`
	Fails   int          `xml:"failures,attr"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name  string      `xml:"name,attr"`
	Tests int         `xml:"tests,attr"`
	Fails int         `xml:"failures,attr"`
	Cases []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",chardata"`
}

// WriteJUnit writes the report as JUnit XML: one testcase per entry, a
// failure for each BROKEN one, and every attempt in system-out.
func (r *Report) WriteJUnit(w io.Writer) error {
	s := junitSuite{Name: "must-reject", Tests: len(r.Results), Fails: r.Broken}
	for _, res := range r.Results {
		c := junitCase{Name: res.ID, Classname: "must_reject"}
		var attempts strings.Builder
		for i, a := range res.Attempts {
			fmt.Fprintf(&attempts, "attempt %d: %s\n", i+1, oneLine(a.Detail))
		}
		c.SystemOut = attempts.String()
		if !res.Held {
			c.Failure = &junitFailure{Message: oneLine(res.Detail), Type: res.Reason, Body: oneLine(res.Detail)}
		}
		s.Cases = append(s.Cases, c)
	}
	doc := junitSuites{Tests: s.Tests, Fails: s.Fails, Suites: []junitSuite{s}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
