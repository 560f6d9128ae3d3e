package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence"
	// Every language the engine judges, registered with the seam.
	_ "github.com/premise-dev/premise/evidence/languages"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/gate/reject"
	"github.com/premise-dev/premise/internal/atomicfile"
	"github.com/premise-dev/premise/internal/git"
	"github.com/premise-dev/premise/internal/settings"
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
	StageGuard      = "guard"
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
	// VerdictNothing: no row ran, so nothing was checked (exit 4, or 0
	// with Config.AllowEmpty).
	VerdictNothing  = "nothing was checked"
	VerdictAwaiting = "awaiting review"
	// VerdictUnexplained: evidence rows found a behaviour change on a
	// symbol no assumption covers.
	VerdictUnexplained = "unexplained behaviour change"
	VerdictHolds       = "the gate holds"
	VerdictFailed      = "the gate failed"
	VerdictBlocked     = "blocked by policy"
	VerdictCheck       = "the register check failed"
	// VerdictTodo: the gate's rows hold, but a decided item's row is one
	// premise could not write (a todo): that decision is not checked until
	// a person fills the row in (exit 4).
	VerdictTodo     = "not every decision was checked"
	VerdictRejected = "a must-reject fixture broke"
	// VerdictHeadBroken: the head does not import or build where the base
	// does.
	VerdictHeadBroken = "the head does not load"
)

// Config is one run's settings.
type Config struct {
	// Repo, Base and Head say which diff to read, as in diffparse.Config.
	Repo, Base, Head string
	// Out is where assumptions.yaml, partitions.yaml, draft.md and
	// .gate/frozen_rows.json live; the repository's top level when empty.
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
	// AllowEmpty makes a run that checked nothing exit 0, not 4.
	AllowEmpty bool
	// RejectBaseURL is the service the must-reject corpus's http entries
	// are sent to ($PREMISE_REJECT_BASE_URL when empty).
	RejectBaseURL string
	// Progress, if set, is told when each stage starts.
	Progress func(stage, detail string)
	// RowProgress, if set, is told after each row of the evidence and
	// gate stages, for a progress bar on a terminal.
	RowProgress func(stage string, done, total int)
	// CacheDir is where the evidence of a run is kept for the next run of
	// the same commits (evidencecache.go); "" keeps nothing.
	CacheDir string
}

// Summary is what a run found: the verdict, the figures, and the evidence
// gathered for the reviewer.
type Summary struct {
	Verdict string `json:"verdict"`
	Exit    int    `json:"exit"`
	Stage   string `json:"stage"`          // where the run stopped
	Next    string `json:"next,omitempty"` // what the user does next
	// Steps are every problem to fix when there are several (each finding
	// of the register check, each broken fixture), so a user fixes them in
	// one pass; Next then says the first.
	Steps []string `json:"steps"`

	Base      string `json:"base"`
	Head      string `json:"head"`
	MergeBase string `json:"merge_base"`

	Symbols int `json:"symbols"` // changed Python and Go symbols
	// ChangedSymbols names them, in diff order.
	ChangedSymbols []string `json:"changed_symbols"`
	Files          int      `json:"files"`

	Proposer string              `json:"proposer"`
	Proposed int                 `json:"proposed"` // rows the proposer returned
	Dropped  map[string]int      `json:"dropped"`  // by reason
	Merge    validate.MergeStats `json:"merge"`
	Statuses map[string]int      `json:"statuses"` // register items by status (stale ones apart)
	Usage    propose.Usage       `json:"usage"`
	Findings []propose.Finding   `json:"findings"`

	EvidenceRows int `json:"evidence_rows"`
	// EvidenceSymbols says, per changed symbol, how many evidence rows it
	// got, and why none when it got none.
	EvidenceSymbols []evidence.SymbolRows `json:"evidence_symbols"`
	// EvidenceSkipped says why evidence rows could not run, per language:
	// the code under review does not import or build on this machine.
	EvidenceSkipped []string `json:"evidence_skipped,omitempty"`
	// EvidenceNotes say what the evidence stage did without: a model that
	// gave no inputs.
	EvidenceNotes []string `json:"evidence_notes,omitempty"`
	// EvidenceCached says the evidence is an earlier run's of the same
	// commits, premise, settings and tools, read from the cache: no row
	// ran this time (--no-cache runs them).
	EvidenceCached bool `json:"evidence_cached,omitempty"`
	// HeadBroken says why the head does not import or build where the base
	// does: a finding that fails the run.
	HeadBroken      []string         `json:"head_broken,omitempty"`
	BehaviorChanges []BehaviorChange `json:"behavior_changes"`
	// Unexplained are behaviour changes found by signature-driven rows on
	// symbols no proposed assumption covers: findings the proposer missed.
	Unexplained []BehaviorChange `json:"unexplained_changes"`
	// Unstable are inputs whose output varies between reruns, or between
	// Python hash seeds, on one side: never counted as changes.
	Unstable []BehaviorChange `json:"unstable"`
	// NewFunctions are bugs the rows of functions the head adds raised
	// on the head (an index out of range on an input they take): not
	// behaviour changes, each for a reviewer to read.
	NewFunctions []BehaviorChange `json:"new_function_findings"`
	// OutsideType are differences seen only on inputs outside a
	// parameter's type as the code reads it (a list where the body calls
	// the parameter): no caller can pass them, so no decision waits on
	// them; each says why.
	OutsideType []BehaviorChange `json:"outside_type"`

	// Timings say how long each stage ran, in order, in seconds; the
	// traced run of the base's tests is also given apart, as a part of
	// the evidence stage.
	Timings []StageTime `json:"timings"`

	// Unsigned are the commits that change a file premise judges by with no
	// reviewer's sign-off, as premise guard prints them.
	Unsigned []string `json:"unsigned,omitempty"`

	Check  *validate.CheckReport `json:"check,omitempty"`
	Reject string                `json:"reject,omitempty"` // the must-reject corpus's count, when there is one
	Gate   *GateFigures          `json:"gate,omitempty"`

	Written []string `json:"written"` // files this run wrote
	// Seed is the seed of the gate's metamorphic shuffles, so a failure
	// replays with --seed.
	Seed int64 `json:"seed"`

	reg  *validate.Register // the register as the run left it, for WriteGitHub
	diff *diffparse.Result  // where each changed symbol is, for WriteGitHub
}

