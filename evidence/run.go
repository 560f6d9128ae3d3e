package evidence

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"math/rand"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/validate"
)

// callTimeout bounds one evidence call: these rows only compare base and
// head, and a row that hangs on one side is itself the evidence.
const callTimeout = 5 * time.Second

// reruns runs each evidence row twice on each side, so that a subject that
// is nondeterministic on its own is seen as a flake, not reported as a
// behaviour change.
const reruns = 2

// Config is one evidence run.
type Config struct {
	// Diff is the diff's changed symbols, with both sides' sources.
	Diff *diffparse.Result
	// Register's items not rejected get template rows of their own; a
	// change on a symbol no item names is Unexplained.
	Register *validate.Register
	// HeadDir and BaseDir are checkouts of the head and the merge-base,
	// made once by the caller and shared with the gate.
	HeadDir, BaseDir string
	// Gate holds the worker settings (interpreter, timeout, memory). Its
	// Timeout is capped at five seconds a call.
	Gate gate.Config
	// Progress, if set, is told after each row of a language's table.
	Progress func(done, total int)
	// Seed seeds the generated combinations; 0 derives one from the
	// diff's blobs, so the same patch gets the same rows and a finding
	// reproduces (issue 13, part 3). The seed used is in the Report.
	Seed int64
	// MaxRowsPerFunction and MaxRows bound the rows of one function and of
	// the run (DefaultMaxRowsPerFunction, DefaultMaxRows when zero); a
	// function or a run that reaches its bound says so in Symbols.
	MaxRowsPerFunction, MaxRows int
	// Inputs, when set, asks a model for calls of each changed function
	// (issue 13, part 1): rows like any other, source "model". Nil
	// without a model.
	Inputs InputsFunc
	// TraceSeconds bounds the traced run of the base's tests (issue 13,
	// part 1): DefaultTraceSeconds when zero, no traced run when negative.
	TraceSeconds int
	// RowSeconds bounds the running of every table's rows on both sides,
	// building the workers included (DefaultRowSeconds when zero): a
	// function whose inputs make it slow cannot hold the run, and what did
	// not run in time is said (budget.go).
	RowSeconds int
	// FunctionSeconds bounds the time one function's calls take on the
	// workers, base and head together (DefaultFunctionSeconds when zero):
	// its rows past it are cut off, said so, and the other functions' rows
	// go on (budget.go).
	FunctionSeconds int
	// SearchSeconds bounds the differential search of each table on
	// each side (differ.go), the coverage search having 1.5 times it
	// (explore.go): DefaultSearchSeconds when zero, no search when
	// negative.
	SearchSeconds int
	// CacheKey names the run by everything it depends on, and CacheDir
	// is where finished reports are kept (cache.go): a run whose key has
	// a report there reads it and runs nothing. Either empty: no cache.
	CacheKey, CacheDir string
}

// InputsFunc asks a model for calls of one changed function.
type InputsFunc func(ctx context.Context, q InputsQuestion) ([]lang.ModelCall, error)

// InputsQuestion is what the model is told of one changed function.
type InputsQuestion struct {
	Symbol, Language   string
	Params             []string // as written: "text: str", "n int"
	Assumptions        []string // the preconditions a reviewer has not rejected
	Source, BaseSource string
	Max                int
}

// maxModelInputs bounds the calls asked of a model per function.
const maxModelInputs = 12

// minPerFunction is the fewest rows a function's share of a crowded run
// is cut to while the run's budget allows it; floorPerFunction the fewest
// when it does not, the budget growing to at most maxCrowdedRows for it.
const (
	minPerFunction   = 40
	floorPerFunction = 8
	maxCrowdedRows   = 20000
)

// Default row budgets (issue 13, part 11).
const (
	DefaultMaxRowsPerFunction = 300
	DefaultMaxRows            = 4000
)

// Change is one input on which head and base behave differently.
type Change struct {
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
	// Source says where the input came from: "doctest more.py:120",
	// "test tests/test_more.py:88", "parametrize ...", "mutation",
	// "pairwise", ...; a witness says the row it was shrunk from.
	Source string `json:"source,omitempty"`
	// Heuristic names the Source (sources.go) that made the input: for a
	// witness, the one that made the row it was shrunk from.
	Heuristic string `json:"heuristic,omitempty"`
	// Witness marks an input shrunk from a differing row (Row) while the
	// difference persisted: the smallest few per symbol, listed first.
	Witness bool `json:"witness,omitempty"`
	// New marks a function the head adds: Head is a crash of a kind that
	// is a bug in the function, not a refusal of its input (newcode.go);
	// Base says there was none.
	New bool `json:"new,omitempty"`
	// Cause names the changed functions or data an unchanged caller
	// reaches (callers.go), so one change in a helper is one register
	// item, not one per caller (issue 25); empty for a changed function.
	Cause []string `json:"cause,omitempty"`
	// OutsideType says why the input is outside a parameter's type as the
	// code reads it, for a change listed apart in Report.OutsideType
	// (outside.go); "" for a change.
	OutsideType string `json:"outside_type,omitempty"`
	// Item is the register's change item (C001) this change is filed
	// under, once the pipeline has recorded it.
	Item string `json:"item,omitempty"`
	// Call is the row that showed the change, as the gate replays it, and
	// BaseOutcome and HeadOutcome what each side did (kept out of the JSON,
	// whose keys the register holds instead): a witness becomes a
	// table row pinning one of them once a reviewer decides (issue 25).
	Call        *validate.Call    `json:"-"`
	BaseOutcome *validate.Outcome `json:"-"`
	HeadOutcome *validate.Outcome `json:"-"`
	// baseExc and headExc are what each side raised, message and all
	// (outside.go).
	baseExc, headExc *gate.Exc
}

// replay is the call and the two outcomes of a changed row, for Change.
func replay(langName, target string, args []any, kwargs map[string]any, base, head *gate.Reply) (*validate.Call, *validate.Outcome, *validate.Outcome) {
	return &validate.Call{Language: langName, Target: target, Args: args, Kwargs: kwargs}, outcomeOf(base), outcomeOf(head)
}

// outcomeOf is a reply as a register keeps it: returned and the value,
// raised and the class with the sentinel or module it is compared by
// (gate.RaisedClass; never the message, as the gate compares), or
// unencodable, crashed or timeout alone.
func outcomeOf(r *gate.Reply) *validate.Outcome {
	switch {
	case r == nil:
		return nil
	case r.Outcome == gate.OutcomeReturned:
		// The value as the worker wrote it: its numbers stay exact (an
		// integer past 64 bits, a float apart from an integer) through
		// the evidence cache and the register (ExactNumbers).
		return &validate.Outcome{Outcome: validate.OutcomeReturned, Value: r.Value}
	case r.Outcome == gate.OutcomeRaised && r.Exc != nil:
		return &validate.Outcome{Outcome: validate.OutcomeRaised, Class: gate.RaisedClass(r.Exc)}
	case r.Outcome == gate.OutcomeUnencodable, r.Outcome == gate.OutcomeCrashed, r.Outcome == gate.OutcomeTimeout:
		// A NaN, a dead worker, a call past its time: decided by its
		// kind alone, as the gate replays it.
		return &validate.Outcome{Outcome: r.Outcome}
	}
	return nil
}

