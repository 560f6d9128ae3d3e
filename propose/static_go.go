package propose

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"strings"

	"github.com/premise-dev/premise/diffparse"
)

// GoFunc is a Go function's syntax, for Go rules.
type GoFunc struct {
	Fset *token.FileSet
	Decl *ast.FuncDecl
	File *ast.File
	// ParamTypes maps each parameter name to its type expression.
	ParamTypes map[string]ast.Expr
}

// LineOf returns the line of pos.
func (g *GoFunc) LineOf(pos token.Pos) int { return g.Fset.Position(pos).Line }

// Src returns the source text of node.
func (g *GoFunc) Src(p *Pass, n ast.Node) string {
	a, b := g.Fset.Position(n.Pos()), g.Fset.Position(n.End())
	if a.Line != b.Line || a.Line < 1 || a.Line > len(p.lines) {
		return ""
	}
	l := p.lines[a.Line-1]
	if b.Column-1 > len(l) {
		return ""
	}
	return l[a.Column-1 : b.Column-1]
}

// goPasses parses a Go file's head source once and makes a pass per changed
// function.
func goPasses(f *diffparse.File) []*Pass {
	fset, af, err := diffparse.ParseGo(f.Path, f.HeadSrc)
	if err != nil {
		return nil
	}
	lines := splitLines(f.HeadSrc)
	var out []*Pass
	for _, sym := range changedFuncs(f) {
		for _, d := range af.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fset.Position(fd.End()).Line != sym.End || fd.Name.Name != lastPart(sym.Local) {
				continue
			}
			p := newPass(f, sym, lines)
			g := &GoFunc{Fset: fset, Decl: fd, File: af, ParamTypes: map[string]ast.Expr{}}
			for _, fld := range fd.Type.Params.List {
				for _, n := range fld.Names {
					if n.Name != "_" {
						p.Params = append(p.Params, n.Name)
						g.ParamTypes[n.Name] = fld.Type
					}
				}
			}
			p.Go = g
			var skip [][2]int
			for _, cg := range af.Comments {
				skip = append(skip, [2]int{fset.Position(cg.Pos()).Offset, fset.Position(cg.End()).Offset})
			}
			ast.Inspect(fd, func(n ast.Node) bool {
				if bl, ok := n.(*ast.BasicLit); ok && bl.Kind == token.STRING {
					skip = append(skip, [2]int{fset.Position(bl.Pos()).Offset, fset.Position(bl.End()).Offset})
				}
				return true
			})
			p.blank(f.HeadSrc, fset.Position(fd.Pos()).Offset, fset.Position(fd.End()).Offset, skip)
			out = append(out, p)
			break
		}
	}
	return out
}

