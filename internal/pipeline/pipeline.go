package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/internal/atomicfile"
	"github.com/premise-dev/premise/internal/git"
	"github.com/premise-dev/premise/propose"
	"github.com/premise-dev/premise/validate"
)

// File names a run reads and writes in its output directory.
const (
	RegisterFile   = "assumptions.yaml"
	PartitionsFile = "partitions.yaml"
	DraftFile      = "draft.md"
)

// Stages, in order. Summary.Stage names the one a run stopped at.
const (
	StageDiff       = "diff"
	StagePropose    = "propose"
	StageEvidence   = "evidence"
	StageReview     = "review"
	StagePartitions = "partitions"
	StageCheck      = "check"
	StageReject     = "reject"
	StageGate       = "gate"
	StageDone       = "done"
)

// Verdicts in words.
const (
	VerdictNothing  = "nothing to assume"
	VerdictAwaiting = "awaiting review"
	// VerdictUnexplained: evidence rows found a behaviour change on a
	// symbol no assumption covers.
	VerdictUnexplained = "unexplained behaviour change"
	VerdictHolds       = "the gate holds"
	VerdictFailed      = "the gate failed"
	VerdictBlocked     = "blocked by policy"
	VerdictCheck       = "the register check failed"
	VerdictRejected    = "a must-reject fixture broke"
)

// Config is one run's settings.
type Config struct {
	// Repo, Base and Head say which diff to read, as in diffparse.Config.
	Repo, Base, Head string
	// Out is where assumptions.yaml, partitions.yaml and draft.md live; the
	// repository's top level when empty.
	Out string
	// Proposer drafts the assumptions; the static rules when nil.
	Proposer propose.Proposer
	// Python is the interpreter for Python targets ("python3" when empty).
	Python string
	// Reruns, Budget and Timeout are the gate's (gate.Config).
	Reruns  int
	Budget  int
	Timeout time.Duration
	// Seed fixes the metamorphic shuffles.
	Seed int64
	// Reject, when set, runs the must-reject corpus of the work tree repo
	// (the head commit's) before the gate. It reports whether every entry
	// held and a one-line summary ("" when there is no corpus); an error
	// means the corpus could not be run at all.
	Reject func(ctx context.Context, repo string) (held bool, summary string, err error)
	// Progress, if set, is told when each stage starts.
	Progress func(stage, detail string)
	// RowProgress, if set, is told after each row of the evidence and
	// gate stages, for a progress bar on a terminal.
	RowProgress func(stage string, done, total int)
}

// Summary is what a run found: the verdict, the figures, and the evidence
// gathered for the reviewer.
type Summary struct {
	Verdict string `json:"verdict"`
	Exit    int    `json:"exit"`
	Stage   string `json:"stage"`          // where the run stopped
	Next    string `json:"next,omitempty"` // what the user does next

	Base      string `json:"base"`
	Head      string `json:"head"`
	MergeBase string `json:"merge_base"`

	Symbols int `json:"symbols"` // changed Python and Go symbols
	Files   int `json:"files"`

	Proposer string              `json:"proposer"`
	Proposed int                 `json:"proposed"` // rows the proposer returned
	Dropped  map[string]int      `json:"dropped"`  // by reason
	Merge    validate.MergeStats `json:"merge"`
	Statuses map[string]int      `json:"statuses"` // register items by status (stale ones apart)
	Usage    propose.Usage       `json:"usage"`
	Findings []propose.Finding   `json:"findings"`

	EvidenceRows int `json:"evidence_rows"`
	// EvidenceSkipped says why evidence rows could not run, per language:
	// the code under review does not import or build on this machine.
	EvidenceSkipped []string         `json:"evidence_skipped,omitempty"`
	BehaviorChanges []BehaviorChange `json:"behavior_changes"`
	// Unexplained are behaviour changes found by signature-driven rows on
	// symbols no proposed assumption covers: findings the proposer missed.
	Unexplained []BehaviorChange `json:"unexplained_changes"`

	Check  *validate.CheckReport `json:"check,omitempty"`
	Reject string                `json:"reject,omitempty"` // the must-reject corpus's count, when there is one
	Gate   *GateFigures          `json:"gate,omitempty"`

	Written []string `json:"written"` // files this run wrote
}

