package propose

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/validate"
)

// Rule is one static-proposer rule, a value like analysis.Analyzer: every
// row it drafts names it ("static:NAME"), so a reviewer knows which reading
// of the code produced an assumption.
type Rule struct {
	Name     string // kebab-case, unique: "py-index-non-empty"
	Doc      string // what the rule looks for and the precondition it drafts
	Language string // "go", "python" or "javascript" (which reads TypeScript too)
	// Example is a changed line the rule reads and the row it drafts from
	// it, for `premise rules`.
	Example string
	Run     func(p *Pass)
}

// Pass is what a rule sees of one changed function or method: its head-side
// syntax, its source lines, which of them the patch added, and the lines
// the patch deleted inside it.
type Pass struct {
	Symbol diffparse.Symbol
	File   *diffparse.File
	// Params are the function's parameter names, in order (receivers, self
	// and cls excluded).
	Params []string
	// Body is the symbol's head-side source.
	Body string
	// Code is Body with comments and string literals blanked, so a guard is
	// looked for in code, not in a docstring that mentions it.
	Code string
	// Removed are the lines the patch deleted inside the symbol's span, in
	// order, without their "-".
	Removed []string
	// Go is set for Go symbols, Py for Python ones, JS for JavaScript
	// and TypeScript ones.
	Go *GoFunc
	Py *PyFunc
	JS *JSFunc

	lines    []string     // the file's head lines, 0-based
	added    map[int]bool // head lines the patch added
	inHunk   map[int]bool // head lines shown in a hunk (added or context)
	rule     string
	out      *[]validate.Candidate
	reported map[string]bool
	shapes   map[string]bool // shape of every head line, built on first use
	// base holds the base side's lines (normalised) that a new line is
	// compared with: the symbol's base lines, or the whole base file's when
	// the symbol is new. Built on first use.
	base     map[string]bool
	baseDone bool
	fb       *fileBase
}

// Line returns head line n of the file (1-based), trimmed.
func (p *Pass) Line(n int) string {
	if n < 1 || n > len(p.lines) {
		return ""
	}
	return strings.TrimSpace(p.lines[n-1])
}

// Added reports whether the patch added head line n.
func (p *Pass) Added(n int) bool { return p.added[n] }

// InHunk reports whether head line n is shown in a hunk (added or context).
func (p *Pass) InHunk(n int) bool { return p.inHunk[n] }

// Report drafts a row quoting head line n, which the patch must have added:
// a generic rule speaks about what the new code assumes, not about code the
// patch left alone. It returns whether the row was drafted.
//
// A line the diff shows as added but whose text the base already had
// (re-indented, moved within the function, or extracted into a new helper)
// is not new code: nothing is drafted for it (issue 15).
func (p *Pass) Report(n int, precondition string) bool {
	if !p.added[n] || p.InBase(p.Line(n)) || p.suppressed(n) {
		return false
	}
	return p.emit(p.Line(n), precondition)
}

// InBase reports whether line, up to whitespace, is a line of the symbol
// at the base (of the base file, when the symbol is new).
func (p *Pass) InBase(line string) bool {
	if !p.baseDone {
		p.baseDone = true
		p.base = baseLines(p.File, p.Symbol, p.fb)
	}
	return p.base[normSpace(line)]
}

// BaseMentions reports whether the symbol's base side (the base file's,
// when the symbol is new) matches pattern with NAME replaced by name: an
// assumption the base code already made (it dereferenced the parameter,
// indexed it) is not one the patch introduces (issue 15).
func (p *Pass) BaseMentions(pattern, name string) bool {
	p.InBase("")
	r, err := compile(strings.ReplaceAll(pattern, "NAME", regexp.QuoteMeta(name)))
	if err != nil {
		return false
	}
	for l := range p.base {
		if r.MatchString(l) {
			return true
		}
	}
	return false
}

// suppressed reports whether head line n, or the line above it, carries an
// inline suppression of the pass's rule: `# premise: ignore[rule]` or
// `//premise:ignore rule` (no rule named: every rule). Only a suppression
// the merge-base already had counts: one the patch adds is itself drafted
// as a finding (markerFindings), never obeyed (issue 26, item 1).
func (p *Pass) suppressed(n int) bool {
	for _, k := range []int{n, n - 1} {
		if k >= 1 && k <= len(p.lines) && !p.added[k] && ignores(p.lines[k-1], p.rule) {
			return true
		}
	}
	return false
}