// BehaviorChange is one input on which head and base behave differently.
type BehaviorChange = evidence.Change

// GateFigures are the gate's counts on head and, for the reviewer, on base.
type GateFigures struct {
	Rows      int      `json:"rows"`
	Pass      int      `json:"pass"`
	Fail      int      `json:"fail"`
	Error     int      `json:"error"`
	Flakes    int      `json:"flakes"`
	Frozen    int      `json:"frozen"`
	Todo      int      `json:"todo"`       // rows nobody finished: nothing ran
	Failing   []string `json:"failing"`    // row ids that gate on head
	BasePass  int      `json:"base_pass"`  // rows that pass against the base revision
	BaseFails []string `json:"base_fails"` // rows that fail against base too: the table, not the patch, is wrong
	// BaseDiffers are rows pinning an accepted change (the head's outcome
	// on its witness) that the base does not keep: what the reviewer
	// accepted, not a wrong row.
	BaseDiffers []string     `json:"base_differs"`
	Exit        int          `json:"exit"`
	Report      *gate.Report `json:"-"`
}

// Run runs the pipeline: each stage's own entry point, in order, each
// handed what the earlier ones computed (the diff is read once, the head
// and the merge-base are checked out once). The error means a stage could
// not run at all (exit 3); every verdict, including a failing gate, is in
// the Summary.
func Run(ctx context.Context, cfg Config) (*Summary, error) {
	p := &run{cfg: cfg, sum: &Summary{Dropped: map[string]int{}, Statuses: map[string]int{}, Seed: cfg.Seed, Steps: []string{}, Timings: []StageTime{}}}
	if p.cfg.Proposer == nil {
		p.cfg.Proposer = propose.NewStatic()
	}
	err := p.do(ctx)
	p.lap("")
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

	head, base string // checkouts of the head commit and the merge-base, made once
	cleanups   []func()
	judged     judged // the files the verdict depends on, as premise last saw them
	drafted    bool   // draft.md was written once this run

	stage   string    // the stage running, for Timings
	started time.Time // when it started
	traced  float64   // seconds of the evidence stage spent tracing the base's tests

	// unfilled are the register check's findings of rows premise could
	// not write (todo rows): the gate runs the others, and the decisions
	// these are for are not checked until a person fills them in.
	unfilled []validate.Finding
}

func (p *run) do(ctx context.Context) error {
	p.progress(StageDiff, "reading the diff")
	if err := p.diff(ctx); err != nil {
		return err
	}
	p.progress(StageGuard, "protected paths")
	if ok, err := p.guard(ctx); !ok {
		return err
	}
	if p.sum.Symbols == 0 && !evidence.HasTargets(p.res) && !p.readsChangedData(ctx) {
		// Seed 004: "An empty partition table is a signal to skip the
		// ritual, not a signal to pad it." A patch that changes only
		// module-level data still has evidence: the functions reading it.
		if unread := unreadFiles(p.res); len(unread) > 0 {
			// A changed file premise cannot parse names no symbol, yet
			// its interpreter may run it: nothing in it was checked, and
			// --allow-empty, for patches that change no code, does not
			// make that a pass.
			p.stop(StageDiff, VerdictUnchecked, 4, fmt.Sprintf("premise could not read %s, so the %s changes were not checked: premise cannot say the gate holds for %s",
				strings.Join(unread, "; "), plural(len(unread), "file's", "files'"), plural(len(unread), "it", "them")))
			return nil
		}
		p.nothing(StageDiff, "the patch changes no Python, Go, JavaScript or TypeScript function, method or type")
		return nil
	}
	p.judged = judged{}
	// A judged file that links outside the repository (or outside --out,
	// when that is elsewhere) is refused unread (issue 26, item 6).
	root := p.out
	if gate.Inside(p.out, p.repoDir()) == nil {
		root = p.repoDir()
	}
	for _, name := range []string{RegisterFile, PartitionsFile, gate.DefaultFreezesPath} {
		if err := gate.Inside(p.path(name), root); err != nil {
			return err
		}
		if err := p.judged.record(p.path(name)); err != nil {
			return err
		}
	}
	for _, path := range gitOwnFiles(ctx, p.repoDir()) {
		if err := p.judged.record(path); err != nil {
			return err
		}
	}
	p.progress(StagePropose, p.cfg.Proposer.Name())
	if err := p.propose(ctx); err != nil {
		return err
	}
	p.progress(StageEvidence, "running boundary rows against base and head")
	if err := p.evidence(ctx); err != nil {
		return err
	}
	if err := p.changes(ctx); err != nil {
		return err
	}
	if ok, err := p.untouched(StageEvidence); !ok {
		return err
	}
	if err := p.writeDraft(); err != nil {
		return err
	}
	if len(p.sum.HeadBroken) > 0 {
		p.stop(StageEvidence, VerdictHeadBroken, 1, "the base loads and the head does not ("+p.sum.HeadBroken[0]+"): the patch must import and build where its base does")
		if len(p.sum.HeadBroken) > 1 {
			p.sum.Steps = append(p.sum.Steps, p.sum.HeadBroken...)
		}
		return nil
	}
	if p.awaitingReview() {
		return nil
	}
	p.progress(StagePartitions, "partition rows for accepted assumptions")
	if err := p.partitions(ctx); err != nil {
		return err
	}
	p.progress(StageCheck, "register check")
	rows, err := p.check()
	if err != nil || p.sum.Stage != "" {
		return err
	}
	if rows == 0 {
		p.noRows()
		return nil
	}
	if err := p.checkouts(ctx); err != nil {
		return err
	}
	p.progress(StageReject, "must-reject corpus")
	if held, err := p.reject(ctx); err != nil || !held {
		return err
	}
	if ok, err := p.untouched(StageReject); !ok {
		return err
	}
	p.progress(StageGate, fmt.Sprintf("%d rows x %d reruns", rows, p.reruns()))
	return p.gate(ctx, rows)
}

