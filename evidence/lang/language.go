package lang

import (
	"context"
	"math/rand"
	"sort"
	"sync"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/validate"
)

// Language is what the engine (package evidence) needs of one language.
// The engine calls a language only through this interface and the
// optional ones below, and never branches on a language's name: each
// language implements it in a package of its own (evidence/python,
// evidence/golang, evidence/javascript) and registers its Constructor
// from its init; LanguagesFor hands the engine the list
// (TestEngineNamesNoLanguage).
type Language interface {
	// Name is the language as diffparse and the gate call it.
	Name() string
	// Signatures reads every function and method of a file by its local
	// name, parsing it once; nil when it does not parse.
	Signatures(src []byte) map[string]*Signature
	// Infer reads what a parameter's type is.
	Infer(p Param) Type
	// ParamText writes a parameter as the language does ("n int",
	// "text: str").
	ParamText(p Param) string
	// Owns says whether a file of this path is in the language.
	Owns(path string) bool
	// Locals are the names a symbol's function may have inside its file,
	// the longest first: pkg.mod.Class.method -> Class.method, method.
	Locals(symbol string) []string
	// Fits says why a call cannot bind to sig ("" when it can): such a
	// call fails alike on both sides and tests nothing.
	Fits(sig *Signature, args []any, kwargs map[string]any) string
	// Typed says whether every call is checked against the parameters'
	// types before it runs: no row can pass a value outside them.
	Typed() bool
	// DefaultValue is a parameter's default when it is a plain literal.
	DefaultValue(p Param) (any, bool)
	// Public says whether a function's bare name is visible outside its
	// module or package.
	Public(name string) bool
	// DataReaders are the functions of f that read module-level data the
	// diff changed, each as a modified symbol, with the names each reads
	// and the string literals of the changed lines.
	DataReaders(f diffparse.File) ([]diffparse.Symbol, map[string][]string, []string)
	// File reads a changed file once for all of its targets; complete is
	// handed what it returned.
	File(f diffparse.File) any
	// Complete finishes a target the engine set up for a changed function
	// (its symbol, signature, both texts, the data it reads): how rows
	// call it and on what receivers. A reason leaves it out.
	Complete(tg *Target, f diffparse.File, file any, sigs map[string]*Signature) (why string)
	// Rows are a target's rows, in the order they should run, and the
	// source that made each, by callText of its arguments. templates are
	// the rows the templates made from its signature and the register's
	// items (generate.go), for the language to place among its own or
	// leave out (a method: templates build no receivers).
	Rows(ctx context.Context, tg Target, templates []validate.Row, rng *rand.Rand, perFunction int) ([]validate.Row, map[string]string)
	// ParamTypes are the types the language built values for, one per
	// parameter; nil to infer each from the signature.
	ParamTypes(tg Target) []Type
	// Receiver is what a model's calls of tg are made on: its first
	// receiver, nil for a function; ok is false for a method with none.
	Receiver(tg Target) (recv any, ok bool)
	// ModelRow is one call a model proposed, the receiver first.
	ModelRow(args []any, kwargs map[string]any) validate.Row
	// CallText writes a call's arguments as a reviewer of the language
	// would; outcomes says what each side did, in the language's values.
	CallText(args []any, kwargs map[string]any) string
	Outcomes(base, head *gate.Reply, o Origin) (string, string)
	// Bug says a raise on the head is a bug in a new function, not a
	// refusal of its input: an index out of range, a missing key, a
	// division by zero (newcode.go).
	Bug(exc *gate.Exc) bool
	// Sources are the ways only this language makes inputs (sources.go
	// has the shared ones).
	Sources() []Source
	// Close releases what the language read for the run.
	Close()
}

// Reseeder is a language whose order of a set or map is arbitrary: a
// changed row is rerun before it counts, under other hash seeds (evidence/python's
// hashseed.go: the seed is per process) or more times (evidence/golang's
// rerun.go: a map's order changes on every range).
type Reseeder interface {
	Reseed(ctx context.Context, gcfg gate.Config, t *validate.Table, grep *gate.Report) (int, []string, error)
}

// ExprStepper is a language whose arguments premise writes as source
// ({"$expr": ...}: a harvested Buffer(binascii.unhexlify(b"0001"))) can
// step them too: StepExpr returns the expression with one of its
// literals a small step away, each (a text cut to half its length or
// emptied, a number moved by one), for the coverage guide's mutants of
// a row that came close to an unreached line, whose inputs are often such
// expressions.
type ExprStepper interface {
	StepExpr(expr string) []string
}