// Report is what an evidence run saw.
type Report struct {
	// Rows is how many rows ran on both sides.
	Rows int
	// Skipped says, per language, why its rows could not run on either
	// side: the code does not import or build on this machine, base and head
	// alike (a dependency that is not installed, say).
	Skipped []string
	// Symbols says, per changed symbol, how many rows it got and, for one
	// that got none, why: what a reviewer needs to read silence right.
	Symbols []SymbolRows
	// Notes say what the run could not do but did without: a model that
	// gave no inputs.
	Notes []string
	// TracedSeconds is how long the traced run of the base's tests took
	// (nearly nothing when its cache had it).
	TracedSeconds float64
	// HeadBroken says, per language, why the head does not import or build
	// where the base does: a finding against the patch, never a skipped
	// stage (the patch can arrange to break only under premise).
	HeadBroken []string
	// Changes are the inputs on which base and head differ, for symbols an
	// assumption names; Unexplained those on symbols none names: findings
	// the proposer missed.
	Changes     []Change
	Unexplained []Change
	// NewFunctions are raises of functions the head adds, on inputs they
	// take, of a kind that is a bug in them (newcode.go): no base to
	// change from, so not behaviour changes, but each for a reviewer to
	// decide.
	NewFunctions []Change
	// Unstable are inputs whose output varies between reruns on one side
	// (a random string, the clock), or, for Python, between hash seeds (a
	// set's order): shown apart, never counted as changes.
	Unstable []Change
	// OutsideType are differences seen on inputs outside a parameter's
	// type as the code reads it (outside.go): no caller can pass them, so
	// they are shown apart, each with its reason, and need no decision.
	OutsideType []Change
	// Reseeded is how many changed rows were rerun to tell an arbitrary
	// order from a change (Python's under other hash seeds, Go's more
	// times for its maps' order: lang.Reseeder); zero when no row
	// changed.
	Reseeded int
	// Seed is the seed the generated rows were drawn with (Config.Seed).
	Seed int64
	// Cached says the report is a earlier run's, read from the cache
	// under the same key (cache.go): no row ran this time.
	Cached bool `json:"-"`

	// clocked says the clock cut something (a time budget, a rerun that
	// ran out of time): such a report is not kept.
	clocked bool

	// plans are the changed functions whose changed lines coverage
	// counts, ran the lines the rows ran (coverage.go).
	plans []coverPlan
	ran   linesRun
	// inStep are the private changed functions changed in step with
	// every caller of them in their files (instep.go), with the callers.
	inStep map[string][]string
	// perFunction is the rows a function may get: the guide's rows count
	// against it too.
	perFunction int
	// search is the differential search's time of a table on a side
	// (Config.SearchSeconds); zero, none.
	search time.Duration
	// noisyHead are the rows whose head varies between reruns where the
	// base never does: changes, not unstable rows (noise.go).
	noisyHead map[string]bool
	// orderApart are the rows whose base varies between reruns in order
	// alone and whose head answers something no order of it is, after
	// more reruns of each (noise.go): changes, not unstable rows.
	orderApart map[string]bool
}

// SymbolRows is one changed symbol's share of the evidence.
type SymbolRows struct {
	Symbol string `json:"symbol"`
	Rows   int    `json:"rows"`
	// Why says why it got no rows ("" when it got some), or that a
	// budget cut them.
	Why string `json:"why,omitempty"`
	// Unchecked marks a target that should have had rows and got none:
	// the budget, no value, its module not importing, the evidence's time
	// running out. A run with one cannot say the gate holds (issue 26,
	// item 4).
	Unchecked bool `json:"-"`
	// Sources counts its rows by the Source that made them (doctest,
	// test_call, one_at_a_time, pairwise, template, ...: sources.go).
	Sources map[string]int `json:"sources,omitempty"`
	// Seed is the run's seed: the same seed draws the same rows.
	Seed int64 `json:"seed,omitempty"`
	// Reads names the changed module-level data a function the patch did
	// not touch reads, or the changed functions it calls: why it is a
	// target at all.
	Reads []string `json:"reads,omitempty"`
	// Coverage is which of its changed lines the rows ran, on each side
	// (coverage.go); nil where its language cannot say.
	Coverage *Coverage `json:"coverage,omitempty"`
}

// Run builds template rows for every assumption a reviewer has not
// rejected, and signature-driven boundary rows for every changed function,
// runs them against base and head, and reports every input on which the two
// behave differently: evidence for the reviewer before anyone has decided,
// and a check on the proposer, since a change no assumption explains is a
// finding the proposer missed. The error means the rows could not be run
// at all; a language whose code does not load is Skipped.
//
// A report is kept under cfg.CacheKey for a later run to read (Cached);
// it is returned as the cache gives it back.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	rep, err := runFresh(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return keep(cfg, rep), nil
}

