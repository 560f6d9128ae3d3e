package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/premise-dev/premise/propose/partition"
	"github.com/premise-dev/premise/validate"
)

// partitions adds template rows for accepted assumptions to partitions.yaml
// (existing rows, hand-written ones included, are kept as they are) and
// returns the table.
func (p *run) partitions(ctx context.Context) (*validate.Table, error) {
	path := p.path(PartitionsFile)
	table, err := validate.LoadTable(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		table = &validate.Table{Version: validate.FormatVersion}
	case err != nil:
		return nil, err
	}
	accepted := map[string][]validate.Item{}
	for _, it := range p.reg.Items {
		if it.Status == validate.StatusAccepted && !it.Stale {
			accepted[it.Symbol] = append(accepted[it.Symbol], it)
		}
	}
	covered := map[string]bool{}
	for _, r := range table.Rows {
		for _, id := range r.AssumptionIDs {
			covered[id] = true
		}
	}
	var gen partition.Templates
	for _, f := range p.res.Files {
		for _, s := range f.Symbols {
			items := uncovered(accepted[s.Name], covered)
			if len(items) == 0 {
				continue
			}
			var sig *partition.Signature
			switch f.Language {
			case "python":
				sig, _ = partition.PythonSignature(f.HeadSrc, s.Local)
			case "go":
				sig, _ = partition.GoSignature(f.HeadSrc, s.Local)
			}
			if table.Target == "" {
				table.Target, table.Language = s.Name, f.Language
			} else if table.Language != "" && f.Language != table.Language {
				return nil, fmt.Errorf("%s: accepted assumptions span %s and %s targets; keep one partitions file per language (premise partitions --target)", path, table.Language, f.Language)
			}
			rows, err := gen.Generate(ctx, partition.Request{Target: s.Name, Sig: sig, Assumptions: items})
			if err != nil {
				return nil, err
			}
			for i := range rows {
				if s.Name != table.Target {
					rows[i].Target = s.Name
				}
			}
			partition.Merge(table, rows)
		}
	}
	if err := validate.SaveTable(path, table); err != nil {
		return nil, err
	}
	p.sum.Written = append(p.sum.Written, path)
	return table, nil
}

// uncovered are the items no existing row cites: a table a human edited is
// not padded again on every run.
func uncovered(items []validate.Item, covered map[string]bool) []validate.Item {
	var out []validate.Item
	for _, it := range items {
		if !covered[it.ID] {
			out = append(out, it)
		}
	}
	return out
}
