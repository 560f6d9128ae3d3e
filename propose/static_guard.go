package propose

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path"
	"regexp"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/premise-dev/premise/diffparse"
)

// IsTestFile reports whether path is a test, benchmark or fixture file:
// `_test.go`, `test_*.py`, `*_test.py`, `conftest.py`, JavaScript's and
// TypeScript's `*.test.ts`, `*.spec.js` (any of their extensions), or
// anything under a `tests/`, `test/`, `testdata/`, `__tests__/` or
// `__mocks__/` directory. The static rules draft nothing
// for them (issue 15): they are sources of example inputs, and "`b` is not
// nil" on a benchmark's *testing.B is noise.
func IsTestFile(p string) bool {
	base := path.Base(p)
	switch {
	case strings.HasSuffix(base, "_test.go"),
		base == "conftest.py",
		strings.HasSuffix(base, ".py") && (strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py")),
		isJSTestName(base):
		return true
	}
	for _, dir := range strings.Split(path.Dir(p), "/") {
		if dir == "tests" || dir == "test" || dir == "testdata" || dir == "__tests__" || dir == "__mocks__" {
			return true
		}
	}
	return false
}

func normSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// fileBase is the base side of one file, shared by its passes.
type fileBase struct {
	done  bool
	decls []diffparse.Decl
	lines []string
}

// baseLines returns the normalised lines of sym at the base: its own span
// when the base has a declaration of the same name, else the whole base
// file (a new helper made of moved lines says nothing new).
func baseLines(f *diffparse.File, sym diffparse.Symbol, fb *fileBase) map[string]bool {
	out := map[string]bool{}
	if f.BaseSrc == nil {
		return out
	}
	if fb == nil {
		fb = &fileBase{}
	}
	if !fb.done {
		fb.done = true
		fb.lines = splitLines(f.BaseSrc)
		fb.decls, _ = diffparse.Decls(f.Language, f.BaseSrc)
	}
	from, to := 1, len(fb.lines)
	for _, d := range fb.decls {
		if d.Local == sym.Local && d.Start >= 1 && d.End <= len(fb.lines) {
			from, to = d.Start, d.End
			break
		}
	}
	for i := from; i <= to; i++ {
		if l := normSpace(fb.lines[i-1]); l != "" {
			out[l] = true
		}
	}
	return out
}

var (
	pyIgnore = regexp.MustCompile(`#\s*premise:\s*ignore(\[([^\]]*)\])?`)
	goIgnore = regexp.MustCompile(`//\s*premise:ignore(?:[ \t]+([\w,-]+))?`)
)

// ignores reports whether line carries an inline suppression naming rule,
// or naming no rule at all.
func ignores(line, rule string) bool {
	var list string
	if m := pyIgnore.FindStringSubmatch(line); m != nil {
		list = m[2]
		if m[1] == "" {
			return true
		}
	} else if m := goIgnore.FindStringSubmatch(line); m != nil {
		list = m[1]
	} else {
		return false
	}
	if strings.TrimSpace(list) == "" {
		return true
	}
	for _, r := range strings.Split(list, ",") {
		if r = strings.TrimPrefix(strings.TrimSpace(r), "static:"); r == rule {
			return true
		}
	}
	return false
}

var refusal = regexp.MustCompile(`^\s*(return\b.*(\berr\b|Errorf\(|errors\.New\(|\bErr[A-Z]\w*)|panic\(|raise\b)`)

// guardsRefusal reports whether one of the two lines after head line n
// refuses (returns an error, panics, raises).
func guardsRefusal(p *Pass, n int) bool {
	for k := n + 1; k <= n+2 && k <= p.Symbol.End; k++ {
		if refusal.MatchString(p.Line(k)) {
			return true
		}
	}
	return false
}

// guardRules are the rules for checks the patch added: the plainest new
// precondition there is (issue 15).
func guardRules() []Rule {
	return []Rule{pyAddedAssert, pyAddedRaise, goAddedGuard}
}

var pyAddedAssert = Rule{
	Name: "py-added-assert", Language: "python",
	Doc: "An `assert COND` the patch added is a new precondition: callers must now pass inputs where COND holds. " +
		"The condition must test a parameter and be new (not in the base).",
	Example: "`assert chunksize > 1` -> `chunksize > 1` (the patch now asserts it)",
	Run:     func(p *Pass) { runPyAddedGuard(p, true) },
}

var pyAddedRaise = Rule{
	Name: "py-added-raise", Language: "python",
	Doc: "An added `if COND:` whose block raises an exception a caller is meant to see (ValueError, InvalidTag; not " +
		"NotImplementedError or StopIteration) is a new precondition: callers must now pass inputs where COND does not hold. " +
		"The condition must test a parameter, self or a loop variable and be new: not in the base, not a rewrite of a removed check.",
	Example: "`if n < 0:` / `raise ValueError(...)` -> `n >= 0` (other inputs now raise ValueError)",
	Run:     func(p *Pass) { runPyAddedGuard(p, false) },
}

func runPyAddedGuard(p *Pass, asserts bool) {
	p.Py.Walk(func(n *sitter.Node) bool {
		switch n.Kind() {
		case "function_definition", "class_definition", "lambda":
			return false // a nested function's checks are its own
		case "assert_statement":
			if !asserts || n.NamedChildCount() == 0 {
				return false
			}
			cond := p.Py.Text(n.NamedChild(0))
			if p.testsInput(cond, false) {
				p.Report(LineOf(n), fmt.Sprintf("`%s` (the patch now asserts it)", normSpace(cond)))
			}
			return false
		case "if_statement":
			if asserts {
				return true
			}
			cond, body := n.ChildByFieldName("condition"), n.ChildByFieldName("consequence")
			if cond == nil || body == nil {
				return true
			}
			exc := ""
			for i := uint(0); i < body.NamedChildCount(); i++ {
				if st := body.NamedChild(i); st.Kind() == "raise_statement" && st.NamedChildCount() > 0 {
					exc = raisedError(p.Py.Text(st.NamedChild(0)))
				}
			}
			c := p.Py.Text(cond)
			if exc == "" || replacesCheck(p, c) {
				return true
			}
			each := pyLoopOver(p, n, c)
			if each == "" && !p.testsInput(c, true) {
				return true
			}
			p.Report(LineOf(n), fmt.Sprintf("`%s`%s (other inputs now raise %s)", negatePy(normSpace(c)), each, exc))
		}
		return true
	})
}

var dottedRe = regexp.MustCompile(`[A-Za-z_][\w.]*`)

// pyLoopOver returns " for every `x` in `xs`" when cond tests the target
// of a for loop around the if (the check is on each element), else "".
func pyLoopOver(p *Pass, n *sitter.Node, cond string) string {
	for a := n.Parent(); a != nil && a.Kind() != "function_definition"; a = a.Parent() {
		if a.Kind() != "for_statement" {
			continue
		}
		left, right := a.ChildByFieldName("left"), a.ChildByFieldName("right")
		if left == nil || right == nil {
			continue
		}
		for _, v := range identRe.FindAllString(p.Py.Text(left), -1) {
			for _, w := range dottedRe.FindAllString(cond, -1) {
				if w == v || strings.HasPrefix(w, v+".") {
					return fmt.Sprintf(" for every `%s` in `%s`", normSpace(p.Py.Text(left)), normSpace(p.Py.Text(right)))
				}
			}
		}
	}
	return ""
}

var errorName = regexp.MustCompile(`^([\w]+\.)*[A-Z]\w*$`)

// notRefusals are exceptions that end a loop or the program, or mark
// unfinished code: not a check of the caller's input.
var notRefusals = map[string]bool{"NotImplementedError": true, "StopIteration": true, "StopAsyncIteration": true,
	"SystemExit": true, "KeyboardInterrupt": true, "GeneratorExit": true, "AssertionError": true, "NotImplemented": true}

// raisedError returns the exception class a raise names when it is one a
// caller is meant to see ("ValueError", "InvalidTag"), else "" (a bare
// re-raise of a variable, StopIteration, NotImplementedError).
func raisedError(expr string) string {
	name := expr
	if i := strings.IndexByte(name, '('); i >= 0 {
		name = name[:i]
	}
	name = strings.TrimSpace(name)
	last := name
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		last = name[i+1:]
	}
	if !errorName.MatchString(name) || notRefusals[last] || strings.ToUpper(last) == last {
		return ""
	}
	return name
}