// GateFigures are the gate's counts on head and, for the reviewer, on base.
type GateFigures struct {
	Rows      int          `json:"rows"`
	Pass      int          `json:"pass"`
	Fail      int          `json:"fail"`
	Error     int          `json:"error"`
	Flakes    int          `json:"flakes"`
	Frozen    int          `json:"frozen"`
	Failing   []string     `json:"failing"`    // row ids that gate on head
	BasePass  int          `json:"base_pass"`  // rows that pass against the base revision
	BaseFails []string     `json:"base_fails"` // rows that fail against base too: the table, not the patch, is wrong
	Exit      int          `json:"exit"`
	Report    *gate.Report `json:"-"`
}

// BehaviorChange is one input on which head and base behave differently.
type BehaviorChange struct {
	Row string `json:"row"`
	// Assumption is the first register item whose rows ask this input;
	// Assumptions all of them.
	Assumption  string   `json:"assumption,omitempty"`
	Assumptions []string `json:"assumptions,omitempty"`
	Symbol      string   `json:"symbol"`
	Class       string   `json:"class"`
	Input       string   `json:"input"`
	Base        string   `json:"base"`
	Head        string   `json:"head"`
	// SpecChange is set when an input base refused now returns a value: the
	// silent widening seeds 000 and 004 warn about.
	SpecChange bool `json:"spec_change,omitempty"`
}

// Run runs the pipeline. The error means a stage could not run at all
// (exit 3); every verdict, including a failing gate, is in the Summary.
func Run(ctx context.Context, cfg Config) (*Summary, error) {
	p := &run{cfg: cfg, sum: &Summary{Dropped: map[string]int{}, Statuses: map[string]int{}}}
	if p.cfg.Proposer == nil {
		p.cfg.Proposer = propose.NewStatic()
	}
	err := p.do(ctx)
	for _, c := range p.cleanups {
		c()
	}
	if err != nil {
		return nil, err
	}
	return p.sum, nil
}

type run struct {
	cfg Config
	sum *Summary
	res *diffparse.Result
	reg *validate.Register
	out string

	head     string // a worktree checked out at the head commit, made once
	cleanups []func()
}

// headTree checks the head commit out once per run, so the rows run
// against the patch as committed, whatever the work tree holds.
func (p *run) headTree(ctx context.Context) (string, error) {
	if p.head != "" {
		return p.head, nil
	}
	dir, cleanup, err := gate.AddWorktree(ctx, p.repoDir(), p.res.Head)
	if err != nil {
		return "", err
	}
	p.head = dir
	p.cleanups = append(p.cleanups, cleanup)
	return dir, nil
}

func (p *run) progress(stage, detail string) {
	if p.cfg.Progress != nil {
		p.cfg.Progress(stage, detail)
	}
}

func (p *run) stop(stage, verdict string, exit int, next string) {
	p.sum.Stage, p.sum.Verdict, p.sum.Exit, p.sum.Next = stage, verdict, exit, next
}