func lastPart(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// goInspect walks the function body.
func goInspect(p *Pass, fn func(n ast.Node) bool) { ast.Inspect(p.Go.Decl.Body, fn) }

func identName(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// lenOf returns P when e is len(P) (possibly inside a conversion such as
// float64(len(P))).
func lenOf(e ast.Expr) string {
	c, ok := e.(*ast.CallExpr)
	if !ok || len(c.Args) != 1 {
		return ""
	}
	if identName(c.Fun) == "len" {
		return identName(c.Args[0])
	}
	return lenOf(c.Args[0])
}

func selectorIs(e ast.Expr, pkg string, names ...string) bool {
	s, ok := e.(*ast.SelectorExpr)
	if !ok || identName(s.X) != pkg {
		return false
	}
	for _, n := range names {
		if s.Sel.Name == n {
			return true
		}
	}
	return false
}

var bareErr = regexp.MustCompile(`^\s*return\b.*,\s*err\s*$`)

var goSortCall = regexp.MustCompile(`\bsort\.(Slice|SliceStable|Sort|Stable|Ints|Strings|Float64s)\(|\bslices\.Sort(Func|StableFunc)?\(`)

// GoRules are the static rules for Go (issue 3 names the first eight).
func GoRules() []Rule {
	return []Rule{
		{
			Name: "go-index-non-empty", Language: "go",
			Example: "`return xs[0]` -> `xs` is non-empty",
			Doc:     "Indexing a slice parameter at 0 or len(x)-1 with no length check assumes it is non-empty.",
			Run: func(p *Pass) {
				goInspect(p, func(n ast.Node) bool {
					ix, ok := n.(*ast.IndexExpr)
					if !ok {
						return true
					}
					name := identName(ix.X)
					if !p.IsParam(name) {
						return true
					}
					first := false
					if bl, ok := ix.Index.(*ast.BasicLit); ok && bl.Value == "0" {
						first = true
					}
					if be, ok := ix.Index.(*ast.BinaryExpr); ok && be.Op == token.SUB && lenOf(be.X) == name {
						first = true
					}
					// An array ([2]T) always has its elements; a parameter the
					// function appended to is no longer what the caller passed.
					if at, ok := p.Go.ParamTypes[name].(*ast.ArrayType); ok && at.Len != nil {
						return true
					}
					if first && !p.Mentions(`len\(NAME\)\s*(==|!=|<|>|<=|>=)|(==|!=|<|>|<=|>=)\s*len\(NAME\)|NAME\s*==\s*nil|\bNAME\s*=\s*append\(`, name) &&
						!p.BaseMentions(`(^|[^\w.])NAME\[(0|len\(NAME\)\s*-\s*1)\]`, name) {
						p.Report(p.Go.LineOf(ix.Pos()), fmt.Sprintf("`%s` is non-empty", name))
					}
					return true
				})
			},
		},
		{
			Name: "go-compare-previous-sorted", Language: "go",
			Example: "`for i := range xs {` / `if xs[i] == xs[i-1] {` -> `xs` is sorted",
			Doc:     "A loop over a parameter that compares each element with the previous one (x[i-1], prev, out[n-1]) and no sort in the function assumes sorted input.",
			Run: func(p *Pass) {
				if goSortCall.MatchString(p.Body) || len(p.RemovedMatching(goSortCall.String())) > 0 {
					return // go-removed-sort speaks for a removed sort
				}
				prev := re(`\[\s*\w+\s*-\s*1\s*\]|\bprev\w*\b|\blast\w*\b`)
				goInspect(p, func(n ast.Node) bool {
					var over ast.Expr
					var body *ast.BlockStmt
					switch s := n.(type) {
					case *ast.RangeStmt:
						over, body = s.X, s.Body
					case *ast.ForStmt:
						body = s.Body
						if s.Cond != nil {
							if be, ok := s.Cond.(*ast.BinaryExpr); ok {
								over = &ast.Ident{Name: lenOf(be.Y)}
							}
						}
					default:
						return true
					}
					name := identName(over)
					if !p.IsParam(name) {
						return true
					}
					found := false
					ast.Inspect(body, func(m ast.Node) bool {
						if be, ok := m.(*ast.BinaryExpr); ok && !found {
							switch be.Op {
							case token.LSS, token.GTR, token.LEQ, token.GEQ, token.EQL, token.NEQ:
								if prev.MatchString(p.Go.Src(p, be)) {
									found = true
									p.ReportNear(p.Go.LineOf(n.Pos()), fmt.Sprintf("`%s` is sorted", name))
								}
							}
						}
						return !found
					})
					return true
				})
			},
		},
		{
			Name: "go-removed-sort", Language: "go",
			Example: "removed `slices.Sort(s)`, kept `return xs[len(xs)/2]` -> `xs` arrives already sorted (the patch removed the sort)",
			Doc:     "A sort the patch deleted, with the function still indexing or ranging over the parameter, assumes the parameter arrives already sorted.",
			Run: func(p *Pass) {
				if len(p.RemovedMatching(goSortCall.String())) == 0 || goSortCall.MatchString(p.Body) {
					return
				}
				done := false
				goInspect(p, func(n ast.Node) bool {
					if done {
						return false
					}
					var name string
					switch s := n.(type) {
					case *ast.IndexExpr:
						name = identName(s.X)
					case *ast.RangeStmt:
						name = identName(s.X)
					}
					if p.IsParam(name) {
						done = p.ReportNear(p.Go.LineOf(n.Pos()), fmt.Sprintf("`%s` arrives already sorted (the patch removed the sort)", name))
					}
					return true
				})
			},
		},
		{
			Name: "go-map-unique-keys", Language: "go",
			Example: "`m[kv.K] = kv.V` in a loop -> keys written to `m` are unique in the input; a repeated key silently overwrites the earlier value",
			Doc:     "A map filled inside a loop with no check for an existing key assumes the input's keys are unique: a repeated key silently overwrites.",
			Run: func(p *Pass) {
				goInspect(p, func(n ast.Node) bool {
					var body *ast.BlockStmt
					switch s := n.(type) {
					case *ast.RangeStmt:
						body = s.Body
					case *ast.ForStmt:
						body = s.Body
					default:
						return true
					}
					ast.Inspect(body, func(m ast.Node) bool {
						as, ok := m.(*ast.AssignStmt)
						if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 {
							return true
						}
						ix, ok := as.Lhs[0].(*ast.IndexExpr)
						if !ok {
							return true
						}
						mname := identName(ix.X)
						if mname == "" || p.Go.isSliceVar(p, mname) {
							return true
						}
						// A loop's own index or key (out[i] = ..., copy[k] = v)
						// repeats nothing; a set (seen[k] = true) loses nothing
						// when a key repeats.
						if k := identName(ix.Index); k != "" && loopVar(n, k) {
							return true
						}
						if v := types.ExprString(as.Rhs[0]); v == "true" || v == "struct{}{}" {
							return true
						}
						// A lookup before the write (`_, dup := m[k]`, `if seen[k]`)
						// is the duplicate check.
						if p.Mentions(`,\s*\w+\s*:?=\s*NAME\[|(if|&&|\|\||!|return)\s*!?NAME\[`, mname) {
							return true
						}
						p.Report(p.Go.LineOf(as.Pos()), fmt.Sprintf("keys written to `%s` are unique in the input; a repeated key silently overwrites the earlier value", mname))
						return true
					})
					return false
				})
			},
		},
		{
			Name: "go-deref-non-nil", Language: "go",
			Example: "`return u.Name` (u *User) -> `u` is not nil",
			Doc:     "Dereferencing a pointer parameter (p.Field, *p) with no nil check assumes it is non-nil.",
			Run: func(p *Pass) {
				goInspect(p, func(n ast.Node) bool {
					var name string
					switch s := n.(type) {
					case *ast.SelectorExpr:
						name = identName(s.X)
					case *ast.StarExpr:
						name = identName(s.X)
					default:
						return true
					}
					if _, ptr := p.Go.ParamTypes[name].(*ast.StarExpr); !ptr {
						return true
					}
					if p.Mentions(`NAME\s*(==|!=)\s*nil|nil\s*(==|!=)\s*NAME`, name) {
						return true
					}
					// Inside a package, a pointer parameter of an unexported
					// function or type is passed by the package itself; only
					// API callers can hand it nil by mistake.
					if !p.Go.exported() {
						return true
					}
					// The base already dereferenced it: not a new assumption.
					if p.BaseMentions(`(^|[^\w.])NAME\.\w|\*NAME\b`, name) {
						return true
					}
					p.Report(p.Go.LineOf(n.Pos()), fmt.Sprintf("`%s` is not nil", name))
					return true
				})
			},
		},
		{
			Name: "go-division-non-zero", Language: "go",
			Example: "`return total / n` -> `n` is non-zero",
			Doc:     "Dividing by a parameter (or by its length) with no zero check assumes it is non-zero (non-empty).",
			Run: func(p *Pass) {
				goInspect(p, func(n ast.Node) bool {
					be, ok := n.(*ast.BinaryExpr)
					if !ok || (be.Op != token.QUO && be.Op != token.REM) {
						return true
					}
					y := be.Y
					for {
						if c, ok := y.(*ast.CallExpr); ok && len(c.Args) == 1 && identName(c.Fun) != "len" {
							y = c.Args[0] // a conversion: float64(x)
							continue
						}
						if pe, ok := y.(*ast.ParenExpr); ok {
							y = pe.X
							continue
						}
						break
					}
					if name := identName(y); p.IsParam(name) {
						if !p.Mentions(`NAME\s*(==|!=|<=|>=|<|>)\s*0|0\s*(==|!=|<|>)\s*NAME`, name) {
							p.Report(p.Go.LineOf(be.Pos()), fmt.Sprintf("`%s` is non-zero", name))
						}
					} else if name := lenOf(y); p.IsParam(name) {
						if !p.Mentions(`len\(NAME\)\s*(==|!=|<|>|<=|>=)`, name) {
							p.Report(p.Go.LineOf(be.Pos()), fmt.Sprintf("`%s` is non-empty", name))
						}
					}
					return true
				})
			},
		},
		{
			Name: "go-time-one-location", Language: "go",
			Example: "`t, err := time.Parse(time.DateTime, s)` -> `s` carries its zone offset or is meant as UTC (time.Parse reads a time without one as UTC)",
			Doc:     "Time arithmetic or comparison (Sub, Before, After, Equal) or time.Parse with no UTC/In/ParseInLocation in the function assumes every time shares one location.",
			Run: func(p *Pass) {
				if p.Mentions(`\.UTC\(\)|\.In\(|ParseInLocation|\.Local\(\)`, "") {
					return
				}
				goInspect(p, func(n ast.Node) bool {
					c, ok := n.(*ast.CallExpr)
					if !ok {
						return true
					}
					s, ok := c.Fun.(*ast.SelectorExpr)
					if !ok {
						return true
					}
					// Sub, Before, After and Equal compare instants, whatever
					// the locations; time.Date names its location. time.Parse
					// reads a time without a zone as UTC (issue 15: rules say
					// what the code they cite does).
					_ = s
					if selectorIs(c.Fun, "time", "Parse") && len(c.Args) == 2 {
						p.Report(p.Go.LineOf(c.Pos()), fmt.Sprintf("`%s` carries its zone offset or is meant as UTC (time.Parse reads a time without one as UTC)", p.Go.Src(p, c.Args[1])))
					}
					return true
				})
			},
		},
		{
			Name: "go-parse-number-no-error", Language: "go",
			Example: "`n, _ := strconv.Atoi(s)` -> `s` is a numeric string",
			Doc:     "strconv.Atoi/ParseInt/ParseUint/ParseFloat whose error is discarded, or whose error path returns a nil error, assumes the string is numeric.",
			Run: func(p *Pass) {
				goInspect(p, func(n ast.Node) bool {
					as, ok := n.(*ast.AssignStmt)
					if !ok || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
						return true
					}
					c, ok := as.Rhs[0].(*ast.CallExpr)
					if !ok || !selectorIs(c.Fun, "strconv", "Atoi", "ParseInt", "ParseUint", "ParseFloat") || len(c.Args) == 0 {
						return true
					}
					arg := p.Go.Src(p, c.Args[0])
					pre := fmt.Sprintf("`%s` is a numeric string", arg)
					errName := identName(as.Lhs[1])
					if errName == "_" {
						p.Report(p.Go.LineOf(as.Pos()), pre)
						return true
					}
					// The error path: if err != nil { return ..., nil }.
					goInspect(p, func(m ast.Node) bool {
						ifs, ok := m.(*ast.IfStmt)
						if !ok || !strings.Contains(p.Go.Src(p, ifs.Cond), errName+" != nil") {
							return true
						}
						for _, st := range ifs.Body.List {
							if r, ok := st.(*ast.ReturnStmt); ok && len(r.Results) > 0 && identName(r.Results[len(r.Results)-1]) == "nil" {
								if !p.Report(p.Go.LineOf(r.Pos()), pre+"; a malformed one is no longer an error") {
									p.ReportNear(p.Go.LineOf(as.Pos()), pre)
								}
							}
						}
						return true
					})
					return true
				})
			},
		},
		{
			Name: "go-removed-error-return", Language: "go",
			Example: "removed `if used == nil {` / `return 0, ErrNotLoaded` -> inputs where `used == nil`, which the base refused with an error, are now accepted",
			Doc:     "A `return ..., err` (or an Errorf/errors.New/ErrX return) the patch deleted means the input class it refused is now accepted; the row quotes the deleted check.",
			Run: func(p *Pass) {
				errRet := re(`^\s*return\b.*(\berr\b|Errorf\(|errors\.New\(|\bErr[A-Z]\w*)`)
				for i, l := range p.Removed {
					if !errRet.MatchString(l) || p.stillThere(l) {
						continue
					}
					// `return x, err` of a variable: if the head still returns
					// errors, the error path was restructured, not removed.
					if bareErr.MatchString(l) && p.Mentions(`return\b.*(Errorf\(|errors\.New\(|,\s*err\s*$|\bErr[A-Z])`, "") {
						continue
					}
					// A return that only passed an existing err on, in a
					// function that still handles err: the error path was
					// reshaped (`if lx.atEOF { return lx.errorPrevLine(err) }`
					// dropped, the error still returned below), not removed.
					if !re(`Errorf\(|errors\.New\(|\bErr[A-Z]`).MatchString(l) && p.Mentions(`\berr\b`, "") {
						continue
					}
					cond := ""
					if i > 0 && strings.HasPrefix(strings.TrimSpace(p.Removed[i-1]), "if ") {
						cond = strings.TrimSpace(p.Removed[i-1])
					}
					if cond != "" {
						c := strings.TrimSuffix(strings.TrimPrefix(cond, "if "), " {")
						p.ReportRemoved(cond, fmt.Sprintf("inputs where `%s`, which the base refused with an error, are now accepted", c))
					} else {
						p.ReportRemoved(l, fmt.Sprintf("the case the base refused with `%s` is now accepted", strings.TrimSpace(l)))
					}
				}
			},
		},
		{
			Name: "go-narrowed-check", Language: "go",
			Doc:     "An `if` condition guarding an error return (or panic) that the patch replaced with a different condition (or switch case) moves inputs between refused and accepted; the row says which, in the direction the conditions give.",
			Example: "`if n < 0 {` became `if n <= 0 {` before `return 0, err` -> `n == 0` is now refused",
			Run: func(p *Pass) {
				narrowed(p, re(`^(if|case)\s+(.*?)\s*[{:]$`), re(`^\s*(return\b.*(\berr\b|Errorf\(|errors\.New\(|\bErr[A-Z]\w*)|panic\()`), " || ")
			},
		},
		{
			Name: "go-error-discarded", Language: "go",
			Doc: "A call whose error result the patch assigns to _ assumes the call cannot fail on these inputs. " +
				"The last result must be known to be an error: a function declared in the file, or a standard-library call known to return one; comma-ok results ((T, bool)) are not errors.",
			Example: "`b, _ := os.ReadFile(p)` -> `os.ReadFile` does not fail on these inputs (its error is discarded)",
			Run: func(p *Pass) {
				goInspect(p, func(n ast.Node) bool {
					as, ok := n.(*ast.AssignStmt)
					if !ok || len(as.Lhs) < 2 || len(as.Rhs) != 1 || identName(as.Lhs[len(as.Lhs)-1]) != "_" {
						return true
					}
					c, ok := as.Rhs[0].(*ast.CallExpr)
					if !ok || selectorIs(c.Fun, "strconv", "Atoi", "ParseInt", "ParseUint", "ParseFloat") {
						return true
					}
					// Only a result known to be an error: `v, _ := m.Load(k)`,
					// `s, _ := os.LookupEnv(k)` and `r, _ := utf8.DecodeRune(b)`
					// discard a bool or a size, not an error (issue 15).
					if !p.Go.returnsError(c, len(as.Lhs)) {
						return true
					}
					p.Report(p.Go.LineOf(as.Pos()), fmt.Sprintf("`%s` does not fail on these inputs (its error is discarded)", p.Go.Src(p, c.Fun)))
					return true
				})
			},
		},
		{
			Name: "go-slice-in-bounds", Language: "go",
			Example: "`return xs[lo:hi]` -> the bounds of `xs[lo:hi]` lie within `xs` (0 <= low <= high <= len(xs))",
			Doc:     "Slicing a parameter with bounds computed from other parameters, with no bounds check, assumes 0 <= low <= high <= len.",
			Run: func(p *Pass) {
				goInspect(p, func(n ast.Node) bool {
					se, ok := n.(*ast.SliceExpr)
					if !ok {
						return true
					}
					name := identName(se.X)
					if !p.IsParam(name) {
						return true
					}
					for _, b := range []ast.Expr{se.Low, se.High} {
						if b == nil {
							continue
						}
						uses := false
						ast.Inspect(b, func(m ast.Node) bool {
							if id, ok := m.(*ast.Ident); ok && p.IsParam(id.Name) && id.Name != name {
								uses = true
							}
							return true
						})
						if uses && !p.Mentions(`len\(NAME\)\s*(<|>|<=|>=)|(<|>|<=|>=)\s*len\(NAME\)`, name) {
							p.Report(p.Go.LineOf(se.Pos()), fmt.Sprintf("the bounds of `%s` lie within `%s` (0 <= low <= high <= len(%s))", p.Go.Src(p, se), name, name))
							return true
						}
					}
					return true
				})
			},
		},
	}
}

// stdErrFuncs are standard-library functions (package.Name) whose last
// result is an error, for calls go-error-discarded cannot resolve in the file.
var stdErrFuncs = map[string]bool{
	"os.ReadFile": true, "os.Open": true, "os.Create": true, "os.OpenFile": true, "os.Stat": true, "os.Lstat": true,
	"os.Getwd": true, "os.Hostname": true, "os.UserHomeDir": true, "os.ReadDir": true, "os.MkdirTemp": true, "os.CreateTemp": true,
	"io.ReadAll": true, "io.Copy": true, "io.ReadFull": true, "io.WriteString": true,
	"json.Marshal": true, "json.MarshalIndent": true, "url.Parse": true, "url.ParseQuery": true, "url.QueryUnescape": true, "url.PathUnescape": true,
	"time.Parse": true, "time.ParseDuration": true, "time.LoadLocation": true, "filepath.Abs": true, "filepath.Rel": true, "filepath.Glob": true,
	"regexp.Compile": true, "exec.LookPath": true, "net.SplitHostPort": true, "net.Dial": true, "base64.StdEncoding.DecodeString": true,
	"hex.DecodeString": true, "strconv.Unquote": true, "strconv.ParseBool": true, "fmt.Fprintf": true, "fmt.Fprintln": true, "fmt.Fprint": true,
	"fmt.Sscanf": true, "fmt.Sscan": true, "http.NewRequest": true, "http.Get": true, "template.New": true,
}

// errMethods are method names whose (n, error) results are conventional
// (io.Writer, io.Reader and friends).
var errMethods = map[string]bool{"Write": true, "Read": true, "WriteString": true, "ReadString": true, "ReadBytes": true,
	"Seek": true, "ReadFrom": true, "WriteTo": true, "Close": true, "ReadAt": true, "WriteAt": true}

// returnsError reports whether call's last result (of results) is known to
// be an error.
func (g *GoFunc) returnsError(c *ast.CallExpr, results int) bool {
	name := ""
	switch f := c.Fun.(type) {
	case *ast.Ident:
		name = f.Name
	case *ast.SelectorExpr:
		full := types.ExprString(f)
		if stdErrFuncs[full] {
			return true
		}
		if errMethods[f.Sel.Name] && results == 2 {
			return true
		}
		name = f.Sel.Name
	default:
		return false
	}
	// A function or method of that name declared in this file.
	for _, d := range g.File.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != name || fd.Type.Results == nil {
			continue
		}
		res := fd.Type.Results.List
		if last := res[len(res)-1]; identName(last.Type) == "error" {
			return true
		}
		return false
	}
	return false
}

