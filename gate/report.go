package gate

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/premise-dev/premise/internal/jsonvalue"
	"github.com/premise-dev/premise/internal/markdown"
)

// Counts tallies a report's rows by what they did.
type Counts struct {
	Pass    int `json:"pass"`
	Fail    int `json:"fail"`
	Error   int `json:"error"`
	Flake   int `json:"flake"`
	Frozen  int `json:"frozen"`
	Changed int `json:"changed"`
	Todo    int `json:"todo"`
}

// Counts tallies the rows: frozen rows are counted as frozen only.
func (rep *Report) Counts() Counts {
	var c Counts
	for _, r := range rep.Rows {
		switch {
		case r.Frozen:
			c.Frozen++
		case r.Status == StatusPass:
			c.Pass++
		case r.Status == StatusFail:
			c.Fail++
		case r.Status == StatusFlake:
			c.Flake++
		case r.Status == StatusTodo:
			c.Todo++
		default:
			c.Error++
		}
		if r.Changed {
			c.Changed++
		}
	}
	return c
}

// Verdict says the exit code in words.
func (rep *Report) Verdict() string {
	if rep.Interrupted {
		return fmt.Sprintf("interrupted: %d rows finished before the signal; nothing is decided", len(rep.Rows))
	}
	if len(rep.Tampered) > 0 {
		return "the code under review changed a file the gate judges by"
	}
	switch rep.Exit {
	case 0:
		return "the gate holds"
	case ExitNothing:
		if n := rep.Counts().Todo; n > 0 {
			return fmt.Sprintf("not every row was checked: %d unfinished (todo), the other rows hold", n)
		}
		return "nothing was checked: the table has no rows (--allow-empty makes this exit 0)"
	case 2:
		return fmt.Sprintf("blocked: %d frozen or flaking rows, over the flake budget of %d", rep.Spent, rep.Budget)
	default:
		return "the gate failed"
	}
}

func rowLabel(r RowResult) string {
	switch {
	case r.Frozen:
		return "FROZEN"
	case r.Status == StatusPass:
		return "PASS"
	default:
		return strings.ToUpper(r.Status)
	}
}

func rowLine(r RowResult) string {
	s := r.Why
	if r.Status == StatusFlake || r.Frozen && len(uniq(r.Seen)) > 1 {
		s = fmt.Sprintf("seen [%s]: %s", strings.Join(r.Seen, ", "), r.Why)
	}
	if r.Frozen {
		s = fmt.Sprintf("%s, did %s (%s); reason: %s", "does not gate", r.Status, s, r.Freeze.Reason)
	}
	return s
}

