package lang

import (
	"regexp"
	"strings"

	"github.com/premise-dev/premise/diffparse"
)

// Source is one way premise makes an input for a changed function: every
// row names the source that made it (Change.Heuristic in `premise run
// --json`, SymbolRows.Sources), so a corpus run can say which sources
// found the witnesses of the cases it caught and which found nothing
// (bench/corpus/sources.py).
type Source struct {
	// Name is what rows carry.
	Name string `json:"name"`
	// Doc says in one line what the source yields.
	Doc string `json:"doc"`
	// Kinds are the parameter kinds it serves; empty for any.
	Kinds []string `json:"kinds,omitempty"`
	// Language is the one language that has it ("" for every language).
	Language string `json:"language,omitempty"`
}

// Names of the sources the code refers to.
const (
	SourceModel        = "model"
	SourceTraced       = "traced"
	SourceNoArguments  = "no_arguments"
	SourceComparedEdge = "compared_edge"
	SourceSameText     = "same_text"
	SourceOneAtATime   = "one_at_a_time"
	SourceMutation     = "mutation"
	SourcePairwise     = "pairwise"
	SourceVarargs      = "varargs"
	SourceKwargs       = "kwargs"
	SourceReceiver     = "receiver"
	SourceSetting      = "setting"
	SourceTemplate     = "template"
	// SourceDifferential is a call a blind search made on both sides
	// whose outcomes differed (evidence/differ.go).
	SourceDifferential = "differential"
	// SourceBaseTest is one of the merge-base's tests that passed on the
	// base's code and failed on the head's (evidence/basetests.go).
	SourceBaseTest = "base_test"
	// SourceTestVariant is one of the merge-base's tests with one of its
	// literals replaced, which ended one way on the base's code and
	// another on the head's (evidence/basetests.go).
	SourceTestVariant = "test_variant"
	// SourceBaseArity is a row left short of arguments the base's
	// signature lets a caller leave out and the head's requires
	// (evidence/basearity.go).
	SourceBaseArity = "base_arity"
)

// MadeUp says a row's values were made by premise (generated or mutated)
// rather than read from the repository, a model or the base's test run:
// such rows come after what the code under review says.
func MadeUp(source string) bool {
	switch source {
	case SourceNoArguments, SourceComparedEdge, SourceSameText, SourceOneAtATime, SourceMutation, SourcePairwise, SourceVarargs, SourceKwargs, SourceReceiver, SourceGuided, SourceDifferential, SourceBaseArity:
		return true
	}
	return false
}

// InTestFile is why a changed function of a test file gets no rows, and
// asks for none: the tests are read for inputs (the base's as well as
// the head's), and what they call is judged, not the tests themselves.
const InTestFile = "in a test file: premise judges the code the tests call, not the tests"

// Declaration is why a changed function whose body is only `...` on
// both sides (a Protocol's method, an @overload, an abstract signature)
// is not judged: it does nothing, and nothing is left unchecked.
const Declaration = "a declaration: its body is `...`, which does nothing"

// Unexported begins why a changed function its module exported at the
// base and no longer exports on the head gets no rows: every caller of
// the export now fails, and no call one side cannot make is compared. It
// stays unchecked whatever its callers' rows ran (a reviewer looks at it).
const Unexported = "the head no longer exports it, where the base did"

// InTestPath says a changed file is test code by its language's isTest
// on both sides: its head path and, when the base has the file, its base
// path. Which files are judged is read from the merge-base too (issue
// 26): a patch that moves code under tests/ does not move it out of
// judgement.
func InTestPath(f diffparse.File, isTest func(string) bool) bool {
	if !isTest(f.Path) {
		return false
	}
	return f.Status == "added" || f.OldPath == "" || isTest(f.OldPath)
}

// BareCallable says a function of no parameters may be called as a row:
// not a program's entry point or a test, whose call runs far more than
// the function.
func BareCallable(name string) bool {
	lower := strings.ToLower(name)
	return lower != "main" && lower != "run" && lower != "cli" && !strings.HasPrefix(lower, "test") && !strings.HasPrefix(lower, "benchmark")
}

// AddedLinesMatching are f's added lines that re matches, as "line N
// `text`": a RunnerReader's lines of the head.
func AddedLinesMatching(f diffparse.File, re *regexp.Regexp) []string {
	var out []string
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			if l.Kind == '+' && re.MatchString(l.Text) {
				out = append(out, LineText(l.New, l.Text))
			}
		}
	}
	return out
}
