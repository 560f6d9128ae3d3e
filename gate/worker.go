package gate

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/premise-dev/premise/validate"
)

// Defaults shared by every adapter.
const (
	DefaultTimeout     = 10 * time.Second
	DefaultGrace       = 300 * time.Millisecond
	DefaultMaxFrame    = 16 << 20         // bytes in one protocol line
	DefaultMemoryLimit = 2 << 30          // bytes of address space for a worker
	DefaultStart       = 60 * time.Second // a worker's start, before its first call
	tailBytes          = 4096             // how much of the worker's own output a crash report keeps
)

// InfraError is returned by Adapter.Call when a call could not be attempted
// at all: the worker cannot start, or the target does not import. The runner
// reports many of these with one cause as a single input error (exit 3).
type InfraError struct {
	Target string
	Reason string
}

func (e *InfraError) Error() string {
	if e.Target == "" {
		return e.Reason
	}
	return fmt.Sprintf("%s: %s", e.Target, e.Reason)
}

// OutcomeUnencodable is a reply whose value JSON cannot carry (a NaN, an
// object, a reply over the frame limit). The row errors: nothing can judge it.
const OutcomeUnencodable = "unencodable"

// procSpec says how to start one worker process.
type procSpec struct {
	path     string   // absolute path of the program, resolved once
	args     []string // argv[1:]
	dir      string
	env      []string
	stdio    bool // protocol on stdin/stdout (exec adapter) instead of fds 3 and 4
	progress bool // the worker keeps a progress page on the fd after the protocol's (the Python harness)
	pageArg  int  // with progress, the index in args of the page's fd, which is -1 for a worker without one
	fdBase   int  // the protocol's first fd (requests; replies, then the page, follow); 3 when zero
	// check, when set, is premise's word on a call before any worker sees
	// it (the Python argument grammar, pyexpr.go): a call it refuses is not
	// sent, and its reply is unencodable, with the reason.
	check    func(Call) error
	floats   bool          // the worker tells 1.0 from 1: whole-number floats are sent with a point (floats.go)
	traces   bool          // the worker watches lines with something a subject sees, and runs a call marked Unwatched without it
	ready    bool          // the worker sends {"ready": true} once started
	start    time.Duration // how long a worker may take to become ready
	maxFrame int
	grace    time.Duration
	timeout  time.Duration
	memory   int64 // an address-space limit premise sets itself (exec workers); 0 none
	// roots are the forms of the tree's root a reply's value has replaced
	// by TreeMark (treepath.go); none for a worker of the user's own.
	roots [][]byte
}

// proc is one running worker: its own session and process group, dying with
// premise (Pdeathsig), its stdout and stderr drained into a bounded tail.
type proc struct {
	spec   procSpec
	cmd    *exec.Cmd
	req    *os.File // premise writes requests here
	rep    *os.File // premise reads replies here
	out    *os.File // read end of the worker's stdout and stderr
	br     *bufio.Reader
	exited chan struct{}
	once   sync.Once
	tail   *tailBuffer
	// drained is closed when the worker's output has been read to its
	// end: its last words are in tail.
	drained chan struct{}

	isolated bool // started in its own PID namespace (sandbox)

	partial []byte // a frame read in part
	sent    int64  // requests written, numbered from 1 as the worker counts them
	page    []byte // the worker's progress page, nil when it keeps none

	// The last reply's value, raw and decoded: a row's reruns mostly
	// answer the same, and share one decoded value (runner_memo.go).
	lastRaw []byte
	lastVal any
}

