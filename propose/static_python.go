package propose

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	python "github.com/tree-sitter/tree-sitter-python/bindings/go"

	"github.com/premise-dev/premise/diffparse"
)

// PyFunc is a Python function's syntax tree (tree-sitter), for Python rules.
// The tree is valid only while the rules run.
type PyFunc struct {
	Node *sitter.Node // the function_definition
	Src  []byte

	nodes []*sitter.Node // the body in preorder, built by the first Walk
	after []int          // after[i] is the index just past nodes[i]'s subtree
}

// Text returns the source text of n.
func (f *PyFunc) Text(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	return string(f.Src[n.StartByte():n.EndByte()])
}

// LineOf returns n's first line, 1-based.
func LineOf(n *sitter.Node) int { return int(n.StartPosition().Row) + 1 }

// Walk calls fn on every node under the function's body, depth first;
// fn returns false to skip a node's children. The body is flattened once
// per function: every rule walks it, and each step into the tree is a cgo
// call.
func (f *PyFunc) Walk(fn func(n *sitter.Node) bool) {
	if f.nodes == nil {
		if body := f.Node.ChildByFieldName("body"); body != nil {
			f.flatten(body)
		}
	}
	for i := 0; i < len(f.nodes); {
		if fn(f.nodes[i]) {
			i++
		} else {
			i = f.after[i]
		}
	}
}

// flatten appends n and its subtree in preorder, recording for each node
// the index just past its subtree.
func (f *PyFunc) flatten(n *sitter.Node) {
	i := len(f.nodes)
	f.nodes = append(f.nodes, n)
	f.after = append(f.after, 0)
	for c := uint(0); c < n.NamedChildCount(); c++ {
		if ch := n.NamedChild(c); ch != nil {
			f.flatten(ch)
		}
	}
	f.after[i] = len(f.nodes)
}

func pyWalk(n *sitter.Node, fn func(n *sitter.Node) bool) {
	if !fn(n) {
		return
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); c != nil {
			pyWalk(c, fn)
		}
	}
}

var (
	pyOnce sync.Once
	pyLang *sitter.Language
)

func pyLanguage() *sitter.Language {
	pyOnce.Do(func() { pyLang = sitter.NewLanguage(python.Language()) })
	return pyLang
}

// pyPasses parses a Python file's head source and makes a pass per changed
// function. The passes hold nodes of the tree, which lives in C memory:
// the caller runs the rules and then calls done to free it.
func pyPasses(f *diffparse.File) (passes []*Pass, done func()) {
	parser := sitter.NewParser()
	defer parser.Close()
	if err := parser.SetLanguage(pyLanguage()); err != nil {
		return nil, func() {}
	}
	tree := parser.Parse(f.HeadSrc, nil)
	if tree == nil {
		return nil, func() {}
	}
	lines := splitLines(f.HeadSrc)
	var out []*Pass
	for _, sym := range changedFuncs(f) {
		var found *sitter.Node
		pyWalk(tree.RootNode(), func(n *sitter.Node) bool {
			if found != nil {
				return false
			}
			if n.Kind() == "function_definition" && endLineOf(n) == sym.End {
				if name := n.ChildByFieldName("name"); name != nil && string(f.HeadSrc[name.StartByte():name.EndByte()]) == lastPart(sym.Local) {
					found = n
					return false
				}
			}
			return true
		})
		if found == nil {
			continue
		}
		p := newPass(f, sym, lines)
		p.Py = &PyFunc{Node: found, Src: f.HeadSrc}
		var skip [][2]int
		pyWalk(found, func(n *sitter.Node) bool {
			if n.Kind() == "comment" || n.Kind() == "string" {
				skip = append(skip, [2]int{int(n.StartByte()), int(n.EndByte())})
				return false
			}
			return true
		})
		p.blank(f.HeadSrc, int(found.StartByte()), int(found.EndByte()), skip)
		if params := found.ChildByFieldName("parameters"); params != nil {
			for i := uint(0); i < params.NamedChildCount(); i++ {
				c := params.NamedChild(i)
				name := c
				if c.Kind() != "identifier" {
					name = c.ChildByFieldName("name")
					if name == nil && c.NamedChildCount() > 0 {
						name = c.NamedChild(0)
					}
				}
				if name == nil || name.Kind() != "identifier" {
					continue
				}
				if n := p.Py.Text(name); n != "self" && n != "cls" {
					p.Params = append(p.Params, n)
				}
			}
		}
		out = append(out, p)
	}
	return out, tree.Close
}

