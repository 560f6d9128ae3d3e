package propose

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/internal/settings"
)

func TestApplyFile(t *testing.T) {
	tests := []struct {
		name    string
		file    string
		want    func(c *Config)
		wantErr string
	}{
		{name: "every model key", file: "endpoint: http://localhost:11434/v1\nmodel: qwen2.5-coder\napi_key_env: MY_KEY\ntimeout: 30s\nmax_attempts: 2\nconcurrency: 8\ncache_dir: /tmp/c\nno_cache: true\nno_repair: true\ntoken_budget: 9000\nmax_output_tokens: 512\nseed: 1\n",
			want: func(c *Config) {
				c.Endpoint, c.Model, c.APIKeyEnv, c.Timeout = "http://localhost:11434/v1", "qwen2.5-coder", "MY_KEY", 30*time.Second
				c.MaxAttempts, c.Concurrency, c.CacheDir, c.NoCache, c.NoRepair = 2, 8, "/tmp/c", true, true
				c.TokenBudget, c.MaxOutputTokens, c.Seed = 9000, 512, 1
			}},
		{name: "diffparse's key is left to diffparse", file: "exclude:\n  - gen/**\nmodel: static\n", want: func(c *Config) { c.Model = "static" }},
		{name: "the reject section is left to gate/reject", file: "reject:\n  signers: [lead@example.com]\nconcurrency: 2\n", want: func(c *Config) { c.Concurrency = 2 }},
		{name: "empty file", file: "", want: func(c *Config) {}},
		{name: "unknown key", file: "model: m\nendpiont: http://x\n", wantErr: `.premise.yaml:2: unknown setting "endpiont"`},
		{name: "bad duration", file: "timeout: soon\n", wantErr: `.premise.yaml:1: timeout: want a duration`},
		{name: "bad number", file: "max_attempts: 0\n", wantErr: `.premise.yaml:1: max_attempts: want a whole number >= 1`},
		{name: "list for a scalar", file: "model: [a, b]\n", wantErr: `.premise.yaml:1: model: want a single value`},
		{name: "not a mapping", file: "- model\n", wantErr: `.premise.yaml:1: want a mapping`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := DefaultConfig()
			err := got.ApplyFile(".premise.yaml", []byte(tc.file))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := DefaultConfig()
			tc.want(&want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestSettingsFileSharedWithDiffparse: one .premise.yaml serves both
// readers, each taking its own keys.
func TestSettingsFileSharedWithDiffparse(t *testing.T) {
	data := []byte("exclude: [\"vendor/**\", \"*.pb.go\"]\nendpoint: http://localhost:8080/v1\nmodel: m\n")
	ex, err := diffparse.ParseExclude(data)
	if err != nil || len(ex) != 2 {
		t.Fatalf("diffparse: %v %v", ex, err)
	}
	c := DefaultConfig()
	if err := c.ApplyFile(".premise.yaml", data); err != nil || c.Model != "m" {
		t.Fatalf("propose: %v %+v", err, c)
	}
}

// TestPrecedence: flags win (the command applies them last), then the
// environment, then the file, then the defaults.
func TestPrecedence(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ConfigFile), []byte("endpoint: http://file/v1\nmodel: file-model\ntimeout: 10s\n"), 0o644)
	env := map[string]string{"PREMISE_MODEL": "env-model", "PREMISE_TIMEOUT": ""}
	c, err := LoadConfig(dir, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if c.Endpoint != "http://file/v1" || c.Model != "env-model" || c.Timeout != 10*time.Second || c.MaxAttempts != DefaultConfig().MaxAttempts {
		t.Errorf("got %+v", c)
	}
	env["PREMISE_CONCURRENCY"] = "many"
	if _, err := LoadConfig(dir, func(k string) string { return env[k] }); err == nil || !strings.Contains(err.Error(), "PREMISE_CONCURRENCY") {
		t.Errorf("err = %v, want one naming the variable", err)
	}
	c, err = LoadConfig(t.TempDir(), func(string) string { return "" })
	if err != nil || !c.Static() {
		t.Errorf("no file, no env: %+v %v, want the static proposer", c, err)
	}
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		endpoint, model string
		ok, static      bool
	}{
		{"", "", true, true},
		{"", "static", true, true},
		{"http://x/v1", "static", true, true},
		{"http://x/v1", "m", true, false},
		{"http://x/v1", "", false, false},
		{"", "m", false, false},
	} {
		c := Config{Endpoint: tc.endpoint, Model: tc.model}
		if err := c.Check(); (err == nil) != tc.ok {
			t.Errorf("%q %q: Check = %v", tc.endpoint, tc.model, err)
		}
		if tc.ok && c.Static() != tc.static {
			t.Errorf("%q %q: Static = %v", tc.endpoint, tc.model, c.Static())
		}
	}
}

func FuzzApplyFile(f *testing.F) {
	for _, s := range []string{"model: m\n", "exclude: [a]\nreject: {x: 1}\n", "timeout: 1s\nmax_attempts: 3\n", "- x\n", "a: [\n", "model: !!binary aGk=\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := DefaultConfig()
		if err := c.ApplyFile(".premise.yaml", []byte(s)); err == nil {
			if c.MaxAttempts < 1 || c.Concurrency < 1 || c.Timeout <= 0 || c.TokenBudget < 500 {
				t.Errorf("accepted settings no run can use: %+v", c)
			}
		}
	})
}

// TestEveryModelKeyHasAReader: the settings schema and the model settings'
// readers name the same keys, so no key is accepted and then ignored.
func TestEveryModelKeyHasAReader(t *testing.T) {
	var keys []string
	for _, s := range table() {
		keys = append(keys, s.key)
	}
	sort.Strings(keys)
	want := append([]string(nil), settings.ModelKeys...)
	sort.Strings(want)
	if diff := cmp.Diff(want, keys); diff != "" {
		t.Errorf("model keys (-schema +readers):\n%s", diff)
	}
}
