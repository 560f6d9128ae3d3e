package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestProgress: on a terminal the line is rewritten in place and cleared at
// the end; off a terminal nothing is written unless --verbose asks for
// plain lines; --quiet silences both.
func TestProgress(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name            string
		tty, quiet, vrb bool
		want            string // a substring of what is written; "" means nothing
		reason          string
	}{
		{"terminal", true, false, false, "\r\033[Kpremise: gate", "a line rewritten in place"},
		{"pipe", false, false, false, "", "CI logs and pipes stay clean"},
		{"pipe verbose", false, false, true, "premise: gate       3 rows run", "plain lines on request"},
		{"terminal quiet", true, true, false, "", "--quiet silences progress"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			p := newProgress(&b, tt.quiet, tt.vrb)
			p.tty = tt.tty && !tt.quiet // the buffer is no terminal: stand in for one
			p.stage("gate", "3 rows run")
			p.rows("gate", 1, 2)
			p.done()
			got := b.String()
			if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
				t.Errorf("wrote %q, want %q (%s)", got, tt.want, tt.reason)
			}
			if tt.tty && !tt.quiet && !strings.HasSuffix(got, "\r\033[K") {
				t.Errorf("on a terminal the line is cleared at the end; wrote %q", got)
			}
		})
	}
}