func endLineOf(n *sitter.Node) int {
	e := n.EndPosition()
	if e.Column == 0 && e.Row > n.StartPosition().Row {
		return int(e.Row)
	}
	return int(e.Row) + 1
}

var pySortCall = regexp.MustCompile(`\bsorted\(|\.sort\(`)

// noneGuard matches the checks that make a None parameter safe.
const noneGuard = `NAME\s+is\s+(not\s+)?None|if\s+(not\s+)?NAME\b|NAME\s+or\b|isinstance\(\s*NAME|NAME\s*(==|!=)\s*None|and\s+NAME\b`

// PythonRules are the static rules for Python (issue 3 names the first eight).
func PythonRules() []Rule {
	return []Rule{
		{
			Name: "py-index-non-empty", Language: "python",
			Example: "`return xs[0]` -> `xs` is non-empty",
			Doc:     "Indexing a parameter at [0] or [-1] (or next(iter(x))) with no length or truth check assumes it is non-empty.",
			Run: func(p *Pass) {
				p.Py.Walk(func(n *sitter.Node) bool {
					var name string
					switch n.Kind() {
					case "subscript":
						idx := p.Py.Text(n.ChildByFieldName("subscript"))
						if idx == "0" || idx == "-1" {
							name = p.Py.Text(n.ChildByFieldName("value"))
						}
					case "call":
						if t := p.Py.Text(n); strings.HasPrefix(t, "next(iter(") && strings.HasSuffix(t, "))") {
							name = strings.TrimSuffix(strings.TrimPrefix(t, "next(iter("), "))")
						}
					}
					if p.IsParam(name) && !p.Mentions(`len\(\s*NAME\s*\)|if\s+(not\s+)?NAME\b|NAME\s+(and|or)\b|and\s+NAME\b`, name) &&
						!p.BaseMentions(`(^|[^\w.])NAME\[(0|-1)\]`, name) {
						p.Report(LineOf(n), fmt.Sprintf("`%s` is non-empty", name))
					}
					return true
				})
			},
		},
		{
			Name: "py-compare-previous-sorted", Language: "python",
			Example: "`for x in xs:` / `if out and x == out[-1]:` -> `xs` arrives sorted",
			Doc:     "A loop over a parameter that compares each element with the previous one (out[-1], xs[i - 1], prev) and no sort in the function assumes sorted input.",
			Run: func(p *Pass) {
				if pySortCall.MatchString(p.Body) || len(p.RemovedMatching(pySortCall.String())) > 0 {
					return // py-removed-sort speaks for a removed sort
				}
				prev := re(`\[\s*-1\s*\]|\[\s*\w+\s*-\s*1\s*\]|\bprev\w*\b|\blast\w*\b`)
				p.Py.Walk(func(n *sitter.Node) bool {
					if n.Kind() != "for_statement" {
						return true
					}
					name := loopSource(p, n)
					if !p.IsParam(name) {
						return true
					}
					pyWalk(n.ChildByFieldName("body"), func(m *sitter.Node) bool {
						if m.Kind() == "comparison_operator" && prev.MatchString(p.Py.Text(m)) {
							p.ReportNear(LineOf(n), fmt.Sprintf("`%s` arrives sorted", name))
							return false
						}
						return true
					})
					return true
				})
			},
		},
		{
			Name: "py-removed-sort", Language: "python",
			Example: "removed `ordered = sorted(ranges, key=lambda r: r[0])` -> ranges arrive already sorted by start",
			Doc:     "A sorted()/.sort() the patch deleted, with the function still looping over the parameter, assumes the parameter arrives already sorted.",
			Run: func(p *Pass) {
				removed := p.RemovedMatching(pySortCall.String())
				if len(removed) == 0 || pySortCall.MatchString(p.Body) {
					return
				}
				// sorted(ranges, key=lambda r: r[0]) sorts by the first element.
				byFirst := re(`key\s*=\s*lambda\s+(\w+)\s*:\s*(\w+)\[0\]`)
				done := false
				p.Py.Walk(func(n *sitter.Node) bool {
					if done || n.Kind() != "for_statement" {
						return !done
					}
					name := loopSource(p, n)
					if !p.IsParam(name) {
						return true
					}
					pre := fmt.Sprintf("%s arrive already sorted", name)
					if m := byFirst.FindStringSubmatch(removed[0]); m != nil && m[1] == m[2] {
						if left := n.ChildByFieldName("left"); left != nil && left.Kind() == "pattern_list" && left.NamedChildCount() > 0 {
							pre += " by " + p.Py.Text(left.NamedChild(0))
						} else {
							pre += " by their first element"
						}
					}
					done = p.ReportNear(LineOf(n), pre)
					return !done
				})
			},
		},
		{
			Name: "py-dict-unique-keys", Language: "python",
			Example: "`return {k: v for k, v in pairs}` -> the keys `k` are unique in the input; a repeated key silently keeps its last value",
			Doc:     "A dict comprehension, or d[k] = v inside a loop with no `k in d` check, assumes the keys are unique: a repeated key silently keeps its last value.",
			Run: func(p *Pass) {
				p.Py.Walk(func(n *sitter.Node) bool {
					switch n.Kind() {
					case "dictionary_comprehension":
						key := ""
						if body := n.ChildByFieldName("body"); body != nil {
							key = p.Py.Text(body.ChildByFieldName("key"))
						}
						p.Report(LineOf(n), fmt.Sprintf("the keys `%s` are unique in the input; a repeated key silently keeps its last value", key))
					case "for_statement":
						pyWalk(n.ChildByFieldName("body"), func(m *sitter.Node) bool {
							if m.Kind() != "assignment" {
								return true
							}
							left := m.ChildByFieldName("left")
							if left == nil || left.Kind() != "subscript" {
								return true
							}
							d := p.Py.Text(left.ChildByFieldName("value"))
							k := p.Py.Text(left.ChildByFieldName("subscript"))
							if !p.Mentions(`\bNAME\s*=\s*(\{\}|dict\(\)|\{\s*\w)|:\s*dict\b[^=]*=`, d) || p.Mentions(`\bin\s+NAME\b`, d) || p.Mentions(`NAME\.get\(|NAME\.setdefault\(`, d) {
								return true
							}
							p.Report(LineOf(m), fmt.Sprintf("the keys `%s` written to `%s` are unique in the input; a repeated key silently overwrites", k, d))
							return true
						})
						return false
					}
					return true
				})
			},
		},
		{
			Name: "py-attribute-not-none", Language: "python",
			Example: "`return user.name.strip()` -> `user` is not None",
			Doc:     "An attribute or method of a parameter used with no None check assumes the parameter is not None.",
			Run: func(p *Pass) {
				p.Py.Walk(func(n *sitter.Node) bool {
					if n.Kind() != "attribute" {
						return true
					}
					name := p.Py.Text(n.ChildByFieldName("object"))
					if p.IsParam(name) && !private(p.Symbol.Local) && !p.Mentions(noneGuard, name) && !p.Mentions(`NAME\s*(:|=)\s*\S`, name) &&
						!p.BaseMentions(`(^|[^\w.])NAME\.\w`, name) {
						p.Report(LineOf(n), fmt.Sprintf("`%s` is not None", name))
					}
					return true
				})
			},
		},
		{
			Name: "py-division-non-zero", Language: "python",
			Example: "`return total / count` -> `count` is non-zero",
			Doc:     "Dividing by a parameter (or by len of one) with no zero or emptiness check assumes it is non-zero (non-empty).",
			Run: func(p *Pass) {
				p.Py.Walk(func(n *sitter.Node) bool {
					if n.Kind() != "binary_operator" {
						return true
					}
					op := p.Py.Text(n.ChildByFieldName("operator"))
					if op != "/" && op != "//" && op != "%" {
						return true
					}
					right := p.Py.Text(n.ChildByFieldName("right"))
					if r := n.ChildByFieldName("right"); r != nil && r.Kind() == "parenthesized_expression" && r.NamedChildCount() == 1 {
						right = p.Py.Text(r.NamedChild(0))
					}
					if p.IsParam(right) && !p.Mentions(`NAME\s*(==|!=|<=|>=|<|>)\s*0|if\s+(not\s+)?NAME\b`, right) {
						p.Report(LineOf(n), fmt.Sprintf("`%s` is non-zero", right))
					} else if m := re(`^len\((\w+)\)$`).FindStringSubmatch(right); m != nil && p.IsParam(m[1]) &&
						!p.Mentions(`if\s+(not\s+)?NAME\b|len\(NAME\)\s*(==|!=|<|>|<=|>=)`, m[1]) {
						p.Report(LineOf(n), fmt.Sprintf("`%s` is non-empty", m[1]))
					}
					return true
				})
			},
		},
		{
			Name: "py-datetime-one-timezone", Language: "python",
			Example: "`datetime.fromisoformat(b) - datetime.fromisoformat(a)` -> all datetimes share one timezone convention (all naive or all aware, in one zone)",
			Doc:     "Datetime parsing or arithmetic with no tzinfo/astimezone/timezone handling in the function assumes every datetime follows one timezone convention (all naive or all aware).",
			Run: func(p *Pass) {
				if !strings.Contains(p.Body, "datetime") && !strings.Contains(p.Body, "timedelta") || p.Mentions(`tzinfo|astimezone|timezone|\butc\b|UTC`, "") {
					return
				}
				p.Py.Walk(func(n *sitter.Node) bool {
					switch n.Kind() {
					case "call":
						f := p.Py.Text(n.ChildByFieldName("function"))
						if strings.HasSuffix(f, ".fromisoformat") || strings.HasSuffix(f, ".strptime") || strings.HasSuffix(f, ".fromtimestamp") || strings.HasSuffix(f, ".now") {
							p.Report(LineOf(n), "all datetimes share one timezone convention (all naive or all aware, in one zone)")
						}
					case "binary_operator":
						if op := p.Py.Text(n.ChildByFieldName("operator")); op == "-" {
							p.Report(LineOf(n), "all datetimes share one timezone convention (all naive or all aware, in one zone)")
						}
					}
					return true
				})
			},
		},
		{
			Name: "py-parse-number-no-error", Language: "python",
			Example: "`return int(s)` -> `s` is a numeric string",
			Doc:     "int()/float() of a non-literal outside any try/except assumes the value is a numeric string.",
			Run: func(p *Pass) {
				p.Py.Walk(func(n *sitter.Node) bool {
					if n.Kind() == "try_statement" {
						return false
					}
					if n.Kind() != "call" {
						return true
					}
					f := p.Py.Text(n.ChildByFieldName("function"))
					args := n.ChildByFieldName("arguments")
					if (f != "int" && f != "float" && f != "Decimal") || args == nil || args.NamedChildCount() != 1 {
						return true
					}
					a := args.NamedChild(0)
					switch a.Kind() {
					case "identifier", "attribute", "subscript":
					case "call":
						if !strings.HasSuffix(p.Py.Text(a.ChildByFieldName("function")), "strip") {
							return true
						}
					default:
						return true
					}
					p.Report(LineOf(n), fmt.Sprintf("`%s` is a numeric string", p.Py.Text(a)))
					return true
				})
			},
		},
		{
			Name: "py-removed-raise", Language: "python",
			Example: "removed `if port < 1 or port > 65535:` / `raise ValueError(...)` -> inputs where `port < 1 or port > 65535`, which the base refused with ValueError, are now accepted",
			Doc:     "A raise the patch deleted means the input class it refused is now accepted; the row quotes the deleted check.",
			Run: func(p *Pass) {
				for i, l := range p.Removed {
					t := strings.TrimSpace(l)
					if i := strings.Index(t, " #"); i >= 0 {
						t = strings.TrimSpace(t[:i]) // raise  # pragma: no cover
					}
					// A raise still in the file moved (to a helper), it did
					// not go; a bare raise re-raises, it refuses nothing.
					if !strings.HasPrefix(t, "raise ") || p.stillThere(t) {
						continue
					}
					// The same message raised at head under another class
					// (TypeError became ValueError), here or in a helper, is
					// a refusal kept.
					if m := re(`"[^"]{6,}"|'[^']{6,}'`).FindString(t); m != "" && strings.Contains(string(p.File.HeadSrc), m) {
						continue
					}
					exc := strings.TrimPrefix(t, "raise ")
					if j := strings.IndexByte(exc, '('); j > 0 {
						exc = exc[:j]
					}
					// The patch raises the same class anew in the function:
					// the message changed, the refusal stayed.
					if p.addedMatching(`^raise\s+` + regexp.QuoteMeta(exc) + `\b`) {
						continue
					}
					if i > 0 && strings.HasPrefix(strings.TrimSpace(p.Removed[i-1]), "if ") {
						cond := strings.TrimSpace(p.Removed[i-1])
						c := strings.TrimSuffix(strings.TrimPrefix(cond, "if "), ":")
						p.ReportRemoved(cond, fmt.Sprintf("inputs where `%s`, which the base refused with %s, are now accepted", c, exc))
					} else {
						p.ReportRemoved(t, fmt.Sprintf("the case the base refused with %s is now accepted", exc))
					}
				}
			},
		},
		{
			Name: "py-narrowed-check", Language: "python",
			Doc:     "An `if` guarding a raise that the patch replaced with a different condition moves inputs between refused and accepted; the row says which, in the direction the conditions give.",
			Example: "`if port < 1 or port > 65535:` became `if port > 65535:` before a raise -> inputs where `port < 1`, which the base refused, are now accepted",
			Run: func(p *Pass) {
				narrowed(p, re(`^(if|elif)\s+(.*?)\s*:$`), re(`^\s*raise\b`), " or ")
			},
		},
		{
			Name: "py-none-as-empty", Language: "python",
			Example: "`for t in tags or []:` -> `tags` of None means the same as empty",
			Doc:     "`x or []` (or {}, (), \"\") on a parameter treats None as empty: the patch assumes callers never pass None to mean a mistake.",
			Run: func(p *Pass) {
				p.Py.Walk(func(n *sitter.Node) bool {
					if n.Kind() != "boolean_operator" || p.Py.Text(n.ChildByFieldName("operator")) != "or" {
						return true
					}
					name := p.Py.Text(n.ChildByFieldName("left"))
					switch p.Py.Text(n.ChildByFieldName("right")) {
					case "[]", "{}", "()", `""`, "''", "set()", "dict()", "list()":
					default:
						return true
					}
					// A parameter that defaults to None means "not given" by
					// None: treating it as empty is the point, not an
					// assumption.
					if p.IsParam(name) && !noneDefault(p, name) {
						p.Report(LineOf(n), fmt.Sprintf("`%s` of None means the same as empty", name))
					}
					return true
				})
			},
		},
		{
			Name: "py-zip-same-length", Language: "python",
			Example: "`zip(xs, ys)` -> the sequences zipped in `zip(xs, ys)` have the same length",
			Doc:     "zip() of several sequences without strict=True assumes they have the same length: zip stops silently at the shortest.",
			Run: func(p *Pass) {
				p.Py.Walk(func(n *sitter.Node) bool {
					if n.Kind() != "call" || p.Py.Text(n.ChildByFieldName("function")) != "zip" {
						return true
					}
					args := n.ChildByFieldName("arguments")
					if args == nil || args.NamedChildCount() < 2 || strings.Contains(p.Py.Text(args), "strict") {
						return true
					}
					t := p.Py.Text(args)
					if re(`^\(\s*(\w+)\s*,\s*(\w+)\[1:\]\s*\)$`).MatchString(t) {
						return true // zip(xs, xs[1:]) pairs neighbours on purpose
					}
					p.Report(LineOf(n), fmt.Sprintf("the sequences zipped in `%s` have the same length", p.Py.Text(n)))
					return true
				})
			},
		},
		{
			Name: "py-range-len-minus", Language: "python",
			Example: "`range(len(values) - size)` -> `values` is longer than `size`; when len(values) == size the range is empty",
			Doc:     "range(len(x) - k) is empty unless x is longer than k: the patch assumes it is (an off-by-one at the end drops the last element).",
			Run: func(p *Pass) {
				re := re(`^\(\s*len\((\w+)\)\s*-\s*([\w.]+)\s*\)$`)
				p.Py.Walk(func(n *sitter.Node) bool {
					if n.Kind() != "call" || p.Py.Text(n.ChildByFieldName("function")) != "range" {
						return true
					}
					if m := re.FindStringSubmatch(p.Py.Text(n.ChildByFieldName("arguments"))); m != nil && p.IsParam(m[1]) {
						p.Report(LineOf(n), fmt.Sprintf("`%s` is longer than `%s`; when len(%s) == %s the range is empty", m[1], m[2], m[1], m[2]))
					}
					return true
				})
			},
		},
	}
}

