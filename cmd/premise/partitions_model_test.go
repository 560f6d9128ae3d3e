package main

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// acceptedDiscount is discountRepo with a register whose one assumption,
// "codes arrive upper-case", a reviewer accepted: no template can build
// rows for an untyped parameter named code.
func acceptedDiscount(t *testing.T) string {
	t.Helper()
	repo := discountRepo(t)
	for _, args := range [][]string{
		{"propose", "--repo", repo, "--base", "main", "--model", "static", "--quiet"},
		{"assume", "--repo", repo, "shop.discount", "--precondition", "codes arrive upper-case", "--evidence", "return table.get(code, 0)", "--note", "the shop upper-cases them"},
	} {
		if code, out, errOut := runPremise(t, args...); code != 0 {
			t.Fatalf("premise %s: exit %d\n%s\n%s", args[0], code, out, errOut)
		}
	}
	return repo
}

// rowsModel answers the rows prompt with reply (or status), counting the
// requests and keeping what they said.
func rowsModel(t *testing.T, status int, reply string) (*httptest.Server, *atomic.Int32, *strings.Builder) {
	return chatModel(t, "Accepted assumptions:", status, reply, "")
}

type partitionsRun struct {
	Added []struct {
		ID, Cls, Kind, From, Todo string
	} `json:"added"`
	Dropped []struct {
		Target, Input, Reason string
	} `json:"dropped"`
	Notes []string `json:"notes"`
}