func uniq(ss []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// WriteText writes the short human summary: one line per failing, flaking,
// frozen or changed row with its id, hash and what happened (issue 5).
func WriteText(w io.Writer, rep *Report) error {
	ew := &errWriter{w: w}
	ew.printf("premise gate: %s, %d rows x %d reruns, seed %d\n", rep.Target, len(rep.Rows), rep.Reruns, rep.Seed)
	writeJudged(ew, rep)
	for _, id := range rep.Changed {
		r := rep.row(id)
		what := "CHANGED"
		if r.SpecChange {
			what = "SPEC CHANGE"
		}
		ew.printf("%-7s %s %s  base %s, head %s\n", what, r.ID, r.Hash, r.BaseWhy, replyKey(r.Attempts[0].Reply))
	}
	for _, r := range rep.Rows {
		if r.Status == StatusPass && !r.Frozen {
			continue
		}
		ew.printf("%-7s %s %s  %s\n", rowLabel(r), r.ID, r.Hash, rowLine(r))
	}
	for _, s := range rep.Stale {
		why := s.Why
		if why == "" {
			why = "the frozen row was edited or removed; the freeze no longer applies"
		}
		ew.printf("STALE   %s %s  %s\n", s.RowID, s.Hash, why)
	}
	for _, f := range rep.Tampered {
		ew.printf("TAMPERED %s changed while the code under review ran; the rows ran as read before it started\n", f)
	}
	if !namespacesAllowed() {
		ew.printf("NOTICE  %s\n", Isolation())
	}
	c := rep.Counts()
	ew.printf("%d passed, %d failed, %d errored, %d flaky, %d frozen", c.Pass, c.Fail, c.Error, c.Flake, c.Frozen)
	if c.Todo > 0 {
		ew.printf(", %d unfinished", c.Todo)
	}
	ew.printf("; flake budget %d/%d spent", rep.Spent, rep.Budget)
	if rep.Base {
		ew.printf("; %d changed from base", c.Changed)
	}
	ew.printf("\n%s (exit %d)\n", rep.Verdict(), rep.Exit)
	return ew.err
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}

// jsonReport is the stable wire form of a Report (--json).
type jsonReport struct {
	Version int       `json:"version"`
	Target  string    `json:"target"`
	Reruns  int       `json:"reruns"`
	Budget  int       `json:"budget"`
	Spent   int       `json:"budget_spent"`
	Seed    int64     `json:"seed"`
	Exit    int       `json:"exit"`
	Verdict string    `json:"verdict"`
	Counts  Counts    `json:"counts"`
	Changed []string  `json:"changed,omitempty"`
	Stale   []Stale   `json:"stale_freezes,omitempty"`
	Rows    []jsonRow `json:"rows"`
	Elapsed float64   `json:"elapsed_seconds"`
	// Commit is the commit judged; Uncommitted the edits it did not judge.
	Commit      string   `json:"commit,omitempty"`
	Uncommitted []string `json:"uncommitted"`
	BaseCommit  string   `json:"base_commit,omitempty"`
}

type jsonRow struct {
	ID         string        `json:"id"`
	Hash       string        `json:"hash"`
	Kind       string        `json:"kind"`
	Cls        string        `json:"cls"`
	Target     string        `json:"target"`
	Status     string        `json:"status"`
	Frozen     bool          `json:"frozen"`
	Broken     bool          `json:"broken,omitempty"`
	Seen       []string      `json:"seen"`
	Why        string        `json:"why,omitempty"`
	Freeze     *Freeze       `json:"freeze,omitempty"`
	BaseSeen   []string      `json:"base_seen,omitempty"`
	Changed    bool          `json:"changed,omitempty"`
	SpecChange bool          `json:"spec_change,omitempty"`
	Attempts   []jsonAttempt `json:"attempts"`
}

type jsonAttempt struct {
	Status  string  `json:"status"`
	Why     string  `json:"why,omitempty"`
	Outcome string  `json:"outcome"`
	Value   any     `json:"value,omitempty"`
	Exc     *Exc    `json:"exc,omitempty"`
	Base    *Reply  `json:"base,omitempty"`
	Seconds float64 `json:"seconds"`
}

// WriteJSON writes the report as JSON (--json).
func WriteJSON(w io.Writer, rep *Report) error {
	out := jsonReport{Version: 1, Target: rep.Target, Reruns: rep.Reruns, Budget: rep.Budget, Spent: rep.Spent,
		Seed: rep.Seed, Exit: rep.Exit, Verdict: rep.Verdict(), Counts: rep.Counts(), Changed: rep.Changed,
		Stale: rep.Stale, Rows: []jsonRow{}, Elapsed: rep.Elapsed.Seconds(),
		Commit: rep.Commit, Uncommitted: rep.Uncommitted, BaseCommit: rep.BaseCommit}
	for _, r := range rep.Rows {
		jr := jsonRow{ID: r.ID, Hash: r.Hash, Kind: r.Kind, Cls: r.Cls, Target: r.Target, Status: r.Status,
			Frozen: r.Frozen, Broken: r.Broken, Seen: r.Seen, Why: r.Why, Freeze: r.Freeze, BaseSeen: r.BaseSeen,
			Changed: r.Changed, SpecChange: r.SpecChange}
		for _, a := range r.Attempts {
			jr.Attempts = append(jr.Attempts, jsonAttempt{Status: a.Status, Why: a.Why, Outcome: a.Reply.Outcome,
				Value: a.Reply.Value, Exc: a.Reply.Exc, Base: a.Base, Seconds: a.Duration.Seconds()})
		}
		out.Rows = append(out.Rows, jr)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(jsonvalue.EmptyLists(out))
}

// JUnit XML, in the shape Jenkins, GitLab and GitHub's reporters read.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Skipped   *junitMessage `xml:"skipped"`
	Failure   *junitMessage `xml:"failure"`
	Error     *junitMessage `xml:"error"`
	SystemOut *junitText    `xml:"system-out"`
}

type junitText struct {
	Text string `xml:",cdata"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Body    string `xml:",chardata"`
}

// WriteJUnit writes JUnit XML: one testcase per row named by the row id;
// frozen rows are skipped with the hash in the message; every attempt is
// kept in the testcase's system-out.
func WriteJUnit(w io.Writer, rep *Report) error {
	s := junitSuite{Name: "premise gate " + rep.Target, Time: secs(rep.Elapsed.Seconds()),
		Properties: []junitProperty{{"seed", fmt.Sprint(rep.Seed)}, {"reruns", fmt.Sprint(rep.Reruns)},
			{"budget", fmt.Sprint(rep.Budget)}, {"budget_spent", fmt.Sprint(rep.Spent)}}}
	for _, r := range rep.Rows {
		var total float64
		var out strings.Builder
		for i, a := range r.Attempts {
			total += a.Duration.Seconds()
			fmt.Fprintf(&out, "attempt %d: %s %s", i+1, a.Status, a.Why)
			if a.Reply.Detail != "" && a.Status != StatusPass {
				fmt.Fprintf(&out, "\n  %s", strings.ReplaceAll(a.Reply.Detail, "\n", "\n  "))
			}
			out.WriteString("\n")
		}
		c := junitCase{Name: r.ID, Classname: r.Target, Time: secs(total), SystemOut: &junitText{xmlSafe(out.String())}}
		msg := xmlSafe(fmt.Sprintf("%s [%s] %s", r.Hash, strings.Join(r.Seen, ", "), r.Why))
		switch {
		case r.Frozen:
			c.Skipped = &junitMessage{Message: fmt.Sprintf("frozen %s: %s (did %s)", r.Hash, r.Freeze.Reason, r.Status)}
			s.Skipped++
		case r.Status == StatusPass:
		case r.Status == StatusFail || r.Status == StatusFlake:
			c.Failure = &junitMessage{Message: oneLine(msg, 500), Type: r.Status, Body: msg}
			s.Failures++
		default:
			c.Error = &junitMessage{Message: oneLine(msg, 500), Type: r.Status, Body: msg}
			s.Errors++
		}
		s.Cases = append(s.Cases, c)
		s.Tests++
	}
	doc := junitSuites{Name: "premise gate", Tests: s.Tests, Failures: s.Failures, Errors: s.Errors,
		Skipped: s.Skipped, Time: s.Time, Suites: []junitSuite{s}}
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

// xmlSafe drops what XML 1.0 cannot hold: a subject's output can carry any
// byte, and CDATA escapes none.
func xmlSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return r
		case r < 0x20, r == 0xFFFE, r == 0xFFFF, r >= 0xD800 && r <= 0xDFFF:
			return '\uFFFD'
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}

func secs(f float64) string { return fmt.Sprintf("%.3f", f) }

// WriteMarkdown writes the report for a pull-request comment.
func WriteMarkdown(w io.Writer, rep *Report) error {
	ew := &errWriter{w: w}
	c := rep.Counts()
	icon := map[int]string{0: "✅", 1: "❌", 2: "⛔"}[rep.Exit]
	ew.printf("### %s premise gate: %s\n\n", icon, rep.Verdict())
	ew.printf("`%s`: %d rows × %d reruns (seed %d). %d passed, %d failed, %d errored, %d flaky, %d frozen; flake budget %d/%d spent.\n\n",
		rep.Target, len(rep.Rows), rep.Reruns, rep.Seed, c.Pass, c.Fail, c.Error, c.Flake, c.Frozen, rep.Spent, rep.Budget)
	var lines []string
	for _, r := range rep.Rows {
		if r.Status == StatusPass && !r.Frozen && !r.Changed {
			continue
		}
		what := rowLine(r)
		if r.Changed {
			what = fmt.Sprintf("changed from base (%s); %s", r.BaseWhy, what)
			if r.SpecChange {
				what = "**invalid input used to raise, now returns**; " + what
			}
		}
		lines = append(lines, fmt.Sprintf("| %s | `%s` | %s | %s | %s |", r.ID, r.Hash, r.Kind, rowLabel(r), markdown.Cell(what)))
	}
	if len(lines) > 0 {
		ew.printf("| row | hash | kind | status | what happened |\n| --- | --- | --- | --- | --- |\n%s\n", strings.Join(lines, "\n"))
	}
	for _, s := range rep.Stale {
		ew.printf("\n- stale freeze `%s` (%s): the row was edited or removed; the freeze no longer applies", s.Hash, s.RowID)
	}
	if len(rep.Stale) > 0 {
		ew.printf("\n")
	}
	return ew.err
}

// writeJudged names the commit the rows ran on, the base it found, and the
// uncommitted edits it did not judge.
func writeJudged(ew *errWriter, rep *Report) {
	for _, l := range JudgedLines(rep.Commit, rep.BaseCommit, rep.Uncommitted) {
		ew.printf("%s\n", l)
	}
}

// JudgedLines are the lines a command that judges HEAD prints first: the
// commit it judged (and the base it found itself), and the tracked files
// whose uncommitted edits it did not judge (issue 25: a reviewer who edited
// the work tree must not read a verdict on HEAD as one on their edits).
func JudgedLines(commit, base string, uncommitted []string) []string {
	var out []string
	if commit != "" {
		l := fmt.Sprintf("judged  commit %.12s (HEAD)", commit)
		if base != "" {
			l += fmt.Sprintf(" against base %.12s (the merge-base with the default branch, as premise run finds it)", base)
		}
		out = append(out, l)
	}
	if n := len(uncommitted); n > 0 {
		shown, more := uncommitted, ""
		if n > 5 {
			shown, more = shown[:5], fmt.Sprintf(" and %d more", n-5)
		}
		out = append(out, fmt.Sprintf("NOTICE  the work tree has uncommitted changes premise did not judge (%s%s): it ran HEAD; commit them to judge them", strings.Join(shown, ", "), more))
	}
	return out
}
