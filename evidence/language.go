package evidence

import (
	"context"
	"math/rand"
	"sort"
	"sync"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/validate"
)

// language is what the engine (this file's neighbours: run.go, shrink.go,
// model.go, describe.go) needs of one language. The engine calls a
// language only through this interface and the optional ones below, and
// never branches on a language's name: python.go's pythonLang and
// gorows.go's goLang implement it, and languagesFor hands the engine the
// list (TestEngineNamesNoLanguage).
type language interface {
	// name is the language as diffparse and the gate call it.
	name() string
	// signatures reads every function and method of a file by its local
	// name, parsing it once; nil when it does not parse.
	signatures(src []byte) map[string]*Signature
	// infer reads what a parameter's type is.
	infer(p Param) Type
	// paramText writes a parameter as the language does ("n int",
	// "text: str").
	paramText(p Param) string
	// owns says whether a file of this path is in the language.
	owns(path string) bool
	// locals are the names a symbol's function may have inside its file,
	// the longest first: pkg.mod.Class.method -> Class.method, method.
	locals(symbol string) []string
	// fits says why a call cannot bind to sig ("" when it can): such a
	// call fails alike on both sides and tests nothing.
	fits(sig *Signature, args []any, kwargs map[string]any) string
	// typed says whether every call is checked against the parameters'
	// types before it runs: no row can pass a value outside them.
	typed() bool
	// defaultValue is a parameter's default when it is a plain literal.
	defaultValue(p Param) (any, bool)
	// public says whether a function's bare name is visible outside its
	// module or package.
	public(name string) bool
	// dataReaders are the functions of f that read module-level data the
	// diff changed, each as a modified symbol, with the names each reads
	// and the string literals of the changed lines.
	dataReaders(f diffparse.File) ([]diffparse.Symbol, map[string][]string, []string)
	// file reads a changed file once for all of its targets; complete is
	// handed what it returned.
	file(f diffparse.File) any
	// complete finishes a target the engine set up for a changed function
	// (its symbol, signature, both texts, the data it reads): how rows
	// call it and on what receivers. A reason leaves it out.
	complete(tg *target, f diffparse.File, file any, sigs map[string]*Signature) (why string)
	// rows are a target's rows, in the order they should run, and the
	// source that made each, by callText of its arguments. templates are
	// the rows the templates made from its signature and the register's
	// items (generate.go), for the language to place among its own or
	// leave out (a method: templates build no receivers).
	rows(ctx context.Context, tg target, templates []validate.Row, rng *rand.Rand, perFunction int) ([]validate.Row, map[string]string)
	// paramTypes are the types the language built values for, one per
	// parameter; nil to infer each from the signature.
	paramTypes(tg target) []Type
	// receiver is what a model's calls of tg are made on: its first
	// receiver, nil for a function; ok is false for a method with none.
	receiver(tg target) (recv any, ok bool)
	// modelRow is one call a model proposed, the receiver first.
	modelRow(args []any, kwargs map[string]any) validate.Row
	// callText writes a call's arguments as a reviewer of the language
	// would; outcomes says what each side did, in the language's values.
	callText(args []any, kwargs map[string]any) string
	outcomes(base, head *gate.Reply, o origin) (string, string)
	// bug says a raise on the head is a bug in a new function, not a
	// refusal of its input: an index out of range, a missing key, a
	// division by zero (newcode.go).
	bug(exc *gate.Exc) bool
	// sources are the ways only this language makes inputs (sources.go
	// has the shared ones).
	sources() []Source
	// close releases what the language read for the run.
	close()
}

// reseeder is a language whose workers hash text with a per-process seed:
// a changed row is rerun under other seeds before it counts (hashseed.go).
type reseeder interface {
	reseed(ctx context.Context, gcfg gate.Config, t *validate.Table, grep *gate.Report) (int, []string, error)
}

// moduleDropper is a language whose rows of one module that does not load
// can be left out so the other modules' rows still run.
type moduleDropper interface {
	dropModule(ctx context.Context, cfg gate.Config, t *validate.Table, modules map[string]string, err error) (*validate.Table, moduleFailure, bool)
}

// tracer is a language that can run the base's own tests and record the
// calls they make of the changed functions (traced.go).
type tracer interface {
	traced(ctx context.Context, cfg TraceRun, targets []target) (map[string][]ModelCall, string)
	tracedRows(tg target, calls []ModelCall) []validate.Row
}

// observer is a language whose rows carry extra calls to make on what a
// target returns (a returned function probed with values).
type observer interface {
	probes(tg target) []any
	observe(r validate.Row, probes []any) validate.Row
}

// rebinder is a language whose module can still bind, under the same
// name, a function the patch deleted the definition of (an import, an
// assignment, a re-export): its callers still call that name, so the
// base's function is compared with what the name is on the head
// (issue 26).
type rebinder interface {
	stillBound(f diffparse.File, file any, local string) bool
}

// languages is the run's languages by name.
type languages map[string]language

// newLanguage makes one language for a run: dirs holds the head's and
// the base's checkouts, perFunction the rows a function may get; probe is
// set when no checkout exists yet (HasTargets), and the language counts
// what could be a target.
type newLanguage func(dirs checkouts, perFunction int, probe bool) language

// checkouts are a run's two trees.
type checkouts struct{ head, base string }

// registry is every language evidence is built for: a language is added
// by implementing language and registering its constructor from its own
// file's init.
var registry []newLanguage

// register adds a language's constructor to the registry.
func register(mk newLanguage) { registry = append(registry, mk) }

// languagesFor makes the languages of one run.
func languagesFor(headDir, baseDir string, perFunction int, probe bool) languages {
	ls := languages{}
	for _, mk := range registry {
		l := mk(checkouts{head: headDir, base: baseDir}, perFunction, probe)
		ls[l.name()] = l
	}
	return ls
}

func (ls languages) close() {
	for _, l := range ls {
		l.close()
	}
}

// names are the languages' names in order.
func (ls languages) names() []string {
	out := make([]string, 0, len(ls))
	for n := range ls {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// present writes a row's call and what each side did in o's language:
// JSON and plain words for a language the run does not have.
func (ls languages) present(o origin, args []any, kwargs map[string]any, base, head *gate.Reply) (input, b, h string) {
	if l := ls[o.lang]; l != nil {
		b, h = l.outcomes(base, head, o)
		return l.callText(args, kwargs), b, h
	}
	return callText(args, kwargs), describe(base), describe(head)
}

// staticLanguages are the languages with no checkout to read: for what a
// language knows of a file's text alone (signatures, types, names). Made
// on first use, once every language has registered.
var staticLanguages = sync.OnceValue(func() languages { return languagesFor("", "", 0, true) })

// languageOfFile is the language a file's path is in, nil when no
// language owns it.
func languageOfFile(path string) language {
	for _, n := range staticLanguages().names() {
		if l := staticLanguages()[n]; l.owns(path) {
			return l
		}
	}
	return nil
}

// typedLanguage says whether lang checks calls against types; a language
// the run does not know is taken as not.
func typedLanguage(lang string) bool {
	l := staticLanguages()[lang]
	return l != nil && l.typed()
}

// defaultValue is p's default in lang when it is a plain literal.
func defaultValue(lang string, p Param) (any, bool) {
	l := staticLanguages()[lang]
	if l == nil || p.Default == "" {
		return nil, false
	}
	return l.defaultValue(p)
}
