package evidence

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/validate"
)

// methodOf finds symbol's declaration in file: its name inside the file
// ("" when none is found) and whether it is a method (a Python
// Class.method, a Go Type.Method).
func (s *sources) methodOf(ctx context.Context, langName, file, symbol string) (string, bool) {
	l := lang.StaticLanguages()[langName]
	if l == nil {
		return "", false
	}
	text, err := s.read(ctx, file)
	if err != nil {
		return "", false
	}
	decls, err := diffparse.Decls(langName, text)
	if err != nil {
		return "", false
	}
	// The longest local name first: Class.method before method.
	for _, local := range l.Locals(symbol) {
		for _, d := range decls {
			if d.Local == local {
				return d.Local, d.Kind == "method"
			}
		}
	}
	return "", false
}

// known is what premise reads of a changed function for its table rows,
// as the evidence reads it: the receivers a method is called on and the
// types of its parameters.
type known struct {
	// recvs are the objects a method's rows are called on; none is set
	// when the method takes no receiver (a static or class method,
	// called through its class); why says why no receiver could be built.
	recvs []any
	none  bool
	why   string
	// types are the parameters' types as the language built values for
	// them (annotations, docstrings, how the body uses each); nil when
	// only the signature speaks.
	types []Type
}

// known reads a target's receivers and parameter types (issue 25: a
// method's rows carry their receiver; a parameter no annotation types is
// typed as the evidence types it). A method's receivers are those its
// change items' witnesses were called on first (what the evidence ran on
// both sides), then those the language builds as the evidence does, from
// the constructor calls the repository's tests and doctests make, the
// constructor's own parameters, or a Go type's constructors and fields.
func (s *sources) known(ctx context.Context, reg *validate.Register, langName, file, symbol, local string, method bool, sig *Signature) known {
	var k known
	seen := map[string]bool{}
	add := func(v any) {
		if v == nil {
			return // a nil receiver is a row of its own, not the one every row is called on
		}
		key := lang.Compact(v, 1000)
		if !seen[key] {
			seen[key] = true
			k.recvs = append(k.recvs, v)
		}
	}
	if method {
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
	}
	text, err := s.read(ctx, file)
	if err != nil {
		k.why = fmt.Sprintf("read %s: %v", file, err)
		return k
	}
	l := s.reader(langName)
	if l == nil {
		k.why = "no language reads " + file
		return k
	}
	f := diffparse.File{Path: filepath.ToSlash(file), Language: langName, HeadSrc: text}
	decls, _ := diffparse.Decls(langName, text)
	kind := "function"
	if method {
		kind = "method"
	}
	tg := lang.Target{Sym: diffparse.Symbol{Name: symbol, Local: local, Kind: kind, Change: "modified"},
		Lang: langName, Sig: sig, BaseFile: f.Path}
	for _, d := range decls {
		if d.Local == local {
			tg.Sym.Start, tg.Sym.End = d.Start, d.End
			tg.HeadText = lang.Span(text, d.Start, d.End)
		}
	}
	why := l.Complete(&tg, f, l.File(f), l.Signatures(text))
	if why == "" && tg.Sig != nil {
		k.types = l.ParamTypes(tg)
	}
	if !method {
		return k
	}
	for _, v := range tg.Receivers {
		add(v)
	}
	switch {
	case len(k.recvs) > 0:
	case why == "":
		k.none = true
	default:
		k.why = why
	}
	return k
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
		if r.Todo != "" || r.Cls == receiverCls {
			continue // a receiver row carries its own
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

// witnessArgs are the arguments of the first witness of a change item of
// symbol that binds every parameter by position (a method's receiver
// left out): values the evidence ran on both sides. Nil when none does.
func witnessArgs(reg *validate.Register, symbol string, sig *Signature, method bool) []any {
	if sig == nil {
		return nil
	}
	skip := 0
	if method {
		skip = 1
	}
	for _, it := range reg.Items {
		if !validate.IsChange(it.ID) || it.Symbol != symbol {
			continue
		}
		for _, w := range it.Witnesses {
			if w.Call.Target == symbol && len(w.Call.Args) == len(sig.Params)+skip {
				return w.Call.Args[skip:]
			}
		}
	}
	return nil
}
