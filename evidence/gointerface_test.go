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
