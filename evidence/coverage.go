package evidence

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/gate"
)

// Changed-line coverage (issue 24, item 1): which of the lines a patch
// changed the rows ran. The workers report the lines of the changed
// functions each call ran (gate.Watch); a language that can say which
// lines are statements (coverer) turns the changed lines into the
// statements holding them, and a changed statement is reached when a row
// ran any of its lines. A symbol whose changed statements no row ran is
// not exercised, however many rows it had: its rows say nothing about the
// change.

// Coverage is a symbol's changed lines reached by its rows, on each side:
// the head's added lines and the base's removed ones.
type Coverage struct {
	Head *SideCoverage `json:"head,omitempty"`
	Base *SideCoverage `json:"base,omitempty"`
}

// SideCoverage is one side's changed statements (as lines) and the ones
// no row ran.
type SideCoverage struct {
	File    string `json:"file"`
	Changed int    `json:"changed"` // changed lines that are code
	Reached int    `json:"reached"` // of those, lines a row or a base's test ran
	// ByTests are the reached lines only the base's tests ran (on both
	// sides, compared by their outcome), no row.
	ByTests   int             `json:"by_tests,omitempty"`
	Unreached []UnreachedLine `json:"unreached,omitempty"`
}

// UnreachedLine is a changed line no row ran, with its text.
type UnreachedLine struct {
	Line int    `json:"line"`
	Text string `json:"text"`
}

// Exercised says whether a row (or a base's test) ran any changed line of
// the symbol; true when there is nothing to count.
func (c *Coverage) Exercised() bool {
	if c == nil {
		return true
	}
	t := c.totals()
	return t.Changed == 0 || t.Reached > 0
}

// totals are both sides' counts added up.
func (c *Coverage) totals() SideCoverage {
	var t SideCoverage
	for _, s := range []*SideCoverage{c.Head, c.Base} {
		if s != nil {
			t.Changed += s.Changed
			t.Reached += s.Reached
			t.ByTests += s.ByTests
		}
	}
	return t
}

// String is the coverage in a line: "head 3/4, base 1/2 changed lines ran".
func (c *Coverage) String() string {
	var parts []string
	for _, s := range []struct {
		name string
		c    *SideCoverage
	}{{"head", c.Head}, {"base", c.Base}} {
		if s.c != nil && s.c.Changed > 0 {
			parts = append(parts, fmt.Sprintf("%s %d/%d", s.name, s.c.Reached, s.c.Changed))
		}
	}
	if len(parts) == 0 {
		return "no changed line is code"
	}
	out := strings.Join(parts, ", ") + " changed lines ran"
	if n := c.totals().ByTests; n > 0 {
		out += fmt.Sprintf(" (%d only in the base's tests)", n)
	}
	return out
}

// byTestsOnly says whether every reached line was reached by the base's
// tests alone.
func (c *Coverage) byTestsOnly() bool {
	t := c.totals()
	return t.Reached > 0 && t.Reached == t.ByTests
}

// sideLines is one side of a changed symbol: its file in the checkout,
// its span there, its changed lines and the statements holding them.
type sideLines struct {
	rel, abs  string
	from, to  int
	changed   []int
	stmts     []lang.StmtLines
	src       []byte
	reachable bool // the language counts its statements
}

// coverPlan is what coverage watches and counts for one changed symbol.
type coverPlan struct {
	symbol, lang string
	head, base   sideLines
}