// TestPartitionsModelRows: with a model configured, premise partitions
// asks it for rows of each target, given the function's source and the
// template rows; it keeps a row only if it is well formed, cites the
// target's accepted assumptions, carries values only and holds on the
// merge-base, and reports every other row with its reason.
func TestPartitionsModelRows(t *testing.T) {
	t.Parallel()
	repo := acceptedDiscount(t)
	reply := `{"rows": [
	 {"assumption_ids": ["A001"], "cls": "lower_case", "kind": "boundary", "args": ["summer"], "relation": "a lower-case code is discounted as before", "same_as_base": true},
	 {"assumption_ids": ["A001"], "cls": "mixed_case", "kind": "boundary", "args": ["Winter"], "relation": "a mixed-case code gets the winter discount", "contract": "result == 15"},
	 {"assumption_ids": ["A001"], "cls": "wrong_contract", "kind": "boundary", "args": ["SUMMER"], "relation": "the summer code gets ninety-nine", "contract": "result == 99"},
	 {"assumption_ids": ["A009"], "cls": "other", "kind": "boundary", "args": ["x"], "relation": "an assumption nobody accepted", "same_as_base": true},
	 {"assumption_ids": ["A001"], "cls": "code", "kind": "boundary", "args": [{"$expr": "__import__('os').getcwd()"}], "relation": "an argument that is code", "same_as_base": true},
	 {"assumption_ids": ["A001"], "cls": "unchecked", "kind": "boundary", "args": ["fall"], "relation": "a row that checks nothing at all"},
	 {"assumption_ids": ["A001"], "cls": "two_args", "kind": "boundary", "args": ["fall", 2], "relation": "more arguments than the function takes", "same_as_base": true},
	 {"assumption_ids": ["A001"], "cls": "bad_cel", "kind": "boundary", "args": ["fall"], "relation": "a contract that is not CEL", "contract": "result ==="}
	]}`
	srv, asked, seen := rowsModel(t, 200, reply)
	code, out, errOut := runPremise(t, "partitions", "--repo", repo, "--endpoint", srv.URL+"/v1", "--model", "m", "--no-cache", "--json")
	var rep partitionsRun
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 {
		t.Fatalf("exit %d: %v\n%s\n%s", code, err, out, errOut)
	}
	if asked.Load() != 1 || !strings.Contains(seen.String(), "A001: codes arrive upper-case") || !strings.Contains(seen.String(), "table.get(code, 0)") {
		t.Errorf("%d rows requests; the request must name the assumption and show the source:\n%s", asked.Load(), seen.String())
	}
	var model []string
	for _, a := range rep.Added {
		if a.From == "model" {
			model = append(model, a.Cls)
		}
	}
	if strings.Join(model, ",") != "lower_case,mixed_case" {
		t.Errorf("model rows kept %v, want lower_case and mixed_case; added %+v", model, rep.Added)
	}
	want := map[string]string{
		"discount('SUMMER')":  "does not hold on the base",
		"discount('x')":       "A009, which is not an accepted assumption",
		"discount('fall')":    "neither a contract nor same_as_base",
		"discount('fall', 2)": "2 positional arguments; the function takes 1",
	}
	got := map[string]string{}
	for _, d := range rep.Dropped {
		got[d.Input] += d.Reason + " | "
	}
	for in, reason := range want {
		if !strings.Contains(got[in], reason) {
			t.Errorf("dropped %s: %q, want a reason saying %q", in, got[in], reason)
		}
	}
	if len(rep.Dropped) != 6 || !strings.Contains(fmt.Sprint(rep.Dropped), "row protocol reads as code") || !strings.Contains(fmt.Sprint(rep.Dropped), "contract") {
		t.Errorf("dropped %+v, want six: the wrong contract, A009, the $expr argument, the unchecked row, two arguments, the bad CEL", rep.Dropped)
	}
	table, err := os.ReadFile(filepath.Join(repo, "partitions.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"$expr", "result == 99", "A009"} {
		if strings.Contains(string(table), bad) {
			t.Errorf("the table holds a dropped row (%s):\n%s", bad, table)
		}
	}
	// The kept rows gate the head: discount('Winter') returns 0 there.
	code, out, _ = runPremise(t, "gate", "--repo", repo, "--base", "main", "--partitions", filepath.Join(repo, "partitions.yaml"))
	if code != 1 || !strings.Contains(out, "contract result == 15 does not hold") || strings.Contains(out, "todo") {
		t.Errorf("gate exit %d, want 1 with the Winter row failing its contract and no todo row left:\n%s", code, out)
	}
}

// TestPartitionsModelFails: an endpoint that fails leaves a note and the
// template rows, and premise partitions still writes the table.
func TestPartitionsModelFails(t *testing.T) {
	t.Parallel()
	repo := acceptedDiscount(t)
	srv, asked, _ := rowsModel(t, 500, "")
	code, out, errOut := runPremise(t, "partitions", "--repo", repo, "--endpoint", srv.URL+"/v1", "--model", "m", "--no-cache", "--max-attempts", "1", "--json")
	var rep partitionsRun
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 {
		t.Fatalf("exit %d: %v\n%s\n%s", code, err, out, errOut)
	}
	if asked.Load() != 1 || len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], "no model rows for shop.discount") || !strings.Contains(rep.Notes[0], "500") {
		t.Errorf("%d requests, notes %q: want one naming the target and the failure", asked.Load(), rep.Notes)
	}
	if len(rep.Added) != 1 || rep.Added[0].From != "template" || rep.Added[0].Todo == "" {
		t.Errorf("added %+v, want the one template todo row", rep.Added)
	}
}

