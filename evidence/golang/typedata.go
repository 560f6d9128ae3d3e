package golang

import (
	"go/ast"
	"go/token"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/gosource"
)

// A type the patch changes changes what the functions using it answer,
// but not every function naming it: a field added to a struct changes
// nothing a method that never selects it does. typeReads says, for the
// modified types of f, what a function must read to be a reader: the
// fields whose declarations changed, as selectors (".Limit"), and the
// type's own name where a change reaches every use of its values (a
// field's tag, which encoders read; an embedded type, whose methods it
// gains or loses; the definition itself, type Span int -> int32).
func typeReads(f diffparse.File) (names, values map[string]bool) {
	modified := map[string]bool{}
	for _, s := range f.Symbols {
		if s.Kind == "type" && s.Change == "modified" {
			modified[s.Local] = true
		}
	}
	names, values = map[string]bool{}, map[string]bool{}
	if len(modified) == 0 {
		return names, values
	}
	// sides are the fields changed on each side, by their type: one on
	// both (its type narrowed, int -> int8) changes what a composite
	// literal stores too (Box{limit: n}), which names the type.
	var sides [2]map[string]string
	for i, side := range []struct {
		src  []byte
		kind byte
	}{{f.HeadSrc, '+'}, {f.BaseSrc, '-'}} {
		fset, af, err := gosource.ParseFile(side.src)
		if err != nil {
			// Unread: every use of the type is a reader.
			for t := range modified {
				names[t] = true
			}
			continue
		}
		changed := sideChanges(f, side.kind)
		for _, d := range af.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				if !modified[ts.Name.Name] {
					continue
				}
				fields := map[string]bool{}
				typeSpecReads(fset, ts, changed, fields)
				for n := range fields {
					names[n] = true
					if sides[i] == nil {
						sides[i] = map[string]string{}
					}
					sides[i][n] = ts.Name.Name
				}
			}
		}
	}
	for n, typ := range sides[0] {
		if _, ok := sides[1][n]; ok && n[0] == '.' {
			names[typ] = true
		}
	}
	// A field added or removed also changes what the functions using a
	// whole value of the type answer: it prints, encodes and compares
	// with its fields (typeValueReaders).
	for _, side := range sides {
		for _, typ := range side {
			if !names[typ] {
				values[typ] = true
			}
		}
	}
	return names, values
}

// typeValueReaders are the functions and methods of f's head, which the
// base (its declarations) has too and the diff does not count as changed, that use a whole
// value of one of types: a method passing its receiver itself on
// (fmt.Sprintf("%v", t), json.Marshal(t), *t == other; not t.items, not
// a bare return t), or a function naming the type outside a receiver (a
// parameter, a composite literal), each as a modified symbol named under
// prefix, with the type it reads.
func typeValueReaders(f diffparse.File, base []diffparse.Decl, types map[string]bool, prefix string) ([]diffparse.Symbol, map[string][]string) {
	if len(types) == 0 {
		return nil, nil
	}
	fset, af, err := gosource.ParseFile(f.HeadSrc)
	if err != nil {
		return nil, nil
	}
	inBase := map[string]bool{}
	for _, d := range base {
		inBase[d.Local] = true
	}
	taken := map[string]bool{}
	for _, s := range f.Symbols {
		taken[s.Local] = true
	}
	var out []diffparse.Symbol
	reads := map[string][]string{}
	for _, d := range af.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		local, recvType, recvName := fd.Name.Name, "", ""
		if fd.Recv != nil && len(fd.Recv.List) == 1 {
			recvType = diffparse.GoReceiver(fd)
			local = recvType + "." + fd.Name.Name
			if len(fd.Recv.List[0].Names) == 1 {
				recvName = fd.Recv.List[0].Names[0].Name
			}
		}
		if taken[local] || !inBase[local] {
			continue
		}
		typ := ""
		if types[recvType] && recvName != "" && wholeUse(fd.Body, recvName) {
			typ = recvType
		}
		for _, n := range []ast.Node{fd.Type, fd.Body} {
			ast.Inspect(n, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && types[id.Name] && typ == "" {
					typ = id.Name
				}
				return typ == ""
			})
		}
		if typ == "" {
			continue
		}
		name := local
		if prefix != "" {
			name = prefix + "." + local
		}
		out = append(out, diffparse.Symbol{Name: name, Local: local, Kind: kindOf(fd), Change: "modified",
			Start: fset.Position(fd.Pos()).Line, End: fset.Position(fd.End()).Line})
		reads[name] = []string{typ}
	}
	return out, reads
}

// wholeUse says body uses the identifier name other than to select from
// it (name.field, name.Method()) or to return it as it is.
func wholeUse(body *ast.BlockStmt, name string) bool {
	selected := map[*ast.Ident]bool{}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok {
				selected[id] = true
			}
		case *ast.ReturnStmt:
			for _, r := range x.Results {
				if id, ok := r.(*ast.Ident); ok {
					selected[id] = true
				}
			}
		case *ast.Ident:
			if x.Name == name && !selected[x] {
				found = true
			}
		}
		return !found
	})
	return found
}

// kindOf is a function declaration's kind as diffparse names it.
func kindOf(fd *ast.FuncDecl) string {
	if fd.Recv != nil {
		return "method"
	}
	return "function"
}

// typeSpecReads adds to names what a reader of ts must read, for the
// changed lines of its side.
func typeSpecReads(fset *token.FileSet, ts *ast.TypeSpec, changed map[int]bool, names map[string]bool) {
	line := func(p token.Pos) int { return fset.Position(p).Line }
	st, isStruct := ts.Type.(*ast.StructType)
	var fields []*ast.Field
	if isStruct && st.Fields != nil {
		fields = st.Fields.List
	}
	for n := line(ts.Pos()); n <= line(ts.End()); n++ {
		if !changed[n] {
			continue
		}
		var in *ast.Field
		for _, fl := range fields {
			if n >= line(fl.Pos()) && n <= line(fl.End()) {
				in = fl
				break
			}
		}
		switch {
		case in == nil && isStruct && n != line(ts.Pos()) && n != line(st.End()):
			// A blank or comment line between fields.
		case in == nil, len(in.Names) == 0, in.Tag != nil:
			names[ts.Name.Name] = true
			for _, id := range fieldNames(in) {
				names["."+id] = true
			}
		default:
			for _, id := range fieldNames(in) {
				names["."+id] = true
			}
		}
	}
}

// fieldNames are a field's declared names; none for nil.
func fieldNames(fl *ast.Field) []string {
	if fl == nil {
		return nil
	}
	var out []string
	for _, id := range fl.Names {
		out = append(out, id.Name)
	}
	return out
}

// sideChanges are the lines of f's side (kind '+' the head, '-' the
// base) its diff changes.
func sideChanges(f diffparse.File, kind byte) map[int]bool {
	out := map[int]bool{}
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			n := l.New
			if kind == '-' {
				n = l.Old
			}
			if l.Kind == kind && n > 0 {
				out[n] = true
			}
		}
	}
	return out
}