// testsInput reports whether cond names one of the function's parameters
// (or, when self counts, an attribute of self): a check of a local the
// function computed is not a precondition on its callers.
func (p *Pass) testsInput(cond string, self bool) bool {
	for _, w := range dottedRe.FindAllString(cond, -1) {
		root := w
		if i := strings.IndexByte(w, '.'); i >= 0 {
			root = w[:i]
		}
		if p.IsParam(root) || self && (root == "self" || root == "cls") && root != w {
			return true
		}
	}
	return false
}

// replacesCheck reports whether the patch removed a check (if, elif, case)
// from the function: then the new one may be that check rewritten (`if h
// == ""` on a trimmed copy became `if s == ""`), and the changed-check
// rules speak for it rather than calling it a new precondition.
func replacesCheck(p *Pass, cond string) bool {
	check := re(`^(if|elif|case|} else if)\s+(.*?)\s*[{:]$`)
	for _, l := range p.Removed {
		if m := check.FindStringSubmatch(strings.TrimSpace(l)); m != nil && normSpace(m[2]) != normSpace(cond) {
			return true
		}
	}
	return false
}

var goAddedGuard = Rule{
	Name: "go-added-guard", Language: "go",
	Doc: "An `if COND {` the patch added whose block returns an error (fmt.Errorf, errors.New, an ErrX sentinel, an ...Error value) " +
		"or panics is a new precondition: callers must now pass inputs where COND does not hold. The condition must test a " +
		"parameter or the receiver and be new: not in the base, not error propagation (`err != nil`), not a rewrite of a removed check.",
	Example: "`if n < 0 {` / `return 0, fmt.Errorf(...)` -> `n >= 0` (other inputs now get an error)",
	Run:     runGoAddedGuard,
}

