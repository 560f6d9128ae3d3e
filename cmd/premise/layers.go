package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/premise-dev/premise/gate/freeze"
	"github.com/premise-dev/premise/internal/git"
)

// The helpers of the commands around the gate (freeze, junit, ledger,
// holdout): where the repository's top level is, and how an error is
// reported under --json.

// repoTopDir is the top level of the work tree holding dir, or dir itself
// outside git: paths the user gives are relative to it.
func repoTopDir(ctx context.Context, dir string) string {
	out, err := git.At(dir).Run(ctx, "rev-parse", "--show-toplevel")
	if err != nil {
		return dir
	}
	return strings.TrimSpace(string(out))
}

// inRepo resolves p against the repository's top level top.
func inRepo(top, p string) string {
	if p == "" || p == "-" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(top, p)
}

// failJSON reports err, which ends the command with code: under --json
// also as {"error": ..., "exit": code} on stdout, so a CI step reading the
// JSON sees why. The exit status is code either way.
func failJSON(out io.Writer, asJSON bool, code int, err error) error {
	if asJSON {
		b, _ := json.Marshal(map[string]any{"error": oneLine(err.Error()), "exit": code})
		fmt.Fprintf(out, "%s\n", b)
	}
	if code == exitCouldNotRun {
		return err
	}
	return &exitError{code: code, err: err}
}

// today parses a --today flag: "" is the clock's date.
func today(flag string, now func() time.Time) (time.Time, error) {
	if flag == "" {
		return now(), nil
	}
	t, err := time.Parse(freeze.DateLayout, flag)
	if err != nil {
		return time.Time{}, fmt.Errorf("--today %q: want a date YYYY-MM-DD", flag)
	}
	return t, nil
}
