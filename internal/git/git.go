package git

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ErrNotRepo means the directory is neither a git work tree nor a bare
// repository.
var ErrNotRepo = errors.New("not a git repository")

// ErrBadRev means a revision does not name a commit in the repository.
var ErrBadRev = errors.New("unknown revision")

// ErrNoMergeBase means two commits share no history.
var ErrNoMergeBase = errors.New("no merge-base")

// ErrNoDefaultBase means none of origin/HEAD, main and master exists.
var ErrNoDefaultBase = errors.New("no default base branch (origin/HEAD, main, master); pass --base")

// Repo is a git repository on disk. The zero value is not usable; call Open.
type Repo struct {
	// Dir is the directory git commands run in: a directory of the work
	// tree, or the git directory of a bare repository.
	Dir string
	// Bare reports whether the repository has no work tree.
	Bare bool
	// Git is the git executable; "git" when empty.
	Git string
}

// Open finds the repository containing dir. It returns an error wrapping
// ErrNotRepo when there is none.
func Open(ctx context.Context, dir string) (*Repo, error) {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("open repository %s: %w", dir, err)
	}
	if fi, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("open repository %s: %w", dir, err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("open repository %s: %w (not a directory)", dir, ErrNotRepo)
	}
	r := &Repo{Dir: abs}
	out, err := r.run(ctx, "rev-parse", "--is-bare-repository", "--absolute-git-dir")
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("open repository %s: %w (%v)", dir, ErrNotRepo, err)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != 2 {
		return nil, fmt.Errorf("open repository %s: %w", dir, ErrNotRepo)
	}
	// git commands work from any directory of a work tree and paths in
	// diffs are relative to the top (--no-relative), so the directory is
	// kept as given.
	r.Bare = lines[0] == "true"
	if r.Bare {
		r.Dir = lines[1]
	}
	return r, nil
}

// Top returns the top level of the work tree, or the git directory of a
// bare repository: the directory premise's files live in whatever
// directory of the work tree a command runs from.
func (r *Repo) Top(ctx context.Context) (string, error) {
	if r.Bare {
		return r.Dir, nil
	}
	out, err := r.run(ctx, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", err
	}
	return strings.TrimRight(string(out), "\n"), nil
}

// At returns the repository at dir without starting git: commands run
// there and fail if it is not a repository. Callers that need a clear
// error for a bad directory call Open.
func At(dir string) *Repo {
	if dir == "" {
		dir = "."
	}
	return &Repo{Dir: dir}
}

// command builds a git command that ignores configuration which would change
// the output premise parses (pagers, colours, external diff drivers, path
// quoting), never prompts, and runs nothing a repository's configuration
// names: no hooks, no fsmonitor daemon, no pager, no credential helper
// (issue 26, item 3: whatever a subject managed to plant in a repository's
// config must not run with premise's environment). The environment is
// premise's own cut to an allow-list (gitEnv).
func (r *Repo) command(ctx context.Context, args ...string) *exec.Cmd {
	g := r.Git
	if g == "" {
		g = "git"
	}
	full := append(append([]string{}, hardening...), args...)
	cmd := exec.CommandContext(ctx, g, full...)
	cmd.Dir = r.Dir
	cmd.Env = append(gitEnv(os.Environ()),
		"GIT_TERMINAL_PROMPT=0",
		"GIT_OPTIONAL_LOCKS=0",
		"LC_ALL=C",
		"GIT_CONFIG_NOSYSTEM=1",
	)
	return cmd
}

// hardening are the options every git premise starts is given: the
// settings that would run a program (hooks, fsmonitor, a pager, an
// editor, a credential helper, an ssh command) are pinned to none.
var hardening = []string{
	"-c", "core.hooksPath=/dev/null",
	"-c", "core.fsmonitor=false",
	"-c", "core.untrackedCache=false",
	"-c", "core.pager=cat",
	"-c", "core.editor=true",
	"-c", "core.sshCommand=false",
	"-c", "credential.helper=",
	"-c", "protocol.ext.allow=never",
	"-c", "core.quotePath=true",
	"-c", "color.ui=false",
	"--no-pager",
}

