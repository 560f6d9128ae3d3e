package golang

import (
	"go/ast"
	"go/scanner"
	"go/token"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/validate"
)

// goVar is a package-level variable of a basic type.
type goVar struct {
	name string
	kind string // kindBool, kindInt, kindStr or kindFloat
	def  any    // its declared value; nil when not a literal (the zero value then)
	typ  string // the named type it is declared with, "" for a basic one
}

// goRange is one entry of a package-level table: the first and last bound
// of a range ({0x27E6, 0x27ED}), or one number twice.
type goRange struct {
	lo, hi float64
	runes  bool // written as runes ('a') or in hex (0x27E6): code points
}

// Bounds on what package-level names add to a Go target's rows.
const (
	maxGoVars        = 4  // the variables a target's rows set
	maxSettingRows   = 40 // rows with variables set, per function
	maxSettingCalls  = 6  // the calls those rows are made of
	maxTableNumbers  = 16 // numbers from the tables the changed lines name
	maxRangesPerDecl = 64 // ranges read from one declaration
	calleeDepth      = 2  // how deep reads through same-package callees are followed
)

// basicKinds are the Go types whose variables rows set.
var basicKinds = map[string]string{
	"bool": lang.KindBool, "string": lang.KindStr, "float64": lang.KindFloat, "float32": lang.KindFloat,
	"int": lang.KindInt, "int8": lang.KindInt, "int16": lang.KindInt, "int32": lang.KindInt, "int64": lang.KindInt,
	"uint": lang.KindInt, "uint8": lang.KindInt, "uint16": lang.KindInt, "uint32": lang.KindInt, "uint64": lang.KindInt,
	"byte": lang.KindInt, "rune": lang.KindInt, "uintptr": lang.KindInt,
}

// genVar reads a var declaration: its variables of a basic type (declared
// so, or by a literal), and the numbers of every variable's initializer.
func (p *goPkg) genVar(d *ast.GenDecl) {
	for _, s := range d.Specs {
		vs := s.(*ast.ValueSpec)
		for i, n := range vs.Names {
			if n.Name == "_" {
				continue
			}
			var val ast.Expr
			if i < len(vs.Values) && len(vs.Values) == len(vs.Names) {
				val = vs.Values[i]
			}
			if val != nil {
				p.addRanges(n.Name, val)
				p.addWords(n.Name, val)
			}
			if v, ok := basicVar(n.Name, vs.Type, val); ok {
				p.vars[n.Name] = v
			}
		}
	}
}

// basicVar is a variable a row can set: of a basic type, or of a named one
// (resolved once the package is read), or initialized with a literal.
func basicVar(name string, typ, val ast.Expr) (goVar, bool) {
	v := goVar{name: name}
	lit, litKind, hasLit := literalValue(val)
	switch t := typ.(type) {
	case nil:
		if !hasLit {
			return v, false
		}
		v.kind = litKind
	case *ast.Ident:
		if k, ok := basicKinds[t.Name]; ok {
			v.kind = k
		} else {
			v.typ = t.Name
		}
	default:
		return v, false
	}
	if val != nil && !hasLit {
		// Declared by an expression (a call, another name): its value
		// is not known here, so no row can tell a setting from it.
		return v, false
	}
	if hasLit {
		if v.kind != "" && v.kind != litKind && !(v.kind == lang.KindFloat && litKind == lang.KindInt) {
			return v, false
		}
		v.def = lit
	}
	return v, true
}

// literalValue reads a literal initializer: a number (negated or not), a
// string, true or false.
func literalValue(e ast.Expr) (any, string, bool) {
	switch x := e.(type) {
	case *ast.BasicLit:
		switch x.Kind {
		case token.INT:
			n, err := strconv.ParseInt(strings.ReplaceAll(x.Value, "_", ""), 0, 64)
			return int(n), lang.KindInt, err == nil
		case token.FLOAT:
			f, err := strconv.ParseFloat(strings.ReplaceAll(x.Value, "_", ""), 64)
			return f, lang.KindFloat, err == nil
		case token.STRING:
			s, err := strconv.Unquote(x.Value)
			return s, lang.KindStr, err == nil
		}
	case *ast.Ident:
		if x.Name == "true" || x.Name == "false" {
			return x.Name == "true", lang.KindBool, true
		}
	case *ast.UnaryExpr:
		if x.Op == token.SUB {
			v, k, ok := literalValue(x.X)
			switch n := v.(type) {
			case int:
				return -n, k, ok
			case float64:
				return -n, k, ok
			}
		}
	case *ast.ParenExpr:
		return literalValue(x.X)
	}
	return nil, "", false
}

