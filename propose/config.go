package propose

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"time"

	"github.com/premise-dev/premise/internal/settings"
)

// Config holds the model settings of `premise propose` (issue 3). Each is a
// flag, an environment variable and a top-level key of .premise.yaml; flags
// win, then the environment, then the file, then the defaults.
type Config struct {
	// Endpoint is the base URL of an OpenAI-compatible API
	// (http://localhost:11434/v1). Empty means the static proposer.
	Endpoint string
	// Model is the model name, or "static" for the rules that need no model
	// ("" with no endpoint means static too).
	Model string
	// APIKeyEnv names the environment variable that holds the key; the key
	// itself is never a setting, so it never lands in a file.
	APIKeyEnv string
	// Timeout bounds one HTTP attempt.
	Timeout time.Duration
	// MaxAttempts is the number of attempts per request, the first included.
	MaxAttempts int
	// Concurrency is the number of chunks in flight at once.
	Concurrency int
	// CacheDir holds cached replies; "" is the user cache dir's premise/.
	CacheDir string
	NoCache  bool
	NoRepair bool
	// TokenBudget caps the estimated prompt tokens of one request; the diff
	// is split by symbol to fit, and a single larger symbol is truncated.
	TokenBudget int
	// MaxOutputTokens caps the reply (max_tokens on the wire).
	MaxOutputTokens int
	// Seed is sent with every request, for endpoints that honour it.
	Seed int
	// PerSymbol sends one request per changed symbol, so a request, and
	// the cache key of its reply, depends on that symbol's name, its
	// source and hunks (the blobs of both sides), the prompt and the model
	// alone: premise batch asks about a function changed the same way in
	// two pull requests once. Not a setting of .premise.yaml.
	PerSymbol bool
	// DisabledRules are static rules turned off (.premise.yaml rules:
	// disable:); NewStaticConfig leaves them out.
	DisabledRules []string
}

// DefaultConfig returns the settings used where nothing else is said.
func DefaultConfig() Config {
	return Config{
		APIKeyEnv:       "OPENAI_API_KEY",
		Timeout:         120 * time.Second,
		MaxAttempts:     4,
		Concurrency:     4,
		TokenBudget:     6000,
		MaxOutputTokens: 2048,
		Seed:            7,
	}
}

// ConfigFile is the name of the repository's settings file.
const ConfigFile = settings.File

// setting is one model setting: its .premise.yaml key, its environment
// variable (or ""), and how to store a string value.
type setting struct {
	key, env string
	set      func(c *Config, v string) error
}

func table() []setting {
	str := func(f func(c *Config) *string) func(*Config, string) error {
		return func(c *Config, v string) error { *f(c) = v; return nil }
	}
	num := func(name string, f func(c *Config) *int, min int) func(*Config, string) error {
		return func(c *Config, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < min {
				return fmt.Errorf("%s: want a whole number >= %d, got %q", name, min, v)
			}
			*f(c) = n
			return nil
		}
	}
	boolean := func(name string, f func(c *Config) *bool) func(*Config, string) error {
		return func(c *Config, v string) error {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return fmt.Errorf("%s: want true or false, got %q", name, v)
			}
			*f(c) = b
			return nil
		}
	}
	return []setting{
		{"endpoint", "PREMISE_ENDPOINT", str(func(c *Config) *string { return &c.Endpoint })},
		{"model", "PREMISE_MODEL", str(func(c *Config) *string { return &c.Model })},
		{"api_key_env", "PREMISE_API_KEY_ENV", str(func(c *Config) *string { return &c.APIKeyEnv })},
		{"timeout", "PREMISE_TIMEOUT", func(c *Config, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				return fmt.Errorf("timeout: want a duration such as 90s, got %q", v)
			}
			c.Timeout = d
			return nil
		}},
		{"max_attempts", "PREMISE_MAX_ATTEMPTS", num("max_attempts", func(c *Config) *int { return &c.MaxAttempts }, 1)},
		{"concurrency", "PREMISE_CONCURRENCY", num("concurrency", func(c *Config) *int { return &c.Concurrency }, 1)},
		{"cache_dir", "PREMISE_CACHE_DIR", str(func(c *Config) *string { return &c.CacheDir })},
		{"no_cache", "PREMISE_NO_CACHE", boolean("no_cache", func(c *Config) *bool { return &c.NoCache })},
		{"no_repair", "", boolean("no_repair", func(c *Config) *bool { return &c.NoRepair })},
		{"token_budget", "PREMISE_TOKEN_BUDGET", num("token_budget", func(c *Config) *int { return &c.TokenBudget }, 500)},
		{"max_output_tokens", "", num("max_output_tokens", func(c *Config) *int { return &c.MaxOutputTokens }, 1)},
		{"seed", "", num("seed", func(c *Config) *int { return &c.Seed }, 0)},
	}
}