// exported reports whether the function is part of the package's API: an
// exported function, or an exported method of an exported type.
func (g *GoFunc) exported() bool {
	if !ast.IsExported(g.Decl.Name.Name) {
		return false
	}
	if g.Decl.Recv == nil || len(g.Decl.Recv.List) == 0 {
		return true
	}
	t := g.Decl.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		}
		break
	}
	return ast.IsExported(identName(t))
}

// isSliceVar reports whether name is declared in the function as a slice,
// so that s[i] = v is not mistaken for a map write.
func (g *GoFunc) isSliceVar(p *Pass, name string) bool {
	if t, ok := g.ParamTypes[name]; ok {
		_, arr := t.(*ast.ArrayType)
		return arr
	}
	return p.Mentions(`\bNAME\s*:?=\s*(make\(\[\]|\[\]|append\()|var\s+NAME\s+\[\]`, name)
}

// narrowed finds a removed check line (if/case) replaced by a different added
// check line whose guarded block still refuses, and says which inputs
// changed side, in the direction the two conditions give (checkChange).
func narrowed(p *Pass, check, refuse *regexp.Regexp, or string) {
	for _, old := range p.Removed {
		om := check.FindStringSubmatch(strings.TrimSpace(old))
		if om == nil || strings.Contains(string(p.File.HeadSrc), strings.TrimSpace(old)) {
			continue
		}
		for n := p.Symbol.Start; n <= p.Symbol.End; n++ {
			if !p.added[n] {
				continue
			}
			nm := check.FindStringSubmatch(p.Line(n))
			if nm == nil || normSpace(nm[2]) == normSpace(om[2]) {
				continue
			}
			// The new check must still guard a refusal on the next lines.
			guard := false
			for k := n + 1; k <= n+2 && k <= p.Symbol.End; k++ {
				if refuse.MatchString(p.Line(k)) {
					guard = true
				}
			}
			if !guard || !shareIdent(om[2], nm[2]) || testsErr.MatchString(om[2]+" "+nm[2]) {
				continue // err != nil passes a failure on; it checks no input
			}
			p.Report(n, checkChange(om[2], nm[2], or))
			return
		}
	}
}

