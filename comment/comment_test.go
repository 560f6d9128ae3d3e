package comment

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// fakeGitHub is GitHub's issue-comments API for one repository, in memory,
// counting what was posted.
type fakeGitHub struct {
	mu       sync.Mutex
	comments map[int][]map[string]any // by PR
	nextID   int64
	creates  int
	edits    int
	auth     []string
}

func (f *fakeGitHub) handler(t *testing.T) http.Handler {
	list := regexp.MustCompile(`^/api/v3/repos/acme/shop/issues/(\d+)/comments$`)
	one := regexp.MustCompile(`^/api/v3/repos/acme/shop/issues/comments/(\d+)$`)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.auth = append(f.auth, r.Header.Get("Authorization"))
		var in struct{ Body string }
		if r.Body != nil {
			b, _ := io.ReadAll(r.Body)
			json.Unmarshal(b, &in)
		}
		w.Header().Set("Content-Type", "application/json")
		if m := list.FindStringSubmatch(r.URL.Path); m != nil {
			pr, _ := strconv.Atoi(m[1])
			switch r.Method {
			case http.MethodGet:
				json.NewEncoder(w).Encode(append([]map[string]any{}, f.comments[pr]...))
			case http.MethodPost:
				f.creates++
				f.nextID++
				c := map[string]any{"id": f.nextID, "body": in.Body, "html_url": fmt.Sprintf("https://github.example/acme/shop/pull/%d#issuecomment-%d", pr, f.nextID)}
				f.comments[pr] = append(f.comments[pr], c)
				w.WriteHeader(http.StatusCreated)
				json.NewEncoder(w).Encode(c)
			}
			return
		}
		if m := one.FindStringSubmatch(r.URL.Path); m != nil && r.Method == http.MethodPatch {
			id, _ := strconv.ParseInt(m[1], 10, 64)
			for _, cs := range f.comments {
				for _, c := range cs {
					if c["id"].(int64) == id {
						f.edits++
						c["body"] = in.Body
						json.NewEncoder(w).Encode(c)
						return
					}
				}
			}
		}
		t.Errorf("fake GitHub: unexpected %s %s", r.Method, r.URL.Path)
		http.NotFound(w, r)
	})
}

const (
	draftTwo = "## premise: what this patch assumes\n\n" +
		"| id | status | symbol | precondition | evidence | behaviour seen |\n| --- | --- | --- | --- | --- | --- |\n" +
		"| A001 | proposed | `calc.clamp` | x is below hi | `if x >= hi + 1:` | **E1 clamp(2, 0, 1.5): base 1.5, head 2** |\n" +
		"| A002 | proposed | `calc.scale` | k is positive | `return x * abs(k)` | no change on its rows |\n\n" +
		"2 boundary rows ran against base and head; 1 changed behaviour.\n"
	draftOne = "## premise: what this patch assumes\n\n" +
		"| id | status | symbol | precondition | evidence | behaviour seen |\n| --- | --- | --- | --- | --- | --- |\n" +
		"| A001 | proposed | `calc.scale` | k is positive | `return x * abs(k)` | no change on its rows |\n\n" +
		"1 boundary rows ran against base and head; 0 changed behaviour.\n"
	draftClean = "## premise: what this patch assumes\n\nNo assumptions were proposed.\n\n0 boundary rows ran against base and head; 0 changed behaviour.\n"
)