// addedMatching reports whether a line the patch added inside the symbol
// matches pattern.
func (p *Pass) addedMatching(pattern string) bool {
	r := re(pattern)
	for n := p.Symbol.Start; n <= p.Symbol.End; n++ {
		if p.added[n] && r.MatchString(p.Line(n)) {
			return true
		}
	}
	return false
}

// private reports whether a function or any class around it is private
// (_name): its callers are the module's own.
func private(local string) bool {
	for _, part := range strings.Split(local, ".") {
		if strings.HasPrefix(part, "_") && !strings.HasPrefix(part, "__") {
			return true
		}
	}
	return false
}

// noneDefault reports whether parameter name defaults to None.
func noneDefault(p *Pass, name string) bool {
	params := p.Py.Node.ChildByFieldName("parameters")
	if params == nil {
		return false
	}
	return re(`(^|[(,\s*])` + regexp.QuoteMeta(name) + `\s*(:[^=]*)?=\s*None\b`).MatchString(p.Py.Text(params))
}

// loopSource returns the parameter a for loop iterates: `for x in P`,
// `for i, x in enumerate(P)`, `for a, b in zip(P, P[1:])`, `for x in P or []`.
func loopSource(p *Pass, n *sitter.Node) string {
	right := n.ChildByFieldName("right")
	if right == nil {
		return ""
	}
	t := p.Py.Text(right)
	for _, re := range []*regexp.Regexp{
		re(`^(\w+)$`),
		re(`^enumerate\((\w+)\)$`),
		re(`^zip\((\w+),`),
		re(`^(\w+) or `),
	} {
		if m := re.FindStringSubmatch(t); m != nil {
			return m[1]
		}
	}
	return ""
}
