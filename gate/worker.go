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
	"sync"
	"syscall"
	"time"
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
	stdio    bool          // protocol on stdin/stdout (exec adapter) instead of fds 3 and 4
	ready    bool          // the worker sends {"ready": true} once started
	start    time.Duration // how long a worker may take to become ready
	maxFrame int
	grace    time.Duration
	timeout  time.Duration
}

// proc is one running worker: its own session and process group, dying with
// premise (Pdeathsig), its stdout and stderr drained into a bounded tail.
type proc struct {
	spec   procSpec
	cmd    *exec.Cmd
	req    *os.File // premise writes requests here
	rep    *os.File // premise reads replies here
	out    *os.File // read end of the worker's stdout and stderr
	lines  chan frame
	exited chan struct{}
	done   chan struct{} // closed by kill
	once   sync.Once
	tail   *tailBuffer
}

type frame struct {
	line []byte
	err  error
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
	cmd := exec.Command(spec.path, spec.args...)
	cmd.Dir = spec.dir
	cmd.Env = spec.env
	// Setsid: a new session and process group, no controlling terminal, so
	// killing the group reaches every child the subject forks. Pdeathsig: the
	// worker dies with premise.
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
		cmd.ExtraFiles = []*os.File{reqR, repW} // fds 3 and 4
	}
	if err := cmd.Start(); err != nil {
		closeAll(reqR, reqW, repR, repW, outR, outW)
		return nil, &InfraError{Reason: fmt.Sprintf("start worker %s: %v", spec.path, err)}
	}
	closeAll(reqR, repW, outW)
	p := &proc{spec: spec, cmd: cmd, req: reqW, rep: repR, out: outR,
		lines: make(chan frame, 1), exited: make(chan struct{}), done: make(chan struct{}), tail: &tailBuffer{max: tailBytes}}
	go func() { _, _ = io.Copy(p.tail, outR) }()
	go p.readFrames()
	go func() { _ = cmd.Wait(); close(p.exited) }()
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
		if t := p.tail.String(); t != "" {
			why += "; worker output ends: " + t
		}
		return &InfraError{Reason: fmt.Sprintf("worker %s did not start: %s", p.spec.path, why)}
	}
	select {
	case f := <-p.lines:
		if f.err != nil {
			return fail(f.err.Error())
		}
		var h struct {
			Ready bool `json:"ready"`
		}
		if json.Unmarshal(f.line, &h) != nil || !h.Ready {
			return fail(fmt.Sprintf("it sent %q, not the handshake", oneLine(string(f.line), 200)))
		}
		return nil
	case <-p.exited:
		return fail("it exited: " + p.exitStatus())
	case <-time.After(p.spec.start):
		return fail(fmt.Sprintf("no handshake within %s", p.spec.start))
	}
}

func closeAll(fs ...*os.File) {
	for _, f := range fs {
		f.Close()
	}
}

// readFrames reads newline-terminated replies of at most maxFrame bytes.
func (p *proc) readFrames() {
	br := bufio.NewReaderSize(p.rep, 64<<10)
	for {
		var buf []byte
		for {
			chunk, err := br.ReadSlice('\n')
			buf = append(buf, chunk...)
			if len(buf) > p.spec.maxFrame {
				p.send(frame{err: fmt.Errorf("a reply frame over %d bytes", p.spec.maxFrame)})
				return
			}
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil {
				p.send(frame{err: err})
				return
			}
			break
		}
		if !p.send(frame{line: buf}) {
			return
		}
	}
}

func (p *proc) send(f frame) bool {
	select {
	case p.lines <- f:
		return true
	case <-p.done:
		return false
	}
}

// call sends one request and waits for its reply, the worker's death, the
// timeout or ctx. ok is false when the worker must not be used again.
func (p *proc) call(ctx context.Context, c Call) (r Reply, ok bool, err error) {
	data, err := json.Marshal(c)
	if err != nil {
		return Reply{}, true, &InfraError{Target: c.Target, Reason: fmt.Sprintf("encode call %s: %v", c.ID, err)}
	}
	if len(data) >= p.spec.maxFrame {
		return Reply{}, true, &InfraError{Target: c.Target, Reason: fmt.Sprintf("call %s is %d bytes, over the frame limit", c.ID, len(data))}
	}
	_ = p.req.SetWriteDeadline(time.Now().Add(p.spec.timeout))
	if _, werr := p.req.Write(append(data, '\n')); werr != nil {
		if errors.Is(werr, os.ErrDeadlineExceeded) {
			return p.fail(c, OutcomeTimeout, fmt.Sprintf("the worker did not read the call within %s", p.spec.timeout)), false, nil
		}
		return p.fail(c, OutcomeCrashed, "the worker stopped reading: "+werr.Error()), false, nil
	}
	return p.await(ctx, c)
}

// await waits for c's reply, the worker's death, the timeout or ctx.
func (p *proc) await(ctx context.Context, c Call) (Reply, bool, error) {
	start := time.Now()
	r, ok, err := p.awaitReply(ctx, c)
	r.Elapsed = time.Since(start)
	return r, ok, err
}

