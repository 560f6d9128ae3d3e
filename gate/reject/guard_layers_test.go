package reject

import (
	"context"
	"testing"
)

// TestGuardLayers: the files the layers around the gate judge by are
// protected where the merge-base's settings put them, and at their
// defaults: an agent's unsigned change to any of them is blocked.
func TestGuardLayers(t *testing.T) {
	for _, tt := range []struct {
		settings, path, reason string
	}{
		{"", "gate/frozen.json", "the registry's default path"},
		{"", "flake_ledger.json", "the ledger's default path"},
		{"", "tests/holdout/rows.jsonl", "the holdout tree: the agent never changes it"},
		{"freeze:\n  registry: ci/frozen.json\n", "ci/frozen.json", "a registry the settings moved"},
		{"ledger:\n  file: ci/ledger.json\n", "ci/ledger.json", "a ledger the settings moved"},
		{"holdout:\n  dir: blind\n", "blind/rows.jsonl", "a holdout the settings moved"},
	} {
		t.Run(tt.path, func(t *testing.T) {
			r := newGitRepo(t)
			if tt.settings != "" {
				r.commit("Lead <lead@example.com>", "settings", map[string]string{".premise.yaml": tt.settings})
				r.git("branch", "-f", "base")
			}
			r.commit(agent, "loosen", map[string]string{tt.path: "{}\n"})
			rep, _, err := GuardRepo(context.Background(), GuardOptions{Repo: r.dir, Base: "base"})
			if err != nil {
				t.Fatal(err)
			}
			if b := rep.Blocked(); len(b) != 1 {
				t.Errorf("an unsigned change to %s: blocked %+v, want the commit (%s)", tt.path, b, tt.reason)
			}
		})
	}
}
