package lang

import (
	"context"
	"errors"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/validate"
)

// ModelCall is one call a model proposed: JSON values only.
type ModelCall struct {
	Args   []any
	Kwargs map[string]any
}

// Origin says where an evidence row came from.
type Origin struct {
	Assumptions []string // the register items whose rows ask this input; none for a signature-driven row
	Symbol      string
	Cause       []string // the changed names an unchanged caller reaches (Change.Cause)
	Call        string   // the name rows call when it is not the symbol's (a class for its __init__)
	Source      string   // where the row's values came from (Change.Source)
	Lang        string
	Probes      []any // extra calls a returned function is probed with (probesOf)
	HeadOnly    bool  // a function the head adds: its rows run on the head alone
}

// Target is one changed function that evidence rows can call on both sides.
type Target struct {
	Sym  diffparse.Symbol
	Lang string
	Sig  *Signature
	// BaseSig is the function's signature at the base, when the base
	// has it; nil otherwise (rows follow Sig, the head's).
	BaseSig            *Signature
	BaseText, HeadText string // the function's source on each side
	// Reads are the changed module-level names an unchanged function is
	// a target for (issue 13, part 8); nil for a changed function.
	Reads    []string
	DataLits []string // the string literals of the changed data
	// BaseName is what the base calls the target when the patch renamed
	// its module ("" when the name is the same).
	BaseName string
	// Receivers are the objects a method's rows call it on, as its
	// language builds them (from the constructor calls the tests make, a
	// Go type's constructors and fields); nil for a function.
	Receivers []any
	// Call is the name rows call when it is not the symbol: a changed
	// __init__ is exercised by calling its class.
	Call string
	// BaseFile is the target's file on the base, relative to its top.
	BaseFile string
	// HeadOnly marks a function the head adds: no base to compare with,
	// its rows run on the head alone for crashes (newcode.go).
	HeadOnly bool
	// Data is what the target's language keeps of it for its rows
	// (Python's *pyInfo, Go's *goTarget, JavaScript's *jsInfo): the
	// engine never reads it.
	Data any
}

// TraceRun is what a language that traces the base's tests (Tracer) or
// runs them on both sides (BaseTester) is told of the run.
type TraceRun struct {
	Diff             *diffparse.Result
	BaseDir, HeadDir string
	// Seconds bounds the traced run, and each side's run of the base's
	// tests; neither runs when it is not positive.
	Seconds int
	Gate    gate.Config
	// HeadWatch and BaseWatch are the changed functions' spans on each
	// side, as the rows' workers watch them: the base's tests say which
	// of their lines they ran.
	HeadWatch, BaseWatch gate.Watch
	// CacheDir is premise's cache directory, where a traced run of the
	// base's tests is kept for the next run against the same merge-base;
	// "" keeps and reads none (--no-cache).
	CacheDir string
	// Shown are the changed functions whose rows already showed a
	// change: the base's tests are not varied for them alone.
	Shown map[string]bool
}

// ModuleFailure is a module left out of the rows, or one target its
// module does not hold (target set, module naming the target as its rows
// call it): why, and whether only the head fails (a finding, not a skip).
type ModuleFailure struct {
	Module, Text     string
	HeadOnly, Target bool
	// Why, when set, is all a target's symbol says (the target is one
	// the worker cannot reach, not a module that fails to load).
	Why string
}

// BaseLoads reports whether the base side runs t's first rows without an
// infrastructure error: whether a failure to load is the head's own.
func BaseLoads(ctx context.Context, cfg gate.Config, t *validate.Table) bool {
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

// UnstableRow reports whether a row's reruns answered differently on one
// side: its result is no evidence of what the patch changed.
func UnstableRow(rr gate.RowResult) bool {
	if rr.Status == gate.StatusFlake || Varies(rr.BaseSeen) {
		return true
	}
	var head []string
	for _, a := range rr.Attempts {
		head = append(head, Describe(&a.Reply))
	}
	return Varies(head)
}

// Varies reports whether a side's reruns answered differently.
func Varies(seen []string) bool {
	for _, s := range seen {
		if s != seen[0] {
			return true
		}
	}
	return false
}

// ClassBound says a Python method's decorators make it a static or class
// method, called without an instance.
func ClassBound(decorators []string) bool {
	for _, d := range decorators {
		if d == "staticmethod" || d == "classmethod" {
			return true
		}
	}
	return false
}

// Span is lines start..end (1-based, inclusive) of src.
func Span(src []byte, start, end int) string {
	lines := strings.Split(string(src), "\n")
	if start < 1 || start > len(lines) {
		return ""
	}
	if end > len(lines) {
		end = len(lines)
	}
	return strings.Join(lines[start-1:end], "\n")
}

func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