// TestPartitionsModelNeedsMergeBase: a register that names no merge-base
// cannot have model rows checked on the base, so asking for a model is
// refused rather than keeping rows nothing checked.
func TestPartitionsModelNeedsMergeBase(t *testing.T) {
	dir := t.TempDir()
	reg := "version: 1\nitems:\n  - id: A001\n    symbol: shop.discount\n    precondition: codes arrive upper-case\n    evidence: return table.get(code, 0)\n    status: accepted\n    file: shop.py\n    line: 1\n"
	if err := os.WriteFile(filepath.Join(dir, "assumptions.yaml"), []byte(reg), 0o644); err != nil {
		t.Fatal(err)
	}
	srv, asked, _ := rowsModel(t, 200, `{"rows": []}`)
	code, out, errOut := runPremise(t, "partitions", "--repo", dir, "--endpoint", srv.URL+"/v1", "--model", "m", "--no-cache")
	if code != 3 || !strings.Contains(out+errOut, "names no merge-base") || asked.Load() != 0 {
		t.Errorf("exit %d, %d requests:\n%s\n%s\nwant exit 3 saying the register names no merge-base, and no request", code, asked.Load(), out, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "partitions.yaml")); err == nil {
		t.Errorf("a table was written")
	}
	// A model the environment names is not asked either, and the report
	// says why.
	t.Setenv("PREMISE_MODEL", "m")
	t.Setenv("PREMISE_ENDPOINT", srv.URL+"/v1")
	code, out, errOut = runPremise(t, "partitions", "--repo", dir, "--no-cache", "--json")
	var rep partitionsRun
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 {
		t.Fatalf("exit %d: %v\n%s\n%s", code, err, out, errOut)
	}
	if asked.Load() != 0 || len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], "no model rows") {
		t.Errorf("%d requests, notes %q: want none, and a note saying no model rows were asked for", asked.Load(), rep.Notes)
	}
}

// TestPartitionsModelRowsGo: a Go target's model row whose argument does
// not decode into its parameter's type is the harness refusing it on the
// base, not the code raising: it is dropped, and the row that holds is
// kept.
func TestPartitionsModelRowsGo(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: builds a Go harness on the base; CI and go test ./... run it")
	}
	dir := t.TempDir()
	git := gitIn(t, dir)
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q", "-b", "main")
	write("go.mod", "module example.com/shop\n\ngo 1.21\n")
	write("shop.go", "package shop\n\nimport \"strings\"\n\nfunc Discount(code string) int {\n\treturn map[string]int{\"SUMMER\": 10}[strings.ToUpper(code)]\n}\n")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	git("checkout", "-q", "-b", "agent")
	write("shop.go", "package shop\n\nfunc Discount(code string) int {\n\treturn map[string]int{\"SUMMER\": 10}[code]\n}\n")
	git("commit", "-q", "-am", "shop: no upper")
	for _, args := range [][]string{
		{"propose", "--repo", dir, "--base", "main", "--model", "static", "--quiet"},
		{"assume", "--repo", dir, "example.com/shop.Discount", "--precondition", "codes arrive upper-case", "--evidence", "[code]", "--note", "ok"},
	} {
		if code, out, errOut := runPremise(t, args...); code != 0 {
			t.Fatalf("premise %s: exit %d\n%s\n%s", args[0], code, out, errOut)
		}
	}
	srv, _, _ := rowsModel(t, 200, `{"rows": [
	 {"assumption_ids": ["A001"], "cls": "number", "kind": "boundary", "args": [12], "relation": "a number where a string goes", "same_as_base": true},
	 {"assumption_ids": ["A001"], "cls": "lower", "kind": "boundary", "args": ["summer"], "relation": "a lower-case code is discounted", "contract": "result == 10"}
	]}`)
	code, out, errOut := runPremise(t, "partitions", "--repo", dir, "--endpoint", srv.URL+"/v1", "--model", "m", "--no-cache", "--json")
	var rep partitionsRun
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 {
		t.Fatalf("exit %d: %v\n%s\n%s", code, err, out, errOut)
	}
	if len(rep.Dropped) != 1 || rep.Dropped[0].Input != "Discount(12)" || !strings.Contains(rep.Dropped[0].Reason, "does not decode into string") {
		t.Errorf("dropped %+v, want Discount(12), which the harness cannot decode", rep.Dropped)
	}
	kept := 0
	for _, a := range rep.Added {
		if a.From == "model" && a.Cls == "lower" {
			kept++
		}
	}
	if kept != 1 {
		t.Errorf("added %+v, want the lower row from the model", rep.Added)
	}
}
