package main

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/premise-dev/premise/propose"
)

// modelFlags are the model settings shared by every command that proposes
// (issue 3): each a flag, an environment variable and a key of
// .premise.yaml, flags winning.
type modelFlags struct {
	endpoint, model, keyEnv, cacheDir string
	timeout                           time.Duration
	attempts, concurrency, budget     int
	noCache, noRepair                 bool
}

func (m *modelFlags) bind(c *cobra.Command) {
	f := c.Flags()
	d := propose.DefaultConfig()
	f.StringVar(&m.endpoint, "endpoint", "", "base URL of an OpenAI-compatible API, e.g. http://localhost:11434/v1")
	f.StringVar(&m.model, "model", "", "the model name, or static for the built-in rules")
	f.StringVar(&m.keyEnv, "api-key-env", d.APIKeyEnv, "the environment variable that holds the API key")
	f.StringVar(&m.cacheDir, "cache-dir", "", "where model replies (and, for run and batch, evidence and traced test runs) are cached (default the user cache dir's premise/)")
	f.DurationVar(&m.timeout, "model-timeout", d.Timeout, "the time one model request may take")
	renamed(c, "timeout", timeoutRenamed)
	f.IntVar(&m.attempts, "max-attempts", d.MaxAttempts, "attempts per request (429, 5xx, timeouts and cut-off replies are retried)")
	f.IntVar(&m.concurrency, "concurrency", d.Concurrency, "requests in flight at once")
	f.IntVar(&m.budget, "token-budget", d.TokenBudget, "estimated prompt tokens per request; larger diffs are split by symbol")
	f.BoolVar(&m.noCache, "no-cache", false, "neither read nor write the reply cache (nor, for run and batch, the evidence and the traced run of the base's tests)")
	f.BoolVar(&m.noRepair, "no-repair", false, "do not send dropped rows back to the model for one repair round")
}

// timeoutRenamed is what --timeout, which once meant a model request in
// one command and a call in another, says now.
const timeoutRenamed = "--timeout is gone: --call-timeout bounds one call of the code under review, --model-timeout one model request"

// settingsFrom says where a command's .premise.yaml comes from: the
// merge-base of base and head (never the patch's own), or, for a patch
// read from a file, the work tree of repo.
type settingsFrom struct {
	repo, base, head string
	patch            bool
}

// config resolves the settings: the trusted .premise.yaml, then the
// environment, then the flags the user set.
func (m *modelFlags) config(c *cobra.Command, from settingsFrom, getenv func(string) string) (propose.Config, error) {
	var cfg propose.Config
	var err error
	if from.patch {
		cfg, err = propose.LoadConfig(from.repo, getenv)
	} else {
		cfg, err = propose.LoadTrustedConfig(c.Context(), from.repo, from.base, from.head, getenv)
	}
	if err != nil {
		return cfg, err
	}
	fl := c.Flags()
	set := func(name string, apply func()) {
		if fl.Changed(name) {
			apply()
		}
	}
	set("endpoint", func() { cfg.Endpoint = m.endpoint })
	set("model", func() { cfg.Model = m.model })
	set("api-key-env", func() { cfg.APIKeyEnv = m.keyEnv })
	set("cache-dir", func() { cfg.CacheDir = m.cacheDir })
	set("model-timeout", func() { cfg.Timeout = m.timeout })
	set("max-attempts", func() { cfg.MaxAttempts = m.attempts })
	set("concurrency", func() { cfg.Concurrency = m.concurrency })
	set("token-budget", func() { cfg.TokenBudget = m.budget })
	set("no-cache", func() { cfg.NoCache = m.noCache })
	set("no-repair", func() { cfg.NoRepair = m.noRepair })
	if cfg.MaxAttempts < 1 || cfg.Concurrency < 1 || cfg.Timeout <= 0 || cfg.TokenBudget < 500 {
		return cfg, fmt.Errorf("--max-attempts and --concurrency must be at least 1, --model-timeout positive, --token-budget at least 500")
	}
	return cfg, cfg.Check()
}

// newProposer builds the proposer the settings name: the static rules, or
// the model behind the endpoint with its key read from the environment.
func newProposer(cfg propose.Config, getenv func(string) string, log io.Writer) (propose.Proposer, error) {
	if cfg.Static() {
		return propose.NewStaticConfig(cfg), nil
	}
	o, err := propose.NewOpenAI(cfg, getenv(cfg.APIKeyEnv))
	if err != nil {
		return nil, err
	}
	o.Log = log
	return o, nil
}