// gitEnvAllowed are the variables git inherits from premise: what finds the
// repository and the user's own configuration, and the identity of
// commits. Everything else (GIT_CONFIG_PARAMETERS and GIT_CONFIG_COUNT
// overrides, GIT_EXTERNAL_DIFF, GIT_PAGER, GIT_SSH_COMMAND, tokens) stays
// out.
var gitEnvAllowed = map[string]bool{
	"PATH": true, "HOME": true, "USER": true, "TMPDIR": true, "XDG_CONFIG_HOME": true, "GNUPGHOME": true,
	"GIT_DIR": true, "GIT_WORK_TREE": true, "GIT_INDEX_FILE": true, "GIT_COMMON_DIR": true,
	"GIT_OBJECT_DIRECTORY": true, "GIT_ALTERNATE_OBJECT_DIRECTORIES": true, "GIT_CEILING_DIRECTORIES": true,
	"GIT_CONFIG_GLOBAL": true, "GIT_CONFIG_NOSYSTEM": true,
	"GIT_AUTHOR_NAME": true, "GIT_AUTHOR_EMAIL": true, "GIT_AUTHOR_DATE": true,
	"GIT_COMMITTER_NAME": true, "GIT_COMMITTER_EMAIL": true, "GIT_COMMITTER_DATE": true,
}

// gitEnv is env cut to gitEnvAllowed.
func gitEnv(env []string) []string {
	out := make([]string, 0, len(gitEnvAllowed))
	for _, kv := range env {
		if name, _, ok := strings.Cut(kv, "="); ok && gitEnvAllowed[name] {
			out = append(out, kv)
		}
	}
	return out
}

// run runs git with args and returns its standard output. A failure carries
// git's first line of standard error.
func (r *Repo) run(ctx context.Context, args ...string) ([]byte, error) {
	cmd := r.command(ctx, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, failure(ctx, args, &stderr, err)
	}
	return out, nil
}

// failure says why git failed: the first line of its stderr that says
// "fatal:" or "error:", else its first line (git worktree add writes
// "Preparing worktree" before the reason).
func failure(ctx context.Context, args []string, stderr *bytes.Buffer, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	msg := strings.TrimSpace(stderr.String())
	lines := strings.Split(msg, "\n")
	msg = lines[0]
	for _, l := range lines {
		if strings.HasPrefix(l, "fatal:") || strings.HasPrefix(l, "error:") {
			msg = l
			break
		}
	}
	if msg == "" {
		msg = err.Error()
	}
	return fmt.Errorf("git %s: %s", args[0], msg)
}

// Run runs an arbitrary git subcommand in the repository and returns its
// standard output; an error carries the first line git wrote to stderr.
func (r *Repo) Run(ctx context.Context, args ...string) ([]byte, error) {
	return r.run(ctx, args...)
}

// RevParse resolves each rev to a full commit sha in one git call. An error
// wraps ErrBadRev and names the first revision that does not resolve.
func (r *Repo) RevParse(ctx context.Context, revs ...string) ([]string, error) {
	if len(revs) == 0 {
		return nil, nil
	}
	args := []string{"rev-parse", "--verify", "--quiet", "--end-of-options"}
	if len(revs) == 1 {
		out, err := r.run(ctx, append(args, revs[0]+"^{commit}")...)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("revision %q: %w", revs[0], ErrBadRev)
		}
		return []string{strings.TrimSpace(string(out))}, nil
	}
	// --verify takes one argument; resolve several without it and check
	// each line, so a range of revisions costs one process.
	a := []string{"rev-parse"}
	for _, rev := range revs {
		if strings.HasPrefix(rev, "-") || rev == "" {
			return nil, fmt.Errorf("revision %q: %w", rev, ErrBadRev)
		}
		a = append(a, rev+"^{commit}")
	}
	out, err := r.run(ctx, a...)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		// Find which one failed.
		for _, rev := range revs {
			if _, err := r.RevParse(ctx, rev); err != nil {
				return nil, err
			}
		}
		return nil, fmt.Errorf("revisions %v: %w", revs, ErrBadRev)
	}
	lines := strings.Fields(string(out))
	if len(lines) != len(revs) {
		return nil, fmt.Errorf("revisions %v: %w", revs, ErrBadRev)
	}
	return lines, nil
}

