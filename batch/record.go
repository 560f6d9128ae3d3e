package batch

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/premise-dev/premise/internal/atomicfile"
	"github.com/premise-dev/premise/pipeline"
)

// VerdictError is the verdict of a PR premise could not run.
const VerdictError = "could not run"

// Record is what a batch knows of one PR: OUT/<pr>/run.json, and an entry
// of the summary (without Run).
type Record struct {
	ID        string `json:"id"`
	Number    int    `json:"number"`
	Title     string `json:"title"`
	Ref       string `json:"ref"`
	Head      string `json:"head"`
	Base      string `json:"base"`
	MergeBase string `json:"merge_base"`

	ChangedSymbols []string `json:"changed_symbols"`
	// Proposed counts the rows the proposer returned, Kept those the
	// filter kept, Dropped the others by reason.
	Proposed        int            `json:"proposed"`
	Kept            int            `json:"kept"`
	Dropped         map[string]int `json:"dropped"`
	BehaviorChanges int            `json:"behavior_changes"`
	// Unexplained are behaviour changes no proposed assumption names.
	Unexplained int    `json:"unexplained_changes"`
	HeadBroken  bool   `json:"head_broken"`
	Findings    int    `json:"findings"`
	Verdict     string `json:"verdict"`
	Exit        int    `json:"exit"`
	Stage       string `json:"stage"`
	// Check is the register check on the register the PR carries (with
	// --check).
	Check *CheckOutcome `json:"check,omitempty"`

	PromptTokens     int     `json:"prompt_tokens"`
	CompletionTokens int     `json:"completion_tokens"`
	Requests         int     `json:"requests"`
	CacheHits        int     `json:"cache_hits"`
	Seconds          float64 `json:"seconds"`
	Error            string  `json:"error,omitempty"`

	// Risk orders the summary: behaviour changes weigh most (see risk).
	Risk int `json:"risk"`
	// Resumed says the record was read from an earlier run's output for
	// the same head, not run again.
	Resumed bool `json:"resumed"`

	// Run is premise run's whole summary of the PR (run.json only).
	Run *pipeline.Summary `json:"run,omitempty"`
}

// fill takes a record's figures from the PR's run.
func (r *Record) fill(s *pipeline.Summary) {
	r.ChangedSymbols = s.ChangedSymbols
	if r.ChangedSymbols == nil {
		r.ChangedSymbols = []string{}
	}
	r.Proposed = s.Proposed
	for k, v := range s.Dropped {
		r.Dropped[k] = v
	}
	r.Kept = s.Proposed
	for _, v := range s.Dropped {
		r.Kept -= v
	}
	r.BehaviorChanges, r.Unexplained = len(s.BehaviorChanges), len(s.Unexplained)
	r.HeadBroken, r.Findings = len(s.HeadBroken) > 0, len(s.Findings)
	r.Verdict, r.Exit, r.Stage = s.Verdict, s.Exit, s.Stage
	r.PromptTokens, r.CompletionTokens = s.Usage.PromptTokens, s.Usage.CompletionTokens
	r.Requests, r.CacheHits = s.Usage.Requests, s.Usage.CacheHits
	// The files are named as they lie in the PR's directory, wherever it
	// was written or merged to.
	written := make([]string, 0, len(s.Written))
	for _, w := range s.Written {
		written = append(written, filepath.Base(w))
	}
	s.Written = written
	r.Run = s
}

// risk scores a PR for the order of the summary: each behaviour change
// (explained or not) and a head that does not load weigh 10, a finding
// (Trojan Source, a guard block) 3, each changed symbol 1.
func (r *Record) risk() int {
	n := 10*(r.BehaviorChanges+r.Unexplained) + 3*r.Findings + len(r.ChangedSymbols)
	if r.HeadBroken {
		n += 10
	}
	if r.Exit == 2 {
		n += 10 // blocked by policy: a judged file changed unsigned
	}
	return n
}

// writeRecordDir writes rec as run.json into tmp (a fresh directory when
// tmp is "") and puts tmp in place as OUT/<id>: a reader sees the old
// directory or the new one, never half of one.
func writeRecordDir(out string, rec *Record, tmp string) error {
	if tmp == "" {
		var err error
		if tmp, err = os.MkdirTemp(out, ".run-"+rec.ID+"-"); err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
	}
	rec.Risk = rec.risk()
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(tmp, RunFile), append(data, '\n'), 0o644); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	return swapDir(tmp, filepath.Join(out, rec.ID))
}

// swapDir replaces dir with tmp.
func swapDir(tmp, dir string) error {
	if _, err := os.Stat(dir); err == nil {
		old := dir + ".old"
		os.RemoveAll(old)
		if err := os.Rename(dir, old); err != nil {
			return fmt.Errorf("replace %s: %w", dir, err)
		}
		defer os.RemoveAll(old)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("write %s: %w", dir, err)
	}
	return nil
}

// readRecord reads dir/run.json; ok is false when there is none or it does
// not read.
func readRecord(dir string) (*Record, bool) {
	rec, err := loadRecord(dir)
	return rec, err == nil
}

