package evidence

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/validate"
)

// methodOf reports whether symbol is a method declared in file (a Python
// Class.method, a Go Type.Method), and its name inside the file.
func (s *sources) methodOf(ctx context.Context, lang, file, symbol string) (string, bool) {
	l := staticLanguages[lang]
	if l == nil {
		return "", false
	}
	text, err := s.read(ctx, file)
	if err != nil {
		return "", false
	}
	decls, err := diffparse.Decls(lang, text)
	if err != nil {
		return "", false
	}
	locals := l.locals(symbol)
	for _, d := range decls {
		if d.Kind == "method" && slices.Contains(locals, d.Local) {
			return d.Local, true
		}
	}
	return "", false
}

// receivers are the objects a method's table rows are called on (issue
// 25: a method's rows carry their receiver): those its change items'
// witnesses were called on first (what the evidence ran on both sides),
// then those the language builds as the evidence does, from the
// constructor calls the repository's tests and doctests make, the
// constructor's own parameters, or a Go type's constructors and fields.
// none is set when the method takes no receiver (a static or class
// method, called through its class); why says why no receiver could be
// built.
func (s *sources) receivers(ctx context.Context, reg *validate.Register, lang, file, symbol, local string, sig *Signature) (recvs []any, none bool, why string) {
	seen := map[string]bool{}
	add := func(v any) {
		if v == nil {
			return // a nil receiver is a row of its own, not the one every row is called on
		}
		k := compact(v, 1000)
		if !seen[k] {
			seen[k] = true
			recvs = append(recvs, v)
		}
	}
	for _, it := range reg.Items {
		if !validate.IsChange(it.ID) || it.Symbol != symbol && !slices.Contains(it.Callers, symbol) {
			continue
		}
		for _, w := range it.Witnesses {
			if len(w.Call.Args) > 0 && (w.Call.Target == symbol || it.Symbol == symbol) {
				add(w.Call.Args[0])
			}
		}
	}
	text, err := s.read(ctx, file)
	if err != nil {
		return recvs, false, fmt.Sprintf("read %s: %v", file, err)
	}
	ls := languagesFor(s.dir, "", maxReceivers, false)
	defer ls.close()
	l := ls[lang]
	if l == nil {
		return recvs, false, "no language reads " + file
	}
	f := diffparse.File{Path: filepath.ToSlash(file), Language: lang, HeadSrc: text}
	decls, _ := diffparse.Decls(lang, text)
	tg := target{sym: diffparse.Symbol{Name: symbol, Local: local, Kind: "method", Change: "modified"},
		lang: lang, sig: sig, baseFile: f.Path}
	for _, d := range decls {
		if d.Local == local {
			tg.sym.Start, tg.sym.End = d.Start, d.End
			tg.headText = span(text, d.Start, d.End)
		}
	}
	why = l.complete(&tg, f, l.file(f), l.signatures(text))
	built := tg.receivers
	if tg.gt != nil {
		built = tg.gt.receivers
	}
	for _, v := range built {
		add(v)
	}
	if len(recvs) > 0 {
		return recvs, false, ""
	}
	if why == "" {
		return nil, true, ""
	}
	return nil, false, why
}

// withReceiver puts a receiver in front of a row's arguments: the gate
// calls a method with its receiver first.
func withReceiver(r validate.Row, recv any) validate.Row {
	args, _ := r.CallArgs()
	r.Args = append([]any{recv}, args...)
	r.Inp, r.HasInp = nil, false
	return r
}

// onReceivers gives a method's rows their receiver; a row none can be
// given to becomes a todo saying why.
func onReceivers(rows []validate.Row, recvs []any, why string) []validate.Row {
	for i, r := range rows {
		if r.Todo != "" {
			continue
		}
		if len(recvs) == 0 {
			rows[i].Todo = fmt.Sprintf("no receiver to call the method on (%s); write one as the row's first argument", why)
			rows[i].Inp, rows[i].HasInp, rows[i].Args, rows[i].SameAsBase, rows[i].Raises = nil, false, nil, false, ""
			continue
		}
		rows[i] = withReceiver(r, recvs[0])
	}
	return rows
}