// addRanges records the numbers of a declaration's value: each composite
// element of two or three numbers ({lo, hi} or unicode's {lo, hi,
// stride}) a range, any other number a range of one.
func (p *goPkg) addRanges(name string, e ast.Expr) {
	var out []goRange
	num := func(e ast.Expr) (float64, bool, bool) {
		b, ok := e.(*ast.BasicLit)
		if !ok {
			return 0, false, false
		}
		switch b.Kind {
		case token.CHAR:
			s, err := strconv.Unquote(b.Value)
			if err != nil || s == "" {
				return 0, false, false
			}
			r, _ := utf8.DecodeRuneInString(s)
			return float64(r), true, true
		case token.INT:
			n, err := strconv.ParseInt(strings.ReplaceAll(b.Value, "_", ""), 0, 64)
			hex := strings.HasPrefix(strings.ToLower(b.Value), "0x")
			return float64(n), hex, err == nil
		case token.FLOAT:
			f, err := strconv.ParseFloat(strings.ReplaceAll(b.Value, "_", ""), 64)
			return f, false, err == nil
		}
		return 0, false, false
	}
	ast.Inspect(e, func(n ast.Node) bool {
		if len(out) >= maxRangesPerDecl {
			return false
		}
		switch x := n.(type) {
		case *ast.CompositeLit:
			if len(x.Elts) == 2 || len(x.Elts) == 3 {
				lo, r1, ok1 := num(x.Elts[0])
				hi, r2, ok2 := num(x.Elts[1])
				if ok1 && ok2 {
					out = append(out, goRange{lo: lo, hi: hi, runes: r1 && r2})
					return false
				}
			}
		case *ast.BasicLit:
			if v, r, ok := num(x); ok {
				out = append(out, goRange{lo: v, hi: v, runes: r})
			}
		}
		return true
	})
	if len(out) > 0 {
		p.ranges[name] = out
	}
}

// maxWordsPerTable bounds the words a table gives the rows.
const maxWordsPerTable = 8

// addWords records the text of a table's string keys (a map) or string
// elements (a slice or array): a function that looks its input up in the
// table (an initialism, a reserved word, a unit) branches only on text
// the table holds.
func (p *goPkg) addWords(name string, e ast.Expr) {
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return
	}
	var out []string
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			el = kv.Key
		}
		b, ok := el.(*ast.BasicLit)
		if !ok || b.Kind != token.STRING || len(out) >= maxWordsPerTable {
			continue
		}
		if s, err := strconv.Unquote(b.Value); err == nil && s != "" {
			out = append(out, s)
		}
	}
	if len(out) > 0 {
		p.words[name] = out
	}
}

// genConst records a const declaration's numbers, as a table's: a name
// the changed lines compare with is a number the rows should reach.
func (p *goPkg) genConst(d *ast.GenDecl) {
	for _, s := range d.Specs {
		vs := s.(*ast.ValueSpec)
		for i, n := range vs.Names {
			if i < len(vs.Values) && n.Name != "_" {
				p.addRanges(n.Name, vs.Values[i])
			}
		}
	}
}

// funcReads records the names a function's body uses, so what a target
// reads through the helpers it calls is known.
func (p *goPkg) funcReads(d *ast.FuncDecl) {
	if d.Body == nil {
		return
	}
	names := p.reads[d.Name.Name]
	if names == nil {
		names = map[string]bool{}
		p.reads[d.Name.Name] = names
	}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			// x.Name is a field, a method or another package's name,
			// never this package's variable: kept apart as ".Name".
			names["."+x.Sel.Name] = true
			ast.Inspect(x.X, visit)
			return false
		case *ast.Ident:
			names[x.Name] = true
		}
		return true
	}
	ast.Inspect(d.Body, visit)
}

