package evidence

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/internal/git"
	"github.com/premise-dev/premise/validate"
)

// ExtendConfig is one run of the partitions stage.
type ExtendConfig struct {
	// Register is the register file; Partitions the table to create or
	// extend.
	Register, Partitions string
	// Target, when set, limits the stage to the assumptions about it.
	Target string
	// Diff, when set, gives the head sources of the files the assumptions
	// cite (premise run has them in hand); otherwise they are read at the
	// register's head commit, else from the work tree.
	Diff *diffparse.Result
	// Generator drafts the rows; the offline templates when nil.
	Generator Generator
	// ModelRows, when set, asks a model for more rows of each target,
	// given its source and the template rows (issue 13, part 10); nil
	// without a model. CheckOnBase runs them on the base: a model row is
	// kept only if it is well formed and holds there, and without a
	// CheckOnBase none is kept.
	ModelRows   RowsFunc
	CheckOnBase BaseCheck
	// Added are the symbols the head adds, whose decided rows cannot
	// defer to the base; Diff's added symbols when nil.
	Added map[string]bool
}

// ExtendResult is what the partitions stage did.
type ExtendResult struct {
	Register *validate.Register
	Table    *validate.Table
	// Added are the rows added, as they are in the table; Kept how many
	// rows the table held before.
	Added   []validate.Row
	Kept    int
	Targets []TargetSignature
	// Written says whether the table file was written.
	Written bool
	// FromModel are the ids of the added rows a model wrote; Dropped the
	// model's rows not kept, each with why; Notes what the stage could
	// not do but did without (a model that did not answer).
	FromModel []string
	Dropped   []DroppedRow
	Notes     []string
}

// TargetSignature is the signature one target's rows were built from.
type TargetSignature struct {
	Target    string     `json:"target"`
	Source    string     `json:"source,omitempty"` // the file the signature was read from
	Signature *Signature `json:"signature,omitempty"`
	SigError  string     `json:"signature_error,omitempty"`
}