func runFresh(ctx context.Context, cfg Config) (*Report, error) {
	rep := &Report{Changes: []Change{}, Unexplained: []Change{}, NewFunctions: []Change{}, Symbols: []SymbolRows{}}
	rep.Seed = cfg.Seed
	rep.search = searchTime(cfg.SearchSeconds)
	if rep.Seed == 0 {
		rep.Seed = diffSeed(cfg.Diff)
	}
	b := newBudget(cfg, rep.Seed)
	langs := lang.LanguagesFor(cfg.HeadDir, cfg.BaseDir, b.perFunction, false)
	defer langs.Close()
	// What a language's workers need on every run is prepared before the
	// stage's clock starts: on a fresh build cache the Go harness's
	// standard library took most of the rows' time, and every Go
	// function ended "not exercised".
	warm(ctx, cfg, langs)
	end := runEnd(time.Now(), cfg.RowSeconds)
	var readers dataReaders
	cfg.Diff = withShadowed(cfg.Diff, langs, cfg.HeadDir, cfg.BaseDir)
	var unread []SymbolRows
	cfg.Diff, readers, unread = withDataReaders(cfg.Diff, cfg.HeadDir, cfg.BaseDir)
	var shared dataReaders
	var unfollowed []SymbolRows
	cfg.Diff, shared, unfollowed = withSharedUsers(cfg.Diff, langs, cfg.HeadDir, cfg.BaseDir)
	readers = readers.merge(shared)
	targets, skipped := targetsOf(cfg.Diff, langs)
	targets = replaced(cfg.Diff, targets, cfg.BaseDir)
	skipped = append(append(skipped, unfollowed...), manifestUnchecked(cfg.Diff, langs, cfg.HeadDir, cfg.BaseDir)...)
	skipped = append(skipped, runnerUnchecked(cfg.Diff, langs)...)
	skipped = append(skipped, addedEncoders(cfg.Diff, langs)...)
	skipped = append(skipped, unread...)
	targets = readers.mark(targets)
	entries := entryPoints(cfg.Diff, langs, cfg.HeadDir, cfg.BaseDir, targets)
	targets = append(targets, entries...)
	rep.inStep = inStep(cfg.Diff, langs, cfg.HeadDir)
	rep.plans = coverPlans(cfg.Diff, langs, cfg.HeadDir, cfg.BaseDir)
	defer func() {
		rep.Symbols = append(rep.Symbols, skipped...)
		rep.covered()
		rep.hoped(entries)
	}()
	bySymbol := map[string][]validate.Item{}
	if cfg.Register != nil {
		for _, it := range cfg.Register.Items {
			if it.Status == validate.StatusRejected || it.Stale || validate.IsChange(it.ID) {
				continue
			}
			bySymbol[it.Symbol] = append(bySymbol[it.Symbol], it)
		}
	}
	if len(targets) == 0 {
		// No changed function a row can call (a method taking only the
		// package's interfaces): the base's tests still run, and one the
		// head fails is filed under the changed function it ran.
		rep.baseTests(ctx, cfg, langs, nil, bySymbol, end)
		sortChanges(rep.Changes)
		return rep, nil
	}
	if n := len(targets); n*b.perFunction > b.total {
		// Many functions share the run's budget: each gets its share, so
		// the last ones are not left with none. A patch of many trivial
		// edits must not spend the budget before its real change gets
		// rows (issue 26): below minPerFunction a share is at least
		// floorPerFunction, and the run's budget grows to give every
		// function that many (up to maxCrowdedRows; the rows' clock
		// still bounds the time).
		b.perFunction = max(minPerFunction, b.total/n)
		if n*b.perFunction > b.total {
			b.perFunction = max(floorPerFunction, b.total/n)
			b.total = max(b.total, min(n*b.perFunction, maxCrowdedRows))
		}
	}
	b.inputs, b.langs = cfg.Inputs, langs
	rep.perFunction = b.perFunction
	traceStart := time.Now()
	b.trace(ctx, cfg, targets, rep.plans)
	rep.TracedSeconds = time.Since(traceStart).Seconds()
	tb, err := buildTables(ctx, targets, bySymbol, b)
	rep.Notes, rep.clocked = b.notes, b.clocked
	if err != nil {
		return nil, err
	}
	rep.Symbols = append(rep.Symbols, symbolRows(targets, tb.origins, b, rep.Seed)...)
	clock := newRowClock(ctx, cfg.RowSeconds, cfg.FunctionSeconds, end)
	defer clock.stop()
	for _, langName := range langs.Names() {
		if t := tb.byLang[langName]; t != nil {
			if err := rep.runTable(ctx, clock, cfg, langs, targets, t, tb.origins, bySymbol); err != nil {
				return nil, err
			}
		}
		if t := tb.headOnly[langName]; t != nil {
			if err := rep.runNew(ctx, clock, cfg, langs[langName], t, tb.origins); err != nil {
				return nil, err
			}
		}
	}
	// The base's tests are run for the changed functions and the entry
	// points beside them, not for those in the directories above: such
	// an entry point's package took a test directory (and its coverage)
	// from the changed function's own.
	rep.baseTests(ctx, cfg, langs, withoutEntriesAbove(targets, entries, cfg.Diff), bySymbol, end)
	sortChanges(rep.Changes)
	sortChanges(rep.Unexplained)
	return rep, nil
}

// newBudget is a run's row bounds and random source.
func newBudget(cfg Config, seed int64) *budget {
	b := &budget{perFunction: cfg.MaxRowsPerFunction, total: cfg.MaxRows, rng: rand.New(rand.NewSource(seed))}
	if b.perFunction <= 0 {
		b.perFunction = DefaultMaxRowsPerFunction
	}
	if b.total <= 0 {
		b.total = DefaultMaxRows
	}
	return b
}

// traceRun is the run's TraceRun: its traced run's time, the default
// when cfg says none.
func traceRun(cfg Config) lang.TraceRun {
	seconds := cfg.TraceSeconds
	if seconds == 0 {
		seconds = DefaultTraceSeconds
	}
	tr := lang.TraceRun{Diff: cfg.Diff, BaseDir: cfg.BaseDir, HeadDir: cfg.HeadDir, Seconds: seconds, Gate: cfg.Gate}
	if gate.Sealed() {
		// As the evidence's own cache (cache.go): where a subject could
		// write outside its copy, it could write what the next run reads.
		tr.CacheDir = cfg.CacheDir
	}
	return tr
}

// trace asks each language that can trace the base's tests for the calls
// they make of the targets. The run watches the changed functions' lines
// as the base's tests' stage does (basetests.go), so one run of the
// base's tests can serve both.
func (b *budget) trace(ctx context.Context, cfg Config, targets []lang.Target, plans []coverPlan) {
	for _, name := range b.langs.Names() {
		tr, ok := b.langs[name].(lang.Tracer)
		if !ok {
			continue
		}
		run := traceRun(cfg)
		run.HeadWatch, run.BaseWatch = watches(plans, name)
		traced, note := tr.Traced(ctx, run, targets)
		for sym, calls := range traced {
			if b.traced == nil {
				b.traced = map[string][]lang.ModelCall{}
			}
			b.traced[sym] = calls
		}
		if note != "" {
			b.notes = append(b.notes, note)
		}
	}
}

// symbolRows says, per target, how many rows it got, from which sources,
// and why it got none or fewer than it had.
func symbolRows(targets []lang.Target, origins map[string]lang.Origin, b *budget, seed int64) []SymbolRows {
	perSymbol := map[string]int{}
	sources := map[string]map[string]int{}
	for _, o := range origins {
		perSymbol[o.Symbol]++
		if sources[o.Symbol] == nil {
			sources[o.Symbol] = map[string]int{}
		}
		sources[o.Symbol][heuristic(o.Source)]++
	}
	var out []SymbolRows
	for _, tg := range targets {
		sr := SymbolRows{Symbol: tg.Sym.Name, Rows: perSymbol[tg.Sym.Name], Sources: sources[tg.Sym.Name], Seed: seed, Reads: tg.Reads}
		switch {
		case sr.Rows == 0 && b.cut[tg.Sym.Name]:
			sr.Why, sr.Unchecked = fmt.Sprintf("the run's budget of %d rows was spent before it", b.total), true
		case sr.Rows == 0:
			sr.Why, sr.Unchecked = noValues(b.langs[tg.Lang], tg), true
		case b.cut[tg.Sym.Name]:
			sr.Why = fmt.Sprintf("budget reached: %d rows kept", sr.Rows)
		}
		out = append(out, sr)
	}
	return out
}