// coverPlans are the changed functions and methods of the diff, with the
// lines to watch on each side; headDir and baseDir are the checkouts.
func coverPlans(res *diffparse.Result, langs lang.Languages, headDir, baseDir string) []coverPlan {
	if res == nil || headDir == "" {
		return nil
	}
	// The workers name files by absolute path.
	headDir, _ = filepath.Abs(headDir)
	if baseDir != "" {
		baseDir, _ = filepath.Abs(baseDir)
	}
	var out []coverPlan
	for _, f := range res.Files {
		l := langs[f.Language]
		cv, ok := l.(lang.Coverer)
		if !ok || f.Excluded != "" {
			continue
		}
		var headStmts, baseStmts []lang.StmtLines
		var baseDecls []diffparse.Decl
		parsed := false
		for _, s := range f.Symbols {
			if (s.Kind != "function" && s.Kind != "method") || (s.Change != "modified" && s.Change != "added") {
				continue
			}
			if !parsed {
				parsed = true
				headStmts, baseStmts = cv.Statements(f.HeadSrc), cv.Statements(f.BaseSrc)
				baseDecls, _ = diffparse.Decls(f.Language, f.BaseSrc)
			}
			added, removed := hunkLines(f.Hunks)
			p := coverPlan{symbol: s.Name, lang: f.Language}
			p.head = sideLines{rel: f.Path, abs: filepath.Join(headDir, f.Path), from: s.Start, to: s.End, src: f.HeadSrc, stmts: headStmts, reachable: headStmts != nil}
			p.head.changed = within(added, s.Start, s.End)
			baseFile := f.OldPath
			if baseFile == "" {
				baseFile = f.Path
			}
			for _, d := range baseDecls {
				if d.Local == s.Local && baseDir != "" {
					p.base = sideLines{rel: baseFile, abs: filepath.Join(baseDir, baseFile), from: d.Start, to: d.End, src: f.BaseSrc, stmts: baseStmts, reachable: baseStmts != nil}
					p.base.changed = within(removed, d.Start, d.End)
					break
				}
			}
			out = append(out, p)
		}
	}
	return out
}

// hunkLines are the head's added lines and the base's removed ones.
func hunkLines(hunks []diffparse.Hunk) (added, removed []int) {
	for _, h := range hunks {
		for _, l := range h.Lines {
			switch l.Kind {
			case '+':
				added = append(added, l.New)
			case '-':
				removed = append(removed, l.Old)
			}
		}
	}
	return added, removed
}

func within(lines []int, from, to int) []int {
	var out []int
	for _, n := range lines {
		if from <= n && n <= to {
			out = append(out, n)
		}
	}
	return out
}

// watches are the spans of the plans' functions the workers report on,
// for the head and the base, of one language.
func watches(plans []coverPlan, langName string) (head, base gate.Watch) {
	head, base = gate.Watch{}, gate.Watch{}
	for _, p := range plans {
		if p.lang != langName {
			continue
		}
		for _, s := range []struct {
			w    gate.Watch
			side sideLines
		}{{head, p.head}, {base, p.base}} {
			if s.side.abs != "" && s.side.reachable && len(s.side.changed) > 0 {
				s.w[s.side.abs] = append(s.w[s.side.abs], gate.LineRange{From: s.side.from, To: s.side.to})
			}
		}
	}
	return head, base
}

// linesRun gathers the lines a table's rows ran, by file, on each side,
// and apart the lines the base's tests ran.
type linesRun struct {
	head, base         map[string]map[int]bool
	testHead, testBase map[string]map[int]bool
}

// addTests adds the lines the base's tests ran on each side.
func (lr *linesRun) addTests(head, base map[string][]int) {
	if lr.testHead == nil {
		lr.testHead, lr.testBase = map[string]map[int]bool{}, map[string]map[int]bool{}
	}
	for _, s := range []struct {
		to   map[string]map[int]bool
		from map[string][]int
	}{{lr.testHead, head}, {lr.testBase, base}} {
		for f, ls := range s.from {
			if s.to[f] == nil {
				s.to[f] = map[int]bool{}
			}
			for _, l := range ls {
				s.to[f][l] = true
			}
		}
	}
}

func (lr *linesRun) add(grep *gate.Report) {
	if lr.head == nil {
		lr.head, lr.base = map[string]map[int]bool{}, map[string]map[int]bool{}
	}
	put := func(m map[string]map[int]bool, r *gate.Reply) {
		if r == nil {
			return
		}
		for f, ls := range r.Lines {
			if m[f] == nil {
				m[f] = map[int]bool{}
			}
			for _, l := range ls {
				m[f][l] = true
			}
		}
	}
	for _, rr := range grep.Rows {
		for i := range rr.Attempts {
			if a := rr.Attempts[i]; gate.Refused(a.Reply) || a.Base != nil && gate.Refused(*a.Base) {
				// The harness refused the call on a side: nothing was
				// compared, so what the other side ran reached nothing.
				continue
			}
			put(lr.head, &rr.Attempts[i].Reply)
			put(lr.base, rr.Attempts[i].Base)
		}
	}
}

