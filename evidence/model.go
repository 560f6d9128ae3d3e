package evidence

import (
	"context"
	"errors"
	"fmt"

	"github.com/premise-dev/premise/evidence/lang"
	"github.com/premise-dev/premise/validate"
)

// modelRows are the calls the model proposes for tg (issue 13, part 1),
// as rows: on the target's first receiver when it is a method. The model
// sees the function's two versions and the assumptions a reviewer has not
// rejected. Its calls decide nothing by themselves: each runs on both
// sides like any row, and one that fails on the base as it fails on the
// head is no change. A model that cannot answer leaves a note and no rows;
// after an endpoint failure it is not asked again in this run.
func (b *budget) modelRows(ctx context.Context, tg lang.Target, items []validate.Item) []validate.Row {
	q := InputsQuestion{Symbol: tg.Sym.Name, Language: tg.Lang, Source: tg.HeadText, BaseSource: tg.BaseText, Max: maxModelInputs}
	for _, p := range tg.Sig.Params {
		q.Params = append(q.Params, b.langs[tg.Lang].ParamText(p))
	}
	for _, it := range items {
		q.Assumptions = append(q.Assumptions, it.Precondition)
	}
	calls, err := b.inputs(ctx, q)
	if err != nil {
		b.notes = append(b.notes, fmt.Sprintf("no model inputs for %s: %v", tg.Sym.Name, err))
		b.clocked = true // an endpoint down now may answer the next run
		if !errors.Is(err, context.Canceled) {
			// One failing endpoint fails every function alike.
			b.inputs = nil
		}
		return nil
	}
	l := b.langs[tg.Lang]
	recv, ok := l.Receiver(tg)
	if !ok {
		return nil
	}
	var rows []validate.Row
	for _, c := range calls {
		args := append([]any{}, c.Args...)
		if recv != nil {
			args = append([]any{recv}, args...)
		}
		rows = append(rows, l.ModelRow(args, c.Kwargs))
	}
	return rows
}
