package evidence

import "strings"

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

// sharedSources are the ways every language makes inputs; a language adds
// its own (language.sources). A new heuristic is added to one of the
// lists, with a fixture in sources_test.go showing what it yields;
// TestEverySourceIsNamed holds the code to the lists.
var sharedSources = []Source{
	{Name: sourceModel, Doc: "a call a model proposed from the function's two versions and the assumptions not rejected"},
	{Name: "test_call", Doc: "a call the repository's tests (or a helper they call) make of the function with known arguments"},
	{Name: sourceNoArguments, Doc: "the one call of a function that takes no parameters: what it returns from its module's state"},
	{Name: sourceComparedEdge, Doc: "values on each side of a comparison the function makes between its parameters (a < b: a = b, a = b + 1)"},
	{Name: sourceOneAtATime, Doc: "each parameter over its pool (harvested values, the function's constants and their neighbours, the type's boundary values) while the others keep a typical value"},
	{Name: sourceMutation, Doc: "a harvested value mutated: shorter, empty, reversed, case-flipped, a separator inserted, a number moved by one"},
	{Name: sourcePairwise, Doc: "two parameters crossed over the heads of their pools, the others drawn with the run's seed"},
	{Name: sourceReceiver, Doc: "a method called with its typical arguments on every receiver built from the constructors its tests call, or from its type's fields"},
	{Name: sourceGuided, Doc: "a row that ran most lines of a changed function whose changed line no row ran, one argument moved a small step: kept as a parent when it reaches a new changed line (guide.go)"},
	{Name: sourceTemplate, Doc: "a boundary row a template builds from an assumption's category and the parameters' types (generate.go)"},
}

// Sources are every way premise makes inputs: the shared ones, then each
// language's, each of those naming its language.
func Sources() []Source {
	out := append([]Source{}, sharedSources...)
	for _, name := range staticLanguages().names() {
		for _, src := range staticLanguages()[name].sources() {
			src.Language = name
			out = append(out, src)
		}
	}
	return out
}

// Names of the sources the code refers to.
const (
	sourceModel        = "model"
	sourceTraced       = "traced"
	sourceNoArguments  = "no_arguments"
	sourceComparedEdge = "compared_edge"
	sourceSameText     = "same_text"
	sourceOneAtATime   = "one_at_a_time"
	sourceMutation     = "mutation"
	sourcePairwise     = "pairwise"
	sourceVarargs      = "varargs"
	sourceKwargs       = "kwargs"
	sourceReceiver     = "receiver"
	sourceSetting      = "setting"
	sourceTemplate     = "template"
)

// madeUp says a row's values were made by premise (generated or mutated)
// rather than read from the repository, a model or the base's test run:
// such rows come after what the code under review says.
func madeUp(source string) bool {
	switch source {
	case sourceNoArguments, sourceComparedEdge, sourceSameText, sourceOneAtATime, sourceMutation, sourcePairwise, sourceVarargs, sourceKwargs, sourceReceiver, sourceGuided:
		return true
	}
	return false
}

// heuristic is the name of the Source a row's source text starts with:
// "test tests/test_x.py:12" -> test_call, "doctest x.py:3" -> doctest.
func heuristic(source string) string {
	name, _, _ := strings.Cut(source, " ")
	switch name {
	case "test":
		return "test_call"
	case "":
		return sourceTemplate
	}
	return name
}

// bareCallable says a function of no parameters may be called as a row:
// not a program's entry point or a test, whose call runs far more than
// the function.
func bareCallable(name string) bool {
	lower := strings.ToLower(name)
	return lower != "main" && lower != "run" && lower != "cli" && !strings.HasPrefix(lower, "test") && !strings.HasPrefix(lower, "benchmark")
}
