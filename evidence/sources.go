package evidence

import (
	"strings"

	"github.com/premise-dev/premise/evidence/lang"
)

// sharedSources are the ways every language makes inputs; a language adds
// its own (language.sources). A new heuristic is added to one of the
// lists, with a fixture in sources_test.go showing what it yields;
// TestEverySourceIsNamed holds the code to the lists.
var sharedSources = []lang.Source{
	{Name: lang.SourceModel, Doc: "a call a model proposed from the function's two versions and the assumptions not rejected"},
	{Name: "test_call", Doc: "a call the repository's tests (or a helper they call) make of the function with known arguments"},
	{Name: lang.SourceNoArguments, Doc: "the one call of a function that takes no parameters: what it returns from its module's state"},
	{Name: lang.SourceComparedEdge, Doc: "values on each side of a comparison the function makes between its parameters (a < b: a = b, a = b + 1)"},
	{Name: lang.SourceOneAtATime, Doc: "each parameter over its pool (harvested values, the function's constants and their neighbours, the type's boundary values) while the others keep a typical value"},
	{Name: lang.SourceMutation, Doc: "a harvested value mutated: shorter, empty, reversed, case-flipped, a separator inserted, a number moved by one"},
	{Name: lang.SourcePairwise, Doc: "two parameters crossed over the heads of their pools, the others drawn with the run's seed"},
	{Name: lang.SourceReceiver, Doc: "a method called with its typical arguments on every receiver built from the constructors its tests call, or from its type's fields"},
	{Name: lang.SourceGuided, Doc: "a row that ran most lines of a changed function whose changed line no row ran, one argument moved a small step: kept as a parent when it reaches a new changed line (guide.go)"},
	{Name: lang.SourceDifferential, Doc: "a call of a changed function whose rows showed no change, drawn with the run's seed from the rows' arguments and the words of both versions' source, made on both sides at once, kept when the two answered differently (differ.go)"},
	{Name: lang.SourceBaseTest, Doc: "one of the merge-base's own tests, run on the base's code and on the head's with the base's test files laid over the head's: passed on the base, failed on the head, placed on the changed function whose changed lines it ran (basetests.go)"},
	{Name: lang.SourceTestVariant, Doc: "one of the merge-base's own tests that calls a changed function, run again with one of its literals replaced (a text emptied, cut to one character, its numbers 0 or 1; a number 0, 1 or -1; a written list empty, one long, reversed, its last item twice) on both sides: it ended one way on the base and another on the head, twice each (Python, Go)"},
	{Name: lang.SourceBaseArity, Doc: "a row with the trailing arguments left out that the base's signature gives defaults and the head's requires: the base's callers make that call (basearity.go)"},
	{Name: lang.SourceTemplate, Doc: "a boundary row a template builds from an assumption's category and the parameters' types (generate.go)"},
}

// Sources are every way premise makes inputs: the shared ones, then each
// language's, each of those naming its language.
func Sources() []lang.Source {
	out := append([]lang.Source{}, sharedSources...)
	for _, name := range lang.StaticLanguages().Names() {
		for _, src := range lang.StaticLanguages()[name].Sources() {
			src.Language = name
			out = append(out, src)
		}
	}
	return out
}

// heuristic is the name of the Source a row's source text starts with:
// "test tests/test_x.py:12" -> test_call, "doctest x.py:3" -> doctest.
func heuristic(source string) string {
	name, _, _ := strings.Cut(source, " ")
	switch name {
	case "test":
		return "test_call"
	case "":
		return lang.SourceTemplate
	}
	return name
}