// Extend is the partitions stage: it reads the register and the table (a
// missing table is an empty one), writes the witness rows of decided
// changes, generates rows for every decided assumption no row of the table
// cites yet (an accepted one's where it still holds, a rejected one's
// where it is violated: decidedRows), adds them (rows already in the
// table, hand-written ones included, are kept as they are; new rows get
// the next free ids) and writes the table atomically. The rows premise
// wrote for an assumption whose decision changed since are replaced. A
// row no template can fill is added with a todo that the register check
// refuses.
func Extend(ctx context.Context, cfg ExtendConfig) (*ExtendResult, error) {
	reg, err := validate.LoadRegister(cfg.Register)
	if err != nil {
		return nil, err
	}
	var order []string
	bySymbol := map[string][]validate.Item{}
	known := false
	for _, it := range reg.Items {
		if cfg.Target != "" && it.Symbol != cfg.Target {
			continue
		}
		known = true
		decided := it.Status == validate.StatusAccepted || it.Status == validate.StatusRejected
		if !decided || it.Stale || validate.IsChange(it.ID) {
			continue // change items become witness rows (witnessRows)
		}
		if _, ok := bySymbol[it.Symbol]; !ok {
			order = append(order, it.Symbol)
		}
		bySymbol[it.Symbol] = append(bySymbol[it.Symbol], it)
	}
	if cfg.Target != "" && !known {
		return nil, fmt.Errorf("%s holds no assumption about %s (see the symbols in the file)", cfg.Register, cfg.Target)
	}
	res := &ExtendResult{Register: reg, Added: []validate.Row{}, Targets: []TargetSignature{}}
	gen := cfg.Generator
	if gen == nil {
		gen = Templates{}
	}
	src := sources{dir: filepath.Dir(cfg.Register), prov: reg.Provenance, diff: cfg.Diff, sigs: map[string]map[string]*Signature{}}
	// The table is read, extended and written under its lock, so rows a
	// human adds meanwhile are kept.
	err = validate.UpdateTable(ctx, cfg.Partitions, func(tb *validate.Table) (*validate.Table, error) {
		if tb == nil {
			tb = &validate.Table{Version: validate.FormatVersion, Rows: []validate.Row{}}
		}
		res.Table, res.Kept = tb, len(tb.Rows)
		res.Added, res.Targets = []validate.Row{}, []TargetSignature{}
		res.FromModel, res.Dropped, res.Notes = []string{}, []DroppedRow{}, nil
		before, _ := tb.Marshal()
		// Witnesses first (issue 25): found failures are replayed before
		// any template or model row, as Hypothesis's example database is.
		res.Added = append(res.Added, witnessRows(tb, reg, cfg.Target)...)
		if err := extend(ctx, &cfg, res, order, bySymbol, gen, &src); err != nil {
			return nil, err
		}
		after, _ := tb.Marshal()
		if len(res.Added) > 0 || res.Kept == 0 || string(before) != string(after) {
			res.Written = true
			return tb, nil
		}
		return nil, nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// extend adds to res.Table the rows for every accepted assumption no row
// cites yet.
func extend(ctx context.Context, cfg *ExtendConfig, res *ExtendResult, order []string, bySymbol map[string][]validate.Item, gen Generator, src *sources) error {
	tb := res.Table
	path := cfg.Partitions
	var cands []modelCandidate
	var templates [][]validate.Row
	redecided(tb, bySymbol)
	covered := map[string]bool{}
	for _, r := range tb.Rows {
		for _, id := range r.AssumptionIDs {
			covered[id] = true
		}
	}
	pinned := witnessInputs(tb)
	added := cfg.Added
	if added == nil {
		added = AddedSymbols(cfg.Diff)
	}
	langs := lang.LanguagesFor(src.dir, "", 0, true)
	defer langs.Close()
	defer src.close()
	for _, sym := range order {
		items := uncovered(bySymbol[sym], covered)
		if len(items) == 0 {
			continue
		}
		sig, langName, file, sigErr := src.signature(ctx, sym, items)
		ts := TargetSignature{Target: sym, Source: file, Signature: sig}
		if sigErr != nil {
			ts.SigError = sigErr.Error()
		}
		res.Targets = append(res.Targets, ts)
		switch {
		case tb.Language == "":
			tb.Language = langName
		case langName != "" && langName != tb.Language:
			return fmt.Errorf("%s: accepted assumptions span %s and %s targets; keep one partitions file per language (premise partitions --target)", path, tb.Language, langName)
		}
		local, method := src.methodOf(ctx, langName, file, sym)
		var kn known
		if sig != nil && local != "" {
			kn = src.known(ctx, res.Register, langName, file, sym, local, method, sig)
		}
		rows, err := gen.Generate(ctx, Request{Target: sym, Sig: sig, Assumptions: items, Decided: true, Method: method,
			Types: kn.types, Receivers: kn.recvs, Typical: witnessArgs(res.Register, sym, sig, method)})
		if err != nil {
			return fmt.Errorf("generate rows for %s: %w", sym, err)
		}
		if method && sig != nil && !kn.none {
			// A method's rows carry their receiver (issue 25, item 4).
			rows = onReceivers(rows, kn.recvs, kn.why)
		}
		// Every row names its target: the table outlives the change, and
		// the next change's rows are about other functions. A row on an
		// input a decided change's witness row already pins is left to
		// that row: the reviewer decided that input.
		kept := rows[:0]
		ob, _ := langs[langName].(lang.Observer)
		if ob != nil && !yieldRe.MatchString(src.source(ctx, langName, file, sym)) {
			ob = nil // its rows keep the form a reader writes
		}
		for _, r := range rows {
			r.Target = sym
			if d := pinned[pinnedKey(tb, r)]; r.Todo == "" && d != "" && !(d == validate.StatusRejected && r.SameAsBase) {
				// A rejected change's witness holds the base's outcome
				// there too: a row of the same input that asks the same
				// is kept, so that its assumption has a row.
				continue
			}
			if ob != nil && comparedOnly(r) {
				// A generator is compared with the base by its items, as
				// the evidence compares it: it has no JSON form otherwise,
				// and every such row would error on both sides.
				r = ob.Observe(r, nil)
			}
			kept = append(kept, r)
		}
		rows = kept
		// An "error-accepted" assumption is about the inputs the base
		// refused: the evidence's witnesses of them are its rows.
		for i := 0; i < len(rows); i++ {
			if r := rows[i]; r.Todo != "" && r.Cls == "error-accepted" {
				if it := itemCited(items, r.AssumptionIDs); it != nil {
					wr, conflicts := refusedRows(res.Register, sym, *it)
					switch {
					case len(wr) > 0:
						rows = append(append(rows[:i:i], wr...), rows[i+1:]...)
						i += len(wr) - 1
					case len(conflicts) > 0:
						rows[i].Todo = conflictTodo(*it, conflicts)
					}
				}
			}
		}

		if added[sym] {
			rows = newOnHead(sym, items, rows)
		}
		templates = append(templates, rows)
		if acc := acceptedOnly(items); cfg.ModelRows != nil && sig != nil && len(acc) > 0 {
			source := src.source(ctx, langName, file, sym)
			cands = append(cands, askModelRows(ctx, cfg, res, sym, langName, source, sig, acc, rows)...)
		}
	}
	// The model's rows are checked on the base, and come after every
	// template row. A todo row is left out when kept model rows test the
	// edge of each assumption it is for: what it asked a human to write
	// is written.
	kept := checkModelRows(ctx, cfg, res, tb.Language, cands)
	edge := map[string]bool{}
	for _, r := range kept {
		if r.Kind == validate.KindBoundary || r.Kind == validate.KindInvalid {
			for _, id := range r.AssumptionIDs {
				edge[id] = true
			}
		}
	}
	for _, rows := range templates {
		var keep []validate.Row
		for _, r := range rows {
			if r.Todo == "" || !allIn(r.AssumptionIDs, edge) {
				keep = append(keep, r)
			}
		}
		res.Added = append(res.Added, Merge(tb, keep)...)
	}
	for _, r := range Merge(tb, kept) {
		res.Added = append(res.Added, r)
		res.FromModel = append(res.FromModel, r.ID)
	}
	return nil
}

// yieldRe finds a function that yields: a generator.
var yieldRe = regexp.MustCompile(`\byield\b`)

// comparedOnly says a filled-in row asks only that the head do what the
// base does: no contract, relation or raise reads its value.
func comparedOnly(r validate.Row) bool {
	return r.Todo == "" && r.SameAsBase && r.Contract == "" && r.Raises == "" && len(r.Metamorphic) == 0 && r.Kind != validate.KindProperty
}

func allIn(ids []string, set map[string]bool) bool {
	for _, id := range ids {
		if !set[id] {
			return false
		}
	}
	return len(ids) > 0
}

// uncovered are the items no existing row cites: a table a human edited is
// not padded again on every run.
func uncovered(items []validate.Item, covered map[string]bool) []validate.Item {
	var out []validate.Item
	for _, it := range items {
		if !covered[it.ID] {
			out = append(out, it)
		}
	}
	return out
}

// sources finds the head source of the files assumptions cite, each file
// read and parsed once.
type sources struct {
	dir  string
	prov *validate.Provenance
	diff *diffparse.Result
	sigs map[string]map[string]*Signature // by file
	text map[string][]byte                // by file, as read
	// readers are the languages that read a target as the evidence does
	// (its receivers, its parameters' types), made on first use and kept
	// for every symbol: a language reads the repository's tests once.
	readers lang.Languages
}

// reader is the language lang as the evidence reads a target with it.
func (s *sources) reader(langName string) lang.Language {
	if s.readers == nil {
		s.readers = lang.LanguagesFor(s.dir, "", lang.MaxReceivers, false)
	}
	return s.readers[langName]
}

// close releases what the readers read.
func (s *sources) close() {
	if s.readers != nil {
		s.readers.Close()
	}
}

// signature reads a symbol's signature from the file its assumptions cite.
// A nil signature with an error makes every row a todo.
func (s *sources) signature(ctx context.Context, symbol string, items []validate.Item) (*Signature, string, string, error) {
	file := ""
	for _, it := range items {
		if it.File != "" {
			file = it.File
			break
		}
	}
	if file == "" {
		return nil, "", "", fmt.Errorf("no assumption about it names its file")
	}
	l := languageOfFile(file)
	if l == nil {
		return nil, "", file, fmt.Errorf("%s is in no language premise reads (%s)", file, strings.Join(lang.StaticLanguages().Names(), ", "))
	}
	langName := l.Name()
	sigs, ok := s.sigs[file]
	if !ok {
		text, err := s.read(ctx, file)
		if err != nil {
			return nil, langName, file, fmt.Errorf("read %s: %w", file, err)
		}
		sigs = l.Signatures(text)
		if sigs == nil {
			return nil, langName, file, fmt.Errorf("%s signature: %s does not parse", langName, file)
		}
		s.sigs[file] = sigs
	}
	if sig := lookup(sigs, l, symbol); sig != nil {
		return sig, langName, file, nil
	}
	return nil, langName, file, fmt.Errorf("%s signature: no function %s", langName, symbol)
}

// source is the text of symbol's declaration in file, or the whole file
// when no declaration of that name is found in it.
func (s *sources) source(ctx context.Context, langName, file, symbol string) string {
	text, err := s.read(ctx, file)
	if err != nil {
		return ""
	}
	decls, err := diffparse.Decls(langName, text)
	if err != nil {
		return string(text)
	}
	lines := strings.SplitAfter(string(text), "\n")
	for _, d := range decls {
		if (d.Kind == "function" || d.Kind == "method") && slices.Contains(lang.StaticLanguages()[langName].Locals(symbol), d.Local) && d.Start >= 1 && d.End <= len(lines) {
			return strings.Join(lines[d.Start-1:d.End], "")
		}
	}
	return string(text)
}

// read returns file's head source: from the diff when it holds the file,
// else at the register's head commit when git has it (the work tree may be
// on another branch), else beside the register, else from the working
// directory.
func (s *sources) read(ctx context.Context, file string) ([]byte, error) {
	if text, ok := s.text[file]; ok {
		return text, nil
	}
	text, err := s.readOnce(ctx, file)
	if err == nil {
		if s.text == nil {
			s.text = map[string][]byte{}
		}
		s.text[file] = text
	}
	return text, err
}

// readOnce is read without the memo: the signature and the model's
// source of each target read their file once between them.
func (s *sources) readOnce(ctx context.Context, file string) ([]byte, error) {
	if s.diff != nil {
		for _, f := range s.diff.Files {
			if f.Path == filepath.ToSlash(file) && f.HeadSrc != nil {
				return f.HeadSrc, nil
			}
		}
	}
	if s.prov != nil && s.prov.Head != "" {
		if repo, err := git.Open(ctx, s.dir); err == nil {
			if text, err := repo.Run(ctx, "show", s.prov.Head+":"+filepath.ToSlash(file)); err == nil {
				return text, nil
			}
		}
	}
	path := file
	if !filepath.IsAbs(path) {
		path = filepath.Join(s.dir, file)
	}
	text, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		text, err = os.ReadFile(file)
	}
	return text, err
}

// lookup finds symbol's signature by the names l gives it inside its file:
// a Go symbol (example.com/m/pkg.Type.Method) by its name inside the
// package, a Python one (pkg.mod.Class.method) by the longest dotted
// suffix that names a function.
func lookup(sigs map[string]*Signature, l lang.Language, symbol string) *Signature {
	for _, local := range l.Locals(symbol) {
		if sig := sigs[local]; sig != nil {
			return sig
		}
	}
	return nil
}

// Findings groups an evidence run's changes into the register's change
// items (issue 25): one per cause and way of differing, where the cause is
// the changed symbol, or the changed helper an unchanged caller reaches
// (so a helper reached through twenty callers is one decision, naming the
// callers). Each keeps up to validate.MaxWitnesses inputs: shrunk
// witnesses first, then the shortest, each input once. An item's
// Assumptions are those of reg every one of its inputs violates (issue
// 25: accepting one explains the change, which then needs no decision of
// its own); reg may be nil.
func Findings(cs []Change, reg *validate.Register) []validate.ChangeFinding {
	var order []string
	groups := map[string]*validate.ChangeFinding{}
	inputs := map[string]map[string]bool{}
	violated := violations(cs, reg)
	explains := map[string][]string{} // by group: the assumptions every input so far violates
	sorted := append([]Change(nil), cs...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].Witness != sorted[j].Witness {
			return sorted[i].Witness
		}
		return len(sorted[i].Input) < len(sorted[j].Input)
	})
	for _, c := range sorted {
		if c.Call == nil || c.BaseOutcome == nil || c.HeadOutcome == nil {
			continue // a change no row can replay (a crash on one side)
		}
		symbol := c.Symbol
		if len(c.Cause) > 0 {
			symbol = c.Cause[0]
		}
		way := validate.WayOf(c.BaseOutcome, c.HeadOutcome)
		k := symbol + "\x00" + way
		g := groups[k]
		if g == nil {
			g = &validate.ChangeFinding{Symbol: symbol, Way: way, Source: "evidence"}
			groups[k] = g
			inputs[k] = map[string]bool{}
			order = append(order, k)
		}
		if len(c.Cause) > 0 && !slices.Contains(g.Callers, c.Symbol) {
			g.Callers = append(g.Callers, c.Symbol)
		}
		v := violated(c)
		if e, seen := explains[k]; !seen {
			explains[k] = v
		} else {
			explains[k] = slices.DeleteFunc(e, func(a string) bool { return !slices.Contains(v, a) })
		}
		in := c.Symbol + c.Input
		if inputs[k][in] || len(g.Witnesses) >= validate.MaxWitnesses {
			continue
		}
		inputs[k][in] = true
		g.Witnesses = append(g.Witnesses, validate.Witness{
			Input: shortCall(c.Symbol, c.Input), Call: *c.Call, Base: c.BaseOutcome, Head: c.HeadOutcome,
		})
	}
	out := make([]validate.ChangeFinding, 0, len(order))
	for _, k := range order {
		g := *groups[k]
		g.Assumptions = explains[k]
		out = append(out, g)
	}
	return out
}