// runTable runs one language's table on both sides and records what
// changed. A module that does not load is left out and said so; a table
// no side can load is Skipped (or, when only the head fails, HeadBroken).
// The error means the rows could not be run at all.
func (rep *Report) runTable(ctx context.Context, clock *rowClock, cfg Config, langs lang.Languages, targets []lang.Target, t *validate.Table, origins map[string]lang.Origin, bySymbol map[string][]validate.Item) error {
	langName := t.Language
	planned := t
	t.Target = t.Rows[0].Target
	gcfg := cfg.Gate
	gcfg.Repo, gcfg.BaseDir, gcfg.Lang = cfg.HeadDir, cfg.BaseDir, langName
	gcfg.Private = true // the run's own checkouts: unexported Go helpers can be reached
	gcfg.BaseTargets = baseTargets(targets)
	gcfg.Watch, gcfg.BaseWatch = watches(rep.plans, langName)
	gcfg.Reruns = reruns
	gcfg.Budget = len(t.Rows) // evidence never blocks on flakes
	gcfg.Freezes = nil
	gcfg.Progress = rowProgress(cfg.Progress, len(t.Rows))
	if gcfg.Timeout == 0 || gcfg.Timeout > callTimeout {
		gcfg.Timeout = callTimeout
	}
	gcfg.TargetClock = clock.functions
	grep, err := gate.Differential(clock.ctx, gcfg, t)
	var infra *gate.InfraError
	dropper, _ := langs[langName].(lang.ModuleDropper)
	for tries := 0; dropper != nil && errors.As(err, &infra) && tries < maxModuleRetries; tries++ {
		// One module that does not import (a noxfile wanting nox) must
		// not take the other modules' rows with it.
		rest, why, ok := dropper.DropModule(clock.ctx, gcfg, t, modulesOf(targets), err)
		if !ok {
			break
		}
		if why.HeadOnly {
			rep.HeadBroken = append(rep.HeadBroken, why.Text)
		} else {
			rep.noLoad(targets, why)
			if why.Why == "" {
				rep.Skipped = append(rep.Skipped, why.Text)
			}
		}
		t = rest
		if len(t.Rows) == 0 {
			// Every row was the dropped target's: nothing is left to run.
			grep, err = &gate.Report{}, nil
			break
		}
		gcfg.Budget, gcfg.Progress = len(t.Rows), rowProgress(cfg.Progress, len(t.Rows))
		grep, err = gate.Differential(clock.ctx, gcfg, t)
	}
	if clock.out(ctx) {
		if !rep.outOfTime(clock, planned, grep, origins) {
			return nil
		}
		err = nil
	}
	// What follows the run (hash seeds, shrinking) has a short time of its
	// own past the rows' clock, so that a table cut by the clock still
	// reports its findings, and no table's follow-ups hold the run past it
	// (issue 24, item 5). A table the clock did not cut follows up all but
	// unhurried: its witnesses do not depend on how busy the machine is.
	ctx, cancel := clock.followUpCtx(ctx)
	defer cancel()
	switch {
	case errors.As(err, &infra):
		why := fmt.Sprintf("%s rows: %s", langName, lang.OneLine(err.Error()))
		if lang.BaseLoads(ctx, gcfg, t) {
			rep.HeadBroken = append(rep.HeadBroken, why)
		} else {
			// Neither side loads here: the register and the draft are
			// still worth having, so say so and go on; nothing is
			// checked, and the run cannot pass on these rows.
			rep.Skipped = append(rep.Skipped, why)
		}
		return nil
	case err != nil:
		return fmt.Errorf("evidence rows (%s): %w", langName, err)
	}
	if u, ok := langs[langName].(lang.Unreacher); ok {
		rep.unreached(u, targets, grep)
	}
	rep.ran.add(grep)
	rep.cutOff(clock, t, grep, origins)
	if !clock.out(ctx) {
		rep.explore(clock.ctx, gcfg, langs[langName], targets, t, grep, origins)
		rep.guide(clock.ctx, gcfg, langs[langName], t, grep, origins)
		rep.differ(clock.ctx, gcfg, langs[langName], targets, t, grep, origins)
	}
	rep.Rows += ranRows(grep)
	rep.clocked = rep.clocked || timedOut(grep)
	// Within the rows' clock: a patch that loops times out again, and the
	// recheck of its rows must not hold the run past row_seconds.
	fcfg := clock.followUp(gcfg)
	rep.Notes = append(rep.Notes, recheckTimeouts(clock.ctx, fcfg, t, grep)...)
	if rs, ok := langs[langName].(lang.Reseeder); ok {
		// A language whose order of a set or map is arbitrary reruns its
		// changed rows (under other seeds, or more times).
		n, notes, err := rs.Reseed(ctx, fcfg, t, grep)
		switch {
		case err != nil && errors.Is(err, context.DeadlineExceeded) && !clock.parentDone():
			notes = append(notes, fmt.Sprintf("%s rows: the rerun under other hash seeds ran out of time; the changes it did not reach are not checked for hash order", langName))
			rep.clocked = true
		case err != nil:
			return fmt.Errorf("evidence rows (%s): %w", langName, err)
		}
		rep.Reseeded += n
		rep.Notes = append(rep.Notes, notes...)
	}
	rep.noisyHead = headNoise(clock.ctx, fcfg, t, grep)
	rep.orderApart = baseOrderApart(clock.ctx, fcfg, t, grep)
	rep.collect(langs, t, grep, origins, bySymbol, targetsBySymbol(targets))
	for _, c := range shrink(ctx, langs, fcfg, t, grep, origins) {
		if !rep.outside(langs, targetsBySymbol(targets), &c) {
			rep.file(c, bySymbol)
		}
	}
	return nil
}

// maxModuleRetries bounds the modules left out of one language's rows
// because they do not import.
const maxModuleRetries = 8

// modulesOf maps each target, by its symbol and by the name its rows
// call, to its module.
func modulesOf(targets []lang.Target) map[string]string {
	out := map[string]string{}
	for _, tg := range targets {
		mod := strings.TrimSuffix(tg.Sym.Name, "."+tg.Sym.Local)
		out[tg.Sym.Name] = mod
		if tg.Call != "" {
			out[tg.Call] = mod
		}
	}
	return out
}

// noLoad says the symbols the failure left out ran no rows: those of a
// module that does not import here, on either side, or the one target
// its module does not hold.
func (rep *Report) noLoad(targets []lang.Target, f lang.ModuleFailure) {
	out := map[string]string{}
	for _, tg := range targets {
		if f.Why != "" && len(tg.Reads) > 0 && (tg.Sym.Name == f.Module || tg.Call == f.Module) {
			// An unchanged caller premise took only to reach a changed
			// function, and cannot call: left out, as one that was
			// never callable is.
			rep.drop(tg.Sym.Name)
			continue
		}
		switch {
		case f.Target && (tg.Sym.Name == f.Module || tg.Call == f.Module):
			out[tg.Sym.Name] = "its module does not hold it here: "
		case !f.Target && strings.TrimSuffix(tg.Sym.Name, "."+tg.Sym.Local) == f.Module:
			out[tg.Sym.Name] = "its module does not import here: "
		}
	}
	for i, s := range rep.Symbols {
		if why, ok := out[s.Symbol]; ok {
			rep.Symbols[i].Rows, rep.Symbols[i].Sources = 0, nil
			rep.Symbols[i].Why, rep.Symbols[i].Unchecked = why+f.Text, true
			if f.Why != "" {
				rep.Symbols[i].Why = f.Why
			}
		}
	}
}