// policyMarker matches a line by which a patch would ask premise to look
// away: an inline suppression, or a generated-code header (Go's
// convention, and the @generated tag other tools write).
var policyMarker = regexp.MustCompile(`#\s*premise:\s*ignore|//\s*premise:ignore|^// Code generated .* DO NOT EDIT\.$|@generated\b|linguist-(generated|vendored)`)

// markerFindings drafts, for each line the patch added that carries a
// policy marker, a row on the symbol holding it (else the file's first
// changed symbol): a patch cannot exclude or silence its own code, and a
// reviewer sees that it tried (issue 26, item 1).
func markerFindings(f *diffparse.File, passes []*Pass, out *[]validate.Candidate) {
	if len(passes) == 0 {
		return
	}
	seen := map[string]bool{}
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			text := strings.TrimSpace(l.Text)
			if l.Kind != '+' || !policyMarker.MatchString(text) || seen[text] {
				continue
			}
			seen[text] = true
			at := passes[0]
			for _, p := range passes {
				if l.New >= p.Symbol.Start && l.New <= p.Symbol.End {
					at = p
					break
				}
			}
			*out = append(*out, validate.Candidate{
				Symbol:       at.Symbol.Name,
				Precondition: fitPrecondition("the patch adds `" + text + "`, asking premise to look away; premise reads policy from the merge-base only, so this code is judged as written"),
				Evidence:     text,
				Source:       "static:" + MarkerRule,
			})
		}
	}
}

// MarkerRule names the finding a policy marker the patch added is drafted
// as.
const MarkerRule = "policy-marker-added"

// ReportNear drafts a row quoting head line n, which may be any line shown
// in a hunk: a rule about a deletion cites the surviving code around it.
func (p *Pass) ReportNear(n int, precondition string) bool {
	if !p.inHunk[n] || p.suppressed(n) {
		return false
	}
	return p.emit(p.Line(n), precondition)
}

// ReportRemoved drafts a row quoting a deleted line of the symbol.
func (p *Pass) ReportRemoved(removed, precondition string) bool {
	if ignores(removed, p.rule) {
		return false
	}
	return p.emit(strings.TrimSpace(removed), precondition)
}

func (p *Pass) emit(evidence, precondition string) bool {
	precondition = fitPrecondition(precondition)
	if evidence == "" || p.reported[precondition] {
		return false
	}
	p.reported[precondition] = true
	*p.out = append(*p.out, validate.Candidate{
		Symbol:       p.Symbol.Name,
		Precondition: precondition,
		Evidence:     evidence,
		Source:       "static:" + p.rule,
	})
	return true
}

// IsParam reports whether name is one of the function's parameters.
func (p *Pass) IsParam(name string) bool {
	for _, q := range p.Params {
		if q == name {
			return true
		}
	}
	return false
}

// Mentions reports whether the symbol's head source matches the regular
// expression pattern after every "NAME" in it is replaced by name, quoted.
func (p *Pass) Mentions(pattern, name string) bool {
	r, err := compile(strings.ReplaceAll(pattern, "NAME", regexp.QuoteMeta(name)))
	if err != nil {
		return false
	}
	return r.MatchString(p.Code)
}

// blank sets Code to the file's bytes from..to of the symbol with the given
// byte ranges (comments, strings) replaced by spaces.
func (p *Pass) blank(src []byte, from, to int, ranges [][2]int) {
	b := append([]byte(nil), src[from:to]...)
	for _, r := range ranges {
		for i := r[0]; i < r[1]; i++ {
			if i >= from && i < to && b[i-from] != '\n' {
				b[i-from] = ' '
			}
		}
	}
	p.Code = string(b)
}

// RemovedMatching returns the removed lines matching the regular expression.
func (p *Pass) RemovedMatching(pattern string) []string {
	r := re(pattern)
	var out []string
	for _, l := range p.Removed {
		if r.MatchString(l) {
			out = append(out, l)
		}
	}
	return out
}

// Static is the proposer that needs no model: rules over the syntax trees of
// the changed symbols (issue 3; DESIGN.md, "Works offline by default").
type Static struct {
	Rules []Rule
}

// NewStatic returns the static proposer with every built-in rule.
func NewStatic() *Static {
	return &Static{Rules: AllRules()}
}