// shortCall is an input as a reviewer reads it: the function's own name
// and its arguments, merge_ranges([[4, 6], [0, 1]]).
func shortCall(symbol, input string) string {
	if !strings.HasPrefix(input, "(") {
		return input
	}
	name := symbol
	if i := strings.LastIndexAny(name, "/"); i >= 0 {
		name = name[i+1:]
	}
	if i := strings.Index(name, "."); i >= 0 {
		name = name[i+1:]
	}
	return name + input
}

// witnessRows writes the rows of every decided change item (issue 25):
// one per witness, pinning the head's outcome when the change was accepted
// (intended) and the base's when it was rejected (a regression), each
// carrying its decision, before any template or model row. A witness row
// whose item's decision changed since is rewritten to the new decision;
// stale and undecided items get none.
func witnessRows(tb *validate.Table, reg *validate.Register, target string) []validate.Row {
	byItem := map[string][]int{}
	for i, r := range tb.Rows {
		if r.Decision != "" && len(r.AssumptionIDs) == 1 && validate.IsChange(r.AssumptionIDs[0]) {
			byItem[r.AssumptionIDs[0]] = append(byItem[r.AssumptionIDs[0]], i)
		}
	}
	var added []validate.Row
	for _, it := range reg.Items {
		if !validate.IsChange(it.ID) || it.Stale || (it.Status != validate.StatusAccepted && it.Status != validate.StatusRejected) {
			continue
		}
		if target != "" && it.Symbol != target {
			continue
		}
		if idx, ok := byItem[it.ID]; ok {
			for _, i := range idx {
				r := &tb.Rows[i]
				if r.Decision == it.Status {
					continue
				}
				if w := witnessFor(it, *r); w != nil {
					nw := witnessRow(it, *w)
					r.Expect, r.Decision, r.Relation = nw.Expect, nw.Decision, nw.Relation
				}
			}
			continue
		}
		for _, w := range it.Witnesses {
			if tb.Language == "" {
				tb.Language = w.Call.Language
			}
			added = append(added, Merge(tb, []validate.Row{witnessRow(it, w)})...)
		}
	}
	return added
}

