package pipeline

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestAgentPatchCorpus runs premise run, offline, on every case of
// examples/patches (issue 7): a breaking patch must show at least one
// behaviour change, a benign one none at all, since a false alarm is a defect
// as much as a missed change.
func TestAgentPatchCorpus(t *testing.T) {
	dirs, err := filepath.Glob("../examples/patches/[0-9]*")
	if err != nil || len(dirs) < 10 {
		t.Fatalf("want at least ten cases under examples/patches, found %d (%v)", len(dirs), err)
	}
	var mu sync.Mutex
	var caught, quiet, breaking, benign int
	t.Cleanup(func() {
		t.Logf("breaking cases with a behaviour change: %d/%d; benign cases with none: %d/%d", caught, breaking, quiet, benign)
	})
	for _, dir := range dirs {
		var c struct {
			Kind   string `yaml:"kind"`
			Symbol string `yaml:"symbol"`
		}
		data, err := os.ReadFile(filepath.Join(dir, "case.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		// The corpus's own test reads case.yaml strictly; here only the
		// verdict matters.
		if err := yaml.Unmarshal(data, &c); err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		if c.Kind == "breaking" {
			breaking++
		} else {
			benign++
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			// Each case mostly waits on workers and git; run them together.
			t.Parallel()
			repo := filepath.Join(t.TempDir(), "repo")
			cmd := exec.Command("bash", "../examples/patches/mkrepo.sh", dir, repo)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("mkrepo.sh: %v\n%s", err, out)
			}
			sum, err := Run(context.Background(), Config{Repo: repo, Base: "HEAD~1", Head: "HEAD", Seed: 1})
			if err != nil {
				t.Fatalf("premise run: %v", err)
			}
			// Every run says where its time went, the evidence stage
			// among the stages it ran.
			if !slices.ContainsFunc(sum.Timings, func(st StageTime) bool { return st.Stage == StageEvidence && st.Seconds > 0 }) {
				t.Errorf("timings %+v: no evidence stage", sum.Timings)
			}
			changes := append(append([]BehaviorChange{}, sum.BehaviorChanges...), sum.Unexplained...)
			switch c.Kind {
			case "breaking":
				if len(changes) == 0 {
					t.Errorf("breaking patch to %s: no behaviour change among %d evidence rows", c.Symbol, sum.EvidenceRows)
					return
				}
				mu.Lock()
				caught++
				mu.Unlock()
				// A change shows on the changed symbol, or on an unchanged
				// caller premise ran because it reaches that symbol.
				reaches := map[string][]string{}
				for _, s := range sum.EvidenceSymbols {
					reaches[s.Symbol] = s.Reads
				}
				for _, ch := range changes {
					ok := strings.HasSuffix(c.Symbol, shortSymbol(ch.Symbol))
					for _, r := range reaches[ch.Symbol] {
						ok = ok || strings.HasSuffix(c.Symbol, shortSymbol(r))
					}
					if !ok {
						t.Errorf("change reported on %s, which neither is nor reaches %s, the symbol the patch changed", ch.Symbol, c.Symbol)
					}
				}
			default:
				if len(changes) > 0 {
					t.Errorf("benign patch to %s: false alarm %s", c.Symbol, changeText(changes[0]))
					return
				}
				mu.Lock()
				quiet++
				mu.Unlock()
			}
		})
	}
}