var testsErr = regexp.MustCompile(`\berr\b`)

// loopVar reports whether name is the index or key variable of the loop n.
func loopVar(n ast.Node, name string) bool {
	switch s := n.(type) {
	case *ast.RangeStmt:
		return identName(s.Key) == name
	case *ast.ForStmt:
		if as, ok := s.Init.(*ast.AssignStmt); ok && len(as.Lhs) == 1 {
			return identName(as.Lhs[0]) == name
		}
	}
	return false
}

var identRe = regexp.MustCompile(`[A-Za-z_][\w.]*`)

// shareIdent reports whether two conditions test a common name (dotted
// names whole: self.count and self.nargs are different names), so that an
// unrelated new check is not paired with a removed one.
func shareIdent(a, b string) bool {
	kw := map[string]bool{"not": true, "and": true, "or": true, "is": true, "in": true, "None": true, "nil": true, "len": true, "if": true, "self": true, "True": true, "False": true, "true": true, "false": true}
	set := map[string]bool{}
	// A dotted name counts whole and by its root (title.strip tests title),
	// but self.x only whole.
	names := func(s string) []string {
		var out []string
		for _, w := range identRe.FindAllString(s, -1) {
			out = append(out, w)
			if i := strings.IndexByte(w, '.'); i > 0 {
				out = append(out, w[:i])
			}
		}
		return out
	}
	for _, w := range names(a) {
		if !kw[w] {
			set[w] = true
		}
	}
	for _, w := range names(b) {
		if set[w] {
			return true
		}
	}
	return false
}
