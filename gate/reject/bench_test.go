package reject

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/premise-dev/premise/gate"
)

// fakeRejecter is an in-memory subject that rejects every call at once, so
// a benchmark measures premise's own work: reading the lockfile, re-hashing
// every fixture through os.Root, parsing it, deciding, reporting.
type fakeRejecter struct{}

func (fakeRejecter) Call(ctx context.Context, c gate.Call) (gate.Reply, error) {
	return gate.Reply{ID: c.ID, Outcome: gate.OutcomeRaised, Exc: &gate.Exc{Class: "ValidationError", Code: "email.invalid"}}, nil
}

func (fakeRejecter) Close() error { return nil }

// writeBigCorpus writes n never-skip entries and their fixtures.
func writeBigCorpus(tb testing.TB, n int) string {
	tb.Helper()
	dir := tb.TempDir()
	lock := Lock{Version: 1}
	for i := range n {
		id := fmt.Sprintf("user-email-reject-%05d", i)
		data, err := Canonical(fmt.Appendf(nil, `{"email": "not-an-email-%d", "tenant": "t-%d", "profile": {"name": "user %d", "tags": ["a", "b", "c"]}}`, i, i%17, i))
		if err != nil {
			tb.Fatal(err)
		}
		rel := DefaultCorpusDir + "/" + id + ".json"
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if i == 0 {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				tb.Fatal(err)
			}
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			tb.Fatal(err)
		}
		sum := sha256.Sum256(data)
		lock.Entries = append(lock.Entries, Entry{ID: id, Target: "billing.api.create_user", InputSHA256: hex.EncodeToString(sum[:]),
			InputPath: rel, Must: Must{Kind: KindException, Class: "ValidationError", Code: "email.invalid"}, FlakePolicy: PolicyNeverSkip})
	}
	if err := lock.Save(filepath.Join(dir, DefaultLockPath)); err != nil {
		tb.Fatal(err)
	}
	return dir
}

func runBig(b *testing.B, dir string, ad gate.Adapter) {
	b.Helper()
	lock, err := LoadLock(filepath.Join(dir, DefaultLockPath))
	if err != nil {
		b.Fatal(err)
	}
	rep, err := (&Runner{Adapter: ad}).Run(context.Background(), Corpus{Lock: lock, Root: dir, Dir: DefaultCorpusDir})
	if err != nil {
		b.Fatal(err)
	}
	if rep.Held != len(lock.Entries) || rep.Broken != 0 {
		b.Fatalf("held=%d broken=%d, want every entry held", rep.Held, rep.Broken)
	}
}

// BenchmarkRun10k is issue 6's figure: 10,000 entries loaded, re-hashed and
// run (three attempts each, never-skip) against an in-memory subject.
//
//	go test -run '^$' -bench 'Run10k' -benchtime 3x ./gate/reject
func BenchmarkRun10k(b *testing.B) {
	dir := writeBigCorpus(b, 10000)
	b.ResetTimer()
	for b.Loop() {
		runBig(b, dir, fakeRejecter{})
	}
}

// BenchmarkRun10kPython is the same corpus through premise's real Python
// worker: 30,000 calls over the runner protocol.
func BenchmarkRun10kPython(b *testing.B) {
	dir := writeBigCorpus(b, 10000)
	if err := os.MkdirAll(filepath.Join(dir, "billing"), 0o755); err != nil {
		b.Fatal(err)
	}
	for name, src := range map[string]string{
		"billing/__init__.py": "",
		"billing/api.py": "class ValidationError(Exception):\n    code = 'email.invalid'\n\n" +
			"def create_user(email, tenant, profile):\n    raise ValidationError(email)\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	ad, err := gate.NewPythonAdapter(gate.PythonConfig{Interpreter: realPython(b), Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	defer ad.Close()
	b.ResetTimer()
	for b.Loop() {
		runBig(b, dir, ad)
	}
}