// unreached leaves out the rows of each target the worker could not
// reach on a side (lang.Unreacher), and lets its symbol say why: rows
// that only say so compared nothing.
func (rep *Report) unreached(u lang.Unreacher, targets []lang.Target, grep *gate.Report) {
	gone := map[string]string{}
	for _, rr := range grep.Rows {
		for _, a := range rr.Attempts {
			if a.Status != gate.StatusError {
				continue
			}
			if why, ok := u.Unreached(a.Why); ok {
				gone[rr.Target] = why
			}
		}
	}
	if len(gone) == 0 {
		return
	}
	kept := grep.Rows[:0]
	for _, rr := range grep.Rows {
		if _, ok := gone[rr.Target]; !ok {
			kept = append(kept, rr)
		}
	}
	grep.Rows = kept
	for _, target := range slices.Sorted(maps.Keys(gone)) {
		rep.noLoad(targets, lang.ModuleFailure{Module: target, Target: true, Why: gone[target]})
	}
}

// drop leaves symbol out of the report's symbols.
func (rep *Report) drop(symbol string) {
	kept := rep.Symbols[:0]
	for _, s := range rep.Symbols {
		if s.Symbol != symbol {
			kept = append(kept, s)
		}
	}
	rep.Symbols = kept
}

// withoutEntriesAbove is targets without the entry points among them
// whose file is in no directory of a changed file.
func withoutEntriesAbove(targets, entries []lang.Target, res *diffparse.Result) []lang.Target {
	if len(entries) == 0 || res == nil {
		return targets
	}
	changedDir := map[string]bool{}
	for _, f := range res.Files {
		changedDir[path.Dir(f.Path)] = true
		changedDir[path.Dir(f.OldPath)] = true
	}
	entry := map[string]bool{}
	for _, e := range entries {
		if !changedDir[path.Dir(filepath.ToSlash(e.BaseFile))] {
			entry[e.Sym.Name] = true
		}
	}
	var out []lang.Target
	for _, tg := range targets {
		if !entry[tg.Sym.Name] {
			out = append(out, tg)
		}
	}
	return out
}

// baseTargets are the base's names for targets whose module the patch
// renamed: the base is called under its own name, not the head's.
func baseTargets(targets []lang.Target) map[string]string {
	var m map[string]string
	for _, tg := range targets {
		if tg.BaseName == "" {
			continue
		}
		if m == nil {
			m = map[string]string{}
		}
		key := tg.Sym.Name
		if tg.Call != "" {
			key = tg.Call
		}
		m[key] = tg.BaseName
	}
	return m
}

// buildTables makes one table of evidence rows per language, and the
// origin of every row by its id.
func buildTables(ctx context.Context, targets []lang.Target, bySymbol map[string][]validate.Item, b *budget) (*tables, error) {
	tb := &tables{b: b, byLang: map[string]*validate.Table{}, headOnly: map[string]*validate.Table{}, origins: map[string]lang.Origin{}}
	for _, tg := range targets {
		rows, sourceOf, err := b.targetRows(ctx, tg, bySymbol[tg.Sym.Name])
		if err != nil {
			return nil, err
		}
		o := lang.Origin{Symbol: tg.Sym.Name, Call: tg.Call, HeadOnly: tg.HeadOnly, Cause: tg.Reads}
		if ob, ok := b.langs[tg.Lang].(lang.Observer); ok {
			o.Probes = ob.Probes(tg)
		}
		tb.add(tg.Lang, dedupe(rows), o, sourceOf)
	}
	return tb, nil
}

// targetRows are one target's rows in the order they run (the model's,
// the base's traced calls, then the language's own with the templates
// among them) and the source of each, by callText of its arguments.
func (b *budget) targetRows(ctx context.Context, tg lang.Target, items []validate.Item) ([]validate.Row, map[string]string, error) {
	gen := Templates{}
	var templates []validate.Row
	for _, its := range [][]validate.Item{items, signatureItems(tg.Sig)} {
		if len(its) == 0 {
			continue
		}
		r, err := gen.Generate(ctx, Request{Target: tg.Sym.Name, Sig: tg.Sig, Assumptions: its})
		if err != nil {
			return nil, nil, err
		}
		templates = append(templates, r...)
	}
	l := b.langs[tg.Lang]
	rows, sourceOf := l.Rows(ctx, tg, templates, b.rng, b.perFunction)
	if sourceOf == nil {
		sourceOf = map[string]string{}
	}
	if short := baseArityRows(tg, rows, maxBaseArityRows); len(short) > 0 {
		for _, r := range short {
			args, kwargs := r.CallArgs()
			sourceOf[lang.CallKey(args, kwargs)] = lang.SourceBaseArity
		}
		rows = append(short, rows...)
	}
	if tr, ok := l.(lang.Tracer); ok {
		if rs := tr.TracedRows(tg, b.traced[tg.Sym.Name]); len(rs) > 0 {
			for _, r := range rs {
				args, kwargs := r.CallArgs()
				sourceOf[lang.CallKey(args, kwargs)] = lang.SourceTraced
			}
			rows = append(rs, rows...)
		}
	}
	if b.inputs != nil {
		mr := b.modelRows(ctx, tg, items)
		for _, r := range mr {
			args, kwargs := r.CallArgs()
			if k := lang.CallKey(args, kwargs); sourceOf[k] == "" {
				sourceOf[k] = lang.SourceModel
			}
		}
		rows = append(mr, rows...)
	}
	return rows, sourceOf, nil
}

// tables are the evidence tables being built, one per language, within the
// run's budget.
type tables struct {
	b      *budget
	byLang map[string]*validate.Table
	// headOnly are the rows of functions the head adds, by language.
	headOnly map[string]*validate.Table
	origins  map[string]lang.Origin
	n        int // rows so far, of every language
}