// ApplySettings sets c from the model keys of a .premise.yaml
// (internal/settings reads the file, refusing unknown keys); a bad value is
// an error that names the file and line.
func (c *Config) ApplySettings(s *settings.Settings) error {
	if err := checkRuleNames(s); err != nil {
		return err
	}
	c.DisabledRules = append(c.DisabledRules, s.Rules.Disable...)
	byKey := map[string]setting{}
	for _, st := range table() {
		byKey[st.key] = st
	}
	keys := make([]string, 0, len(s.Model))
	for k := range s.Model {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := s.Model[k]
		st, ok := byKey[k]
		if !ok {
			return fmt.Errorf("%s:%d: setting %q has no reader", s.Name, v.Line, k)
		}
		if err := st.set(c, v.Text); err != nil {
			return fmt.Errorf("%s:%d: %w", s.Name, v.Line, err)
		}
	}
	return nil
}

// ApplyFile sets c from the model keys of the .premise.yaml text data (name
// is used in errors).
func (c *Config) ApplyFile(name string, data []byte) error {
	s, err := settings.Parse(name, data)
	if err != nil {
		return err
	}
	return c.ApplySettings(s)
}

// ApplyEnv sets c from the PREMISE_* environment variables that are set
// and not empty.
func (c *Config) ApplyEnv(getenv func(string) string) error {
	for _, s := range table() {
		if s.env == "" {
			continue
		}
		if v := getenv(s.env); v != "" {
			if err := s.set(c, v); err != nil {
				return fmt.Errorf("environment %s: %w", s.env, err)
			}
		}
	}
	return nil
}

// LoadConfig returns the defaults overlaid with repo/.premise.yaml (when
// there is one) and the environment. Flags are the caller's to apply last.
func LoadConfig(repo string, getenv func(string) string) (Config, error) {
	c := DefaultConfig()
	s, err := settings.Load(repo)
	if err != nil {
		return c, err
	}
	if err := c.ApplySettings(s); err != nil {
		return c, err
	}
	if err := c.ApplyEnv(getenv); err != nil {
		return c, err
	}
	return c, nil
}

// Static reports whether the settings select the static proposer: the
// model is "static", or no endpoint is set and no model named.
func (c Config) Static() bool {
	return c.Model == "static" || c.Endpoint == ""
}

// Check refuses settings that cannot work together.
func (c Config) Check() error {
	if c.Model != "static" && c.Model != "" && c.Endpoint == "" {
		return fmt.Errorf("model %q needs an endpoint: set --endpoint, PREMISE_ENDPOINT or endpoint in %s (or use --model static)", c.Model, ConfigFile)
	}
	if c.Endpoint != "" && c.Model == "" {
		return fmt.Errorf("endpoint %s needs a model name: set --model, PREMISE_MODEL or model in %s", c.Endpoint, ConfigFile)
	}
	return nil
}

// LoadTrustedConfig is LoadConfig with the settings of the merge-base of
// base and head in repo instead of the work tree's: a patch that changes
// .premise.yaml cannot redirect the endpoint, name another secret as the
// key or move the cache (DESIGN.md, "Trust"). The environment applies
// after, as in LoadConfig.
func LoadTrustedConfig(ctx context.Context, repo, base, head string, getenv func(string) string) (Config, error) {
	c := DefaultConfig()
	s, _, err := settings.Trusted(ctx, repo, base, head)
	if err != nil {
		return c, err
	}
	if err := c.ApplySettings(s); err != nil {
		return c, err
	}
	if err := c.ApplyEnv(getenv); err != nil {
		return c, err
	}
	return c, nil
}

// CacheRoot is the directory premise keeps what it may reuse in (a
// model's replies, a run's evidence): CacheDir, else premise's directory
// in the user's cache; "" with NoCache or when there is neither.
func (c Config) CacheRoot() string {
	switch {
	case c.NoCache:
		return ""
	case c.CacheDir != "":
		return c.CacheDir
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "premise")
}
