package jsonvalue

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNumbers: 37 stays an int and 2.5 a float, inside lists and objects,
// so a row calls area(37, 37), not area(37.0, 37.0).
func TestNumbers(t *testing.T) {
	dec := json.NewDecoder(strings.NewReader(`[37, 2.5, 1e3, {"n": [-4]}, "7", 9223372036854775808]`))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	want := []any{37, 2.5, 1000.0, map[string]any{"n": []any{-4}}, "7", 9223372036854775808.0}
	if diff := cmp.Diff(want, Numbers(v)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestProtocolKey: a "$" key anywhere in a value marks it, so a model's
// {"$expr": "..."} cannot ride inside a list or an object; "$" inside a
// string value is text.
func TestProtocolKey(t *testing.T) {
	for _, v := range []any{map[string]any{"$expr": "1"}, []any{1, []any{map[string]any{"a": map[string]any{"$new": "X"}}}}} {
		if !ProtocolKey(v) {
			t.Errorf("ProtocolKey(%v) = false", v)
		}
	}
	for _, v := range []any{nil, "$expr", []any{"$1", 2}, map[string]any{"price": "$5"}} {
		if ProtocolKey(v) {
			t.Errorf("ProtocolKey(%v) = true", v)
		}
	}
}

// TestEmptyLists: a report with nothing in it encodes its lists as [] and
// its maps as {}, never null (the README's promise for every --json), in
// nested structs, behind pointers and in lists of structs; fields the
// encoder skips and nil pointers stay as they are.
func TestEmptyLists(t *testing.T) {
	type inner struct {
		Names []string       `json:"names"`
		Skip  []string       `json:"-"`
		Opt   []string       `json:"opt,omitempty"`
		M     map[string]int `json:"m"`
	}
	type outer struct {
		List  []inner  `json:"list"`
		In    inner    `json:"in"`
		Ptr   *inner   `json:"ptr"`
		Nil   *inner   `json:"nil"`
		Any   any      `json:"any"`
		Bytes []byte   `json:"bytes"`
		Ints  [][]int  `json:"ints"`
		Strs  []string `json:"strs"`
	}
	v := outer{List: []inner{{}}, Ptr: &inner{}, Any: inner{}, Ints: [][]int{nil}, Strs: []string{"a"}}
	b, err := json.Marshal(EmptyLists(v))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"list":[{"names":[],"m":{}}],"in":{"names":[],"m":{}},"ptr":{"names":[],"m":{}},"nil":null,` +
		`"any":{"names":[],"m":{}},"bytes":null,"ints":[[]],"strs":["a"]}`
	if got := string(b); got != want {
		t.Errorf("EmptyLists:\n got %s\nwant %s", got, want)
	}
	if v.In.Names != nil {
		t.Errorf("EmptyLists changed the value it was handed, not a copy")
	}
}