// add puts a target's rows into its language's table, as far as the
// budgets allow, numbered E001... in the order they run.
func (tb *tables) add(langName string, rows []validate.Row, o lang.Origin, sourceOf map[string]string) {
	if len(rows) > tb.b.perFunction {
		rows = rows[:tb.b.perFunction]
		tb.b.cutAt(o.Symbol)
	}
	if left := tb.b.total - tb.n; len(rows) > left {
		rows = rows[:max(left, 0)]
		tb.b.cutAt(o.Symbol)
	}
	ob, _ := tb.b.langs[langName].(lang.Observer)
	for _, r := range rows {
		if r.Todo != "" {
			continue
		}
		into := tb.byLang
		if o.HeadOnly {
			into = tb.headOnly
		}
		t := into[langName]
		if t == nil {
			t = &validate.Table{Version: validate.FormatVersion, Language: langName}
			into[langName] = t
		}
		tb.n++
		r.ID = fmt.Sprintf("E%03d", tb.n)
		args, kwargs := r.CallArgs()
		key := lang.CallKey(args, kwargs)
		r.Target = o.Symbol
		if o.Call != "" {
			r.Target = o.Call
		}
		// Evidence compares the two sides only: what the base does is the
		// reference, whatever the template expected.
		r.SameAsBase, r.Contract, r.Raises, r.Metamorphic = true, "", "", nil
		if o.HeadOnly {
			// Nothing to compare with: the row records what the head did.
			r.SameAsBase, r.Contract = false, "true"
		}
		if ob != nil {
			r = ob.Observe(r, o.Probes)
		}
		t.Rows = append(t.Rows, r)
		oo := o
		oo.Lang = langName
		oo.Source = lang.SourceTemplate
		if src, ok := sourceOf[key]; ok {
			oo.Source = src
		}
		for _, id := range r.AssumptionIDs {
			if strings.HasPrefix(id, "A") {
				oo.Assumptions = append(oo.Assumptions, id)
			}
		}
		tb.origins[r.ID] = oo
	}
}

// budget is the run's row bounds, its one random source, and the model
// asked for inputs.
type budget struct {
	perFunction, total int
	rng                *rand.Rand
	cut                map[string]bool // symbols whose rows a bound cut
	inputs             InputsFunc
	langs              lang.Languages
	traced             map[string][]lang.ModelCall // calls the base's tests made, by symbol
	notes              []string
	clocked            bool // something asked of the model failed (Report.clocked)
}

func (b *budget) cutAt(symbol string) {
	if b.cut == nil {
		b.cut = map[string]bool{}
	}
	b.cut[symbol] = true
}

// diffSeed derives a run's seed from its diff: the same patch draws the
// same rows.
func diffSeed(res *diffparse.Result) int64 {
	h := fnv.New64a()
	if res != nil {
		for _, f := range res.Files {
			h.Write([]byte(f.Path + "\x00" + f.OldBlob + "\x00" + f.NewBlob + "\x00"))
			h.Write(f.HeadSrc)
			h.Write(f.BaseSrc)
		}
	}
	s := int64(h.Sum64() & (1<<62 - 1))
	if s == 0 {
		s = 1
	}
	return s
}

// collect records the rows of one language whose outcome changed.
func (rep *Report) collect(langs lang.Languages, t *validate.Table, grep *gate.Report, origins map[string]lang.Origin, bySymbol map[string][]validate.Item, targets map[string]*lang.Target) {
	rows := map[string]validate.Row{}
	for _, r := range t.Rows {
		rows[r.ID] = r
	}
	for _, rr := range grep.Rows {
		if len(rr.Attempts) == 0 {
			continue
		}
		unstable := lang.UnstableRow(rr)
		if !rr.Changed && !unstable {
			continue
		}
		o := origins[rr.ID]
		row := rows[rr.ID]
		a := rr.Attempts[len(rr.Attempts)-1]
		noisy := unstable && rep.noisyHead[rr.ID]
		if noisy {
			a = differing(rr) // not a rerun where the head answered as the base did
		}
		args, kwargs := row.CallArgs()
		c := Change{
			Row: rr.ID, Assumptions: o.Assumptions, Symbol: o.Symbol, Class: row.Cls,
			SpecChange: rr.SpecChange, Source: o.Source, Heuristic: heuristic(o.Source), Cause: o.Cause,
		}
		c.Call, c.BaseOutcome, c.HeadOutcome = replay(o.Lang, t.TargetOf(row), args, kwargs, a.Base, &a.Reply)
		if a.Base != nil {
			c.baseExc = a.Base.Exc
		}
		c.headExc = a.Reply.Exc
		c.Input, c.Base, c.Head = langs.Present(o, args, kwargs, a.Base, &a.Reply)
		if len(c.Assumptions) > 0 {
			c.Assumption = c.Assumptions[0]
		}
		if noisy {
			c.Head += " (and other values on reruns, where the base answers the same every time)"
			c.HeadOutcome = variedOutcome(rr, c.HeadOutcome)
			unstable = false
		}
		if unstable && !noisy && rep.orderApart[rr.ID] {
			c.Base += " (its items in other orders on reruns)"
			unstable = false
		}
		if unstable {
			rep.Unstable = append(rep.Unstable, c)
			continue
		}
		if rep.outside(langs, targets, &c) {
			continue
		}
		rep.file(c, bySymbol)
	}
}

// variedOutcome is the head's outcome of a row whose head varies where its
// base does not: when the head returned on every run, another value each
// time, a decision pins that it returns, not one run's value (issue 25:
// an accepted random draw must not fail the gate on its next draw).
func variedOutcome(rr gate.RowResult, o *validate.Outcome) *validate.Outcome {
	for _, a := range rr.Attempts {
		if a.Reply.Outcome != gate.OutcomeReturned {
			return o
		}
	}
	return &validate.Outcome{Outcome: validate.OutcomeReturned, Varies: true}
}

// differing is the first attempt of a row whose head answered otherwise
// than its base, a timeout aside, else its last.
func differing(rr gate.RowResult) gate.Attempt {
	for _, a := range rr.Attempts {
		if a.Base != nil && a.Reply.Outcome != gate.OutcomeTimeout && !gate.Same(a.Reply, *a.Base) {
			return a
		}
	}
	return rr.Attempts[len(rr.Attempts)-1]
}

// file puts a change with the register's (Changes) or apart from it
// (Unexplained, on a symbol no assumption names).
func (rep *Report) file(c Change, bySymbol map[string][]validate.Item) {
	if c.Assumption == "" && len(bySymbol[c.Symbol]) == 0 {
		rep.Unexplained = append(rep.Unexplained, c)
	} else {
		rep.Changes = append(rep.Changes, c)
	}
}

func rowProgress(f func(done, total int), total int) func(gate.RowResult) {
	if f == nil {
		return nil
	}
	done := 0
	return func(gate.RowResult) {
		done++
		f(done, total)
	}
}

// sortChanges puts silent spec changes first, then shrunk witnesses,
// then by row id.
func sortChanges(cs []Change) {
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].SpecChange != cs[j].SpecChange {
			return cs[i].SpecChange
		}
		if cs[i].Witness != cs[j].Witness {
			return cs[i].Witness
		}
		return cs[i].Row < cs[j].Row
	})
}