// diff reads the diff once; every later stage is handed it.
func (p *run) diff(ctx context.Context) error {
	res, err := diffparse.Load(ctx, diffparse.Config{Repo: p.cfg.Repo, Base: p.cfg.Base, Head: p.cfg.Head})
	if err != nil {
		return err
	}
	p.res = res
	p.sum.diff = res
	p.sum.Base, p.sum.Head, p.sum.MergeBase = res.Base, res.Head, res.MergeBase
	p.sum.Files = len(res.Files)
	p.sum.ChangedSymbols = []string{}
	for _, f := range res.Files {
		p.sum.Symbols += len(f.Symbols)
		for _, s := range f.Symbols {
			p.sum.ChangedSymbols = append(p.sum.ChangedSymbols, s.Name)
		}
	}
	p.out, err = p.outDir(ctx)
	return err
}

// guard is the guard stage (reject.GuardRepo): a patch that changes a file
// premise judges by (the register, the table, the settings, the corpus)
// without a reviewer's sign-off is blocked before anything is read from
// it.
func (p *run) guard(ctx context.Context) (bool, error) {
	rep, _, err := reject.GuardRepo(ctx, reject.GuardOptions{Repo: p.repoDir(), Base: p.cfg.Base, Head: p.res.Head})
	if err != nil {
		return false, err
	}
	blocked := rep.Blocked()
	if len(blocked) == 0 {
		return true, nil
	}
	for _, c := range blocked {
		p.sum.Unsigned = append(p.sum.Unsigned, fmt.Sprintf("%.12s %s: changes %s", c.SHA, c.Subject, strings.Join(c.Paths, ", ")))
	}
	p.stop(StageGuard, VerdictBlocked, 2, fmt.Sprintf("%d %s a file premise judges by without a trusted sign-off (%s): see premise guard",
		len(blocked), plural(len(blocked), "commit changes", "commits change"), p.sum.Unsigned[0]))
	return false, nil
}

// propose is the propose stage (propose.Update) on the diff in hand.
func (p *run) propose(ctx context.Context) error {
	up, err := propose.Update(ctx, propose.UpdateConfig{
		Register: p.path(RegisterFile), Diff: p.res, Proposer: p.cfg.Proposer,
		PatchRef: propose.PatchRef(ctx, p.repoDir(), p.cfg.Base, p.cfg.Head, ""),
	})
	if err != nil {
		return err
	}
	p.sum.Written = append(p.sum.Written, p.path(RegisterFile))
	if err := p.judged.record(p.path(RegisterFile)); err != nil {
		return err
	}
	p.reg = up.Register
	p.sum.reg = up.Register
	p.sum.Proposer = up.Proposer
	p.sum.Proposed = len(up.Draft.Kept) + len(up.Draft.Dropped)
	for _, d := range up.Draft.Dropped {
		p.sum.Dropped[d.Reason]++
	}
	p.sum.Usage, p.sum.Findings, p.sum.Merge = up.Draft.Usage, up.Draft.Findings, up.Merge
	for _, it := range up.Register.Items {
		if it.Stale {
			p.sum.Statuses["stale"]++
			continue
		}
		p.sum.Statuses[it.Status]++
	}
	return nil
}

