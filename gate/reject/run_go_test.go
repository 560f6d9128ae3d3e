package reject

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/premise-dev/premise/gate"
)

// billingGo is the Go subject: each function produces exactly one row of
// seed 000's decision table. A Go function takes the fixture as its one
// argument, decoded into Request.
const billingGo = `package billing

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"
)

type Request struct {
	Email  string ` + "`json:\"email\"`" + `
	Tenant string ` + "`json:\"tenant\"`" + `
}

type ValidationError struct {
	Code string
	Msg  string
}

func (e *ValidationError) Error() string { return e.Msg }

// EmailError embeds ValidationError: Go's nearest thing to a subclass.
type EmailError struct{ ValidationError }

type StatusError struct{ status int }

func (e StatusError) Error() string { return "status " + strconv.Itoa(e.status) }
func (e StatusError) Code() int     { return e.status }

func count(key string) int {
	b, _ := os.ReadFile("count_" + key)
	n, _ := strconv.Atoi(string(b))
	os.WriteFile("count_"+key, []byte(strconv.Itoa(n+1)), 0o644)
	return n + 1
}

func RejectEmail(r Request) (map[string]string, error) {
	return nil, &ValidationError{Code: "email.invalid", Msg: "invalid email " + r.Email}
}

func AcceptEmail(r Request) (map[string]string, error) {
	return map[string]string{"email": r.Email}, nil
}

func GenericError(r Request) error { return errors.New("invalid email") }

func Wrapped(r Request) error {
	return fmt.Errorf("create user: %w", &ValidationError{Code: "email.invalid"})
}

func Subclass(r Request) error { return &EmailError{ValidationError{Code: "email.invalid"}} }

func Recoded(r Request) error { return &ValidationError{Code: "email.malformed"} }

func MethodCode(r Request) error { return StatusError{422} }

func Panics(r Request) error { panic("boom") }

func SlowFirst(r Request) error {
	if count(r.Tenant) == 1 {
		time.Sleep(time.Minute)
	}
	return &ValidationError{Code: "email.invalid"}
}

func Crash(r Request) error {
	os.Exit(3)
	return nil
}
`

// TestRunGoSubject runs the decision table against a Go subject through
// premise's Go adapter.
func TestRunGoSubject(t *testing.T) {
	b := newCorpus(t)
	b.file("go.mod", "module example.com/billing\n\ngo 1.22\n")
	b.file("billing.go", billingGo)
	vErr := exc("ValidationError", "email.invalid")
	ns, fz := PolicyNeverSkip, PolicyFreezeClassOnly
	b.entry("held", "example.com/billing.RejectEmail", fixtureFor("a"), vErr, ns)
	b.entry("held-qualified", "example.com/billing.RejectEmail", fixtureFor("b"), exc("*billing.ValidationError", "email.invalid"), ns)
	b.entry("held-code-method", "example.com/billing.MethodCode", fixtureFor("c"), Must{Kind: KindException, Class: "StatusError", Code: jsonNum("422")}, ns)
	b.entry("forbidden-success", "example.com/billing.AcceptEmail", fixtureFor("d"), vErr, ns)
	b.entry("class-changed", "example.com/billing.GenericError", fixtureFor("e"), vErr, ns)
	b.entry("class-wrapped", "example.com/billing.Wrapped", fixtureFor("f"), vErr, ns)
	b.entry("class-embedded", "example.com/billing.Subclass", fixtureFor("g"), vErr, ns)
	b.entry("code-changed", "example.com/billing.Recoded", fixtureFor("h"), vErr, ns)
	b.entry("panic", "example.com/billing.Panics", fixtureFor("i"), vErr, ns)
	b.entry("slow-never-skip", "example.com/billing.SlowFirst", fixtureFor("j"), vErr, ns)
	b.entry("slow-freeze", "example.com/billing.SlowFirst", fixtureFor("k"), vErr, fz)
	b.entry("crash", "example.com/billing.Crash", fixtureFor("l"), vErr, ns)
	b.entry("hash-drift", "example.com/billing.AcceptEmail", fixtureFor("m"), vErr, ns)
	b.file(DefaultCorpusDir+"/hash-drift.json", `{"email": "ok@example.com", "tenant": "m"}`+"\n")
	c := b.load()
	before := b.snapshot()
	var targets []string
	for _, e := range c.Lock.Entries {
		targets = append(targets, e.Target)
	}
	ad, err := gate.NewGoAdapter(context.Background(), gate.GoConfig{Dir: b.dir, Targets: targets, Timeout: 1500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer ad.Close()
	rep, err := (&Runner{Adapter: ad, Positional: true}).Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	want := []row{
		{"held", true, ReasonHeld, 3},
		{"held-qualified", true, ReasonHeld, 3},
		{"held-code-method", true, ReasonHeld, 3},
		{"forbidden-success", false, ReasonForbiddenSuccess, 1},
		{"class-changed", false, ReasonClassMismatch, 1},
		{"class-wrapped", false, ReasonClassMismatch, 1},
		{"class-embedded", false, ReasonClassMismatch, 1},
		{"code-changed", false, ReasonCodeMismatch, 1},
		{"panic", false, ReasonClassMismatch, 1},
		{"slow-never-skip", false, ReasonNoReject, 1},
		{"slow-freeze", true, ReasonHeld, 2},
		{"crash", false, ReasonNoReject, 1},
		{"hash-drift", false, ReasonHashDrift, 0},
	}
	if diff := cmp.Diff(want, rows(rep)); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
		for _, r := range rep.Results {
			t.Log(r.ID, r.Detail)
		}
	}
	b.unchanged(before)
	var text strings.Builder
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	golden(t, "decision_table_go.txt", normalize(text.String(), b.dir, "$URL"))
}