// MergeBase returns the best common ancestor of commits a and b, wrapping
// ErrNoMergeBase when they share no history.
func (r *Repo) MergeBase(ctx context.Context, a, b string) (string, error) {
	cmd := r.command(ctx, "merge-base", a, b)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 1 && strings.TrimSpace(stderr.String()) == "" {
			return "", fmt.Errorf("merge-base of %.12s and %.12s: %w", a, b, ErrNoMergeBase)
		}
		// A shallow clone or a missing object: say what git said, never
		// only "exit status 128".
		return "", fmt.Errorf("merge-base of %.12s and %.12s: %w", a, b, failure(ctx, []string{"merge-base"}, &stderr, err))
	}
	return strings.TrimSpace(string(out)), nil
}

// DefaultBase names the branch a patch is compared against when the user
// names none (issue 2): the remote's default branch origin/HEAD, else main,
// else master. It wraps ErrNoDefaultBase when none exists.
func (r *Repo) DefaultBase(ctx context.Context) (string, error) {
	out, err := r.run(ctx, "for-each-ref", "--format=%(refname)",
		"refs/remotes/origin/HEAD", "refs/heads/main", "refs/heads/master")
	if err != nil {
		return "", err
	}
	have := map[string]bool{}
	for _, ref := range strings.Fields(string(out)) {
		have[ref] = true
	}
	for _, c := range [][2]string{{"refs/remotes/origin/HEAD", "origin/HEAD"}, {"refs/heads/main", "main"}, {"refs/heads/master", "master"}} {
		if have[c[0]] {
			return c[1], nil
		}
	}
	return "", ErrNoDefaultBase
}

// DiffArgs are the arguments of the `git diff` premise parses. Every option
// that changes the output format is pinned so the user's configuration
// (diff.noprefix, diff.mnemonicPrefix, diff.external, textconv, colour,
// relative paths, submodule format) cannot change what premise reads; renames
// and copies are detected so a moved file is not read as a delete plus an add.
// A file git calls binary is one line ("Binary files differ"); DiffText
// diffs chosen paths as text.
var DiffArgs = []string{
	"diff", "--no-color", "--no-ext-diff", "--no-textconv", "--no-relative",
	"--src-prefix=a/", "--dst-prefix=b/", "--find-renames", "--find-copies",
	"--submodule=short", "--ignore-submodules=none", "--full-index",
}

// Diff returns the unified diff between revs, which git diff takes as
// given: two commits, or "A...B" for B against the merge-base of A and B.
func (r *Repo) Diff(ctx context.Context, revs ...string) ([]byte, error) {
	args := append(append(append([]string{}, DiffArgs...), revs...), "--")
	out, err := r.run(ctx, args...)
	if err != nil {
		return nil, fmt.Errorf("diff %s: %w", strings.Join(revs, " "), err)
	}
	return out, nil
}

// DiffText is Diff of paths alone, every one diffed as text whatever git
// would call it: a .gitattributes in the work tree (the head's checkout:
// "calc.py -diff", "*.py binary") or a NUL byte the patch puts in a
// comment must not turn a changed source file into "Binary files differ",
// a file without hunks and so without a changed function (issue 26: the
// head is never read as policy).
func (r *Repo) DiffText(ctx context.Context, from, to string, paths []string) ([]byte, error) {
	args := append(append(append([]string{}, DiffArgs...), "--text", from, to, "--"), paths...)
	out, err := r.run(ctx, args...)
	if err != nil {
		return nil, fmt.Errorf("diff %s %s as text: %w", from, to, err)
	}
	return out, nil
}

// Uncommitted lists the tracked files whose work-tree or index content
// differs from HEAD: what a command that judges HEAD did not judge, so
// it can say so (issue 25). Untracked files are left out: premise's own
// drafts are untracked until someone commits them.
func (r *Repo) Uncommitted(ctx context.Context) ([]string, error) {
	out, err := r.run(ctx, "status", "--porcelain=v1", "-z", "--untracked-files=no", "--no-renames")
	if err != nil {
		return nil, fmt.Errorf("uncommitted changes: %w", err)
	}
	var paths []string
	for _, rec := range strings.Split(string(out), "\x00") {
		if len(rec) > 3 {
			paths = append(paths, rec[3:])
		}
	}
	return paths, nil
}