func startProc(spec procSpec) (*proc, error) {
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start worker: %w", err)
	}
	repR, repW, err := os.Pipe()
	if err != nil {
		closeAll(reqR, reqW)
		return nil, fmt.Errorf("start worker: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(reqR, reqW, repR, repW)
		return nil, fmt.Errorf("start worker: %w", err)
	}
	home, err := os.MkdirTemp("", "") // no name of premise's: a subject reads its HOME and TMPDIR
	if err != nil {
		closeAll(reqR, reqW, repR, repW, outR, outW)
		return nil, fmt.Errorf("start worker: %w", err)
	}
	cmd := exec.Command(spec.path, spec.args...)
	cmd.Dir = spec.dir
	// Setsid: a new session and process group, no controlling terminal, so
	// killing the group reaches every child the subject forks. Pdeathsig: the
	// worker dies with premise. sandbox: the allow-listed environment, a
	// private HOME, and no network where the kernel allows.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	if spec.stdio {
		cmd.Stdin, cmd.Stdout, cmd.Stderr = reqR, repW, outW
	} else {
		devnull, err := os.Open(os.DevNull)
		if err != nil {
			closeAll(reqR, reqW, repR, repW, outR, outW)
			return nil, fmt.Errorf("start worker: %w", err)
		}
		defer devnull.Close()
		cmd.Stdin, cmd.Stdout, cmd.Stderr = devnull, outW, outW
		// fds 3 and 4, or fdBase and the one after: nil entries are closed
		// in the worker.
		pad := 0
		if spec.fdBase > 3 {
			pad = spec.fdBase - 3
		}
		cmd.ExtraFiles = append(make([]*os.File, pad), reqR, repW)
	}
	var page []byte
	if spec.progress {
		// The worker's argument pageArg names its page's fd, the one after
		// the replies', or -1 for a worker without one (it then sends every
		// reply at once).
		if f, mem, err := newPage(); err == nil {
			defer f.Close() // the mapping outlives it
			page = mem
			cmd.ExtraFiles = append(cmd.ExtraFiles, f) // after the replies' fd
		} else {
			cmd.Args = slices.Clone(cmd.Args)
			cmd.Args[1+spec.pageArg] = "-1"
		}
	}
	err = sandbox(cmd, spec.env, home, spec.memory)
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		os.RemoveAll(home)
		closeAll(reqR, reqW, repR, repW, outR, outW)
		if page != nil {
			_ = unix.Munmap(page)
		}
		return nil, &InfraError{Reason: fmt.Sprintf("start worker %s: %v", spec.path, err)}
	}
	limitProcs(cmd.Process.Pid, spec.memory)
	closeAll(reqR, repW, outW)
	p := &proc{isolated: cmd.SysProcAttr.Cloneflags&syscall.CLONE_NEWPID != 0, spec: spec, cmd: cmd, req: reqW, rep: repR, out: outR, br: bufio.NewReaderSize(repR, 64<<10), page: page,
		exited: make(chan struct{}), drained: make(chan struct{}), tail: &tailBuffer{max: tailBytes}}
	go func() {
		_, _ = io.Copy(p.tail, outR)
		close(p.drained)
	}()
	go func() {
		_ = cmd.Wait()
		os.RemoveAll(home)
		close(p.exited)
		p.interrupt() // a reader waiting for a reply learns of the exit now
	}()
	if spec.ready {
		if err := p.awaitReady(); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// awaitReady waits for the worker's handshake, so that the interpreter's
// start on a loaded machine is not charged to the first call's timeout.
func (p *proc) awaitReady() error {
	fail := func(why string) error {
		p.kill()
		p.lastWords()
		if t := p.tail.String(); t != "" {
			why += "; worker output ends: " + t
		}
		return &InfraError{Reason: fmt.Sprintf("worker %s did not start: %s", p.spec.path, why)}
	}
	line, err := p.next(context.Background(), time.Now().Add(p.spec.start))
	switch {
	case errors.Is(err, errExited):
		return fail("it exited: " + p.exitStatus())
	case errors.Is(err, os.ErrDeadlineExceeded):
		return fail(fmt.Sprintf("no handshake within %s", p.spec.start))
	case err != nil:
		return fail(err.Error())
	}
	var h struct {
		Ready bool `json:"ready"`
	}
	if json.Unmarshal(line, &h) != nil || !h.Ready {
		return fail(fmt.Sprintf("it sent %q, not the handshake", oneLine(string(line), 200)))
	}
	return nil
}

func closeAll(fs ...*os.File) {
	for _, f := range fs {
		f.Close()
	}
}

// errExited is next's error for a worker that exited without a reply.
var errExited = errors.New("the worker exited")

// exitDrain is how long a reply written just before the worker's exit
// still has to arrive.
const exitDrain = 20 * time.Millisecond

// next reads the next reply frame, a newline-terminated line of at most
// maxFrame bytes, waiting until deadline (os.ErrDeadlineExceeded), the
// worker's exit (errExited) or ctx, which must interrupt the read when it
// is done (context.AfterFunc with p.interrupt, once per caller). The line
// is valid until the next call.
//
// The caller reads the pipe itself, with a deadline, instead of a reader
// goroutine handing each frame over a channel: at thousands of replies a
// second the hand-over, not the reading, was premise's cost.
func (p *proc) next(ctx context.Context, deadline time.Time) ([]byte, error) {
	if err := p.rep.SetReadDeadline(deadline); err != nil {
		return nil, err
	}
	exited := false
	select {
	case <-p.exited:
		// The exit's interrupt may predate this deadline: a reply the
		// worker wrote before it died still gets its moment.
		exited = true
		_ = p.rep.SetReadDeadline(time.Now().Add(exitDrain))
	default:
	}
	// A ctx done before the deadline above was set interrupted nothing.
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for {
		chunk, err := p.br.ReadSlice('\n')
		if err == nil && p.partial == nil {
			if len(chunk) > p.spec.maxFrame {
				return nil, fmt.Errorf("a reply frame over %d bytes", p.spec.maxFrame)
			}
			return chunk, nil
		}
		p.partial = append(p.partial, chunk...)
		if len(p.partial) > p.spec.maxFrame {
			return nil, fmt.Errorf("a reply frame over %d bytes", p.spec.maxFrame)
		}
		switch {
		case err == nil:
			line := p.partial
			p.partial = nil
			return line, nil
		case err == bufio.ErrBufferFull:
			continue
		case errors.Is(err, os.ErrDeadlineExceeded):
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			select {
			case <-p.exited:
				if !exited {
					exited = true
					_ = p.rep.SetReadDeadline(time.Now().Add(exitDrain))
					continue
				}
				return nil, errExited
			default:
			}
			return nil, err
		case err == io.EOF:
			// The worker closed its end: it is exiting, or broke the
			// protocol while alive.
			select {
			case <-p.exited:
				return nil, errExited
			case <-time.After(exitDrain):
				return nil, err
			}
		default:
			return nil, err
		}
	}
}

// interrupt wakes a reader blocked in next.
func (p *proc) interrupt() { _ = p.rep.SetReadDeadline(time.Unix(1, 0)) }

// call sends one request and waits for its reply, the worker's death, the
// timeout or ctx. ok is false when the worker must not be used again.
func (p *proc) call(ctx context.Context, c Call) (r Reply, ok bool, err error) {
	defer context.AfterFunc(ctx, p.interrupt)()
	if p.spec.floats {
		c = c.floatsKept()
	}
	c.Unwatched = c.Unwatched && p.spec.traces
	data, err := c.encode()
	if err != nil {
		return Reply{}, true, &InfraError{Target: c.Target, Reason: fmt.Sprintf("encode call %s: %v", c.ID, err)}
	}
	if len(data) >= p.spec.maxFrame {
		return Reply{}, true, &InfraError{Target: c.Target, Reason: fmt.Sprintf("call %s is %d bytes, over the frame limit", c.ID, len(data))}
	}
	_ = p.req.SetWriteDeadline(time.Now().Add(p.spec.timeout))
	p.sent++
	if _, werr := p.req.Write(append(data, '\n')); werr != nil {
		if errors.Is(werr, os.ErrDeadlineExceeded) {
			return p.fail(c, OutcomeTimeout, fmt.Sprintf("the worker did not read the call within %s", p.spec.timeout)), false, nil
		}
		return p.fail(c, OutcomeCrashed, "the worker stopped reading: "+werr.Error()), false, nil
	}
	want := p.sent
	r, _, ok, err = p.await(ctx, c, want, func(n int64) time.Duration {
		if n == want {
			return p.limit(c)
		}
		return p.spec.timeout
	})
	if !ok && err == nil {
		r.ID = c.ID // the worker had no other call to run
	}
	return r, ok, err
}

// limit is c's timeout: its own when the runner shortened it, else the
// worker's.
func (p *proc) limit(c Call) time.Duration {
	if c.Timeout > 0 && c.Timeout < p.spec.timeout {
		return c.Timeout
	}
	return p.spec.timeout
}

// await waits for the reply to c, the worker's request number want, each
// request timed by its own limit (limitOf, by number). When the worker
// must not be used again (ok false), blame is the number of the request
// the failure belongs to, and r (if err is nil) is its outcome (timeout or
// crashed) and detail, with no id: blame is want, or a later request when
// the worker holds its replies back (progress page) and was running that
// one. The requests between were answered, but their replies are lost
// with the worker.
func (p *proc) await(ctx context.Context, c Call, want int64, limitOf func(n int64) time.Duration) (r Reply, blame int64, ok bool, err error) {
	start := time.Now()
	timeout := limitOf(want)
	deadline := start.Add(timeout)
	for {
		line, rerr := p.next(ctx, deadline)
		if rerr == nil {
			r, ok, err = p.reply(c, line)
			r.Elapsed = time.Since(start)
			return r, want, ok, err
		}
		if ctx.Err() != nil {
			p.kill()
			return Reply{}, want, false, ctx.Err()
		}
		running, since, known := p.progress()
		blame = want
		if known && running > want {
			blame = running
		}
		var outcome, detail string
		switch {
		case errors.Is(rerr, os.ErrDeadlineExceeded):
			if known && running >= want {
				// The call running decides: it has its own timeout, from
				// its own start.
				timeout = limitOf(running)
				if left := timeout - since; left > 0 {
					deadline = time.Now().Add(left)
					continue
				}
			}
			outcome, detail = OutcomeTimeout, fmt.Sprintf("no reply within %s; the worker's process group was killed", timeout)
		case errors.Is(rerr, errExited):
			outcome, detail = OutcomeCrashed, "the worker exited: "+p.exitStatus()
		default:
			if !errors.Is(rerr, io.EOF) {
				blame = want
			}
			// An end of file the exit has not caught up with yet (a
			// loaded machine) is still the running call's: its page
			// says which one that is.
			outcome, detail = OutcomeCrashed, "the protocol broke: "+rerr.Error()
		}
		r = p.fail(Call{}, outcome, detail)
		r.Elapsed = time.Since(start)
		if known && blame == running {
			r.Elapsed = since
		}
		return r, blame, false, nil
	}
}

// pipeline sends every call at once and hands each reply to deliver, in
// order, as it arrives, each with its own timeout: the worker reads the next
// request while premise judges the last reply. It returns how many calls,
// from the first, were delivered. When the worker must not be used again
// (ok false), blamed is the index of the call whose timeout or crash ended
// it, delivered too; the calls from n to blamed were answered but their
// replies are lost, and must be sent again. n == 0 with ok means the calls
// cannot be pipelined (one is over the frame limit).
func (p *proc) pipeline(ctx context.Context, calls []Call, deliver func(k int, r Reply, err error)) (n, blamed int, ok bool) {
	defer context.AfterFunc(ctx, p.interrupt)()
	if p.spec.floats {
		// Copied only when a call's arguments hold a whole-number float:
		// the rest go as they are.
		var kept []Call
		for i := range calls {
			if c, changed := calls[i].floatsKeptChanged(); changed {
				if kept == nil {
					kept = slices.Clone(calls)
				}
				kept[i] = c
			}
		}
		if kept != nil {
			calls = kept
		}
	}
	// Unwatched goes only to a worker that watches (sent below).
	sent := func(c Call) Call {
		c.Unwatched = c.Unwatched && p.spec.traces
		return c
	}
	// Calls with their body encoded (the runner's) stream to the worker
	// as they are encoded, so that the first leave at once; others are
	// encoded, and checked against the frame limit, first.
	stream := true
	for _, c := range calls {
		if c.body == nil || len(c.body)+6*len(c.ID)+16 >= p.spec.maxFrame {
			stream = false
			break
		}
	}
	var buf []byte
	if !stream {
		for _, c := range calls {
			data, err := sent(c).encode()
			if err != nil || len(data) >= p.spec.maxFrame {
				return 0, 0, true
			}
			buf = append(append(buf, data...), '\n')
		}
	}
	base := p.sent
	p.sent += int64(len(calls))
	go func() {
		// A worker that stops reading blocks these writes until kill
		// closes the pipe; the reply loop below times out meanwhile.
		if !stream {
			_, _ = p.req.Write(buf)
			return
		}
		buf := make([]byte, 0, 32<<10)
		for _, c := range calls {
			buf = append(sent(c).appendTo(buf), '\n')
			if len(buf) >= 16<<10 {
				if _, err := p.req.Write(buf); err != nil {
					return
				}
				buf = buf[:0]
			}
		}
		_, _ = p.req.Write(buf)
	}()
	limitOf := func(n int64) time.Duration {
		if k := n - base - 1; k >= 0 && k < int64(len(calls)) {
			return p.limit(calls[k])
		}
		return p.spec.timeout
	}
	for i, c := range calls {
		r, blame, ok, err := p.await(ctx, c, base+int64(i)+1, limitOf)
		if ok || err != nil {
			deliver(i, r, err)
			if !ok {
				return i + 1, i, false
			}
			continue
		}
		j := int(blame - base - 1)
		if j < i || j >= len(calls) {
			j = i
		}
		r.ID = calls[j].ID
		deliver(j, r, nil)
		return i, j, false
	}
	return len(calls), 0, true
}

func (p *proc) reply(c Call, line []byte) (Reply, bool, error) {
	w, ok := p.returned(line, c.ID)
	if !ok {
		var err error
		if w, err = unmarshalReply(line); err != nil {
			return p.fail(c, OutcomeCrashed, "the worker sent a line that is not a reply: "+err.Error()), false, nil
		}
	}
	r := Reply{ID: w.ID, Outcome: w.Outcome, Detail: Printable(w.Detail), Lines: w.Lines, Refused: w.Refused && w.Outcome == OutcomeRaised}
	if len(w.Exc) > 0 && string(w.Exc) != "null" {
		// Decoded into its own variable: r, whose address decoding would
		// take, stays off the heap.
		var exc *Exc
		if err := decodeNumbers(w.Exc, &exc); err != nil {
			return p.fail(c, OutcomeCrashed, "the worker sent an exception that is not one: "+err.Error()), false, nil
		}
		r.Exc = exc
		if r.Exc != nil {
			// Shown, never compared (DESIGN.md: the class, never the
			// message): made printable once, here.
			r.Exc.Class, r.Exc.Message = Printable(r.Exc.Class), Printable(string(markTree([]byte(r.Exc.Message), p.spec.roots)))
		}
	}
	if len(w.Value) > 0 {
		w.Value = markTree(w.Value, p.spec.roots)
		r.Raw = w.Value
		if bytes.Equal(w.Value, p.lastRaw) {
			r.Value = p.lastVal
		} else {
			v, err := validate.DecodeJSON(w.Value)
			if err != nil {
				return p.fail(c, OutcomeCrashed, "the worker sent a value that is not JSON: "+err.Error()), false, nil
			}
			r.Value = v
			p.lastRaw, p.lastVal = w.Value, r.Value
		}
	}
	if r.ID != c.ID {
		return p.fail(c, OutcomeCrashed, fmt.Sprintf("the worker answered %q to call %q", r.ID, c.ID)), false, nil
	}
	switch r.Outcome {
	case OutcomeReturned, OutcomeRaised, OutcomeUnencodable:
		return r, true, nil
	case "error":
		return Reply{}, true, &InfraError{Target: c.Target, Reason: r.Detail}
	default:
		return p.fail(c, OutcomeCrashed, fmt.Sprintf("the worker sent outcome %q", r.Outcome)), false, nil
	}
}

// wireReply is a reply as it travels, its value and exception undecoded.
type wireReply struct {
	ID      string           `json:"id"`
	Outcome string           `json:"outcome"`
	Value   json.RawMessage  `json:"value"`
	Exc     json.RawMessage  `json:"exc"`
	Detail  string           `json:"detail"`
	Lines   map[string][]int `json:"lines"`
	Refused bool             `json:"refused"`
}

// unmarshalReply reads a reply line returned does not.
func unmarshalReply(line []byte) (wireReply, error) {
	var w wireReply
	err := json.Unmarshal(line, &w)
	return w, err
}

// decodeNumbers decodes JSON data into v keeping numbers as json.Number,
// so that an integer beyond 2^53 survives.
func decodeNumbers(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}

// fail kills the worker and records why the call has no reply.
func (p *proc) fail(c Call, outcome, detail string) Reply {
	p.kill()
	p.lastWords()
	if t := p.tail.String(); t != "" {
		detail += "; worker output ends: " + t
	}
	return Reply{ID: c.ID, Outcome: outcome, Detail: detail}
}

// lastWords waits, briefly, for the output a dead worker wrote before it
// died to be read: on a loaded machine the reader may not have caught up
// with the exit, and the dying words are what says why.
func (p *proc) lastWords() {
	select {
	case <-p.drained:
	case <-time.After(lastWordsWait):
	}
}

// lastWordsWait bounds lastWords: a child the subject left holding the
// output open must not hold up the verdict.
const lastWordsWait = 2 * time.Second

func (p *proc) exitStatus() string {
	if st := p.cmd.ProcessState; st != nil {
		// An isolated worker's status comes through its init (sandboxinit.go):
		// 128 plus the signal that killed it.
		if c := st.ExitCode(); p.isolated && c > 128 && c < 128+65 {
			return "signal: " + syscall.Signal(c-128).String()
		}
		return st.String()
	}
	return "unknown status"
}

// kill stops the worker's whole process group: SIGTERM, then SIGKILL after
// the grace period (DESIGN.md, "The runner protocol").
func (p *proc) kill() { p.once.Do(p.killOnce) }

// isolatedNow is a closed channel when isolated, so a select takes it at
// once; nil (never ready) otherwise.
func isolatedNow(isolated bool) <-chan time.Time {
	if !isolated {
		return nil
	}
	c := make(chan time.Time)
	close(c)
	return c
}

func (p *proc) killOnce() {
	pid := p.cmd.Process.Pid
	select {
	case <-p.exited:
	case <-isolatedNow(p.isolated):
		// The worker is its PID namespace's init: it ignores SIGTERM, and
		// SIGKILL takes every process of the namespace down with it, so
		// there is nothing to wait for.
	default:
		_ = syscall.Kill(-pid, syscall.SIGTERM)
		select {
		case <-p.exited:
		case <-time.After(p.spec.grace):
		}
	}
	// Children the subject forked share the group and outlive the worker
	// unless killed too.
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	select {
	case <-p.exited:
	case <-time.After(2 * time.Second):
	}
	closeAll(p.req, p.rep, p.out)
	if p.page != nil {
		_ = unix.Munmap(p.page)
		p.page = nil
	}
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(b), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return Printable(string(bytes.TrimSpace(t.buf)))
}

// procAdapter is the Adapter every language shares: one long-lived worker,
// replaced by a fresh one after a timeout or a crash.
type procAdapter struct {
	spec procSpec
	mu   sync.Mutex
	cur  *proc
	// spare is a worker started ahead, once one was killed: the next
	// one killed is replaced at once, not after a fresh start (issue 28,
	// item 2b: rows timing out one after another each waited for one).
	spare chan started
}

// started is a worker started in the background, or why it did not.
type started struct {
	p   *proc
	err error
}

// worker returns the current worker, starting one if needed: the spare
// when there is one, starting the next spare behind it.
func (a *procAdapter) worker() (*proc, error) {
	if a.cur != nil {
		return a.cur, nil
	}
	if a.spare != nil {
		s := <-a.spare
		a.spare = nil
		if s.err == nil && s.p.alive() {
			a.cur = s.p
			a.startSpare()
			return a.cur, nil
		}
		if s.p != nil {
			s.p.kill()
		}
	}
	p, err := startProc(a.spec)
	if err != nil {
		return nil, err
	}
	a.cur = p
	return p, nil
}

// warm starts the worker if none runs, so that a target's clock is not
// charged for the start (a start a target's own timeout or crash causes
// still is).
func (a *procAdapter) warm() {
	a.mu.Lock()
	defer a.mu.Unlock()
	_, _ = a.worker() // a worker that cannot start fails the calls, and says why
}

// lost drops the current worker, killed after a timeout or a crash. A
// worker killed once is killed again more often than not (a target that
// hangs on one input hangs on its neighbours), so from now on a spare is
// kept started.
func (a *procAdapter) lost() {
	a.cur = nil
	if a.spare == nil {
		a.startSpare()
	}
}

func (a *procAdapter) startSpare() {
	ch := make(chan started, 1)
	a.spare = ch
	spec := a.spec
	go func() {
		p, err := startProc(spec)
		ch <- started{p, err}
	}()
}

// alive reports whether the worker has not exited.
func (p *proc) alive() bool {
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

// Call runs c in the current worker, starting one if needed.
func (a *procAdapter) Call(ctx context.Context, c Call) (Reply, error) {
	if r, refused := a.refuse(c); refused {
		return r, nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	p, err := a.worker()
	if err != nil {
		return Reply{}, err
	}
	r, ok, err := p.call(ctx, c)
	if !ok {
		a.lost()
		if err == nil && r.Outcome == OutcomeCrashed {
			// Once more, first in a fresh worker: see CallBatch.
			if p, err = a.worker(); err != nil {
				return Reply{}, err
			}
			if r, ok, err = p.call(ctx, c); !ok {
				a.lost()
			}
		}
	}
	return r, err
}

// CallBatch runs calls in order, pipelined to the worker, and hands each
// call's reply and error (with Call's meanings) to deliver as soon as they
// are known, exactly once per call, on CallBatch's goroutine. After a
// timeout or a crash the calls not yet answered go to a fresh worker: the
// indexes then arrive out of order.
//
// A worker dies during the call it is running, but not always of that
// call: a goroutine a Go target started, a timer a JavaScript one set or a
// thread of a Python one can end the process after its own call answered,
// while a later call runs. So the call a crash is blamed on runs once
// more, alone and first in a fresh worker, where no earlier call can reach
// it; its crash stands only if it crashes there too (Call does the same).
// Without this one input answered "crashed" on one side and its value on
// the other as the race fell: a change neither side's code made.
func (a *procAdapter) CallBatch(ctx context.Context, calls []Call, deliver func(i int, r Reply, err error)) {
	a.mu.Lock()
	defer a.mu.Unlock()
	todo := make([]int, 0, len(calls)) // indexes of the calls still to run, in order
	for i := range calls {
		if r, refused := a.refuse(calls[i]); refused {
			deliver(i, r, nil)
			continue
		}
		todo = append(todo, i)
	}
	failAll := func(err error) {
		for _, i := range todo {
			deliver(i, Reply{}, err)
		}
	}
	// again is the call a crash was just blamed on, to run once more,
	// alone, in the next worker.
	again := -1
	for len(todo) > 0 || again >= 0 {
		if err := ctx.Err(); err != nil {
			if again >= 0 {
				todo = append(todo, again)
			}
			failAll(err)
			return
		}
		p, err := a.worker()
		if err != nil {
			if again >= 0 {
				todo = append(todo, again)
			}
			failAll(err)
			return
		}
		if i := again; i >= 0 {
			again = -1
			r, ok, err := p.call(ctx, calls[i])
			if !ok {
				a.lost()
			}
			deliver(i, r, err)
			continue
		}
		batch := callsAt(calls, todo)
		hand := func(k int, r Reply, err error) {
			i := todo[k]
			if err == nil && r.Outcome == OutcomeCrashed {
				again = i
				return
			}
			deliver(i, r, err)
		}
		n, blamed, ok := a.cur.pipeline(ctx, batch, hand)
		if n == 0 && ok {
			// Not pipelinable (an oversized call): one at a time.
			var r Reply
			var err error
			r, ok, err = a.cur.call(ctx, batch[0])
			hand(0, r, err)
			n, blamed = 1, 0
		}
		if ok {
			todo = todo[n:]
			continue
		}
		a.lost()
		if blamed >= n {
			todo = append(todo[n:blamed:blamed], todo[blamed+1:]...)
		} else {
			todo = todo[n:]
		}
	}
}

// callsAt is calls[idx[0]], calls[idx[1]], ...: calls itself, sliced,
// when idx runs on without a gap (a batch nothing was taken out of), else
// a copy.
func callsAt(calls []Call, idx []int) []Call {
	if len(idx) > 0 && idx[len(idx)-1]-idx[0] == len(idx)-1 {
		// idx is increasing: first and last a length apart means no gap.
		return calls[idx[0] : idx[0]+len(idx) : idx[0]+len(idx)]
	}
	out := make([]Call, len(idx))
	for k, i := range idx {
		out[k] = calls[i]
	}
	return out
}

// refuse is the reply to a call the adapter's check refuses.
func (a *procAdapter) refuse(c Call) (Reply, bool) {
	if a.spec.check == nil {
		return Reply{}, false
	}
	if err := a.spec.check(c); err != nil {
		return Reply{ID: c.ID, Outcome: OutcomeUnencodable, Detail: "premise refused the call before any worker saw it: " + err.Error()}, true
	}
	return Reply{}, false
}

// Close stops the worker and its whole process group.
func (a *procAdapter) Close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cur != nil {
		a.cur.kill()
		a.cur = nil
	}
	if a.spare != nil {
		if s := <-a.spare; s.p != nil {
			s.p.kill()
		}
		a.spare = nil
	}
	return nil
}