// AllRules returns every built-in rule: Go's, Python's, JavaScript's, then
// the guard and shared rules of Go and Python.
func AllRules() []Rule {
	out := append(append(append([]Rule{}, GoRules()...), PythonRules()...), JSRules()...)
	out = append(out, guardRules()...)
	return append(out, sharedRules()...)
}

// Name is the register's model for rows the static proposer drafts.
func (s *Static) Name() string { return "static" }

// Propose runs every rule of the symbol's language over each changed
// function and method of res, and filters the drafts against ix like any
// other proposer's.
func (s *Static) Propose(ctx context.Context, res *diffparse.Result, ix *validate.Index) (*Result, error) {
	cands, err := s.Candidates(ctx, res)
	if err != nil {
		return nil, err
	}
	return &Result{FilterResult: ix.Filter(cands)}, nil
}

// Candidates drafts the rows, unfiltered.
func (s *Static) Candidates(ctx context.Context, res *diffparse.Result) ([]validate.Candidate, error) {
	var out []validate.Candidate
	for i := range res.Files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		f := &res.Files[i]
		if f.HeadSrc == nil || f.ParseError != "" || f.Excluded != "" || len(f.Symbols) == 0 {
			continue
		}
		// Tests and benchmarks are sources of example inputs, not code
		// whose preconditions a reviewer signs (issue 15: 282 of 283 rows
		// of a perf commit were "`b` is not nil" in _test.go files).
		if IsTestFile(f.Path) {
			continue
		}
		var passes []*Pass
		done := func() {}
		switch f.Language {
		case "go":
			passes = goPasses(f)
		case "python":
			passes, done = pyPasses(f)
		case diffparse.LangJavaScript, diffparse.LangTypeScript:
			passes, done = jsPasses(f)
		}
		markerFindings(f, passes, &out)
		fb := &fileBase{}
		for _, p := range passes {
			p.fb = fb
			p.out = &out
			p.reported = map[string]bool{}
			for _, r := range s.Rules {
				if r.Language != ruleLanguage(f.Language) {
					continue
				}
				p.rule = r.Name
				r.Run(p)
			}
		}
		done()
	}
	return out, nil
}

// newPass fills the language-independent part of a pass.
func newPass(f *diffparse.File, sym diffparse.Symbol, lines []string) *Pass {
	p := &Pass{Symbol: sym, File: f, lines: lines, added: map[int]bool{}, inHunk: map[int]bool{}}
	if sym.Start >= 1 && sym.End <= len(lines) && sym.Start <= sym.End {
		p.Body = strings.Join(lines[sym.Start-1:sym.End], "\n")
	}
	p.Code = p.Body
	for _, h := range f.Hunks {
		next := h.NewStart
		for _, l := range h.Lines {
			switch l.Kind {
			case '+':
				p.added[l.New] = true
				p.inHunk[l.New] = true
				next = l.New + 1
			case ' ':
				p.inHunk[l.New] = true
				next = l.New + 1
			case '-':
				if next >= sym.Start && next <= sym.End+1 {
					p.Removed = append(p.Removed, l.Text)
				}
			}
		}
	}
	return p
}

// changedFuncs are the symbols the rules look at: functions and methods
// present at head.
func changedFuncs(f *diffparse.File) []diffparse.Symbol {
	var out []diffparse.Symbol
	for _, s := range f.Symbols {
		if (s.Kind == "function" || s.Kind == "method") && s.Change != "deleted" {
			out = append(out, s)
		}
	}
	return out
}

func splitLines(src []byte) []string {
	s := strings.TrimSuffix(string(src), "\n")
	return strings.Split(s, "\n")
}

// RuleNames returns the names of rules, sorted, for help text.
func RuleNames(rules []Rule) []string {
	var out []string
	for _, r := range rules {
		out = append(out, r.Name)
	}
	sort.Strings(out)
	return out
}

// sharedRules are rules over the diff's text that read the same in Go and
// Python; each is registered once per language.
func sharedRules() []Rule {
	var out []Rule
	for _, lang := range []string{"go", "python"} {
		prefix := map[string]string{"go": "go", "python": "py"}[lang]
		out = append(out, Rule{
			Name:     prefix + "-boundary-moved",
			Language: lang,
			Doc: "A comparison the patch changed only by moving its boundary (< to <=, > to >=, or back) " +
				"decides equal values the other way now: the patch assumes equality at the boundary " +
				"means what the new operator says. A check that refuses is left to the changed-check rule.",
			Example: map[string]string{"go": "`return b[0] < a[1]` became `return b[0] <= a[1]` -> values where `b[0]` == `a[1]` now take the other branch (`<` became `<=`)",
				"python": "`if b[0] < a[1]:` became `if b[0] <= a[1]:` -> values where `b[0]` == `a[1]` now take the other branch (`<` became `<=`)"}[lang],
			Run: boundaryMoved,
		})
	}
	return out
}

