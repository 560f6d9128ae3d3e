package git

import (
	"context"
	"encoding/hex"
	"strings"
)

func isObjectID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// Resolved is what a diff needs to know of its revisions.
type Resolved struct {
	Base, Head, MergeBase string // commits
}

// Resolve resolves base and head to commits and finds their merge-base,
// in one git process: on a busy machine each process costs as much as a
// small diff. ok is false when anything failed or is unusual (a bad name,
// unrelated histories); RevParse and MergeBase then tell which and why.
func (r *Repo) Resolve(ctx context.Context, base, head string) (res Resolved, ok bool) {
	if strings.HasPrefix(base, "-") || strings.HasPrefix(head, "-") || base == "" || head == "" {
		return Resolved{}, false
	}
	b, h := base+"^{commit}", head+"^{commit}"
	out, err := r.run(ctx, "rev-parse", b, h, b+"..."+h)
	if err != nil {
		return Resolved{}, false
	}
	// The two commits; the range's two ends and its merge-bases, negated.
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) < 5 || !strings.HasPrefix(lines[4], "^") {
		return Resolved{}, false // no merge-base, or not what rev-parse writes
	}
	res = Resolved{Base: lines[0], Head: lines[1], MergeBase: lines[4][1:]}
	for _, id := range []string{res.Base, res.Head, res.MergeBase} {
		if !isObjectID(id) {
			return Resolved{}, false
		}
	}
	return res, true
}
