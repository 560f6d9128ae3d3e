package git

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Identity is the author and committer of commits premise writes itself
// (the bundled example, test repositories). Fixed names and dates make the
// commits' shas the same on every machine.
type Identity struct {
	Name, Email string
	When        time.Time
}

// Init creates an empty repository in dir (made if missing) whose first
// branch is named branch, independent of the user's init.defaultBranch.
func Init(ctx context.Context, dir, branch string) (*Repo, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("init repository %s: %w", dir, err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("init repository %s: %w", dir, err)
	}
	r := &Repo{Dir: abs}
	if _, err := r.run(ctx, "init", "--quiet", "--initial-branch="+branch); err != nil {
		return nil, fmt.Errorf("init repository %s: %w", dir, err)
	}
	return r, nil
}

// CommitAll stages every file of the work tree and commits it as who, with
// hooks and signing off, and returns the new commit's sha.
func (r *Repo) CommitAll(ctx context.Context, message string, who Identity) (string, error) {
	if _, err := r.run(ctx, "add", "--all"); err != nil {
		return "", err
	}
	date := who.When.UTC().Format(time.RFC3339)
	cmd := r.command(ctx, "-c", "commit.gpgSign=false", "-c", "core.hooksPath=/dev/null",
		"commit", "--quiet", "--allow-empty", "--no-verify", "-m", message)
	cmd.Env = append(cmd.Env,
		"GIT_AUTHOR_NAME="+who.Name, "GIT_AUTHOR_EMAIL="+who.Email, "GIT_AUTHOR_DATE="+date,
		"GIT_COMMITTER_NAME="+who.Name, "GIT_COMMITTER_EMAIL="+who.Email, "GIT_COMMITTER_DATE="+date,
	)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git commit: %s", firstLine(stderr.String(), err))
	}
	shas, err := r.RevParse(ctx, "HEAD")
	if err != nil {
		return "", err
	}
	return shas[0], nil
}

func firstLine(s string, err error) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if s == "" && err != nil {
		s = err.Error()
	}
	return s
}

// StagedCommit writes what the index holds as a commit on top of HEAD, on
// no branch, and returns its sha: premise run --staged (a pre-commit hook)
// reads the change about to be committed as it reads any commit. The
// commit is an object only; nothing points at it and gc collects it.
func (r *Repo) StagedCommit(ctx context.Context) (string, error) {
	tree, err := r.run(ctx, "write-tree")
	if err != nil {
		return "", fmt.Errorf("staged changes: %w", err)
	}
	out, err := r.run(ctx, "-c", "user.name=premise", "-c", "user.email=premise@localhost",
		"commit-tree", strings.TrimSpace(string(tree)), "-p", "HEAD", "-m", "premise: the staged changes")
	if err != nil {
		return "", fmt.Errorf("staged changes: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// GitPath is the absolute path of name inside the repository's git
// directory (git rev-parse --git-path): .git/name, or the worktree's own.
func (r *Repo) GitPath(ctx context.Context, name string) (string, error) {
	out, err := r.run(ctx, "rev-parse", "--path-format=absolute", "--git-path", name)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}