func runGoAddedGuard(p *Pass) {
	inputs := map[string]bool{}
	for _, n := range p.Params {
		inputs[n] = true
	}
	if r := p.Go.Decl.Recv; r != nil {
		for _, f := range r.List {
			for _, n := range f.Names {
				inputs[n.Name] = true
			}
		}
	}
	mentions := func(e ast.Node, names map[string]bool) (hit, propagates bool) {
		ast.Inspect(e, func(m ast.Node) bool {
			if id, ok := m.(*ast.Ident); ok {
				hit = hit || names[id.Name]
				propagates = propagates || id.Name == "err" || id.Name == "ok"
			}
			return true
		})
		return hit, propagates
	}
	// Loop variables over an input, and names a switch's init derives
	// from an input, are inputs too: the check is on each element.
	loops := map[string]string{} // loop variable -> what it ranges over
	var walk func(n ast.Node) bool
	walk = func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.RangeStmt:
			if hit, _ := mentions(s.X, inputs); hit {
				for _, k := range []ast.Expr{s.Key, s.Value} {
					if name := identName(k); name != "" && name != "_" {
						inputs[name] = true
						loops[name] = types.ExprString(s.X)
					}
				}
			}
		case *ast.SwitchStmt:
			if as, ok := s.Init.(*ast.AssignStmt); ok && s.Tag == nil {
				if hit, _ := mentions(as, inputs); hit {
					for _, l := range as.Lhs {
						inputs[identName(l)] = true
					}
				}
			}
			for _, st := range s.Body.List {
				cc, ok := st.(*ast.CaseClause)
				if !ok || s.Tag != nil || len(cc.List) != 1 {
					continue
				}
				p.goGuard(cc.List[0], cc.Body, inputs, loops, mentions, cc.Pos())
			}
		case *ast.IfStmt:
			if s.Init == nil {
				p.goGuard(s.Cond, s.Body.List, inputs, loops, mentions, s.Pos())
			}
		}
		return true
	}
	goInspect(p, walk)
}