// evidence is the evidence stage (evidence.Run) on the shared checkouts.
func (p *run) evidence(ctx context.Context) error {
	// The budgets come from the merge-base's settings: a patch that sets
	// them to one row has not switched its evidence off.
	st, err := settings.LoadAt(ctx, p.repoDir(), p.res.MergeBase)
	if p.res.MergeBase == "" {
		st, err = settings.Load(p.repoDir())
	}
	if err != nil {
		return err
	}
	if v := os.Getenv("PREMISE_SEARCH_SECONDS"); v != "" {
		// The user's own setting, over the merge-base's (README).
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return fmt.Errorf("PREMISE_SEARCH_SECONDS=%q: want a whole number of seconds, 0 to turn the searches off", v)
		}
		st.Evidence.SearchSeconds = &n
	}
	cfg := evidence.Config{
		Diff: p.res, Register: p.reg,
		Gate:               p.gateConfig(),
		Progress:           p.rowProgress(StageEvidence),
		MaxRowsPerFunction: st.Evidence.MaxRowsPerFunction,
		MaxRows:            st.Evidence.MaxRows,
		Inputs:             modelInputs(p.cfg.Proposer),
		TraceSeconds:       offSeconds(st.Evidence.TraceSeconds),
		RowSeconds:         st.Evidence.RowSeconds,
		FunctionSeconds:    st.Evidence.FunctionSeconds,
		SearchSeconds:      offSeconds(st.Evidence.SearchSeconds),
		CacheKey:           p.evidenceKey(ctx, st.Evidence),
		CacheDir:           p.cfg.CacheDir,
	}
	rep, ok := evidence.Cached(cfg)
	if !ok {
		if evidence.HasTargets(p.res) || evidence.ChangesData(p.res) {
			// Checking out a large repository twice costs more than the
			// rest of a small run: only when there is something to run.
			if err := p.checkouts(ctx); err != nil {
				return err
			}
		}
		cfg.HeadDir, cfg.BaseDir = p.head, p.base
		if rep, err = evidence.Run(ctx, cfg); err != nil {
			return err
		}
	}
	p.sum.EvidenceRows, p.sum.EvidenceSymbols = rep.Rows, rep.Symbols
	p.sum.EvidenceSkipped, p.sum.HeadBroken = rep.Skipped, rep.HeadBroken
	p.sum.EvidenceNotes, p.sum.EvidenceCached = rep.Notes, rep.Cached
	if rep.TracedSeconds > 0 {
		p.traced = rep.TracedSeconds
	}
	p.sum.BehaviorChanges, p.sum.Unexplained = rep.Changes, rep.Unexplained
	p.sum.Unstable, p.sum.NewFunctions = rep.Unstable, rep.NewFunctions
	if p.sum.Unstable == nil {
		p.sum.Unstable = []BehaviorChange{}
	}
	if p.sum.NewFunctions == nil {
		p.sum.NewFunctions = []BehaviorChange{}
	}
	p.sum.OutsideType = rep.OutsideType
	if p.sum.OutsideType == nil {
		p.sum.OutsideType = []BehaviorChange{}
	}
	return nil
}

// undecided are the changes no change item of the register holds (one a
// row cannot replay: a crash on one side).
func (p *run) undecided(cs []BehaviorChange) []BehaviorChange {
	held := map[string]bool{}
	for _, it := range p.reg.Items {
		if validate.IsChange(it.ID) && !it.Stale {
			held[it.Symbol+"\x00"+it.Way] = true
		}
	}
	var out []BehaviorChange
	for _, f := range cs {
		sym := f.Symbol
		if len(f.Cause) > 0 {
			sym = f.Cause[0]
		}
		if f.Call == nil || !held[sym+"\x00"+validate.WayOf(f.BaseOutcome, f.HeadOutcome)] {
			out = append(out, f)
		}
	}
	return out
}

// changes records the evidence's findings in the register (issue 25):
// each way a symbol's behaviour changed is a change item (C001), decided
// with the same verbs as an assumption; decisions already made are kept,
// and items the run no longer sees are marked stale.
func (p *run) changes(ctx context.Context) error {
	found := evidence.Findings(append(append([]BehaviorChange{}, p.sum.BehaviorChanges...), p.sum.Unexplained...), p.reg)
	var merged *validate.Register
	err := validate.UpdateRegister(ctx, p.path(RegisterFile), func(now *validate.Register) (*validate.Register, error) {
		if now == nil {
			now = p.reg
		}
		has := false
		for _, it := range now.Items {
			has = has || validate.IsChange(it.ID)
		}
		if len(found) == 0 && !has {
			merged = now
			return nil, nil
		}
		merged, _ = validate.MergeChanges(now, found)
		return merged, nil
	})
	if err != nil {
		return err
	}
	p.reg, p.sum.reg = merged, merged
	ids := map[string]string{}
	for _, it := range merged.Items {
		if validate.IsChange(it.ID) && !it.Stale {
			ids[it.Symbol+"\x00"+it.Way] = it.ID
		}
	}
	for _, cs := range [][]BehaviorChange{p.sum.BehaviorChanges, p.sum.Unexplained} {
		for i := range cs {
			sym := cs[i].Symbol
			if len(cs[i].Cause) > 0 {
				sym = cs[i].Cause[0]
			}
			if cs[i].Call != nil {
				cs[i].Item = ids[sym+"\x00"+validate.WayOf(cs[i].BaseOutcome, cs[i].HeadOutcome)]
			}
		}
	}
	p.sum.Statuses = map[string]int{}
	for _, it := range merged.Items {
		if it.Stale {
			p.sum.Statuses["stale"]++
			continue
		}
		p.sum.Statuses[it.Status]++
	}
	return p.judged.record(p.path(RegisterFile))
}

// offSeconds is a time setting that 0 turns off (trace_seconds,
// search_seconds) as evidence.Config takes it: the default when the
// settings name none, off (negative) when they say 0.
func offSeconds(t *int) int {
	switch {
	case t == nil:
		return 0
	case *t == 0:
		return -1
	}
	return *t
}

// modelInputs asks the proposer's model for evidence inputs; nil for the
// static proposer, which has none to give.
func modelInputs(pr propose.Proposer) evidence.InputsFunc {
	o, ok := pr.(*propose.OpenAI)
	if !ok {
		return nil
	}
	return func(ctx context.Context, q evidence.InputsQuestion) ([]evidence.ModelCall, error) {
		calls, _, err := o.Inputs(ctx, propose.InputsRequest{Symbol: q.Symbol, Language: q.Language, Params: q.Params,
			Assumptions: q.Assumptions, Source: q.Source, BaseSource: q.BaseSource, Max: q.Max})
		out := make([]evidence.ModelCall, len(calls))
		for i, c := range calls {
			out[i] = evidence.ModelCall{Args: c.Args, Kwargs: c.Kwargs}
		}
		return out, err
	}
}