// Unreacher is a language whose worker can say it cannot reach a target
// on a side, though its module loads (a JavaScript function its module
// keeps to itself that none of its exported functions closes over): the
// target's rows are left out, and its symbol says why.
type Unreacher interface {
	// Unreached says, for the detail of a row's harness error, why the
	// row's target cannot be called; ok is false for any other error.
	Unreached(detail string) (why string, ok bool)
}

// ModuleDropper is a language whose rows of one module that does not load
// can be left out so the other modules' rows still run.
type ModuleDropper interface {
	DropModule(ctx context.Context, cfg gate.Config, t *validate.Table, modules map[string]string, err error) (*validate.Table, ModuleFailure, bool)
}

// DataSharer is a language whose module-level changes reach functions of
// other files (evidence/shared.go): a constant of a Go package read in
// another of its files, a Python name another module imports, or a
// statement assigning into another module's names.
type DataSharer interface {
	// ChangesShared says f's module-level changes bind something other
	// files may read, or change state premise cannot follow: without a
	// checkout, whether one is worth making.
	ChangesShared(f diffparse.File) bool
	// SharedUsers are the source files among files (slash paths relative
	// to the head's tree, read reads one) other than f whose functions
	// may read what f's module-level changes bind, with the names each
	// may read (bare, as a function of the file reads a name it
	// imported or its package declares; or ".Name", read as an
	// attribute of the module); unfollowed names the changed statements
	// whose reach cannot be found ("line 3 `sys.modules[...] = ...`").
	SharedUsers(f diffparse.File, files []string, read func(rel string) []byte) (users map[string][]string, unfollowed []string)
	// UsersOf are the source files among files other than f whose
	// functions may read any of names, which f's module defines, each
	// with the names it may read, written as SharedUsers writes them.
	UsersOf(f diffparse.File, names map[string]bool, files []string, read func(rel string) []byte) map[string][]string
}

// ManifestReader is a language whose project files can change what its
// code does without a line of code changing: a Go module's replace
// directive or go line, a package.json's "imports" map, a tsconfig.json's
// class-field setting.
// RunnerReader is a language that can tell code asking how it is run.
type RunnerReader interface {
	// RunnerTells names the lines the patch adds to f, a changed file of
	// the language's code (not a test), that ask whether the code runs
	// under a test runner or in production (Go's testing.Testing(),
	// pytest in sys.modules, process.env.NODE_ENV): what the code does
	// under premise's worker need not be what it does in use, so the
	// functions branching there are not checked. As "line N `text`".
	RunnerTells(f diffparse.File) []string
}

// ManifestReader is a language whose project files premise reads.
type ManifestReader interface {
	// ManifestChanges names what f, a changed file of no language, changes
	// in how the language's code builds or what it calls, where premise
	// cannot follow it ("line 7 `example.com/dep => ./fork`"); none when f
	// is not one of its project files or changes nothing of the kind.
	// base and head are f's two sides (nil for the side a file added or
	// deleted lacks).
	ManifestChanges(f diffparse.File, base, head []byte) []string
}

// Shadower is a language whose import system can resolve one name to
// either of two files, preferring one (a package's __init__.py over the
// module.py of its name), and whose rows call a function by that name.
type Shadower interface {
	// Shadows are the files (slash paths relative to the tree's top)
	// whose import name a file at rel takes when both exist.
	Shadows(rel string) []string
}

// Encoder is a language whose worker compares some values through a
// method of their own type (Go: a value's JSON, which its MarshalJSON or
// MarshalText writes): such a method the patch adds to a type the base
// has decides what every row returning that type is compared by.
type Encoder interface {
	// EncodesThrough says the worker reads a value through its type's
	// method of this name.
	EncodesThrough(method string) bool
}

// Tracer is a language that can run the base's own tests and record the
// calls they make of the changed functions (evidence/python's traced.go).
type Tracer interface {
	Traced(ctx context.Context, cfg TraceRun, targets []Target) (map[string][]ModelCall, string)
	TracedRows(tg Target, calls []ModelCall) []validate.Row
}