// resolveVars gives a variable declared with a named type the kind of its
// underlying type; one whose type is not basic is dropped.
func (p *goPkg) resolveVars() {
	for name, v := range p.vars {
		if v.typ == "" {
			continue
		}
		t := p.resolve(v.typ, "", 0)
		switch t.Kind {
		case lang.KindBool, lang.KindInt, lang.KindStr, lang.KindFloat:
			v.kind = t.Kind
			p.vars[name] = v
		default:
			delete(p.vars, name)
		}
	}
}

// keepVarsOf drops the variables base does not declare alike: a variable
// the patch added has no base to set.
func (p *goPkg) keepVarsOf(base *goPkg) {
	for name, v := range p.vars {
		if b, ok := base.vars[name]; !ok || b.kind != v.kind || b.typ != v.typ {
			delete(p.vars, name)
		}
	}
}

// goNames are the identifiers of Go source text that are not selectors
// (x.Name names a field or method, not the package's Name), in order,
// each once; the names a method call on a value uses are ".Name".
func goNames(text string) []string {
	var s scanner.Scanner
	fset := token.NewFileSet()
	src := []byte(text)
	s.Init(fset.AddFile("", -1, len(src)), src, func(token.Position, string) {}, 0)
	var out []string
	seen := map[string]bool{}
	prev := token.ILLEGAL
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.IDENT {
			n := lit
			if prev == token.PERIOD {
				n = "." + lit
			}
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
		prev = tok
	}
	return out
}

// changedLines are the lines of one version of a function the other does
// not have: what the patch wrote or took out.
func changedLines(base, head string) string {
	count := map[string]int{}
	for _, l := range strings.Split(base, "\n") {
		count[strings.TrimSpace(l)]++
	}
	var out, gone []string
	for _, l := range strings.Split(head, "\n") {
		t := strings.TrimSpace(l)
		if count[t] > 0 {
			count[t]--
			continue
		}
		out = append(out, t)
	}
	for l, n := range count {
		for ; n > 0; n-- {
			gone = append(gone, l)
		}
	}
	sort.Strings(gone) // the base's own lines, in a fixed order
	return strings.Join(append(out, gone...), "\n")
}

// varsRead are the package variables a target reads that rows can set:
// those the changed lines name first, then the rest of its text, then
// what the same-package functions it calls read (calleeDepth deep), none
// a parameter shadows, up to maxGoVars.
func (p *goPkg) varsRead(tg *lang.Target) []goVar {
	if p == nil || len(p.vars) == 0 {
		return nil
	}
	params := map[string]bool{}
	for _, prm := range tg.Sig.Params {
		params[prm.Name] = true
	}
	text := tg.BaseText + "\n" + tg.HeadText
	order := goNames(changedLines(tg.BaseText, tg.HeadText))
	order = append(order, goNames(text)...)
	seenFn := map[string]bool{}
	frontier := goNames(text)
	for depth := 0; depth < calleeDepth; depth++ {
		var next []string
		for _, n := range frontier {
			fn := strings.TrimPrefix(n, ".")
			if seenFn[fn] || p.reads[fn] == nil {
				continue
			}
			seenFn[fn] = true
			names := make([]string, 0, len(p.reads[fn]))
			for m := range p.reads[fn] {
				names = append(names, m)
			}
			sort.Strings(names)
			order = append(order, names...)
			next = append(next, names...)
		}
		frontier = next
	}
	var out []goVar
	taken := map[string]bool{}
	for _, n := range order {
		v, ok := p.vars[n]
		if !ok || taken[n] || params[n] {
			continue
		}
		taken[n] = true
		out = append(out, v)
		if len(out) == maxGoVars {
			break
		}
	}
	return out
}