func (p *run) do(ctx context.Context) error {
	// Stage 1: the diff (seed 004, Step 1).
	p.progress(StageDiff, "reading the diff")
	res, err := diffparse.Load(ctx, diffparse.Config{Repo: p.cfg.Repo, Base: p.cfg.Base, Head: p.cfg.Head})
	if err != nil {
		return err
	}
	p.res = res
	p.sum.Base, p.sum.Head, p.sum.MergeBase = res.Base, res.Head, res.MergeBase
	p.sum.Files = len(res.Files)
	for _, f := range res.Files {
		p.sum.Symbols += len(f.Symbols)
	}
	if p.out, err = p.outDir(ctx); err != nil {
		return err
	}
	if p.sum.Symbols == 0 {
		// Seed 004: "An empty partition table is a signal to skip the
		// ritual, not a signal to pad it."
		p.stop(StageDiff, VerdictNothing, 0, "the patch changes no Python or Go function, method or type; nothing to review")
		return nil
	}

	// Stage 2: propose, filter, merge into the register.
	p.progress(StagePropose, p.cfg.Proposer.Name())
	if err := p.propose(ctx); err != nil {
		return err
	}

	// Stage 3: differential evidence for every row a reviewer has not
	// rejected, and signature-driven rows for symbols nobody covered.
	p.progress(StageEvidence, "running boundary rows against base and head")
	if err := p.evidence(ctx); err != nil {
		return err
	}
	if err := p.writeDraft(); err != nil {
		return err
	}

	awaiting := 0
	for _, it := range p.reg.Items {
		if it.Status == validate.StatusProposed && !it.Stale {
			awaiting++
		}
	}
	if awaiting > 0 {
		p.stop(StageReview, VerdictAwaiting, 1, fmt.Sprintf("%d %s review: premise review (or premise accept ID / premise reject ID --note TEXT), then premise run again", awaiting, plural(awaiting, "assumption awaits", "assumptions await")))
		return nil
	}

	if len(p.sum.Unexplained) > 0 {
		// A behaviour change no assumption names cannot pass silently: the
		// evidence must not depend on the proposer alone (issue 7).
		c := p.sum.Unexplained[0]
		p.stop(StageReview, VerdictUnexplained, 1, fmt.Sprintf("%s behaves differently from the base on %d %s (e.g. %s%s: base %s, head %s) and no assumption names it: add one to %s and review it, or fix the patch",
			c.Symbol, len(p.sum.Unexplained), plural(len(p.sum.Unexplained), "input", "inputs"), shortSymbol(c.Symbol), c.Input, c.Base, c.Head, RegisterFile))
		return nil
	}

	// Stage 4: partitions for accepted rows, and the register check.
	p.progress(StagePartitions, "partition rows for accepted assumptions")
	table, err := p.partitions(ctx)
	if err != nil {
		return err
	}
	p.progress(StageCheck, "register check")
	rep := validate.Check(&validate.CheckInput{
		Register: p.reg, RegisterFile: p.path(RegisterFile),
		Table: table, TableFile: p.path(PartitionsFile),
		CurrentHead: res.Head,
	})
	p.sum.Check = rep
	if !rep.OK() {
		p.stop(StageCheck, VerdictCheck, 1, "fix what premise check reports: "+rep.Findings[0].String())
		return nil
	}
	if len(table.Rows) == 0 {
		p.stop(StageCheck, VerdictHolds, 0, "every assumption was rejected: no rows to run")
		return nil
	}

	// Stage 5: the must-reject corpus, before the gate (seed 000's CI order).
	if p.cfg.Reject != nil {
		p.progress(StageReject, "must-reject corpus")
		head, err := p.headTree(ctx)
		if err != nil {
			return err
		}
		held, summary, err := p.cfg.Reject(ctx, head)
		if err != nil {
			return err
		}
		p.sum.Reject = summary
		if !held {
			p.stop(StageReject, VerdictRejected, 1, summary+": see premise reject run")
			return nil
		}
	}

	// Stage 6: the gate, on head, and on base for the reviewer's contrast.
	p.progress(StageGate, fmt.Sprintf("%d rows x %d reruns", len(table.Rows), p.reruns()))
	return p.gate(ctx, table)
}

// outDir is where the run's files live: --out, else the top of the work
// tree.
func (p *run) outDir(ctx context.Context) (string, error) {
	if p.cfg.Out != "" {
		return p.cfg.Out, nil
	}
	dir := p.cfg.Repo
	if dir == "" {
		dir = "."
	}
	top, err := gitTop(ctx, dir)
	if err != nil {
		return "", err
	}
	return top, nil
}

func (p *run) path(name string) string { return filepath.Join(p.out, name) }

func (p *run) reruns() int {
	if p.cfg.Reruns > 0 {
		return p.cfg.Reruns
	}
	return gate.DefaultReruns
}

func (p *run) propose(ctx context.Context) error {
	out, err := propose.Draft(ctx, p.cfg.Proposer, p.res)
	if err != nil {
		return err
	}
	p.sum.Proposer = p.cfg.Proposer.Name()
	p.sum.Proposed = len(out.Kept) + len(out.Dropped)
	for _, d := range out.Dropped {
		p.sum.Dropped[d.Reason]++
	}
	p.sum.Usage = out.Usage
	p.sum.Findings = out.Findings
	if p.sum.Findings == nil {
		p.sum.Findings = []propose.Finding{}
	}

	existing, err := validate.LoadRegister(p.path(RegisterFile))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		existing = nil
	case err != nil:
		return err
	}
	prov := propose.ProvenanceOf(p.cfg.Proposer, p.res)
	reg, stats := validate.Merge(existing, out.Kept, prov, validate.NewIndex(p.res))
	if reg.PatchRef == "" {
		reg.PatchRef = patchRef(p.cfg.Base, p.cfg.Head)
	}
	p.sum.Merge = stats
	if err := validate.SaveRegister(p.path(RegisterFile), reg); err != nil {
		return err
	}
	p.sum.Written = append(p.sum.Written, p.path(RegisterFile))
	p.reg = reg
	for _, it := range reg.Items {
		if it.Stale {
			p.sum.Statuses["stale"]++
			continue
		}
		p.sum.Statuses[it.Status]++
	}
	return nil
}

