package reject

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLoadConfig(t *testing.T) {
	defaults := Config{Lock: DefaultLockPath, Corpus: DefaultCorpusDir, Environmental: DefaultEnvironmentalPath,
		Protected: []string{"corpus/must_reject/", "must_reject.lock.json", "must_reject.environmental.json"}}
	tests := []struct {
		name    string
		yaml    string // "" means no file
		want    Config
		wantErr string
		reason  string
	}{
		{"no file", "", defaults, "", "a repository without .premise.yaml gets seed 000's names"},
		{"other stages' keys only", "exclude: [\"*.pb.go\"]\nmodel: x\n", defaults, "", "keys of other stages are theirs to check"},
		{"moved corpus", "reject:\n  lock: ci/reject.lock.json\n  corpus: ci/corpus/\n", Config{Lock: "ci/reject.lock.json", Corpus: "ci/corpus/", Environmental: DefaultEnvironmentalPath,
			Protected: []string{"ci/corpus/", "ci/reject.lock.json", DefaultEnvironmentalPath}}, "", "the protected paths follow the corpus and lockfile"},
		{"explicit protected and signers", "reject:\n  protected: [corpus/, gate/frozen.json]\n  signers: [\"Lead <lead@example.com>\"]\n",
			Config{Lock: DefaultLockPath, Corpus: DefaultCorpusDir, Environmental: DefaultEnvironmentalPath, Protected: []string{"corpus/", "gate/frozen.json"}, Signers: []string{"Lead <lead@example.com>"}}, "", ""},
		{"unknown key in reject", "exclude: []\nreject:\n  signer: [a@b]\n", Config{}, "field signer not found", "a misspelt allow-list must not be ignored"},
		{"bad yaml", "reject: [\n", Config{}, ".premise.yaml", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), ".premise.yaml")
			if tt.yaml != "" {
				if err := os.WriteFile(path, []byte(tt.yaml), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := LoadConfig(path)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("LoadConfig error = %v, want %q (%s)", err, tt.wantErr, tt.reason)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("LoadConfig (-want +got):\n%s\nreason: %s", diff, tt.reason)
			}
		})
	}
}