// tableNumbers are the numbers of the package-level tables and constants
// the changed lines name ({0x27E6, 0x27ED} of runewidth's narrow): each
// range's first and last bound, the smallest tables first and in turn,
// up to maxTableNumbers; and, for string parameters, the text of the code
// points among them and the words of the string tables the function
// reads anywhere (tableWords).
func (p *goPkg) tableNumbers(tg *lang.Target) ([]float64, []string) {
	if p == nil {
		return nil, nil
	}
	var tables [][]goRange
	for _, n := range goNames(changedLines(tg.BaseText, tg.HeadText)) {
		if rs, ok := p.ranges[n]; ok {
			tables = append(tables, rs)
		}
	}
	sort.SliceStable(tables, func(i, j int) bool { return len(tables[i]) < len(tables[j]) })
	var nums []float64
	var runes []rune
	seen := map[float64]bool{}
	add := func(v float64, isRune bool) {
		if seen[v] || len(nums) >= maxTableNumbers {
			return
		}
		seen[v] = true
		nums = append(nums, v)
		if r := rune(v); isRune && float64(r) == v && utf8.ValidRune(r) && r > 0 {
			runes = append(runes, r)
		}
	}
	for i := 0; len(nums) < maxTableNumbers; i++ {
		more := false
		for _, rs := range tables {
			if i < len(rs) {
				more = true
				add(rs[i].lo, rs[i].runes)
				add(rs[i].hi, rs[i].runes)
			}
		}
		if !more {
			break
		}
	}
	var strs []string
	for _, r := range runes {
		strs = append(strs, string(r), string(r)+"x")
	}
	if len(runes) > 1 {
		strs = append(strs, string(runes))
	}
	return nums, append(strs, p.tableWords(tg)...)
}

// tableWords are the words of the string tables the function reads,
// anywhere in its text: the branch a lookup takes is decided by the
// table, whichever line the patch changed.
func (p *goPkg) tableWords(tg *lang.Target) []string {
	var out []string
	seen := map[string]bool{}
	for _, n := range goNames(tg.BaseText + "\n" + tg.HeadText) {
		if ws, ok := p.words[n]; ok && !seen[n] {
			seen[n] = true
			out = append(out, ws...)
		}
	}
	return out
}

// settingValues are the values a row sets v to, the declared one left
// out: a bool flipped; an int near the lengths of the call's strings, at
// small values and at the function's constants; a string from the
// function's literals; a float at small values and the constants.
func settingValues(v goVar, args []any, nums []float64, strs []string, consts []any) []any {
	var out []any
	switch v.kind {
	case lang.KindBool:
		def, _ := v.def.(bool)
		out = []any{!def}
	case lang.KindInt:
		for _, a := range args[:min(len(args), 3)] {
			if s, ok := a.(string); ok {
				out = append(out, len(s)-1, len(s)+1, len(s))
			}
		}
		out = append(out, consts...)
		out = append(out, 1, 0, 2, 10)
		for _, k := range nums {
			if k == float64(int(k)) && k > -1<<31 && k < 1<<31 {
				out = append(out, int(k))
			}
		}
		kept := out[:0]
		for _, x := range out {
			if n, ok := x.(int); !ok || n >= 0 {
				kept = append(kept, x)
			}
		}
		out = kept
	case lang.KindFloat:
		out = []any{0.0, 1.0, 0.5, 2.0}
		for _, k := range nums {
			out = append(out, k)
		}
	case lang.KindStr:
		for _, s := range strs[:min(len(strs), 3)] {
			out = append(out, s)
		}
		out = append(out, "", "x", "-")
	}
	def := v.def
	if def == nil {
		def = map[string]any{lang.KindBool: false, lang.KindInt: 0, lang.KindStr: "", lang.KindFloat: 0.0}[v.kind]
	}
	if f, ok := def.(int); ok && v.kind == lang.KindFloat {
		def = float64(f)
	}
	kept := out[:0]
	for _, x := range out {
		if lang.Compact(x, 1000) != lang.Compact(def, 1000) {
			kept = append(kept, x)
		}
	}
	out = lang.DedupeValues(kept)
	return out[:min(len(out), 8)]
}

