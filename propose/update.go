package propose

import (
	"context"
	"errors"
	"io/fs"

	"github.com/premise-dev/premise/diffparse"
	igit "github.com/premise-dev/premise/internal/git"
	"github.com/premise-dev/premise/validate"
)

// UpdateConfig is one run of the propose stage.
type UpdateConfig struct {
	// Register is the register file to create or merge into.
	Register string
	// Diff is the diff to propose for, loaded by the caller (premise run
	// loads it once for every stage).
	Diff *diffparse.Result
	// Proposer drafts the rows; the static rules when nil.
	Proposer Proposer
	// PatchRef is the register's patch_ref for a new register (PatchRef
	// makes it); an existing register keeps its own.
	PatchRef string
}

// UpdateResult is what the propose stage did.
type UpdateResult struct {
	Register   *validate.Register
	Draft      *Result
	Merge      validate.MergeStats
	Provenance validate.Provenance
	Proposer   string
}

// ReadRegister reads the register at path for an update: a missing file is
// nil, a broken one an error. Callers read it before spending any model
// request, so a broken register stops the run and is never overwritten.
func ReadRegister(path string) (*validate.Register, error) {
	reg, err := validate.LoadRegister(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return reg, err
}

// Update is the propose stage: it reads the register, drafts rows for the
// diff, keeps those that cite real changed symbols and quote the real diff,
// merges them into the register (every accepted or rejected decision and
// note kept; rows the diff no longer supports marked stale) and writes it
// atomically. Nothing is written when the proposer fails.
//
// The draft is made without the register's lock, since a model may take
// tens of seconds; the merge and the write hold it, and the merge is into
// the register as it is then, re-read under the lock, so an accept or reject
// made while the model was asked is kept (issue 14, part 6).
func Update(ctx context.Context, cfg UpdateConfig) (*UpdateResult, error) {
	// Read first so that a broken register stops the run before any model
	// request is spent; what is merged into is read again under the lock.
	if _, err := ReadRegister(cfg.Register); err != nil {
		return nil, err
	}
	p := cfg.Proposer
	if p == nil {
		p = NewStatic()
	}
	draft, err := Draft(ctx, p, cfg.Diff)
	if err != nil {
		return nil, err
	}
	if draft.Findings == nil {
		draft.Findings = []Finding{}
	}
	prov := ProvenanceOf(p, cfg.Diff)
	ix := validate.NewIndex(cfg.Diff)
	var reg *validate.Register
	var stats validate.MergeStats
	err = validate.UpdateRegister(ctx, cfg.Register, func(now *validate.Register) (*validate.Register, error) {
		reg, stats = validate.Merge(now, draft.Kept, prov, ix)
		if reg.PatchRef == "" {
			reg.PatchRef = cfg.PatchRef
		}
		return reg, nil
	})
	if err != nil {
		return nil, err
	}
	return &UpdateResult{Register: reg, Draft: draft, Merge: stats, Provenance: prov, Proposer: p.Name()}, nil
}

// PatchRef is seed 004's patch_ref, "BASE...HEAD", with the names the diff
// was asked for: an empty base is the one diffparse defaults to (origin/HEAD,
// else main, else master), so premise propose and premise run write the
// same. A diff read from a file is "patch FILE".
func PatchRef(ctx context.Context, repo, base, head, patch string) string {
	if patch != "" {
		return "patch " + patch
	}
	if base == "" {
		if b, err := igit.At(repo).DefaultBase(ctx); err == nil {
			base = b
		} else {
			base = "origin/HEAD"
		}
	}
	if head == "" {
		head = "HEAD"
	}
	return base + "..." + head
}
