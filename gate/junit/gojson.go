package junit

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// event is one line of go test -json (cmd/test2json).
type event struct {
	Action      string
	Package     string
	ImportPath  string
	Test        string
	Output      string
	FailedBuild string
}

// goRun is a test's attempt still in progress: its output so far.
type goRun struct {
	out strings.Builder
}

func (g *goRun) write(s string) {
	if g.out.Len() > 4*maxMessage {
		// Keep memory bounded on a test that prints without end; the
		// last lines are what clip keeps anyway.
		tail := g.out.String()[g.out.Len()-maxMessage:]
		g.out.Reset()
		g.out.WriteString(tail)
	}
	g.out.WriteString(s)
}

// parseGoJSON reads the event stream of go test -json. Lines that are not
// JSON objects (what go itself printed around the stream) are skipped; a
// JSON line that does not parse is an error, and a last line cut short is
// reported as a truncated file.
func parseGoJSON(name string, r io.Reader) (*Report, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	var cs cases
	running := map[string]*goRun{}
	var order []string // running keys in start order, for unfinished tests
	failedTests := map[string]bool{}
	pkgOut := map[string]*goRun{}
	events, n := 0, 0
	var bad *Error // a line that did not parse: truncation if it is the last
	for sc.Scan() {
		n++
		if bad != nil {
			return nil, bad
		}
		text := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(text, "{") {
			continue
		}
		var e event
		if err := json.Unmarshal([]byte(text), &e); err != nil {
			bad = &Error{File: name, Line: n, Msg: fmt.Sprintf("not a go test -json event: %v", err)}
			continue
		}
		events++
		pkg := e.Package
		if pkg == "" {
			pkg = e.ImportPath
		}
		if e.Test == "" {
			p := pkgOut[pkg]
			if p == nil {
				p = &goRun{}
				pkgOut[pkg] = p
			}
			switch e.Action {
			case "output", "build-output":
				p.write(e.Output)
			case "fail":
				if !failedTests[pkg] {
					// The package failed with no failing test: a build
					// failure, a panic in TestMain or init, a timeout.
					// gotestsum names this case TestMain too.
					msg := clip(p.out.String())
					if e.FailedBuild != "" {
						msg = "build failed: " + e.FailedBuild
					}
					cs.add(pkg+"::TestMain", "TestMain", Attempt{Outcome: Errored, Message: msg})
				}
			}
			continue
		}
		key := pkg + "::" + e.Test
		switch e.Action {
		case "run":
			running[key] = &goRun{}
			order = append(order, key)
		case "output":
			if g := running[key]; g != nil {
				g.write(e.Output)
			}
		case "pass", "fail", "skip":
			g := running[key]
			if g == nil {
				g = &goRun{}
			}
			delete(running, key)
			a := Attempt{Outcome: map[string]Outcome{"pass": Passed, "fail": Failed, "skip": Skipped}[e.Action]}
			if a.Outcome != Passed {
				a.Message = clip(g.out.String())
			}
			if a.Outcome == Failed {
				failedTests[pkg] = true
			}
			cs.add(key, e.Test, a)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, errTooLarge) {
			return nil, err
		}
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &Error{File: name, Line: n + 1, Msg: "a line longer than 16 MiB: not a go test -json stream"}
		}
		return nil, &Error{File: name, Msg: fmt.Sprintf("cannot read it: %v", err)}
	}
	if bad != nil {
		return nil, &Error{File: name, Line: bad.Line, Msg: "truncated: the last go test -json event is cut short; did the test run finish writing it?"}
	}
	if events == 0 {
		return nil, &Error{File: name, Msg: "neither JUnit XML (no '<' first) nor go test -json (no JSON event on any line)"}
	}
	// A test that started and never ended: the binary died, timed out or
	// the stream was cut. It did not pass.
	for _, key := range order {
		if g := running[key]; g != nil {
			delete(running, key)
			test := key[strings.Index(key, "::")+2:]
			msg := clip(g.out.String())
			if msg == "" {
				msg = "did not finish: the test binary died or the stream was cut short"
			}
			cs.add(key, test, Attempt{Outcome: Errored, Message: msg})
		}
	}
	return &Report{Format: "go-test-json", Cases: nonNil(cs.list)}, nil
}