// ModelRows asks the proposer's model for partition rows of accepted
// assumptions (issue 13, part 10); nil for the static proposer.
func ModelRows(pr propose.Proposer) evidence.RowsFunc {
	o, ok := pr.(*propose.OpenAI)
	if !ok {
		return nil
	}
	return func(ctx context.Context, q evidence.RowsQuestion) ([]validate.Row, error) {
		req := propose.RowsRequest{Symbol: q.Target, Language: q.Language, Params: q.Params,
			Source: q.Source, Templates: q.Templates, Max: q.Max}
		for _, it := range q.Assumptions {
			req.Assumptions = append(req.Assumptions, propose.RowAssumption{ID: it.ID, Precondition: it.Precondition})
		}
		rows, _, err := o.Rows(ctx, req)
		return rows, err
	}
}

// awaitingReview stops the run while assumptions await a decision, or
// while a behaviour change no assumption names is unexplained.
func (p *run) awaitingReview() bool {
	ids := p.reg.Awaiting()
	if awaiting := len(ids); awaiting > 0 {
		changes := 0
		for _, id := range ids {
			if validate.IsChange(id) {
				changes++
			}
		}
		p.stop(StageReview, VerdictAwaiting, 1, fmt.Sprintf("%d %s a decision (%d %s, %d %s: %s): premise review, or premise accept ID (a change is intended; an assumption is legitimate) / premise reject ID --note TEXT (a change is a regression; the patch must not rely on an assumption), then premise run again",
			awaiting, plural(awaiting, "item awaits", "items await"), changes, plural(changes, "behaviour change", "behaviour changes"),
			awaiting-changes, plural(awaiting-changes, "assumption", "assumptions"), strings.Join(ids, ", ")))
		return true
	}
	if unexplained := p.undecided(p.sum.Unexplained); len(unexplained) > 0 {
		// A behaviour change no assumption names and no change item holds
		// cannot pass silently: the evidence must not depend on the
		// proposer alone (issue 7).
		c := unexplained[0]
		p.stop(StageReview, VerdictUnexplained, 1, fmt.Sprintf("%s behaves differently from the base on %d %s (e.g. %s: base %s, head %s) and no assumption names it: name what the patch assumes with premise assume %s --precondition TEXT, or fix the patch",
			c.Symbol, len(p.sum.Unexplained), plural(len(p.sum.Unexplained), "input", "inputs"), inputText(c.Symbol, c.Input), c.Base, c.Head, c.Symbol))
		return true
	}
	return false
}

// partitions is the partitions stage (evidence.Extend).
func (p *run) partitions(ctx context.Context) error {
	cfg := evidence.ExtendConfig{
		Register: p.path(RegisterFile), Partitions: p.path(PartitionsFile), Diff: p.res,
		ModelRows: ModelRows(p.cfg.Proposer),
	}
	if cfg.ModelRows != nil {
		cfg.CheckOnBase = evidence.CheckOnBase(p.gateConfig(), p.base)
	}
	ext, err := evidence.Extend(ctx, cfg)
	if err != nil {
		return err
	}
	p.sum.EvidenceNotes = append(p.sum.EvidenceNotes, ext.Notes...)
	for _, d := range ext.Dropped {
		p.sum.EvidenceNotes = append(p.sum.EvidenceNotes, fmt.Sprintf("model row %s for %s dropped: %s", d.Input, d.Target, d.Reason))
	}
	if ext.Written {
		p.sum.Written = append(p.sum.Written, p.path(PartitionsFile))
	}
	return p.judged.record(p.path(PartitionsFile))
}

// check is the register check (validate.CheckPaths) on the files premise
// check reads; it returns the table's row count.
func (p *run) check() (int, error) {
	res, err := validate.CheckPaths(validate.CheckFiles{
		Register: p.path(RegisterFile), Partitions: p.path(PartitionsFile),
		Freezes: p.path(gate.DefaultFreezesPath), Head: p.res.Head,
		MergeBase: p.res.MergeBase, DescendsFrom: p.descendsFrom,
	})
	if err != nil {
		return 0, err
	}
	p.sum.Check = res.CheckReport
	// A row premise could not write is not an invalid register: the gate
	// runs the other rows and gives its verdict, and the decision the row
	// is for is reported as not checked, with how to fill it in.
	p.unfilled = res.Unfilled()
	if failing := res.Failing(); len(failing) > 0 {
		p.stop(StageCheck, VerdictCheck, 1, "fix what premise check reports: "+failing[0].String())
		for _, f := range res.Findings {
			p.sum.Steps = append(p.sum.Steps, "premise check: "+f.String())
		}
	}
	return len(res.Table.Rows), nil
}

// todoRows are the ids of the rows premise could not write.
func (p *run) todoRows() map[string]bool {
	ids := map[string]bool{}
	for _, f := range p.unfilled {
		ids[f.ID] = true
	}
	return ids
}

// notChecked ends a run whose rows hold but for the todo rows: the
// decisions they are for are not checked (exit 4), and each step says how
// to fill one in.
func (p *run) notChecked(rows int) {
	lead := "the other rows hold; "
	if rows <= len(p.unfilled) {
		lead = "no other row to run; "
	}
	next := lead + p.unfilled[0].String()
	if n := len(p.unfilled) - 1; n > 0 {
		next += fmt.Sprintf(" (and %d more %s, each in steps)", n, plural(n, "row", "rows"))
	}
	// A changed symbol no row ran is not checked either: said beside it,
	// as the run says it when every decision has its rows.
	var left []string
	for _, s := range p.sum.EvidenceSymbols {
		if s.Unchecked {
			left = append(left, s.Symbol+": "+s.Why)
		}
	}
	if len(left) > 0 {
		next += fmt.Sprintf("; and %d changed %s got no evidence row that ran its changed lines (in steps)", len(left), plural(len(left), "symbol", "symbols"))
	}
	p.stop(StageGate, VerdictTodo, 4, next)
	p.todoSteps()
	for _, l := range left {
		p.sum.Steps = append(p.sum.Steps, "not checked: "+l)
	}
}