// goGuard drafts the precondition of one added check (an if, or a case of
// a tagless switch) whose block refuses.
func (p *Pass) goGuard(cond ast.Expr, body []ast.Stmt, inputs map[string]bool, loops map[string]string,
	mentions func(ast.Node, map[string]bool) (bool, bool), pos token.Pos) {
	how := ""
	for _, st := range body {
		switch s := st.(type) {
		case *ast.ReturnStmt:
			if len(s.Results) > 0 && isErrorValue(s.Results[len(s.Results)-1]) {
				how = "get an error"
			}
		case *ast.ExprStmt:
			if c, ok := s.X.(*ast.CallExpr); ok && identName(c.Fun) == "panic" {
				how = "panic"
			}
		}
	}
	if how == "" {
		return
	}
	hit, propagates := mentions(cond, inputs)
	if !hit || propagates || replacesCheck(p, types.ExprString(cond)) {
		return
	}
	each := ""
	for v, over := range loops {
		if h, _ := mentions(cond, map[string]bool{v: true}); h {
			each = fmt.Sprintf(" for every `%s` of `%s`", v, over)
			break
		}
	}
	p.Report(p.Go.LineOf(pos), fmt.Sprintf("`%s`%s (other inputs now %s)", negateGo(cond), each, how))
}

var sentinelRe = regexp.MustCompile(`^(Err|err)[A-Z]\w*$`)

// isErrorValue reports whether e makes a new error: fmt.Errorf(...),
// errors.New(...), a sentinel ErrX (or pkg.ErrX), an ...Error value or
// NewXError(...).
func isErrorValue(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.CallExpr:
		if selectorIs(x.Fun, "fmt", "Errorf") || selectorIs(x.Fun, "errors", "New") {
			return true
		}
		name := identName(x.Fun)
		if s, ok := x.Fun.(*ast.SelectorExpr); ok {
			name = s.Sel.Name
		}
		return strings.HasSuffix(name, "Error") || strings.HasSuffix(name, "Errorf")
	case *ast.Ident:
		return sentinelRe.MatchString(x.Name)
	case *ast.SelectorExpr:
		return sentinelRe.MatchString(x.Sel.Name)
	case *ast.UnaryExpr:
		return x.Op == token.AND && isErrorValue(x.X)
	case *ast.CompositeLit:
		return strings.HasSuffix(types.ExprString(x.Type), "Error")
	}
	return false
}

var goNegOp = map[token.Token]token.Token{
	token.EQL: token.NEQ, token.NEQ: token.EQL,
	token.LSS: token.GEQ, token.GEQ: token.LSS,
	token.GTR: token.LEQ, token.LEQ: token.GTR,
}

// negateGo writes !e the way a reviewer would: comparisons flipped, `!x`
// as x, `a || b` as `!a && !b`.
func negateGo(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.ParenExpr:
		return negateGo(x.X)
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			return types.ExprString(x.X)
		}
	case *ast.BinaryExpr:
		if op, ok := goNegOp[x.Op]; ok {
			return types.ExprString(&ast.BinaryExpr{X: x.X, Op: op, Y: x.Y})
		}
		if x.Op == token.LOR {
			return parenIf(negateGo(x.X), "||") + " && " + parenIf(negateGo(x.Y), "||")
		}
		if x.Op == token.LAND {
			l, r := negateGo(x.X), negateGo(x.Y)
			if !strings.Contains(l+r, "&&") {
				return l + " || " + r
			}
		}
	case *ast.Ident, *ast.CallExpr, *ast.SelectorExpr, *ast.IndexExpr:
		return "!" + types.ExprString(e)
	}
	return "!(" + types.ExprString(e) + ")"
}

var pyNegOp = map[string]string{"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">",
	"is": "is not", "is not": "is", "in": "not in", "not in": "in"}

var pyCmp = regexp.MustCompile(`^(.+?)\s+(is not|not in|is|in)\s+(.+)$|^(.+?)\s*(<=|>=|==|!=|<|>)\s*(.+)$`)

