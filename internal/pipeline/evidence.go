package pipeline

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/propose/partition"
	"github.com/premise-dev/premise/validate"
)

// evidenceTimeout bounds one evidence call: these rows only compare base and
// head, and a row that hangs on one side is itself the evidence.
const evidenceTimeout = 5 * time.Second

// evidenceReruns runs each evidence row twice on each side, so that a
// subject that is nondeterministic on its own is seen as a flake, not
// reported as a behaviour change.
const evidenceReruns = 2

// origin says where an evidence row came from.
type origin struct {
	assumptions []string // the register items whose rows ask this input; none for a signature-driven row
	symbol      string
}

// target is one changed function that evidence rows can call on both sides.
type target struct {
	sym                diffparse.Symbol
	lang               string
	sig                *partition.Signature
	baseText, headText string // the function's source on each side
}

// evidence builds template rows for every assumption a reviewer has not
// rejected, and signature-driven boundary rows for every changed function,
// runs them against base and head, and records every input on which the two
// behave differently (issue 7): evidence for the reviewer before anyone has
// decided, and a check on the proposer, since a change no assumption
// explains is a finding the proposer missed.
func (p *run) evidence(ctx context.Context) error {
	targets := p.targets()
	if len(targets) == 0 {
		return nil
	}
	bySymbol := map[string][]validate.Item{}
	for _, it := range p.reg.Items {
		if it.Status == validate.StatusRejected || it.Stale {
			continue
		}
		bySymbol[it.Symbol] = append(bySymbol[it.Symbol], it)
	}

	tables := map[string]*validate.Table{} // by language
	origins := map[string]origin{}
	n := 0
	add := func(lang string, rows []validate.Row, o origin) {
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
			r.Target = o.symbol
			// Evidence compares the two sides only: what the base does is
			// the reference, whatever the template expected.
			r.SameAsBase, r.Contract, r.Raises, r.Metamorphic = true, "", "", nil
			t.Rows = append(t.Rows, r)
			oo := o
			for _, id := range r.AssumptionIDs {
				if strings.HasPrefix(id, "A") {
					oo.assumptions = append(oo.assumptions, id)
				}
			}
			origins[r.ID] = oo
		}
	}
	gen := partition.Templates{}
	for _, tg := range targets {
		name := tg.sym.Name
		var rows []validate.Row
		if items := bySymbol[name]; len(items) > 0 {
			r, err := gen.Generate(ctx, partition.Request{Target: name, Sig: tg.sig, Assumptions: items})
			if err != nil {
				return err
			}
			rows = append(rows, r...)
		}
		r, err := gen.Generate(ctx, partition.Request{Target: name, Sig: tg.sig, Assumptions: signatureItems(tg.sig)})
		if err != nil {
			return err
		}
		rows = append(rows, r...)
		rows = append(rows, valueRows(tg.sig, literals(tg.baseText, tg.headText))...)
		add(tg.lang, dedupe(rows), origin{symbol: name})
	}

	head, err := p.headTree(ctx)
	if err != nil {
		return err
	}
	langs := make([]string, 0, len(tables))
	for l := range tables {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	for _, lang := range langs {
		t := tables[lang]
		t.Target = t.Rows[0].Target
		cfg := p.gateConfig()
		cfg.Repo, cfg.Base, cfg.Lang = head, p.res.MergeBase, lang
		cfg.Reruns = evidenceReruns
		cfg.Progress = p.rowProgress(StageEvidence, len(t.Rows))
		cfg.Budget = len(t.Rows) // evidence never blocks on flakes
		if cfg.Timeout == 0 || cfg.Timeout > evidenceTimeout {
			cfg.Timeout = evidenceTimeout
		}
		rep, err := gate.Differential(ctx, cfg, t)
		var infra *gate.InfraError
		switch {
		case errors.As(err, &infra):
			// The code under review does not import or build here (a
			// dependency that is not installed, say): the register and the
			// draft are still worth having, so say so and go on.
			p.sum.EvidenceSkipped = append(p.sum.EvidenceSkipped, fmt.Sprintf("%s rows: %s", lang, oneLine(err.Error())))
			continue
		case err != nil:
			return fmt.Errorf("evidence rows (%s): %w", lang, err)
		}
		p.sum.EvidenceRows += len(rep.Rows)
		rows := map[string]validate.Row{}
		for _, r := range t.Rows {
			rows[r.ID] = r
		}
		for _, rr := range rep.Rows {
			if !rr.Changed || rr.Status == gate.StatusFlake || len(rr.Attempts) == 0 {
				continue
			}
			o := origins[rr.ID]
			row := rows[rr.ID]
			a := rr.Attempts[len(rr.Attempts)-1]
			args, kwargs := row.CallArgs()
			c := BehaviorChange{
				Row: rr.ID, Assumptions: o.assumptions, Symbol: o.symbol, Class: row.Cls,
				Input: callText(args, kwargs), Base: describe(a.Base), Head: describe(&a.Reply),
				SpecChange: rr.SpecChange,
			}
			if len(c.Assumptions) > 0 {
				c.Assumption = c.Assumptions[0]
			}
			if c.Assumption == "" && len(bySymbol[o.symbol]) == 0 {
				p.sum.Unexplained = append(p.sum.Unexplained, c)
			} else {
				p.sum.BehaviorChanges = append(p.sum.BehaviorChanges, c)
			}
		}
	}
	sortChanges(p.sum.BehaviorChanges)
	sortChanges(p.sum.Unexplained)
	return nil
}

// targets are the changed functions evidence rows can call on both sides:
// modified functions of Python and Go files (an added function has no base
// to compare with; a method needs a receiver a JSON row cannot build).
func (p *run) targets() []target {
	var out []target
	for _, f := range p.res.Files {
		if f.Excluded != "" || f.ParseError != "" || f.HeadSrc == nil || f.BaseSrc == nil {
			continue
		}
		for _, s := range f.Symbols {
			if s.Kind != "function" || s.Change != "modified" {
				continue
			}
			var sig *partition.Signature
			var err error
			switch f.Language {
			case "python":
				sig, err = partition.PythonSignature(f.HeadSrc, s.Local)
			case "go":
				sig, err = partition.GoSignature(f.HeadSrc, s.Local)
			default:
				continue
			}
			if err != nil || sig == nil || len(sig.Params) == 0 {
				continue
			}
			out = append(out, target{sym: s, lang: f.Language, sig: sig,
				headText: span(f.HeadSrc, s.Start, s.End),
				baseText: declText(f.Language, f.BaseSrc, s.Local)})
		}
	}
	return out
}

// signatureItems are stand-in assumptions that make the templates vary
// each parameter over its type's boundary values, and an int against a
// sibling list's length: the rows every changed function gets whatever the
// proposer said.
func signatureItems(sig *partition.Signature) []validate.Item {
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

// declText is the source of the declaration called local in src, "" when
// there is none.
func declText(lang string, src []byte, local string) string {
	decls, err := diffparse.Decls(lang, src)
	if err != nil {
		return ""
	}
	for _, d := range decls {
		if d.Local == local {
			return span(src, d.Start, d.End)
		}
	}
	return ""
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
