package evidence

import (
	"fmt"
	"math/rand"
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