// BaseTester is a language that can run the merge-base's own tests
// against the head's code (evidence/golang's basetests.go,
// evidence/python's): a test the base passes and the head fails is a
// behaviour change however the test built its inputs, the states and
// values no row can carry included.
type BaseTester interface {
	BaseTests(ctx context.Context, cfg TraceRun, targets []Target) BaseTestRun
}

// BaseTestRun is what the base's tests told: the tests the head fails,
// notes on what kept them from telling more, and the watched lines
// (TraceRun's HeadWatch and BaseWatch) the tests compared on both sides
// ran on each, by file as the watch names it: a changed line a test ran
// on both sides was executed under a check, as a row's is.
type BaseTestRun struct {
	Failures             []TestFailure
	Notes                []string
	HeadLines, BaseLines map[string][]int
}

// TestFailure is one of the merge-base's tests that passed on the base's
// code and failed on the head's, the base's test run on both.
type TestFailure struct {
	Test string // as its language names it: TestDecode/datetime, test_m.py::test_fruit
	File string // its file on the base, relative to the top
	// Symbols are the changed targets the test reached on the head, the
	// likeliest cause first (Go: most changed lines run; Python: the last
	// called); none when it reached none premise could see.
	Symbols []string
	// Head is how it failed: its first message, as data.
	Head string
	// Variant, for a variant of a test (one of its literals replaced:
	// gate.PyTests.Amplify), says which literal it changed and how; Base
	// is then how the variant ended on the base ("" passed, else "failed:
	// how"), Head how it ended on the head, which differs.
	Variant, Base string
}

// TimeClasser is a language whose rows can carry dates and times
// (Python's datetime expressions, Go's RFC 3339 text): the timezone
// template's classes for a parameter of type t (a time, or a list of
// them), none for any other type.
type TimeClasser interface {
	TimeClasses(t Type) []TimeClass
}

// TimeClass is one equivalence class of times: a name the templates'
// categories use (naive, aware_utc, aware_offset, naive_list,
// aware_list, mixed_naive_aware, two_zones), its validate.Kind*, the
// value as the row protocol carries it, and what the row says in words.
type TimeClass struct {
	Name, Kind string
	Value      any
	Relation   string
}

// Observer is a language whose rows carry extra calls to make on what a
// target returns (a returned function probed with values).
type Observer interface {
	Probes(tg Target) []any
	Observe(r validate.Row, probes []any) validate.Row
}

// Rebinder is a language whose module can still bind, under the same
// name, a function the patch deleted the definition of (an import, an
// assignment, a re-export): its callers still call that name, so the
// base's function is compared with what the name is on the head
// (issue 26).
type Rebinder interface {
	StillBound(f diffparse.File, file any, local string) bool
}

// Languages is the run's languages by name.
type Languages map[string]Language

// Constructor makes one language for a run: dirs holds the head's and
// the base's checkouts, perFunction the rows a function may get; probe is
// set when no checkout exists yet (HasTargets), and the language counts
// what could be a target.
type Constructor func(dirs Checkouts, perFunction int, probe bool) Language

// Checkouts are a run's two trees.
type Checkouts struct{ Head, Base string }

// registry is every language evidence is built for: a language is added
// by implementing language and registering its constructor from its own
// file's init.
var registry []Constructor

// Register adds a language's constructor to the registry, from the
// language's init. What it returns takes the language out again (for a
// test's own language).
func Register(mk Constructor) (unregister func()) {
	registry = append(registry, mk)
	n := len(registry)
	return func() {
		if len(registry) == n {
			registry = registry[:n-1]
		}
	}
}

// LanguagesFor makes the languages of one run.
func LanguagesFor(headDir, baseDir string, perFunction int, probe bool) Languages {
	ls := Languages{}
	for _, mk := range registry {
		l := mk(Checkouts{Head: headDir, Base: baseDir}, perFunction, probe)
		ls[l.Name()] = l
	}
	return ls
}

func (ls Languages) Close() {
	for _, l := range ls {
		l.Close()
	}
}