func loadRecord(dir string) (*Record, error) {
	data, err := os.ReadFile(filepath.Join(dir, RunFile))
	if err != nil {
		return nil, err
	}
	var rec Record
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, RunFile), err)
	}
	if rec.ID == "" || rec.ID != filepath.Base(dir) {
		return nil, fmt.Errorf("%s: not the run.json of PR %s", filepath.Join(dir, RunFile), filepath.Base(dir))
	}
	if rec.Dropped == nil {
		rec.Dropped = map[string]int{}
	}
	if rec.ChangedSymbols == nil {
		rec.ChangedSymbols = []string{}
	}
	return &rec, nil
}

// Summary is a batch's outcome: every PR, ordered by risk, and totals.
type Summary struct {
	Version int `json:"version"`
	// Shard is "I/N" for one shard's run, "" for a whole or merged batch.
	Shard  string   `json:"shard"`
	PRs    []Record `json:"prs"`
	Totals Totals   `json:"totals"`
}

// Totals add up a batch.
type Totals struct {
	PRs             int     `json:"prs"`
	Ran             int     `json:"ran"`
	Resumed         int     `json:"resumed"`
	Failed          int     `json:"failed"`
	BehaviorChanges int     `json:"behavior_changes"`
	Requests        int     `json:"requests"`
	CacheHits       int     `json:"cache_hits"`
	Tokens          int     `json:"tokens"`
	Seconds         float64 `json:"seconds"`
}

func newSummary(recs []Record, shard Shard) *Summary {
	s := &Summary{Version: 1, Shard: shard.String(), PRs: make([]Record, 0, len(recs))}
	for _, r := range recs {
		r.Run = nil
		r.Risk = r.risk()
		s.PRs = append(s.PRs, r)
		t := &s.Totals
		t.PRs++
		switch {
		case r.Error != "":
			t.Failed++
		case r.Resumed:
			t.Resumed++
		default:
			t.Ran++
		}
		t.BehaviorChanges += r.BehaviorChanges + r.Unexplained
		t.Requests += r.Requests
		t.CacheHits += r.CacheHits
		t.Tokens += r.PromptTokens + r.CompletionTokens
		t.Seconds += r.Seconds
	}
	// Riskiest first; PRs that could not run last, where a maintainer
	// looks for what to fix in the batch itself.
	sort.SliceStable(s.PRs, func(i, j int) bool {
		a, b := s.PRs[i], s.PRs[j]
		if (a.Error != "") != (b.Error != "") {
			return a.Error == ""
		}
		if a.Risk != b.Risk {
			return a.Risk > b.Risk
		}
		if a.Number != b.Number {
			return a.Number < b.Number
		}
		return a.ID < b.ID
	})
	return s
}

// WriteSummaryFiles writes OUT/summary.json and OUT/summary.md.
func WriteSummaryFiles(out string, s *Summary) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(out, SummaryJSON), append(data, '\n'), 0o644); err != nil {
		return err
	}
	md, err := markdownBytes(s)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(out, SummaryMarkdown), md, 0o644)
}

// Merge joins the outputs of a batch's shards into out: each PR's
// directory copied there once, and the summary written over all of them.
// A PR in two shards, or a shard that is not a batch's output, is an
// error naming the directory.
func Merge(out string, shards []string) (*Summary, error) {
	if len(shards) == 0 {
		return nil, errors.New("batch merge: name the shards' output directories")
	}
	from := map[string]string{}
	var recs []Record
	var copies [][2]string
	for _, sh := range shards {
		if _, err := os.Stat(filepath.Join(sh, SummaryJSON)); err != nil {
			return nil, fmt.Errorf("%s: not a batch's output (no %s)", sh, SummaryJSON)
		}
		entries, err := os.ReadDir(sh)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if !e.IsDir() || e.Name()[0] == '.' {
				continue
			}
			dir := filepath.Join(sh, e.Name())
			rec, err := loadRecord(dir)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return nil, err
			}
			if prev, ok := from[rec.ID]; ok {
				return nil, fmt.Errorf("PR %s is in both %s and %s: merge shards of one batch", rec.ID, prev, sh)
			}
			from[rec.ID] = sh
			rec.Run = nil
			rec.Resumed = false
			recs = append(recs, *rec)
			copies = append(copies, [2]string{dir, rec.ID})
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("output directory %s: %w", out, err)
	}
	for _, c := range copies {
		if err := copyDir(c[0], out, c[1]); err != nil {
			return nil, err
		}
	}
	s := newSummary(recs, Shard{})
	if err := WriteSummaryFiles(out, s); err != nil {
		return nil, err
	}
	return s, nil
}

// copyDir copies the PR directory src to out/id through a temporary
// directory, unless it is that directory already.
func copyDir(src, out, id string) error {
	dst := filepath.Join(out, id)
	if a, err := filepath.Abs(src); err == nil {
		if b, err := filepath.Abs(dst); err == nil && a == b {
			return nil
		}
	}
	tmp, err := os.MkdirTemp(out, ".merge-"+id+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(tmp, e.Name()), data, 0o644); err != nil {
			return err
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	return swapDir(tmp, dst)
}