// coverage counts one plan's changed statements the rows ran; nil when
// neither side can be counted.
func (lr *linesRun) coverage(p coverPlan) *Coverage {
	c := &Coverage{Head: lr.side(p.head, lr.head, lr.testHead), Base: lr.side(p.base, lr.base, lr.testBase)}
	if c.Head == nil && c.Base == nil {
		return nil
	}
	return c
}

func (lr *linesRun) side(s sideLines, ran, tested map[string]map[int]bool) *SideCoverage {
	if !s.reachable || s.abs == "" {
		return nil
	}
	byRows, byTests := ran[s.abs], tested[s.abs]
	out := &SideCoverage{File: s.rel}
	lines := strings.Split(string(s.src), "\n")
	for _, n := range s.changed {
		st, ok := innermostStmt(s.stmts, n)
		if !ok {
			continue // a comment, a blank, a brace: nothing runs there
		}
		out.Changed++
		if s.stmtRan(st, byRows) {
			out.Reached++
			continue
		}
		if s.stmtRan(st, byTests) {
			out.Reached++
			out.ByTests++
			continue
		}
		text := ""
		if n-1 < len(lines) {
			text = strings.TrimSpace(lines[n-1])
		}
		out.Unreached = append(out.Unreached, UnreachedLine{Line: n, Text: text})
	}
	sort.Slice(out.Unreached, func(i, j int) bool { return out.Unreached[i].Line < out.Unreached[j].Line })
	return out
}

// stmtRan says whether statement st of the span ran: one of its lines
// did, or, for a function's header, any line of its body.
func (s sideLines) stmtRan(st lang.StmtLines, seen map[int]bool) bool {
	if st.Def {
		for l := range seen {
			if s.from <= l && l <= s.to {
				return true
			}
		}
	}
	for l := st.First; l <= st.Last; l++ {
		if seen[l] {
			return true
		}
	}
	return false
}

// innermostStmt is the narrowest statement holding line n.
func innermostStmt(stmts []lang.StmtLines, n int) (lang.StmtLines, bool) {
	best, found := lang.StmtLines{}, false
	for _, s := range stmts {
		if s.First <= n && n <= s.Last && (!found || s.Last-s.First < best.Last-best.First) {
			best, found = s, true
		}
	}
	return best, found
}

// covered puts each changed symbol's coverage on its SymbolRows, and
// marks one whose rows ran none of its changed lines not exercised: it
// was not checked, whatever its row count (a run with one cannot say the
// gate holds).
func (rep *Report) covered() {
	at := map[string]int{}
	for i, s := range rep.Symbols {
		at[s.Symbol] = i
	}
	for _, p := range rep.plans {
		i, ok := at[p.symbol]
		if !ok {
			continue
		}
		c := rep.ran.coverage(p)
		if c == nil {
			continue
		}
		s := &rep.Symbols[i]
		s.Coverage = c
		if s.Rows == 0 && s.Unchecked && c.Exercised() && !strings.HasPrefix(s.Why, lang.Unexported) {
			// A function premise could not call itself whose changed
			// lines the rows of its callers, or the base's tests on both
			// sides, ran was checked through them.
			through := "its callers' rows"
			if c.byTestsOnly() {
				through = "the base's tests"
			}
			s.Why += "; checked through " + through + ": " + c.String()
			s.Unchecked = false
		}
		if s.Rows > 0 && !s.Unchecked && !c.Exercised() {
			// Whatever else it says (its rows cut by the row budget or
			// by its time), a symbol whose rows ran none of its changed
			// lines was not checked.
			why := "not exercised: its rows ran none of its changed lines (" + c.firstUnreached() + ")"
			if s.Why != "" {
				why += "; " + s.Why
			}
			s.Why, s.Unchecked = why, true
		}
	}
}

// firstUnreached names the first changed line no row ran, on the head
// if any, as "line 42 `if val > cutoff {` on the base".
func (c *Coverage) firstUnreached() string {
	for _, s := range []struct {
		name string
		c    *SideCoverage
	}{{"head", c.Head}, {"base", c.Base}} {
		if s.c != nil && len(s.c.Unreached) > 0 {
			u := s.c.Unreached[0]
			return fmt.Sprintf("line %d `%s` never ran on the %s", u.Line, u.Text, s.name)
		}
	}
	return ""
}