// witnessFor finds the witness of item it a row replays.
func witnessFor(it validate.Item, r validate.Row) *validate.Witness {
	for i, w := range it.Witnesses {
		if w.Call.Target == r.Target && w.Call.Test == r.Test && reflect.DeepEqual(validate.Normalize(w.Call.Args), validate.Normalize(r.Args)) {
			return &it.Witnesses[i]
		}
	}
	return nil
}

// witnessRow is the row one witness of a decided change item becomes.
func witnessRow(it validate.Item, w validate.Witness) validate.Row {
	r := validate.Row{
		Cls: "witness", Kind: validate.KindBoundary, Target: w.Call.Target,
		Args: w.Call.Args, Kwargs: w.Call.Kwargs, AssumptionIDs: []string{it.ID}, Decision: it.Status, Test: w.Call.Test,
	}
	if r.Args == nil && r.Test == "" {
		r.Args = []any{}
	}
	if it.Status == validate.StatusAccepted {
		r.Expect = w.Head
		r.Relation = fmt.Sprintf("%s is intended: %s keeps the head's outcome (%s), base %s", it.ID, w.Input, w.Head, w.Base)
	} else {
		r.Expect = w.Base
		r.Relation = fmt.Sprintf("%s is a regression: %s must do what the base did (%s), not %s", it.ID, w.Input, w.Base, w.Head)
	}
	return r
}
