package gate

import (
	"encoding/json"
	"sort"
)

// Watch asks a worker which lines of some files each call ran (issue 24,
// item 1: whether a row executed the lines a patch changed). Its keys are
// absolute paths of files in the worker's tree, its values the line ranges
// of interest there (1-based, inclusive). A reply then carries, in Lines,
// the lines inside those ranges the call ran: a Python worker by line
// tracing restricted to the watched files, the Go harness by the block
// counters of `go tool cover` compiled into the watched files' packages,
// the Node worker by V8's precise coverage (nodecover.go). The Node
// worker reports a run of the same call sent one after another (a row's
// reruns) once, on the run's last reply, the others carrying none: each
// reading of V8's coverage walks all the code Node has loaded. The gate
// itself never watches: evidence does, and only in its private
// checkouts.
type Watch map[string][]LineRange

// LineRange is lines From to To of a file, inclusive.
type LineRange struct {
	From int `json:"from"`
	To   int `json:"to"`
}

// encode is the watch as a worker reads it: {"/abs/file.py": [[from, to], ...]}.
func (w Watch) encode() string {
	if len(w) == 0 {
		return "{}"
	}
	m := map[string][][2]int{}
	for f, rs := range w {
		for _, r := range rs {
			m[f] = append(m[f], [2]int{r.From, r.To})
		}
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// files are the watched files, sorted.
func (w Watch) files() []string {
	out := make([]string, 0, len(w))
	for f := range w {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// covers reports whether line of file is inside a watched range.
func (w Watch) covers(file string, line int) bool {
	for _, r := range w[file] {
		if r.From <= line && line <= r.To {
			return true
		}
	}
	return false
}
