package reject

import (
	"context"
	"errors"
	"fmt"

	"github.com/premise-dev/premise/internal/git"
	"github.com/premise-dev/premise/internal/settings"
)

// JudgedPaths are the files premise judges a patch by, protected whatever
// the settings say: the settings themselves, the register, the partition
// table, the gate's frozen rows, and the layers of seeds 001 and 002. A
// patch that changes one of them without a reviewer's sign-off is blocked,
// so an agent cannot commit an accepted register or a weak table, or empty
// the protected list (DESIGN.md, "Files a user keeps").
var JudgedPaths = []string{
	settings.File, "assumptions.yaml", "partitions.yaml", ".gate/",
	"gate/frozen.json", "flake_ledger.json", "fixtures.json",
}

// GuardOptions are one run of the guard stage.
type GuardOptions struct {
	Repo string
	// Base and Head name the range; Base defaults to origin/HEAD, else
	// main, else master, Head to HEAD.
	Base, Head string
}

// GuardRepo is the guard stage: it reads the protected paths and the
// signers from the merge-base's .premise.yaml (never the head's: the patch
// could empty the list or sign for itself), adds JudgedPaths, and checks
// every commit in base..head. It returns the report and the base it used;
// the error means git could not answer.
func GuardRepo(ctx context.Context, o GuardOptions) (*GuardReport, string, error) {
	repo, err := git.Open(ctx, o.Repo)
	if err != nil {
		return nil, "", err
	}
	base, head := o.Base, o.Head
	if head == "" {
		head = "HEAD"
	}
	if base == "" {
		if base, err = repo.DefaultBase(ctx); err != nil {
			return nil, "", err
		}
	}
	if _, err := repo.RevParse(ctx, base, head); err != nil {
		if errors.Is(err, git.ErrBadRev) {
			return nil, base, fmt.Errorf("%w (fetch it first, e.g. git fetch origin main, or pass --base)", err)
		}
		return nil, base, err
	}
	s, _, err := settings.Trusted(ctx, o.Repo, base, head)
	if err != nil {
		return nil, base, err
	}
	cfg := Config(s.Reject).WithDefaults()
	g := &Guard{Repo: repo, Protected: append(append([]string{}, cfg.Protected...), JudgedPaths...), Signers: cfg.Signers}
	rep, err := g.Check(ctx, base, head)
	return rep, base, err
}