var cmpOps = regexp.MustCompile(`<=|>=|<|>`)

// boundaryMoved pairs each removed line with an added line that differs from
// it only in one comparison operator's equality; failing that, it pairs
// comparisons of the same two operands across a rewritten condition
// (seed 004's merge_ranges: `if not out or start >= out[-1][1]:` became
// `if out and start <= out[-1][1]:`, the branches swapped and equality moved
// from "new range" to "merge").
func boundaryMoved(p *Pass) {
	flip := func(s string) string {
		return cmpOps.ReplaceAllStringFunc(s, func(op string) string { return flipEq[op] })
	}
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	for _, old := range p.Removed {
		o := norm(old)
		if !cmpOps.MatchString(o) {
			continue
		}
		for n := p.Symbol.Start; n <= p.Symbol.End; n++ {
			if !p.added[n] {
				continue
			}
			nw := norm(p.Line(n))
			if nw == o || len(nw) != len(o)+1 && len(nw) != len(o)-1 {
				continue
			}
			if !sameButOneOp(o, nw, flip) {
				continue
			}
			if guardsRefusal(p, n) {
				return // a refusing check: the changed-check rule says which way
			}
			oc, nc := comparisons(o), comparisons(nw)
			what := "values equal at the boundary"
			for i := range nc {
				if i < len(oc) && oc[i].op != nc[i].op {
					what = fmt.Sprintf("values where `%s` == `%s`", nc[i].left, nc[i].right)
				}
			}
			p.Report(n, fmt.Sprintf("%s now take the other branch (`%s` became `%s`); the patch means equality to be treated the new way", what, opChange(o, nw), opChange(nw, o)))
			return
		}
	}
	// Rewritten conditions: the same operands compared on both sides, in
	// a branch (if, elif, case, while) the patch rewrote, not merely moved.
	branch := regexp.MustCompile(`^(if|elif|case|while|} else if)\b`)
	removed := map[string]bool{}
	for _, l := range p.Removed {
		removed[norm(l)] = true
	}
	addedText := map[string]bool{}
	for n := p.Symbol.Start; n <= p.Symbol.End; n++ {
		if p.added[n] {
			addedText[norm(p.Line(n))] = true
		}
	}
	for _, old := range p.Removed {
		if !branch.MatchString(norm(old)) || addedText[norm(old)] {
			continue
		}
		for _, oc := range comparisons(old) {
			for n := p.Symbol.Start; n <= p.Symbol.End; n++ {
				if !p.added[n] || !branch.MatchString(p.Line(n)) || removed[norm(p.Line(n))] {
					continue
				}
				for _, nc := range comparisons(p.Line(n)) {
					if nc.a != oc.a || nc.b != oc.b || nc.op == oc.op || nc.op == negate[oc.op] {
						continue // other operands; the same test; the same boundary, branches swapped
					}
					moved := nc.op == flipEq[oc.op]
					// Equality moved and the branches swapped; a bare reversed
					// comparison on an otherwise identical line is not that.
					swapped := nc.op == negate[flipEq[oc.op]] && strings.Count(norm(p.Line(n)), " ") != strings.Count(norm(old), " ")
					if moved || swapped {
						p.Report(n, fmt.Sprintf("values where `%s` == `%s` now take the other branch than before; the patch means equality to be treated the new way", nc.left, nc.right))
						return
					}
				}
			}
		}
	}
}

var (
	flipEq    = map[string]string{"<": "<=", "<=": "<", ">": ">=", ">=": ">"}
	negate    = map[string]string{"<": ">=", ">=": "<", ">": "<=", "<=": ">"}
	mirror    = map[string]string{"<": ">", ">": "<", "<=": ">=", ">=": "<="}
	cmpRe     = regexp.MustCompile(`([\w.\[\]()+*/-]+?)\s*(<=|>=|<|>)\s*([\w.\[\]()+*/-]+)`)
	operandRe = regexp.MustCompile(`^[\w.]+(\[[^\]]*\])*$`)
)

// comparison is a <, <=, > or >= between two operands, oriented so that a
// sorts before b (a > b is b < a).
type comparison struct {
	a, op, b    string
	left, right string // as written
}

