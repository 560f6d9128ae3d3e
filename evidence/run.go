package evidence

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/premise-dev/premise/diffparse"
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
}

// InputsFunc asks a model for calls of one changed function.
type InputsFunc func(ctx context.Context, q InputsQuestion) ([]ModelCall, error)

// InputsQuestion is what the model is told of one changed function.
type InputsQuestion struct {
	Symbol, Language   string
	Params             []string // as written: "text: str", "n int"
	Assumptions        []string // the preconditions a reviewer has not rejected
	Source, BaseSource string
	Max                int
}

// ModelCall is one call a model proposed: JSON values only.
type ModelCall struct {
	Args   []any
	Kwargs map[string]any
}

// maxModelInputs bounds the calls asked of a model per function.
const maxModelInputs = 12

// minPerFunction is the fewest rows a function's share of a crowded run
// is cut to.
const minPerFunction = 40

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
	// "test tests/test_more.py:88", "parametrize ...", "constant",
	// "mutation" or "generated".
	Source string `json:"source,omitempty"`
	// Witness marks an input shrunk from a differing row (Row) while the
	// difference persisted: the smallest few per symbol, listed first.
	Witness bool `json:"witness,omitempty"`
	// Cause names the changed functions or data an unchanged caller
	// reaches (callers.go), so one change in a helper is one register
	// item, not one per caller (issue 25); empty for a changed function.
	Cause []string `json:"cause,omitempty"`
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
}

// replay is the call and the two outcomes of a changed row, for Change.
func replay(lang, target string, args []any, kwargs map[string]any, base, head *gate.Reply) (*validate.Call, *validate.Outcome, *validate.Outcome) {
	return &validate.Call{Language: lang, Target: target, Args: args, Kwargs: kwargs}, outcomeOf(base), outcomeOf(head)
}