func (p *proc) awaitReply(ctx context.Context, c Call) (Reply, bool, error) {
	timer := time.NewTimer(p.spec.timeout)
	defer timer.Stop()
	select {
	case f := <-p.lines:
		return p.reply(c, f)
	case <-p.exited:
		// A reply written just before the exit still counts.
		select {
		case f := <-p.lines:
			if f.err == nil {
				return p.reply(c, f)
			}
		case <-time.After(20 * time.Millisecond):
		}
		return p.fail(c, OutcomeCrashed, "the worker exited: "+p.exitStatus()), false, nil
	case <-timer.C:
		return p.fail(c, OutcomeTimeout, fmt.Sprintf("no reply within %s; the worker's process group was killed", p.spec.timeout)), false, nil
	case <-ctx.Done():
		p.kill()
		return Reply{}, false, ctx.Err()
	}
}

// pipeline sends every call at once and collects the replies in order, each
// with its own timeout: the worker reads the next request while premise
// judges the last reply, which saves two context switches a call. It
// returns how many calls it settled; ok is false when the worker must not
// be used again (the calls after the n-th are then unsent or unanswered).
func (p *proc) pipeline(ctx context.Context, calls []Call, replies []Reply, errs []error) (n int, ok bool) {
	var buf []byte
	for _, c := range calls {
		data, err := json.Marshal(c)
		if err != nil || len(data) >= p.spec.maxFrame {
			return 0, true // the caller falls back to one call at a time
		}
		buf = append(append(buf, data...), '\n')
	}
	go func() {
		// A worker that stops reading blocks this write until kill closes
		// the pipe; the reply loop below times out meanwhile.
		_, _ = p.req.Write(buf)
	}()
	for i, c := range calls {
		r, ok, err := p.await(ctx, c)
		replies[i], errs[i] = r, err
		if !ok {
			return i + 1, false
		}
	}
	return len(calls), true
}

func (p *proc) reply(c Call, f frame) (Reply, bool, error) {
	if f.err != nil {
		return p.fail(c, OutcomeCrashed, "the protocol broke: "+f.err.Error()), false, nil
	}
	var r Reply
	dec := json.NewDecoder(bytes.NewReader(f.line))
	dec.UseNumber()
	if err := dec.Decode(&r); err != nil {
		return p.fail(c, OutcomeCrashed, "the worker sent a line that is not a reply: "+err.Error()), false, nil
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

// fail kills the worker and records why the call has no reply.
func (p *proc) fail(c Call, outcome, detail string) Reply {
	p.kill()
	if t := p.tail.String(); t != "" {
		detail += "; worker output ends: " + t
	}
	return Reply{ID: c.ID, Outcome: outcome, Detail: detail}
}

func (p *proc) exitStatus() string {
	if st := p.cmd.ProcessState; st != nil {
		return st.String()
	}
	return "unknown status"
}

// kill stops the worker's whole process group: SIGTERM, then SIGKILL after
// the grace period (DESIGN.md, "The runner protocol").
func (p *proc) kill() { p.once.Do(p.killOnce) }

func (p *proc) killOnce() {
	defer close(p.done)
	pid := p.cmd.Process.Pid
	select {
	case <-p.exited:
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
	return string(bytes.TrimSpace(t.buf))
}

// procAdapter is the Adapter every language shares: one long-lived worker,
// replaced by a fresh one after a timeout or a crash.
type procAdapter struct {
	spec procSpec
	mu   sync.Mutex
	cur  *proc
}

// Call runs c in the current worker, starting one if needed.
func (a *procAdapter) Call(ctx context.Context, c Call) (Reply, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cur == nil {
		p, err := startProc(a.spec)
		if err != nil {
			return Reply{}, err
		}
		a.cur = p
	}
	r, ok, err := a.cur.call(ctx, c)
	if !ok {
		a.cur = nil
	}
	return r, err
}

// CallBatch runs calls in order, pipelined to the worker, and returns a
// reply and an error for each, with Call's meanings. After a timeout or a
// crash the remaining calls go to a fresh worker.
func (a *procAdapter) CallBatch(ctx context.Context, calls []Call) ([]Reply, []error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	replies, errs := make([]Reply, len(calls)), make([]error, len(calls))
	for i := 0; i < len(calls); {
		if err := ctx.Err(); err != nil {
			for ; i < len(calls); i++ {
				errs[i] = err
			}
			break
		}
		if a.cur == nil {
			p, err := startProc(a.spec)
			if err != nil {
				for ; i < len(calls); i++ {
					errs[i] = err
				}
				break
			}
			a.cur = p
		}
		n, ok := a.cur.pipeline(ctx, calls[i:], replies[i:], errs[i:])
		if n == 0 && ok {
			// Not pipelinable (an oversized call): one at a time.
			r, ok, err := a.cur.call(ctx, calls[i])
			replies[i], errs[i] = r, err
			n = 1
			if !ok {
				a.cur = nil
			}
		} else if !ok {
			a.cur = nil
		}
		i += n
	}
	return replies, errs
}

// Close stops the worker and its whole process group.
func (a *procAdapter) Close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cur != nil {
		a.cur.kill()
		a.cur = nil
	}
	return nil
}