// TestPostGitHub: the first run creates one comment, the next push edits
// it in place, a push that changes nothing posts nothing, a clean run
// after the fix strikes the items through, and no run posts a second
// comment; a PR with nothing to say gets no comment at all.
func TestPostGitHub(t *testing.T) {
	f := &fakeGitHub{comments: map[int][]map[string]any{}}
	srv := httptest.NewServer(f.handler(t))
	defer srv.Close()
	post := func(pr int, draft string) *Result {
		t.Helper()
		res, err := Post(context.Background(), Config{Draft: []byte(draft), Host: GitHub, API: srv.URL + "/api/v3", Repo: "acme/shop", PR: pr, Token: "ghs_secret"})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	body := func(pr int) string { return f.comments[pr][0]["body"].(string) }

	steps := []struct {
		draft          string
		action         string
		items, struck  int
		creates, edits int
		reason         string
	}{
		{draftTwo, ActionCreated, 2, 0, 1, 0, "the first run"},
		{draftTwo, ActionUnchanged, 2, 0, 1, 0, "a push that changes nothing premise says"},
		{draftOne, ActionUpdated, 1, 1, 1, 1, "A001 on clamp stopped firing; scale's row was renumbered, which is no change"},
		{draftClean, ActionUpdated, 0, 2, 1, 2, "the fix: both struck through, none deleted"},
		{draftClean, ActionUnchanged, 0, 2, 1, 2, "clean again"},
		{draftTwo, ActionUpdated, 2, 0, 1, 3, "both fire again: no longer struck"},
	}
	for i, s := range steps {
		res := post(7, s.draft)
		if res.Action != s.action || res.Items != s.items || res.Struck != s.struck || f.creates != s.creates || f.edits != s.edits {
			t.Fatalf("step %d (%s): %s with %d items, %d struck; %d creates, %d edits; want %s, %d, %d; %d, %d",
				i+1, s.reason, res.Action, res.Items, res.Struck, f.creates, f.edits, s.action, s.items, s.struck, s.creates, s.edits)
		}
		if n := len(f.comments[7]); n != 1 {
			t.Fatalf("step %d: the PR holds %d comments, want 1", i+1, n)
		}
		if i == 3 {
			b := body(7)
			for _, want := range []string{"- ~~`calc.clamp`: x is below hi~~", "- ~~`calc.scale`: k is positive~~", "No assumptions were proposed."} {
				if !strings.Contains(b, want) {
					t.Errorf("step 4: the comment lacks %q:\n%s", want, b)
				}
			}
		}
	}
	if !strings.HasPrefix(body(7), "<!-- premise:comment v1 ") || strings.Contains(body(7), "~~") {
		t.Errorf("final body:\n%s", body(7))
	}
	if res := post(8, draftClean); res.Action != ActionNone || len(f.comments[8]) != 0 {
		t.Errorf("a PR with nothing to say: %s, %d comments; want none posted", res.Action, len(f.comments[8]))
	}
	for _, a := range f.auth {
		if a != "Bearer ghs_secret" {
			t.Errorf("Authorization %q", a)
		}
	}
}

// TestPostGitLab: the same cycle on merge-request notes.
func TestPostGitLab(t *testing.T) {
	var mu sync.Mutex
	var notes []glNote
	posts, puts := 0, 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.Header.Get("PRIVATE-TOKEN") != "glpat-x" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		const base = "/api/v4/projects/group%2Fshop/merge_requests/3/notes"
		var in glNote
		json.NewDecoder(r.Body).Decode(&in)
		switch {
		case r.Method == http.MethodGet && r.URL.EscapedPath() == base:
			json.NewEncoder(w).Encode(append([]glNote{}, notes...))
		case r.Method == http.MethodPost && r.URL.EscapedPath() == base:
			posts++
			notes = append(notes, glNote{ID: int64(100 + len(notes)), Body: in.Body})
			json.NewEncoder(w).Encode(notes[len(notes)-1])
		case r.Method == http.MethodPut && strings.HasPrefix(r.URL.EscapedPath(), base+"/"):
			puts++
			id, _ := strconv.ParseInt(strings.TrimPrefix(r.URL.EscapedPath(), base+"/"), 10, 64)
			for i := range notes {
				if notes[i].ID == id {
					notes[i].Body = in.Body
					json.NewEncoder(w).Encode(notes[i])
					return
				}
			}
			http.NotFound(w, r)
		default:
			t.Errorf("fake GitLab: unexpected %s %s", r.Method, r.URL.EscapedPath())
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	for i, draft := range []string{draftTwo, draftOne, draftClean} {
		res, err := Post(context.Background(), Config{Draft: []byte(draft), Host: GitLab, API: srv.URL + "/api/v4", Repo: "group/shop", PR: 3, Token: "glpat-x"})
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{ActionCreated, ActionUpdated, ActionUpdated}[i]; res.Action != want {
			t.Errorf("run %d: %s, want %s", i+1, res.Action, want)
		}
	}
	if posts != 1 || puts != 2 || len(notes) != 1 || strings.Count(notes[0].Body, "~~")/2 != 2 {
		t.Errorf("%d posts, %d edits, %d notes; want one note edited twice with two items struck:\n%v", posts, puts, len(notes), notes)
	}
}
