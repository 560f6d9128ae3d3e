package gate

import (
	"context"
	"encoding/json"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

const goMethodSubject = `package ver

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Greet writes to w: what it wrote is the outcome.
func Greet(w io.Writer, name string) error {
	if name == "" {
		return errors.New("no name")
	}
	fmt.Fprintf(w, "hi %s", name)
	return nil
}

// Lines counts the lines r holds.
func Lines(r io.Reader) int {
	n := 0
	for s := bufio.NewScanner(r); s.Scan(); n++ {
	}
	return n
}

// Scanned counts the lines s scans.
func Scanned(s *bufio.Scanner) int {
	n := 0
	for ; s.Scan(); n++ {
	}
	return n
}

// Peeked is the first byte r holds.
func Peeked(r *bufio.Reader) string {
	b, err := r.Peek(1)
	return string(b) + fmt.Sprint(err)
}

type Version struct{ major, minor int }

func Parse(s string) (*Version, error) {
	a, b, ok := strings.Cut(s, ".")
	if !ok {
		return nil, errors.New("want MAJOR.MINOR")
	}
	x, err := strconv.Atoi(a)
	if err != nil {
		return nil, err
	}
	y, err := strconv.Atoi(b)
	if err != nil {
		return nil, err
	}
	return &Version{x, y}, nil
}

func (v Version) Less(w *Version) bool { return v.major < w.major || v.major == w.major && v.minor < w.minor }
func (v *Version) bump()               { v.minor++ }
func (v *Version) Bumped() string      { v.bump(); return strconv.Itoa(v.major) + "." + strconv.Itoa(v.minor) }

type Point struct{ X, Y int }

func (p Point) Sum() int { return p.X + p.Y }

type counter struct{ n int }

func (c *counter) add(k int) int { c.n += k; return c.n }

func newCounter(n int) *counter { return &counter{n} }

// Semver reads itself from "MAJOR.MINOR" text; evidence builds it from
// its fields.
type Semver struct{ Major, Minor int }

func (s *Semver) UnmarshalJSON(b []byte) error {
	v, err := Parse(strings.Trim(string(b), "\""))
	if err != nil {
		return err
	}
	s.Major, s.Minor = v.major, v.minor
	return nil
}

func (s *Semver) Major0() bool { return s.Major == 0 }

func Max[T cmp.Ordered](xs []T) T {
	var m T
	for i, x := range xs {
		if i == 0 || x > m {
			m = x
		}
	}
	return m
}

// Describe says what dynamic type v has, as a function switching on its
// argument's type does.
func Describe(v any) string { return fmt.Sprintf("%T %v", v, v) }
`

// TestGoHarnessMethodsAndGenerics: a method is called through its method
// expression with the receiver first, the receiver decoded from JSON
// fields or built by a constructor call ($new); an unexported method of an
// unexported type is reached in a private copy; a generic function runs
// instantiated; a target the compiler refuses (an instantiation outside the
// constraint) is left out with the compiler's reason while the rest build.
func TestGoHarnessMethodsAndGenerics(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, body := range map[string]string{"go.mod": "module example.com/ver\n\ngo 1.21\n", "ver.go": goMethodSubject} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const p = "example.com/ver."
	targets := []string{p + "Parse", p + "(*Version).Less", p + "(*Version).Bumped", p + "(*Point).Sum",
		p + "(*counter).add", p + "newCounter", p + "(*Semver).Major0", p + "Greet", p + "Lines", p + "Scanned", p + "Peeked", p + "Describe", p + "Max[int]", p + "Max[string]", p + "Max[[]int]", p + "&Point", p + "&counter"}
	a := privateGoAdapter(t, dir, targets)
	v := func(s string) any { return map[string]any{"$new": p + "Parse", "$args": []any{s}} }
	tests := []struct {
		target string
		args   []any
		want   Reply
	}{
		{"(*Version).Less", []any{v("1.2"), v("1.10")}, Reply{Outcome: OutcomeReturned, Value: true}},
		{"(*Version).Less", []any{v("2.0"), v("1.10")}, Reply{Outcome: OutcomeReturned, Value: false}},
		{"(*Version).Bumped", []any{v("1.9")}, Reply{Outcome: OutcomeReturned, Value: "1.10"}},
		{"(*Version).Less", []any{v("x"), v("1.0")}, Reply{Outcome: OutcomeRaised, Refused: true, Exc: &Exc{Class: "premise.ConstructorError", Message: "example.com/ver.Parse: want MAJOR.MINOR"}}},
		{"(*Point).Sum", []any{map[string]any{"X": 2, "Y": 3}}, Reply{Outcome: OutcomeReturned, Value: num("5")}},
		{"(*counter).add", []any{map[string]any{"$new": p + "newCounter", "$args": []any{40}}, 2}, Reply{Outcome: OutcomeReturned, Value: num("42")}},
		{"(*Semver).Major0", []any{map[string]any{"Major": 0, "Minor": 3}}, Reply{Outcome: OutcomeReturned, Value: true}},
		{"(*Semver).Major0", []any{"1.2"}, Reply{Outcome: OutcomeReturned, Value: false}},
		{"Greet", []any{map[string]any{"$writer": true}, "bob"}, Reply{Outcome: OutcomeReturned, Value: map[string]any{"returned": nil, "written": []any{"hi bob"}}}},
		{"Lines", []any{map[string]any{"$reader": "a\nb\n"}}, Reply{Outcome: OutcomeReturned, Value: num("2")}},
		// A line scanner and a buffered reader wrap the reader of the
		// same text.
		{"Scanned", []any{map[string]any{"$reader": "a\nb\nc"}}, Reply{Outcome: OutcomeReturned, Value: num("3")}},
		{"Peeked", []any{map[string]any{"$reader": "", "$bytes": "QQ=="}}, Reply{Outcome: OutcomeReturned, Value: "A<nil>"}},
		{"Peeked", []any{map[string]any{"$reader": "b"}}, Reply{Outcome: OutcomeReturned, Value: "b<nil>"}},
		// An interface parameter gets Go's basic types by name: JSON
		// alone would give it a float64.
		{"Describe", []any{8}, Reply{Outcome: OutcomeReturned, Value: "float64 8"}},
		{"Describe", []any{map[string]any{"$go": "int", "value": 8}}, Reply{Outcome: OutcomeReturned, Value: "int 8"}},
		{"Describe", []any{map[string]any{"$go": "uint64", "value": "18446744073709551615"}}, Reply{Outcome: OutcomeReturned, Value: "uint64 18446744073709551615"}},
		{"Describe", []any{map[string]any{"$go": "int8", "value": -128}}, Reply{Outcome: OutcomeReturned, Value: "int8 -128"}},
		{"Describe", []any{map[string]any{"$go": "[]byte", "value": "ab"}}, Reply{Outcome: OutcomeReturned, Value: "[]uint8 [97 98]"}},
		// A zone, with no zone database: UTC or a fixed offset.
		{"Describe", []any{map[string]any{"$go": "*time.Location", "value": "+05:30"}}, Reply{Outcome: OutcomeReturned, Value: "*time.Location +05:30"}},
		// The address of a variable a decoder fills: a map for an
		// object or nothing, a list for a list.
		{"Describe", []any{map[string]any{"$go": "*any", "value": nil}}, Reply{Outcome: OutcomeReturned, Value: "*map[string]interface {} &map[]"}},
		{"Describe", []any{map[string]any{"$go": "*any", "value": map[string]any{"a": 1}}}, Reply{Outcome: OutcomeReturned, Value: "*map[string]interface {} &map[a:1]"}},
		{"Describe", []any{map[string]any{"$go": "*any", "value": []any{"x"}}}, Reply{Outcome: OutcomeReturned, Value: "*[]interface {} &[x]"}},
		{"Describe", []any{map[string]any{"$go": "*time.Location", "value": "Mars/Olympus"}}, Reply{Outcome: OutcomeRaised, Refused: true, Exc: &Exc{Class: "premise.DecodeError", Message: `argument 1: no zone "Mars/Olympus": UTC or an offset such as +05:30`}}},
		{"Describe", []any{map[string]any{"$go": "int8", "value": 300}}, Reply{Outcome: OutcomeRaised, Refused: true, Exc: &Exc{Class: "premise.DecodeError", Message: "argument 1: json: cannot unmarshal number 300 into Go value of type int8"}}},
		{"Greet", []any{map[string]any{"$go": "int", "value": 1}, "bob"}, Reply{Outcome: OutcomeRaised, Refused: true, Exc: &Exc{Class: "premise.DecodeError", Message: "argument 1: a int is not a io.Writer"}}},
		// A struct of the package built from its fields, for a
		// parameter of an interface it implements (IMPORTPATH.&Type);
		// an unexported one through an alias in the private copy.
		{"Describe", []any{map[string]any{"$new": p + "&Point", "$args": []any{map[string]any{"X": 2, "Y": 3}}}}, Reply{Outcome: OutcomeReturned, Value: "*ver.Point &{2 3}"}},
		{"Describe", []any{map[string]any{"$new": p + "&counter", "$args": []any{map[string]any{}}}}, Reply{Outcome: OutcomeReturned, Value: "*ver.counter &{0}"}},
		{"Max[int]", []any{[]any{3, 9, 2}}, Reply{Outcome: OutcomeReturned, Value: num("9")}},
		{"Max[string]", []any{[]any{"b", "c", "a"}}, Reply{Outcome: OutcomeReturned, Value: "c"}},
	}
	for _, tc := range tests {
		t.Run(tc.target, func(t *testing.T) {
			got, err := a.Call(context.Background(), Call{ID: "x", Target: p + tc.target, Args: tc.args})
			if err != nil {
				t.Fatal(err)
			}
			got.ID, got.Elapsed = "", 0
			if got.Outcome != OutcomeRaised {
				got.Detail = ""
			}
			if diff := replyDiff(t, tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	_, err := a.Call(context.Background(), Call{ID: "x", Target: p + "Max[[]int]", Args: []any{[]any{}}})
	if err == nil || !strings.Contains(err.Error(), "could not be compiled") || !strings.Contains(err.Error(), "does not satisfy") {
		t.Errorf("a refused instantiation: %v, want an error giving the compiler's reason", err)
	}
}

func TestSplitGoTarget(t *testing.T) {
	for _, tc := range []struct{ in, pkg, recv, name, inst string }{
		{"example.com/a.F", "example.com/a", "", "F", ""},
		{"gopkg.in/yaml.v3.Marshal", "gopkg.in/yaml.v3", "", "Marshal", ""},
		{"example.com/a.(*T).M", "example.com/a", "T", "M", ""},
		{"gopkg.in/yaml.v3.(*Node).Decode", "gopkg.in/yaml.v3", "Node", "Decode", ""},
		{"example.com/lo.Map[int,string]", "example.com/lo", "", "Map", "int,string"},
		{"./sub.F", "example.com/m/sub", "", "F", ""},
		// Issue 25: the form premise diff prints a method in.
		{"example.com/m.Version.Less", "example.com/m", "Version", "Less", ""},
		{"example.com/m/sub.counter.add", "example.com/m/sub", "counter", "add", ""},
		{"./sub.T.M", "example.com/m/sub", "T", "M", ""},
		{"gopkg.in/yaml.v3.Node.Decode", "gopkg.in/yaml.v3", "Node", "Decode", ""},
		// A method of a generic type, the type instantiated.
		{"example.com/q.(*Queue[int]).Back", "example.com/q", "Queue", "Back", "int"},
		{"example.com/q.(*pair[string,int]).swap", "example.com/q", "pair", "swap", "string,int"},
		// A struct built from its fields.
		{"example.com/m/object.&Integer", "example.com/m/object", "", "Integer", ""},
	} {
		gt, err := splitGoTarget(tc.in, "example.com/m")
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if gt.pkg != tc.pkg || gt.recv != tc.recv || gt.name != tc.name || gt.inst != tc.inst {
			t.Errorf("%s = %+v", tc.in, gt)
		}
	}
	for _, bad := range []string{"F", "example.com/a.", "example.com/a.(*T.M", "example.com/a.F[", "example.com/a.(*T).M[int]", "example.com/a.(*T[]).M", "example.com/a.(*T]).M", "example.com/a.(*]).M"} {
		if _, err := splitGoTarget(bad, "m"); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}

// TestGoHarnessWithoutModule: code from before Go modules (no go.mod) is
// made a module in premise's private copy and reached by directory; the
// caller's own tree is never given one.
func TestGoHarnessWithoutModule(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "old.go"), []byte("package old\n\nfunc Double(n int) int { return 2 * n }\n\nfunc (p *pair) sum() int { return p.a + p.b }\n\ntype pair struct{ a, b int }\n\nfunc newPair(a, b int) *pair { return &pair{a, b} }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := NewGoAdapter(context.Background(), GoConfig{Dir: dir, Targets: []string{"..Double"}}); err == nil {
		t.Fatal("a tree without go.mod, not private: built a harness")
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
		t.Fatal("wrote a go.mod into a tree that is not premise's own")
	}
	a, err := NewGoAdapter(context.Background(), GoConfig{Dir: dir, Targets: []string{"..Double", "..(*pair).sum", "..newPair"}, Timeout: 5 * time.Second, Private: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	for _, c := range []struct {
		target string
		args   []any
		want   string
	}{
		{"..Double", []any{21}, "42"},
		{"..(*pair).sum", []any{map[string]any{"$new": "..newPair", "$args": []any{2, 3}}}, "5"},
	} {
		r, err := a.Call(context.Background(), Call{ID: "x", Target: c.target, Args: c.args})
		if err != nil || r.Outcome != OutcomeReturned || fmt.Sprint(r.Value) != c.want {
			t.Errorf("%s: %+v, %v; want %s", c.target, r, err, c.want)
		}
	}
}

// TestGoHarnessUnknownPackage: a target in a package the module cannot
// provide is left out with the compiler's reason; the others still run.
func TestGoHarnessUnknownPackage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, body := range map[string]string{"go.mod": "module example.com/m\n\ngo 1.21\n", "m.go": "package m\n\nfunc Double(n int) int { return 2 * n }\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a, err := NewGoAdapter(context.Background(), GoConfig{Dir: dir, Targets: []string{"example.com/m.Double", "example.com/m/nowhere.F"}, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if r, err := a.Call(context.Background(), Call{ID: "x", Target: "example.com/m.Double", Args: []any{4}}); err != nil || fmt.Sprint(r.Value) != "8" {
		t.Errorf("Double(4) = %+v, %v", r, err)
	}
	if _, err := a.Call(context.Background(), Call{ID: "y", Target: "example.com/m/nowhere.F"}); err == nil || !strings.Contains(err.Error(), "could not be compiled") {
		t.Errorf("the target in no package: %v, want the compiler's reason", err)
	}
}

const goVarsSubject = `package cut

// Max and smart are the package's settings.
var (
	Max   = 3
	smart bool
)

// Cut keeps the first Max bytes of s unless smart; a Max beyond s panics.
func Cut(s string) string {
	if smart {
		return s
	}
	return s[:Max]
}
`

// TestGoHarnessSetsVars: a call's kwargs set package variables (an
// unexported one through the alias of the private copy) for that call
// alone; the next call sees the declared values again, after a panic too;
// a value the variable's type refuses is a DecodeError, an unknown
// variable an error.
func TestGoHarnessSetsVars(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, body := range map[string]string{"go.mod": "module example.com/cut\n\ngo 1.21\n", "cut.go": goVarsSubject} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const p = "example.com/cut."
	a, err := NewGoAdapter(context.Background(), GoConfig{Dir: dir, Targets: []string{p + "Cut"}, Vars: []string{p + "Max", p + "smart"}, Timeout: 5 * time.Second, Private: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	tests := []struct {
		name   string
		kwargs map[string]any
		want   Reply
	}{
		{"declared values", nil, Reply{Outcome: OutcomeReturned, Value: "abc"}},
		{"Max set", map[string]any{p + "Max": 2}, Reply{Outcome: OutcomeReturned, Value: "ab"}},
		{"set back after the call", nil, Reply{Outcome: OutcomeReturned, Value: "abc"}},
		{"Max beyond the text panics", map[string]any{p + "Max": 10}, Reply{Outcome: OutcomeRaised, Exc: &Exc{Class: "panic", Message: "runtime error: slice bounds out of range [:10] with length 5"}}},
		{"set back after a panic", nil, Reply{Outcome: OutcomeReturned, Value: "abc"}},
		{"an unexported setting", map[string]any{p + "smart": true, p + "Max": 10}, Reply{Outcome: OutcomeReturned, Value: "abcde"}},
		{"both set back", nil, Reply{Outcome: OutcomeReturned, Value: "abc"}},
		{"a value the type refuses", map[string]any{p + "Max": "ten"}, Reply{Outcome: OutcomeRaised, Refused: true, Exc: &Exc{Class: "premise.DecodeError", Message: "variable example.com/cut.Max does not decode into int: json: cannot unmarshal string into Go value of type int"}}},
		{"an unknown variable", map[string]any{p + "Min": 1}, Reply{Outcome: "error"}},
		{"still the declared values", nil, Reply{Outcome: OutcomeReturned, Value: "abc"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := a.Call(context.Background(), Call{ID: "x", Target: p + "Cut", Args: []any{"abcde"}, Kwargs: tc.kwargs})
			if err != nil && tc.want.Outcome != "error" {
				t.Fatal(err)
			}
			if tc.want.Outcome == "error" {
				if err == nil && got.Outcome != "error" {
					t.Errorf("an unknown variable: %+v, want an error", got)
				}
				return
			}
			got.ID, got.Elapsed, got.Detail = "", 0, ""
			if diff := replyDiff(t, tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestGoHarnessBuildsHTTPValues: a handler's parameters, a request and a
// response writer, are built from a row ({"$go": "*http.Request"} with
// its method, target, body and headers; {"$go": "http.ResponseWriter"}, a
// recorder), and what the handler wrote (status, headers, body) is part
// of its outcome.
func TestGoHarnessBuildsHTTPValues(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := `package web

import (
	"fmt"
	"io"
	"net/http"
)

// Allow answers GET and refuses the rest.
func Allow(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", "GET")
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	body, _ := io.ReadAll(r.Body)
	fmt.Fprintf(w, "%s %s %q %s", r.Method, r.URL.Path, body, r.Header.Get("X-Fruit"))
}

// Host is the request's host.
func Host(r *http.Request) string { return r.Host }
`
	for name, body := range map[string]string{"go.mod": "module example.com/web\n\ngo 1.21\n", "web.go": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const p = "example.com/web."
	a, err := NewGoAdapter(context.Background(), GoConfig{Dir: dir, Targets: []string{p + "Allow", p + "Host"}, Timeout: 5 * time.Second, Private: true, HTTP: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	w := map[string]any{"$go": "http.ResponseWriter", "value": nil}
	req := func(method, target, body string, header map[string]any) any {
		return map[string]any{"$go": "*http.Request", "value": map[string]any{"method": method, "target": target, "body": body, "header": header}}
	}
	tests := []struct {
		name, target string
		args         []any
		want         Reply
	}{
		{"a GET", "Allow", []any{w, req("GET", "/a/b", "x", map[string]any{"X-Fruit": "fig"})},
			Reply{Outcome: OutcomeReturned, Value: map[string]any{"returned": nil, "written": []any{`status 200; Content-Type: text/plain; charset=utf-8; GET /a/b "x" fig`}}}},
		{"a POST refused", "Allow", []any{w, req("POST", "/a", "", nil)},
			Reply{Outcome: OutcomeReturned, Value: map[string]any{"returned": nil, "written": []any{"status 405; Allow: GET; "}}}},
		{"the host of a full URL", "Host", []any{req("GET", "http://example.org/x", "", nil)}, Reply{Outcome: OutcomeReturned, Value: "example.org"}},
		{"a target no request can have", "Host", []any{req("GET", "::", "", nil)}, Reply{Outcome: OutcomeRaised, Refused: true, Exc: &Exc{Class: "premise.DecodeError"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := a.Call(context.Background(), Call{ID: "x", Target: p + tc.target, Args: tc.args})
			if err != nil {
				t.Fatal(err)
			}
			got.ID, got.Elapsed, got.Detail = "", 0, ""
			if got.Exc != nil {
				got.Exc.Message = ""
			}
			if diff := replyDiff(t, tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestGoHarnessServesMiddleware: a middleware's next handler is built from
// {"$go": "http.Handler"} (one that counts its runs and says so), and a
// returned http.Handler is reported as the requests it serves, so a
// middleware that calls next twice, or never, differs from one that
// calls it once.
func TestGoHarnessServesMiddleware(t *testing.T) {
	t.Parallel()
	src := `package mw

import "net/http"

// Once calls next once.
func Once(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { next.ServeHTTP(w, r) })
}

// Twice falls through to a second call, the bug of an early return left out.
func Twice(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != "" {
			next.ServeHTTP(w, r)
		}
		next.ServeHTTP(w, r)
	})
}

// Deny answers 403 for a POST without calling next.
func Deny(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			w.WriteHeader(http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}
`
	dir := writeTree(t, map[string]string{"go.mod": "module example.com/mw\n\ngo 1.21\n", "mw.go": src})
	const p = "example.com/mw."
	a, err := NewGoAdapter(context.Background(), GoConfig{Dir: dir, Targets: []string{p + "Once", p + "Twice", p + "Deny"}, Timeout: 5 * time.Second, Private: true, HTTP: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	next := map[string]any{"$go": "http.Handler", "value": nil}
	served := func(target string) []string {
		got, err := a.Call(context.Background(), Call{ID: "x", Target: p + target, Args: []any{next}})
		if err != nil {
			t.Fatal(err)
		}
		v, ok := got.Value.(map[string]any)
		if got.Outcome != OutcomeReturned || !ok {
			t.Fatalf("%s: %s %v %v", target, got.Outcome, got.Value, got.Exc)
		}
		var out []string
		for _, s := range v["$served"].([]any) {
			out = append(out, s.(string))
		}
		return out
	}
	once, twice, deny := served("Once"), served("Twice"), served("Deny")
	if len(once) != 3 || !strings.HasPrefix(once[0], "GET /: status 200; ") || !strings.HasSuffix(once[0], `"next"; next ran 1`) {
		t.Errorf("Once served %q", once)
	}
	if !strings.HasSuffix(twice[0], `"nextnext"; next ran 2`) {
		t.Errorf("Twice served %q", twice)
	}
	if !strings.HasPrefix(deny[1], "POST /a: status 403; ") || !strings.HasSuffix(deny[1], "next ran 0") || deny[0] != once[0] {
		t.Errorf("Deny served %q", deny)
	}
}

// TestGoHarnessReadsNoFuncAddress: a returned value of the package's own
// type whose JSON is {} is compared by its read methods, but not by one
// returning a function (an iterator): its text is an address, which two
// builds of the same code give differently.
func TestGoHarnessReadsNoFuncAddress(t *testing.T) {
	t.Parallel()
	src := `package set

type Set struct{ items []int }

func Of(xs ...int) Set { return Set{items: xs} }

func (s *Set) Len() int { return len(s.items) }

func (s *Set) Elements() func(func(int) bool) {
	return func(yield func(int) bool) {
		for _, x := range s.items {
			if !yield(x) {
				return
			}
		}
	}
}
`
	dir := writeTree(t, map[string]string{"go.mod": "module example.com/set\n\ngo 1.23\n", "set.go": src})
	a, err := NewGoAdapter(context.Background(), GoConfig{Dir: dir, Targets: []string{"example.com/set.Of"}, Timeout: 5 * time.Second, Private: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	got, err := a.Call(context.Background(), Call{ID: "x", Target: "example.com/set.Of", Args: []any{int64(1), int64(2)}, Kwargs: map[string]any{"$observe": 1}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"$read": map[string]any{"Len()": num("2")}}
	got.ID, got.Elapsed, got.Detail = "", 0, ""
	if diff := replyDiff(t, Reply{Outcome: OutcomeReturned, Value: want}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestGoHarnessGenericReceiver: a method of a generic type is called on
// an instantiation of it, with a receiver its generic constructor builds,
// exported or not.
func TestGoHarnessGenericReceiver(t *testing.T) {
	t.Parallel()
	src := "package q\n\nimport \"fmt\"\n\ntype Queue[T any] struct{ items []T }\n\nfunc NewQueue[T any](first T) *Queue[T] { return &Queue[T]{items: []T{first}} }\n\n" +
		"func (q *Queue[T]) Back() (T, bool) {\n\tvar zero T\n\tif len(q.items) == 0 {\n\t\treturn zero, false\n\t}\n\treturn q.items[len(q.items)-1], true\n}\n\n" +
		"type stack[K comparable, V any] struct{ k K; v V }\n\nfunc newStack[K comparable, V any](k K, v V) *stack[K, V] { return &stack[K, V]{k, v} }\n\n" +
		"func (s *stack[K, V]) pair(sep string) string { return fmt.Sprint(s.k, sep, s.v) }\n"
	dir := writeTree(t, map[string]string{"go.mod": "module example.com/q\n\ngo 1.21\n", "q.go": src})
	targets := []string{"example.com/q.(*Queue[int]).Back", "example.com/q.NewQueue[int]", "example.com/q.(*stack[string,int]).pair", "example.com/q.newStack[string,int]"}
	a := privateGoAdapter(t, dir, targets)
	for _, c := range []struct {
		target string
		args   []any
		want   string
	}{
		{targets[0], []any{map[string]any{"$new": targets[1], "$args": []any{7}}}, "[7 true]"},
		{targets[2], []any{map[string]any{"$new": targets[3], "$args": []any{"a", 1}}, "="}, "a=1"},
	} {
		r, err := a.Call(context.Background(), Call{ID: "x", Target: c.target, Args: c.args})
		if err != nil || r.Outcome != OutcomeReturned || fmt.Sprint(r.Value) != c.want {
			t.Errorf("%s: %+v, %v; want %s", c.target, r, err, c.want)
		}
	}
}

// FuzzSplitGoTarget: a target is read or refused, never a panic, and one
// read names a function or method its expression calls.
func FuzzSplitGoTarget(f *testing.F) {
	for _, s := range []string{"example.com/a.F", "example.com/q.(*Queue[int]).Back", "example.com/lo.Map[int,string]", "./sub.T.M", "example.com/a.(*T]).M", "a.(*[).M"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		gt, err := splitGoTarget(s, "example.com/m")
		if err != nil {
			return
		}
		if !token.IsIdentifier(gt.name) || gt.pkg == "" || gt.recv != "" && !token.IsIdentifier(gt.recv) {
			t.Errorf("%q read as %+v", s, gt)
		}
	})
}

// A receiver's building steps ({"$then": [...]}) are called in order on
// what its constructor built, a value one through a pointer to it; the
// methods they name are built into the harness as the table names them;
// a step that panics fails the row as its constructor would.
func TestGoHarnessBuildsReceiverBySteps(t *testing.T) {
	t.Parallel()
	src := "package q\n\ntype Stack struct{ items []int }\n\nfunc New() Stack { return Stack{} }\n\n" +
		"func (s *Stack) Push(v int) { s.items = append(s.items, v) }\n\n" +
		"func (s *Stack) Pop() int { v := s.items[len(s.items)-1]; s.items = s.items[:len(s.items)-1]; return v }\n\n" +
		"func (s *Stack) Top() int { return s.items[len(s.items)-1] }\n\n" +
		"type Set map[string]bool\n\nfunc NewSet() Set { return Set{} }\n\nfunc (s Set) Add(k string) { s[k] = true }\n\nfunc (s Set) Len() int { return len(s) }\n"
	dir := writeTree(t, map[string]string{"go.mod": "module example.com/q\n\ngo 1.21\n", "q.go": src})
	step := func(m string, args ...any) map[string]any {
		return map[string]any{"$call": "example.com/q.(*Stack)." + m, "$args": append([]any{}, args...)}
	}
	built := func(steps ...any) []any {
		return []any{map[string]any{"$new": "example.com/q.New", "$args": []any{}, "$then": steps}}
	}
	set := []any{map[string]any{"$new": "example.com/q.NewSet", "$args": []any{}, "$then": []any{
		map[string]any{"$call": "example.com/q.(*Set).Add", "$args": []any{"a"}}, map[string]any{"$call": "example.com/q.(*Set).Add", "$args": []any{"b"}}}}}
	rows := [][]any{
		built(step("Push", 1), step("Push", 2), step("Push", 3), step("Pop")),
		built(step("Pop")),
		set,
	}
	targets := []string{"example.com/q.(*Stack).Top", "example.com/q.(*Set).Len"}
	for _, r := range rows {
		for _, c := range constructorsIn(r) {
			if !slices.Contains(targets, c) {
				targets = append(targets, c)
			}
		}
	}
	a := privateGoAdapter(t, dir, targets)
	r, err := a.Call(context.Background(), Call{ID: "x", Target: targets[0], Args: rows[0]})
	if err != nil || r.Outcome != OutcomeReturned || fmt.Sprint(r.Value) != "2" {
		t.Errorf("Top after Push 1, 2, 3 and a Pop: %+v, %v; want 2", r, err)
	}
	r, err = a.Call(context.Background(), Call{ID: "z", Target: targets[1], Args: rows[2]})
	if err != nil || r.Outcome != OutcomeReturned || fmt.Sprint(r.Value) != "2" {
		t.Errorf("Len of a set a value method added two keys to: %+v, %v; want 2", r, err)
	}
	r, err = a.Call(context.Background(), Call{ID: "y", Target: targets[0], Args: rows[1]})
	if err != nil || r.Outcome != OutcomeRaised || r.Exc == nil || r.Exc.Class != "premise.ConstructorError" || !strings.Contains(r.Exc.Message, "Pop panicked") {
		t.Errorf("Pop of an empty stack: %+v, %v; want a premise.ConstructorError naming Pop", r, err)
	}
}

// A receiver's exported field is set as a caller assigns it ({"$field":
// "Seq", "$value": 3}) after its constructor and methods, on a value or a
// pointer; a field the type lacks or a value its type refuses is the
// constructor's error. What a call returns that JSON shows nothing of (a
// *bytes.Buffer) is compared by what its String says.
func TestGoHarnessSetsFieldsAndReadsBuffers(t *testing.T) {
	t.Parallel()
	src := "package pl\n\nimport (\n\t\"bytes\"\n\t\"strconv\"\n)\n\n" +
		"type List struct {\n\tSeq   uint64\n\tTitle string\n\titems []string\n}\n\n" +
		"func New() *List { return &List{} }\n\nfunc (l *List) Add(s string) { l.items = append(l.items, s) }\n\n" +
		"func (l *List) Encode() *bytes.Buffer {\n\tvar b bytes.Buffer\n\tif l.Seq != 0 {\n\t\tb.WriteString(\"#SEQ:\" + strconv.FormatUint(l.Seq, 10) + \"\\n\")\n\t}\n" +
		"\tfor _, s := range l.items {\n\t\tb.WriteString(l.Title + s + \"\\n\")\n\t}\n\treturn &b\n}\n\n" +
		"type Pair struct{ A, B int }\n\nfunc (p Pair) Sum() int { return p.A + p.B }\n"
	dir := writeTree(t, map[string]string{"go.mod": "module example.com/pl\n\ngo 1.21\n", "pl.go": src})
	recv := func(steps ...any) []any {
		return []any{map[string]any{"$new": "example.com/pl.New", "$args": []any{}, "$then": append([]any{
			map[string]any{"$call": "example.com/pl.(*List).Add", "$args": []any{"a.ts"}}}, steps...)}}
	}
	field := func(name string, v any) any { return map[string]any{"$field": name, "$value": v} }
	targets := []string{"example.com/pl.(*List).Encode", "example.com/pl.Pair.Sum", "example.com/pl.New", "example.com/pl.(*List).Add"}
	a := privateGoAdapter(t, dir, targets)
	observe := map[string]any{"$observe": 1}
	for _, tc := range []struct {
		name string
		args []any
		want string
	}{
		{"no field set", recv(), `{"$read":{"String()":"a.ts\n"}}`},
		{"two fields set", recv(field("Seq", 5), field("Title", "x/")), `{"$read":{"String()":"#SEQ:5\nx/a.ts\n"}}`},
	} {
		r, err := a.Call(context.Background(), Call{ID: tc.name, Target: targets[0], Args: tc.args, Kwargs: observe})
		b, _ := json.Marshal(r.Value)
		if err != nil || r.Outcome != OutcomeReturned || string(b) != tc.want {
			t.Errorf("%s: Encode %+v (%s), %v; want %s", tc.name, r, b, err, tc.want)
		}
	}
	zero := []any{map[string]any{"$then": []any{field("A", 2), field("B", 3)}}}
	if r, err := a.Call(context.Background(), Call{ID: "pair", Target: targets[1], Args: zero}); err != nil || fmt.Sprint(r.Value) != "5" {
		t.Errorf("Sum of a Pair{A: 2, B: 3} built by its fields: %+v, %v; want 5", r, err)
	}
	for _, bad := range [][]any{recv(field("items", []any{"x"})), recv(field("Nope", 1)), recv(field("Seq", "five"))} {
		r, err := a.Call(context.Background(), Call{ID: "bad", Target: targets[0], Args: bad})
		if err != nil || r.Outcome != OutcomeRaised || r.Exc == nil || r.Exc.Class != "premise.ConstructorError" {
			t.Errorf("%v: %+v, %v; want a premise.ConstructorError", bad, r, err)
		}
	}
}

// An error a package keeps in an exported variable (var ErrEmpty =
// errors.New("empty")) is named by it (Exc.Is), as io.EOF is: a fresh
// errors.New("empty") reads alike and is not it, and an error wrapping it
// is it.
func TestGoHarnessNamesThePackagesOwnSentinels(t *testing.T) {
	t.Parallel()
	src := "package lst\n\nimport (\n\t\"errors\"\n\t\"fmt\"\n)\n\n" +
		"// ErrEmpty is returned for an empty list.\nvar ErrEmpty = errors.New(\"empty\")\n\n" +
		"// ErrLimit is declared as an error.\nvar ErrLimit error = limitError{}\n\n" +
		"var errQuiet = errors.New(\"quiet\")\n\n" +
		"type limitError struct{}\n\nfunc (limitError) Error() string { return \"limit\" }\n\n" +
		"func First(xs []int, how int) (int, error) {\n\tswitch how {\n\tcase 1:\n\t\treturn 0, ErrEmpty\n" +
		"\tcase 2:\n\t\treturn 0, errors.New(\"empty\")\n\tcase 3:\n\t\treturn 0, fmt.Errorf(\"first: %w\", ErrEmpty)\n" +
		"\tcase 4:\n\t\treturn 0, ErrLimit\n\t}\n\treturn 0, errQuiet\n}\n"
	// A sentinel of a file this platform's build leaves out is not one
	// the harness can name: it must still build.
	other := "//go:build plan9\n\npackage lst\n\nimport \"errors\"\n\n// ErrPlan9 is another platform's.\nvar ErrPlan9 = errors.New(\"plan9\")\n"
	dir := writeTree(t, map[string]string{"go.mod": "module example.com/lst\n\ngo 1.21\n", "lst.go": src, "lst_plan9.go": other})
	a, err := NewGoAdapter(context.Background(), GoConfig{Dir: dir, Targets: []string{"example.com/lst.First"}, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	for how, want := range map[int]string{1: "lst.ErrEmpty", 2: "", 3: "lst.ErrEmpty", 4: "lst.ErrLimit", 5: ""} {
		r, err := a.Call(context.Background(), Call{ID: fmt.Sprint(how), Target: "example.com/lst.First", Args: []any{[]any{}, how}})
		if err != nil || r.Outcome != OutcomeRaised || r.Exc == nil || r.Exc.Is != want {
			t.Errorf("First(_, %d): %+v (%+v), %v; want a raise that is %q", how, r, r.Exc, err, want)
		}
	}
}

// privateGoAdapter is a Go adapter for the module in dir calling targets,
// unexported ones included, closed when the test ends.
func privateGoAdapter(t *testing.T, dir string, targets []string) *GoAdapter {
	t.Helper()
	a, err := NewGoAdapter(context.Background(), GoConfig{Dir: dir, Targets: targets, Timeout: 5 * time.Second, Private: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}