// negatePy writes `not cond` the way a reviewer would: comparisons
// flipped, `not x` as x, `a or b` as `a' and b'`.
func negatePy(cond string) string {
	cond = stripParens(cond)
	if parts := splitTop(cond, " or "); len(parts) > 1 {
		for i, q := range parts {
			parts[i] = parenIf(negatePy(q), " or ")
		}
		return strings.Join(parts, " and ")
	}
	if parts := splitTop(cond, " and "); len(parts) > 1 {
		for i, q := range parts {
			parts[i] = negatePy(q)
			if len(splitTop(parts[i], " and ")) > 1 {
				return "not (" + cond + ")"
			}
		}
		return strings.Join(parts, " or ")
	}
	if strings.HasPrefix(cond, "not ") {
		return stripParens(strings.TrimPrefix(cond, "not "))
	}
	if m := pyCmp.FindStringSubmatch(cond); m != nil {
		l, op, r := m[1], m[2], m[3]
		if op == "" {
			l, op, r = m[4], m[5], m[6]
		}
		if atTop(cond, l, op) && !strings.ContainsAny(l+r, "<>=!") && !strings.Contains(" "+l+" "+r+" ", " in ") && !strings.Contains(" "+l+" "+r+" ", " is ") {
			return l + " " + pyNegOp[op] + " " + r
		}
	}
	return "not " + cond
}

// atTop says the comparison cond was cut at (its left side l, then op)
// stands outside brackets and quotes (splitTop): any([x for x in xs])
// holds no `in` test.
func atTop(cond, l, op string) bool {
	sep := op
	if strings.Trim(op, "<>=!") != "" {
		sep = " " + op + " " // is, in, not in, is not
	}
	parts := splitTop(cond, sep)
	return len(parts) > 1 && parts[0] == strings.TrimSpace(l)
}

// parenIf wraps s in parentheses when op occurs in it outside brackets.
func parenIf(s, op string) string {
	if len(splitTop(s, op)) > 1 {
		return "(" + s + ")"
	}
	return s
}

// stripParens removes parentheses around the whole of s.
func stripParens(s string) string {
	s = strings.TrimSpace(s)
	for strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") && closing(s, 0) == len(s)-1 {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	return s
}

// closing returns the index of the bracket closing the one at i.
func closing(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// splitTop splits s at sep outside brackets and quotes.
func splitTop(s, sep string) []string {
	var out []string
	depth, last := 0, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case depth == 0 && strings.HasPrefix(s[i:], sep):
			out = append(out, strings.TrimSpace(s[last:i]))
			last = i + len(sep)
			i += len(sep) - 1
		}
	}
	return append(out, strings.TrimSpace(s[last:]))
}

// opSets are the orderings of two values each comparison holds on.
var opSets = map[string]string{"<": "<", "<=": "<=", ">": ">", ">=": "=>", "==": "=", "!=": "<>"}

// setOp is the comparison holding exactly on the orderings in set (a
// string of '<', '=' and '>', any order).
func setOp(set string) string {
	has := func(c byte) bool { return strings.IndexByte(set, c) >= 0 }
	switch {
	case has('<') && has('=') && !has('>'):
		return "<="
	case has('>') && has('=') && !has('<'):
		return ">="
	case has('<') && has('>') && !has('='):
		return "!="
	case set == "<":
		return "<"
	case set == ">":
		return ">"
	case set == "=":
		return "=="
	}
	return ""
}

func minus(a, b string) string {
	var out []byte
	for i := 0; i < len(a); i++ {
		if strings.IndexByte(b, a[i]) < 0 {
			out = append(out, a[i])
		}
	}
	return string(out)
}

var mirrorSet = strings.NewReplacer("<", ">", ">", "<")

var wholeCmp = regexp.MustCompile(`^([\w.\[\]()+*/ -]+?)\s*(<=|>=|==|!=|<|>)\s*([\w.\[\]()+*/ -]+)$`)

