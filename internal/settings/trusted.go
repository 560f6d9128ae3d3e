package settings

import (
	"context"
	"fmt"
	"strings"

	"github.com/premise-dev/premise/internal/git"
)

// LoadAt reads the .premise.yaml committed at rev in the repository at
// dir: the merge-base's, for a run that judges a patch, since settings and
// policy are never read from what the patch wrote (DESIGN.md, "Trust"). A
// commit without one is the zero Settings. Errors name the file as
// "rev:.premise.yaml".
func LoadAt(ctx context.Context, dir, rev string) (*Settings, error) {
	repo := git.At(dir)
	out, err := repo.Run(ctx, "ls-tree", "--name-only", rev, "--", File)
	if err != nil {
		return nil, fmt.Errorf("read %s at %s: %w", File, rev, err)
	}
	if strings.TrimSpace(string(out)) == "" {
		return &Settings{}, nil
	}
	data, err := repo.Run(ctx, "cat-file", "blob", rev+":"+File)
	if err != nil {
		return nil, fmt.Errorf("read %s at %s: %w", File, rev, err)
	}
	return Parse(fmt.Sprintf("%.12s:%s", rev, File), data)
}

// Trusted returns the settings of the merge-base of base and head in the
// repository at dir (base defaulting to origin/HEAD, main or master, head to
// HEAD), and the merge-base. Outside a git repository, or when the names do
// not resolve, it returns the error; callers that have no diff from git (a
// patch read from a file) read the work tree's file instead (Load).
func Trusted(ctx context.Context, dir, base, head string) (*Settings, string, error) {
	repo := git.At(dir)
	if base == "" {
		b, err := repo.DefaultBase(ctx)
		if err != nil {
			return nil, "", err
		}
		base = b
	}
	if head == "" {
		head = "HEAD"
	}
	mb, err := repo.MergeBase(ctx, base, head)
	if err != nil {
		return nil, "", err
	}
	s, err := LoadAt(ctx, dir, mb)
	return s, mb, err
}
