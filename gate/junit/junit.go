package junit

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// Outcome is what a test did, on one attempt or over all of them.
type Outcome string

// The outcomes. Flaky is never an attempt's: it is a case whose attempts
// passed and failed (seed 004: attempts that disagree are a flake).
const (
	Passed  Outcome = "passed"
	Failed  Outcome = "failed"
	Errored Outcome = "error"
	Skipped Outcome = "skipped"
	Flaky   Outcome = "flaky"
)

// Attempt is one run of a test as the file records it.
type Attempt struct {
	Outcome Outcome `json:"outcome"`
	// Message is the runner's one-line account of a failure, error or
	// skip (the message attribute, or the last lines of go test output).
	Message string `json:"message,omitempty"`
}

// Case is one test, with every attempt the file records for it.
type Case struct {
	// ID is the node id the registry and the ledger key on.
	ID string `json:"id"`
	// Name is the test's own name (the testcase's name attribute, or the
	// Go test name), which a freeze may also name.
	Name     string    `json:"name"`
	Attempts []Attempt `json:"attempts"`
}

// Outcome sums up the attempts: Flaky when some passed and some failed or
// errored; Failed when none passed and one failed; Errored when every
// failing attempt was an error; Skipped when every attempt was skipped.
func (c Case) Outcome() Outcome {
	var pass, fail, errs int
	for _, a := range c.Attempts {
		switch a.Outcome {
		case Passed:
			pass++
		case Failed:
			fail++
		case Errored:
			errs++
		}
	}
	switch {
	case fail+errs == 0 && pass == 0 && len(c.Attempts) > 0:
		return Skipped
	case fail+errs == 0:
		return Passed
	case pass > 0:
		return Flaky
	case fail > 0:
		return Failed
	default:
		return Errored
	}
}

// Failing reports whether the case failed, errored or flaked.
func (c Case) Failing() bool {
	o := c.Outcome()
	return o == Failed || o == Errored || o == Flaky
}

// Message is the first failing attempt's message, or "".
func (c Case) Message() string {
	for _, a := range c.Attempts {
		if a.Outcome == Failed || a.Outcome == Errored {
			return a.Message
		}
	}
	return ""
}

// Report is one results file.
type Report struct {
	File string `json:"file"`
	// Format is "junit" or "go-test-json".
	Format string `json:"format"`
	Cases  []Case `json:"cases"`
}

// Counts counts the cases by outcome.
func (r *Report) Counts() map[Outcome]int {
	n := map[Outcome]int{}
	for _, c := range r.Cases {
		n[c.Outcome()]++
	}
	return n
}

// DefaultMaxBytes is the largest results file Parse reads. A suite's
// JUnit file is kilobytes to a few megabytes; beyond this it is almost
// certainly captured output gone wrong, and reading it would take the
// machine's memory.
const DefaultMaxBytes = 256 << 20

// maxMessage caps the text kept per attempt.
const maxMessage = 4 << 10

// Options tune Parse. The zero value is the defaults.
type Options struct {
	// MaxBytes is the size limit (DefaultMaxBytes when 0).
	MaxBytes int64
	// Root is the directory pytest ran in, used to tell a test module
	// from a test class in a dotted classname (tests.test_x.TestK); when
	// empty, the first segment named Test... starts the classes, as
	// pytest's default python_classes does.
	Root string
}

// Error is a results file premise could not read, always naming the file.
type Error struct {
	File string
	Line int // 0 when no line applies
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// errTooLarge is what the size-limited reader returns past the limit.
var errTooLarge = errors.New("too large")

type limited struct {
	r    io.Reader
	left int64
}

func (l *limited) Read(p []byte) (int, error) {
	if l.left <= 0 {
		// One byte more than the limit tells a file of exactly the
		// limit from a longer one.
		var one [1]byte
		if n, _ := l.r.Read(one[:]); n > 0 {
			return 0, errTooLarge
		}
		return 0, io.EOF
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// ParseFile reads the results file at path.
func ParseFile(path string, o Options) (*Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &Error{File: path, Msg: fmt.Sprintf("cannot read it: %v", unwrapPath(err))}
	}
	defer f.Close()
	return Parse(path, f, o)
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Parse reads one results file from r: JUnit XML (first byte '<') or a go
// test -json stream. name is the file's name, for errors and the report.
// Its error is an *Error naming the file and, where there is one, the line.
func Parse(name string, r io.Reader, o Options) (*Report, error) {
	max := o.MaxBytes
	if max <= 0 {
		max = DefaultMaxBytes
	}
	br := bufio.NewReaderSize(&limited{r: r, left: max}, 64<<10)
	first, err := firstByte(br)
	if err != nil {
		if errors.Is(err, errTooLarge) {
			return nil, tooLarge(name, max)
		}
		if err == io.EOF {
			return nil, &Error{File: name, Msg: "empty: no JUnit XML and no go test -json events"}
		}
		return nil, &Error{File: name, Msg: fmt.Sprintf("cannot read it: %v", err)}
	}
	var rep *Report
	if first == '<' {
		rep, err = parseXML(name, br, o)
	} else {
		rep, err = parseGoJSON(name, br)
	}
	if errors.Is(err, errTooLarge) {
		return nil, tooLarge(name, max)
	}
	if err != nil {
		return nil, err
	}
	rep.File = name
	return rep, nil
}

func tooLarge(name string, max int64) error {
	return &Error{File: name, Msg: fmt.Sprintf("larger than %d MiB: not read; is it a results file, and not captured output?", max>>20)}
}

// firstByte returns the first byte that is not white space or a UTF-8
// byte order mark, leaving it unread.
func firstByte(br *bufio.Reader) (byte, error) {
	if b, err := br.Peek(3); err == nil && bytes.Equal(b, []byte("\xef\xbb\xbf")) {
		br.Discard(3)
	}
	for {
		b, err := br.ReadByte()
		if err != nil {
			return 0, err
		}
		switch b {
		case ' ', '\t', '\r', '\n':
			continue
		}
		br.UnreadByte()
		return b, nil
	}
}

// cases collects cases in the order first seen, merging repeated ids
// into one case's attempts (a runner's reruns).
type cases struct {
	list  []Case
	index map[string]int
}

func (cs *cases) add(id, name string, attempts ...Attempt) {
	if cs.index == nil {
		cs.index = map[string]int{}
	}
	if i, ok := cs.index[id]; ok {
		cs.list[i].Attempts = append(cs.list[i].Attempts, attempts...)
		return
	}
	cs.index[id] = len(cs.list)
	cs.list = append(cs.list, Case{ID: id, Name: name, Attempts: append([]Attempt{}, attempts...)})
}

// clip keeps the end of s, where a failure's message usually is, within
// maxMessage bytes.
func clip(s string) string {
	s = string(bytes.TrimSpace([]byte(s)))
	if len(s) <= maxMessage {
		return s
	}
	s = s[len(s)-maxMessage:]
	for i := 0; i < 4 && i < len(s); i++ { // do not start inside a UTF-8 sequence
		if s[i]&0xC0 != 0x80 {
			return "…" + s[i:]
		}
	}
	return "…" + s
}