// goSettingRows are calls of a target with the package variables it reads
// set: each of a few calls (the tests' first, then generated ones of
// differing lengths) with every variable set together, then each alone,
// value by value, the calls taking turns up to limit rows.
func goSettingRows(tg lang.Target, calls [][]any, nums []float64, strs []string, limit int) []lang.SourcedRow {
	gt := goOf(tg)
	vars := gt.vars
	if len(vars) == 0 || len(calls) == 0 || limit <= 0 {
		return nil
	}
	key := func(name string) string { return gt.pkgPath + "." + name }
	var per [][]validate.Row
	for _, args := range calls {
		vals := make([][]any, len(vars))
		longest := 0
		for i, v := range vars {
			var consts []any
			if v.typ != "" && gt.pkg != nil {
				consts = gt.pkg.consts[v.typ]
			}
			vals[i] = settingValues(v, args, nums, strs, consts)
			longest = max(longest, len(vals[i]))
		}
		var rows []validate.Row
		seen := map[string]bool{}
		add := func(kw map[string]any) {
			if len(kw) == 0 {
				return
			}
			if k := lang.CallKey(args, kw); !seen[k] {
				seen[k] = true
				rows = append(rows, goSettingRow(args, kw))
			}
		}
		for j := 0; j < longest; j++ {
			if len(vars) > 1 {
				all := map[string]any{}
				for i, v := range vars {
					if len(vals[i]) > 0 {
						all[key(v.name)] = vals[i][j%len(vals[i])]
					}
				}
				add(all)
			}
			for i, v := range vars {
				if j < len(vals[i]) {
					add(map[string]any{key(v.name): vals[i][j]})
				}
			}
		}
		per = append(per, rows)
	}
	var out []lang.SourcedRow
	for j := 0; len(out) < limit; j++ {
		more := false
		for _, rows := range per {
			if j < len(rows) && len(out) < limit {
				more = true
				out = append(out, lang.SourcedRow{Row: rows[j], Source: lang.SourceSetting})
			}
		}
		if !more {
			break
		}
	}
	return out
}

// goSettingRow is a call with package variables set: kwargs, so the
// arguments are always positional (a row's inp carries none).
func goSettingRow(args []any, kw map[string]any) validate.Row {
	names := make([]string, 0, len(kw))
	for k := range kw {
		names = append(names, k[strings.LastIndex(k, ".")+1:])
	}
	sort.Strings(names)
	r := lang.PositionalRow("setting_"+strings.Join(names, "_"), nil)
	r.Args = append([]any{}, args...)
	r.Kwargs = kw
	return r
}

// settingCalls are the calls a target's setting rows are made of: the
// tests' first, then generated ones whose strings differ in length (a
// length setting is read against them), a method's on its first
// receiver.
func settingCalls(tg lang.Target, harvested []lang.SourcedRow, calls [][]any) [][]any {
	gt := goOf(tg)
	var out [][]any
	seen := map[string]bool{}
	shape := func(args []any) string {
		var b strings.Builder
		for _, a := range args {
			if s, ok := a.(string); ok {
				b.WriteString(strconv.Itoa(len(s)) + ",")
			} else {
				b.WriteString("_,")
			}
		}
		return b.String()
	}
	for _, h := range harvested[:min(len(harvested), 2)] {
		args, _ := h.Row.CallArgs()
		out = append(out, args)
		seen[shape(args)] = true
	}
	var recv []any
	if gt.recv != "" {
		if len(tg.Receivers) == 0 {
			return out
		}
		recv = []any{tg.Receivers[0]}
	}
	for _, c := range calls {
		if len(out) >= maxSettingCalls {
			break
		}
		args := append(append([]any{}, recv...), c...)
		if k := shape(args); !seen[k] || len(out) == 0 {
			seen[k] = true
			out = append(out, args)
		}
	}
	return out
}

// goSettingsText says which variables a Go call set, as a reviewer reads
// the witness: ` with MaxLength=10, EnableSmartTruncate=false`.
func goSettingsText(kwargs map[string]any) string {
	if len(kwargs) == 0 {
		return ""
	}
	keys := make([]string, 0, len(kwargs))
	for k := range kwargs {
		if !strings.HasPrefix(k, "$") { // premise's own ($observe), not a setting
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return ""
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k[strings.LastIndex(k, ".")+1:] + "=" + lang.Compact(kwargs[k], 60)
	}
	return " with " + strings.Join(parts, ", ")
}
