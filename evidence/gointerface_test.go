package evidence_test

import (
	"strings"
	"testing"

	"github.com/premise-dev/premise/evidence"
)

// A parameter of an interface of another package of the module
// (evalfilter's left, right object.Object) whose implementers have no
// constructor gets them built from their fields, &object.Integer{Value:
// 3}: a patch that drops the division-by-zero check shows on an Integer
// of 0, where no value could be built before.
func TestGoInterfaceImplementersBuiltFromTheirFields(t *testing.T) {
	t.Parallel()
	object := `package object

// Object is a value of the language.
type Object interface {
	Type() string
	Inspect() string
}

// Integer is a whole number.
type Integer struct {
	Value int64
}

func (i *Integer) Type() string    { return "INTEGER" }
func (i *Integer) Inspect() string { return "int" }
`
	calc := func(check string) string {
		return `package calc

import (
	"errors"

	"example.com/ev/object"
)

// Div divides two integers.
func Div(left, right object.Object) (int64, error) {
	l, ok := left.(*object.Integer)
	r, ok2 := right.(*object.Integer)
	if !ok || !ok2 {
		return 0, errors.New("type mismatch")
	}
` + check + `	return l.Value / r.Value, nil
}
`
	}
	base := map[string]string{"go.mod": "module example.com/ev\n\ngo 1.21\n", "object/object.go": object,
		"calc/calc.go": calc("\tif r.Value == 0 {\n\t\treturn 0, errors.New(\"division by zero\")\n\t}\n")}
	rep := runCommits(t, base, map[string]string{"calc/calc.go": calc("")}, nil)
	if !hasChange(rep, "example.com/ev/calc.Div", func(c evidence.Change) bool { return strings.Contains(c.Head, "panic") }) {
		t.Errorf("the head divides by zero, yet no change shows it: changes %+v, symbols %+v", append(rep.Changes, rep.Unexplained...), rep.Symbols)
	}
}

// A parameter of an interface of another package of the module whose
// only implementer is unexported there, built by an exported constructor
// that returns the interface itself (goqu's sb.NewSQLBuilder(isPrepared
// bool) SQLBuilder), gets values from that constructor: a patch that
// drops a limit's parentheses shows, where no value could be built and
// the function went unchecked.
func TestGoInterfaceBuiltByItsOwnConstructor(t *testing.T) {
	t.Parallel()
	sb := `package sb

import "strings"

// Builder collects SQL text.
type Builder interface {
	WriteString(s string) Builder
	String() string
}

type builder struct{ b *strings.Builder }

// New returns an empty Builder.
func New(prepared bool) Builder { return &builder{b: &strings.Builder{}} }

func (b *builder) WriteString(s string) Builder { b.b.WriteString(s); return b }
func (b *builder) String() string               { return b.b.String() }
`
	gen := func(limit string) string {
		return `package gen

import "example.com/q/sb"

// Limit writes a LIMIT clause.
func Limit(b sb.Builder, n int) string {
	b.WriteString(` + limit + `)
	return b.String()
}
`
	}
	base := map[string]string{"go.mod": "module example.com/q\n\ngo 1.21\n", "sb/sb.go": sb, "gen/gen.go": gen(`"LIMIT ("`)}
	rep := runCommits(t, base, map[string]string{"gen/gen.go": gen(`"LIMIT "`)}, nil)
	if s := symbolRows(t, rep, "example.com/q/gen.Limit"); s.Rows == 0 {
		t.Fatalf("Limit got no rows (%s); want its Builder from sb.New", s.Why)
	}
	if !hasChange(rep, "example.com/q/gen.Limit", nil) {
		t.Errorf("Limit dropped its parenthesis, yet no change shows it: %+v", rep.Symbols)
	}
}