// todoSteps lists every row premise could not write, with how to fill it.
func (p *run) todoSteps() {
	for _, f := range p.unfilled {
		p.sum.Steps = append(p.sum.Steps, "not checked: "+f.String())
	}
}

// descendsFrom reports whether the head is commit or descends from it.
func (p *run) descendsFrom(commit string) bool {
	_, err := git.At(p.repoDir()).Run(context.Background(), "merge-base", "--is-ancestor", commit, p.res.Head)
	return err == nil
}

// reject is the must-reject stage (reject.RunCorpus), before the gate as
// seed 000's CI order has it; a repository without a lockfile has none.
func (p *run) reject(ctx context.Context) (bool, error) {
	rep, lockPath, err := reject.RunCorpus(ctx, reject.Options{
		Repo: p.head, Python: p.cfg.Python, BaseURL: p.cfg.RejectBaseURL, Private: true,
	})
	switch {
	case errors.Is(err, reject.ErrNoLock):
		p.sum.Reject = p.uncommittedCorpus(ctx, lockPath)
		return true, nil
	case err != nil:
		return false, err
	}
	p.sum.Reject = fmt.Sprintf("held=%d broken=%d", rep.Held, rep.Broken)
	if rep.Holds() {
		return true, nil
	}
	first := true
	for _, r := range rep.Results {
		if !r.Held {
			broken := fmt.Sprintf("BROKEN %s %s", r.ID, strings.Join(strings.Fields(r.Detail), " "))
			if first {
				p.sum.Reject += "; " + broken
				first = false
			}
			p.sum.Steps = append(p.sum.Steps, broken)
		}
	}
	p.stop(StageReject, VerdictRejected, 1, p.sum.Reject+": see premise reject run")
	return false, nil
}

// uncommittedCorpus says why the must-reject corpus was skipped when the
// head commit has no lockfile but the work tree does (issue 25: run skipped
// it in silence while premise reject run, reading the work tree, said
// BROKEN): run judges commits, never edits it has not seen committed; ""
// when the work tree has none either.
func (p *run) uncommittedCorpus(ctx context.Context, lockPath string) string {
	rel, err := filepath.Rel(p.head, lockPath)
	if err != nil || strings.HasPrefix(rel, "..") {
		return ""
	}
	top, err := git.At(p.repoDir()).Top(ctx)
	if err != nil {
		return ""
	}
	if _, err := os.Stat(filepath.Join(top, rel)); err != nil {
		return ""
	}
	return fmt.Sprintf("skipped: %s is in the work tree but not in the head commit %.12s, and premise run judges commits: commit the corpus (a protected path: with a reviewer's Signed-off-by) to have run hold it; premise reject run reads the work tree", rel, p.res.Head)
}

// gate is the gate stage (gate.RunFile, as premise gate calls it) on head,
// then the same rows once on base so the reviewer sees the contrast: a row
// that fails on base too is a wrong row, not a regression.
func (p *run) gate(ctx context.Context, rows int) error {
	cfg := p.gateConfig()
	cfg.Repo, cfg.BaseDir = p.head, p.base
	if f := p.rowProgress(StageGate); f != nil {
		done := 0
		cfg.Progress = func(gate.RowResult) { done++; f(done, rows) }
	}
	cfg.FreezesFile = p.path(gate.DefaultFreezesPath)
	rep, err := gate.RunFile(ctx, cfg, p.path(PartitionsFile))
	if err != nil {
		return err
	}
	if ok, err := p.untouched(StageGate); !ok {
		return err
	}
	g, err := p.contrast(ctx, rep)
	if err != nil {
		return err
	}
	p.sum.Gate = g
	defer func() {
		// The draft is written again with the gate's verdict and failing
		// rows (issue 25), once the verdict below is set.
		if err := p.writeDraft(); err != nil {
			p.sum.Steps = append(p.sum.Steps, "draft.md: "+err.Error())
		}
	}()
	todo := p.todoRows()
	var failing, baseFails []string
	for _, id := range g.Failing {
		if !todo[id] {
			failing = append(failing, id)
		}
	}
	for _, id := range g.BaseFails {
		if !todo[id] {
			baseFails = append(baseFails, id)
		}
	}
	switch {
	case rep.Exit == 2:
		p.stop(StageGate, VerdictBlocked, 2, rep.Verdict()+": replace frozen rows with deterministic ones (premise gate freeze --replacement)")
		p.todoSteps()
	case len(p.unfilled) > 0 && len(failing) == 0 && len(g.Failing) > 0:
		// Only the rows premise could not write fail (the gate errs on a
		// todo row): the verdict is theirs, not "the gate failed".
		p.notChecked(g.Rows)
	case rep.Exit == 0:
		if len(p.unfilled) > 0 {
			p.notChecked(g.Rows)
			return nil
		}
		if p.unchecked(StageDone) {
			return nil
		}
		p.stop(StageDone, VerdictHolds, 0, "")
	default:
		errored, why := map[string]bool{}, ""
		for _, r := range rep.Rows {
			if r.Status == gate.StatusError {
				errored[r.ID] = true
				if why == "" {
					why = r.Why
				}
			}
		}
		next := fmt.Sprintf("rows %s fail on head", strings.Join(failing, ", "))
		if len(failing) > 0 && !slices.ContainsFunc(failing, func(id string) bool { return !errored[id] }) {
			// Rows that could not run decide nothing of the patch: the
			// run says what stopped them, never that it narrowed.
			next = fmt.Sprintf("rows %s could not run, so the gate cannot hold: %s", strings.Join(failing, ", "), why)
		} else if len(baseFails) == 0 {
			next += " and pass on base: the patch narrowed the function; see premise gate --json for each attempt"
		}
		p.stop(StageGate, VerdictFailed, rep.Exit, next)
		p.todoSteps()
	}
	return nil
}