// outcomeOf is a reply as a register keeps it: returned and the value, or
// raised and the class (never the message, as the gate compares).
func outcomeOf(r *gate.Reply) *validate.Outcome {
	switch {
	case r == nil:
		return nil
	case r.Outcome == gate.OutcomeReturned:
		return &validate.Outcome{Outcome: validate.OutcomeReturned, Value: validate.Normalize(r.Value)}
	case r.Outcome == gate.OutcomeRaised && r.Exc != nil:
		return &validate.Outcome{Outcome: validate.OutcomeRaised, Class: r.Exc.Class}
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
	// HeadBroken says, per language, why the head does not import or build
	// where the base does: a finding against the patch, never a skipped
	// stage (the patch can arrange to break only under premise).
	HeadBroken []string
	// Changes are the inputs on which base and head differ, for symbols an
	// assumption names; Unexplained those on symbols none names: findings
	// the proposer missed.
	Changes     []Change
	Unexplained []Change
	// Unstable are inputs whose output varies between reruns on one side
	// (a random string, the clock), or, for Python, between hash seeds (a
	// set's order): shown apart, never counted as changes.
	Unstable []Change
	// Reseeded is how many changed Python rows were rerun under other
	// hash seeds to tell a set's order from a change (reseed); zero when
	// no row changed.
	Reseeded int
	// Seed is the seed the generated rows were drawn with (Config.Seed).
	Seed int64
}

// SymbolRows is one changed symbol's share of the evidence.
type SymbolRows struct {
	Symbol string `json:"symbol"`
	Rows   int    `json:"rows"`
	// Why says why it got no rows ("" when it got some), or that a
	// budget cut them.
	Why string `json:"why,omitempty"`
	// Sources counts its rows by where their values came from (doctest,
	// test, parametrize, constant, mutation, generated, template).
	Sources map[string]int `json:"sources,omitempty"`
	// Seed is the run's seed: the same seed draws the same rows.
	Seed int64 `json:"seed,omitempty"`
	// Reads names the changed module-level data a function the patch did
	// not touch reads, or the changed functions it calls: why it is a
	// target at all.
	Reads []string `json:"reads,omitempty"`
}

// origin says where an evidence row came from.
type origin struct {
	assumptions []string // the register items whose rows ask this input; none for a signature-driven row
	symbol      string
	cause       []string // the changed names an unchanged caller reaches (Change.Cause)
	call        string   // the name rows call when it is not the symbol's (a class for its __init__)
	source      string   // where the row's values came from (Change.Source)
	lang        string
	probes      []any // extra calls a returned function is probed with (probesOf)
}

// target is one changed function that evidence rows can call on both sides.
type target struct {
	sym                diffparse.Symbol
	lang               string
	sig                *Signature
	baseText, headText string  // the function's source on each side
	py                 *pyInfo // what pysource read, for a Python target
	// reads are the changed module-level names an unchanged function is
	// a target for (issue 13, part 8); nil for a changed function.
	reads    []string
	dataLits []string // the string literals of the changed data
	// baseName is what the base calls the target when the patch renamed
	// its module ("" when the name is the same).
	baseName string
	// receivers are the objects a Python method's rows call it on, built
	// from the constructor calls its doctests and tests make; nil for a
	// function.
	receivers []any
	// call is the name rows call when it is not the symbol: a changed
	// __init__ is exercised by calling its class.
	call string
	gt   *goTarget // a Go target's package, instantiation and receivers
	// baseFile is the target's file on the base, relative to its top.
	baseFile string
}

// Run builds template rows for every assumption a reviewer has not
// rejected, and signature-driven boundary rows for every changed function,
// runs them against base and head, and reports every input on which the two
// behave differently: evidence for the reviewer before anyone has decided,
// and a check on the proposer, since a change no assumption explains is a
// finding the proposer missed. The error means the rows could not be run
// at all; a language whose code does not load is Skipped.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	rep := &Report{Changes: []Change{}, Unexplained: []Change{}, Symbols: []SymbolRows{}}
	rep.Seed = cfg.Seed
	if rep.Seed == 0 {
		rep.Seed = diffSeed(cfg.Diff)
	}
	pf := &pyFiles{headDir: cfg.HeadDir, perFunction: cfg.MaxRowsPerFunction}
	if pf.perFunction <= 0 {
		pf.perFunction = DefaultMaxRowsPerFunction
	}
	defer pf.close()
	targets, skipped := targetsOf(cfg.Diff, pf, &goPkgs{headDir: cfg.HeadDir, baseDir: cfg.BaseDir})
	defer func() { rep.Symbols = append(rep.Symbols, skipped...) }()
	if len(targets) == 0 {
		return rep, nil
	}
	bySymbol := map[string][]validate.Item{}
	if cfg.Register != nil {
		for _, it := range cfg.Register.Items {
			if it.Status == validate.StatusRejected || it.Stale || validate.IsChange(it.ID) {
				continue
			}
			bySymbol[it.Symbol] = append(bySymbol[it.Symbol], it)
		}
	}
	b := budget{perFunction: cfg.MaxRowsPerFunction, total: cfg.MaxRows, rng: rand.New(rand.NewSource(rep.Seed))}
	if b.perFunction <= 0 {
		b.perFunction = DefaultMaxRowsPerFunction
	}
	if b.total <= 0 {
		b.total = DefaultMaxRows
	}
	if n := len(targets); n*b.perFunction > b.total {
		// Many functions share the run's budget: each gets its share, so
		// the last ones are not left with none.
		b.perFunction = max(minPerFunction, b.total/n)
	}
	b.inputs = cfg.Inputs
	traced, note := tracedCalls(ctx, cfg, targets)
	b.traced = traced
	if note != "" {
		b.notes = append(b.notes, note)
	}
	tables, origins, err := buildTables(ctx, targets, bySymbol, &b)
	rep.Notes = b.notes
	if err != nil {
		return nil, err
	}
	perSymbol := map[string]int{}
	sources := map[string]map[string]int{}
	for _, o := range origins {
		perSymbol[o.symbol]++
		if sources[o.symbol] == nil {
			sources[o.symbol] = map[string]int{}
		}
		src, _, _ := strings.Cut(o.source, " ")
		sources[o.symbol][src]++
	}
	for _, tg := range targets {
		sr := SymbolRows{Symbol: tg.sym.Name, Rows: perSymbol[tg.sym.Name], Sources: sources[tg.sym.Name], Seed: rep.Seed, Reads: tg.reads}
		switch {
		case sr.Rows == 0 && b.cut[tg.sym.Name]:
			sr.Why = fmt.Sprintf("the run's budget of %d rows was spent before it", b.total)
		case sr.Rows == 0:
			sr.Why = noValues(tg)
		case b.cut[tg.sym.Name]:
			sr.Why = fmt.Sprintf("budget reached: %d rows kept", sr.Rows)
		}
		rep.Symbols = append(rep.Symbols, sr)
	}
	langs := make([]string, 0, len(tables))
	for l := range tables {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	for _, lang := range langs {
		t := tables[lang]
		t.Target = t.Rows[0].Target
		gcfg := cfg.Gate
		gcfg.Repo, gcfg.BaseDir, gcfg.Lang = cfg.HeadDir, cfg.BaseDir, lang
		gcfg.Private = true // the run's own checkouts: unexported Go helpers can be reached
		gcfg.BaseTargets = baseTargets(targets)
		gcfg.Reruns = reruns
		gcfg.Budget = len(t.Rows) // evidence never blocks on flakes
		gcfg.Freezes = nil
		gcfg.Progress = rowProgress(cfg.Progress, len(t.Rows))
		if gcfg.Timeout == 0 || gcfg.Timeout > callTimeout {
			gcfg.Timeout = callTimeout
		}
		grep, err := gate.Differential(ctx, gcfg, t)
		var infra *gate.InfraError
		for tries := 0; errors.As(err, &infra) && tries < maxModuleRetries; tries++ {
			// One Python module that does not import (a noxfile wanting
			// nox) must not take the other modules' rows with it.
			rest, why, ok := dropModule(ctx, gcfg, t, modulesOf(targets), err)
			if !ok {
				break
			}
			if why.headOnly {
				rep.HeadBroken = append(rep.HeadBroken, why.text)
			} else {
				rep.noLoad(modulesOf(targets), why.module, why.text)
				rep.Skipped = append(rep.Skipped, why.text)
			}
			t = rest
			gcfg.Budget, gcfg.Progress = len(t.Rows), rowProgress(cfg.Progress, len(t.Rows))
			grep, err = gate.Differential(ctx, gcfg, t)
		}
		switch {
		case errors.As(err, &infra):
			why := fmt.Sprintf("%s rows: %s", lang, oneLine(err.Error()))
			if baseLoads(ctx, gcfg, t) {
				rep.HeadBroken = append(rep.HeadBroken, why)
			} else {
				// Neither side loads here: the register and the draft are
				// still worth having, so say so and go on; nothing is
				// checked, and the run cannot pass on these rows.
				rep.Skipped = append(rep.Skipped, why)
			}
			continue
		case err != nil:
			return nil, fmt.Errorf("evidence rows (%s): %w", lang, err)
		}
		rep.Rows += len(grep.Rows)
		if lang == "python" {
			// A Go row needs no other seeds: the runtime randomises map
			// order on every range, so its reruns already see it.
			n, notes, err := reseed(ctx, gcfg, t, grep)
			if err != nil {
				return nil, fmt.Errorf("evidence rows (%s): %w", lang, err)
			}
			rep.Reseeded += n
			rep.Notes = append(rep.Notes, notes...)
		}
		rep.collect(t, grep, origins, bySymbol)
		for _, c := range shrink(ctx, gcfg, t, grep, origins) {
			rep.file(c, bySymbol)
		}
	}
	sortChanges(rep.Changes)
	sortChanges(rep.Unexplained)
	return rep, nil
}

// maxModuleRetries bounds the modules left out of one language's rows
// because they do not import.
const maxModuleRetries = 8

// importFailRe finds the module a Python worker could not import.
var importFailRe = regexp.MustCompile(`\bimport ([A-Za-z_][\w.]*): `)

// moduleFailure is a module left out of the rows: why, and whether only
// the head fails to import it (a finding, not a skip).
type moduleFailure struct {
	module, text string
	headOnly     bool
}

// dropModule takes out of t the rows of the Python module err says does not
// import, when other modules' rows remain: the rest, and why the module's
// rows were left out. ok is false when err names no such module.
func dropModule(ctx context.Context, cfg gate.Config, t *validate.Table, modules map[string]string, err error) (*validate.Table, moduleFailure, bool) {
	m := importFailRe.FindStringSubmatch(err.Error())
	if t.Language != "python" || m == nil {
		return nil, moduleFailure{}, false
	}
	mod := m[1]
	if owner, ok := modules[mod]; ok {
		// The worker names the target it was importing for.
		mod = owner
	}
	rest, cut := *t, *t
	rest.Rows, cut.Rows = nil, nil
	for _, r := range t.Rows {
		if modules[t.TargetOf(r)] == mod {
			cut.Rows = append(cut.Rows, r)
		} else {
			rest.Rows = append(rest.Rows, r)
		}
	}
	if len(cut.Rows) == 0 || len(rest.Rows) == 0 {
		return nil, moduleFailure{}, false
	}
	rest.Target = rest.Rows[0].Target
	why := moduleFailure{module: mod, text: "python rows: " + oneLine(err.Error())}
	why.headOnly = baseLoads(ctx, cfg, &cut)
	return &rest, why, true
}

// modulesOf maps each target, by its symbol and by the name its rows
// call, to its module.
func modulesOf(targets []target) map[string]string {
	out := map[string]string{}
	for _, tg := range targets {
		mod := strings.TrimSuffix(tg.sym.Name, "."+tg.sym.Local)
		out[tg.sym.Name] = mod
		if tg.call != "" {
			out[tg.call] = mod
		}
	}
	return out
}

// noLoad says the symbols of module mod ran no rows: the module does not
// import here, on either side.
func (rep *Report) noLoad(modules map[string]string, mod, why string) {
	for i, s := range rep.Symbols {
		if modules[s.Symbol] == mod {
			rep.Symbols[i].Rows, rep.Symbols[i].Sources = 0, nil
			rep.Symbols[i].Why = "its module does not import here: " + why
		}
	}
}

// baseTargets are the base's names for targets whose module the patch
// renamed: the base is called under its own name, not the head's.
func baseTargets(targets []target) map[string]string {
	var m map[string]string
	for _, tg := range targets {
		if tg.baseName == "" {
			continue
		}
		if m == nil {
			m = map[string]string{}
		}
		key := tg.sym.Name
		if tg.call != "" {
			key = tg.call
		}
		m[key] = tg.baseName
	}
	return m
}

// baseLoads reports whether the base side runs t's first rows without an
// infrastructure error: whether a failure to load is the head's own.
func baseLoads(ctx context.Context, cfg gate.Config, t *validate.Table) bool {
	probe := *t
	probe.Rows = nil
	for _, r := range t.Rows[:min(3, len(t.Rows))] {
		// Only whether the call can be attempted matters here, under the
		// base's own name.
		r.SameAsBase, r.Contract = false, "true"
		if name, ok := cfg.BaseTargets[t.TargetOf(r)]; ok {
			r.Target = name
		}
		probe.Rows = append(probe.Rows, r)
	}
	cfg.Repo, cfg.Base, cfg.BaseDir = cfg.BaseDir, "", ""
	cfg.Reruns, cfg.Budget, cfg.Progress = 1, len(probe.Rows), nil
	_, err := gate.Run(ctx, cfg, &probe)
	var infra *gate.InfraError
	return err == nil || !errors.As(err, &infra)
}

// buildTables makes one table of evidence rows per language.
func buildTables(ctx context.Context, targets []target, bySymbol map[string][]validate.Item, b *budget) (map[string]*validate.Table, map[string]origin, error) {
	tables := map[string]*validate.Table{}
	origins := map[string]origin{}
	n := 0
	add := func(lang string, rows []validate.Row, o origin, sourceOf map[string]string) {
		if len(rows) > b.perFunction {
			rows = rows[:b.perFunction]
			b.cutAt(o.symbol)
		}
		if left := b.total - n; len(rows) > left {
			rows = rows[:max(left, 0)]
			b.cutAt(o.symbol)
		}
		for _, r := range rows {
			if r.Todo != "" {
				continue
			}
			t := tables[lang]
			if t == nil {
				t = &validate.Table{Version: validate.FormatVersion, Language: lang}
				tables[lang] = t
			}
			n++
			r.ID = fmt.Sprintf("E%03d", n)
			args, kwargs := r.CallArgs()
			key := callText(args, kwargs)
			r.Target = o.symbol
			if o.call != "" {
				r.Target = o.call
			}
			// Evidence compares the two sides only: what the base does is
			// the reference, whatever the template expected.
			r.SameAsBase, r.Contract, r.Raises, r.Metamorphic = true, "", "", nil
			if lang == "python" {
				r = observed(r, o.probes)
			}
			t.Rows = append(t.Rows, r)
			oo := o
			oo.lang = lang
			if src, ok := sourceOf[key]; ok {
				oo.source = src
			} else {
				oo.source = "template"
			}
			for _, id := range r.AssumptionIDs {
				if strings.HasPrefix(id, "A") {
					oo.assumptions = append(oo.assumptions, id)
				}
			}
			origins[r.ID] = oo
		}
	}
	gen := Templates{}
	for _, tg := range targets {
		name := tg.sym.Name
		var rows []validate.Row
		if items := bySymbol[name]; len(items) > 0 {
			r, err := gen.Generate(ctx, Request{Target: name, Sig: tg.sig, Assumptions: items})
			if err != nil {
				return nil, nil, err
			}
			rows = append(rows, r...)
		}
		r, err := gen.Generate(ctx, Request{Target: name, Sig: tg.sig, Assumptions: signatureItems(tg.sig)})
		if err != nil {
			return nil, nil, err
		}
		rows = append(rows, r...)
		sourceOf := map[string]string{}
		if tg.receivers != nil {
			// A method: the templates know nothing of receivers; every row
			// is a call on an object the repository's own examples build.
			rows = nil
			for _, pr := range methodRows(tg, b.rng, b.perFunction) {
				args, kwargs := pr.row.CallArgs()
				if k := callText(args, kwargs); sourceOf[k] == "" {
					sourceOf[k] = pr.source
				}
				rows = append(rows, pr.row)
			}
		} else if tg.py != nil {
			// What the code under review says comes first: harvested
			// inputs lead the Python rows, then the templates'.
			py := pyValueRows(tg.sig, tg.py, pyLiterals(tg), b.rng, b.perFunction)
			var head []validate.Row
			for _, pr := range py {
				args, kwargs := pr.row.CallArgs()
				k := callText(args, kwargs)
				if _, dup := sourceOf[k]; !dup {
					sourceOf[k] = pr.source
				}
				if pr.source != sourceGenerated && pr.source != sourceMutation {
					head = append(head, pr.row)
				}
			}
			rows = append(head, rows...)
			for _, pr := range py {
				if pr.source == sourceGenerated || pr.source == sourceMutation {
					rows = append(rows, pr.row)
				}
			}
		} else if tg.gt != nil {
			if tg.gt.recv != "" || tg.gt.inst != nil {
				// The templates know neither receivers nor type
				// arguments.
				rows = nil
			}
			var head []validate.Row
			for _, pr := range goRows(tg, b.rng, b.perFunction) {
				args, kwargs := pr.row.CallArgs()
				if k := callText(args, kwargs); sourceOf[k] == "" {
					sourceOf[k] = pr.source
				}
				if pr.source != sourceGenerated {
					head = append(head, pr.row)
				} else {
					rows = append(rows, pr.row)
				}
			}
			// What the tests call leads, as for Python.
			rows = append(head, rows...)
		} else {
			rows = append(rows, valueRows(tg.sig, literals(tg.baseText, tg.headText))...)
		}
		if tr := tracedRows(tg, b.traced[name]); len(tr) > 0 {
			for _, r := range tr {
				args, kwargs := r.CallArgs()
				sourceOf[callText(args, kwargs)] = sourceTraced
			}
			rows = append(tr, rows...)
		}
		if b.inputs != nil {
			mr := b.modelRows(ctx, tg, bySymbol[name])
			for _, r := range mr {
				args, kwargs := r.CallArgs()
				if k := callText(args, kwargs); sourceOf[k] == "" {
					sourceOf[k] = sourceModel
				}
			}
			rows = append(mr, rows...)
		}
		add(tg.lang, dedupe(rows), origin{symbol: name, call: tg.call, probes: probesOf(tg.py), cause: tg.reads}, sourceOf)
	}
	return tables, origins, nil
}

// budget is the run's row bounds, its one random source, and the model
// asked for inputs.
type budget struct {
	perFunction, total int
	rng                *rand.Rand
	cut                map[string]bool // symbols whose rows a bound cut
	inputs             InputsFunc
	traced             map[string][]ModelCall // calls the base's tests made, by symbol
	notes              []string
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

// attributeNames are names of attributes the values of a pool have.
var attributeNames = []string{"count", "upper", "keys", "__class__", "real"}

// pyLiterals are the string literals of a Python target's two versions:
// pysource's constants (any length, none from error messages), else the
// regular expression's short ones.
func pyLiterals(tg target) []string {
	// The changed data's literals come first: what the patch changed is
	// what the strings built from patterns must reach.
	var out []string
	seen := map[string]bool{}
	for _, l := range tg.dataLits {
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	own := 0
	for _, c := range tg.py.consts {
		if c.Kind != "str" {
			continue
		}
		v, ok := pyLiteral(c.Value)
		s, isStr := v.(string)
		if !ok || !isStr || s == "" || seen[s] || own >= 12 {
			continue
		}
		seen[s] = true
		own++
		out = append(out, s)
	}
	if strings.Contains(tg.py.text, "getattr(") || strings.Contains(tg.py.text, "hasattr(") || strings.Contains(tg.py.text, "attrgetter(") {
		// A function that looks names up as attributes is reached by the
		// names the values in its pools have: a list's count, a str's
		// upper, a dict's keys, every object's __class__.
		for _, l := range attributeNames {
			if !seen[l] {
				seen[l] = true
				out = append(out, l)
			}
		}
	}
	if own == 0 && tg.py.consts == nil {
		for _, l := range literals(tg.baseText, tg.headText) {
			if !seen[l] {
				seen[l] = true
				out = append(out, l)
			}
		}
	}
	return withSeparators(out)
}

// collect records the rows of one language whose outcome changed.
func (rep *Report) collect(t *validate.Table, grep *gate.Report, origins map[string]origin, bySymbol map[string][]validate.Item) {
	rows := map[string]validate.Row{}
	for _, r := range t.Rows {
		rows[r.ID] = r
	}
	for _, rr := range grep.Rows {
		if len(rr.Attempts) == 0 {
			continue
		}
		unstable := unstableRow(rr)
		if !rr.Changed && !unstable {
			continue
		}
		o := origins[rr.ID]
		row := rows[rr.ID]
		a := rr.Attempts[len(rr.Attempts)-1]
		args, kwargs := row.CallArgs()
		c := Change{
			Row: rr.ID, Assumptions: o.assumptions, Symbol: o.symbol, Class: row.Cls,
			Input: callText(args, kwargs), Base: describe(a.Base), Head: describe(&a.Reply),
			SpecChange: rr.SpecChange, Source: o.source, Cause: o.cause,
		}
		c.Call, c.BaseOutcome, c.HeadOutcome = replay(o.lang, t.TargetOf(row), args, kwargs, a.Base, &a.Reply)
		if o.lang == "python" {
			c.Input = pyCallText(args, kwargs)
			c.Base, c.Head = pyDescribe(a.Base, &a.Reply, o.probes)
		}
		if o.lang == "go" {
			c.Input = goCallText(args) + goSettingsText(kwargs)
		}
		if len(c.Assumptions) > 0 {
			c.Assumption = c.Assumptions[0]
		}
		if unstable {
			rep.Unstable = append(rep.Unstable, c)
			continue
		}
		rep.file(c, bySymbol)
	}
}

// unstableRow reports whether a row's reruns answered differently on one
// side: its result is no evidence of what the patch changed.
func unstableRow(rr gate.RowResult) bool {
	if rr.Status == gate.StatusFlake || varies(rr.BaseSeen) {
		return true
	}
	var head []string
	for _, a := range rr.Attempts {
		head = append(head, describe(&a.Reply))
	}
	return varies(head)
}

// varies reports whether a side's reruns answered differently.
func varies(seen []string) bool {
	for _, s := range seen {
		if s != seen[0] {
			return true
		}
	}
	return false
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
// sides: modified functions of Python and Go files (an added function has
// no base to compare with; a method needs a receiver a JSON row cannot
// build). Each side of a file is parsed once, whatever number of its
// functions changed.
func targetsOf(res *diffparse.Result, pf *pyFiles, gp *goPkgs) ([]target, []SymbolRows) {
	var out []target
	var skipped []SymbolRows
	skip := func(f diffparse.File, why string) {
		for _, s := range f.Symbols {
			skipped = append(skipped, SymbolRows{Symbol: s.Name, Why: why})
		}
	}
	for _, f := range res.Files {
		switch {
		case f.Excluded != "":
			skip(f, "its file is excluded: "+f.Excluded)
			continue
		case f.ParseError != "":
			skip(f, "its file does not parse: "+f.ParseError)
			continue
		case f.HeadSrc == nil:
			skip(f, "deleted: the head no longer has it")
			continue
		case f.BaseSrc == nil:
			skip(f, "its file is new: no base to compare with")
			continue
		}
		var sigs map[string]*Signature
		var baseDecls []diffparse.Decl
		var pyf *pyFile
		parsed := false
		syms := f.Symbols
		readers, reads, dataLits := dataReaders(f)
		if f.Language == "go" {
			readers, reads, dataLits = goDataReaders(f, gp.importPath(f.Path))
		}
		syms = append(syms[:len(syms):len(syms)], readers...)
		callers, reaches := changedCallers(f)
		syms = append(syms, callers...)
		for name, r := range reaches {
			if reads == nil {
				reads = map[string][]string{}
			}
			reads[name] = append(reads[name], r...)
		}
		for _, s := range syms {
			switch {
			case s.Kind == "method" && f.Language != "python" && f.Language != "go":
				skipped = append(skipped, SymbolRows{Symbol: s.Name, Why: "a method: no receiver can be built yet"})
				continue
			case s.Kind != "function" && s.Kind != "method":
				skipped = append(skipped, SymbolRows{Symbol: s.Name, Why: "a " + s.Kind + ", not a function"})
				continue
			case s.Change == "deleted":
				// Issue 25: a deleted function has a base and no head.
				skipped = append(skipped, SymbolRows{Symbol: s.Name, Why: "deleted: the head no longer has it"})
				continue
			case s.Change != "modified":
				skipped = append(skipped, SymbolRows{Symbol: s.Name, Why: s.Change + ": no base to compare with"})
				continue
			}
			if !parsed {
				parsed = true
				sigs = Signatures(f.Language, f.HeadSrc)
				baseDecls, _ = diffparse.Decls(f.Language, f.BaseSrc)
				if f.Language == "python" {
					pyf = pf.parse(f)
				}
			}
			sig := sigs[s.Local]
			switch {
			case sig == nil:
				skipped = append(skipped, SymbolRows{Symbol: s.Name, Why: "its signature could not be read"})
				continue
			case len(sig.Params) == 0 && pyf == nil && s.Kind != "method" && f.Language != "go":
				skipped = append(skipped, SymbolRows{Symbol: s.Name, Why: "it takes no parameters to vary"})
				continue
			case sig.Generic && f.Language != "go":
				// The harness would have to instantiate it; referring to it
				// uninstantiated fails the build of every target beside it.
				skipped = append(skipped, SymbolRows{Symbol: s.Name, Why: "generic: not instantiated yet"})
				continue
			}
			var info *pyInfo
			if pyf != nil {
				info = pf.info(pyf, s.Local)
				// A function of *args alone has no parameter to vary, but
				// the calls its doctests and tests make are inputs.
				if len(sig.Params) == 0 && sig.Varargs == nil && len(info.harvested) == 0 && s.Kind != "method" && !pf.probe {
					skipped = append(skipped, SymbolRows{Symbol: s.Name, Why: "it takes no parameters to vary, and no call of it was found"})
					continue
				}
			}
			baseFile := f.OldPath
			if baseFile == "" {
				baseFile = f.Path
			}
			tg := target{sym: s, lang: f.Language, sig: sig, baseFile: baseFile,
				headText: span(f.HeadSrc, s.Start, s.End),
				baseText: declText(f.BaseSrc, baseDecls, s.Local)}
			tg.py = info
			if info != nil {
				info.classValues = classParamValues(s, sig, sigs, pf, pyf)
				info.text = tg.headText + "\n" + tg.baseText
			}
			if f.Language == "python" && f.OldPath != "" && f.OldPath != f.Path {
				if oldMod, newMod := diffparse.PythonModule(f.OldPath), diffparse.PythonModule(f.Path); oldMod != newMod && strings.HasPrefix(s.Name, newMod+".") {
					tg.baseName = oldMod + strings.TrimPrefix(s.Name, newMod)
				}
			}
			if s.Kind == "method" && f.Language == "python" && isInit(s) {
				// A changed constructor runs by calling its class: what it
				// builds (its repr, its fields) is the outcome compared.
				tg.call = strings.TrimSuffix(s.Name, ".__init__")
				if tg.baseName != "" {
					tg.baseName = strings.TrimSuffix(tg.baseName, ".__init__")
				}
			}
			if f.Language == "go" {
				why := goPlan(&tg, gp, f)
				if why == "" && len(sig.Params) == 0 && s.Kind != "method" && len(tg.gt.vars) == 0 && !gp.probe {
					// A Go function of no parameters still has inputs when
					// it reads package variables rows can set.
					why = "it takes no parameters to vary, and reads no package variable of a basic type"
				}
				if why != "" {
					skipped = append(skipped, SymbolRows{Symbol: s.Name, Why: why})
					continue
				}
			}
			if tg.reads = reads[s.Name]; tg.reads != nil {
				tg.dataLits = dataLits
			}
			if s.Kind == "method" && f.Language == "python" && tg.call == "" && pyf != nil && classBound(pyf.head.Decorators(s.Local)) {
				// A static or class method is called through its class, as
				// a function: Cls.m(x) and obj.m(x) in the tests are the
				// same call of it, and no receiver goes in front.
				for i := range info.harvested {
					info.harvested[i].Receiver, info.harvested[i].ReceiverCall = "", nil
				}
			} else if s.Kind == "method" && f.Language == "python" && tg.call == "" {
				lits := pyLiterals(tg)
				n := receiverCount(tg, max(pf.perFunction, maxReceivers))
				tg.receivers = receiversOf(s, info, lits, n)
				if len(tg.receivers) < n {
					// The constructor's own parameters fill the rest.
					tg.receivers = dedupeValues(append(tg.receivers, initReceivers(s, sigs, pf, pyf, lits, n-len(tg.receivers))...))
				}
				if len(tg.receivers) == 0 && !pf.probe {
					skipped = append(skipped, SymbolRows{Symbol: s.Name, Why: "a method: no constructor call of its class in its doctests or tests to build a receiver from"})
					continue
				}
			}
			out = append(out, tg)
		}
	}
	return out, skipped
}

// classBound says a Python method's decorators make it a static or class
// method, called without an instance.
func classBound(decorators []string) bool {
	for _, d := range decorators {
		if d == "staticmethod" || d == "classmethod" {
			return true
		}
	}
	return false
}

// noValues says why a target got no rows: the parameters no value could be
// built for.
func noValues(tg target) string {
	var unknown []string
	var types []Type
	if tg.gt != nil {
		types = goParamTypes(tg)
	}
	for i, p := range tg.sig.Params {
		t := Infer(tg.lang, p)
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
		k := callText(args, kwargs)
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

// span is lines start..end (1-based, inclusive) of src.
func span(src []byte, start, end int) string {
	lines := strings.Split(string(src), "\n")
	if start < 1 || start > len(lines) {
		return ""
	}
	if end > len(lines) {
		end = len(lines)
	}
	return strings.Join(lines[start-1:end], "\n")
}

// declText is the source of the declaration called local among decls of
// src, "" when there is none.
func declText(src []byte, decls []diffparse.Decl, local string) string {
	for _, d := range decls {
		if d.Local == local {
			return span(src, d.Start, d.End)
		}
	}
	return ""
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