// targetsOf are the changed functions evidence rows can call on both
// sides: modified functions and methods of the files of the run's
// languages (an added function has no base to compare with), the
// unchanged functions that read changed module data, and the callers of a
// changed helper in its file. Each side of a file is parsed once,
// whatever number of its functions changed.
func targetsOf(res *diffparse.Result, langs lang.Languages) ([]lang.Target, []SymbolRows) {
	var out []lang.Target
	var skipped []SymbolRows
	skip := func(f diffparse.File, why string) {
		for _, s := range f.Symbols {
			skipped = append(skipped, SymbolRows{Symbol: s.Name, Why: why})
		}
	}
	for _, f := range res.Files {
		l := langs[f.Language]
		switch {
		case f.Excluded != "":
			skip(f, "its file is excluded: "+f.Excluded)
			continue
		case f.ParseError != "":
			skip(f, "its file does not parse: "+f.ParseError)
			for i := len(skipped) - len(f.Symbols); i < len(skipped); i++ {
				skipped[i].Unchecked = true
			}
			if len(f.Symbols) == 0 && f.Language != "" {
				// A file premise cannot read names no symbol, yet its
				// interpreter may run it (a NUL byte in a JavaScript
				// comment, syntax newer than the parser's): the file
				// itself is not checked.
				skipped = append(skipped, SymbolRows{Symbol: f.Path, Why: "its file does not parse: " + f.ParseError, Unchecked: true})
			}
			continue
		case f.HeadSrc == nil:
			skip(f, "deleted: the head no longer has it")
			continue
		case l == nil:
			skip(f, "no evidence is built for "+f.Language+" files")
			continue
		}
		ts, sk := fileTargets(f, l)
		out, skipped = append(out, ts...), append(skipped, sk...)
	}
	out = moved(res, out)
	calleeLits(res, out)
	return out, skipped
}

// moved pairs a function the head adds with the one of the same name the
// patch deleted from another file (issue 26: code moved to a new module
// and re-exported under its old name is not new): it is compared with the
// base's, called there by the base's name, instead of run on the head
// alone. A name deleted from more than one file pairs with none.
func moved(res *diffparse.Result, targets []lang.Target) []lang.Target {
	type gone struct {
		f diffparse.File
		s diffparse.Symbol
	}
	deleted := map[string][]gone{}
	for _, f := range res.Files {
		for _, s := range f.Symbols {
			if s.Change == "deleted" && s.Kind == "function" && f.BaseSrc != nil {
				k := f.Language + "\x00" + s.Local
				deleted[k] = append(deleted[k], gone{f, s})
			}
		}
	}
	// A file that loses one function and gains one whose body is mostly
	// the same words renamed it (a rename that changes the code as well
	// must not pass as new code).
	renamed := map[string]gone{}
	for _, f := range res.Files {
		var out []gone
		added := 0
		for _, s := range f.Symbols {
			switch {
			case s.Kind != "function":
			case s.Change == "deleted" && f.BaseSrc != nil && len(deleted[f.Language+"\x00"+s.Local]) == 1:
				out = append(out, gone{f, s})
			case s.Change == "added":
				added++
			}
		}
		if len(out) == 1 && added == 1 {
			renamed[f.Path] = out[0]
		}
	}
	// A function whose new name differs from a deleted one of its file in
	// case alone (sanitizedURL back to sanitizedUrl, an initialism a
	// linter wants upper-cased) is that function renamed, however many
	// other functions the file lost and however much its body changed.
	folded := map[string][]gone{}
	for _, f := range res.Files {
		for _, s := range f.Symbols {
			if s.Kind == "function" && s.Change == "deleted" && f.BaseSrc != nil {
				k := f.Path + "\x00" + strings.ToLower(s.Local)
				folded[k] = append(folded[k], gone{f, s})
			}
		}
	}
	for i := range targets {
		tg := &targets[i]
		if !tg.HeadOnly || tg.Sym.Kind != "function" || tg.Call != "" {
			continue
		}
		g := deleted[tg.Lang+"\x00"+tg.Sym.Local]
		if r, ok := renamed[tg.BaseFile]; ok && len(g) == 0 && sameWords(lang.Span(r.f.BaseSrc, r.s.Start, r.s.End), tg.HeadText, r.s.Local, tg.Sym.Local) {
			g = []gone{r}
		}
		if c := folded[tg.BaseFile+"\x00"+strings.ToLower(tg.Sym.Local)]; len(g) == 0 && len(c) == 1 {
			g = c
		}
		if len(g) != 1 || g[0].s.Name == tg.Sym.Name {
			continue
		}
		tg.HeadOnly = false
		tg.Sym.Change = "modified"
		tg.BaseName = g[0].s.Name
		tg.BaseFile = g[0].f.OldPath
		if tg.BaseFile == "" {
			tg.BaseFile = g[0].f.Path
		}
		tg.BaseText = lang.Span(g[0].f.BaseSrc, g[0].s.Start, g[0].s.End)
	}
	return targets
}

// sameWords says two functions' texts, each without its own name, share
// most of their words: at least three in four of the words of either are
// the other's (a rename that changed a bound or a branch keeps them).
func sameWords(a, b, nameA, nameB string) bool {
	words := func(text, name string) map[string]int {
		m := map[string]int{}
		for _, w := range tokenRe.FindAllString(text, -1) {
			if w != lang.BareName(name) {
				m[w]++
			}
		}
		return m
	}
	wa, wb := words(a, nameA), words(b, nameB)
	common, na, nb := 0, 0, 0
	for w, n := range wa {
		common += min(n, wb[w])
		na += n
	}
	for _, n := range wb {
		nb += n
	}
	return na > 0 && nb > 0 && 4*common >= 3*max(na, nb)
}

// tokenRe finds a word or a single other character of source text.
var tokenRe = lang.Lazy(`\w+|[^\s\w]`)

// maxFileReaders bounds the unchanged functions of one file compared
// because they read its changed module data or class body.
const maxFileReaders = 20

// fileTargets are the targets of one changed file of language l.
func fileTargets(f diffparse.File, l lang.Language) ([]lang.Target, []SymbolRows) {
	readers, reads, dataLits := l.DataReaders(f)
	var skipped []SymbolRows
	if len(readers) > maxFileReaders {
		// Readers past the bound are not compared: the run cannot say
		// they hold.
		for _, s := range readers[maxFileReaders:] {
			skipped = append(skipped, SymbolRows{Symbol: s.Name, Unchecked: true,
				Why: fmt.Sprintf("it reads module data the patch changed, past the %d readers of one file compared for one run", maxFileReaders)})
		}
		readers = readers[:maxFileReaders]
	}
	syms := append(f.Symbols[:len(f.Symbols):len(f.Symbols)], readers...)
	// The callers of a reader of the changed data reach the change as a
	// changed function's do: a private helper reading a changed pattern
	// is called through its module's export (shell-quote's parse).
	withReaders := f
	withReaders.Symbols = syms
	callers, reaches := changedCallers(withReaders, l)
	syms = append(syms, callers...)
	for name, r := range reaches {
		if reads == nil {
			reads = map[string][]string{}
		}
		reads[name] = append(reads[name], r...)
	}
	var out []lang.Target
	changed := map[string]bool{}
	for _, s := range f.Symbols {
		changed[s.Name] = true
	}
	fr := &fileReader{f: f, l: l}
	for _, s := range syms {
		tg, skip := fr.target(s)
		if skip != nil {
			skipped = append(skipped, *skip)
			continue
		}
		if tg.Reads = reads[s.Name]; tg.Reads != nil {
			tg.DataLits = dataLits
		}
		if why := l.Complete(&tg, f, fr.file, fr.sigs); why != "" {
			// A changed function premise cannot call is not checked
			// unless the rows of its callers run its changed lines
			// (Report.covered): "cannot call it" is never a pass. An
			// unchanged caller or reader premise only hoped to reach
			// the change through is left out, and says why. A test's
			// function is not judged at all: its tests are inputs. A
			// language may name it apart (tg.Sym.Name), where another
			// file's function bears its name and coverage must not mix
			// the two.
			skipped = append(skipped, SymbolRows{Symbol: tg.Sym.Name, Why: why, Unchecked: changed[s.Name] && why != lang.InTestFile && why != lang.Declaration})
			continue
		}
		out = append(out, tg)
	}
	return out, skipped
}