// checkChange says, in the direction the code gives, what changed when a
// refusing check's condition old became nw: which inputs are now accepted
// and which now refused. (issue 15: `if n < 0` -> `if n <= 0` reads
// "`n == 0` is now refused", never "... are now accepted".)
func checkChange(old, nw, or string) string {
	old, nw = stripParens(normSpace(old)), stripParens(normSpace(nw))
	// One comparison of the same two operands: the orderings it refuses.
	if om, nm := wholeCmp.FindStringSubmatch(old), wholeCmp.FindStringSubmatch(nw); om != nil && nm != nil {
		ol, oop, or_ := strings.TrimSpace(om[1]), om[2], strings.TrimSpace(om[3])
		nl, nop, nr := strings.TrimSpace(nm[1]), nm[2], strings.TrimSpace(nm[3])
		oset := opSets[oop]
		if ol == nr && or_ == nl {
			oset, ol, or_ = mirrorSet.Replace(oset), or_, ol
		}
		if ol == nl && or_ == nr {
			nset := opSets[nop]
			acc, ref := setOp(minus(oset, nset)), setOp(minus(nset, oset))
			var says []string
			if acc != "" {
				says = append(says, fmt.Sprintf("`%s %s %s`, which the base refused, is now accepted", nl, acc, nr))
			}
			if ref != "" {
				says = append(says, fmt.Sprintf("`%s %s %s` is now refused", nl, ref, nr))
			}
			if len(says) > 0 {
				return strings.Join(says, "; ")
			}
		}
	}
	// Disjuncts dropped or added.
	od, nd := splitTop(old, or), splitTop(nw, or)
	in := func(x string, set []string) bool {
		for _, s := range set {
			if stripParens(s) == stripParens(x) {
				return true
			}
		}
		return false
	}
	diff := func(a, b []string) (out []string) {
		for _, x := range a {
			if !in(x, b) {
				out = append(out, x)
			}
		}
		return out
	}
	if gone, added := diff(od, nd), diff(nd, od); len(od) > 1 || len(nd) > 1 {
		switch {
		case len(added) == 0 && len(gone) > 0:
			return fmt.Sprintf("inputs where `%s`, which the base refused, are now accepted", strings.Join(gone, " "+strings.TrimSpace(or)+" "))
		case len(gone) == 0 && len(added) > 0:
			return fmt.Sprintf("inputs where `%s` are now refused", strings.Join(added, " "+strings.TrimSpace(or)+" "))
		case len(gone) == 1 && len(added) == 1:
			// One disjunct gained or lost a conjunct: `a || c` became
			// `(a && b) || c` refuses less (a without b is accepted now).
			and := map[string]string{" || ": " && ", " or ": " and "}[or]
			if says := conjunctChange(gone[0], added[0], and); says != "" {
				return says
			}
		}
	}
	return fmt.Sprintf("the check that refuses changed from `%s` to `%s`: inputs where only one of them holds changed side", old, nw)
}

// conjunctChange compares two versions of one refusing disjunct, old and
// nw, when one is the other with conjuncts added.
func conjunctChange(old, nw, and string) string {
	neg := func(x string) string {
		if and == " and " {
			return negatePy(x)
		}
		if strings.HasPrefix(x, "!") && !strings.HasPrefix(x, "!=") {
			return stripParens(x[1:])
		}
		return "!" + x
	}
	extra := func(whole, part string) []string {
		cs := splitTop(stripParens(whole), and)
		var rest []string
		found := false
		for _, c := range cs {
			if stripParens(c) == stripParens(part) && !found {
				found = true
				continue
			}
			rest = append(rest, neg(stripParens(c)))
		}
		if !found || len(rest) == 0 {
			return nil
		}
		return rest
	}
	if rest := extra(nw, old); rest != nil {
		return fmt.Sprintf("inputs where `%s` and `%s`, which the base refused, are now accepted", stripParens(old), strings.Join(rest, "` and `"))
	}
	if rest := extra(old, nw); rest != nil {
		return fmt.Sprintf("inputs where `%s` and `%s` are now refused", stripParens(nw), strings.Join(rest, "` and `"))
	}
	return ""
}