// contrast counts the head report and runs its rows once against the
// base; same_as_base rows hold there by definition and count as passing.
func (p *run) contrast(ctx context.Context, rep *gate.Report) (*GateFigures, error) {
	c := rep.Counts()
	g := &GateFigures{
		Rows: len(rep.Rows), Pass: c.Pass, Fail: c.Fail, Error: c.Error,
		Flakes: c.Flake, Frozen: c.Frozen, Todo: c.Todo, Exit: rep.Exit, Report: rep,
		Failing: []string{}, BaseFails: []string{}, BaseDiffers: []string{},
	}
	for _, r := range rep.Rows {
		if r.Gates() && r.Status != gate.StatusPass {
			g.Failing = append(g.Failing, r.ID)
		}
	}
	table, err := validate.LoadTable(p.path(PartitionsFile))
	if err != nil {
		return nil, err
	}
	bt := *table
	bt.Rows = nil
	for _, r := range table.Rows {
		switch {
		case r.SameAsBase:
			g.BasePass++
			continue
		case r.Todo != "":
			continue // nothing to run on either side: a person fills it in
		case r.Test != "":
			// A test row runs one of the merge-base's own tests, which the
			// base passes (the evidence saw it pass twice there); a run on
			// the base alone has no base's tests to lay over it, and would
			// count every such row as failing there.
			if r.Expect != nil && r.Expect.Outcome == validate.OutcomePassed {
				g.BasePass++
			} else {
				g.baseFailed(r)
			}
			continue
		}
		bt.Rows = append(bt.Rows, r)
	}
	if len(bt.Rows) == 0 {
		return g, nil
	}
	bcfg := p.gateConfig()
	bcfg.Repo, bcfg.Reruns = p.base, 1
	brep, err := gate.Run(ctx, bcfg, &bt)
	if err != nil {
		return nil, err
	}
	for _, r := range brep.Rows {
		switch row := table.Lookup(r.ID); {
		case r.Status == gate.StatusPass:
			g.BasePass++
		case row != nil:
			g.baseFailed(*row)
		default:
			g.BaseFails = append(g.BaseFails, r.ID)
		}
	}
	return g, nil
}

// baseFailed files a row that does not hold on the base: one pinning an
// accepted change differs there by the reviewer's decision; any other
// fails there too.
func (g *GateFigures) baseFailed(r validate.Row) {
	if r.Decision == validate.StatusAccepted && r.Expect != nil {
		g.BaseDiffers = append(g.BaseDiffers, r.ID)
		return
	}
	g.BaseFails = append(g.BaseFails, r.ID)
}

// readsChangedData reports whether the patch changes a data file some
// function of the head names (evidence/datafiles.go): then, though no
// function changed, the functions reading it are compared.
func (p *run) readsChangedData(ctx context.Context) bool {
	if !evidence.ChangesData(p.res) || p.checkouts(ctx) != nil {
		return false
	}
	return evidence.ReadsChangedData(p.res, p.head, p.base)
}

// checkouts checks the head commit and the merge-base out once per run, so
// the rows run against the patch as committed, whatever the work tree
// holds, and the evidence and gate stages share them.
func (p *run) checkouts(ctx context.Context) error {
	if p.head != "" {
		return nil
	}
	for _, c := range []struct {
		rev string
		dir *string
	}{{p.res.Head, &p.head}, {p.res.MergeBase, &p.base}} {
		dir, cleanup, err := gate.Checkout(ctx, p.repoDir(), c.rev)
		if err != nil {
			return err
		}
		*c.dir = dir
		p.cleanups = append(p.cleanups, cleanup)
	}
	return nil
}

// StageTime is how long one stage of a run took.
type StageTime struct {
	Stage   string  `json:"stage"`
	Seconds float64 `json:"seconds"`
}

// VerdictUnchecked: the rows that ran hold (if any did), but a changed
// symbol that should have had evidence rows got none (the budget, no
// value, its module not importing on either side, a program's main):
// premise cannot say the gate holds for it (issue 26, item 4). Exit 4,
// whatever --allow-empty says: that flag is for a patch with nothing to
// check, not for one premise could not check.
const VerdictUnchecked = "not every changed symbol was checked"

// unchecked stops the run, naming them, when a changed symbol got no
// evidence row it should have had; it reports whether it stopped.
func (p *run) unchecked(stage string) bool {
	var left []string
	for _, s := range p.sum.EvidenceSymbols {
		if s.Unchecked {
			left = append(left, s.Symbol+": "+s.Why)
		}
	}
	if len(left) == 0 {
		return false
	}
	ran := "the rows that ran hold, but"
	if p.sum.EvidenceRows == 0 {
		ran = "no evidence row ran:"
	}
	p.stop(stage, VerdictUnchecked, 4, fmt.Sprintf("%s %d changed %s got no evidence row, not all of its rows, or none that ran its changed lines (%s): premise cannot say the gate holds for %s",
		ran, len(left), plural(len(left), "symbol", "symbols"), strings.Join(left, "; "), plural(len(left), "it", "them")))
	return true
}

