package propose

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParseInputs: the model's calls are JSON values only; a fenced reply
// or a bare list reads too, an entry without args or with a key of the row
// protocol ($expr would be code) is dropped and counted, and no more than
// asked for are kept.
func TestParseInputs(t *testing.T) {
	reply := "```json\n" + `{"inputs": [
		{"args": [[3, 1], 2.5], "kwargs": {"limit": 2}},
		{"args": ["a--b"]},
		{"kwargs": {"x": 1}},
		{"args": [{"$expr": "__import__('os')"}]},
		{"args": []},
		{"args": [4]}
	]}` + "\n```"
	got, dropped, err := parseInputs(reply, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := []InputCall{{Args: []any{[]any{3, 1}, 2.5}, Kwargs: map[string]any{"limit": 2}}, {Args: []any{"a--b"}}, {Args: []any{}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if dropped != 3 {
		t.Errorf("dropped %d, want 3: no args, a protocol key, one past the limit", dropped)
	}
	if got, _, err := parseInputs(`[{"args": [1]}]`, 5); err != nil || len(got) != 1 {
		t.Errorf("a bare list: %v, %v", got, err)
	}
	for _, bad := range []string{"", "no json here", `{"items": []}`, `{"inputs": `} {
		if _, _, err := parseInputs(bad, 5); err == nil {
			t.Errorf("parseInputs(%q) took it", bad)
		}
	}
}
