package evidence

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/validate"
)

// maxReceivers bounds the distinct objects a method's generated rows are
// called on.
const maxReceivers = 3

// receiversOf are the objects a changed Python method can be called on:
// the constructor calls its doctests and tests make (Bits(4, 2)), as
// expressions the worker evaluates with the method's module in scope
// (issue 13, part 6). The worker calls the method as Class.method(obj,
// ...), so the object is the row's first argument.
func receiversOf(s diffparse.Symbol, info *pyInfo) []any {
	if info == nil {
		return nil
	}
	module := strings.TrimSuffix(s.Name, "."+s.Local)
	seen := map[string]bool{}
	var out []any
	for _, in := range info.harvested {
		if in.Receiver == "" || seen[in.Receiver] || len(out) >= maxReceivers {
			continue
		}
		seen[in.Receiver] = true
		out = append(out, receiverExpr(module, in.Receiver, in.Imports))
	}
	return out
}

// receiverExpr is a receiver's expression with the method's module's names
// in scope: a test writes Bits(4, 2) after importing Bits its own way.
func receiverExpr(module, src string, imports []string) any {
	scope := fmt.Sprintf("globals().update(vars(__import__(%q, fromlist=['_'])))", module)
	return pyArg(src, append([]string{scope}, imports...))
}

// methodRows are a method's rows: each harvested call on its own receiver,
// then the function rows (one parameter at a time, mutations, pairs) on
// each receiver in turn.
func methodRows(tg target, rng *rand.Rand, budget int) []pyRow {
	module := strings.TrimSuffix(tg.sym.Name, "."+tg.sym.Local)
	var rows []pyRow
	for _, in := range tg.py.harvested {
		if in.Receiver == "" {
			continue
		}
		args := []any{receiverExpr(module, in.Receiver, in.Imports)}
		for _, a := range in.Args {
			args = append(args, pyArg(a, in.Imports))
		}
		var kwargs map[string]any
		for k, a := range in.Kwargs {
			if kwargs == nil {
				kwargs = map[string]any{}
			}
			kwargs[k] = pyArg(a, in.Imports)
		}
		rows = append(rows, pyRow{row: methodRow("harvested_"+in.Kind, args, kwargs), source: in.Kind + " " + in.Pos})
	}
	generated := pyValueRows(tg.sig, tg.py, pyLiterals(tg), rng, budget)
	for _, recv := range tg.receivers {
		if bare(tg.sig) {
			// Every parameter has a default (or there is none): the call
			// with none is the one most callers make.
			rows = append(rows, pyRow{row: methodRow("receiver_only", []any{recv}, nil), source: sourceGenerated})
		}
		for _, pr := range generated {
			if pr.source != sourceGenerated && pr.source != sourceMutation {
				continue
			}
			args, kwargs := pr.row.CallArgs()
			rows = append(rows, pyRow{row: methodRow(pr.row.Cls, append([]any{recv}, args...), kwargs), source: pr.source})
		}
	}
	rows = dedupePy(rows)
	if len(rows) > budget {
		rows = rows[:budget]
	}
	return rows
}

func methodRow(cls string, args []any, kwargs map[string]any) validate.Row {
	return validate.Row{Cls: cls, Kind: validate.KindBoundary, Relation: "the head must behave as the base does",
		AssumptionIDs: []string{"S000"}, Args: args, Kwargs: kwargs}
}

// isInit says s is a class's constructor.
func isInit(s diffparse.Symbol) bool { return strings.HasSuffix(s.Local, ".__init__") }

// initReceivers build objects for a method no doctest or test constructs
// its class for: the class called with values for its __init__'s
// parameters, as the function rows would vary them (issue 13, part 6). A
// receiver whose construction raises makes its rows raise alike on both
// sides unless the patch changed the class; nothing is counted from it.
func initReceivers(s diffparse.Symbol, sigs map[string]*Signature, pf *pyFiles, pyf *pyFile) []any {
	cls, _, ok := cutLast(s.Local, ".")
	if !ok || pyf == nil {
		return nil
	}
	module := strings.TrimSuffix(s.Name, "."+s.Local)
	initSig := sigs[cls+".__init__"]
	if initSig == nil {
		// No __init__ of its own: a class that takes no arguments, or
		// one whose constructor another module defines, which premise
		// does not read.
		return []any{receiverExpr(module, cls+"()", nil)}
	}
	info := pf.info(pyf, cls+".__init__")
	rng := rand.New(rand.NewSource(int64(len(s.Name))))
	rows := pyValueRows(initSig, info, nil, rng, 4*maxReceivers)
	var out []any
	seen := map[string]bool{}
	for _, pr := range rows {
		args, kwargs := pr.row.CallArgs()
		src, imports := pyCallSource(args, kwargs)
		if seen[src] {
			continue
		}
		seen[src] = true
		out = append(out, receiverExpr(module, cls+src, imports))
		if len(out) == maxReceivers {
			break
		}
	}
	return out
}

// pyCallSource writes a call's arguments as Python source, whole, with the
// imports the harvested expressions among them need.
func pyCallSource(args []any, kwargs map[string]any) (string, []string) {
	var imports []string
	note := func(v any) {
		if m, ok := v.(map[string]any); ok {
			if im, ok := m[importsKey].([]any); ok {
				for _, s := range im {
					if s, ok := s.(string); ok {
						imports = append(imports, s)
					}
				}
			}
		}
	}
	var parts []string
	for _, a := range args {
		note(a)
		parts = append(parts, pyRepr(a, 0))
	}
	keys := make([]string, 0, len(kwargs))
	for k := range kwargs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if strings.HasPrefix(k, "$") {
			continue
		}
		note(kwargs[k])
		parts = append(parts, k+"="+pyRepr(kwargs[k], 0))
	}
	return "(" + strings.Join(parts, ", ") + ")", imports
}

func cutLast(s, sep string) (string, string, bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

// bare says a function can be called with no arguments.
func bare(sig *Signature) bool {
	for _, p := range sig.Params {
		if p.Default == "" && !strings.HasPrefix(p.Name, "*") {
			return false
		}
	}
	return true
}
