package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/premise-dev/premise/gate/fixtures"
	"github.com/premise-dev/premise/gate/freeze"
)

// runGateLayers runs the layers premise gate was asked for after its rows,
// in seed 001's order (fixtures, then the freeze check), printing each to
// w, and returns the gate's exit status over all of them: blocked (2)
// over failed (1) over nothing checked (4) over holds (0).
func runGateLayers(ctx context.Context, opts gateOptions, code int, w io.Writer) (int, error) {
	top := repoTopDir(ctx, opts.Repo)
	if opts.Fixtures != "" {
		fmt.Fprintln(w, "== layer 2: fixtures ==")
		cfg := opts.gateConfig()
		rep, err := fixtures.Run(ctx, fixtures.Options{Path: inRepo(top, opts.Fixtures), Config: cfg})
		if err != nil {
			return 0, err
		}
		if err := writeFixtures(w, rep); err != nil {
			return 0, err
		}
		code = worse(code, rep.Exit)
	}
	if opts.Registry != "" {
		fmt.Fprintln(w, "== layer 3: frozen flaky tests ==")
		cfg, err := freeze.LoadConfig(ctx, top, "")
		if err != nil {
			return 0, err
		}
		rep, err := freeze.Check(freeze.CheckOptions{Path: inRepo(top, opts.Registry), Config: cfg, Now: time.Now()})
		if err != nil {
			return 0, err
		}
		if err := printFreezeCheck(w, rep, false); err != nil {
			return 0, err
		}
		code = worse(code, rep.Exit)
	}
	return code, nil
}

// worse is the more severe of two verdicts.
func worse(a, b int) int {
	rank := map[int]int{exitHolds: 0, exitNothing: 1, exitFailed: 2, exitBlocked: 3}
	if rank[b] > rank[a] {
		return b
	}
	return a
}