// fileReader reads one changed file's sides for its targets, once, on
// the first symbol that needs them.
type fileReader struct {
	f              diffparse.File
	l              lang.Language
	parsed         bool
	sigs, baseSigs map[string]*Signature
	baseDecls      []diffparse.Decl
	file           any
}

func (fr *fileReader) parse() {
	if !fr.parsed {
		fr.parsed = true
		fr.sigs = fr.l.Signatures(fr.f.HeadSrc)
		fr.baseDecls, _ = diffparse.Decls(fr.f.Language, fr.f.BaseSrc)
		fr.file = fr.l.File(fr.f)
	}
}

// target is s as a target of its file, or why it is not one.
func (fr *fileReader) target(s diffparse.Symbol) (lang.Target, *SymbolRows) {
	f := fr.f
	switch {
	case s.Kind != "function" && s.Kind != "method":
		return lang.Target{}, &SymbolRows{Symbol: s.Name, Why: "a " + s.Kind + ", not a function"}
	case s.Change != "modified" && s.Change != "added" && s.Change != "deleted":
		return lang.Target{}, &SymbolRows{Symbol: s.Name, Why: s.Change + ": no base to compare with"}
	}
	fr.parse()
	sig := fr.sigs[s.Local]
	if s.Change == "deleted" {
		if !stillBound(fr.l, f, fr.file, s) {
			return lang.Target{}, &SymbolRows{Symbol: s.Name, Why: "deleted: the head no longer has it"}
		}
		// Its definition is gone but its name is still bound (an import,
		// an assignment, a re-export): its callers call what the name is
		// now, compared with the base's function under the base's
		// signature.
		if fr.baseSigs == nil {
			fr.baseSigs = fr.l.Signatures(f.BaseSrc)
		}
		sig, s.Change = fr.baseSigs[s.Local], "modified"
	}
	if sig == nil {
		return lang.Target{}, &SymbolRows{Symbol: s.Name, Why: "its signature could not be read", Unchecked: true}
	}
	baseFile := f.OldPath
	if baseFile == "" {
		baseFile = f.Path
	}
	if s.Change == "modified" && f.BaseSrc != nil && fr.baseSigs == nil {
		fr.baseSigs = fr.l.Signatures(f.BaseSrc)
	}
	tg := lang.Target{Sym: s, Lang: f.Language, Sig: sig, BaseSig: fr.baseSigs[s.Local], BaseFile: baseFile,
		BaseText: declText(f.BaseSrc, fr.baseDecls, s.Local),
		HeadOnly: s.Change == "added"}
	if fr.sigs[s.Local] != nil {
		tg.HeadText = lang.Span(f.HeadSrc, s.Start, s.End) // not a deleted function's name, bound to something else
	}
	return tg, nil
}

// stillBound says whether the head's module still binds the name of a
// function the patch deleted, for a language that can tell (rebinder).
func stillBound(l lang.Language, f diffparse.File, file any, s diffparse.Symbol) bool {
	rb, ok := l.(lang.Rebinder)
	return ok && (s.Kind == "function" || s.Kind == "method") && f.HeadSrc != nil && f.BaseSrc != nil && rb.StillBound(f, file, s.Local)
}

// noValues says why a target got no rows: the parameters no value could be
// built for.
func noValues(l lang.Language, tg lang.Target) string {
	var unknown []string
	types := l.ParamTypes(tg)
	for i, p := range tg.Sig.Params {
		t := l.Infer(p)
		if types != nil {
			t = types[i]
		}
		if !t.Known() {
			unknown = append(unknown, "`"+p.Name+"`")
		}
	}
	if len(unknown) == 0 {
		return "no template built a row for it"
	}
	return "no value could be built for " + strings.Join(unknown, ", ")
}

// signatureItems are stand-in assumptions that make the templates vary
// each parameter over its type's boundary values, and an int against a
// sibling list's length: the rows every changed function gets whatever the
// proposer said.
func signatureItems(sig *Signature) []validate.Item {
	var items []validate.Item
	for i, prm := range sig.Params {
		items = append(items, validate.Item{ID: fmt.Sprintf("S%03d", i+1), Precondition: "`" + prm.Name + "`"})
	}
	if len(sig.Params) > 1 {
		// The templates pair an int with a list only where the types say
		// so; otherwise this varies the first parameter again (deduped).
		items = append(items, validate.Item{ID: fmt.Sprintf("S%03d", len(sig.Params)+1),
			Precondition: fmt.Sprintf("`%s` within len(`%s`)", sig.Params[0].Name, sig.Params[1].Name)})
	}
	return items
}

// dedupe drops rows whose call repeats an earlier one; the earlier row
// then cites the assumptions of both, so a change it finds is evidence for
// each (the touching-ranges input belongs to "sorted" and to "touching").
func dedupe(rows []validate.Row) []validate.Row {
	at := map[string]int{}
	var out []validate.Row
	for _, r := range rows {
		args, kwargs := r.CallArgs()
		k := lang.CallKey(args, kwargs)
		if i, ok := at[k]; ok {
			for _, id := range r.AssumptionIDs {
				if !slices.Contains(out[i].AssumptionIDs, id) {
					out[i].AssumptionIDs = append(out[i].AssumptionIDs, id)
				}
			}
			continue
		}
		at[k] = len(out)
		r.AssumptionIDs = slices.Clone(r.AssumptionIDs)
		out = append(out, r)
	}
	return out
}

// declText is the source of the declaration called local among decls of
// src, "" when there is none.
func declText(src []byte, decls []diffparse.Decl, local string) string {
	for _, d := range decls {
		if d.Local == local {
			return lang.Span(src, d.Start, d.End)
		}
	}
	return ""
}

// warm prepares, once each, the languages of the diff's files that need
// it (lang.Warmer).
func warm(ctx context.Context, cfg Config, langs lang.Languages) {
	if cfg.Diff == nil {
		return
	}
	done := map[string]bool{}
	for _, f := range cfg.Diff.Files {
		if w, ok := langs[f.Language].(lang.Warmer); ok && !done[f.Language] {
			done[f.Language] = true
			w.Warm(ctx, cfg.Gate)
		}
	}
}
