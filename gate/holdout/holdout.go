package holdout

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/premise-dev/premise/internal/git"
	"github.com/premise-dev/premise/internal/settings"
)

// The directories of seed 002's split.
const (
	DefaultDir        = "tests/holdout/"
	DefaultPublic     = "tests/public/"
	DefaultProperties = "tests/properties/"
)

// Config is the holdout: section with its defaults; each directory ends
// in "/".
type Config struct {
	Dir, Public, Properties string
}

// ConfigFrom fills in the defaults for what s leaves out.
func ConfigFrom(s settings.Holdout) Config {
	dir := func(v, def string) string {
		if v == "" {
			v = def
		}
		v = strings.TrimPrefix(path.Clean("/"+v), "/")
		return v + "/"
	}
	return Config{Dir: dir(s.Dir, DefaultDir), Public: dir(s.Public, DefaultPublic), Properties: dir(s.Properties, DefaultProperties)}
}

// LoadConfig reads the holdout: section from the merge-base of base and
// head (a patch must not move the holdout out of its own way), or from the
// work tree when base is "" and the directory is not a repository with a
// default base.
func LoadConfig(ctx context.Context, repo, base, head string) (Config, error) {
	var s *settings.Settings
	var err error
	if base == "" {
		if base, err = git.At(repo).DefaultBase(ctx); err != nil {
			base = ""
		}
	}
	if base == "" {
		s, err = settings.Load(repo)
	} else {
		s, _, err = settings.Trusted(ctx, repo, base, head)
	}
	if err != nil {
		return Config{}, err
	}
	return ConfigFrom(s.Holdout), nil
}

func under(p, dir string) bool {
	return strings.HasPrefix(p, dir) || p+"/" == dir
}

// Change is one path the patch changed.
type Change struct {
	Path   string `json:"path"`
	Status string `json:"status"` // added, modified, deleted, renamed
	From   string `json:"from,omitempty"`
}

// CheckReport is one premise holdout check.
type CheckReport struct {
	Base      string `json:"base"`
	Head      string `json:"head"`
	MergeBase string `json:"merge_base"`
	Holdout   string `json:"holdout_dir"`
	// Touched are the patch's changes under the holdout tree: any of
	// them blocks (exit 2).
	Touched []Change `json:"touched"`
	// Rewritten are public tests the patch modified, deleted or renamed:
	// a patch that rewrites the tests it is judged by is suspect
	// (contamination).
	Rewritten []Change `json:"rewritten"`
	Exit      int      `json:"exit"`
}

// CheckOptions are one premise holdout check.
type CheckOptions struct {
	Repo, Base, Head string
}

// Check compares head with its merge-base with base. The error means git
// could not answer.
func Check(ctx context.Context, o CheckOptions) (*CheckReport, error) {
	repo, err := git.Open(ctx, o.Repo)
	if err != nil {
		return nil, err
	}
	base, head := o.Base, o.Head
	if head == "" {
		head = "HEAD"
	}
	if base == "" {
		if base, err = repo.DefaultBase(ctx); err != nil {
			return nil, err
		}
	}
	s, mb, err := settings.Trusted(ctx, o.Repo, base, head)
	if err != nil {
		return nil, err
	}
	cfg := ConfigFrom(s.Holdout)
	changes, err := diffStatus(ctx, repo, mb, head)
	if err != nil {
		return nil, err
	}
	rep := &CheckReport{Base: base, Head: head, MergeBase: mb, Holdout: cfg.Dir, Touched: []Change{}, Rewritten: []Change{}}
	for _, c := range changes {
		if under(c.Path, cfg.Dir) || c.From != "" && under(c.From, cfg.Dir) {
			rep.Touched = append(rep.Touched, c)
			continue
		}
		src := c.Path
		if c.From != "" {
			src = c.From
		}
		if c.Status != "added" && under(src, cfg.Public) {
			rep.Rewritten = append(rep.Rewritten, c)
		}
	}
	if len(rep.Touched) > 0 {
		rep.Exit = 2
	}
	return rep, nil
}

// diffStatus lists what changed from mb to head, renames detected.
func diffStatus(ctx context.Context, repo *git.Repo, mb, head string) ([]Change, error) {
	out, err := repo.Run(ctx, "diff", "--name-status", "-z", "--find-renames", "--no-relative", mb, head, "--")
	if err != nil {
		return nil, fmt.Errorf("diff %.12s %s: %w", mb, head, err)
	}
	f := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	var cs []Change
	for i := 0; i < len(f) && f[i] != ""; {
		st := f[i]
		switch st[0] {
		case 'R', 'C':
			if i+2 >= len(f) {
				return nil, fmt.Errorf("git diff --name-status: short record %q", st)
			}
			status := "renamed"
			if st[0] == 'C' {
				status = "added" // a copy leaves its source alone
			}
			cs = append(cs, Change{Path: f[i+2], From: f[i+1], Status: status})
			i += 3
		default:
			if i+1 >= len(f) {
				return nil, fmt.Errorf("git diff --name-status: short record %q", st)
			}
			cs = append(cs, Change{Path: f[i+1], Status: map[byte]string{'A': "added", 'D': "deleted"}[st[0]]})
			if cs[len(cs)-1].Status == "" {
				cs[len(cs)-1].Status = "modified"
			}
			i += 2
		}
	}
	return cs, nil
}

// Sparse returns the sparse-checkout patterns (git sparse-checkout set
// --no-cone, or actions/checkout's sparse-checkout with
// sparse-checkout-cone-mode: false) that keep the holdout tree out of the
// generate job's workspace: everything, but the holdout.
func Sparse(cfg Config) []string {
	return []string{"/*", "!/" + cfg.Dir}
}
