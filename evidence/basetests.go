package evidence

import (
	"context"
	"fmt"
	"time"

	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/validate"
)

// The base's own tests, run on both sides (issue 24). Rows carry values;
// a test carries what no row can: the parser a document built, the
// connection a request left in its state, the reflect.Value a decoder
// made, the cache a sequence of calls filled, the function a constructor
// returned, called. A test of the merge-base that passes on the base's
// code and fails on the head's is a behaviour change a reviewer decides,
// whatever it built on the way. The tests are the merge-base's (a head
// that edits or deletes one does not change what runs), and they run in
// the box as the workers do.

// baseTests runs each language's base tests on both sides and files a
// change for every test the head fails and the base passes.
func (rep *Report) baseTests(ctx context.Context, cfg Config, langs lang.Languages, targets []lang.Target, bySymbol map[string][]validate.Item, end time.Time) {
	run := traceRun(cfg)
	if cfg.TraceSeconds < 0 {
		return
	}
	run.Shown = map[string]bool{}
	for _, cs := range [][]Change{rep.Changes, rep.Unexplained} {
		for _, c := range cs {
			run.Shown[c.Symbol] = true
		}
	}
	// Each side's run has its time; the whole stage (the two sides at
	// once, the base's second run, the head's runs that place a failure)
	// has a bound too, so a run's time stays bounded however many
	// packages and tests there are; and the stage ends with the
	// evidence's (runEnd), its rows having taken theirs.
	stage := time.Now().Add(time.Duration(stageSeconds(run.Seconds)) * time.Second)
	if !end.IsZero() && end.Before(stage) {
		stage = end
	}
	ctx, cancel := context.WithDeadline(ctx, stage)
	defer cancel()
	for _, name := range langs.Names() {
		bt, ok := langs[name].(lang.BaseTester)
		if !ok {
			continue
		}
		run.HeadWatch, run.BaseWatch = watches(rep.plans, name)
		got := bt.BaseTests(ctx, run, targets)
		rep.Notes = append(rep.Notes, got.Notes...)
		// What stopped the tests telling (their time, a build) may not
		// stop them next time.
		rep.clocked = rep.clocked || len(got.Notes) > 0
		rep.ran.addTests(got.HeadLines, got.BaseLines)
		for _, f := range got.Failures {
			if sym := placeOf(f, name, targets); sym != "" {
				rep.file(testChange(f, name, sym), bySymbol)
			} else {
				rep.Notes = append(rep.Notes, fmt.Sprintf("the base's test %s passes on the base and fails on the head, and no changed function is there to file it under", f.Test))
			}
		}
	}
}

// testChange is the change a failing base's test is filed as, under sym.
func testChange(f lang.TestFailure, langName, sym string) Change {
	where := f.Test
	if f.File != "" {
		where = f.File + ": " + f.Test
	}
	if f.Variant != "" {
		return variantChange(f, langName, sym, where)
	}
	head := "failed"
	if f.Head != "" {
		head += ": " + f.Head
	}
	return Change{Symbol: sym, Class: lang.SourceBaseTest, Input: fmt.Sprintf("the base's test %s", where),
		Base: "passed", Head: head, Source: "base_test " + where, Heuristic: lang.SourceBaseTest,
		Call:        &validate.Call{Language: langName, Target: sym, Test: where},
		BaseOutcome: &validate.Outcome{Outcome: validate.OutcomePassed},
		HeadOutcome: &validate.Outcome{Outcome: validate.OutcomeFailed, Value: f.Head}}
}

// variantChange is the change a variant of a base's test is filed as: the
// test with one of its literals replaced ended one way on the base and
// another on the head. Both often fail (the test's own assertions expect
// the literal it wrote); how each ended is the outcome, its first line,
// which a test row of the variant compares as gate.VariantKey says.
func variantChange(f lang.TestFailure, langName, sym, where string) Change {
	end := func(how string) (string, *validate.Outcome) {
		if how == "" {
			return validate.OutcomePassed, &validate.Outcome{Outcome: validate.OutcomePassed}
		}
		return "failed: " + how, &validate.Outcome{Outcome: validate.OutcomeFailed, Value: how}
	}
	base, bo := end(f.Base)
	head, ho := end(f.Head)
	return Change{Symbol: sym, Class: lang.SourceTestVariant, Input: fmt.Sprintf("the base's test %s, its literal %s", where, f.Variant),
		Base: base, Head: head, Source: lang.SourceTestVariant + " " + where, Heuristic: lang.SourceTestVariant,
		Call: &validate.Call{Language: langName, Target: sym, Test: where}, BaseOutcome: bo, HeadOutcome: ho}
}

// placeOf is the changed function a failing test is filed under: the one
// it ran most changed lines of, else the language's first changed
// function (the test fails on the head, and the head differs only there).
func placeOf(f lang.TestFailure, langName string, targets []lang.Target) string {
	if len(f.Symbols) > 0 {
		return f.Symbols[0]
	}
	for _, tg := range targets {
		if tg.Lang == langName && !tg.HeadOnly && len(tg.Reads) == 0 {
			return tg.Sym.Name
		}
	}
	// A test the head fails is a change whatever the patch touched (only
	// functions it added, only what others read): filed under the first
	// of the language's targets, never dropped.
	for _, tg := range targets {
		if tg.Lang == langName {
			return tg.Sym.Name
		}
	}
	if len(targets) > 0 {
		return targets[0].Sym.Name
	}
	return ""
}

// stageSeconds bounds the base's tests stage: twice a side's time and a
// build's.
func stageSeconds(side int) int { return 2*side + 20 }