// Names are the languages' names in order.
func (ls Languages) Names() []string {
	out := make([]string, 0, len(ls))
	for n := range ls {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Present writes a row's call and what each side did in o's language:
// JSON and plain words for a language the run does not have.
func (ls Languages) Present(o Origin, args []any, kwargs map[string]any, base, head *gate.Reply) (input, b, h string) {
	if l := ls[o.Lang]; l != nil {
		b, h = l.Outcomes(base, head, o)
		b, h = whereApart(base, head, b, h)
		return l.CallText(args, kwargs), b, h
	}
	b, h = whereApart(base, head, Describe(base), Describe(head))
	return CallText(args, kwargs), b, h
}

// StaticLanguages are the languages with no checkout to read: for what a
// language knows of a file's text alone (signatures, types, names). Made
// on first use, once every language has registered.
var StaticLanguages = sync.OnceValue(func() Languages { return LanguagesFor("", "", 0, true) })

// Typer is a language that can tell an argument outside its parameter's
// type as the code reads it.
type Typer interface {
	// OutsideType names the first argument of a row outside its
	// parameter's type, and why ("`key` is called, and got [1, 2]"); ""
	// when every argument is of its type or nothing is known.
	OutsideType(tg Target, args []any, kwargs map[string]any) string
}

// Refuser is a language that can tell an error raised because an
// argument is of a type the code does not take, in the runtime's own
// words ('NoneType' object has no attribute 'lower'; expected string or
// bytes-like object, got 'NoneType'), from any other.
type Refuser interface {
	// RefusedType names the type of the row's argument exc refuses
	// ("NoneType"), or of an item of one, "" when exc is no such
	// refusal or no argument of the row (nor its items) is of the type
	// it names.
	RefusedType(exc *gate.Exc, args []any, kwargs map[string]any) string
}

// Versioned is a language whose modules may hold code for another
// version of the language than the one premise runs them under: a module
// written for Python 2 and 3 alike keeps branches that only Python 2
// reaches, naming its builtins (long, unicode, xrange). Such code raises
// when premise calls it directly, on either side, for a reason no patch
// made.
type Versioned interface {
	// OtherVersion names what exc says the running interpreter lacks
	// ("`long` (Python 2's)") when it is a name of another version of
	// the language that tg's module reads at the base as well; "" when
	// exc is no such error or the base's module never names it (a patch
	// that brings the name in is a change).
	OtherVersion(tg Target, exc *gate.Exc) string
}

// Explorer is a language whose worker answers the $explore call: it
// calls one target again and again from seed arguments, changing them a
// little at a time and keeping what runs code no call had, and returns
// the arguments of calls that ran the goal lines (issue 24, item 2:
// coverage as the guide, inside one worker, thousands of calls a second
// where a row costs a round trip). The call's value is {"found": [ARGS,
// ...], "execs": N}.
type Explorer interface {
	// Tokens are the words of a file's source a search puts into the
	// texts it builds: its string literals (a format's marks and
	// keywords) and its numbers.
	Tokens(src []byte) []string
}

// Differ is a language whose worker answers the $explore call's blind
// form ({"differ": true}): it calls one target again and again on
// arguments drawn from the spec alone (the seed, the seed arguments, the
// words), never from what a call did, so the base's worker and the
// head's make the same calls in the same order, and returns a digest of
// each call's outcome, {"digests": [...], "execs": N}; with "emit":
// [indices] it makes no call and returns those calls' arguments,
// {"found": [ARGS, ...]} (evidence/differ.go).
type Differ interface {
	// Words are the words of a file's source a blind search puts into
	// the values it builds: its string literals and their characters,
	// and its numbers.
	Words(src []byte) []string
}

// Warmer is a language whose workers need the same preparation on every
// run, paid once before the evidence's clock starts (Go: the standard
// packages its harness links, compiled into the build cache), so that a
// first run on a fresh machine does not spend the rows' time on it. A
// failure leaves the workers to pay it, as before.
type Warmer interface {
	Warm(ctx context.Context, gcfg gate.Config)
}

// Coverer is a language whose changed lines coverage can count.
type Coverer interface {
	// Statements are a file's statements as its workers see them run;
	// nil when the file does not parse.
	Statements(src []byte) []StmtLines
}

// StmtLines is one statement's lines, first to last, inclusive; def marks
// a function's own header, run when its body ran.
type StmtLines struct {
	First, Last int
	Def         bool
}

// DeletedNames are the bare names of the functions and classes a diff
// deletes in files of language langName: a base's test that fails on the
// head because it names one uses what the patch removed.
func DeletedNames(d *diffparse.Result, langName string) []string {
	if d == nil {
		return nil
	}
	var out []string
	for _, f := range d.Files {
		if f.Language != langName {
			continue
		}
		for _, s := range f.Symbols {
			if s.Change == "deleted" {
				out = append(out, BareName(s.Local))
			}
		}
	}
	return out
}
