package diffparse

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLoadPatch checks --patch: symbols come from the repository at --head
// whether head already has the patch applied or is still its base, and a
// patch that fits neither side is reported on the file, not guessed.
func TestLoadPatch(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	r.write(map[string]string{
		"pkg/m.py": pyBase,
		"gone.py":  "def g():\n    return 1\n",
	})
	base := r.commit("base")
	r.write(map[string]string{
		"pkg/m.py": strings.Replace(pyBase, "return x + 1", "return x + 2", 1) + "\n\ndef extra():\n    pass\n",
		"gone.py":  deleteMark,
		"new.py":   "class N:\n    pass\n",
	})
	head := r.commit("head")
	viaGit := r.load(base, head)
	patch := r.git("diff", base, head)
	mail := r.git("format-patch", "-1", "--stdout", head)

	symbols := func(res *Result) map[string][]Symbol {
		m := map[string][]Symbol{}
		for _, f := range res.Files {
			m[f.Path] = f.Symbols
			if f.ParseError != "" {
				m[f.Path] = []Symbol{{Name: "parse_error: " + f.ParseError}}
			}
		}
		return m
	}
	want := symbols(viaGit)
	tests := []struct {
		name, patch, head string
		want              map[string][]Symbol
		reason            string
	}{
		{"applied at head", patch, head, want, "base is head with the hunks reversed"},
		{"not yet applied", patch, base, want, "head is the base with the hunks applied"},
		{"format-patch mail", mail, head, want, "the mail around the diff is ignored"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Load(context.Background(), Config{Repo: r.dir, Head: tt.head, Patch: strings.NewReader(tt.patch), PatchName: "p.diff"})
			if err != nil {
				t.Fatal(err)
			}
			if res.MergeBase != "" || res.Base != "" {
				t.Errorf("a patch has no base commit: base %q merge-base %q", res.Base, res.MergeBase)
			}
			if diff := cmp.Diff(tt.want, symbols(res)); diff != "" {
				t.Errorf("symbols mismatch (-want +got):\n%s\n%s", diff, tt.reason)
			}
		})
	}
	t.Run("matches neither side", func(t *testing.T) {
		bad := strings.Replace(patch, "+    return x + 2", "+    return x + 3", 1)
		res, err := Load(context.Background(), Config{Repo: r.dir, Head: head, Patch: strings.NewReader(bad), PatchName: "p.diff"})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range res.Files {
			if f.Path == "pkg/m.py" && !strings.Contains(f.ParseError, "matches neither side") {
				t.Errorf("pkg/m.py: parse_error %q, want the patch reported as not matching", f.ParseError)
			}
		}
	})
}