// unreadFiles are the changed files of a judged language premise could
// not parse, each with why ("m.py (syntax error at line 2)").
func unreadFiles(res *diffparse.Result) []string {
	var out []string
	for _, f := range res.Files {
		if f.ParseError != "" && f.Language != "" && f.Excluded == "" {
			out = append(out, fmt.Sprintf("%s (%s)", f.Path, f.ParseError))
		}
	}
	return out
}

// nothing stops a run that checked nothing: exit 4, or 0 when the user
// allows it. A run that ran no row must never read as a gate that holds.
func (p *run) nothing(stage, why string) {
	exit := 4
	if p.cfg.AllowEmpty {
		exit = 0
	}
	p.stop(stage, VerdictNothing, exit, why+": nothing was checked (--allow-empty makes this exit 0)")
}

// noRows ends a run whose table has no rows to gate, saying truly why.
func (p *run) noRows() {
	accepted, rejected := p.sum.Statuses[validate.StatusAccepted], p.sum.Statuses[validate.StatusRejected]
	why := "nothing was proposed"
	switch {
	case accepted > 0:
		why = fmt.Sprintf("%d accepted %s but no partition rows", accepted, plural(accepted, "assumption", "assumptions"))
	case rejected > 0:
		why = fmt.Sprintf("every assumption was rejected (%d)", rejected)
	}
	byTests := 0 // symbols the base's tests checked, where no row could
	for _, s := range p.sum.EvidenceSymbols {
		if c := s.Coverage; !s.Unchecked && c != nil && (c.Head != nil && c.Head.ByTests > 0 || c.Base != nil && c.Base.ByTests > 0) {
			byTests++
		}
	}
	if p.sum.EvidenceRows == 0 && byTests == 0 {
		// A changed function premise could not check (its package a
		// program, no value to build, its module not loading) is never
		// "nothing to check", which --allow-empty passes.
		if p.unchecked(StageCheck) {
			return
		}
		var none []string
		for _, s := range p.sum.EvidenceSymbols {
			if s.Rows == 0 {
				none = append(none, s.Symbol+": "+s.Why)
			}
		}
		if len(none) > 0 {
			why += "; no evidence row ran (" + strings.Join(none, "; ") + ")"
		} else {
			why += "; no evidence row ran"
		}
		p.nothing(StageCheck, why)
		return
	}
	if p.unchecked(StageCheck) {
		return
	}
	if p.sum.EvidenceRows == 0 {
		// No row could call the change (its parameters are interfaces),
		// but the merge-base's tests ran its changed lines on both sides
		// and agreed: checked, through them.
		p.stop(StageCheck, VerdictHolds, 0, fmt.Sprintf("%s: no rows to gate; no evidence row could be built, and the base's tests ran the changed lines of %d %s on base and head and found no behaviour change", why, byTests, plural(byTests, "symbol", "symbols")))
		return
	}
	p.stop(StageCheck, VerdictHolds, 0, fmt.Sprintf("%s: no rows to gate; %d evidence rows ran on base and head and found no behaviour change", why, p.sum.EvidenceRows))
}

func (p *run) progress(stage, detail string) {
	p.lap(stage)
	if p.cfg.Progress != nil {
		p.cfg.Progress(stage, detail)
	}
}

// lap ends the running stage's clock in Timings and starts next's; the
// evidence stage's time is followed by the part of it the traced test
// run took.
func (p *run) lap(next string) {
	now := time.Now()
	if p.stage != "" {
		p.sum.Timings = append(p.sum.Timings, StageTime{Stage: p.stage, Seconds: now.Sub(p.started).Seconds()})
		if p.stage == StageEvidence && p.traced > 0 {
			p.sum.Timings = append(p.sum.Timings, StageTime{Stage: StageEvidence + ": traced tests", Seconds: p.traced})
		}
	}
	p.stage, p.started = next, now
}

func (p *run) stop(stage, verdict string, exit int, next string) {
	p.sum.Stage, p.sum.Verdict, p.sum.Exit, p.sum.Next = stage, verdict, exit, next
}

// outDir is where the run's files live: --out, else the top of the work
// tree whatever directory of it the run started in (the git directory for
// a bare repository).
func (p *run) outDir(ctx context.Context) (string, error) {
	if p.cfg.Out != "" {
		return p.cfg.Out, nil
	}
	r, err := git.Open(ctx, p.repoDir())
	if err != nil {
		return "", err
	}
	return r.Top(ctx)
}

func (p *run) path(name string) string { return filepath.Join(p.out, name) }

func (p *run) repoDir() string {
	if p.cfg.Repo == "" {
		return "."
	}
	return p.cfg.Repo
}

func (p *run) reruns() int {
	if p.cfg.Reruns > 0 {
		return p.cfg.Reruns
	}
	return gate.DefaultReruns
}

func (p *run) budget() int {
	if p.cfg.Budget > 0 {
		return p.cfg.Budget
	}
	return gate.DefaultBudget
}

func (p *run) gateConfig() gate.Config {
	return gate.Config{
		Python:  p.cfg.Python,
		Timeout: p.cfg.Timeout,
		Reruns:  p.reruns(),
		Budget:  p.budget(),
		Seed:    p.cfg.Seed,
		// Every gate of the run runs on its own checkouts (p.head,
		// p.base): an unexported Go function a witness calls is reached
		// on the base as on the head.
		Private: true,
	}
}

// rowProgress reports each finished row of a stage.
func (p *run) rowProgress(stage string) func(done, total int) {
	if p.cfg.RowProgress == nil {
		return nil
	}
	return func(done, total int) { p.cfg.RowProgress(stage, done, total) }
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

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
