package reject

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

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
	s, mb, err := settings.Trusted(ctx, o.Repo, base, head)
	if err != nil {
		return nil, base, err
	}
	cfg := Config(s.Reject).WithDefaults()
	g := &Guard{Repo: repo, Protected: append(append(append([]string{}, cfg.Protected...), JudgedPaths...), layerPaths(s)...), Signers: cfg.Signers}
	if cfg.RequireSigned {
		file, cleanup, err := allowedSigners(ctx, repo, mb, cfg.AllowedSigners)
		if err != nil {
			return nil, base, err
		}
		defer cleanup()
		g.AllowedSigners = file
	}
	rep, err := g.Check(ctx, base, head)
	return rep, base, err
}

// layerPaths are the judged files of the layers around the gate where the
// merge-base's settings moved them from their defaults in JudgedPaths: the
// freeze registry, the flake ledger, and the holdout tree (issue 16). A
// patch that moves them in its own settings changes .premise.yaml, which
// is protected itself.
func layerPaths(s *settings.Settings) []string {
	var out []string
	for _, p := range []string{s.Freeze.Registry, s.Ledger.File} {
		if p != "" {
			out = append(out, p)
		}
	}
	if d := s.Holdout.Dir; d != "" {
		out = append(out, strings.TrimSuffix(d, "/")+"/")
	} else {
		out = append(out, "tests/holdout/")
	}
	return out
}

// allowedSigners writes the merge-base's allowed-signers file to a
// temporary file for git verify-commit: the head's copy is the patch's.
func allowedSigners(ctx context.Context, repo *git.Repo, mb, path string) (string, func(), error) {
	if path == "" {
		return "", nil, fmt.Errorf("%s: reject.require_signed needs reject.allowed_signers, an SSH allowed-signers file in the repository", settings.File)
	}
	data, err := repo.Run(ctx, "cat-file", "blob", mb+":"+path)
	if err != nil {
		return "", nil, fmt.Errorf("allowed signers %s at the merge-base %.12s: %w", path, mb, err)
	}
	f, err := os.CreateTemp("", "premise-signers-")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { os.Remove(f.Name()) }
	if _, err := f.Write(data); err != nil {
		f.Close()
		cleanup()
		return "", nil, err
	}
	if err := f.Close(); err != nil {
		cleanup()
		return "", nil, err
	}
	return f.Name(), cleanup, nil
}
