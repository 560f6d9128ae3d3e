package gate

import (
	"context"
	"encoding/json"
	"time"
)

// Call is one request of the runner protocol (DESIGN.md, "The runner
// protocol"): call Target with Args and Kwargs.
type Call struct {
	ID string `json:"id"`
	// Unwatched asks a worker that watches its calls' lines (Watch) with
	// something a subject can see, Python's line tracer, to run this one
	// unwatched: every attempt of a row but the last (issue 26, tells). A
	// subject that answers as the base does only while traced then
	// answers otherwise on a rerun, which premise calls a change of the
	// head's; the last attempt's lines stand for the row's.
	Unwatched bool           `json:"unwatched,omitempty"`
	Target    string         `json:"target"`
	Args      []any          `json:"args"`
	Kwargs    map[string]any `json:"kwargs"`
	// Timeout, when positive and shorter than the adapter's own, is this
	// call's timeout instead: the runner shortens it for the calls of a
	// target that already timed out (a timeout is a finding, not a pace:
	// issue 28). It is not sent to the worker.
	Timeout time.Duration `json:"-"`

	// body, when set, is the encoding of everything after the id
	// (`,"target":...,"args":...,"kwargs":...}`): a row's reruns share
	// it, so their arguments are encoded once (Runner sets it).
	body []byte
}

// Outcomes of a call.
const (
	OutcomeReturned = "returned"
	OutcomeRaised   = "raised"
	OutcomeTimeout  = "timeout" // the call passed its timeout; the worker was killed
	OutcomeCrashed  = "crashed" // the worker died, or broke the protocol, during the call
)

// Reply is one reply of the runner protocol.
type Reply struct {
	ID      string `json:"id"`
	Outcome string `json:"outcome"`
	Value   any    `json:"value,omitempty"`
	Exc     *Exc   `json:"exc,omitempty"`
	Detail  string `json:"detail,omitempty"` // why a call timed out or crashed
	// Lines are the watched lines the call ran, by file (Watch); nil when
	// nothing is watched or the worker cannot say.
	Lines map[string][]int `json:"lines,omitempty"`
	// Refused marks a raise the worker's harness made in place of the
	// call (arguments it could not decode, the wrong arity, a receiver
	// its constructor could not build): set by the harness beside the
	// raise, never read from a class name, which the code under review
	// can give any exception it raises.
	Refused bool `json:"refused,omitempty"`

	// Raw is Value as the worker encoded it, nil when the reply was built
	// in memory. Equal Raw means equal Value: the runner judges a row's
	// identical replies once.
	Raw json.RawMessage `json:"-"`

	// Elapsed is how long premise waited for the reply, set by the adapter;
	// it is not part of the wire format.
	Elapsed time.Duration `json:"-"`
	// Shortened marks a timeout under a limit the runner shortened
	// (Call.Timeout) because an earlier call of the same target timed out:
	// the call might have answered in the full time, so the timeout alone
	// says little (the runner sets it; not part of the wire format).
	Shortened bool `json:"shortened,omitempty"`
}

// Exc describes a raise: the exception class (Python), the error's dynamic
// type or "panic" (Go), its code attribute if any, and its message.
type Exc struct {
	Class   string `json:"class"`
	Code    any    `json:"code"`
	Message string `json:"message"`
	// Module is set where the class is the code's own but bears the name
	// of one of the language's built-in exceptions (class
	// ValueError(Exception)): the module defining it, or "(the code's
	// own)". A raise of it is not a raise of the built-in.
	Module string `json:"module,omitempty"`
	// Is names the standard library's sentinel errors a Go error is
	// (errors.Is): io.EOF is not errors.New("EOF"), though both are an
	// *errors.errorString reading "EOF".
	Is string `json:"is,omitempty"`
}

// Adapter runs calls against the subject in a worker process outside
// premise. There is one implementation per language (Python, Go) and one for
// any command that speaks the protocol (exec).
type Adapter interface {
	// Call runs one call and returns what happened. Call returns an error only
	// when the call could not be attempted at all (the worker cannot be
	// started, the module does not import); a raise, a timeout or a crash of
	// the subject is a Reply.
	Call(ctx context.Context, c Call) (Reply, error)
	// Close stops the worker and its whole process group.
	Close() error
}
