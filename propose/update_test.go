package propose

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/validate"
)

// TestAcceptWhileModelAnswersIsKept: a reviewer accepts A001 while premise
// propose waits on the model; the register propose writes afterwards still
// holds the accept (issue 14, part 6: it was silently reverted). The accept
// is made by the fake endpoint itself, between the request and the reply.
func TestAcceptWhileModelAnswersIsKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "assumptions.yaml")
	var accept atomic.Bool
	f := newFake(t, func(n int, r wireRequest) reply {
		if accept.Load() {
			if err := validate.DecideFile(path, []validate.Decision{{ID: "A001", Status: validate.StatusAccepted, Note: "checked by hand"}}); err != nil {
				t.Errorf("accept while the model answers: %v", err)
			}
		}
		return chat(goodItems, "", promptChars(r))
	})
	o, _ := newTestProposer(t, f.url())
	o.Config.NoCache = true
	ctx := context.Background()
	if _, err := Update(ctx, UpdateConfig{Register: path, Diff: intervals(t), Proposer: o}); err != nil {
		t.Fatal(err)
	}
	accept.Store(true)
	up, err := Update(ctx, UpdateConfig{Register: path, Diff: intervals(t), Proposer: o})
	if err != nil {
		t.Fatal(err)
	}
	assertAccepted(t, path, up)
}

// slowProposer is a proposer during whose run a reviewer decides.
type slowProposer struct {
	Proposer
	during func()
}

func (s slowProposer) Propose(ctx context.Context, res *diffparse.Result, ix *validate.Index) (*Result, error) {
	s.during()
	return s.Proposer.Propose(ctx, res, ix)
}

// TestAcceptDuringStaticDraftIsKept is the same with any proposer: the
// merge is into the register as it is after the draft.
func TestAcceptDuringStaticDraftIsKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "assumptions.yaml")
	ctx := context.Background()
	if _, err := Update(ctx, UpdateConfig{Register: path, Diff: intervals(t)}); err != nil {
		t.Fatal(err)
	}
	p := slowProposer{Proposer: NewStatic(), during: func() {
		if err := validate.DecideFile(path, []validate.Decision{{ID: "A001", Status: validate.StatusAccepted, Note: "checked by hand"}}); err != nil {
			t.Errorf("accept during the draft: %v", err)
		}
	}}
	up, err := Update(ctx, UpdateConfig{Register: path, Diff: intervals(t), Proposer: p})
	if err != nil {
		t.Fatal(err)
	}
	assertAccepted(t, path, up)
}

func assertAccepted(t *testing.T, path string, up *UpdateResult) {
	t.Helper()
	reg, err := validate.LoadRegister(path)
	if err != nil {
		t.Fatal(err)
	}
	it := reg.Lookup("A001")
	if it == nil || it.Status != validate.StatusAccepted || it.Note != "checked by hand" {
		t.Fatalf("A001 = %+v after propose: the accept made during the draft was lost", it)
	}
	if got := up.Register.Lookup("A001"); got == nil || got.Status != validate.StatusAccepted {
		t.Errorf("the result's register says A001 = %+v, want what was written", got)
	}
}
