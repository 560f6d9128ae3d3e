package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"golang.org/x/term"
)

// progress shows where a long command is (premise run, gate, reject run):
// on a terminal a line rewritten in place on stderr; elsewhere nothing, so
// CI logs and pipes stay clean, unless --verbose asks for plain lines;
// under --quiet nothing at all.
type progress struct {
	w     io.Writer
	tty   bool
	plain bool // --verbose off a terminal: one line per stage
	start time.Time
	shown bool
}

func newProgress(w io.Writer, quiet, verbose bool) *progress {
	p := &progress{w: w, start: time.Now()}
	if quiet {
		return p
	}
	if f, ok := w.(interface{ Fd() uintptr }); ok && term.IsTerminal(int(f.Fd())) {
		p.tty = true
	}
	p.plain = !p.tty && verbose
	return p
}

func (p *progress) stage(stage, detail string) {
	line := fmt.Sprintf("premise: %-10s %s (%.1fs)", stage, detail, time.Since(p.start).Seconds())
	switch {
	case p.tty:
		fmt.Fprintf(p.w, "\r\033[K%s", line)
		p.shown = true
	case p.plain:
		fmt.Fprintln(p.w, line)
	}
}

// rows redraws a bar for a stage's rows; only on a terminal, where a line
// per row would not scroll away.
func (p *progress) rows(stage string, done, total int) {
	if !p.tty || total == 0 {
		return
	}
	const width = 24
	n := done * width / total
	fmt.Fprintf(p.w, "\r\033[Kpremise: %-10s [%s%s] %d/%d rows (%.1fs)", stage,
		strings.Repeat("#", n), strings.Repeat(".", width-n), done, total, time.Since(p.start).Seconds())
	p.shown = true
}

func (p *progress) done() {
	if p.tty && p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}
