package evidence

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/internal/atomicfile"
	"github.com/premise-dev/premise/internal/jsonvalue"
	"github.com/premise-dev/premise/validate"
)

// The evidence's cache (issue 28: a second run of the same commits). A
// finished report is kept under a key its caller derives from everything
// the evidence depends on (the premise that ran, the two trees, the diff,
// the register's assumptions, the settings, the model, the interpreters
// and what is installed for them: pipeline/evidencecache.go), and a run
// with the same key reads it instead of running the rows again.
//
// Every report, cached or not, is the one the cache gives: a fresh one is
// written out and read back before it is used, so a second run cannot say
// other than the first did, and every test of the evidence tests what the
// cache keeps. A report whose making depended on the clock (a time budget
// that cut rows, a call that timed out, a note of something the run did
// without) is not kept: the next run tries again.

// cacheVersion changes when the kept form does (2: outcomes keep their
// numbers as the worker wrote them).
const cacheVersion = 2

// wireReport is a Report as the cache keeps it: the fields the user's
// JSON leaves out (a change's call and outcomes, a symbol left unchecked)
// included.
type wireReport struct {
	Version int `json:"version"`
	Report
	Symbols                                                   []wireSymbol `json:"Symbols"`
	Changes, Unexplained, NewFunctions, Unstable, OutsideType []wireChange
}

type wireSymbol struct {
	SymbolRows
	Unchecked bool `json:"unchecked,omitempty"`
}

type wireChange struct {
	Change
	Call        *validate.Call    `json:"call,omitempty"`
	BaseOutcome *validate.Outcome `json:"base_outcome,omitempty"`
	HeadOutcome *validate.Outcome `json:"head_outcome,omitempty"`
	BaseExc     *gate.Exc         `json:"base_exc,omitempty"`
}

func toWire(cs []Change) []wireChange {
	out := make([]wireChange, len(cs))
	for i, c := range cs {
		out[i] = wireChange{Change: c, Call: c.Call, BaseOutcome: c.BaseOutcome, HeadOutcome: c.HeadOutcome, BaseExc: c.baseExc}
	}
	return out
}

func fromWire(ws []wireChange) []Change {
	out := make([]Change, len(ws))
	for i, w := range ws {
		c := w.Change
		// Outcomes' values come back as the worker wrote them, their
		// numbers json.Number (decodeReport's UseNumber), as outcomeOf
		// keeps them.
		c.Call, c.BaseOutcome, c.HeadOutcome, c.baseExc = w.Call, w.BaseOutcome, w.HeadOutcome, w.BaseExc
		if c.Call != nil {
			if c.Call.Args != nil {
				c.Call.Args = jsonvalue.Numbers(c.Call.Args).([]any)
			}
			if c.Call.Kwargs != nil {
				c.Call.Kwargs = jsonvalue.Numbers(c.Call.Kwargs).(map[string]any)
			}
		}
		out[i] = c
	}
	return out
}

// encodeReport is rep as the cache keeps it.
func encodeReport(rep *Report) ([]byte, error) {
	w := wireReport{Version: cacheVersion, Report: *rep,
		Changes: toWire(rep.Changes), Unexplained: toWire(rep.Unexplained), NewFunctions: toWire(rep.NewFunctions),
		Unstable: toWire(rep.Unstable), OutsideType: toWire(rep.OutsideType)}
	w.Symbols = make([]wireSymbol, len(rep.Symbols))
	for i, s := range rep.Symbols {
		w.Symbols[i] = wireSymbol{SymbolRows: s, Unchecked: s.Unchecked}
	}
	return json.Marshal(w)
}

// decodeReport reads what encodeReport wrote; false when it is not that
// (another version, a torn or foreign file).
func decodeReport(data []byte) (*Report, bool) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	d.DisallowUnknownFields()
	var w wireReport
	if err := d.Decode(&w); err != nil || w.Version != cacheVersion {
		return nil, false
	}
	rep := w.Report
	rep.Changes, rep.Unexplained, rep.NewFunctions = fromWire(w.Changes), fromWire(w.Unexplained), fromWire(w.NewFunctions)
	rep.Unstable, rep.OutsideType = fromWire(w.Unstable), fromWire(w.OutsideType)
	rep.Symbols = make([]SymbolRows, len(w.Symbols))
	for i, s := range w.Symbols {
		rep.Symbols[i] = s.SymbolRows
		rep.Symbols[i].Unchecked = s.Unchecked
	}
	return &rep, true
}

// cachePath is where the report under key is kept; "" for none.
func cachePath(cfg Config) string {
	if cfg.CacheKey == "" || cfg.CacheDir == "" {
		return ""
	}
	return filepath.Join(cfg.CacheDir, "evidence", cfg.CacheKey+".json")
}

// Cached is the report kept under cfg's key, if there is one: a run with
// it needs no checkout of its commits and runs no row.
func Cached(cfg Config) (*Report, bool) {
	p := cachePath(cfg)
	if p == "" {
		return nil, false
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, false
	}
	rep, ok := decodeReport(data)
	if ok {
		now := time.Now()
		_ = os.Chtimes(p, now, now) // read: kept another cacheDays
		rep.Cached, rep.TracedSeconds = true, 0
	}
	return rep, ok
}

// keep writes rep under cfg's key when nothing in it depended on the
// clock, and returns it as the cache gives it back. A report that cannot
// be written as JSON is used as it is, and not kept.
func keep(cfg Config, rep *Report) *Report {
	data, err := encodeReport(rep)
	if err != nil {
		return rep
	}
	back, ok := decodeReport(data)
	if !ok {

		return rep
	}
	if p := cachePath(cfg); p != "" && !rep.clocked && keepable(back) {
		// A cache that cannot be written costs the next run its time,
		// nothing else.
		if atomicfile.WriteFile(p, data, 0o644) == nil {
			prune(filepath.Dir(p), time.Now().Add(-cacheDays*24*time.Hour))
		}
	}
	return back
}

// cacheDays is how long a kept report is kept unread: a commit pair not
// run again in that time is not coming back.
const cacheDays = 30

// prune removes the reports in dir last written or read before cutoff.
func prune(dir string, cutoff time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() && strings.HasSuffix(e.Name(), ".json") && fi.ModTime().Before(cutoff) {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// keepable says a report holds no change that is a timeout, which a
// calmer machine may not see. What else the clock or a passing fault
// shaped marks the report clocked where it happens (a time budget that
// cut rows, a call that timed out, a rerun that ran out of time, a model
// that did not answer, the base's tests that told nothing); a note that
// replays the same on a second run stays (the traced run stopped at its
// budget, which its own cache keeps as it was), and so does a symbol left
// unchecked for want of a value or a module that does not load.
func keepable(rep *Report) bool {
	for _, cs := range [][]Change{rep.Changes, rep.Unexplained, rep.NewFunctions, rep.Unstable, rep.OutsideType} {
		for _, c := range cs {
			for _, o := range []*validate.Outcome{c.BaseOutcome, c.HeadOutcome} {
				if o != nil && (o.Outcome == gate.OutcomeTimeout || o.Outcome == gate.OutcomeCrashed) {
					return false
				}
			}
		}
	}
	return true
}
