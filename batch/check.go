package batch

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/premise-dev/premise/gate"
	"github.com/premise-dev/premise/internal/git"
	"github.com/premise-dev/premise/pipeline"
	"github.com/premise-dev/premise/validate"
)

// CheckOutcome is premise check on the register a PR carries at its head.
type CheckOutcome struct {
	OK bool `json:"ok"`
	// Carried says the head holds an assumptions.yaml at all.
	Carried  bool     `json:"carried"`
	Findings []string `json:"findings"`
}

// matches reports whether an earlier record answers a run that does or
// does not want the check.
func (c *CheckOutcome) matches(want bool) bool { return !want || c != nil }

// checkCarried runs the register check on the register, table and freezes
// committed at head, as premise check does in the PR's CI, with the change
// identified by mb, so a register drafted for another change fails. The
// files are read from git, never from a work tree the PR could have
// written since.
func checkCarried(ctx context.Context, dir, head, mb string) (*CheckOutcome, error) {
	tmp, err := os.MkdirTemp("", "premise-batch-check-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	repo := git.At(dir)
	out := &CheckOutcome{Findings: []string{}}
	for _, name := range []string{pipeline.RegisterFile, pipeline.PartitionsFile, gate.DefaultFreezesPath} {
		ls, err := repo.Run(ctx, "ls-tree", "--name-only", head, "--", name)
		if err != nil {
			return nil, err
		}
		if strings.TrimSpace(string(ls)) == "" {
			continue
		}
		data, err := repo.Run(ctx, "cat-file", "blob", head+":"+name)
		if err != nil {
			return nil, err
		}
		path := filepath.Join(tmp, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return nil, err
		}
		if name == pipeline.RegisterFile {
			out.Carried = true
		}
	}
	if !out.Carried {
		out.Findings = append(out.Findings, "the pull request carries no "+pipeline.RegisterFile+": draft one with premise run and review it")
		return out, nil
	}
	res, err := validate.CheckPaths(validate.CheckFiles{
		Register: filepath.Join(tmp, pipeline.RegisterFile), Partitions: filepath.Join(tmp, pipeline.PartitionsFile),
		Freezes: filepath.Join(tmp, gate.DefaultFreezesPath), Head: head, MergeBase: mb,
		DescendsFrom: func(c string) bool {
			_, err := repo.Run(ctx, "merge-base", "--is-ancestor", c, head)
			return err == nil
		},
	})
	var le *validate.LoadError
	if errors.As(err, &le) {
		for _, p := range le.Problems {
			out.Findings = append(out.Findings, strings.ReplaceAll(p.String(), tmp+string(filepath.Separator), ""))
		}
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	for _, f := range res.Findings {
		out.Findings = append(out.Findings, strings.ReplaceAll(f.String(), tmp+string(filepath.Separator), ""))
	}
	out.OK = res.OK()
	return out, nil
}