func comparisons(line string) []comparison {
	var out []comparison
	for _, m := range cmpRe.FindAllStringSubmatch(line, -1) {
		a, op, b := strings.Trim(m[1], "()"), m[2], strings.Trim(m[3], "()")
		for strings.Count(b, "]") > strings.Count(b, "[") {
			b = b[:strings.LastIndexByte(b, ']')] // `x <= limit]` of a comprehension
		}
		if !operandRe.MatchString(a) || !operandRe.MatchString(b) {
			continue
		}
		c := comparison{a: a, op: op, b: b, left: a, right: b}
		if a > b {
			c.a, c.b, c.op = b, a, mirror[op]
		}
		out = append(out, c)
	}
	return out
}

// sameButOneOp reports whether a and b differ in exactly one comparison
// operator's "=".
func sameButOneOp(a, b string, flip func(string) string) bool {
	locs := cmpOps.FindAllStringIndex(a, -1)
	for _, l := range locs {
		cand := a[:l[0]] + flip(a[l[0]:l[1]]) + a[l[1]:]
		if cand == b {
			return true
		}
	}
	return false
}

// opChange returns the comparison operator of a that differs from b's.
func opChange(a, b string) string {
	la, lb := cmpOps.FindAllString(a, -1), cmpOps.FindAllString(b, -1)
	for i := range la {
		if i < len(lb) && la[i] != lb[i] {
			return la[i]
		}
	}
	return "?"
}

var shapeIdent = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// shapeKeep are the words a line's shape keeps: the ones that decide what
// the line does, not what its names are.
var shapeKeep = map[string]bool{
	"return": true, "nil": true, "if": true, "raise": true, "not": true, "and": true, "or": true,
	"is": true, "None": true, "true": true, "false": true, "True": true, "False": true, "err": true,
}

// shape is a line with its names blanked, so a line that survived a rename
// of locals (x -> id) still matches itself.
func shape(line string) string {
	return shapeIdent.ReplaceAllStringFunc(strings.Join(strings.Fields(line), " "), func(w string) string {
		if shapeKeep[w] {
			return w
		}
		return "_"
	})
}

// stillThere reports whether a deleted line survives at head, verbatim or
// up to renamed names, anywhere in the file (moved into a helper counts).
func (p *Pass) stillThere(removed string) bool {
	t := strings.TrimSpace(removed)
	if strings.Contains(string(p.File.HeadSrc), t) {
		return true
	}
	// Without a string literal a shape ("return _, _") is too common to
	// say anything.
	if !strings.ContainsAny(t, "\"'`") {
		return false
	}
	if p.shapes == nil {
		p.shapes = map[string]bool{}
		for _, l := range p.lines {
			p.shapes[shape(l)] = true
		}
	}
	return p.shapes[shape(t)]
}

// compiled memoises regular expressions: rules build theirs per symbol
// (a guard names the parameter), and compiling dominated the rules' time.
var compiled sync.Map // pattern -> *regexp.Regexp or error

func compile(pattern string) (*regexp.Regexp, error) {
	if v, ok := compiled.Load(pattern); ok {
		if r, ok := v.(*regexp.Regexp); ok {
			return r, nil
		}
		return nil, v.(error)
	}
	r, err := regexp.Compile(pattern)
	if err != nil {
		compiled.Store(pattern, err)
		return nil, err
	}
	compiled.Store(pattern, r)
	return r, nil
}

// re is compile for the rules' own fixed patterns, which are known good.
func re(pattern string) *regexp.Regexp {
	r, err := compile(pattern)
	if err != nil {
		panic(err) // a rule's own pattern is broken: a bug, caught by its tests
	}
	return r
}

var codeSpan = regexp.MustCompile("`[^`]{61,}`")

// fitPrecondition shortens quoted code inside a precondition so the row is
// not dropped as overlong: the evidence carries the whole line anyway.
func fitPrecondition(s string) string {
	if len([]rune(s)) <= validate.MaxPreconditionLen {
		return s
	}
	s = codeSpan.ReplaceAllStringFunc(s, func(c string) string {
		r := []rune(c[1 : len(c)-1])
		return "`" + string(r[:57]) + "...`"
	})
	if r := []rune(s); len(r) > validate.MaxPreconditionLen {
		s = string(r[:validate.MaxPreconditionLen-3]) + "..."
	}
	return s
}
