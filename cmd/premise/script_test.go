package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/premise-dev/premise/gate"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets testscript scripts run premise in-process as the command
// "premise", so a script reads like the README. The package's own tests
// that run premise in-process (batch, the CI examples) run without the
// time-bounded searches: what a search finds in its seconds depends on
// how busy the machine is, and the batch test holds two runs made at
// different times to the same findings (the environment's setting is
// over a repository's, so its .premise.yaml alone could not). The
// scripts run without them too (Setup); the evidence package tests the
// searches' reach.
func TestMain(m *testing.M) {
	if os.Getenv("PREMISE_SEARCH_SECONDS") == "" {
		os.Setenv("PREMISE_SEARCH_SECONDS", "0")
	}
	testscript.Main(m, map[string]func(){
		"premise": main,
	})
}

// TestScripts runs the end-to-end scripts under testdata/script.
func TestScripts(t *testing.T) {
	python, gocache := scriptTools()
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Condition: func(cond string) (bool, error) {
			if cond == "userns" {
				// Where the kernel refuses unprivileged user namespaces
				// the sandbox cannot cut the network; sandbox.txtar then
				// checks that premise says so.
				return gate.Isolated(), nil
			}
			if cond == "boxed" {
				// A script that tests the box itself: skipped where the
				// kernel refuses PID namespaces, but never in CI
				// (PREMISE_REQUIRE_SANDBOX=1), so CI cannot pass with the
				// box untested.
				if !gate.Isolated() && os.Getenv("PREMISE_REQUIRE_SANDBOX") == "1" {
					return false, fmt.Errorf("this kernel refuses a PID namespace (%s) and PREMISE_REQUIRE_SANDBOX=1: the box must be tested here", gate.Isolation())
				}
				return gate.Isolated(), nil
			}
			if cond == "sealed" {
				// Where the kernel gives a mount namespace, everything but a
				// worker's copy and scratch directory is read-only to it.
				return gate.Sealed(), nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits": cmdExits,
		},
		Setup: func(env *testscript.Env) error {
			// Scripts build real git repositories; give git an identity and
			// keep the user's configuration out.
			for _, kv := range [][2]string{
				{"GIT_AUTHOR_NAME", "premise test"}, {"GIT_AUTHOR_EMAIL", "test@premise.invalid"},
				{"GIT_COMMITTER_NAME", "premise test"}, {"GIT_COMMITTER_EMAIL", "test@premise.invalid"},
				{"GIT_CONFIG_NOSYSTEM", "1"}, {"GIT_CONFIG_GLOBAL", os.DevNull},
				{"PREMISE_CACHE_DIR", env.WorkDir + "/.cache"},
				// No time-bounded search: the scripts' small functions
				// answer anew on every input, so a search runs to its
				// time on every refactor beside an attack (with one
				// second a table and side, the scripts took 332 s here,
				// 253 s without). The evidence package tests the
				// searches' reach; a script that needs them sets
				// PREMISE_SEARCH_SECONDS itself.
				{"PREMISE_SEARCH_SECONDS", "0"},
			} {
				env.Setenv(kv[0], kv[1])
			}
			if python != "" {
				env.Setenv("PREMISE_PYTHON", python)
			}
			if gocache != "" {
				env.Setenv("GOCACHE", gocache)
			}
			return nil
		},
	})
}

// scriptTools finds, once for every script, the Python interpreter behind
// python3 and the Go build cache of the user running the tests.
//
// The interpreter is resolved past a version manager's shim here, as
// premise run does for itself, so the other commands of a script (gate,
// reject run) do not each pay pyenv's start. GOCACHE is the test run's own:
// a script's HOME is /no-home, where the Go harness would otherwise compile
// the standard library a second time on a fresh machine, into a cache no
// other package's tests share.
func scriptTools() (python, gocache string) {
	if p, err := gate.ResolvePython("python3"); err == nil {
		python = p
	}
	if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
		gocache = strings.TrimSpace(string(out))
	}
	return python, gocache
}

// cmdExits runs a command and asserts its exit status: "exits 3 premise diff
// --repo nowhere". premise's exit codes are part of its interface (DESIGN.md),
// so scripts state them exactly rather than as "failed".
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE command [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: bad code %q", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		msg := err.Error()
		i := strings.LastIndex(msg, "exit status ")
		if i < 0 {
			ts.Fatalf("exits: %v", err)
		}
		if _, err := fmt.Sscanf(msg[i:], "exit status %d", &got); err != nil {
			ts.Fatalf("exits: %v", err)
		}
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", strings.Join(args[1:], " "), got, want)
	}
}