func patchRef(base, head string) string {
	if base == "" {
		base = "origin/main"
	}
	if head == "" {
		head = "HEAD"
	}
	return base + "..." + head
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// sortChanges puts silent spec changes first, then by row id.
func sortChanges(cs []BehaviorChange) {
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].SpecChange != cs[j].SpecChange {
			return cs[i].SpecChange
		}
		return cs[i].Row < cs[j].Row
	})
}

// writeFile writes one of the run's files atomically and records it.
func (p *run) writeFile(name string, data []byte) error {
	path := p.path(name)
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		return err
	}
	p.sum.Written = append(p.sum.Written, path)
	return nil
}

// gitTop is the top of dir's work tree, or the git directory of a bare
// repository (the files are written beside it).
func gitTop(ctx context.Context, dir string) (string, error) {
	r, err := git.Open(ctx, dir)
	if err != nil {
		return "", err
	}
	return r.Dir, nil
}

// gate runs the partition table on head and, so the reviewer sees the
// contrast, on base: a row that fails on base too is a wrong row, not a
// regression.
func (p *run) gate(ctx context.Context, table *validate.Table) error {
	cfg := p.gateConfig()
	head, err := p.headTree(ctx)
	if err != nil {
		return err
	}
	cfg.Repo = head
	cfg.Base = p.res.MergeBase
	cfg.Progress = p.rowProgress(StageGate, len(table.Rows))
	rep, err := gate.Run(ctx, cfg, table)
	if err != nil {
		return err
	}
	c := rep.Counts()
	g := &GateFigures{
		Rows: len(rep.Rows), Pass: c.Pass, Fail: c.Fail, Error: c.Error,
		Flakes: c.Flake, Frozen: c.Frozen, Exit: rep.Exit, Report: rep,
		Failing: []string{}, BaseFails: []string{},
	}
	for _, r := range rep.Rows {
		if r.Gates() && r.Status != gate.StatusPass {
			g.Failing = append(g.Failing, r.ID)
		}
	}
	// The same rows against base, for contrast; same_as_base rows hold
	// there by definition and are counted as passing.
	baseDir, cleanupBase, err := gate.AddWorktree(ctx, p.repoDir(), p.res.MergeBase)
	if err != nil {
		return err
	}
	defer cleanupBase()
	bcfg := p.gateConfig()
	bcfg.Repo = baseDir
	bcfg.Reruns = 1
	bt := *table
	bt.Rows = nil
	for _, r := range table.Rows {
		if r.SameAsBase {
			g.BasePass++
			continue
		}
		bt.Rows = append(bt.Rows, r)
	}
	if len(bt.Rows) > 0 {
		brep, err := gate.Run(ctx, bcfg, &bt)
		if err != nil {
			return err
		}
		for _, r := range brep.Rows {
			if r.Status == gate.StatusPass {
				g.BasePass++
			} else {
				g.BaseFails = append(g.BaseFails, r.ID)
			}
		}
	}
	p.sum.Gate = g
	switch rep.Exit {
	case 0:
		p.stop(StageDone, VerdictHolds, 0, "")
	case 2:
		p.stop(StageGate, VerdictBlocked, 2, rep.Verdict()+": replace frozen rows with deterministic ones (premise gate freeze --replacement)")
	default:
		next := fmt.Sprintf("rows %s fail on head", strings.Join(g.Failing, ", "))
		if len(g.BaseFails) == 0 {
			next += " and pass on base: the patch narrowed the function; see premise gate --json for each attempt"
		}
		p.stop(StageGate, VerdictFailed, rep.Exit, next)
	}
	return nil
}

func (p *run) repoDir() string {
	if p.cfg.Repo == "" {
		return "."
	}
	return p.cfg.Repo
}

// rowProgress reports each finished row of a stage of total rows.
func (p *run) rowProgress(stage string, total int) func(gate.RowResult) {
	if p.cfg.RowProgress == nil {
		return nil
	}
	done := 0
	return func(gate.RowResult) {
		done++
		p.cfg.RowProgress(stage, done, total)
	}
}

func (p *run) gateConfig() gate.Config {
	return gate.Config{
		Python:  p.cfg.Python,
		Timeout: p.cfg.Timeout,
		Reruns:  p.reruns(),
		Budget:  p.budget(),
		Seed:    p.cfg.Seed,
	}
}

func (p *run) budget() int {
	if p.cfg.Budget > 0 {
		return p.cfg.Budget
	}
	return gate.DefaultBudget
}
