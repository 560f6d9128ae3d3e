package pipeline

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/premise-dev/premise/internal/git"
)

// VerdictTampered: a file premise judges by changed while the code under
// review ran.
const VerdictTampered = "the code under review changed a file premise judges by"

// judged are the files a run's verdict depends on, with the digest each
// had when premise last read or wrote it. The code under review runs in
// private checkouts, but it runs as the user and could find the user's
// files: after every stage that ran it, the run checks that none of them
// changed, and fails if one did, so nothing a subject wrote decides the
// verdict (DESIGN.md, "Trust").
type judged map[string][sha256.Size]byte

// record notes what path holds now (nothing, for a missing file).
func (j judged) record(path string) error {
	d, err := digest(path)
	if err != nil {
		return err
	}
	j[path] = d
	return nil
}

// changed returns the first recorded file whose bytes differ from what
// premise last saw, or "".
func (j judged) changed() (string, error) {
	for path, want := range j {
		got, err := digest(path)
		if err != nil {
			return "", err
		}
		if got != want {
			return path, nil
		}
	}
	return "", nil
}

func digest(path string) ([sha256.Size]byte, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return [sha256.Size]byte{}, nil
	}
	if err != nil {
		return [sha256.Size]byte{}, fmt.Errorf("read %s: %w", path, err)
	}
	return sha256.Sum256(data), nil
}

// untouched stops the run when a judged file changed while subject code
// ran in stage; it reports whether the run may go on.
func (p *run) untouched(stage string) (bool, error) {
	path, err := p.judged.changed()
	if err != nil || path == "" {
		return err == nil, err
	}
	p.stop(stage, VerdictTampered, 1, fmt.Sprintf("%s changed while the code under review ran in the %s stage; premise does not judge by a file the patch could write: restore it and run again", path, stage))
	return false, nil
}

// gitHooks are the hooks git runs; a subject that planted one (or set a
// config key that runs a program) would have premise's next git command, or
// the user's, run it outside the box (issue 26, item 3).
var gitHooks = []string{"applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit",
	"pre-merge-commit", "prepare-commit-msg", "commit-msg", "post-commit", "pre-rebase",
	"post-checkout", "post-merge", "pre-push", "pre-receive", "update", "post-receive",
	"post-update", "reference-transaction", "push-to-checkout", "pre-auto-gc",
	"post-rewrite", "fsmonitor-watchman", "post-index-change", "sendemail-validate"}

// gitOwnFiles are the repository's files that run programs: its config and
// its hooks, each judged like the register (a change while subject code ran
// fails the run, TAMPERED).
func gitOwnFiles(ctx context.Context, dir string) []string {
	args := []string{"rev-parse", "--path-format=absolute"}
	for _, name := range append([]string{"config", "info/attributes"}, prefixed("hooks/", gitHooks)...) {
		args = append(args, "--git-path", name)
	}
	text, err := git.At(dir).Run(ctx, args...)
	if err != nil {
		return nil
	}
	return strings.Split(strings.TrimRight(string(text), "\n"), "\n")
}

func prefixed(prefix string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = prefix + n
	}
	return out
}
